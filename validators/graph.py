"""The map as a graph: connected, seas joined, islands marked, rings closed.

The checks need only neighbours, connected parts and, on a ring board, where each square leads;
they are written here on plain dictionaries rather than with networkx, whose import alone takes
longer than validating a small scenario (`benchmarks/startup.py` measures the start-up).

Spaces tagged `off_board` (boxes for notes and markers beside the board) need no border, and
waters tagged `lake` (lakes, rivers, inland seas) need no sea passage to the other seas.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from sandtable.diagnostics import Diagnostic, error, warning
from sandtable.scenario import Scenario

from .index import LAND_KINDS, ScenarioIndex


class MapGraph:
    """Spaces (with their kind) and the undirected borders between them."""

    def __init__(self) -> None:
        self.kinds: dict[str, object] = {}
        self.neighbours: dict[str, set[str]] = {}

    def add_space(self, space: str, kind: object) -> None:
        self.kinds[space] = kind
        self.neighbours.setdefault(space, set())

    def add_border(self, a: str, b: str) -> None:
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)

    def degree(self, space: str) -> int:
        return len(self.neighbours[space])

    def __contains__(self, space: object) -> bool:
        return space in self.kinds

    def remove(self, spaces: set[str]) -> None:
        """Leave out spaces and their borders."""
        for space in spaces & set(self.kinds):
            for neighbour in self.neighbours.pop(space):
                if neighbour in self.neighbours:
                    self.neighbours[neighbour].discard(space)
            del self.kinds[space]

    def parts(self, spaces: Iterable[str]) -> list[set[str]]:
        """The connected parts of the graph that keeps only `spaces` and the borders among them."""
        keep = set(spaces)
        seen: set[str] = set()
        found = []
        for start in (s for s in self.kinds if s in keep):
            if start in seen:
                continue
            part, frontier = {start}, [start]
            while frontier:
                for neighbour in self.neighbours[frontier.pop()]:
                    if neighbour in keep and neighbour not in part:
                        part.add(neighbour)
                        frontier.append(neighbour)
            seen |= part
            found.append(part)
        return found


def map_graph(scenario: Scenario, index: ScenarioIndex) -> MapGraph:
    """The spaces and their borders; a border naming an unknown space, or one space twice, is left
    out (the reference and border checks report it)."""
    graph = MapGraph()
    for space_id, entity in index.spaces.items():
        graph.add_space(space_id, entity.data.get("kind"))
    for _, border in scenario.entities("map", "borders"):
        pair = border.get("between")
        if isinstance(pair, list) and len(pair) == 2 and all(p in index.spaces for p in pair) \
                and pair[0] != pair[1]:
            graph.add_border(pair[0], pair[1])
    return graph


def topology(scenario: Scenario) -> str:
    value = scenario.doc("map").get("topology")
    return value if isinstance(value, str) else "areas"


OFF_BOARD, LAKE = "off_board", "lake"


def _tagged(index: ScenarioIndex, tag: str) -> set[str]:
    return {s for s, e in index.spaces.items() if isinstance(e.data.get("tags"), list) and tag in e.data["tags"]}


def check_graph(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    if not index.spaces or "map" in scenario.failed_kinds:
        return
    graph = map_graph(scenario, index)
    graph.remove(_tagged(index, OFF_BOARD))
    yield from _isolated(scenario, index, graph)
    yield from _connected(scenario, index, graph)
    if topology(scenario) in ("areas", "sea-areas"):
        yield from _seas_connected(scenario, index, graph)
        yield from _islands(scenario, index, graph)
    if topology(scenario) == "ring":
        yield from _ring(scenario, index)


def _where(scenario, index, space_id, field="id"):
    return scenario.locate("map", f"{index.spaces[space_id].pointer}/{field}")


def _isolated(scenario, index, graph: MapGraph) -> Iterator[Diagnostic]:
    for space_id in graph.kinds:
        if graph.degree(space_id) == 0 and len(graph.kinds) > 1:
            yield error("MAP007", f"{space_id!r} has no border: no unit can ever reach it",
                        _where(scenario, index, space_id),
                        hint="add its borders, or remove the space")


def _cut_off_groups(graph: MapGraph, spaces: list[str], index) -> Iterator[tuple[str, str, int]]:
    """For each group of `spaces` cut off from the largest: its first space, a sample of names,
    the largest group's size."""
    parts = sorted(graph.parts(spaces), key=lambda c: (-len(c), min(c)))
    for part in parts[1:]:
        first = min(part, key=lambda s: index.spaces[s].pointer)
        sample = ", ".join(sorted(part)[:5]) + (" ..." if len(part) > 5 else "")
        yield first, sample, len(parts[0])


