"""The chance that a contested GJ69 land area changes hands by the end, fitted to games.

    python benchmarks/gj69_capture_fit.py [--games N] [--seed S] [--players SPEC]

The search's estimate of a GJ69 position (engine/gj69/standing.py) counts a land area where both
sides' land units stand by the chance that the attacker holds it at the end: a logistic curve
of the terms `GJ69Game.contested` gives (1, the attacker's expected hits per attack over the
points that drive every defender out, whether the defenders can recover, the turns left), with
the weights CAPTURE. This plays games (both sides `heuristic` by default), takes every contested
area at the start of every turn, and notes whether the attacker held it when the game ended; it
fits the weights by logistic regression (playtest/stats.py `fit_firth`, the balance curves'
own) on the even games and compares the fitted and the bundled weights on
the odd ones: the mean log-loss (lower is better) and the predicted against the observed share,
in five bands of prediction. The baseline is the share of captures alone (one weight).
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gj69.standing import CAPTURE  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.system import load_system  # noqa: E402
from playtest.stats import fit_firth  # noqa: E402
from playtest.study import game_seed  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

SCENARIO = ROOT / "scenarios" / "gj69-southern-operation"
TERMS = ("constant", "hits per point needed", "defenders recover", "turns left")


def samples(system, games: int, seed: int, players: str) -> list[tuple[int, tuple, int]]:
    """(game, terms, whether the attacker held the area at the end) for every contested area at
    the start of every turn."""
    found = []
    for index in range(games):
        game_rng = game_seed(seed, index)
        state = system.new_game({}, np.random.default_rng(game_rng), None)
        seats = {side: make_player(players, system, side, np.random.default_rng([game_rng, n]))
                 for n, side in enumerate(sorted(system.sides), 1)}
        seen_turn, pending = None, []
        while not state.is_terminal():
            if state.turn != seen_turn:
                seen_turn = state.turn
                pending += [(area, holder, terms) for area, (holder, terms) in state.contested().items()]
            state.apply(seats[state.side_of(state.current_player)].choose(state))
        for area, holder, terms in pending:
            found.append((index, terms, int(state.forces.control.get(area) != holder)))
    return found


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The logistic regression's weights and their standard errors (playtest/stats.py, one
    trial an area)."""
    weights, covariance = fit_firth(x, y, np.ones_like(y))
    return weights, np.sqrt(np.diag(covariance))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def bands(p: np.ndarray, y: np.ndarray) -> str:
    edges = [0.0, 0.1, 0.3, 0.5, 0.7, 1.0001]
    parts = []
    for low, high in zip(edges, edges[1:], strict=False):
        inside = (p >= low) & (p < high)
        if inside.any():
            parts.append(f"{low:.1f}-{min(high, 1):.1f}: {p[inside].mean():.2f} vs "
                         f"{y[inside].mean():.2f} (n={int(inside.sum())})")
    return "; ".join(parts)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="heuristic")
    args = parser.parse_args(argv)
    system = load_system(load_scenario(SCENARIO))
    data = samples(system, args.games, args.seed, args.players)
    if not data:
        print("no contested area in these games")
        return 1
    games = np.array([g for g, _, _ in data])
    x = np.array([terms for _, terms, _ in data], dtype=float)
    y = np.array([held for _, _, held in data], dtype=float)
    train, test = games % 2 == 0, games % 2 == 1
    print(f"{len(y)} contested areas at the start of a turn in {args.games} games "
          f"({args.players}), taken by the attacker in {y.mean():.1%}")
    weights, errors = fit(x[train], y[train])
    print("  term                      bundled   fitted (even games)")
    for term, bundled, found, error in zip(TERMS, CAPTURE, weights, errors, strict=True):
        print(f"  {term:<24} {bundled:8.2f}   {found:7.2f} +- {error:.2f}")
    base = np.full(int(test.sum()), y[train].mean())
    print(f"  on the odd games ({int(test.sum())} areas), mean log-loss: bundled "
          f"{log_loss(1 / (1 + np.exp(-x[test] @ np.array(CAPTURE))), y[test]):.3f}, fitted "
          f"{log_loss(1 / (1 + np.exp(-x[test] @ weights)), y[test]):.3f}, "
          f"share alone {log_loss(base, y[test]):.3f}")
    for label, w in (("bundled", np.array(CAPTURE)), ("fitted", weights)):
        print(f"  {label}, predicted vs taken: {bands(1 / (1 + np.exp(-x[test] @ w)), y[test])}")
    print(f"  fitted on all games: ({', '.join(f'{v:.1f}' for v in fit(x, y)[0])})"
          f"  [{math.fsum(y):.0f} captures]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
