"""Whole AA50 games: each rule of the turn, named by the rulebook section it follows.

Situations are set up on a real game of the bundled scenarios: the passive choice (the first
legal action: end, hold, fight on) is taken until the nation and phase under test come up, and
the board is then arranged with `put`/`clear`.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.game import IllegalAction
from engine.system import load_system
from sandtable.scenario import load_scenario

from helpers import REPO

SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="module")
def system41():
    return load_system(load_scenario(SCENARIOS / "aa50-1941"))


@pytest.fixture(scope="module")
def system42():
    return load_system(load_scenario(SCENARIOS / "aa50-1942"))


def new_game(system, seed=1, **options):
    settings = {s.key: s.default for s in system.game_settings()}
    settings.update(options)
    return system.new_game(settings, np.random.default_rng(seed), 10)


def until(game, nation, phase):
    """Take the passive choice until `nation` plays `phase`."""
    for _ in range(100_000):
        if game.current_player == nation and game.phase == phase:
            return game
        game.apply(game.legal_actions()[0])
    raise AssertionError(f"{nation} never reached {phase}")


def clear(game, *spaces):
    for space in spaces:
        for piece in list(game.pieces[space]):
            game.pieces[space].remove(piece)
    recount(game)


def put(game, space, owner, type_, count=1):
    pieces = [game.new_piece(owner, type_, space) for _ in range(count)]
    recount(game)
    return pieces


def recount(game):
    """The board was arranged by hand: the piece accounting starts again from here."""
    game.start_count = game.count_pieces() - game.created + game.destroyed
    game.touch()
    if game.phase in ("combat-move", "noncombat-move"):
        game._candidates = [p for found in game.pieces.values() for p in found
                            if p.owner == game.seat]


def move(game, space, type_, to, count=1, target=""):
    group = game.current_group()
    while group and (group[0].space, group[0].type) != (space, type_):
        game.apply(("hold", group[0].space, group[0].type, game.group_tag(group[0])))
        group = game.current_group()
    assert group, f"no group of {type_} in {space} to move"
    action = ("move", space, type_, game.group_tag(group[0]), to, count, target)
    assert game.is_legal(action), f"{action} is not legal; legal: {game.legal_actions()[:12]}"
    game.apply(action)


# -- §5, §4: whose turn ----------------------------------------------------------------------------
def test_turn_order_with_china_inside_the_american_turn(system41, system42):
    """Rulebook §5: 1941 Germany first, 1942 Japan first; §4: China plays within the US turn."""
    assert new_game(system41).seats() == ["germany", "soviet-union", "japan", "united-kingdom",
                                          "italy", "china", "united-states"]
    game = new_game(system42)
    assert game.seats()[0] == "japan" and game.current_player == "japan"
    assert game.side_of("china") == "allies" and game.round == 1


# -- §5.3 purchase, §5.7 mobilize -------------------------------------------------------------------
def test_purchase_spends_ipcs_and_never_more_than_held(system41):
    """§5.3.2: units are paid for at their cost; a nation cannot spend what it does not have."""
    game = until(new_game(system41), "germany", "purchase")
    assert game.money["germany"] == 31
    assert not game.is_legal(("buy", "infantry", 11))          # 33 IPCs
    game.apply(("buy", "infantry", 3))
    game.apply(("buy", "armour", 2))
    assert game.money["germany"] == 31 - 9 - 10 and game.pool["germany"]["armour"] == 2
    with pytest.raises(IllegalAction, match="germany may not"):
        game.apply(("buy", "battleship", 1))


def test_mobilize_is_limited_by_the_factory_territory_value(system41):
    """§5.7.1 and §7.1.5: a factory mobilizes at most its territory's value, less damage."""
    game = until(new_game(system41), "soviet-union", "purchase")
    game.apply(("buy", "infantry", 10))
    until(game, "soviet-union", "mobilize")
    spaces = {a[2] for a in game.legal_actions() if a[0] == "place"}
    assert spaces == {"russia", "caucasus", "karelia-ssr"} & spaces and "caucasus" in spaces
    game.damage["caucasus"] = 2
    game.touch()
    assert game.is_legal(("place", "infantry", "caucasus", 2))
    assert not game.is_legal(("place", "infantry", "caucasus", 3))     # value 4, 2 damage
    game.apply(("place", "infantry", "caucasus", 2))
    assert not any(a[2] == "caucasus" for a in game.legal_actions() if a[0] == "place")


