"""Unsaved work survives a crash: kept every minute in the scenario's recovery file, offered back
at the next opening as one undo step, and gone after a save or a deliberate discard."""
from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from editor import recovery  # noqa: E402
from editor.main_window import AUTOSAVE_MS, MainWindow  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORKSHOP = REPO / "tests" / "fixtures" / "editor" / "workshop"
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


@pytest.fixture
def folder(tmp_path) -> Path:
    target = tmp_path / "workshop"
    shutil.copytree(WORKSHOP, target)
    return target


def open_window(monkeypatch, tmp_path, folder, answer):
    """Open the scenario; any question is answered `answer`, and remembered."""
    asked = []

    def question(*args, **kwargs):
        asked.append(args[2])
        return answer
    monkeypatch.setattr(QMessageBox, "question", question)
    window = MainWindow(QSettings(str(tmp_path / "editor.ini"), QSettings.IniFormat))
    window.open_folder(folder)
    return window, asked


def close(window):
    window.confirm_discard = lambda: True
    window.close()
    window.deleteLater()
    gc.collect()


def test_work_kept_before_a_crash_is_offered_back(qtbot, tmp_path, folder, monkeypatch):
    script = CRASHING.format(repo=str(REPO), ini=str(tmp_path / "crash.ini"), folder=str(folder))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr.decode()
    assert (folder / ".sandtable-recovery").is_file()
    before = (folder / "map.yaml").read_text()
    window, asked = open_window(monkeypatch, tmp_path, folder, QMessageBox.Yes)
    assert len(asked) == 1 and asked[0].startswith("Unsaved work of ")
    spaces = {s["id"]: s for s in window.document.own("map")["spaces"]}
    assert spaces["finland"]["name"] == "Suomi"
    assert window.document.locale_tags == []      # the locale it had taken out
    assert window.document.is_dirty() and window.document.undo_stack.count() == 1
    assert (folder / "map.yaml").read_text() == before          # nothing written until a save
    window.document.undo_stack.undo()
    assert next(s for s in window.document.own("map")["spaces"] if s["id"] == "finland")["name"] == "Finland"
    window.document.undo_stack.redo()
    assert window.save()
    assert not (folder / ".sandtable-recovery").exists()
    assert "Suomi" in (folder / "map.yaml").read_text()
    assert not (folder / "locales" / "zh-Hans.yaml").exists()
    close(window)


def test_declining_the_offer_drops_the_recovery_file(qtbot, tmp_path, folder, monkeypatch):
    window, _ = open_window(monkeypatch, tmp_path, folder, QMessageBox.No)
    assert window.autosave_timer.isActive() and window.autosave_timer.interval() == AUTOSAVE_MS == 60_000
    window.autosave()
    assert not (folder / ".sandtable-recovery").exists()     # nothing unsaved, nothing kept
    window.scene.rename("norway", "Norge")
    window.autosave()
    kept = recovery.read(window.document)
    assert list(kept.files) == ["map"] and kept.removed == []
    close(window)
    window, asked = open_window(monkeypatch, tmp_path, folder, QMessageBox.No)
    assert len(asked) == 1 and not (folder / ".sandtable-recovery").exists()
    assert not window.document.is_dirty()
    close(window)


def test_the_recovery_file_is_not_a_scenario_file(tmp_path, folder):
    from sandtable.scenario import load_scenario
    (folder / ".sandtable-recovery").write_text("written: 1\nfiles: {}\n", encoding="utf-8")
    assert [d.code for d in load_scenario(folder).diagnostics] == []
