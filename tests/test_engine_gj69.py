"""GJ69 engine: attacks by damage points against durability (rulebook §8-§11, §16).

Exact chances are worked by hand from the dice: one die per attacking unit, a hit at or under
its value (§11.1). Unit values are the scenario's (units.yaml): Japanese infantry 3-2-2,
Kawaguchi Detachment 3-1-2, destroyer squadrons 2-1-4, Japanese air groups air power 4,
Ryujo (CVL) air power 3, US infantry 2-2-2, MacArthur 1-1-2, fortresses 3-3-0.
"""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from engine import ATTACKER_WINS, DRAW, Contingent, EngineError, load_system
from engine.calculator import Force, run_battle
from engine.gj69 import GJ69Position
from engine.gj69.attack import DEAD, IN, OUT, hit_distribution
from engine.gj69.damage import ELIMINATED, READY, RETREATS, TURNED, USED, Piece, allocate, ladder, result_of
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "gj69-southern-operation"


@pytest.fixture(scope="module")
def gj69():
    return load_system(load_scenario(SCENARIO))


def attack(gj69_system, attackers: dict, defenders: dict, space: str, defender_owner="united-states",
           attacker_owner="japan", **extra) -> dict:
    """Exact chance of each (attacker state, defender state), as {(a, d): Fraction}."""
    position = GJ69Position(space, (Contingent(attacker_owner, attackers),),
                            (Contingent(defender_owner, defenders),), **extra)
    return gj69_system.distribution(position)


def chance(found: dict, test) -> F:
    return sum((p for (a, d), p in found.items() if test(dict(a), dict(d))), F(0))


def test_one_die_per_unit_hits_at_or_under_attack_11_1():
    """§11.1: each attacking unit rolls one die; at or under its attack is a hit."""
    assert hit_distribution([3, 3]) == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    assert hit_distribution([2]) == {0: F(2, 3), 1: F(1, 3)}


def test_ship_eliminated_by_durability_points_11_33(gj69):
    """§11.33: a ship is eliminated by damage equal to its durability: one destroyer squadron
    (attack 2) sinks another with chance 2/6."""
    found = attack(gj69, {"ijn-destroyers": 1}, {"us-destroyers": 1}, "celebes-sea")
    assert chance(found, lambda a, d: d.get(("us-destroyers", USED, DEAD))) == F(1, 3)
    # the area is cleared (the attacker wins) exactly then; otherwise both stay (a draw)
    ends = gj69.exact(GJ69Position("celebes-sea", (Contingent("japan", {"ijn-destroyers": 1}),),
                                   (Contingent("united-states", {"us-destroyers": 1}),)))
    assert ends.probability[ends.result == ATTACKER_WINS].sum() == pytest.approx(1 / 3)
    assert ends.probability[ends.result == DRAW].sum() == pytest.approx(2 / 3)


def test_land_unit_results_by_face_11_31():
    """§11.31(1): ready: durability x1 turns, x2 turns and retreats, x3 eliminates; used: x1
    retreats, x2 eliminates; §11.31(2): in a sea area 1 point eliminates."""
    class Unit:
        id, domain, durability, movement, air_power, worth = "x", "land", 2, 2, None, 1.0
        is_carrier = False
    ready = ladder(Piece(Unit, READY, True), land_area=True)
    used = ladder(Piece(Unit, USED, True), land_area=True)
    assert ready == [(2, TURNED), (4, RETREATS), (6, ELIMINATED)]
    assert used == [(2, RETREATS), (4, ELIMINATED)]
    assert [result_of(ready, p) for p in range(7)] == [None, None, TURNED, TURNED, RETREATS,
                                                        RETREATS, ELIMINATED]
    assert ladder(Piece(Unit, READY, True), land_area=False) == [(1, ELIMINATED)]


