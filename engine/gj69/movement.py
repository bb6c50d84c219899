"""Where groups may go (§7, §9.2, §7.5), where units may retreat (§11.5) and which areas trace
a line of communication (§13), on the map and forces of a game.

A group moves with the smallest movement among its units (§7.1(2)): entering an area costs 1,
and 1 more when it is enemy-controlled or holds enemy units; leaving an area with enemy units
costs 1 more. Across a sea-area border (sea-sea or sea-land) land units move at most 2 and a
group takes at most 2 of them (§7.3(1)); across a mountain border a group is 1 unit (§7.3(2)).
Ships never enter land areas; air units pass anything but stop only in a land area their side
controls, at most 4 there (§7.2, §7.4); a side has at most 10 land units in a land area (§7.4(1)).
No unit enters an area closed to its side (§2.2.1(3)) or, for a confined nation, outside its
areas (§16.3); an enemy fortress area is not entered from an enemy-controlled or a sea area
(§16.1(1)).
"""
from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Forces
from .units import UnitProfile

LAND_LIMIT = 10      # §7.4(1)
AIR_LIMIT = 4        # §7.4(2)


@dataclass(frozen=True)
class Mover:
    """A group as movement sees it."""

    side: str
    movement: int                 # the smallest movement, or the card's allowance
    size: int
    land: int                     # land units in the group
    air: int                      # air units
    ships: int
    nations: frozenset[str]
    sea_limits: bool = True       # §7.3(1)① applies (not for the Japanese Independent Units)
    sea_land_units: int = 2       # §7.3(1)②, or the card's number (Landing Operation: 10)
    enter_sea: bool = True        # false for Bicycle Troops


