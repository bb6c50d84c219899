"""The OCS facility charts as resolvers: barrage against airbases, ports and trains (10.0c) and
port damage (19.0b)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..options import setting
from ..resolvers import ChartAnswer, collect, repeated
from ..system import EngineError
from .chart import OCSChart, count_between, plural
from .charts import nearest_whole, range_index, whole_strength

MOST_PORT_HITS = 4      # 10.0c: a port takes at most 4 hits
LOWEST_AIRBASE = 1      # 10.0c: a barrage leaves an airbase at level 1 at the lowest


@dataclass(frozen=True)
class FacilityBarrageInputs:
    strength: float = setting(1.0, "barrage strength of the mission; picks the column")
    target: str = setting("airbase", "airbase: levels lost and the aircraft there hit; port: "
                          "hits; trainbusting: whether it succeeds", ("airbase", "port", "trainbusting"))
    airbase_level: int = setting(1, "level of the target airbase (a barrage leaves it at 1 at "
                                 "the lowest)")
    aircraft: int = setting(0, "aircraft at the target airbase; each rolls a die against (#)")
    port_hits: int = setting(0, "hits already on the target port (at most 4)")


class FacilityBarrage(OCSChart):
    """One die in the column of the barrage strength: levels or hits, trainbusting, and a die
    for each aircraft at a target airbase against the number in brackets."""

    id = "facility-barrage"
    inputs = FacilityBarrageInputs

    def answer(self, chosen: FacilityBarrageInputs) -> ChartAnswer:
        if not chosen.strength > 0 or not math.isfinite(chosen.strength):
            raise EngineError(f"a barrage needs a strength above 0, not {chosen.strength}")
        count_between("aircraft", chosen.aircraft)
        count_between("airbase-level", chosen.airbase_level)
        count_between("port-hits", chosen.port_hits, 0, MOST_PORT_HITS)
        strengths = self.charts.axis(self.id, "strength")
        read_as = whole_strength(chosen.strength)
        column = range_index(strengths, read_as)
        cells = self.charts.cells(self.id)[column]
        rolls = self.charts.value_ids(self.id, "roll")
        cost = self.charts.cells("facility-barrage-cost")[
            range_index(self.charts.axis("facility-barrage-cost", "strength"), read_as)]
        cases = []
        for die, p in self.charts.dice(self.id).items():
            cell = cells[rolls.index(str(die))]
            cases += [(p * q, text, data) for q, text, data in self._effects(cell, chosen)]
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [
            ("column", f"{strengths[column].get('name', strengths[column]['id'])} "
                       f"(strength {chosen.strength:g}"
                       + (f", read as {read_as}" if read_as != chosen.strength else "") + ")"),
            ("supply spent", f"{cost['tokens']}T")])

    def _effects(self, cell: dict, chosen: FacilityBarrageInputs):
        """(chance, text, data) of what one cell does to the chosen target."""
        hits = int(cell.get("hits", 0))
        if chosen.target == "trainbusting":
            done = bool(cell.get("trainbusting"))
            yield Fraction(1), "trainbusting succeeds" if done else "trainbusting fails", \
                {"trainbusting": done}
        elif chosen.target == "port":
            after = min(chosen.port_hits + hits, MOST_PORT_HITS)
            percent = port_capacity(self.charts, after)
            text = (f"port hits {chosen.port_hits} -> {after}, capacity {percent}%" if after != chosen.port_hits
                    else f"no new hit on the port (capacity {percent}%)")
            yield Fraction(1), text, {"port_hits": after, "capacity_percent": percent}
        else:
            level = chosen.airbase_level
            after = max(min(level, LOWEST_AIRBASE), level - hits)
            needed = cell.get("aircraft")
            chance = Fraction(max(0, 7 - int(needed)), 6) if needed else Fraction(0)
            for hit, q in repeated(chance, chosen.aircraft).items():
                text = (f"airbase level {level} -> {after}" if after != level else
                        f"airbase stays at level {level}")
                if chosen.aircraft:
                    text += f", {hit} of {plural(chosen.aircraft, 'aircraft', 'aircraft')} hit"
                yield q, text, {"airbase_level": after, "aircraft_hit": hit}


def port_capacity(charts, hits: int) -> int:
    """The percentage of its capacity a port keeps with this many hits (19.0b); 100 undamaged."""
    if hits <= 0:
        return 100
    values = charts.value_ids("port-damage", "hits")
    return int(charts.cells("port-damage")[values.index(str(min(hits, len(values))))]["percent"])


@dataclass(frozen=True)
class PortDamageInputs:
    hits: int = setting(1, "hits on the port (a port takes at most 4)")
    capacity: float = setting(1.0, "the undamaged port's capacity in SP")


class PortDamage(OCSChart):
    """A damaged port's capacity falls to the chart's percentage, rounded to the nearest T
    (ports with a damage track printed on the map use their track instead)."""

    id = "port-damage"
    inputs = PortDamageInputs

    def answer(self, chosen: PortDamageInputs) -> ChartAnswer:
        count_between("hits", chosen.hits, 0, MOST_PORT_HITS)
        if not 0 <= chosen.capacity <= 1000 or not math.isfinite(chosen.capacity):
            raise EngineError(f"capacity is a number of SP from 0 to 1000, not {chosen.capacity}")
        percent = port_capacity(self.charts, chosen.hits)
        per_sp = int(self.rules.get("tokens_per_sp", 4))
        full = Fraction(str(chosen.capacity)) * per_sp
        left = nearest_whole(full * percent / 100)
        text = f"capacity {percent}%: {left}T of {_tokens(full)}T"
        return ChartAnswer(self.id, self.title, self.source, {}, collect(
            [(Fraction(1), text, {"capacity_percent": percent, "capacity_tokens": left})]), [
            ("capacity", f"{chosen.capacity:g} SP x {per_sp}T = {_tokens(full)}T; what is left is "
             "rounded to the nearest T"),
            ("exception", "ports with a damage track printed on the map follow their track")])


def _tokens(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
