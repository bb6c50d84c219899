"""Does a verdict depend on the players? The study played again with stronger players, only as
long as it takes to tell.

A balance verdict ("the Allies are favoured") measures the scenario only if better players
would reach it too. `check_robust` plays the scenario with the next stronger player on every
side (engine/players `stronger`: random -> heuristic -> search), in batches, and after each
batch asks whether the stronger players' games already settle the question:

- the verdict named a favoured side: it holds once that side's share of the counted games is
  significantly above a half, and it depends on the players once it is significantly below;
- the verdict favoured no side: it depends on the players once a side is significantly
  favoured; it holds if none is after every game allowed.

A game counts for the side that won it, or, stopped at the round limit, for the side ahead
there (as `playtest balance --count adjudicated` does); a level or drawn game counts for
neither. Looking after every batch is a sequential test: each look uses a Wilson interval at
the Bonferroni level 5% / (number of looks allowed), so that the chance of a wrong call over all
the looks stays under 5% (conservative; Pocock's boundary would stop a little sooner). The
batches' seeds come from the study's seed, so the check is the same on any number of workers.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

from engine.calculator import wilson

from .report import AHEAD_CODES, OUTCOME_CODES, leader_at_limit

LEVEL = 0.05
SEED_OFFSET = 1_000_000          # batch k plays with the seed of "game" 1,000,000 + k


@dataclass(frozen=True)
class Counted:
    first: int                   # games counted for the first side
    second: int
    neither: int

    @property
    def counted(self) -> int:
        return self.first + self.second


def count_games(results: list[dict], sides: list[str]) -> Counted:
    """Games won (or led at the round limit) by each of two sides, and the others."""
    first = second = neither = 0
    for result in results:
        winner = result.get("winner") or leader_at_limit(result)
        if winner == sides[0]:
            first += 1
        elif winner == sides[1]:
            second += 1
        else:
            neither += 1
    return Counted(first, second, neither)


def shift_counts(old_codes: str, new_codes: str, index: int) -> Counted:
    """Games paired by seed (report `outcomes` codes): `first` the games the side at `index`
    gains in the new study (counted for it there, not in the old), `second` those it loses,
    `neither` the others. A shift is significant when gains and losses are unequal."""
    mine = (OUTCOME_CODES[index], AHEAD_CODES[index])
    gained = lost = same = 0
    for old, new in zip(old_codes, new_codes, strict=True):
        before, after = old in mine, new in mine
        gained += after and not before
        lost += before and not after
        same += before == after
    return Counted(gained, lost, same)


def lean(counted: Counted, z: float = NormalDist().inv_cdf(1 - LEVEL / 2),
         target: float = 0.5) -> int:
    """+1 when the first side's share of the counted games is significantly above `target`,
    -1 when below, 0 neither."""
    low, high = wilson(counted.first, counted.counted, z)
    if not counted.counted:
        return 0
    return 1 if low > target else -1 if high < target else 0


def stronger_players(players: dict[str, str], system) -> tuple[dict[str, str], list[str]]:
    """Each side's next stronger player, and notes on the sides that keep theirs (a player with
    settings answers a question of its own, and the strongest has none above it)."""
    from engine.players import split_spec, stronger
    found, notes = {}, []
    for side, spec in players.items():
        name, settings = split_spec(spec)
        better = stronger(system, name)
        if settings:
            found[side] = spec
            notes.append(f"{side} keeps {spec} (a player with settings)")
        elif better is None:
            found[side] = spec
            notes.append(f"{side} keeps {spec} (no stronger player)")
        else:
            found[side] = better
    return found, notes


def check_robust(original: Counted, play: Callable[[int, int], Counted], sides: list[str],
                 max_games: int, batch: int, target: float = 0.5,
                 verdict: int | None = None) -> dict:
    """Play batches (`play(batch_number, games)` -> their Counted) until the stronger players'
    games settle whether the original verdict (its `lean`, or `verdict` when given: 0 for
    "at the target") holds, or `max_games` are played."""
    looks = max(1, math.ceil(max_games / batch))
    z = NormalDist().inv_cdf(1 - LEVEL / (2 * looks))
    verdict = lean(original, target=target) if verdict is None else verdict
    first = second = neither = played = 0
    result, found, look = "unsettled", 0, 0
    for look in range(looks):
        games = min(batch, max_games - played)
        counted = play(look, games)
        first, second, neither = first + counted.first, second + counted.second, \
            neither + counted.neither
        played += games
        found = lean(Counted(first, second, neither), z, target)
        if verdict and found == verdict:
            result = "holds"
        elif found and found != verdict:
            result = "depends"
        if result != "unsettled":
            break
    if result == "unsettled" and verdict == 0:
        result = "holds"             # no side favoured by either strength, after every game
    total = Counted(first, second, neither)
    low, high = wilson(total.first, total.counted, z)
    return {"result": result, "games": played, "max_games": max_games, "looks": look + 1,
            "level": LEVEL, "verdict": verdict, "found": found, "target": target,
            "counted": {sides[0]: first, sides[1]: second, "neither": neither},
            "share": first / total.counted if total.counted else None,
            "interval": [low, high]}


def describe(check: dict, sides: list[str], players: dict[str, str], stronger: dict[str, str],
             names: dict[str, str]) -> str:
    """The robust check in one sentence, for the report's first lines."""
    def name(side):
        return names.get(side, side)
    favoured = {1: name(sides[0]), -1: name(sides[1]), 0: None}
    who = ", ".join(f"{name(side)} {spec}" for side, spec in stronger.items())
    games = f"{check['games']} game{'s' if check['games'] != 1 else ''} with {who}"
    before = favoured[check["verdict"]]
    after = favoured[check["found"]]
    if check["result"] == "depends":
        return ("the verdict depends on the players: " +
                (f"{before} is favoured" if before else "no side is favoured") +
                f" with {', '.join(sorted(set(players.values())))} players, " +
                (f"{after} with stronger ones" if after else "but not with stronger ones") +
                f" ({games})")
    if check["result"] == "holds":
        if before:
            return f"the verdict holds with stronger players: {before} is favoured again ({games})"
        return f"the verdict holds with stronger players: no side is favoured in {games}"
    return (f"not settled: {games} neither confirm nor refute that {before} is favoured; "
            "more games (--robust-games) would")


