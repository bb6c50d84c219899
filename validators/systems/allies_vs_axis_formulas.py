"""Allies vs. Axis formulas: expression trees of named operands, read and computed exactly.

A formula in scenario.yaml `rules.formulas` is data (see schemas/systems/allies-vs-axis.schema.json):
operands (`number`, `parameter`, `input`, `counter`, `level`, `count`, `unit_stat`) combined by
`sum`, `product` and `min`. The validator walks the names a formula uses and computes the page's
worked examples; the engine computes the same formulas during play. Arithmetic is exact
(integers, and fractions where a rate is not whole), so 300 x 0.3 is 90, not 89.99999999999999.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

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


Number = int | Fraction


def exact(value) -> Number:
    """A number, exactly: an int stays an int, a float is read by its shortest decimal form
    (0.3 -> 3/10), and a whole fraction becomes an int (ints are much faster than fractions)."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise FormulaError(f"{value!r} is not a number")
    found = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    return found.numerator if found.denominator == 1 else found


def parameter_value(entry):
    """A rules parameter is a number, or a mapping with the number as `value`."""
    return entry.get("value") if isinstance(entry, dict) else entry


def evaluate(expression, values: Values) -> Number:
    return compile_expression(expression)(values)


class _Constant:
    """A part of a formula that does not depend on the situation: computed once."""

    __slots__ = ("value",)

    def __init__(self, value: Number):
        self.value = value

    def __call__(self, values: Values) -> Number:
        return self.value


def compile_expression(expression, rules: Values | None = None) -> Callable[[Values], Number]:
    """The formula as a function of the situation (`Values`).

    With `rules` given, the names that belong to the rules (parameters, unit stats, levels) are
    looked up once, now, and only the situation (army, inputs, counters) is read at each call:
    the engine computes a formula thousands of times a game. Without it every name is looked up
    at the call, as the validator does for a worked example. Either way the arithmetic is the
    same, so play and validation cannot disagree."""
    if not isinstance(expression, dict) or len(expression) != 1:
        raise FormulaError(f"{expression!r} is not an expression")
    (operator, operand), = expression.items()
    if operator in OPERATIONS:
        if not isinstance(operand, list) or not operand:
            raise FormulaError(f"{operator} takes a list of expressions")
        return _operation(operator, [compile_expression(item, rules) for item in operand])
    if operator in NAMED_OPERANDS and not isinstance(operand, str):
        raise FormulaError(f"{operator} takes a name, not {operand!r}")
    if operator == "number":
        return _Constant(exact(operand))
    if operator == "input":
        return lambda values: exact(_lookup(values.inputs, operand, "input"))
    if operator == "counter":
        return lambda values: exact(values.counters.get(operand, 0))
    if operator == "count":
        return lambda values: exact(values.army.get(operand, 0))
    if operator in ("parameter", "level") or (operator == "unit_stat" and isinstance(operand, dict)):
        read = _RULE_NAMES[operator]
        if rules is not None:
            return _Constant(read(rules, operand))
        return lambda values: read(values, operand)
    raise FormulaError(f"unknown operand {operator!r}")


def _parameter(values: Values, name: str) -> Number:
    return exact(parameter_value(_lookup(values.parameters, name, "parameter")))


def _level(values: Values, name: str) -> Number:
    chosen = _lookup(values.levels, name, "level setting")
    return exact(_lookup(values.level_values.get(name, {}), chosen, f"level of {name}"))


def _unit_stat(values: Values, operand: dict) -> Number:
    stats = _lookup(values.unit_stats, operand.get("unit"), "unit type")
    return exact(_lookup(stats, operand.get("stat"), "unit stat"))


# operand -> how the rules read it. The operand is data: a name (parameter, level) or, for
# unit_stat, a mapping; compile_expression has checked which before reading.
_RULE_NAMES: dict[str, Callable[[Values, Any], Number]] = {
    "parameter": _parameter, "level": _level, "unit_stat": _unit_stat}


def _operation(operator: str, parts: list) -> Callable[[Values], Number]:
    constants = [part.value for part in parts if isinstance(part, _Constant)]
    variables = [part for part in parts if not isinstance(part, _Constant)]
    if operator == "min":
        if not variables:
            return _Constant(min(constants))
        return lambda values: min([part(values) for part in parts])
    if operator == "sum":
        folded = sum(constants, 0)
        if not variables:
            return _Constant(folded)
        if len(variables) == 1 and not folded:
            return variables[0]
        return lambda values: sum([part(values) for part in variables], folded)
    folded = 1
    for constant in constants:
        folded *= constant
    if not variables or folded == 0:
        return _Constant(folded) if not variables else _zero_product(variables)
    if len(variables) == 1:
        only = variables[0]
        return only if folded == 1 else lambda values: folded * only(values)

    def product(values: Values) -> Number:
        total = folded
        for part in variables:
            total *= part(values)
        return total
    return product


def _zero_product(variables: list) -> Callable[[Values], Number]:
    """A product with a constant 0: still 0, but its other parts are read, so that a name
    missing from the situation is reported as it would be without the 0."""
    def product(values: Values) -> Number:
        for part in variables:
            part(values)
        return 0
    return product


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
