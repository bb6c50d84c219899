"""The OCS air charts as resolvers: air combat and its loss roll (14.3e), flak (14.4e) with the
mission loss table (14.4f), air transport (14.10d) and airbase capture (9.14f).

Every number comes from tables.yaml: the roll ranges of each result and the modifiers by id.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from ..options import setting
from ..resolvers import ChartAnswer, collect, convolve, repeated, signed
from ..system import EngineError
from .chart import OCSChart, count_between, plural
from .charts import in_range, range_index
from .position import TERRAINS

MISSIONS = ("barrage", "strafing", "trainbusting", "air-transport", "base-transfer",
            "fighter-sweep", "interception")
RULE_21_4 = "optional rule 21.4 (aircraft beyond half range); none: the scenario's option"


def _modified(applied: list[tuple[str, int]]) -> str:
    """'+1 (HQ +1, airbase level +0)': the total of the modifiers that apply, and each."""
    total = sum(value for _, value in applied)
    named = ", ".join(f"{name} {signed(value)}" for name, value in applied)
    return f"{signed(total)}" + (f" ({named})" if named else "")


# -- air combat (14.3e) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class AirCombatInputs:
    attacker_air: int = setting(0, "air combat rating of the attacking aircraft (added)")
    defender_air: int = setting(0, "air combat rating of the defending aircraft (subtracted)")
    beyond_half_range: bool = setting(False, "the attacking aircraft flew more than half their "
                                      "range: -1 under optional rule 21.4")
    optional_21_4: bool | None = setting(None, RULE_21_4)


class AirCombat(OCSChart):
    """2d6 plus the attacker's rating, minus the defender's: who returns; then one die for each
    returning side on the loss roll (5-6 loses a step), without the modifiers."""

    id = "air-combat"
    inputs = AirCombatInputs

    def answer(self, chosen: AirCombatInputs) -> ChartAnswer:
        mods = self.charts.modifiers(self.id)
        applied = [("attacker's rating", mods["attacker-air-rating"].roll * chosen.attacker_air),
                   ("defender's rating", mods["defender-air-rating"].roll * chosen.defender_air)]
        if chosen.beyond_half_range and self.rule_in_force("optional-21-4", chosen.optional_21_4):
            applied.append(("beyond half range", mods["beyond-half-range"].roll))
        modifier = sum(value for _, value in applied)
        rows, cells = self.charts.axis(self.id, "roll"), self.charts.cells(self.id)
        losses = loss_roll(self.charts)
        cases = []
        for total, p in self.charts.dice(self.id).items():
            cell = cells[range_index(rows, total + modifier)]
            returning = list(cell["returns"])
            for rolled in product(losses.items(), repeat=len(returning)):
                lost = {side: steps for side, (steps, _) in zip(returning, rolled, strict=True)}
                chance = p
                for _, q in rolled:
                    chance *= q
                cases.append((chance, _air_combat_text(cell["printed"], lost),
                              {"returns": returning,
                               "attacker_steps_lost": lost.get("attacker", 0),
                               "defender_steps_lost": lost.get("defender", 0)}))
        loss_rows = self.charts.axis("air-combat-loss", "roll")
        loss_cells = self.charts.cells("air-combat-loss")
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [
            ("modified roll", "2d6 " + _modified(applied)),
            ("loss roll", "1d6 for each side that returns, without the modifiers: " + ", ".join(
                f"{row['id']} {cell['printed'].lower()}" for row, cell in zip(loss_rows, loss_cells, strict=True)))])


def loss_roll(charts) -> dict[int, Fraction]:
    """Steps lost on the air combat loss roll -> probability."""
    rows, cells = charts.axis("air-combat-loss", "roll"), charts.cells("air-combat-loss")
    found: dict[int, Fraction] = {}
    for die, p in charts.dice("air-combat-loss").items():
        steps = int(cells[range_index(rows, die)]["steps"])
        found[steps] = found.get(steps, Fraction(0)) + p
    return found


def _air_combat_text(printed: str, lost: dict[str, int]) -> str:
    if len(lost) == 1:
        (steps,) = lost.values()
        return f"{printed}: " + ("loses 1 step" if steps == 1 else
                                 "no loss" if steps == 0 else f"loses {steps} steps")
    return f"{printed}: " + ", ".join(
        f"{side} " + ("no loss" if steps == 0 else plural(steps, "step") + " lost")
        for side, steps in lost.items())


# -- flak (14.4e) and mission loss (14.4f) -------------------------------------------------------------
@dataclass(frozen=True)
class FlakInputs:
    mission: str = setting("barrage", "the air mission; flak is rolled always, only in an enemy "
                           "patrol zone, or never, by mission", MISSIONS)
    aircraft: int = setting(1, "aircraft units in the mission (3 or more: +1)")
    fighter: bool = setting(False, "the mission includes at least one fighter")
    headquarters: bool = setting(False, "the target hex holds one or more HQs (+1)")
    airbase_level: int | None = setting(None, "level of an airbase in the target hex, added (an "
                                        "air strip is 0); none: no airbase")
    printed_flak: int = setting(0, "flak printed on the map in the target hex plus the flak of "
                                "the ships there, added")
    patrol_zone: bool = setting(False, "the target is in an enemy patrol zone (+1 with a fighter "
                                "in the mission, +2 without; +1 more for trainbusting)")


class Flak(OCSChart):
    """2d6 plus the flak modifiers: 11 or more and the mission loses a step, taken by the
    aircraft the mission loss table picks."""

    id = "flak"
    inputs = FlakInputs

    def answer(self, chosen: FlakInputs) -> ChartAnswer:
        count_between("aircraft", chosen.aircraft, 1)
        if chosen.airbase_level is not None and chosen.airbase_level < 0:
            raise EngineError(f"airbase-level is 0 (an air strip) or more, not {chosen.airbase_level}")
        if chosen.printed_flak < 0:
            raise EngineError(f"printed-flak is 0 or more, not {chosen.printed_flak}")
        missions = self.charts.value_ids("flak-missions", "mission")
        when = self.charts.cells("flak-missions")[self.charts.index_of("flak-missions", "mission",
                                                                        chosen.mission)]
        rolled = when["flak"] == "always" or (when["flak"] == "patrol-zone" and chosen.patrol_zone)
        working = [("flak rolled", f"{when['printed'].lower()} for {chosen.mission} "
                    f"(missions: {', '.join(missions)})")]
        if not rolled:
            return ChartAnswer(self.id, self.title, self.source, {}, collect(
                [(Fraction(1), "no flak roll", {"rolled": False, "steps_lost": 0, "aircraft": None})]),
                working)
        applied = self._modifiers(chosen)
        modifier = sum(value for _, value in applied)
        rows, cells = self.charts.axis(self.id, "roll"), self.charts.cells(self.id)
        picks = mission_loss(self.charts, chosen.aircraft)
        cases: list[tuple] = []
        for total, p in self.charts.dice(self.id).items():
            steps = int(cells[range_index(rows, total + modifier)]["steps"])
            if not steps:
                cases.append((p, "no loss", {"rolled": True, "steps_lost": 0, "aircraft": None}))
                continue
            if picks is None:
                cases.append((p, "the mission loses 1 step",
                              {"rolled": True, "steps_lost": steps, "aircraft": None}))
                continue
            for (printed, aircraft), q in picks.items():
                cases.append((p * q, f"{_aircraft_text(printed)} loses 1 step",
                              {"rolled": True, "steps_lost": steps, "aircraft": aircraft}))
        working.append(("modified roll", "2d6 " + _modified(applied) + ": 11 or more loses 1 step"))
        working.append(("which aircraft", "the mission loss table (14.4f)" if picks is not None else
                        f"not given: the mission loss table has rows for "
                        f"{', '.join(self.charts.value_ids('mission-loss', 'aircraft'))} aircraft"))
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), working)

    def _modifiers(self, chosen: FlakInputs) -> list[tuple[str, int]]:
        mods = self.charts.modifiers(self.id)
        applied = []
        if chosen.aircraft >= 3:
            applied.append(("3 or more aircraft", mods["three-aircraft"].roll))
        if chosen.headquarters:
            applied.append(("HQ", mods["headquarters"].roll))
        if chosen.airbase_level is not None:
            applied.append(("airbase level", mods["airbase-level"].roll * chosen.airbase_level))
        if chosen.printed_flak:
            applied.append(("printed flak", mods["printed-flak"].roll * chosen.printed_flak))
        if chosen.patrol_zone:
            zone = "patrol-zone-with-fighter" if chosen.fighter else "patrol-zone-without-fighter"
            applied.append(("patrol zone " + ("with a fighter" if chosen.fighter else "without a fighter"),
                            mods[zone].roll))
            if chosen.mission == "trainbusting":
                applied.append(("trainbusting in a patrol zone", mods["patrol-zone-trainbusting"].roll))
        return applied


def mission_loss(charts, aircraft: int) -> dict[tuple[str, object], Fraction] | None:
    """(printed, aircraft) -> probability of the aircraft that takes the step: one die on the
    mission's row (14.4f); a mission of one aircraft needs no roll. None when the table has no
    row for the mission's size."""
    if aircraft == 1:
        return {("#1", 1): Fraction(1)}
    sizes = charts.value_ids("mission-loss", "aircraft")
    if str(aircraft) not in sizes:
        return None
    row = charts.cells("mission-loss")[sizes.index(str(aircraft))]
    found: dict[tuple[str, object], Fraction] = {}
    for die, p in charts.dice("mission-loss").items():
        cell = row[charts.index_of("mission-loss", "roll", die)]
        key = (cell["printed"], cell["aircraft"])
        found[key] = found.get(key, Fraction(0)) + p
    return found