def test_a_factory_placed_this_turn_mobilizes_nothing_until_the_next_turn(system41):
    """§7.1.5 (seed 000): only an industrial complex controlled since the start of the turn
    mobilizes units; §5.7: new units go where a factory could put them at the start of the
    turn. A factory bought and placed in India takes no infantry the same turn."""
    game = until(new_game(system41), "united-kingdom", "purchase")
    game.apply(("buy", "factory", 1))
    game.apply(("buy", "infantry", 1))
    game.apply(("end",))
    until(game, "united-kingdom", "mobilize")
    game.apply(("place", "factory", "india", 1))
    assert not game.is_legal(("place", "infantry", "india", 1))
    assert ("place", "infantry", "india", 1) not in game.legal_actions()
    assert game.is_legal(("place", "infantry", "united-kingdom", 1))
    assert game.invariants() == []


def test_the_invariants_catch_units_mobilized_by_a_new_factory(system41):
    """The check `playtest games --check` runs after every action sees a unit counted
    against a factory placed this turn, and a new unit where no old factory could put it."""
    game = until(new_game(system41), "united-kingdom", "purchase")
    game.apply(("buy", "factory", 1))
    game.apply(("buy", "infantry", 1))
    game.apply(("end",))
    until(game, "united-kingdom", "mobilize")
    game.apply(("place", "factory", "india", 1))
    assert game.invariants() == []
    infantry = put(game, "india", "united-kingdom", "infantry")[0]
    infantry.placed_now = True
    game.placed["india"] += 1
    assert game.invariants() == [
        "the factory in india mobilized 1 unit(s) though united-kingdom did not control it at "
        "the start of the turn",
        f"{infantry} was mobilized where no factory united-kingdom controlled at the start of "
        "the turn could put it"]


def test_research_off_is_never_offered(system41):
    """§5.2, note 18 (seed 000): research is an optional rule; with it off no nation is asked
    to research, from the first decision of the game on."""
    game = new_game(system41, research=False)
    assert (game.current_player, game.phase) == ("germany", "purchase")
    seen = set()
    while game.round == 1:
        seen.add(game.phase)
        assert not any(a[0] == "research" for a in game.legal_actions())
        game.apply(game.legal_actions()[0])
    assert "research" not in seen and "purchase" in seen
    on = new_game(system41, research=True)
    assert (on.phase, on.legal_actions()[:2]) == ("research", [("research", 0), ("research", 1)])


def test_the_invariants_catch_a_phase_left_without_decision(system41):
    game = new_game(system41, research=False)
    game._phase = "research"
    assert game.invariants() == [
        "germany is asked to decide in the research phase, where nothing is left to decide "
        "(an option or the rules close it)"]


def test_ships_are_placed_in_a_sea_zone_next_to_a_factory(system41):
    """§5.7.1: new sea units go to a sea zone adjacent to a factory's territory."""
    game = until(new_game(system41), "germany", "purchase")
    game.apply(("buy", "submarine", 1))
    until(game, "germany", "mobilize")
    zones = {a[2] for a in game.legal_actions() if a[:2] == ("place", "submarine")}
    assert zones == {"sz-5"}


# -- §5.8 income, §5.5.3.8 capitals -------------------------------------------------------------------
def test_income_is_the_value_of_what_a_nation_holds(system41):
    """§5.8: a nation collects the value of its territories at the end of its turn."""
    game = new_game(system41)
    production = sum(game.data.board.value[s] for s, n in game.control.items() if n == "germany")
    until(game, "soviet-union", "purchase")
    assert game.money["germany"] == 31 + production


