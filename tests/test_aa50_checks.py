"""The AA50 checks (AXA codes) against broken fixtures, and the condition evaluator."""
from __future__ import annotations

import pytest

from sandtable.scenario import load_scenario
from validators import build_index
from validators.conditions import Position, Stack, evaluate
from validators.systems import aa50

from helpers import FIXTURES, diagnostics_of, find_code, place

AA50 = FIXTURES / "aa50"

# fixture folder, code, severity, file (relative to tests/fixtures/aa50), line, column
CASES = [
    ("axa001-income", "AXA001", "warning", "axa001-income/scenario.yaml", 4, 25),
    ("axa002-nation-cities", "AXA002", "error", "axa002-nation-cities/scenario.yaml", 4, 38),
    ("axa003-side-cities", "AXA003", "error", "axa003-side-cities/scenario.yaml", 4, 35),
    ("axa004-city-list", "AXA004", "error", "axa004-city-list/scenario.yaml", 5, 13),
    ("axa005-two-factories", "AXA005", "error", "axa005-two-factories/setup.yaml", 5, 12),
    ("axa006-neutral", "AXA006", "error", "axa006-neutral/setup.yaml", 3, 28),
    ("axa007-cargo", "AXA007", "error", "axa007-cargo/setup.yaml", 6, 56),
    ("axa008-fighters-at-sea", "AXA008", "error", "axa008-fighters-at-sea/setup.yaml", 6, 12),
    ("axa009-china-outside", "AXA009", "error", "axa009-china-outside/setup.yaml", 6, 12),
    ("axa010-capital-tag", "AXA010", "error", "axa010-capital-tag/map.yaml", 3, 22),
    # What the engine needs to play a game of AA50 at all: nations in turn order, a way to win.
    ("set008-no-turn-order", "SET008", "error", "set008-no-turn-order/scenario.yaml", 8, 1),
    ("set009-no-victory", "SET009", "warning", "set009-no-victory/scenario.yaml", 2, 1),
]


def test_the_base_fixture_is_clean():
    assert diagnostics_of(AA50 / "base") == []


@pytest.mark.parametrize("folder, code, severity, file, line, column", CASES, ids=[c[0] for c in CASES])
def test_each_code_at_its_place(folder, code, severity, file, line, column):
    found = find_code(diagnostics_of(AA50 / folder), code)
    assert [(place(d, AA50), d.severity.value) for d in found] == [((file, line, column), severity)]


def test_unknown_names_in_the_rules():
    found = find_code(diagnostics_of(AA50 / "axa011-rules-reference"), "AXA011")
    assert [(place(d, AA50), d.message) for d in found] == [
        (("axa011-rules-reference/scenario.yaml", 4, 29), "the rules name an unknown side 'axes'"),
        (("axa011-rules-reference/scenario.yaml", 5, 25), "the rules name an unknown space 'yunan'"),
    ]
    assert found[1].hint == "did you mean 'yunnan'?"


def test_income_warning_names_both_figures():
    found = find_code(diagnostics_of(AA50 / "axa001-income"), "AXA001")[0]
    assert "income of 12 IPCs" in found.message and "worth 13" in found.message


def test_explain_lists_each_objective_met_and_its_bonus():
    scenario = load_scenario(AA50 / "base")
    text = aa50.explain(scenario, build_index(scenario))
    assert "germany-poland" in text and "met       +5 ipc" in text
    assert text.splitlines()[-1] == "  bonus income at the start: germany +5, soviet-union +5"


# -- the evaluator on hand-made positions ----------------------------------------------------
@pytest.fixture()
def position():
    return Position(
        control={"france": "germany", "italy": "italy", "egypt": "united-kingdom", "russia": "soviet-union",
                 "karelia": "soviet-union"},
        units={"sz-13": [Stack("united-kingdom", "battleship", 1), Stack("united-kingdom", "transport", 2)],
               "sz-14": [Stack("united-kingdom", "submarine", 1)],
               "karelia": [Stack("united-kingdom", "fighter", 1)]},
        sides={"germany": "axis", "italy": "axis", "united-kingdom": "allies", "soviet-union": "allies",
               "axis": "axis", "allies": "allies"},
        space_tags={"france": {"victory_city"}, "italy": {"victory_city"}, "russia": {"victory_city"}},
        unit_tags={"battleship": {"surface_warship"}},
        unit_domains={"battleship": "sea", "transport": "sea", "submarine": "sea", "fighter": "air"},
        options={"national-objectives": False})


def test_controls_allied_and_count(position):
    assert evaluate({"controls": {"owner": "italy", "spaces": ["france", "italy"], "allied": True}}, position).met
    assert not evaluate({"controls": {"owner": "italy", "spaces": ["france", "italy"]}}, position).met
    assert evaluate({"controls": {"owner": "axis", "spaces": ["france", "egypt", "italy"], "count": 2}}, position).met


def test_surface_only_ignores_submarines_and_transports(position):
    surface = {"no_enemy_units": {"owner": "italy", "spaces": ["sz-14"], "surface_only": True}}
    assert evaluate(surface, position).met
    surface["no_enemy_units"]["spaces"] = ["sz-13"]
    result = evaluate(surface, position)
    assert result.met is False and result.detail == "1 battleship of united-kingdom in sz-13"


def test_units_in_spaces_a_nation_controls(position):
    condition = {"not": {"any": [{"units_present": {"owner": "united-kingdom", "controller": "soviet-union"}}]}}
    assert evaluate(condition, position).met is False
    position.units["karelia"] = []
    assert evaluate(condition, position).met is True


def test_victory_cities_and_undecidable_conditions(position):
    assert evaluate({"victory_cities": {"side": "axis", "count": 2}}, position).met
    assert not evaluate({"victory_cities": {"side": "allies", "count": 2}}, position).met
    assert evaluate({"phase": "collect-income"}, position).met is None
    assert evaluate({"at_least": {"count": 1, "of": [{"phase": "x"}, {"option": "national-objectives"}]}},
                    position).met is None
