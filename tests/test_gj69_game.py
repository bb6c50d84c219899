"""GJ69 whole games: the turn, the cards, movement, supply, control and victory points, each
against its section of the rulebook (shared/seeds/001_22ef6fcead1126a7.txt).

Positions are the scenario's set-up (§3.0), changed where a test needs it; hands are chosen by
the test (§5.1), so that a game goes exactly where the test leads it.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import EngineError, load_system
from engine.game import IllegalAction
from engine.gj69.cards import EXECUTED_OPS, order_of
from engine.gj69.damage import READY, USED
from sandtable.scenario import load_scenario
from validators.schema import discriminator_values

SCENARIO = Path(__file__).parent.parent / "scenarios" / "gj69-southern-operation"
JAPAN = ["j01", "j03", "j07", "j12", "j13", "j14", "j16"]
ALLIES = ["a07", "a09", "a11", "a14", "a16"]


@pytest.fixture(scope="module")
def gj69():
    return load_system(load_scenario(SCENARIO))


def new(gj69, seed: int = 1, **options):
    return gj69.new_game(options, np.random.default_rng(seed))


def deal(game, japan=JAPAN, allies=ALLIES):
    """Both sides choose their hands (§5.1): Japan first, then the Allies."""
    for card in japan:
        game.apply(("take", card))
    for card in allies:
        game.apply(("take", card))


def play(game, *actions):
    for action in actions:
        game.apply(action)


def clear(game, area: str) -> None:
    game.forces.clear(area)


def put(game, area: str, unit: str, n: int = 1, face: str = READY) -> None:
    game.forces.add(area, unit, face, n)
    game.counters[unit] = game.counters.get(unit, 0) + n


def units(game, area: str, side: str | None = None) -> dict:
    return {(u, f): n for u, f, n in game.forces.stacks(area, side)}


# -- the turn (§4.0) and the hands (§5) --------------------------------------------------------------
def test_hands_of_seven_and_five_from_own_decks_5_1(gj69):
    """§5.1: Japan chooses 7 of its 16 cards, then the Allies 5 of theirs; §2.3: a side plays
    only its own deck's cards."""
    game = new(gj69)
    assert (game.phase, game.current_player) == ("choose-cards", "japan")
    assert {a[1][0] for a in game.legal_actions()} == {"j"} and len(game.legal_actions()) == 16
    with pytest.raises(IllegalAction):
        game.apply(("take", "a07"))
    deal(game)
    assert len(game.decks["japan"].hand) == 7 and len(game.decks["allies"].hand) == 5
    assert (game.phase, game.current_player) == ("impulses", "japan")
    assert all(a[1].startswith("j") for a in game.legal_actions() if a[0] in ("normal", "play"))
    assert not game.invariants()


def test_two_passes_in_a_row_end_the_turn_and_cards_return_4_0(gj69):
    """§4.0(3): the turn ends when both pass in a row; §4.0(4)③: unused cards go back to the
    deck, so each turn starts from 16 cards (cards removed after use stay out)."""
    game = new(gj69)
    deal(game)
    play(game, ("play", "j12", ""))           # YES or NO? is removed after use (§19)
    if game.step == "roll-to-remove":
        game.apply(game.legal_actions()[0])
    while game.step in ("remove",):
        game.apply(game.legal_actions()[0])
    game.apply(("pass",))                     # the Allies
    assert game.round == 1 and game.current_player == "japan"    # one pass is not enough
    game.apply(("pass",))
    assert (game.round, game.phase) == (2, "choose-cards")
    assert len(game.decks["japan"].pile) == 15 and game.decks["japan"].gone == ["j12"]
    assert len(game.decks["allies"].pile) == 16


