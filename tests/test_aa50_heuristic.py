"""The AA50 heuristic player in exact positions: what it does with the transport freedoms of
§5.4.8/§7.3.6 and with new fighters for carriers (§5.7.1).

Positions are set up on a real game of the bundled scenarios as in test_aa50_game.py: the
passive choice is taken until the nation and phase under test, then the board is arranged.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from test_aa50_game import clear, new_game, put, recount, until

from engine.aa50.heuristic import Survey, sea_distances
from engine.players import make_player
from engine.system import load_system
from sandtable.scenario import load_scenario

from helpers import REPO

SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="module")
def system41():
    return load_system(load_scenario(SCENARIOS / "aa50-1941"))


def ground_the_enemy(game, side):
    """Every warship and aircraft of the other side leaves the board: no zone is in danger,
    so a position about where transports go is not also about where they are safe."""
    for found in game.pieces.values():
        for piece in [p for p in found if game.side(p.owner) != side
                      and game.data.types[p.type].domain in ("sea", "air")]:
            found.remove(piece)
    recount(game)


def play_phase(game, system, side, spec="heuristic"):
    """The heuristic player of `side` plays the current phase; returns its actions."""
    player = make_player(spec, system, side, np.random.default_rng(1))
    nation, phase, actions = game.current_player, game.phase, []
    while game.current_player == nation and game.phase == phase:
        action = player.choose(game)
        actions.append(action)
        game.apply(action)
        assert game.invariants() == []
    return actions


def test_a_transport_picks_troops_up_on_its_way_to_an_assault(system41):
    """§5.4.8: an empty German transport in the open Atlantic (sz-11, no German troops by it)
    sails one zone to Morocco's coast, takes the tank and the infantry waiting there aboard,
    and goes on to an amphibious assault on an enemy coast with them (no Allied ship or
    aircraft left to sink it where it lands them)."""
    game = until(new_game(system41), "germany", "combat-move")
    ground_the_enemy(game, "axis")
    clear(game, "sz-12", "sz-13", "gibraltar")
    put(game, "gibraltar", "united-kingdom", "infantry")
    put(game, "egypt", "united-kingdom", "infantry", 6)      # no land attack to draw the tank
    put(game, "morocco-algeria", "germany", "armour")
    (transport,) = put(game, "sz-11", "germany", "transport")
    actions = play_phase(game, system41, "axis")
    mine = [a for a in actions if a[1] in ("sz-11", "sz-12") and a[2] == "transport"]
    assert mine[0] == ("move", "sz-11", "transport", "", "sz-12", 1, "")
    assert {(a[4], a[5]) for a in mine if a[0] == "load"} == {("morocco-algeria", "armour"),
                                                              ("morocco-algeria", "infantry")}
    assert sorted(c.type for c in transport.cargo) == ["armour", "infantry"]
    assert transport.target in game.data.board.shores[transport.space]
    assert game.data.side(game.control[transport.target]) == "allies"


def test_empty_transports_sail_to_an_army_waiting_on_a_shore(system41):
    """An American army gathered in eastern Canada has no road to the enemy: the empty
    transports off Brazil (sz-22, three zones away) sail toward it (not back to a factory) in the
    noncombat move, with no Axis ship or aircraft to make them wait short of it."""
    game = until(new_game(system41), "united-states", "noncombat-move")
    ground_the_enemy(game, "allies")
    for found in game.pieces.values():
        for piece in [p for p in found if p.owner == "united-states" and p.type == "transport"]:
            found.remove(piece)
    put(game, "eastern-canada", "united-states", "infantry", 8)
    put(game, "sz-22", "united-states", "transport", 2)
    sea = sea_distances(game.data.board)
    before = min(sea["sz-22"][z] for z in ("sz-1", "sz-9"))
    play_phase(game, system41, "allies")
    moved = [p for found in game.pieces.values() for p in found
             if p.owner == "united-states" and p.type == "transport"]
    assert len(moved) == 2 and before == 3
    assert all(min(sea[p.space][z] for z in ("sz-1", "sz-9")) == before - 2 for p in moved)


def test_new_fighters_are_bought_for_and_placed_on_carriers_by_a_factory(system41):
    """§5.7.1: a carrier with an empty deck next to a factory gets new fighters placed aboard."""
    game = until(new_game(system41), "germany", "purchase")
    clear(game, "sz-5")
    (carrier,) = put(game, "sz-5", "germany", "carrier")
    game.money["germany"] = 60
    bought = play_phase(game, system41, "axis")
    assert dict((a[1], a[2]) for a in bought if a[0] == "buy")["fighter"] >= 2
    until(game, "germany", "mobilize")
    play_phase(game, system41, "axis")
    assert sum(p.type == "fighter" and p.owner == "germany" for p in game.pieces["sz-5"]) == 2


@pytest.mark.parametrize("troops", [False, True])
def test_only_transports_with_troops_to_carry_frighten_a_capital(system41, troops):
    """Japan's purchase fears an assault on Tokyo only from transports that have troops aboard
    or waiting by them: four empty American transports off Formosa with nobody to carry leave
    Tokyo unthreatened (its own defence outweighs what could land); with four tanks and four
    infantry waiting on the shore beside them it is threatened, and the purchase holds the
    infantry that outweigh the threat (2 in 6 a defender)."""
    game = until(new_game(system41), "japan", "purchase")
    put(game, "sz-61", "united-states", "transport", 4)
    if troops:
        clear(game, "fukien")
        put(game, "fukien", "united-states", "armour", 4)
        put(game, "fukien", "united-states", "infantry", 4)
    threat = Survey(game, "japan").threat_to("japan")
    bought = dict((a[1], a[2]) for a in play_phase(game, system41, "axis") if a[0] == "buy")
    if troops:
        assert threat > 0 and bought["infantry"] >= math.ceil(threat / (2 / 6))
    else:
        assert threat < 0


def test_a_battleship_joins_a_landing_to_bombard_the_shore(system41):
    """§5.5.2.2: an idle German battleship off West Africa (sz-17) with no sea battle to join
    sails with the transport from Morocco to the landing zone off eastern Canada (sz-9), where
    it bombards the shore before the assault. (A landing the American strike next turn would
    make the Germans pay for with their tank, their infantry and the transport: made by a
    player that prices the exposed transport at nothing, `landing-risk=0`.)"""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-12", "sz-13", "gibraltar", "sz-14", "sz-9", "sz-17")
    put(game, "gibraltar", "united-kingdom", "infantry")
    put(game, "morocco-algeria", "germany", "armour")
    put(game, "sz-12", "germany", "transport")
    put(game, "sz-17", "germany", "battleship")
    actions = play_phase(game, system41, "axis", "heuristic:landing-risk=0")
    assert ("move", "sz-12", "transport", "armour+infantry/loaded", "sz-9", 1,
            "eastern-canada") in actions
    assert ("move", "sz-17", "battleship", "", "sz-9", 1, "") in actions


def test_with_its_land_war_over_germany_turns_to_the_sea(system41):
    """With every Soviet territory, Moscow included, in German hands, no enemy capital is left
    within reach by land: Germany buys transports (with no Allied ship or aircraft to sink them
    where they are placed), and the infantry in Germany, far from any front, march to France,
    its coast nearest London, to cross from there."""
    game = until(new_game(system41), "germany", "purchase")
    ground_the_enemy(game, "axis")
    for space in game.data.board.land:
        if game.control.get(space) == "soviet-union":
            game.control[space] = "germany"
            for piece in [p for p in game.pieces[space] if p.owner == "soviet-union"]:
                game.pieces[space].remove(piece)
    clear(game)
    bought = play_phase(game, system41, "axis")
    assert ("buy", "transport", 2) in bought
    until(game, "germany", "noncombat-move")
    moved = play_phase(game, system41, "axis")
    assert ("move", "germany", "infantry", "", "france", 3, "") in moved
    assert ("move", "germany", "artillery", "", "france", 1, "") in moved


def test_a_player_that_buys_no_ships_keeps_its_armies_at_the_front(system41):
    """`naval=false`: with the same position as above, no transports are bought and the
    infantry in Germany do not go to France to wait for ships that will never come."""
    game = until(new_game(system41), "germany", "noncombat-move")
    for space in game.data.board.land:
        if game.control.get(space) == "soviet-union":
            game.control[space] = "germany"
            for piece in [p for p in game.pieces[space] if p.owner == "soviet-union"]:
                game.pieces[space].remove(piece)
    clear(game)
    player = make_player("heuristic:naval=false", system41, "axis", np.random.default_rng(1))
    moved = []
    while game.current_player == "germany" and game.phase == "noncombat-move":
        moved.append(player.choose(game))
        game.apply(moved[-1])
    assert not [a for a in moved if a[0] == "move" and a[1] == "germany" and a[4] == "france"]
