"""OCS engine: combat (charts 9.2-9.10) and barrage (10.0a) against the chart sheet.

Expected results are read off the printed charts (004_...txt), not from tables.yaml, so a
wrong cell in the data or a wrong step in the procedure both fail here. Units are the demo
scenario's: panzer regiment 6-3 AR4 (yellow symbol, 2 steps), infantry regiment 3-4 AR3,
artillery regiment barrage 8, rifle division 4-5 AR2 (2 steps, 2 RE), tank brigade 4-2 AR3 (red
tank symbol).
"""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from engine import ATTACKER_WINS, DEFENDER_WINS, DRAW, Contingent, load_system
from engine.calculator import Force, run_battle
from engine.ocs import OCSPosition
from engine.ocs.charts import range_index
from engine.ocs.combat import TWO_DICE
from sandtable.scenario import load_scenario

DEMO = Path(__file__).parent.parent / "scenarios" / "ocs-charts-demo"


@pytest.fixture(scope="module")
def ocs():
    return load_system(load_scenario(DEMO))


def combat(attacker: dict, defender: dict, space: str = "0101", **extra) -> OCSPosition:
    return OCSPosition(space, (Contingent("axis", attacker),), (Contingent("allies", defender),), **extra)


def at_least(total: int) -> F:
    return sum((p for s, p in TWO_DICE.items() if s >= total), F(0))


def test_odds_column_by_terrain_9_9(ocs):
    """9.9: 15 against 5 is 3:1, the 7th column in open, 6th in close, 5th in very close and
    4th in extremely close terrain."""
    columns = {}
    for terrain in ("open", "close", "very-close", "extremely-close"):
        found = ocs.combat(combat({"panzer-regiment": 2, "infantry-regiment": 1},
                                  {"rifle-division": 1}, terrain=terrain))
        assert (found.attack_strength, found.defence_strength) == (15, 5)
        columns[terrain] = found.initial_column + 1
    assert columns == {"open": 7, "close": 6, "very-close": 5, "extremely-close": 4}


def test_odds_round_for_the_defender_9_9(ocs):
    """9.9: odds are rounded in the defender's favour: 14:5 (2.8:1) is read as 2:1."""
    found = ocs.combat(combat({"panzer-regiment": 1, "rifle-division": 2}, {"rifle-division": 1},
                              terrain="open"))
    assert (found.attack_strength, found.defence_strength) == (14, 5)
    assert ocs.charts.odds_columns("open")[found.initial_column] == (2, 1)


def test_terrain_comes_from_the_map(ocs):
    """9.3b: the defending hex's terrain picks the row: hex 0301 is extremely close."""
    assert ocs.terrain_of(combat({"panzer-regiment": 1}, {"rifle-division": 1}, space="0301")) \
        == "extremely-close"


@pytest.mark.parametrize("terrain, column, roll, printed", [
    ("open", 7, 8, "Ao1 DL1o1"),            # 3:1 open, roll 8
    ("open", 1, 6, "AL2"),                  # 1:5 open, roll 6
    ("close", 13, 7, "Ae3 DL2o2DG"),        # 18:1 close, roll 7
    ("very-close", 5, 9, "Ao1 Do1"),        # 3:1 very close, roll 9
    ("extremely-close", 4, 12, "Ao1 DL1o1"),  # 3:1 extremely close, roll 12
    ("open", 13, 15, "Ae2 DL2o3DG"),        # 13:1 open, 15 or more
    ("open", 8, 1, "AL1o1"),                # 4:1 open, 1 or less
])
def test_combat_results_table_cells_9_10(ocs, terrain, column, roll, printed):
    """9.10: the structured result at a terrain, odds column and modified roll."""
    rows = ocs.charts.combat_rows()
    cell = ocs.charts.combat_result(terrain, column - 1, range_index(rows, roll))
    assert cell["printed"] == printed


