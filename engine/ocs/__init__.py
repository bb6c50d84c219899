"""Operational Combat Series: combat by the combat table (9.2-9.10), barrage (10.0a), and every
other chart of the sheet resolved on its own (OCS.chart_resolvers)."""
from __future__ import annotations

from .position import OCSPosition
from .system import OCS


def build(scenario) -> OCS:
    return OCS(scenario)


__all__ = ["OCS", "OCSPosition", "build"]
