"""Vertex partitions and the local-forest filter, shared by multi-instance Prim and MPI.

:func:`partition` maps each vertex to a part (contiguous blocks, parts grown
by breadth-first search to equal edge counts, or METIS through ``pymetis``);
:func:`cut` reports what a partition costs: the edges that cross parts and
the boundary vertices at their ends (Sousa, section 4.3.2, lists the
three qualities a partition should have: balanced vertices, balanced edges,
few crossing edges).

The *local-forest filter* is the idea behind the
thesis's partitioned Prim: the minimum spanning forest of any subset of the
edges keeps every edge of the global forest that lies in the subset, by the
cycle property, so the local forests of the parts together with the
crossing edges hold the whole global forest. :func:`local_forests` grows
those local forests with one Prim instance per part, in parallel;
:func:`local_forest_filter` returns the surviving edge ids, for callers (the
``mpi`` backend, multi-GPU) that only need the filtered edge set.

``parmst.partition`` is the function (as ``parmst.verify`` is); import the
helpers by name: ``from parmst.partition import local_forest_filter``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numba
import numpy as np

from parmst.errors import GraphValueError
from parmst.solvers.serial._keys import edge_keys
from parmst.solvers.serial.prim import offer, pop_min

if TYPE_CHECKING:
    from parmst.graph import Graph

__all__ = ["METHODS", "Cut", "LocalForests", "cut", "local_forest_filter", "local_forests",
           "partition"]

METHODS = ("blocks", "bfs", "metis")
"""Partitioning methods :func:`partition` accepts."""


def partition(graph: Graph, parts: int, method: str = "bfs") -> np.ndarray:
    """Assign each vertex to one of ``parts`` parts.

    Parameters
    ----------
    graph : Graph
    parts : int
        Number of parts, at least 1. Parts may come out empty when there are
        fewer vertices than parts.
    method : {"bfs", "blocks", "metis"}
        ``"blocks"``: contiguous ranges of vertex ids with equal vertex
        counts. ``"bfs"``: each part grown by breadth-first search from one
        seed until it holds its share of edge endpoints; connected, except
        where a search is enclosed first and for pockets the last part
        takes to keep the balance (see :func:`_grow_parts`). ``"metis"``: METIS k-way partitioning through
        ``pymetis`` (``pip install 'parmst[metis]'``).

    Returns
    -------
    ndarray of int32
        ``part[v]`` in ``0 .. parts-1`` for every vertex ``v``.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.generate("grid2d:side=4,seed=1")
    >>> part = parmst.partition(g, 2, method="bfs")
    >>> part.shape, sorted(set(part.tolist()))
    ((16,), [0, 1])
    >>> parmst.partition(g, 2, method="blocks").tolist()[:9]
    [0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    if isinstance(parts, bool) or not isinstance(parts, (int, np.integer)) or parts < 1:
        raise ValueError(f"parts must be a positive integer, got {parts!r}")
    parts = int(parts)
    n = graph.num_vertices
    if method == "blocks":
        return (np.arange(n, dtype=np.int64) * parts // max(n, 1)).astype(np.int32)
    if method == "bfs":
        csr = graph.csr()
        return _grow_parts(csr.indptr, csr.indices, parts)
    if method == "metis":
        return _metis_parts(graph, parts)
    raise ValueError(f"unknown partition method {method!r}; methods: {', '.join(METHODS)}")


def _metis_parts(graph: Graph, parts: int) -> np.ndarray:
    if importlib.util.find_spec("pymetis") is None:
        raise ImportError("partition method 'metis' needs pymetis "
                          "(pip install 'parmst[metis]')")
    n = graph.num_vertices
    if parts == 1 or n == 0:
        return np.zeros(n, dtype=np.int32)
    import pymetis

    csr = graph.csr()
    adjacency = pymetis.CSRAdjacency(np.asarray(csr.indptr), np.asarray(csr.indices))
    _, membership = pymetis.part_graph(parts, adjacency)
    return np.asarray(membership, dtype=np.int32)


@numba.njit(cache=True)
def _frontier_seed(queue, head, tail, indptr, indices, part):
    """An unassigned neighbour of the last part's unexpanded vertices (-1: none).

    Seeding the next part next to the last one keeps parts side by side, as
    on a map, instead of scattering them.
    """
    for j in range(head, tail):
        v = queue[j]
        for k in range(indptr[v], indptr[v + 1]):
            if part[indices[k]] == -1:
                return indices[k]
    return -1


@numba.njit(cache=True)
def _expand(queue, head, tail, indptr, indices, part, load, p, limit):
    """Breadth-first search from ``queue[head:tail]``: unassigned vertices found join part ``p``
    (or, with ``p == -1``, the part of the vertex that found them) until ``load[p]``, the
    part's edge endpoints, reaches ``limit``. Returns the new ``(head, tail)``."""
    while head < tail and (p == -1 or load[p] < limit):
        v = queue[head]
        head += 1
        q = part[v] if p == -1 else p
        for k in range(indptr[v], indptr[v + 1]):
            t = indices[k]
            if part[t] == -1:
                part[t] = q
                load[q] += indptr[t + 1] - indptr[t]
                queue[tail] = t
                tail += 1
    return head, tail


@numba.njit(cache=True)
def _next_free(part, lowest):
    """The lowest vertex at or after ``lowest`` without a part (``len(part)``: none)."""
    while lowest < len(part) and part[lowest] != -1:
        lowest += 1
    return lowest


@numba.njit(cache=True)
def _grow_parts(indptr, indices, parts):
    """Seed 003 section 4.3.2's partition qualities: connected parts of equal edge endpoints.

    Part ``p`` grows by breadth-first search, from a vertex next to part
    ``p - 1``, until it holds its cumulative share of endpoints. A search
    enclosed before that (a small component, or a pocket between earlier
    parts) goes on from the lowest free vertex, so balance wins over
    connectivity there. The last part takes no such jumps: each free region
    it leaves joins the lightest part next to it if that stays within its
    share, else the lightest part of all.
    """
    n = len(indptr) - 1
    part = np.full(n, -1, dtype=np.int32)
    load = np.zeros(parts, dtype=np.int64)
    queue = np.empty(max(n, 1), dtype=np.int64)
    total = indptr[n]
    lowest = 0
    head = tail = 0
    for p in range(parts):
        seed = _frontier_seed(queue, head, tail, indptr, indices, part)
        limit = total * (p + 1) // parts - load[:p].sum()
        head = tail = 0
        while load[p] < limit or tail == 0:
            if seed == -1:
                lowest = _next_free(part, lowest)
                if lowest == n:
                    break
                seed = lowest
            part[seed] = p
            load[p] += indptr[seed + 1] - indptr[seed]
            queue[tail] = seed
            tail += 1
            seed = -1
            head, tail = _expand(queue, head, tail, indptr, indices, part, load, p, limit)
            if p == parts - 1:
                break
    share = total // parts + 1
    for v in range(n):
        if part[v] == -1:
            _give_region(v, queue, indptr, indices, part, load, share)
    return part


@numba.njit(cache=True)
def _give_region(v, queue, indptr, indices, part, load, share):
    """The free region around ``v`` joins the lightest part next to it (which stays
    connected) if that part stays within its ``share`` of endpoints, else the lightest
    part of all."""
    part[v] = -2
    queue[0] = v
    head, tail = 0, 1
    best = -1
    weight = 0
    while head < tail:
        x = queue[head]
        head += 1
        weight += indptr[x + 1] - indptr[x]
        for k in range(indptr[x], indptr[x + 1]):
            t = indices[k]
            q = part[t]
            if q == -1:
                part[t] = -2
                queue[tail] = t
                tail += 1
            elif q >= 0 and (best == -1 or load[q] < load[best]):
                best = q
    if best == -1 or load[best] + weight > share:
        best = np.argmin(load)
    for j in range(tail):
        part[queue[j]] = best
    load[best] += weight


@dataclass(frozen=True)
class Cut:
    """What a partition costs.

    Attributes
    ----------
    parts : int
    crossing_edges : int
        Edges whose endpoints lie in different parts (self-loops never cross).
    boundary_vertices : int
        Vertices with at least one crossing edge.
    vertices : ndarray
        Vertices per part.
    endpoints : ndarray
        Edge endpoints (degree sum, self-loops left out) per part: the work
        a part's Prim instance does.
    """

    parts: int
    crossing_edges: int
    boundary_vertices: int
    vertices: np.ndarray
    endpoints: np.ndarray

    @property
    def imbalance(self) -> float:
        """Largest part's endpoints over the mean (1.0: perfectly balanced)."""
        mean = self.endpoints.sum() / max(self.parts, 1)
        return float(self.endpoints.max() / mean) if mean else 1.0

    def as_dict(self) -> dict:
        """Plain data, for JSON reports."""
        return {"parts": self.parts, "crossing_edges": self.crossing_edges,
                "boundary_vertices": self.boundary_vertices,
                "vertices": self.vertices.tolist(), "endpoints": self.endpoints.tolist(),
                "imbalance": self.imbalance}


def _check_part(graph: Graph, part: np.ndarray) -> tuple[np.ndarray, int]:
    part = np.asarray(part)
    if part.shape != (graph.num_vertices,) or part.dtype.kind not in "iu":
        raise GraphValueError(f"a partition must be an integer array of one part per vertex "
                              f"({graph.num_vertices}), got {part.dtype} of shape {part.shape}")
    if len(part) and int(part.min()) < 0:
        raise GraphValueError(f"part ids must be non-negative, got {int(part.min())}")
    return part, int(part.max()) + 1 if len(part) else 1


def crossing_mask(graph: Graph, part: np.ndarray) -> np.ndarray:
    """Which edges join two different parts."""
    return part[graph.src] != part[graph.dst]


def cut(graph: Graph, part: np.ndarray) -> Cut:
    """The cut of a partition: crossing edges, boundary vertices, sizes per part.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.generate("grid2d:side=4,seed=1")
    >>> c = parmst.cut(g, parmst.partition(g, 2, method="blocks"))
    >>> c.crossing_edges, c.boundary_vertices, c.vertices.tolist()
    (4, 8, [8, 8])
    """
    part, parts = _check_part(graph, part)
    crossing = crossing_mask(graph, part)
    boundary = np.zeros(graph.num_vertices, dtype=bool)
    boundary[graph.src[crossing]] = True
    boundary[graph.dst[crossing]] = True
    degree = np.diff(graph.csr().indptr)
    return Cut(parts, int(crossing.sum()), int(boundary.sum()),
               np.bincount(part, minlength=parts),
               np.bincount(part, weights=degree, minlength=parts).astype(np.int64))


class LocalForests(NamedTuple):
    """The local forests of a partition, as grown by :func:`local_forests`.

    ``order[starts[p]:starts[p+1]]`` lists part ``p``'s vertices in the order
    its Prim instance took them, so each vertex comes after the vertex it
    was reached from; ``via[v]`` is the edge that brought ``v`` into its
    local tree (``-1`` for the vertex a tree started from).
    """

    order: np.ndarray
    starts: np.ndarray
    via: np.ndarray


@numba.njit(cache=True)
def _group_by_part(part, parts):
    """Counting sort of the vertices by part: start offsets and members in vertex order."""
    starts = np.zeros(parts + 1, dtype=np.int64)
    for v in range(len(part)):
        starts[part[v] + 1] += 1
    for p in range(parts):
        starts[p + 1] += starts[p]
    members = np.empty(len(part), dtype=np.int64)
    cursor = starts[:-1].copy()
    for v in range(len(part)):
        members[cursor[part[v]]] = v
        cursor[part[v]] += 1
    return starts, members


@numba.njit(cache=True)
def _relax_within_part(v, p, indptr, indices, edge_ids, keys, label, heap_key, heap_edge,
                       heap_vertex, position, size):
    """Seed 003 section 4.3.2: offer ``v``'s edges to vertices of its own part outside the
    tree (``label`` is the part id until a vertex joins a tree, then -1); crossing edges
    are ignored."""
    for k in range(indptr[v], indptr[v + 1]):
        t = indices[k]
        if label[t] == p:
            e = edge_ids[k]
            size = offer(heap_key, heap_edge, heap_vertex, position, size, keys[e], e, t)
    return size


@numba.njit(cache=True)
def _grow_part(p, lo, hi, members, indptr, indices, edge_ids, keys, label, heap_key,
               heap_edge, heap_vertex, position, order, via):
    """One part's Prim instance (Sousa Alg. 4), restarted from each member not yet reached.

    The heap lives in slots ``lo..hi`` of the shared heap arrays: a part
    never holds more vertices than it has.
    """
    hk = heap_key[lo:hi]
    he = heap_edge[lo:hi]
    hv = heap_vertex[lo:hi]
    count = lo
    for j in range(lo, hi):
        v = members[j]
        if label[v] != p:
            continue
        via[v] = -1
        size = 0
        while True:
            label[v] = -1
            order[count] = v
            count += 1
            size = _relax_within_part(v, p, indptr, indices, edge_ids, keys, label, hk, he, hv,
                                      position, size)
            if size == 0:
                break
            v = hv[0]
            via[v] = he[0]
            size = pop_min(hk, he, hv, position, size)


@numba.njit(parallel=True, cache=True)
def _grow_parts_in_parallel(starts, members, indptr, indices, edge_ids, keys, label, order, via):
    n = len(label)
    heap_key = np.empty(n, dtype=np.uint64)
    heap_edge = np.empty(n, dtype=edge_ids.dtype)
    heap_vertex = np.empty(n, dtype=indices.dtype)
    position = np.full(n, -1, dtype=np.int64)
    for p in numba.prange(len(starts) - 1):
        _grow_part(p, starts[p], starts[p + 1], members, indptr, indices, edge_ids, keys, label,
                   heap_key, heap_edge, heap_vertex, position, order, via)


def local_forests(graph: Graph, part: np.ndarray, keys: np.ndarray | None = None) -> LocalForests:
    """Grow the minimum spanning forest of each part's own edges, one Prim instance per part.

    Seed 003 section 4.3.2: every instance ignores the edges that cross
    parts. The parts run in parallel on the current Numba threads; the
    result does not depend on how many.

    Parameters
    ----------
    graph : Graph
    part : ndarray of int
        One part id per vertex (see :func:`partition`).
    keys : ndarray of uint64, optional
        :func:`parmst.solvers.serial._keys.edge_keys` of the weights, if the
        caller has them already.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> forests = local_forests(g, np.array([0, 0, 1, 1]))
    >>> forests.via.tolist()
    [-1, 0, -1, 2]
    """
    part, parts = _check_part(graph, part)
    csr = graph.csr()
    if keys is None:
        keys = edge_keys(graph.weight)
    starts, members = _group_by_part(part, parts)
    label = part.astype(np.int64)
    order = np.empty(graph.num_vertices, dtype=np.int64)
    via = np.empty(graph.num_vertices, dtype=np.int64)
    _grow_parts_in_parallel(starts, members, csr.indptr, csr.indices, csr.edge_ids, keys, label,
                            order, via)
    return LocalForests(order, starts, via)


def local_forest_filter(graph: Graph, part: np.ndarray | None = None) -> np.ndarray:
    """Ids of the edges that can be in the minimum spanning forest, by the local-forest filter.

    Keeps the local forest of each part's own edges and every edge that
    crosses parts; this set contains the whole minimum spanning forest of
    ``graph`` (cycle property), usually in far fewer edges. With ``part``
    omitted the whole graph is one part and the result is its forest.

    A caller holding a share of a larger graph (an MPI rank, one GPU) builds
    its share with :meth:`Graph.subgraph_edges`, which keeps the edges in
    global id order, so ties break as in the whole graph; it maps the
    returned ids back through the ids that call returned.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0, 2, 3], [1, 2, 2, 3, 0], [1, 2, 3, 5, 4])
    >>> local_forest_filter(g, np.array([0, 0, 0, 1])).tolist()
    [0, 1, 3, 4]
    """
    if part is None:
        part = np.zeros(graph.num_vertices, dtype=np.int32)
    part, _ = _check_part(graph, part)
    forests = local_forests(graph, part)
    keep = crossing_mask(graph, part)
    keep[forests.via[forests.via >= 0]] = True
    return np.flatnonzero(keep)
