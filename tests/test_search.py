"""The search player (engine/players/search.py) on a small game of its own, where the heuristic's
first choice is known to be the worse one; and the clone and reseed contract of
engine/game.py that it relies on."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from engine.game import Chronicle, GameResult, GameState, ReplayClone
from engine.options import SettingError
from engine.players import Plan, Player, SearchPlayer, available, stronger
from engine.players.random import RandomPlayer

TARGET = 12


class RaceState(GameState):
    """Two sides race to 12 points. On its turn a side either steps (1 point, sure) or dashes
    (a die: 4 points on 4-6, none otherwise; 2 on average). Dashing is the better plan."""

    def __init__(self, rng, max_rounds=30):
        self.rng, self.max_rounds = rng, max_rounds
        self.points = {"a": 0, "b": 0}
        self.turn, self._round = "a", 1
        self.chronicle = Chronicle()

    current_player = property(lambda self: None if self.is_terminal() else self.turn)
    phase = property(lambda self: "move")
    round = property(lambda self: self._round)

    def seats(self):
        return ["a", "b"]

    def side_of(self, seat):
        return seat

    def legal_actions(self):
        return [("step",), ("dash",)]

    def apply(self, action):
        if action == ("dash",):
            self.points[self.turn] += 4 if self.rng.integers(1, 7) >= 4 else 0
        else:
            self.points[self.turn] += 1
        if self.turn == "b":
            self._round += 1
        self.turn = "b" if self.turn == "a" else "a"

    def is_terminal(self):
        return max(self.points.values()) >= TARGET or self._round > self.max_rounds

    def result(self):
        leader = max(self.points, key=lambda s: self.points[s])
        done = max(self.points.values()) >= TARGET
        return GameResult(leader if done else None, "points" if done else "round-limit",
                          self._round, scores=dict(self.points))

    def standing(self, side):
        if self.is_terminal():
            return super().standing(side)
        other = "b" if side == "a" else "a"
        return 0.5 + (self.points[side] - self.points[other]) / (2 * TARGET)

    def clone(self):
        twin = copy.copy(self)
        twin.points = dict(self.points)
        twin.rng = np.random.Generator(type(self.rng.bit_generator)())
        twin.rng.bit_generator.state = self.rng.bit_generator.state
        twin.chronicle = Chronicle()
        return twin


class Steady(Player):
    """Proposes stepping first, as a timid heuristic would."""

    name = "heuristic"

    def __init__(self, system, side, options, rng):
        super().__init__(system, side, options, rng)
        self.chosen = None

    def plans(self, state):
        return [Plan("step", ("step",)), Plan("dash", ("dash",))]

    def follow(self, state, plan):
        self.chosen = plan.content

    def choose(self, state):
        chosen, self.chosen = self.chosen, None
        return chosen or ("step",)


class RaceSystem:
    system = "race"

    def players(self):
        return {"heuristic": Steady}

    def new_game(self, options, rng, max_rounds=None):
        return RaceState(rng)


def play(players: dict, seed: int) -> str | None:
    system = RaceSystem()
    state = system.new_game({}, np.random.default_rng(seed))
    seated = {side: kind(system, side, options, np.random.default_rng([seed, n]))
              for n, (side, (kind, options)) in enumerate(sorted(players.items()))}
    while not state.is_terminal():
        state.apply(seated[state.current_player].choose(state))
    return state.result().winner


def test_search_finds_the_better_plan_the_heuristic_puts_second():
    games = 60
    # Stepping, the second mover always loses the race (a reaches 12 a move earlier); dashing,
    # it wins most games. Same seat, same opponent: the search must find the dash.
    heuristic = sum(play({"a": (Steady, {}), "b": (Steady, {})}, seed) == "b" for seed in range(games))
    search = sum(play({"a": (Steady, {}), "b": (SearchPlayer, {"budget": 8})}, seed) == "b"
                 for seed in range(games))
    assert heuristic == 0
    assert search >= 0.8 * games


def test_one_decision_spends_the_budget_and_follows_the_best_plan():
    system = RaceSystem()
    player = SearchPlayer(system, "b", {"budget": 40}, np.random.default_rng(5))
    state = system.new_game({}, np.random.default_rng(5))
    state.apply(("step",))
    assert player.choose(state) == ("dash",)
    assert player.searched == 1 and player.lookaheads == 40


def test_the_same_seed_gives_the_same_search():
    def choices(seed):
        system = RaceSystem()
        player = SearchPlayer(system, "a", {"budget": 6}, np.random.default_rng(seed))
        state = system.new_game({}, np.random.default_rng(seed))
        found = []
        while not state.is_terminal():
            action = player.choose(state) if state.current_player == "a" else ("step",)
            found.append(action)
            state.apply(action)
        return found
    assert choices(3) == choices(3)


def test_a_look_ahead_leaves_the_game_as_it_was():
    system = RaceSystem()
    state = system.new_game({}, np.random.default_rng(9))
    before = (dict(state.points), state.turn, state.rng.bit_generator.state)
    SearchPlayer(system, "a", {"budget": 10}, np.random.default_rng(1)).choose(state)
    assert (state.points, state.turn, state.rng.bit_generator.state) == before


class CountingRace(RaceState):
    applied = 0

    def apply(self, action):
        CountingRace.applied += 1
        super().apply(action)


class FromSeat(Steady):
    search_from_seat = True


@pytest.mark.parametrize("base, actions", [(Steady, 1), (FromSeat, 2)])
def test_a_look_ahead_stops_where_the_round_begins_or_where_the_seat_comes_round(base, actions):
    """b decides in round 1: with a horizon of one round, the look-ahead plays b's move and
    stops where round 2 begins; counted from b's seat it plays on through a's answer and stops
    when b's turn comes round again."""
    class System(RaceSystem):
        def players(self):
            return {"heuristic": base}
    state = CountingRace(np.random.default_rng(2))
    state.apply(("step",))                             # a's move: b to decide, round 1
    player = SearchPlayer(System(), "b", {"budget": 4, "width": 2}, np.random.default_rng(1))
    CountingRace.applied = 0
    player.choose(state)
    assert player.lookaheads == 4 and CountingRace.applied == 4 * actions


