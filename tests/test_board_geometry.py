"""Board geometry: outlines in map.yaml."""
from __future__ import annotations

from pathlib import Path

import pytest

from sandtable.scenario import load_scenario
from sandtable.yamlwrite import dump_canonical
from validators import validate


# -- map.yaml: the schema and the canonical form ---------------------------------------------
def test_a_ring_is_written_on_one_line_however_long():
    ring = [[x, x % 7] for x in range(300)]
    text = dump_canonical({"spaces": [{"id": "a", "name": "A", "kind": "land", "position": [1, 2],
                                       "shape": {"polygons": [ring, [[0, 0], [5, 0], [0, 5]]], "label": [3, 4]}}]},
                          kind="map")
    lines = text.splitlines()
    assert lines[5:10] == ["  shape:", "    polygons:", "    - " + str(ring),
                           "    - [[0, 0], [5, 0], [0, 5]]", "    label: [3, 4]"]


@pytest.mark.parametrize("map_text, code, line, column, hint", [
    ("board: {}\n", "SCH007", 1, 8, "give 'image', or 'width' and 'height'"),
    ("spaces:\n- {id: a, name: A, kind: land, shape: {polygons: [[[0, 0], [1, 1]]]}}\n", "SCH006", 2, 51, None),
    ("spaces:\n- {id: a, name: A, kind: land, shape: {label: [1, 1]}}\n", "SCH002", 2, 39, None),
])
def test_schema_refuses_a_board_without_extent_and_broken_shapes(tmp_path, map_text, code, line, column, hint):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "scenario.yaml").write_text("id: s\nname: S\nsystem: generic\n", encoding="utf-8")
    (folder / "map.yaml").write_text(map_text, encoding="utf-8")
    found = [d for d in validate(load_scenario(folder)) if d.severity.value != "info"]
    assert [(d.code, Path(d.file).name, d.line, d.column, d.hint) for d in found] == [
        (code, "map.yaml", line, column, hint)]


def test_a_board_may_give_its_extent_without_a_picture(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "scenario.yaml").write_text("id: s\nname: S\nsystem: generic\n", encoding="utf-8")
    (folder / "map.yaml").write_text(
        "board: {width: 100, height: 50}\nspaces:\n- id: a\n  name: A\n  kind: land\n  position: [5, 5]\n"
        "  shape:\n    polygons:\n    - [[0, 0], [10, 0], [10, 10]]\n    label: [1, 8]\n", encoding="utf-8")
    assert [d.code for d in validate(load_scenario(folder)) if d.severity.value != "info"] == []
