"""What a search needs of an AA50 game (engine/game.py): a clone that goes on as its parent
would and never touches it (engine/aa50/copying.py), a standing read off the position
(engine/aa50/standing.py), and the heuristic's plans to weigh (engine/aa50/heuristic.py)."""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from test_aa50_game import new_game, put, until

from engine.aa50 import copying
from engine.game import GameResult
from engine.players import make_player
from engine.system import load_system
from sandtable.scenario import load_scenario
from sandtable.yamlwrite import save_yaml

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
    ("aa50-1941", 12, {"research": True, "national_objectives": True, "victory": "total-war"}),
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


def test_a_scenario_no_side_can_win_stands_even(tmp_path):
    """northern-front without its victory conditions: its games end undecided at the round
    limit, whatever the position."""
    folder = tmp_path / "no-victory"
    shutil.copytree(SCENARIOS / "northern-front", folder)
    manifest = load_scenario(folder).doc("scenario")
    del manifest["victory"]
    save_yaml(folder / "scenario.yaml", manifest, kind="scenario", within=folder)
    game = new_game(load_system(load_scenario(folder)))
    game.control["karelia-ssr"] = "germany"
    assert game.standing("axis") == game.standing("allies") == 0.5


# -- plans ---------------------------------------------------------------------------------------
def heuristic(system, side="axis", seed=1):
    return make_player("heuristic", system, side, np.random.default_rng(seed))


def phase_actions(game, player):
    nation, phase, actions = game.current_player, game.phase, []
    while game.current_player == nation and game.phase == phase:
        actions.append(player.choose(game))
        game.apply(actions[-1])
    return actions


def test_a_purchase_offers_plans_its_own_first_and_plays_the_one_followed(systems):
    """Germany's first purchase of 1942: the heuristic's own first (what it buys when it
    plays alone), then other purchases, each different; following one buys exactly it."""
    system = systems["aa50-1942"]
    game = until(new_game(system), "germany", "purchase")
    plans = heuristic(system).plans(game)
    labels = [p.label for p in plans]
    assert labels[0] == "purchase: own" and len(plans) >= 3 and len(set(labels)) == len(labels)
    alone = phase_actions(game.clone(), heuristic(system))
    assert plans[0].content["shopping"] == alone
    for plan in plans[1:]:
        player = heuristic(system)
        twin = game.clone()
        player.follow(twin, plan)
        assert phase_actions(twin, player) == plan.content["shopping"] != alone


def test_a_combat_move_offers_attack_plans_and_nothing_mid_phase(systems):
    """Japan's first combat move of 1942: its own attacks, a cautious and a bold set, and its
    own without the riskiest attack; once the move has begun (or in another phase) there is
    no decision to weigh."""
    system = systems["aa50-1942"]
    game = until(new_game(system), "japan", "combat-move")
    player = heuristic(system)
    plans = player.plans(game)
    assert [p.label for p in plans][0] == "attacks: own"
    assert any(p.label.startswith("attacks: without ") for p in plans)
    riskiest = min(plans[0].content["risks"])[1]
    without = next(p for p in plans if p.label == f"attacks: without {riskiest}")
    assert not [e for (space, _), entries in without.content["moves"].items()
                for e in entries if e[0] == riskiest and e[2] != "board"]
    player.follow(game, plans[0])
    game.apply(player.choose(game))
    assert player.plans(game) == []
    until(game, "japan", "noncombat-move")
    assert heuristic(system).plans(game) == []


def test_a_fork_on_a_clone_plays_as_the_player_on_the_game(systems):
    """What a look-ahead relies on: a fork of the player, following a plan on a clone,
    plays the same actions as the player following it on the game."""
    system = systems["aa50-1942"]
    game = until(new_game(system), "united-kingdom", "noncombat-move")
    player = heuristic(system, "allies")
    phase_actions(game, player)                       # it remembers the troops left waiting
    game = until(game, "united-kingdom", "purchase")  # the next round's
    plans = player.plans(game)
    twin = game.clone()
    fork = player.fork(np.random.default_rng(5))
    assert fork.stranded == player.stranded and fork.stranded is not player.stranded
    fork.follow(twin, plans[-1])
    player.follow(game, plans[-1])
    for _ in range(60):
        if game.current_player != "united-kingdom":
            break
        action = player.choose(game)
        assert fork.choose(twin) == action
        game.apply(action)
        twin.apply(action)


def test_the_search_player_weighs_the_plans_and_repeats_itself(systems):
    """`search` on aa50-1942's first round, with a small budget: it searches each purchase
    and combat move of its side, and the same seed gives the same game."""
    system = systems["aa50-1942"]

    def first_round(seed):
        game = system.new_game(defaults(system), np.random.default_rng(seed), 1)
        players = {"axis": make_player("search:budget=2", system, "axis",
                                       np.random.default_rng(seed)),
                   "allies": heuristic(system, "allies")}
        play(game, players, 100_000)
        return game, players["axis"]

    game, searcher = first_round(3)
    assert searcher.searched >= 4 and searcher.lookaheads >= 2 * searcher.searched
    again, _ = first_round(3)
    assert again.chronicle.as_dict() == game.chronicle.as_dict()


def test_playtest_games_plays_the_search_player_end_to_end(capsys):
    """`sandtable playtest games ... --players axis=search:budget=2` on aa50-1942, two rounds."""
    from sandtable.cli import main
    code = main(["playtest", "games", str(SCENARIOS / "aa50-1942"), "--games", "1",
                 "--max-rounds", "2", "--players", "axis=search:budget=2", "--seed", "3",
                 "--workers", "1"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert out.startswith("aa50-1942: 1 games, seed 3\nplayers: Axis search:budget=2, Allies heuristic\n")
