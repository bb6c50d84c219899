"""One AA50 battle, die by die, in plain Python: the procedure as a player at the table runs it.

This is `resolve_battle`: it writes down every roll and every casualty, for playtests that want
to see what happened. It is also the baseline the vectorised code is measured against, and an
independent check of it (the tests compare the two with the exact odds). The rules are those of
rounds.py, stage by stage; the casualty order is the compiled one of model.py.
"""
from __future__ import annotations

import numpy as np

from ..system import ATTACKER_WINS, DEFENDER_WINS, DRAW
from .model import ANY, LAND, NOT_SUBMARINE, SEA, BattleModel, SideModel

MAX_ROUNDS = 10_000


class Table:
    """The battle board of one battle: counts per kind, the dice, the written record."""

    def __init__(self, model: BattleModel, rng: np.random.Generator):
        self.model, self.rng = model, rng
        self.attacker = [int(n) for n in model.attacker.start]
        self.defender = [int(n) for n in model.defender.start]
        self.events: list[str] = []

    # -- looking at the board ----------------------------------------------------------------
    @staticmethod
    def has(counts: list[int], mask) -> bool:
        """Whether any unit of the kinds in `mask` is on the board."""
        return any(n and mask[k] for k, n in enumerate(counts))

    def roll(self, dice: int, sides: int | None = None) -> list[int]:
        """Dice of the battle's size (six in AA50), or of `sides`."""
        top = (sides or self.model.sides) + 1
        return [int(x) for x in self.rng.integers(1, top, size=dice)] if dice else []

    # -- fire --------------------------------------------------------------------------------
    def fire(self, side: SideModel, own: list[int], detected: bool, stage: str,
             first_round: bool) -> dict[object, int]:
        """Roll the dice of one side in one stage; hits per hit class."""
        hits: dict[object, int] = {}
        rolled = []
        for hit_class, value, dice in self.dice(side, own, detected, stage, first_round):
            faces = self.roll(dice)
            rolled += faces
            scored = sum(1 for face in faces if face <= value)
            if scored:
                hits[hit_class] = hits.get(hit_class, 0) + scored
        if rolled:
            who = "attacker" if side.attacking else "defender"
            self.events.append(f"{stage}: {who} rolls {rolled}: {sum(hits.values())} hits")
        return hits

    def dice(self, side: SideModel, own: list[int], detected: bool, stage: str,
             first_round: bool) -> list[tuple[object, int, int]]:
        """(hit class, value, dice) for what fires in a stage."""
        found: list[tuple[object, int, int]] = []
        if stage == "surprise":
            if not detected:       # §7.3.5: no enemy destroyer
                for k, n in enumerate(own):
                    if n and side.surprise[k] and side.value[k] > 0:
                        found.append((SEA, int(side.value[k]), n * int(side.dice[k])))
            return found
        own_destroyer = self.has(own, side.detector)
        lifted = self.supported(side, own)
        for k, n in enumerate(own):
            if not n or not side.capable[k] or (side.surprise[k] and not detected):
                continue
            dice = n * int(side.dice[k])
            if side.cannot_hit_air[k]:
                hit_class = SEA
            elif side.air[k] and not own_destroyer:
                hit_class = NOT_SUBMARINE
            else:
                hit_class = ANY
            boosted, bonus = lifted.get(k, (0, 0))
            boosted = min(boosted * int(side.dice[k]), dice)
            if boosted:
                found.append((hit_class, int(side.value[k]) + bonus, boosted))
            found.append((hit_class, int(side.value[k]), dice - boosted))
        if first_round and side.attacking:
            for value, ships in self.model.bombard:
                found.append((LAND, value, ships))
        return found

    @staticmethod
    def supported(side: SideModel, own: list[int]) -> dict[int, tuple[int, int]]:
        """Kind -> (units lifted by artillery, bonus); in attack only in AA50 (§7.1.2)."""
        found: dict[int, tuple[int, int]] = {}
        for supporter, n in enumerate(own):
            support = side.kinds[supporter].profile.support_for(side.attacking)
            if not n or not side.active[supporter] or support is None:
                continue
            capacity = n * support.per_unit
            for k, m in enumerate(own):
                if side.capable[k] and side.kinds[k].type in support.types:
                    lifted = min(capacity, m)
                    found[k] = (found.get(k, (0, 0))[0] + lifted, support.bonus)
                    capacity -= lifted
        return found

    # -- casualties --------------------------------------------------------------------------
    def take(self, side: SideModel, own: list[int], hits: dict[object, int]) -> None:
        """The side chooses its casualties, hit by hit, in its order; restricted hits first."""
        lost = []
        for hit_class in sorted(hits, key=lambda key: (side.mask_rank[key], str(key))):
            eligible = side.masks[hit_class]
            for _ in range(hits[hit_class]):
                for kind, reserve, damage in side.slots:
                    if eligible[kind] and own[kind] > reserve:
                        own[kind] -= 1
                        if damage:
                            own[side.twin_damaged[kind]] += 1
                        lost.append(side.kinds[kind].type + (" damaged" if damage else ""))
                        break
        if lost:
            who = "attacker" if side.attacking else "defender"
            self.events.append(f"{who} takes: {', '.join(lost)}")

    # -- between rounds ----------------------------------------------------------------------
    def checks(self, first_round: bool) -> int | None:
        """Retreat, submerging, defenceless transports, the end of combat (rounds.py)."""
        model, a_side, d_side = self.model, self.model.attacker, self.model.defender
        a, d = self.attacker, self.defender
        if not first_round and model.retreat_at > 0:
            left = sum(n for k, n in enumerate(a) if a_side.active[k])
            if (0 < left <= model.retreat_at and not self.has(a, a_side.landed)
                    and self.has(d, d_side.active)):
                self.events.append("the attacker retreats")
                return DEFENDER_WINS
        for side, own, enemy, theirs in ((a_side, a, d_side, d), (d_side, d, a_side, a)):
            only_air = (self.has(theirs, enemy.active)
                        and not self.has(theirs, enemy.active & ~enemy.air))
            for k in range(len(own)):
                if only_air and own[k] and side.twin_submerged[k] >= 0:
                    own[side.twin_submerged[k]] += own[k]
                    own[k] = 0
                    self.events.append(f"{side.kinds[k].type} submerges")
        if (self.has(d, d_side.active)
                and not self.has(d, d_side.active & ~d_side.defenceless)
                and self.has(a, a_side.capable)):
            for k in range(len(d)):
                if d_side.defenceless[k] and d[k]:
                    self.events.append(f"{d[k]} defenceless {d_side.kinds[k].type} sunk")
                    d[k] = 0
        attacker_in = self.has(a, a_side.active)
        defender_in = self.has(d, d_side.active)
        if not defender_in:
            return ATTACKER_WINS if attacker_in else DRAW
        if not self.has(a, a_side.capable):
            return DRAW if attacker_in and not self.has(d, d_side.capable) else DEFENDER_WINS
        if model.may_stall and not (self.can_hit(a_side, a, d_side, d)
                                    or self.can_hit(d_side, d, a_side, a)):
            return DRAW
        return None

    def can_hit(self, side, own, enemy, theirs) -> bool:
        detected = self.has(theirs, enemy.detector)
        for stage in ("surprise", "general"):
            for hit_class, value, dice in self.dice(side, own, detected, stage, False):
                if dice and value > 0 and self.has(theirs, enemy.masks[hit_class]):
                    return True
        return False

    # -- the battle --------------------------------------------------------------------------
    def fight(self) -> tuple[int, int]:
        """(result, rounds fought)."""
        model, a_side, d_side = self.model, self.model.attacker, self.model.defender
        if model.anti_aircraft:                                   # §7.1.4
            for k in range(len(self.attacker)):
                if a_side.air[k] and a_side.active[k] and self.attacker[k]:
                    faces = self.roll(self.attacker[k], model.anti_aircraft_sides)
                    down = sum(1 for face in faces if face <= model.anti_aircraft)
                    self.attacker[k] -= down
                    self.events.append(f"anti-aircraft fire at {a_side.kinds[k].type}: {faces}: "
                                       f"{down} shot down")
        first_round = True
        for fought in range(MAX_ROUNDS):
            ended = self.checks(first_round)
            if ended is not None:
                return ended, fought
            self.events.append(f"round {fought + 1}")
            a_detects = model.undetected_only_first(
                self.has(self.attacker, a_side.detector), first_round)
            d_detects = model.undetected_only_first(
                self.has(self.defender, d_side.detector), first_round)
            for stage in ("surprise", "general"):
                a_hits = self.fire(a_side, self.attacker, d_detects, stage, first_round)
                d_hits = self.fire(d_side, self.defender, a_detects, stage, first_round)
                self.take(a_side, self.attacker, d_hits)
                self.take(d_side, self.defender, a_hits)
            first_round = False
        return DRAW, MAX_ROUNDS


def one_battle(model: BattleModel, rng: np.random.Generator):
    """(result, rounds, attacker counts, defender counts, events) of one battle."""
    table = Table(model, rng)
    result, fought = table.fight()
    return (result, fought, np.array(table.attacker), np.array(table.defender), table.events)
