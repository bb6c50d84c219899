"""War at Sea: anti-submarine, air strikes and surface combat in a sea area (§7-§12)."""
from __future__ import annotations

from .position import WaSPosition
from .system import WarAtSea


def build(scenario) -> WarAtSea:
    return WarAtSea(scenario)


__all__ = ["WaSPosition", "WarAtSea", "build"]