def test_a_captured_capital_hands_over_the_treasury_and_stops_income(system41):
    """§5.5.3.8: the captor takes the IPCs in hand; the nation collects nothing until its
    capital is liberated."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "russia")
    game.money["soviet-union"] = 18
    game.capture("russia", "germany")
    assert game.control["russia"] == "germany"
    assert game.money["germany"] == 31 + 18 and game.money["soviet-union"] == 0
    assert not game.capital_held("soviet-union")
    until(game, "soviet-union", "combat-move")
    assert game.money["soviet-union"] == 0                  # no purchase, no income
    until(game, "japan", "purchase")
    assert game.money["soviet-union"] == 0


def test_liberated_territory_goes_back_to_its_original_owner(system41):
    """§5.5.3.7: a territory retaken by an ally whose capital stands returns to its owner."""
    game = until(new_game(system41), "united-kingdom", "combat-move")
    game.control["karelia-ssr"] = "germany"
    game.capture("karelia-ssr", "united-kingdom")
    assert game.control["karelia-ssr"] == "soviet-union"


# -- §5.8.1 national objectives -------------------------------------------------------------------------
def test_national_objectives_pay_only_when_the_option_is_on(system41):
    """§5.8.1: optional rule; Germany's 'western Europe' objective holds at the start."""
    on = until(new_game(system41, national_objectives=True), "soviet-union", "purchase")
    off = until(new_game(system41), "soviet-union", "purchase")
    paid = [p for p in on.chronicle.payouts if p[2] == "germany"]
    assert ("germany-western-europe" in [p[1] for p in paid])
    assert on.money["germany"] - off.money["germany"] == sum(p[3] for p in paid) > 0
    assert not off.chronicle.payouts


# -- §5.4 movement --------------------------------------------------------------------------------
def test_a_tank_blitzes_through_an_empty_enemy_territory(system41):
    """§5.4.7: a tank passing an enemy territory with no units takes it on the way."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "east-poland", "ukraine")
    move(game, "poland", "armour", "ukraine", 1, "blitz:east-poland")
    assert game.control["east-poland"] == "germany"       # blitzed on the way
    assert game.control["ukraine"] == "germany"           # empty: taken at once


def test_a_tank_cannot_blitz_past_defended_territory(system41):
    """§5.4.7: a territory with enemy units stops the tank."""
    game = until(new_game(system41), "germany", "combat-move")
    group = [p for p in game.pieces["poland"] if p.type == "armour"]
    destinations = game.group_destinations(group)
    assert destinations["east-poland"] == (1, None, ("",))
    assert destinations["ukraine"] == (2, "bulgaria-romania", ("",))   # not through east-poland
    clear(game, "east-poland")
    assert game.group_destinations(group)["ukraine"][2] == ("", "blitz:east-poland")


def test_nobody_enters_or_flies_over_neutral_territories(system41):
    """§2.2: neutrals are impassable to every unit; aircraft fly around them."""
    game = new_game(system41)
    board = game.data.board
    assert "turkey" in board.neutral
    assert all(board.distance("turkey", s) >= 99 for s in ("caucasus", "trans-jordan"))
    until(game, "united-kingdom", "combat-move")
    for found in game.pieces.values():
        for piece in found:
            if piece.owner == "united-kingdom" and game.movable(piece):
                assert not set(game.group_destinations([piece])) & board.neutral


def test_the_suez_canal_needs_both_egypt_and_trans_jordan(system41):
    """§2.6: a side's ships pass Suez only if it held Egypt and Trans-Jordan at the turn's start."""
    from engine.aa50.movement import canal_open, sea_reach
    game = until(new_game(system41), "united-kingdom", "combat-move")
    assert canal_open(game, "sz-15", "sz-34", "united-kingdom")
    assert "sz-34" in sea_reach(game, "sz-15", "united-kingdom", 1, True, False)
    game.start_control["trans-jordan"] = "italy"
    assert not canal_open(game, "sz-15", "sz-34", "united-kingdom")
    assert not canal_open(game, "sz-15", "sz-34", "italy")      # split: closed to both


def test_aircraft_that_cannot_land_are_lost(system41):
    """§5.6.1.2: at the end of the noncombat move, aircraft with no friendly territory or
    carrier to land on crash."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-13")
    fighter, = put(game, "sz-13", "germany", "fighter")
    fighter.spent = 4                                     # no move left
    until(game, "germany", "noncombat-move")
    lost = game.destroyed
    until(game, "soviet-union", "purchase")
    assert fighter not in game.pieces["sz-13"] and game.destroyed == lost + 1


