"""Rules-specific checks, one module per game system (`aa50.py`, `war_at_sea.py` ...).

A module may define:
- `check(scenario, index)`: its diagnostics;
- `explain(scenario, index) -> str`: its account for `sandtable validate --explain`;
- `DOMAIN_SPACES`: where its rules let units of a domain stand, beyond the general rule;
- `PLAYS_IN_TURN_ORDER`: the engine plays the nations in `turn_order` (none given: nobody plays);
- `WINS_BY_VICTORY`: the engine ends a game when a `victory` condition is met (none given: no
  side can win, and every game runs to the round limit).
"""
from __future__ import annotations

import importlib
from types import ModuleType


def system_module(system: str | None) -> ModuleType | None:
    """The checks module of a game system, or None when the system has none."""
    if not system:
        return None
    name = f"validators.systems.{system.replace('-', '_')}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name == name:
            return None
        raise
