"""Shou and He's test graphs (section 4.1, "Test Files Descriptions").

The report's graphs are connected, undirected, integer-weighted, with
unique edge weights (section 2.1) and possibly multi-edges but no
self-loops. Its table fixes the vertex and edge counts reproduced exactly by
``size=``; sparse graphs have about ``1.5 n`` edges, dense ones about 90 % of
all vertex pairs.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.errors import GraphValueError
from parmst.generators._counter import (
    bounded,
    permutation,
    permute_one,
    stream_key,
    word,
)
from parmst.generators._params import check_int, check_range, check_weights, fill_size
from parmst.generators._positional import (
    STREAM_ENDPOINTS,
    STREAM_PERMUTE,
    STREAM_STRUCTURE,
    pairs_at,
    weights_at,
)
from parmst.generators._sampling import (
    check_connected_simple,
    connected_distinct_pairs,
    make_graph,
)
from parmst.generators._weights import random_weights
from parmst.graph import Graph

Edges = tuple[np.ndarray, np.ndarray, np.ndarray]

SPARSE_SIZES = {
    "small": {"n": 100_000, "m": 149_960},
    "medium": {"n": 1_000_000, "m": 1_501_216},
    "large": {"n": 10_000_000, "m": 15_000_571},
    "extreme": {"n": 20_000_000, "m": 29_998_467},
}
DENSE_SIZES = {
    "small": {"n": 200, "m": 17_847},
    "medium": {"n": 1_000, "m": 449_576},
    "large": {"n": 5_000, "m": 11_245_624},
    "extreme": {"n": 8_000, "m": 28_793_554},
}


def seed000_sparse_counts(n: int, m: int) -> tuple[int, int]:
    """Validated ``(n, m)``: connected without self-loops needs ``m >= n - 1`` (and 2 vertices)."""
    n, m = check_int("n", n), check_int("m", m)
    if m < n - 1 or (n < 2 and m > 0):
        raise GraphValueError(
            f"seed000-sparse is connected without self-loops: n={n} needs "
            f"{'m = 0' if n < 2 else f'm >= {n - 1}'}, got m={m}")
    return n, m


def seed000_dense_counts(n: int, m: int) -> tuple[int, int]:
    """Validated ``(n, m)``: ``n - 1 <= m <= n (n - 1) / 2``."""
    n, m = check_int("n", n), check_int("m", m)
    check_connected_simple(n, m)
    return n, m


def _sparse_setup(n, m, size, weights, max_weight) -> tuple[int, int, str, int | None]:
    n, m = seed000_sparse_counts(**fill_size("seed000-sparse", SPARSE_SIZES, size, n=n, m=m))
    return n, m, *check_weights(weights, max_weight)


@numba.njit(cache=True)
def sparse_edge(e, n, key, structure, order):
    """The endpoints of edge id ``e`` of ``seed000-sparse``, from the id alone.

    The seeded bijection ``structure`` of the ids spreads the ``n - 1`` tree
    edges over random positions: id ``e`` with image ``t < n - 1`` is tree
    edge ``i = t + 1``, which joins ``order(i)`` to ``order(j)`` with ``j`` a
    bounded draw below ``i`` (lane 0 of position ``e``): a uniformly random
    earlier vertex of the seeded vertex order ``order``. Vertex ``order(i)``
    thus joins an earlier one for every ``i >= 1``: a random recursive tree,
    connected. Every other id is an extra edge between two distinct uniformly
    random vertices (lanes 0 and 1 of position ``e``).
    """
    t = permute_one(e, structure)
    w = word(key, e, 0)
    if t < n - 1:
        i = t + 1
        return permute_one(i, order), permute_one(np.int64(bounded(w, i)), order)
    u = np.int64(bounded(w, n))
    v = np.int64(bounded(word(key, e, 1), n - 1))
    if v >= u:
        v += 1
    return u, v


def sparse_args(n: int, m: int, seed: int) -> tuple:
    """The integers :func:`sparse_edge` takes after the id."""
    return (np.int64(n), stream_key(seed, STREAM_ENDPOINTS),
            permutation(max(m, 1), seed, STREAM_STRUCTURE),
            permutation(max(n, 1), seed, STREAM_PERMUTE))


def seed000_sparse_edge_range(lo: int, hi: int, *, n: int | None = None, m: int | None = None,
                              size: str = "small", seed: int = 0, weights: str = "unique",
                              max_weight: int | None = None) -> Edges:
    """Edges ``lo .. hi - 1`` of :func:`seed000_sparse` with the same parameters.

    Every value is a function of the edge id (see :func:`sparse_edge`
    and :func:`parmst.generators._positional.weights_at`): ``O(hi - lo)`` work.

    Returns
    -------
    (src, dst, weight) : tuple of numpy.ndarray

    Examples
    --------
    >>> whole = seed000_sparse(n=10, m=15, seed=1)
    >>> src, dst, weight = seed000_sparse_edge_range(4, 9, n=10, m=15, seed=1)
    >>> bool((whole.src[4:9] == src).all() and (whole.weight[4:9] == weight).all())
    True
    """
    n, m, kind, max_weight = _sparse_setup(n, m, size, weights, max_weight)
    lo, hi = check_range(lo, hi, m)
    return (*pairs_at(sparse_edge, sparse_args(n, m, seed), lo, hi),
            weights_at(lo, hi, m, seed, kind, max_weight))


def seed000_sparse(*, n: int | None = None, m: int | None = None, size: str = "small",
                   seed: int = 0, weights: str = "unique",
                   max_weight: int | None = None) -> Graph:
    """A connected sparse multigraph like Shou and He's ``sparse/<size>.txt``.

    A random spanning tree (each vertex of a random order joins a random
    earlier one) plus ``m - n + 1`` uniformly random extra edges between
    distinct endpoints (multi-edges possible, as in the report), the tree
    edges at random positions among them. Weights are unique integers by
    default, as in the report. Every edge is a function of its id and the
    seed, so any id range can be generated alone
    (:func:`seed000_sparse_edge_range`).

    Parameters
    ----------
    n, m : int, optional
        Vertex and edge counts; each defaults to the report's table for
        ``size`` (small 100,000 / 149,960; medium 1,000,000 / 1,501,216;
        large 10,000,000 / 15,000,571; extreme 20,000,000 / 29,998,467).
    size : {"small", "medium", "large", "extreme"}
    seed : int
    weights : {"unique", "int", "float"}
    max_weight : int, optional

    Examples
    --------
    >>> g = seed000_sparse(n=10, m=15, seed=1)
    >>> g.num_vertices, g.num_edges, bool((g.src != g.dst).all())
    (10, 15, True)
    """
    n, m, _, _ = _sparse_setup(n, m, size, weights, max_weight)
    src, dst, weight = seed000_sparse_edge_range(0, m, n=n, m=m, seed=seed, weights=weights,
                                                 max_weight=max_weight)
    return make_graph(src, dst, weight, n)


def seed000_dense(*, n: int | None = None, m: int | None = None, size: str = "small",
                  seed: int = 0, weights: str = "unique",
                  max_weight: int | None = None) -> Graph:
    """A connected simple dense graph like Shou and He's ``dense/<size>.txt``.

    ``m`` distinct vertex pairs (about 90 % of all pairs at the table's
    sizes): a random spanning tree plus pairs drawn without replacement from
    the rest, listed in pair order (``(1, 0), (2, 0), (2, 1), (3, 0), ...``,
    larger endpoint first). Unique integer weights by default, as in the report.

    Parameters
    ----------
    n, m : int, optional
        Each defaults to the report's table for ``size`` (small 200 / 17,847;
        medium 1,000 / 449,576; large 5,000 / 11,245,624; extreme 8,000 /
        28,793,554). ``m`` must lie in ``[n - 1, n (n - 1) / 2]``.
    size : {"small", "medium", "large", "extreme"}
    seed : int
    weights : {"unique", "int", "float"}
    max_weight : int, optional

    Examples
    --------
    >>> g = seed000_dense(n=20, m=171, seed=1)
    >>> g.num_vertices, g.num_edges
    (20, 171)
    """
    n, m = seed000_dense_counts(**fill_size("seed000-dense", DENSE_SIZES, size, n=n, m=m))
    kind, max_weight = check_weights(weights, max_weight)
    rng = np.random.default_rng(seed)
    src, dst = connected_distinct_pairs(rng, n, m)
    return make_graph(src, dst, random_weights(rng, m, kind, max_weight), n)
