"""Every OCS chart as a resolver, checked against hand lookups of the chart sheet (004_...txt).

The expected numbers are worked out from the printed tables, not from tables.yaml: two dice
total 2..12 with 1, 2, ... 6, ... 1 ways in 36, so P(2d6 <= n) is 1, 3, 6, 10, 15, 21, 26, 30,
33, 35, 36 in 36 for n = 2..12. Each test names the chart's section.
"""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine import EngineError, load_system
from engine.options import SettingError
from engine.resolvers import chart_distribution, chart_list, dice
from sandtable.scenario import load_scenario

from helpers import REPO

CHARTS = REPO / "scenarios" / "ocs-charts"
AT_MOST = {n: F(sum(6 - abs(s - 7) for s in range(2, n + 1)), 36) for n in range(1, 13)}


def at_least(n: int) -> F:
    return 1 - AT_MOST[min(max(n - 1, 1), 12)] if n > 2 else F(1)


@pytest.fixture(scope="module")
def charts():
    return load_system(load_scenario(CHARTS)).chart_resolvers()


def resolve(charts, chart: str, **values):
    return charts[chart].resolve(values)


def chances(answer, key: str) -> dict:
    """value of `key` in the outcomes' data -> total probability."""
    found: dict = {}
    for outcome in answer.outcomes:
        value = outcome.data.get(key)
        value = tuple(value) if isinstance(value, list) else value
        found[value] = found.get(value, F(0)) + outcome.probability
    return found


def test_dice_are_counted_exactly():
    assert dice(2)[7] == F(1, 6) and sum(dice(2).values()) == 1
    assert AT_MOST[6] == F(15, 36) and at_least(11) == F(3, 36) and at_least(2) == 1


def test_every_chart_of_the_brief_has_a_resolver(charts):
    assert list(charts) == ["air-combat", "flak", "mission-loss", "air-transport", "airbase-capture",
                            "attrition", "capture", "supply-dump-destruction", "facility-barrage",
                            "port-damage"]
    for resolver in charts.values():
        answer = resolver.resolve()
        assert sum(o.probability for o in answer.outcomes) == 1, resolver.id


# -- air combat (14.3e) -----------------------------------------------------------------------------
def test_air_combat_even_ratings_14_3e(charts):
    """6 or less: the attacker returns; 7: both; 8 or more: the defender. Then a die for each
    returning side: 5-6 loses a step."""
    answer = resolve(charts, "air-combat")
    returns = chances(answer, "returns")
    assert returns == {("attacker",): AT_MOST[6], ("attacker", "defender"): F(6, 36),
                       ("defender",): at_least(8)}
    assert answer.probability(returns=["attacker"], attacker_steps_lost=1) == F(15, 36) * F(1, 3)
    assert answer.probability(returns=["attacker", "defender"], attacker_steps_lost=1,
                              defender_steps_lost=1) == F(6, 36) * F(1, 9)


def test_air_combat_ratings_are_added_and_subtracted_14_3e(charts):
    """+ the attacker's air combat rating, - the defender's: 2 against 1 is +1."""
    returns = chances(resolve(charts, "air-combat", attacker_air=2, defender_air=1), "returns")
    assert returns[("attacker",)] == AT_MOST[5]
    assert returns[("attacker", "defender")] == F(5, 36)
    assert returns[("defender",)] == at_least(7)


def test_air_combat_half_range_only_under_optional_rule_21_4(charts):
    """[Optional 21.4] -1 beyond half range; the scenario leaves the rule off by default."""
    off = chances(resolve(charts, "air-combat", beyond_half_range=True), "returns")
    on = chances(resolve(charts, "air-combat", beyond_half_range=True, optional_21_4=True), "returns")
    assert off[("attacker",)] == AT_MOST[6]
    assert on[("attacker",)] == AT_MOST[7] and on[("defender",)] == at_least(9)


def test_air_combat_past_the_ends_and_the_loss_roll_unmodified_14_3e(charts):
    """A +6 never lets the attacker return; the loss roll ignores the modifiers (1/3 still)."""
    answer = resolve(charts, "air-combat", attacker_air=6)
    assert chances(answer, "returns") == {("defender",): 1}
    assert answer.expected("defender_steps_lost") == F(1, 3)
    assert chances(resolve(charts, "air-combat", defender_air=6), "returns") == {("attacker",): 1}


