"""GJ69 Southern Operation 1941: attacks by damage points against durability (§8-§11, §16)."""
from __future__ import annotations

from .position import GJ69Position
from .system import GJ69


def build(scenario) -> GJ69:
    return GJ69(scenario)


__all__ = ["GJ69", "GJ69Position", "build"]
