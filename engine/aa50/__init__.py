"""Axis & Allies 50th Anniversary Edition: combat (rulebook §5.5 and §7) and strategic bombing."""
from __future__ import annotations

from .system import AA50


def build(scenario) -> AA50:
    return AA50(scenario)


__all__ = ["AA50", "build"]