def test_search_settings_are_checked():
    with pytest.raises(SettingError):
        SearchPlayer(RaceSystem(), "a", {"budget": 0}, np.random.default_rng(1))


def test_search_is_offered_where_the_heuristic_proposes_plans():
    assert set(available(RaceSystem())) == {"random", "heuristic", "search"}
    assert stronger(RaceSystem(), "heuristic") == "search"
    assert stronger(RaceSystem(), "search") is None

    class Plain(RandomPlayer):
        name = "heuristic"

    class PlainSystem(RaceSystem):
        def players(self):
            return {"heuristic": Plain}
    assert set(available(PlainSystem())) == {"random", "heuristic"}
    assert stronger(PlainSystem(), "heuristic") is None


class ReplayedRace(ReplayClone, RaceState):
    """The race cloned by replaying its actions, as games driven by generators are."""

    def __init__(self, system, rng):
        self.remember_start(system, {}, rng, None)
        super().__init__(rng)

    def apply(self, action):
        self.remember(action)
        super().apply(action)


class ReplayedSystem(RaceSystem):
    def new_game(self, options, rng, max_rounds=None):
        return ReplayedRace(self, rng)


def test_a_replayed_clone_follows_its_parent_through_reseeds():
    system = ReplayedSystem()
    state = system.new_game({}, np.random.default_rng(4))
    for action in [("dash",)] * 5:
        state.apply(action)
    state.reseed(77)                   # chance re-drawn mid-game, as a look-ahead does
    for action in [("dash",)] * 3:
        state.apply(action)
    twin = state.clone()
    assert twin.points == state.points and twin.turn == state.turn
    assert twin.rng.bit_generator.state == state.rng.bit_generator.state
    for action in [("dash",)] * 4:
        state.apply(action)
        twin.apply(action)
    assert twin.points == state.points
