"""GJ69 for a search: what a clone costs, what a search game costs, and what it wins.

    python benchmarks/search_gj69.py [--games N] [--strength N] [--budgets 2,4,8]

Clones, on one core: a game copied mid-game (turn 4) at a checkpoint (an impulse or a hand's
card: its data copied and its turn restarted there, engine/gj69/clone.py) against the same game
replayed from its start (`ReplayClone`, what a game run by a generator falls back to), both
against the time of a whole heuristic game measured in the same run.

Speed, on one core (CPU time): whole games with `heuristic` on both sides against games with
`search` (its default budget) playing Japan, then the Allies; the memory of this process.
Target: a search game under 2 s median on one core, under 500 MB.

Strength (`--strength N`, on every core): N games of `search` against the heuristic in each
seat and N of the heuristic against itself on the same seeds; for each side the share of
decided games it wins and its mean VP margin (its VP less the enemy's, with a 95% interval),
search against heuristic, at each budget of `--budgets`. Target (docs/playtest.md): search raises its
side's share of decided games by 15 points.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from game_timing import cpu_per_game, median_and_90th  # noqa: E402

from engine.game import ReplayClone  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.processes import available_cores  # noqa: E402
from engine.system import load_system  # noqa: E402
from playtest.stats import mean_interval  # noqa: E402
from playtest.study import Study, run_study  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

SCENARIO = ROOT / "scenarios" / "gj69-southern-operation"


def clone_times(system, seeds: int) -> tuple[list[float], list[float], list[float]]:
    """CPU seconds of a checkpoint clone and of a replay at turn 4's impulses, and of the
    heuristic games they were taken from."""
    copies, replays, games = [], [], []
    for seed in range(seeds):
        state = system.new_game({}, np.random.default_rng(seed))
        players = {side: make_player("heuristic", system, side, np.random.default_rng(seed))
                   for side in system.sides}
        spent = 0.0
        while not state.is_terminal():
            if state.round == 4 and state.at_checkpoint():
                start = time.process_time()
                state.clone()
                copies.append(time.process_time() - start)
                start = time.process_time()
                ReplayClone.clone(state)
                replays.append(time.process_time() - start)
            start = time.process_time()
            state.apply(players[state.current_player].choose(state))
            spent += time.process_time() - start
        games.append(spent)
    return copies, replays, games


def margins(records, side: str) -> tuple[float, float, float, float]:
    """Share of decided games the side wins, and its mean VP margin with a 95% interval."""
    decided = [r for r in records if r.result["winner"] is not None]
    won = sum(r.result["winner"] == side for r in decided)
    values = [r.result["scores"][side] - sum(v for s, v in r.result["scores"].items() if s != side)
              for r in records]
    return ((won / len(decided) if decided else 0.0), *mean_interval(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per speed measurement")
    parser.add_argument("--strength", type=int, default=0, help="games per side and budget")
    parser.add_argument("--budgets", default="", help="search budgets to weigh (default: its own)")
    args = parser.parse_args()
    scenario = load_scenario(SCENARIO)
    system = load_system(scenario)
    sides = list(system.sides)

    copies, replays, games = clone_times(system, max(2, args.games // 4))
    print(f"{scenario.manifest['id']}: clones at turn 4's checkpoints ({len(copies)}), one core, CPU time")
    print(f"  copy at a checkpoint       {1e6 * statistics.median(copies):8.0f} us median")
    print(f"  replay from the start      {1e3 * statistics.median(replays):8.1f} ms median"
          f"   ({statistics.median(replays) / statistics.median(copies):.0f}x the copy)")
    print(f"  a whole heuristic game     {1e3 * statistics.median(games):8.0f} ms median")

    print(f"\nwhole games, one core, CPU time ({args.games} each)       median  90th pct")
    rows = [("heuristic", {side: "heuristic" for side in sides})]
    rows += [(f"search playing {side}", {s: "search" if s == side else "heuristic" for s in sides})
             for side in sides]
    medians = {}
    for label, players in rows:
        medians[label], high = median_and_90th(cpu_per_game(system, Study(scenario, {}, players,
                                                                          args.games, 2026)))
        print(f"  {label:<44}{medians[label]:7.2f}s {high:8.2f}s")
    worst = max(v for k, v in medians.items() if k.startswith("search"))
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  a search game under 2 s median: {'met' if worst < 2 else 'NOT met'} ({worst:.2f}s); "
          f"memory of this process {memory:.0f} MB (target < 500 MB)")

    if args.strength:
        workers = available_cores()
        budgets = [int(b) for b in args.budgets.split(",") if b] or [None]
        base = run_study(Study(scenario, {}, {s: "heuristic" for s in sides}, args.strength, 7), workers)
        print(f"\nstrength: {args.strength} games per row on {workers} cores, same seeds"
              "\n  side     player               wins of decided   VP margin (95% interval)")
        for side in sides:
            share, mean, low, high = margins(base, side)
            print(f"  {side:<8} heuristic            {100 * share:6.1f}%          "
                  f"{mean:6.1f} ({low:.1f} to {high:.1f})")
            for budget in budgets:
                spec = "search" if budget is None else f"search:budget={budget}"
                players = {s: spec if s == side else "heuristic" for s in sides}
                records = run_study(Study(scenario, {}, players, args.strength, 7), workers)
                share, mean, low, high = margins(records, side)
                print(f"  {side:<8} {spec:<20} {100 * share:6.1f}%          "
                      f"{mean:6.1f} ({low:.1f} to {high:.1f})")


if __name__ == "__main__":
    main()
