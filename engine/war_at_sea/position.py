"""What a War at Sea battle needs to know beyond which ships are there (§7-§11)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..system import BattlePosition


@dataclass(frozen=True)
class WaSPosition(BattlePosition):
    """A battle in a sea area (or an air strike on a port).

    Land-based air units in a contingent stand for that side's air-strike marker (§9.1).
    damaged: ship type -> damage points each ship of that type already carries (§7.5).
    escape: the side ("allies" or "axis") that tries to escape, or "both" (§11.8, both escape and
        succeed); None: nobody does, unless the policy's `retreat_at` sends the attacker off.
    escape_after: the round after which the escape is tried (§11.1).
    pursue: whether the other side pursues an escape with every ship fast enough (§11.2, §11.4).
    """

    damaged: dict[str, int] = field(default_factory=dict)
    escape: str | None = None
    escape_after: int = 1
    pursue: bool = True


def extras(position: BattlePosition) -> WaSPosition:
    if isinstance(position, WaSPosition):
        return position
    return WaSPosition(position.space, position.attackers, position.defenders, policy=position.policy)
