"""A quick estimate of a battle's odds, for players that weigh many battles a turn.

The battle calculator answers exactly (exact.py) in milliseconds; a player choosing a turn's
attacks weighs hundreds of forces, and needs microseconds. This estimate follows the battle in
expectation, round by round: each side scores its expected hits (value / 6 a die, artillery
support and anti-aircraft fire included) and loses them from its cheapest units first. The
chance to win is a logistic function of Lanchester's square-law ratio
(hits per round x hit points, attacker over defender), fitted to the exact calculator
(tests/test_aa50_estimate.py keeps the two within a few percent on typical battles).
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .forces import Piece

# Fitted on exact odds of random land and sea battles of 2 to 12 units a side
# (tests/test_aa50_estimate.py refits and compares).
SLOPE, SHIFT = 3.9, 0.15
# beyond this many attacking aircraft an anti-aircraft gun's hits are taken at their mean
MOST_AIRCRAFT_WEIGHED = 12


@dataclass(frozen=True)
class Fighter:
    """One kind of unit in a battle, as the estimate sees it."""

    value: float        # attack or defence value (hits on this roll or less)
    dice: int
    hit_points: int     # 2 for a battleship
    cost: float
    air: bool = False
    supported: float = 0.0   # extra value from artillery (infantry beside artillery)


def ratio(attackers: list[tuple[Fighter, float]], defenders: list[tuple[Fighter, float]]) -> float:
    """Lanchester's ratio: attacker's expected hits a round times its hit points, over the
    defender's."""
    def strength(side):
        hits = sum(n * f.dice * min(f.value + f.supported, 6) / 6 for f, n in side)
        points = sum(n * f.hit_points for f, n in side)
        return hits * points
    defence = strength(defenders)
    attack = strength(attackers)
    if defence <= 0:
        return math.inf if attack > 0 else 0.0
    return attack / defence


def win_chance(attackers: list[tuple[Fighter, float]], defenders: list[tuple[Fighter, float]],
               anti_aircraft: float = 0.0) -> float:
    """The estimated chance that the attacker clears the space. `anti_aircraft` is the chance
    the defender's gun downs each attacking aircraft before the battle (§7.1.4)."""
    aircraft = round(sum(n for f, n in attackers if f.air)) if anti_aircraft else 0
    if not aircraft:
        return _chance(attackers, defenders)
    if aircraft > MOST_AIRCRAFT_WEIGHED:        # a large stack loses close to its mean share
        return _chance([(f, n * (1 - anti_aircraft) if f.air else n) for f, n in attackers],
                       defenders)
    # averaged over how many aircraft the gun downs, one die each (a binomial count), not
    # played with the mean loss: in a small battle one fighter lost of three decides it
    total = 0.0
    for downed in range(aircraft + 1):
        weight = math.comb(aircraft, downed) * anti_aircraft ** downed \
            * (1 - anti_aircraft) ** (aircraft - downed)
        kept = (aircraft - downed) / aircraft
        total += weight * _chance([(f, n * kept if f.air else n) for f, n in attackers], defenders)
    return total


def _chance(attackers: list[tuple[Fighter, float]], defenders: list[tuple[Fighter, float]]) -> float:
    if not defenders or all(n <= 0 for _, n in defenders):
        return 1.0 if any(n > 0 for _, n in attackers) else 0.0
    found = ratio(attackers, defenders)
    if found == 0:
        return 0.0
    if math.isinf(found):
        return 1.0
    return 1.0 / (1.0 + math.exp(-(SLOPE * math.log(found) - SHIFT)))


