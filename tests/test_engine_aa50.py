"""AA50 combat (rulebook §5.5 and §7): each rule against odds computed by hand.

The closed forms come from the round-by-round Markov chain: when a round leaves the state
unchanged with probability s, the chance of each way out is its probability divided by (1 - s).
The unit values are those of the test board's units.yaml (the rulebook's, §7).
"""
from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from engine import ATTACKER_WINS, DEFENDER_WINS, DRAW, BattlePosition, Contingent, EngineError, Policy, load_system
from engine.aa50 import rounds
from engine.calculator import parse_force
from sandtable.scenario import load_scenario

BOARD = Path(__file__).parent / "fixtures" / "engine" / "aa50-combat"


@pytest.fixture(scope="module")
def aa50():
    return load_system(load_scenario(BOARD))


def position(attacker: str, *defenders: str, space: str = "karelia-ssr", **extra) -> BattlePosition:
    def contingent(text):
        force = parse_force(text)
        return Contingent(force.owner, force.units)
    bombard = extra.pop("bombard", None)
    return BattlePosition(space, (contingent(attacker),), tuple(contingent(d) for d in defenders),
                          bombard=contingent(bombard) if bombard else None, **extra)


def odds(system, pos):
    found = system.exact(pos)
    return tuple(float(found.probability[found.result == r].sum())
                 for r in (ATTACKER_WINS, DEFENDER_WINS, DRAW))


def distribution(found, field):
    values = getattr(found, field)
    return {int(v): float(found.probability[values == v].sum()) for v in np.unique(values)}


def close(found, expected):
    assert found == pytest.approx(tuple(float(x) for x in expected), abs=1e-12)


# -- §5.5.3 general combat ---------------------------------------------------------------------
def test_one_infantry_attacking_one_infantry_general_combat_5_5_3(aa50):
    # Attacker hits on 1 (1/6), defender on 1-2 (1/3); both fire every round, the hit defender
    # still fires back (§5.5.3.2). A round changes nothing with s = 5/6 * 2/3 = 5/9:
    # attacker wins 1/6*2/3 / (4/9) = 1/4, defender 5/6*1/3 / (4/9) = 5/8, both die 1/18 / (4/9)
    # = 1/8; rounds are geometric with mean 1 / (4/9) = 9/4.
    found = aa50.exact(position("germany: 1 infantry", "soviet-union: 1 infantry"))
    close(odds(aa50, position("germany: 1 infantry", "soviet-union: 1 infantry")),
          (F(1, 4), F(5, 8), F(1, 8)))
    assert found.mean_rounds == pytest.approx(9 / 4)
    assert float(found.probability @ found.defender_loss) == pytest.approx(3 * (1 / 4 + 1 / 8))


# -- §7.1.1-7.1.2 artillery support ------------------------------------------------------------
def test_artillery_supports_one_infantry_in_attack_7_1_2(aa50):
    # 1 infantry + 1 artillery attack 1 infantry. Both attack at 2: P(a hit) = 1 - (2/3)^2 = 5/9;
    # the defender hits at 1/3 and the infantry (cheaper) is lost first. From (2, 1): win 15/19,
    # to (artillery alone vs infantry) 4/19, where 2-vs-2 gives 2/5, 2/5, 1/5.
    # Attacker 15/19 + 4/19 * 2/5 = 83/95, defender 8/95, draw 4/95.
    close(odds(aa50, position("germany: 1 infantry, 1 artillery", "soviet-union: 1 infantry")),
          (F(83, 95), F(8, 95), F(4, 95)))


def test_support_lifts_one_infantry_per_artillery_and_never_in_defence_7_1_1(aa50):
    model = aa50.model(position("germany: 3 infantry, 1 artillery",
                                "soviet-union: 2 infantry, 1 artillery"))
    a, d = model.attacker, model.defender
    attack = rounds.general_fire(model, a, a.start[None, :], np.array([False]), False)
    dice_at = {}
    for _, dice, p in attack:
        dice_at[round(p * 6)] = dice_at.get(round(p * 6), 0) + int(dice[0])
    assert dice_at == {1: 2, 2: 2}          # two lone infantry; the artillery and one infantry
    defence = rounds.general_fire(model, d, d.start[None, :], np.array([False]), False)
    assert {round(p * 6) for _, dice, p in defence if dice[0]} == {2}