def test_result_applied_attacker_first_9_10(ocs):
    """9.10: Ao1 DL1o1 at 3:1 in open: the attacker takes its option as a step (it survives it),
    the defender loses a step and, with one step left, retreats for its option."""
    found = ocs.combat(combat({"panzer-regiment": 2, "infantry-regiment": 1}, {"rifle-division": 1},
                              terrain="open"))
    end = found.settle(6, found.rows.index(next(r for r in found.rows if r.get("id") == "8")))
    assert end.printed == "Ao1 DL1o1"
    assert end.attacker_steps_lost == 1 and not end.attacker_retreats
    assert end.defender_steps_lost == 1 and end.defender_retreats
    assert end.result == ATTACKER_WINS


def test_defender_ignores_option_when_attacker_retreats_9_10(ocs):
    """9.10 note 2: when the attacker retreats for its option the defender ignores its own."""
    found = ocs.combat(combat({"infantry-regiment": 1}, {"rifle-division": 1}, terrain="open",
                              attacker_option="retreat"))
    row = next(i for i, r in enumerate(found.rows) if r.get("id") == "9")
    end = found.settle(4, row)                       # 1:1 open, roll 9: Ao1 Do1
    assert end.printed == "Ao1 Do1"
    assert end.attacker_retreats and not end.defender_retreats and end.defender_steps_lost == 0
    assert end.result == DEFENDER_WINS


def test_exploit_by_action_rating_9_10(ocs):
    """9.10: e4 puts attackers with an action rating of 4 or more into exploit mode, unless
    the attack may not exploit."""
    found = ocs.combat(combat({"panzer-regiment": 1, "infantry-regiment": 1}, {"infantry-regiment": 1},
                              terrain="open"))
    assert found.initial_column + 1 == 6                 # 9:4 is 2:1 in open
    row = next(i for i, r in enumerate(found.rows) if r.get("id") == "15-or-more")
    end = found.settle(11, row)                          # 11:1 open, 15+: Ae2 DL2o3DG
    assert end.exploiting == 2
    barred = ocs.combat(combat({"panzer-regiment": 1, "infantry-regiment": 1}, {"infantry-regiment": 1},
                               terrain="open", exploit_allowed=False))
    assert barred.settle(11, row).exploiting == 0


def test_die_roll_modifiers_action_ratings_and_hedgehog_9_9(ocs):
    """9.9: + the attacker's action rating, - the defender's, - the hedgehog level; 9.6: a
    disorganized unit's rating is 1 lower, a strategic-mode unit's is 0."""
    plain = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}))
    assert plain.roll_modifier == 4 - 2
    assert ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, hedgehog=2)).roll_modifier == 0
    assert ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1},
                             attacker_mode="disorganized")).roll_modifier == 1
    assert ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1},
                             defender_mode="strategic")).roll_modifier == 4


def test_surprise_ranges_and_modifiers_9_8(ocs):
    """9.8: 2d6 + the rating difference; regular: 10+ attacker, 5- defender; overrun: 9+ and 6-;
    -1 when the defender is in a hedgehog."""
    regular = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}))    # +2
    assert regular.surprise(8) == "attacker" and regular.surprise(7) is None
    assert regular.surprise(3) == "defender" and regular.surprise(4) is None
    overrun = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, attack="overrun"))
    assert overrun.surprise(7) == "attacker" and overrun.surprise(4) == "defender"
    hedgehog = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, hedgehog=1))
    assert hedgehog.surprise(8) is None and hedgehog.surprise(9) == "attacker"


def test_surprise_shifts_columns_by_one_die_9_8(ocs):
    """9.8: a surprise shifts as many columns as one die shows, right for the attacker, left
    for the defender, never off the table."""
    found = ocs.combat(combat({"panzer-regiment": 2, "infantry-regiment": 1}, {"rifle-division": 1},
                              terrain="open"))
    assert found.column_after("attacker", 4) == 10
    assert found.column_after("defender", 3) == 3
    assert found.column_after("attacker", 6) == 12 and found.column_after("defender", 6) == 0


