"""The compiled checks of :func:`parmst.verify.verify_points`, loaded with its first call.

Each recomputes what it checks with the one distance kernel
(:mod:`parmst.kernels.distance`) and never calls a point solver.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.distance import mutual_reachability, pair_id, precedes_pair, squared_distance
from parmst.kernels.unionfind import find, link_roots


@numba.njit(cache=True)
def keys_of(x, core2, first, second):
    """Squared keys of the pairs by the distance kernel."""
    keys = np.empty(len(first))
    for e in range(len(first)):
        keys[e] = mutual_reachability(core2, first[e], second[e],
                                      squared_distance(x, first[e], x, second[e]))
    return keys


@numba.njit(cache=True)
def count_joins(n, first, second):
    """Pairs that join two trees (the others close a cycle) and the trees left."""
    parent = np.full(n, -1, dtype=np.int64)
    joins = 0
    for e in range(len(first)):
        a, b = find(parent, first[e]), find(parent, second[e])
        if a != b:
            link_roots(parent, a, b)
            joins += 1
    return joins, n - joins


@numba.njit(cache=True)
def brute_core(x, k, points):
    """Squared distance from each of ``points`` to its ``k``-th nearest point, itself first."""
    core2 = np.empty(len(points))
    row = np.empty(len(x))
    for s in range(len(points)):
        for q in range(len(x)):
            row[q] = squared_distance(x, points[s], x, q)
        core2[s] = np.partition(row, k - 1)[k - 1]
    return core2


@numba.njit(cache=True)
def _breadth_first(n, first, second, keys):
    """The spanning tree of the pairs rooted at point 0, its points in breadth-first order:
    ``order`` (the point at each position), ``up`` (the position of each position's parent;
    -1 at the root) and the ``(key, pair id)`` of the pair to the parent."""
    degree = np.zeros(n + 1, dtype=np.int64)
    for e in range(len(first)):
        degree[first[e] + 1] += 1
        degree[second[e] + 1] += 1
    start = np.cumsum(degree)
    fill = start[:-1].copy()
    other = np.empty(2 * len(first), dtype=np.int64)
    edge = np.empty(2 * len(first), dtype=np.int64)
    for e in range(len(first)):
        for a, b in ((first[e], second[e]), (second[e], first[e])):
            other[fill[a]], edge[fill[a]] = b, e
            fill[a] += 1
    order = np.empty(n, dtype=np.int64)
    position = np.full(n, -1, dtype=np.int64)
    up = np.full(n, -1, dtype=np.int64)
    up_key = np.full(n, -np.inf)
    up_id = np.full(n, -1, dtype=np.int64)
    order[0], position[0], size = 0, 0, 1
    for head in range(n):
        u = order[head]
        for t in range(start[u], start[u + 1]):
            v = other[t]
            if position[v] >= 0:
                continue
            e = edge[t]
            position[v], order[size], up[size] = size, v, head
            up_key[size], up_id[size] = keys[e], pair_id(first[e], second[e], n)
            size += 1
    return order, position, up, up_key, up_id


@numba.njit(cache=True)
def cycle_violations(x, core2, first, second, keys, sources, found, limit):
    """The cycle property at every pair with an end in ``sources``, for a spanning tree:
    the heaviest ``(key, id)`` on the tree path from each source to every point, then each
    pair compared with it.

    The tree is rooted and its points taken in breadth-first order, so the path from a
    source to a point that is not its ancestor ends with the pair to that point's parent,
    whose path is already known: one sequential sweep per source (the source's ancestors
    first, walking up), with the points copied into that order so the distances are read
    in sequence too. Writes up to ``limit`` violating pairs ``(source, v)`` into ``found``;
    returns how many.
    """
    n = len(x)
    order, position, up, up_key, up_id = _breadth_first(n, first, second, keys)
    xo = x[order]
    core2o = core2[order]
    path_key = np.empty(n)
    path_id = np.empty(n, dtype=np.int64)
    on_chain = np.full(n, -1, dtype=np.int64)
    count = 0
    for s_index in range(len(sources)):
        s = sources[s_index]
        at = position[s]
        path_key[at], path_id[at], on_chain[at] = -np.inf, -1, s_index
        while up[at] >= 0:  # the source's ancestors: the path climbs through each one
            parent = up[at]
            if precedes_pair(path_key[at], path_id[at], up_key[at], up_id[at]):
                path_key[parent], path_id[parent] = up_key[at], up_id[at]
            else:
                path_key[parent], path_id[parent] = path_key[at], path_id[at]
            on_chain[parent] = s_index
            at = parent
        here = position[s]
        for i in range(n):
            if on_chain[i] != s_index:
                parent = up[i]
                if precedes_pair(path_key[parent], path_id[parent], up_key[i], up_id[i]):
                    path_key[i], path_id[i] = up_key[i], up_id[i]
                else:
                    path_key[i], path_id[i] = path_key[parent], path_id[parent]
            if i == here:
                continue
            v = order[i]
            key = mutual_reachability(core2o, here, i, squared_distance(xo, here, xo, i))
            ident = pair_id(s, v, n)
            if ident != path_id[i] and not precedes_pair(path_key[i], path_id[i], key, ident):
                if count < limit:
                    found[count, 0], found[count, 1] = s, v
                count += 1
    return count