def test_air_units_alone_do_not_take_a_territory(system41):
    """§5.5.3.6: only a land unit left standing takes the territory."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "east-poland")
    put(game, "east-poland", "soviet-union", "infantry")
    move(game, "poland", "fighter", "east-poland")
    until(game, "soviet-union", "purchase")
    assert game.control["east-poland"] == "soviet-union"
    assert any(b[1] == "east-poland" and b[6] == "attacker" for b in game.chronicle.battles)


# -- §5.5.2 amphibious assaults ---------------------------------------------------------------------
def test_an_amphibious_assault_lands_its_cargo_and_takes_the_coast(system41):
    """§5.4.3, §5.5.2: troops boarded in the combat move land in the enemy territory."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "gibraltar")
    move(game, "france", "infantry", "sz-13", 2, "board")
    transport = next(p for p in game.pieces["sz-13"] if p.type == "transport")
    assert [c.type for c in transport.cargo] == ["infantry", "infantry"]
    move(game, "sz-13", "transport", "sz-13", 1, "gibraltar")
    until(game, "germany", "noncombat-move")
    assert game.control["gibraltar"] == "germany"
    assert sum(p.type == "infantry" for p in game.pieces["gibraltar"]) == 2
    assert not transport.cargo


def group_of(game, space, type_):
    """Hold every group before the one of `type_` in `space`, and return that one."""
    group = game.current_group()
    while group and (group[0].space, group[0].type) != (space, type_):
        game.apply(("hold", group[0].space, group[0].type, game.group_tag(group[0])))
        group = game.current_group()
    assert group, f"no group of {type_} in {space} to move"
    return group


def load(game, zone, territory, type_, count=1):
    group = group_of(game, zone, "transport")
    action = ("load", zone, "transport", game.group_tag(group[0]), territory, type_, count)
    assert game.is_legal(action), f"{action} is not legal; legal: {game.legal_actions()[:12]}"
    game.apply(action)
    return group[0]


def test_new_fighters_go_on_new_and_old_carriers_next_to_the_factory(system41):
    """§5.7.1 and note 54: new fighters may be placed on the nation's carriers, new or there
    before, in a sea zone next to a factory held since the start of the turn; two a carrier
    (§7.3.2), never on an ally's carrier."""
    game = until(new_game(system41), "germany", "purchase")
    game.money["germany"] = 100
    game.apply(("buy", "carrier", 1))
    game.apply(("buy", "fighter", 4))
    until(game, "germany", "mobilize")
    put(game, "sz-5", "italy", "carrier")                 # an ally's carrier takes none
    assert not game.is_legal(("place", "fighter", "sz-5", 1))
    game.apply(("place", "carrier", "sz-5", 1))
    assert ("place", "fighter", "sz-5", 1) in game.legal_actions()
    assert not game.is_legal(("place", "fighter", "sz-5", 3))
    game.apply(("place", "fighter", "sz-5", 2))
    assert not game.is_legal(("place", "fighter", "sz-5", 1))     # the carrier is full
    assert sum(p.type == "fighter" for p in game.pieces["sz-5"]) == 2
    assert game.placed["germany"] == 3                    # they count against Germany's 10
    (old,) = put(game, "sz-5", "germany", "carrier")     # one there before the turn
    game.apply(("place", "fighter", "sz-5", 2))
    assert not game.is_legal(("place", "fighter", "sz-5", 1))
    assert old.space == "sz-5" and game.invariants() == []


