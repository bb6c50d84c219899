"""The AA50 heuristic player in positions where it used to throw the game away: transports
left alone where the enemy sinks them, money left unspent, troops loaded in the combat move
sent against hopeless odds, aircraft sent against submarines they cannot hit, Japan idle
against China, and victory cities left empty.

Positions are set up on real games of the bundled scenarios as in test_aa50_game.py.
"""
from __future__ import annotations

import numpy as np
import pytest
from test_aa50_game import clear, new_game, put, recount, until
from test_aa50_heuristic import play_phase

from engine.aa50 import economy
from engine.aa50.estimate import win_chance
from engine.aa50.heuristic import SAFE_ODDS, CombatPlan, Survey, landing_risks, sea_defence, sea_distances
from engine.options import SettingError
from engine.players import check_spec, make_player
from engine.system import load_system
from sandtable.scenario import load_scenario

from helpers import REPO

SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="module")
def system42():
    return load_system(load_scenario(SCENARIOS / "aa50-1942"))


def play_turn(game, system, nation):
    """The heuristic plays `nation`'s whole turn from here; returns its actions."""
    player = make_player("heuristic", system, game.side(nation), np.random.default_rng(1))
    actions = []
    while game.current_player == nation:
        actions.append(player.choose(game))
        game.apply(actions[-1])
    return actions


def lone_and_in_reach(game, side):
    """The side's transports with no warship of the side beside them in a zone that an enemy
    warship (within its move by sea) or aircraft (within its move less one, to land again)
    could strike next turn."""
    board, types = game.data.board, game.data.types
    sea = sea_distances(board)
    strikers = [(space, p) for space, found in game.pieces.items() for p in found
                if game.side(p.owner) != side and types[p.type].domain in ("sea", "air")
                and not types[p.type].capacity]
    found = []
    for zone in sorted(board.sea):
        transports = [p for p in game.pieces[zone] if game.side(p.owner) == side
                      and types[p.type].capacity]
        escorted = any(game.side(p.owner) == side and types[p.type].domain in ("sea", "air")
                       and not types[p.type].capacity for p in game.pieces[zone])
        if not transports or escorted:
            continue
        for space, piece in strikers:
            reach = game.movement(piece.owner, piece.type)
            if types[piece.type].domain == "air":
                near = board.distance(space, zone) <= reach - 1
            else:
                near = sea[space].get(zone, 99) <= reach
            if near:
                found += transports
                break
    return found


# -- transports ------------------------------------------------------------------------------------
def test_japan_places_no_transport_where_a_bomber_sinks_it(system42):
    """1942, round 1: Japan bought four transports and placed them alone off Tokyo (sz-62), in
    reach of the American bomber that sank them; now every Japanese transport ends the turn
    beside a warship or out of every Allied ship's and aircraft's reach."""
    game = new_game(system42)
    play_turn(game, system42, "japan")
    japanese = [p for found in game.pieces.values() for p in found
                if p.owner == "japan" and p.type == "transport"]
    assert japanese
    assert lone_and_in_reach(game, "axis") == []


def test_an_empty_transport_leaves_a_zone_the_enemy_can_strike(system42):
    """An empty German transport alone in the Bay of Biscay (sz-13), next to British fighters and
    bombers, sails in the noncombat move to the Baltic (sz-5), where the German fleet is,
    instead of waiting there to be sunk."""
    game = until(new_game(system42), "germany", "noncombat-move")
    (transport,) = put(game, "sz-13", "germany", "transport")
    play_phase(game, system42, "axis")
    assert transport.space != "sz-13"
    assert transport not in lone_and_in_reach(game, "axis")


def test_transports_left_behind_when_one_fetches_troops_are_sheltered_too(system42):
    """Four empty Japanese transports and their one destroyer in the Celebes Sea (sz-49), in
    reach of a British carrier (sz-37); Japanese troops wait on New Guinea, by the next zone
    (sz-48). One transport goes for them, and the destroyer with it to where that one is safe;
    the other three used to stay behind, alone where the carrier sinks them (a 1942 game lost
    thirteen transports so, round 12). Now the rest of the group is sheltered as well."""
    game = until(new_game(system42), "japan", "noncombat-move")
    clear(game, "sz-49")
    transports = put(game, "sz-49", "japan", "transport", 4)
    (destroyer,) = put(game, "sz-49", "japan", "destroyer")
    put(game, "new-guinea", "japan", "infantry", 3)
    put(game, "sz-37", "united-kingdom", "carrier")
    survey = Survey(game, "japan")
    assert not survey.safe_at_sea("sz-49") and not survey.safe_at_sea("sz-48")
    play_phase(game, system42, "axis")
    assert lone_and_in_reach(game, "axis") == []
    assert {p.space for p in transports} == {destroyer.space} != {"sz-49"}


