"""Allies vs. Axis formulas: expression trees of named operands, read and computed exactly.

A formula in scenario.yaml `rules.formulas` is data (see schemas/systems/allies-vs-axis.schema.json):
operands (`number`, `parameter`, `input`, `counter`, `level`, `count`, `unit_stat`) combined by
`sum`, `product` and `min`. The validator walks the names a formula uses and computes the page's
worked examples; the engine computes the same formulas during play. Arithmetic is exact
(fractions), so 300 x 0.3 is 90, not 89.99999999999999.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

OPERATIONS = ("sum", "product", "min")
# operand -> the kind of name it refers to (`unit_stat` names two things and is handled apart).
NAMED_OPERANDS = {"parameter": "parameter", "input": "input", "counter": "counter",
                  "level": "level", "count": "count"}


class FormulaError(Exception):
    """A formula cannot be computed: a name has no value, or an expression has no known form."""


@dataclass
class Values:
    """Everything a formula may read: the rules' numbers and the situation it is applied to."""

    parameters: dict[str, object] = field(default_factory=dict)
    unit_stats: dict[str, dict[str, object]] = field(default_factory=dict)
    level_values: dict[str, dict[str, object]] = field(default_factory=dict)
    levels: dict[str, str] = field(default_factory=dict)      # setting -> chosen level
    inputs: dict[str, object] = field(default_factory=dict)
    counters: dict[str, object] = field(default_factory=dict)
    army: dict[str, object] = field(default_factory=dict)     # unit type -> count


def exact(value) -> Fraction:
    """A number as an exact fraction; a float is read by its shortest decimal form (0.3 -> 3/10)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise FormulaError(f"{value!r} is not a number")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def parameter_value(entry):
    """A rules parameter is a number, or a mapping with the number as `value`."""
    return entry.get("value") if isinstance(entry, dict) else entry


def evaluate(expression, values: Values) -> Fraction:
    if not isinstance(expression, dict) or len(expression) != 1:
        raise FormulaError(f"{expression!r} is not an expression")
    (operator, operand), = expression.items()
    if operator in OPERATIONS:
        if not isinstance(operand, list) or not operand:
            raise FormulaError(f"{operator} takes a list of expressions")
        results = [evaluate(item, values) for item in operand]
        if operator == "sum":
            return sum(results, Fraction(0))
        if operator == "product":
            total = Fraction(1)
            for result in results:
                total *= result
            return total
        return min(results)
    if operator in NAMED_OPERANDS and not isinstance(operand, str):
        raise FormulaError(f"{operator} takes a name, not {operand!r}")
    if operator == "number":
        return exact(operand)
    if operator == "parameter":
        return exact(parameter_value(_lookup(values.parameters, operand, "parameter")))
    if operator == "input":
        return exact(_lookup(values.inputs, operand, "input"))
    if operator == "counter":
        return exact(values.counters.get(operand, 0))
    if operator == "count":
        return exact(values.army.get(operand, 0))
    if operator == "level":
        chosen = _lookup(values.levels, operand, "level setting")
        return exact(_lookup(values.level_values.get(operand, {}), chosen, f"level of {operand}"))
    if operator == "unit_stat" and isinstance(operand, dict):
        stats = _lookup(values.unit_stats, operand.get("unit"), "unit type")
        return exact(_lookup(stats, operand.get("stat"), "unit stat"))
    raise FormulaError(f"unknown operand {operator!r}")


def _lookup(table, name, noun: str):
    if not isinstance(table, dict) or not isinstance(name, str) or name not in table:
        raise FormulaError(f"no value for {noun} {name!r}")
    return table[name]


def names_used(expression, pointer: str = "") -> Iterator[tuple[str, str, str]]:
    """(JSON pointer, kind of name, name) for each name the expression refers to.

    Kinds: parameter, input, counter, level, count (a unit type counted in the army), unit (the
    unit type of a `unit_stat`) and stat (`unit_stat`'s stat, given as "unit/stat").
    """
    if not isinstance(expression, dict):
        return
    for operator, operand in expression.items():
        here = f"{pointer}/{operator}"
        if operator in OPERATIONS and isinstance(operand, list):
            for i, item in enumerate(operand):
                yield from names_used(item, f"{here}/{i}")
        elif operator in NAMED_OPERANDS and isinstance(operand, str):
            yield here, NAMED_OPERANDS[operator], operand
        elif operator == "unit_stat" and isinstance(operand, dict):
            unit, stat = operand.get("unit"), operand.get("stat")
            if isinstance(unit, str):
                yield f"{here}/unit", "unit", unit
                if isinstance(stat, str):
                    yield f"{here}/stat", "stat", f"{unit}/{stat}"
