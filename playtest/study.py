"""Many whole games, AI against AI: the engine's playtest.

A `Study` says what to play: a scenario, the options, a player per side, how many games, the
seed, the round limit. `run_study` plays them, in worker processes when asked, and returns one
`GameRecord` per game, in game order.

Determinism: game `i` is seeded from `SeedSequence(seed, spawn_key=(i,))`, so its seed depends
only on the study's seed and its number, never on which worker plays it or in which chunk; the
records are sorted by game number. The same seed gives the identical report for any number of
workers (and on Dask, playtest/distributed.py).

A rules error inside one game (an exception, a broken invariant, an illegal action by a player,
a game that does not end) stops that game only: its record carries the error and its replay,
and the batch goes on.

Replays travel in the records (`GameRecord.replay_text`) to the process that runs the study,
which writes them (`ReplayFiles`) as each chunk of games comes back: into the study's --replays
folder, or, for a failed game when none was given, into a private folder made for the study
(`tempfile.mkdtemp`: readable by its owner only, a new name each time, so no other user can
plant a link in it or read another run's games). Workers never write: on Dask they may be other
machines, where the folder does not exist.
"""
from __future__ import annotations

import tempfile
import time
import traceback
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from engine.game import GameState
from engine.players import make_player
from engine.processes import process_context
from engine.replay import Replay, content_hash
from engine.system import EngineError, load_system
from sandtable.safewrite import atomic_write_bytes

MAX_ACTIONS = 2_000_000      # a game that takes more actions than this does not end: an error
MAX_GAMES = 10_000_000


@dataclass(frozen=True)
class Study:
    """What to play. `scenario` is a loaded Scenario (see `portable`)."""

    scenario: object
    options: dict
    players: dict[str, str]             # side -> player spec
    games: int
    seed: int
    max_rounds: int | None = None
    check: bool = False                 # check invariants after every action, and the replay
    replays: str | None = None          # folder to write every game's replay into
    keep_actions: bool = False          # keep each game's actions in its record


@dataclass
class GameRecord:
    """One game as the report reads it."""

    index: int
    seed: int
    result: dict | None                 # GameResult.as_dict(); None when the game failed
    chronicle: dict
    actions: int
    seconds: float
    error: str | None = None
    replay: str | None = None           # the replay's path, once written
    moves: list | None = None           # (seat, action) pairs, with Study.keep_actions
    replay_text: str | None = None      # the replay, on its way to the study's process


