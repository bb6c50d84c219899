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

import copy
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from game_timing import median_and_90th  # noqa: E402
from player_benchmark import (  # noqa: E402
    SIDES,
    fit_logistic,
    run_sections,
    score_standing,
    search_section,
    section_parser,
)

from engine.players import make_player  # noqa: E402

SCENARIO = ROOT / "scenarios" / "allies-vs-axis"
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
    train, test = (game // len(CONFIGS)) % 2 == 0, (game // len(CONFIGS)) % 2 == 1
    fitted = fit_logistic(features, won, train)
    used = np.array([model.INTERCEPT] + [model.WEIGHTS[name] for name in names])
    print(f"\nstanding: {len(data):,} round starts of {args.standing_games:,} games, fitted on "
          "half of the games, scored on the other half")
    print(f"  weights ({', '.join(['intercept', *names])})")
    print(f"  fitted  {np.round(fitted, 3)}")
    print(f"  in use  {used}")
    score_standing(features, won, train, test, {"fitted": fitted, "in use": used})


def search(args, scenario, system) -> None:
    from engine.allies_vs_axis.heuristic import AvAHeuristic
    search_section(args, scenario, system, AvAHeuristic, f"{AvAHeuristic.search_horizon} rounds")


SECTIONS = {"clones": clones, "standing": standing, "search": search}


def main() -> None:
    parser = section_parser(__doc__, SECTIONS, games=100, clone_games=10, standing_games=1800,
                            speed_games=10, budgets=[4])
    run_sections(parser.parse_args(), SECTIONS, SCENARIO)


if __name__ == "__main__":
    main()