def _aircraft_text(printed: str) -> str:
    return {"W": "the weakest aircraft (by barrage rating)",
            "S": "the strongest aircraft (by barrage rating)"}.get(printed, f"aircraft {printed} of the stack")


@dataclass(frozen=True)
class MissionLossInputs:
    aircraft: int = setting(2, "aircraft units in the mission; the chart has rows for 2, 3 and 4")


class MissionLoss(OCSChart):
    """One die on the mission's row: the aircraft that takes the step."""

    id = "mission-loss"
    inputs = MissionLossInputs

    def answer(self, chosen: MissionLossInputs) -> ChartAnswer:
        count_between("aircraft", chosen.aircraft, 1)
        picks = mission_loss(self.charts, chosen.aircraft)
        if picks is None:
            raise EngineError(f"the mission loss table has rows for "
                              f"{', '.join(self.charts.value_ids(self.id, 'aircraft'))} aircraft, "
                              f"not {chosen.aircraft}")
        cases = [(p, f"{_aircraft_text(printed)} takes the step", {"aircraft": aircraft})
                 for (printed, aircraft), p in picks.items()]
        roll = "none: the only aircraft takes it" if chosen.aircraft == 1 else \
            f"1d6 on the row for {chosen.aircraft} aircraft"
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [("roll", roll)])


