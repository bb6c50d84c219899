"""What a search needs of an AA50 game (engine/game.py): a clone that goes on as its parent
would and never touches it (engine/aa50/copying.py), a standing read off the position
(engine/aa50/standing.py), and the heuristic's plans to weigh (engine/aa50/heuristic.py)."""
from __future__ import annotations

import numpy as np
import pytest
from test_aa50_game import new_game, put, until

from engine.aa50 import copying
from engine.game import GameResult
from engine.players import make_player
from engine.system import load_system
from sandtable.scenario import load_scenario

from helpers import REPO, check_clones, observed

SCENARIOS = REPO / "scenarios"


@pytest.fixture(scope="module")
def systems():
    return {name: load_system(load_scenario(SCENARIOS / name))
            for name in ("aa50-1941", "aa50-1942", "northern-front")}


def defaults(system, **changes):
    options = {s.key: s.default for s in system.game_settings()}
    options.update(changes)
    return options


# -- clone ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("scenario", "seed", "changes"), [
    ("aa50-1942", 1, {}),
    ("aa50-1941", 2, {"research": True, "national_objectives": True}),
    ("aa50-1942", 3, {"victory": "projection", "surprise_strike": "first-round",
                      "research": True}),
    ("northern-front", 4, {}),
    ("northern-front", 5, {"surprise_strike": "first-round"}),
])
def test_a_clone_of_a_random_game_goes_on_as_its_parent(systems, scenario, seed, changes):
    system = systems[scenario]
    length = check_clones(system, defaults(system, **changes), seed, (0, 150, 420), wander=200,
                          max_rounds=3)
    assert length > 420 or scenario == "northern-front"


def play(state, players, most):
    """The heuristic players play up to `most` actions; returns them."""
    actions = []
    while not state.is_terminal() and len(actions) < most:
        actions.append(players[state.side_of(state.current_player)].choose(state))
        state.apply(actions[-1])
    return actions


@pytest.mark.parametrize(("scenario", "seed", "changes"), [
    ("aa50-1942", 11, {}),
    ("aa50-1941", 12, {"research": True, "national_objectives": True}),
])
def test_a_clone_of_a_heuristic_game_goes_on_as_its_parent(systems, scenario, seed, changes):
    """A clone taken as each nation starts each phase of heuristic play: played on by other
    heuristic players with other dice, it leaves its parent as it was; given the parent's
    later actions, it reaches the parent's end."""
    system = systems[scenario]
    state = system.new_game(defaults(system, **changes), np.random.default_rng(seed), 2)
    players = {side: make_player("heuristic", system, side, np.random.default_rng([seed, n]))
               for n, side in enumerate(("axis", "allies"))}
    actions, clones, seen = [], [], set()
    while not state.is_terminal():
        if (state.round, state.current_player, state.phase) not in seen:
            seen.add((state.round, state.current_player, state.phase))
            before = observed(state)
            twin = state.clone()
            assert observed(twin) == before
            twin.reseed([seed, len(seen)])
            play(twin, {side: make_player("heuristic", system, side, np.random.default_rng(9))
                        for side in ("axis", "allies")}, 40)
            assert observed(state) == before, f"a clone in {state.phase} changed its parent"
            if len(seen) % 5 == 0:
                clones.append((state.clone(), len(actions)))
        actions += play(state, players, 1)
    assert len(clones) >= 6
    for twin, done in clones:
        for action in actions[done:]:
            twin.apply(action)
        assert twin.result() == state.result()
        assert twin.chronicle.as_dict() == state.chronicle.as_dict()


def test_every_attribute_of_a_game_is_copied_shared_or_reset(systems):
    """A new attribute of the game must be sorted into copying.py's sets: a clone sharing a
    list or dict the rules change would play on its parent's position."""
    game = until(new_game(systems["aa50-1941"]), "germany", "combat-move")
    assert set(vars(game)) == copying.SHARED | copying.COPIED | copying.RESET
    assert not (copying.SHARED & copying.COPIED) and not (copying.RESET & copying.COPIED)


def test_a_clone_shares_no_piece_and_keeps_cargo_aboard(systems):
    game = until(new_game(systems["aa50-1941"]), "germany", "combat-move")
    transport = next(p for p in game.pieces["sz-5"] if p.type == "transport") \
        if any(p.type == "transport" for p in game.pieces["sz-5"]) else None
    twin = game.clone()
    originals = {id(p) for found in game.pieces.values() for p in found}
    copies = [p for found in twin.pieces.values() for p in found]
    assert not originals & {id(p) for p in copies}
    assert [(p.uid, p.owner, p.type, p.space) for p in copies] == \
        [(p.uid, p.owner, p.type, p.space) for found in game.pieces.values() for p in found]
    for piece in copies:
        for cargo in piece.cargo:
            assert cargo.aboard is piece
    for space, factory in twin.factories.items():
        assert factory in twin.pieces[space]
    assert transport is None or transport not in twin.pieces["sz-5"]


# -- standing ------------------------------------------------------------------------------------
def test_the_two_sides_standings_make_one_and_favour_the_leader(systems):
    """aa50-1942 opens with the Allies ahead in victory cities (10 to 8, §3.2), production and
    army: they stand better, and the two standings add up to one."""
    game = new_game(systems["aa50-1942"])
    axis, allies = game.standing("axis"), game.standing("allies")
    assert axis + allies == pytest.approx(1.0)
    assert 0.0 < axis < 0.5 < allies < 1.0


@pytest.mark.parametrize("change", ["city", "territory", "army"])
def test_standing_rises_with_what_wins_the_game(systems, change):
    """More victory cities (§6), more production, a bigger army: each raises the side's
    standing, all else equal."""
    game = until(new_game(systems["aa50-1942"]), "germany", "purchase")
    before = game.standing("axis")
    if change == "city":           # Leningrad, a Soviet victory city worth 2 IPCs, changes hands
        game.control["karelia-ssr"] = "germany"
    elif change == "territory":    # a territory that is no victory city
        game.control["persia"] = "germany"
    else:
        put(game, "germany", "germany", "armour", 3)
    assert game.standing("axis") > before


def test_the_end_of_a_game_stands_as_its_result(systems):
    game = new_game(systems["aa50-1942"])
    game.outcome = GameResult("allies", "victory-cities", 5)
    assert (game.standing("allies"), game.standing("axis")) == (1.0, 0.0)
    game.outcome = GameResult(None, "round-limit", 15)
    assert game.standing("allies") == game.standing("axis") == 0.5


def test_a_scenario_no_side_can_win_stands_even(systems):
    """northern-front names no victory condition: its games end undecided at the round
    limit, whatever the position."""
    game = new_game(systems["northern-front"])
    game.control["karelia-ssr"] = "germany"
    assert game.standing("axis") == game.standing("allies") == 0.5
