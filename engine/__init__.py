"""The bundled rules engine: one module per game system behind one interface (engine.system)."""
from __future__ import annotations

from .system import (
                     ATTACKER_WINS,
                     DEFENDER_WINS,
                     DRAW,
                     BattleOutcome,
                     BattlePosition,
                     Contingent,
                     EngineError,
                     ExactOutcome,
                     GameSystem,
                     OutcomeBatch,
                     Policy,
                     UnknownName,
                     load_system,
)

__all__ = ["ATTACKER_WINS", "DEFENDER_WINS", "DRAW", "BattleOutcome", "BattlePosition",
           "Contingent", "EngineError", "ExactOutcome", "GameSystem", "OutcomeBatch", "Policy",
           "UnknownName", "load_system"]