def test_a_side_without_cards_or_ready_air_units_passes_by_itself_4_0_3(gj69):
    game = new(gj69)
    deal(game)
    game.decks["allies"].hand = []
    game.deck_cards["allies"] = game.decks["allies"].all_cards()
    for area in game.board.ids:
        for unit, face, n in game.forces.stacks(area, "allies"):
            if game.profiles[unit].flies and face == READY:
                game.forces.turn(area, unit, USED, n)
    play(game, ("air",), ("area", "taiwan"), ("add", "ijn-af-taiwan", READY), ("done",),
         ("air-move", "canton"))
    # the Allies could do nothing: their impulse passed by itself, and Japan is asked again
    assert (game.current_player, game.step, game.round) == ("japan", "impulse", 1)
    game.apply(("pass",))          # the second pass in a row
    assert game.round == 2


def test_the_game_ends_at_the_last_turn_17_1(gj69):
    """§4.0: 8 turns; §17.1: 9 with the longer game, 7 with the shorter one."""
    assert new(gj69).last_turn == 8
    assert new(gj69, longer_game=True).last_turn == 9
    assert new(gj69, shorter_game=True).last_turn == 7
    assert new(gj69, last_turn=9).last_turn == 9
    with pytest.raises(EngineError, match="lasts 7 or 8 or 9 turns"):
        new(gj69, last_turn=10)
    with pytest.raises(EngineError, match="different game lengths"):
        new(gj69, longer_game=True, shorter_game=True)
    with pytest.raises(EngineError, match="unknown GJ69 game setting 'fortress'"):
        new(gj69, fortress=True)
    game = new(gj69, shorter_game=True)
    while not game.is_terminal():
        game.apply(("pass",) if ("pass",) in game.legal_actions() else game.legal_actions()[0])
    assert game.result().round == 7 and game.result().reason == "victory-points"


# -- movement (§7) ----------------------------------------------------------------------------------------
def test_movement_costs_and_sea_border_limits_7_1_7_3(gj69):
    """§7.1(2): entering an enemy area costs 1 more, leaving an area with enemy units 1 more;
    §7.3(1): across a sea-area border land units move at most 2, at most 2 in a group."""
    game = new(gj69)
    m, forces = game.movement, game.forces
    two = m.mover("japan", [("ija-25a-infantry", 2)])
    # the Coast of Malay holds British ships: to Malay costs 1 + 1 + 1 = 3, over the cap of 2
    reach = m.destinations(forces, two, "coast-of-malay")
    assert "malay" not in reach and reach["cambodia"] == 2
    # Independent Units (§19): movement 3 and no cap
    single = m.mover("japan", [("ija-25a-infantry", 1)], 3, sea_limits=False)
    assert m.destinations(forces, single, "coast-of-malay")["malay"] == 3
    assert m.destinations(forces, m.mover("japan", [("ija-14a-infantry", 2)]), "luzon-strait")["luzon"] == 2
    three = m.mover("japan", [("ija-14a-infantry", 3)])
    assert "luzon" not in m.destinations(forces, three, "luzon-strait")
    landing = m.mover("japan", [("ija-14a-infantry", 3)], sea_land_units=10)   # Landing Operation
    assert "luzon" in m.destinations(forces, landing, "luzon-strait")


def test_mountain_borders_take_one_unit_7_3_2(gj69):
    game = new(gj69)
    m = game.movement
    assert "rangoon" in m.destinations(game.forces, m.mover("japan", [("ija-15a-infantry", 1)]), "cambodia")
    assert "rangoon" not in m.destinations(game.forces, m.mover("japan", [("ija-15a-infantry", 2)]),
                                           "cambodia")


def test_closed_areas_and_the_nationalist_areas_2_2_1_16_3(gj69):
    """§2.2.1(3): no Japanese unit enters India, Kunming or the Indian Ocean; §16.3: Nationalist
    units enter only Kunming, Lashio and Mandalay."""
    game = new(gj69)
    m = game.movement
    assert "kunming" not in m.destinations(game.forces, m.mover("japan", [("ija-23a-infantry", 1)]), "canton")
    assert "indian-ocean" not in m.destinations(game.forces, m.mover("japan", [("ijn-chokai", 1)]),
                                                "coast-of-malay")
    put(game, "lashio", "china-mechanised")
    chinese = m.destinations(game.forces, m.mover("allies", [("china-mechanised", 1)]), "lashio")
    assert set(chinese) <= {"kunming", "mandalay"} and chinese
    british = m.destinations(game.forces, m.mover("allies", [("uk-infantry", 1)]), "mandalay")
    assert "rangoon" in british