def test_a_transport_loads_in_two_zones_and_unloads(system41):
    """§7.3.6 Loading and Offloading: a transport takes one unit aboard, moves one zone, takes
    another, moves one more zone and puts both ashore; its cargo counts as moved (§7.3.6)."""
    game = until(new_game(system41), "germany", "noncombat-move")
    clear(game, "sz-12", "morocco-algeria")
    put(game, "morocco-algeria", "germany", "armour")
    transport = load(game, "sz-13", "france", "infantry")
    assert transport.space == "sz-13" and [c.type for c in transport.cargo] == ["infantry"]
    move(game, "sz-13", "transport", "sz-12")                  # one zone: it may go on
    assert transport.space == "sz-12" and game.group_tag(transport) == "infantry/1"
    load(game, "sz-12", "morocco-algeria", "armour")
    move(game, "sz-12", "transport", "sz-7", 1, "northwestern-europe")
    landed = [p for p in game.pieces["northwestern-europe"] if p.uid in {
        c.uid for c in game.pieces["northwestern-europe"]} and p.type in ("infantry", "armour")
        and p.came_from == "sz-7"]
    assert sorted(p.type for p in landed) == ["armour", "infantry"]
    assert transport.space == "sz-7" and not transport.cargo and transport.done
    assert not game.pieces["morocco-algeria"] and game.invariants() == []
    assert not game.movable(transport)                     # unloaded: it moves no more


def test_a_full_transport_takes_nothing_more_aboard(system41):
    """§7.3.6 Carry Land Units: one land unit of any kind plus one infantry, no more."""
    game = until(new_game(system41), "germany", "noncombat-move")
    clear(game, "sz-12", "morocco-algeria")
    put(game, "morocco-algeria", "germany", "armour", 2)
    put(game, "morocco-algeria", "germany", "infantry")
    load(game, "sz-13", "france", "armour")
    tag = game.group_tag(game.current_group()[0])
    assert not game.is_legal(("load", "sz-13", "transport", tag, "france", "armour", 1))
    move(game, "sz-13", "transport", "sz-12")
    assert not game.is_legal(("load", "sz-12", "transport", "armour/1", "morocco-algeria",
                              "armour", 1))
    assert not game.is_legal(("load", "sz-12", "transport", "armour/1", "morocco-algeria",
                              "infantry", 2))
    load(game, "sz-12", "morocco-algeria", "infantry")
    loads = [a for a in game.legal_actions() if a[0] == "load"]
    assert loads == [] and game.room_on(game.current_group()[0]) == 0


def test_a_transport_picks_up_on_its_way_to_an_amphibious_assault(system41):
    """§5.4.8: a transport may load where it starts, move one zone into a friendly zone and
    load again; troops loaded in the combat move must land in an assault (note 62)."""
    game = until(new_game(system41), "germany", "combat-move")
    clear(game, "sz-12", "gibraltar", "morocco-algeria")
    put(game, "morocco-algeria", "germany", "armour")
    transport = load(game, "sz-13", "france", "infantry")
    tag = game.group_tag(transport)
    assert tag == "infantry/loaded"
    assert ("hold", "sz-13", "transport", tag) not in game.legal_actions()
    move(game, "sz-13", "transport", "sz-12")
    load(game, "sz-12", "morocco-algeria", "armour")
    move(game, "sz-12", "transport", "sz-12", 1, "gibraltar")
    until(game, "germany", "noncombat-move")
    assert game.control["gibraltar"] == "germany"
    assert sorted(p.type for p in game.pieces["gibraltar"]) == ["armour", "infantry"]
    assert game.invariants() == []