# -- air transport (14.10d) ------------------------------------------------------------------------
@dataclass(frozen=True)
class AirTransportInputs:
    hex: str = setting("friendly", "friendly: friendly units were in the target hex at the start "
                       "of the phase; enemy: any other hex", ("friendly", "enemy"))
    terrain: str = setting("open", "terrain of the target hex (village counts as open)", TERRAINS)
    airbase: bool = setting(False, "the target hex has an airbase: it counts as open")
    allied_drop_europe: bool = setting(False, "an Allied air drop in Europe in August 1944 or "
                                       "earlier (-1)")
    soviet_drop: bool = setting(False, "a Soviet air drop, at any time (-1)")
    glider: bool = setting(False, "a glider landing (+1)")
    optional_21_12e: bool | None = setting(
        None, "optional rule 21.12e: very close terrain -1, extremely close -2; none: the "
        "scenario's option")


class AirTransport(OCSChart):
    """2d6 plus the modifiers against the target hex's row: friendly or enemy, open or close."""

    id = "air-transport"
    inputs = AirTransportInputs

    def answer(self, chosen: AirTransportInputs) -> ChartAnswer:
        kind = "open" if chosen.terrain == "open" or chosen.airbase else "close"
        row = self.charts.cells(self.id)[self.charts.index_of(self.id, "hex", chosen.hex)]
        ranges = row[self.charts.index_of(self.id, "terrain", kind)]
        outcomes = [v["result"] for v in self.charts.axis(self.id, "outcome")]
        mods = self.charts.modifiers(self.id)
        applied = [(name, mods[key].roll) for key, name, wanted in (
            ("allied-drop-europe", "Allied drop in Europe to August 1944", chosen.allied_drop_europe),
            ("soviet-drop", "Soviet drop", chosen.soviet_drop),
            ("glider", "glider landing", chosen.glider)) if wanted]
        if chosen.terrain in ("very-close", "extremely-close") \
                and self.rule_in_force("optional-21-12e", chosen.optional_21_12e):
            applied.append((f"{chosen.terrain.replace('-', ' ')} terrain (21.12e)",
                            mods[chosen.terrain].roll))
        modifier = sum(value for _, value in applied)
        cases = []
        for total, p in self.charts.dice(self.id).items():
            found = next((o for o, cell in zip(outcomes, ranges, strict=True) if in_range(total + modifier, cell)),
                         None)
            if found is None:
                raise EngineError(f"the {self.id} table gives no result for a roll of {total + modifier}")
            cases.append((p, "success" if found["success"] else "failure",
                          {"success": bool(found["success"])}))
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), [
            ("row", f"{chosen.hex} hex, {kind} terrain: " + ", ".join(
                f"{o['id']} {c['printed']}"
                for o, c in zip(self.charts.axis(self.id, "outcome"), ranges, strict=True))),
            ("modified roll", "2d6 " + _modified(applied))])


