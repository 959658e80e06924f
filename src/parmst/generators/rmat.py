"""R-MAT and Graph500 Kronecker graphs (Fallin et al.'s rmat16/rmat22.sym, kron_g500-logn21).

Each of the ``edge_factor * 2**scale`` generated edges descends ``scale``
levels of the adjacency matrix, picking a quadrant with probabilities
``a, b, c, d = 1 - a - b - c`` (Chakrabarti et al.; Graph500 uses
``0.57, 0.19, 0.19, 0.05``). The draws for all levels of a block of edges are
generated at once. Vertex ids are then scrambled by a random permutation, as
Graph500 does, and self-loops and repeated pairs are removed, as Fallin et al.
did to its inputs (Table 2), so ``m`` ends up below ``edge_factor * n`` and
many vertices stay isolated (rmat22.sym has 428,640 components).
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.errors import GraphValueError
from parmst.generators._params import check_fraction, check_int, check_weights, fill_size
from parmst.generators._sampling import make_graph, simple_edges
from parmst.generators._weights import random_weights
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
# Quadrant draws are uint32; thresholds are probabilities scaled to 2**32.
_UNIT = 2**32
_BLOCK = 2**16


def rmat_counts(scale: int, edge_factor: int) -> tuple[int, int]:
    """``(n, edges generated)``; the graph keeps fewer edges (loops and repeats go)."""
    scale = check_int("scale", scale)
    if scale > 31:
        raise GraphValueError(f"scale must be at most 31, got {scale}")
    return 2**scale, check_int("edge_factor", edge_factor) * 2**scale


@numba.njit(cache=True)
def _descend(draws, a, ab, abc, scramble, src, dst):
    """Endpoints of R-MAT edges, one row of ``draws`` (one per level) per edge.

    At each level the draw picks quadrant a = (0, 0), b = (0, 1), c = (1, 0)
    or d = (1, 1) by falling below ``a``, ``a + b``, ``a + b + c`` or not
    (thresholds scaled to 2**32); the quadrant adds that level's bit to the
    row and column. The endpoints are the scrambled row and column ids.
    """
    for i in range(draws.shape[0]):
        row, col = 0, 0
        for level in range(draws.shape[1]):
            draw = np.int64(draws[i, level])
            row |= np.int64(draw >= ab) << level
            col |= np.int64(draw >= abc or a <= draw < ab) << level
        src[i] = scramble[row]
        dst[i] = scramble[col]


def _rmat_endpoints(rng: np.random.Generator, scale: int, m: int, a: float, b: float,
                    c: float) -> tuple[np.ndarray, np.ndarray]:
    scramble = rng.permutation(2**scale)
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    thresholds = [round(p * _UNIT) for p in (a, a + b, a + b + c)]
    # Draws come in blocks of edges, all levels at once, so they stay in cache.
    for start in range(0, m, _BLOCK):
        stop = min(m, start + _BLOCK)
        draws = rng.integers(0, _UNIT, size=(stop - start, scale), dtype=np.uint32)
        _descend(draws, *thresholds, scramble, src[start:stop], dst[start:stop])
    return src, dst


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
    ``scale=16, edge_factor=8`` gives 477,602 edges here.

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
    scale = check_int("scale", fill_size("rmat", RMAT_SIZES, size, scale=scale)["scale"])
    n, m = rmat_counts(scale, edge_factor)
    a, b, c = (check_fraction(name, p) for name, p in (("a", a), ("b", b), ("c", c)))
    if a + b + c > 1:
        raise GraphValueError(f"a + b + c must not exceed 1, got {a + b + c}")
    kind, max_weight = check_weights(weights, max_weight)
    rng = np.random.default_rng(seed)
    src, dst = simple_edges(*_rmat_endpoints(rng, scale, m, a, b, c), n)
    return make_graph(src, dst, random_weights(rng, len(src), kind, max_weight), n)


def kronecker(*, scale: int | None = None, edge_factor: int = 48, size: str = "small",
              seed: int = 0, weights: str = "int", max_weight: int | None = None) -> Graph:
    """A Graph500 Kronecker graph: :func:`rmat` with Graph500's ``a, b, c``.

    The stand-in for Fallin et al.'s ``kron_g500-logn21`` (DIMACS 10th challenge:
    2**21 vertices, 91,040,932 undirected edges after clean-up, 553,159
    components). ``edge_factor=48``, the default here, reproduces that size
    (``scale=21`` gives 90,579,092 edges); Graph500's benchmark itself uses 16.

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
    scale = fill_size("kronecker", KRONECKER_SIZES, size, scale=scale)["scale"]
    return rmat(scale=scale, edge_factor=edge_factor, seed=seed, weights=weights,
                max_weight=max_weight, **_GRAPH500)
