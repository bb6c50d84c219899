"""War at Sea engine: anti-submarine, air strikes, surface combat, escape (rules §7-§12).

Chances are worked by hand from the dice: a 5 disables, a 6 hits and a damage die follows;
a ship is out of the battle when disabled or sunk (damage above its armour). Ships are the
scenario's: Kent and Pola 1-1-7 cruisers (British, Italian), Admiral Hipper 1-2-7 (German),
Scharnhorst 3-5-7, Hood 4-4-7, New York 4-4-3, Ark Royal (carrier, gunnery 0), Eagle (carrier,
gunnery 1), the convoy (anti-submarine 3), U-boats.
"""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from engine import (
    ATTACKER_WINS,
    DEFENDER_WINS,
    DRAW,
    Contingent,
    EngineError,
    load_system,
)
from engine.calculator import Force, run_battle
from engine.war_at_sea import WaSPosition
from engine.war_at_sea.combat import Battle, Dice, Shot, run
from engine.war_at_sea.ships import Ship
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "war-at-sea"


@pytest.fixture(scope="module")
def was():
    return load_system(load_scenario(SCENARIO))


def ship(was, unit: str, damage: int = 0) -> Ship:
    return Ship(was.types[unit], damage=damage)


def close_to(seen: int, runs: int, p) -> bool:
    p = float(p)
    return abs(seen / runs - p) / math.sqrt(p * (1 - p) / runs) < 4


def battle(was, allies: list[Ship], axis: list[Ship], seed: int, markers=None) -> Battle:
    return Battle(was.combat_rules, {"allies": allies, "axis": axis}, markers or {}, True,
                  np.random.default_rng(seed))


