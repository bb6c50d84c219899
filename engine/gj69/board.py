"""The GJ69 map (§2.2) and what stands on it during a game.

`Board` is the map as the scenario draws it: areas (land, sea, fortress), borders and their
kinds (§2.2.1(4)), areas closed to a side (§2.2.1(3)), permanent control and supply sources
(§2.2.2). `Forces` is what changes: the units in each area by type and face, who controls each
area (§14), and the pools (§2.2.3).
"""
from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field

from validators.index import LAND_KINDS

from .damage import READY, USED
from .units import UnitProfile

FACES = (READY, USED)
# Versions of every Forces of the process come from one counter, so that a version names one
# content even across copies (caches keyed by it stay right in a game's clones, engine/gj69/clone.py).
_VERSIONS = itertools.count(1)


@dataclass(frozen=True)
class Area:
    id: str
    land: bool
    fortress: bool                  # kind fortress (§16.1)
    value: float                    # VP printed in the area (§2.2.2(5))
    closed_to: frozenset[str]       # sides or nations that may not enter (§2.2.1(3))
    permanent: bool                 # permanent control (§2.2.2(2))
    oil_field: bool


class Board:
    """The static map of a scenario."""

    def __init__(self, scenario, index, rules: dict):
        self.areas: dict[str, Area] = {}
        for space_id, entity in index.spaces.items():
            data = entity.data
            tags = set(data.get("tags") or [])
            self.areas[space_id] = Area(
                space_id, data.get("kind") in LAND_KINDS, data.get("kind") == "fortress",
                float(data.get("value") or 0), frozenset(data.get("closed_to") or []),
                "permanent_control" in tags, "oil_field" in tags)
        self.ids = sorted(self.areas)
        self.neighbours: dict[str, list[tuple[str, str]]] = {a: [] for a in self.ids}
        for _, border in scenario.entities("map", "borders"):
            pair = border.get("between") or []
            if len(pair) == 2 and all(p in self.areas for p in pair) and pair[0] != pair[1]:
                kind = str(border.get("kind") or "land")
                self.neighbours[pair[0]].append((pair[1], kind))
                self.neighbours[pair[1]].append((pair[0], kind))
        for links in self.neighbours.values():
            links.sort()
        self.adjacent = {a: frozenset(b for b, _ in links) for a, links in self.neighbours.items()}
        # the same, sorted, and the areas within two steps (where a fleet may go in one move)
        self.next_to = {a: tuple(sorted(near)) for a, near in self.adjacent.items()}
        self.within_two = {a: tuple(sorted(({c for b in near for c in self.adjacent[b]} | near) - {a}))
                           for a, near in self.adjacent.items()}
        self.around = {a: (a, *near) for a, near in self.next_to.items()}   # it and its neighbours
        self.land_next_to = {a: tuple(b for b in near if self.areas[b].land)
                             for a, near in self.next_to.items()}
        self._distances: dict[str, dict[str, int]] = {}
        self._within: dict[tuple[str, int], tuple[str, ...]] = {}
        self._seas_within: dict[tuple[str, int], tuple[str, ...]] = {}
        sources = rules.get("supply_sources") or {}
        self.supply_sources = {side: tuple(spaces) for side, spaces in sources.items()}
        mountain = rules.get("mountain_border") or {}
        self.mountain_group = int(mountain.get("max_units_per_group", 1))        # §7.3(2)①
        self.mountain_retreat = bool(mountain.get("retreat", False))              # §7.3(2)②
        sea = rules.get("sea_border") or {}
        self.sea_movement = int(sea.get("max_land_movement", 2))                  # §7.3(1)①
        self.sea_land_units = int(sea.get("max_land_units_per_group", 2))         # §7.3(1)②

    def is_sea_border(self, kind: str) -> bool:
        return kind in ("sea", "coast")

    def distances(self, start: str) -> dict[str, int]:
        """Steps from `start` to every area, across any border (the map does not change)."""
        found = self._distances.get(start)
        if found is None:
            found = self._distances[start] = self._distances_from(start)
        return found

    def within(self, start: str, steps: int) -> tuple[str, ...]:
        """The areas at most `steps` from `start` (it too), sorted."""
        key = (start, steps)
        found = self._within.get(key)
        if found is None:
            found = self._within[key] = tuple(sorted(
                a for a, d in self.distances(start).items() if d <= steps))
        return found

    def seas_within(self, start: str, steps: int) -> tuple[str, ...]:
        """The sea areas at most `steps` from `start` (it too, when it is a sea area), sorted."""
        key = (start, steps)
        found = self._seas_within.get(key)
        if found is None:
            found = self._seas_within[key] = tuple(sorted(
                a for a, d in self.distances(start).items() if d <= steps and not self.areas[a].land))
        return found

    def _distances_from(self, start: str) -> dict[str, int]:
        found = {start: 0}
        frontier = [start]
        while frontier:
            following = []
            for area in frontier:
                for other in self.adjacent[area]:
                    if other not in found:
                        found[other] = found[area] + 1
                        following.append(other)
            frontier = following
        return found


