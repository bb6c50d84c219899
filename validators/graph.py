"""The map as a graph (networkx): connected, seas joined, islands marked, rings closed."""
from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from sandtable.diagnostics import Diagnostic, error, warning
from sandtable.scenario import Scenario

from .index import LAND_KINDS, ScenarioIndex


def map_graph(scenario: Scenario, index: ScenarioIndex) -> nx.Graph:
    """Undirected graph of the spaces; each edge keeps its border's kind."""
    graph = nx.Graph()
    for space_id, entity in index.spaces.items():
        graph.add_node(space_id, kind=entity.data.get("kind"))
    for _, border in scenario.entities("map", "borders"):
        pair = border.get("between")
        if isinstance(pair, list) and len(pair) == 2 and all(p in index.spaces for p in pair) \
                and pair[0] != pair[1]:
            graph.add_edge(pair[0], pair[1], kind=border.get("kind"))
    return graph


def topology(scenario: Scenario) -> str:
    value = scenario.doc("map").get("topology")
    return value if isinstance(value, str) else "areas"


def check_graph(scenario: Scenario, index: ScenarioIndex) -> Iterator[Diagnostic]:
    if not index.spaces or "map" in scenario.failed_kinds:
        return
    graph = map_graph(scenario, index)
    yield from _isolated(scenario, index, graph)
    yield from _connected(scenario, index, graph)
    if topology(scenario) in ("areas", "sea-areas"):
        yield from _seas_connected(scenario, index, graph)
        yield from _islands(scenario, index, graph)
    if topology(scenario) == "ring":
        yield from _ring(scenario, index)


def _where(scenario, index, space_id, field="id"):
    return scenario.locate("map", f"{index.spaces[space_id].pointer}/{field}")


def _isolated(scenario, index, graph) -> Iterator[Diagnostic]:
    for space_id in graph.nodes:
        if graph.degree(space_id) == 0 and len(graph) > 1:
            yield error("MAP007", f"{space_id!r} has no border: no unit can ever reach it",
                        _where(scenario, index, space_id),
                        hint="add its borders, or remove the space")


def _cut_off_groups(graph: nx.Graph, index) -> Iterator[tuple[str, str, int]]:
    """For each group cut off from the largest: its first space, a sample of names, the rest's size."""
    parts = sorted(nx.connected_components(graph), key=lambda c: (-len(c), min(c)))
    for part in parts[1:]:
        first = min(part, key=lambda s: index.spaces[s].pointer)
        sample = ", ".join(sorted(part)[:5]) + (" ..." if len(part) > 5 else "")
        yield first, sample, len(parts[0])


def _connected(scenario, index, graph) -> Iterator[Diagnostic]:
    linked = graph.subgraph([n for n in graph.nodes if graph.degree(n) > 0])
    if len(linked) < 2:
        return
    for first, sample, rest in _cut_off_groups(linked, index):
        yield error("MAP005", f"the map falls apart: {sample} are cut off from the other {rest} "
                    f"space(s)", _where(scenario, index, first),
                    hint="a border is missing between this group and the rest of the map")


def _seas_connected(scenario, index, graph) -> Iterator[Diagnostic]:
    seas = [n for n, kind in graph.nodes(data="kind") if kind == "sea"]
    if len(seas) < 2:
        return
    for first, sample, rest in _cut_off_groups(graph.subgraph(seas), index):
        yield error("MAP006", f"sea spaces {sample} cannot be reached by sea from the other "
                    f"{rest} sea spaces", _where(scenario, index, first),
                    hint="add the sea border (or canal or wrap-around) that joins them")


def _islands(scenario, index, graph) -> Iterator[Diagnostic]:
    for space_id, entity in index.spaces.items():
        kind = entity.data.get("kind")
        if kind not in LAND_KINDS:
            continue
        tags = entity.data.get("tags") if isinstance(entity.data.get("tags"), list) else []
        neighbour_kinds = [graph.nodes[n]["kind"] for n in graph.neighbors(space_id)]
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
    directed = nx.DiGraph()
    directed.add_nodes_from(index.spaces)
    for _, border in scenario.entities("map", "borders"):
        pair = border.get("between")
        if border.get("kind") == "track" and isinstance(pair, list) and len(pair) == 2 \
                and all(p in index.spaces for p in pair):
            directed.add_edge(pair[0], pair[1])
            if not border.get("directed"):
                directed.add_edge(pair[1], pair[0])
    for space_id in index.spaces:
        outs, ins = directed.out_degree(space_id), directed.in_degree(space_id)
        if outs != 1 or ins != 1:
            yield error("MAP010", f"on a ring board every square has one way out and one way in; "
                        f"{space_id!r} has {outs} out and {ins} in", _where(scenario, index, space_id),
                        hint="join each square to the next with one directed track border")
            return
    cycles = list(nx.simple_cycles(directed))
    if len(cycles) != 1 or len(cycles[0]) != len(index.spaces):
        sizes = sorted((len(c) for c in cycles), reverse=True)
        first = next(iter(index.spaces))
        yield error("MAP010", f"the ring is not one cycle through all {len(index.spaces)} squares "
                    f"(cycles of {', '.join(map(str, sizes))})", _where(scenario, index, first))
