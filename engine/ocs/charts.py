"""The OCS charts as the combat procedure reads them: parsed cells of tables.yaml, by id.

Nothing is parsed from printed text here: every cell of the charts already carries its
structured result (`attacker: {loss: 1, option: 1}`, `effect: steps`), and the axes carry their
ranges (`min`/`max`). This module only finds cells and ranges.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..resolvers import dice_of
from ..system import EngineError


def in_range(value: float, bounds: dict) -> bool:
    """Whether a number lies in an axis value's or a cell's `min`..`max` (either may be open)."""
    return ((bounds.get("min") is None or value >= bounds["min"])
            and (bounds.get("max") is None or value <= bounds["max"])
            and (bounds.get("more_than") is None or value > bounds["more_than"])
            and (bounds.get("at_most") is None or value <= bounds["at_most"]))


def range_index(values: list, value: float) -> int:
    """The index of the axis value whose range holds `value`, clamped to the axis's ends; a
    value between two ranges (a fraction on an axis of whole numbers) is refused: a caller
    rounds it first (`whole_strength`)."""
    for i, bounds in enumerate(values):
        if in_range(value, bounds):
            return i
    first, last = values[0], values[-1]
    if first.get("min") is not None and value < first["min"]:
        return 0
    if last.get("max") is not None and value > last["max"]:
        return len(values) - 1
    raise EngineError(f"{value:g} lies between the chart's ranges ("
                      + ", ".join(str(v.get("name", v.get("id"))) for v in values) + ")")


def nearest_whole(value) -> int:
    """Rounded to the nearest whole number, halves up: the chart sheet's one rounding rule
    (19.0b, "取整到最近的T值")."""
    return math.floor(Fraction(str(value)) + Fraction(1, 2))


def whole_strength(strength) -> int:
    """A barrage strength as the barrage and facility barrage tables read it (10.0a, 10.0c):
    their columns are whole numbers ("3-4", "5-7"), and the sheet lets a fraction stand only
    for the hex's density ("格中的RE数量(不要取整)": RE in the hex, not rounded); a fractional
    strength is rounded by the sheet's rule, to the nearest whole number (4.5 reads 5-7)."""
    return nearest_whole(strength)


@dataclass(frozen=True)
class Modifier:
    id: str
    roll: int = 0
    shift: int = 0
    group: str | None = None
    bounds: dict | None = None     # more_than / at_most, for density