def test_an_enemy_fortress_is_entered_only_from_an_own_land_area_16_1_1(gj69):
    game = new(gj69)
    m = game.movement
    assert "hong-kong" in m.destinations(game.forces, m.mover("japan", [("ija-23a-infantry", 2)]), "canton")
    put(game, "south-china-sea", "ija-kawaguchi")
    assert "hong-kong" not in m.destinations(game.forces, m.mover("japan", [("ija-kawaguchi", 1)]),
                                             "south-china-sea")
    put(game, "luzon-strait", "ija-14a-armour")
    # Luzon is Allied: Manila cannot be entered from it
    assert "manila" not in m.destinations(game.forces, m.mover("japan", [("ija-14a-armour", 1)], 4,
                                                                         sea_limits=False), "luzon-strait")


def test_sea_transport_7_5(gj69):
    """§7.5: through own sea areas without enemy units, as far as wanted; an enemy area only
    where own units already are; never from the sea into an enemy fortress."""
    game = new(gj69)
    m = game.movement
    mover = m.mover("japan", [("ija-reserve-infantry", 1)])
    reach = m.transport_destinations(game.forces, mover, "japan-homeland")
    assert {"taiwan", "canton", "sth-indochina", "south-west-pacific"} <= set(reach)
    assert "brunei" not in reach and "hong-kong" not in reach and "luzon" not in reach
    put(game, "brunei", "ija-kawaguchi")
    assert "brunei" in m.transport_destinations(game.forces, mover, "japan-homeland")


def test_air_moves_and_air_range_9(gj69):
    """§9.2: air units move from own area to own area, 1 per area whatever is there; §9.1(3):
    land-based air units strike land areas within their movement, carriers next to them."""
    game = new(gj69)
    m = game.movement
    air = m.mover("japan", [("ijn-af-taiwan", 2)])
    assert "canton" in m.air_move_destinations(game.forces, air, "taiwan")
    assert "luzon" not in m.air_move_destinations(game.forces, air, "taiwan")   # Allied
    assert "kunming" in m.air_range("taiwan", 4, False, "japan")
    assert m.air_range("pacific-ocean", 4, True, "japan") == sorted(
        {"pacific-ocean"} | game.board.adjacent["pacific-ocean"])


def test_land_based_air_range_is_not_counted_through_closed_areas_2_2_1_9_1(gj69):
    """§2.2.1(3) (seed 001): Japanese units may not enter India, Kunming or the Indian Ocean,
    though their air attacks may strike units there; §9.1(3): land-based air reaches land
    areas within its movement. India lies 4 areas from Taiwan only through the Indian Ocean:
    out of reach; Kunming, 4 away through open areas, is struck."""
    game = new(gj69)
    m = game.movement
    assert game.board.distances("taiwan")["india"] == 4
    reach = m.air_range("taiwan", 4, False, "japan", frozenset({"japan"}))
    assert "india" not in reach and "kunming" in reach
    deal(game)
    play(game, ("air",), ("area", "taiwan"), ("add", "ijn-af-taiwan", READY), ("done",))
    offered = {a[1] for a in game.legal_actions() if a[0] == "air-attack"}
    assert "kunming" in offered and "india" not in offered


# -- retreats (§11.5), supply (§12, §13), control (§14) -------------------------------------------------
def test_retreat_areas_come_from_the_game_11_5(gj69):
    """§11.5(1): own land areas without enemy units; §16.3: a Nationalist unit only to its
    areas; §7.3(2)②: never across a mountain border."""
    game = new(gj69)
    m = game.movement
    assert m.retreat_areas(game.forces, "luzon", "us-infantry") == ["manila"]
    put(game, "manila", "ija-14a-infantry")
    assert m.retreat_areas(game.forces, "luzon", "us-infantry") == []
    assert m.retreat_areas(game.forces, "mandalay", "uk-infantry") == ["lashio", "rangoon"]
    assert m.retreat_areas(game.forces, "mandalay", "china-infantry") == ["lashio"]
    assert "india" not in m.retreat_areas(game.forces, "rangoon", "uk-infantry")