def test_two_kinds_of_artillery_lift_each_infantry_once_7_1_2(aa50):
    # Artillery that came ashore and artillery that did not are two kinds of unit: together
    # three of them lift the two infantry once, not once each (which rolled more dice than
    # there are units, and failed in the simulation and the exact chain).
    pos = position("germany: 2 infantry, 3 artillery", "soviet-union: 1 infantry",
                   landing={"artillery": 2})
    model = aa50.model(pos)
    a = model.attacker
    attack = rounds.general_fire(model, a, a.start[None, :], np.array([False]), False)
    dice_at: dict[int, int] = {}
    for _, dice, p in attack:
        if dice[0]:
            dice_at[round(p * 6)] = dice_at.get(round(p * 6), 0) + int(dice[0])
    assert dice_at == {2: 5}                # two lifted infantry and three artillery, at 2
    assert sum(odds(aa50, pos)) == pytest.approx(1.0)


# -- §7.1.4 antiaircraft guns ------------------------------------------------------------------
def test_aa_gun_fires_once_per_plane_hitting_on_1_7_1_4(aa50):
    # A fighter alone against a gun: shot down 1/6 (nobody is left: a draw), else it wins.
    close(odds(aa50, position("germany: 1 fighter", "soviet-union: 1 aa-gun")),
          (F(5, 6), 0, F(1, 6)))


def test_aa_gun_fires_in_the_first_round_only_7_1_4(aa50):
    # After the gun (5/6 survive), fighter (1/2) against infantry (1/3): 1/2, 1/4, 1/4.
    # Attacker 5/6 * 1/2 = 5/12; defender 1/6 + 5/6 * 1/4 = 3/8; draw 5/6 * 1/4 = 5/24.
    close(odds(aa50, position("germany: 1 fighter", "soviet-union: 1 infantry, 1 aa-gun")),
          (F(5, 12), F(3, 8), F(5, 24)))


def test_only_one_aa_gun_fires_even_with_allied_guns_7_1_4(aa50):
    close(odds(aa50, position("germany: 1 fighter", "soviet-union: 2 aa-gun",
                              "united-kingdom: 1 aa-gun")), (F(5, 6), 0, F(1, 6)))


def test_radar_guns_hit_on_1_or_2_5_2_3(aa50):
    pos = position("germany: 1 fighter", "soviet-union: 1 aa-gun",
                   research={"soviet-union": frozenset({"radar"})})
    close(odds(aa50, pos), (F(4, 6), 0, F(2, 6)))
    # another nation's radar does not help this gun (§5.2.4)
    pos = position("germany: 1 fighter", "soviet-union: 1 aa-gun",
                   research={"united-kingdom": frozenset({"radar"})})
    close(odds(aa50, pos), (F(5, 6), 0, F(1, 6)))


# -- §7.3.5 submarines -------------------------------------------------------------------------
def test_submarine_surprise_strike_removes_its_hit_before_it_fires_7_3_5(aa50):
    # The sub fires first at 1/3; a hit cruiser never fires. Otherwise the cruiser hits at 1/2.
    # Attacker (1/3) / (1 - 2/3*1/2) = 1/2, defender 1/2, never both.
    close(odds(aa50, position("germany: 1 submarine", "soviet-union: 1 cruiser", space="sz-5")),
          (F(1, 2), F(1, 2), 0))


def test_defending_submarine_strikes_first_too_7_3_5(aa50):
    # Sub (1/6) first, then the cruiser (1/2): attacker 5/12 / (7/12) = 5/7, defender 2/7.
    close(odds(aa50, position("germany: 1 cruiser", "soviet-union: 1 submarine", space="sz-5")),
          (F(5, 7), F(2, 7), 0))


def test_both_sides_submarines_strike_before_taking_hits_7_3_5(aa50):
    # 1/3 against 1/6, together: s = 2/3*5/6 = 5/9; 5/18, 2/18, 1/18 over 4/9.
    close(odds(aa50, position("germany: 1 submarine", "soviet-union: 1 submarine", space="sz-5")),
          (F(5, 8), F(1, 4), F(1, 8)))


def test_enemy_destroyer_cancels_surprise_strike_7_3_4(aa50):
    # Against a destroyer the sub fires with everyone: 1/3 and 1/3 -> 2/5, 2/5, 1/5.
    close(odds(aa50, position("germany: 1 submarine", "soviet-union: 1 destroyer", space="sz-5")),
          (F(2, 5), F(2, 5), F(1, 5)))


