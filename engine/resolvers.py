"""Chart resolvers: one printed table, with its modifiers, answered as an exact distribution.

A game system offers its charts through `GameSystem.chart_resolvers()` (chart id -> resolver).
A resolver's inputs are a frozen dataclass whose fields are settings, declared with
`engine.options.setting` like the fields of a battle position: the command line takes them as
`--option NAME=VALUE` (`sandtable playtest chart`), the editor as the same texts or as values.

`resolve(values)` returns a `ChartAnswer`: every distinct result with its exact probability
(a Fraction), in the game's own words and as data, and what was worked out on the way (the
modified roll, the column, the supply spent). `chart_distribution` is the same answer as plain
data, for the editor's playtest panel.
"""
from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .options import Setting, SettingError, settings_of_fields
from .options import resolve as resolve_settings
from .system import EngineError, UnknownName


@dataclass(frozen=True)
class NoInputs:
    """A chart read by the dice alone."""


@dataclass(frozen=True)
class ChartOutcome:
    probability: Fraction
    text: str           # the result in the game's own terms
    data: dict          # the same result as data (JSON-able)


@dataclass
class ChartAnswer:
    """Every result of one chart for one set of inputs, with its exact probability."""

    chart: str
    title: str
    source: str
    inputs: dict[str, Any]                  # setting name -> the value used
    outcomes: list[ChartOutcome]
    working: list[tuple[str, str]] = field(default_factory=list)   # (what, how it came out)

    def probability(self, **wanted) -> Fraction:
        """The chance of the outcomes whose data has all the `wanted` values."""
        return sum((o.probability for o in self.outcomes
                    if all(o.data.get(k) == v for k, v in wanted.items())), Fraction(0))

    def expected(self, key: str) -> Fraction:
        """The mean of a number in the outcomes' data (missing counts as 0)."""
        return sum((o.probability * Fraction(o.data.get(key, 0)) for o in self.outcomes), Fraction(0))

    def as_dict(self) -> dict:
        return {"chart": self.chart, "title": self.title, "source": self.source,
                "inputs": dict(self.inputs),
                "working": [{"what": what, "value": value} for what, value in self.working],
                "outcomes": [{"probability": float(o.probability), "exact": str(o.probability),
                              "text": o.text, **o.data} for o in self.outcomes]}

    def render(self) -> str:
        lines = [f"{self.title} ({self.source}), exact"]
        if self.inputs:
            lines.append("  " + ", ".join(f"{name}={_show(value)}" for name, value in self.inputs.items()))
        width = max((len(what) for what, _ in self.working), default=0)
        lines += [f"  {what:<{width}}  {value}" for what, value in self.working]
        lines.append("")
        width = max((len(o.text) for o in self.outcomes), default=0)
        lines += [f"  {o.text:<{width}}  {100 * float(o.probability):6.2f}%  {o.probability}"
                  for o in self.outcomes]
        return "\n".join(lines)


def collect(cases: Iterable[tuple[Fraction, str, dict]]) -> list[ChartOutcome]:
    """One outcome per distinct text, probabilities summed, in order of first appearance;
    outcomes that cannot happen are left out."""
    totals: dict[str, Fraction] = {}
    data: dict[str, dict] = {}
    for probability, text, found in cases:
        if text in data and data[text] != found:
            raise ValueError(f"{text!r} stands for two results: {data[text]} and {found}")
        totals[text] = totals.get(text, Fraction(0)) + probability
        data[text] = found
    return [ChartOutcome(p, text, data[text]) for text, p in totals.items() if p]


class ChartResolver(ABC):
    """One chart of a game system, resolved exactly."""

    id: str = ""
    title: str = ""
    source: str = ""
    inputs: type = NoInputs      # a frozen dataclass of settings

    def settings(self) -> list[Setting]:
        return settings_of_fields(self.inputs)

    def resolve(self, values: Mapping[str, Any] | Sequence[str] = ()) -> ChartAnswer:
        """The answer for inputs given as values by field name, or as `NAME=VALUE` texts."""
        settings = self.settings()
        if not isinstance(values, Mapping):
            values = resolve_settings(values, settings)
        by_key = {s.key: s for s in settings}
        for key, value in values.items():
            setting = by_key.get(key)
            if setting is None:
                raise SettingError(f"the {self.id} chart has no setting {key!r}; its settings: "
                                   + (", ".join(s.name for s in settings) or "none"))
            if setting.choices and value not in setting.choices and value is not None:
                setting.parse(str(value))                     # raises, listing the choices
        chosen = self.inputs(**values)
        answer = self.answer(chosen)
        answer.inputs = {f.name.replace("_", "-"): getattr(chosen, f.name)
                         for f in dataclasses.fields(chosen)}
        return answer

    @abstractmethod
    def answer(self, inputs) -> ChartAnswer:
        """The distribution for these inputs."""

    def describe(self) -> str:
        return f"{self.id}: {self.title} ({self.source})"


# -- dice ------------------------------------------------------------------------------------------
def dice(count: int) -> dict[int, Fraction]:
    """The sum of `count` six-sided dice: total -> probability."""
    sums = {0: Fraction(1)}
    for _ in range(count):
        sums = convolve(sums, {face: Fraction(1, 6) for face in range(1, 7)})
    return sums


def dice_of(notation: str) -> dict[int, Fraction]:
    """`1d6`, `2d6` -> the distribution of the sum."""
    count, d, sides = str(notation).partition("d")
    if d != "d" or sides != "6" or not count.isdigit():
        raise EngineError(f"cannot roll {notation!r}: the charts roll six-sided dice, as 2d6")
    return dice(int(count))


def convolve(first: Mapping[int, Fraction], second: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of the sum of two independent counts."""
    found: dict[int, Fraction] = {}
    for a, p in first.items():
        for b, q in second.items():
            found[a + b] = found.get(a + b, Fraction(0)) + p * q
    return dict(sorted(found.items()))


def repeated(chance: Fraction, times: int) -> dict[int, Fraction]:
    """How many of `times` independent tries succeed, each with `chance` (binomial)."""
    found = {0: Fraction(1)}
    for _ in range(times):
        found = convolve(found, {0: 1 - chance, 1: chance})
    return found


def signed(number: int | Fraction) -> str:
    return f"+{number}" if number >= 0 else f"{number}"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return "none" if value is None else str(value)


# -- what the editor calls -----------------------------------------------------------------------
def chart_resolvers(scenario) -> dict[str, ChartResolver]:
    """The charts of a loaded scenario's game system (empty when it has none)."""
    from .system import load_system
    return load_system(scenario).chart_resolvers()


def find_chart(resolvers: Mapping[str, ChartResolver], chart: str) -> ChartResolver:
    found = resolvers.get(chart)
    if found is None:
        raise UnknownName("chart", chart, list(resolvers))
    return found


def chart_distribution(scenario, chart: str,
                       values: Mapping[str, Any] | Sequence[str] = ()) -> dict:
    """The exact distribution of one chart of a loaded scenario, as plain data.

    `values` are the chart's settings by field name (`{"attacker_air": 2}`) or as `NAME=VALUE`
    texts (`["attacker-air=2"]`). Raises UnknownName for an unknown chart, SettingError for a
    setting the chart does not take and EngineError for inputs the chart cannot answer.
    """
    return find_chart(chart_resolvers(scenario), chart).resolve(values).as_dict()


def chart_list(scenario) -> list[dict]:
    """Each chart of a loaded scenario: id, title, source and its settings described."""
    return [{"chart": r.id, "title": r.title, "source": r.source,
             "settings": [s.describe() for s in r.settings()]}
            for r in chart_resolvers(scenario).values()]
