"""The page's formulas, read from scenario.yaml `rules.formulas` and computed exactly.

Every number comes from the scenario: unit power and support from units.yaml, the named
parameters ($M 2000 ransom, $M 20 + $M 10 treaty ...) and the levels a game mode chooses (the
penalty rate) from `rules`. The expression trees are compiled by the same reader the validator
uses to check the page's worked examples, so play and validation cannot disagree; the rules'
names are looked up once, when a game mode's formulas are compiled.
"""
from __future__ import annotations

import math
from fractions import Fraction

from validators.systems.allies_vs_axis_formulas import FormulaError, Values, compile_expression, exact, parameter_value

from ..system import EngineError

REMEMBERED = 50_000


class _Situation:
    """What a compiled formula reads at each call (its rules' names were read when compiled)."""

    __slots__ = ("army", "inputs", "counters")

    def __init__(self, army: dict, inputs: dict, counters: dict):
        self.army, self.inputs, self.counters = army, inputs, counters


class Formulas:
    """The formulas of one scenario, with the game mode's levels chosen."""

    def __init__(self, rules: dict, unit_stats: dict[str, dict], levels: dict[str, str]):
        self.rules = rules
        self.unit_stats = unit_stats
        self.levels = levels          # setting -> level chosen by the game mode
        self._known = Values(
            parameters={name: parameter_value(entry)
                        for name, entry in (rules.get("parameters") or {}).items()},
            unit_stats=unit_stats,
            level_values={name: dict((entry or {}).get("values") or {})
                          for name, entry in (rules.get("levels") or {}).items()},
            levels=dict(levels))
        self._compiled: dict[tuple[str, tuple], object] = {}
        self._power = {unit: exact(stats.get("power", 0)) for unit, stats in unit_stats.items()}
        self._answers: dict[tuple, object] = {}

    def _function(self, formula_id: str, levels: dict[str, str] | None):
        key = (formula_id, tuple(sorted((levels or {}).items())))
        found = self._compiled.get(key)
        if found is None:
            formula = (self.rules.get("formulas") or {}).get(formula_id)
            if not isinstance(formula, dict):
                raise EngineError(f"the scenario has no formula {formula_id!r} in rules.formulas")
            known = self._known
            if levels:
                known = Values(known.parameters, known.unit_stats, known.level_values,
                               {**known.levels, **levels})
            try:
                found = compile_expression(formula.get("value"), known)
            except FormulaError as problem:
                raise EngineError(f"{formula_id}: {problem}") from None
            self._compiled[key] = found
        return found

    def compute(self, formula_id: str, *, army: dict[str, int] | None = None,
                inputs: dict[str, object] | None = None,
                counters: dict[str, int] | None = None,
                levels: dict[str, str] | None = None):
        function = self._function(formula_id, levels)
        try:
            return function(_Situation(army or {}, inputs or {}, counters or {}))
        except FormulaError as problem:
            raise EngineError(f"{formula_id}: {problem}") from None

    # -- the page's formulas, by name --------------------------------------------------------
    def invasion_power(self, army: dict[str, int]):
        return self._of_army("invasion_power", army)

    def defence_power(self, army: dict[str, int]):
        return self._of_army("defence_power", army)

    def _of_army(self, formula_id: str, army: dict[str, int]):
        """A formula of an army alone, remembered: a game asks about the same armies often.
        (Every formula here is a function of its arguments alone, so remembering is safe.)"""
        return self._remembered(formula_id, tuple(army.items()), None,
                                lambda: self.compute(formula_id, army=army))

    def treaty_cost(self, defence_power, treaties_signed: int):
        return self._remembered("treaty_cost", defence_power, treaties_signed, lambda: self.compute(
            "treaty_cost", inputs={"defence_power": defence_power},
            counters={"treaties_signed": treaties_signed}))

    def penalty_cost(self, defence_power, penalty_rate: str | None = None):
        chosen = {"penalty_rate": penalty_rate} if penalty_rate else None
        return self._remembered("penalty_cost", defence_power, penalty_rate, lambda: self.compute(
            "penalty_cost", inputs={"defence_power": defence_power}, levels=chosen))

    def strategic_move_cost(self, steps: int, moves_used: int):
        """Moving back costs as much as moving forward: the cost counts squares, not direction."""
        return self._remembered("strategic_move_cost", abs(steps), moves_used, lambda: self.compute(
            "strategic_move_cost", inputs={"steps": abs(steps)},
            counters={"strategic_moves": moves_used}))

    def ransom_cost(self, times_jailed: int):
        return self._remembered("ransom_cost", times_jailed, None, lambda: self.compute(
            "ransom_cost", counters={"jailed": times_jailed}))

    def _remembered(self, formula_id: str, first, second, work):
        key = (formula_id, first, second)
        found = self._answers.get(key)
        if found is None:
            if len(self._answers) > REMEMBERED:
                self._answers.clear()
            found = self._answers[key] = work()
        return found

    # -- penalties in units ------------------------------------------------------------------
    def power_of(self, unit: str):
        return self._power[unit]

    def penalty_losses(self, army: dict[str, int], penalty) -> tuple[dict[str, int], bool]:
        """The units a penalty in power takes, and whether it takes them all (jail).

        Units are given up weakest first, and a unit only partly needed is lost whole
        (rules.penalty_losses: whole_units_rounded_up): 89 infantry and 1 tank pay a
        penalty of 90 with all 90 units. A penalty that finds no unit to take takes every
        unit there is: the player has lost all available armies ("Jail")."""
        left = Fraction(penalty)
        lost: dict[str, int] = {}
        for unit in sorted((u for u, n in army.items() if n), key=lambda u: (self.power_of(u), u)):
            if left <= 0:
                break
            power = self.power_of(unit)
            if power <= 0:
                continue
            taken = min(army[unit], math.ceil(left / power))
            lost[unit] = taken
            left -= taken * power
        every_unit = all(lost.get(u, 0) >= n for u, n in army.items())
        return lost, every_unit and penalty > 0
