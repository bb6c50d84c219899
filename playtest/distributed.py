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

Every worker must play the games this client would: before the first game, each one works out
the study's fingerprint (`fingerprint`: a hash of the engine's and the studies' source code as
that worker has them, and of the scenario's content as it received it) and a worker whose
fingerprint differs from the client's is refused by its address. Replays come back in the
records and are written by the client (playtest/study.py ReplayFiles), never on a worker's disk.

Before a study, the scheduler's address is checked (tcp://HOST:PORT), and Dask's handshake is
read with the whole exchange bounded by --connect-timeout: something else listening there (an
HTTP server, such as Dask's own dashboard) answers no handshake, and Dask's connect waits for
one without limit.

Dask is an optional dependency (`python3 -m pip install -e ".[distributed]"` from a clone), imported only here and
only when a Dask executor is asked for.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from engine.replay import content_hash
from engine.system import EngineError, load_system

from .study import GameRecord, ReplayFiles, Study, chunks, play_games_locally, portable

INSTALL_HINT = 'from a clone of the repository, python3 -m pip install -e ".[distributed]"'
CHUNK_RETRIES = 2             # a chunk that raised (not a lost worker) is tried this many more times
CONNECT_TIMEOUT = 20.0        # seconds: --connect-timeout's default
SCHEMES = ("tcp", "tls")      # the transports a scheduler is reached by here
ADDRESS_HINT = ("write it as tcp://HOST:PORT, as `dask scheduler` prints it (its port is 8786 "
                "unless told otherwise; 8787 is its dashboard, a web page)")


class DaskMissing(EngineError):
    """Dask distributed is not installed."""


class WorkerMismatch(EngineError):
    """A worker would play other games than this client: other code, or another scenario."""


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

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 connect_timeout: float = CONNECT_TIMEOUT):
        self.scheduler, self.workers, self.connect_timeout = scheduler, workers, connect_timeout
        self.client: Any = None          # a distributed.Client once entered
        self.cluster: Any = None
        self.last: dict = {}

    def __enter__(self) -> DaskExecutor:
        distributed = _dask()
        if self.scheduler:
            try:
                self.client = connect(self.scheduler, self.connect_timeout)
            except BaseException:
                self.__exit__()
                raise
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
        """Play the study's games; one record per game, in game order. The replays the
        records bring back are written here, by the client."""
        distributed = _dask()
        client = self.client
        lean = replace(study, scenario=portable(study.scenario))
        expected = fingerprint(lean)
        files = ReplayFiles(study.replays)
        records: list[GameRecord] = []
        futures: list = []
        shared = None
        try:
            _check_workers(client, lean, expected)
            shared = client.scatter(lean, broadcast=True, hash=False)
            parts = list(chunks(study.games, self.threads()))
            futures = [client.submit(play_chunk, shared, part.start, part.stop, expected,
                                     retries=CHUNK_RETRIES, pure=False,
                                     key=f"sandtable-games-{shared.key}-{part.start}")
                       for part in parts]
            seen_workers = set(client.scheduler_info()["workers"])
            looked = time.monotonic()
            for future in distributed.as_completed(futures):
                records.extend(files.keep(future.result()))
                if progress:
                    progress(len(records), study.games)
                if time.monotonic() - looked > 0.5:         # note every worker that took part
                    seen_workers |= set(client.scheduler_info()["workers"])
                    looked = time.monotonic()
        except EngineError:
            client.cancel(futures + ([shared] if shared is not None else []))
            raise
        except Exception as problem:      # a chunk that failed every try, or no worker left
            client.cancel(futures + ([shared] if shared is not None else []))
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
                     "workers": len(seen_workers),
                     "chunks": len(parts), "chunks_rerun": rerun, "workers_lost": lost,
                     "games_asked": study.games, "games_counted": len(records)}
        return records

    def describe(self) -> dict:
        """Where the last study was played: the scheduler, the workers that took part (the
        scheduler's, not --workers), chunks and games; before any study, the workers the
        scheduler has."""
        if self.last:
            return dict(self.last)
        found: dict = {"kind": "dask", "scheduler": self.scheduler or "local cluster"}
        if self.client is not None:
            found["workers"] = len(self.client.scheduler_info()["workers"])
        return found


# -- reaching a scheduler ------------------------------------------------------------------------
def checked_address(address: str) -> str:
    """The scheduler's address as Dask takes it, or EngineError saying how to write one."""
    from distributed.comm import parse_address, parse_host_port
    try:
        scheme, location = parse_address(address, strict=False)
        host, port = parse_host_port(location)
    except (ValueError, TypeError):
        raise EngineError(f"--scheduler {address!r} is not a scheduler address: "
                          f"{ADDRESS_HINT}") from None
    if scheme not in SCHEMES or not host or not 0 < port < 65536:
        raise EngineError(f"--scheduler {address!r} is not a scheduler address: "
                          f"{ADDRESS_HINT}")
    return f"{scheme}://{location}"


