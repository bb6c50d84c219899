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


MANY_DICE = 64           # beyond, the sum of a bomber's dice is drawn by face counts
MAX_EXACT_DICE = 20_000  # beyond, the exact distribution is left to simulation


def simulate(raid: Raid, runs: int, rng: np.random.Generator) -> OutcomeBatch:
    shot = (rng.binomial(raid.bombers, chance(raid.anti_aircraft, raid.gun_sides), size=runs)
            if raid.anti_aircraft else np.zeros(runs, dtype=np.int64))
    over = raid.bombers - shot
    if raid.bombers * raid.dice_each <= MANY_DICE:
        dice = rng.integers(1, raid.sides + 1, size=(runs, raid.bombers * raid.dice_each))
        rolled = np.where(np.arange(dice.shape[1])[None, :] < (over * raid.dice_each)[:, None],
                          dice, 0).sum(axis=1)
    else:  # the same distribution without a die per column: how many of each face came up
        faces = rng.multinomial(over * raid.dice_each, np.full(raid.sides, 1 / raid.sides))
        rolled = faces @ np.arange(1, raid.sides + 1)
    damage = np.minimum(rolled, raid.damage_room)
    return OutcomeBatch(np.where(over > 0, ATTACKER_WINS, DEFENDER_WINS).astype(np.int8),
                        np.ones(runs, dtype=np.int64), over, np.full(runs, raid.defenders),
                        shot * raid.bomber_cost, damage.astype(float))


def exact(raid: Raid) -> ExactOutcome | None:
    """The exact distribution, or None for a raid of more than MAX_EXACT_DICE dice. Damage is
    followed only up to what the factory can take: a sum beyond that is capped all the same."""
    if raid.bombers * raid.dice_each > MAX_EXACT_DICE:
        return None
    through = binomial_pmf(raid.bombers, 1 - chance(raid.anti_aircraft, raid.gun_sides))  # getting through
    room = max(raid.damage_room, 0)
    damage = np.zeros(room + 1)
    damage[0] = 1.0              # capped damage of the bombers through so far
    rows: list[tuple[float, int, int]] = []
    for over, p_over in enumerate(through):
        if over:
            for _ in range(raid.dice_each):
                damage = _one_die_more(damage, room, raid.sides)
        rows += [(p_over * p, over, total) for total, p in enumerate(damage) if p_over * p > 0]
    getting_through = np.array([r[1] for r in rows])
    return ExactOutcome(
        probability=np.array([r[0] for r in rows]),
        result=np.where(getting_through > 0, ATTACKER_WINS, DEFENDER_WINS).astype(np.int8),
        attacker_survivors=getting_through, defender_survivors=np.full(len(rows), raid.defenders),
        attacker_loss=(raid.bombers - getting_through) * raid.bomber_cost,
        defender_loss=np.array([float(r[2]) for r in rows]), mean_rounds=1.0, states=len(rows))


def _one_die_more(capped: np.ndarray, room: int, sides: int) -> np.ndarray:
    full = np.convolve(capped, np.r_[0.0, np.full(sides, 1 / sides)])
    found = full[:room + 1].copy()
    found[room] += full[room + 1:].sum()
    return found