def test_allied_troops_ride_an_allied_transport_over_two_turns(system41):
    """§5.5.4.2 and §7.3.6: American infantry boards a British transport in the American
    turn; the British move it in theirs and may not land it; the Americans land it in
    their next turn."""
    game = until(new_game(system41), "united-states", "noncombat-move")
    (british,) = put(game, "sz-10", "united-kingdom", "transport")
    move(game, "eastern-united-states", "infantry", "sz-10", 1, "board:united-kingdom")
    (rider,) = british.cargo
    assert rider.owner == "united-states" and rider.aboard is british
    assert not game.movable(british)                      # not before the next American turn
    until(game, "united-kingdom", "noncombat-move")
    group = group_of(game, "sz-10", "transport")
    assert group == [british] and game.group_tag(british) == "united-states:infantry"
    assert {t for _, _, targets in game.group_destinations(group).values()
            for t in targets} == {""}                     # the British cannot land it
    move(game, "sz-10", "transport", "sz-8", 1)
    until(game, "united-states", "noncombat-move")
    move(game, "sz-8", "transport", "sz-8", 1, "united-kingdom")
    assert rider.space == "united-kingdom" and rider in game.pieces["united-kingdom"]
    assert british.space == "sz-8" and not british.cargo and game.invariants() == []


def test_an_allied_fighter_on_a_carrier_sails_with_it(system41):
    """§5.4.5, §7.3.2, §5.5.4 (seed 000): a British fighter that lands on an American carrier
    is its cargo: when the Americans move the carrier, the fighter goes with it, and flies on
    from there in the next British turn."""
    game = until(new_game(system41), "united-kingdom", "noncombat-move")
    (carrier,) = put(game, "sz-8", "united-states", "carrier")
    move(game, "united-kingdom", "fighter", "sz-8", 1)
    (fighter,) = [p for p in game.pieces["sz-8"] if p.type == "fighter"]
    until(game, "united-states", "noncombat-move")
    group = group_of(game, "sz-8", "carrier")
    assert group == [carrier] and game.group_tag(carrier) == "united-kingdom:fighter"
    away = next(z for z in game.data.board.neighbours["sz-8"] if z in game.data.board.sea)
    move(game, "sz-8", "carrier", away, 1)
    assert fighter.space == away and fighter in game.pieces[away]
    assert game.invariants() == []
    until(game, "united-kingdom", "combat-move")
    assert fighter.space == away and game.invariants() == []


def test_a_fighter_whose_carrier_is_sunk_defending_lands_one_space_away(system41):
    """§7.3.2 (seed 000): the fighters of a carrier sunk in a defence land on another carrier
    in the zone or fly one space to a friendly territory or carrier, after the attacker's
    battles; otherwise they are lost."""
    game = new_game(system41)
    (carrier,) = put(game, "sz-8", "united-states", "carrier")
    (fighter,) = put(game, "sz-8", "united-kingdom", "fighter")
    (lone,) = put(game, "sz-26", "united-kingdom", "fighter")    # no land, no carrier near
    game.destroy(carrier)
    destroyed = game.destroyed
    until(game, "germany", "noncombat-move")
    assert fighter.space in game.data.board.neighbours["sz-8"]
    assert game.control[fighter.space] == "united-kingdom" and fighter in game.pieces[fighter.space]
    assert not any(lone in found for found in game.pieces.values())
    assert game.destroyed >= destroyed + 1 and game.invariants() == []


def test_an_allied_fighter_sinks_with_the_carrier_it_rides_in_an_attack(system41):
    """§5.4.5: cargo is destroyed with a carrier sunk in its own attack."""
    from engine.aa50 import carriers
    game = until(new_game(system41), "united-states", "combat-move")
    (carrier,) = put(game, "sz-8", "united-states", "carrier")
    (fighter,) = put(game, "sz-8", "united-kingdom", "fighter")
    assert carriers.seat(game, "sz-8", "united-kingdom") == [] and fighter.on_carrier is carrier
    game.destroy(carrier)
    assert fighter not in game.pieces["sz-8"] and game.destroyed == 2


