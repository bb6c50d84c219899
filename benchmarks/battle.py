"""Battle calculator speed: Monte Carlo, exact, and one battle at a time.

    python benchmarks/battle.py [SCENARIO] [--runs N]

For each battle: simulated battles per second of one core's CPU time (the vectorised Monte Carlo), the
same through the calculator on all cores, the exact calculator's time, and the baseline: the
same battles fought one at a time by a plain Python loop over `resolve_battle`.
Targets: at least 200,000 simulated 10-vs-10 battles per second on one core; exact answers for
battles of up to 20 units a side in under 100 ms.
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

from engine import BattlePosition, Contingent, load_system  # noqa: E402
from engine.calculator import parse_force, simulate  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

BATTLES = [
    ("10 vs 10 land", "karelia-ssr",
     "germany: 5 infantry, 2 artillery, 2 armour, 1 fighter",
     "soviet-union: 7 infantry, 1 artillery, 2 armour"),
    ("20 vs 20 land", "karelia-ssr",
     "germany: 10 infantry, 4 artillery, 4 armour, 2 fighter",
     "soviet-union: 15 infantry, 2 artillery, 3 armour"),
    ("30 vs 30 land", "karelia-ssr",
     "germany: 15 infantry, 5 artillery, 7 armour, 2 fighter, 1 bomber",
     "soviet-union: 22 infantry, 4 artillery, 4 armour"),
    ("mixed naval, 10 vs 10", "sz-5",
     "germany: 2 submarine, 2 destroyer, 1 cruiser, 1 battleship, 1 carrier, 2 fighter, 1 bomber",
     "soviet-union: 1 battleship, 1 carrier, 2 fighter, 2 destroyer, 2 submarine, 1 cruiser, "
     "1 transport"),
]


def position(space: str, attacker: str, defender: str) -> BattlePosition:
    a, d = parse_force(attacker), parse_force(defender)
    return BattlePosition(space, (Contingent(a.owner, a.units),), (Contingent(d.owner, d.units),))


def timed(work, repeat: int = 3, clock=time.process_time) -> float:
    """The median time of `repeat` runs, in seconds: by default this process's CPU time, which
    is one core's work however busy the machine is; wall time for work spread over processes."""
    times = []
    for _ in range(repeat):
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default=str(ROOT / "scenarios" / "aa50-1941"))
    parser.add_argument("--runs", type=int, default=200_000, help="simulated battles per figure")
    parser.add_argument("--loop-runs", type=int, default=2_000,
                        help="battles for the one-at-a-time baseline")
    args = parser.parse_args()
    system = load_system(load_scenario(args.scenario))
    cores = os.cpu_count() or 1
    print(f"scenario {args.scenario}; {args.runs} simulated battles per figure; {cores} cores")
    header = (f"{'battle':<24}{'MC 1 core /s':>14}{f'MC {cores} cores /s':>16}"
              f"{'exact ms':>11}{'states':>9}{'loop /s':>10}{'speed-up':>10}")
    print(header)
    print("-" * len(header))
    for name, space, attacker, defender in BATTLES:
        pos = position(space, attacker, defender)
        rng = np.random.default_rng(1)
        one_core = args.runs / timed(lambda: system.simulate(pos, args.runs, rng))
        all_cores = args.runs / timed(lambda: simulate(system, pos, args.runs, seed=1,
                                                       processes=cores), repeat=1,
                                 clock=time.perf_counter)
        found = system.exact(pos, 2_000_000)
        exact_s = timed(lambda: system.exact(pos, 2_000_000)) if found is not None else float("nan")
        loop = args.loop_runs / timed(
            lambda: [system.resolve_battle(pos, rng) for _ in range(args.loop_runs)], repeat=1)
        states = found.states if found is not None else 0
        print(f"{name:<24}{one_core:>14,.0f}{all_cores:>16,.0f}{1000 * exact_s:>11.1f}"
              f"{states:>9}{loop:>10,.0f}{one_core / loop:>9.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
