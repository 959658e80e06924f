"""Independent certificate of a point set's tree (:func:`verify_points`).

It imports no solver: the pairs and weights are recomputed with the one distance
kernel (:mod:`parmst.kernels.distance`, the definition of the order) and the checks
are those of :func:`parmst.verify` for a complete graph never built:

``ids``
    Edge ids are pair ids of ``n`` points (``0 <= id < n(n-1)/2``), each listed once.
``fields``
    The Forest's ``src < dst`` are the pairs of its ids, its weights equal
    ``sqrt`` of the kernel's squared (mutual-reachability) distance bit for bit,
    its sizes and ``total_weight`` agree.
``acyclic``, ``spanning``
    ``n - 1`` pairs joining all ``n`` points: a spanning tree.
``minimal``
    The cycle property under the ``(key, i, j)`` order, for every pair with an
    endpoint in the checked set: each such pair outside the tree comes after every
    tree edge on the tree path between its ends. The checked set is every point
    while ``n <= ALL_PAIRS`` (every pair is checked: a proof of minimality), else
    ``SAMPLE`` points drawn at random (each drawn point's lightest pair is then in
    the tree, and no pair at a drawn point could replace a tree edge): a
    probabilistic check in ``O(SAMPLE * n * d)`` time and ``O(n)`` memory.

Core distances (``min_samples``) are computed by brute force while ``n <=
ALL_PAIRS``; above, by the k-d tree's k-nearest query, and those of the drawn points
are checked against brute force.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst.forest import Forest
from parmst.order.pairs import pairs_of_ids
from parmst.pointset import as_points, check_min_samples
from parmst.verify.given import check_listed, compare_fields
from parmst.verify.result import Recorder, VerifyResult

__all__ = ["ALL_PAIRS", "SAMPLE", "verify_points"]

ALL_PAIRS = 4096
"""Up to this many points every pair is checked."""

SAMPLE = 64
"""Points whose pairs are checked above :data:`ALL_PAIRS`."""


def verify_points(points: Any, forest: Forest, *, min_samples: int | None = None,
                  max_listed: int = 10, seed: int = 0) -> VerifyResult:
    """Check that ``forest`` is the minimum spanning tree of ``points`` under ``(key, i, j)``.

    See the module docstring for the checks and what they certify above
    :data:`ALL_PAIRS` points.

    Parameters
    ----------
    points : array_like, shape (n, d)
        The points, as given to :func:`parmst.euclidean_mst`.
    forest : Forest
        The claimed tree.
    min_samples : int, optional
        Check the mutual-reachability tree of this ``min_samples`` instead.
    max_listed : int
        Failures listed per check; the rest are counted.
    seed : int
        Seed of the sample drawn above :data:`ALL_PAIRS` points.

    Returns
    -------
    VerifyResult
        Truthy iff every check ran and passed.

    Examples
    --------
    >>> import parmst
    >>> x = [[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]
    >>> bool(parmst.verify_points(x, parmst.euclidean_mst(x)))
    True
    """
    # The compiled checks load with the first call: importing parmst loads no Numba.
    from parmst.verify.point_kernels import count_joins, cycle_violations, keys_of

    x = as_points(points)
    n = len(x)
    k = check_min_samples(min_samples, n)
    result = VerifyResult()
    rec = Recorder(result, max(0, int(max_listed)))
    num_pairs = n * (n - 1) // 2
    ids = check_listed(forest.edge_ids, num_pairs, rec)
    checked = _checked_points(n, seed)
    core2 = _core_squared(x, k, checked, rec)
    if ids is None:
        for check in ("fields", "acyclic", "spanning", "minimal"):
            rec.skip(check, "the edge ids are unusable")
        return result
    first, second = pairs_of_ids(ids, n)
    keys = keys_of(x, core2, first, second)
    compare_fields(forest, n, num_pairs, lambda given: (
        *pairs_of_ids(given, n), np.sqrt(keys_of(x, core2, *pairs_of_ids(given, n)))),
        None, rec)
    result.num_forest_edges = len(ids)
    joins, trees = count_joins(n, first, second)
    result.num_trees = trees
    result.num_graph_components = 1
    rec.run("acyclic")
    if joins < len(ids):
        rec.fail("acyclic", [f"{len(ids) - joins} of the {len(ids)} pairs close a cycle"])
    rec.run("spanning")
    if trees != 1:
        rec.fail("spanning", [f"the pairs leave {trees} trees; a spanning tree has one"])
    if joins < len(ids) or trees != 1:
        rec.skip("minimal", "the pairs are not a spanning tree, so tree paths are undefined")
        return result
    rec.run("minimal")
    found = np.empty((max(rec.limit, 1), 2), dtype=np.int64)
    count = cycle_violations(x, core2, first, second, keys, checked, found, len(found))
    if count:
        rec.fail("minimal", [f"pair ({min(s, v)}, {max(s, v)}) is lighter under (key, i, j) "
                             "than a tree edge on the tree path between its ends"
                             for s, v in found[:min(count, rec.limit)].tolist()], count)
    return result


def _checked_points(n: int, seed: int) -> np.ndarray:
    """Every point up to :data:`ALL_PAIRS`, else :data:`SAMPLE` drawn without repeats."""
    if n <= ALL_PAIRS:
        return np.arange(n, dtype=np.int64)
    return np.sort(np.random.default_rng(seed).choice(n, SAMPLE, replace=False)).astype(np.int64)


def _core_squared(x: np.ndarray, k: int | None, checked: np.ndarray,
                  rec: Recorder) -> np.ndarray:
    """Squared core distances (zeros without ``min_samples``): by brute force up to
    :data:`ALL_PAIRS` points, else by the k-d tree, checked on the drawn points."""
    n = len(x)
    if k is None or k == 1:
        return np.zeros(n)
    from parmst.verify.point_kernels import brute_core

    if n <= ALL_PAIRS:
        return brute_core(x, k, np.arange(n, dtype=np.int64))
    from parmst.kernels.kdtree import nearest_k_all
    from parmst.kernels.kdtree_build import build

    tree = build(x, 32)
    core2 = np.empty(n)
    core2[tree.order] = nearest_k_all(tree, k - 1)[1][:, k - 2]
    brute = brute_core(x, k, checked)
    wrong = np.flatnonzero(core2[checked] != brute)
    if len(wrong):
        rec.fail("fields", [f"the k-d tree's core distance of point {int(checked[w])} is "
                            f"{core2[checked[w]]!r}, by brute force {brute[w]!r}"
                            for w in wrong[:rec.limit]], len(wrong))
    return core2
