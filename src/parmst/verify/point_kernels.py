"""The compiled checks of :func:`parmst.verify.verify_points`, loaded with its first call.

Each recomputes what it checks with the one distance kernel
(:mod:`parmst.kernels.distance`) and never calls a point solver.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.distance import mutual_reachability, pair_id, precedes_pair, squared_distance
from parmst.kernels.unionfind import find, union_roots


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
    parent = np.arange(n)
    size = np.ones(n, dtype=np.int64)
    joins = 0
    for e in range(len(first)):
        a, b = find(parent, first[e]), find(parent, second[e])
        if a != b:
            union_roots(parent, size, a, b)
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
def cycle_violations(x, core2, first, second, keys, sources, found, limit):
    """The cycle property at every pair with an end in ``sources``: walk the tree from each
    source keeping the heaviest ``(key, id)`` on the path, then compare each pair.

    Writes up to ``limit`` violating pairs ``(source, v)`` into ``found``; returns how many.
    """
    n = len(x)
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
    path_key = np.empty(n)
    path_id = np.empty(n, dtype=np.int64)
    seen = np.empty(n, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    count = 0
    for s_index in range(len(sources)):
        s = sources[s_index]
        seen[:] = -1
        seen[s], path_key[s], path_id[s] = s, -np.inf, -1
        stack[0], top = s, 1
        while top:
            top -= 1
            u = stack[top]
            for t in range(start[u], start[u + 1]):
                v = other[t]
                if seen[v] == s:
                    continue
                seen[v] = s
                e = edge[t]
                ident = pair_id(first[e], second[e], n)
                if precedes_pair(path_key[u], path_id[u], keys[e], ident):
                    path_key[v], path_id[v] = keys[e], ident
                else:
                    path_key[v], path_id[v] = path_key[u], path_id[u]
                stack[top] = v
                top += 1
        for v in range(n):
            if v == s:
                continue
            key = mutual_reachability(core2, s, v, squared_distance(x, s, x, v))
            ident = pair_id(s, v, n)
            if ident != path_id[v] and not precedes_pair(path_key[v], path_id[v], key, ident):
                if count < limit:
                    found[count, 0], found[count, 1] = s, v
                count += 1
    return count