def test_the_invariants_catch_a_fighter_left_behind_by_its_carrier(system41):
    game = until(new_game(system41), "united-states", "combat-move")
    (carrier,) = put(game, "sz-8", "united-states", "carrier")
    put(game, "sz-8", "united-kingdom", "fighter")
    game.pieces["sz-8"].remove(carrier)
    carrier.space = "sz-7"
    game.pieces["sz-7"].append(carrier)
    assert game.invariants() == [
        "united-kingdom has aircraft in sz-8 without a seat on a carrier of its side "
        "(§5.4.5, §7.3.2)"]


def test_transport_room_is_one_unit_and_one_infantry(system41):
    """§7.3.6: a transport carries one land unit of any kind plus one infantry."""
    game = until(new_game(system41), "germany", "combat-move")
    move(game, "france", "armour", "sz-13", 1, "board")
    group = [p for p in game.pieces["france"] if p.type == "infantry"]
    assert game.most_movers(group, "sz-13", "board") == 1


# -- §4 China -------------------------------------------------------------------------------------
def test_china_raises_one_infantry_for_every_two_territories(system41):
    """§4, note 14: 4 or 5 territories give 2 infantry, 6 give 3; placed in Chinese
    territories with fewer than 3 units."""
    from engine.aa50.economy import china_infantry
    game = new_game(system41)
    held = sum(1 for s in game.data.china.territories if game.side(game.control.get(s)) == "allies")
    assert china_infantry(game) == held // 2
    until(game, "china", "mobilize")
    assert game.pool["china"]["infantry"] == held // 2
    assert {a[2] for a in game.legal_actions() if a[0] == "place"} <= set(game.data.china.territories)


def test_chinese_units_stay_in_china(system41):
    """§4: Chinese units move only in China's territories, and into Kwangtung only to retake it."""
    game = until(new_game(system41), "china", "combat-move")
    for space in ("burma", "french-indo-china-thailand", "kwangtung"):
        assert not any(space in game.group_destinations([p]) for p in game.pieces["yunnan"]
                       if p.owner == "china")
    game.control["kwangtung"] = "japan"
    clear(game, "kwangtung")
    china_infantry = [p for p in game.pieces["fukien"] if p.owner == "china"]
    assert "kwangtung" in game.group_destinations(china_infantry)


# -- §5.2 research ------------------------------------------------------------------------------------
def test_research_breakthroughs_change_the_nation_units(system41):
    """§5.2: a six on a research die gives a breakthrough from the chosen chart; Long-range
    Aircraft lets fighters fly 6."""
    for seed in range(1, 60):
        game = until(new_game(system41, seed=seed, research=True), "germany", "research")
        game.apply(("research", 6))
        if game.legal_actions() and game.legal_actions()[0][0] == "chart":
            game.apply(("chart", "chart-2"))
            break
    else:
        pytest.fail("no breakthrough in 59 tries of 6 dice")
    (made,) = game.tech["germany"]
    assert made in {b["id"] for b in game.data.charts[1]["breakthroughs"]}
    assert game.money["germany"] == 31 - 30 and game.tokens["germany"] == 0
    game.tech["germany"] = {"long-range-aircraft"}
    assert game.movement("germany", "fighter") == 6 and game.movement("italy", "fighter") == 4