@dataclass
class Forces:
    """Units on the map (area -> (type, face) -> count), control (area -> side), and pools
    (pool id -> type -> count). `sides` maps each unit type to its side."""

    units: dict[str, dict[tuple[str, str], int]]
    control: dict[str, str]
    pools: dict[str, dict[str, int]]
    sides: dict[str, str]
    removed: dict[str, int] = field(default_factory=dict)   # out of the game (§19 I Shall Return)
    version: int = 0                                        # its last change's, for caches
    changed: dict[str, int] = field(default_factory=dict)   # area -> version of its last change
    _occupied: dict = field(default_factory=dict, repr=False)
    _stacks: dict = field(default_factory=dict, repr=False)
    _counts: dict = field(default_factory=dict, repr=False)
    _occupants: dict = field(default_factory=dict, repr=False)   # side -> its areas, once asked
    _where: dict = field(default_factory=dict, repr=False)       # type -> (version, its areas)
    _parts: dict = field(default_factory=dict, repr=False)       # area -> (version, its part of `content`)

    def copy(self) -> Forces:
        """The same forces, sharing nothing that changes; the version and the areas' stamps are
        kept, as they name the same content."""
        twin = Forces({a: dict(u) for a, u in self.units.items()}, dict(self.control),
                      {p: dict(u) for p, u in self.pools.items()}, self.sides, dict(self.removed),
                      self.version, dict(self.changed))
        twin._parts = self._parts           # by version: the same in every copy
        return twin

    # -- changes -------------------------------------------------------------------------------
    def add(self, area: str, unit: str, face: str, n: int = 1) -> None:
        if n <= 0:
            return
        self._touch(area)
        stacks = self.units.setdefault(area, {})
        before = stacks.get((unit, face))
        if before is None:
            areas = self._occupants.get(self.sides[unit])
            if areas is not None and area not in areas:
                areas.add(area)
                self._occupied.pop(self.sides[unit], None)
        stacks[(unit, face)] = (before or 0) + n

    def take(self, area: str, unit: str, face: str, n: int = 1) -> None:
        self._touch(area)
        stacks = self.units[area]
        left = stacks[(unit, face)] - n
        if left < 0:
            raise ValueError(f"{n} {face} {unit} are not in {area}")
        if left:
            stacks[(unit, face)] = left
        else:
            del stacks[(unit, face)]
            side = self.sides[unit]
            areas = self._occupants.get(side)
            if areas is not None and not any(self.sides[u] == side for u, _ in stacks):
                areas.discard(area)
                self._occupied.pop(side, None)

    def clear(self, area: str) -> None:
        """Every unit off the area (for set-ups built by hand)."""
        self._touch(area)
        self._occupants, self._occupied = {}, {}
        self.units[area] = {}

    def _touch(self, area: str) -> None:
        """The units of the area are about to change: a new version, and what was kept of
        the area goes."""
        self.version = next(_VERSIONS)
        self.changed[area] = self.version
        self._stacks.pop(area, None)
        self._counts.pop(area, None)

    def set_control(self, area: str, side: str) -> None:
        self.version = next(_VERSIONS)
        self.changed[area] = self.version
        self.control[area] = side

    def turn(self, area: str, unit: str, face: str, n: int = 1) -> None:
        """Turn n units of a type in the area to `face`."""
        other = USED if face == READY else READY
        self.take(area, unit, other, n)
        self.add(area, unit, face, n)

    def to_pool(self, pool: str, unit: str, n: int = 1) -> None:
        stock = self.pools.setdefault(pool, {})
        stock[unit] = stock.get(unit, 0) + n

    def from_pool(self, pool: str, unit: str, n: int = 1) -> None:
        stock = self.pools[pool]
        stock[unit] -= n
        if not stock[unit]:
            del stock[unit]

    # -- questions -----------------------------------------------------------------------------
    def stacks(self, area: str, side: str | None = None) -> list[tuple[str, str, int]]:
        """(type, face, count) in the area, of one side or all, in a fixed order (kept until
        the area changes: callers must not change the list)."""
        kept = self._stacks.get(area)
        if kept is None:
            kept = self._stacks[area] = {}
        found = kept.get(side)
        if found is None:
            found = kept[side] = sorted(
                (u, f, n) for (u, f), n in self.units.get(area, {}).items()
                if n and (side is None or self.sides[u] == side))
        return found

    def has(self, area: str, side: str) -> bool:
        return area in self.occupied(side)

    def count(self, area: str, side: str, profiles: dict[str, UnitProfile],
              domain: str | None = None) -> int:
        """Units of `side` in the area, of one domain or all (kept until the area changes)."""
        kept = self._counts.get(area)
        if kept is None:
            kept = self._counts[area] = {}
        key = (side, domain, id(profiles))
        found = kept.get(key)
        if found is None:
            found = kept[key] = sum(
                n for (u, _), n in self.units.get(area, {}).items()
                if self.sides[u] == side and (domain is None or profiles[u].domain == domain))
        return found

    def occupied(self, side: str) -> frozenset[str]:
        """Areas holding units of `side` (kept up to date as units come and go)."""
        found = self._occupied.get(side)
        if found is None:
            areas = self._occupants.get(side)
            if areas is None:
                sides = self.sides
                areas = self._occupants[side] = {
                    a for a, stacks in self.units.items() if any(sides[u] == side for u, _ in stacks)}
            found = self._occupied[side] = frozenset(areas)
        return found

    def content(self) -> tuple:
        """The units, control, pools and what is out of the game as one hashable value, equal
        for equal forces whatever way they were reached (each area's part kept by its version)."""
        parts, changed, units, control = self._parts, self.changed, self.units, self.control
        found = []
        for area in sorted(units.keys() | control.keys()):
            stamp = changed.get(area)
            kept = parts.get(area)
            if kept is None or kept[0] != stamp:
                stacks = units.get(area)
                kept = parts[area] = (stamp, (area, control.get(area),
                                              tuple(sorted(stacks.items())) if stacks else ()))
            found.append(kept[1])
        return (tuple(found), tuple(sorted((p, tuple(sorted(stock.items()))) for p, stock in self.pools.items())),
                tuple(sorted(self.removed.items())))

    def where(self, unit: str) -> list[str]:
        """The areas holding units of the type, sorted (kept until the forces change: callers
        must not change the list)."""
        kept = self._where.get(unit)
        if kept is None or kept[0] != self.version:
            kept = self._where[unit] = (self.version, sorted(
                a for a, stacks in self.units.items() if any(n and u == unit for (u, _), n in stacks.items())))
        return kept[1]

    def total(self) -> dict[str, int]:
        """Type -> counters anywhere: map, pools and out of the game."""
        found: dict[str, int] = defaultdict(int)
        for stacks in self.units.values():
            for (unit, _), n in stacks.items():
                found[unit] += n
        for stock in self.pools.values():
            for unit, n in stock.items():
                found[unit] += n
        for unit, n in self.removed.items():
            found[unit] += n
        return dict(found)
