"""Prim on the complete graph of a point set, distances computed on the fly (``prim-dense/points``).

Pugliese's dense Prim (section 2.1, PRIM_MST) with the key matrix replaced by the distance
kernel: each step relaxes every point outside the tree against the point just added and
picks the closest, in one pass. O(n^2 d) time and O(n) memory: no pair is stored. It is the
fallback where a k-d tree prunes little (high dimension) or costs more than it saves
(few points).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.kernels.distance import mutual_reachability, pair_id, precedes_pair, squared_distance
from parmst.stats import Stats

__all__ = ["solve"]


@numba.njit(cache=True)
def _core_distances(x, k):
    """Squared distance from every point to its ``k``-th nearest point, itself counted:
    all distances of a point, then a selection."""
    n = len(x)
    core2 = np.empty(n)
    row = np.empty(n)
    for p in range(n):
        for q in range(n):
            row[q] = squared_distance(x, p, x, q)
        core2[p] = np.partition(row, k - 1)[k - 1]
    return core2


@numba.njit(cache=True)
def _relax_and_find_closest(x, core2, u, outside, num_outside, best_key, best_id, best_from):
    """Pugliese PRIM_MST lines 12-13 then 10: lower each outside point's best pair to the
    tree by its pair with ``u``, and return the index in ``outside`` of the closest."""
    n = len(x)
    closest = 0
    for i in range(num_outside):
        v = outside[i]
        key = mutual_reachability(core2, u, v, squared_distance(x, u, x, v))
        if key <= best_key[v]:
            ident = pair_id(u, v, n)
            if precedes_pair(key, ident, best_key[v], best_id[v]):
                best_key[v], best_id[v], best_from[v] = key, ident, u
        c = outside[closest]
        if precedes_pair(best_key[v], best_id[v], best_key[c], best_id[c]):
            closest = i
    return closest


@numba.njit(cache=True)
def _prim(x, core2):
    """Pugliese PRIM_MST lines 8-14 from point 0: the tree's pairs and squared keys."""
    n = len(x)
    best_key = np.full(n, np.inf)
    best_id = np.full(n, np.iinfo(np.int64).max)
    best_from = np.zeros(n, dtype=np.int64)
    outside = np.arange(1, n)
    first = np.empty(n - 1, dtype=np.int64)
    second = np.empty(n - 1, dtype=np.int64)
    keys = np.empty(n - 1)
    u = 0
    for step in range(n - 1):
        num_outside = n - 1 - step
        closest = _relax_and_find_closest(x, core2, u, outside, num_outside, best_key, best_id,
                                          best_from)
        v = outside[closest]
        first[step], second[step] = min(v, best_from[v]), max(v, best_from[v])
        keys[step] = best_key[v]
        outside[closest] = outside[num_outside - 1]
        u = v
    return first, second, keys


def solve(x: np.ndarray, stats: Stats, *, min_samples: int | None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The minimum spanning tree of the float64 points ``x`` by dense Prim.

    Returns ``(first, second, key)``: input indices ``first < second`` of each
    tree pair and its squared (mutual-reachability) distance.

    Examples
    --------
    >>> import numpy as np, parmst
    >>> first, second, key = solve(np.array([[0.0], [5.0], [1.0]]), parmst.Stats(),
    ...                            min_samples=None)
    >>> sorted(zip(first.tolist(), second.tolist()))
    [(0, 2), (1, 2)]
    """
    core2 = np.zeros(len(x))
    if min_samples is not None and min_samples > 1:
        with stats.init(), stats.phase("core-distances"):
            core2 = _core_distances(x, min_samples)
    with stats.compute(), stats.phase("loop"):
        first, second, keys = _prim(x, core2)
    stats.rounds = len(x) - 1
    return first, second, keys
