"""Board geometry: outlines in map.yaml, simplified; read from TripleA map folders; the AA50 board."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandtable.cli import main
from sandtable.geometry import TooIntricate, kept_points, segment_distances, simplify_ring, without_repeats
from sandtable.scenario import load_scenario
from sandtable.triplea import territory_id
from sandtable.triplea.mapfolder import read_board
from sandtable.yamlwrite import dump_canonical
from validators import validate

from helpers import FIXTURES, REPO

TRIPLEA = FIXTURES / "triplea"
MAP_FOLDER = TRIPLEA / "small-game-map"
WW2V3 = REPO.parent / "shared" / "reference" / "triplea-maps" / "world_war_ii_v3"
needs_board = pytest.mark.skipif(not WW2V3.is_dir(),
                                 reason="shared/reference/triplea-maps is not beside the repository")


# -- simplifying an outline ------------------------------------------------------------------
def test_points_on_a_straight_edge_are_dropped():
    ring = [[80, 80], [100, 80], [120, 80], [120, 100], [120, 120], [100, 121], [80, 120], [80, 100]]
    assert simplify_ring(ring, 1.5) == [[80, 80], [120, 80], [120, 120], [80, 120]]
    assert simplify_ring(ring, 0.5) == [[80, 80], [120, 80], [120, 120], [100, 121], [80, 120]]


def test_a_spike_beyond_the_end_of_an_edge_is_kept():
    # (130, 80) lies on the line through (80, 80) and (120, 80), 10 px beyond the edge.
    ring = [[80, 80], [130, 80], [120, 80], [120, 120], [80, 120]]
    assert [130, 80] in simplify_ring(ring, 1.5)


def test_a_ring_too_small_to_simplify_is_kept_whole():
    assert simplify_ring([[0, 0], [1, 0], [1, 1], [1, 1]], 5) == [[0, 0], [1, 0], [1, 1]]
    assert simplify_ring([[0, 0], [1, 0], [2, 0], [1, 1]], 5) == [[0, 0], [1, 0], [2, 0], [1, 1]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=4, max_size=40),
       st.sampled_from([1.0, 1.5, 2.0]))
def test_every_dropped_point_stays_within_the_tolerance(points, tolerance):
    ring = without_repeats([list(p) for p in points])
    kept = kept_points(ring, tolerance)
    assert kept == sorted(set(kept)) and (len(kept) >= 3 or len(ring) < 3)
    assert simplify_ring([list(p) for p in points], tolerance) == [ring[i] for i in kept]
    closed = np.vstack([np.asarray(ring, dtype=float), np.asarray(ring[:1], dtype=float)])
    for start, end in zip(kept, kept[1:] + [len(ring)], strict=True):
        inner = closed[start + 1:end]
        if len(inner):  # each dropped point is within the tolerance of the edge that replaced it
            assert segment_distances(inner, closed[start], closed[end]).max() <= tolerance + 1e-9


def test_an_outline_that_would_take_quadratic_time_is_refused_in_linear_time():
    # A sawtooth whose teeth shrink: Douglas-Peucker keeps the point next to an end at every
    # split, n squared scans in all (a million points took hours). Refused after 64 scans a point.
    n = 4000
    sawtooth = [[i, n - i if i % 2 == 0 else n + i] for i in range(n)]
    with pytest.raises(TooIntricate, match="an outline of 4,000 points is too intricate to simplify"):
        simplify_ring(sawtooth)
    assert len(simplify_ring(sawtooth[:200])) == 199   # a small one is simplified: [1, 4001] is within 1.5 px


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


# -- reading a TripleA map folder ------------------------------------------------------------
def test_map_folder_diagnostics_name_file_line_and_column():
    board = read_board(MAP_FOLDER)  # the geometry is in MAP_FOLDER/map, as in a map download
    assert [(d.code, d.severity.value, Path(d.file).name, d.line, d.column) for d in board.diagnostics] == [
        ("TPM001", "warning", "polygons.txt", 3, 9),   # Russia: the outline is not closed with '>'
        ("TPM001", "warning", "polygons.txt", 8, 1),   # Germany a second time
    ]
    assert board.polygons["Germany"].value == [[[80, 80], [120, 80], [120, 120], [80, 120]]]
    assert board.polygons["Karelia S.S.R."].value == [[[180, 30], [220, 30], [220, 70], [180, 70]],
                                                      [[230, 30], [240, 30], [235, 40]]]
    assert board.centers["Russia"].value == [300, 80] and "Russia" not in board.polygons
    assert board.size == (241, 221)


def _small_scenario(tmp_path) -> Path:
    out = tmp_path / "small"
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--quiet"]) == 0
    return out


def test_command_gives_the_spaces_their_geometry(tmp_path, capsys):
    out = _small_scenario(tmp_path)
    capsys.readouterr()
    assert main(["import", "triplea-map", str(MAP_FOLDER), str(out)]) == 0
    reported = [re.match(r"(?:.*/)?([^/:]*)(?::(\d+):(\d+))?: (\w+) (\w+): (.*)", line).groups()
                for line in capsys.readouterr().err.splitlines()]
    assert [(f, int(line or 0), int(col or 0), severity, code) for f, line, col, severity, code, _ in reported] == [
        ("polygons.txt", 3, 9, "warning", "TPM001"),
        ("polygons.txt", 8, 1, "warning", "TPM001"),
        ("name_place.txt", 3, 1, "warning", "TPM002"),   # Sweden: a name place, no outline
        ("centers.txt", 8, 1, "warning", "TPM002"),      # Atlantis
        ("name_place.txt", 2, 1, "warning", "TPM002"),   # Uralss
        ("map", 0, 0, "info", "TPM003"),                 # egypt has no geometry: the folder is named
    ]
    assert "'egypt'" in reported[-1][-1] and "'Uralss'" in reported[-2][-1]
    scenario = load_scenario(out)
    spaces = {s["id"]: s for s in scenario.doc("map")["spaces"]}
    assert spaces["germany"]["position"] == [100, 100]
    assert spaces["germany"]["shape"] == {"polygons": [[[80, 80], [120, 80], [120, 120], [80, 120]]],
                                          "label": [85, 105]}
    assert spaces["iceland"]["shape"]["label"] == [32, 25]
    assert "shape" not in spaces["russia"] and spaces["russia"]["position"] == [300, 80]
    assert "position" not in spaces["egypt"]
    assert scenario.doc("map")["board"] == {"width": 241, "height": 221}
    assert [d for d in validate(scenario) if d.is_error] == []
    text = (out / "map.yaml").read_text(encoding="utf-8")
    assert "    - [[80, 80], [120, 80], [120, 120], [80, 120]]\n" in text
    assert main(["format", "--check", str(out)]) == 0
    assert main(["import", "triplea-map", str(MAP_FOLDER), str(out), "--quiet"]) == 0
    assert (out / "map.yaml").read_text(encoding="utf-8") == text  # a second run changes nothing


def _map_folder(tmp_path, polygons: str) -> Path:
    folder = tmp_path / "map"
    folder.mkdir()
    (folder / "polygons.txt").write_text(polygons, encoding="utf-8")
    return folder


def test_command_reads_no_file_outside_the_map_folder_and_shows_none_of_it(tmp_path, capsys):
    out = _small_scenario(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("Germany  password=hunter2\n", encoding="utf-8")
    folder = tmp_path / "map"
    folder.mkdir()
    (folder / "centers.txt").write_text("Germany  (100,100)\n", encoding="utf-8")
    (folder / "polygons.txt").symlink_to(secret)
    capsys.readouterr()
    assert main(["import", "triplea-map", str(folder), str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "hunter2" not in err and "password" not in err
    assert "polygons.txt: warning TPM001: the file links to a file outside the map folder; it was not read" in err
    spaces = {s["id"]: s for s in load_scenario(out).doc("map")["spaces"]}
    assert spaces["germany"]["position"] == [100, 100] and "shape" not in spaces["germany"]


def test_a_coordinate_of_thousands_of_digits_is_reported_not_converted(tmp_path, capsys):
    out = _small_scenario(tmp_path)
    folder = _map_folder(tmp_path, "Germany  <  (80,80) (120,80) (1" + "0" * 5000 + ",120) >\n"
                         "Russia  <  (250,60) (350,60) (350,100) >\n")
    capsys.readouterr()
    assert main(["import", "triplea-map", str(folder), str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "polygons.txt:1:31: warning TPM001: a coordinate of 5,001 digits is no board position (at most 9); the " \
        "line was skipped" in err
    spaces = {s["id"]: s for s in load_scenario(out).doc("map")["spaces"]}
    assert "shape" not in spaces["germany"] and spaces["russia"]["shape"]["polygons"] == [
        [[250, 60], [350, 60], [350, 100]]]


def test_an_outline_of_one_or_two_points_is_no_polygon_and_is_left_out(tmp_path, capsys):
    out = _small_scenario(tmp_path)
    folder = _map_folder(tmp_path, "Germany  <  (80,80) (120,80) >  <  (0,0) (9,0) (0,9) >\n"
                                   "Russia  <  (250,60) >\n")
    capsys.readouterr()
    assert main(["import", "triplea-map", str(folder), str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "polygons.txt:1:10: warning TPM001: 'Germany': an outline of 2 distinct point(s) is no polygon; it was " \
        "left out" in err
    assert "polygons.txt:2:9: warning TPM001: 'Russia': an outline of 1 distinct point(s) is no polygon" in err
    spaces = {s["id"]: s for s in load_scenario(out).doc("map")["spaces"]}
    assert spaces["germany"]["shape"]["polygons"] == [[[0, 0], [9, 0], [0, 9]]] and "shape" not in spaces["russia"]
    assert [d for d in validate(load_scenario(out)) if d.is_error] == []


def test_outlines_too_large_for_map_yaml_are_refused_before_they_are_written(tmp_path, capsys, monkeypatch):
    import sandtable.triplea.mapfolder
    out = _small_scenario(tmp_path)
    before = (out / "map.yaml").read_text(encoding="utf-8")
    monkeypatch.setattr(sandtable.triplea.mapfolder, "MAX_OUTLINE_BYTES", 100)   # 8 MiB in earnest
    capsys.readouterr()
    assert main(["import", "triplea-map", str(MAP_FOLDER), str(out), "--quiet"]) == 1
    assert "map: the outlines would take 291 bytes of map.yaml, over the limit of 100 that scenario files are read " \
        "with; nothing was written" in capsys.readouterr().err
    assert (out / "map.yaml").read_text(encoding="utf-8") == before


def test_command_keeps_a_board_picture_and_its_size(tmp_path):
    out = _small_scenario(tmp_path)
    map_path = out / "map.yaml"
    text = map_path.read_text(encoding="utf-8")
    map_path.write_text(text.replace("spaces:\n", "board: {image: board.png, width: 1000, height: 500}\nspaces:\n", 1),
                        encoding="utf-8")
    assert main(["import", "triplea-map", str(MAP_FOLDER), str(out), "--quiet"]) == 0
    assert load_scenario(out).doc("map")["board"] == {"image": "board.png", "width": 1000, "height": 500}


def test_command_keeps_the_comments_and_refuses_what_it_would_spoil(tmp_path, capsys):
    out = _small_scenario(tmp_path)
    canonical = (out / "map.yaml").read_text(encoding="utf-8")
    (out / "map.yaml").write_text(canonical.replace("spaces:\n", "spaces:  # the board\n", 1)
                                  + "# a note at the end\n", encoding="utf-8")
    assert main(["import", "triplea-map", str(MAP_FOLDER), str(out), "--quiet"]) == 0
    written = (out / "map.yaml").read_text(encoding="utf-8")
    assert "spaces:  # the board\n" in written and written.endswith("# a note at the end\n")
    assert any("shape" in s for s in load_scenario(out).doc("map")["spaces"])
    (out / "map.yaml").write_text(canonical, encoding="utf-8")
    assert main(["import", "triplea-map", str(tmp_path / "nowhere"), str(out)]) == 2
    assert "no centers.txt or polygons.txt" in capsys.readouterr().err
    variant = tmp_path / "variant"
    shutil.copytree(out, variant)
    (variant / "scenario.yaml").write_text("id: variant\nname: V\nsystem: aa50\nextends: ../small\n", encoding="utf-8")
    assert main(["import", "triplea-map", str(MAP_FOLDER), str(variant)]) == 2
    assert "a variant inherits it" in capsys.readouterr().err


# -- the AA50 board --------------------------------------------------------------------------
def test_aa50_1942_inherits_the_board_geometry_of_1941():
    own = load_scenario(REPO / "scenarios" / "aa50-1942").sources
    variant = next(doc.data for path, doc in own.items() if path.parent.name == "aa50-1942" and path.name == "map.yaml")
    assert "board" not in variant and not any({"shape", "position"} & set(s) for s in variant["spaces"])
    merged = load_scenario(REPO / "scenarios" / "aa50-1942").doc("map")
    assert merged["board"] == {"width": 3773, "height": 1830}
    assert all("shape" in s and "position" in s for s in merged["spaces"])


@needs_board
def test_aa50_1941_carries_the_world_war_ii_v3_board():
    board = read_board(WW2V3)
    spaces = {s["id"]: s for s in load_scenario(REPO / "scenarios" / "aa50-1941").doc("map")["spaces"]}
    assert len(spaces) == 162
    for name, placed in board.polygons.items():
        space = spaces[territory_id(name)]
        assert space["shape"]["polygons"] == placed.value
        assert space["position"] == board.centers[name].value
        assert space["shape"].get("label") == (board.labels[name].value if name in board.labels else None)
    assert "label" not in spaces["urals"]["shape"]  # name_place.txt spells it "Uralss"
    assert spaces["caroline-islands"]["shape"]["polygons"][0] == [
        [2849, 1076], [2853, 1079], [2853, 1084], [2850, 1088], [2847, 1088], [2843, 1082]]


def test_import_reads_the_geometry_with_the_game(tmp_path, capsys):
    out = tmp_path / "small"
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(out), "--map-dir", str(MAP_FOLDER)]) == 0
    err = capsys.readouterr().err
    assert "centers.txt:8:1: warning TPM002: 'Atlantis' is not a territory of the game" in err
    spaces = {s["id"]: s for s in load_scenario(out).doc("map")["spaces"]}
    assert spaces["germany"]["shape"] == {"polygons": [[[80, 80], [120, 80], [120, 120], [80, 120]]],
                                          "label": [85, 105]}
    assert spaces["sz-5"]["position"] == [60, 120]
    assert load_scenario(out).doc("map")["board"] == {"width": 241, "height": 221}
    assert main(["import", "triplea", str(TRIPLEA / "small-game.xml"), str(tmp_path / "x"), "--map-dir",
                 str(tmp_path / "nowhere")]) == 2
    assert "no centers.txt or polygons.txt" in capsys.readouterr().err and not (tmp_path / "x").exists()
