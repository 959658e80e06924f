"""The brute-force reference of point-set trees, independent of every parmst solver and kernel:
all pairs, their squared distances summed in coordinate order with NumPy, and Kruskal under
the ``(key, i, j)`` order in plain Python.

Also the point-set catalogue shared by the conformance suite and the other point tests.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def all_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``i < j`` of ``n`` points, in lexicographic order (so position = edge id)."""
    i, j = np.triu_indices(n, k=1)
    return i.astype(np.int64), j.astype(np.int64)


def squared(x: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Squared distances of the pairs, float64, summed one coordinate after the other."""
    x = np.asarray(x, dtype=np.float64)
    total = np.zeros(len(i))
    for k in range(x.shape[1]):
        diff = x[i, k] - x[j, k]
        total = total + diff * diff
    return total


def core_squared(x: np.ndarray, min_samples: int) -> np.ndarray:
    """Squared distance from each point to its ``min_samples``-th nearest point, itself first."""
    n = len(x)
    rows = np.repeat(np.arange(n), n)
    cols = np.tile(np.arange(n), n)
    d2 = squared(x, rows, cols).reshape(n, n)
    return np.sort(d2, axis=1)[:, min_samples - 1]


def keys(x: np.ndarray, min_samples: int | None = None) -> np.ndarray:
    """The squared key of every pair, in pair-id order."""
    i, j = all_pairs(len(x))
    key = squared(x, i, j)
    if min_samples is not None:
        core = core_squared(x, min_samples)
        key = np.maximum(np.maximum(core[i], core[j]), key)
    return key


def brute_tree(x: np.ndarray, min_samples: int | None = None) -> np.ndarray:
    """Sorted edge ids of the minimum spanning tree: Kruskal over all pairs by ``(key, id)``."""
    n = len(x)
    i, j = all_pairs(n)
    order = np.lexsort((np.arange(len(i)), keys(x, min_samples)))
    parent = list(range(n))

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    chosen = []
    for e in order.tolist():
        a, b = root(int(i[e])), root(int(j[e]))
        if a != b:
            parent[a] = b
            chosen.append(e)
            if len(chosen) == n - 1:
                break
    return np.sort(np.array(chosen, dtype=np.int64))


def _uniform(n: int, d: int, seed: int, dtype=np.float64) -> Callable[[], np.ndarray]:
    return lambda: np.random.default_rng(seed).random((n, d)).astype(dtype)


def _duplicates() -> np.ndarray:
    """Few distinct points, each repeated: zero distances and ties everywhere."""
    rng = np.random.default_rng(5)
    base = rng.random((40, 3))
    return base[rng.integers(0, 40, 400)]


def _lattice(side: int, d: int) -> Callable[[], np.ndarray]:
    """Integer grid points, shuffled: every nearest pair ties with several others."""
    def make() -> np.ndarray:
        axes = np.meshgrid(*[np.arange(side)] * d, indexing="ij")
        grid = np.stack([a.ravel() for a in axes], axis=1).astype(np.float64)
        return grid[np.random.default_rng(side * d).permutation(len(grid))]
    return make


def _collinear() -> np.ndarray:
    """Points on one line in 4-D, some repeated, in random order."""
    t = np.random.default_rng(9).integers(0, 60, 300).astype(np.float64)
    return np.outer(t, [1.0, 2.0, -0.5, 0.25])


def _few_values() -> np.ndarray:
    """Four distinct values on a line, each repeated about 75 times."""
    return np.random.default_rng(11).integers(0, 4, (300, 1)).astype(np.float64)


POINT_CASES: dict[str, Callable[[], np.ndarray]] = {
    "two-points": lambda: np.array([[0.0, 1.0], [2.0, 3.0]]),
    "three-equal": lambda: np.zeros((3, 2)),
    "identical-4d-float32": lambda: np.full((300, 4), 0.1, dtype=np.float32),
    "few-values-1d": _few_values,
    "uniform-1d": _uniform(500, 1, 1),
    "uniform-2d": _uniform(1500, 2, 2),
    "uniform-3d": _uniform(1200, 3, 3),
    "uniform-5d": _uniform(600, 5, 4),
    "uniform-8d": _uniform(400, 8, 5),
    "uniform-2d-float32": _uniform(800, 2, 6, np.float32),
    "clustered-2d": lambda: np.concatenate([
        np.random.default_rng(7).normal(c, 0.01, (200, 2)) for c in (0.0, 1.0, 5.0)]),
    "duplicates-3d": _duplicates,
    "lattice-2d": _lattice(30, 2),
    "lattice-3d": _lattice(9, 3),
    "collinear-4d": _collinear,
}
"""Named point sets: few hundred to few thousand points, 1-8 dimensions, heavy ties."""