def test_exact_distribution_sums_to_one_and_surprise_odds_9_8(ocs):
    """9.8: with a +2 rating difference the attacker surprises on 2d6 >= 8 (15/36) and the
    defender on 2d6 <= 3 (3/36)."""
    found = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}))
    surprised = {"attacker": F(0), "defender": F(0)}
    for roll, p in TWO_DICE.items():
        side = found.surprise(roll)
        if side:
            surprised[side] += p
    assert surprised == {"attacker": at_least(8), "defender": 1 - at_least(4)}
    assert surprised == {"attacker": F(15, 36), "defender": F(3, 36)}
    assert sum(p for p, _ in found.cases()) == 1


def test_anti_armour_lowers_x2_to_x1_5_9_4e(ocs):
    """9.4e: armour attacking with a x2 terrain effect keeps x2 against a hex without equal or
    better anti-armour, and gets x1.5 against a red tank-symbol unit (heavy)."""
    soft = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, armour_terrain=2))
    hard = ocs.combat(combat({"panzer-regiment": 1}, {"tank-brigade": 1}, armour_terrain=2))
    assert soft.attack_strength == 12 and hard.attack_strength == 9
    hedgehog = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, armour_terrain=2,
                                 hedgehog=1))
    assert hedgehog.attack_strength == 9
    infantry = ocs.combat(combat({"infantry-regiment": 1}, {"rifle-division": 1}, armour_terrain=2))
    assert infantry.attack_strength == 3


def test_unsupplied_defender_at_half_strength_9_5(ocs):
    """9.5: a defender that spends no combat supply defends at half strength."""
    found = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, defender_supplied=False))
    assert found.defence_strength == F(5, 2)


def test_combat_supply_9_5(ocs):
    """9.5: the attacker spends 1T per attacking step, the defender 2T per combat, 1T when it
    has 1 RE or less, nothing when it defends at half strength."""
    two_panzers = {"panzer-regiment": 2}
    assert ocs.combat(combat(two_panzers, {"rifle-division": 1})).supply() == (4, 2)
    assert ocs.combat(combat(two_panzers, {"tank-brigade": 1})).supply() == (4, 1)
    assert ocs.combat(combat(two_panzers, {"rifle-division": 1}, defender_supplied=False)).supply() == (4, 0)


def test_barrage_cost_10_0a(ocs):
    """10.0a: a barrage of strength 16 spends 3T, of 8 spends 2T."""
    assert ocs.barrage(barrage({"rifle-division": 1})).supply() == 3
    assert ocs.barrage(barrage({"rifle-division": 1}, strength_units=1)).supply() == 2


# 10.0a as printed: the strength columns in order, with each column's top and cost
BARRAGE_COLUMNS = [("1-or-less", 1, 1), ("2", 2, 1), ("3-4", 4, 2), ("5-7", 7, 2), ("8-11", 11, 2),
                   ("12-16", 16, 3), ("17-24", 24, 3), ("25-40", 40, 4), ("41-68", 68, 6),
                   ("69-116", 116, 8), ("117-or-more", None, 10)]


@pytest.mark.parametrize("index", range(len(BARRAGE_COLUMNS) - 1))
def test_a_fractional_barrage_strength_reads_the_nearest_column_10_0a(ocs, index):
    """10.0a prints whole-number columns; the sheet leaves only the hex's density unrounded
    ("格中的RE数量(不要取整)") and its one rounding rule is to the nearest (19.0b): a strength
    less than a half above a column's top reads that column, a half or more the next one,
    at the next one's cost (4.5 reads 5-7 for 2T, not 117+ for 10T)."""
    column, top, cost = BARRAGE_COLUMNS[index]
    following, _, following_cost = BARRAGE_COLUMNS[index + 1]
    ids = [v["id"] for v in ocs.charts.axis("barrage", "strength")]
    assert ids == [c for c, _, _ in BARRAGE_COLUMNS]
    for strength, expected, tokens in [(top - 0.5, column, cost), (top + 0.25, column, cost),
                                       (top + 0.49, column, cost), (top + 0.5, following,
                                                                    following_cost),
                                       (top + 0.75, following, following_cost)]:
        assert (ids[ocs.charts.barrage_column(strength)], ocs.charts.barrage_cost(strength)) \
            == (expected, tokens), strength