def expected_losses(attackers: list[tuple[Fighter, float]], defenders: list[tuple[Fighter, float]],
                    rounds: int = 8) -> tuple[float, float]:
    """(attacker's expected loss, defender's expected loss) in cost, following the battle in
    expectation until one side is gone or `rounds` pass."""
    # [kind, hit points left] per kind, cheapest first; the hit points fall as hits are taken
    a: list[list[Any]] = sorted(([f, float(n * f.hit_points)] for f, n in attackers), key=lambda x: x[0].cost)
    d: list[list[Any]] = sorted(([f, float(n * f.hit_points)] for f, n in defenders), key=lambda x: x[0].cost)
    start_a = sum(f.cost * hp / f.hit_points for f, hp in a)
    start_d = sum(f.cost * hp / f.hit_points for f, hp in d)
    for _ in range(rounds):
        hits_a = sum(hp / f.hit_points * f.dice * min(f.value + f.supported, 6) / 6 for f, hp in a)
        hits_d = sum(hp / f.hit_points * f.dice * min(f.value, 6) / 6 for f, hp in d)
        _take(d, hits_a)
        _take(a, hits_d)
        if sum(hp for _, hp in a) < 0.05 or sum(hp for _, hp in d) < 0.05:
            break
    left_a = sum(f.cost * hp / f.hit_points for f, hp in a)
    left_d = sum(f.cost * hp / f.hit_points for f, hp in d)
    return start_a - left_a, start_d - left_d


def _take(side: list, hits: float) -> None:
    for entry in side:
        if hits <= 0:
            return
        taken = min(entry[1], hits)
        entry[1] -= taken
        hits -= taken


# -- a game's pieces as the estimate sees them ------------------------------------------------------
def fighter_of(state, piece_type: str, nation: str, attacking: bool,
               supported: float = 0.0) -> Fighter:
    profile = state.profiles(nation)[piece_type]
    return Fighter(profile.value(attacking), profile.dice(attacking),
                   2 if profile.two_hits else 1, profile.cost, profile.is_air, supported)


def forces(state, pieces: list[Piece], nation_of=None, attacking=True) -> list[tuple[Fighter, float]]:
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for piece in pieces:
        kind = state.data.types[piece.type]
        if kind.domain in ("structure",) or kind.has("capturable"):
            continue
        counts[(piece.owner, piece.type)] += 1
    infantry = sum(n for (_, t), n in counts.items() if t == "infantry")
    artillery = sum(n for (_, t), n in counts.items() if t == "artillery")
    found: list[tuple[Fighter, float]] = []
    for (owner, type_), n in counts.items():
        support = min(infantry, artillery) / infantry if attacking and type_ == "infantry" \
            and infantry else 0.0
        found.append((fighter_of(state, type_, owner, attacking, support), n))
    return found


def gun_chance(state, space: str, nation: str) -> float:
    best = 0
    for piece in state.pieces[space]:
        if state.side(piece.owner) != state.side(nation):
            best = max(best, state.profiles(piece.owner)[piece.type].anti_aircraft)
    return best / 6 if space in state.data.board.land else 0.0


def after_bombardment(state, defence: list[tuple[Fighter, float]],
                      ships: list[Piece]) -> list[tuple[Fighter, float]]:
    """The defenders left, in expectation, once the ships' shots before the battle have hit
    the cheapest of them (§5.5.2.2); as the battle engine plays it (model.py, LAND), they
    hit land units only."""
    hits = 0.0
    for ship in ships:
        profile = state.profiles(ship.owner)[ship.type]
        hits += profile.dice(True) * profile.value(True) / 6
    left = []
    for fighter, count in sorted(defence, key=lambda item: (item[0].air, item[0].cost)):
        if fighter.air:
            left.append((fighter, count))
            continue
        taken = min(count, hits / fighter.hit_points)
        hits -= taken * fighter.hit_points
        if count - taken > 0:
            left.append((fighter, count - taken))
    return left


def attack_chance(state, nation: str, space: str, attackers: list, defenders: list,
                  bombarding: list | None = None) -> float:
    """The estimated chance that `attackers` of `nation` clear `space` of `defenders`, after
    the `bombarding` ships' shots at the shore (§5.5.2.2)."""
    defence = forces(state, defenders, attacking=False)
    if bombarding:
        defence = after_bombardment(state, defence, bombarding)
    return win_chance(forces(state, attackers), defence, gun_chance(state, space, nation))
