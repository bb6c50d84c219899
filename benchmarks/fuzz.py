"""A fuzzing campaign: random and mutated input for every reader and command, for N minutes.

    python benchmarks/fuzz.py --minutes 5 [--seed 1] [--category yaml ...]

Prints, per category (see tests/fuzzing.py), the inputs tried, how many were accepted and how
many refused with a diagnostic, and the promises broken: tracebacks, hangs (over 10 s) and
changed round trips (data changed by `format` or a save, or a file written that the loader
refuses). Each failure is shown with the seed that makes it again. Exit 1 if any promise broke.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]   # this checkout's code, whatever is installed
from fuzzing import CATEGORIES, TIME_LIMIT, run  # noqa: E402

SHOWN = 3   # failures printed in full per category


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--category", action="append", choices=sorted(CATEGORIES))
    args = parser.parse_args(argv)
    categories = args.category or list(CATEGORIES)
    counts = {name: Counter() for name in categories}
    seconds = Counter()
    slowest = Counter()
    failures: dict[str, list[tuple[int, object]]] = {name: [] for name in categories}
    end = time.monotonic() + 60 * args.minutes
    index = 0
    while time.monotonic() < end:
        name = categories[index % len(categories)]
        seed = args.seed * 1_000_003 + index
        outcome = run(name, random.Random(seed))
        counts[name][outcome.verdict] += 1
        seconds[name] += outcome.seconds
        slowest[name] = max(slowest[name], outcome.seconds)
        if not outcome.kept:
            failures[name].append((seed, outcome))
        index += 1
    header = (f"{'category':<10}{'inputs':>8}{'accepted':>10}{'refused':>9}{'traceback':>11}"
              f"{'hang':>6}{'changed':>9}{'ms/input':>10}{'slowest s':>11}")
    print(f"fuzzing for {args.minutes:g} min, seed {args.seed}, time limit {TIME_LIMIT:.0f} s per input")
    print(header)
    for name in categories:
        c = counts[name]
        total = sum(c.values())
        print(f"{name:<10}{total:>8}{c['accepted']:>10}{c['refused']:>9}{c['traceback']:>11}"
              f"{c['hang']:>6}{c['changed']:>9}{1000 * seconds[name] / max(total, 1):>10.1f}"
              f"{slowest[name]:>11.2f}")
    broken = sum(len(found) for found in failures.values())
    for name, found in failures.items():
        for seed, outcome in found[:SHOWN]:
            print(f"\n--- {name}, seed {seed} (random.Random({seed})) ---\n{outcome.report()}")
    print(f"\n{broken} input(s) broke a promise")
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