class Scripted(Dice):
    """Dice that show the faces given, in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def roll(self, count):
        taken, self.faces = self.faces[:count], self.faces[count:]
        assert len(taken) == count, "the script ran out of dice"
        return taken

    def one(self):
        return self.roll(1)[0]


def scripted(was, allies, axis, faces, markers=None) -> Battle:
    return Battle(was.combat_rules, {"allies": allies, "axis": axis}, markers or {}, True,
                  Scripted(faces))


def choices(script):
    """A decider answering each kind of decision from a list of answers, in order."""
    answers = {kind: list(values) for kind, values in script.items()}

    def decide(decision):
        wanted = answers[decision.kind].pop(0)
        found = [a for a in decision.options if a[-1] == wanted]
        assert found, (decision.kind, wanted, decision.options)
        return found[0]
    return decide


def test_five_disables_six_hits_and_rolls_damage_7_3_7_4(was):
    """§7.3-§7.4: the example: dice 3, 2, 6, 6 are two hits; damage dice 3 and 4 make 7."""
    fight = scripted(was, [], [], [3, 4])
    shot = Shot(ship(was, "hood"))
    fight.settle(shot, [3, 2, 6, 6])
    assert shot.damage == 7 and not shot.disabled
    disabling = Shot(ship(was, "hood"))
    fight.settle(disabling, [5, 1])
    assert disabling.disabled and disabling.damage == 0


def test_hits_before_disabling_7_5(was):
    """§7.5: sunk and disabled at once is sunk; damaged and disabled goes home with the damage."""
    kent = ship(was, "kent")
    kent.take(2, disabled=True)
    assert kent.sunk
    hood = ship(was, "hood")
    hood.take(2, disabled=True)
    assert hood.disabled and not hood.sunk and hood.damage == 2


def test_damage_takes_speed_gunnery_air_strike_7_6(was):
    """§7.6: each point of damage takes a point of speed (never below 1); damage equal to the
    armour leaves gunnery 1 and no air strike; damage above the armour sinks."""
    hood = ship(was, "hood", damage=3)
    assert hood.speed(1) == 4 and hood.gunnery() == 4
    hood.take(1, disabled=False)
    assert hood.gunnery() == 1 and not hood.sunk and hood.speed(1) == 3
    slow = ship(was, "new-york", damage=4)
    assert slow.speed(1) == 1
    carrier = ship(was, "ark-royal", damage=2)
    assert carrier.air_strike() == 0 and carrier.gunnery() == 0
    hood.take(1, disabled=False)
    assert hood.sunk


def test_fire_is_simultaneous_10_4(was):
    """§7.2, §10.4: the Allies fire first but return fire is simultaneous: Kent against Pola
    (each out with q = 1/6 + 1/6 x 5/6 = 11/36 a round) ends with both out with chance
    q / (2 - q) = 11/61."""
    runs, draws = 4000, 0
    position = WaSPosition("mediterranean", (Contingent("italy", {"pola": 1}),),
                           (Contingent("britain", {"kent": 1}),))
    batch = was.simulate(position, runs, np.random.default_rng(2))
    draws = int((batch.result == DRAW).sum())
    assert close_to(draws, runs, F(11, 61))


def test_german_bonus_on_undamaged_warships_10_5(was):
    """§10.5: undamaged German warships add 1 to their gunnery dice (6 at most): Admiral Hipper
    puts Kent out with 6/36 + 12/36 x 5/6 = 4/9; damaged, with 11/36 like anyone else."""
    runs = 3000
    for damage, expected in ((0, F(4, 9)), (1, F(11, 36))):
        out = 0
        for seed in range(runs):
            kent, hipper = ship(was, "kent"), ship(was, "admiral-hipper", damage)
            fight = battle(was, [kent], [hipper], seed)
            fight.surface_round(["allies", "axis"], {"allies": [kent], "axis": [hipper]})
            out += not kent.in_battle
        assert close_to(out, runs, expected), damage


def test_carriers_targeted_last_10_6(was):
    """§10.6: a carrier that does not fire is a target only once every other enemy warship is;
    a carrier that fires may be targeted at once."""
    fight = battle(was, [], [], 0)
    hood, ark, eagle = ship(was, "hood"), ship(was, "ark-royal"), ship(was, "eagle")
    assert fight.eligible_targets([hood, ark], {}) == [hood]
    assert fight.eligible_targets([hood, ark], {id(hood): 3}) == [hood, ark]
    assert eagle in fight.eligible_targets([hood, eagle], {})


def test_convoys_only_when_all_warships_damaged_10_7(was):
    """§10.7: convoys may be attacked only when every enemy warship is damaged (or gone)."""
    fight = battle(was, [], [], 0)
    convoy = ship(was, "convoy")
    assert convoy not in fight.eligible_targets([ship(was, "hood"), convoy], {})
    assert convoy in fight.eligible_targets([ship(was, "hood", damage=1), convoy], {})
    assert fight.eligible_targets([convoy], {}) == [convoy]


def test_zero_gunnery_does_not_fire_10_6(was):
    """§10.6: a ship of gunnery 0 names no target."""
    fight = battle(was, [], [], 0)
    assert fight.volley([ship(was, "ark-royal")], [ship(was, "hood")]) == ([], [])


def test_anti_submarine_strength_and_results_8_2_8_3(was):
    """§8.2-§8.3: a convoy's anti-submarine value is 3: three dice, a 6 sinks the U-boat
    (1 - (5/6)^3 = 91/216), a 5 without a 6 disables it ((5/6)^3 - (4/6)^3 = 61/216)."""
    runs, sunk, disabled = 4000, 0, 0
    for seed in range(runs):
        boat = ship(was, "uboat")
        fight = battle(was, [ship(was, "convoy")], [boat], seed)
        fight.anti_submarine("allies")
        sunk += boat.sunk
        disabled += boat.disabled
    assert close_to(sunk, runs, F(91, 216)) and close_to(disabled, runs, F(61, 216))
    fight = battle(was, [ship(was, "kent"), ship(was, "ark-royal")], [ship(was, "uboat")], 0)
    fight.anti_submarine("allies")
    assert fight.events[0].startswith("anti-submarine: 4 dice")


def test_surviving_uboats_strike_back_8_4(was):
    """§8.4: U-boats that survive attack one target each with one die; sunk or disabled ones
    do not. One U-boat against Kent (one anti-submarine die) survives with 4/6 and then puts
    Kent out with 11/36."""
    runs, out = 4000, 0
    for seed in range(runs):
        kent = ship(was, "kent")
        fight = battle(was, [kent], [ship(was, "uboat")], seed)
        fight.anti_submarine("allies")
        out += not kent.in_battle
    assert close_to(out, runs, F(4, 6) * F(11, 36))


def test_uboats_deny_allied_control_12_1(was):
    """§12.1: surviving U-boats deny the Allies the area: Kent against one U-boat holds it only
    when its one die removes the U-boat (2/6)."""
    position = WaSPosition("north-atlantic", (Contingent("britain", {"kent": 1}),),
                           (Contingent("germany", {"uboat": 1}),))
    runs = 3000
    batch = was.simulate(position, runs, np.random.default_rng(4))
    assert close_to(int((batch.result == ATTACKER_WINS).sum()), runs, F(1, 3))
    assert not (batch.result == DEFENDER_WINS).any()


def test_air_strike_one_die_per_target_9_3(was):
    """§9.3: the air-strike value is how many targets, one die each; the rest is lost. The
    Allied marker (3) against Scharnhorst alone rolls one die: out with 1/6 + 1/6 x 1/6 = 7/36."""
    runs, out = 4000, 0
    for seed in range(runs):
        target = ship(was, "scharnhorst")
        fight = battle(was, [], [target], seed, markers={"allies": 3})
        fight.air_strikes(["allies", "axis"])
        out += not target.in_battle
    assert close_to(out, runs, F(7, 36))
    fight = battle(was, [], [ship(was, u) for u in ("bismarck", "tirpitz", "scharnhorst", "gneisenau")],
                   0, markers={"allies": 3})
    fight.air_strikes(["allies", "axis"])
    assert "allies air strike on 3 target(s)" in fight.events


def test_air_strike_value_carriers_and_marker_9_2(was):
    """§9.2: a carrier and the marker in one area add their values; a carrier whose damage
    equals its armour has none (§7.6)."""
    fight = battle(was, [ship(was, "ark-royal"), ship(was, "eagle", damage=2)], [], 0,
                   markers={"allies": 3})
    assert fight.air_strike_value("allies") == 3 + 0 + 3


def test_air_marker_only_where_the_map_allows_9_1(was):
    """§9.1: the Allied marker goes only where a white aircraft is printed (not the Barents Sea)."""
    position = WaSPosition("barents-sea", (Contingent("britain", {"allied-air-unit": 1}),),
                           (Contingent("germany", {"tirpitz": 1}),))
    with pytest.raises(EngineError, match="air-strike marker"):
        was.resolve_battle(position, np.random.default_rng(0))


def test_escape_without_fast_enough_pursuers_11_4(was):
    """§11.1, §11.3-§11.4: Scharnhorst (speed 7) escapes Eagle (4) after the first round:
    undamaged, nothing can pursue, the escape succeeds and the British hold the area; slowed by
    damage, its escape speed is its own slower speed and Eagle may pursue."""
    position = WaSPosition("north-atlantic", (Contingent("germany", {"scharnhorst": 1}),),
                           (Contingent("britain", {"eagle": 1}),), escape="axis")
    clean = slowed = 0
    for seed in range(400):
        end = was.resolve_battle(position, np.random.default_rng(seed))
        text = " ".join(end.events)
        if "axis escapes in 1 group(s) at speed 7 0 ship(s) pursue" in text:
            clean += 1
            assert end.result == DEFENDER_WINS and end.rounds == 1
        elif "axis escapes in 1 group(s) at speed" in text:
            slowed += 1
            speed = int(text.split("at speed ")[1].split(" ")[0])
            assert speed < 7
            if "1 ship(s) pursue" in text:      # only as slow as Eagle's 4 can be caught
                assert speed <= 4
    assert clean > 20 and slowed > 0


def test_pursuit_and_giving_up_when_slowed_11_5(was):
    """§11.4-§11.6: Hood (7) may pursue an undamaged Scharnhorst (7); damage that slows Hood
    below the escape speed makes it give up, and the escape succeeds: the British still hold
    the area, the escaping side never does."""
    position = WaSPosition("north-atlantic", (Contingent("germany", {"scharnhorst": 1}),),
                           (Contingent("britain", {"hood": 1}),), escape="axis")
    chased = gave_up = 0
    for seed in range(400):
        end = was.resolve_battle(position, np.random.default_rng(seed))
        text = " ".join(end.events)
        assert end.result != ATTACKER_WINS or "escapes" not in text
        if "1 ship(s) pursue" in text:
            chased += 1
            assert end.rounds >= 2
        if "hood gives up the pursuit" in text:
            gave_up += 1
            assert end.result == DEFENDER_WINS
    assert chased > 10 and gave_up > 0


def test_both_escape_11_8(was):
    """§11.8: when both sides escape, both succeed and neither holds the area."""
    position = WaSPosition("mediterranean", (Contingent("italy", {"pola": 1}),),
                           (Contingent("britain", {"kent": 1}),), escape="both")
    escapes = 0
    for seed in range(100):
        end = was.resolve_battle(position, np.random.default_rng(seed))
        if "both sides escape" in end.events:
            escapes += 1
            assert end.result == DRAW and end.rounds == 1
    assert escapes > 10


def test_same_seed_same_result(was):
    position = WaSPosition("north-sea", (Contingent("germany", {"bismarck": 1, "prinz-eugen": 1}),),
                           (Contingent("britain", {"hood": 1, "kent": 1}),))
    one = was.simulate(position, 200, np.random.default_rng(9))
    two = was.simulate(position, 200, np.random.default_rng(9))
    assert (one.result == two.result).all() and (one.rounds == two.rounds).all()


def test_calculator_simulates():
    """The calculator: War at Sea battles are simulated (no exact method), reproducibly."""
    report = run_battle(SCENARIO, Force("germany", {"bismarck": 1}), Force("britain", {"hood": 1, "kent": 1}),
                        "north-atlantic", runs=500, seed=5)
    again = run_battle(SCENARIO, Force("germany", {"bismarck": 1}), Force("britain", {"hood": 1, "kent": 1}),
                       "north-atlantic", runs=500, seed=5)
    assert report.method == "monte-carlo" and report.attacker_wins == again.attacker_wins
    assert report.attacker_wins + report.defender_wins + report.draws == pytest.approx(1)


# -- escape and pursuit in the player's hands (§11) ----------------------------------------------
def _breakout(was, faces, script):
    """Scharnhorst (7) and Admiral Scheer (5) against Kent (7) and Royal Oak (3): the Axis
    escapes after a round of misses in one group at speed 5; only Kent is fast enough to chase."""
    kent, oak = ship(was, "kent"), ship(was, "royal-oak")
    axis = [ship(was, "scharnhorst"), ship(was, "admiral-scheer")]
    misses = [1] * (4 + 1 + 3 + 2)              # Royal Oak 4, Kent 1, Scharnhorst 3, Scheer 2
    fight = scripted(was, [kent, oak], axis, misses + faces)
    end = run(fight.engagement(["allies", "axis"]), choices(script))
    return fight, end, kent, oak


def test_nobody_holds_the_sea_when_every_pursuer_is_out_11_2(was):
    """§11.2: Kent pursues alone and is disabled (Scharnhorst's die 4 + 1 = 5): the escape
    succeeds and neither side holds the area, although Royal Oak never left it."""
    fight, end, kent, oak = _breakout(
        was, [1, 4, 1, 1, 1, 1],
        {"escape": ["no", "yes"], "group": [1], "pursue": [1]})
    assert kent.disabled and oak.in_battle and not oak.escaped
    assert end.escaped == {"axis"} and end.pursuers == [kent] and end.pursuers_lost
    assert fight.controller(["allies", "axis"], end) is None
    assert "every pursuer is sunk or disabled" in " ".join(fight.events)


def test_a_pursuer_that_gives_up_leaves_its_side_the_sea_11_1_11_5(was):
    """§11.1, §11.5: the same chase, all misses, Kent gives up: the Axis got away, the
    Allies hold the area."""
    fight, end, kent, _ = _breakout(
        was, [1, 1, 1, 1, 1, 1],
        {"escape": ["no", "yes"], "group": [1], "pursue": [1], "press": ["kent"]})
    assert kent.in_battle and not end.pursuers_lost
    assert fight.controller(["allies", "axis"], end) == "allies"
    assert all(s.escaped for s in fight.ships["axis"])


def test_any_ship_fast_enough_may_pursue_even_without_guns_11_4(was):
    """§11.4: the pursuers' speed decides, not their guns: Ark Royal (gunnery 0, speed 7) may
    chase; Royal Oak (3) may not chase a group at speed 5."""
    asked = []

    def decide(decision):
        if decision.kind == "pursue":
            asked.append((decision.ship.name, decision.options))
        return {"escape": ("escape", "yes") if decision.side == "axis" else ("escape", "no")}.get(
            decision.kind, decision.options[0])
    ark, oak, kent = ship(was, "ark-royal"), ship(was, "royal-oak"), ship(was, "kent")
    fight = Battle(was.combat_rules, {"allies": [ark, oak, kent],
                                      "axis": [ship(was, "admiral-scheer")]}, {}, True,
                   Scripted([1] * 7))
    run(fight.engagement(["allies", "axis"]), decide)
    assert [name for name, _ in asked] == ["ark-royal", "kent"]
    assert ("pursue", "ark-royal", 1) in asked[0][1]


def test_escape_in_several_groups_each_at_its_slowest_speed_11_3(was):
    """§11.3: each group's escape speed is its slowest ship's: singly, Scharnhorst, Admiral
    Scheer and Lützow escape at 7, 5 and 5; by speed, in two groups at 7 and 5."""
    axis = Contingent("germany", {"scharnhorst": 1, "admiral-scheer": 1, "lutzow": 1})
    for groups, expected in (("singly", "3 group(s) at speed 7, 5, 5"),
                             ("by-speed", "2 group(s) at speed 7, 5"),
                             ("together", "1 group(s) at speed 5")):
        position = WaSPosition("north-atlantic", (axis,), (Contingent("britain", {"kent": 1}),),
                               escape="axis", escape_groups=groups, pursue=False)
        seen = set()
        for seed in range(40):
            seen |= {e for e in was.resolve_battle(position, np.random.default_rng(seed)).events
                     if "escapes in" in e}
        assert f"axis escapes in {expected}" in seen, seen


def test_the_axis_may_aim_at_convoys_and_the_shot_counts_only_if_every_warship_is_hurt_10_7(was):
    """§10.7 note: Admiral Hipper names a convoy while Kent is undamaged; its hit (5 + 1 = 6,
    3 damage) sinks the convoy only because Scharnhorst's hit damages Kent in the same round."""
    def fight_with(scharnhorst_faces):
        kent, convoy = ship(was, "kent"), Ship(was.types["convoy"], number=1)
        faces = [1] + scharnhorst_faces + [5, 3]     # Kent; Scharnhorst (+ damage); Hipper
        fight = scripted(was, [kent, convoy],
                         [ship(was, "scharnhorst"), ship(was, "admiral-hipper")], faces)
        fight.surface_round(["allies", "axis"], fight.ships, frozenset({"axis"}))
        return kent, convoy, fight
    kent, convoy, fight = fight_with([5, 1, 1, 1])     # 6 after the bonus: a hit of 1
    assert kent.damage == 1 and convoy.sunk
    kent, convoy, fight = fight_with([1, 1, 1])
    assert kent.damage == 0 and not convoy.sunk and convoy.damage == 0
    assert "shots at convoys are lost" in " ".join(fight.events)


def test_aiming_at_convoys_is_asked_only_while_a_warship_is_undamaged_10_7(was):
    asked = []

    def decide(decision):
        asked.append((decision.side, decision.kind))
        return ("escape", "yes") if decision.kind == "escape" else decision.options[0]
    fight = battle(was, [ship(was, "kent"), Ship(was.types["convoy"])], [ship(was, "lutzow")], 1)
    run(fight.engagement(["allies", "axis"]), decide)
    assert asked[0] == ("axis", "aim")
    fight = battle(was, [ship(was, "kent", damage=1), Ship(was.types["convoy"])],
                   [ship(was, "lutzow")], 1)
    run(fight.engagement(["allies", "axis"]), decide)
    assert ("axis", "aim") not in asked[2:]


# -- what a battle may hold (§2.2, §3, §6.4, §9.1, §16) ----------------------------------------------
@pytest.mark.parametrize("attacker, defender, space, message", [
    ("ussr: 1 marat", "germany: 1 scharnhorst", "north-sea",
     "marat may not be in north-sea: ussr ships may only be in baltic-sea, leningrad (rules §16.1)"),
    ("britain: 1 hood", "germany: 1 scharnhorst", "baltic-sea",
     "hood may not be in baltic-sea: baltic-sea is closed to britain ships"),
    ("usa: 1 texas", "germany: 1 lutzow", "south-atlantic",
     "texas may not be in south-atlantic: usa ships may only be in north-atlantic, usa"),
    ("britain: 1 kent", "italy: 1 roma", "north-atlantic", "roma may not be in north-atlantic"),
    ("britain: 1 kent", "italy: 1 pola", "north-sea",
     "pola may not be in north-sea: italy ships of class ca may not enter barents-sea, north-sea"),
    ("britain: 1 kent, 2 allied-air-unit", "germany: 1 lutzow", "north-sea",
     "each side has one land-based air unit"),
    ("britain: 1 kent, 1 axis-air-unit", "germany: 1 lutzow", "north-sea",
     "axis-air-unit is the axis side's air unit, not britain's"),
    ("britain: 2 hood", "germany: 1 lutzow", "north-sea", "there is 1 hood in the game, not 2"),
    ("britain: 1 bismarck", "germany: 1 lutzow", "north-sea", "bismarck is a ship of germany"),
    ("germany: 1 axis-air-unit", "britain: 1 hood", "britain", None),
    ("germany: 1 lutzow", "britain: 1 hood", "britain", "lutzow cannot be in britain: ships never"),
])
def test_positions_the_rules_forbid_are_refused(was, attacker, defender, space, message):
    from engine.calculator import parse_force
    a, d = parse_force(attacker), parse_force(defender)
    position = WaSPosition(space, (Contingent(a.owner, a.units),), (Contingent(d.owner, d.units),))
    if message is None:
        was.resolve_battle(position, np.random.default_rng(0))
        return
    with pytest.raises(EngineError) as raised:
        was.resolve_battle(position, np.random.default_rng(0))
    assert message in str(raised.value)


def test_variant_rules_reach_a_battle_18_1(was):
    """§18.1: with weaker-bismarck-class Bismarck's armour is 7; an unknown name is refused
    with a suggestion."""
    assert was.types_for(was.variant_of("weaker-bismarck-class"))["bismarck"].armour == 7
    assert was.types["bismarck"].armour == 9
    with pytest.raises(EngineError, match="did you mean weaker-bismarck-class"):
        was.variant_of("weaker-bismark-class")


def test_air_strikes_by_setting_and_sheltered_ships_9_5(was):
    """§7.2: a side may make no air strike; §9.5: ships back in port after a failed speed roll
    are no targets: the Axis marker over Britain finds only Kent."""
    position = WaSPosition("britain", (Contingent("germany", {"axis-air-unit": 1}),),
                           (Contingent("britain", {"hood": 1, "kent": 1}),), sheltered={"hood": 1})
    end = was.resolve_battle(position, np.random.default_rng(3))
    assert "axis air strike on 1 target(s)" in end.events
    quiet = WaSPosition("britain", position.attackers, position.defenders, air_strikes="allies")
    assert not any("air strike" in e for e in was.resolve_battle(quiet, np.random.default_rng(3)).events)


def test_losses_are_ships_sunk_and_damage_points(was):
    """A battle's losses are counted in ships sunk, and the damage survivors carry home."""
    from engine.calculator import run_battle
    report = run_battle(SCENARIO, Force("germany", {"bismarck": 1}), Force("britain", {"hood": 1}),
                        "north-atlantic", runs=400, seed=2)
    assert report.loss_unit == "ships sunk" and report.details["damage"]["unit"] == "damage points"
    assert 0 < report.details["damage"]["attacker"] and 0 <= report.expected_defender_loss <= 1


def test_cli_reaches_every_setting_and_refuses_what_the_rules_forbid(capsys):
    from sandtable.cli import main
    assert main(["playtest", "battle", str(SCENARIO), "--attacker", "germany: 1 bismarck",
                 "--defender", "britain: 1 hood", "--at", "north-atlantic", "--option", "list"]) == 0
    listed = capsys.readouterr().out
    for name in ("escape=", "escape-groups=together|by-speed|singly", "pursue=", "air-strikes=",
                 "aim-at-convoys=", "sheltered=", "variant=", "damaged="):
        assert name in listed
    assert main(["playtest", "battle", str(SCENARIO), "--attacker", "germany: 1 bismarck",
                 "--defender", "britain: 1 hood, 1 kent", "--at", "north-atlantic", "--runs", "300",
                 "--seed", "1", "--option", "escape=axis", "--option", "escape-groups=singly",
                 "--option", "variant=weaker-bismarck-class", "--option", "pursue=false"]) == 0
    out = capsys.readouterr().out
    assert "ships sunk       attacker" in out and "damage points    attacker" in out
    assert "attacker holds the area" in out and "IPC" not in out
    assert main(["playtest", "battle", str(SCENARIO), "--attacker", "ussr: 1 marat",
                 "--defender", "germany: 1 lutzow", "--at", "north-sea"]) == 2
    assert "ussr ships may only be in baltic-sea, leningrad" in capsys.readouterr().err
    assert main(["playtest", "battle", str(SCENARIO), "--attacker", "germany: 1 lutzow",
                 "--defender", "britain: 1 kent", "--at", "north-sea",
                 "--option", "escape-group=singly"]) == 2
    assert "did you mean escape-groups" in capsys.readouterr().err
