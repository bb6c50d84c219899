"""What the AA50 rules record of a player's blunders (engine/game.py BLUNDERS), on positions set
up by hand in real games of the bundled scenarios (see tests/test_aa50_game.py)."""
from __future__ import annotations

import pytest
from test_aa50_game import clear, load, move, new_game, put, recount, until

from engine.system import load_system
from sandtable.scenario import load_scenario

from helpers import REPO


@pytest.fixture(scope="module")
def system41():
    return load_system(load_scenario(REPO / "scenarios" / "aa50-1941"))


def blunders(game, kind):
    return [(side, amount) for _round, k, side, amount in game.chronicle.blunders if k == kind]


def test_a_transport_sunk_alone_is_lost_without_a_fight(system41):
    """§7.3.4 transports have no attack or defence: alone, they are sunk without a fight."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-12")
    put(game, "sz-12", "united-kingdom", "transport", 2)
    put(game, "france", "germany", "fighter")
    move(game, "france", "fighter", "sz-12")
    until(game, "germany", "noncombat-move")
    assert not any(p.type == "transport" for p in game.pieces["sz-12"])
    cost = game.profiles("united-kingdom")["transport"].cost
    assert blunders(game, "lost-unfought") == [("allies", 2)]
    assert blunders(game, "lost-unfought-value") == [("allies", 2 * cost)]
    assert blunders(game, "lost-after-landing") == []


def test_a_transport_sunk_where_it_landed_troops_is_counted_as_a_landing_price(system41):
    """A transport that put troops ashore in an amphibious assault stays in its zone (§7.3.6):
    of the two British transports sunk alone, the one that landed troops in France is counted
    apart, as the price of a landing rather than a careless move."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-12")
    landed, _sailed = put(game, "sz-12", "united-kingdom", "transport", 2)
    landed.target = "france"                # set in the British combat move (§5.4.3)
    put(game, "france", "germany", "fighter")
    move(game, "france", "fighter", "sz-12")
    until(game, "germany", "noncombat-move")
    assert blunders(game, "lost-unfought") == [("allies", 2)]
    assert blunders(game, "lost-after-landing") == [("allies", 1)]


def test_a_destroyer_that_fights_back_is_no_blunder(system41):
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-12")
    put(game, "sz-12", "united-kingdom", "transport")
    put(game, "sz-12", "united-kingdom", "destroyer")
    put(game, "france", "germany", "fighter", 3)
    move(game, "france", "fighter", "sz-12", 3)
    until(game, "germany", "noncombat-move")
    assert blunders(game, "lost-unfought") == []


def test_money_left_after_the_purchase_is_recorded(system41):
    game = until(new_game(system41), "germany", "purchase")
    held = game.money["germany"]
    game.apply(("end",))
    assert blunders(game, "unspent") == [("axis", held)]


def test_money_short_of_any_unit_is_not_left_idle(system41):
    """Two IPCs buy nothing (the cheapest unit, infantry, costs 3): no blunder."""
    game = until(new_game(system41), "germany", "purchase")
    assert min(game.cost("germany", t) for t, kind in game.data.types.items() if kind.cost) == 3
    game.money["germany"] = 2
    game.apply(("end",))
    assert blunders(game, "unspent") == []


def full_factories(game, left: int):
    """Germany's purchase with its factories' room bought out in infantry and `left` IPCs over."""
    game = until(game, "germany", "purchase")
    room = sum(game.data.board.value[s] for s in game.factories if game.control.get(s) == "germany")
    game.money["germany"] = 3 * room + left
    game.apply(("buy", "infantry", room))
    return game


@pytest.mark.parametrize("sites", [True, False])
def test_money_with_no_factory_room_is_idle_only_with_a_site_for_a_factory(system41, sites):
    """20 IPCs over with the factories full (§5.7.1): they buy a factory (15) where a
    territory can take one (§7.1.5), so they count; with no such territory they wait, and
    that is no blunder."""
    game = full_factories(new_game(system41), 20)
    assert game.cost("germany", "factory") == 15
    if not sites:
        for space in game.data.board.land:
            if game.control.get(space) == "germany" and game.factory_at(space) is None:
                game.control[space] = "italy"
    game.apply(("end",))
    assert blunders(game, "unspent") == ([("axis", 20)] if sites else [])


def empty_capital_at_turn_end(system, nation, next_nation):
    """`nation`'s capital stripped of its land units in its combat move, played on passively
    to `next_nation`'s purchase; the game, and whether the capital ended the turn empty."""
    game = until(new_game(system), nation, "combat-move")
    capital = game.data.nations[nation].capital
    for piece in [p for p in game.pieces[capital] if game.data.types[p.type].domain == "land"]:
        game.pieces[capital].remove(piece)
    recount(game)
    until(game, next_nation, "purchase")
    return game, not any(game.data.types[p.type].domain == "land"
                         and not game.data.types[p.type].has("capturable")
                         and not game.data.types[p.type].has("factory")
                         for p in game.pieces[capital])


def test_a_capital_left_empty_within_the_enemys_reach_is_counted(system41):
    """Moscow emptied in 1941, round 1: German armies stand within a tank's move of it."""
    game, empty = empty_capital_at_turn_end(system41, "soviet-union", "japan")
    assert empty
    assert blunders(game, "capital-empty") == [("allies", 1)]


def test_a_capital_left_empty_where_no_enemy_can_reach_it_is_not(system41):
    """Washington emptied in 1941, round 1: no Axis land unit or transport could reach Eastern
    United States next turn (no Axis army has a road there; the nearest transport, Germany's
    in the Bay of Biscay, sz-13, is four spaces away), so leaving it empty invites nothing and
    is no blunder."""
    game, empty = empty_capital_at_turn_end(system41, "united-states", "germany")
    assert empty
    assert blunders(game, "capital-empty") == []


@pytest.mark.parametrize("battleship", [True, False])
def test_a_landing_counts_the_bombardment_before_it(system41, battleship):
    """One German infantry lands in Gibraltar against one British infantry: alone, about 5% by
    the quick estimate, below the odds; with a battleship in the landing zone its shot at the
    shore comes first (§5.5.2.2) and likely leaves nobody to defend, so it is no blunder."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-12", "gibraltar", "sz-13")
    put(game, "gibraltar", "united-kingdom", "infantry")
    put(game, "sz-13", "germany", "transport")
    if battleship:
        put(game, "sz-12", "germany", "battleship")
    load(game, "sz-13", "france", "infantry")
    move(game, "sz-13", "transport", "sz-12", 1, "gibraltar")
    until(game, "germany", "noncombat-move")
    assert blunders(game, "below-odds") == ([] if battleship else [("axis", 1)])


def test_an_attack_at_hopeless_odds_is_recorded_and_a_sure_one_is_not(system41):
    """One infantry against six (the quick estimate's chance is about nil) is below the odds
    (engine/game.py BELOW_ODDS); six tanks against one infantry are not."""
    game = until(new_game(system41), "germany", "combat-move")
    assert game.control["east-poland"] == "soviet-union" and game.control["belorussia"] == "soviet-union"
    clear(game, "poland", "east-poland", "baltic-states", "belorussia")
    put(game, "poland", "germany", "infantry")
    put(game, "east-poland", "soviet-union", "infantry", 6)
    put(game, "baltic-states", "germany", "armour", 6)
    put(game, "belorussia", "soviet-union", "infantry")
    move(game, "baltic-states", "armour", "belorussia", 6)
    move(game, "poland", "infantry", "east-poland")
    until(game, "germany", "noncombat-move")
    assert blunders(game, "below-odds") == [("axis", 1)]