def test_submarine_hits_cannot_be_taken_by_air_units_7_3_5(aa50):
    model = aa50.model(position("germany: 1 submarine", "soviet-union: 1 carrier, 1 fighter",
                                space="sz-5"))
    d = model.defender
    after = rounds.take_hits(d, d.start[None, :], {rounds.SEA: np.array([1])})
    assert d.units(after[0]) == {"fighter": 1}        # the cheaper fighter cannot take it
    after = rounds.take_hits(d, d.start[None, :], {rounds.ANY: np.array([1])})
    assert d.units(after[0]) == {"carrier": 1}


def test_submarine_facing_only_air_units_submerges_7_3_5(aa50):
    found = aa50.exact(position("germany: 1 fighter", "soviet-union: 1 submarine", space="sz-5"))
    assert distribution(found, "defender_survivors") == {1: pytest.approx(1.0)}
    assert found.mean_rounds == 0


def test_air_units_hit_submarines_only_with_a_friendly_destroyer_7_3_4(aa50):
    # Fighter (1/2) and destroyer (1/3) against a sub that cannot submerge or strike first: the
    # sub dies with 2/3 a round; it hits the destroyer at 1/6 and then, facing only the
    # fighter, submerges: it survives with (1/3*1/6) / (1 - 1/3*5/6) = 1/13.
    found = aa50.exact(position("germany: 1 fighter, 1 destroyer", "soviet-union: 1 submarine",
                                space="sz-5"))
    survivors = distribution(found, "defender_survivors")
    assert survivors[1] == pytest.approx(1 / 13)
    assert survivors[0] == pytest.approx(12 / 13)


def test_air_hits_go_past_submarines_to_other_targets_7_3_4(aa50):
    # Two bombers and a cruiser against a cruiser and two subs, all hit: the cruiser's hit takes
    # a sub, one bomber hit takes the cruiser, the other bomber hit has no legal target.
    model = aa50.model(position("germany: 2 bomber, 1 cruiser",
                                "soviet-union: 1 cruiser, 2 submarine", space="sz-5"))
    d = model.defender
    after = rounds.take_hits(d, d.start[None, :], {rounds.NOT_SUBMARINE: np.array([2]),
                                                   rounds.ANY: np.array([1])})
    assert d.units(after[0]) == {"submarine": 1}


# -- §7.3.1 battleships ------------------------------------------------------------------------
def test_battleship_takes_two_hits_7_3_1(aa50):
    # Battleship (2/3) against destroyer (1/3). Intact: win 6/7, damaged 1/7. Damaged: 4/7,
    # 1/7, 2/7. Attacker 6/7 + 4/49 = 46/49, defender 1/49, draw 2/49.
    found = aa50.exact(position("germany: 1 battleship", "soviet-union: 1 destroyer", space="sz-5"))
    close(odds(aa50, position("germany: 1 battleship", "soviet-union: 1 destroyer",
                              space="sz-5")), (F(46, 49), F(1, 49), F(2, 49)))
    # a damaged battleship is repaired after the battle: no loss unless sunk (§7.3.1)
    assert float(found.probability @ found.attacker_loss) == pytest.approx(20 * 3 / 49)


# -- §7.3.6 transports -------------------------------------------------------------------------
def test_defenceless_transports_are_sunk_without_dice_5_5_3_2(aa50):
    found = aa50.exact(position("germany: 1 destroyer", "soviet-union: 2 transport", space="sz-5"))
    close(odds(aa50, position("germany: 1 destroyer", "soviet-union: 2 transport",
                              space="sz-5")), (1, 0, 0))
    assert found.mean_rounds == 0
    assert float(found.probability @ found.defender_loss) == pytest.approx(14)


def test_transports_and_a_submerged_sub_against_air_5_5_3_2(aa50):
    found = aa50.exact(position("germany: 1 fighter", "soviet-union: 1 submarine, 1 transport",
                                space="sz-5"))
    assert odds(aa50, position("germany: 1 fighter", "soviet-union: 1 submarine, 1 transport",
                               space="sz-5"))[0] == pytest.approx(1)
    assert distribution(found, "defender_survivors") == {1: pytest.approx(1)}   # the sub
    assert float(found.probability @ found.defender_loss) == pytest.approx(7)


def test_transports_are_chosen_last_7_3_6(aa50):
    model = aa50.model(position("germany: 1 cruiser", "soviet-union: 1 destroyer, 1 transport",
                                space="sz-5"))
    d = model.defender
    after = rounds.take_hits(d, d.start[None, :], {rounds.ANY: np.array([1])})
    assert d.units(after[0]) == {"transport": 1}       # cheaper, but taken last
    # The cruiser (1/2) sinks the destroyer, then the transport is defenceless; the destroyer
    # (1/3) sinking the cruiser leaves the transport holding: 1/3 over 2/3 each way.
    close(odds(aa50, position("germany: 1 cruiser", "soviet-union: 1 destroyer, 1 transport",
                              space="sz-5")), (F(1, 2), F(1, 2), 0))