def test_a_barrage_of_fractional_units_reads_the_rounded_column_10_0a(ocs):
    """Three guns of barrage 1.5 fire 4.5: the 5-7 column (the 4th), 2T."""
    from dataclasses import replace

    from engine.ocs.barrage import Barrage
    profiles = dict(ocs.profiles)
    profiles["light-gun"] = replace(profiles["artillery-regiment"], id="light-gun", barrage=1.5)
    found = Barrage(ocs.charts, profiles, OCSPosition(
        "0202", (Contingent("axis", {"light-gun": 3}),), (Contingent("allies", {"rifle-division": 1}),),
        raid=True), "open", set())
    assert (found.strength, found.printed_column + 1, found.supply()) == (4.5, 4, 2)


@pytest.mark.parametrize("density, shift", [(F(1, 2), -1), (1, -1), (F(5, 4), 0), (3, 0),
                                            (F(7, 2), 1), (4, 1), (F(9, 2), 2), (5, 2),
                                            (F(11, 2), 3), (6, 3), (F(13, 2), 4), (9, 4)])
def test_density_shifts_read_fractions_unrounded_10_0a(ocs, density, shift):
    """10.0a: "RE in the hex (not rounded)": 1 RE or less one left, more than 1 up to 3 none,
    more than 3 up to 4 one right, more than 4 up to 5 two, more than 5 up to 6 three, more
    than 6 four."""
    from engine.ocs.charts import in_range
    mods = ocs.charts.modifiers("barrage").values()
    assert sum(m.shift for m in mods if m.group == "density" and m.bounds
               and in_range(density, m.bounds)) == shift


def test_a_value_between_two_ranges_is_refused_not_read_on_the_last_column(ocs):
    from engine import EngineError
    with pytest.raises(EngineError, match="4.5 lies between the chart's ranges"):
        range_index(ocs.charts.axis("barrage", "strength"), 4.5)


def test_monte_carlo_agrees_with_exact(ocs):
    """The simulated combat agrees with the exact distribution (z-test, fixed seed)."""
    position = combat({"panzer-regiment": 1, "infantry-regiment": 1}, {"rifle-division": 1},
                      space="0102")
    exact = ocs.exact(position)
    runs = 20000
    batch = ocs.simulate(position, runs, np.random.default_rng(11))
    for result in (ATTACKER_WINS, DEFENDER_WINS):
        p = float(exact.probability[exact.result == result].sum())
        seen = float((batch.result == result).mean())
        assert abs(seen - p) / math.sqrt(p * (1 - p) / runs) < 4


def test_same_seed_same_outcome(ocs):
    position = combat({"panzer-regiment": 1}, {"rifle-division": 1})
    one = ocs.simulate(position, 500, np.random.default_rng(5))
    two = ocs.simulate(position, 500, np.random.default_rng(5))
    assert (one.result == two.result).all() and (one.defender_loss == two.defender_loss).all()


def test_calculator_answers_exactly(ocs):
    """The calculator takes the exact distribution: a combat has at most 11 x 7 x 11 cases."""
    report = run_battle(DEMO, Force("axis", {"panzer-regiment": 2}), Force("allies", {"rifle-division": 1}),
                        "0202", seed=1)
    assert report.method == "exact"
    assert report.attacker_wins + report.defender_wins + report.draws == pytest.approx(1)


def barrage(defender: dict, strength_units: int = 2, space: str = "0202", **extra) -> OCSPosition:
    return combat({"artillery-regiment": strength_units}, defender, space=space, raid=True, **extra)


def test_barrage_column_density_and_terrain_shifts_10_0a(ocs):
    """10.0a: strength 16 is the 12-16 column; 2 RE is no density shift; very close terrain
    shifts one left (8-11); 1 RE or less shifts one more left; more than 6 RE 4 right."""
    found = ocs.barrage(barrage({"rifle-division": 1}))
    assert found.strength == 16 and found.density == 2 and found.column + 1 == 5
    light = ocs.barrage(barrage({"infantry-regiment": 1}))
    assert light.column + 1 == 4
    crowded = ocs.barrage(barrage({"rifle-division": 4}, space="0101"))
    assert crowded.density == 8 and crowded.column + 1 == 6 + 4
    # units other than multi-step ones count at most 3 RE in all
    capped = ocs.barrage(barrage({"infantry-regiment": 5}, space="0101"))
    assert capped.density == 3 and capped.column + 1 == 6