def test_air_unit_results_11_32():
    """§11.32: a ready air unit is turned by 1 point and eliminated by 2; a used one by 1."""
    class Air:
        id, domain, durability, movement, air_power, worth = "af", "air", 1, 4, 4, 0.5
        is_carrier = False
    assert ladder(Piece(Air, READY, True), True) == [(1, TURNED), (2, ELIMINATED)]
    assert ladder(Piece(Air, USED, True), True) == [(1, ELIMINATED)]


def test_durability_points_below_a_step_are_lost_11_4(gj69):
    """§11.4 example: two durability-2 units spread 2 points so that nothing happens; 3 points
    must turn one of them; the attacker in an air attack puts 2 points on one unit."""
    infantry = gj69.profiles["us-infantry"]
    pair = [Piece(infantry, READY, True), Piece(infantry, READY, True)]
    assert allocate(pair, 2, land_area=True, owner_allocates=True) in ([1, 1],)
    given = allocate(pair, 3, land_area=True, owner_allocates=True)
    assert sorted(result_of(ladder(p, True), g) or "-" for p, g in zip(pair, given, strict=True)) == ["-", TURNED]
    assert sorted(allocate(pair, 2, land_area=True, owner_allocates=False)) == [0, 2]


def test_surplus_points_are_lost_11_2_3(gj69):
    """§11.2(3): points beyond what eliminates every target are lost."""
    destroyer = gj69.profiles["us-destroyers"]
    assert allocate([Piece(destroyer, READY, True)], 5, land_area=False, owner_allocates=True) == [1]


def test_turn_retreat_eliminate_through_an_attack_11_31(gj69):
    """§11.31(1): six Japanese infantry (attack 3) against a ready US infantry in Luzon, which can
    retreat to Manila: 2-3 hits turn it, 4-5 turn and retreat it, 6 eliminate it."""
    found = attack(gj69, {"ija-14a-infantry": 6}, {"us-infantry": 1}, "luzon")
    h = hit_distribution([3] * 6)
    assert chance(found, lambda a, d: ("us-infantry", USED, IN) in d) == h[2] + h[3]
    assert chance(found, lambda a, d: ("us-infantry", USED, OUT) in d) == h[4] + h[5]
    assert chance(found, lambda a, d: ("us-infantry", USED, DEAD) in d) == h[6] == F(1, 64)


def test_no_retreat_area_means_elimination_11_5(gj69):
    """§11.5(1): with no area to retreat to, a unit that would retreat is eliminated instead."""
    found = attack(gj69, {"ija-14a-infantry": 6}, {"us-infantry": 1}, "luzon",
                   defender_can_retreat=False)
    h = hit_distribution([3] * 6)
    assert chance(found, lambda a, d: ("us-infantry", USED, DEAD) in d) == h[4] + h[5] + h[6]


def test_retreat_areas_from_the_map_11_5(gj69):
    """§11.5(1), §7.3(2)②: retreats go to own land areas without enemy units, never to sea
    areas and never across a mountain border (Rangoon-India is one)."""
    assert gj69.retreat_areas("luzon", "allies") == ["manila"]
    assert "india" not in gj69.retreat_areas("rangoon", "allies")
    assert all(gj69.is_land(a) for a in gj69.retreat_areas("malay", "allies"))


def test_units_without_movement_cannot_retreat_11_5_3(gj69):
    """§11.5(3): a fortress (movement 0) is eliminated where others retreat: used, 3 points."""
    fortress = gj69.profiles["us-fortress"]
    assert ladder(Piece(fortress, USED, True), True) == [(3, ELIMINATED)]


def test_air_attack_damage_allocated_by_attacker_11_2_1(gj69):
    """§11.2(1), §9.1(4): an air attack rolls against air power and the attacker allocates: two
    air groups (air power 4) with 2 hits on two ready US infantry turn one of them."""
    found = attack(gj69, {"ijn-af-taiwan": 2}, {"us-infantry": 2}, "luzon", air_attack=True)
    assert chance(found, lambda a, d: d.get(("us-infantry", USED, IN)) == 1) == F(4, 9)
    normal = attack(gj69, {"ija-14a-infantry": 2}, {"us-infantry": 2}, "luzon")
    assert chance(normal, lambda a, d: ("us-infantry", USED, IN) in d) == 0