def connect(address: str, timeout: float):
    """A client of the scheduler at `address` with workers to play on; EngineError, within
    about `timeout` seconds for each step, when there is none."""
    import distributed
    address = checked_address(address)
    _handshake(address, timeout)
    try:
        client = distributed.Client(address, timeout=f"{timeout}s")
    except Exception as problem:  # noqa: BLE001 - whatever the peer did, it did not take a client
        raise EngineError(f"the Dask service at {address} did not take this client (is it a "
                          f"worker's address, not the scheduler's?): {type(problem).__name__}: "
                          f"{problem}") from None
    try:
        if not client.scheduler_info()["workers"]:
            client.wait_for_workers(1, timeout=timeout)
    except Exception:  # noqa: BLE001 - Dask's own TimeoutError, or the scheduler went away
        client.close()
        raise EngineError(f"the Dask scheduler at {address} has no workers (none joined within "
                          f"{timeout:g} s): start them with `dask worker {address} --nthreads 1`"
                          ) from None
    return client


def _handshake(address: str, timeout: float) -> None:
    """Read Dask's handshake from `address`, the whole exchange within `timeout` seconds:
    Dask's own connect bounds the connection, not the handshake, and waits without end on a
    server that does not speak first (an HTTP server)."""
    import asyncio

    from distributed.comm import connect as open_comm

    async def exchange() -> Any:
        comm = await asyncio.wait_for(open_comm(address, timeout=timeout), timeout)
        comm.abort()
        return comm.remote_info

    try:
        info = asyncio.run(exchange())
    except TimeoutError:
        raise EngineError(f"no Dask scheduler answered at {address} within {timeout:g} s "
                          "(--connect-timeout): nothing listens there, or something that is not "
                          f"a Dask scheduler does; {ADDRESS_HINT}") from None
    except OSError as problem:
        raise EngineError(f"cannot reach the Dask scheduler at {address}: {problem}") from None
    except Exception as problem:  # noqa: BLE001 - a foreign service's bytes read as Dask's
        raise EngineError(f"something answers at {address}, but not as a Dask scheduler does "
                          f"({type(problem).__name__}); {ADDRESS_HINT}") from None
    if not isinstance(info, dict) or "pickle-protocol" not in info:
        raise EngineError(f"something answers at {address}, but not as a Dask scheduler does; "
                          f"{ADDRESS_HINT}")


# -- the same games everywhere -------------------------------------------------------------------
PACKAGES = ("engine", "playtest")


@cache
def _code_hash() -> str:
    import engine
    import playtest
    digest = hashlib.sha256()
    for package in (engine, playtest):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root.parent).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def code_fingerprint() -> str:
    """A hash of the engine's and the studies' source code (engine/, playtest/) as this
    process has them."""
    return _code_hash()


def fingerprint(study: Study) -> str:
    """What makes a study's games the same wherever they are played: the code that plays them
    and the scenario's content."""
    return hashlib.sha256(f"{code_fingerprint()} {content_hash(study.scenario)}"
                          .encode("ascii")).hexdigest()


def _check_workers(client, study: Study, expected: str) -> None:
    """Refuse, by address, every worker whose fingerprint of the study is not the client's."""
    found = client.run(fingerprint, study)
    different = sorted(address for address, theirs in found.items() if theirs != expected)
    if different:
        raise WorkerMismatch(_mismatch(different))


def _mismatch(addresses: list[str]) -> str:
    many = len(addresses) > 1
    return (f"the Dask worker{'s' if many else ''} {', '.join(addresses)} would play other games "
            f"than this client: {'their' if many else 'its'} engine code or the scenario "
            f"{'they' if many else 'it'} received differs (another version of Sandtable "
            "installed there?); install the same version on every worker")


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


def play_chunk(study: Study, start: int, stop: int, expected: str | None = None
               ) -> list[GameRecord]:
    """A Dask task: games start..stop-1 of the study, with the game system built once per
    worker for each scattered study, after checking the study's fingerprint there (a worker
    that joined after the client's check is checked here)."""
    with _LOCK:
        found = _SYSTEMS.get(id(study))
        if found is None or found[0] is not study:
            if expected is not None and fingerprint(study) != expected:
                from distributed import get_worker
                raise WorkerMismatch(_mismatch([get_worker().address]))
            found = (study, load_system(study.scenario))
            _SYSTEMS[id(study)] = found
            while len(_SYSTEMS) > 4:
                _SYSTEMS.popitem(last=False)
    return play_games_locally(found[1], study, range(start, stop))


__all__ = ["DaskExecutor", "DaskMissing", "WorkerMismatch", "play_chunk", "fingerprint",
           "code_fingerprint", "checked_address", "connect", "INSTALL_HINT", "CONNECT_TIMEOUT"]
