"""An AA50 battle's own settings, beside the common ones of BattlePosition."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..system import BattlePosition

SURPRISE_READINGS = ("every-round", "first-round")


@dataclass(frozen=True)
class AA50Position(BattlePosition):
    """surprise_strike: when submarines strike first (§7.3.5). The rulebook says both that the
    strike comes before step ii, which repeats every round (§5.5.3.5, note 42), and that "this
    special attack happens only once in a battle" (这个特殊攻击在 1 场战斗中只发生 1 次).
    "every-round" (the default) follows the battle sequence, as TripleA plays AA50;
    "first-round" follows the sentence: after the first round submarines fire with the others.
    """

    surprise_strike: str = field(default="every-round", metadata={
        "help": "when submarines strike first (§7.3.5)", "choices": SURPRISE_READINGS})