def _connected(scenario, index, graph: MapGraph) -> Iterator[Diagnostic]:
    linked = [space for space in graph.kinds if graph.degree(space) > 0]
    if len(linked) < 2:
        return
    for first, sample, rest in _cut_off_groups(graph, linked, index):
        yield error("MAP005", f"the map falls apart: {sample} are cut off from the other {rest} "
                    f"space(s)", _where(scenario, index, first),
                    hint="a border is missing between this group and the rest of the map")


def _seas_connected(scenario, index, graph: MapGraph) -> Iterator[Diagnostic]:
    lakes = _tagged(index, LAKE)
    seas = [space for space, kind in graph.kinds.items() if kind == "sea" and space not in lakes]
    if len(seas) < 2:
        return
    for first, sample, rest in _cut_off_groups(graph, seas, index):
        yield error("MAP006", f"sea spaces {sample} cannot be reached by sea from the other "
                    f"{rest} sea spaces", _where(scenario, index, first),
                    hint="add the sea border (or canal or wrap-around) that joins them")


def _islands(scenario, index, graph: MapGraph) -> Iterator[Diagnostic]:
    for space_id, entity in index.spaces.items():
        kind = entity.data.get("kind")
        if kind not in LAND_KINDS or space_id not in graph:
            continue
        tags = entity.data.get("tags") if isinstance(entity.data.get("tags"), list) else []
        neighbour_kinds = [graph.kinds[n] for n in graph.neighbours[space_id]]
        touches_sea = "sea" in neighbour_kinds
        only_sea = bool(neighbour_kinds) and all(k == "sea" for k in neighbour_kinds)
        if "island" in tags and not touches_sea:
            yield error("MAP008", f"{space_id!r} is marked as an island but touches no sea space",
                        _where(scenario, index, space_id, "tags"),
                        hint="add its coast borders, or remove the island tag")
        elif only_sea and "island" not in tags and kind == "land":
            yield warning("MAP009", f"{space_id!r} touches only sea spaces but is not marked as an island",
                          _where(scenario, index, space_id),
                          hint="add 'island' to its tags (islands have their own movement rules)")


def _ring(scenario, index) -> Iterator[Diagnostic]:
    """A ring board: every square has one way out and one way in, and they close one cycle."""
    ways_out: dict[str, list[str]] = {space: [] for space in index.spaces}
    ways_in: dict[str, int] = dict.fromkeys(index.spaces, 0)

    def track(a: str, b: str) -> None:
        if b not in ways_out[a]:
            ways_out[a].append(b)
            ways_in[b] += 1

    for _, border in scenario.entities("map", "borders"):
        pair = border.get("between")
        if border.get("kind") == "track" and isinstance(pair, list) and len(pair) == 2 \
                and all(p in index.spaces for p in pair):
            track(pair[0], pair[1])
            if not border.get("directed"):
                track(pair[1], pair[0])
    for space_id in index.spaces:
        outs, ins = len(ways_out[space_id]), ways_in[space_id]
        if outs != 1 or ins != 1:
            yield error("MAP010", f"on a ring board every square has one way out and one way in; "
                        f"{space_id!r} has {outs} out and {ins} in", _where(scenario, index, space_id),
                        hint="join each square to the next with one directed track border")
            return
    # One way out and one way in everywhere: the squares fall into cycles; follow each.
    cycles, placed = [], set()
    for start in index.spaces:
        if start in placed:
            continue
        cycle, square = [], start
        while square not in placed:
            placed.add(square)
            cycle.append(square)
            square = ways_out[square][0]
        cycles.append(cycle)
    if len(cycles) != 1 or len(cycles[0]) != len(index.spaces):
        sizes = sorted((len(c) for c in cycles), reverse=True)
        first = next(iter(index.spaces))
        yield error("MAP010", f"the ring is not one cycle through all {len(index.spaces)} squares "
                    f"(cycles of {', '.join(map(str, sizes))})", _where(scenario, index, first))