# -- airbase capture (9.14f) -----------------------------------------------------------------------
@dataclass(frozen=True)
class AirbaseCaptureInputs:
    aircraft: int = setting(1, "aircraft units at the captured airbase, each rolled for")
    active: int = setting(0, "how many of them are active (+2 each)")
    advance_after_combat: bool = setting(False, "the airbase was captured by an advance after "
                                         "combat (+2)")


class AirbaseCapture(OCSChart):
    """2d6 for each aircraft at the airbase: 6 or less (after +2 if active, +2 if captured by an
    advance after combat) loses a step. Every aircraft left transfers within twice its range
    and becomes inactive."""

    id = "airbase-capture"
    inputs = AirbaseCaptureInputs

    def answer(self, chosen: AirbaseCaptureInputs) -> ChartAnswer:
        count_between("aircraft", chosen.aircraft, 1)
        count_between("active", chosen.active, 0, chosen.aircraft)
        mods = self.charts.modifiers(self.id)
        common = [("advance after combat", mods["advance-after-combat"].roll)] \
            if chosen.advance_after_combat else []
        rows, cells = self.charts.axis(self.id, "roll"), self.charts.cells(self.id)
        working, chances = [], {}
        for label, applied in (("an inactive aircraft", common),
                               ("an active aircraft", [("active", mods["active"].roll)] + common)):
            modifier = sum(value for _, value in applied)
            chance = sum((p for total, p in self.charts.dice(self.id).items()
                          if cells[range_index(rows, total + modifier)]["steps"]), Fraction(0))
            chances[label] = chance
            working.append((label, f"2d6 {_modified(applied)}: loses a step with chance {chance}"))
        lost = convolve(repeated(chances["an active aircraft"], chosen.active),
                        repeated(chances["an inactive aircraft"], chosen.aircraft - chosen.active))
        working.append(("then", "every aircraft left transfers to an airbase within twice its "
                        "range and becomes inactive"))
        cases = [(p, "no aircraft loses a step" if k == 0 else
                  f"{plural(k, 'aircraft', 'aircraft')} {'loses' if k == 1 else 'lose'} a step",
                  {"steps_lost": k}) for k, p in lost.items()]
        return ChartAnswer(self.id, self.title, self.source, {}, collect(cases), working)