def game_seed(seed: int, index: int) -> int:
    """Game `index`'s seed: from the study's seed and the game's number only."""
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    return int(child.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def portable(scenario):
    """A copy of a loaded scenario with its data only (no source texts or positions): small to
    send to worker processes, and enough for the engine."""
    from sandtable.merge import Tracked
    from sandtable.scenario import Scenario
    return Scenario(root=scenario.root,
                    documents={kind: Tracked(tracked.data) for kind, tracked
                               in scenario.documents.items() if not kind.startswith("locale:")},
                    lineage=list(scenario.lineage))


# -- one game ------------------------------------------------------------------------------------
def play_game(system, study: Study, index: int) -> GameRecord:
    seed = game_seed(study.seed, index)
    started = time.perf_counter()
    moves: list = []
    state: GameState | None = None
    try:
        state = system.new_game(study.options, np.random.default_rng(seed), study.max_rounds)
        players = {side: make_player(spec, system, side, np.random.default_rng([seed, number]))
                   for number, (side, spec) in enumerate(sorted(study.players.items()), 1)}
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None  # the game is not over
            action = players[state.side_of(seat)].choose(state)
            moves.append((seat, action))       # before applying: a failing action is replayed
            state.apply(action)
            if study.check:
                broken = list(state.invariants())
                if broken:
                    raise EngineError("broken invariant after "
                                      f"{list(action)}: " + "; ".join(broken))
            if len(moves) > MAX_ACTIONS:
                raise EngineError(f"the game did not end within {MAX_ACTIONS} actions")
        result = state.result()
        if study.check:
            _check_replay(system, study, seed, moves, result)
    except Exception as problem:      # a rules error: reported with its replay, the batch goes on
        error = f"{type(problem).__name__}: {problem}"
        replay = _replay(system, study, seed, moves)
        replay.error = error + "\n" + traceback.format_exc(limit=-8)
        return GameRecord(index, seed, None, state.chronicle.as_dict() if state else {},
                          len(moves), time.perf_counter() - started, error,
                          moves=moves if study.keep_actions else None, replay_text=replay.text())
    record = GameRecord(index, seed, result.as_dict(), state.chronicle.as_dict(), len(moves),
                        time.perf_counter() - started,
                        moves=moves if study.keep_actions else None)
    if study.replays:
        replay = _replay(system, study, seed, moves)
        replay.result = result
        record.replay_text = replay.text()
    return record


def _check_replay(system, study: Study, seed: int, moves: list, result) -> None:
    """A game's actions played again on a new game started the same way reach the same end:
    the game depends on nothing but its seed and its actions."""
    from engine.replay import play_back
    replay = _replay(system, study, seed, moves)
    again = play_back(replay, system, check_hash=False)
    if not again.is_terminal() or again.result() != result:
        raise EngineError(f"the replay does not reproduce the game: {result} at first, "
                          f"{again.result()} played back")


def _replay(system, study: Study, seed: int, moves: list) -> Replay:
    scenario = system.scenario
    return Replay(scenario.id, _hash_of(scenario), system.system, dict(study.options), seed,
                  study.max_rounds, dict(study.players), list(moves),
                  folder=str(scenario.root))


_HASHES: dict[int, tuple[weakref.ref, str]] = {}


def _hash_of(scenario) -> str:
    """The scenario's content hash, worked out once per scenario object. Kept by id with a
    weak reference to check it: a comparison makes and drops many scenarios in one process,
    and a new one may be given a dropped one's id."""
    kept = _HASHES.get(id(scenario))
    if kept is None or kept[0]() is not scenario:
        kept = _HASHES[id(scenario)] = (weakref.ref(scenario), content_hash(scenario))
    return kept[1]


class ReplaysNotWritten(EngineError):
    """A replay could not be written (a full disk, a folder made read-only meanwhile)."""


class ReplayFiles:
    """Writes a study's replays, in the process that runs the study, as its records come back:
    into `folder` (the study's --replays), or for a failed game when there is none, into a
    private folder made for this study on first need (`made`)."""

    def __init__(self, folder: str | None):
        self.folder = Path(folder) if folder else None
        self.made: Path | None = None

    def keep(self, records: list[GameRecord]) -> list[GameRecord]:
        """Write the replays the records carry; each record then holds its replay's path."""
        for record in records:
            if record.replay_text is None:
                continue
            path = self._where() / f"game-{record.index:06d}.jsonl"
            try:
                atomic_write_bytes(path, record.replay_text.encode("utf-8"), within=path.parent)
            except OSError as problem:
                raise ReplaysNotWritten(f"cannot write the replay {path}: "
                                        f"{problem.strerror or problem}") from None
            record.replay, record.replay_text = str(path), None
        return records

    def _where(self) -> Path:
        if self.folder is None:
            try:
                self.folder = self.made = Path(tempfile.mkdtemp(prefix="sandtable-replays-"))
            except OSError as problem:
                raise ReplaysNotWritten("cannot make a folder for the replays of failed games "
                                        f"in {tempfile.gettempdir()}: {problem.strerror}") from None
        return self.folder


# -- many games ----------------------------------------------------------------------------------
def chunks(games: int, workers: int) -> Iterator[range]:
    """Game numbers in chunks: small enough to balance the workers and show progress, big
    enough that sending them costs little. Made lazily: `games` may be large."""
    size = max(1, min(16, games // max(1, workers * 8)))
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def run_study(study: Study, workers: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> list[GameRecord]:
    """Play the study's games; one record per game, in game order."""
    if not 1 <= study.games <= MAX_GAMES:
        raise EngineError(f"games must be between 1 and {MAX_GAMES:,}")
    workers = max(1, min(workers or 1, study.games))
    files = ReplayFiles(study.replays)
    records: list[GameRecord] = []
    if workers == 1:
        system = load_system(study.scenario)
        for index in range(study.games):
            records.extend(files.keep([play_game(system, study, index)]))
            if progress:
                progress(len(records), study.games)
        return records
    with ProcessPoolExecutor(max_workers=workers, mp_context=process_context(),
                             initializer=_start_worker, initargs=(_lean(study),)) as pool:
        pending = set()
        queue = chunks(study.games, workers)
        try:
            for part in queue:                       # keep a few chunks per worker in flight
                pending.add(pool.submit(_play_chunk, part.start, part.stop))
                if len(pending) >= workers * 3:
                    break
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    records.extend(files.keep(future.result()))
                    if progress:
                        progress(len(records), study.games)
                for part in queue:
                    pending.add(pool.submit(_play_chunk, part.start, part.stop))
                    if len(pending) >= workers * 3:
                        break
        except BaseException:
            for future in pending:                   # a study that stops plays no more games
                future.cancel()
            raise
    records.sort(key=lambda record: record.index)
    return records


def _lean(study: Study) -> Study:
    return replace(study, scenario=portable(study.scenario))


_WORKER: dict = {}


def _start_worker(study: Study) -> None:
    """Each worker process builds the game system once, from the study's scenario data."""
    _WORKER["study"] = study
    _WORKER["system"] = load_system(study.scenario)


def _play_chunk(start: int, stop: int) -> list[GameRecord]:
    study, system = _WORKER["study"], _WORKER["system"]
    return [play_game(system, study, index) for index in range(start, stop)]


def play_games_locally(system, study: Study, indexes) -> list[GameRecord]:
    """Play some of a study's games in this process (what a distributed worker runs)."""
    return [play_game(system, study, index) for index in indexes]


__all__ = ["Study", "GameRecord", "ReplayFiles", "ReplaysNotWritten", "run_study", "play_game",
           "game_seed", "portable", "chunks", "play_games_locally"]