def test_carrier_save_roll_11_6(gj69):
    """§11.6: a carrier given air-attack damage rolls a die; at or under its air power one point
    is cancelled. One air group (4) against Ryujo (CVL, air power 3, durability 1): sunk with
    chance 4/6 x 3/6 = 1/3; in a normal attack there is no save."""
    found = attack(gj69, {"us-af": 1}, {"ijn-ryujo": 1}, "pacific-ocean",
                   attacker_owner="united-states", defender_owner="japan", air_attack=True)
    assert chance(found, lambda a, d: ("ijn-ryujo", USED, DEAD) in d) == F(2, 6) * F(3, 6)
    normal = attack(gj69, {"us-destroyers": 1}, {"ijn-ryujo": 1}, "pacific-ocean",
                    attacker_owner="united-states", defender_owner="japan")
    assert chance(normal, lambda a, d: ("ijn-ryujo", USED, DEAD) in d) == F(1, 3)


def test_fortress_area_shields_land_units_from_air_attack_16_1_2(gj69):
    """§16.1(2): air-attack damage goes to land units in an enemy fortress area only when own
    land units are there too."""
    shielded = attack(gj69, {"ijn-af-taiwan": 4}, {"us-infantry": 1}, "manila", air_attack=True)
    assert chance(shielded, lambda a, d: ("us-infantry", READY, IN) in d) == 1
    open_ = attack(gj69, {"ijn-af-taiwan": 4}, {"us-infantry": 1}, "manila", air_attack=True,
                   own_land_units_in_area=True)
    assert chance(open_, lambda a, d: ("us-infantry", READY, IN) in d) < 1


def test_macarthur_takes_no_air_damage_16_2_2(gj69):
    """§16.2(2): MacArthur cannot be given Japanese air-attack damage (here in Luzon, no fortress)."""
    found = attack(gj69, {"ijn-af-taiwan": 4}, {"macarthur": 1}, "luzon", air_attack=True)
    assert chance(found, lambda a, d: ("macarthur", READY, IN) in d) == 1


def test_losses_are_worth_vp_only_for_japanese_units_and_macarthur_15_0_16_2_3(gj69):
    """§15.0(1)②: the Allies score 1 VP for a lost Japanese unit of durability 2 and 0.5 VP for
    durability 1, and nothing is scored for other Allied losses; §16.2(3): eliminating
    MacArthur (durability 1) gives Japan exactly 1 VP."""
    assert gj69.unit_cost("macarthur") == 1.0
    assert gj69.unit_cost("ija-14a-infantry") == 1.0
    assert gj69.unit_cost("ija-kawaguchi") == 0.5
    assert gj69.unit_cost("us-infantry") == 0.0          # durability 2, Allied
    assert gj69.unit_cost("ned-infantry") == 0.0         # durability 1, Allied
    assert gj69.loss_unit == "VP"


def test_counterattack_first_on_used_face_10(gj69):
    """§10(4)-(5): an Ambush (a07) strikes the attacking group first, which takes the damage on
    its used face: MacArthur (1) puts Kawaguchi (durability 1) out with 1/6 before it rolls;
    §10(1): MacArthur stays ready, so Kawaguchi's hit (1/2) only turns him: 5/6 x 1/2."""
    found = attack(gj69, {"ija-kawaguchi": 1}, {"macarthur": 1}, "luzon", counter_card="a07")
    assert chance(found, lambda a, d: ("ija-kawaguchi", USED, OUT) in a) == F(1, 6)
    assert chance(found, lambda a, d: ("macarthur", USED, IN) in d) == F(5, 12)
    plain = attack(gj69, {"ija-kawaguchi": 1}, {"macarthur": 1}, "luzon")
    assert chance(plain, lambda a, d: ("macarthur", USED, IN) in d) == F(1, 2)