def test_aircraft_that_fly_home_are_not_counted_as_the_transports_guard(system42):
    """Two loaded American transports off Eastern US (sz-10) sail toward Britain; three
    American bombers sit in sz-12 after their combat, where one German bomber can strike. The
    bombers made sz-12 look safe, though they fly on to land (§5.6.1.2): the transports waited there
    alone and the German bomber sank them (a 1942 game, round 2). Now a zone's guard
    is the ships that stay, and the transports end where the German bomber cannot reach them."""
    game = until(new_game(system42), "united-states", "noncombat-move")
    clear(game, "sz-10", "sz-12")
    for found in game.pieces.values():
        for piece in list(found):
            if game.side(piece.owner) == "axis" and game.data.types[piece.type].domain in ("air", "sea"):
                found.remove(piece)
    put(game, "germany", "germany", "bomber")
    transports = put(game, "sz-10", "united-states", "transport", 2)
    for transport in transports:
        for kind in ("infantry", "armour"):
            piece = game.new_piece("united-states", kind, "sz-10")
            game.pieces["sz-10"].remove(piece)            # cargo is not in its zone's list
            piece.aboard = transport
            transport.cargo.append(piece)
    bombers = put(game, "sz-12", "united-states", "bomber", 3)
    recount(game)
    play_phase(game, system42, "allies")
    assert all(bomber.space in game.data.board.land for bomber in bombers)
    assert all(transport.space != "sz-10" for transport in transports)     # they did sail
    assert lone_and_in_reach(game, "allies") == []


def test_a_fighter_lands_on_the_carrier_that_guards_transports_which_cannot_leave(system42):
    """A British transport that landed its troops stays in its zone (§7.3.6) off the Belgian
    Congo (sz-23) beside a carrier, with the Axis aircraft and ships in reach that would sink
    both; two fighters in the Belgian Congo could stay where they are. The fewest of them that
    make the zone safe, one, land on the carrier (§5.6.1.2): the transport no longer waits
    alone in reach of a strike it would lose, and the other fighter is not risked for nothing."""
    game = until(new_game(system42), "united-kingdom", "noncombat-move")
    clear(game, "sz-23", "sz-12")                # no British warship left that could escort it
    (transport,) = put(game, "sz-23", "united-kingdom", "transport")
    (carrier,) = put(game, "sz-23", "united-kingdom", "carrier")
    transport.done = carrier.done = True          # it unloaded in the combat move
    fighters = put(game, "belgian-congo", "united-kingdom", "fighter", 2)
    assert not Survey(game, "united-kingdom").safe_at_sea("sz-23")
    play_phase(game, system42, "allies")
    assert sorted(f.space for f in fighters) == ["belgian-congo", "sz-23"]
    assert Survey(game, "united-kingdom").safe_at_sea("sz-23")


def test_a_search_weighs_sending_the_fleet_to_transports_it_cannot_make_safe(system42):
    """A British transport that landed its troops must stay off the Belgian Congo (sz-23,
    §7.3.6), in reach of an Axis bomber; the one destroyer that could join it (sz-22) would not
    make it safe, so the heuristic keeps the destroyer out of a battle it would likely lose.
    With the transport left exposed, the plans a search weighs add one where the destroyer
    joins it anyway (a strike then costs more, and an enemy that attacks only at good odds
    may leave it be): the look-ahead decides."""
    game = until(new_game(system42), "united-kingdom", "noncombat-move")
    clear(game, "sz-23", "sz-12")
    (transport,) = put(game, "sz-23", "united-kingdom", "transport")
    transport.done = True
    put(game, "sz-22", "united-kingdom", "destroyer")
    survey = Survey(game, "united-kingdom")
    assert survey.sea_danger("sz-23") and not survey.safe_at_sea("sz-23")
    plans = make_player("heuristic", system42, "allies", np.random.default_rng(1)).plans(game)
    assert [p.label for p in plans] == ["noncombat: own", "noncombat: fleet with the transports"]
    own, fleet = (p.content["moves"] for p in plans)
    assert ("sz-22", "destroyer") not in own
    assert fleet.pop(("sz-22", "destroyer")) == [("sz-23", 1, "")]
    assert fleet == own                      # nothing else changes


