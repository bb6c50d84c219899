"""The statistics of balance studies: shifts in win rates, their intervals and tests, and a
win-rate curve fitted over a knob.

Why these methods:

- Two studies played with the same seeds are *paired*: game i of both starts from the same
  seed, so a small change leaves many games unchanged, and only the games whose result changed
  (won in one study only) tell. The shift of a side's win rate is tested with the score test
  for paired proportions (McNemar's, without continuity correction), and its interval is
  Tango's score interval (1998): the shifts that same test keeps. So the star (p < 0.05) and
  the interval never disagree (McNemar's exact test beside Newcombe's interval, used before,
  disagreed in about 3% of null pairs). A test treating the studies as independent would waste
  the games that did not change.
- Unpaired results (a baseline played with another seed or number of games) get Newcombe's
  interval for independent proportions (1998, method 10), and the p-value is that interval's
  own: the level at which it first takes in 0.
- A tolerance ("fail when a side moved by more than 5 points") is tested one-sided against
  the tolerance, not against zero: the shift is *beyond* the tolerance only when the interval
  lies beyond it, so a real change inside the tolerance rarely fails.
- Several tests at once (each side's shift; each change of an ablation) are corrected with
  Holm's step-down method, so that the chance of any false alarm in the family stays at 5%.
- A win rate as a function of a number in the scenario is fitted by a logistic regression with
  Firth's bias reduction, which stays finite when a side won every game at some value (the
  plain maximum-likelihood fit then runs off to infinity); the value where the curve meets the
  target gets Fieller's interval, which is honest when the slope itself is uncertain.

The functions are small and exact enough for the job, so the standard library serves
(statistics.NormalDist, math.lgamma): SciPy would add some 100 MB to the command-line install
for a handful of functions. The tests check each against SciPy's.
"""
from __future__ import annotations

import math
import statistics
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


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values: compare each with the level as it is, and the family
    of tests keeps its level (any false alarm at most 5% when each adjusted p < 0.05 counts)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        value = p_values[index]
        running = max(running, min(1.0, (len(p_values) - rank) * value if not math.isnan(value)
                                   else 1.0))
        adjusted[index] = running
    return adjusted


def chi2_survival(x: float, df: int) -> float:
    """P(X > x) for X chi-squared with `df` degrees of freedom: the regularized upper
    incomplete gamma function Q(df/2, x/2), by its series or continued fraction."""
    if x <= 0:
        return 1.0
    a, half = df / 2, x / 2
    if half < a + 1:                            # the series of P, then Q = 1 - P
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= half / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-half + a * math.log(half) - math.lgamma(a)))
    tiny = 1e-300                               # Lentz's continued fraction of Q
    b = half + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(-half + a * math.log(half) - math.lgamma(a)) * h)


def mcnemar(gained: int, lost: int) -> float:
    """McNemar's exact test: p-value of `gained` games won only in the new study against `lost`
    won only in the old one, when the change does nothing (each is as likely as the other)."""
    return binomial_two_sided(gained, gained + lost)


def newcombe(new_wins: int, new_n: int, old_wins: int, old_n: int,
             z: float = Z95) -> tuple[float, float]:
    """Newcombe's method 10 for independent proportions: the interval of p_new - p_old from
    each proportion's Wilson interval (at the level of `z`)."""
    p_new, p_old = new_wins / new_n if new_n else 0.0, old_wins / old_n if old_n else 0.0
    (l_new, u_new), (l_old, u_old) = wilson(new_wins, new_n, z), wilson(old_wins, old_n, z)
    shift = p_new - p_old
    return (max(-1.0, shift - math.hypot(p_new - l_new, u_old - p_old)),
            min(1.0, shift + math.hypot(u_new - p_new, p_old - l_old)))


def tango_score(gained: int, lost: int, n: int, delta: float) -> float:
    """Tango's score statistic (1998) for a paired shift of `delta`: (gained - lost - n delta)
    over its standard error under that shift, the chance of a lost game taken at its maximum
    likelihood given delta. At delta 0 it is McNemar's score statistic (gained - lost) /
    sqrt(gained + lost)."""
    a = 2 * n
    b = -gained - lost + (2 * n - gained + lost) * delta
    c = -lost * delta * (1 - delta)
    lost_chance = (-b + math.sqrt(max(b * b - 4 * a * c, 0.0))) / (2 * a)
    variance = n * (2 * lost_chance + delta - delta * delta)
    difference = gained - lost - n * delta
    if variance <= 0:
        return 0.0 if difference == 0 else math.copysign(math.inf, difference)
    return difference / math.sqrt(variance)


def tango_interval(gained: int, lost: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Tango's score interval of a paired shift: the shifts the score test at level z keeps.
    The score falls as the shift tried grows, so each bound is found by bisection."""
    if n == 0:
        return (-1.0, 1.0)

    def solve(level: float) -> float:
        low, high = -1.0, 1.0
        for _ in range(100):
            middle = (low + high) / 2
            low, high = (middle, high) if tango_score(gained, lost, n, middle) > level else (low, middle)
        return (low + high) / 2
    return (solve(z), solve(-z))


def _level_reaching(bound, threshold: float) -> float:
    """The z at which an interval's bound (a function of z, moving away from the estimate as z
    grows) reaches `threshold`: inverting an interval into a test. 0 when the estimate itself is
    on the threshold's side; large when no level reaches it."""
    if bound(0.0) <= threshold:
        return 0.0
    low, high = 0.0, 40.0
    if bound(high) > threshold:
        return high
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if bound(middle) > threshold else (low, middle)
    return (low + high) / 2


