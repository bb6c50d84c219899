"""War at Sea players: clones, the heuristic's margins, the standing, and the search.

    python benchmarks/war_at_sea_players.py [SECTION ...] [--games N] [--workers K]

Sections (all by default, in this order):

- `clones`: what a clone costs at the start of turn 5's movement, where a search weighs its
  plans: the data copy begun again at the stage (WaSGame.clone) against the game played again
  from its start (what engine/game.py's ReplayClone does), on one core, beside the CPU time
  of a whole heuristic game.
- `margins`: the heuristic's margin, side by side: each margin of one side against each of the
  other's, the same seeds in every cell; each side's default is the margin whose worst cell is
  best (its maximin), and the table says so.
- `standing`: plays heuristic games with margins drawn at random, records every movement's
  position and who won, fits engine/war_at_sea/standing.py's logistic model to half of the
  games and scores it on the other half (log loss, Brier score) beside the coefficients in use.
- `search`: `search` against `heuristic` in the same seat, against the heuristic opponent, for
  each side, at the default budget and at a few others (budget against strength), and the CPU
  time of a game and the memory of a worker. Targets (docs/playtest.md): a search game under 0.5 s
  median on one core; under 500 MB per worker.
"""
from __future__ import annotations

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
    numbers,
    run_sections,
    score_standing,
    search_section,
    section_parser,
)
from seat_strength import seat, winners  # noqa: E402

from engine.players import make_player  # noqa: E402

SCENARIO = ROOT / "scenarios" / "war-at-sea"
MARGINS = (0.75, 0.85, 1.0, 1.15, 1.3, 1.5, 1.75)


def clones(args, scenario, system) -> None:
    print("\nclones at the start of turn 5's movement (one core, CPU time)")
    copy_times, replay_times, games = [], [], []
    for seed in range(args.clone_games):
        state = system.new_game({}, np.random.default_rng(seed))
        players = {side: make_player("heuristic", system, side, np.random.default_rng([seed, n]))
                   for n, side in enumerate(SIDES)}
        start = time.process_time()
        timed = False
        while not state.is_terminal():
            if not timed and state.round == 5 and state.request.restart is not None \
                    and state.step == "movement":
                paused = time.process_time()
                for _ in range(50):
                    state.clone()
                middle = time.process_time()
                for _ in range(5):
                    state._replayed()
                copy_times.append((middle - paused) / 50)
                replay_times.append((time.process_time() - middle) / 5)
                start += time.process_time() - paused
                timed = True
            state.apply(players[state.current_player].choose(state))
        games.append(time.process_time() - start)
    copy, replay, game = (median_and_90th(t)[0] for t in (copy_times, replay_times, games))
    print(f"  data copy, the stage begun again   {1e6 * copy:8.0f} us")
    print(f"  played again from the start        {1e6 * replay:8.0f} us   "
          f"({replay / copy:.0f}x the copy)")
    print(f"  a whole heuristic game             {1e6 * game:8.0f} us   "
          f"(the copy is {100 * copy / game:.1f}% of it)")


def margins(args, scenario, system) -> None:
    grid = args.margin_values
    print(f"\nmargins: share of decided games each side wins, {args.games} games a cell, "
          "the same seeds in every cell (rows: the Allied margin; columns: the Axis's)")
    cells = {}
    for allied in grid:
        for axis in grid:
            found = winners(scenario, {}, {"allies": f"heuristic:margin={allied}",
                                           "axis": f"heuristic:margin={axis}"},
                            args.games, 11, args.workers)
            cells[allied, axis] = seat(found, "allies"), seat(found, "axis")
    print("  allies wins %   " + "".join(f"{m:>7}" for m in grid))
    for allied in grid:
        print(f"  {allied:>14}  " + "".join(f"{100 * cells[allied, axis][0].share:7.1f}"
                                            for axis in grid))
    worst = {("allies", m): min(cells[m, a][0].share for a in grid) for m in grid}
    worst |= {("axis", m): min(cells[a, m][1].share for a in grid) for m in grid}
    for side in SIDES:
        best = max(grid, key=lambda m: worst[side, m])
        print(f"  {side}: worst share over the other side's margins, by margin: "
              + ", ".join(f"{m}: {100 * worst[side, m]:.1f}%" for m in grid)
              + f"; maximin {best}")


def standing(args, scenario, system) -> None:
    from engine.war_at_sea import standing as model
    rows = []
    rng = np.random.default_rng(2024)
    for seed in range(args.standing_games):
        state = system.new_game({}, np.random.default_rng(seed))
        players = {side: make_player(f"heuristic:margin={rng.choice(MARGINS)}", system, side,
                                     np.random.default_rng([seed, n]))
                   for n, side in enumerate(SIDES)}
        seen = []
        while not state.is_terminal():
            if state.step == "movement" and state.request.restart is not None:
                seen.append((state.track, state.last - state.round + 1,
                             model.fleet_strength(state, "axis"),
                             model.fleet_strength(state, "allies")))
            state.apply(players[state.current_player].choose(state))
        won = {"axis": 1.0, "allies": 0.0}.get(state.result().winner, 0.5)
        rows += [(seed, *position, won) for position in seen]
    data = np.array(rows, dtype=float)
    game, track, left, axis, allies, won = data.T
    features = np.column_stack([np.ones_like(track), track, left,
                                left * np.log((axis + 1) / (allies + 1))])
    train, test = game % 2 == 0, game % 2 == 1
    fitted = fit_logistic(features, won, train)
    used = np.array([model.INTERCEPT, model.TRACK, model.PER_TURN, model.FLEETS])
    print(f"\nstanding: {len(data):,} positions of {args.standing_games:,} games, fitted on the "
          "even games, scored on the odd")
    print(f"  coefficients fitted  {np.round(fitted, 3)}")
    print(f"  coefficients in use  {used}")
    score_standing(features, won, train, test, {"fitted": fitted, "in use": used})


def search(args, scenario, system) -> None:
    from engine.war_at_sea.heuristic import WaSHeuristic
    search_section(args, scenario, system, WaSHeuristic, f"{WaSHeuristic.search_horizon} round",
                   target=0.5)


SECTIONS = {"clones": clones, "margins": margins, "standing": standing, "search": search}


def main() -> None:
    parser = section_parser(__doc__, SECTIONS, games=400, clone_games=20, standing_games=3000,
                            speed_games=20, budgets=[8, 48])
    parser.add_argument("--margin-values", type=numbers(float), default=list(MARGINS))
    run_sections(parser.parse_args(), SECTIONS, SCENARIO)


if __name__ == "__main__":
    main()