# -- §5.5.2.2 offshore bombardment -------------------------------------------------------------
def test_bombardment_is_limited_to_one_ship_per_landing_unit_5_5_2_2(aa50):
    # One infantry lands; one battleship of two may fire (hits 2/3, the casualty still fires).
    # Round 1: the defender dies with 1 - 5/6*1/3 = 13/18, the attacker with 1/3; after a
    # round without loss it is 1 infantry against 1 (1/4, 5/8, 1/8).
    # Attacker 26/54 + 10/54*1/4 = 19/36; draw 13/54 + 10/54*1/8 = 19/72; defender 5/24.
    landing = dict(landing={"infantry": 1})
    expected = (F(19, 36), F(5, 24), F(19, 72))
    close(odds(aa50, position("germany: 1 infantry", "soviet-union: 1 infantry",
                              bombard="germany: 2 battleship", **landing)), expected)
    close(odds(aa50, position("germany: 1 infantry", "soviet-union: 1 infantry",
                              bombard="germany: 1 battleship", **landing)), expected)


def test_bombardment_hits_only_land_units_5_5_2_2(aa50):
    # Against a lone fighter the battleship's shot is lost: infantry (1/6) vs fighter (2/3):
    # attacker (1/6*1/3) / (1 - 5/6*1/3) = 1/13.
    pos = position("germany: 1 infantry", "soviet-union: 1 fighter",
                   bombard="germany: 1 battleship", landing={"infantry": 1})
    assert odds(aa50, pos)[0] == pytest.approx(1 / 13)


def test_bombardment_needs_landing_units_5_5_2_2(aa50):
    with pytest.raises(EngineError):
        aa50.model(position("germany: 1 infantry", "soviet-union: 1 infantry",
                            bombard="germany: 1 battleship"))


# -- §5.5.3.5 retreat --------------------------------------------------------------------------
def test_attacker_retreats_by_policy_5_5_3_5(aa50):
    # 2 infantry against 1, retreating at 1 left. A hit: 11/36; the defender hits 1/3.
    # From (2, 1): win 33/58 (22/58 with both, 11/58 with one); retreat 25/58.
    pos = position("germany: 2 infantry", "soviet-union: 1 infantry",
                   policy=Policy(retreat_at=1))
    found = aa50.exact(pos)
    close(odds(aa50, pos), (F(33, 58), F(25, 58), 0))
    assert distribution(found, "attacker_survivors") == {
        1: pytest.approx(36 / 58), 2: pytest.approx(22 / 58)}


def test_units_landed_from_the_sea_cannot_retreat_5_5_2_3(aa50):
    pressed = odds(aa50, position("germany: 2 infantry", "soviet-union: 1 infantry"))
    landed = odds(aa50, position("germany: 2 infantry", "soviet-union: 1 infantry",
                                 landing={"infantry": 2}, policy=Policy(retreat_at=1)))
    assert landed == pytest.approx(pressed)


# -- §5.5.4 multinational forces ---------------------------------------------------------------
def test_allies_defend_together_5_5_4_1(aa50):
    together = odds(aa50, position("germany: 2 armour", "soviet-union: 1 infantry",
                                   "united-kingdom: 1 infantry"))
    alone = odds(aa50, position("germany: 2 armour", "soviet-union: 2 infantry"))
    assert together == pytest.approx(alone)


def test_allies_never_attack_together_5_5_4(aa50):
    pos = BattlePosition("karelia-ssr", (Contingent("germany", {"infantry": 1}),
                                         Contingent("italy", {"infantry": 1})),
                         (Contingent("soviet-union", {"infantry": 1}),))
    with pytest.raises(EngineError, match="never attack together"):
        aa50.model(pos)


# -- §5.5.1 strategic bombing ------------------------------------------------------------------
def test_strategic_bombing_damage_is_capped_at_twice_the_value_5_5_1(aa50):
    # Value 3, 3 markers already: room for 3. The gun spares the bomber 5/6 of the time and
    # the die gives min(d, 3): mean (1 + 2 + 3*4) / 6 = 5/2, so 5/6 * 5/2 = 25/12.
    pos = position("germany: 1 bomber", "soviet-union: 1 factory, 1 aa-gun", space="ukraine-ssr",
                   raid=True, damage=3)
    found = aa50.exact(pos)
    assert float(found.probability @ found.defender_loss) == pytest.approx(25 / 12)
    assert float(found.defender_loss.max()) == 3


