"""Damage results (§11.3, §11.4) and the allocation of damage points (§11.2).

A unit's *ladder* lists the damage points at which each result happens: a ready land unit in a
land area with durability 2 is turned to its used face by 2 points, turned and retreated by 4,
eliminated by 6 (§11.31); points between the steps do nothing and do not carry over (§11.4).

Allocation: the owner of the units allocates (the attacker in an air attack, §11.2(1)). All
points are allocated, and points beyond what would eliminate every target are lost (§11.2(3));
a unit cannot be given more than what eliminates it (§11.2(2)). Within that, the allocating
player chooses the allocation that does least harm to its own units (most harm to the enemy's):
eliminations weigh most, by the VP they are worth, then retreats, then turned faces. A small
dynamic programme over the units finds it exactly: 3 points on two durability-2 units must turn
one of them, 2 points can be split so that they do nothing (§11.4 example).

In an air attack a carrier given points rolls a save that cancels one of them (§11.6), so the
attacker, who allocates, may give it one point more than its durability: surplus points that
§11.2(3) would otherwise lose sink a lone carrier past its save. The attacker weighs a carrier's
result by the chance of the save.
"""
from __future__ import annotations

from dataclasses import dataclass

from .units import UnitProfile

READY, USED = "ready", "used"
TURNED, RETREATS, ELIMINATED = "turned", "retreats", "eliminated"


@dataclass(frozen=True)
class Piece:
    """One unit in the attack: its type, face, and whether it can retreat."""

    profile: UnitProfile
    face: str
    can_retreat: bool


def ladder(piece: Piece, land_area: bool) -> list[tuple[int, str]]:
    """(points, result) for each step of the results of §11.3, in rising order."""
    unit, d = piece.profile, piece.profile.durability
    if unit.domain == "sea":
        return [(d, ELIMINATED)]                                   # §11.33
    if unit.domain == "air":                                       # §11.32
        return [(1, TURNED), (2, ELIMINATED)] if piece.face == READY else [(1, ELIMINATED)]
    if not land_area:
        return [(1, ELIMINATED)]                                   # §11.31(2)
    retreat = piece.can_retreat and unit.movement > 0              # §11.5(1), (3)
    if piece.face == READY:                                        # §11.31(1)①
        steps = [(d, TURNED), (2 * d, RETREATS), (3 * d, ELIMINATED)]
    else:                                                          # §11.31(1)②
        steps = [(d, RETREATS), (2 * d, ELIMINATED)]
    if not retreat:
        # no area to retreat to: the unit goes to the replacement pool instead (§11.5(1))
        cut = next(i for i, (_, r) in enumerate(steps) if r == RETREATS)
        steps = steps[:cut] + [(steps[cut][0], ELIMINATED)]
    return steps


def result_of(steps: list[tuple[int, str]], points: int) -> str | None:
    found = None
    for needed, result in steps:
        if points >= needed:
            found = result
    return found


def harm(piece: Piece, result: str | None) -> float:
    if result == ELIMINATED:
        return 10_000.0 * (1.0 + piece.profile.worth)
    if result == RETREATS:
        return 100.0
    if result == TURNED:
        return 1.0
    return 0.0


def saves(piece: Piece, owner_allocates: bool) -> bool:
    """Whether the piece rolls a save against the points it is given: a carrier in an air attack,
    the only attack in which the enemy allocates (§11.2(1), §11.6)."""
    return not owner_allocates and piece.profile.is_carrier


def expected_harm(piece: Piece, steps: list[tuple[int, str]], given: int, owner_allocates: bool) -> float:
    if given and saves(piece, owner_allocates):
        chance = min(max(piece.profile.air_power or 0, 0), 6) / 6
        return (chance * harm(piece, result_of(steps, given - 1))
                + (1 - chance) * harm(piece, result_of(steps, given)))
    return harm(piece, result_of(steps, given))


def allocate(pieces: list[Piece], points: int, land_area: bool, owner_allocates: bool) -> list[int]:
    """Points given to each piece. `owner_allocates`: the owner minimises harm; otherwise the
    enemy (air attack) maximises it."""
    ladders = [ladder(p, land_area) for p in pieces]
    caps = [steps[-1][0] + saves(p, owner_allocates) for p, steps in zip(pieces, ladders, strict=True)]
    total = min(points, sum(caps))
    sign = 1.0 if owner_allocates else -1.0
    # best[j]: best score giving j points to the pieces seen so far; choice[i][j]: points to piece i
    best = [0.0] + [float("inf")] * total
    choices = []
    for piece, steps, cap in zip(pieces, ladders, caps, strict=True):
        new = [float("inf")] * (total + 1)
        chosen = [0] * (total + 1)
        for j in range(total + 1):
            if best[j] == float("inf"):
                continue
            for given in range(0, min(cap, total - j) + 1):
                score = best[j] + sign * expected_harm(piece, steps, given, owner_allocates)
                if score < new[j + given] - 1e-9:
                    new[j + given] = score
                    chosen[j + given] = given
        best = new
        choices.append(chosen)
    given_points = [0] * len(pieces)
    j = total
    for i in range(len(pieces) - 1, -1, -1):
        given_points[i] = choices[i][j]
        j -= given_points[i]
    return given_points
