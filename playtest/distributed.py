"""Studies on Dask distributed: many machines, or a local cluster of worker processes.

The games of a study are cut into the chunks `playtest.study.chunks` makes, and each chunk is one
Dask task. Game i is seeded from the study's seed and its number only (`game_seed`), so the
records, and the report made from them, are the ones local processes give for the same seed.
The study, with its scenario reduced to data (`portable`), is scattered to every worker once;
each worker builds the game system from it once and plays its chunks.

When a worker is lost mid-study (its machine stops, its process is killed), the scheduler gives
the chunks it held to the other workers (Dask's own recovery; `retries` covers a chunk that
raised). `DaskExecutor.run` then checks that every game came back exactly once and says how many
chunks had to be played again.

Dask is an optional dependency (`python3 -m pip install -e ".[distributed]"` from a clone), imported only here and
only when a Dask executor is asked for.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from engine.system import EngineError, load_system

from .study import GameRecord, Study, chunks, play_games_locally, portable

INSTALL_HINT = 'from a clone of the repository, python3 -m pip install -e ".[distributed]"'
CHUNK_RETRIES = 2             # a chunk that raised (not a lost worker) is tried this many more times


class DaskMissing(EngineError):
    """Dask distributed is not installed."""


def _dask():
    try:
        import distributed
    except ImportError:
        raise DaskMissing("the Dask executor needs Dask distributed, which is not installed: "
                          + INSTALL_HINT) from None
    return distributed


class DaskExecutor:
    """Plays studies on a Dask cluster: the scheduler at `scheduler` (tcp://HOST:8786), or a
    local cluster of `workers` single-threaded worker processes when no scheduler is given.
    Use it as a context manager; it closes what it opened."""

    kind = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None):
        self.scheduler, self.workers = scheduler, workers
        self.client: Any = None          # a distributed.Client once entered
        self.cluster: Any = None
        self.last: dict = {}

    def __enter__(self) -> DaskExecutor:
        distributed = _dask()
        if self.scheduler:
            try:
                self.client = distributed.Client(self.scheduler, timeout="20s")
            except (OSError, TimeoutError) as problem:
                raise EngineError(f"cannot reach the Dask scheduler at {self.scheduler}: "
                                  f"{problem}") from None
        else:
            from engine.processes import available_cores
            self.cluster = distributed.LocalCluster(
                n_workers=self.workers or available_cores(), threads_per_worker=1,
                processes=True, dashboard_address=":0", silence_logs=logging.ERROR)
            self.client = distributed.Client(self.cluster)
        return self

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def run(self, study: Study, progress=None) -> list[GameRecord]:
        """Play the study's games; one record per game, in game order."""
        distributed = _dask()
        client = self.client
        shared = client.scatter(replace(study, scenario=portable(study.scenario)), broadcast=True,
                                hash=False)
        parts = list(chunks(study.games, self.threads()))
        futures = [client.submit(play_chunk, shared, part.start, part.stop, retries=CHUNK_RETRIES,
                                 pure=False, key=f"sandtable-games-{shared.key}-{part.start}")
                   for part in parts]
        seen_workers = set(client.scheduler_info()["workers"])
        records: list[GameRecord] = []
        looked = time.monotonic()
        try:
            for future in distributed.as_completed(futures):
                records.extend(future.result())
                if progress:
                    progress(len(records), study.games)
                if time.monotonic() - looked > 0.5:         # note every worker that took part
                    seen_workers |= set(client.scheduler_info()["workers"])
                    looked = time.monotonic()
        except Exception as problem:      # a chunk that failed every try, or no worker left
            client.cancel(futures + [shared])
            raise EngineError(f"the study failed on Dask: {type(problem).__name__}: "
                              f"{problem}") from None
        rerun = _chunks_rerun(client, [f.key for f in futures])
        lost = len(seen_workers - set(client.scheduler_info()["workers"]))
        client.cancel(futures + [shared])
        records.sort(key=lambda record: record.index)
        counted = [record.index for record in records]
        if counted != list(range(study.games)):
            raise EngineError(f"the Dask study returned {len(counted)} games for {study.games} "
                              "asked")
        self.last = {"kind": "dask", "scheduler": self.scheduler or "local cluster",
                     "workers": len(client.scheduler_info()["workers"]),
                     "chunks": len(parts), "chunks_rerun": rerun, "workers_lost": lost,
                     "games_asked": study.games, "games_counted": len(records)}
        return records

    def describe(self) -> dict:
        return dict(self.last) or {"kind": "dask", "scheduler": self.scheduler or "local cluster"}


def _chunks_rerun(client, keys: list[str]) -> int | None:
    """How many chunks were on a worker that was lost (the scheduler counts them as suspicious
    and plays them elsewhere); None when the scheduler does not say."""
    def count(dask_scheduler, keys):
        return sum(1 for key in keys if key in dask_scheduler.tasks
                   and dask_scheduler.tasks[key].suspicious)
    try:
        return int(client.run_on_scheduler(count, keys=keys))
    except Exception:                  # an older or locked-down scheduler: the figure is optional
        return None


# -- on a worker ---------------------------------------------------------------------------------
_SYSTEMS: OrderedDict = OrderedDict()      # id(study) -> (study, system), the last few studies
_LOCK = threading.Lock()


def play_chunk(study: Study, start: int, stop: int) -> list[GameRecord]:
    """A Dask task: games start..stop-1 of the study, with the game system built once per
    worker for each scattered study."""
    with _LOCK:
        found = _SYSTEMS.get(id(study))
        if found is None or found[0] is not study:
            found = (study, load_system(study.scenario))
            _SYSTEMS[id(study)] = found
            while len(_SYSTEMS) > 4:
                _SYSTEMS.popitem(last=False)
    return play_games_locally(found[1], study, range(start, stop))


__all__ = ["DaskExecutor", "DaskMissing", "play_chunk", "INSTALL_HINT"]
