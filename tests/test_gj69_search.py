"""GJ69 for a search: clones (engine/gj69/clone.py), the standing (engine/gj69/standing.py),
the heuristic's plans, and the search player end to end.

Clones are checked by the clone contract of tests/helpers.py on random games of every option
set, taken both at checkpoints (an impulse, a card taken into the hand: a copy of the data) and
inside impulses (a replay), and on heuristic games at every checkpoint of a turn.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import load_system
from engine.game import ReplayClone
from engine.gj69.damage import READY
from engine.players import make_player
from sandtable.scenario import load_scenario
from tests.helpers import check_clones, observed

SCENARIO = Path(__file__).parent.parent / "scenarios" / "gj69-southern-operation"
OPTION_SETS = [
    {},
    {"hands": "draw"},
    {"longer-game": True, "hiryu-soryu": True, "indomitable": True},
    {"holidays-japan": True, "holidays-allies": True, "macarthur": False, "fortress-areas": False,
     "nationalist-army": False, "last-turn": "7"},
]


@pytest.fixture(scope="module")
def gj69():
    return load_system(load_scenario(SCENARIO))


def random_steps(system, options: dict, seed: int) -> list[str]:
    """The step of each decision of check_clones' random game (the same chooser)."""
    state = system.new_game(options, np.random.default_rng(seed))
    chooser = np.random.default_rng([seed, 1])
    steps = []
    while not state.is_terminal():
        steps.append(state.step)
        actions = state.legal_actions()
        state.apply(actions[int(chooser.integers(len(actions)))])
    return steps


