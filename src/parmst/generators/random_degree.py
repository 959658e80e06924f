"""Random graphs of fixed out-degree (Fallin et al.'s r4-2e23.sym).

Drawn edge ``k`` links vertex ``k // degree`` to a target drawn at position
``k`` (a counter-based word, :mod:`parmst.generators._counter`), so ranks can each draw a
share; repeated pairs are kept once (:mod:`parmst.generators._drawn`).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.generators._counter import bounded, stream_key, word
from parmst.generators._drawn import Drawn, drawn_graph
from parmst.generators._params import check_int, check_weights, fill_size
from parmst.generators._positional import STREAM_ENDPOINTS
from parmst.graph import Graph

RANDOM_DEGREE_SIZES = {
    "small": {"n": 1024},
    "medium": {"n": 2**18},
    "large": {"n": 2**23},
}


def random_degree_counts(n: int, degree: int) -> tuple[int, int]:
    """``(n, edges drawn)``; repeated pairs are removed, so the graph has a few fewer."""
    n, degree = check_int("n", n), check_int("degree", degree)
    return n, n * degree if n > 1 else 0


@numba.njit(cache=True)
def random_degree_pair(position, key, degree, n):
    """The raw edge at ``position``: vertex ``position // degree`` to a uniformly random other
    (a bounded draw among the ``n - 1`` others, skipping the source)."""
    src = np.int64(position) // degree
    dst = np.int64(bounded(word(key, position, 0), max(n - 1, 1)))
    if dst >= src:
        dst += 1
    return src, dst


def random_degree_drawn(*, n: int | None = None, degree: int = 4, size: str = "small",
                        seed: int = 0, weights: str = "int",
                        max_weight: int | None = None) -> Drawn:
    """The :class:`~parmst.generators._drawn.Drawn` recipe of :func:`random_degree`."""
    n = fill_size("random-degree", RANDOM_DEGREE_SIZES, size, n=n)["n"]
    n, drawn = random_degree_counts(n, degree)
    degree = check_int("degree", degree)
    kind, max_weight = check_weights(weights, max_weight)
    seed = check_int("seed", seed)
    key = stream_key(seed, STREAM_ENDPOINTS)
    return Drawn("random-degree", n, drawn, random_degree_pair,
                 (key, np.int64(max(degree, 1)), np.int64(n)), seed, kind, max_weight)


def random_degree(*, n: int | None = None, degree: int = 4, size: str = "small", seed: int = 0,
                  weights: str = "int", max_weight: int | None = None) -> Graph:
    """Each vertex links to ``degree`` uniformly random other vertices.

    The stand-in for Fallin et al.'s ``r4-2e23.sym`` (Table 2: 2**23 vertices,
    67,108,846 directed edges, i.e. ``4 * 2**23`` undirected ones less 9
    repeats; average degree 8). Targets are drawn among the other vertices, so
    there are no self-loops; pairs drawn twice are kept once, as Fallin et al.
    removed multi-edges, so ``m`` is ``n * degree`` less a handful (about
    ``degree**2 - degree / 2`` whatever ``n``: 14 for degree 4). Edges come sorted by
    ``(smaller, larger)`` endpoint. With ``degree >= 2`` the graph is
    connected with high probability (not guaranteed).

    Parameters
    ----------
    n : int, optional
        Vertex count; from ``size`` if omitted (small 1024, medium 2**18,
        large 2**23).
    degree : int
        Links drawn per vertex.
    size : {"small", "medium", "large"}
    seed : int
    weights : {"int", "float", "unique"}
    max_weight : int, optional

    Examples
    --------
    >>> g = random_degree(n=1000, degree=4, seed=5)
    >>> g.num_vertices, 3950 <= g.num_edges <= 4000
    (1000, True)
    """
    return drawn_graph(random_degree_drawn(n=n, degree=degree, size=size, seed=seed,
                                           weights=weights, max_weight=max_weight))
