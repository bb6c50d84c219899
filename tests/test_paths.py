"""Nothing is read or written outside the scenario folder, whatever links it holds; files on
disk are what the user's umask says; odd files never hang a command."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from sandtable.cli import main
from sandtable.yamlwrite import save_yaml

from helpers import FIXTURES, REPO, diagnostics_of, find_code

BASE = FIXTURES / "core" / "base"
POSIX = pytest.mark.skipif(os.name != "posix", reason="symbolic links and FIFOs as on POSIX")


@pytest.fixture
def scenario(tmp_path):
    folder = tmp_path / "scenario"
    shutil.copytree(BASE, folder)
    return folder


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text("password:   hunter2\n", encoding="utf-8")
    (folder / "de.yaml").write_text("locale: de\nentries:   {}\n", encoding="utf-8")
    return folder


@POSIX
def test_format_does_not_read_a_file_linked_from_outside(scenario, outside, capsys):
    (scenario / "units.yaml").unlink()
    (scenario / "units.yaml").symlink_to(outside / "secret.yaml")
    assert main(["format", str(scenario)]) == 1
    assert "units.yaml:1:1: error PATH001" in capsys.readouterr().err
    assert (scenario / "units.yaml").is_symlink()
    assert (outside / "secret.yaml").read_text(encoding="utf-8") == "password:   hunter2\n"


@POSIX
def test_format_and_validate_refuse_a_locales_folder_linked_from_outside(scenario, outside, capsys):
    (scenario / "locales").symlink_to(outside, target_is_directory=True)
    assert main(["format", str(scenario)]) == 1
    assert (outside / "de.yaml").read_text(encoding="utf-8") == "locale: de\nentries:   {}\n"
    capsys.readouterr()
    problem = find_code(diagnostics_of(scenario), "PATH001")[0]
    assert problem.file == scenario / "locales"
    assert main(["validate", str(scenario)]) == 1
    assert "error PATH001: locales/ links to a folder outside" in capsys.readouterr().out


@POSIX
def test_i18n_import_does_not_write_through_a_linked_locales_folder(tmp_path, outside, capsys):
    folder = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "i18n" / "tiny", folder)
    shutil.rmtree(folder / "locales")
    (folder / "locales").symlink_to(outside, target_is_directory=True)
    po = tmp_path / "de.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgctxt "spaces.norway.name"\n'
                  'msgid "Norway"\nmsgstr "Norwegen"\n', encoding="utf-8")
    assert main(["i18n", "import", str(folder), str(po)]) == 1
    assert "PATH001" in capsys.readouterr().err
    assert (outside / "de.yaml").read_text(encoding="utf-8") == "locale: de\nentries:   {}\n"


@POSIX
def test_a_link_inside_the_folder_is_written_through_and_kept(scenario):
    (scenario / "real-units.yaml").write_text((scenario / "units.yaml").read_text(encoding="utf-8"))
    (scenario / "units.yaml").unlink()
    (scenario / "units.yaml").symlink_to("real-units.yaml")
    save_yaml(scenario / "units.yaml", {"unit_types": []})
    assert (scenario / "units.yaml").is_symlink()
    assert (scenario / "real-units.yaml").read_text(encoding="utf-8").endswith("unit_types: []\n")


def test_validate_dot_inside_a_variant_finds_its_parent(monkeypatch, capsys):
    monkeypatch.chdir(REPO / "scenarios" / "aa50-1942")
    assert main(["validate", "."]) == 0
    assert "VAR004" not in capsys.readouterr().out


@POSIX
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_files_get_the_permissions_of_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        save_yaml(tmp_path / "map.yaml", {"spaces": []})
    finally:
        os.umask(old)
    assert (tmp_path / "map.yaml").stat().st_mode & 0o777 == mode


@POSIX
def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("spaces: []\n")
    path.chmod(0o640)
    save_yaml(path, {"spaces": [{"id": "a"}]})
    assert path.stat().st_mode & 0o777 == 0o640


@POSIX
def test_a_fifo_named_like_a_scenario_file_is_refused_not_waited_on(scenario):
    (scenario / "units.yaml").unlink()
    os.mkfifo(scenario / "units.yaml")
    done = subprocess.run([sys.executable, "-m", "sandtable", "validate", str(scenario)],
                          capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 1
    assert "units.yaml:1:1: error IO001: cannot read the file: it is not a regular file" in done.stdout


def test_format_on_a_full_disk_says_so_and_leaves_the_file(scenario, monkeypatch, capsys):
    (scenario / "units.yaml").write_text("unit_types:   []\n", encoding="utf-8")

    def full(_):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    assert main(["format", str(scenario)]) == 2
    err = capsys.readouterr().err
    assert "units.yaml: No space left on device; the file was left as it was" in err
    assert (scenario / "units.yaml").read_text(encoding="utf-8") == "unit_types:   []\n"
    assert [p.name for p in scenario.iterdir() if p.name.startswith(".")] == []


def test_the_editor_does_not_read_or_write_a_file_linked_from_outside(scenario, outside, qapp):
    if os.name != "posix":
        pytest.skip("symbolic links as on POSIX")
    from editor.document import ScenarioDocument
    (scenario / "units.yaml").unlink()
    (scenario / "units.yaml").symlink_to(outside / "secret.yaml")
    document = ScenarioDocument(scenario)
    assert document.files["units"].data is None
    assert document.files["units"].problem.code == "PATH001"
    document.save(scenario)
    assert (outside / "secret.yaml").read_text(encoding="utf-8") == "password:   hunter2\n"
