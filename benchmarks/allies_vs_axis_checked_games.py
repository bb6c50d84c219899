"""Allies vs. Axis: 500 random games per game mode, every invariant checked after every action.

    python benchmarks/allies_vs_axis_checked_games.py [--games N] [--workers K]

Random players go where no sensible player goes, so they find the rules' holes. Each game is
played with `Study(check=True)`: `AvAGame.invariants()` after every action. Every game must end
and none may break an invariant; the exit status is 1 if one does, and the failing games'
replays are named. The figures: games, failures and wall time per mode, against the same games
played without the checks (the baseline: what the checks cost). tests/test_allies_vs_axis_game.py
plays a seeded slice of these games; benchmarks/games.py times games on one core.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.processes import available_cores  # noqa: E402
from playtest.study import Study, run_study  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

MODES = ("regular", "les-miserables", "fierce-battle", "no-italy")


def play(scenario, mode: str, games: int, workers: int, check: bool):
    study = Study(scenario, {"mode": mode}, {"allies": "random", "axis": "random"}, games,
                  seed=2024, check=check)
    start = time.perf_counter()
    records = run_study(study, workers)
    return records, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="random games per mode (500)")
    parser.add_argument("--workers", type=int, default=available_cores(),
                        help="processes to play in (default: every core)")
    args = parser.parse_args()
    scenario = load_scenario(ROOT / "scenarios" / "allies-vs-axis")
    print(f"allies-vs-axis: {args.games} random games per mode on {args.workers} worker(s)\n")
    print(f"{'mode':<16}{'ended':>7}{'failed':>8}{'checked s':>11}{'unchecked s':>13}{'rounds':>8}")
    failures = []
    for mode in MODES:
        records, checked = play(scenario, mode, args.games, args.workers, True)
        _, unchecked = play(scenario, mode, args.games, args.workers, False)
        failed = [r for r in records if r.error]
        failures += [(mode, r) for r in failed]
        rounds = sorted(r.result["round"] for r in records if r.result)
        middle = rounds[len(rounds) // 2] if rounds else 0
        print(f"{mode:<16}{len(records) - len(failed):>7}{len(failed):>8}{checked:>11.1f}"
              f"{unchecked:>13.1f}{middle:>8}")
    for mode, record in failures[:10]:
        print(f"  {mode} game {record.index}: {record.error} (replay {record.replay})")
    print("\nevery game ended with every invariant kept" if not failures
          else f"\n{len(failures)} game(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