def test_barrage_results_exact_10_0a(ocs):
    """10.0a column 8-11: 2-6 no effect, 7-9 DG, 10 [1/2], 11-12 1/2; 1/2: a die of 4-6 loses a
    step. With a spotter, by artillery: a step is lost with chance 6/36 x 1/2 = 1/12."""
    cases = ocs.distribution(barrage({"rifle-division": 1}))
    step = sum(p for p, end in cases if end.steps_lost)
    dg_only = sum(p for p, end in cases if end.disorganized and not end.steps_lost)
    assert step == F(1, 12) and dg_only == F(1, 2)
    assert sum(p for p, end in cases if end.result == DEFENDER_WINS) == F(15, 36)


def test_bracketed_half_is_dg_for_aircraft_10_0a(ocs):
    """10.0a: [1/2] counts as DG for a barrage by aircraft: only rolls of 11-12 can cost a step."""
    cases = ocs.distribution(barrage({"rifle-division": 1}, barrage_by="air"))
    assert sum(p for p, end in cases if end.steps_lost) == F(3, 36) * F(1, 2)


def test_ship_barrage_reduced_18_3b(ocs):
    """18.3b: a ship's 1/2 (and [1/2]) against a ground target is DG only."""
    cases = ocs.distribution(barrage({"rifle-division": 1}, barrage_by="ship"))
    assert sum(p for p, end in cases if end.steps_lost) == 0
    assert sum(p for p, end in cases if end.result == DRAW) == F(21, 36)


def test_barrage_hedgehog_and_no_spotter_shifts_10_0a(ocs):
    """10.0a: a hedgehog shifts one column left, no spotter three; both at once from 12-16 on
    open ground with 2 RE leave column 2."""
    found = ocs.barrage(barrage({"rifle-division": 1}, space="0101", hedgehog=1, spotter=False))
    assert found.column + 1 == 6 - 1 - 3


# -- mends and every input of a combat (9.6, 9.8-9.10) ------------------------------------------------
MILITIA = """
- id: militia-battalion
  name: Militia battalion
  domain: land
  stats: {action_rating: 0, attack: 1, defense: 1, movement: 4, re: 0.5, steps: 1}
  tags: [infantry]
  reconstructed: true
  notes: A test unit rated 0.
"""


@pytest.fixture(scope="module")
def with_militia(tmp_path_factory):
    """The demo with one more unit type, rated 0, beside a copy of the charts it extends."""
    import shutil
    root = tmp_path_factory.mktemp("ocs")
    shutil.copytree(DEMO.parent / "ocs-charts", root / "ocs-charts")
    shutil.copytree(DEMO, root / "ocs-charts-demo")
    units = root / "ocs-charts-demo" / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8") + MILITIA.lstrip("\n"), encoding="utf-8")
    return load_system(load_scenario(root / "ocs-charts-demo"))


def row(found, roll_id: str) -> int:
    return next(i for i, r in enumerate(found.rows) if r.get("id") == roll_id)


def test_disorganized_rating_has_no_floor_9_6(with_militia):
    """9.6: -1 when DG, and the chart sets no floor: a DG unit rated 0 counts -1."""
    found = with_militia.combat(combat({"panzer-regiment": 1}, {"militia-battalion": 1},
                                       defender_mode="disorganized"))
    assert found.defender_rating == -1
    assert found.roll_modifier == 4 - (-1)
    assert found.surprise_modifier == 5                 # 9.8: the difference of the ratings


def test_modes_and_ratings_9_6(ocs):
    """9.6: strategic mode sets the rating to 0; exploit mode leaves it printed."""
    for mode, rating in (("normal", 4), ("disorganized", 3), ("strategic", 0), ("exploit", 4)):
        assert ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1},
                                 attacker_mode=mode)).attacker_rating == rating