# -- flak (14.4e) and mission loss (14.4f) ---------------------------------------------------------
def test_flak_plain_roll_14_4e(charts):
    """11 or more on 2d6 kills one step; a mission of one aircraft loses it."""
    answer = resolve(charts, "flak")
    assert answer.probability(steps_lost=1) == at_least(11) == F(1, 12)
    assert answer.probability(aircraft=1) == F(1, 12)


@pytest.mark.parametrize("values, modifier", [
    ({"aircraft": 3}, 1),                                   # three or more aircraft
    ({"aircraft": 2}, 0),
    ({"headquarters": True}, 1),                            # one or more HQs
    ({"airbase_level": 0}, 0),                              # an air strip is 0
    ({"airbase_level": 3}, 3),                              # + the airbase level
    ({"printed_flak": 2}, 2),                               # + printed and ships' flak
    ({"patrol_zone": True, "fighter": True}, 1),            # PZ with a fighter
    ({"patrol_zone": True}, 2),                             # PZ without a fighter
    ({"patrol_zone": True, "mission": "trainbusting"}, 3),  # + 1 for trainbusting, cumulative
    ({"mission": "trainbusting"}, 0),                       # trainbusting counts only in a PZ
    ({"mission": "strafing", "fighter": True}, 0),          # a fighter counts only in a PZ
])
def test_flak_modifiers_14_4e(charts, values, modifier):
    assert resolve(charts, "flak", **values).probability(steps_lost=1) == at_least(11 - modifier)


def test_flak_past_the_end_14_4e(charts):
    """+9 or more: every roll is 11 or more."""
    assert resolve(charts, "flak", printed_flak=9).probability(steps_lost=1) == 1
    everything = resolve(charts, "flak", mission="trainbusting", aircraft=3, headquarters=True,
                         airbase_level=1, printed_flak=2, patrol_zone=True)
    assert everything.probability(steps_lost=1) == at_least(11 - 8)


@pytest.mark.parametrize("mission, patrol_zone, rolled", [
    ("barrage", False, True), ("strafing", False, True), ("trainbusting", False, True),
    ("air-transport", False, False), ("air-transport", True, True),
    ("base-transfer", False, False), ("base-transfer", True, True),
    ("fighter-sweep", True, False), ("interception", True, False),
])
def test_when_flak_is_rolled_14_4e(charts, mission, patrol_zone, rolled):
    """Always: barrage, strafing, trainbusting; only in a patrol zone: air transport and drops,
    base transfer; never: fighter sweep, interception."""
    answer = resolve(charts, "flak", mission=mission, patrol_zone=patrol_zone)
    assert answer.probability(rolled=rolled) == 1


def test_flak_loss_goes_by_the_mission_loss_table_14_4f(charts):
    hit = at_least(10)                               # 4 aircraft: +1
    four = resolve(charts, "flak", aircraft=4)
    assert chances(four, "aircraft") == {None: 1 - hit, 1: hit / 6, 2: hit / 6, 3: hit / 6, 4: hit / 6,
                                         "weakest": hit / 6, "strongest": hit / 6}
    five = resolve(charts, "flak", aircraft=5)
    assert five.probability(steps_lost=1, aircraft=None) == hit
    assert dict(five.working)["which aircraft"].startswith("not given")


@pytest.mark.parametrize("aircraft, expected", [
    (1, {1: F(1)}),                                               # no roll
    (2, {1: F(1, 2), 2: F(1, 2)}),                                # #1 #1 #1 #2 #2 #2
    (3, {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}),                    # #1 #1 #2 #2 #3 #3
    (4, {1: F(1, 6), 2: F(1, 6), 3: F(1, 6), 4: F(1, 6), "weakest": F(1, 6), "strongest": F(1, 6)}),
])
def test_mission_loss_table_14_4f(charts, aircraft, expected):
    assert chances(resolve(charts, "mission-loss", aircraft=aircraft), "aircraft") == expected


@pytest.mark.parametrize("aircraft", [0, 5])
def test_mission_loss_beyond_its_rows_14_4f(charts, aircraft):
    with pytest.raises(EngineError):
        resolve(charts, "mission-loss", aircraft=aircraft)


