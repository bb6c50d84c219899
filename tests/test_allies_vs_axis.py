"""Allies vs. Axis: the bundled scenario holds the rule book's facts, and its formulas compute the
rule book's worked examples."""
from __future__ import annotations

from fractions import Fraction

import pytest

from sandtable.scenario import load_scenario
from validators import build_index, validate
from validators.systems.allies_vs_axis import category, explain
from validators.systems.allies_vs_axis_formulas import Values, evaluate

from helpers import REPO

FOLDER = REPO / "scenarios" / "allies-vs-axis"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FOLDER)


@pytest.fixture(scope="module")
def squares(scenario):
    return sorted((s for _, s in scenario.entities("map", "spaces")), key=lambda s: s["index"])


@pytest.fixture(scope="module")
def rules(scenario):
    return scenario.manifest["rules"]


def test_the_bundled_scenario_is_clean(scenario):
    assert [f"{d.code} {d.message}" for d in validate(scenario)] == []


def test_explain_computes_each_worked_example(scenario):
    text = explain(scenario, build_index(scenario))
    assert "      1 united-kingdom         territory" in text
    assert "{'inputs': {'defence_power': 10}, 'counters': {'treaties_signed': 1}} -> 300 (rule book: 300)" in text
    assert text.count("(rule book: ") == 14


# -- the board ------------------------------------------------------------------------------

def test_the_board_has_36_squares_of_the_stated_composition(squares):
    assert [s["index"] for s in squares] == list(range(1, 37))
    kinds = [category(s) for s in squares]
    assert {kind: kinds.count(kind) for kind in set(kinds)} == {
        "territory": 24, "fortune": 3, "strategy": 3, "secret": 4, "special": 2}


def test_secret_territories_stand_at_squares_5_14_23_32(squares):
    secret = {s["index"]: s["id"] for s in squares if category(s) == "secret"}
    assert sorted(secret) == [5, 14, 23, 32]
    assert sorted(secret.values()) == ["foreign-legion", "neutral-bank", "secret-air-base",
                                       "underground-factory"]


def test_the_united_kingdom_is_square_1(squares):
    assert squares[0]["id"] == "united-kingdom"


def test_japan_is_top_left_and_the_united_states_bottom_right(squares):
    special = {s["id"]: s["position"] for s in squares if category(s) == "special"}
    xs = [s["position"][0] for s in squares]
    ys = [s["position"][1] for s in squares]
    assert special == {"japan": [min(xs), min(ys)], "united-states": [max(xs), max(ys)]}


def test_the_ring_is_one_directed_cycle_clockwise(scenario, squares):
    number = {s["id"]: s["index"] for s in squares}
    borders = [b for _, b in scenario.entities("map", "borders")]
    assert len(borders) == 36
    assert all(b["kind"] == "track" and b["directed"] is True for b in borders)
    assert sorted((number[a], number[b]) for a, b in (b["between"] for b in borders)) == \
        [(i, i % 36 + 1) for i in range(1, 37)]


def test_every_territory_yields_money_and_infantry(squares):
    for square in squares:
        if category(square) in ("fortune", "strategy"):
            assert "stats" not in square
        else:
            assert square["stats"]["money"] > 0 and square["stats"]["infantry"] > 0, square["id"]


def test_albania_has_the_neutral_defence_power_of_the_treaty_example(scenario):
    index = build_index(scenario)
    assert index.spaces["albania"].data["stats"]["neutral_defence"] == 10


# -- the units ------------------------------------------------------------------------------

def test_the_unit_table(scenario):
    table = {u["id"]: (u["cost"], u["stats"]["power"], u["stats"]["support"], u["limit"])
             for _, u in scenario.entities("units", "unit_types")}
    assert table == {
        "infantry": (50, 1, 1, 24),
        "tank": (140, 3, 1, 16),
        "aircraft": (220, 5, 1, 10),
        "battleship": (300, 7, 0, 6),
    }


def test_battleships_need_a_seaport(scenario):
    index = build_index(scenario)
    assert index.unit_types["battleship"].data["tags"] == ["seaport_only"]


# -- the formulas ---------------------------------------------------------------------------

def compute(scenario, rules, formula, army=None, inputs=None, counters=None, levels=None) -> Fraction:
    index = build_index(scenario)
    values = Values(
        parameters=rules["parameters"],
        unit_stats={uid: u.data["stats"] for uid, u in index.unit_types.items()},
        level_values={name: entry["values"] for name, entry in rules["levels"].items()},
        levels=levels or {}, inputs=inputs or {}, counters=counters or {}, army=army or {})
    return evaluate(rules["formulas"][formula]["value"], values)


ONE_OF_EACH = {"infantry": 1, "tank": 1, "aircraft": 1, "battleship": 1}


def test_invasion_power_of_one_unit_of_each_type_is_16(scenario, rules):
    assert compute(scenario, rules, "invasion_power", army=ONE_OF_EACH) == 16


def test_defence_power_of_one_unit_of_each_type_with_support_is_22(scenario, rules):
    assert compute(scenario, rules, "defence_power", army=ONE_OF_EACH) == 22


def test_defence_support_pairs_one_supporter_with_one_stronger_unit(scenario, rules):
    # 2 infantry and 1 tank: 2 + 3 power, and one infantry supports the one tank.
    assert compute(scenario, rules, "defence_power", army={"infantry": 2, "tank": 1}) == 6
    # A battleship supports nobody: 2 battleships alone are 14.
    assert compute(scenario, rules, "defence_power", army={"battleship": 2}) == 14


