"""The AA50 board as whole games need it, read once from the scenario (rulebook §2).

Spaces and borders come from map.yaml; who plays, in which order, with which capital and
money from scenario.yaml and setup.yaml. Distances are worked out once: air units fly over
anything but neutral territories (§2.2), so their distances are shortest paths on the board
without neutrals; land and sea movement depends on who holds what, and is found per move
(movement.py).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from validators.index import LAND_KINDS, build_index

NEUTRAL_TAGS = {"neutral", "impassable"}
FAR = 99


@dataclass
class Nation:
    id: str
    side: str
    capital: str | None
    played_by: str | None = None


@dataclass
class Board:
    spaces: list[str]
    number: dict[str, int]                       # space -> index in `spaces`
    land: set[str]
    sea: set[str]
    neutral: set[str]                            # impassable to every unit (§2.2)
    value: dict[str, int]
    victory_cities: set[str]
    neighbours: dict[str, list[str]]             # every border but canals
    canal_borders: dict[frozenset, str]          # the two sea zones a canal joins -> canal id
    canal_holders: dict[str, list[str]]          # canal -> the territories that control it
    air_distance: np.ndarray                     # (n, n) int16: fewest spaces an aircraft flies
    land_distance: np.ndarray                    # (n, n) int16: fewest land moves (FAR: none)
    coasts: dict[str, list[str]]                 # territory -> adjacent sea zones
    shores: dict[str, list[str]]                 # sea zone -> adjacent territories
    original_owner: dict[str, str] = field(default_factory=dict)
    islands: set[str] = field(default_factory=set)

    def is_land(self, space: str) -> bool:
        return space in self.land

    def distance(self, a: str, b: str) -> int:
        return int(self.air_distance[self.number[a], self.number[b]])


def read_board(scenario, start_control: dict[str, str]) -> Board:
    index = build_index(scenario)
    spaces = sorted(index.spaces)
    number = {s: i for i, s in enumerate(spaces)}
    land: set[str] = set()
    sea: set[str] = set()
    neutral: set[str] = set()
    islands: set[str] = set()
    value: dict[str, int] = {}
    cities: set[str] = set()
    original: dict[str, str] = {}
    for sid, entity in index.spaces.items():
        data = entity.data
        (land if data.get("kind") in LAND_KINDS else sea).add(sid)
        tags = set(data.get("tags") or [])
        if tags & NEUTRAL_TAGS:
            neutral.add(sid)
        if "victory_city" in tags:
            cities.add(sid)
        if "island" in tags:
            islands.add(sid)
        raw = data.get("value", 0)
        value[sid] = int(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else 0
        owner = data.get("original_owner") or start_control.get(sid)
        if owner and sid in land:
            original[sid] = owner
    neighbours: dict[str, list[str]] = {s: [] for s in spaces}
    canal_borders: dict[frozenset, str] = {}
    for _, border in scenario.entities("map", "borders"):
        pair = border.get("between") or []
        if len(pair) != 2 or not all(p in number for p in pair):
            continue
        a, b = pair
        if border.get("kind") == "canal":
            canal_borders[frozenset(pair)] = border.get("canal") or "canal"
            continue
        if b not in neighbours[a]:
            neighbours[a].append(b)
        if not border.get("directed") and a not in neighbours[b]:
            neighbours[b].append(a)
    for found in neighbours.values():
        found.sort()
    holders = {c["id"]: list(c.get("controlled_by") or [])
               for _, c in scenario.entities("map", "canals") if isinstance(c.get("id"), str)}
    coasts = {s: [n for n in neighbours[s] if n in sea] for s in land}
    shores = {s: [n for n in neighbours[s] if n in land and n not in neutral] for s in sea}
    air = _distances(spaces, number, neighbours, canal_borders, neutral)
    walls = neutral | sea
    on_foot = _distances(spaces, number, {s: ([] if s in walls else
                                              [n for n in neighbours[s] if n not in walls])
                                          for s in spaces}, {}, walls)
    return Board(spaces, number, land, sea, neutral, value, cities, neighbours, canal_borders,
                 holders, air, on_foot, coasts, shores, original, islands)


def _distances(spaces, number, neighbours, canal_borders, neutral) -> np.ndarray:
    """All shortest flying distances (breadth first from every space); neutrals are not
    flown over (§2.2), canals are no obstacle in the air."""
    count = len(spaces)
    links = [[number[n] for n in neighbours[s] if n not in neutral] for s in spaces]
    for pair in canal_borders:
        a, b = (number[s] for s in pair)
        links[a].append(b)
        links[b].append(a)
    found = np.full((count, count), FAR, dtype=np.int16)
    for start in range(count):
        if spaces[start] in neutral:
            continue
        row = found[start]
        row[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in links[here]:
                if row[there] == FAR:
                    row[there] = row[here] + 1
                    queue.append(there)
    return found


def read_nations(scenario) -> tuple[dict[str, Nation], list[str]]:
    """Nations by id, and the turn order (each nation played within another's turn, such as
    China within the United States', is placed just before that nation)."""
    nations = {}
    for _, entry in scenario.entities("scenario", "nations"):
        if isinstance(entry.get("id"), str):
            nations[entry["id"]] = Nation(entry["id"], entry.get("side"), entry.get("capital"),
                                          entry.get("played_by"))
    order = [n for n in scenario.manifest.get("turn_order") or [] if n in nations]
    for nation in nations.values():
        if nation.id not in order and nation.played_by in order:
            order.insert(order.index(nation.played_by), nation.id)
    return nations, order