# -- air transport (14.10d) ------------------------------------------------------------------------
@pytest.mark.parametrize("values, succeeds_on", [
    ({"hex": "friendly", "terrain": "open"}, 5),
    ({"hex": "friendly", "terrain": "close"}, 6),
    ({"hex": "enemy", "terrain": "open"}, 6),
    ({"hex": "enemy", "terrain": "close"}, 7),
    ({"hex": "enemy", "terrain": "very-close", "airbase": True}, 6),   # an airbase counts as open
    ({"hex": "enemy", "terrain": "close", "allied_drop_europe": True}, 8),
    ({"hex": "enemy", "terrain": "close", "soviet_drop": True}, 8),
    ({"hex": "enemy", "terrain": "close", "glider": True}, 6),
    ({"hex": "enemy", "terrain": "very-close"}, 7),                    # 21.12e off by default
    ({"hex": "enemy", "terrain": "very-close", "optional_21_12e": True}, 8),
    ({"hex": "enemy", "terrain": "extremely-close", "optional_21_12e": True}, 9),
    ({"hex": "enemy", "terrain": "extremely-close", "optional_21_12e": True,
      "allied_drop_europe": True, "soviet_drop": True}, 11),
    ({"hex": "friendly", "terrain": "open", "glider": True}, 4),
])
def test_air_transport_rows_and_modifiers_14_10d(charts, values, succeeds_on):
    answer = resolve(charts, "air-transport", **values)
    assert answer.probability(success=True) == at_least(succeeds_on)


# -- airbase capture (9.14f) -----------------------------------------------------------------------
@pytest.mark.parametrize("values, chance", [
    ({}, AT_MOST[6]),                                            # 6 or less loses a step
    ({"active": 1}, AT_MOST[4]),                                 # +2 active
    ({"advance_after_combat": True}, AT_MOST[4]),                # +2 advance after combat
    ({"active": 1, "advance_after_combat": True}, AT_MOST[2]),
])
def test_airbase_capture_one_aircraft_9_14f(charts, values, chance):
    assert resolve(charts, "airbase-capture", **values).probability(steps_lost=1) == chance


def test_airbase_capture_rolls_for_each_aircraft_9_14f(charts):
    answer = resolve(charts, "airbase-capture", aircraft=2, active=1)
    active, inactive = F(6, 36), F(15, 36)
    assert chances(answer, "steps_lost") == {
        0: (1 - active) * (1 - inactive), 1: active * (1 - inactive) + (1 - active) * inactive,
        2: active * inactive}
    with pytest.raises(EngineError):
        resolve(charts, "airbase-capture", aircraft=1, active=2)


# -- attrition (12.8b) -----------------------------------------------------------------------------
def test_attrition_rating_5_12_8b(charts):
    """Rating 5: 2-8 no loss, 9-10 -1, 11 -2, 12 -4, 13+ all; two steps cap the losses."""
    answer = resolve(charts, "attrition", rating=5, steps=2)
    assert chances(answer, "result") == {"no-loss": AT_MOST[8], "lose-1": F(7, 36),
                                         "lose-2": F(2, 36), "lose-4": F(1, 36)}
    assert chances(answer, "steps_lost") == {0: AT_MOST[8], 1: F(7, 36), 2: F(3, 36)}


def test_attrition_five_steps_add_three_12_8b(charts):
    """+3 with 5 or more steps: rating 5 reads 2-5 as none, 6-7 -1, 8 -2, 9 -4, 10+ all."""
    answer = resolve(charts, "attrition", rating=5, steps=5)
    assert chances(answer, "steps_lost") == {0: AT_MOST[5], 1: F(11, 36), 2: F(5, 36),
                                             4: F(4, 36), 5: at_least(10)}
    assert resolve(charts, "attrition", rating=5, steps=4).probability(result="no-loss") == AT_MOST[8]


@pytest.mark.parametrize("rating, ranges", [
    (4, [7, 9, 10, 11]), (3, [5, 7, 9, 11]), (2, [3, 5, 7, 9]), (1, [2, 4, 6, 8]),
])
def test_attrition_columns_12_8b(charts, rating, ranges):
    """The upper end of each result's range, per column."""
    answer = resolve(charts, "attrition", rating=rating, steps=4)
    bounds = [AT_MOST[n] for n in ranges]
    assert chances(answer, "result") == {
        "no-loss": bounds[0], "lose-1": bounds[1] - bounds[0], "lose-2": bounds[2] - bounds[1],
        "lose-4": bounds[3] - bounds[2], "lose-all": 1 - bounds[3]}