def test_units_without_a_line_of_communication_do_not_recover_12_13(gj69):
    """§13: a line of communication runs through own areas and may end in one enemy area;
    §12: only units that trace one recover at the end of the turn; §16.2(1)②: all units in
    MacArthur's area recover."""
    game = new(gj69)
    assert "mindanao" in game.supplied("allies")
    game.forces.set_control("celebes-sea", "japan")
    assert "mindanao" not in game.supplied("allies")
    assert "luzon" in game.supplied("japan")          # one step into an enemy area
    game.forces.turn("mindanao", "us-infantry", USED, 3)
    game.forces.turn("manila", "us-infantry", USED, 2)
    game.forces.set_control("south-china-sea", "japan")
    game.forces.set_control("pacific-ocean", "japan")
    game._recovery()
    assert units(game, "mindanao") == {("us-infantry", USED): 3}
    assert ("us-infantry", USED) not in units(game, "manila")


def test_control_changes_where_only_the_enemy_stands_14_0_2(gj69):
    """§14.0(2): land areas are held by land and air units, sea areas by ships."""
    game = new(gj69)
    put(game, "palembang", "ija-kawaguchi")
    put(game, "java-sea", "ija-25a-infantry")
    game._update_control()
    assert game.forces.control["palembang"] == "japan"
    assert game.forces.control["java-sea"] == "allies"        # land units do not take a sea
    clear(game, "java-sea")
    put(game, "java-sea", "ijn-destroyers")
    game._update_control()
    assert game.forces.control["java-sea"] == "japan"
    assert game.chronicle.captures[-1] == (1, "java-sea", "allies", "japan")


# -- victory points (§15) ------------------------------------------------------------------------------
def test_vp_for_losses_only_for_japanese_units_and_macarthur_15_0_16_2(gj69):
    """§15.0(1)②: the Allies score 1 VP per Japanese unit of durability 2, 0.5 per durability
    1; nothing for Allied units; §16.2(3): MacArthur gives Japan 1 VP, not when I Shall
    Return removes him."""
    game = new(gj69)
    game.eliminate("cambodia", "ija-15a-infantry", READY)
    game.eliminate("south-china-sea", "ija-kawaguchi", READY)
    game.eliminate("luzon", "us-infantry", READY)
    game.eliminate("batavia", "ned-infantry", READY)
    assert game.vp == {"japan": 0.0, "allies": 1.5}
    game.eliminate("manila", "macarthur", READY)
    assert game.vp == {"japan": 1.0, "allies": 1.5}
    assert game.forces.pools["japanese-replacements"] == {"ija-15a-infantry": 1, "ija-kawaguchi": 1}
    other = new(gj69, macarthur=False)
    other.eliminate("manila", "macarthur", READY)
    assert other.vp["japan"] == 0.0


def test_fortress_vp_each_turn_areas_and_oil_at_the_end_15_0(gj69):
    """§15.0(1)① and §16.1(3): 1 VP per fortress area the Allies hold at the end of every
    turn; §15.0(2)-(3): at the end each side scores its land areas' VP and its oil fields."""
    game = new(gj69, seed=3)
    oil = {area: marker.value for area, marker in game.oil.items()}
    assert set(oil) == {"brunei", "palembang", "balikpapan"}
    while not game.is_terminal():
        game.apply(("pass",) if ("pass",) in game.legal_actions() else game.legal_actions()[0])
    areas = sum(a.value for a in game.board.areas.values()
                if a.land and game.forces.control[a.id] == "allies")
    assert game.vp["allies"] == 3 * 8 + areas + sum(oil.values())
    assert game.vp["japan"] == 0
    assert game.result().winner == "allies"
    assert game.chronicle.series["VP"]["allies"][:3] == [3.0, 6.0, 9.0]