def attacked(game, plan) -> set[str]:
    """The territories and zones a combat-move plan attacks: a landing's target, and spaces
    moved into that hold the enemy or are its territory (not a ship's move to join others)."""
    found = set()
    side = game.side(game.seat)
    for (_space, _type), entries in plan.content["moves"].items():
        for to, _count, target in entries:
            if target and target != "board":
                found.add(target)
            elif not target and (any(game.side(p.owner) != side for p in game.pieces[to])
                                 or (to in game.control and game.side(game.control[to]) != side)):
                found.add(to)
    return found


def test_a_search_weighs_the_attacks_without_a_landing_that_leaves_its_transport_exposed(system42):
    """1942, round 1: a Japan that counts a quarter of an exposed transport's cost lands two
    infantry, with a fighter, on the three Soviet infantry in Buryatia from sz-62, where the
    transport must stay after the landing (§7.3.6), in reach of two Allied fighters and a
    bomber. The plans a search weighs include the same attacks without that landing, so the
    look-ahead, not a fixed weight, decides whether the transport is worth the landing."""
    game = until(new_game(system42), "japan", "combat-move")
    plans = make_player("heuristic:landing-risk=0.25", system42, "axis",
                        np.random.default_rng(1)).plans(game)
    labels = [p.label for p in plans]
    own = plans[0]
    sheltered = plans[labels.index("attacks: sheltered landings")]
    assert "buryatia-ssr" in attacked(game, own)
    assert attacked(game, sheltered) == attacked(game, own) - {"buryatia-ssr"}
    assert not any(target == "buryatia-ssr" for entries in sheltered.content["moves"].values()
                   for _to, _count, target in entries)


@pytest.mark.parametrize("risk, lands", [(0.0, True), (0.25, True), (0.5, True), (1.0, False)])
def test_the_landing_risk_setting_prices_the_transport_a_landing_leaves_exposed(system42, risk, lands):
    """The same round-1 Buryatia landing (§7.3.6: the transport stays in sz-62, in reach of
    the Allied aircraft). It wins about 5.8 IPC (a 75% chance of killing 7 IPC of Soviet
    infantry and of taking the territory for a round, less the troops likely lost to the
    Soviet strike back) against 2.2 of expected losses: `landing-risk` is the share of the
    exposed transport's 7 IPC the landing must be worth besides, so it lands at half of it,
    and not at the default, the whole cost (a transport left alone is sunk without a fight,
    §5.5.3.2)."""
    game = until(new_game(system42), "japan", "combat-move")
    player = make_player(f"heuristic:landing-risk={risk}", system42, "axis", np.random.default_rng(1))
    own = player.plans(game)[0]
    assert ("buryatia-ssr" in attacked(game, own)) is lands
    assert {"india", "suiyuan", "yunnan", "sz-53"} <= attacked(game, own)


@pytest.mark.parametrize("spec, lands", [
    ("heuristic:landing-risk=0.25,landing-risk-of=japan:1", False),
    ("heuristic:landing-risk-of=japan:0.25", True),
    ("heuristic:landing-risk=0.25,landing-risk-of=germany:1+italy:1", True),
])
def test_a_nation_may_price_its_exposed_transports_apart_from_its_side(system42, spec, lands):
    """`landing-risk-of` sets one nation's share in place of the side's: the round-1 Buryatia
    landing is Japan's, so Japan's own share decides it, whatever the side's and the other
    Axis nations' are."""
    game = until(new_game(system42), "japan", "combat-move")
    player = make_player(spec, system42, "axis", np.random.default_rng(1))
    assert ("buryatia-ssr" in attacked(game, player.plans(game)[0])) is lands


