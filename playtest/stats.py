"""The statistics of balance studies: shifts in win rates, their intervals and tests, and a
win-rate curve fitted over a knob.

Why these methods:

- Two studies played with the same seeds are *paired*: game i of both starts from the same
  seed, so a small change leaves many games unchanged. The shift of a side's win rate is then
  tested with McNemar's exact test, which looks only at the games whose result changed (won in
  one study, not in the other); its interval is Newcombe's hybrid score interval for paired
  proportions (1998, method 10). A two-proportion test would treat the studies as
  independent, and ignoring the pairing wastes the games that did not change.
- Unpaired results (a baseline played with another seed or number of games) get the same
  interval with no correlation (Newcombe's method 10 for independent proportions) and the
  pooled two-proportion z test.
- A win rate as a function of a number in the scenario is fitted by a logistic regression with
  Firth's bias reduction, which stays finite when a side won every game at some value (the
  plain maximum-likelihood fit then runs off to infinity); the value where the curve meets the
  target gets Fieller's interval, which is honest when the slope itself is uncertain.

The functions are small and exact enough for the job, so the standard library serves
(statistics.NormalDist, math.lgamma); SciPy would be a large dependency for three functions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from engine.calculator import wilson

Z95 = NormalDist().inv_cdf(0.975)


# -- proportions ---------------------------------------------------------------------------------
def binomial_two_sided(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n trials when the chance is one half."""
    if n <= 0:
        return 1.0
    low = min(k, n - k)
    log_half = n * math.log(0.5)
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half
            for i in range(low + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(value - top) for value in logs)
    return min(1.0, 2 * tail)


def mcnemar(gained: int, lost: int) -> float:
    """McNemar's exact test: p-value of `gained` games won only in the new study against `lost`
    won only in the old one, when the change does nothing (each is as likely as the other)."""
    return binomial_two_sided(gained, gained + lost)


def _phi(both: int, only_new: int, only_old: int, neither: int) -> float:
    denominator = (both + only_new) * (only_old + neither) * (both + only_old) * \
        (only_new + neither)
    if denominator <= 0:
        return 0.0
    return (both * neither - only_new * only_old) / math.sqrt(denominator)


def _newcombe(p_new: float, new_ci, p_old: float, old_ci, phi: float) -> tuple[float, float]:
    """Newcombe's method 10: the interval of p_new - p_old from each proportion's Wilson
    interval, and the correlation phi between them (0 for independent samples)."""
    shift = p_new - p_old
    (l_new, u_new), (l_old, u_old) = new_ci, old_ci
    below = (p_new - l_new) ** 2 - 2 * phi * (p_new - l_new) * (u_old - p_old) + (u_old - p_old) ** 2
    above = (u_new - p_new) ** 2 - 2 * phi * (u_new - p_new) * (p_old - l_old) + (p_old - l_old) ** 2
    return (max(-1.0, shift - math.sqrt(max(below, 0.0))),
            min(1.0, shift + math.sqrt(max(above, 0.0))))


@dataclass(frozen=True)
class Shift:
    """How a proportion moved from an old study to a new one."""

    old: float
    new: float
    shift: float
    interval: tuple[float, float]
    p_value: float
    test: str               # "mcnemar" (paired) or "two-proportion"
    changed: tuple[int, int] | None = None    # paired: (won only in the new, only in the old)

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05

    def as_dict(self) -> dict:
        found = {"old": self.old, "new": self.new, "shift": self.shift,
                 "interval": list(self.interval), "p_value": self.p_value,
                 "significant": self.significant, "test": self.test}
        if self.changed is not None:
            found["won_only_in_new"], found["won_only_in_old"] = self.changed
        return found


def paired_shift(old: list[bool], new: list[bool]) -> Shift:
    """The shift between two studies of the same games (same seeds), game by game."""
    if len(old) != len(new):
        raise ValueError("paired studies must have the same games")
    n = len(old)
    both = sum(1 for a, b in zip(old, new, strict=True) if a and b)
    only_new = sum(1 for a, b in zip(old, new, strict=True) if b and not a)
    only_old = sum(1 for a, b in zip(old, new, strict=True) if a and not b)
    neither = n - both - only_new - only_old
    if n == 0:
        return Shift(0.0, 0.0, 0.0, (-1.0, 1.0), 1.0, "mcnemar", (0, 0))
    p_old, p_new = (both + only_old) / n, (both + only_new) / n
    interval = _newcombe(p_new, wilson(both + only_new, n), p_old, wilson(both + only_old, n),
                         _phi(both, only_new, only_old, neither))
    return Shift(p_old, p_new, p_new - p_old, interval, mcnemar(only_new, only_old), "mcnemar",
                 (only_new, only_old))


def independent_shift(old_wins: int, old_n: int, new_wins: int, new_n: int) -> Shift:
    """The shift between two independent studies: the pooled two-proportion z test."""
    p_old = old_wins / old_n if old_n else 0.0
    p_new = new_wins / new_n if new_n else 0.0
    interval = _newcombe(p_new, wilson(new_wins, new_n), p_old, wilson(old_wins, old_n), 0.0)
    pooled = (old_wins + new_wins) / (old_n + new_n) if old_n + new_n else 0.0
    spread = math.sqrt(pooled * (1 - pooled) * (1 / max(old_n, 1) + 1 / max(new_n, 1)))
    if spread == 0:
        p_value = 1.0 if p_new == p_old else 0.0
    else:
        p_value = 2 * (1 - NormalDist().cdf(abs(p_new - p_old) / spread))
    return Shift(p_old, p_new, p_new - p_old, interval, p_value, "two-proportion")


