"""Grid families: ``grid2d`` (Fallin et al.'s 2d-2e20.sym) and ``road`` (its road maps).

Vertex ``r * side + c`` sits at row ``r``, column ``c``; edges list the
horizontal links row by row, then the vertical ones.
"""

from __future__ import annotations

import numpy as np

from parmst.generators._params import check_fraction, check_int, check_weights, fill_size
from parmst.generators._sampling import make_graph
from parmst.generators._weights import length_weights, random_weights
from parmst.graph import Graph

GRID2D_SIZES = {
    "small": {"side": 32},
    "medium": {"side": 768},
    "large": {"side": 1024},
}
ROAD_SIZES = {
    "small": {"side": 32},
    "medium": {"side": 1024},
    "large": {"side": 2048},
}

# Road vertices are displaced by up to this much (in grid units) along each axis.
_JITTER = 0.25
_MAX_ROAD_LENGTH = float(np.hypot(1 + 2 * _JITTER, 2 * _JITTER))


def grid_counts(side: int) -> tuple[int, int]:
    """``(n, m)`` of the ``side x side`` 4-neighbour grid."""
    side = check_int("side", side)
    return side * side, 2 * side * (side - 1)


def road_counts(side: int, remove: float) -> tuple[int, int]:
    """``(n, m)`` of ``road``: the grid less ``round(remove * m)`` edges."""
    n, m = grid_counts(side)
    return n, m - round(check_fraction("remove", remove) * m)


def _grid_edges(side: int) -> tuple[np.ndarray, np.ndarray]:
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side)
    horizontal = ids[:, :-1].ravel()
    vertical = ids[:-1, :].ravel()
    return (np.concatenate([horizontal, vertical]),
            np.concatenate([horizontal + 1, vertical + side]))


def grid2d(*, side: int | None = None, size: str = "small", seed: int = 0,
           weights: str = "int", max_weight: int | None = None) -> Graph:
    """A ``side x side`` 4-neighbour grid with random weights.

    The stand-in for Fallin et al.'s ``2d-2e20.sym`` (Table 2: 1,048,576 vertices,
    4,190,208 directed = 2,095,104 undirected edges, which ``size="large"``
    reproduces exactly). ``n = side**2``, ``m = 2 * side * (side - 1)``;
    connected, no self-loops, no multi-edges.

    Parameters
    ----------
    side : int, optional
        Vertices per row and column; from ``size`` if omitted
        (small 32, medium 768, large 1024).
    size : {"small", "medium", "large"}
    seed : int
        Seed of ``numpy.random.default_rng``; the graph is a function of it.
    weights : {"int", "float", "unique"}
        See :mod:`parmst.generators._weights`.
    max_weight : int, optional
        Number of distinct weight values; small values force ties.

    Examples
    --------
    >>> g = grid2d(side=3, seed=1)
    >>> g.num_vertices, g.num_edges, g.weight.dtype.name
    (9, 12, 'int32')
    """
    side = fill_size("grid2d", GRID2D_SIZES, size, side=side)["side"]
    n, m = grid_counts(side)
    kind, max_weight = check_weights(weights, max_weight)
    rng = np.random.default_rng(seed)
    src, dst = _grid_edges(side)
    return make_graph(src, dst, random_weights(rng, m, kind, max_weight), n)


def road(*, side: int | None = None, remove: float = 0.32, size: str = "small", seed: int = 0,
         weights: str = "int", max_weight: int | None = None) -> Graph:
    """A road-like graph: a jittered grid with a fraction of its links removed.

    The stand-in for Fallin et al.'s road maps (``USA-road-d.*``, ``europe_osm``:
    average degree 2.1-2.8). Vertices of a ``side x side`` grid are moved by
    up to ``0.25`` along each axis; exactly ``round(remove * m_grid)`` links,
    chosen at random, are dropped, so the average degree is about
    ``4 * (1 - remove)`` (2.7 by default) and small components split off, as
    in real road networks. Weights follow the Euclidean link lengths (see
    :func:`parmst.generators._weights.length_weights`), like the distance
    weights of the DIMACS road graphs. No self-loops, no multi-edges; edges
    keep the grid order.

    Parameters
    ----------
    side : int, optional
        Grid side; from ``size`` if omitted (small 32, medium 1024, large 2048
        = 2**22 vertices).
    remove : float
        Fraction of grid links removed, in ``[0, 1]``.
    size : {"small", "medium", "large"}
    seed : int
    weights : {"int", "float", "unique"}
    max_weight : int, optional

    Examples
    --------
    >>> g = road(side=10, seed=2)
    >>> g.num_vertices, g.num_edges
    (100, 122)
    """
    side = fill_size("road", ROAD_SIZES, size, side=side)["side"]
    n, m = road_counts(side, remove)
    kind, max_weight = check_weights(weights, max_weight)
    rng = np.random.default_rng(seed)
    src, dst = _grid_edges(side)
    kept = np.sort(rng.choice(len(src), size=m, replace=False))
    src, dst = src[kept], dst[kept]
    rows, cols = np.divmod(np.arange(n), side)
    x = cols + rng.uniform(-_JITTER, _JITTER, n)
    y = rows + rng.uniform(-_JITTER, _JITTER, n)
    lengths = np.hypot(x[src] - x[dst], y[src] - y[dst])
    return make_graph(src, dst, length_weights(lengths, _MAX_ROAD_LENGTH, kind, max_weight), n)
