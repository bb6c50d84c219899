"""The AA50 combat procedure (§5.5.3), on many battles at once.

A state is a pair of count arrays, attacker (B, Ka) and defender (B, Kd): one row per battle.
A round is a sequence of *stages*; in each stage one or both sides fire, and the hits are then
assigned by the side that takes them. Within a stage both sides fire from the same state, so a
unit hit in that stage still fires (the casualty zone of §5.5.3.2); between stages casualties
are gone. The stages are:

  anti-aircraft  first round only: the defending territory's gun fires one die at each attacking
                 air unit (§7.1.4); hits are removed before the battle begins.
  surprise       submarines not facing an enemy destroyer fire first; their hits are removed
                 before the other units fire (§7.3.5 Surprise Strike). This happens every
                 round: the rulebook puts the strike before step ii, and steps ii to v repeat
                 (§5.5.3.5, note 42); step iii says the defending submarines have already fired.
  general        every other unit fires (§5.5.3.2, §5.5.3.3); offshore bombardment joins the
                 attacker's fire in the first round (§5.5.2.2).

Choices the rules leave to the players are made by policy: casualties follow the side's order
(model.py); a submarine submerges when it faces only air units, which it cannot hit; the attacker
retreats when Policy.retreat_at says so, unless units that came ashore from the sea are still
fighting (they cannot retreat, §5.5.2.3). A battle ends (§5.5.3.5) as

  attacker wins  no defending unit is left in the battle, and some attacking unit is;
  defender wins  the attacker is destroyed, retreats, or has no unit left that can fire;
  draw           no unit of either side is left, or neither side can hit the other.

What fires and with how many dice is given as *fire groups* (hit class, dice, chance to hit),
so that the Monte Carlo code samples them and the exact code enumerates them.
"""
from __future__ import annotations

import numpy as np

from ..system import ATTACKER_WINS, DEFENDER_WINS, DRAW
from .model import ANY, LAND, NOT_SUBMARINE, SEA, BattleModel, SideModel

CONTINUES = -1
# (hit class, dice per battle (B,), chance of a hit per die)
FireGroup = tuple[object, np.ndarray, float]


def chance(value: int, sides: int = 6) -> float:
    """A die hits on a roll at or below the unit's value (§5.5.3.2); AA50's dice have six
    sides, other rule families' may have more."""
    return min(max(value, 0), sides) / sides


# -- what fires --------------------------------------------------------------------------------
def anti_aircraft_fire(model: BattleModel, attacker: np.ndarray) -> list[FireGroup]:
    """One die at each attacking air unit, aimed at it (§7.1.4): a hit removes that unit."""
    if not model.anti_aircraft:
        return []
    side = model.attacker
    return [(("kind", k), attacker[:, k], chance(model.anti_aircraft, model.anti_aircraft_sides))
            for k in np.flatnonzero(side.air & side.active)]


def detects(side: SideModel, counts: np.ndarray) -> np.ndarray:
    """Whether the side has a destroyer on the battle board (§7.3.4), per battle."""
    return _has(counts, side.detector)


def surprise_fire(side: SideModel, own: np.ndarray, detected: np.ndarray) -> list[FireGroup]:
    """Submarines fire first unless the enemy has a destroyer on the battle board (§7.3.5).

    `detected`: per battle, whether the enemy has a destroyer."""
    undetected = ~detected
    groups: list[FireGroup] = []
    for k in np.flatnonzero(side.surprise & (side.value > 0)):
        groups.append((SEA, own[:, k] * side.dice[k] * undetected, chance(side.value[k], side.sides)))
    return groups


