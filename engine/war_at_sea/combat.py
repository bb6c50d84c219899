"""The War at Sea battle in one area (§7-§11): anti-submarine, air strikes, surface rounds.

Dice (§7.3-§7.5): a 5 disables the target (it returns to port and leaves the battle), a 6 hits
and a second die gives the damage; hits count before disabling. Damage (§7.6) takes speed
(never below 1), leaves gunnery 1 and no air strike when it equals the armour, sinks the ship
when it exceeds the armour. Undamaged German warships add 1 to each gunnery die (§10.5).

The choices the rules leave to the players are a policy, written here once: each ship fires at
the eligible enemy with the fewest dice aimed at it for the damage it can still take; U-boats aim
at convoys first; air strikes at the enemy's strongest guns; the escape is by one group, and
the other side pursues with every ship fast enough.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .ships import Ship

ROUND_LIMIT = 100   # a battle in which neither side can ever finish the other is a draw


@dataclass(frozen=True)
class CombatRules:
    disable_roll: int = 5
    hit_roll: int = 6
    minimum_speed: int = 1
    bonus_nation: str = "germany"
    bonus: int = 1


@dataclass
class Shot:
    """Dice aimed at one target in one step, applied when the step's firing is over."""

    target: Ship
    damage: int = 0
    disabled: bool = False


@dataclass
class BattleEnd:
    controller: str | None          # the side that holds the area after the battle, if any
    rounds: int
    escaped: set[str] = field(default_factory=set)
    events: list[str] = field(default_factory=list)