def test_oil_field_destruction_4_0_4(gj69):
    """§4.0(4)①, §19 Oil Field Demolition: a turned-over marker in an Allied area is
    destroyed on 5-6 without Japanese units there, on 6 with them."""
    game = new(gj69, seed=5)
    rates = []
    for japanese in (False, True):
        if japanese:
            put(game, "brunei", "ija-kawaguchi")
        destroyed = 0
        for _ in range(3000):
            game.oil["brunei"].exposed_by, game.oil["brunei"].destroyed = "allies", False
            game._oil_destruction()
            destroyed += game.oil["brunei"].destroyed
        rates.append(destroyed / 3000)
    assert rates[0] == pytest.approx(1 / 3, abs=0.03) and rates[1] == pytest.approx(1 / 6, abs=0.025)


def test_holidays_17_3(gj69):
    """§17.3: on turn 4 Japan scores 1 VP per fortress area taken since the start, and loses
    1 per fortress area the Allies took back."""
    game = new(gj69, holidays_japan=True, holidays_allies=True)
    game.turn = 4
    clear(game, "hong-kong")
    put(game, "hong-kong", "ija-23a-infantry")
    game._update_control()
    game._holidays()
    assert game.vp["japan"] == 1
    clear(game, "hong-kong")
    put(game, "hong-kong", "uk-infantry")
    game._update_control()
    game.turn = 6
    game._holidays()
    assert game.vp["japan"] == 0


def test_optional_units_enter_17_2(gj69):
    """§17.2: Indomitable at the start in an Allied sea area; Hiryu and Soryu at the start of
    turn 5 in a Japanese sea area without Allied ships."""
    game = new(gj69, indomitable=True)
    assert (game.step, game.current_player) == ("place-units", "allies")
    assert {a[2] for a in game.legal_actions()} == {"celebes-sea", "java-sea", "indian-ocean"}
    game.apply(("place", "uk-indomitable", "java-sea"))
    assert units(game, "java-sea")[("uk-indomitable", READY)] == 1
    game = new(gj69, hiryu_soryu=True)
    while game.round < 5:
        game.apply(("pass",) if ("pass",) in game.legal_actions() else game.legal_actions()[0])
    assert (game.step, game.current_player) == ("place-units", "japan")
    assert "coast-of-malay" not in {a[2] for a in game.legal_actions()}   # British ships there
    assert not game.invariants()


# -- cards (§5.2, §6, §10, §19) ----------------------------------------------------------------------
def test_a_reaction_card_answers_an_attack_before_it_10(gj69):
    """§10: the Allies may play Ambush when attacked; the attacking group takes the
    counter-attack first (§10(5)); the card leaves the hand."""
    game = new(gj69)
    put(game, "hong-kong", "ija-23a-infantry", 3)
    deal(game)
    play(game, ("normal", "j03"), ("area", "hong-kong"))
    while game.step == "group-units":
        game.apply(("add", "ija-23a-infantry", READY) if ("add", "ija-23a-infantry", READY)
                   in game.legal_actions() else ("done",))
    game.apply(("attack",))
    assert (game.current_player, game.step) == ("allies", "react")
    assert ("react", "a07", "") in game.legal_actions() and ("no-reaction",) in game.legal_actions()
    game.apply(("react", "a07", ""))
    assert "a07" not in game.decks["allies"].hand and game.plays["a07"] == 1
    assert game.chronicle.battles[-1][1] == "hong-kong"
    assert not game.invariants()


def test_oxygen_torpedoes_ships_attack_4_and_cannot_be_answered_19(gj69):
    """§19 Oxygen Torpedoes: the group's ships attack with 4, it cannot be counter-attacked,
    and it may act once more."""
    game = new(gj69)
    deal(game)
    play(game, ("play", "j13", ""), ("area", "coast-of-malay"))
    for unit in ("ijn-chokai", "ijn-kumano"):
        game.apply(("add", unit, READY))
    game.apply(("done",))
    assert ("attack",) in game.legal_actions()
    game.apply(("attack",))
    assert game.step != "react" and "a16" in game.decks["allies"].hand
    assert not game.invariants()


