"""An OCS barrage (charts 10.0a): strength column, column shifts, one roll for the target hex.

Shifts: the target hex's density in RE (combat units only; units other than multi-step units
count at most 3 RE in all), a hedgehog, close or extremely close terrain, no spotter, a unit in
strategic mode, aircraft near their airbase or beyond half range (optional rule 21.4). Results:
"-" nothing, DG, "#" steps and DG, "1/2" a die (4-6: a step and DG, otherwise DG), "[1/2]" DG
when the target is in a level 3 or 4 hedgehog, the barrage is by aircraft or ships, or has no
spotter; ships firing at ground targets have their results reduced (18.3b).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..system import ATTACKER_WINS, DEFENDER_WINS, DRAW, EngineError
from .charts import Charts, in_range
from .combat import TWO_DICE, Force, ordered
from .position import BARRAGE_KINDS, OCSPosition


@dataclass
class BarrageEnd:
    result: int                  # ATTACKER_WINS: steps lost; DRAW: DG only; DEFENDER_WINS: no effect
    column: int                  # 1-based, after the shifts
    printed: str
    steps_lost: int
    disorganized: bool
    defender_left: dict[str, int]
    events: list[str] = field(default_factory=list)


class Barrage:
    def __init__(self, charts: Charts, profiles, position: OCSPosition, terrain: str,
                 optional_rules: set[str]):
        if position.barrage_by not in BARRAGE_KINDS:
            raise EngineError(f"barrage_by is one of {', '.join(BARRAGE_KINDS)}")
        if position.hedgehog < 0:
            raise EngineError(f"hedgehog is a level of 0 (none) or more, not {position.hedgehog}")
        self.charts, self.position = charts, position
        firing: dict[str, int] = {}
        for contingent in position.attackers:
            for unit, count in contingent.units.items():
                firing[unit] = firing.get(unit, 0) + count
        self.strength = sum(profiles[u].barrage * n for u, n in firing.items())
        if self.strength <= 0:
            raise EngineError("a barrage needs units with a barrage strength")
        target: dict[str, int] = {}
        for contingent in position.defenders:
            for unit, count in contingent.units.items():
                if count:
                    target[unit] = target.get(unit, 0) + count
        if not target:
            raise EngineError("a barrage needs units in the target hex")
        self.target = Force(ordered(target, profiles, position.policy))
        self.density = density(self.target)
        self.shifts = self._shifts(terrain, optional_rules)
        self.printed_column = charts.barrage_column(self.strength)
        self.column = min(max(self.printed_column + sum(s for _, s in self.shifts), 0),
                          charts.barrage_columns() - 1)

    def supply(self) -> int:
        """Tokens the barrage spends, by its strength (10.0a)."""
        return self.charts.barrage_cost(self.strength)

    def _shifts(self, terrain: str, optional_rules: set[str]) -> list[tuple[str, int]]:
        mods = self.charts.modifiers("barrage")
        position = self.position
        found = [(m.id, m.shift) for m in mods.values()
                 if m.group == "density" and m.bounds and in_range(float(self.density), m.bounds)]
        wanted = []
        if position.hedgehog:
            wanted.append("hedgehog")
        if terrain in ("close", "very-close"):
            wanted.append("close-terrain")
        if terrain == "extremely-close":
            wanted.append("extremely-close-terrain")
        if not position.spotter:
            wanted.append("no-spotter")
        if position.strategic_in_hex:
            wanted.append("strategic-mode")
        if position.barrage_by == "air" and position.near_airbase:
            wanted.append("near-airbase")
        half_range_rule = ("optional-21-4" in optional_rules if position.optional_21_4 is None
                           else position.optional_21_4)
        if position.barrage_by == "air" and position.beyond_half_range and half_range_rule:
            wanted.append("beyond-half-range")
        found += [(name, mods[name].shift) for name in wanted]
        return found

    def outcome(self, roll: int, half_die: int) -> BarrageEnd:
        cell = self.charts.barrage_result(self.column, roll)
        printed = str(cell.get("printed", ""))
        events = [f"{printed} at column {self.column + 1}, roll {roll}"]
        if self.position.barrage_by == "ship":
            reduced = self.charts.ship_barrage(printed)
            if reduced is not None:
                cell = reduced
                events.append(f"a ship's barrage against a ground target: {printed} reads "
                              f"{reduced.get('printed')}")
        effect = cell.get("effect")
        if effect == "half" and cell.get("bracketed") and (
                self.position.hedgehog >= 3 or self.position.barrage_by in ("air", "ship")
                or not self.position.spotter):
            effect = "disorganized"
            events.append("[1/2] counts as DG")
        if effect == "half":
            cell = self.charts.barrage_half(half_die)
            effect = cell.get("effect")
            events.append(f"1/2: the die shows {half_die}, {cell.get('printed')}")
        steps = int(cell.get("steps", 0)) if effect == "steps" else 0
        left, lost = self.target.take_steps(steps)
        disorganized = effect in ("steps", "disorganized") and bool(left)
        result = ATTACKER_WINS if lost else (DRAW if disorganized else DEFENDER_WINS)
        return BarrageEnd(result, self.column + 1, printed, lost, disorganized, left, events)

    def cases(self):
        for roll, p_roll in TWO_DICE.items():
            for die in range(1, 7):
                yield p_roll * Fraction(1, 6), self.outcome(roll, die)


def density(target: Force) -> Fraction:
    """RE in the hex: multi-step units count in full, other units at most 3 RE in all."""
    multi = sum(Fraction(str(p.re)) * n for p, n in target.units if p.steps > 1)
    single = sum(Fraction(str(p.re)) * n for p, n in target.units if p.steps <= 1)
    return Fraction(multi + min(single, Fraction(3)))
