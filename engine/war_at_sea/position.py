"""What a War at Sea battle needs to know beyond which ships are there (§7-§11).

Every field is a setting of `sandtable playtest battle --option NAME=VALUE`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..system import BattlePosition

SIDES = ("allies", "axis")


@dataclass(frozen=True)
class WaSPosition(BattlePosition):
    """A battle in a sea area (or an air strike on a port).

    A land-based air unit in a contingent stands for that side's air-strike marker (§9.1).
    """

    damaged: dict[str, int] = field(default_factory=dict, metadata={
        "help": "damage points each ship of a type already carries (§7.5), as 'hood:2,kent:1'"})
    escape: str | None = field(default=None, metadata={
        "help": "the side that tries to escape after round escape-after (§11.1), or both "
                "(§11.8: both succeed); none: nobody, unless --retreat-at sends the attacker off",
        "choices": ("allies", "axis", "both")})
    escape_after: int = field(default=1, metadata={
        "help": "the round after which the escape is tried (§11.1)"})
    escape_groups: str = field(default="together", metadata={
        "help": "how the escaping side splits (§11.3): one group, one group per speed, "
                "or every ship alone",
        "choices": ("together", "by-speed", "singly")})
    pursue: bool = field(default=True, metadata={
        "help": "the other side pursues with every ship fast enough, each after the group it can "
                "catch with the fewest guns after it yet (§11.2, §11.4)"})
    air_strikes: str = field(default="both", metadata={
        "help": "the sides that make their air strikes (§9; a side may choose not to attack, §7.2)",
        "choices": ("both", "allies", "axis", "none")})
    aim_at_convoys: bool = field(default=False, metadata={
        "help": "the Axis names convoys as targets while Allied warships are still undamaged; "
                "those shots count only if every Allied warship ends the round damaged, sunk "
                "or disabled (§10.7)"})
    sheltered: dict[str, int] = field(default_factory=dict, metadata={
        "help": "ships of a type back in this port after a failed speed roll or disabled, "
                "which air strikes may not target (§9.5), as 'hood:1'"})

    variant: str = field(default="", metadata={
        "help": "the scenario's variant rules in play, by option id separated by commas "
                "(those that change ships' values count in a battle, as weaker-bismarck-class, "
                "§18.1)"})


def extras(position: BattlePosition) -> WaSPosition:
    if isinstance(position, WaSPosition):
        return position
    return WaSPosition(position.space, position.attackers, position.defenders, policy=position.policy)
