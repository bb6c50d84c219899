"""Exact AA50 battle odds: a Markov chain over the surviving forces, by dynamic programming.

A joint state is (attacker state, defender state); each side's states are numbered as they are
met. Every change a round can make lowers the joint *potential* (hits still needed to clear both
sides), except a round in which nothing is hit, which leaves the state as it was. So the chain
is acyclic but for those self-loops, and probability mass can be pushed forward level by level,
from the highest potential down: when a state is processed, all the mass that will ever reach it
has arrived. A self-loop of probability s is folded in by scaling the state's outflow by
1 / (1 - s); the expected number of rounds spent in it is its mass times the same factor.

The dice of a stage are enumerated exactly: for each hit class, the distribution of hits is the
convolution of binomials (one per group of dice with the same chance); the two sides' hits are
independent, so the next state's distribution is an outer product of one distribution per side.
When each side's hits are of one class (a land battle, or a sea battle without submarines),
a side's next state is a table lookup by its number of hits, and all the states of one level are
processed together: their flows out are rows of two matrices, and the mass they push is one
matrix product. The procedure is the one of rounds.py, shared with the Monte Carlo code.
"""
from __future__ import annotations

import time
from math import comb

import numpy as np

from ..system import ExactOutcome
from . import rounds
from .model import BattleModel, SideModel

EXACT_COEFFICIENTS = 1000   # binomial coefficients up to comb(1000, k) fit in a float
CONVOLUTION_BUDGET = 10_000_000   # products in one convolution of hit distributions (~10 ms)


class TooLarge(Exception):
    """The state space is larger than the budget, or the work longer than the time limit."""


def binomial_pmf(n: int, p: float) -> np.ndarray:
    """P(k hits of n dice), k = 0..n."""
    k = np.arange(n + 1)
    if p >= 1:
        return (k == n).astype(float)
    if p <= 0:
        return (k == 0).astype(float)
    if n <= EXACT_COEFFICIENTS:
        return np.array([comb(n, i) for i in k], dtype=float) * p ** k * (1 - p) ** (n - k)
    # Beyond, a coefficient is larger than any float: in logarithms (log k! by a running sum).
    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, n + 1)))))
    log_comb = log_factorial[n] - log_factorial[k] - log_factorial[n - k]
    return np.exp(log_comb + k * np.log(p) + (n - k) * np.log1p(-p))


def hit_distributions(groups: list[rounds.FireGroup]) -> dict[object, np.ndarray]:
    """Hit class -> pmf of its hits, for groups computed on a single state (B = 1)."""
    found: dict[object, np.ndarray] = {}
    for hit_class, dice, p in groups:
        n = int(dice[0])
        if n == 0 or p <= 0:
            continue
        pmf = binomial_pmf(n, p)
        if hit_class in found:
            if len(found[hit_class]) * len(pmf) > CONVOLUTION_BUDGET:
                raise TooLarge   # tens of thousands of dice: the chain would be far too large
            found[hit_class] = np.convolve(found[hit_class], pmf)
        else:
            found[hit_class] = pmf
    return found


def _canonical(target: SideModel, hit_class):
    """Hit classes that may hit the same units are one class (in a land battle, air units'
    hits, which may not go to submarines, are plain hits: there are none)."""
    if hit_class != rounds.ANY and np.array_equal(target.masks[hit_class], target.masks[rounds.ANY]):
        return rounds.ANY
    return hit_class