def test_heavy_bombers_roll_two_dice_in_a_raid_5_2_3(aa50):
    # Room 6 (value 3, no damage): E[min(2d6, 6)] = (2*1 + 3*2 + 4*3 + 5*4 + 6*26) / 36 = 49/9.
    pos = position("germany: 1 bomber", "soviet-union: 1 factory, 1 aa-gun", space="ukraine-ssr",
                   raid=True, research={"germany": frozenset({"heavy-bombers"})})
    found = aa50.exact(pos)
    assert float(found.probability @ found.defender_loss) == pytest.approx(5 / 6 * 49 / 9)


def test_raid_needs_a_factory_5_5_1(aa50):
    with pytest.raises(EngineError, match="no factory"):
        aa50.exact(position("germany: 1 bomber", "soviet-union: 1 infantry", raid=True))


# -- §5.2.3 research that changes combat -------------------------------------------------------
def test_jet_fighters_attack_at_4_5_2_3(aa50):
    # 4/6 against 2/6: (2/3*2/3) / (1 - 1/3*2/3) = 4/7 (3/6 gives 1/2).
    plain = position("germany: 1 fighter", "soviet-union: 1 infantry")
    jets = position("germany: 1 fighter", "soviet-union: 1 infantry",
                    research={"germany": frozenset({"jet-fighters"})})
    assert odds(aa50, plain)[0] == pytest.approx(1 / 2)
    assert odds(aa50, jets)[0] == pytest.approx(4 / 7)


def test_super_submarines_attack_at_3_5_2_3(aa50):
    # Surprise strike at 1/2 against a cruiser: (1/2) / (1 - 1/2*1/2) = 2/3.
    pos = position("germany: 1 submarine", "soviet-union: 1 cruiser", space="sz-5",
                   research={"germany": frozenset({"super-submarines"})})
    close(odds(aa50, pos), (F(2, 3), F(1, 3), 0))


def test_heavy_bombers_attack_with_two_dice_and_defend_with_one_5_2_3(aa50):
    # Attacking: 1 - (1/3)^2 = 8/9 against 1/3: (8/9*2/3) / (1 - 1/9*2/3) = 16/25.
    heavy = {"germany": frozenset({"heavy-bombers"}), "soviet-union": frozenset({"heavy-bombers"})}
    assert odds(aa50, position("germany: 1 bomber", "soviet-union: 1 infantry",
                               research=heavy))[0] == pytest.approx(16 / 25)
    # Defending: one die at 1/6 against infantry (1/6): each 5/11, both 1/11.
    close(odds(aa50, position("germany: 1 infantry", "soviet-union: 1 bomber", research=heavy)),
          (F(5, 11), F(5, 11), F(1, 11)))


def test_advanced_artillery_supports_two_infantry_5_2_3(aa50):
    pos = position("germany: 2 infantry, 1 artillery", "soviet-union: 1 infantry",
                   research={"germany": frozenset({"advanced-artillery"})})
    model = aa50.model(pos)
    a = model.attacker
    groups = rounds.general_fire(model, a, a.start[None, :], np.array([False]), False)
    assert sum(int(dice[0]) for _, dice, p in groups if p == pytest.approx(2 / 6)) == 3


def test_unknown_research_is_named_5_2_3(aa50):
    from engine import UnknownName
    with pytest.raises(UnknownName, match="jet-fighters"):
        aa50.model(position("germany: 1 fighter", "soviet-union: 1 infantry",
                            research={"germany": frozenset({"jet-fighter"})}))


# -- order of loss -----------------------------------------------------------------------------
def test_default_order_keeps_the_last_land_unit_when_attacking_5_5_3_6(aa50):
    # Only land units take a territory (§5.5.3.6), so the fighter goes before the last infantry.
    model = aa50.model(position("germany: 2 infantry, 1 fighter", "soviet-union: 1 infantry"))
    a = model.attacker
    after = rounds.take_hits(a, a.start[None, :], {rounds.ANY: np.array([2])})
    assert a.units(after[0]) == {"infantry": 1}
    model = aa50.model(position("germany: 2 infantry, 1 fighter", "soviet-union: 1 infantry",
                                policy=Policy(keep_land_unit=False)))
    after = rounds.take_hits(model.attacker, model.attacker.start[None, :],
                             {rounds.ANY: np.array([2])})
    assert model.attacker.units(after[0]) == {"fighter": 1}


