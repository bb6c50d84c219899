"""What every OCS chart resolver shares: its table's name and source, optional rules, limits."""
from __future__ import annotations

from ..resolvers import ChartResolver
from ..system import EngineError
from .charts import Charts

# Counts of aircraft, steps or units a chart is asked about; more is beyond any OCS stack and
# would only make the exact sums slow.
MOST = 99


class OCSChart(ChartResolver):
    """A chart of the OCS sheet, read from the scenario's tables.yaml (`table` defaults to the id)."""

    table = ""

    def __init__(self, charts: Charts, optional_rules: set[str], rules: dict | None = None):
        self.charts = charts
        self.optional_rules = optional_rules
        self.rules = rules or {}        # scenario.yaml `rules` (tokens_per_sp ...)
        found = charts.table(self.table or self.id)
        self.title = str(found.get("name") or self.id)
        self.source = str(found.get("source") or "charts")

    def rule_in_force(self, option: str, chosen: bool | None) -> bool:
        """An optional rule as chosen, or as the scenario sets it when not chosen."""
        return option in self.optional_rules if chosen is None else chosen


def count_between(name: str, value: int, low: int = 0, high: int = MOST) -> int:
    if not low <= value <= high:
        raise EngineError(f"{name.replace('_', '-')} is a count from {low} to {high}, not {value}")
    return value


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"
