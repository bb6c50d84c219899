"""What the player benchmarks of one system share (allies_vs_axis_players.py,
war_at_sea_players.py): a command line of sections run in order, the search section (search
against the heuristic in the same seat at a few budgets, then the CPU time of its games and the
memory of a worker), and the fit of a standing model scored against the coefficients in use."""
from __future__ import annotations

import argparse
import resource
from pathlib import Path

import numpy as np
from game_timing import cpu_per_game, median_and_90th
from seat_strength import compare_in_seat

from engine.processes import available_cores
from engine.system import load_system
from playtest.study import Study
from sandtable.scenario import load_scenario

SIDES = ("allies", "axis")


def numbers(kind):
    """An option's parser for a list written as 4,8,16."""
    return lambda text: [kind(x) for x in text.split(",")]


def section_parser(doc: str, sections: dict, games: int, clone_games: int, standing_games: int,
                   speed_games: int, budgets: list[int]) -> argparse.ArgumentParser:
    """The options every player benchmark has, with its own defaults; a benchmark adds its own."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[*sections, []], default=[])
    parser.add_argument("--games", type=int, default=games, help=f"games per study ({games})")
    parser.add_argument("--workers", type=int, default=available_cores())
    parser.add_argument("--clone-games", type=int, default=clone_games)
    parser.add_argument("--standing-games", type=int, default=standing_games)
    parser.add_argument("--speed-games", type=int, default=speed_games)
    parser.add_argument("--budgets", type=numbers(int), default=budgets)
    return parser


def run_sections(args, sections: dict, folder: Path) -> None:
    """The sections named on the command line (all of them, if none), in the table's order."""
    scenario = load_scenario(folder)
    system = load_system(scenario)
    for name in args.sections or sections:
        sections[name](args, scenario, system)


def search_section(args, scenario, system, heuristic, horizon: str,
                   target: float | None = None) -> None:
    """`search` against `heuristic` in each seat at the default budget and at `--budgets`; then
    the CPU time of a game on one core (against `target` seconds, if there is one) and memory."""
    default = heuristic.search_budget
    print(f"\nsearch against heuristic in the same seat, heuristic opponent, {args.games} games "
          f"(default budget {default}, horizon {horizon})")
    for side in SIDES:
        other = "axis" if side == "allies" else "allies"
        for budget in [default] + [b for b in args.budgets if b != default]:
            spec = "search" if budget == default else f"search:budget={budget}"
            compare_in_seat(scenario, {}, side, other, "heuristic", "heuristic", spec,
                            args.games, 29, args.workers)
    print("\nspeed (one core, CPU time per game)")

    def times(players: dict[str, str]) -> list[float]:
        return cpu_per_game(system, Study(scenario, {}, players, args.speed_games, 5))
    heuristic_both = {"allies": "heuristic", "axis": "heuristic"}
    print(f"  heuristic both sides     median {1000 * median_and_90th(times(heuristic_both))[0]:7.0f} ms")
    for side in SIDES:
        median, high = median_and_90th(times({**heuristic_both, side: "search"}))
        verdict = "" if target is None else (
            f" (target: under {1000 * target:.0f} ms: {'met' if median < target else 'NOT met'})")
        print(f"  {side} search              median {1000 * median:7.0f} ms, 90th pct "
              f"{1000 * high:7.0f} ms{verdict}")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  memory: {workers:.0f} MB at most per worker, {own:.0f} MB in this process "
          "(target: under 500 MB per worker)")


def log_loss(b, x, y) -> float:
    """The mean log loss of a logistic model with coefficients b on the rows x, outcomes y."""
    z = x @ b
    return float(np.mean(np.logaddexp(0, z) - y * z))


def fit_logistic(features, won, train):
    """The coefficients of least log loss on the training rows (the first column: 1s)."""
    from scipy.optimize import minimize
    return minimize(log_loss, np.zeros(features.shape[1]), args=(features[train], won[train]),
                    method="BFGS").x


def score_standing(features, won, train, test, models: dict) -> None:
    """Log loss and Brier score on the test rows of each model (name: coefficients), and the
    Brier score of the training rows' base rate alone."""
    for label, b in models.items():
        z = features[test] @ b
        brier = float(np.mean((1 / (1 + np.exp(-z)) - won[test]) ** 2))
        print(f"  {label}: log loss {log_loss(b, features[test], won[test]):.4f}, Brier {brier:.4f}")
    print(f"  the base rate alone: Brier {float(np.mean((won[train].mean() - won[test]) ** 2)):.4f}")