def test_order_of_loss_can_be_chosen_5_5_3_3(aa50):
    def first_loss(order):
        model = aa50.model(position("germany: 1 infantry, 1 armour, 1 artillery",
                                    "soviet-union: 1 infantry", policy=Policy(order=order)))
        a = model.attacker
        after = rounds.take_hits(a, a.start[None, :], {rounds.ANY: np.array([1])})
        return sorted(set(a.units(a.start)) - set(a.units(after[0])))
    assert first_loss("cheapest") == ["infantry"]
    assert first_loss("armour,infantry") == ["armour"]
    assert first_loss("weakest") == ["infantry"]


def test_sea_units_cannot_fight_in_a_territory(aa50):
    with pytest.raises(EngineError, match="territory"):
        aa50.model(position("germany: 1 cruiser", "soviet-union: 1 infantry"))


# -- randomness --------------------------------------------------------------------------------
def test_same_seed_same_battle(aa50):
    pos = position("germany: 3 infantry, 2 armour, 1 fighter", "soviet-union: 4 infantry, 1 aa-gun")
    first = aa50.resolve_battle(pos, np.random.default_rng(7))
    again = aa50.resolve_battle(pos, np.random.default_rng(7))
    assert first == again
    batch = aa50.simulate(pos, 500, np.random.default_rng(11))
    other = aa50.simulate(pos, 500, np.random.default_rng(11))
    assert np.array_equal(batch.result, other.result)
    assert np.array_equal(batch.attacker_loss, other.attacker_loss)
    assert not np.array_equal(batch.result, aa50.simulate(pos, 500, np.random.default_rng(12)).result)


def test_aa_guns_and_factories_never_attack_7_1_4(aa50):
    with pytest.raises(EngineError, match="cannot attack"):
        aa50.model(position("germany: 1 infantry, 1 aa-gun", "soviet-union: 1 infantry"))


BUNDLED = Path(__file__).parent.parent / "scenarios" / "aa50-1941"


@pytest.mark.skipif(not (BUNDLED / "units.yaml").is_file(), reason="bundled AA50 scenario absent")
def test_the_bundled_1941_scenario_fights_by_the_same_rules_5_5_3():
    system = load_system(load_scenario(BUNDLED))
    close(odds(system, position("germany: 1 infantry", "soviet-union: 1 infantry")),
          (F(1, 4), F(5, 8), F(1, 8)))
    jets = position("germany: 1 fighter", "soviet-union: 1 infantry",
                    research={"germany": frozenset({"jet-fighters"})})
    assert odds(system, jets)[0] == pytest.approx(4 / 7)


# -- the three ways of fighting agree ----------------------------------------------------------
@pytest.mark.parametrize("space,attacker,defender", [
    ("karelia-ssr", "germany: 3 infantry, 1 artillery, 1 armour, 1 fighter",
     "soviet-union: 4 infantry, 1 aa-gun"),
    ("sz-5", "germany: 1 submarine, 1 destroyer, 1 fighter", "soviet-union: 1 cruiser, 1 submarine, 1 transport"),
    ("sz-5", "germany: 1 battleship, 1 bomber", "soviet-union: 1 carrier, 1 fighter, 1 submarine"),
])
def test_one_battle_at_a_time_agrees_with_the_exact_odds_5_5_3(aa50, space, attacker, defender):
    """resolve_battle, die by die, against the exact odds (z-test, fixed seed)."""
    pos = position(attacker, defender, space=space)
    expected = odds(aa50, pos)
    rng = np.random.default_rng(31)
    runs = 3000
    results = [aa50.resolve_battle(pos, rng).result for _ in range(runs)]
    for outcome, p in zip((ATTACKER_WINS, DEFENDER_WINS, DRAW), expected, strict=True):
        q = results.count(outcome) / runs
        assert abs(q - p) / max((p * (1 - p) / runs) ** 0.5, 1e-9) < 4, (outcome, p, q)


def test_one_battle_writes_down_its_dice(aa50):
    outcome = aa50.resolve_battle(position("germany: 2 fighter", "soviet-union: 1 infantry, 1 aa-gun"),
                                  np.random.default_rng(3))
    assert outcome.events[0].startswith("anti-aircraft fire at fighter")
    assert any(event.startswith("round 1") for event in outcome.events)