def test_a_landing_is_worth_the_rounds_its_troops_can_hold_the_shore():
    """1941, round 1: three Japanese infantry landed on Borneo or the East Indies defend with
    more than all the Allies could strike those islands with next turn (an expected 1 hit a
    round against 0.83), and win their income for four rounds; in Alaska the United States
    could strike with more than twice what they defend with (4.5 hits a round), and they win
    one round of it. A far shore the enemy can mass against is worth little more than the
    round it is held."""
    system41 = load_system(load_scenario(SCENARIOS / "aa50-1941"))
    game = until(new_game(system41), "japan", "combat-move")
    player = make_player("heuristic", system41, "axis", np.random.default_rng(1))
    player.survey = Survey(game, "japan")
    plan = CombatPlan(player, game, player.options["odds"])
    infantry = [p for found in game.pieces.values() for p in found
                if p.owner == "japan" and p.type == "infantry"][:3]
    held = {shore: plan._rounds_held(shore, infantry, 0.0)
            for shore in ("borneo", "east-indies", "alaska")}
    assert held == {"borneo": 4.0, "east-indies": 4.0, "alaska": 1.0}
    # a landing that loses its troops holds nothing beyond the round it is fought in
    assert plan._rounds_held("borneo", infantry, 9.0) == 1.0


def test_an_ally_s_transports_are_guarded_where_the_fleet_makes_them_safe(system42):
    """1942, Italy's noncombat move: three loaded German transports lie alone in sz-13, the
    Italian battleship and two cruisers one zone away in sz-14, and the only Allied unit that
    could strike sz-13 before Germany moves again is one British bomber. The German transports
    cannot move on Italy's turn, and transports alone are sunk without a fight (§5.5.3.2), so
    the Italian fleet joins them, where it makes them safe; it used to stay in sz-14, and in
    the games of that version such transports sat alone under the bomber once the Italian
    fleet left them (one game lost sixteen loaded German transports to one American bomber in
    round 14)."""
    game = until(new_game(system42), "italy", "noncombat-move")
    clear(game, "sz-13")
    for found in game.pieces.values():
        for piece in list(found):
            if game.side(piece.owner) == "allies" and game.data.types[piece.type].domain in ("air", "sea"):
                found.remove(piece)
    put(game, "united-kingdom", "united-kingdom", "bomber")
    for transport in put(game, "sz-13", "germany", "transport", 3):
        for type_ in ("infantry", "armour"):
            game.new_piece("germany", type_, "sz-13", aboard=transport)
    recount(game)
    actions = play_phase(game, system42, "axis")
    assert ("move", "sz-14", "battleship", "", "sz-13", 1, "") in actions
    assert ("move", "sz-14", "cruiser", "", "sz-13", 2, "") in actions
    assert lone_and_in_reach(game, "axis") == []


def test_an_ally_s_fleet_guards_a_transport_only_until_the_ally_moves(system42):
    """1942, Germany's noncombat move: a German transport alone in sz-13, and the only Allied
    unit that could strike the seas around it an American bomber. In sz-14 the Italian fleet
    would beat the bomber, but Italy moves before the United States (§5, the 1942 order of
    play: Germany, United Kingdom, Italy, United States), and a fleet that sails on Italy's turn leaves the
    transport alone, to be sunk without a fight (§5.5.3.2); so sz-14 is not safe for Germany's
    transport, and it sails with the German cruiser out of the bomber's reach instead. It used
    to join the Italian fleet: in the games of that version a German transport was sunk so by
    an American bomber in round 1 of about a third of the 1942 games."""
    game = until(new_game(system42), "germany", "noncombat-move")
    clear(game, "sz-13", "sz-16")
    for found in game.pieces.values():
        for piece in list(found):
            domain = game.data.types[piece.type].domain
            if (game.side(piece.owner) == "allies" and domain in ("air", "sea")) \
                    or (piece.owner == "germany" and domain == "sea"):
                found.remove(piece)
    put(game, "eastern-united-states", "united-states", "bomber")
    (transport,) = put(game, "sz-13", "germany", "transport")
    put(game, "sz-16", "germany", "cruiser")
    recount(game)
    survey = Survey(game, "germany")
    assert win_chance(survey.sea_danger("sz-14"), sea_defence(game, "sz-14", "germany")) < SAFE_ODDS
    assert survey.enemies_after("italy") == {"united-states", "china", "soviet-union"}
    assert not survey.safe_at_sea("sz-14")
    play_phase(game, system42, "axis")
    assert transport.space not in ("sz-13", "sz-14")
    assert survey.safe_at_sea(transport.space)
    assert any(p.owner == "germany" and p.type == "cruiser" for p in game.pieces[transport.space])