def test_force_z_counterattacks_twice_with_ships_10(gj69):
    """§19 Force Z ②: all ships of the area counter-attack twice: a British destroyer squadron
    (2) sinks an attacking Japanese squadron with 1 - (4/6)^2 = 5/9 before it fires."""
    found = attack(gj69, {"ijn-destroyers": 1}, {"uk-destroyers": 1}, "coast-of-malay",
                   defender_owner="united-kingdom", counter_card="a16")
    assert chance(found, lambda a, d: ("ijn-destroyers", USED, DEAD) in a) == F(5, 9)
    assert chance(found, lambda a, d: ("uk-destroyers", USED, DEAD) in d) == F(4, 9) * F(1, 3)


def test_oxygen_torpedoes_attack_4_and_no_counterattack_19(gj69):
    """§19 Oxygen Torpedoes: ships attack with 4 and the group cannot be counter-attacked."""
    found = attack(gj69, {"ijn-destroyers": 1}, {"uk-destroyers": 1}, "coast-of-malay",
                   defender_owner="united-kingdom", card="j13", counter_card="a16")
    assert chance(found, lambda a, d: ("uk-destroyers", USED, DEAD) in d) == F(2, 3)
    assert chance(found, lambda a, d: ("ijn-destroyers", USED, DEAD) in a) == 0


def test_attacks_only_where_the_unit_may_attack_8_0_2(gj69):
    """§8.0(2): ships attack in sea areas only, land units in land areas only."""
    with pytest.raises(EngineError, match="cannot attack"):
        attack(gj69, {"ijn-destroyers": 1}, {"us-infantry": 1}, "luzon")
    with pytest.raises(EngineError, match="cannot attack"):
        attack(gj69, {"ija-14a-infantry": 1}, {"us-destroyers": 1}, "celebes-sea")


def test_air_units_in_a_normal_attack_use_air_power_8_0_4(gj69):
    """§8.0(4): air units in the area take part in a normal attack with their air power: one
    Japanese air group (air power 4, attack 0) turns a ready US air group with 4/6."""
    found = attack(gj69, {"ijn-af-taiwan": 1}, {"us-af": 1}, "luzon", control="japan")
    assert chance(found, lambda a, d: ("us-af", USED, IN) in d) == F(2, 3)


def test_air_units_attack_only_in_own_land_area_8_0_2(gj69):
    """§8.0(2)②: air units make normal attacks only in a land area their side controls (Luzon
    is Allied at the start)."""
    with pytest.raises(EngineError, match="controls"):
        attack(gj69, {"ijn-af-taiwan": 1}, {"us-af": 1}, "luzon")


def test_monte_carlo_agrees_with_exact(gj69):
    """The sampled attack agrees with the exact distribution (z-test, fixed seed)."""
    position = GJ69Position("luzon", (Contingent("japan", {"ija-14a-infantry": 5, "ija-14a-armour": 2}),),
                            (Contingent("united-states", {"us-infantry": 2, "us-af": 1}),),
                            counter_card="a07")
    exact = gj69.exact(position)
    runs = 4000
    batch = gj69.simulate(position, runs, np.random.default_rng(7))
    for column in ("result", "defender_survivors"):
        values = getattr(exact, column if column == "result" else "defender_survivors")
        for value in np.unique(values):
            p = float(exact.probability[values == value].sum())
            if 0.02 < p < 0.98:
                seen = float((getattr(batch, column) == value).mean())
                assert abs(seen - p) / math.sqrt(p * (1 - p) / runs) < 4, (column, value)


def test_same_seed_same_result(gj69):
    position = GJ69Position("luzon", (Contingent("japan", {"ija-14a-infantry": 4}),),
                            (Contingent("united-states", {"us-infantry": 2}),))
    one = gj69.simulate(position, 300, np.random.default_rng(3))
    two = gj69.simulate(position, 300, np.random.default_rng(3))
    assert (one.defender_survivors == two.defender_survivors).all()