def general_fire(model: BattleModel, side: SideModel, own: np.ndarray, detected: np.ndarray,
                 first_round: bool) -> list[FireGroup]:
    """Every unit that did not fire in the surprise stage (`detected`: per battle, whether
    the enemy has a destroyer, which made the submarines fire here)."""
    groups: list[FireGroup] = []
    own_destroyer = _has(own, side.detector)
    supported = _supported(side, own)
    for k in np.flatnonzero(side.capable):
        dice = own[:, k] if side.dice[k] == 1 else own[:, k] * side.dice[k]   # read, never written
        if side.surprise[k]:
            dice = dice * detected          # fired already in the surprise stage
        if side.cannot_hit_air[k]:
            targets = [(SEA, dice)]
        elif side.air[k]:
            targets = [(ANY, dice * own_destroyer), (NOT_SUBMARINE, dice * ~own_destroyer)]
        else:
            targets = [(ANY, dice)]
        lifted, bonus = supported.get(int(k), (None, 0))
        if lifted is None or side.dice[k] == 1:
            lifted_dice = lifted
        else:
            lifted_dice = lifted * side.dice[k]
        # With one target and all its dice rolled, every lifted die is among them (lifted units
        # are the side's own units), so no minimum is needed.
        whole = len(targets) == 1 and not side.surprise[k]
        for hit_class, n in targets:
            if lifted_dice is not None:
                boosted = lifted_dice if whole else np.minimum(lifted_dice, n)
                groups.append((hit_class, boosted, chance(side.value[k] + bonus, side.sides)))
                n, lifted_dice = n - boosted, lifted_dice - boosted
            groups.append((hit_class, n, chance(side.value[k], side.sides)))
    if first_round and side.attacking:
        rows = own.shape[0]
        for value, ships in model.bombard:
            groups.append((LAND, np.full(rows, ships, dtype=np.int64), chance(value, side.sides)))
    return groups


def _supported(side: SideModel, own: np.ndarray) -> dict[int, tuple[np.ndarray, int]]:
    """Kind -> (units lifted by support, bonus): one supported unit per supporter (§7.1.1-2).

    AA50's support lifts units only in attack (other rule families' may in defense too);
    supporters' capacity goes to the supported kinds in the side's own order.
    """
    found: dict[int, tuple[np.ndarray, int]] = {}
    for supporter in np.flatnonzero(side.active):
        support = side.kinds[supporter].profile.support_for(side.attacking)
        if support is None:
            continue
        capacity = own[:, supporter] if support.per_unit == 1 else own[:, supporter] * support.per_unit
        for k in np.flatnonzero(side.capable):
            if side.kinds[k].type in support.types:
                # units another kind of supporter lifted already (artillery that came ashore
                # and artillery that did not are two kinds) are not lifted twice
                previous = found.get(int(k))
                already = 0 if previous is None else previous[0]
                lifted = np.minimum(capacity, own[:, k] - already)
                found[int(k)] = (lifted + already, support.bonus)
                capacity = capacity - lifted
    return found


