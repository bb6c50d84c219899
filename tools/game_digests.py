"""Whether a change leaves play as it was: the actions of seeded games, hashed.

    python tools/game_digests.py SCENARIO [SCENARIO ...] [--games N] [--seed S]
                                 [--players SPEC] [--rounds R] [--expect FILE]

A speed-up or a refactor of the rules or the players should not change a single action of a
game. This plays each scenario's games as `sandtable playtest games` plays them (the same
seeds for the same `--seed` and game numbers, playtest/study.py), and prints one line per game:
the scenario, the game's number and seed, and a digest of its actions in order. Run it before
the change and save what it prints; run it after with `--expect` that file: it exits 1 and
names every game whose actions differ (or that is missing), 0 when all are the same.

`--players` is a `--players` spec of `playtest games` for every side (`heuristic` by default;
`search:budget=2` checks a search at small cost); `--rounds` stops long games early.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.system import load_system  # noqa: E402
from playtest.study import Study, play_game  # noqa: E402
from sandtable.scenario import load_scenario  # noqa: E402


def digests(folder: Path, games: int, seed: int, players: str, rounds: int | None) -> list[str]:
    """One line per game: scenario, game number, its seed, the digest of its actions."""
    scenario = load_scenario(folder)
    system = load_system(scenario)
    sides = [side["id"] for _, side in scenario.entities("scenario", "sides")]
    options = {s.key: s.default for s in system.game_settings()}
    study = Study(scenario, options, {side: players for side in sides}, games, seed,
                  max_rounds=rounds, keep_actions=True)
    lines = []
    for index in range(games):
        record = play_game(system, study, index)
        if record.error:
            raise SystemExit(f"{folder.name} game {index} failed: {record.error}")
        digest = hashlib.sha256(repr(record.moves).encode("utf-8")).hexdigest()[:16]
        lines.append(f"{folder.name} {index} {record.seed} {digest}")
    return lines


def differences(found: list[str], expected: list[str]) -> list[str]:
    """The games whose line differs from the expected one, or that one of the two lacks."""
    def by_game(lines):
        return {tuple(line.split()[:2]): line for line in lines if line.strip()}
    now, before = by_game(found), by_game(expected)
    return [" ".join(game) for game in sorted(now.keys() | before.keys())
            if now.get(game) != before.get(game)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="+", type=Path)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="heuristic")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--expect", type=Path, help="a file this printed before the change")
    args = parser.parse_args(argv)
    lines = [line for folder in args.scenarios
             for line in digests(folder, args.games, args.seed, args.players, args.rounds)]
    print("\n".join(lines))
    if args.expect is None:
        return 0
    changed = differences(lines, args.expect.read_text(encoding="utf-8").splitlines())
    for game in changed:
        print(f"different: {game}", file=sys.stderr)
    print(f"{len(lines) - len(changed)} of {len(lines)} games play as before", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