class SideStates:
    """The states one side has been met in, numbered; and where hits take each of them."""

    def __init__(self, side: SideModel, budget: int):
        self.side, self.budget = side, budget
        self.index: dict[bytes, int] = {}
        self.vectors: list[np.ndarray] = []
        self.potential: list[int] = []
        self.detects: list[bool] = []           # has a destroyer (§7.3.4)
        self._targets: dict[tuple, tuple[np.ndarray, np.ndarray, tuple[int, ...]]] = {}
        self._next: dict[tuple, np.ndarray] = {}

    def number(self, vector: np.ndarray) -> int:
        key = vector.tobytes()
        found = self.index.get(key)
        if found is None:
            if len(self.vectors) >= self.budget:
                raise TooLarge
            found = self.index[key] = len(self.vectors)
            self.vectors.append(vector.copy())
            self.potential.append(int(self.side.potential(vector)))
            self.detects.append(bool(vector @ self.side.detector.astype(np.int64) > 0))
        return found

    def numbers(self, vectors: np.ndarray) -> np.ndarray:
        distinct, inverse = np.unique(vectors, axis=0, return_inverse=True)
        return np.array([self.number(v) for v in distinct], dtype=np.int64)[inverse.ravel()]

    def next_table(self, state: int, hit_class) -> np.ndarray:
        """Next state after h hits of one class, for h = 0 .. the hit points it can take."""
        found = self._next.get((state, hit_class))
        if found is None:
            unique, inverse, _ = self._table(state, (hit_class,))
            found = self._next[(state, hit_class)] = unique[inverse]
        return found

    def _table(self, state: int, classes: tuple):
        cached = self._targets.get((state, classes))
        if cached is None:
            vector = self.vectors[state]
            caps = tuple(int(vector @ (self.side.hit_points * self.side.masks[c])) for c in classes)
            if np.prod([c + 1 for c in caps], dtype=float) > self.budget:
                raise TooLarge
            grid = np.indices(tuple(c + 1 for c in caps)).reshape(len(classes), -1)
            counts = np.repeat(vector[None, :], grid.shape[1], axis=0)
            after = rounds.take_hits(self.side, counts, {c: grid[n] for n, c in enumerate(classes)})
            unique, inverse = np.unique(self.numbers(after), return_inverse=True)
            cached = self._targets[(state, classes)] = (unique, inverse.ravel(), caps)
        return cached

    def after_hits(self, state: int, pmfs: dict[object, np.ndarray]):
        """(distinct next states, their probabilities) when hits follow `pmfs`.

        Hits beyond what a class can take change nothing, so each class is cut at the hit
        points of the units it may hit, and the table of next states is kept per state."""
        if not pmfs:
            return np.array([state]), np.ones(1)
        classes = tuple(sorted(pmfs, key=str))
        unique, inverse, caps = self._table(state, classes)
        joint: np.ndarray | None = None
        for c, cap in zip(classes, caps, strict=True):
            pmf = pmfs[c]
            if len(pmf) > cap + 1:
                pmf = pmf[:cap + 1].copy()
                pmf[cap] = pmfs[c][cap:].sum()
            elif len(pmf) < cap + 1:
                pmf = np.concatenate((pmf, np.zeros(cap + 1 - len(pmf))))
            joint = pmf if joint is None else np.multiply.outer(joint, pmf)
        assert joint is not None  # there is at least one hit class
        return unique, np.bincount(inverse, weights=joint.ravel(), minlength=len(unique))


