"""Dense connected random graphs for dense Prim (Pugliese).

Pugliese (section 3) generates connected random graphs of ``n`` nodes with
C ``int`` weights (its keys start at ``INT_MAX``) and tests the series
n = 64, 128, ..., 4096 (section 4.1). Its edge counts there (3,280 for 64
nodes ... 14,832,296 for 4096) count both directions of each edge: 80-91 %
of the ``n (n - 1)`` ordered pairs, and it guarantees at least 75 %. It does
not state a weight range, so the library's default integer weights are used.
"""

from __future__ import annotations

import numpy as np

from parmst.errors import GraphValueError
from parmst.generators._params import check_fraction, check_int, check_weights, fill_size
from parmst.generators._sampling import connected_distinct_pairs, make_graph
from parmst.generators._weights import random_weights
from parmst.graph import Graph

DENSE_SIZES = {
    "small": {"n": 64},
    "medium": {"n": 1536},
    "large": {"n": 4096},
}


def dense_counts(n: int, density: float) -> tuple[int, int]:
    """``(n, m)`` with ``m = round(density * n (n - 1) / 2)``."""
    n = check_int("n", n)
    density = check_fraction("density", density, low_open=True)
    m = round(density * (n * (n - 1) // 2))
    if m < n - 1:
        raise GraphValueError(
            f"density={density} gives {m} edges on n={n} vertices, fewer than the "
            f"{n - 1} a connected graph needs")
    return n, m


def dense(*, n: int | None = None, density: float = 1.0, size: str = "small", seed: int = 0,
          weights: str = "int", max_weight: int | None = None) -> Graph:
    """A connected random graph holding a ``density`` fraction of all vertex pairs.

    ``density=1.0`` (default) is the complete graph; Pugliese's inputs
    correspond to densities 0.80-0.91 (see the module docstring). A random
    spanning tree guarantees connectivity and the remaining pairs are drawn
    without replacement; edges are listed in pair order, larger endpoint first.
    No self-loops, no multi-edges.

    Parameters
    ----------
    n : int, optional
        Vertex count; from ``size`` if omitted (small 64, medium 1536,
        large 4096, the end of Pugliese's series).
    density : float
        Fraction of the ``n (n - 1) / 2`` pairs that are edges, in ``(0, 1]``;
        it must leave at least the ``n - 1`` edges of a spanning tree.
    size : {"small", "medium", "large"}
    seed : int
    weights : {"int", "float", "unique"}
    max_weight : int, optional

    Examples
    --------
    >>> g = dense(n=64, seed=1)
    >>> g.num_vertices, g.num_edges
    (64, 2016)
    >>> dense(n=64, density=0.85, seed=1).num_edges
    1714
    """
    n, m = dense_counts(fill_size("dense", DENSE_SIZES, size, n=n)["n"], density)
    kind, max_weight = check_weights(weights, max_weight)
    rng = np.random.default_rng(seed)
    src, dst = connected_distinct_pairs(rng, n, m)
    return make_graph(src, dst, random_weights(rng, m, kind, max_weight), n)
