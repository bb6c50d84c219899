"""Allies vs. Axis whole games: time per game on one core, and every random game checked.

    python benchmarks/games_allies_vs_axis.py [--games N] [--check-games N] [--workers K]

For each game mode, the median and 90th percentile CPU time of one game between two random
players and between two heuristic players, against a baseline measured in the same run: a plain
Python loop that plays the same number of rounds of the bare board (spin, move round the ring,
collect the starting territories' yields), the bookkeeping any simulation of this board does
before it has any rules. Target: under 50 ms median per heuristic game on one core.

Then `--check-games` random games per mode (500 by default) with every invariant checked after
every action (`Study(check=True)`), on `--workers` processes: every game must end, none may break
an invariant; the exit status is 1 if one does. tests/test_allies_vs_axis_game.py plays a seeded
slice of them.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.study import Study, play_game, run_study  # noqa: E402
from engine.system import load_system  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

SCENARIO = ROOT / "scenarios" / "allies-vs-axis"
MODES = ("regular", "les-miserables", "fierce-battle", "no-italy")
TARGET_MS = 50.0


def bare_board(board, mode: str, rounds: int, seed: int) -> int:
    """The baseline: `rounds` rounds of spinning, moving and collecting, in plain Python."""
    rng = np.random.default_rng(seed)
    yields = board.yields_for(mode)
    start = board.modes[mode].start
    money = {side: 0 for side in board.sides}
    armies = {side: {unit: 0 for unit in board.units} for side in board.sides}
    pawn = {side: board.square_of[board.main_territory[side]] for side in board.sides}
    for _ in range(rounds):
        for side in board.sides:
            for space in start[side]:
                for unit, amount in yields[space]:
                    if unit is None:
                        money[side] += amount
                    else:
                        armies[side][unit] += amount
            pawn[side] = (pawn[side] + int(rng.integers(1, board.faces + 1))) % len(board.squares)
    return sum(money.values())


def one_core(system, mode: str, spec: str, games: int) -> dict:
    """CPU time per game (this process only: one core's work however busy the machine is)."""
    study = Study(system.scenario, {"mode": mode}, {"allies": spec, "axis": spec}, games, seed=1)
    seconds, baseline, actions, rounds = [], [], [], []
    for index in range(games):
        start = time.process_time()
        record = play_game(system, study, index)
        seconds.append(time.process_time() - start)
        if record.error:
            raise SystemExit(f"{mode} {spec} game {index}: {record.error}")
        actions.append(record.actions)
        rounds.append(record.result["round"])
        start = time.process_time()
        bare_board(system.board, mode, record.result["round"], index)
        baseline.append(time.process_time() - start)
    return {"median": 1000 * statistics.median(seconds),
            "p90": 1000 * float(np.percentile(seconds, 90)),
            "baseline": 1000 * statistics.median(baseline),
            "actions": statistics.median(actions), "rounds": statistics.median(rounds)}


def checked(scenario, mode: str, games: int, workers: int) -> tuple[int, list, float]:
    study = Study(scenario, {"mode": mode}, {"allies": "random", "axis": "random"}, games,
                  seed=2024, check=True)
    start = time.perf_counter()
    records = run_study(study, workers)
    failed = [(r.index, r.error, r.replay) for r in records if r.error]
    return len(records) - len(failed), failed, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games timed per mode and player")
    parser.add_argument("--check-games", type=int, default=500,
                        help="random games per mode played with every invariant checked (0: none)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes for the checked games")
    args = parser.parse_args()
    scenario = load_scenario(SCENARIO)
    system = load_system(scenario)
    print(f"Allies vs. Axis: {args.games} games per mode and player, CPU time of one core")
    header = (f"{'mode':<16}{'players':<11}{'median ms':>10}{'p90 ms':>9}{'actions':>9}"
              f"{'rounds':>8}{'bare board ms':>15}{'x bare':>8}")
    print(header)
    print("-" * len(header))
    heuristic_medians = []
    for mode in MODES:
        for spec in ("random", "heuristic"):
            found = one_core(system, mode, spec, args.games)
            if spec == "heuristic":
                heuristic_medians.append(found["median"])
            print(f"{mode:<16}{spec:<11}{found['median']:>10.1f}{found['p90']:>9.1f}"
                  f"{found['actions']:>9.0f}{found['rounds']:>8.0f}{found['baseline']:>15.2f}"
                  f"{found['median'] / found['baseline']:>7.0f}x")
    worst = max(heuristic_medians)
    print(f"\nheuristic game, worst median of the modes: {worst:.1f} ms "
          f"(target under {TARGET_MS:.0f} ms): {'met' if worst < TARGET_MS else 'NOT MET'}")
    status = 0
    if args.check_games:
        print(f"\n{args.check_games} random games per mode, invariants checked after every "
              f"action, {args.workers} workers")
        for mode in MODES:
            ended, failed, seconds = checked(scenario, mode, args.check_games, args.workers)
            print(f"  {mode:<16}{ended:>5} ended, {len(failed)} failed  ({seconds:.1f} s)")
            for index, error, replay in failed[:5]:
                print(f"    game {index}: {error} (replay {replay})")
            status = status or (1 if failed else 0)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
