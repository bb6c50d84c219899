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
The procedure is the one of rounds.py, shared with the Monte Carlo code.
"""
from __future__ import annotations

from math import comb

import numpy as np

from ..system import ExactOutcome
from . import rounds
from .model import BattleModel, SideModel


class TooLarge(Exception):
    """The state space is larger than the budget."""


def binomial_pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    if p >= 1:
        return (k == n).astype(float)
    if p <= 0:
        return (k == 0).astype(float)
    return np.array([comb(n, i) for i in k], dtype=float) * p ** k * (1 - p) ** (n - k)


def hit_distributions(groups: list[rounds.FireGroup]) -> dict[object, np.ndarray]:
    """Hit class -> pmf of its hits, for groups computed on a single state (B = 1)."""
    found: dict[object, np.ndarray] = {}
    for hit_class, dice, p in groups:
        n = int(dice[0])
        if n == 0 or p <= 0:
            continue
        pmf = binomial_pmf(n, p)
        found[hit_class] = np.convolve(found[hit_class], pmf) if hit_class in found else pmf
    return found


class SideStates:
    """The states one side has been met in, numbered; and where hits take each of them."""

    def __init__(self, side: SideModel, budget: int):
        self.side, self.budget = side, budget
        self.index: dict[bytes, int] = {}
        self.vectors: list[np.ndarray] = []
        self.potential: list[int] = []
        self._targets: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def number(self, vector: np.ndarray) -> int:
        key = vector.tobytes()
        found = self.index.get(key)
        if found is None:
            if len(self.vectors) >= self.budget:
                raise TooLarge
            found = self.index[key] = len(self.vectors)
            self.vectors.append(vector.copy())
            self.potential.append(int(self.side.potential(vector)))
        return found

    def numbers(self, vectors: np.ndarray) -> np.ndarray:
        return np.array([self.number(v) for v in vectors], dtype=np.int64)

    def after_hits(self, state: int, pmfs: dict[object, np.ndarray]):
        """(distinct next states, their probabilities) when hits follow `pmfs`."""
        if not pmfs:
            return np.array([state]), np.ones(1)
        classes = sorted(pmfs, key=str)
        shape = tuple(len(pmfs[c]) for c in classes)
        key = (state, tuple(classes), shape)
        cached = self._targets.get(key)
        if cached is None:
            grid = np.indices(shape).reshape(len(classes), -1)
            counts = np.repeat(self.vectors[state][None, :], grid.shape[1], axis=0)
            hits = {c: grid[i] for i, c in enumerate(classes)}
            after = rounds.take_hits(self.side, counts, hits)
            unique, inverse = np.unique(self.numbers(after), return_inverse=True)
            cached = self._targets[key] = (unique, inverse.ravel())
        unique, inverse = cached
        joint = pmfs[classes[0]]
        for c in classes[1:]:
            joint = np.multiply.outer(joint, pmfs[c])
        return unique, np.bincount(inverse, weights=joint.ravel(), minlength=len(unique))


class Chain:
    def __init__(self, model: BattleModel, budget: int):
        self.model = model
        self.budget = budget
        self.att = SideStates(model.attacker, budget)
        self.dfd = SideStates(model.defender, budget)
        self.mass: dict[tuple[int, int], float] = {}
        self.ends: dict[tuple[int, int, int], float] = {}
        self.rounds = 0.0
        self.visited = 0

    # -- one state at a time ---------------------------------------------------------------------
    def vector_pair(self, i: int, j: int):
        return self.att.vectors[i][None, :], self.dfd.vectors[j][None, :]

    def stage(self, i: int, j: int, fire) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """A stage where both sides fire from (i, j): [(attacker states, defender states, P)]."""
        a, d = self.vector_pair(i, j)
        a_groups, d_groups = fire(a, d)
        next_d = self.dfd.after_hits(j, hit_distributions(a_groups))
        next_a = self.att.after_hits(i, hit_distributions(d_groups))
        return [(next_a[0], next_d[0], np.multiply.outer(next_a[1], next_d[1]))]

    def round_from(self, i: int, j: int, first_round: bool):
        model, a_side, d_side = self.model, self.model.attacker, self.model.defender

        def surprise(a, d):
            return (rounds.surprise_fire(a_side, a, d_side, d),
                    rounds.surprise_fire(d_side, d, a_side, a))

        def general(a, d):
            return (rounds.general_fire(model, a_side, a, d_side, d, first_round),
                    rounds.general_fire(model, d_side, d, a_side, a, first_round))

        outcome = []
        for atts, defs, probs in self.stage(i, j, surprise):
            for x, i1 in enumerate(atts):
                for y, j1 in enumerate(defs):
                    if probs[x, y] > 0:
                        for a2, d2, p2 in self.stage(int(i1), int(j1), general):
                            outcome.append((a2, d2, probs[x, y] * p2))
        return outcome

    def start(self, i: int, j: int, first_round: bool):
        """The deterministic checks before a round: (i, j, result)."""
        a, d = self.vector_pair(i, j)
        a, d, result = rounds.start_of_round(self.model, a, d, first_round)
        return self.att.number(a[0]), self.dfd.number(d[0]), int(result[0])

    def push(self, i: int, j: int, weight: float) -> None:
        key = (i, j)
        self.mass[key] = self.mass.get(key, 0.0) + weight
        if len(self.mass) > self.budget:
            raise TooLarge

    def spread(self, i: int, j: int, mass: float, first_round: bool) -> None:
        """Fight one round from (i, j) and push its mass to the next states."""
        outcome = self.round_from(i, j, first_round)
        stay = 0.0
        if not first_round:
            for atts, defs, probs in outcome:
                x, y = np.flatnonzero(atts == i), np.flatnonzero(defs == j)
                if x.size and y.size:
                    stay += probs[x[0], y[0]]
        if stay >= 1 - 1e-15:
            self.ends[(i, j, rounds.DRAW)] = self.ends.get((i, j, rounds.DRAW), 0.0) + mass
            return
        scale = mass / (1.0 - stay)
        self.rounds += scale
        for atts, defs, probs in outcome:
            for x, i2 in enumerate(atts):
                for y, j2 in enumerate(defs):
                    p = probs[x, y]
                    if p > 0 and not (not first_round and i2 == i and j2 == j):
                        self.push(int(i2), int(j2), p * scale)

    # -- the whole battle ------------------------------------------------------------------------
    def run(self) -> None:
        model = self.model
        i0 = self.att.number(model.attacker.start)
        j0 = self.dfd.number(model.defender.start)
        # Anti-aircraft fire before the first round (§7.1.4).
        a, d = self.vector_pair(i0, j0)
        atts, probs = self.att.after_hits(
            i0, hit_distributions(rounds.anti_aircraft_fire(model, a)))
        for i, p in zip(atts, probs):
            if p <= 0:
                continue
            i1, j1, result = self.start(int(i), j0, first_round=True)
            if result != rounds.CONTINUES:
                self.ends[(i1, j1, result)] = self.ends.get((i1, j1, result), 0.0) + p
            else:
                self.spread(i1, j1, p, first_round=True)
        while self.mass:
            level = max(self.att.potential[i] + self.dfd.potential[j] for i, j in self.mass)
            for key in [k for k in self.mass
                        if self.att.potential[k[0]] + self.dfd.potential[k[1]] == level]:
                mass = self.mass.pop(key)
                self.visited += 1
                i1, j1, result = self.start(*key, first_round=False)
                if result != rounds.CONTINUES:
                    self.ends[(i1, j1, result)] = self.ends.get((i1, j1, result), 0.0) + mass
                elif (i1, j1) != key:
                    self.push(i1, j1, mass)      # submarines submerged: a lower potential
                else:
                    self.spread(i1, j1, mass, first_round=False)

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


def exact(model: BattleModel, budget: int) -> ExactOutcome | None:
    chain = Chain(model, budget)
    try:
        chain.run()
    except TooLarge:
        return None
    return chain.outcome()
