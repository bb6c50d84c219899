"""The end of a turn and of the game (§4.0(4), §12, §15, §17.3): oil-field destruction,
recovery, and victory points, the objectives evaluated on the game's position by
validators/conditions.py, the one evaluator.

`Scoring` is a part of GJ69Game (game.py).
"""
from __future__ import annotations

from validators.conditions import evaluate

from .core import GameCore
from .damage import READY, USED

VP_SERIES = "VP"          # the chronicle's series of each side's VP at the end of each turn


class Scoring(GameCore):
    """The end of the turn and of the game, as part of GJ69Game."""

    def _end_of_turn(self) -> None:
        self._oil_destruction()
        self._recovery()
        for deck in self.decks.values():
            deck.new_turn()
        self._score_objectives("end_of_turn")
        self._holidays()
        for side in self.sides:
            self.chronicle.record(VP_SERIES, side, self.turn, self.vp[side])
            self.chronicle.record("VP of the land areas held", side, self.turn, self._area_vp(side))
            self.chronicle.record("units on the map", side, self.turn, self._units_on_map(side))

    def _oil_destruction(self) -> None:
        """§4.0(4)①: each turned-over oil-field marker in an area its side holds is destroyed on
        a die of 5 or more, 6 or more with enemy units there."""
        rule = self.system.rules.get("oil_sabotage") or {}
        for area, marker in sorted(self.oil.items()):
            side = marker.exposed_by
            if not side or marker.destroyed or self.forces.control.get(area) != side:
                continue
            enemy_there = self.forces.has(area, self.enemy(side))
            needed = int(rule.get("with_enemy_units" if enemy_there else "without_enemy_units", 6))
            if int(self.rng.integers(1, 7)) >= needed:
                marker.destroyed = True

    def _recovery(self) -> None:
        """§12: units in areas with a line of communication to their supply source turn ready;
        all units in the supply leader's area too (§16.2(1)②)."""
        for side in self.sides:
            for area in sorted(self.recovering(side)):
                for unit, face, n in self.forces.stacks(area, side):
                    if face == USED:
                        self.forces.turn(area, unit, READY, n)

    def _score_objectives(self, timing: str) -> None:
        position = self.position()
        for objective_id, entity in self.system.index.objectives.items():
            data = entity.data
            award = data.get("award") or {}
            if data.get("timing") != timing or award.get("resource", "vp") != "vp":
                continue
            if isinstance(data.get("when"), dict) and evaluate(data["when"], position).met:
                side = self.system.side_of(data.get("owner", "")) or data.get("owner")
                self._score(side, float(award.get("amount", 0)), objective_id)

    def _holidays(self) -> None:
        """§17.3: on the holiday turns, Japan scores for each fortress area it has taken since
        the last holiday, and loses for each the Allies have retaken from it."""
        changes = self.rules.holidays(self.turn)
        if not changes:
            return
        now = self._fortress_control()
        for change in changes:
            side = change["side"]
            enemy = self.enemy(side)
            if change["per"] == "captured_fortress":
                areas = [a for a, holder in now.items()
                         if holder == side and self._holiday_control.get(a) != side]
            else:
                areas = [a for a, holder in now.items() if holder == enemy
                         and side in self._held_since_holiday.get(a, set())]
            for area in areas:
                self._score(side, float(change["amount"]),
                            f"holiday: {self.system.name_of(area)} (§17.3)")
        self._holiday_control = now
        self._held_since_holiday = self._holders_now()

    def _end_of_game(self) -> None:
        """§15.0(2)-(3): the VP of the land areas each side holds, and of the oil-field
        markers left in them."""
        self._score_objectives("end_of_game")
        for area, marker in sorted(self.oil.items()):
            holder = self.forces.control.get(area)
            if not marker.destroyed and holder:
                self._score(holder, marker.value, f"oil field: {self.system.name_of(area)} (§15.0(3))")
        for side in self.sides:
            self.chronicle.record(VP_SERIES, side, self.turn, self.vp[side])

    def _area_vp(self, side: str) -> float:
        return sum(a.value for a in self.board.areas.values()
                   if a.land and self.forces.control.get(a.id) == side)

    def _units_on_map(self, side: str) -> float:
        return float(sum(n for stacks in self.forces.units.values() for (u, _), n in stacks.items()
                         if self.forces.sides[u] == side))

