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
    save_yaml(scenario / "units.yaml", {"unit_types": []}, within=scenario)
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
        save_yaml(tmp_path / "map.yaml", {"spaces": []}, within=tmp_path)
    finally:
        os.umask(old)
    assert (tmp_path / "map.yaml").stat().st_mode & 0o777 == mode


@POSIX
def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("spaces: []\n")
    path.chmod(0o640)
    save_yaml(path, {"spaces": [{"id": "a"}]}, within=tmp_path)
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


# -- one check for every write (PATH001), in sandtable/paths.py and sandtable/safewrite.py -------
from sandtable.paths import PathEscape, write_target  # noqa: E402
from sandtable.safewrite import ChangedOnDisk, Fingerprint, atomic_write_text, remove_file  # noqa: E402
from sandtable.scenario import file_path, is_file_kind  # noqa: E402


@pytest.mark.parametrize("kind, verdict", [
    ("scenario", True), ("map", True), ("tables", True), ("locale:zh-Hans", True),
    ("locale:pt-BR", True), ("locale:es-419", True), ("locale:de", True),
    ("locale:../../../.pre-commit-config", False), ("locale:de/../../x", False), ("locale:de\n", False),
    ("locale:", False), ("locale", False), ("locale:zh-hans", False), ("locale:ZH", False),
    ("Map", False), ("../map", False), ("map:x", False), ("", False), (None, False), (5, False)])
def test_only_real_file_kinds_name_a_file(tmp_path, kind, verdict):
    assert is_file_kind(kind) is verdict
    if verdict:
        assert file_path(tmp_path, kind).parent in (tmp_path, tmp_path / "locales")
    else:
        with pytest.raises(ValueError, match="is not a kind of scenario file"):
            file_path(tmp_path, kind)


@POSIX
def test_write_target_refuses_every_way_out(scenario, outside):
    assert write_target(scenario, scenario / "map.yaml") == (scenario / "map.yaml").resolve()
    with pytest.raises(PathEscape, match=r"\.\./outside/x.yaml leads outside scenario/"):
        write_target(scenario, scenario / ".." / "outside" / "x.yaml")
    (scenario / "units.yaml").unlink()
    (scenario / "units.yaml").symlink_to(outside / "secret.yaml")
    with pytest.raises(PathEscape) as refused:
        write_target(scenario, scenario / "units.yaml")
    assert refused.value.code == "PATH001"
    # Not following the link: the link itself, inside the folder, is what a write replaces.
    assert write_target(scenario, scenario / "units.yaml", follow_link=False) == \
        scenario.resolve() / "units.yaml"
    (scenario / "locales").symlink_to(outside, target_is_directory=True)
    for follow in (True, False):
        with pytest.raises(PathEscape):
            write_target(scenario, scenario / "locales" / "de.yaml", follow_link=follow)
    with pytest.raises(PathEscape, match="names no file"):
        write_target(scenario, scenario / "..", follow_link=False)


@POSIX
def test_an_atomic_write_never_goes_through_a_link_out_of_its_folder(scenario, outside):
    (scenario / "units.yaml").unlink()
    (scenario / "units.yaml").symlink_to(outside / "secret.yaml")
    with pytest.raises(PathEscape):
        atomic_write_text(scenario / "units.yaml", "unit_types: []\n", within=scenario)
    assert (outside / "secret.yaml").read_text(encoding="utf-8") == "password:   hunter2\n"
    assert sorted(p.name for p in outside.iterdir()) == ["de.yaml", "secret.yaml"]  # no temporary
    (scenario / "dangling.yaml").symlink_to(outside / "new.yaml")
    with pytest.raises(PathEscape):
        atomic_write_text(scenario / "dangling.yaml", "x: 1\n", within=scenario)
    assert not (outside / "new.yaml").exists()


