"""Allies vs. Axis players: clones, the standing, and the search.

    python benchmarks/allies_vs_axis_players.py [SECTION ...] [--games N] [--workers K]

Sections (all by default, in this order):

- `clones`: what a clone costs in round 30 (AvAGame.clone, a copy of the game's data) against
  copy.deepcopy of the state, on one core, beside the CPU time of a whole heuristic game.
- `standing`: plays heuristic games in the four modes, with sudden death and with the jail
  limit of five, the players' settings drawn at random; records each round's start and who
  won; fits engine/allies_vs_axis/standing.py's logistic model (its `features`) to half of the
  games and scores it on the other half beside the weights in use.
- `search`: `search` against `heuristic` in the same seat, against the heuristic opponent, for
  each side, at the default budget and at a few others (budget against strength); the CPU time
  of a game and the memory of a worker. There is no speed target for this system; a heuristic
  game is tens of milliseconds, and a search weighs a few plans at each of its decisions.
"""
from __future__ import annotations

import argparse
import copy
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from seat_strength import compare_in_seat, cpu_per_game, median_and_90th  # noqa: E402

from engine.players import make_player  # noqa: E402
from engine.processes import available_cores  # noqa: E402
from engine.system import load_system  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402

SCENARIO = ROOT / "scenarios" / "allies-vs-axis"
SIDES = ("allies", "axis")
CONFIGS = ({}, {"mode": "les-miserables"}, {"mode": "fierce-battle"}, {"mode": "no-italy"},
           {"end_condition": "sudden-death"}, {"jail_limit": "jail-limit-5"})


def clones(args, scenario, system) -> None:
    print("\nclones in round 30 (one core, CPU time)")
    deep, copies, games = [], [], []
    for seed in range(args.clone_games):
        state = system.new_game({}, np.random.default_rng(seed))
        players = {side: make_player("heuristic", system, side, np.random.default_rng([seed, n]))
                   for n, side in enumerate(SIDES)}
        start, timed = time.process_time(), False
        while not state.is_terminal():
            if state.round == 30 and not timed:
                paused = time.process_time()
                copy.deepcopy(state)
                middle = time.process_time()
                for _ in range(100):
                    state.clone()
                deep.append(middle - paused)
                copies.append((time.process_time() - middle) / 100)
                start += time.process_time() - paused
                timed = True
            state.apply(players[state.current_player].choose(state))
        games.append(time.process_time() - start)
    clone, deepcopy, game = (median_and_90th(t)[0] for t in (copies, deep, games))
    print(f"  AvAGame.clone (a copy of the data)  {1e6 * clone:9.0f} us")
    print(f"  copy.deepcopy of the state          {1e6 * deepcopy:9.0f} us   "
          f"({deepcopy / clone:.0f}x the clone)")
    print(f"  a whole heuristic game              {1e6 * game:9.0f} us")


def standing(args, scenario, system) -> None:
    from scipy.optimize import minimize

    from engine.allies_vs_axis import standing as model
    names = list(model.WEIGHTS)
    rows = []
    rng = np.random.default_rng(2024)
    for seed in range(args.standing_games):
        settings = CONFIGS[seed % len(CONFIGS)]
        specs = {side: f"heuristic:defend-share={rng.choice([0.3, 0.6, 0.9])},"
                       f"treaties={rng.choice(['true', 'true', 'false'])}" for side in SIDES}
        state = system.new_game(settings, np.random.default_rng(seed))
        players = {side: make_player(specs[side], system, side, np.random.default_rng([seed, n]))
                   for n, side in enumerate(SIDES)}
        seen, last = [], 0
        while not state.is_terminal():
            if state.round != last and state.side_to_play == system.board.sides[0]:
                last = state.round
                found = model.features(state)
                seen.append([found[name] for name in names])
            state.apply(players[state.current_player].choose(state))
        winner = state.result().winner
        if winner is not None:
            rows += [(seed, *values, float(winner == system.board.sides[0])) for values in seen]
    data = np.array(rows, dtype=float)
    game, won = data[:, 0], data[:, -1]
    features = np.column_stack([np.ones(len(data)), data[:, 1:-1]])

    def loss(b, x, y):
        z = x @ b
        return float(np.mean(np.logaddexp(0, z) - y * z))
    train, test = (game // len(CONFIGS)) % 2 == 0, (game // len(CONFIGS)) % 2 == 1
    fitted = minimize(loss, np.zeros(features.shape[1]), args=(features[train], won[train]),
                      method="BFGS").x
    used = np.array([model.INTERCEPT] + [model.WEIGHTS[name] for name in names])
    print(f"\nstanding: {len(data):,} round starts of {args.standing_games:,} games, fitted on "
          "half of the games, scored on the other half")
    print(f"  weights ({', '.join(['intercept', *names])})")
    print(f"  fitted  {np.round(fitted, 3)}")
    print(f"  in use  {used}")
    for label, b in (("fitted", fitted), ("in use", used)):
        z = features[test] @ b
        brier = float(np.mean((1 / (1 + np.exp(-z)) - won[test]) ** 2))
        print(f"  {label}: log loss {loss(b, features[test], won[test]):.4f}, Brier {brier:.4f}")
    print(f"  the base rate alone: Brier {float(np.mean((won[train].mean() - won[test]) ** 2)):.4f}")


def search(args, scenario, system) -> None:
    from engine.allies_vs_axis.heuristic import AvAHeuristic
    default = AvAHeuristic.search_budget
    print(f"\nsearch against heuristic in the same seat, heuristic opponent, {args.games} games "
          f"(default budget {default}, horizon {AvAHeuristic.search_horizon} rounds)")
    for side in SIDES:
        other = "axis" if side == "allies" else "allies"
        for budget in [default] + [b for b in args.budgets if b != default]:
            spec = "search" if budget == default else f"search:budget={budget}"
            compare_in_seat(scenario, {}, side, other, "heuristic", "heuristic", spec,
                            args.games, 29, args.workers)
    print("\nspeed (one core, CPU time per game)")
    heuristic = cpu_per_game(system, scenario, {}, {"allies": "heuristic", "axis": "heuristic"},
                             args.speed_games, 5)
    print(f"  heuristic both sides     median {1000 * median_and_90th(heuristic)[0]:7.0f} ms")
    for side in SIDES:
        players = {"allies": "heuristic", "axis": "heuristic", side: "search"}
        median, high = median_and_90th(cpu_per_game(system, scenario, {}, players,
                                                    args.speed_games, 5))
        print(f"  {side} search              median {1000 * median:7.0f} ms, 90th pct "
              f"{1000 * high:7.0f} ms")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  memory: {workers:.0f} MB at most per worker, {own:.0f} MB in this process "
          "(target: under 500 MB per worker)")


SECTIONS = {"clones": clones, "standing": standing, "search": search}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[*SECTIONS, []], default=[])
    parser.add_argument("--games", type=int, default=100, help="games per study (100)")
    parser.add_argument("--workers", type=int, default=available_cores())
    parser.add_argument("--clone-games", type=int, default=10)
    parser.add_argument("--standing-games", type=int, default=1800)
    parser.add_argument("--speed-games", type=int, default=10)
    parser.add_argument("--budgets", type=lambda t: [int(x) for x in t.split(",")], default=[4])
    args = parser.parse_args()
    scenario = load_scenario(SCENARIO)
    system = load_system(scenario)
    for name in args.sections or SECTIONS:
        SECTIONS[name](args, scenario, system)


if __name__ == "__main__":
    main()