@pytest.mark.parametrize("signed, cost", [(0, 200), (1, 300)])
def test_albania_treaty_cost(scenario, rules, signed, cost):
    albania = build_index(scenario).spaces["albania"].data["stats"]["neutral_defence"]
    assert compute(scenario, rules, "treaty_cost", inputs={"defence_power": albania},
                   counters={"treaties_signed": signed}) == cost


@pytest.mark.parametrize("rate, penalty", [("normal", 90), ("high", 150)])
def test_penalty_for_a_territory_defended_with_power_300(scenario, rules, rate, penalty):
    assert compute(scenario, rules, "penalty_cost", inputs={"defence_power": 300},
                   levels={"penalty_rate": rate}) == penalty


@pytest.mark.parametrize("steps, used, cost", [
    (1, 0, 1000), (1, 1, 2000), (1, 2, 3000), (2, 0, 2000), (2, 1, 4000), (2, 2, 6000)])
def test_strategic_move_cost(scenario, rules, steps, used, cost):
    assert compute(scenario, rules, "strategic_move_cost", inputs={"steps": steps},
                   counters={"strategic_moves": used}) == cost


@pytest.mark.parametrize("jailed, ransom", [(1, 2000), (2, 4000), (3, 6000)])
def test_ransom_cost(scenario, rules, jailed, ransom):
    assert compute(scenario, rules, "ransom_cost", counters={"jailed": jailed}) == ransom


def test_fixed_costs_and_rates(rules):
    values = {name: entry["value"] for name, entry in rules["parameters"].items()}
    assert values == {"treaty_base": 20, "treaty_step": 10, "strategic_move_base": 1000,
                      "ransom_base": 2000, "secret_base_cost": 500, "special_alliance_cost": 2000}
    assert rules["levels"]["penalty_rate"]["values"]["normal"] == 0.3
    assert rules["levels"]["penalty_rate"]["values"]["high"] == 0.5
    assert rules["spinner"]["faces"] == 6
    assert rules["neutral_invasion_units"] == ["infantry"]


def test_formulas_are_data_not_code(rules):
    for formula in rules["formulas"].values():
        assert isinstance(formula["value"], dict)


# -- the game modes and end conditions ------------------------------------------------------------

def mode(scenario, mode_id):
    option = next(o for _, o in scenario.entities("scenario", "options") if o["id"] == mode_id)
    starts = {c["side"]: set(c["spaces"]) for c in option["changes"] if c["op"] == "start_with"}
    levels = {c["setting"]: c["level"] for c in option["changes"] if c["op"] == "set_level"}
    return starts, levels


@pytest.mark.parametrize("mode_id, allies, axis, levels", [
    ("regular", {"united-kingdom", "france"}, {"germany", "italy"},
     {"resource_level": "normal", "penalty_rate": "normal", "luck": "normal"}),
    ("les-miserables", {"united-kingdom"}, {"germany"},
     {"resource_level": "depleted", "penalty_rate": "normal", "luck": "high"}),
    ("fierce-battle", {"united-kingdom", "france"}, {"germany", "italy"},
     {"resource_level": "normal", "penalty_rate": "high", "luck": "high"}),
    ("no-italy", {"united-kingdom", "united-states"}, {"germany", "japan"},
     {"resource_level": "normal", "penalty_rate": "medium", "luck": "high"}),
])
def test_the_four_game_modes(scenario, mode_id, allies, axis, levels):
    assert mode(scenario, mode_id) == ({"allies": allies, "axis": axis}, levels)


def test_regular_is_the_default_mode(scenario):
    on = [o["id"] for _, o in scenario.entities("scenario", "options")
          if o.get("group") == "mode" and o["default"] is True]
    assert on == ["regular"]


def test_end_conditions(scenario):
    victory = {v["id"]: (v.get("option"), v["when"]) for _, v in scenario.entities("scenario", "victory")}
    assert victory["sudden-death-allies"] == (
        "sudden-death", {"not": {"controls": {"owner": "axis", "spaces": ["germany"]}}})
    assert victory["sudden-death-axis"] == (
        "sudden-death", {"not": {"controls": {"owner": "allies", "spaces": ["united-kingdom"]}}})
    assert victory["conquest-allies"] == ("conquest", {"not": {"controls_count": {"owner": "axis", "count": 1}}})
    assert victory["jailed-3-axis"] == ("jail-limit-3", {"counter": {"owner": "allies", "counter": "jailed", "min": 3}})
    assert victory["jailed-5-allies"] == ("jail-limit-5", {"counter": {"owner": "axis", "counter": "jailed", "min": 5}})
    assert victory["turn-limit-100"] == ("turn-limit-100", {"turn": {"min": 101}})
    assert victory["turn-limit-300"] == ("turn-limit-300", {"turn": {"min": 301}})


# -- the decks ------------------------------------------------------------------------------

def test_there_are_four_spy_cards_that_destroy_a_secret_base(scenario):
    index = build_index(scenario)
    spy = index.cards["spy"].data
    assert spy["count"] == 4
    assert spy["effects"] == [{"op": "destroy_secret_base"}]


def test_the_named_strategy_cards_are_in_the_strategy_deck(scenario):
    deck = next(d for _, d in scenario.entities("decks", "decks") if d["id"] == "strategy")
    titles = {card["title"] for card in deck["cards"]}
    assert {"Spy", "Battle of Britain", "Pearl Harbor", "Siege of Leningrad"} <= titles
    assert deck["size"] == sum(card.get("count", 1) for card in deck["cards"])


def test_fortune_cards_take_effect_at_once(scenario):
    deck = next(d for _, d in scenario.entities("decks", "decks") if d["id"] == "fortune")
    assert deck["size"] == len(deck["cards"])
    for card in deck["cards"]:
        assert "keep" not in card.get("tags", []), card["id"]
        assert {"favourable", "unfavourable"} & set(card["tags"]), card["id"]