def test_attrition_rating_0_always_loses_12_8b(charts):
    """Rating 0: '-' (never no loss), 2-3 -1, 4-5 -2, 6-7 -4, 8+ all."""
    answer = resolve(charts, "attrition", rating=0, steps=4)
    assert chances(answer, "result") == {"lose-1": AT_MOST[3], "lose-2": AT_MOST[5] - AT_MOST[3],
                                         "lose-4": AT_MOST[7] - AT_MOST[5], "lose-all": at_least(8)}
    assert chances(resolve(charts, "attrition", rating=0, steps=1), "steps_lost") == {1: 1}


@pytest.mark.parametrize("rating", [-1, 6])
def test_attrition_outside_its_columns_12_8b(charts, rating):
    with pytest.raises(EngineError, match="5, 4, 3, 2, 1, 0"):
        resolve(charts, "attrition", rating=rating)


# -- capture (9.14b, 9.14c) and supply-dump destruction (12.11a) ----------------------------------
@pytest.mark.parametrize("target, percents, remainder", [
    ("supply-dump", [0, 25, 25, 50, 50, 75], {"remainder": "destroyed"}),
    ("trucks", [0, 0, 25, 50, 50, 75], {"remainder": "moves", "hexes": 10}),
    ("wagons", [0, 0, 25, 50, 75, 100], {"remainder": "moves", "hexes": 5}),
])
def test_capture_table_9_14b(charts, target, percents, remainder):
    answer = resolve(charts, "capture", target=target)
    expected: dict = {}
    for percent in percents:
        expected[percent] = expected.get(percent, F(0)) + F(1, 6)
    assert chances(answer, "percent") == expected
    assert all(o.data["remainder"] == remainder["remainder"] and o.data.get("hexes") == remainder.get("hexes")
               for o in answer.outcomes)


def test_supply_dump_destruction_12_11a(charts):
    """1: 25%, 2-3: 50%, 4-5: 75%, 6: 100%."""
    answer = resolve(charts, "supply-dump-destruction")
    assert chances(answer, "percent") == {25: F(1, 6), 50: F(1, 3), 75: F(1, 3), 100: F(1, 6)}
    assert answer.expected("percent") == F(125, 2)


# -- facility barrage (10.0c) and port damage (19.0b) ----------------------------------------------
@pytest.mark.parametrize("strength, tokens", [
    (0.5, 1), (1, 1), (2, 1), (4, 1), (10, 1), (11, 2), (20, 2), (21, 4), (41, 6), (80, 6), (81, 8), (500, 8),
])
def test_facility_barrage_cost_10_0c(charts, strength, tokens):
    answer = resolve(charts, "facility-barrage", strength=strength)
    assert dict(answer.working)["supply spent"] == f"{tokens}T"


# 10.0c as printed: the strength columns in order, with each column's top and cost
FACILITY_COLUMNS = [("1 or less", 1, 1), ("2", 2, 1), ("3-4", 4, 1), ("5-10", 10, 1),
                    ("11-20", 20, 2), ("21-40", 40, 4), ("41-80", 80, 6), ("81 or more", None, 8)]


@pytest.mark.parametrize("index", range(len(FACILITY_COLUMNS) - 1))
def test_facility_barrage_fractions_read_the_nearest_column_10_0c(charts, index):
    """10.0c prints whole-number columns; a fractional strength is rounded to the nearest
    whole number (the sheet's rounding rule, 19.0b; only density is left unrounded): a half
    or more above a column's top reads the next column and its cost (4.5 is 5-10, 1T)."""
    column, top, cost = FACILITY_COLUMNS[index]
    following, _, following_cost = FACILITY_COLUMNS[index + 1]
    for strength, read_as, expected, tokens in [
            (top - 0.5, top, column, cost), (top + 0.25, top, column, cost),
            (top + 0.5, top + 1, following, following_cost),
            (top + 0.75, top + 1, following, following_cost)]:
        working = dict(resolve(charts, "facility-barrage", strength=strength).working)
        assert working["column"] == f"{expected} (strength {strength:g}, read as {read_as})"
        assert working["supply spent"] == f"{tokens}T"


def test_facility_barrage_against_an_airbase_10_0c(charts):
    """41-80: (5), 1(4), 1(4), 1*(4), 2*(4), 2*(3). A level 3 airbase; one aircraft there is
    hit on a die at or above the number in brackets."""
    answer = resolve(charts, "facility-barrage", strength=50, airbase_level=3, aircraft=1)
    assert chances(answer, "airbase_level") == {3: F(1, 6), 2: F(3, 6), 1: F(2, 6)}
    assert answer.probability(aircraft_hit=1) == (F(1, 6) * F(2, 6) + F(4, 6) * F(3, 6)
                                                  + F(1, 6) * F(4, 6))