def test_calculator_gives_exact_answer():
    """The calculator: a GJ69 attack is small enough to answer exactly."""
    report = run_battle(SCENARIO, Force("japan", {"ijn-destroyers": 2}),
                        Force("united-states", {"us-destroyers": 1}), "celebes-sea")
    assert report.method == "exact"
    # two dice at 2: the squadron is sunk unless both miss
    assert report.attacker_wins == pytest.approx(1 - (4 / 6) ** 2)
    assert report.draws == pytest.approx((4 / 6) ** 2)


def test_surplus_points_sink_a_lone_carrier_past_its_save_11_6(gj69):
    """§11.6, §11.2(1): in an air attack the attacker allocates, and may give a carrier more
    points than its durability, so that its save cannot keep it afloat. Two US air groups (air
    power 2) against Ryujo (durability 1, air power 3): one hit sinks it unless it saves (3/6),
    two hits sink it whatever the save: 4/9 x 1/2 + 1/9 = 1/3."""
    found = attack(gj69, {"us-af": 2}, {"ijn-ryujo": 1}, "pacific-ocean",
                   attacker_owner="united-states", defender_owner="japan", air_attack=True)
    assert chance(found, lambda a, d: ("ijn-ryujo", USED, DEAD) in d) == F(4, 9) * F(1, 2) + F(1, 9)
    # the owner never puts surplus points on its own units (§11.2(2)): a normal attack
    assert allocate([Piece(gj69.profiles["ijn-ryujo"], READY, False)], 2, False, True) == [1]


def test_fortress_shield_protects_only_an_enemy_fortress_16_1_2(gj69):
    """§16.1(2): land units in an *enemy* fortress area take no air-attack damage unless the
    attacker has land units there; in a fortress the attacker holds, they do."""
    held_by_japan = attack(gj69, {"ijn-af-taiwan": 4}, {"us-infantry": 1}, "manila",
                           air_attack=True, control="japan")
    assert chance(held_by_japan, lambda a, d: ("us-infantry", READY, IN) in d) < 1
    held_by_allies = attack(gj69, {"us-af": 4}, {"ija-14a-infantry": 1}, "manila", air_attack=True,
                            attacker_owner="united-states", defender_owner="japan", control="japan")
    assert chance(held_by_allies, lambda a, d: ("ija-14a-infantry", READY, IN) in d) == 1


def test_positions_the_rules_forbid_are_refused_2_2_1_16_3(gj69):
    """§2.2.1(3): no Japanese unit in India, Kunming or the Indian Ocean, no Allied unit in
    Japan Homeland (air attacks may strike units there); §16.3: Nationalist units only in
    Kunming, Lashio and Mandalay."""
    with pytest.raises(EngineError, match=r"india, an area closed to japan's units \(§2\.2\.1\(3\)\)"):
        attack(gj69, {"ija-14a-infantry": 2}, {"uk-infantry": 1}, "india",
               defender_owner="united-kingdom")
    with pytest.raises(EngineError, match="closed to allies"):
        attack(gj69, {"us-infantry": 2}, {"ija-reserve-infantry": 1}, "japan-homeland",
               attacker_owner="united-states", defender_owner="japan")
    with pytest.raises(EngineError, match=r"china's units may only be in kunming, lashio, mandalay"):
        attack(gj69, {"ija-15a-infantry": 2}, {"china-infantry": 1}, "rangoon", defender_owner="china")
    found = attack(gj69, {"ijn-af-taiwan": 2}, {"china-infantry": 1}, "kunming", defender_owner="china",
                   air_attack=True)
    assert chance(found, lambda a, d: True) == 1