def test_retreat_of_two_hexes_disorganizes_9_10_note_3(ocs):
    """9.10 note 3: a unit retreating 2 or more hexes is DG as it enters the second. Open 7:1
    (column 10) roll 9 is Ae4 DL1o2: the rifle division, down to 1 step, retreats 2 hexes."""
    found = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, terrain="open"))
    two = found.settle(9, row(found, "9"))
    assert two.printed == "Ae4 DL1o2"
    assert (two.defender_steps_lost, two.defender_retreat_hexes, two.defender_disorganized) == (1, 2, True)
    one = found.settle(6, row(found, "9"))          # 3:1, roll 9: Ao1 DL1o1
    assert one.printed == "Ao1 DL1o1"
    assert (one.defender_retreat_hexes, one.defender_disorganized) == (1, False)
    steps = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, terrain="open",
                              defender_option="steps")).settle(9, row(found, "9"))
    assert steps.defender_left == {} and steps.defender_steps_lost == 2 and not steps.defender_disorganized


def test_defender_may_apply_its_option_9_10_note_2(ocs):
    """9.10 note 2: the defender *may* ignore its option after the attacker retreats for its own;
    a policy: ignore it (default), or apply it as defender-option says."""
    def settle(**extra):
        found = ocs.combat(combat({"infantry-regiment": 1}, {"rifle-division": 1}, terrain="open",
                                  attacker_option="retreat", **extra))
        return found.settle(4, row(found, "9"))     # 1:1 open, roll 9: Ao1 Do1
    ignored = settle()
    assert ignored.attacker_retreat_hexes == 1 and ignored.defender_steps_lost == 0
    applied = settle(defender_ignores_option=False, defender_option="retreat")
    assert applied.defender_retreat_hexes == 1 and applied.result == ATTACKER_WINS
    stepped = settle(defender_ignores_option=False)
    assert stepped.defender_steps_lost == 1 and stepped.defender_retreat_hexes == 0


def test_exploit_mode_gets_no_exploit_result_9_10(ocs):
    """9.10: e# occurs only in attacks of the combat phase; units in exploit mode attack in
    the exploitation phase."""
    found = ocs.combat(combat({"panzer-regiment": 1, "infantry-regiment": 1}, {"infantry-regiment": 1},
                              terrain="open", attacker_mode="exploit"))
    assert found.settle(11, row(found, "15-or-more")).exploiting == 0


def test_attack_below_the_first_column_9_9(ocs):
    """9.9: 3 against 20 in open is below 1:5, the first column; it is resolved there."""
    found = ocs.combat(combat({"infantry-regiment": 1}, {"rifle-division": 4}, terrain="open"))
    assert found.initial_column == 0


def test_modified_roll_past_the_rows_9_9(ocs, with_militia):
    """9.9: a modified roll below 1 reads '1 or less', above 15 '15 or more'."""
    low = ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, attacker_mode="strategic",
                            hedgehog=4))
    assert low.roll_modifier == -6 and low.rows[low.row_of(2)]["id"] == "1-or-less"
    high = with_militia.combat(combat({"panzer-regiment": 1}, {"militia-battalion": 1},
                                      defender_mode="disorganized"))
    assert high.rows[high.row_of(12)]["id"] == "15-or-more"


def test_overrun_surprise_in_the_exact_distribution_9_8(ocs):
    """9.8: an overrun surprises on 9+ (attacker) and 6- (defender): with +2, 7+ and 4-."""
    regular = ocs.battle_details(combat({"panzer-regiment": 1}, {"rifle-division": 1}))
    overrun = ocs.battle_details(combat({"panzer-regiment": 1}, {"rifle-division": 1}, attack="overrun"))
    assert regular["surprise"] == {"attacker": float(at_least(8)), "defender": float(1 - at_least(4))}
    assert overrun["surprise"] == {"attacker": float(at_least(7)), "defender": float(1 - at_least(5))}