class Charts:
    """The tables of an OCS scenario, by id."""

    def __init__(self, scenario):
        tables = (scenario.doc("tables") or {}).get("tables") or []
        self.tables = {t["id"]: t for t in tables if isinstance(t, dict) and isinstance(t.get("id"), str)}

    def table(self, table_id: str) -> dict:
        found = self.tables.get(table_id)
        if found is None:
            raise EngineError(f"the scenario has no {table_id!r} table (tables.yaml)")
        return found

    def axis(self, table_id: str, axis_id: str) -> list:
        for axis in self.table(table_id).get("axes") or []:
            if axis.get("id") == axis_id:
                return list(axis.get("values") or [])
        raise EngineError(f"the {table_id!r} table has no {axis_id!r} axis")

    def modifiers(self, table_id: str) -> dict[str, Modifier]:
        found = {}
        for entry in self.table(table_id).get("modifiers") or []:
            bounds = {k: entry[k] for k in ("more_than", "at_most") if k in entry}
            found[entry["id"]] = Modifier(entry["id"], int(entry.get("roll", 0)),
                                          int(entry.get("shift", 0)), entry.get("group"),
                                          bounds or None)
        return found

    # -- combat --------------------------------------------------------------------------------
    def terrains(self) -> list[str]:
        return [v["id"] for v in self.axis("combat-odds", "terrain")]

    def odds_columns(self, terrain: str) -> list[tuple[int, int]]:
        """(attacker, defender) of each odds column in a terrain row (9.9)."""
        row = self.terrains().index(terrain)
        return [(int(c["attacker"]), int(c["defender"])) for c in self.table("combat-odds")["cells"][row]]

    def combat_rows(self) -> list:
        return self.axis("combat-results", "roll")

    def combat_result(self, terrain: str, column: int, roll_row: int) -> dict:
        """The structured result at a terrain row, odds column (0-based) and roll row."""
        row = self.terrains().index(terrain)
        return self.table("combat-results")["cells"][row][column][roll_row]

    def surprise_ranges(self, attack: str) -> tuple[dict, dict]:
        """The attacker's and the defender's surprise ranges for an overrun or a regular attack (9.8)."""
        kinds = [v["id"] for v in self.axis("surprise", "attack")]
        if attack not in kinds:
            raise EngineError(f"unknown kind of attack {attack!r}; the surprise table knows {', '.join(kinds)}")
        outcomes = [v["result"]["surprise"] for v in self.axis("surprise", "outcome")]
        cells = self.table("surprise")["cells"][kinds.index(attack)]
        ranges = dict(zip(outcomes, cells, strict=True))
        return ranges["attacker"], ranges["defender"]

    def rating_modifiers(self) -> dict[str, dict]:
        """Mode -> {add: n} or {set: n}, for action ratings (9.6)."""
        modes = [v["id"] for v in self.axis("action-rating-modifiers", "mode")]
        return dict(zip(modes, self.table("action-rating-modifiers")["cells"], strict=True))

    def anti_armour(self, attacker_level: str, defender_level: str) -> float:
        """The terrain effect (x2 or x1.5) armour attacking gets against the hex's anti-armour (9.4e)."""
        attackers = [v["id"] for v in self.axis("anti-armour", "attacker")]
        defenders = [v["id"] for v in self.axis("anti-armour", "defender")]
        cell = self.table("anti-armour")["cells"][attackers.index(attacker_level)][defenders.index(defender_level)]
        return float(cell["terrain"])

    # -- barrage -------------------------------------------------------------------------------
    def barrage_column(self, strength: float) -> int:
        return range_index(self.axis("barrage", "strength"), whole_strength(strength))

    def barrage_columns(self) -> int:
        return len(self.axis("barrage", "strength"))

    def barrage_result(self, column: int, roll: int) -> dict:
        rolls = self.axis("barrage", "roll")
        return self.table("barrage")["cells"][column][rolls.index(roll)]

    def barrage_half(self, die: int) -> dict:
        return self.table("barrage-half")["cells"][range_index(self.axis("barrage-half", "roll"), die)]

    def ship_barrage(self, printed: str) -> dict | None:
        """The reduced result of a ship's barrage against a ground target (18.3b), or None when
        the chart does not reduce that result."""
        values = [str(v) for v in self.axis("ship-barrage", "result")]
        if printed not in values:
            return None
        return self.table("ship-barrage")["cells"][values.index(printed)]

    # -- supply --------------------------------------------------------------------------------
    def combat_supply(self, payer: str) -> dict:
        """The combat-supply cell for "attacker", "defender" or "small-defender" (9.5)."""
        payers = [v["id"] for v in self.axis("combat-supply", "side")]
        return self.table("combat-supply")["cells"][payers.index(payer)]

    def barrage_cost(self, strength: float) -> int:
        """Tokens a barrage of this strength spends (10.0a)."""
        cells = self.table("barrage-cost")["cells"]
        return int(cells[range_index(self.axis("barrage-cost", "strength"),
                                     whole_strength(strength))]["tokens"])

    # -- any table -----------------------------------------------------------------------------
    def cells(self, table_id: str) -> list:
        return self.table(table_id).get("cells") or []

    def dice(self, table_id: str) -> dict[int, Fraction]:
        """The distribution of the table's roll (`roll: 2d6`)."""
        return dice_of(self.table(table_id).get("roll", ""))

    def value_ids(self, table_id: str, axis_id: str) -> list[str]:
        return [str(v["id"]) if isinstance(v, dict) else str(v) for v in self.axis(table_id, axis_id)]

    def index_of(self, table_id: str, axis_id: str, value) -> int:
        """The position of a value (by id) on an axis, or EngineError naming the axis's values."""
        ids = self.value_ids(table_id, axis_id)
        if str(value) not in ids:
            raise EngineError(f"the {table_id} table has no {axis_id} {value!r}; it has "
                              + ", ".join(ids))
        return ids.index(str(value))