# -- clones ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("number", range(len(OPTION_SETS)))
def test_clones_keep_the_contract_at_checkpoints_and_inside_impulses(gj69, number):
    """At checkpoints (impulses, hands) and inside impulses alike, a clone looks like its game,
    leaves it untouched when played on with other dice, and reaches its end given its actions."""
    options, seed = OPTION_SETS[number], 11 + number
    steps = random_steps(gj69, options, seed)
    checkpoints = [i for i, s in enumerate(steps) if s in ("impulse", "choose-cards")]
    inside = [i for i, s in enumerate(steps) if s not in ("impulse", "choose-cards")]
    chosen = checkpoints[::max(1, len(checkpoints) // 8)] + inside[::max(1, len(inside) // 4)]
    assert len(chosen) >= 10
    assert check_clones(gj69, options, seed, tuple(sorted(chosen)), wander=200) == len(steps)


def test_a_clone_at_a_checkpoint_copies_the_position_without_replaying(gj69, monkeypatch):
    """At an impulse or a hand's card the clone is a copy of the data (no replay); inside an
    impulse it is a replay of the game's actions."""
    replays = []
    real = ReplayClone.clone
    monkeypatch.setattr(ReplayClone, "clone", lambda self: replays.append(self.step) or real(self))
    game = gj69.new_game({}, np.random.default_rng(3))
    players = {side: make_player("heuristic", gj69, side, np.random.default_rng(3)) for side in gj69.sides}
    seen = set()
    while game.round < 3:
        twin = game.clone()
        assert observed(twin) == observed(game)
        assert twin.forces is not game.forces and twin.decks["japan"] is not game.decks["japan"]
        seen.add(game.step)
        game.apply(players[game.current_player].choose(game))
    assert {"impulse", "choose-cards", "group-area", "action"} <= seen
    assert replays and not {"impulse", "choose-cards"} & set(replays)


def test_heuristic_games_cloned_at_every_checkpoint_reach_the_same_end(gj69):
    """Heuristic play: at every checkpoint of the second turn a clone, given the game's own
    later actions, reaches its result and chronicle; played on with other dice it leaves the
    game as it was."""
    game = gj69.new_game({}, np.random.default_rng(5))
    players = {side: make_player("heuristic", gj69, side, np.random.default_rng(5)) for side in gj69.sides}
    clones, moves = [], []
    while not game.is_terminal():
        if game.round == 2 and game.at_checkpoint():
            clones.append((len(moves), game.clone(), observed(game)))
            other = game.clone()
            other.reseed(99)
            wanderers = {s: make_player("heuristic", gj69, s, np.random.default_rng(9)) for s in gj69.sides}
            while not other.is_terminal() and other.round < 3:
                other.apply(wanderers[other.current_player].choose(other))
            assert observed(game) == clones[-1][2]
        moves.append(players[game.current_player].choose(game))
        game.apply(moves[-1])
    assert len(clones) > 15
    for done, twin, _ in clones:
        for action in moves[done:]:
            twin.apply(action)
        assert twin.result() == game.result()
        assert twin.chronicle.as_dict() == game.chronicle.as_dict()


def test_clone_and_game_changing_the_map_keep_their_own_caches(gj69):
    """Forces versions are unique in the process: a clone and its game, each changed once
    after the copy, see their own sea transports (§7.5), though they share the movement
    rules' caches, keyed by the version."""
    game = gj69.new_game({}, np.random.default_rng(1))
    mover = game.movement.mover("japan", [("ija-25a-infantry", 1)])
    before = game.movement.transport_destinations(game.forces, mover, "luzon-strait")
    twin = game.clone()
    assert twin.movement.transport_destinations(twin.forces, mover, "luzon-strait") == before
    game.forces.set_control("malay", "japan")
    twin.forces.set_control("pacific-ocean", "allies")       # no passage to the South West Pacific
    assert "south-west-pacific" in game.movement.transport_destinations(game.forces, mover, "luzon-strait")
    assert "south-west-pacific" not in twin.movement.transport_destinations(twin.forces, mover,
                                                                            "luzon-strait")
    assert game.forces.version != twin.forces.version


# -- the standing ----------------------------------------------------------------------------------
def test_the_projected_margin_at_the_start_15_0(gj69):
    """At the start the Allies hold 17 VP of land areas (§15.0(2)), three fortresses worth 1 VP
    at the end of each of the 8 turns (§15.0(1)①, §16.1(3)) and the three oil fields, each
    1.8 VP on average (markers of 1, 1, 2, 2 and 3 VP, §3.0(5), §15.0(3))."""
    game = gj69.new_game({}, np.random.default_rng(1))
    assert game.projected_margin("japan") == pytest.approx(-(17 + 3 * 8 + 3 * 1.8))
    assert game.projected_margin("allies") == pytest.approx(17 + 3 * 8 + 3 * 1.8)
    assert game.standing("japan") + game.standing("allies") == pytest.approx(1.0)
    assert game.standing("japan") < 0.05


def test_the_standing_rises_with_what_wins_15_0(gj69):
    """VP, a fortress taken, a contested area and an oil field the Allies turned over each move
    the projection by what they are worth at the end."""
    def margin(change) -> float:
        game = gj69.new_game({}, np.random.default_rng(1))
        change(game)
        return game.projected_margin("japan")

    start = margin(lambda game: None)
    assert margin(lambda game: game.vp.update(japan=2.0)) == pytest.approx(start + 2)
    assert margin(lambda game: game.vp.update(allies=0.5)) == pytest.approx(start - 0.5)

    def take_manila(game):
        game.forces.clear("manila")
        game.forces.set_control("manila", "japan")
    # Manila's 3 VP change sides (§15.0(2)) and the Allies lose its VP of 8 turn ends (§16.1(3))
    assert margin(take_manila) == pytest.approx(start + 2 * 3 + 8)
    # 8 Japanese infantry (attack 3) in Malay against 8 British (attack 2): Japan is given
    # 24/40 of Malay's 1 VP, the Allies keep 16/40
    assert margin(lambda game: game.forces.add("malay", "ija-25a-infantry", READY, 8)) \
        == pytest.approx(start + 2 * 24 / 40)
    # an Allied oil field turned over is destroyed on 5 or 6 at each of the 8 turn ends (§4.0(4)①)
    assert margin(lambda game: setattr(game.oil["brunei"], "exposed_by", "allies")) \
        == pytest.approx(start + 1.8 * (1 - (2 / 3) ** 8))

    game = gj69.new_game({}, np.random.default_rng(1))
    low = game.standing("japan")
    game.vp["japan"] = 10.0
    assert game.standing("japan") > low


def test_the_standing_of_a_finished_game_is_its_result(gj69):
    game = gj69.new_game({"last-turn": "7", "shorter-game": True}, np.random.default_rng(2))
    players = {side: make_player("heuristic", gj69, side, np.random.default_rng(2)) for side in gj69.sides}
    while not game.is_terminal():
        game.apply(players[game.current_player].choose(game))
    winner = game.result().winner
    assert winner is not None
    assert game.standing(winner) == 1.0 and game.standing(game.enemy(winner)) == 0.0
