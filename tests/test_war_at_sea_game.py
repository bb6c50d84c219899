"""War at Sea, the whole game (engine/war_at_sea/game.py): each rule of the turn, with the
dice fixed where the rule is about a roll. Sections are those of the rules text
(shared/seeds/002_49fff522289f8e4e.txt)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.game import IllegalAction
from engine.war_at_sea.combat import Dice
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "war-at-sea"
END = ("end",)


@pytest.fixture(scope="module")
def was():
    return load_system(load_scenario(SCENARIO))


class Scripted(Dice):
    """Dice showing the faces given, then `then` for ever."""

    def __init__(self, faces, then=1):
        self.faces, self.then = list(faces), then

    def roll(self, count):
        taken, self.faces = self.faces[:count], self.faces[count:]
        return taken + [self.then] * (count - len(taken))

    def one(self):
        return self.roll(1)[0]


def passive(game):
    """What a side does that does nothing: end the step, or take the first choice."""
    actions = game.legal_actions()
    if END in actions:
        return END
    for quiet in (("escape", "no"), ("aim", "warships"), ("press", "on")):
        if quiet in actions:
            return quiet
    return actions[0]


def play_until(game, round_, step, side=None, choose=passive):
    while not (game.round == round_ and game.step == step
               and (side is None or game.current_player == side)):
        assert not game.is_terminal(), f"the game ended before round {round_} {step}"
        game.apply(choose(game))


def new(was, seed=0, **options):
    return was.new_game(options, np.random.default_rng(seed))


def moves_now(game):
    return {name: dict(dests) for name, dests in game.request.moves.items()}


# -- §4 setting up, §5.1 reinforcements --------------------------------------------------------
def test_the_game_starts_from_the_setup_and_british_ships_may_start_in_malta_4(was):
    game = new(was)
    assert (game.round, game.phase, game.current_player) == (1, "setup", "allies")
    assert game.vessels["hood"].at == "britain" and game.vessels["scharnhorst"].at == "germany-norway"
    assert game.uboats_home == 3 and game.track == 0 and "bismarck" not in game.vessels
    assert ("base", "hood", "malta") in game.legal_actions()
    assert not game.is_legal(("base", "texas", "malta")) and not game.is_legal(("base", "hood", "italy"))
    game.apply(("base", "warspite", "malta"))
    game.apply(END)
    assert game.vessels["warspite"].at == "malta" and game.phase == "movement"


def test_reinforcements_arrive_in_their_turn_4_2_5_1(was):
    game = new(was)
    play_until(game, 2, "movement", "allies")
    assert game.vessels["bismarck"].at == "germany-norway"
    assert game.vessels["king-george-v"].at == "britain"
    assert game.uboats_home == 4 and "tirpitz" not in game.vessels


def test_uboats_beyond_seven_are_lost_8_6_unless_banked_18_3(was):
    game = new(was)
    game.uboats_home = 7
    play_until(game, 2, "movement", "allies")
    assert game.uboats_home == 7 and game.uboats_banked == 0
    banked = new(was, banked_uboats=True)
    banked.uboats_home = 7
    play_until(banked, 2, "movement", "allies")
    assert banked.uboats_home == 7 and banked.uboats_banked == 1
    banked.uboats_home = 5                        # two were sunk: the waiting one comes in,
    play_until(banked, 3, "movement", "allies")  # then turn 3's
    assert banked.uboats_home == 7 and banked.uboats_banked == 0


# -- §6 movement ---------------------------------------------------------------------------------
def test_ships_move_one_or_two_sea_areas_6_1(was):
    """From Britain: the four adjacent areas without a roll, the Mediterranean (two areas, past
    the South Atlantic) with one; never the Baltic (§6.4) nor a port."""
    game = new(was)
    game.apply(END)
    assert moves_now(game)["hood"] == {"barents-sea": False, "north-sea": False,
                                       "north-atlantic": False, "south-atlantic": False,
                                       "mediterranean": True}
    play_until(game, 1, "movement", "axis")
    assert moves_now(game)["scharnhorst"] == {"barents-sea": False, "north-sea": False,
                                              "baltic-sea": False, "north-atlantic": True}


def test_an_enemy_sea_control_marker_stops_a_move_6_1(was):
    game = new(was)
    game.markers = {"south-atlantic": "axis"}
    game.apply(END)
    assert "mediterranean" not in moves_now(game)["hood"]
    assert "south-atlantic" in moves_now(game)["hood"]


def test_nationality_limits_in_movement_6_4_16(was):
    """Italian battleships stay in the Mediterranean, the cruisers may sail out but not into
    the North Sea or the Barents Sea (§16.3); Soviet and American ships wait for their entry
    (§16.1-§16.2)."""
    game = new(was)
    play_until(game, 1, "movement", "axis")
    moves = moves_now(game)
    assert moves["littorio"] == {"mediterranean": False}
    assert moves["pola"] == {"mediterranean": False, "south-atlantic": True}
    game2 = new(was)
    game2.apply(END)
    assert not {"marat", "texas", "kirov"} & set(game2.request.moves)
    with pytest.raises(IllegalAction):
        game2.apply(("move", "hood", "baltic-sea"))
    for wrong in (("move", "hood", "north-sea", "x"), ("move", "hood"), ["move", "hood"],
                  ("move", ["hood"], "north-sea"), (["move"], "hood", "north-sea"), ()):
        assert not game2.is_legal(wrong)
    assert game2.is_legal(("move", "hood", "north-sea"))


@pytest.mark.parametrize("die, stays", [(6, True), (7, False)])
def test_the_speed_roll_6_2(was, die, stays):
    """§6.2: Royal Oak (speed 3) moving two areas stays only on a die below 3; otherwise it goes
    back to Britain or into Malta, next to the second area, and may not repair (§15.1) nor be
    struck from the air (§9.5)."""
    game = new(was)
    game.apply(END)
    game.vessels["royal-oak"].damage = 1           # speed 2 now: stays only on a 1
    game.dice = Scripted([die - 5])                # 1 or 2
    game.apply(("move", "royal-oak", "mediterranean"))
    game.apply(END)
    oak = game.vessels["royal-oak"]
    if stays:
        assert oak.at == "mediterranean" and game.current_player == "axis"
        return
    assert game.step == "withdraw" and game.current_player == "allies"
    assert game.legal_actions() == [("withdraw", "royal-oak", "britain"),
                                    ("withdraw", "royal-oak", "malta")]
    game.apply(("withdraw", "royal-oak", "malta"))
    assert oak.at == "malta" and oak.sheltered and oak.damage == 1


def test_ships_that_stay_in_port_are_repaired_15_1_15_2(was):
    """§15.2: a port repairs its value in damage points a turn, shared: Malta's 2 go to Queen
    Elizabeth (before Valiant, by name at equal guns); Britain's 9 mend Hood, which stayed,
    but not Renown, which sailed."""
    game = new(was)
    for name in ("queen-elizabeth", "valiant"):
        game.apply(("base", name, "malta"))
    game.apply(END)
    damage = {"queen-elizabeth": 2, "valiant": 1, "hood": 3, "renown": 2}
    for name, points in damage.items():
        game.vessels[name].damage = points
    game.apply(("move", "renown", "north-sea"))
    game.apply(END)
    assert {n: game.vessels[n].damage for n in damage} == {
        "queen-elizabeth": 0, "valiant": 1, "hood": 0, "renown": 2}


def test_a_ship_left_in_a_neutral_port_costs_a_point_15_6(was):
    game = new(was)
    game.vessels["kent"].at = "south-america"
    game.vessels["kent"].neutral_since = 1
    play_until(game, 2, "movement", "allies")
    game.apply(END)
    assert game.lost["allies"] == 1
    play_until(game, 3, "movement", "allies")
    assert game.points["allies"] == -1 and game.track == 1


def test_internment_removes_the_ship_and_costs_nothing_18_6(was):
    game = new(was, internment=True)
    game.vessels["kent"].at = "south-america"
    game.vessels["kent"].neutral_since = 1
    play_until(game, 2, "movement", "allies")
    game.apply(END)
    assert "kent" not in game.vessels and game.lost["allies"] == 0


# -- §8 U-boats, §9 air strikes, §7.1 the order of battles -------------------------------------------
def test_uboats_deploy_anywhere_and_deny_allied_control_8_1_12_1(was):
    """§8.3-§8.5: Hood's one anti-submarine die misses, the U-boat survives (its strike
    misses too) and the Allies do not hold the North Sea; the U-boats go home."""
    game = new(was)
    game.apply(END)
    game.apply(("move", "hood", "north-sea"))
    play_until(game, 1, "submarines")
    assert game.legal_actions() == [("deploy", a) for a in game.board.sea_areas] + [END]
    game.dice = Scripted([1, 1])
    game.apply(("deploy", "north-sea"))
    game.apply(END)
    play_until(game, 2, "movement", "allies")
    assert game.control == {} and game.points == {"allies": 0, "axis": 0}
    assert game.uboats_home == 4 and not game.uboats_at["north-sea"]      # home, and turn 2's


def test_a_lone_ship_holds_its_area_and_scores_12_17(was):
    game = new(was)
    game.apply(END)
    game.apply(("move", "hood", "north-sea"))
    play_until(game, 2, "movement", "allies")
    assert game.control == {"north-sea": "allies"} and game.points == {"allies": 1, "axis": 0}
    assert game.track == -1 and game.markers == {"north-sea": "allies"}


def test_air_markers_only_where_the_side_has_aircraft_9_1(was):
    game = new(was)
    play_until(game, 1, "air", "allies")
    assert {a[1] for a in game.legal_actions() if a != END} == {
        "north-sea", "mediterranean", "germany-norway", "france", "italy"}
    game.apply(END)
    assert {a[1] for a in game.legal_actions() if a != END} == {
        "barents-sea", "north-sea", "mediterranean", "britain", "malta"}


def test_the_axis_chooses_the_order_of_battles_7_1(was):
    game = new(was)
    game.apply(END)
    game.apply(("move", "hood", "north-sea"))
    game.apply(("move", "renown", "barents-sea"))
    game.apply(END)
    game.apply(("move", "scharnhorst", "north-sea"))
    game.apply(("move", "gneisenau", "barents-sea"))
    play_until(game, 1, "battle-order")
    assert game.current_player == "axis"
    assert sorted(game.legal_actions()) == [("battle", "barents-sea"), ("battle", "north-sea")]


def test_the_allied_marker_strikes_ships_in_an_axis_port_9_3(was):
    """§9.1-§9.3: the Allied marker over Germany rolls one die at each of three ships there."""
    game = new(was)
    play_until(game, 1, "air", "allies")
    game.dice = Scripted([6, 1, 6, 1, 6, 1])     # each target: a 6, then 1 damage
    game.apply(("air", "germany-norway"))
    game.apply(END)
    hurt = sorted(v.name for v in game.vessels.values() if v.damage)
    assert hurt == ["admiral-graf-spee", "gneisenau", "scharnhorst"]


# -- §13 convoys ---------------------------------------------------------------------------------------
def _convoy_to_north_atlantic(was, **options):
    game = new(was, **options)
    play_until(game, 3, "movement", "allies")
    assert game.request.moves["convoy#1"] == {"north-atlantic": False}
    game.apply(("move", "convoy#1", "north-atlantic"))
    play_until(game, 3, "convoys")
    return game


def test_a_convoy_delivered_to_britain_scores_one_13_2(was):
    game = _convoy_to_north_atlantic(was)
    assert game.legal_actions() == [("deliver", "convoy#1"), ("stay", "convoy#1")]
    game.apply(("deliver", "convoy#1"))
    assert "convoy#1" not in game.vessels
    assert game.chronicle.payouts == [(3, "convoy delivered to Britain (§13)", "allies", 1)]
    play_until(game, 4, "movement", "allies")
    assert game.points["allies"] == 1


def test_a_convoy_that_stays_must_go_on_to_the_barents_sea_and_scores_three_13_2_13_3(was):
    game = _convoy_to_north_atlantic(was)
    game.apply(("stay", "convoy#1"))
    play_until(game, 4, "movement", "allies")
    assert game.vessels["convoy#1"].at == "north-atlantic"
    assert not game.is_legal(END)                  # it must sail on
    assert game.request.moves["convoy#1"] == {"barents-sea": False}
    game.apply(("move", "convoy#1", "barents-sea"))
    play_until(game, 5, "movement", "allies")
    assert "convoy#1" not in game.vessels and game.points["allies"] == 3
    assert game.chronicle.payouts[-1] == (4, "convoy delivered to Soviet Union (§13)", "allies", 3)


def test_one_convoy_to_an_area_13_1(was):
    game = _convoy_to_north_atlantic(was)
    game.apply(("stay", "convoy#1"))
    play_until(game, 4, "movement", "allies")
    assert "convoy#2" not in game.request.moves   # the North Atlantic holds convoy 1
    game.apply(("move", "convoy#1", "barents-sea"))
    assert game.request.moves["convoy#2"] == {"north-atlantic": False}


def test_a_disabled_convoy_goes_back_to_the_united_states_13_4(was):
    game = new(was)
    play_until(game, 3, "movement", "allies")
    game.apply(("move", "convoy#1", "north-atlantic"))
    play_until(game, 3, "submarines")
    game.dice = Scripted([1, 1, 1, 5])           # 3 anti-submarine dice miss; the U-boat's 5
    game.apply(("deploy", "north-atlantic"))
    game.apply(END)
    play_until(game, 4, "movement", "allies")
    assert game.vessels["convoy#1"].at == "usa" and game.points["allies"] == 0


# -- §14 refuelling at sea -------------------------------------------------------------------------------
def _raider_in_the_north_atlantic(was, die, **options):
    game = new(was, **options)
    play_until(game, 1, "movement", "axis")
    game.apply(("move", "admiral-scheer", "north-atlantic"))
    game.dice = Scripted([1])                    # the speed roll: it arrives
    game.apply(END)
    play_until(game, 1, "refuel")
    assert game.legal_actions() == [("refuel", "admiral-scheer"), END]
    game.dice = Scripted([die])
    game.apply(("refuel", "admiral-scheer"))
    return game


def test_refuelling_keeps_a_raider_at_sea_and_it_moves_anywhere_next_turn_14(was):
    """§14.3-§14.4: in turn 1 a roll of 1 to 5 succeeds; the ship stays out and next turn may
    go to any sea area or any friendly or neutral port."""
    game = _raider_in_the_north_atlantic(was, 5)
    play_until(game, 2, "movement", "axis")
    scheer = game.vessels["admiral-scheer"]
    assert scheer.at == "north-atlantic" and scheer.fuelled
    assert set(game.request.moves["admiral-scheer"]) == {
        "barents-sea", "north-sea", "south-atlantic", "baltic-sea", "mediterranean",
        "germany-norway", "france", "italy", "south-america"}


def test_a_failed_refuelling_sends_the_ship_to_south_america_14_4(was):
    game = _raider_in_the_north_atlantic(was, 6)
    assert game.vessels["admiral-scheer"].at == "south-america"


def test_no_refuelling_from_turn_4_14_3(was):
    game = new(was)
    play_until(game, 4, "movement", "axis")
    game.apply(("move", "admiral-scheer", "north-atlantic"))
    game.dice = Scripted([1])
    game.apply(END)
    steps = []
    while game.round == 4:
        steps.append(game.step)
        game.apply(passive(game))
    assert "refuel" not in steps and game.vessels["admiral-scheer"].at == "germany-norway"


# -- §12.3 returning, §15.4 France, §18.5 -------------------------------------------------------------
def test_axis_ships_use_france_only_from_turn_2_15_4(was):
    assert was.board.return_ports("north-atlantic", "germany", "bb", "axis", False, 1, ()) == [
        "germany-norway"]
    assert was.board.return_ports("north-atlantic", "germany", "bb", "axis", False, 2, ()) == [
        "germany-norway", "france"]


def test_france_closes_in_turn_7_and_its_ships_are_lost_15_4(was):
    game = new(was)
    play_until(game, 6, "air", "axis")
    game.vessels["lutzow"].at = "france"
    play_until(game, 7, "movement", "allies")
    assert "lutzow" not in game.vessels


def test_allied_ships_may_not_enter_the_united_states_before_turn_4_18_5(was):
    closed = was.board.return_ports("north-atlantic", "britain", "bb", "allies", False, 3,
                                    (("usa", "allies", 4),))
    assert closed == ["britain"]
    assert was.board.return_ports("north-atlantic", "britain", "bb", "allies", False, 3, ()) == [
        "usa", "britain"]


def test_british_ships_in_the_barents_sea_return_to_britain_then_to_the_soviet_union(was):
    """Appendix: British ships in the Barents Sea must return to Britain, from turn 3 (the
    Soviet Union joins, §16.1) to the Soviet Union."""
    assert was.board.return_ports("barents-sea", "britain", "bb", "allies", False, 2, ()) == ["britain"]
    assert was.board.return_ports("barents-sea", "britain", "bb", "allies", False, 3, ()) == ["russia"]
    assert was.board.return_ports("mediterranean", "britain", "bb", "allies", True, 3, ()) == ["malta"]
    assert was.board.return_ports("south-atlantic", "germany", "bb", "axis", True, 3, ()) == [
        "south-america"]


# -- §16 allies joining, the Italian fleet ----------------------------------------------------------------
def test_soviet_ships_sail_from_turn_3_on_a_5_or_6_each_turn_16_1(was):
    game = new(was)
    play_until(game, 2, "air", "axis")
    game.dice = Scripted([5, 4, 6])              # Marat, Oktyabrskaya Revolutsiya, Kirov
    play_until(game, 3, "movement", "allies")
    moves = game.request.moves
    assert moves["marat"] == {"baltic-sea": False} and moves["kirov"] == {"baltic-sea": False}
    assert "oktyabrskaya-revolutsiya" not in moves


def test_american_ships_join_on_a_6_in_turn_4_and_a_5_in_turn_5_16_2(was):
    game = new(was)
    play_until(game, 3, "air", "axis")
    game.dice = Scripted([], then=5)             # every die a 5: not enough in turn 4
    play_until(game, 4, "movement", "allies")
    assert not {"texas", "washington"} & set(game.request.moves)
    play_until(game, 4, "air", "axis")
    game.dice = Scripted([], then=5)
    play_until(game, 5, "movement", "allies")
    assert game.request.moves["texas"] == {"north-atlantic": False}
    assert game.request.moves["washington"] == {"north-atlantic": False}


def test_the_italian_fleet_rolls_for_its_fate_in_turn_8_16_4(was):
    """§16.4-§16.5: 1-2 to the Allies (into Malta, British from now on), 3-4 scuttled, 5-6 to
    Germany."""
    game = new(was)
    play_until(game, 7, "air", "axis")
    italians = [v.name for v in game.vessels.values() if v.nation == "italy"]
    game.dice = Scripted([2, 3, 6] + [4] * (len(italians) - 3))
    play_until(game, 8, "movement", "allies")
    first, second, third = italians[:3]
    assert game.vessels[first].nation == "britain" and game.vessels[first].side == "allies"
    assert game.vessels[first].at == "malta"
    assert second not in game.vessels
    assert game.vessels[third].nation == "germany" and game.vessels[third].at == "italy"
    assert not any(v.nation == "italy" for v in game.vessels.values())


def test_four_turns_of_axis_control_spare_the_italian_fleet_16_4(was):
    game = new(was)
    play_until(game, 7, "air", "axis")
    game.best_streak = 4
    play_until(game, 8, "movement", "allies")
    assert sum(1 for v in game.vessels.values() if v.nation == "italy") == 11


# -- §17 scoring and the end -----------------------------------------------------------------------------
def test_the_score_track_stops_at_ten_17_2(was):
    game = new(was)
    game.track = 9
    play_until(game, 1, "movement", "axis")
    game.apply(("move", "admiral-hipper", "barents-sea"))
    game.apply(("move", "blucher", "north-sea"))
    play_until(game, 2, "movement", "allies")
    assert game.points["axis"] == 4 and game.track == 10


def test_after_turn_8_the_sign_of_the_marker_decides_17_4(was):
    game = new(was)
    while not game.is_terminal():
        game.apply(passive(game))
    result = game.result()
    assert (result.round, result.winner, result.reason) == (8, None, "draw") and game.track == 0
    short = was.new_game({}, np.random.default_rng(0), max_rounds=2)
    while not short.is_terminal():
        short.apply(passive(short))
    assert short.result().reason == "round-limit" and short.result().round == 2


def test_the_variant_rules_are_game_settings_18(was):
    names = {s.name for s in was.game_settings()}
    assert names == {"weaker-bismarck-class", "hidden-allied-movement", "banked-uboats",
                     "refuel-after-escape", "usa-closed-until-turn-4", "internment"}
    game = new(was, weaker_bismarck_class=True)
    play_until(game, 2, "movement", "allies")
    assert game.vessels["bismarck"].type.armour == 7
    assert new(was).types["bismarck"].armour == 9


def test_hidden_allied_movement_shows_the_axis_only_counters_18_2(was):
    game = new(was, hidden_allied_movement=True)
    game.apply(END)
    game.apply(("move", "hood", "north-sea"))
    game.apply(END)
    assert game.current_player == "axis" and game.phase == "movement"
    assert game.seen("axis", "north-sea") == 1
    plain = new(was)
    plain.apply(END)
    plain.apply(("move", "hood", "north-sea"))
    plain.apply(END)
    assert [v.name for v in plain.seen("axis", "north-sea")] == ["hood"]


def test_escaped_ships_may_not_refuel_unless_18_4(was):
    """§14.1: a ship that escaped may not refuel at sea; §18.4 allows it."""
    for option, asked in ((False, False), (True, True)):
        game = new(was, refuel_after_escape=option)
        play_until(game, 1, "movement", "axis")
        game.apply(("move", "admiral-scheer", "north-atlantic"))
        game.dice = Scripted([1])
        game.apply(END)
        play_until(game, 1, "air", "axis")
        game.vessels["admiral-scheer"].escaped = True    # as after a successful escape (§11.6)
        game.apply(END)
        assert (game.step == "refuel") is asked


def test_a_broken_position_is_reported_by_the_invariants(was):
    game = new(was)
    game.vessels["marat"].at = "britain"
    game._checked = None
    broken = list(game.invariants())
    assert any("marat (ussr) is in britain: ussr ships may only be in baltic-sea, leningrad" in b
               for b in broken)