def american_troops_off_the_balkans(system42):
    """1942, the United States' first combat move: two American transports in sz-14, each with
    an infantry and an artillery aboard, beside an empty Balkans, with the German and Italian
    armies and air forces in reach of it and Ukraine, the other shore they reach through the
    Black Sea (sz-16), held by ten German infantry and an armour."""
    game = until(new_game(system42), "united-states", "combat-move")
    clear(game, "balkans", "sz-14")
    put(game, "ukraine", "germany", "infantry", 8)
    for transport in put(game, "sz-14", "united-states", "transport", 2):
        for type_ in ("infantry", "artillery"):
            game.new_piece("united-states", type_, "sz-14", aboard=transport)
    recount(game)
    return game


def test_troops_are_not_landed_where_the_enemy_destroys_them_next_turn(system42):
    """The Balkans are free for the taking, but everything Germany and Italy could strike them
    with next turn (11.5 hits a round) is more than eight times what the four landed units
    defend with (1.33): the landing wins one round of the Balkans' income and throws away 14
    IPC of troops in an amphibious assault (§5.4.3) that takes nothing from the enemy. Even
    with the transports priced at nothing (`landing-risk=0`), no troops land there; they used
    to."""
    game = american_troops_off_the_balkans(system42)
    player = make_player("heuristic:landing-risk=0", system42, "allies", np.random.default_rng(1))
    plan = player.plans(game)[0]
    assert "balkans" not in attacked(game, plan)
    assert {"morocco-algeria", "sz-8", "sz-13"} <= attacked(game, plan)


def test_the_troops_a_landing_throws_away_are_priced_by_the_strike_they_face(system42):
    """What the four landed units cost when the enemy strikes them next turn, less what they
    take with them (their 1.33 hits a round against the strike's): all of their 14 IPC as
    likely lost in the Balkans (11.5 hits), at 1 - 1.33/11.5 of it; nothing in the Hawaiian
    Islands, where all Japan could strike with (1.17) is less than they defend with; part of
    it in Wake Island (2 hits: lost at even odds, at a third of their cost)."""
    game = american_troops_off_the_balkans(system42)
    player = make_player("heuristic", system42, "allies", np.random.default_rng(1))
    player.survey = Survey(game, "united-states")
    plan = CombatPlan(player, game, player.options["odds"])
    troops = [piece for transport in game.pieces["sz-14"] for piece in transport.cargo]
    lost = {shore: plan._survivors_lost(shore, troops, 0.0)
            for shore in ("balkans", "hawaiian-islands", "wake-island")}
    assert lost == pytest.approx({"balkans": 14 * (1 - (4 / 3) / 11.5), "hawaiian-islands": 0.0,
                                  "wake-island": 0.5 * 14 * (1 - (4 / 3) / 2)})
    # troops that all die in the landing leave nothing for the enemy to destroy
    assert plan._survivors_lost("balkans", troops, 14.0) == 0.0


@pytest.mark.parametrize("text, message", [
    ("japn:1", "landing-risk-of: no nation 'japn' in this scenario (nations: china, germany, "
               "italy, japan, soviet-union, united-kingdom, united-states)"),
    ("japan", "landing-risk-of='japan': expected NATION:X with X from 0 to 4, several joined "
              "by + (japan:1+italy:0.25)"),
    ("japan:5", "landing-risk-of='japan:5': expected NATION:X"),
    ("japan:nan", "landing-risk-of='japan:nan': expected NATION:X"),
    (":1", "landing-risk-of=':1': expected NATION:X"),
])
def test_a_wrong_landing_risk_of_is_refused_before_a_game_is_played(system42, text, message):
    with pytest.raises(SettingError) as raised:
        check_spec(f"heuristic:landing-risk-of={text}", system42)
    assert str(raised.value).startswith(message)


def test_landing_risks_reads_each_nation_once():
    assert landing_risks("") == {}
    assert landing_risks("japan:1+italy:0.25") == {"japan": 1.0, "italy": 0.25}
    assert landing_risks(" japan : 1 + japan:2 ") == {"japan": 2.0}