class Battle:
    def __init__(self, rules: CombatRules, ships: dict[str, list[Ship]], air_markers: dict[str, int],
                 sea_area: bool, rng: np.random.Generator):
        self.rules = rules
        self.ships = ships                   # side -> ships (surface ships and U-boats)
        self.air_markers = air_markers       # side -> air-strike value of its marker here
        self.sea_area = sea_area
        self.rng = rng
        self.events: list[str] = []

    # -- dice ----------------------------------------------------------------------------------
    def roll(self, dice: int, bonus: int = 0) -> np.ndarray:
        return np.minimum(self.rng.integers(1, 7, size=dice) + bonus, 6)

    def settle(self, shot: Shot, faces: np.ndarray) -> None:
        """§7.3-§7.4: every 6 hits and rolls a damage die, a 5 disables."""
        hits = int((faces >= self.rules.hit_roll).sum())
        if hits:
            shot.damage += int(self.rng.integers(1, 7, size=hits).sum())
        if (faces == self.rules.disable_roll).any():
            shot.disabled = True

    def apply(self, shots: list[Shot]) -> None:
        merged: dict[int, Shot] = {}
        for shot in shots:
            found = merged.setdefault(id(shot.target), Shot(shot.target))
            found.damage += shot.damage
            found.disabled = found.disabled or shot.disabled
        for shot in merged.values():
            if shot.damage or shot.disabled:
                shot.target.take(shot.damage, shot.disabled)
                state = "sunk" if shot.target.sunk else "disabled" if shot.target.disabled else "damaged"
                self.events.append(f"{shot.target.name}: {shot.damage} damage, {state}")

    # -- who is where --------------------------------------------------------------------------
    def enemy(self, side: str) -> str:
        return next(s for s in self.ships if s != side)

    def surface(self, side: str) -> list[Ship]:
        return [s for s in self.ships[side] if s.in_battle and s.type.surface]

    def uboats(self, side: str) -> list[Ship]:
        return [s for s in self.ships[side] if s.in_battle and s.type.is_uboat]

    # -- §8 anti-submarine ---------------------------------------------------------------------
    def anti_submarine(self, hunter: str) -> None:
        prey = self.enemy(hunter)
        boats = self.uboats(prey)
        escorts = self.surface(hunter)
        if not boats or not escorts:
            return
        faces = self.roll(sum(s.type.anti_submarine for s in escorts))
        sunk = int((faces >= self.rules.hit_roll).sum())
        disabled = int((faces == self.rules.disable_roll).sum())
        for boat in boats[:sunk]:                 # a U-boat's armour is 0: a 6 sinks it (§8.3)
            boat.sunk = True
        for boat in boats[sunk:sunk + disabled]:  # a 5 sends it home (§8.3)
            boat.disabled = True
        self.events.append(f"anti-submarine: {len(faces)} dice, {min(sunk, len(boats))} U-boat(s) "
                           f"sunk, {max(0, min(disabled, len(boats) - sunk))} disabled")
        survivors = [b for b in boats if b.in_battle]   # sunk and disabled ones do not strike (§8.4)
        targets = sorted(escorts, key=lambda s: (not s.type.is_convoy, s.type.armour - s.damage, s.name))
        shots = []
        for index in range(len(survivors)):  # one target each, chosen before rolling (§8.4)
            shot = Shot(targets[index % len(targets)])
            self.settle(shot, self.roll(1))
            shots.append(shot)
        self.apply(shots)

    # -- §9 air strikes ------------------------------------------------------------------------
    def air_strike_value(self, side: str) -> int:
        carriers = sum(s.air_strike() for s in self.surface(side) if s.type.is_carrier)
        return carriers + self.air_markers.get(side, 0)

    def air_strikes(self, order: list[str]) -> None:
        """§9.3-§9.5: as many targets as the air-strike value, one die each; both sides strike
        from the same state (return strikes are simultaneous, §9.4)."""
        planned = []
        for side in order:
            value = self.air_strike_value(side)
            targets = sorted(self.surface(self.enemy(side)),
                             key=lambda s: (s.type.is_convoy, -s.gunnery(), -s.type.armour, s.name))
            planned.append((side, targets[:value]))
        shots = []
        for side, targets in planned:
            for target in targets:
                shot = Shot(target)
                self.settle(shot, self.roll(1))
                shots.append(shot)
            if targets:
                self.events.append(f"{side} air strike on {len(targets)} target(s)")
        self.apply(shots)

    # -- §10 surface combat --------------------------------------------------------------------
    def eligible_targets(self, enemies: list[Ship], aimed: dict[int, int]) -> list[Ship]:
        """§10.6: a carrier that does not fire is a target only once every other enemy warship
        is; §10.7: convoys only when every enemy warship is damaged (or gone)."""
        warships = [s for s in enemies if s.type.is_warship]
        covered = all(aimed.get(id(s), 0) for s in warships
                      if not (s.type.is_carrier and s.gunnery() == 0))
        found = [s for s in warships
                 if not (s.type.is_carrier and s.gunnery() == 0) or covered]
        if all(s.damaged for s in warships):
            found += [s for s in enemies if s.type.is_convoy]
        return found

    def volley(self, own: list[Ship], enemies: list[Ship]) -> list[Shot]:
        shooters = sorted((s for s in own if s.in_battle and s.type.surface and s.gunnery() > 0),
                          key=lambda s: (-s.gunnery(), s.name))
        aimed: dict[int, int] = {}
        plan = []
        for ship in shooters:             # targets are named before any die is rolled (§10.2)
            candidates = self.eligible_targets(enemies, aimed)
            if not candidates:
                continue
            target = min(candidates, key=lambda t: (aimed.get(id(t), 0) / (t.type.armour - t.damage + 1),
                                                   -t.gunnery(), t.name))
            aimed[id(target)] = aimed.get(id(target), 0) + ship.gunnery()
            plan.append((ship, target))
        shots = []
        for ship, target in plan:
            bonus = (self.rules.bonus if ship.type.nation == self.rules.bonus_nation
                     and ship.type.is_warship and not ship.damaged else 0)   # §10.5
            shot = Shot(target)
            self.settle(shot, self.roll(ship.gunnery(), bonus))
            shots.append(shot)
        return shots

    def surface_round(self, order: list[str], fighting: dict[str, list[Ship]]) -> bool:
        """One round: the Allies fire, then the Axis, both from the round's starting state
        (ships sunk or disabled in the round still fire back, §10.4); returns False when
        nobody could fire."""
        shots = []
        for side in order:
            enemies = [s for s in fighting[self.enemy(side)] if s.in_battle and s.type.surface]
            shots += self.volley(fighting[side], enemies)
        self.apply(shots)
        return bool(shots)

    # -- the whole battle ------------------------------------------------------------------------
    def fight(self, order: list[str], escape: str | None, escape_after: int, pursue: bool,
              leaves_at: tuple[str, int] | None) -> BattleEnd:
        """§7.1: anti-submarine, then air strikes, then surface rounds until one side has no
        surface ship left in the battle, or escapes (§11)."""
        allies, axis = order
        if self.sea_area:
            self.anti_submarine(allies)
        self.air_strikes(order)
        rounds = 0
        escaped: set[str] = set()
        if self.sea_area:
            fighting = {side: list(self.ships[side]) for side in order}
            while all(self._afloat(fighting[side]) for side in order) and rounds < ROUND_LIMIT:
                rounds += 1
                if not self.surface_round(order, fighting):
                    break
                if not all(self._afloat(fighting[side]) for side in order):
                    break
                runner = self._runner(order, rounds, escape, escape_after, leaves_at, fighting)
                if runner == "both":                       # §11.8: both escape and succeed
                    escaped = set(order)
                    self.events.append("both sides escape")
                    break
                if runner:
                    rounds, gone = self.escape(order, runner, pursue, rounds)
                    if gone:
                        escaped.add(runner)
                    break
        return BattleEnd(self.controller(order, escaped), rounds, escaped, self.events)

    def _afloat(self, ships: list[Ship]) -> bool:
        return any(s.in_battle and s.type.surface for s in ships)

    def _runner(self, order, rounds, escape, escape_after, leaves_at, fighting) -> str | None:
        if escape and rounds >= escape_after:
            return escape
        if leaves_at:
            side, at_most = leaves_at
            if sum(1 for s in fighting[side] if s.in_battle and s.type.surface) <= at_most:
                return side
        return None

    def escape(self, order: list[str], runner: str, pursue: bool, rounds: int) -> tuple[int, bool]:
        """§11.2-§11.7: the escape speed is the slowest escaping ship's, fixed when the escape is
        tried; pursuers must be at least that fast and give up when damage slows them below it.
        Returns the rounds fought and whether the escape succeeded."""
        minimum = self.rules.minimum_speed
        group = [s for s in self.surface(runner)]
        escape_speed = min(s.speed(minimum) for s in group)
        hunters = [s for s in self.surface(self.enemy(runner))
                   if s.speed(minimum) >= escape_speed and s.gunnery() > 0] if pursue else []
        self.events.append(f"{runner} escapes at speed {escape_speed}; "
                           f"{len(hunters)} ship(s) pursue")
        fighting = {runner: group, self.enemy(runner): hunters}
        while rounds < ROUND_LIMIT:
            for slowed in (s for s in hunters if s.in_battle and s.speed(minimum) < escape_speed):
                self.events.append(f"{slowed.name} gives up the pursuit")   # §11.5
            hunters = [s for s in hunters if s.in_battle and s.speed(minimum) >= escape_speed]
            fighting[self.enemy(runner)] = hunters
            if not hunters:
                return rounds, True                        # §11.6
            if not self._afloat(group):
                return rounds, False
            rounds += 1
            if not self.surface_round(order, fighting):
                return rounds, True
        return rounds, True

    def controller(self, order: list[str], escaped: set[str]) -> str | None:
        """§12.1: surface ships that did not escape control the area; surviving U-boats deny the
        Allies control but cannot take it."""
        allies, axis = order
        present = [side for side in order if side not in escaped and self.surface(side)]
        if len(present) != 1:
            return None
        (side,) = present
        if side == allies and self.uboats(axis):
            return None
        return side
