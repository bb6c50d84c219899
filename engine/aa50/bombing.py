"""Strategic bombing raids (§5.5.1, §7.2.2).

The territory's gun fires one die at each bomber (§7.1.4); each surviving bomber rolls its
bombing dice; the damage markers are the sum, and a factory never holds more than its
`max_damage_factor` times the territory's value, counting the damage already there.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..system import ATTACKER_WINS, DEFENDER_WINS, ExactOutcome, OutcomeBatch
from .exact import binomial_pmf
from .rounds import chance


@dataclass(frozen=True)
class Raid:
    bombers: int
    dice_each: int
    bomber_cost: float
    anti_aircraft: int       # the gun's hit roll; 0 when there is no gun
    damage_room: int         # markers the factory can still take
    defenders: int           # units in the territory (they are not hit)
    sides: int = 6           # the sides of the bombing dice (six in AA50)
    gun_sides: int = 6       # the sides of the gun's die


def simulate(raid: Raid, runs: int, rng: np.random.Generator) -> OutcomeBatch:
    shot = (rng.binomial(raid.bombers, chance(raid.anti_aircraft, raid.gun_sides), size=runs)
            if raid.anti_aircraft else np.zeros(runs, dtype=np.int64))
    over = raid.bombers - shot
    dice = rng.integers(1, raid.sides + 1, size=(runs, raid.bombers * raid.dice_each))
    rolled = np.where(np.arange(dice.shape[1])[None, :] < (over * raid.dice_each)[:, None], dice, 0)
    damage = np.minimum(rolled.sum(axis=1), raid.damage_room)
    return OutcomeBatch(np.where(over > 0, ATTACKER_WINS, DEFENDER_WINS).astype(np.int8),
                        np.ones(runs, dtype=np.int64), over, np.full(runs, raid.defenders),
                        shot * raid.bomber_cost, damage.astype(float))


def dice_sum_pmf(dice: int, sides: int = 6) -> np.ndarray:
    """pmf of the sum of `dice` dice of `sides` sides, indexed by the sum."""
    pmf = np.ones(1)
    face = np.r_[0.0, np.full(sides, 1 / sides)]
    for _ in range(dice):
        pmf = np.convolve(pmf, face)
    return pmf


def exact(raid: Raid) -> ExactOutcome:
    through = binomial_pmf(raid.bombers, 1 - chance(raid.anti_aircraft, raid.gun_sides))  # getting through
    rows = []
    for over, p_over in enumerate(through):
        damage = dice_sum_pmf(over * raid.dice_each, raid.sides)
        capped: dict[int, float] = {}
        for total, p in enumerate(damage):
            if p > 0:
                capped[min(total, raid.damage_room)] = capped.get(min(total, raid.damage_room), 0) + p
        for total, p in capped.items():
            rows.append((p_over * p, over, total))
    rows = [row for row in rows if row[0] > 0]
    getting_through = np.array([r[1] for r in rows])
    return ExactOutcome(
        probability=np.array([r[0] for r in rows]),
        result=np.where(getting_through > 0, ATTACKER_WINS, DEFENDER_WINS).astype(np.int8),
        attacker_survivors=getting_through, defender_survivors=np.full(len(rows), raid.defenders),
        attacker_loss=(raid.bombers - getting_through) * raid.bomber_cost,
        defender_loss=np.array([float(r[2]) for r in rows]), mean_rounds=1.0, states=len(rows))
