"""An Allies vs. Axis battle position: the invaded square, the armies, and the game mode whose
penalty rate applies."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..system import BattlePosition

MODES = ("regular", "les-miserables", "fierce-battle", "no-italy")     # "Game modes"


@dataclass(frozen=True)
class AvAPosition(BattlePosition):
    """A battle with the game mode named (the id of one of the scenario's options of group
    `mode`); None plays the scenario's default mode. No defending contingent: a neutral
    territory; a defending contingent with no units: a territory its owner left undefended."""

    mode: str | None = field(default=None, metadata={
        "help": "the game mode, which sets the penalty rate (default: the scenario's default mode)",
        "choices": MODES})