class Chain:
    """The forward pass over joint states; `mass[i, j]` is the probability of reaching the
    start of a round with the attacker in state i and the defender in state j."""

    def __init__(self, model: BattleModel, budget: int, time_limit: float | None = None):
        self.model = model
        self.budget = budget
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.att = SideStates(model.attacker, budget)
        self.dfd = SideStates(model.defender, budget)
        self.mass = np.zeros((8, 8))
        self.ends: dict[tuple[int, int, int], float] = {}
        self.rounds = 0.0
        self.visited = 0
        self._fire: dict[tuple, dict[object, np.ndarray]] = {}
        self.surprise = bool(model.attacker.surprise.any() or model.defender.surprise.any())

    # -- one state at a time ---------------------------------------------------------------------
    def fire(self, attacking: bool, stage: str, state: int, detected: bool,
             first_round: bool) -> dict[object, np.ndarray]:
        """Hit distributions of one side's fire in a stage, from one of its states."""
        key = (attacking, stage, state, detected, first_round and attacking)
        found = self._fire.get(key)
        if found is None:
            states = self.att if attacking else self.dfd
            vector = states.vectors[state][None, :]
            flag = np.array([detected])
            if stage == "surprise":
                groups = rounds.surprise_fire(states.side, vector, flag)
            else:
                groups = rounds.general_fire(self.model, states.side, vector, flag, first_round)
            target = (self.dfd if attacking else self.att).side
            found = self._fire[key] = hit_distributions(
                [(_canonical(target, c), dice, p) for c, dice, p in groups])
        return found

    def stage(self, i: int, j: int, stage: str, first_round: bool):
        """Both sides fire from (i, j): (attacker states, P), (defender states, P)."""
        a_detects = self.model.undetected_only_first(self.att.detects[i], first_round)
        d_detects = self.model.undetected_only_first(self.dfd.detects[j], first_round)
        next_d = self.dfd.after_hits(j, self.fire(True, stage, i, d_detects, first_round))
        next_a = self.att.after_hits(i, self.fire(False, stage, j, a_detects, first_round))
        return next_a, next_d

    def round_from(self, i: int, j: int, first_round: bool):
        """[(attacker states, defender states, P matrix)] after one round from (i, j)."""
        if self.surprise:
            (atts, pa), (defs, pd) = self.stage(i, j, "surprise", first_round)
        else:
            atts, defs = np.array([i]), np.array([j])
        if len(atts) == 1 and len(defs) == 1:           # no submarine fired first
            (a2, pa2), (d2, pd2) = self.stage(int(atts[0]), int(defs[0]), "general", first_round)
            self.afford(len(a2) * len(d2))
            return [(a2, d2, np.multiply.outer(pa2, pd2))]
        self.afford(len(atts) * len(defs))
        outcome = []
        for i1, p1 in zip(atts, pa, strict=True):
            self.on_time()
            for j1, q1 in zip(defs, pd, strict=True):
                if p1 * q1 > 0:
                    (a2, pa2), (d2, pd2) = self.stage(int(i1), int(j1), "general", first_round)
                    self.afford(len(a2) * len(d2))
                    outcome.append((a2, d2, p1 * q1 * np.multiply.outer(pa2, pd2)))
        return outcome

    def on_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TooLarge

    def afford(self, joint_states: int) -> None:
        """Give up before a round's table of next states grows past the budget (two sides of
        a hundred thousand units each would need 75 GB)."""
        if joint_states > self.budget:
            raise TooLarge

    def grow(self) -> None:
        """Make room in `mass` for every state numbered so far."""
        rows, cols = len(self.att.vectors), len(self.dfd.vectors)
        if rows > self.mass.shape[0] or cols > self.mass.shape[1]:
            if rows * cols > self.budget:
                raise TooLarge
            grown = np.zeros((max(rows, 2 * self.mass.shape[0]), max(cols, 2 * self.mass.shape[1])))
            grown[:self.mass.shape[0], :self.mass.shape[1]] = self.mass
            self.mass = grown

    def push(self, atts: np.ndarray, defs: np.ndarray, probs: np.ndarray) -> None:
        self.grow()
        self.mass[atts[:, None], defs[None, :]] += probs

    def spread(self, i: int, j: int, mass: float, first_round: bool) -> None:
        """Fight one round from (i, j) and push its mass to the next states."""
        outcome = self.round_from(i, j, first_round)
        stay = 0.0
        if not first_round:
            for atts, defs, probs in outcome:
                x, y = np.searchsorted(atts, i), np.searchsorted(defs, j)
                if x < len(atts) and atts[x] == i and y < len(defs) and defs[y] == j:
                    stay += probs[x, y]
                    probs[x, y] = 0.0
        if stay >= 1 - 1e-15:
            self.end(i, j, rounds.DRAW, mass)
            return
        scale = mass / (1.0 - stay)
        self.rounds += scale
        for atts, defs, probs in outcome:
            self.push(atts, defs, probs * scale)

    def end(self, i: int, j: int, result: int, mass: float) -> None:
        self.ends[(i, j, result)] = self.ends.get((i, j, result), 0.0) + mass

    # -- the whole battle ------------------------------------------------------------------------
    def run(self) -> None:
        model = self.model
        i0 = self.att.number(model.attacker.start)
        j0 = self.dfd.number(model.defender.start)
        # Anti-aircraft fire before the first round (§7.1.4).
        groups = rounds.anti_aircraft_fire(model, model.attacker.start[None, :])
        atts, probs = self.att.after_hits(i0, hit_distributions(groups))
        for i, p in zip(atts, probs, strict=True):
            if p > 0:
                self.level([(int(i), j0)], np.array([p]), first_round=True)
        while True:
            rows, cols = np.nonzero(self.mass)
            if rows.size == 0:
                break
            potential = (np.asarray(self.att.potential)[rows] + np.asarray(self.dfd.potential)[cols])
            top = potential == potential.max()
            rows, cols = rows[top], cols[top]
            masses = self.mass[rows, cols].copy()
            self.mass[rows, cols] = 0.0
            self.level(list(zip(rows.tolist(), cols.tolist(), strict=True)), masses, first_round=False)

    def level(self, states: list[tuple[int, int]], masses: np.ndarray, first_round: bool) -> None:
        """Process states of equal potential: the checks before the round, then the round."""
        self.visited += len(states)
        self.on_time()
        a = np.array([self.att.vectors[i] for i, _ in states])
        d = np.array([self.dfd.vectors[j] for _, j in states])
        a, d, results = rounds.start_of_round(self.model, a, d, first_round)
        batch = []
        for (i, j), mass, a_row, d_row, result in zip(states, masses, a, d, results, strict=True):
            i1, j1 = self.att.number(a_row), self.dfd.number(d_row)
            if result != rounds.CONTINUES:
                self.end(i1, j1, int(result), float(mass))
            elif (i1, j1) != (i, j):
                self.push(np.array([i1]), np.array([j1]), np.array([[mass]]))  # submerged
            elif first_round or (self.surprise and not self.model.surprise_once) \
                    or not self.simple(i, j):
                self.spread(i, j, float(mass), first_round)
            else:
                batch.append((i, j, float(mass)))
        if batch:
            self.spread_many(batch)

    # -- many states at once ---------------------------------------------------------------------
    def simple(self, i: int, j: int) -> bool:
        """Whether each side's fire from (i, j) is of one hit class (so that a side's next
        state is a table lookup by its number of hits)."""
        seen = self.model.undetected_only_first
        return (len(self.fire(True, "general", i, seen(self.dfd.detects[j], False), False)) <= 1
                and len(self.fire(False, "general", j, seen(self.att.detects[i], False),
                                  False)) <= 1)

    def _fire_and_tables(self, shooters, targets, attacking: bool):
        """For each (shooter, target): the pmf of the shooter's hits, and the target's next
        state by number of hits (numbering the states met)."""
        other, target_states = (self.dfd, self.dfd) if attacking else (self.att, self.att)
        found = []
        for shooter, target in zip(shooters, targets, strict=True):
            fire = self.fire(attacking, "general", int(shooter),
                             self.model.undetected_only_first(other.detects[target], False), False)
            if fire:
                (hit_class, pmf), = fire.items()
                found.append((pmf, target_states.next_table(int(target), hit_class)))
            else:
                found.append((np.ones(1), np.array([target])))
        return found

    @staticmethod
    def _rows(found, size: int) -> np.ndarray:
        """(B, size): each row the distribution of one target's next state."""
        width = max(len(pmf) for pmf, _ in found)
        weight = np.zeros((len(found), width))
        for row, (pmf, _) in enumerate(found):
            weight[row, :len(pmf)] = pmf
        tables = [table for _, table in found]
        lengths = np.array([len(t) for t in tables])
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        # hits beyond what a target can take change nothing more
        index = np.concatenate(tables)[starts[:, None] + np.minimum(np.arange(width)[None, :],
                                                                    lengths[:, None] - 1)]
        flat = (np.arange(len(found))[:, None] * size + index).ravel()
        return np.bincount(flat, weights=weight.ravel(), minlength=len(found) * size).reshape(-1, size)

    def spread_many(self, batch: list[tuple[int, int, float]]) -> None:
        """One round from many states of one potential: the defender's next state depends on
        the attacker's hits only, and the other way round, so the flow out of each state is an
        outer product, and the flow of them all one matrix product."""
        i = np.array([b[0] for b in batch])
        j = np.array([b[1] for b in batch])
        mass = np.array([b[2] for b in batch])
        on_attacker = self._fire_and_tables(j, i, attacking=False)
        on_defender = self._fire_and_tables(i, j, attacking=True)
        self.grow()
        rows, cols = len(self.att.vectors), len(self.dfd.vectors)
        attacker_next, defender_next = self._rows(on_attacker, rows), self._rows(on_defender, cols)
        stay = attacker_next[np.arange(len(i)), i] * defender_next[np.arange(len(j)), j]
        stuck = stay >= 1 - 1e-15
        for a_state, d_state, m in zip(i[stuck], j[stuck], mass[stuck], strict=True):
            self.end(int(a_state), int(d_state), rounds.DRAW, float(m))
        scale = np.where(stuck, 0.0, mass / np.where(stuck, 1.0, 1.0 - stay))
        self.rounds += float(scale.sum())
        self.mass[:rows, :cols] += attacker_next.T @ (scale[:, None] * defender_next)
        self.mass[i, j] = 0.0                       # the rounds that changed nothing: done

    def outcome(self) -> ExactOutcome:
        a_side, d_side = self.model.attacker, self.model.defender
        keys = list(self.ends)
        a = np.array([self.att.vectors[i] for i, _, _ in keys]).reshape(len(keys), -1)
        d = np.array([self.dfd.vectors[j] for _, j, _ in keys]).reshape(len(keys), -1)
        return ExactOutcome(
            probability=np.array([self.ends[k] for k in keys]),
            result=np.array([r for _, _, r in keys], dtype=np.int8),
            attacker_survivors=rounds.survivors(a_side, a),
            defender_survivors=rounds.survivors(d_side, d),
            attacker_loss=rounds.losses(a_side, a), defender_loss=rounds.losses(d_side, d),
            mean_rounds=self.rounds, states=self.visited)


def exact(model: BattleModel, budget: int, time_limit: float | None = None) -> ExactOutcome | None:
    chain = Chain(model, budget, time_limit)
    try:
        chain.run()
    except TooLarge:
        return None
    return chain.outcome()
