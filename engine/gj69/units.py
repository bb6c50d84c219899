"""GJ69 units as an attack sees them: the four values of a counter (§2.1.1(3))."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitProfile:
    id: str
    domain: str              # land, sea or air
    attack: int
    durability: int
    movement: int
    air_power: int | None    # air units and carriers only
    worth: float             # VP its elimination is worth (§15.0(1)②, §16.2(3))

    @property
    def is_carrier(self) -> bool:
        """CV and CVL: ships with air power (§11.6)."""
        return self.domain == "sea" and self.air_power is not None


def read_profiles(scenario, loss_vp: dict[int, float], elimination_vp: dict[str, float]) -> dict[str, UnitProfile]:
    found = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if not isinstance(entry.get("id"), str):
            continue
        stats = entry.get("stats") or {}
        durability = int(stats.get("durability", 1))
        found[entry["id"]] = UnitProfile(
            entry["id"], entry.get("domain", "land"), int(stats.get("attack", 0)), durability,
            int(stats.get("movement", 0)),
            int(stats["air_power"]) if stats.get("air_power") is not None else None,
            loss_vp.get(durability, 0.0) + elimination_vp.get(entry["id"], 0.0))
    return found
