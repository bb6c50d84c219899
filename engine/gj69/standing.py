"""A GJ69 side's chance to win, estimated from the position (engine/game.py `standing`).

GJ69 is won on VP at the end of the last turn (§15.0): the side with more wins. The estimate
projects the final margin as if the map stayed as it is: the VP scored so far, the objectives
scored at the end of each turn left (the Allies' fortresses, §15.0(1)①, §16.1(3)) and at the
end of the game (the land areas held, §15.0(2)), and the oil fields (§15.0(3)) at the markers'
mean value, less the chance that a turned-over marker is destroyed first (§4.0(4)①). A land
area where both sides' land units stand counts for each side by the chance that it keeps or
takes it, from the attacker's hits against the points that drive the defenders out. The margin
becomes a chance by a logistic curve whose width grows with the turns left (more can change),
so the estimate rises with every VP a side gains.
"""
from __future__ import annotations

import math

from validators.conditions import evaluate

from .core import GameCore
from .damage import READY

SPREAD = 2.0            # VP of the margin that move the chance by a factor e, at the last turn
SPREAD_PER_TURN = 1.5   # and more for each turn left
# The log-odds that the attacker takes a contested land area by the end: a constant, per hit
# per point needed, when the defenders recover, per turn left (fitted to 3,860 contested areas
# at the start of a turn in 200 games of the heuristic players, two seeds agreeing, rounded:
# `python benchmarks/gj69_capture_fit.py --games 200`).
CAPTURE = (-3.6, 7.5, -1.0, 0.6)


class Standing(GameCore):
    """The standing of a side, as part of GJ69Game."""

    def standing(self, side: str) -> float:
        if self._over:
            return super().standing(side)
        margin = self.projected_margin(side)
        left = max(0, self.last_turn - self.turn)
        return 1 / (1 + math.exp(-margin / (SPREAD + SPREAD_PER_TURN * left)))

    def projected_margin(self, side: str) -> float:
        """The side's VP less the enemy's at the end, if the map stayed as it is now."""
        enemy = self.enemy(side)
        sign = {side: 1.0, enemy: -1.0}
        margin = self.vp.get(side, 0.0) - self.vp.get(enemy, 0.0)
        turns = self.last_turn - self.turn + (0 if self._phase == "end-of-turn" else 1)
        shares = self._contested_shares()
        position = None
        for entity in self.system.index.objectives.values():
            data = entity.data
            award = data.get("award") or {}
            timing = data.get("timing")
            owner = self.system.side_of(data.get("owner", "")) or data.get("owner")
            when = data.get("when")
            if award.get("resource", "vp") != "vp" or owner not in sign or not isinstance(when, dict) \
                    or timing not in ("end_of_turn", "end_of_game"):
                continue
            area = _one_area(when, owner)
            if area is not None:
                chance = self._holds_chance(owner, area, shares)
            else:
                position = position or self.position()
                chance = 1.0 if evaluate(when, position).met else 0.0
            times = turns if timing == "end_of_turn" else 1
            margin += sign[owner] * float(award.get("amount", 0)) * times * chance
        mean = self._mean_oil()
        for area, marker in self.oil.items():
            holder = self.forces.control.get(area)
            if marker.destroyed or holder not in sign:
                continue
            kept = 1.0
            if marker.exposed_by == holder:
                chance = (7 - self._sabotage_roll(area, holder)) / 6
                kept = (1 - chance) ** max(0, turns)
            margin += sign[holder] * mean * kept
        return margin

    def _holds_chance(self, side: str, area: str, shares: dict[str, float]) -> float:
        holder = self.forces.control.get(area)
        share = shares.get(area)
        if holder == side:
            return 1.0 if share is None else share
        return 0.0 if share is None else 1 - share

    def _sabotage_roll(self, area: str, holder: str) -> int:
        rule = self.system.rules.get("oil_sabotage") or {}
        enemy_there = self.forces.has(area, self.enemy(holder))
        return int(rule.get("with_enemy_units" if enemy_there else "without_enemy_units", 6))

    def _mean_oil(self) -> float:
        """The mean value of the oil-field markers drawn from (§3.0(5)): face down, a marker's
        value is not known to the players."""
        found = getattr(self, "_oil_mean", None)
        if found is None:
            values = []
            for _, draw in self.system.scenario.entities("setup", "draws"):
                for marker_id in draw.get("from") or []:
                    marker = self.system.index.markers.get(marker_id)
                    if marker is not None and marker.data.get("kind") == "oil_field":
                        values += [float(marker.data.get("value", 0))] * int(marker.data.get("count", 1))
            found = sum(values) / len(values) if values else 0.0
            self._oil_mean = found
        return found

    def _contested_shares(self) -> dict[str, float]:
        """Land area -> the chance its holder keeps it, where both sides' land units stand:
        the attacker's expected hits per attack (§11.1) against the points that would drive
        every defender out (twice the durability of a ready unit, once that of a used one,
        §11.31), more likely with more turns left and when the defenders cannot recover (§12)."""
        found = {}
        for area, (_, features) in self.contested().items():
            odds = sum(weight * value for weight, value in zip(CAPTURE, features, strict=True))
            found[area] = 1 - 1 / (1 + math.exp(-odds))
        return found

    def contested(self) -> dict[str, tuple[str, tuple[float, float, float, float]]]:
        """Land area -> (its holder, what its capture turns on) where both sides' land units
        stand: 1, the attacker's expected hits per attack over the points that drive every
        defender out, whether the defenders can recover (a line of communication, §12, or
        the supply leader among them, §16.2(1)②), the turns left (the terms of CAPTURE, in
        order; benchmarks/gj69_capture_fit.py fits them to games)."""
        found = {}
        profiles = self.profiles
        left = self.last_turn - self.turn + 1
        recovering = {side: self.recovering(side) for side in self.sides}
        for area, stacks in self.forces.units.items():
            if not self.board.areas[area].land:
                continue
            holder = self.forces.control.get(area)
            hits = need = 0.0
            sides = set()
            for (unit, face), n in stacks.items():
                profile = profiles[unit]
                if not n or profile.domain != "land":
                    continue
                sides.add(profile.side)
                if profile.side == holder:
                    need += n * profile.durability * (2 if face == READY else 1)
                else:
                    hits += n * profile.attack / 6
            if len(sides) == 2 and holder is not None and holder in sides:
                recover = area in recovering[holder]
                found[area] = (holder, (1.0, hits / max(1.0, need), float(recover), float(left)))
        return found


def _one_area(when: dict, owner: str) -> str | None:
    """The area of a condition 'the owner controls this one area', else None."""
    body = when.get("controls") if len(when) == 1 else None
    if isinstance(body, dict) and set(body) <= {"owner", "spaces"} and body.get("owner") == owner \
            and isinstance(body.get("spaces"), list) and len(body["spaces"]) == 1:
        return body["spaces"][0]
    return None
