"""Maximum-weight matching on a general graph with exact integer weights.

rustworkx (Rust, 128-bit integers) does the work when the weights fit; larger weights go to
networkx, which computes with Python's unbounded integers. Both return *a* maximum-weight
matching (not necessarily of maximum cardinality); the callers make the optimum unique
through the weights, so which of several optima a library returns never matters.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import rustworkx as rx

# rustworkx doubles weights and keeps dual variables of the same size in i128.
_RUST_LIMIT = 1 << 120


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """``mate[v]`` for every vertex ``0..n-1`` (``-1`` when unmatched). Edge weights must be > 0."""
    mate = [-1] * n
    if not edges:
        return mate
    if max(w for _, _, w in edges) < _RUST_LIMIT:
        graph: rx.PyGraph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        graph.add_edges_from(list(edges))
        pairs = rx.max_weight_matching(graph, weight_fn=lambda w: w)
    else:
        g: nx.Graph = nx.Graph()
        g.add_weighted_edges_from(edges)
        pairs = nx.max_weight_matching(g)
    for a, b in pairs:
        mate[a] = b
        mate[b] = a
    return mate
