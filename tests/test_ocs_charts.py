"""The OCS v4.3 charts as data: facts read off the chart sheet, and the demo that extends them."""
from __future__ import annotations

import math

import pytest

from sandtable.cli import main
from sandtable.ocs_results import parse
from sandtable.scenario import load_scenario
from validators import build_index, validate

from helpers import REPO

CHARTS = REPO / "scenarios" / "ocs-charts"
DEMO = REPO / "scenarios" / "ocs-charts-demo"


@pytest.fixture(scope="module")
def charts():
    return load_scenario(CHARTS)


@pytest.fixture(scope="module")
def tables(charts):
    return {table["id"]: table for table in charts.doc("tables")["tables"]}


def position(axis: dict, key) -> int:
    """The index of the value `key` picks on an axis: by id or plain value, else by range."""
    for i, value in enumerate(axis["values"]):
        if (value["id"] if isinstance(value, dict) else str(value)) == str(key):
            return i
    for i, value in enumerate(axis["values"]):
        if isinstance(value, dict) and isinstance(key, (int, float)) \
                and value.get("min", -math.inf) <= key <= value.get("max", math.inf):
            return i
    raise KeyError(key)


def read(table: dict, *keys):
    """The cell at the keys, or the row of cells when fewer keys than axes are given."""
    assert len(keys) <= len(table["axes"])
    cells = table["cells"]
    for axis, key in zip(table["axes"], keys, strict=False):  # fewer keys: a row of cells
        cells = cells[position(axis, key)]
    return cells


def combat(tables, terrain: str, odds: str, roll: int) -> dict:
    """The combat result for odds as printed in a terrain row, at a modified roll."""
    columns = read(tables["combat-odds"], terrain)
    column = next(i + 1 for i, printed in enumerate(columns) if printed["printed"] == odds)
    return read(tables["combat-results"], terrain, column, roll)


def test_both_scenarios_validate_strictly(capsys):
    assert main(["validate", str(CHARTS), str(DEMO), "--strict"]) == 0
    assert "2 scenarios checked: 0 errors, 0 warnings" in capsys.readouterr().out


def test_a_charts_scenario_needs_no_map(charts):
    assert "map" not in charts.documents
    assert validate(charts) == []


def test_every_table_of_the_chart_sheet_is_there(tables):
    assert set(tables) == {
        "air-combat", "air-combat-loss", "flak", "flak-missions", "mission-loss", "air-transport",
        "airbase-capture", "combat-summary", "surprise", "anti-armour", "action-rating-modifiers",
        "combat-supply", "capture", "attrition", "supply-dump-destruction", "combat-odds",
        "combat-results", "barrage", "barrage-cost", "barrage-half", "ship-barrage",
        "facility-barrage", "facility-barrage-cost", "port-damage"}


def test_every_cell_is_stored_as_its_printed_text_reads(tables):
    def leaves(cells):
        for item in cells:
            yield from leaves(item) if isinstance(item, list) else [item]
    for table in tables.values():
        for cell in leaves(table["cells"]):
            stored = {k: v for k, v in cell.items() if k != "printed"}
            assert stored == parse(table["results"], cell["printed"]), (table["id"], cell)


def test_combat_table_is_terrain_by_odds_by_roll(tables):
    crt = tables["combat-results"]
    assert [axis["id"] for axis in crt["axes"]] == ["terrain", "odds", "roll"]
    assert [len(axis["values"]) for axis in crt["axes"]] == [4, 13, 15]
    assert len(crt["cells"]) == 4 and all(len(c) == 13 and all(len(r) == 15 for r in c) for c in crt["cells"])


@pytest.mark.parametrize("terrain, odds, roll, printed", [
    ("open", "1:1", 7, "AL1o1 Do1"),
    ("open", "5:1", 9, "Ao1 e4 DL1o2"),
    ("open", "13:1", 7, "Ae3 DL2o2DG"),
    ("open", "1:1", 13, "Ao1 DL1o2"),
    ("close", "4:1", 12, "Ao1 e4 DL1o2"),
    ("very-close", "1:3", -2, "AL2"),
    ("very-close", "24:1", 1, "AL1 DL1o1"),
    ("extremely-close", "52:1", 19, "Ae2 DL2o3DG"),
    ("extremely-close", "1:2", 15, "Ao1 DL1o1"),
])
def test_combat_results_at_points_of_the_chart(tables, terrain, odds, roll, printed):
    assert combat(tables, terrain, odds, roll)["printed"] == printed


def test_combat_result_is_stored_as_data(tables):
    assert combat(tables, "close", "4:1", 12) == {
        "printed": "Ao1 e4 DL1o2", "attacker": {"option": 1, "exploit": 4},
        "defender": {"loss": 1, "option": 2}}