@POSIX
def test_without_following_a_link_the_link_itself_is_replaced_or_removed(scenario, outside):
    link = scenario / "notes"
    link.symlink_to(outside / "secret.yaml")
    atomic_write_text(link, "mine\n", within=scenario, follow_link=False)
    assert not link.is_symlink() and link.read_text(encoding="utf-8") == "mine\n"
    assert (outside / "secret.yaml").read_text(encoding="utf-8") == "password:   hunter2\n"
    link.unlink()
    link.symlink_to(outside / "secret.yaml")
    assert remove_file(link, within=scenario)
    assert not os.path.lexists(link) and (outside / "secret.yaml").exists()
    assert not remove_file(link, within=scenario)


def test_a_file_changed_since_it_was_read_is_not_replaced(tmp_path):
    """Compare before replace: the writer passes what it read; another program's save in
    between is never undone, and nothing is left behind."""
    path = tmp_path / "map.yaml"
    path.write_bytes(b"spaces: []\n")
    read = Fingerprint.of(path.read_bytes())
    path.write_bytes(b"spaces: [a]\n")          # another program's save, same size or not
    with pytest.raises(ChangedOnDisk, match="map.yaml changed on disk since it was read"):
        atomic_write_text(path, "spaces: [b]\n", within=tmp_path, unchanged_since=read)
    assert path.read_bytes() == b"spaces: [a]\n" and [p.name for p in tmp_path.iterdir()] == ["map.yaml"]
    path.write_bytes(b"spaces: [z]\n")          # the same size: only the hash tells them apart
    with pytest.raises(ChangedOnDisk):
        atomic_write_text(path, "spaces: [b]\n", within=tmp_path,
                          unchanged_since=Fingerprint.of(b"spaces: [a]\n"))
    atomic_write_text(path, "spaces: [b]\n", within=tmp_path,
                      unchanged_since=Fingerprint.of(b"spaces: [z]\n"))
    assert path.read_bytes() == b"spaces: [b]\n"
    with pytest.raises(ChangedOnDisk):        # None: the file must still be absent
        atomic_write_text(path, "spaces: []\n", within=tmp_path, unchanged_since=None)


def test_save_yaml_compares_with_what_it_read(tmp_path, monkeypatch):
    """save_yaml reads the file it replaces (to keep its comments): a save by another program
    between that read and the replace is not undone."""
    import sandtable.yamlwrite as yamlwrite
    path = tmp_path / "map.yaml"
    path.write_text("spaces: []  # mine\n", encoding="utf-8")
    render = yamlwrite.render_yaml

    def render_while_another_program_saves(*args, **kwargs):
        path.write_text("spaces: [theirs]\n", encoding="utf-8")
        return render(*args, **kwargs)
    monkeypatch.setattr(yamlwrite, "render_yaml", render_while_another_program_saves)
    with pytest.raises(ChangedOnDisk):
        save_yaml(path, {"spaces": [{"id": "a"}]}, within=tmp_path)
    assert path.read_text(encoding="utf-8") == "spaces: [theirs]\n"


def test_no_module_writes_a_file_but_through_the_one_check():
    """Every write of sandtable/ and editor/ goes through sandtable/safewrite.py (which calls
    paths.write_target): no other module opens a file for writing, replaces, copies or removes one."""
    import ast
    path_writers = {"write_text", "write_bytes", "unlink", "touch", "symlink_to", "hardlink_to"}
    module_writers = {"os": {"replace", "rename", "remove", "unlink", "link", "symlink"},
                      "shutil": {"copy", "copy2", "copyfile", "copytree", "move", "rmtree"}}
    found = []
    for source in sorted([*(REPO / "sandtable").rglob("*.py"), *(REPO / "editor").rglob("*.py")]):
        if source.name == "safewrite.py":
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            owner = getattr(getattr(func, "value", None), "id", None)
            modes = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)] + \
                [k.value.value for k in node.keywords if k.arg == "mode" and isinstance(k.value, ast.Constant)]
            if (isinstance(func, ast.Attribute) and name in path_writers) or \
                    name in module_writers.get(owner or "", ()) or \
                    (name == "open" and any(isinstance(m, str) and set(m) & set("wax+") for m in modes)):
                found.append(f"{source.relative_to(REPO)}:{node.lineno} {name}")
    assert found == []