def describe_shift(check: dict, side: str, stronger: dict[str, str]) -> str:
    """A comparison's robust check in one sentence."""
    who = ", ".join(f"{s} {spec}" for s, spec in stronger.items())
    games = f"{check['games']} paired game{'s' if check['games'] != 1 else ''} with {who}"
    moved = {1: f"{side} gains", -1: f"{side} loses", 0: None}
    before, after = moved[check["verdict"]], moved[check["found"]]
    if check["result"] == "depends":
        return ("the shift depends on the players: " + (before or "no significant shift") +
                " with the players compared, " + (after or "no significant shift") +
                f" with stronger ones ({games})")
    if check["result"] == "holds":
        return (f"the shift holds with stronger players: {before} again ({games})" if before
                else f"no significant shift with stronger players either ({games})")
    return f"not settled: {games} neither confirm nor refute that {before}"


def describe_target(check: dict, side: str, target: float) -> str:
    """A fair value's robust check in one sentence."""
    games = f"{check['games']} game{'s' if check['games'] != 1 else ''}"
    share = check.get("share")
    shown = f"{100 * share:.0f}%" if share is not None else "no decided game"
    if check["result"] == "depends":
        return (f"the fair value depends on the players: with stronger players {side} wins "
                f"{shown} there, not {100 * target:g}% ({games})")
    return (f"the fair value holds with stronger players: {side} wins {shown} there, as "
            f"{100 * target:g}% allows ({games})")
