"""R-MAT and Graph500 Kronecker graphs (Fallin et al.'s rmat16/rmat22.sym, kron_g500-logn21).

Each of the ``edge_factor * 2**scale`` drawn edges descends ``scale``
levels of the adjacency matrix, picking a quadrant with probabilities
``a, b, c, d = 1 - a - b - c`` (Chakrabarti et al.; Graph500 uses
``0.57, 0.19, 0.19, 0.05``). The draws of an edge depend on its position
alone (counter-based words, :mod:`parmst.generators._counter`), so ranks can each draw
a share. Vertex ids are then scrambled by a seeded bijection, as Graph500
does, and self-loops and repeated pairs are removed, as Fallin et al. did
to its inputs (Table 2), so ``m`` ends up below ``edge_factor * n`` and
many vertices stay isolated (rmat22.sym has 428,640 components); see
:mod:`parmst.generators._drawn`.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.errors import GraphValueError
from parmst.generators._counter import (
    lane_word,
    permutation,
    permute_one,
    position_state,
    stream_key,
)
from parmst.generators._drawn import Drawn, drawn_graph
from parmst.generators._params import check_fraction, check_int, check_weights, fill_size
from parmst.generators._positional import STREAM_ENDPOINTS, STREAM_PERMUTE
from parmst.graph import Graph

RMAT_SIZES = {
    "small": {"scale": 10},
    "medium": {"scale": 16},
    "large": {"scale": 22},
}
KRONECKER_SIZES = {
    "small": {"scale": 8},
    "medium": {"scale": 15},
    "large": {"scale": 21},
}
_GRAPH500 = {"a": 0.57, "b": 0.19, "c": 0.19}
# Quadrant draws are 32-bit; thresholds are probabilities scaled to 2**32.
_UNIT = 2**32


def rmat_counts(scale: int, edge_factor: int) -> tuple[int, int]:
    """``(n, edges drawn)``; the graph keeps fewer edges (loops and repeats go)."""
    scale = check_int("scale", scale)
    if scale > 31:
        raise GraphValueError(f"scale must be at most 31, got {scale}")
    return 2**scale, check_int("edge_factor", edge_factor) * 2**scale


@numba.njit(cache=True)
def rmat_pair(position, key, scale, a, ab, abc, p):
    """The raw edge at ``position``: its descent, then both ends scrambled by ``p``.

    Chakrabarti et al.'s recursive step: level ``l`` takes a 32-bit draw,
    the low or high half of the counter word at lane ``l // 2``, which picks
    quadrant a = (0, 0), b = (0, 1), c = (1, 0) or d = (1, 1) by falling below
    ``a``, ``a + b``, ``a + b + c`` or not (thresholds scaled to 2**32); the
    quadrant adds that level's bit to the row and column. ``p`` is the
    seeded bijection of the vertex ids (Graph500's scrambling).
    """
    row, col = np.int64(0), np.int64(0)
    state = position_state(key, position)
    w = np.uint64(0)
    for level in range(scale):
        if level & 1 == 0:
            w = lane_word(key, state, level >> 1)
        draw = np.int64((w >> np.uint64(32 * (level & 1))) & np.uint64(0xFFFFFFFF))
        row |= np.int64(draw >= ab) << level
        col |= np.int64(draw >= abc or (a <= draw < ab)) << level
    return permute_one(row, p), permute_one(col, p)


def rmat_drawn(*, scale: int | None = None, edge_factor: int = 16, a: float = 0.57,
               b: float = 0.19, c: float = 0.19, size: str = "small", seed: int = 0,
               weights: str = "int", max_weight: int | None = None,
               family: str = "rmat") -> Drawn:
    """The :class:`~parmst.generators._drawn.Drawn` recipe of :func:`rmat` (parameters checked)."""
    scale = check_int("scale", fill_size(family, RMAT_SIZES, size, scale=scale)["scale"])
    n, raw = rmat_counts(scale, edge_factor)
    a, b, c = (check_fraction(name, p) for name, p in (("a", a), ("b", b), ("c", c)))
    if a + b + c > 1:
        raise GraphValueError(f"a + b + c must not exceed 1, got {a + b + c}")
    kind, max_weight = check_weights(weights, max_weight)
    seed = check_int("seed", seed)
    thresholds = tuple(round(p * _UNIT) for p in (a, a + b, a + b + c))
    key = stream_key(seed, STREAM_ENDPOINTS)
    args = (key, np.int64(scale), *(np.int64(t) for t in thresholds),
            permutation(n, seed, STREAM_PERMUTE))
    return Drawn(family, n, raw, rmat_pair, args, seed, kind, max_weight)


def rmat(*, scale: int | None = None, edge_factor: int = 16, a: float = 0.57, b: float = 0.19,
         c: float = 0.19, size: str = "small", seed: int = 0, weights: str = "int",
         max_weight: int | None = None) -> Graph:
    """An R-MAT graph: ``2**scale`` vertices, ``edge_factor * 2**scale`` edges drawn.

    Self-loops and repeated pairs are removed afterwards (see the module
    docstring), and edges come sorted by ``(smaller, larger)`` endpoint, as
    read from a CSR file. ``edge_factor`` counts undirected edges, as
    Graph500 does. Fallin et al.'s rmat22.sym (65,660,814 directed, i.e.
    32,830,407 undirected edges on 2**22 vertices) and rmat16.sym (483,933
    undirected edges on 2**16) match ``edge_factor=8`` in these terms:
    ``scale=16, edge_factor=8`` gives 477,707 edges here.

    Parameters
    ----------
    scale : int, optional
        log2 of the vertex count; from ``size`` if omitted (small 10,
        medium 16, large 22).
    edge_factor : int
        Edges drawn per vertex before clean-up.
    a, b, c : float
        Quadrant probabilities (``d = 1 - a - b - c``); Graph500's by default.
    size : {"small", "medium", "large"}
    seed : int
    weights : {"int", "float", "unique"}
    max_weight : int, optional

    Examples
    --------
    >>> g = rmat(scale=6, edge_factor=4, seed=1)
    >>> g.num_vertices, g.num_edges <= 4 * 64, bool((g.src < g.dst).all())
    (64, True, True)
    """
    return drawn_graph(rmat_drawn(scale=scale, edge_factor=edge_factor, a=a, b=b, c=c,
                                  size=size, seed=seed, weights=weights, max_weight=max_weight))


def kronecker_drawn(*, scale: int | None = None, edge_factor: int = 48, size: str = "small",
                    seed: int = 0, weights: str = "int", max_weight: int | None = None) -> Drawn:
    """The recipe of :func:`kronecker`: :func:`rmat_drawn` with Graph500's ``a, b, c``."""
    scale = fill_size("kronecker", KRONECKER_SIZES, size, scale=scale)["scale"]
    return rmat_drawn(scale=scale, edge_factor=edge_factor, seed=seed, weights=weights,
                      max_weight=max_weight, family="kronecker", **_GRAPH500)


def kronecker(*, scale: int | None = None, edge_factor: int = 48, size: str = "small",
              seed: int = 0, weights: str = "int", max_weight: int | None = None) -> Graph:
    """A Graph500 Kronecker graph: :func:`rmat` with Graph500's ``a, b, c``.

    The stand-in for Fallin et al.'s ``kron_g500-logn21`` (DIMACS 10th challenge:
    2**21 vertices, 91,040,932 undirected edges after clean-up, 553,159
    components). ``edge_factor=48``, the default here, reproduces that size
    (``scale=21`` gives about 90.6 million edges); Graph500's benchmark itself uses 16.

    Parameters
    ----------
    scale : int, optional
        From ``size`` if omitted (small 8, medium 15, large 21 = logn21).
    edge_factor : int
    size : {"small", "medium", "large"}
    seed : int
    weights : {"int", "float", "unique"}
    max_weight : int, optional

    Examples
    --------
    >>> kronecker(scale=5, seed=3).num_vertices
    32
    """
    return drawn_graph(kronecker_drawn(scale=scale, edge_factor=edge_factor, size=size,
                                       seed=seed, weights=weights, max_weight=max_weight))