def test_mechanized_infantry_moves_two_with_a_tank(system41):
    """§5.2.3, chart 1 no. 6 (seed 000): each infantry paired with a tank may move 2 spaces
    with it. Without the breakthrough an infantry beside a tank moves 1."""
    game = until(new_game(system41), "germany", "combat-move")
    tanks = group_of(game, "poland", "armour")
    assert game.group_destinations(tanks)["ukraine"][2] == ("",)
    game.tech["germany"] = {"mechanized-infantry"}
    game.touch()
    assert game.group_destinations(tanks)["ukraine"][2] == ("", "mech")
    assert game.most_movers(tanks, "ukraine", "mech") == 2
    game.apply(("move", "poland", "armour", "", "ukraine", 2, "mech"))
    riders = [p for p in game.pieces["ukraine"] if p.owner == "germany" and p.type == "infantry"]
    assert len(riders) == 2 and all(p.spent == 2 and p.done for p in riders)
    left = [p for p in game.pieces["poland"] if p.type == "infantry"]
    assert len(left) == 2 and game.invariants() == []
    walking = group_of(game, "poland", "infantry")
    assert {to: d for to, (d, _, _) in game.group_destinations(walking).items()} == {
        "baltic-states": 1, "east-poland": 1, "sz-5": 1}


def test_paratroopers_drop_into_the_first_hostile_territory(system41):
    """§5.2.3, chart 1 no. 3 (seed 000): a bomber may carry one infantry; carrying one it stops
    in the first hostile territory it enters, drops it there and still attacks; it may not
    raid that turn. Belorussia lies behind hostile territory from Germany: no drop there."""
    game = until(new_game(system41), "germany", "combat-move")
    game.tech["germany"] = {"paratroopers"}
    game.touch()
    bombers = group_of(game, "germany", "bomber")
    found = game.group_destinations(bombers)
    assert "drop" in found["karelia-ssr"][2] and "drop" in found["baltic-states"][2]
    assert found["belorussia"][2] == ("",) and found["eastern-ukraine"][2] == ("",)
    game.apply(("move", "germany", "bomber", "", "baltic-states", 1, "drop"))
    (bomber,) = [p for p in game.pieces["baltic-states"] if p.type == "bomber"]
    (para,) = [p for p in game.pieces["baltic-states"] if p.owner == "germany"
               and p.type == "infantry"]
    assert bomber.target is None and para.done and para.spent == 2
    assert sum(p.type == "infantry" for p in game.pieces["germany"]) == 2
    assert game.invariants() == []
    game.tech["germany"] = set()
    game.touch()
    assert game.invariants() == [f"{para} moved 2 spaces this turn, more than its movement "
                                 "or what carried it allows"]


def test_without_paratroopers_a_bomber_carries_nobody(system41):
    game = until(new_game(system41), "germany", "combat-move")
    bombers = group_of(game, "germany", "bomber")
    assert not any("drop" in targets for _, _, targets in game.group_destinations(bombers).values())
    assert not game.is_legal(("move", "germany", "bomber", "", "baltic-states", 1, "drop"))


# -- §5.5.3.9 victory ---------------------------------------------------------------------------------
def test_victory_is_checked_at_the_end_of_the_round_with_the_chosen_threshold(system41):
    """§5.5.3.9 and §6: a side holding the chosen number of victory cities at the end of a
    round wins (13 Projection, 15 Surrender with Honor, 18 Total War)."""
    game = new_game(system41, victory="projection")
    for city in ("eastern-canada", "kwangtung", "philippine-islands", "hawaiian-islands",
                 "caucasus", "karelia-ssr", "india"):
        game.control[city] = "germany"
    assert game.victory_city_counts()["axis"] == 13
    until(game, "united-states", "purchase")
    while not game.is_terminal():
        game.apply(game.legal_actions()[0])
    result = game.result()
    assert (result.winner, result.reason, result.round) == ("axis", "victory-cities", 1)


def test_a_game_stops_at_the_round_limit(system41):
    game = system41.new_game({"victory": "total-war"}, np.random.default_rng(3), 2)
    while not game.is_terminal():
        game.apply(game.legal_actions()[0])
    assert (game.result().winner, game.result().reason, game.result().round) == \
        (None, "round-limit", 2)
    assert len(game.chronicle.series["income"]["germany"]) == 2
