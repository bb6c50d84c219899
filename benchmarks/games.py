"""Whole-game playtest speed: how long one game takes, and how many games a machine plays.

    python benchmarks/games.py [--games N] [--scenario FOLDER]

On one core (this process's CPU time): the median and 90th percentile time of a whole AA50
1942 game (15 rounds at most) for `random` players and for `heuristic` players, against the
baseline measured in the same run: the same heuristic player weighing each planned attack with
the battle calculator itself (`heuristic:judge=calculator`, exact where small, otherwise 500
simulated battles), which is what a player built on the calculator alone would do. Then games
per minute on every core, the time 1,000 games would take, and the memory of a worker.

Targets: a heuristic game under 1 s median on one core; 1,000 games on two cores in under
10 minutes; under 500 MB per worker.

War at Sea (eight turns, `scenarios/war-at-sea`): the same figures on one core for `random`
and `heuristic` players, against the same kind of baseline (`heuristic:judge=calculator`: the
heuristic asking the battle calculator, 200 simulated battles, before each strike and each
escape). Target: a heuristic game under 20 ms median on one core, so that 500 random games of
the property tests take seconds.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.processes import available_cores  # noqa: E402
from engine.study import Study, play_game, run_study  # noqa: E402
from engine.system import load_system  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402


def per_game(system, scenario, players: str, games: int, seed: int) -> list[float]:
    """CPU seconds of each game, played one after another in this process."""
    options = {s.key: s.default for s in system.game_settings()}
    study = Study(scenario, options, {"axis": players, "allies": players}, games, seed, 15)
    times = []
    for index in range(games):
        start = time.process_time()
        record = play_game(system, study, index)
        times.append(time.process_time() - start)
        if record.error:
            raise SystemExit(f"game {index} failed: {record.error}")
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per measurement (20)")
    parser.add_argument("--scenario", default=str(ROOT / "scenarios" / "aa50-1942"))
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    system = load_system(scenario)
    system.game_data()
    print(f"{scenario.id}: whole games of at most 15 rounds, {args.games} per measurement\n")
    print(f"{'players (one core, CPU time)':<44}{'median':>9}{'90th pct':>10}")
    rows = {}
    for label, spec, games in (("random", "random", args.games),
                               ("heuristic", "heuristic", args.games),
                               ("baseline: heuristic:judge=calculator",
                                "heuristic:judge=calculator", max(4, args.games // 4))):
        times = per_game(system, scenario, spec, games, 7)
        rows[label] = statistics.median(times)
        print(f"  {label:<42}{statistics.median(times):8.2f}s{percentile(times, 0.9):9.2f}s")
    print(f"\n  the heuristic player is {rows['baseline: heuristic:judge=calculator'] / rows['heuristic']:.1f}x "
          "quicker than the same player asking the battle calculator "
          f"(target: a game under 1 s median: {'met' if rows['heuristic'] < 1 else 'NOT met'})")

    cores = available_cores()
    games = max(args.games, 2 * cores)
    options = {s.key: s.default for s in system.game_settings()}
    study = Study(scenario, options, {"axis": "heuristic", "allies": "heuristic"}, games, 11, 15)
    start = time.perf_counter()
    records = run_study(study, workers=cores)
    wall = time.perf_counter() - start
    per_minute = 60 * len(records) / wall
    print(f"\non {cores} core(s): {games} heuristic games in {wall:.1f} s wall time: "
          f"{per_minute:.0f} games a minute; 1,000 games would take {1000 / per_minute:.1f} "
          f"minutes (target: under 10 on two cores)")
    cpu_minutes = 1000 * rows["heuristic"] / cores / 60
    print(f"from the CPU time of one game: 1,000 games on {cores} core(s) take "
          f"{cpu_minutes:.1f} minutes of {cores} otherwise idle cores (a busy machine takes "
          "longer, as the wall time above shows)")
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: {worker:.0f} MB at most per worker, {own:.0f} MB in this process "
          "(target: under 500 MB per worker)")
    war_at_sea(args.games)


def war_at_sea(games: int) -> None:
    """War at Sea's section: one core, random and heuristic players, the calculator baseline."""
    scenario = load_scenario(ROOT / "scenarios" / "war-at-sea")
    system = load_system(scenario)
    games = max(games, 40)
    print(f"\n{scenario.id}: whole games of 8 turns, {games} per measurement\n")
    print(f"{'players (one core, CPU time)':<44}{'median':>9}{'90th pct':>10}")
    rows = {}
    for label, spec, count in (("random", "random", games), ("heuristic", "heuristic", games),
                               ("baseline: heuristic:judge=calculator",
                                "heuristic:judge=calculator", max(4, games // 8))):
        times = per_game(system, scenario, spec, count, 7)
        rows[label] = statistics.median(times)
        print(f"  {label:<42}{1000 * statistics.median(times):7.1f}ms"
              f"{1000 * percentile(times, 0.9):8.1f}ms")
    print(f"\n  the heuristic player is {rows['baseline: heuristic:judge=calculator'] / rows['heuristic']:.0f}x "
          "quicker than the same player asking the battle calculator (target: a game under "
          f"20 ms median: {'met' if rows['heuristic'] < 0.020 else 'NOT met'}); 500 random games "
          f"take {500 * rows['random']:.1f} s on one core")


if __name__ == "__main__":
    main()
