"""Generic Borůvka with explicit CSR contraction (Sousa, section 4.4, Algorithm 5).

Each round runs the kernels of the thesis's Appendix A on the current
contracted graph, held in CSR (``indptr``, ``adj``, ``key``, ``edge_id``):

1. find the lightest edge per vertex (Algorithm 7; the thesis's "smallest
   destination" tie rule becomes our ``(weight, edge_id)`` order);
2. remove mirrored edges: when two vertices chose each other, the smaller
   id drops it (Algorithm 8); the remaining choices are forest edges;
3. initialize colours to the chosen successor (Algorithm 9) and propagate
   them by pointer jumping until they converge (Algorithm 10);
4. new vertex ids by an exclusive prefix sum over the representatives
   (Algorithm 11); finished components (no crossing edge) get none;
5. count the crossing edges of each super-vertex with an atomic add
   (Algorithm 12), prefix-sum them into the new ``indptr``;
6. insert the crossing edges at positions reserved with an atomic add
   (Algorithm 13).

The thesis scheduled vertices statically and found cores idle on skewed
degrees; here every vertex kernel runs over blocks holding about the same
number of *edges* (:func:`edge_balanced_blocks`).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._csr import entry_balanced_bounds
from parmst._threads import using_threads
from parmst.order import weight_keys
from parmst.solvers.cpu._atomics import atomic_add
from parmst.solvers.cpu._common import flagged_ids
from parmst.stats import Stats

_BLOCKS_PER_THREAD = 8


def edge_balanced_blocks(indptr: np.ndarray, threads: int) -> np.ndarray:
    """Vertex boundaries of blocks holding about equal numbers of CSR entries."""
    return entry_balanced_bounds(indptr, threads * _BLOCKS_PER_THREAD)


@numba.njit(parallel=True, cache=True)
def min_edge(bounds, indptr, key, edge_id, min_pos):
    """Algorithm 7: position of each vertex's lightest ``(key, edge_id)`` entry (-1: none).

    Also each rank's step of the distributed GenBoruvka (:mod:`parmst.solvers.mpi.genboruvka`).
    """
    for b in numba.prange(len(bounds) - 1):
        for v in range(bounds[b], bounds[b + 1]):
            best = -1
            for k in range(indptr[v], indptr[v + 1]):
                if best < 0 or key[k] < key[best] or \
                        (key[k] == key[best] and edge_id[k] < edge_id[best]):
                    best = k
            min_pos[v] = best


@numba.njit(parallel=True, cache=True)
def _drop_mirrored_and_colour(min_pos, adj, edge_id, colour, in_forest):
    """Algorithms 8-9: of two vertices that chose each other the smaller drops the edge;
    every vertex takes its successor's colour (itself when it has none); kept edges are forest."""
    for v in numba.prange(len(min_pos)):
        k = min_pos[v]
        colour[v] = v
        if k < 0:
            continue
        succ = adj[k]
        back = min_pos[succ]
        mirrored = back >= 0 and adj[back] == v and edge_id[back] == edge_id[k]
        if not (mirrored and v < succ):
            colour[v] = succ
            in_forest[edge_id[k]] = True


@numba.njit(parallel=True, cache=True)
def _propagate_colours(colour, jumped):
    """Algorithm 10, one step for all vertices (double-buffered): colour of the colour."""
    changed = 0
    for v in numba.prange(len(colour)):
        c = colour[colour[v]]
        jumped[v] = c
        changed += c != colour[v]
    return changed


@numba.njit(parallel=True, cache=True)
def _count_crossing(bounds, indptr, adj, colour, crossing, degree):
    """Algorithm 12: crossing edges per vertex, added to its super-vertex's degree."""
    for b in numba.prange(len(bounds) - 1):
        for v in range(bounds[b], bounds[b + 1]):
            mine = colour[v]
            count = 0
            for k in range(indptr[v], indptr[v + 1]):
                count += colour[adj[k]] != mine
            crossing[v] = count
            if count:
                atomic_add(degree, mine, count)


@numba.njit(parallel=True, cache=True)
def _insert_crossing(bounds, graph, colour, new_id, crossing, cursor, contracted):
    """Algorithm 13: copy each vertex's crossing edges to a range reserved by atomic add."""
    indptr, adj, key, edge_id = graph
    new_adj, new_key, new_edge_id = contracted
    for b in numba.prange(len(bounds) - 1):
        for v in range(bounds[b], bounds[b + 1]):
            if crossing[v] == 0:
                continue
            mine = colour[v]
            at = atomic_add(cursor, new_id[mine], crossing[v])
            for k in range(indptr[v], indptr[v + 1]):
                other = colour[adj[k]]
                if other != mine:
                    new_adj[at] = new_id[other]
                    new_key[at] = key[k]
                    new_edge_id[at] = edge_id[k]
                    at += 1


def _colours(min_pos, adj, edge_id, in_forest) -> np.ndarray:
    """Steps 2-3: forest edges marked, every vertex coloured by its component's root."""
    colour = np.empty(len(min_pos), dtype=np.int64)
    _drop_mirrored_and_colour(min_pos, adj, edge_id, colour, in_forest)
    jumped = np.empty_like(colour)
    while _propagate_colours(colour, jumped):
        colour, jumped = jumped, colour
    return colour


def _contract(bounds, graph, colour, stats):
    """Steps 4-6: the contracted CSR over the components that still have crossing edges."""
    indptr, adj, key, edge_id = graph
    with stats.phase("count edges"):
        crossing = np.empty(len(colour), dtype=np.int64)
        degree = np.zeros(len(colour), dtype=np.int64)
        _count_crossing(bounds, indptr, adj, colour, crossing, degree)
    with stats.phase("new ids"):
        alive = degree > 0
        new_id = np.cumsum(alive) - alive
        new_indptr = np.zeros(int(alive.sum()) + 1, dtype=np.int64)
        np.cumsum(degree[alive], out=new_indptr[1:])
    with stats.phase("insert edges"):
        total = int(new_indptr[-1])
        contracted = (np.empty(total, adj.dtype), np.empty(total, key.dtype),
                      np.empty(total, edge_id.dtype))
        cursor = new_indptr[:-1].copy()
        _insert_crossing(bounds, graph, colour, new_id, crossing, cursor, contracted)
    return (new_indptr, *contracted)


def solve(graph, stats: Stats, threads: int | None = None) -> np.ndarray:
    """Edge ids of the minimum spanning forest by generic Borůvka with CSR contraction.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> parmst.minimum_spanning_forest(g, solver="genboruvka/cpu").edge_ids.tolist()
    [1, 2, 3]
    """
    with using_threads(threads, stats) as count:
        with stats.init():
            csr = graph.csr()
            current = (csr.indptr.astype(np.int64), csr.indices, weight_keys(csr.weights),
                       csr.edge_ids)
            in_forest = np.zeros(graph.num_edges, dtype=np.bool_)
        stats.rounds = 0
        with stats.compute():
            while len(current[1]):
                stats.rounds += 1
                stats.worklist_sizes.append(len(current[1]) // 2)
                indptr, adj, key, edge_id = current
                bounds = edge_balanced_blocks(indptr, count)
                with stats.phase("min edge"):
                    min_pos = np.empty(len(indptr) - 1, dtype=np.int64)
                    min_edge(bounds, indptr, key, edge_id, min_pos)
                with stats.phase("colours"):
                    colour = _colours(min_pos, adj, edge_id, in_forest)
                current = _contract(bounds, current, colour, stats)
            chosen = flagged_ids(in_forest)
    return chosen