def test_a_normal_attack_at_sea_can_be_answered_by_force_z_10_19(gj69):
    game = new(gj69)
    deal(game)
    play(game, ("normal", "j03"), ("area", "coast-of-malay"), ("add", "ijn-chokai", READY), ("done",))
    game.apply(("attack",))
    assert game.step == "react"
    assert {"a07", "a16"} <= {a[1] for a in game.legal_actions() if a[0] == "react"}


def test_force_z_attack_is_for_ships_only_19(gj69):
    """§19 Force Z ①: a group of ships, used ones too, attacks twice."""
    game = new(gj69)
    deal(game)
    game.forces.turn("coast-of-malay", "uk-repulse", USED)
    play(game, ("pass",))
    assert ("play", "a16", "o1") in game.legal_actions()
    game.apply(("play", "a16", "o1"))
    offered = {(a[1], a[2]) for a in game.legal_actions() if a[0] == "add"}
    assert offered == {("uk-prince-of-wales", READY), ("uk-repulse", USED), ("uk-destroyers", READY)}


def test_blitzkrieg_the_group_acts_again_19_18_1(gj69):
    """§19 Blitzkrieg: the group moves, then acts again with some of its units; they turn to
    their used face when the second action ends (§18.1)."""
    game = new(gj69, seed=2)
    deal(game)
    play(game, ("play", "j01", ""), ("area", "luzon-strait"), ("add", "ija-14a-infantry", READY),
         ("add", "ija-14a-infantry", READY), ("done",), ("move", "luzon"))
    if game.step == "react":
        game.apply(("no-reaction",))
    assert game.step == "again"
    assert units(game, "luzon", "japan") == {("ija-14a-infantry", READY): 2}    # not turned yet
    # the second action's group is some of the first's: at most the two that moved
    game.apply(("again",))
    offered = []
    while game.step == "group-units":
        offered.append(game.legal_actions())
        game.apply(("add", "ija-14a-infantry", READY) if ("add", "ija-14a-infantry", READY)
                   in game.legal_actions() else ("done",))
    assert offered == [[("add", "ija-14a-infantry", READY), ("done",)]]   # the first by itself
    assert game.step == "action"
    assert set(game.legal_actions()) >= {("attack",)}
    assert ("attack-twice",) not in game.legal_actions()   # the second action is being taken
    game.apply(("attack",))
    if game.step == "react":
        game.apply(("no-reaction",))
    while game.step == "retreat":
        game.apply(game.legal_actions()[0])
    assert all(face == USED for (_, face) in units(game, "luzon", "japan"))
    assert not game.invariants()


def act(game, area: str, unit: str, action: tuple, n: int = 1) -> None:
    """One group of a card action: its area, `n` units of one type, its action; reactions
    are declined and retreats take the first area."""
    play(game, ("area", area), *[("add", unit, READY)] * n, ("done",), action)
    while game.step in ("react", "retreat"):
        game.apply(("no-reaction",) if game.step == "react" else game.legal_actions()[0])


def test_hinode_four_groups_two_of_them_act_once_more_19(gj69):
    """§19 Hinode wa Yamagata (seed 001): up to 4 groups act, and 2 of them may act once more
    after their action: two different groups, each once."""
    game = new(gj69, seed=2)
    deal(game, japan=["j10", "j01", "j03", "j07", "j12", "j13", "j14"])
    game.apply(("play", "j10", ""))
    act(game, "luzon-strait", "ija-14a-infantry", ("move", "luzon"), 2)
    assert game.legal_actions() == [("again",), ("stop",)]
    game.apply(("again",))
    while game.step == "group-units":
        game.apply(game.legal_actions()[0])
    assert ("attack",) in game.legal_actions()            # of another kind (§19)
    game.apply(("attack",))
    while game.step in ("react", "retreat"):
        game.apply(("no-reaction",) if game.step == "react" else game.legal_actions()[0])
    assert game.step == "group-area"              # the first group acted twice: no third time
    assert game.invariants() == []
    act(game, "canton", "ija-23a-infantry", ("move", "hong-kong"))
    assert game.legal_actions() == [("again",), ("stop",)]     # the second group may
    game.apply(("again",))
    while game.step == "group-units":
        game.apply(game.legal_actions()[0])
    game.apply(("attack",))
    while game.step in ("react", "retreat"):
        game.apply(("no-reaction",) if game.step == "react" else game.legal_actions()[0])
    act(game, "canton", "ija-23a-infantry", ("move", "hong-kong"))
    assert game.step == "group-area"              # two groups drew on the card already
    assert game.actions_taken == [2, 2, 1] and game.invariants() == []
    game.actions_taken[:] = [3, 2, 2]             # what `--check` now catches
    assert game.invariants() == ["a group took 3 actions under one card (at most 2, §19)",
                                 "3 groups acted again under one card (at most 2, §19)"]