# -- means ---------------------------------------------------------------------------------------
def histogram_moments(histogram: dict) -> tuple[int, float, float]:
    """(count, mean, variance) of values given as {value: how many}."""
    count = sum(histogram.values())
    if not count:
        return 0, math.nan, math.nan
    mean = sum(float(v) * n for v, n in histogram.items()) / count
    spread = sum(n * (float(v) - mean) ** 2 for v, n in histogram.items())
    return count, mean, spread / (count - 1) if count > 1 else 0.0


def mean_shift(old: dict, new: dict) -> dict:
    """The shift of a mean between two histograms, with Welch's 95% interval (normal
    quantile: the studies have many games)."""
    n_old, m_old, v_old = histogram_moments(old)
    n_new, m_new, v_new = histogram_moments(new)
    if not n_old or not n_new:
        return {"old": m_old, "new": m_new, "shift": math.nan, "interval": [math.nan, math.nan]}
    half = Z95 * math.sqrt(v_old / n_old + v_new / n_new)
    shift = m_new - m_old
    return {"old": m_old, "new": m_new, "shift": shift, "interval": [shift - half, shift + half]}


# -- a win-rate curve ----------------------------------------------------------------------------
@dataclass(frozen=True)
class LogisticFit:
    """P(win) = 1 / (1 + exp(-(intercept + slope * x))), with the estimates' covariance."""

    intercept: float
    slope: float
    covariance: np.ndarray

    def rate(self, x) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(self.intercept + self.slope * np.asarray(x, dtype=float))))

    def root(self, target: float) -> float:
        """Where the curve meets the target (nan when it is flat)."""
        if self.slope == 0:
            return math.nan
        return (_logit(target) - self.intercept) / self.slope

    def slope_is_clear(self) -> bool:
        """Is the slope told apart from zero (95%)?"""
        return self.slope ** 2 > Z95 ** 2 * self.covariance[1, 1]

    def fieller(self, target: float) -> tuple[float, float] | None:
        """Fieller's 95% interval of the root: the x where intercept + slope * x - logit(target)
        is within its own sampling error of zero. None when the slope is not told apart from
        zero: then the set is unbounded and no interval can be given."""
        a, b, t = self.intercept, self.slope, _logit(target)
        va, vb, cab = self.covariance[0, 0], self.covariance[1, 1], self.covariance[0, 1]
        z2 = Z95 ** 2
        quad = b * b - z2 * vb
        if quad <= 0:
            return None
        lin = (a - t) * b - z2 * cab
        const = (a - t) ** 2 - z2 * va
        disc = lin * lin - quad * const
        if disc < 0:
            return None
        root = math.sqrt(disc)
        return ((-lin - root) / quad, (-lin + root) / quad)


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def fit_logistic(x, wins, trials, iterations: int = 100) -> LogisticFit:
    """Firth's bias-reduced logistic regression of wins out of trials at each x. Firth's
    correction keeps the fit finite when a side wins all or none of its games."""
    x = np.asarray(x, dtype=float)
    beta, covariance = fit_firth(np.column_stack([np.ones_like(x), x]), wins, trials, iterations)
    return LogisticFit(float(beta[0]), float(beta[1]), covariance)


def fit_firth(design, wins, trials, iterations: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """Firth's bias-reduced logistic regression on a design matrix (one row per observation):
    the coefficients and their covariance (the inverse Fisher information at the estimate).
    Newton steps on the modified score; `wins` may be fractional (a draw counts a half)."""
    design = np.asarray(design, dtype=float)
    wins = np.asarray(wins, dtype=float)
    trials = np.asarray(trials, dtype=float)
    keep = trials > 0
    design, wins, trials = design[keep], wins[keep], trials[keep]
    width = design.shape[1]
    beta = np.zeros(width)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        weight = trials * p * (1 - p)
        information = design.T @ (design * weight[:, None]) + 1e-12 * np.eye(width)
        inverse = np.linalg.inv(information)
        leverage = np.einsum("ij,jk,ik->i", design, inverse, design) * weight
        score = design.T @ (wins - trials * p + leverage * (0.5 - p))
        step = inverse @ score
        largest = np.max(np.abs(step))
        if largest > 5:                       # keep Newton's steps sane far from the answer
            step *= 5 / largest
        beta = beta + step
        if largest < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(design @ beta)))
    weight = trials * p * (1 - p)
    information = design.T @ (design * weight[:, None]) + 1e-12 * np.eye(width)
    return beta, np.linalg.inv(information)


__all__ = ["Shift", "paired_shift", "independent_shift", "mcnemar", "binomial_two_sided",
           "mean_shift", "histogram_moments", "LogisticFit", "fit_logistic", "fit_firth", "wilson", "Z95"]