def _has(counts: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per battle, whether any unit of the kinds in `mask` is there (counts are never negative)."""
    kinds = np.flatnonzero(mask)
    if kinds.size == 0:
        return np.zeros(counts.shape[0], dtype=bool)
    if kinds.size == 1:
        return counts[:, kinds[0]] > 0      # one column: no matrix product needed
    return counts @ mask.astype(np.int64) > 0


# -- taking hits -------------------------------------------------------------------------------
def take_hits(side: SideModel, counts: np.ndarray, hits: dict[object, np.ndarray]) -> np.ndarray:
    """Assign hits by the side's casualty order; restricted hit classes first."""
    if not hits:
        return counts
    counts = counts.copy()
    for hit_class in sorted(hits, key=lambda key: (side.mask_rank[key], str(key))):
        left = hits[hit_class]
        if not left.any():
            continue
        eligible = side.masks[hit_class]
        for kind, reserve, damage in side.slots:
            if not eligible[kind]:
                continue
            column = counts[:, kind]
            taken = np.minimum(left, np.maximum(column - reserve, 0) if reserve else column)
            column -= taken
            if damage:
                counts[:, side.twin_damaged[kind]] += taken
            left = left - taken
            if not left.any():
                break
    return counts


# -- between rounds ----------------------------------------------------------------------------
def start_of_round(model: BattleModel, attacker: np.ndarray, defender: np.ndarray,
                   first_round: bool):
    """Decisions and endings before a round's dice: retreat, submerging, defenceless
    transports, and the end of combat (§5.5.3.5). Returns (attacker, defender, result) where
    result is CONTINUES or how the battle ended."""
    a_side, d_side = model.attacker, model.defender
    rows = attacker.shape[0]
    result = np.full(rows, CONTINUES, dtype=np.int8)
    if model.changes_between_rounds:  # units may submerge or be sunk here: work on copies
        attacker, defender = attacker.copy(), defender.copy()

    # Press attack or retreat (§5.5.3.5 condition B); units that came ashore cannot retreat.
    if not first_round and model.retreat_at > 0:
        left = attacker[:, a_side.active].sum(axis=1)
        retreat = ((left <= model.retreat_at) & (left > 0) & ~_has(attacker, a_side.landed)
                   & _has(defender, d_side.active))
        result[retreat] = DEFENDER_WINS

    # A submarine facing only air units submerges: it cannot hit them (§7.3.5 Submersible).
    _submerge_facing_only_air(a_side, attacker, d_side, defender)
    _submerge_facing_only_air(d_side, defender, a_side, attacker)

    # Defenceless transports: defenders with no combat value left are sunk (§5.5.3.2).
    if d_side.defenceless.any():
        defenceless = (_has(defender, d_side.active) & ~_has(defender, d_side.active & ~d_side.defenceless)
                       & _has(attacker, a_side.capable) & (result == CONTINUES))
        defender[np.ix_(defenceless, d_side.defenceless)] = 0

    attacker_in = _has(attacker, a_side.active)
    defender_in = _has(defender, d_side.active)
    # Where every unit in the battle can fire, the two questions have one answer.
    attacker_can_fire = attacker_in if a_side.all_capable else _has(attacker, a_side.capable)
    defender_can_fire = defender_in if d_side.all_capable else _has(defender, d_side.capable)
    open_ = result == CONTINUES
    # Condition A: a side without units that can fire is done (§5.5.3.5).
    no_defender = open_ & ~defender_in
    result[no_defender] = np.where(attacker_in[no_defender], ATTACKER_WINS, DRAW)
    done = open_ & defender_in & ~attacker_can_fire
    # transports facing transports draw; otherwise the defender holds
    result[done] = np.where((attacker_in & ~defender_can_fire)[done], DRAW, DEFENDER_WINS)
    if not model.may_stall:
        return attacker, defender, result
    # Neither side can hit the other (say, air units against submarines without a destroyer).
    open_ = result == CONTINUES
    stuck = open_ & ~_can_hit(model, a_side, attacker, d_side, defender) \
        & ~_can_hit(model, d_side, defender, a_side, attacker)
    result[stuck] = DRAW
    return attacker, defender, result


def _submerge_facing_only_air(side: SideModel, own: np.ndarray, enemy: SideModel,
                              theirs: np.ndarray) -> None:
    divers = np.flatnonzero(side.twin_submerged >= 0)
    if divers.size == 0:
        return
    only_air = _has(theirs, enemy.active) & ~_has(theirs, enemy.active & ~enemy.air)
    for k in divers:
        moving = np.where(only_air, own[:, k], 0)
        own[:, k] -= moving
        own[:, side.twin_submerged[k]] += moving


def _can_hit(model: BattleModel, side: SideModel, own: np.ndarray, enemy: SideModel,
             theirs: np.ndarray) -> np.ndarray:
    detected = detects(enemy, theirs)
    groups = general_fire(model, side, own, detected, first_round=False)
    groups += surprise_fire(side, own, detected)
    possible = np.zeros(own.shape[0], dtype=bool)
    for hit_class, dice, p in groups:
        if p > 0:
            possible |= (dice > 0) & _has(theirs, enemy.masks[hit_class])
    return possible


# -- the end -----------------------------------------------------------------------------------
def survivors(side: SideModel, counts: np.ndarray) -> np.ndarray:
    return counts @ np.ones(counts.shape[1], dtype=counts.dtype)  # faster than sum(axis=1)


def losses(side: SideModel, counts: np.ndarray) -> np.ndarray:
    return side.worth(side.start[None, :]) - side.worth(counts)


__all__ = ["ANY", "SEA", "LAND", "NOT_SUBMARINE", "CONTINUES", "anti_aircraft_fire",
           "surprise_fire", "general_fire", "take_hits", "start_of_round", "survivors", "losses",
           "chance"]
