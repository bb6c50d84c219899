"""The whole-game framework (engine/game.py, replay.py, study.py, players/) on a small game of
its own: two sides race along a track by dice; a side may bank its roll or push its luck."""
from __future__ import annotations

import json

import numpy as np
import pytest

from engine.game import Chronicle, GameResult, GameState, IllegalAction, as_action, ensure_legal
from engine.options import SettingError
from engine.players import assign, make_player
from engine.replay import Replay, ReplayError, play_back
from engine.system import GameSystem
from playtest.study import Study, game_seed


class Race(GameState):
    """First to 20 wins; a turn is 'roll' (add a die, but a 1 loses the turn's gain) or 'bank'."""

    def __init__(self, rng, max_rounds):
        self.rng, self.max_rounds = rng, max_rounds or 50
        self.score = {"red": 0, "blue": 0}
        self.gain, self.turn, self._round = 0, "red", 1
        self.chronicle = Chronicle()
        self.winner = None

    current_player = property(lambda self: None if self.is_terminal() else self.turn)
    phase = property(lambda self: "play")
    round = property(lambda self: self._round)

    def seats(self):
        return ["red", "blue"]

    def side_of(self, seat):
        return seat

    def legal_actions(self):
        return [("bank",), ("roll",)]

    def apply(self, action):
        action = ensure_legal(self, action)
        if action == ("roll",):
            face = int(self.rng.integers(1, 7))
            self.gain = 0 if face == 1 else self.gain + face
            if face != 1:
                return
        self.score[self.turn] += self.gain
        self.gain = 0
        if self.score[self.turn] >= 20:
            self.winner = self.turn
        if self.turn == "blue":
            for side, value in self.score.items():
                self.chronicle.record("score", side, self._round, value)
            self._round += 1
        self.turn = "blue" if self.turn == "red" else "red"

    def is_terminal(self):
        return self.winner is not None or self._round > self.max_rounds

    def result(self):
        return GameResult(self.winner, "score" if self.winner else "round-limit",
                          min(self._round, self.max_rounds), scores=dict(self.score))


class RaceSystem(GameSystem):
    system = "race"

    def __init__(self):
        class Scenario:
            id, root, documents, manifest = "race", ".", {}, {}
        super().__init__(Scenario())

    def unit_types(self):
        return []

    nations = spaces = unit_types

    def resolve_battle(self, position, rng):
        raise NotImplementedError

    def new_game(self, options, rng, max_rounds=None):
        return Race(rng, max_rounds)


def study(**changes):
    fields = dict(scenario=None, options={}, players={"red": "random", "blue": "random"},
                  games=40, seed=7, max_rounds=30)
    fields.update(changes)
    return Study(**fields)


def play(plan):
    """The study's games, played here; the replays written as a study's process writes them."""
    from playtest.study import ReplayFiles, play_game
    system = RaceSystem()
    return ReplayFiles(plan.replays).keep([play_game(system, plan, i) for i in range(plan.games)])


def test_a_game_seed_depends_on_the_study_seed_and_the_game_number_only():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(1000)}) == 1000
    assert game_seed(7, 3) != game_seed(8, 3)


def test_same_seed_same_games_and_replays_play_back(tmp_path):
    first, second = play(study(keep_actions=True)), play(study(keep_actions=True))
    assert [r.result for r in first] == [r.result for r in second]
    assert {r.result["winner"] for r in first} == {"red", "blue"}
    system = RaceSystem()
    for record in first[:10]:
        replay = Replay("race", "0" * 64, "race", {}, record.seed, 30, {}, list(record.moves),
                        GameResult.from_dict(record.result))
        path = replay.write(tmp_path / f"{record.index}.jsonl")
        back = Replay.read(path)
        assert back.actions == replay.actions
        assert play_back(back, system, check_hash=False).result() == back.result


def test_a_replay_of_another_game_is_refused(tmp_path):
    record = play(study(games=1, keep_actions=True))[0]
    moves = list(record.moves)
    moves.insert(0, ("blue", ("roll",)))     # blue does not start
    replay = Replay("race", "x", "race", {}, record.seed, 30, {}, moves)
    with pytest.raises(ReplayError, match="action 1: the replay has blue to play, the game red"):
        play_back(replay, RaceSystem(), check_hash=False)


def test_unreadable_replays_say_where(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "sandtable-replay", "version": 1}\n{oops\n')
    with pytest.raises(ReplayError, match=r"bad.jsonl:1:1: error RPL005: the header line breaks "
                       r"the replay schema at /: 'scenario' is a required property"):
        Replay.read(path)
    path.write_text('{"format": "other"}\n')
    with pytest.raises(ReplayError, match="bad.jsonl:1:1: error RPL004: not a replay"):
        Replay.read(path)


def test_illegal_actions_are_refused():
    state = RaceSystem().new_game({}, np.random.default_rng(1))
    with pytest.raises(IllegalAction, match="red may not \\['fly'\\] in the play phase of round 1"):
        state.apply(("fly",))
    assert as_action(json.loads(json.dumps([["a", 1], "b"]))) == (("a", 1), "b")


def test_a_failing_game_is_recorded_with_its_replay_and_the_batch_goes_on(tmp_path, monkeypatch):
    calls = {"n": 0}
    original = Race.apply

    def flaky(self, action):
        calls["n"] += 1
        if calls["n"] == 25:
            raise RuntimeError("dice fell off the table")
        original(self, action)

    monkeypatch.setattr(Race, "apply", flaky)
    records = play(study(games=5, replays=str(tmp_path)))
    failed = [r for r in records if r.error]
    assert len(failed) == 1 and "dice fell off the table" in failed[0].error
    assert Replay.read(failed[0].replay).error.startswith("RuntimeError: dice fell off the table")
    assert sum(1 for r in records if r.result) == 4


def test_player_specs_and_sides():
    system = RaceSystem()
    assert assign(["random", "blue=random"], ["red", "blue"], system) == {
        "red": "random", "blue": "random"}
    with pytest.raises(SettingError, match="unknown player 'randon'; did you mean random"):
        assign(["randon"], ["red", "blue"], system)
    with pytest.raises(SettingError, match="unknown side 'gren'; did you mean green"):
        assign(["gren=random"], ["red", "green"], system)
    with pytest.raises(SettingError, match="unknown setting 'bold'"):
        make_player("random:bold=true", system, "red", np.random.default_rng(0))