def test_hinode_and_allied_independent_units_groups_choose_their_own_action_6_2_19(gj69):
    """§6.2 ②: each group takes any one kind of action; §6.2 ④ binds the units of one group;
    §6.3(2): what a card does not say follows the normal rules. Hinode (Blitzkrieg plus Joint
    Operation, the translator's note, seed 001 §19) and the Allied Independent Units say
    nothing of the kind: a later group may attack where an earlier one moved."""
    game = new(gj69, seed=2)
    put(game, "hong-kong", "ija-23a-infantry")
    deal(game, japan=["j10", "j01", "j03", "j07", "j12", "j13", "j14"])
    game.apply(("play", "j10", ""))
    act(game, "luzon-strait", "ija-14a-infantry", ("move", "luzon"))
    game.apply(("stop",))
    game.apply(("area", "hong-kong"))
    while game.step == "group-units":
        game.apply(game.legal_actions()[0])
    assert ("attack",) in game.legal_actions()
    assert any(a[0] == "move" for a in game.legal_actions())
    allied = next(c for c in gj69.cards.values() if c.id == "a06")
    order = order_of(allied.plays[0])
    assert not order.same_kind and len(order.slots) == 4 and order.slots[0].max_units == 1


def test_two_declared_attacks_add_their_damage_18_1(gj69):
    """§18.1: two attacks declared together have their damage points added: one strike with
    two dice per unit."""
    from fractions import Fraction as F

    from engine import Contingent
    from engine.gj69 import GJ69Position
    from engine.gj69.attack import hit_distribution
    position = GJ69Position("luzon", (Contingent("japan", {"ija-14a-infantry": 1}),),
                            (Contingent("united-states", {"us-infantry": 1}),), attacks=2,
                            combined=True, defender_can_retreat=False)
    found = gj69.distribution(position)
    # 2 points turn a ready infantry of durability 2: both dice must hit (1/4); apart they never do
    turned = sum(p for (a, d), p in found.items() if dict(d).get(("us-infantry", USED, "in")))
    assert turned == hit_distribution([3, 3])[2] == F(1, 4)
    apart = gj69.distribution(GJ69Position("luzon", position.attackers, position.defenders,
                                           attacks=2, defender_can_retreat=False))
    assert sum(p for (a, d), p in apart.items() if dict(d).get(("us-infantry", USED, "in"))) == 0


def test_every_card_operation_is_executed_and_the_schema_lists_them(gj69):
    """The gj69 profile schema's effect operations are exactly those the engine executes."""
    assert set(discriminator_values("gj69", "effect")) == EXECUTED_OPS


def test_operations_recover_reinforce_remove_oil(gj69):
    """§19 Supply, Commonwealth Reinforcements, I Shall Return, Oil Field Demolition."""
    game = new(gj69)
    game.forces.turn("cambodia", "ija-15a-infantry", USED, 5)
    deal(game, japan=["j05", "j06", "j01", "j02", "j03", "j04", "j16"],
         allies=["a10", "a11", "a14", "a07", "a08"])
    play(game, ("play", "j05", "o1"))
    for _ in range(4):
        game.apply(("recover", "cambodia", "ija-15a-infantry"))
    assert units(game, "cambodia")[("ija-15a-infantry", USED)] == 1
    game.apply(("play", "a11", ""))                     # three Commonwealth units to India, used
    assert sum(n for (u, f), n in units(game, "india").items() if f == USED) == 3
    assert sum(game.forces.pools["allied-reinforcements"].values()) == 13 - 3
    play(game, ("pass",), ("play", "a14", ""))          # MacArthur leaves, worth nothing
    assert not game.forces.where("macarthur") and game.forces.removed == {"macarthur": 1}
    assert game.vp["japan"] == 0 and "a14" in game.decks["allies"].gone
    play(game, ("pass",), ("play", "a10", ""), ("area", "brunei"))
    assert game.oil["brunei"].exposed_by == "allies"
    assert not game.invariants()


