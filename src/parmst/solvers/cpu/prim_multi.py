"""Multiple-instance Prim with collisions (Sousa section 4.3.1, tm_mst_pt).

After Kang and Bader as the thesis ran it (no stealing of trees) and with
its "connected components identification" strategy:

1. Each thread owns a block of vertices and starts a Prim instance from
   the first one no tree holds yet. A vertex belongs to the tree that
   claims it first (compare-and-swap on ``owner``). An instance offers its
   edges to every vertex outside its own tree, held by another tree or
   not, so its heap's minimum is always the lightest edge leaving the tree.
2. When that minimum leads to a vertex another tree (or one of its own
   stopped trees) holds, the instance has collided: the edge is the
   lightest leaving a vertex set, so it belongs to the forest (cut
   property) and is kept as the tree's *hook*; the instance stops and
   restarts from its block's next free vertex.
3. When every vertex is held, trees joined by hooks are contracted into
   super-vertices (a Borůvka step, Sousa section 4.3.1, after Bader and
   Cong) and the process repeats on the contracted graph.

Every edge taken is a forest edge whatever the schedule, so the answer is
exact and the same for any number of threads. The price is the thesis's
Figure 5.4: an instance that collides early idles while others grow;
``stats.extra["vertices_per_thread"]`` records each round's share per
thread. Each thread's heap is indexed by vertex (a tree may reach any
vertex), so memory grows as threads x vertices x 32 bytes per round.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._csr import build_csr
from parmst._threads import using_threads
from parmst.kernels.heap import offer, pop_min
from parmst.kernels.unionfind import find, link_roots
from parmst.order import edge_keys
from parmst.solvers.cpu._atomics import atomic_cas, atomic_load
from parmst.solvers.cpu._common import flagged_ids
from parmst.stats import Stats


@numba.njit(cache=True)
def _relax_outside_tree(v, tree, indptr, indices, edge_ids, keys, owner, heap_key, heap_edge,
                        heap_vertex, position, size):
    """Offer ``v``'s edges to every vertex outside tree ``tree``, held by another tree or free."""
    for k in range(indptr[v], indptr[v + 1]):
        t = indices[k]
        if owner[t] != tree:
            e = edge_ids[k]
            size = offer(heap_key, heap_edge, heap_vertex, position, size, keys[e], e, t)
    return size


@numba.njit(cache=True)
def _grow_until_collision(root, indptr, indices, edge_ids, keys, owner, heap_key, heap_edge,
                          heap_vertex, position, tree_edge, hook):
    """Steps 1-2 for one tree (``root`` already claimed); returns the vertices it took."""
    v = root
    size = 0
    taken = 0
    while True:
        taken += 1
        size = _relax_outside_tree(v, root, indptr, indices, edge_ids, keys, owner, heap_key,
                                   heap_edge, heap_vertex, position, size)
        if size == 0:  # the tree spans its component
            break
        v = heap_vertex[0]
        e = heap_edge[0]
        size = pop_min(heap_key, heap_edge, heap_vertex, position, size)
        if atomic_load(owner, v) == -1 and atomic_cas(owner, v, -1, root) == -1:
            tree_edge[e] = True
        else:
            hook[root] = e
            break
    for i in range(size):  # leave the heap empty for the thread's next tree
        position[heap_vertex[i]] = -1
    return taken


@numba.njit(parallel=True, cache=True)
def _run_instances(bounds, indptr, indices, edge_ids, keys, owner, heap_key, heap_edge,
                   heap_vertex, position, tree_edge, hook, taken):
    """One Prim instance per thread over its block of start vertices, until all are held."""
    for t in numba.prange(len(bounds) - 1):
        for root in range(bounds[t], bounds[t + 1]):
            if atomic_load(owner, root) != -1 or atomic_cas(owner, root, -1, root) != -1:
                continue
            taken[t] += _grow_until_collision(root, indptr, indices, edge_ids, keys, owner,
                                              heap_key[t], heap_edge[t], heap_vertex[t],
                                              position[t], tree_edge, hook)