# -- money -----------------------------------------------------------------------------------------
def test_a_rich_britain_spends_its_money_and_buys_a_factory(system42):
    """The United Kingdom with 144 IPCs and one factory of 8 used to buy more units than its
    factory could place (they waited in the pool, turn after turn) and keep most of the
    money; now it buys no more than the factory places, the best units for the money, and a
    second factory with what is left, placed in a territory worth 2 or more it held since the
    turn began."""
    game = until(new_game(system42), "united-kingdom", "purchase")
    game.money["united-kingdom"] = 144
    room = sum(game.data.board.value[s] for s, f in game.factories.items()
               if game.control[s] == "united-kingdom")
    assert room == 8
    bought = play_phase(game, system42, "allies")
    units = sum(a[2] for a in bought if a[0] == "buy" and a[1] != "factory")
    assert units == room and ("buy", "factory", 1) in bought
    assert game.money["united-kingdom"] < 144 // 3
    until(game, "united-kingdom", "mobilize")
    before = set(game.factories)
    play_phase(game, system42, "allies")
    assert sum(game.pool["united-kingdom"].values()) == 0
    (site,) = set(game.factories) - before
    assert game.control[site] == "united-kingdom" and game.data.board.value[site] >= 2


def test_troops_by_a_coastal_factory_cut_off_by_sea_are_counted_once_for_transports(system42):
    """Eastern United States has a coastal factory and no road to the enemy: its troops were
    counted twice (once by the factory, once again as cut off by sea), so the United States
    bought a transport for every troop there, round after round (a 1942 game kept 21 empty
    transports in sz-10 until an Italian battleship sank them all). Now 12 infantry there and
    no transport anywhere make 6 transports, one for every two troops (a transport carries one
    land unit and one infantry, §7.3.6)."""
    game = until(new_game(system42), "united-states", "purchase")
    types = game.data.types
    for found in game.pieces.values():
        for piece in [p for p in found if p.owner == "united-states"
                      and (types[p.type].domain == "land" or types[p.type].capacity)]:
            found.remove(piece)
    put(game, "eastern-united-states", "united-states", "infantry", 12)
    game.money["united-states"] = 120
    bought = play_phase(game, system42, "allies")
    assert [a for a in bought if a[:2] == ("buy", "transport")] == [("buy", "transport", 6)]


