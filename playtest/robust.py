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

The stronger players' games are read by the rule the printed verdict uses (playtest/report.py
`verdict_lean`): the decided games when they are at least as many as those the round limit
stopped, otherwise who led at the limit.

Looking after every batch is a sequential test: each look uses a Wilson interval at the
Bonferroni level 5% / (number of looks allowed), so that the chance of a wrong call over all
the looks stays under 5% (conservative; Pocock's boundary would stop a little sooner). The
batches' seeds come from the study's seed, so the check is the same on any number of workers.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import TypeVar

from engine.calculator import wilson

from .report import AHEAD_CODES, OUTCOME_CODES, leader_at_limit, verdict_lean

LEVEL = 0.05
FUTILE = 0.10                    # stop once more games would settle it with less than this chance
FIRST_FUTILITY_LOOK = 1          # ... judged from the second look on, never from one batch
SEED_OFFSET = 1_000_000          # batch k plays with the seed of "game" 1,000,000 + k


@dataclass(frozen=True)
class Counted:
    """Games counted for each of two sides, and the others: a share tested against a target."""
    first: int
    second: int
    neither: int

    @property
    def counted(self) -> int:
        return self.first + self.second

    @property
    def games(self) -> int:
        return self.first + self.second + self.neither

    def __add__(self, other: Counted) -> Counted:
        return Counted(self.first + other.first, self.second + other.second,
                       self.neither + other.neither)

    def lean(self, z: float | None = None, target: float = 0.5) -> int:
        return lean(self, target=target) if z is None else lean(self, z, target)


@dataclass(frozen=True)
class Tally:
    """Two sides' games as a balance verdict reads them: wins, leads at the round limit, the
    games the limit stopped, and the others (drawn, level, failed)."""
    wins: tuple[int, int]
    ahead: tuple[int, int]
    stopped: int
    others: int

    @property
    def first(self) -> int:                  # games won or led at the limit, for the JSON
        return self.wins[0] + self.ahead[0]

    @property
    def second(self) -> int:
        return self.wins[1] + self.ahead[1]

    @property
    def neither(self) -> int:
        return self.games - self.first - self.second

    @property
    def games(self) -> int:
        return self.wins[0] + self.wins[1] + self.stopped + self.others

    @property
    def counted(self) -> int:
        return self.first + self.second

    def __add__(self, other: Tally) -> Tally:
        return Tally((self.wins[0] + other.wins[0], self.wins[1] + other.wins[1]),
                     (self.ahead[0] + other.ahead[0], self.ahead[1] + other.ahead[1]),
                     self.stopped + other.stopped, self.others + other.others)

    def lean(self, z: float | None = None, target: float = 0.5) -> int:
        """The balance verdict's lean: the two sides weighed against each other, so an even
        split is the only target it knows (the argument keeps Counted's signature)."""
        if target != 0.5:
            raise ValueError(f"a balance verdict weighs the sides against each other, "
                             f"not against a {target:g} share")
        return verdict_lean(self.wins, self.stopped, self.ahead, z)


def count_games(results: list[dict], sides: list[str]) -> Tally:
    """Two sides' wins and leads at the round limit in game results."""
    wins, ahead, stopped, others = [0, 0], [0, 0], 0, 0
    for result in results:
        if result.get("winner") in sides:
            wins[sides.index(result["winner"])] += 1
            continue
        if result.get("reason") == "round-limit" and result.get("winner") is None:
            stopped += 1
            leader = leader_at_limit(result)
            if leader in sides:
                ahead[sides.index(leader)] += 1
        else:
            others += 1
    return Tally((wins[0], wins[1]), (ahead[0], ahead[1]), stopped, others)


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


Games = TypeVar("Games", Counted, Tally)


def check_robust(original: Counted | Tally, play: Callable[[int, int], Games],
                 sides: list[str], max_games: int, batch: int, target: float = 0.5,
                 verdict: int | None = None) -> dict:
    """Play batches (`play(batch_number, games)` -> their Counted or Tally) until the stronger
    players' games settle whether the original verdict (the `lean` of `original`, or `verdict`
    when given: 0 for "at the target") holds, or `max_games` are played."""
    looks = max(1, math.ceil(max_games / batch))
    z = NormalDist().inv_cdf(1 - LEVEL / (2 * looks))
    verdict = original.lean(target=target) if verdict is None else verdict
    total: Games | None = None
    played, result, found, look = 0, "unsettled", 0, 0
    chance = 1.0
    for look in range(looks):
        games = min(batch, max_games - played)
        counted = play(look, games)
        total = counted if total is None else total + counted
        played += games
        found = total.lean(z, target)
        if verdict and found == verdict:
            result = "holds"
        elif found and found != verdict:
            result = "depends"
        if result != "unsettled":
            break
        if look >= FIRST_FUTILITY_LOOK and played < max_games:
            chance = chance_to_settle(total, max_games - played, z, target)
            if chance < FUTILE:
                break
    if result == "unsettled" and verdict == 0:
        result = "holds"             # no side favoured by either strength, after every game
    first, second, neither = (total.first, total.second, total.neither) if total else (0, 0, 0)
    low, high = wilson(first, first + second, z)
    return {"result": result, "games": played, "max_games": max_games, "looks": look + 1,
            "level": LEVEL, "verdict": verdict, "found": found, "target": target,
            "counted": {sides[0]: first, sides[1]: second, "neither": neither},
            "share": first / (first + second) if first + second else None,
            "interval": [low, high],
            "stopped_early": result in ("unsettled", "holds") and played < max_games,
            "chance_to_settle": chance}


def chance_to_settle(total: Counted | Tally, remaining: int, z: float, target: float) -> float:
    """The chance that `remaining` more games make the first side's share significantly
    different from `target` (either way), predicted from the games so far: the beta-binomial
    predictive distribution of the remaining counted games' split under a uniform prior (the
    usual predictive probability for stopping a trial for futility). Stopping when it is
    small never makes a wrong call likelier: it only gives up calls. Written out here, as
    SciPy (whose `betabinom` it matches, tests/test_ladder_robust.py) is no dependency of
    the command line."""
    if not total.games:
        return 1.0
    more = round(remaining * total.counted / total.games)
    settled = 0.0
    for k in range(more + 1):
        final = Counted(total.first + k, total.second + more - k, 0)
        if lean(final, z, target):
            settled += math.exp(log_beta_binomial(k, more, total.first + 1, total.second + 1))
    return settled


def log_beta_binomial(k: int, n: int, a: float, b: float) -> float:
    """log P(k successes in n) under the beta-binomial distribution with shapes a and b."""
    def log_beta(x: float, y: float) -> float:
        return math.lgamma(x) + math.lgamma(y) - math.lgamma(x + y)
    log_choose = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return log_choose + log_beta(k + a, n - k + b) - log_beta(a, b)


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
        return f"the verdict holds with stronger players: no side is favoured in {games}" + \
            _early(check)
    claim = f"{before} is favoured" if before else "no side is favoured"
    return f"not settled: {games} neither confirm nor refute that {claim}" + _early(check)


def _early(check: dict) -> str:
    """What stopping before `max_games` means, or what more games could do."""
    left = check["max_games"] - check["games"]
    if check.get("stopped_early"):
        chance = f"{100 * check['chance_to_settle']:.0f}%"
        if check["result"] == "holds":
            return f" (the {left} games left would find otherwise with a chance of only {chance})"
        return (f"; the {left} games left would settle it with a chance of only {chance}: too "
                "close to call either way")
    return "; more games (--robust-games) might settle it" if check["result"] == "unsettled" else ""


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
                else f"no significant shift with stronger players either ({games})" + _early(check))
    return f"not settled: {games} neither confirm nor refute that {before}" + _early(check)


def describe_target(check: dict, side: str, target: float) -> str:
    """A fair value's robust check in one sentence."""
    games = f"{check['games']} game{'s' if check['games'] != 1 else ''}"
    share = check.get("share")
    shown = f"{100 * share:.0f}%" if share is not None else "no decided game"
    if check["result"] == "depends":
        return (f"the fair value depends on the players: with stronger players {side} wins "
                f"{shown} there, not {100 * target:g}% ({games})")
    return (f"the fair value holds with stronger players: {side} wins {shown} there, as "
            f"{100 * target:g}% allows ({games})" + _early(check))
