"""CPU time of whole games, shared by the benchmarks that time them (games.py, players.py,
search_gj69.py, the player benchmarks through player_benchmark.py): each game played one after
another in this process, so that the figure is one core's, whatever else the machine does."""
from __future__ import annotations

import statistics
import time

import numpy as np

from playtest.study import Study, play_game


def cpu_per_game(system, study: Study, what: str = "game") -> list[float]:
    """CPU seconds of each of the study's games; a failed game stops the run (`what` names
    it in the message)."""
    times = []
    for index in range(study.games):
        start = time.process_time()
        record = play_game(system, study, index)
        times.append(time.process_time() - start)
        if record.error:
            raise SystemExit(f"{what} {index} failed: {record.error}")
    return times


def percentile(values: list[float], share: float) -> float:
    """The value at `share` of the way through the sorted values: the higher of two neighbours,
    a time that was measured (never one between) and never below the median."""
    return float(np.percentile(values, 100 * share, method="higher"))


def median_and_90th(times: list[float]) -> tuple[float, float]:
    return statistics.median(times), percentile(times, 0.9)