def test_a_side_plays_only_its_own_cards_and_force_z_takes_ships_19(gj69):
    with pytest.raises(EngineError, match="in the allies deck"):
        attack(gj69, {"ija-14a-infantry": 2}, {"us-infantry": 1}, "luzon", card="a01")
    with pytest.raises(EngineError, match="not a reaction card"):
        attack(gj69, {"ija-14a-infantry": 2}, {"us-infantry": 1}, "luzon", counter_card="a01")
    with pytest.raises(EngineError, match="attacks with sea units only"):
        attack(gj69, {"us-infantry": 2}, {"ija-14a-infantry": 1}, "luzon", card="a16",
               attacker_owner="united-states", defender_owner="japan", control="allies")


def test_playtest_battle_reaches_every_setting_and_counts_vp(tmp_path):
    """The battle command lists each GJ69 setting with its help, takes them by name, and
    reports losses in VP (§15.0(1)②); a forbidden position is a usage error (exit 2)."""
    import subprocess
    import sys
    root = Path(__file__).parent.parent

    def run(*args):
        return subprocess.run([sys.executable, "-m", "sandtable", "playtest", "battle", str(SCENARIO),
                               *args], capture_output=True, text=True, cwd=root)

    listed = run("--attacker", "japan: 1 ija-14a-infantry", "--defender", "united-states: 1 us-infantry",
                 "--at", "luzon", "--option", "list")
    assert listed.returncode == 0
    names = [line.split("=")[0] for line in listed.stdout.splitlines()]
    assert names == ["air-attack", "defender-used", "card", "counter-card", "attacks", "combined",
                     "defender-can-retreat", "attacker-can-retreat", "own-land-units-in-area", "control"]
    assert all(": " in line for line in listed.stdout.splitlines())          # each has its help
    assert "control=japan|allies" in listed.stdout
    done = run("--attacker", "japan: 6 ija-14a-infantry", "--defender", "united-states: 1 us-infantry",
               "--at", "luzon", "--option", "counter-card=a07", "--option", "attacks=2",
               "--option", "combined=true")
    assert done.returncode == 0, done.stderr
    assert " VP" in done.stdout and "IPC" not in done.stdout
    wrong = run("--attacker", "japan: 2 ija-14a-infantry", "--defender", "united-kingdom: 1 uk-infantry",
                "--at", "india")
    assert wrong.returncode == 2 and "closed to japan" in wrong.stderr and "Traceback" not in wrong.stderr
    typo = run("--attacker", "japan: 2 ija-14a-infantry", "--defender", "united-states: 1 us-infantry",
               "--at", "luzon", "--option", "combine=true")
    assert typo.returncode == 2 and "did you mean combined" in typo.stderr


def test_battle_report_says_where_each_unit_ends_11_3(gj69, capsys):
    """Two Japanese tank units (attack 4: a hit on 1-4, §11.1) attack one ready US infantry
    (durability 2) in Luzon: two hits (4/9) turn it to its used face, one hit or none does
    nothing (§11.4). The report gives those expected numbers, not a 'draw'."""
    from sandtable.cli import main
    details = gj69.battle_details(GJ69Position(
        "luzon", (Contingent("japan", {"ija-14a-armour": 2}),),
        (Contingent("united-states", {"us-infantry": 1}),)))
    assert details["fates"]["defender"]["us-infantry"] == pytest.approx(
        {READY: 5 / 9, USED: 4 / 9, "retreated": 0.0, "eliminated": 0.0})
    assert details["fates"]["attacker"]["ija-14a-armour"][READY] == 2.0
    code = main(["playtest", "battle", str(SCENARIO), "--attacker", "japan: 2 ija-14a-armour",
                 "--defender", "united-states: 1 us-infantry", "--at", "luzon"])
    out = capsys.readouterr().out
    assert code == 0
    assert "area cleared of defenders     0.00%" in out
    assert [line.split() for line in out.splitlines() if line.startswith("  def ")] == [
        ["def", "us-infantry", "0.56", "0.44", "0.00", "0.00"]]
