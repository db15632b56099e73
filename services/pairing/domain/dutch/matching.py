"""Matchings: maximum-weight on a general graph with exact integer weights, and fast
cardinality helpers on boolean adjacency matrices.

rustworkx (Rust, 128-bit integers) does the work when the weights fit; larger weights go to
networkx, which computes with Python's unbounded integers. Both return *a* maximum-weight
matching (not necessarily of maximum cardinality); the callers make the optimum unique
through the weights, so which of several optima a library returns never matters.

Both libraries are imported where they are used, not with this module: a command line that pairs
a round without them starts in a fraction of the time (``make bench`` prints the import times).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import networkx as nx
    import rustworkx as rx

Mask = npt.NDArray[np.bool_]
Index = npt.NDArray[np.intp]

# rustworkx doubles weights and keeps dual variables of the same size in i128.
_RUST_LIMIT = 1 << 120


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """``mate[v]`` for every vertex ``0..n-1`` (``-1`` when unmatched). Edge weights must be > 0."""
    mate = [-1] * n
    if not edges:
        return mate
    if max(w for _, _, w in edges) < _RUST_LIMIT:
        import rustworkx as rx

        graph: rx.PyGraph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        graph.add_edges_from(list(edges))
        pairs = rx.max_weight_matching(graph, weight_fn=lambda w: w)
    else:
        import networkx as nx

        g: nx.Graph = nx.Graph()
        g.add_weighted_edges_from(edges)
        pairs = nx.max_weight_matching(g)
    for a, b in pairs:
        mate[a] = b
        mate[b] = a
    return mate


def greedy_matching(sub: Mask) -> Index:
    """A maximal matching, each vertex in turn with the first compatible free one after it."""
    size = sub.shape[0]
    mate = np.full(size, -1, dtype=np.intp)
    free = np.ones(size, dtype=bool)
    for i in range(size):
        if not free[i]:
            continue
        free[i] = False
        row = sub[i] & free
        j = int(row.argmax())
        if row[j]:
            mate[i], mate[j] = j, i
            free[j] = False
    return mate


def outer_vertices(sub: Mask, mate: Index, root: int, in_ng: Mask) -> tuple[Mask, Index, Index]:
    """The outer vertices of an alternating search from the exposed vertex ``root`` (without
    blossoms, so possibly fewer than all): ``o`` is outer when a path ``o == z - o' ... - root``
    alternates matched and unmatched edges (``o'`` is ``back[o]``). Also, for each, the change
    in the number of pairs among ``in_ng`` vertices when the path is flipped."""
    size = sub.shape[0]
    back = np.full(size, -1, dtype=np.intp)
    outer = np.zeros(size, dtype=bool)
    gain = np.zeros(size, dtype=np.int64)
    seen = np.zeros(size, dtype=bool)
    outer[root] = seen[root] = True
    frontier = np.array([root], dtype=np.intp)
    matched = mate >= 0
    while frontier.size:
        reach = sub[frontier] & ~seen & matched
        zs = np.flatnonzero(reach.any(axis=0))
        if zs.size == 0:
            break
        os = mate[zs]
        fresh = ~seen[os]
        zs, os = zs[fresh], os[fresh]
        prev = frontier[reach[:, zs].argmax(axis=0)]
        seen[zs] = seen[os] = True
        outer[os] = True
        back[os] = prev
        gain[os] = gain[prev] + (in_ng[zs] & in_ng[prev]) - (in_ng[os] & in_ng[zs])
        frontier = os
    return outer, gain, back


def flip(mate: Index, back: Index, start: int, partner: int) -> None:
    """Pair the outer vertex ``start`` with ``partner`` (outside the matching) and flip the
    alternating path from ``start`` back to its root, which ends up matched."""
    o, new = start, partner
    while True:
        z = int(mate[o])
        mate[o], mate[new] = new, o
        if back[o] < 0:
            return
        new, o = z, int(back[o])


def grow_matching(sub: Mask, split: int) -> Index:
    """A matching that pairs vertices ``0..split-1`` among themselves first, then the others,
    then across; each step grown by augmenting paths (found without blossoms, so the result is
    not always maximum)."""
    size = sub.shape[0]
    mate = np.full(size, -1, dtype=np.intp)
    for lo, hi in ((0, split), (split, size)):
        part = _grown(sub[lo:hi, lo:hi], greedy_matching(sub[lo:hi, lo:hi]))
        mate[lo:hi] = np.where(part >= 0, part + lo, -1)
    left = np.flatnonzero(mate < 0)
    if left.size:
        part = greedy_matching(sub[np.ix_(left, left)])
        hit = part >= 0
        mate[left[hit]] = left[part[hit]]
    return _grown(sub, mate)


_EXACT_SIZE = 400  # up to this many vertices, a search blocked by blossoms is redone exactly


def _grown(sub: Mask, mate: Index) -> Index:
    """``mate`` grown by augmenting paths, each unmatched vertex tried once as a root; if more
    vertices than parity requires stay unmatched in a small graph, a maximum matching."""
    for root in np.flatnonzero(mate < 0).tolist():
        if mate[root] >= 0:
            continue
        path = _augment(sub, mate, root)
        for a, b in path:
            mate[a], mate[b] = b, a
    size = sub.shape[0]
    if int((mate < 0).sum()) > size % 2 and size <= _EXACT_SIZE:
        import rustworkx as rx

        graph: rx.PyGraph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(size))
        graph.add_edges_from_no_data([(int(a), int(b)) for a, b in np.argwhere(np.triu(sub, 1))])
        pairs = rx.max_weight_matching(graph, max_cardinality=True)
        if 2 * len(pairs) > int((mate >= 0).sum()):
            mate = np.full(size, -1, dtype=np.intp)
            for a, b in pairs:
                mate[a], mate[b] = b, a
    return mate


def _augment(sub: Mask, mate: Index, root: int) -> list[tuple[int, int]]:
    """An augmenting path from the exposed ``root`` to another exposed vertex, as the pairs
    to make (empty if none is found)."""
    size = sub.shape[0]
    seen = np.zeros(size, dtype=bool)
    seen[root] = True
    parent = np.full(size, -1, dtype=np.intp)  # inner vertex z -> the outer vertex before it
    frontier = np.array([root], dtype=np.intp)
    while frontier.size:
        reach = sub[frontier] & ~seen
        zs = np.flatnonzero(reach.any(axis=0))
        if zs.size == 0:
            return []
        parent[zs] = frontier[reach[:, zs].argmax(axis=0)]
        free = zs[mate[zs] < 0]
        if free.size:
            z = int(free[0])
            pairs = []
            while True:
                o = int(parent[z])
                pairs.append((o, z))
                if o == root:
                    return pairs
                z = int(mate[o])
        os = mate[zs]
        fresh = ~seen[os]
        seen[zs] = True
        os = os[fresh]
        seen[os] = True
        frontier = os
    return []