def test_the_same_column_stands_for_different_odds_in_each_terrain(tables):
    odds = tables["combat-odds"]
    assert [c["printed"] for c in read(odds, "open")] == [
        "1:5", "1:4", "1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "7:1", "9:1", "11:1", "13:1"]
    assert [c["printed"] for c in read(odds, "extremely-close")][-1] == "52:1"
    assert read(odds, "very-close", 7) == {"printed": "6:1", "attacker": 6, "defender": 1}


@pytest.mark.parametrize("strength, roll, printed", [
    (20, 5, "DG"),
    (117, 12, "3"),
    (150, 12, "3"),
    (1, 11, "DG"),
    (30, 8, "[1/2]"),
    (100, 10, "1"),
    (6, 11, "1/2"),
    (2, 9, "-"),
])
def test_barrage_table_at_points_of_the_chart(tables, strength, roll, printed):
    assert read(tables["barrage"], strength, roll)["printed"] == printed


def test_barrage_cost_and_shifts(tables):
    assert read(tables["barrage-cost"], 30) == {"printed": "4T", "tokens": 4}
    assert read(tables["barrage-cost"], 117) == {"printed": "10T", "tokens": 10}
    shifts = {m["id"]: m for m in tables["barrage"]["modifiers"]}
    density = [(m.get("more_than"), m.get("at_most"), m["shift"]) for m in shifts.values()
               if m.get("group") == "density"]
    assert density == [(None, 1, -1), (1, 3, 0), (3, 4, 1), (4, 5, 2), (5, 6, 3), (6, None, 4)]
    assert shifts["no-spotter"]["shift"] == -3
    assert shifts["strategic-mode"]["shift"] == 3
    assert shifts["extremely-close-terrain"]["shift"] == -2
    assert shifts["beyond-half-range"]["option"] == "optional-21-4"


def test_ship_barrage_is_reduced(tables):
    ship = tables["ship-barrage"]
    assert [read(ship, r)["printed"] for r in ["[1/2]", "1/2", "1", "2"]] == ["DG", "DG", "1/2", "1"]


@pytest.mark.parametrize("strength, roll, outcome", [
    (50, 1, {"printed": "(5)", "aircraft": 5}),
    (81, 6, {"printed": "2 * (3)", "hits": 2, "trainbusting": True, "aircraft": 3}),
    (7, 4, {"printed": "* (6)", "trainbusting": True, "aircraft": 6}),
    (1, 5, {"printed": "-"}),
])
def test_facility_barrage_at_points_of_the_chart(tables, strength, roll, outcome):
    assert read(tables["facility-barrage"], strength, roll) == outcome


def test_other_tables_hold_the_charts_values(tables):
    assert read(tables["mission-loss"], 4, 5)["aircraft"] == "weakest"
    assert read(tables["mission-loss"], 4, 6)["aircraft"] == "strongest"
    assert read(tables["mission-loss"], 3, 5)["aircraft"] == 3
    assert read(tables["capture"], 6, "wagons")["percent"] == 100
    assert read(tables["capture"], 2, "supply-dump")["percent"] == 25
    assert read(tables["attrition"], 0, "no-loss") == {"printed": "-", "never": True}
    assert read(tables["attrition"], 3, "lose-4") == {"printed": "10-11", "min": 10, "max": 11}
    assert read(tables["attrition"], 5, "lose-all") == {"printed": "13+", "min": 13}
    assert read(tables["supply-dump-destruction"], 3)["percent"] == 50
    assert read(tables["port-damage"], 3)["percent"] == 40
    assert read(tables["surprise"], "regular", "attacker-surprise")["min"] == 10
    assert read(tables["surprise"], "overrun", "defender-surprise")["max"] == 6
    assert read(tables["air-transport"], "enemy", "close", "success")["min"] == 7
    assert read(tables["air-transport"], "friendly", "open", "failure")["max"] == 4
    assert read(tables["air-combat"], 7)["returns"] == ["attacker", "defender"]
    assert read(tables["airbase-capture"], 6)["steps"] == 1
    assert read(tables["flak"], 11)["steps"] == 1
    assert read(tables["flak-missions"], "base-transfer")["flak"] == "patrol-zone"
    assert read(tables["anti-armour"], "heavy", "light")["terrain"] == 2
    assert read(tables["anti-armour"], "light", "heavy")["terrain"] == 1.5
    assert read(tables["combat-supply"], "small-defender") == {
        "printed": "1T per combat", "tokens": 1, "per": "combat"}
    assert read(tables["action-rating-modifiers"], "strategic")["set"] == 0


def test_sequence_of_play(charts):
    phases = charts.manifest["phases"]
    assert [p["id"] for p in phases] == ["preparation", "first-player-turn", "second-player-turn", "end-of-turn"]
    turn = phases[1]["steps"]
    assert [s["id"] for s in turn] == ["air-refit", "reinforcement", "movement", "supply", "reaction",
                                       "combat", "exploitation", "clean-up"]
    assert [s["id"] for s in turn[6]["steps"]] == ["movement", "barrage", "combat"]
    assert phases[2]["steps"] == turn


def test_demo_extends_the_charts_with_hexes_of_every_terrain_row():
    demo = load_scenario(DEMO)
    index = build_index(demo)
    assert demo.lineage[-1].name == "ocs-charts"
    assert demo.doc("map")["topology"] == "hexes"
    terrains = {e.data["terrain"] for e in index.spaces.values()}
    assert terrains == {"open", "close", "very-close", "extremely-close"}
    assert set(index.sides) == {"axis", "allies"}
    assert index.unit_types["panzer-regiment"].data["stats"]["action_rating"] == 4
    assert "combat-results" in index.tables


def test_explain_sums_the_barrage_shifts_that_can_apply_together(charts):
    from validators.systems.ocs import explain
    text = explain(charts, build_index(charts))
    # right: density over 6 RE (4) + strategic mode (3) + near the airbase (1);
    # left: 1 RE or less (1) + hedgehog (1) + extremely close (2) + no spotter (3) + half range (1)
    assert "  barrage (barrage): strength 11 x roll 11; shifts together move at most 8 right and 8 left\n" in text
    assert "  combat-results (combat): terrain 4 x odds 13 x roll 15\n" in text
