"""Saving: canonical (stable order, same bytes for the same data) and atomic."""
from __future__ import annotations

import os
import shutil

import pytest

from sandtable.safewrite import atomic_write_text
from sandtable.scenario import FILE_KINDS, load_scenario
from sandtable.yamlsource import read_yaml_file
from sandtable.yamlwrite import SaveRefused, dump_canonical, leading_comments, save_yaml

from helpers import FIXTURES, REPO


def bundled_files():
    return sorted(p for p in (REPO / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", bundled_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_bundled_files_are_canonical_and_round_trip(path, tmp_path):
    doc = read_yaml_file(path)
    copy = tmp_path / path.relative_to(REPO / "scenarios")
    copy.parent.mkdir(parents=True)
    save_yaml(copy, doc.data, leading_comments(doc.text), within=tmp_path)
    assert read_yaml_file(copy).data == doc.data          # load -> save -> load: same document
    assert copy.read_text(encoding="utf-8") == doc.text    # and the files are already canonical


def test_canonical_order_follows_the_schema():
    text = dump_canonical({"units": [{"count": 2, "owner": "germany", "type": "infantry"}]})
    assert text == "units:\n- {count: 2, owner: germany, type: infantry}\n"  # no schema: A-Z
    units = {"spaces": [{"units": [{"count": 2, "type": "infantry"}], "space": "karelia"}]}
    assert dump_canonical(units, kind="setup") == \
        "spaces:\n- {space: karelia, units: [{type: infantry, count: 2}]}\n"


def test_strings_that_look_like_other_types_are_quoted():
    data = {"codes": ["NO", "0o17", "1_000", "true", "12", "null", "plain"]}
    text = dump_canonical(data)
    assert "'0o17'" in text and "'12'" in text and "'true'" in text and "plain" in text
    from pathlib import Path

    from sandtable.yamlsource import parse_yaml
    assert parse_yaml(text, Path("x.yaml")).data == data


def test_multiline_text_survives():
    data = {"notes": "first line\nsecond line\n"}
    from pathlib import Path

    from sandtable.yamlsource import parse_yaml
    assert parse_yaml(dump_canonical(data), Path("x.yaml")).data == data


def test_save_keeps_the_schema_comment(tmp_path):
    path = tmp_path / "map.yaml"
    header = "# yaml-language-server: $schema=../../schemas/map.schema.json\n"
    save_yaml(path, {"spaces": []}, header, within=tmp_path)
    assert path.read_text().startswith(header)
    assert leading_comments(path.read_text()) == header


def test_atomic_write_leaves_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "units.yaml"
    path.write_text("unit_types: []\n")

    def broken_replace(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write_text(path, "unit_types: [changed]\n", within=tmp_path)
    assert path.read_text() == "unit_types: []\n"
    assert [p.name for p in tmp_path.iterdir()] == ["units.yaml"]  # no temporary file left


def test_atomic_write_keeps_the_file_mode(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("spaces: []\n")
    path.chmod(0o640)
    atomic_write_text(path, "spaces: []\nborders: []\n", within=tmp_path)
    assert path.stat().st_mode & 0o777 == 0o640


def test_data_that_cannot_be_written_faithfully_is_refused(tmp_path):
    path = tmp_path / "map.yaml"
    with pytest.raises(SaveRefused):
        save_yaml(path, {"value": float("nan")}, within=tmp_path)  # NaN never equals itself after a round trip
    assert not path.exists()


def test_whole_scenario_round_trip(tmp_path):
    shutil.copytree(FIXTURES / "core" / "base", tmp_path / "base")
    before = load_scenario(tmp_path / "base")
    for name in FILE_KINDS.values():
        path = tmp_path / "base" / name
        if path.exists():
            doc = read_yaml_file(path)
            save_yaml(path, doc.data, leading_comments(doc.text), within=tmp_path)
    after = load_scenario(tmp_path / "base")
    assert {k: t.data for k, t in after.documents.items()} == {k: t.data for k, t in before.documents.items()}
