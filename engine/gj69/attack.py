"""The GJ69 attack procedure (§8-§11): counter-attacks first, then the group's attack(s).

A side's state is a sorted tuple of ((unit type, face, where), count), where is "in" (in the
area), "out" (retreated) or "dead" (in the replacement pool). Each strike rolls one die per
firing unit, a die at or under its value is a hit and a damage point (§11.1); the points are
allocated (damage.allocate) and the results applied; in an air attack a carrier given points
rolls once, and a die at or under its air power cancels one of them (§11.6).

Strikes are written once and used two ways: `exact` carries a probability distribution over
states through them, `sample` draws every die from the caller's generator.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np

from ..system import ATTACKER_WINS, DEFENDER_WINS, DRAW, EngineError
from .damage import ELIMINATED, READY, RETREATS, TURNED, USED, Piece, allocate, ladder, result_of
from .units import UnitProfile

IN, OUT, DEAD = "in", "out", "dead"


def make_state(counts: dict[tuple[str, str, str], int]) -> tuple:
    return tuple(sorted((key, n) for key, n in counts.items() if n))


def pieces_of(state: tuple, where: str = IN) -> list[tuple[str, str]]:
    found = []
    for (unit, face, place), n in state:
        if place == where:
            found.extend([(unit, face)] * n)
    return found


@dataclass(frozen=True)
class Strike:
    """One side's units striking the other side's units in the area."""

    firing: str              # "attacker" or "defender"
    mode: str                # "normal", "air" or "counter"
    selection: str = "all"   # counter-attacks: "ready" units or "ships"
    dice: int = 1            # dice per unit: 2 for two attacks declared together (§18.1)


class Attack:
    """A compiled attack: who strikes whom, in which order, with which values."""

    def __init__(self, profiles: dict[str, UnitProfile], land_area: bool, strikes: list[Strike],
                 set_attack: list[dict], immune_to_air: set[str], fortress_shields_land: bool,
                 can_retreat: dict[str, frozenset[str]]):
        """can_retreat: "attacker" / "defender" -> the unit types of that side that have an
        area to retreat to (§11.5(1)); the others are eliminated where they would retreat."""
        self.profiles = profiles
        self.land_area = land_area
        self.strikes = strikes
        self.set_attack = set_attack
        self.immune_to_air = immune_to_air
        self.fortress_shields_land = fortress_shields_land
        self.can_retreat = can_retreat
        self._allocations: dict = {}

    # -- who fires, with what ------------------------------------------------------------------
    def value(self, unit: str, mode: str) -> int:
        profile = self.profiles[unit]
        if mode == "air":
            return profile.air_power or 0                           # §9.1(4)
        value = profile.air_power if profile.domain == "air" else profile.attack   # §8.0(4)
        for change in self.set_attack:
            if change.get("attack") == mode and change.get("domain") == profile.domain:
                value = int(change["value"])
        return value or 0

    def can_fire_here(self, unit: str, mode: str) -> bool:
        """§8.0(2): land units attack in land areas, ships in sea areas, air units in land areas;
        §9.1: air attacks are made by units with air power."""
        profile = self.profiles[unit]
        if mode == "air":
            return profile.air_power is not None
        return {"land": self.land_area, "air": self.land_area, "sea": not self.land_area}[profile.domain]

    def firing_values(self, strike: Strike, side_state: tuple) -> list[int]:
        values = []
        for unit, face in pieces_of(side_state):
            profile = self.profiles[unit]
            if strike.selection == "ready" and face != READY:
                continue
            if strike.selection == "ships" and profile.domain != "sea":
                continue
            if self.can_fire_here(unit, strike.mode):
                values += [self.value(unit, strike.mode)] * strike.dice
        return values

    def targets(self, strike: Strike, side_state: tuple) -> list[tuple[str, str]]:
        found = []
        for unit, face in pieces_of(side_state):
            profile = self.profiles[unit]
            if strike.mode == "air":
                if unit in self.immune_to_air:                       # §16.2(2)
                    continue
                if self.fortress_shields_land and profile.domain == "land":   # §16.1(2)
                    continue
            found.append((unit, face))
        return found

    # -- one strike: hits, allocation, results -------------------------------------------------
    def allocation(self, strike: Strike, targets: tuple, hits: int) -> tuple[list[Piece], list[int]]:
        key = (strike, targets, hits)
        if key not in self._allocations:
            struck = "defender" if strike.firing == "attacker" else "attacker"
            # a counter-attacked group takes damage on its used face (§10(4))
            pieces = [Piece(self.profiles[u], USED if strike.mode == "counter" else face,
                            u in self.can_retreat[struck]) for u, face in targets]
            owner_allocates = strike.mode != "air"                   # §11.2(1)
            self._allocations[key] = (pieces, allocate(pieces, hits, self.land_area, owner_allocates))
        return self._allocations[key]

    def saves(self, strike: Strike, pieces: list[Piece], given: list[int]) -> list[int]:
        """Indexes of the carriers that roll a save (§11.6: damage from an air attack)."""
        if strike.mode != "air":
            return []
        return [i for i, (p, g) in enumerate(zip(pieces, given, strict=True)) if g and p.profile.is_carrier]

    def apply(self, side_state: tuple, targets: tuple, pieces: list[Piece], given: list[int],
              saved: set[int]) -> tuple:
        counts: dict = defaultdict(int)
        for key, n in side_state:
            counts[key] += n
        for index, (piece, points) in enumerate(zip(pieces, given, strict=True)):
            if index in saved:
                points -= 1
            result = result_of(ladder(piece, self.land_area), points)
            if result is None:
                continue
            unit, face = targets[index]
            counts[(unit, face, IN)] -= 1
            if result == TURNED:
                counts[(unit, USED, IN)] += 1
            elif result == RETREATS:
                counts[(unit, USED, OUT)] += 1                       # turned and retreated
            elif result == ELIMINATED:
                counts[(unit, USED, DEAD)] += 1
        return make_state(counts)

    # -- the whole attack ----------------------------------------------------------------------
    def exact(self, attacker: tuple, defender: tuple, budget: int) -> dict[tuple, Fraction] | None:
        states: dict[tuple, Fraction] = {(attacker, defender): Fraction(1)}
        visited = 1
        for strike in self.strikes:
            following: dict[tuple, Fraction] = defaultdict(Fraction)
            for (a, d), p in states.items():
                for q, a2, d2 in self._strike_cases(strike, a, d):
                    following[(a2, d2)] += p * q
            states = dict(following)
            visited += len(states)
            if visited > budget:
                return None
        return states

    def _strike_cases(self, strike: Strike, a: tuple, d: tuple):
        firing_side, struck_side = (a, d) if strike.firing == "attacker" else (d, a)
        values = self.firing_values(strike, firing_side)
        targets = tuple(self.targets(strike, struck_side))
        if not values or not targets:
            yield Fraction(1), a, d
            return
        for hits, p_hits in hit_distribution(values).items():
            pieces, given = self.allocation(strike, targets, hits)
            rolling = self.saves(strike, pieces, given)
            for outcome in product((True, False), repeat=len(rolling)):
                p = p_hits
                saved = set()
                for index, success in zip(rolling, outcome, strict=True):
                    chance = Fraction(pieces[index].profile.air_power or 0, 6)
                    p *= chance if success else 1 - chance
                    if success:
                        saved.add(index)
                if p == 0:
                    continue
                struck = self.apply(struck_side, targets, pieces, given, saved)
                yield (p, a, struck) if strike.firing == "attacker" else (p, struck, d)

    def sample(self, attacker: tuple, defender: tuple, rng: np.random.Generator) -> tuple[tuple, tuple]:
        a, d = attacker, defender
        for strike in self.strikes:
            firing_side, struck_side = (a, d) if strike.firing == "attacker" else (d, a)
            values = self.firing_values(strike, firing_side)
            targets = tuple(self.targets(strike, struck_side))
            if not values or not targets:
                continue
            hits = int((rng.integers(1, 7, size=len(values)) <= np.array(values)).sum())
            pieces, given = self.allocation(strike, targets, hits)
            saved = {i for i in self.saves(strike, pieces, given)
                     if int(rng.integers(1, 7)) <= (pieces[i].profile.air_power or 0)}
            struck = self.apply(struck_side, targets, pieces, given, saved)
            a, d = (a, struck) if strike.firing == "attacker" else (struck, d)
        return a, d


def hit_distribution(values: list[int]) -> dict[int, Fraction]:
    """The chance of each number of hits, one die per unit hitting at or under its value."""
    found = {0: Fraction(1)}
    for value in values:
        p = Fraction(min(max(value, 0), 6), 6)
        following: dict[int, Fraction] = defaultdict(Fraction)
        for hits, q in found.items():
            following[hits] += q * (1 - p)
            following[hits + 1] += q * p
        found = dict(following)
    return found


def ending(attacker: tuple, defender: tuple, air_attack: bool) -> int:
    attackers_in = any(place == IN for (_, _, place), _ in attacker)
    defenders_in = any(place == IN for (_, _, place), _ in defender)
    if not defenders_in and (attackers_in or air_attack):
        return ATTACKER_WINS
    if defenders_in and not attackers_in and not air_attack:
        return DEFENDER_WINS
    return DRAW


def survivors(state: tuple) -> dict[str, int]:
    found: dict[str, int] = {}
    for (unit, _, place), n in state:
        if place != DEAD:
            found[unit] = found.get(unit, 0) + n
    return found


def eliminated(state: tuple) -> dict[str, int]:
    found: dict[str, int] = {}
    for (unit, _, place), n in state:
        if place == DEAD:
            found[unit] = found.get(unit, 0) + n
    return found


def check_firing(attack: Attack, state: tuple, mode: str) -> None:
    for unit, _ in pieces_of(state):
        if not attack.can_fire_here(unit, mode):
            where = "a land area" if attack.land_area else "a sea area"
            raise EngineError(f"{unit} cannot attack in {where} (§8.0(2), §9.1)")
