"""How strong and how fast the players are: the search player against the heuristic it improves.

    python benchmarks/players.py [--only aa50-1942,gj69-southern-operation,...] [--games N]
                                 [--timing-games N] [--budgets 4,8,16] [--workers K]

For each scenario whose system has a `search` player:

- speed on one core (CPU seconds of whole games, played one after another in this process):
  a heuristic game (the baseline, in the same run) and a search game at its default budget,
  median and 90th percentile; the peak memory of the process;
- strength, seat by seat: each side played by `search`, then by `heuristic`, against the same
  heuristic opponent on the same seeds; the side's share of decided games with each, and the
  difference (games are asymmetric: a side is compared with itself, never with 50%);
- the budget's effect: for a few budgets (`--budgets`), the time of a game with both sides
  searching at that budget and the side's share: a curve of budget against speed and strength.

Where a side wins no game with either player (or every game), the shares cannot differ: each
line also gives the side's mean score margin at the end (its score less the other side's, VP
in GJ69), with a 95% interval, which moves where the winner does not. `--games 0` leaves out
the strength, `--timing-games 0` the speed.

Targets (docs/playtest.md): search raises a side's share of decided games by at least 15 points
over heuristic, either side, in AA50 1942 and GJ69; a search game at the default budget under
30 s median on one core in AA50 1942, 2 s in GJ69, 0.5 s in War at Sea; under 500 MB.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from game_timing import cpu_per_game, median_and_90th  # noqa: E402

from engine.calculator import wilson  # noqa: E402
from engine.players import available  # noqa: E402
from engine.system import load_system  # noqa: E402
from playtest.stats import mean_interval  # noqa: E402
from playtest.study import Study, run_study  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

SCENARIOS = ("aa50-1942", "gj69-southern-operation", "war-at-sea", "allies-vs-axis")
TARGET_SECONDS = {"aa50": 30.0, "gj69": 2.0, "war-at-sea": 0.5}


def sides_of(scenario) -> list[str]:
    return [side["id"] for _, side in scenario.entities("scenario", "sides")]


def cpu_seconds(system, scenario, players: dict, games: int, seed: int) -> list[float]:
    options = {s.key: s.default for s in system.game_settings()}
    return cpu_per_game(system, Study(scenario, options, players, games, seed))


def share_of_decided(scenario, system, players: dict, side: str, games: int, seed: int,
                     workers: int) -> tuple[int, int, list[float]]:
    """The side's wins, the decided games, and its score margin in each game whose result
    scores both sides."""
    options = {s.key: s.default for s in system.game_settings()}
    records = run_study(Study(scenario, options, players, games, seed), workers)
    stopped = [r.error for r in records if r.error]
    if stopped:                 # a share of the games that finished would mislead
        raise SystemExit(f"{len(stopped)} of {games} games stopped: {stopped[0]}")
    results = [r.result for r in records if r.result]
    decided = [r["winner"] for r in results if r["winner"] is not None]
    other = next(s for s in players if s != side)
    margins = [r["scores"][side] - r["scores"][other] for r in results
               if side in r.get("scores", {}) and other in r.get("scores", {})]
    return sum(w == side for w in decided), len(decided), margins


def show_share(label: str, wins: int, decided: int, margins: list[float]) -> float:
    share = wins / decided if decided else float("nan")
    low, high = wilson(wins, decided)
    margin = ""
    if len(margins) > 1:
        mean, low_margin, high_margin = mean_interval(margins)
        margin = f"  margin {mean:+.1f} ({low_margin:+.1f} to {high_margin:+.1f})"
    print(f"    {label:<28}{wins:>4} of {decided:<4} {100 * share:5.1f}%  "
          f"(95% {100 * low:.1f}-{100 * high:.1f}%){margin}")
    return share


def show_time(label: str, times: list[float]) -> None:
    median, high = median_and_90th(times)
    print(f"  {label:<30} median {median:7.3f} s, 90th pct {high:7.3f} s per game on one core")


def show_timing(system, scenario, sides: list[str], games: int, seed: int, heuristic: list[float],
                budget: int | None = None) -> None:
    """The search's time a game with both sides searching, at its default budget or at
    `budget`, against the heuristic's (`heuristic`, the baseline)."""
    spec = "search" if budget is None else f"search:budget={budget}"
    search = cpu_seconds(system, scenario, {s: spec for s in sides}, games, seed)
    target = next((t for key, t in TARGET_SECONDS.items() if system.system.startswith(key)), None)
    show_time("search, both sides" + ("" if budget is None else f", budget={budget}"), search)
    median = statistics.median(search)
    if target:
        print(f"  search target {target:g} s: {'met' if median < target else 'NOT met'} "
              f"({median / statistics.median(heuristic):.0f}x the heuristic)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(SCENARIOS))
    parser.add_argument("--games", type=int, default=40, help="games per seat for strength (40)")
    parser.add_argument("--timing-games", type=int, default=6, help="games timed per player (6)")
    parser.add_argument("--budgets", default="", help="budgets for the curve, as 4,8,16")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.only.split(","):
        scenario = load_scenario(ROOT / "scenarios" / name)
        system = load_system(scenario)
        if "search" not in available(system):
            print(f"{name}: no search player (its heuristic proposes no plans)")
            continue
        sides = sides_of(scenario)
        budgets = [int(b) for b in args.budgets.split(",") if b]
        print(f"{name} ({system.system})")
        if args.timing_games:
            heuristic = cpu_seconds(system, scenario, {s: "heuristic" for s in sides},
                                    args.timing_games, args.seed)
            show_time("heuristic (baseline)", heuristic)
            for budget in [None, *budgets]:
                show_timing(system, scenario, sides, args.timing_games, args.seed, heuristic, budget)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"  peak memory {peak:.0f} MB (target 500)")
        if not args.games:
            continue
        print(f"  strength, seat by seat, {args.games} games each, against the heuristic:")
        for side in sides:
            other = next(s for s in sides if s != side)
            print(f"  {side}:")
            base = show_share("heuristic", *share_of_decided(
                scenario, system, {side: "heuristic", other: "heuristic"}, side, args.games,
                args.seed, args.workers))
            better = show_share("search (default budget)", *share_of_decided(
                scenario, system, {side: "search", other: "heuristic"}, side, args.games,
                args.seed, args.workers))
            print(f"    difference {100 * (better - base):+.1f} points (target +15)")
            for budget in budgets:
                show_share(f"search budget={budget}", *share_of_decided(
                    scenario, system, {side: f"search:budget={budget}", other: "heuristic"},
                    side, args.games, args.seed, args.workers))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
