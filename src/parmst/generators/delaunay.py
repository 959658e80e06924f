"""Delaunay triangulations of random points (Fallin et al.'s delaunay_n24)."""

from __future__ import annotations

import math

import numpy as np

from parmst._optional import require
from parmst.generators._params import check_int, check_weights, fill_size
from parmst.generators._sampling import make_graph, simple_edges
from parmst.generators._weights import random_weights
from parmst.graph import Graph

DELAUNAY_SIZES = {
    "small": {"n": 1024},
    "medium": {"n": 2**19},
    "large": {"n": 2**20},
}


def delaunay_counts(n: int) -> tuple[int, int]:
    """``(n, upper bound on m)``: a planar triangulation has at most ``3n - 6`` edges."""
    n = check_int("n", n)
    return n, 3 * n - 6 if n >= 3 else max(n - 1, 0)


def _triangles(points: np.ndarray) -> np.ndarray:
    spatial = require("scipy.spatial", "the delaunay generator (SciPy's Qhull binding)")
    return spatial.Delaunay(points).simplices


def delaunay(*, n: int | None = None, size: str = "small", seed: int = 0,
             weights: str = "int", max_weight: int | None = None) -> Graph:
    """The Delaunay triangulation of ``n`` uniform random points in the unit square.

    Point ``i`` is vertex ``i``; the edges are the triangle sides, each once,
    sorted by ``(smaller, larger)`` endpoint. Connected, planar, average
    degree just under 6 like Fallin et al.'s ``delaunay_n24`` (Table 2: 6.0).
    That graph is unweighted, and Fallin et al. inserted random weights; so do we.
    Uses ``scipy.spatial.Delaunay`` (Qhull), imported only here.

    Parameters
    ----------
    n : int, optional
        Number of points; from ``size`` if omitted (small 1024,
        medium 2**19, large 2**20).
    size : {"small", "medium", "large"}
    seed : int
    weights : {"int", "float", "unique"}
    max_weight : int, optional

    Raises
    ------
    MissingDependencyError
        SciPy is not installed (also an ImportError; the message names
        ``pip install 'parmst[interop]'``).

    Examples
    --------
    >>> g = delaunay(n=100, seed=4)
    >>> g.num_vertices, g.num_edges <= 3 * 100 - 6
    (100, True)
    """
    n, _ = delaunay_counts(fill_size("delaunay", DELAUNAY_SIZES, size, n=n)["n"])
    kind, max_weight = check_weights(weights, max_weight)
    rng = np.random.default_rng(seed)
    points = rng.random((n, 2))
    if n < 3:
        # Qhull needs three points; with fewer, every pair is an edge.
        src, dst = np.arange(n - 1), np.arange(1, n)
    else:
        # Qhull runs about a third faster on points fed strip by strip
        # (locality); mapping back through `order` keeps point i as vertex i.
        order = np.lexsort((points[:, 1], np.floor(points[:, 0] * math.isqrt(n))))
        corners = order[_triangles(points[order])]
        src, dst = simple_edges(corners.ravel(), corners[:, [1, 2, 0]].ravel(), n)
    return make_graph(src, dst, random_weights(rng, len(src), kind, max_weight), n)
