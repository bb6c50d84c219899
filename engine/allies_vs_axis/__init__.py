"""Allies vs. Axis: invasions, defence power and the page's costs, computed by its formulas."""
from __future__ import annotations

from .system import AlliesVsAxis, AvAPosition, Invasion


def build(scenario) -> AlliesVsAxis:
    return AlliesVsAxis(scenario)


__all__ = ["AlliesVsAxis", "AvAPosition", "Invasion", "build"]
