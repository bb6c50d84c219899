"""What an OCS combat or barrage needs to know beyond who is there (charts 9.2-9.10, 10.0a)."""
from __future__ import annotations

from dataclasses import dataclass

from ..system import BattlePosition

MODES = ("normal", "disorganized", "strategic")
OPTION_CHOICES = ("auto", "steps", "retreat")


@dataclass(frozen=True)
class OCSPosition(BattlePosition):
    """An OCS combat (or, with `raid=True`, a barrage of the defenders' hex).

    terrain: the combat terrain row of the defending hex (the defender's choice, 9.3b); None
        reads the space's `terrain`, or the space id itself when it names a terrain row.
    hedgehog: the hedgehog level in the defending hex (0: none).
    attack: "regular" or "overrun" (they have different surprise ranges, 9.8).
    attacker_mode / defender_mode: the mode of the units naming the action rating:
        "normal", "disorganized" (-1) or "strategic" (rating 0) (9.6).
    defender_supplied: False when the defender spends no combat supply: half strength (9.5).
    armour_terrain: the terrain effect attacking armour and mechanized units get from the
        terrain effects chart (x2, say); anti-armour in the hex may lower x2 to x1.5 (9.4e).
        The chart sheet does not print the terrain effects, so the default is x1.
    attacker_option / defender_option: how an option result (o#) is taken: "steps", "retreat",
        or "auto" (steps when the side survives them, otherwise retreat).
    exploit_allowed: False for attacks outside the combat phase, from 3 or more hexes or from
        2 hexes not adjacent to each other, which ignore e# results.
    barrage_by: "artillery", "air" or "ship" (a barrage only).
    spotter, near_airbase, beyond_half_range, strategic_in_hex: the barrage table's shifts.
    """

    terrain: str | None = None
    hedgehog: int = 0
    attack: str = "regular"
    attacker_mode: str = "normal"
    defender_mode: str = "normal"
    defender_supplied: bool = True
    armour_terrain: float = 1.0
    attacker_option: str = "auto"
    defender_option: str = "auto"
    exploit_allowed: bool = True
    barrage_by: str = "artillery"
    spotter: bool = True
    near_airbase: bool = False
    beyond_half_range: bool = False
    strategic_in_hex: bool = False


def extras(position: BattlePosition) -> OCSPosition:
    """The OCS fields of a position; a plain BattlePosition gets the defaults."""
    if isinstance(position, OCSPosition):
        return position
    return OCSPosition(position.space, position.attackers, position.defenders,
                       raid=position.raid, policy=position.policy)
