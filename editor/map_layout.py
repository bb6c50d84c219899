"""Placing spaces that have no stored position, with a force-directed layout (networkx).

Spaces that have a position stay where they are; the others are pulled towards their neighbours.
"""
from __future__ import annotations

import math

import networkx as nx

SPACING = 150.0  # pixels between neighbouring spaces in a fresh layout


def auto_layout(space_ids: list[str], edges: list[tuple[str, str]],
                placed: dict[str, tuple[float, float]], seed: int = 7) -> dict[str, list[float]]:
    """Positions (in scene pixels) for the spaces of `space_ids` that are not in `placed`."""
    missing = [s for s in space_ids if s not in placed]
    if not missing:
        return {}
    graph = nx.Graph()
    graph.add_nodes_from(space_ids)
    graph.add_edges_from((a, b) for a, b in edges if a in graph and b in graph)
    side = SPACING * math.sqrt(len(space_ids))
    if placed:
        xs = [p[0] for p in placed.values()]
        ys = [p[1] for p in placed.values()]
        left, top = min(xs), min(ys)
        span = max(max(xs) - left, max(ys) - top, side / 2)
        start = {s: ((p[0] - left) / span, (p[1] - top) / span) for s, p in placed.items()}
        found = nx.spring_layout(graph, pos=start, fixed=list(placed), seed=seed,
                                 k=1.0 / math.sqrt(len(space_ids)))
        return {s: [left + found[s][0] * span, top + found[s][1] * span] for s in missing}
    # A looser spring (k) and more iterations than networkx's defaults spread a board of a
    # hundred or more spaces so that names rarely overlap.
    found = nx.spring_layout(graph, seed=seed, k=2.5 / math.sqrt(len(space_ids)), iterations=150,
                             scale=side / 2, center=(side / 2, side / 2))
    return {s: [float(found[s][0]), float(found[s][1])] for s in missing}
