"""Where a study's games are played: local worker processes, or a Dask cluster
(playtest/distributed.py). Both give the same records for the same study.

An executor is a context manager with `run(study, progress) -> records` and `describe()`, the
line of the report's meta that says where the games were played.
"""
from __future__ import annotations

from .study import GameRecord, Study, run_study

EXECUTORS = ("processes", "dask")


class LocalProcesses:
    """The games in this machine's processes (playtest.study.run_study)."""

    kind = "processes"

    def __init__(self, workers: int | None = None):
        self.workers = workers

    def __enter__(self) -> LocalProcesses:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def run(self, study: Study, progress=None) -> list[GameRecord]:
        workers = max(1, min(self.workers or 1, study.games))
        return run_study(study, workers, progress)

    def describe(self) -> dict:
        """The kind only: the report's meta already says how many workers played (and the
        same seed gives the same report for any number of them)."""
        return {"kind": "processes"}


def open_executor(kind: str = "processes", scheduler: str | None = None,
                  workers: int | None = None, connect_timeout: float | None = None):
    """The executor of that kind (not yet entered)."""
    if kind == "dask":
        from .distributed import CONNECT_TIMEOUT, DaskExecutor
        return DaskExecutor(scheduler, workers, connect_timeout or CONNECT_TIMEOUT)
    if scheduler:
        raise ValueError("a scheduler is for the dask executor: add --executor dask")
    return LocalProcesses(workers)


def describe_executor(info: dict, workers: int | None = None) -> str:
    """One line for people: where the games were played, and that none was lost."""
    if info.get("kind") != "dask":
        workers = workers or 1
        return f"played in {workers} local process{'es' if workers != 1 else ''}"
    text = (f"played on Dask ({info.get('scheduler')}, {info.get('workers')} workers) in "
            f"{info.get('chunks')} chunks")
    lost, rerun = info.get("workers_lost"), info.get("chunks_rerun")
    if lost:
        text += f"; {lost} worker{'s' if lost != 1 else ''} lost"
    if rerun:
        text += f", {rerun} chunk{'s' if rerun != 1 else ''} played again"
    asked, counted = info.get("games_asked"), info.get("games_counted")
    if asked is not None:
        text += f"; {counted} of {asked} games counted" + (", none lost" if counted == asked
                                                           else "")
    return text


__all__ = ["EXECUTORS", "LocalProcesses", "open_executor", "describe_executor"]
