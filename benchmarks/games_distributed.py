"""Whole games on Dask distributed: games per second with one and two local Dask workers, and
what a Dask task costs beyond its games.

    python benchmarks/games_distributed.py [SCENARIO] [--games N] [--max-rounds R]

The same study (heuristic players, one seed) is played four ways, each timed on the wall clock:
the baseline, a plain loop over the games in this process; local worker processes (2); a local
Dask cluster of one worker process; and one of two. Every way must give the baseline's records.
Target: two Dask workers play at least 1.8 times the games per second of one, on two free cores.
The overhead per task is the time of empty chunks (no game in them) sent to one worker: the
scheduling, the round trip, and the look-up of the worker's game system.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.distributed import DaskExecutor, play_chunk  # noqa: E402
from engine.players import assign  # noqa: E402
from engine.study import Study, play_games_locally, portable, run_study  # noqa: E402
from engine.system import load_system  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

EMPTY_TASKS = 200


def essence(records):
    return [(r.index, r.seed, r.result, r.actions, r.error) for r in records]


def timed(work):
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def empty_tasks(client, study) -> float:
    """Seconds for EMPTY_TASKS chunks of no games, sent one after another's submission."""
    shared = client.scatter(replace(study, scenario=portable(study.scenario)), broadcast=True,
                            hash=False)
    client.submit(play_chunk, shared, 0, 0, pure=False).result()      # the system, built once
    seconds, _ = timed(lambda: client.gather(
        [client.submit(play_chunk, shared, 0, 0, pure=False) for _ in range(EMPTY_TASKS)]))
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "aa50-1941"))
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--max-rounds", type=int, default=3)
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    system = load_system(scenario)
    sides = [s["id"] for _, s in scenario.entities("scenario", "sides")]
    options = {s.key: s.default for s in system.game_settings()}
    study = Study(scenario, options, assign([], sides, system), args.games, 1, args.max_rounds)
    print(f"{scenario.id}: {args.games} games of at most {args.max_rounds} rounds, heuristic "
          f"players; {os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")

    seconds, baseline = timed(lambda: play_games_locally(system, study, range(args.games)))
    rows = [("baseline: a plain loop, this process", seconds)]
    seconds, records = timed(lambda: run_study(study, 2))
    assert essence(records) == essence(baseline), "local processes differ from the baseline"
    rows.append(("local processes, 2 workers", seconds))
    overhead = None
    for workers in (1, 2):
        with DaskExecutor(workers=workers) as executor:
            executor.run(Study(scenario, options, study.players, 2, 99, 1))    # warm the workers
            seconds, records = timed(lambda: executor.run(study))
            assert essence(records) == essence(baseline), "Dask differs from the baseline"
            rows.append((f"Dask, local cluster, {workers} worker{'s' if workers > 1 else ''}",
                         seconds))
            if workers == 1:
                overhead = empty_tasks(executor.client, study)
    base = rows[0][1]
    print(f"\n{'':<40}{'seconds':>9}{'games/s':>10}{'vs baseline':>13}")
    for label, seconds in rows:
        print(f"{label:<40}{seconds:>9.2f}{args.games / seconds:>10.2f}{base / seconds:>12.2f}x")
    one, two = rows[2][1], rows[3][1]
    print(f"\ntwo Dask workers against one: {one / two:.2f}x (target: at least 1.8x on two free "
          "cores)")
    print(f"overhead per Dask task: {1000 * overhead / EMPTY_TASKS:.1f} ms "
          f"({EMPTY_TASKS} empty chunks on one worker); a chunk holds up to 16 games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
