"""War at Sea ships as combat sees them (§3, §7.6): printed values and damage taken."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class ShipType:
    id: str
    nation: str
    side: str
    domain: str                # sea or air (the land-based air unit: an air-strike marker, §9.1)
    cls: str
    gunnery: int
    armour: int
    speed: int
    air_strike: int
    anti_submarine: int
    tags: frozenset[str]

    @property
    def is_uboat(self) -> bool:
        return "submarine" in self.tags

    @property
    def is_convoy(self) -> bool:
        return "convoy" in self.tags

    @property
    def is_carrier(self) -> bool:
        return "carrier" in self.tags

    @property
    def is_warship(self) -> bool:
        return "warship" in self.tags

    @property
    def is_air_unit(self) -> bool:
        return self.domain == "air"

    @property
    def surface(self) -> bool:
        """Warships and convoys: the surface ships (§3.3)."""
        return self.domain == "sea" and not self.is_uboat


@dataclass(eq=False)
class Ship:
    """One ship in the battle, with the damage it carries (§7.5: damage stays until repaired).
    Ships are told apart by identity: two undamaged convoys are still two ships."""

    type: ShipType
    damage: int = 0
    disabled: bool = False     # lost its fighting power: back to port (§7.3)
    sunk: bool = False
    number: int = 0            # tells ships of one type apart in events
    escaped: bool = False      # got away from a surface battle (§11.6)
    sheltered: bool = False    # back in port after a failed speed roll or disabled (§9.5)
    name: str = field(init=False, default="")

    def __post_init__(self) -> None:
        self.name = f"{self.type.id}#{self.number}" if self.number else self.type.id

    @property
    def in_battle(self) -> bool:
        return not (self.disabled or self.sunk)

    @property
    def damaged(self) -> bool:
        return self.damage > 0

    def gunnery(self) -> int:
        """§7.6: damage equal to the armour leaves gunnery 1 (0 stays 0)."""
        printed = self.type.gunnery
        if self.damage >= self.type.armour and not self.type.is_uboat and printed > 0:
            return 1
        return printed

    def air_strike(self) -> int:
        """§7.6: damage equal to the armour leaves no air strike."""
        return 0 if self.damage >= self.type.armour else self.type.air_strike

    def speed(self, minimum: int) -> int:
        """§7.6: each damage point takes a point of speed, never below the minimum."""
        return max(self.type.speed - self.damage, minimum)

    def take(self, damage: int, disabled: bool) -> None:
        """§7.5: hits count before disabling; sunk and disabled at once is sunk."""
        self.damage += damage
        if self.damage > self.type.armour:
            self.sunk = True
        elif disabled:
            self.disabled = True


def read_types(scenario, side_of, stat_changes=()) -> dict[str, ShipType]:
    """The ship types of a scenario; `stat_changes` are (unit ids, stat, new value) of the
    variant rules in play (§18.1)."""
    found = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if not isinstance(entry.get("id"), str):
            continue
        stats = entry.get("stats") or {}
        nation = entry.get("nation", "")
        found[entry["id"]] = ShipType(
            entry["id"], nation, side_of(nation) or "", entry.get("domain", "sea"),
            entry.get("class", ""), int(stats.get("gunnery", 0)), int(stats.get("armour", 0)),
            int(stats.get("speed", 0)), int(stats.get("air_strike", 0)),
            int(stats.get("anti_submarine", 0)), frozenset(entry.get("tags") or ()))
    for units, stat, value in stat_changes:
        changed: dict[str, Any] = {stat: int(value)}      # a printed value: gunnery, armour ...
        for unit in units:
            if unit in found:
                found[unit] = replace(found[unit], **changed)
    return found