@dataclass(frozen=True)
class Shift:
    """How a proportion moved from an old study to a new one: old_wins of old_n games, new_wins
    of new_n; for paired studies the games gained and lost (`changed`). The interval, the
    p-value and the test against a tolerance all come from one statistic (paired: Tango's
    score; independent: Newcombe's interval), so that they never disagree."""

    old_wins: int
    old_n: int
    new_wins: int
    new_n: int
    test: str                                 # "paired" or "independent"
    changed: tuple[int, int] | None = None    # paired: (won only in the new, only in the old)

    @property
    def old(self) -> float:
        return self.old_wins / self.old_n if self.old_n else 0.0

    @property
    def new(self) -> float:
        return self.new_wins / self.new_n if self.new_n else 0.0

    @property
    def shift(self) -> float:
        return self.new - self.old

    def interval_at(self, z: float) -> tuple[float, float]:
        if self.changed is not None:
            return tango_interval(*self.changed, self.new_n, z)
        return newcombe(self.new_wins, self.new_n, self.old_wins, self.old_n, z)

    @property
    def interval(self) -> tuple[float, float]:
        return self.interval_at(Z95)

    def _z_reaching(self, threshold: float) -> float:
        """The level (as z) at which the interval's bound toward `threshold` reaches it."""
        if self.changed is not None:
            gained, lost = self.changed
            score = tango_score(gained, lost, self.new_n, threshold if self.shift >= 0 else -threshold)
            return abs(score) if (score > 0) == (self.shift >= 0) else 0.0
        if self.shift >= 0:
            return _level_reaching(lambda z: self.interval_at(z)[0], threshold)
        return _level_reaching(lambda z: -self.interval_at(z)[1], threshold)

    @property
    def p_value(self) -> float:
        """Two-sided: the level at which the interval first takes in 0 (paired: McNemar's
        score test)."""
        if self.shift == 0:
            return 1.0
        return min(1.0, 2 * (1 - NormalDist().cdf(self._z_reaching(0.0))))

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05

    def beyond(self, tolerance: float) -> float:
        """One-sided p-value that the shift is beyond `tolerance` in its own direction (the
        null: it is within): the level at which the interval first reaches the tolerance."""
        if abs(self.shift) <= tolerance:
            return 1.0
        return 1 - NormalDist().cdf(self._z_reaching(tolerance))

    def as_dict(self) -> dict:
        found = {"old": self.old, "new": self.new, "shift": self.shift,
                 "interval": list(self.interval), "p_value": self.p_value,
                 "significant": self.significant, "test": self.test,
                 "counts": [self.old_wins, self.old_n, self.new_wins, self.new_n]}
        if self.changed is not None:
            found["won_only_in_new"], found["won_only_in_old"] = self.changed
        return found

    @classmethod
    def from_dict(cls, found: dict) -> Shift:
        old_wins, old_n, new_wins, new_n = found["counts"]
        changed = (found["won_only_in_new"], found["won_only_in_old"]) \
            if "won_only_in_new" in found else None
        return cls(old_wins, old_n, new_wins, new_n, found["test"], changed)


def paired_shift(old: list[bool], new: list[bool]) -> Shift:
    """The shift between two studies of the same games (same seeds), game by game."""
    if len(old) != len(new):
        raise ValueError("paired studies must have the same games")
    n = len(old)
    both = sum(1 for a, b in zip(old, new, strict=True) if a and b)
    only_new = sum(1 for a, b in zip(old, new, strict=True) if b and not a)
    only_old = sum(1 for a, b in zip(old, new, strict=True) if a and not b)
    return Shift(both + only_old, n, both + only_new, n, "paired", (only_new, only_old))


def independent_shift(old_wins: int, old_n: int, new_wins: int, new_n: int) -> Shift:
    """The shift between two independent studies."""
    return Shift(old_wins, old_n, new_wins, new_n, "independent")


def games_to_decide(changed_share: float, tolerance: float, level: float = 0.95) -> int:
    """About how many paired games make the shift's interval narrower than the tolerance on
    each side, at this rate of changed games: what a tolerance needs to be decided either way
    (the interval's half-width is about z * sqrt(changed share / n))."""
    if tolerance <= 0:
        return 0
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    return math.ceil(z * z * max(changed_share, 1e-9) / (tolerance * tolerance))


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


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """The mean of the values and its normal-approximation interval (z standard errors each
    side; no width for a single value)."""
    values = [float(v) for v in values]
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values, mean) / math.sqrt(len(values))
    return mean, mean - half, mean + half


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
           "holm", "chi2_survival", "newcombe", "tango_score", "tango_interval", "games_to_decide",
           "mean_shift", "mean_interval", "histogram_moments", "LogisticFit", "fit_logistic",
           "fit_firth", "wilson", "Z95"]