def test_facility_barrage_leaves_an_airbase_at_level_1_10_0c(charts):
    assert chances(resolve(charts, "facility-barrage", strength=100, airbase_level=1),
                   "airbase_level") == {1: 1}
    assert chances(resolve(charts, "facility-barrage", strength=100, airbase_level=2),
                   "airbase_level") == {1: 1}


def test_facility_barrage_below_the_first_column_10_0c(charts):
    """Strength 1 or less: only a 6 does anything, (6) against the aircraft at an airbase."""
    answer = resolve(charts, "facility-barrage", strength=0.5, aircraft=2)
    assert chances(answer, "airbase_level") == {1: 1}
    assert chances(answer, "aircraft_hit") == {0: 1 - F(1, 6) * (1 - F(5, 6) ** 2),
                                              1: F(1, 6) * 2 * F(1, 6) * F(5, 6),
                                              2: F(1, 6) * F(1, 36)}
    with pytest.raises(EngineError):
        resolve(charts, "facility-barrage", strength=0)


@pytest.mark.parametrize("strength, chance", [(1, F(0)), (2, F(1, 6)), (4, F(1, 3)), (7, F(1, 2)),
                                              (15, F(1, 2)), (30, F(1, 2)), (81, F(1, 2))])
def test_facility_barrage_trainbusting_10_0c(charts, strength, chance):
    answer = resolve(charts, "facility-barrage", strength=strength, target="trainbusting")
    assert answer.probability(trainbusting=True) == chance


def test_facility_barrage_against_a_port_10_0c_19_0b(charts):
    """81+: 1, 1, 1, 2, 2, 2 hits; a port takes at most 4 hits; 80/60/40/20% capacity."""
    fresh = resolve(charts, "facility-barrage", strength=100, target="port")
    assert chances(fresh, "port_hits") == {1: F(1, 2), 2: F(1, 2)}
    assert chances(fresh, "capacity_percent") == {80: F(1, 2), 60: F(1, 2)}
    worn = resolve(charts, "facility-barrage", strength=100, target="port", port_hits=3)
    assert chances(worn, "port_hits") == {4: 1} and chances(worn, "capacity_percent") == {20: 1}


@pytest.mark.parametrize("hits, capacity, percent, tokens", [
    (0, 1, 100, 4), (1, 1, 80, 3),             # the chart's own example: 80% of 1 SP is 3T
    (2, 2, 60, 5), (3, 2, 40, 3), (4, 2.5, 20, 2),
])
def test_port_damage_19_0b(charts, hits, capacity, percent, tokens):
    answer = resolve(charts, "port-damage", hits=hits, capacity=capacity)
    assert [(o.probability, o.data) for o in answer.outcomes] == [
        (1, {"capacity_percent": percent, "capacity_tokens": tokens})]


def test_port_damage_past_four_hits_19_0b(charts):
    with pytest.raises(EngineError, match="from 0 to 4"):
        resolve(charts, "port-damage", hits=5)


# -- the editor's hook -------------------------------------------------------------------------------
def test_chart_distribution_is_plain_data():
    scenario = load_scenario(CHARTS)
    answer = chart_distribution(scenario, "air-combat", ["attacker-air=2", "defender-air=1"])
    assert answer["source"] == "charts 14.3e"
    assert answer["inputs"]["attacker-air"] == 2
    assert sum(o["probability"] for o in answer["outcomes"]) == pytest.approx(1)
    assert answer["outcomes"][0]["exact"] == "5/27"            # 10/36 returns x 2/3 no loss
    assert chart_distribution(scenario, "capture", {"target": "wagons"})["inputs"] == {"target": "wagons"}
    listed = chart_list(scenario)
    assert listed[0]["chart"] == "air-combat" and listed[0]["settings"][0].startswith("attacker-air=N")


def test_chart_settings_are_checked():
    scenario = load_scenario(CHARTS)
    with pytest.raises(SettingError, match="did you mean attacker-air"):
        chart_distribution(scenario, "air-combat", ["atacker-air=2"])
    with pytest.raises(SettingError, match="choose one of supply-dump, trucks, wagons"):
        chart_distribution(scenario, "capture", {"target": "lorries"})
    with pytest.raises(SettingError, match="has no setting"):
        chart_distribution(scenario, "capture", {"tokens": 3})