def test_negative_hedgehog_is_refused(ocs):
    with pytest.raises(Exception, match="hedgehog"):
        ocs.combat(combat({"panzer-regiment": 1}, {"rifle-division": 1}, hedgehog=-1))


# -- every input of a barrage (10.0a) -------------------------------------------------------------------
@pytest.mark.parametrize("extra, space, shift", [
    ({}, "0101", 0),
    ({"barrage_by": "air", "near_airbase": True}, "0101", 1),
    ({"near_airbase": True}, "0101", 0),                           # aircraft only
    ({"barrage_by": "air", "beyond_half_range": True}, "0101", 0),  # optional 21.4 off
    ({"barrage_by": "air", "beyond_half_range": True, "optional_21_4": True}, "0101", -1),
    ({"strategic_in_hex": True}, "0101", 3),
    ({"hedgehog": 2}, "0101", -1),
    ({"spotter": False}, "0101", -3),
    ({}, "0102", -1),                                               # close
    ({}, "0202", -1),                                               # very close
    ({}, "0301", -2),                                               # extremely close
])
def test_barrage_shifts_10_0a(ocs, extra, space, shift):
    """From 12-16 (column 6) with 2 RE in the hex (no density shift)."""
    found = ocs.barrage(barrage({"rifle-division": 1}, space=space, **extra))
    assert found.column + 1 == 6 + shift


def test_barrage_shifts_past_the_ends_10_0a(ocs):
    """117 or more with over 6 RE stays in the last column; 8 with every left shift in the first."""
    top = ocs.barrage(barrage({"rifle-division": 4}, strength_units=15, space="0101"))
    assert top.strength == 120 and top.column + 1 == 11
    bottom = ocs.barrage(barrage({"infantry-regiment": 1}, strength_units=1, space="0301",
                                 hedgehog=1, spotter=False))
    assert bottom.printed_column + 1 == 5 and bottom.column == 0
    assert ocs.charts.barrage_column(0.5) == 0              # below the first column: 1 or less


def test_bracketed_half_counts_as_dg_in_a_level_3_hedgehog_10_0a(ocs):
    """[1/2] is DG in a level 3 or 4 hedgehog, 1/2 in a lower one. 12-16 shifted to 8-11 by the
    hedgehog: roll 10 is [1/2], 11-12 are 1/2, each losing a step on 4-6."""
    def step_chance(level):
        cases = ocs.distribution(barrage({"rifle-division": 1}, space="0101", hedgehog=level))
        return sum(p for p, end in cases if end.steps_lost)
    assert step_chance(2) == F(6, 36) / 2
    assert step_chance(3) == F(3, 36) / 2


def test_every_battle_setting_explains_itself():
    """`--option list` reads well: every OCS setting has help; texts have their choices."""
    from engine.options import settings_of_position
    from engine.system import BattlePosition
    settings = settings_of_position(OCSPosition, BattlePosition)
    assert all(s.help for s in settings)
    assert all(s.choices for s in settings if s.kind == "text")
    assert {s.name for s in settings} >= {"hedgehog", "attack", "attacker-mode", "defender-mode",
                                          "defender-supplied", "armour-terrain", "barrage-by",
                                          "spotter", "strategic-in-hex", "near-airbase",
                                          "beyond-half-range", "optional-21-4"}


def test_details_in_ocs_terms(ocs):
    """The report's details: steps, retreats, DG, exploitation and tokens, summing to one."""
    details = ocs.battle_details(combat({"panzer-regiment": 2}, {"rifle-division": 1}, space="0202"))
    assert details["supply_tokens"] == {"attacker": 4, "defender": 2}
    for side in ("attacker", "defender"):
        assert sum(details["steps_lost"][side].values()) == pytest.approx(1)
        assert sum(details["retreat_hexes"][side].values()) == pytest.approx(1)
    assert details["disorganized"]["defender"] >= details["retreat_hexes"]["defender"].get("2", 0)
    barrage_details = ocs.battle_details(barrage({"rifle-division": 1}))
    assert barrage_details["supply_tokens"] == 3
    assert barrage_details["disorganized"] == pytest.approx(float(F(1, 2) + F(1, 12)))
