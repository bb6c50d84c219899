"""AA50 players: their blunders, read from replays; the speed of the heuristic and the search;
the standing's weights, refitted.

    python benchmarks/aa50_players.py blunders DIR [DIR ...]
    python benchmarks/aa50_players.py speed [--games N] [--search-games N] [--search SPEC]
                                            [--scenario FOLDER]
    python benchmarks/aa50_players.py fit-standing [--games N] [--scenario FOLDER ...]

`blunders` plays back every replay in the folders (written by `sandtable playtest games
--replays DIR`) and counts, per game and per side: transports lost alone (sunk where no ship
of their side defended them, and how many of those were empty), IPCs left unspent after a
purchase (the mean, and the most by nation), attacks the battle calculator gives under 50%
and under 5% (200 simulated battles each, at the moment the battle is fought; attacks by
transports alone, which cannot fight, are not counted), aircraft sent against submarines
alone with no destroyer (§7.3.4, they cannot hit them), and, in aa50-1942, Japan's first turn
(an attack on China; Kwangtung held) and the turns Germany ends with France empty. The
battles are watched by wrapping the battle engine's functions for the playback only.

`speed` plays whole games on one core (this process's CPU time): the heuristic on both sides,
then the search (its default budget) on each side against the heuristic. Targets: a heuristic
aa50-1942 game under 1 s median, a search game under 30 s median.

`fit-standing` plays heuristic games and fits the weights of engine/aa50/standing.py by
logistic regression (Newton's method, no library needed for five weights, none below zero):
every round's position against the game's end, axis win 1, allies win 0, a round-limit draw
0.5.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.aa50 import battles, montecarlo, standing  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.replay import Replay  # noqa: E402
from engine.system import load_system  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402


# -- blunders --------------------------------------------------------------------------------------
class Watch:
    """What the battles of the game being played back show."""

    def __init__(self):
        self.game: Any = None
        self.counts: Counter = Counter()
        self.games = 0

    def fight(self, original):
        def fight(game, space, retreat_at):
            alone = []
            if space in game.data.board.sea:
                side = game.side(game.seat)
                defenders = [p for p in game.pieces[space] if game.side(p.owner) != side]
                if defenders and all(game.data.types[p.type].capacity for p in defenders):
                    alone = [(p, bool(p.cargo)) for p in defenders]
            original(game, space, retreat_at)
            for piece, loaded in alone:
                if piece not in game.pieces[space]:
                    self.counts[f"transports lost alone ({game.side(piece.owner)})"] += 1
                    if not loaded:
                        self.counts[f"  of them empty ({game.side(piece.owner)})"] += 1
        return fight

    def one_battle(self, original):
        def one_battle(model, rng):
            game = self.game
            attacker, defender = model.attacker, model.defender
            side = game.side(game.seat)
            if defender.start.sum() and (attacker.value * attacker.start).sum() > 0:
                self.counts[f"attacks ({side})"] += 1
                batch = montecarlo.simulate(model, 200, np.random.default_rng(7))
                chance = float((batch.result == 0).mean())
                if chance < 0.5:
                    self.counts[f"attacks under 50% ({side})"] += 1
                if chance < 0.05:
                    self.counts[f"attacks under 5% ({side})"] += 1
                present = attacker.start > 0
                if all(k.profile.is_submarine for k, n in zip(defender.kinds, defender.start,
                                                              strict=True) if n) \
                        and attacker.air[present].any() and not attacker.detector[present].any():
                    self.counts[f"aircraft against lone submarines ({side})"] += 1
            return original(model, rng)
        return one_battle


def blunders(folders: list[str]) -> None:
    watch = Watch()
    battles.fight = watch.fight(battles.fight)
    battles.one_battle = watch.one_battle(battles.one_battle)
    systems: dict = {}
    unspent: list[float] = []
    most: Counter = Counter()
    players: set[str] = set()
    for folder in folders:
        for path in sorted(Path(folder).glob("*.jsonl")):
            replay = Replay.read(path)
            if replay.folder not in systems:
                systems[replay.folder] = load_system(load_scenario(replay.folder or "."))
            system = systems[replay.folder]
            players.add(", ".join(f"{s} {p}" for s, p in sorted(replay.players.items())))
            state = system.new_game(replay.options, np.random.default_rng(replay.seed),
                                    replay.max_rounds)
            watch.game = state
            watch.games += 1
            for seat, action in replay.actions:
                phase, round_ = state.phase, state.round
                state.apply(action)
                if phase == "purchase" and (state.phase != phase or state.current_player != seat):
                    unspent.append(state.money[seat])
                    most[seat] = max(most[seat], state.money[seat])
                if state.current_player != seat or state.is_terminal():
                    _turn_end(state, seat, round_, watch.counts)
    games = max(watch.games, 1)
    print(f"{watch.games} games ({'; '.join(sorted(players))})")
    for name in sorted(watch.counts):
        print(f"  {name}: {watch.counts[name]} ({watch.counts[name] / games:.2f} a game)")
    if unspent:
        print(f"  IPCs left after a purchase: {statistics.mean(unspent):.1f} on average; "
              "the most by nation: " + ", ".join(f"{n} {v}" for n, v in sorted(most.items())))


def _turn_end(state, seat: str, round_: int, counts: Counter) -> None:
    """Japan's first turn in China, and France at the end of Germany's turns (aa50-1942)."""
    data = state.data
    if seat == "japan" and round_ == 1 and data.china is not None and "kwangtung" in data.board.land:
        if not any(b[0] == 1 and b[2] == "japan" and b[1] in data.china.territories
                   for b in state.chronicle.battles):
            counts["Japan attacks no Chinese territory in round 1"] += 1
        if not [p for p in state.pieces["kwangtung"]
                if p.owner == "japan" and data.types[p.type].domain == "land"]:
            counts["Japan ends round 1 with Kwangtung empty"] += 1
    if seat == "germany" and "france" in data.board.land and state.control.get("france") == "germany" \
            and not [p for p in state.pieces["france"] if data.types[p.type].domain == "land"]:
        counts["turns Germany ends with France empty"] += 1


# -- speed -----------------------------------------------------------------------------------------
def play(system, seed: int, specs: dict[str, str], max_rounds: int = 15):
    options = {s.key: s.default for s in system.game_settings()}
    state = system.new_game(options, np.random.default_rng(seed), max_rounds)
    players = {side: make_player(spec, system, side, np.random.default_rng([seed, number]))
               for number, (side, spec) in enumerate(sorted(specs.items()), 1)}
    while not state.is_terminal():
        state.apply(players[state.side_of(state.current_player)].choose(state))
    return state


def speed(scenario: str, games: int, search: str, search_games: int) -> None:
    system = load_system(load_scenario(scenario))
    play(system, 0, {"axis": "heuristic", "allies": "heuristic"})     # warm the caches
    rows = [("heuristic, both sides", {"axis": "heuristic", "allies": "heuristic"}, games)]
    rows += [(f"{search} as {side}", {"axis": "heuristic", "allies": "heuristic", side: search},
              search_games) for side in ("axis", "allies")]
    for label, specs, count in rows:
        times = []
        for seed in range(count):
            started = time.process_time()
            play(system, 1000 + seed, specs)
            times.append(time.process_time() - started)
        if times:
            print(f"  {label:40s} median {statistics.median(times):6.2f}s  "
                  f"longest {max(times):6.2f}s  ({count} games)")
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  most memory of this process: {memory:.0f} MB")


# -- the standing's weights ------------------------------------------------------------------------
def fit_standing(scenarios: list[str], games: int) -> None:
    rows, outcomes = [], []
    for scenario in scenarios:
        system = load_system(load_scenario(scenario))
        for seed in range(games):
            options = {s.key: s.default for s in system.game_settings()}
            state = system.new_game(options, np.random.default_rng(seed), 15)
            players = {side: make_player("heuristic", system, side, np.random.default_rng([seed, n]))
                       for n, side in enumerate(("axis", "allies"))}
            seen = []
            last = state.round
            while not state.is_terminal():
                state.apply(players[state.side_of(state.current_player)].choose(state))
                if state.round != last and not state.is_terminal():
                    seen.append(standing.features(state, "axis"))
                    last = state.round
            winner = state.result().winner
            outcome = 0.5 if winner is None else float(winner == "axis")
            rows += seen
            outcomes += [outcome] * len(seen)
    x, y = np.array(rows), np.array(outcomes)
    # every weight is kept at zero or above (more cities, income or army never count
    # against a side): a weight the fit makes negative is fixed at zero and the rest refitted
    free = np.ones(x.shape[1], dtype=bool)
    while True:
        weights = np.zeros(x.shape[1])
        for _ in range(50):                   # Newton's method on the logistic likelihood
            p = 1 / (1 + np.exp(-x @ weights))
            gradient = x.T @ (y - p)
            hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(x.shape[1])
            step = np.zeros(x.shape[1])
            step[free] = np.linalg.solve(hessian[np.ix_(free, free)], gradient[free])
            weights += step
        if (weights[free] >= 0).all():
            break
        free &= weights > 0
    p = 1 / (1 + np.exp(-x @ weights))
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    p0 = 1 / (1 + np.exp(-x @ np.array(standing.WEIGHTS)))
    loss0 = -np.mean(y * np.log(p0) + (1 - y) * np.log(1 - p0))
    print(f"{len(y)} positions from {games} games of each scenario")
    print("  fitted weights: " + ", ".join(f"{w:.2f}" for w in weights) + f" (log loss {loss:.4f})")
    print("  weights in use: " + ", ".join(f"{w:.2f}" for w in standing.WEIGHTS)
          + f" (log loss {loss0:.4f}; an even 0.5 scores {np.log(2):.4f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    read = commands.add_parser("blunders")
    read.add_argument("folders", nargs="+")
    timing = commands.add_parser("speed")
    timing.add_argument("--games", type=int, default=5)
    timing.add_argument("--scenario", default=str(ROOT / "scenarios" / "aa50-1942"))
    timing.add_argument("--search", default="search")
    timing.add_argument("--search-games", type=int, default=None,
                        help="games of the search player on each side (--games)")
    fit = commands.add_parser("fit-standing")
    fit.add_argument("--games", type=int, default=40)
    fit.add_argument("--scenario", action="append")
    args = parser.parse_args()
    if args.command == "blunders":
        blunders(args.folders)
    elif args.command == "speed":
        speed(args.scenario, args.games, args.search,
              args.games if args.search_games is None else args.search_games)
    else:
        fit_standing(args.scenario or [str(ROOT / "scenarios" / s)
                                       for s in ("aa50-1942", "aa50-1941")], args.games)


if __name__ == "__main__":
    main()
