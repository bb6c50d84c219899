"""How a War at Sea side stands: its chance to win from a position, without playing on.

The game is won by the score track's sign after the last turn (§17.4), and what moves the track
is sea control, which goes to the stronger fleet. So the estimate reads the track and the
fleets: the log-odds that the positive side (the Axis) wins are

    INTERCEPT + TRACK * track + turns_left * (PER_TURN + FLEETS * ln(S_positive / S_other))

where turns_left counts the turns still to be scored, this one included, and S is a side's
fleet strength, Lanchester's (dice x toughness, engine/war_at_sea/heuristic.py), over its
warships afloat. It grows with the track and the side's own fleet and shrinks with the enemy's.

The coefficients are a logistic regression fitted to 48,000 positions (the start of each side's
movement) of 3,000 heuristic games with margins drawn from 0.75 to 1.75 for each side, against
who won. `python benchmarks/war_at_sea_players.py standing` plays such games again, fits half
of them and scores the other half: a Brier score of 0.065 with these coefficients where the
base rate scores 0.122. Early turns are barely better than the base rate; the last are sure.
"""
from __future__ import annotations

import math

from .heuristic import force_of

INTERCEPT = 0.208
TRACK = 0.477          # per point on the track
PER_TURN = 0.382       # per turn left
FLEETS = 0.495         # per turn left and unit of the fleets' log strength ratio


def fleet_strength(game, side: str) -> float:
    """Lanchester's strength of the side's warships afloat (convoys carry no guns)."""
    return force_of(v for v in game.vessels.values()
                    if v.side == side and not v.type.is_convoy).strength


def log_odds(track: int, turns_left: int, positive: float, other: float) -> float:
    """The log-odds that the positive side wins (the formula of the module's docstring)."""
    ratio = math.log((positive + 1) / (other + 1))
    return INTERCEPT + TRACK * track + turns_left * (PER_TURN + FLEETS * ratio)


def chance_to_win(game, side: str) -> float:
    """`side`'s chance to win the game in progress, from its position."""
    positive, other = game.positive, game.other(game.positive)
    turns_left = max(0, game.last - game.round + (0 if game.step in ("scoring", "over") else 1))
    z = log_odds(game.track, turns_left, fleet_strength(game, positive),
                 fleet_strength(game, other))
    chance = 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))
    return chance if side == positive else 1 - chance