@numba.njit(cache=True)
def _join_hooked_trees(owner, hook, src, dst, colour):
    """Step 3: union each tree with the tree its hook reaches; colour vertices by the result.

    Trees are named by their root vertex, so the union-find runs over vertex ids.
    """
    n = len(owner)
    parent = np.full(n, -1, dtype=np.int64)
    for root in range(n):
        e = hook[root]
        if e < 0:
            continue
        ru = find(parent, owner[src[e]])
        rv = find(parent, owner[dst[e]])
        if ru != rv:
            link_roots(parent, ru, rv)
    for v in range(n):
        colour[v] = find(parent, owner[v])


def _contract(src, dst, ids, colour):
    """The edges between different super-vertices, renumbered densely (ids keep their order)."""
    cs = colour[src]
    cd = colour[dst]
    crossing = cs != cd
    alive = np.zeros(len(colour), dtype=bool)
    alive[cs[crossing]] = True
    alive[cd[crossing]] = True
    new_id = np.cumsum(alive) - 1
    return (new_id[cs[crossing]], new_id[cd[crossing]], ids[crossing], int(alive.sum()))


def _round(csr_arrays, keys, n, threads, stats):
    """Steps 1-2 on the current graph: owner per vertex, tree edges, hooks, work per thread."""
    indptr, indices, edge_ids = csr_arrays
    owner = np.full(n, -1, dtype=np.int64)
    hook = np.full(n, -1, dtype=np.int64)
    tree_edge = np.zeros(len(keys), dtype=np.bool_)
    taken = np.zeros(threads, dtype=np.int64)
    heap_key = np.empty((threads, n), dtype=np.uint64)
    heap_edge = np.empty((threads, n), dtype=np.int64)
    heap_vertex = np.empty((threads, n), dtype=np.int64)
    position = np.full((threads, n), -1, dtype=np.int64)
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)
    _run_instances(bounds, indptr, indices, edge_ids, keys, owner, heap_key, heap_edge,
                   heap_vertex, position, tree_edge, hook, taken)
    stats.extra["vertices_per_thread"].append((100.0 * taken / max(n, 1)).round(2).tolist())
    stats.extra["collisions"].append(int(np.count_nonzero(hook >= 0)))
    stats.extra["trees"].append(int(np.count_nonzero(owner == np.arange(n))))
    return owner, hook, tree_edge


def solve(graph, stats: Stats, threads: int | None = None) -> np.ndarray:
    """Edge ids of the minimum spanning forest by colliding Prim instances and contraction.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> parmst.minimum_spanning_forest(g, solver="prim-multi/cpu", threads=1).edge_ids.tolist()
    [1, 2, 3]
    """
    with using_threads(threads, stats) as count:
        with stats.init():
            csr = graph.csr()
        stats.extra.update(vertices_per_thread=[], collisions=[], trees=[])
        with stats.compute():
            with stats.phase("keys"):
                keys = edge_keys(graph.weight).keys
            in_forest = np.zeros(graph.num_edges, dtype=np.bool_)
            # Round 1 runs on the graph itself (positions are edge ids); later rounds on
            # contracted edge lists kept in edge-id order, so positions break ties as ids do.
            src, dst, ids, n = graph.src, graph.dst, np.arange(graph.num_edges), graph.num_vertices
            arrays, round_keys = (csr.indptr, csr.indices, csr.edge_ids), keys
            stats.rounds = 0
            while len(ids):
                stats.rounds += 1
                stats.worklist_sizes.append(len(ids))
                with stats.phase("instances"):
                    owner, hook, tree_edge = _round(arrays, round_keys, n, count, stats)
                with stats.phase("contract"):
                    in_forest[ids[tree_edge]] = True
                    in_forest[ids[hook[hook >= 0]]] = True
                    colour = np.empty(n, dtype=np.int64)
                    _join_hooked_trees(owner, hook, src, dst, colour)
                    src, dst, ids, n = _contract(src, dst, ids, colour)
                    if len(ids):
                        round_keys = keys[ids]
                        view = build_csr(src, dst, round_keys, n)
                        arrays = (view.indptr, view.indices, view.edge_ids)
            chosen = flagged_ids(in_forest)
    return chosen
