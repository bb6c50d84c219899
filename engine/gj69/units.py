"""GJ69 units as an attack sees them: the four values of a counter (§2.1.1(3)), who owns it, and
the VP its elimination is worth."""
from __future__ import annotations

from dataclasses import dataclass

from ..system import EngineError


@dataclass(frozen=True)
class UnitProfile:
    id: str
    domain: str              # land, sea or air
    attack: int
    durability: int
    movement: int
    air_power: int | None    # air units and carriers only
    worth: float             # VP its elimination is worth (§15.0(1)②, §16.2(3))
    owner: str = ""          # the nation (or side) whose counter it is
    side: str = ""
    unit_class: str = ""     # infantry, airborne, dd, cv ... (§2.1.1(4))

    @property
    def is_carrier(self) -> bool:
        """CV and CVL: ships with air power (§11.6)."""
        return self.domain == "sea" and self.air_power is not None

    @property
    def flies(self) -> bool:
        """Has an air power: air units and carriers make air attacks (§9.1(1))."""
        return self.air_power is not None


def unit_owners(scenario, side_of) -> dict[str, str]:
    """Unit type -> the nation or side that owns its counters: the type's `nation`, else the
    owner of its stacks in the set-up, the pools or an option that places it. GJ69 counters
    carry one nationality each (§2.1.1(6))."""
    found: dict[str, set[str]] = {}

    def note(unit, owner):
        if isinstance(unit, str) and isinstance(owner, str) and side_of(owner):
            found.setdefault(unit, set()).add(owner)

    for _, entry in scenario.entities("units", "unit_types"):
        note(entry.get("id"), entry.get("nation"))
    for _, entry in scenario.entities("setup", "spaces"):
        for stack in entry.get("units") or []:
            if isinstance(stack, dict):
                note(stack.get("type"), stack.get("owner"))
    for _, pool in scenario.entities("setup", "pools"):
        for stack in pool.get("units") or []:
            if isinstance(stack, dict):
                note(stack.get("type"), stack.get("owner") or pool.get("owner"))
    for _, option in scenario.entities("scenario", "options"):
        for change in option.get("changes") or []:
            if isinstance(change, dict) and change.get("op") == "place_units":
                for unit in change.get("types") or []:
                    note(unit, change.get("owner"))
    owners = {}
    for unit, names in found.items():
        if len(names) > 1:
            raise EngineError(f"unit type {unit!r} has counters of several owners "
                              f"({', '.join(sorted(names))}); a GJ69 counter has one nationality")
        owners[unit] = next(iter(names))
    return owners


def read_profiles(scenario, side_of, loss_vp: dict[tuple[str, int], float],
                  elimination_vp: dict[str, float]) -> dict[str, UnitProfile]:
    """Profiles of every unit type. `loss_vp`: (side, durability) -> VP scored when a unit of
    that side is sent to the replacement pool (§15.0(1)②: Japanese units only);
    `elimination_vp`: unit type -> VP for eliminating it (§16.2(3): MacArthur)."""
    owners = unit_owners(scenario, side_of)
    found = {}
    for _, entry in scenario.entities("units", "unit_types"):
        if not isinstance(entry.get("id"), str):
            continue
        stats = entry.get("stats") or {}
        durability = int(stats.get("durability", 1))
        owner = owners.get(entry["id"], "")
        side = side_of(owner) or "" if owner else ""
        found[entry["id"]] = UnitProfile(
            entry["id"], entry.get("domain", "land"), int(stats.get("attack", 0)), durability,
            int(stats.get("movement", 0)),
            int(stats["air_power"]) if stats.get("air_power") is not None else None,
            loss_vp.get((side, durability), 0.0) + elimination_vp.get(entry["id"], 0.0),
            owner, side, str(entry.get("class") or ""))
    return found
