"""TripleA games that do not follow AA50's rules: AA50's combat procedure on the game's dice."""
from __future__ import annotations

from .system import TripleA


def build(scenario) -> TripleA:
    return TripleA(scenario)


__all__ = ["TripleA", "build"]