class Movement:
    """The movement rules of one game: the map, the unit profiles and the special rules."""

    def __init__(self, board: Board, profiles: dict[str, UnitProfile], sides: list[str],
                 fortress: dict | None, confinement: dict[str, frozenset[str]]):
        self.board = board
        self.profiles = profiles
        self.sides = sides
        self.fortress_areas = frozenset(fortress.get("spaces") or []) if fortress else frozenset()
        blocked = set((fortress or {}).get("no_entry_from") or [])
        self.fortress_from_enemy = "enemy_controlled" in blocked
        self.fortress_from_sea = "sea" in blocked
        self.confinement = confinement
        self._enterable: dict = {}
        self._unit_areas: dict[str, frozenset[str]] = {}
        self._links = {a: tuple((b, kind, board.areas[b].land, kind in ("sea", "coast"))
                                for b, kind in links) for a, links in board.neighbours.items()}
        self._sea_links = {a: [b for b, kind in links if kind in ("sea", "coast")]
                           for a, links in board.neighbours.items()}
        self._passage_key: tuple | None = None
        self._passage: dict[str, frozenset[str]] = {}
        self._ends: dict[str, tuple[frozenset[str], list[str]]] = {}
        self._movers: dict[tuple, Mover] = {}
        self._air_ranges: dict[tuple, list[str]] = {}      # the map's alone: kept for the game

    def enemy(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    # -- who may be where ----------------------------------------------------------------------
    def may_enter(self, area: str, side: str, nations) -> bool:
        """§2.2.1(3) closed areas; §16.3 confined nations."""
        closed = self.board.areas[area].closed_to
        if side in closed:
            return False
        for nation in nations:
            if nation in closed:
                return False
            allowed = self.confinement.get(nation)
            if allowed is not None and area not in allowed:
                return False
        return True

    def unit_may_be(self, unit: str, area: str) -> bool:
        found = self._unit_areas.get(unit)
        if found is None:
            profile = self.profiles[unit]
            found = self._unit_areas[unit] = self.enterable(profile.side, frozenset((profile.owner,)))
        return area in found

    def fortress_blocks(self, source: str, target: str, side: str, control: dict[str, str]) -> bool:
        """§16.1(1): an enemy fortress area is not entered directly from an enemy-controlled
        area or from a sea area."""
        if target not in self.fortress_areas or control.get(target) == side:
            return False
        if self.fortress_from_sea and not self.board.areas[source].land:
            return True
        return self.fortress_from_enemy and control.get(source) != side

    def mover(self, side: str, units, movement: int | None = None, **limits) -> Mover:
        """The Mover of a group given as (type, count) pairs (kept: groups repeat)."""
        units = tuple(units)
        key = (side, units, movement, tuple(sorted(limits.items())))
        found = self._movers.get(key)
        if found is None:
            if len(self._movers) > 4096:
                self._movers.clear()
            found = self._movers[key] = self._mover(side, units, movement, **limits)
        return found

    def _mover(self, side: str, units, movement: int | None = None, **limits) -> Mover:
        profiles = [(self.profiles[u], n) for u, n in units]
        least = min(p.movement for p, _ in profiles)
        return Mover(side, least if movement is None else movement, sum(n for _, n in profiles),
                     sum(n for p, n in profiles if p.domain == "land"),
                     sum(n for p, n in profiles if p.domain == "air"),
                     sum(n for p, n in profiles if p.domain == "sea"),
                     frozenset(p.owner for p, _ in profiles), **limits)

    def room(self, forces: Forces, area: str, side: str, land: int, air: int) -> bool:
        """§7.4: whether `land` land units and `air` air units of `side` may stop in the area."""
        if not self.board.areas[area].land:
            return air == 0
        if air and (forces.control.get(area) != side
                    or forces.count(area, side, self.profiles, "air") + air > AIR_LIMIT):
            return False
        return not land or forces.count(area, side, self.profiles, "land") + land <= LAND_LIMIT

    # -- normal moves (§7.1-§7.4) --------------------------------------------------------------
    def destinations(self, forces: Forces, mover: Mover, origin: str) -> dict[str, int]:
        """Areas the group may move to from `origin`, with the movement it spends."""
        side, board, control = mover.side, self.board, forces.control
        enemy_at = forces.occupied(self.enemy(side))
        enterable = self.enterable(side, mover.nations)
        full = mover.movement
        capped = bool(mover.land) and mover.sea_limits
        cap = min(full, board.sea_movement) if capped else full
        no_mountain = mover.size > board.mountain_group
        no_sea = mover.land > mover.sea_land_units
        best = {(origin, False): 0}
        buckets: list[list] = [[] for _ in range(full + 1)]
        buckets[0].append((origin, False))
        reached: dict[str, int] = {}
        for cost in range(full + 1):                 # costs are small: one bucket per cost
            for area, crossed in buckets[cost]:
                if best[(area, crossed)] != cost:
                    continue
                if area != origin and cost < reached.get(area, 99):
                    reached[area] = cost
                leave = 1 if area in enemy_at else 0
                for other, kind, land, sea_border in self._links[area]:
                    if other not in enterable or mover.ships and land or not mover.enter_sea and not land:
                        continue
                    if sea_border and no_sea or kind == "mountain" and no_mountain:
                        continue
                    if other in self.fortress_areas and self.fortress_blocks(area, other, side, control):
                        continue
                    total = cost + 1 + leave + (1 if other in enemy_at or control.get(other) != side else 0)
                    now = crossed or (sea_border and capped)
                    if total > (cap if now else full) or total >= best.get((other, now), 99):
                        continue
                    best[(other, now)] = total
                    buckets[total].append((other, now))
        return {area: cost for area, cost in sorted(reached.items())
                if self._may_stop(forces, area, mover)}

    def enterable(self, side: str, nations) -> frozenset[str]:
        """The areas a group of `side` with units of these nations may enter."""
        key = (side, nations)
        found = self._enterable.get(key)
        if found is None:
            found = self._enterable[key] = frozenset(
                a for a in self.board.ids if self.may_enter(a, side, nations))
        return found

    def _may_stop(self, forces: Forces, area: str, mover: Mover) -> bool:
        land = self.board.areas[area].land
        if mover.air and not land:
            return False                                   # §7.2(2)
        return self.room(forces, area, mover.side, mover.land if land else 0, mover.air)

    # -- air operations (§9) -------------------------------------------------------------------
    def air_move_destinations(self, forces: Forces, mover: Mover, origin: str) -> list[str]:
        """§9.2: from own area to own area, 1 movement per area entered whatever is there."""
        side = mover.side
        found = {origin: 0}
        frontier = [origin]
        while frontier:
            following = []
            for area in frontier:
                if found[area] >= mover.movement:
                    continue
                for other in self.board.adjacent[area]:
                    if other not in found and self.may_enter(other, side, mover.nations):
                        found[other] = found[area] + 1
                        following.append(other)
            frontier = following
        return [a for a in sorted(found) if a != origin and self.board.areas[a].land
                and self.room(forces, a, side, 0, mover.air)]

    def air_range(self, origin: str, movement: int, carriers: bool, side: str,
                  nations=frozenset()) -> list[str]:
        """§9.1(3): the area of the group and those next to it; air units in a land area reach
        land areas within their movement, counted through areas the group may enter (§2.2.1(3):
        an area closed to the side may be struck, not flown through). Kept: callers must not
        change the list."""
        key = (origin, movement, carriers, side, nations)
        found = self._air_ranges.get(key)
        if found is None:
            found = self._air_ranges[key] = self._air_range(origin, movement, carriers, side, nations)
        return found

    def _air_range(self, origin: str, movement: int, carriers: bool, side: str, nations) -> list[str]:
        near = {origin} | self.board.adjacent[origin]
        if not carriers and self.board.areas[origin].land:
            found = {origin: 0}
            frontier = [origin]
            for steps in range(1, movement + 1):
                following = []
                for area in frontier:
                    for other in self.board.adjacent[area]:
                        if other in found:
                            continue
                        found[other] = steps
                        if self.may_enter(other, side, nations):
                            following.append(other)
                frontier = following
            near |= {a for a in found if self.board.areas[a].land}
        return sorted(near)

    # -- sea transport (§7.5) ------------------------------------------------------------------
    def transport_destinations(self, forces: Forces, mover: Mover, origin: str) -> list[str]:
        """Through own sea areas without enemy units and across sea-area borders only, as far
        as wanted; the first or the last area may hold enemy units, not both; an enemy area is
        entered only where own units are."""
        side, control = mover.side, forces.control
        enemy_at = forces.occupied(self.enemy(side))
        mine = forces.occupied(side)
        sea_links = self._sea_links
        passage, ends = self._ends_from(forces, side, origin)
        found = []
        for area in ends:
            if origin in enemy_at and area in enemy_at:
                continue
            if control.get(area) != side and area not in mine:
                continue
            if not self.may_enter(area, side, mover.nations):
                continue
            # the last step is from the origin or from a sea area of the passage
            if area in self.fortress_areas and control.get(area) != side and all(
                    self.fortress_blocks(s, area, side, control)
                    for s in [origin, *passage] if area in sea_links[s]):
                continue
            if not self._may_stop(forces, area, mover):
                continue
            found.append(area)
        return found

    def _ends_from(self, forces: Forces, side: str, origin: str) -> tuple[frozenset[str], list[str]]:
        """The passage of a sea transport from `origin` (own sea areas without enemy units,
        joined to it by sea borders) and the areas it may end in before the rules of the end
        are checked, sorted; kept until the forces change."""
        component = self._passages(forces, side)
        found = self._ends.get(origin)
        if found is None:
            sea_links = self._sea_links
            passage: set[str] = set()
            for area in sea_links[origin]:
                passage |= component.get(area, frozenset())
            ends = set(sea_links[origin]) | passage
            for area in passage:
                ends.update(sea_links[area])
            ends.discard(origin)
            found = self._ends[origin] = (frozenset(passage), sorted(ends))
        return found

    def _passages(self, forces: Forces, side: str) -> dict[str, frozenset[str]]:
        """Sea area -> the own sea areas without enemy units joined to it by sea borders (its
        connected part), for the side's sea transports; kept until the forces change."""
        key = (side, forces.version)
        if self._passage_key == key:
            return self._passage
        enemy_at = forces.occupied(self.enemy(side))
        open_seas = {a for a in self.board.ids if not self.board.areas[a].land
                     and forces.control.get(a) == side and a not in enemy_at}
        found: dict[str, frozenset[str]] = {}
        for start in sorted(open_seas):
            if start in found:
                continue
            part, frontier = {start}, [start]
            while frontier:
                following = []
                for area in frontier:
                    for other in self._sea_links[area]:
                        if other in open_seas and other not in part:
                            part.add(other)
                            following.append(other)
                frontier = following
            frozen = frozenset(part)
            for area in part:
                found[area] = frozen
        self._passage_key, self._passage, self._ends = key, found, {}
        return found

    def step_cost(self, forces: Forces, mover: Mover, origin: str, target: str) -> int | None:
        """The movement a move to an adjacent area spends, or None when the rules refuse it
        (the same rules as `destinations`, for one step)."""
        kind = next((k for other, k, _, _ in self._links[origin] if other == target), None)
        if kind is None:
            return None
        side, control = mover.side, forces.control
        land = self.board.areas[target].land
        if target not in self.enterable(side, mover.nations) or mover.ships and land \
                or not mover.enter_sea and not land:
            return None
        sea_border = kind in ("sea", "coast")
        if sea_border and mover.land > mover.sea_land_units \
                or kind == "mountain" and mover.size > self.board.mountain_group:
            return None
        if self.fortress_blocks(origin, target, side, control):
            return None
        enemy_at = forces.occupied(self.enemy(side))
        cost = 1 + (origin in enemy_at) + (target in enemy_at or control.get(target) != side)
        limit = mover.movement
        if sea_border and mover.land and mover.sea_limits:
            limit = min(limit, self.board.sea_movement)
        if cost > limit or not self._may_stop(forces, target, mover):
            return None
        return cost

    # -- retreats (§11.5) ----------------------------------------------------------------------
    def retreat_areas(self, forces: Forces, area: str, unit: str) -> list[str]:
        """Adjacent land areas held by the unit's side, without enemy units and with fewer than
        10 of its land units, across a border a retreat may cross, that the unit may enter."""
        profile = self.profiles[unit]
        side = profile.side
        enemy = self.enemy(side)
        found = []
        for other, kind in self.board.neighbours[area]:
            if kind == "mountain" and not self.board.mountain_retreat:
                continue
            if not self.board.areas[other].land or forces.control.get(other) != side:
                continue
            if forces.has(other, enemy) or not self.may_enter(other, side, (profile.owner,)):
                continue
            if forces.count(other, side, self.profiles, "land") >= LAND_LIMIT:
                continue
            found.append(other)
        return found

    # -- lines of communication (§13) ----------------------------------------------------------
    def supplied(self, forces: Forces, side: str) -> set[str]:
        """Areas that trace a line of communication to one of the side's supply sources: through
        areas the side controls; it may end in one enemy-controlled area (§13(1)-(3))."""
        control = forces.control
        reached = {s for s in self.board.supply_sources.get(side, ()) if control.get(s) == side}
        frontier = list(reached)
        while frontier:
            following = []
            for area in frontier:
                for other in self.board.adjacent[area]:
                    if other not in reached and control.get(other) == side:
                        reached.add(other)
                        following.append(other)
            frontier = following
        found = set(reached)
        for area in reached:
            found |= self.board.adjacent[area]
        return found
