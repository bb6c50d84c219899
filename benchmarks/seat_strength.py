"""Shared by the player benchmarks (war_at_sea_players.py, allies_vs_axis_players.py, through
player_benchmark.py): how strong a player is in one seat against the same opponent.

Games are asymmetric, so a player is never compared with 50%: the same seat, the same opponent,
the same game seeds, once with the baseline player and once with the challenger. The figure is
the share of decided games the seat wins (Wilson's 95% interval), and the shift in games won
with its paired interval (Newcombe) and McNemar's test, since game i of both studies starts
from the same seed (playtest/stats.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.calculator import wilson
from playtest.stats import paired_shift
from playtest.study import Study, run_study


@dataclass
class Seat:
    """What one seat did in a study."""

    wins: int
    losses: int
    games: int

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def share(self) -> float:
        return self.wins / self.decided if self.decided else 0.0

    def text(self) -> str:
        low, high = wilson(self.wins, self.decided)
        return (f"{self.wins:4d} of {self.decided:4d} decided  {100 * self.share:5.1f}% "
                f"[{100 * low:4.1f}, {100 * high:4.1f}]")


def winners(scenario, options: dict, players: dict[str, str], games: int, seed: int,
            workers: int, max_rounds: int | None = None) -> list[str | None]:
    """The winner of each game (None: a draw or the round limit); a failed game stops the run."""
    study = Study(scenario, options, players, games, seed, max_rounds)
    found = []
    for record in run_study(study, workers):
        if record.error:
            raise SystemExit(f"game {record.index} failed: {record.error} ({record.replay})")
        found.append(record.result["winner"])
    return found


def seat(found: list[str | None], side: str) -> Seat:
    return Seat(sum(w == side for w in found), sum(w not in (side, None) for w in found),
                len(found))


def compare_in_seat(scenario, options: dict, side: str, other: str, opponent: str,
                    baseline: str, challenger: str, games: int, seed: int, workers: int,
                    max_rounds: int | None = None) -> tuple[Seat, Seat]:
    """Print and return the seat's record with `baseline` and with `challenger` playing it,
    the same `opponent` in the other seat, the same seeds."""
    old = winners(scenario, options, {side: baseline, other: opponent}, games, seed, workers,
                  max_rounds)
    new = winners(scenario, options, {side: challenger, other: opponent}, games, seed, workers,
                  max_rounds)
    shift = paired_shift([w == side for w in old], [w == side for w in new])
    before, after = seat(old, side), seat(new, side)
    print(f"  {side} {baseline:<28} {before.text()}")
    print(f"  {side} {challenger:<28} {after.text()}")
    low, high = shift.interval
    print(f"    games won: {100 * shift.shift:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}], "
          f"McNemar p = {shift.p_value:.3g}; share of decided games "
          f"{100 * (after.share - before.share):+.1f} points")
    return before, after
