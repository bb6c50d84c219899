"""The map graph's connected parts agree with networkx's on random graphs."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from validators.graph import MapGraph

nx = pytest.importorskip("networkx")

spaces = st.integers(min_value=1, max_value=30)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_parts_are_networkx_connected_components(data):
    count = data.draw(spaces)
    names = [f"s{i}" for i in range(count)]
    borders = data.draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=40))
    keep = data.draw(st.sets(st.sampled_from(names)))
    graph, reference = MapGraph(), nx.Graph()
    for name in names:
        graph.add_space(name, "land")
        reference.add_node(name)
    for a, b in borders:
        if a != b:
            graph.add_border(a, b)
            reference.add_edge(a, b)
    assert [graph.degree(n) for n in names] == [reference.degree(n) for n in names]
    ours = sorted(sorted(part) for part in graph.parts(keep))
    theirs = sorted(sorted(part) for part in nx.connected_components(reference.subgraph(keep)))
    assert ours == theirs
