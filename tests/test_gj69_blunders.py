"""The GJ69 heuristic's blunders, each on an exact position built through the game
API: a group that could only hold is never formed (no unit turned over for nothing, §6.2), a
hand is played rather than passed away (§4.0(3), §4.0(4)③), and the Japanese player strikes
the fleet that blocks a landing before it lands (§7.1(2), §7.3(1), §7.5(3)) instead of
withdrawing the troops. Units lost off guard (troops at sea, used aircraft, ships without a
destroyer against submarines) are counted for the report.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.gj69.core import GameCore
from engine.gj69.damage import READY, USED
from engine.players import make_player
from sandtable.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "scenarios" / "gj69-southern-operation"


@pytest.fixture(scope="module")
def gj69():
    return load_system(load_scenario(SCENARIO))


def new(gj69, seed: int = 1):
    return gj69.new_game({}, np.random.default_rng(seed))


def remove(game, area: str, side: str) -> None:
    for unit, face, n in list(game.forces.stacks(area, side)):
        game.forces.take(area, unit, face, n)
        game.counters[unit] -= n


def put(game, area: str, unit: str, n: int = 1, face: str = READY) -> None:
    game.forces.add(area, unit, face, n)
    game.counters[unit] = game.counters.get(unit, 0) + n


def deal(game, japan, allies) -> None:
    for card in [*japan, *allies]:
        game.apply(("take", card))


def heuristic(gj69, side: str, seed: int = 1):
    return make_player("heuristic", gj69, side, np.random.default_rng(seed))


def units(game, area: str, side: str) -> dict:
    return {(u, f): n for u, f, n in game.forces.stacks(area, side)}


# -- never turn a unit over for nothing (§6.2) -----------------------------------------------------
def test_a_group_takes_the_units_its_action_needs_6_2_7_3(gj69):
    """Four infantry of the 14th Army at sea in the Luzon Strait, Luzon left empty: a group
    crossing a sea border takes at most 2 land units (§7.3(1)②), so the player forms groups of
    two and lands all four. It used to add every infantry to the first group (it read the
    group's units from the game, which shows them only once the group is formed): the group
    could only hold and four units were turned over in the Luzon Strait for nothing."""
    game = new(gj69)
    for area in list(game.forces.units):
        remove(game, area, "japan")
    remove(game, "luzon", "allies")
    put(game, "luzon-strait", "ija-14a-infantry", 4)
    put(game, "japan-homeland", "ija-reserve-infantry", 1)
    deal(game, ["j03", "j04", "j05", "j06", "j11", "j12", "j16"], ["a02", "a04", "a05", "a10", "a14"])
    japan = heuristic(gj69, "japan")
    while game.current_player == "japan":
        game.apply(japan.choose(game))
    assert units(game, "luzon-strait", "japan") == {}
    assert units(game, "luzon", "japan") == {("ija-14a-infantry", USED): 4}


def test_heuristic_groups_always_have_something_to_do_6_2(gj69, monkeypatch):
    """In whole heuristic games no group the players form is left with holding as its only
    action (its units would be turned over for nothing)."""
    holds = []
    ask = GameCore.ask

    def watch(self, seat, step, actions):
        if step == "action" and actions == [("hold",)]:
            holds.append((self.turn, seat, self.group.area, dict(self.group.units)))
        return ask(self, seat, step, actions)

    monkeypatch.setattr(GameCore, "ask", watch)
    for seed in range(2):
        game = new(gj69, seed)
        players = {side: heuristic(gj69, side, seed) for side in gj69.sides}
        while not game.is_terminal():
            game.apply(players[game.current_player].choose(game))
    assert holds == []


# -- a hand is for playing (§4.0(3), §4.0(4)③) -----------------------------------------------------
def test_the_hand_is_played_rather_than_passed_away_4_0(gj69):
    """Turn 3, the Allies have just passed: a Japanese pass ends the turn and the four cards in
    hand go back unused. The 23rd Army's five infantry in Canton can move into Hong Kong, held
    by one British infantry and the fortress, and with two Blitzkrieg cards in hand attack
    there twice with the damage added (§18.1); the player plays Blitzkrieg and moves in. It
    used to pass (no action beat its threshold plus the card's worth)."""
    game = new(gj69)
    deal(game, ["j01", "j02", "j05", "j06", "j08", "j15", "j16"], ["a02", "a04", "a05", "a10", "a14"])
    game.turn = 3
    deck = game.decks["japan"]
    for card in ("j05", "j06", "j08"):           # played earlier in the turn
        deck.hand.remove(card)
        deck.played.append(card)
    game.apply(("air",))
    while game.current_player == "japan":
        game.apply(game.legal_actions()[0])
    game.apply(("pass",))
    for area in list(game.forces.units):         # every other Japanese unit has acted
        if area != "canton":
            for unit, face, n in list(game.forces.stacks(area, "japan")):
                if face == READY:
                    game.forces.turn(area, unit, USED, n)
    assert game.checkpoint == ("impulse", "japan", 1, 2) and deck.hand == ["j01", "j02", "j15", "j16"]
    japan = heuristic(gj69, "japan")
    choice = japan.choose(game)
    assert choice in (("play", "j01", ""), ("play", "j02", ""))
    game.apply(choice)
    while game.current_player == "japan" and game.turn == 3:
        game.apply(japan.choose(game))
    assert units(game, "hong-kong", "japan") in ({("ija-23a-infantry", USED): 5},
                                                 {("ija-23a-infantry", READY): 5})
    assert units(game, "canton", "japan") == {}


def test_cards_left_when_the_turn_ends_are_counted_with_the_reaction_cards_among_them_4_0(gj69):
    """§4.0(3): two passes in a row end the turn's impulses and the hands go back unused. The
    report counts the cards left and, among them, the reaction cards (★, §5.3) that waited for
    an enemy impulse: Ambush in Japan's hand, Ambush and Force Z in the Allies'."""
    game = new(gj69)
    deal(game, ["j01", "j02", "j05", "j06", "j08", "j15", "j16"], ["a07", "a16", "a02", "a04", "a05"])
    game.apply(("pass",))
    game.apply(("pass",))
    counted = {(kind, side): amount for turn, kind, side, amount in game.chronicle.blunders
               if turn == 1 and kind.startswith("cards-unused")}
    assert counted == {("cards-unused", "japan"): 7, ("cards-unused-reaction", "japan"): 1,
                       ("cards-unused", "allies"): 5, ("cards-unused-reaction", "allies"): 2}


def test_on_the_last_turn_no_unit_moves_into_an_enemy_area_where_it_can_do_nothing_17_1(gj69):
    """Turn 8 of 8 (§17.1): a unit that moves now is used till the game ends (§6.2 ③, §12), and
    entering an area the enemy still holds changes no control (§14). Five Japanese infantry
    stand in Rangoon beside its three British brigades, one more waits in Cambodia. The player
    used to spend its Blitzkrieg cards moving the one after the five (credited with the attack
    all six could make "next", which no turn is left for) and never attacked; now the five
    attack, twice with the damage added (§18.1)."""
    game = new(gj69)
    for area in sorted(game.forces.occupied("japan")):
        remove(game, area, "japan")
    put(game, "rangoon", "ija-15a-infantry", 5)
    put(game, "cambodia", "ija-15a-infantry")
    put(game, "mandalay", "uk-infantry")        # no empty area to take instead
    game.turn = game.last_turn
    deal(game, ["j01", "j02", "j05", "j06", "j08", "j15", "j16"], ["a02", "a04", "a05", "a10", "a14"])
    player = heuristic(gj69, "japan")
    moves = []
    while not game.is_terminal() and game.turn == game.last_turn:
        if game.current_player != "japan":           # the Allies never act
            game.apply(("pass",) if ("pass",) in game.legal_actions() else game.legal_actions()[0])
            continue
        action = player.choose(game)
        if action[0] == "move":
            moves.append((game.group.area, action[1]))
        game.apply(action)
    assert ("cambodia", "rangoon") not in moves
    assert any(b[1] == "rangoon" and b[2] == "japan" for b in game.chronicle.battles)


# -- two-step operations: strike the fleet, then land (§7.1(2), §7.3(1), §7.5(3)) ------------------
FORCE_Z = ("uk-prince-of-wales", "uk-repulse", "uk-destroyers")
JAPAN_HAND = ["j01", "j03", "j05", "j07", "j13", "j14", "j15"]
ALLIED_HAND = ["a01", "a07", "a08", "a09", "a11"]


def moves_of_the_25th_army(game, players) -> list[list]:
    """Turn 1 played out: [action, Force Z still in the Coast of Malay, 25th Army units that
    left the Coast of Malay as it was carried out (the enemy's reaction comes in between)] for
    each Japanese action taken there or aimed at it."""
    found: list[list] = []

    def army() -> int:
        return sum(n for u, _, n in game.forces.stacks("coast-of-malay", "japan") if u.startswith("ija-25a"))

    while game.turn == 1:
        side, step = game.current_player, game.step
        action = players[side].choose(game)
        force_z = any(u in FORCE_Z for u, _, _ in game.forces.stacks("coast-of-malay", "allies"))
        area = game.group.area if game.group is not None else None
        if side == "japan" and step == "action" and (area == "coast-of-malay"
                                                     or action == ("air-attack", "coast-of-malay")):
            found.append([action, force_z, 0])
        before = army()
        game.apply(action)
        if found and (side == "japan" or step == "react"):      # inside Japan's impulse
            found[-1][2] += before - army()
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_japan_strikes_force_z_before_the_25th_army_lands_7_1_7_3_7_5(gj69, seed):
    """Turn 1 as set up (§3.0): Force Z in the Coast of Malay blocks the 25th Army's landing
    in Malay (leaving an area with enemy units costs 1 more than the 2 a land unit may spend
    across a sea border; a sea transport may not start and end among enemy units). Japan
    strikes the fleet first (Saigon's air group, then its cruisers attacking twice) and lands
    the army only once the Coast of Malay is clear; no 25th Army unit is taken away while
    Force Z is there. It used to send the army back to Canton by sea transport."""
    game = new(gj69, seed)
    deal(game, JAPAN_HAND, ALLIED_HAND)
    players = {side: heuristic(gj69, side, seed) for side in gj69.sides}
    done = moves_of_the_25th_army(game, players)
    assert all(left == 0 for _, force_z, left in done if force_z)
    assert done[0] == [("air-attack", "coast-of-malay"), True, 0]
    landings = [action for action, _, left in done if left]
    assert landings and all(action == ("move", "malay") for action in landings)


def test_with_the_sea_clear_the_25th_army_lands_in_malay_7_3_19(gj69):
    """The second step alone: Force Z gone from the Coast of Malay, the 25th Army lands in
    Malay with Landing Operation ①, all eight units in one group (§7.3(1)② lifted by the
    card, §19), and no unit of it goes anywhere else."""
    game = new(gj69)
    for unit in FORCE_Z:
        remove_one = game.forces.take
        remove_one("coast-of-malay", unit, READY)
        game.counters[unit] -= 1
    deal(game, JAPAN_HAND, ALLIED_HAND)
    players = {side: heuristic(gj69, side) for side in gj69.sides}
    done = moves_of_the_25th_army(game, players)
    assert [(action, left) for action, _, left in done if left] == [(("move", "malay"), 8)]


def idle_turnovers(gj69, seed: int, players: str) -> list[tuple]:
    game = new(gj69, seed)
    sides = {side: make_player(players, gj69, side, np.random.default_rng([seed, n]))
             for n, side in enumerate(("japan", "allies"))}
    while not game.is_terminal():
        game.apply(sides[game.current_player].choose(game))
    return [(turn, side, amount) for turn, kind, side, amount in game.chronicle.blunders
            if kind == "idle-turnover"]


def test_units_turned_over_for_nothing_are_counted_and_the_heuristic_turns_none(gj69):
    """§6.2 ③: a group's units turn to their used face when it is done; a group that could
    only hold turned them for nothing (engine/game.py BLUNDERS idle-turnover). Random play forms
    such groups and the chronicle counts their units; the heuristic forms none."""
    found = [entry for seed in (1, 2) for entry in idle_turnovers(gj69, seed, "random")]
    assert found and all(side in ("japan", "allies") and amount >= 1 for _, side, amount in found)
    assert [entry for seed in (1, 2) for entry in idle_turnovers(gj69, seed, "heuristic")] == []


# -- units lost off guard -------------------------------------------------------------------------
def off_guard(game, side: str) -> tuple[int, float]:
    found = [(kind, amount) for _, kind, who, amount in game.chronicle.blunders if who == side]
    return (sum(a for k, a in found if k == "lost-off-guard"),
            sum(a for k, a in found if k == "lost-off-guard-vp"))


def air_strike(game, area: str, unit: str, target: str) -> None:
    """An air operation of every ready `unit` in the area against the target (§9.1); no
    reaction to it."""
    game.apply(("air",))
    game.apply(("area", area))
    while ("add", unit, READY) in game.legal_actions():
        game.apply(("add", unit, READY))
    if ("done",) in game.legal_actions():
        game.apply(("done",))
    game.apply(("air-attack", target))
    while game.step == "react":
        game.apply(("no-reaction",))


def lost(before: dict, after: dict, kinds) -> int:
    return sum(n for (u, _), n in before.items() if u in kinds) - \
        sum(n for (u, _), n in after.items() if u in kinds)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_troops_at_sea_and_used_aircraft_lost_are_counted_off_guard_11_31_11_32(gj69, seed):
    """The opening: the 14th Army's troops wait at sea in the Luzon Strait beside its cruisers,
    the American air groups stand in Luzon. The Allies strike the strait: a land unit at sea
    goes to the pool on one point (§11.31(2)), a ship on its durability (§11.33); Japan strikes
    back at the air groups, now used, which one point sends to the pool (§11.32). Every troop
    and every used air group lost is counted off guard, with the VP the Allies scored for the
    troops (§15.0(1)②); no ship is."""
    game = new(gj69, seed)
    deal(game, ["j01", "j02", "j04", "j06", "j13", "j15", "j16"], ["a01", "a02", "a03", "a04", "a05"])
    game.apply(("pass",))
    strait = units(game, "luzon-strait", "japan")
    vp = game.vp["allies"]
    air_strike(game, "luzon", "us-af", "luzon-strait")
    troops = {"ija-14a-infantry", "ija-14a-armour"}
    sunk = lost(strait, units(game, "luzon-strait", "japan"), troops)
    assert sunk >= 1                    # these seeds' dice sink troops and ground aircraft
    assert off_guard(game, "japan") == (sunk, pytest.approx(sum(
        game.loss_vp_of(u) * (n - units(game, "luzon-strait", "japan").get((u, f), 0))
        for (u, f), n in strait.items() if u in troops)))
    assert game.vp["allies"] - vp >= off_guard(game, "japan")[1]
    base = units(game, "luzon", "allies")
    assert base.get(("us-af", USED)) == 4
    air_strike(game, "taiwan", "ijn-af-taiwan", "luzon")
    grounded = lost(base, units(game, "luzon", "allies"), {"us-af"})
    assert grounded >= 1 and off_guard(game, "allies") == (grounded, 0.0)


def test_a_ship_sunk_by_submarines_with_no_destroyer_by_is_counted_off_guard_19(gj69):
    """§19 Submarines: a die per attack, 2 off for each enemy destroyer in the sea area. The
    Kongo alone in the Indian Ocean, no destroyer, no Japanese control marker: the first attack
    cannot fail and sinks it, counted off guard with the VP its loss gave the Allies."""
    game = new(gj69)
    put(game, "indian-ocean", "ijn-kongo")
    deal(game, ["j01", "j02", "j04", "j06", "j13", "j15", "j16"], ["a09", "a01", "a02", "a03", "a04"])
    game.apply(("pass",))
    vp = game.vp["allies"]
    game.apply(("play", "a09", ""))
    game.apply(("area", "indian-ocean"))          # the only target: it goes without asking
    game.apply(("end",))
    assert not units(game, "indian-ocean", "japan")
    assert off_guard(game, "japan") == (1, game.loss_vp_of("ijn-kongo"))
    assert game.vp["allies"] - vp == game.loss_vp_of("ijn-kongo") > 0


# -- a card that lets a group act again is valued for what that group can do (§18.1) -------------
def test_a_blitzkrieg_is_worth_what_its_group_can_do_after_the_move_18_1(gj69):
    """Blitzkrieg lets one group act twice (§18.1): a move into Hong Kong, then an attack there
    by the same group. With one infantry left in Canton, next to the fortress and its brigade,
    that attack can do nothing (§11.4). The card used to be valued as if the move were followed
    by half of Hong Kong's worth (4.8 VP more than the move), so the player spent a Blitzkrieg
    on a move it then stopped; now the follow-up is the group's own attack, and the card is
    worth no more than the move made with any card."""
    game = new(gj69)
    for area in sorted(game.forces.occupied("japan")):
        remove(game, area, "japan")
    put(game, "canton", "ija-23a-infantry")
    deal(game, ["j01", "j02", "j03", "j07", "j12", "j15", "j16"], ["a01", "a02", "a03", "a04", "a05"])
    player = heuristic(gj69, "japan")
    player.new_position(game)
    choices = player.impulse_choices(game)
    move = max((c for c in choices if c.kind == "normal"), key=lambda c: c.worth)
    assert move.group[2] == ("move", "hong-kong")
    plays = {c.action: c.worth for c in choices if c.kind == "play"}
    for card in ("j01", "j02"):
        assert plays[("play", card, "")] <= move.worth + 0.01