def test_operations_airdrop_and_submarines(gj69):
    """§19 Divine Soldiers: an airborne unit drops into any area (used) and takes it at the end
    of the impulse (§14.0(2)); Submarines: a sea area with no enemy DD and no enemy control
    marker is hit on any die."""
    game = new(gj69)
    deal(game, japan=["j09", "j01", "j02", "j03", "j04", "j05", "j16"],
         allies=["a09", "a07", "a08", "a01", "a02"])
    play(game, ("play", "j09", "o1"), ("area", "cambodia"), ("add", "ija-15a-infantry", READY),
         ("done",), ("move", "sth-indochina"))
    drops = [a for a in game.legal_actions() if a[0] == "drop"]
    assert ("drop", "japan-homeland", "ija-reserve-airborne", READY, "palembang") in drops
    assert not any(a[4] in ("india", "kunming", "indian-ocean") for a in drops)
    game.apply(("drop", "japan-homeland", "ija-reserve-airborne", READY, "palembang"))
    assert units(game, "palembang") == {("ija-reserve-airborne", USED): 1}
    assert game.forces.control["palembang"] == "japan"
    game.apply(("play", "a09", ""))
    attacks = 0
    while game.current_player == "allies" and game.step in ("submarine", "sink"):
        if game.step == "submarine":
            assert ("area", "coast-of-malay") in game.legal_actions()
            target = ("area", "south-west-pacific")    # a Japanese sea area without Japanese DD
            game.apply(target if target in game.legal_actions() else ("end",))
            attacks += 1
        else:
            game.apply(game.legal_actions()[0])
    assert attacks == 3
    # a die of 3 or more less 2 for the control marker: the landing force is sunk or not
    lost = game.forces.pools.get("japanese-replacements", {})
    assert game.vp["allies"] == 0.5 * sum(lost.values()) and \
        set(lost) <= {"ijn-snlf-infantry", "ijn-snlf-airborne"}
    assert not game.invariants()


def test_yes_or_no_may_remove_macarthur_for_a_vp_19_18_2(gj69):
    """§19 YES or NO?: a die of 4 or more removes any unit of an area with Japanese land
    units; §18.2: MacArthur too, which scores Japan 1 VP (§16.2(3))."""
    outcomes = set()
    for seed in range(12):
        game = new(gj69, seed=seed)
        put(game, "manila", "ija-14a-infantry")
        deal(game)
        play(game, ("play", "j12", ""))
        if game.step == "roll-to-remove":
            game.apply(("area", "manila"))
        if game.step == "remove":
            game.apply(("remove", "macarthur", READY))
            assert game.vp["japan"] == 1
            outcomes.add(True)
        else:
            assert game.forces.where("macarthur") == ["manila"]
            outcomes.add(False)
    assert outcomes == {True, False}


# -- playing whole games ----------------------------------------------------------------------------
def test_positions_are_json_able_and_replays_play_back(gj69, tmp_path):
    """A game is its scenario, options, seed and actions: played back, it ends the same."""
    from engine.replay import Replay, play_back
    from playtest.study import ReplayFiles, Study, play_game
    scenario = load_scenario(SCENARIO)
    study = Study(scenario, {"hands": "draw"}, {"japan": "heuristic", "allies": "random"}, 2, 11,
                  check=True, keep_actions=True, replays=str(tmp_path))
    for index in range(2):
        record = ReplayFiles(study.replays).keep([play_game(gj69, study, index)])[0]
        assert record.error is None, record.error
        replay = Replay.read(record.replay)
        state = play_back(replay, gj69)
        assert state.result().as_dict() == record.result
        assert state.chronicle.as_dict() == record.chronicle
