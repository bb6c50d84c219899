"""The OCS supply charts as resolvers: attrition (12.8b), capture (9.14b, 9.14c) and supply-dump
destruction (12.11a)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..options import setting
from ..resolvers import ChartAnswer, collect, signed
from ..system import EngineError
from .chart import OCSChart, count_between, plural
from .charts import in_range


@dataclass(frozen=True)
class AttritionInputs:
    rating: int = setting(3, "the highest action rating in the out-of-supply stack (the chart "
                          "has columns 5 to 0)")
    steps: int = setting(2, "steps in the hex (5 or more: +3); the last row loses them all")


class Attrition(OCSChart):
    """2d6 (+3 with 5 or more steps in the hex) in the column of the stack's best action rating."""

    id = "attrition"
    inputs = AttritionInputs

    def answer(self, chosen: AttritionInputs) -> ChartAnswer:
        count_between("steps", chosen.steps, 1)
        column = self.charts.cells(self.id)[self.charts.index_of(self.id, "rating", chosen.rating)]
        results = self.charts.axis(self.id, "result")
        five = self.charts.modifiers(self.id)["five-steps"]
        modifier = five.roll if chosen.steps >= 5 else 0
        cases = []
        for total, p in self.charts.dice(self.id).items():
            modified = total + modifier
            found = next((r for r, cell in zip(results, column, strict=True)
                          if not cell.get("never") and in_range(modified, cell)), None)
            if found is None:
                raise EngineError(f"the attrition table gives no result for a roll of {modified} "
                                  f"at action rating {chosen.rating}")
            printed = found["result"]["steps"]
            lost = chosen.steps if printed == "all" else min(int(printed), chosen.steps)
            text = str(found.get("name", found["id"]))
            if printed == "all":
                text += f" ({plural(lost, 'step')})"
            elif lost < int(printed):
                text += f" ({plural(lost, 'step')}, all there are)"
            cases.append((p, text, {"result": found["id"], "steps_lost": lost}))
        ranges = ", ".join(f"{cell['printed']} {str(r.get('name', r['id'])).lower()}"
                           for r, cell in zip(results, column, strict=True))
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [
            ("column", f"action rating {chosen.rating}: {ranges}"),
            ("modified roll", f"2d6 {signed(modifier)}"
             + (" (5 or more steps in the hex)" if modifier else ""))])


@dataclass(frozen=True)
class CaptureInputs:
    target: str = setting("supply-dump", "what the enemy's attacking units find as they enter "
                          "the hex", ("supply-dump", "trucks", "wagons"))


class Capture(OCSChart):
    """One die: the percentage captured; the rest is destroyed (a supply dump) or moves away
    (trucks up to 10 hexes, wagons up to 5, with the SP they carry)."""

    id = "capture"
    inputs = CaptureInputs

    def answer(self, chosen: CaptureInputs) -> ChartAnswer:
        column = self.charts.index_of(self.id, "target", chosen.target)
        rest = self.charts.axis(self.id, "target")[column]["result"]
        then = "the rest is destroyed" if rest["remainder"] == "destroyed" else \
            f"the rest moves up to {rest['hexes']} hexes"
        rows, cells = self.charts.value_ids(self.id, "roll"), self.charts.cells(self.id)
        cases = []
        for die, p in self.charts.dice(self.id).items():
            percent = int(cells[rows.index(str(die))][column]["percent"])
            cases.append((p, f"{percent}% captured, {then}" if percent < 100 else "all captured",
                          {"percent": percent, **rest}))
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [
            ("roll", "1d6 for each kind of target in the hex"),
            ("vehicles", "captured in the movement phase, they may move at once")])


class SupplyDumpDestruction(OCSChart):
    """One die: the percentage of the dump destroyed; it may be tried in each of the player's
    three movement segments."""

    id = "supply-dump-destruction"

    def answer(self, chosen) -> ChartAnswer:
        rows, cells = self.charts.axis(self.id, "roll"), self.charts.cells(self.id)
        cases = []
        for die, p in self.charts.dice(self.id).items():
            cell = next(c for r, c in zip(rows, cells, strict=True) if in_range(die, r))
            cases.append((p, f"{cell['percent']}% destroyed", {"percent": int(cell["percent"])}))
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [
            ("roll", "1d6; may be tried in each of the player's three movement segments"),
            ("expected", f"{float(sum(Fraction(o[2]['percent']) * o[0] for o in cases)):g}% destroyed")])
