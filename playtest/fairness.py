"""What is fair: the value of a knob (playtest/knob.py) at which a side wins a target share of
games, found by playing.

Stochastic root finding that spends games where the answer is uncertain:

1. a batch of games at both ends of the range and in its middle;
2. a logistic curve of the side's win rate over the knob is fitted to every game played so far
   (playtest/stats.py, Firth's fit), and its crossing of the target estimated;
3. the next batch goes where that estimate is uncertain: half of it at the estimate, a quarter
   each where the fitted curve says 30% and 70% (these pin the slope, which the estimate's
   interval depends on); repeat from 2 until the games are spent or the interval is as narrow as
   asked.

The answer is the fitted crossing with Fieller's 95% interval, and the curve found: each value
played with its games, wins and Wilson interval, and the fitted rate. A knob of whole numbers
(counts, money) is played at whole numbers only; its answer is a point between them.

The answer is only as good as the curve. Its fit is checked with Pearson's chi-squared over the
values played (degrees of freedom: values less the two fitted coefficients); when the games
reject the logistic shape (p < 0.05), the answer says so, since Fieller's interval then covers
the crossing less often than 95% (a curve that is not logistic bends the crossing, and the more
games, the narrower an interval around the wrong point: about 82% at 3,000 games in one
measured case). An interval that reaches outside the range searched is no answer: the value is
"not found", with the reason.

Why a fitted curve rather than bisection: every game played anywhere informs the fit, the curve
is worth reporting for itself, and the interval comes with it. Probabilistic bisection needs the
chance that one answer points the right way, which a batch of games does not know beforehand.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.calculator import wilson

from .stats import chi2_survival, fit_logistic

FIRST_VALUES = 3              # the ends and the middle of the range
SPREAD_LOGIT = 0.85           # where the fitted curve is at 30% and 70% of a 50% target


@dataclass
class Point:
    value: float
    games: int = 0
    counted: int = 0          # games that count (decided games, or all)
    wins: int = 0


# play(value, games, batch number) -> (wins, counted games)
Play = Callable[[float, int, int], tuple[int, int]]


def find_fair_value(play: Play, low: float, high: float, target: float = 0.5, games: int = 400,
                    batch: int | None = None, integer: bool = False, tolerance: float = 0.0,
                    progress: Callable[[int, int], None] | None = None) -> dict:
    """Search [low, high] for the knob value where the win rate meets `target`, spending
    `games` games in batches of `batch`. Returns the answer's JSON form (see module doc)."""
    if not low < high:
        raise ValueError("the range must go from a lower to a higher value")
    if not 0 < target < 1:
        raise ValueError("the target must be a share between 0 and 1, as 0.5")
    batch = batch or max(12, games // 10)
    points: dict[float, Point] = {}
    spent, number = 0, 0

    def play_at(values: list[float], shares: list[float]) -> None:
        nonlocal spent, number
        left = games - spent
        size = min(batch, left)
        for value, share in zip(values, shares, strict=True):
            n = max(1, round(size * share))
            n = min(n, games - spent)
            if n <= 0:
                return
            value = _snap(value, low, high, integer)
            wins, counted = play(value, n, number)
            number += 1
            point = points.setdefault(value, Point(value))
            point.games += n
            point.counted += counted
            point.wins += wins
            spent += n
            if progress:
                progress(spent, games)

    first = list(np.linspace(low, high, FIRST_VALUES))
    play_at(first, [1 / FIRST_VALUES] * FIRST_VALUES)
    while spent < games:
        fit = _fit(points, low, high, target)
        root, interval = fit["root"], fit["interval"]
        if interval is not None and tolerance > 0 and interval[1] - interval[0] <= tolerance:
            break
        width = high - low
        if fit["clear"] and math.isfinite(root):
            centre = min(max(root, low), high)
            spread = min(max(SPREAD_LOGIT / abs(fit["slope"]), width / 50), width / 4)
        else:                      # no slope seen yet: look between the values played
            centre, spread = _widest_gap(points, low, high), width / 4
        if integer:
            spread = max(spread, 1.0)
        play_at([centre - spread, centre, centre + spread], [0.25, 0.5, 0.25])
    return _answer(points, low, high, target, integer, spent, _fit(points, low, high, target))


def _snap(value: float, low: float, high: float, integer: bool) -> float:
    value = min(max(value, low), high)
    return float(round(value)) if integer else float(value)


def _widest_gap(points: dict, low: float, high: float) -> float:
    values = sorted(set(points) | {low, high})
    gaps = [(b - a, (a + b) / 2) for a, b in zip(values, values[1:], strict=False)]
    return max(gaps)[1] if gaps else (low + high) / 2


def _fit(points: dict, low: float, high: float, target: float = 0.5) -> dict:
    """The logistic fit on the range scaled to [0, 1] (for a well-conditioned fit), with its
    root and Fieller interval mapped back to the knob's units."""
    width = high - low
    rows = sorted(points.values(), key=lambda p: p.value)
    fit = fit_logistic([(p.value - low) / width for p in rows], [p.wins for p in rows],
                       [p.counted for p in rows])
    clear = fit.slope_is_clear()
    root = fit.root(target)
    interval = fit.fieller(target) if clear else None
    return {"fit": fit, "clear": clear, "slope": fit.slope / width,
            "root": float(low + root * width) if math.isfinite(root) else math.nan,
            "interval": None if interval is None else (float(low + interval[0] * width),
                                                       float(low + interval[1] * width))}


def _answer(points: dict, low: float, high: float, target: float, integer: bool, spent: int,
            fitted: dict) -> dict:
    fit, width = fitted["fit"], high - low
    root, interval = fitted["root"], fitted["interval"]
    inside = interval is not None and low <= interval[0] and interval[1] <= high
    found = bool(fitted["clear"] and inside and low <= root <= high)
    curve = []
    for point in sorted(points.values(), key=lambda p: p.value):
        curve.append({"value": point.value, "games": point.games, "counted": point.counted,
                      "wins": point.wins,
                      "rate": point.wins / point.counted if point.counted else None,
                      "interval": list(wilson(point.wins, point.counted)),
                      "fitted": float(fit.rate((point.value - low) / width))})
    # the fitted curve in the knob's units: rate = 1 / (1 + exp(-(intercept + slope * value)))
    slope = fit.slope / width
    intercept = fit.intercept - slope * low
    rates = [p.wins / p.counted for p in points.values() if p.counted]
    if not fitted["clear"] and rates and (min(rates) > target or max(rates) < target):
        why = (f"the side wins {'more' if min(rates) > target else 'less'} than "
               f"{100 * target:g}% at every value played: the fair value lies outside the "
               "range; widen it")
    elif not fitted["clear"]:
        why = "the win rate does not change clearly over the range: more games, or a wider range"
    elif not low <= root <= high:
        why = (f"the win rate meets {100 * target:g}% outside the range, near "
               f"{root:.3g}: widen the range")
    elif not inside:
        assert interval is not None
        why = (f"the 95% interval of the crossing ({interval[0]:.3g} to {interval[1]:.3g}) "
               f"reaches outside the range searched ({low:g} to {high:g}): the games do not pin "
               "the value down; play more games, or widen the range")
    else:
        why = ""
    return {"found": found, "why": why, "slope_clear": bool(fitted["clear"]),
            "value": root if math.isfinite(root) else None,
            "interval": list(interval) if interval else None,
            "whole": int(round(root)) if integer and found else None,
            "target": target, "range": [low, high], "integer": integer, "games": spent,
            "curve": curve, "fit": {"intercept": intercept, "slope": slope,
                                    **goodness_of_fit(curve)}}


def goodness_of_fit(curve: list[dict]) -> dict:
    """Pearson's chi-squared of the curve's values against the fitted rates: does the logistic
    shape fit the games? Values with no counted game, or a fitted rate of 0 or 1, add nothing."""
    chi2, used = 0.0, 0
    for point in curve:
        n, p = point["counted"], point["fitted"]
        if n and 0 < p < 1:
            chi2 += (point["wins"] - n * p) ** 2 / (n * p * (1 - p))
            used += 1
    df = used - 2
    p_value = chi2_survival(chi2, df) if df > 0 else None
    return {"chi2": chi2, "df": df, "p": p_value,
            "fits": p_value is None or p_value >= 0.05}


__all__ = ["find_fair_value", "Point"]
