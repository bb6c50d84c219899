"""War at Sea: the whole game of eight turns (§4-§18) and the battle in one sea area (§7-§12)."""
from __future__ import annotations

from .position import WaSPosition
from .system import WarAtSea


def build(scenario) -> WarAtSea:
    return WarAtSea(scenario)


__all__ = ["WaSPosition", "WarAtSea", "build"]