def test_a_factory_repaired_is_filled_in_the_same_purchase(system42):
    """The Soviet factory in Russia (worth 6) bombed to 6 damage, with 28 IPCs: the purchase
    repaired it and counted the room it had before the repair (a 1942 game bought nothing so and
    kept 22 IPCs idle), though a repair takes effect at once (§5.3.2). Now it fills the room the
    repair gives back, as far as the money goes, and no money that could buy a unit is left."""
    game = until(new_game(system42), "soviet-union", "purchase")
    room = sum(economy.factory_rooms(game, "soviet-union").values())   # undamaged: Russia's 6 and more
    infantry = game.cost("soviet-union", "infantry")
    game.damage["russia"] = 6
    game.money["soviet-union"] = 28
    noted = len(game.chronicle.blunders)
    bought = play_phase(game, system42, "allies")
    assert ("repair", "russia", 6) in bought
    assert sum(a[2] for a in bought if a[0] == "buy") == min(room, (28 - 6) // infantry)
    assert economy.idle_money(game, "soviet-union") == 0
    assert not [b for b in game.chronicle.blunders[noted:] if b[1] == "unspent"]


def test_increased_factory_production_is_counted_in_repairs_and_room(system42):
    """With Increased Factory Production an IPC removes two damage markers (§5.3.2) and each
    factory mobilizes two more units (§5.2.3): the purchase counted a marker an IPC and the printed
    value alone, so it kept money for repairs it did not pay for and left room unused. Now it
    reads both from the rules: with 80 IPCs it repairs Russia's six markers (three IPCs) and
    buys units beyond the territories' printed values, with no money left that could buy one."""
    game = until(new_game(system42), "soviet-union", "purchase")
    game.tech["soviet-union"].add("increased-factory-production")
    game.damage["russia"] = 6
    game.money["soviet-union"] = 80
    noted = len(game.chronicle.blunders)
    bought = play_phase(game, system42, "allies")
    assert ("repair", "russia", 6) in bought
    assert sum(a[2] for a in bought if a[0] == "buy") > 6 + 4 + 2     # beyond the printed values
    assert economy.idle_money(game, "soviet-union") == 0
    assert not [b for b in game.chronicle.blunders[noted:] if b[1] == "unspent"]


# -- forced assaults -------------------------------------------------------------------------------
def test_troops_that_must_land_go_where_the_odds_are_best(system42):
    """Three German transports east of Suez (sz-15) with troops taken aboard this turn, which
    must land (§5.4.8); Egypt beside them is empty, and the German tank in Libya takes it
    first. The transports' plan to land there falls through: they used to go to the most
    valuable shore still in reach, the Caucasus and its 30 Soviet infantry; now to the one
    where the odds are best, Gibraltar and its one British infantry."""
    game = until(new_game(system42), "germany", "combat-move")
    clear(game, "sz-15", "sz-14", "sz-16", "sz-13", "egypt", "trans-jordan", "caucasus",
          "gibraltar", "libya")
    put(game, "libya", "germany", "armour")
    put(game, "caucasus", "soviet-union", "infantry", 30)
    put(game, "trans-jordan", "united-kingdom", "infantry", 30)
    put(game, "gibraltar", "united-kingdom", "infantry")
    transports = []
    for _ in range(3):
        (transport,) = put(game, "sz-15", "germany", "transport")
        transports.append(transport)
        for type_ in ("infantry", "artillery"):
            cargo = game.new_piece("germany", type_, "sz-15", aboard=transport)
            cargo.loaded_now = cargo.done = True
        transport.loaded_now = True
    recount(game)
    play_phase(game, system42, "axis")
    assert game.control["egypt"] == "germany"
    assert {p.target for p in transports} == {"gibraltar"}


# -- aircraft and submarines -----------------------------------------------------------------------
def test_no_aircraft_attack_a_lone_submarine_without_a_destroyer(system42):
    """§7.3.4: aircraft cannot hit a submarine unless a destroyer of theirs is in the battle.
    1942, round 1: Soviet aircraft used to fly against the lone German submarines off Britain
    (sz-7, sz-8); now no aircraft flies to a zone where only submarines wait without a
    destroyer going too."""
    nation, zones = "soviet-union", ("sz-7", "sz-8")
    game = until(new_game(system42), nation, "combat-move")
    for zone in zones:
        assert all(game.data.types[p.type].has("submerge")
                   for p in game.pieces[zone] if game.side(p.owner) != game.side(nation))
    play_phase(game, system42, game.side(nation))
    types = game.data.types
    for zone in zones:
        attackers = [p for p in game.pieces[zone] if p.owner == nation]
        assert not any(types[p.type].domain == "air" for p in attackers) or \
            any(types[p.type].has("anti_submarine") for p in attackers)


# -- Japan and China, victory cities ----------------------------------------------------------------
def test_japan_attacks_china_in_round_one_and_holds_hong_kong(system42):
    """1942, round 1: Japan used to keep every army in China at home against the Chinese
    infantry next door, and marched Kwangtung's (Hong Kong's) garrison away; now it attacks
    Chinese territories and Kwangtung keeps a defender."""
    game = new_game(system42)
    china = game.data.china.territories
    actions = play_turn(game, system42, "japan")
    assert [a for a in actions if a[0] == "fight" and a[1] in china] or any(
        b[2] == "japan" and b[1] in china for b in game.chronicle.battles)
    assert [p for p in game.pieces["kwangtung"] if p.owner == "japan"
            and game.data.types[p.type].domain == "land"]


def test_germany_leaves_no_victory_city_empty_within_reach_of_a_landing(system42):
    """Paris (France) with British troops waiting by a transport across the Channel (sz-7):
    Germany's noncombat move used to march France's army east and leave it empty; now one
    defender stays."""
    game = until(new_game(system42), "germany", "noncombat-move")
    clear(game, "sz-7", "france")
    put(game, "france", "germany", "infantry", 2)
    put(game, "france", "germany", "armour", 1)
    put(game, "sz-7", "united-kingdom", "transport")
    play_phase(game, system42, "axis")
    assert [p for p in game.pieces["france"] if p.owner == "germany"
            and game.data.types[p.type].domain == "land"]
