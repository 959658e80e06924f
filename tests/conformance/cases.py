"""The shared catalogue of conformance inputs: named graphs and a hypothesis strategy.

Every registered solver must return exactly kruskal/serial's edge ids on
each of these. Cases are small on purpose: the
suite runs once per solver, GPU ones under the CUDA simulator included.

``CASES`` maps a name to a function building the graph, so that importing
this module builds nothing. ``GENERATOR_SPECS`` names each generator family
at a tiny size. ``tie_heavy_graphs`` draws random graphs full of ties,
parallel edges, self-loops, isolated vertices and several components.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import strategies as st

from parmst import Graph

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min
INT32_MAX = np.iinfo(np.int32).max
INT32_MIN = np.iinfo(np.int32).min


def _graph(edges: list[tuple[int, int]], weights, num_vertices: int | None = None,
           dtype=np.float64) -> Graph:
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    return Graph.from_edges(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
                            np.array(weights, dtype=dtype), num_vertices)


def _random_multigraph(dtype, num_vertices: int = 24, num_edges: int = 96,
                       seed: int = 7) -> Graph:
    """Random edges with weights from a small range (many ties), in the given dtype."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, num_vertices, num_edges)
    dst = rng.integers(0, num_vertices, num_edges)
    weight = rng.integers(-5, 6, num_edges).astype(dtype)
    if np.dtype(dtype).kind == "f":
        weight = weight / 4
    return Graph.from_edges(src, dst, weight, num_vertices)


def _complete(num_vertices: int) -> Graph:
    pairs = [(u, v) for u in range(num_vertices) for v in range(u + 1, num_vertices)]
    rng = np.random.default_rng(num_vertices)
    return _graph(pairs, rng.integers(0, 4, len(pairs)), dtype=np.int32)


def _ties_decide_everywhere() -> Graph:
    """Equal weights where each family's natural tie-break differs from the smaller id.

    Vertex 0 sees its heaviest-id edges first in the edge list; parallel edges
    come heaviest id first; Borůvka's two components 0-1-2 and 3-4-5 each have
    two equal bridges, and the smaller id must win on both sides.
    """
    edges = [(0, 2), (0, 1), (1, 2), (1, 0), (3, 4), (4, 5), (5, 3),
             (2, 3), (1, 4), (0, 5), (2, 3)]
    weights = [1, 1, 1, 1, 1, 1, 1, 5, 5, 5, 5]
    return _graph(edges, weights, dtype=np.int64)


def _large_vertex_ids() -> Graph:
    """A few edges among the highest ids of a sparse 5000-vertex graph (4990 isolated)."""
    top = 4999
    edges = [(top, top - 1), (top - 1, top - 2), (top - 2, top), (top - 5, top - 9), (0, top)]
    return _graph(edges, [INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1, 0],
                  num_vertices=5000, dtype=np.int64)


def _int64_index_arrays() -> Graph:
    """A graph whose index arrays are int64 (as beyond 2**31 edges), through the trusted
    constructor, so that kernels compile and run for the wide index type too."""
    src = np.array([0, 1, 2, 3, 0, 2, 4], dtype=np.int64)
    dst = np.array([1, 2, 3, 0, 2, 2, 5], dtype=np.int64)
    weight = np.array([3.0, 1.0, 3.0, 1.0, 1.0, -1.0, 2.0])
    return Graph(src, dst, weight, 7)


CASES: dict[str, Callable[[], Graph]] = {
    "empty": lambda: _graph([], [], num_vertices=0),
    "one-vertex": lambda: _graph([], [], num_vertices=1),
    "two-vertices-one-edge": lambda: _graph([(0, 1)], [2.5]),
    "isolated-vertices": lambda: _graph([(1, 2), (2, 4), (4, 1)], [3, 1, 2], num_vertices=7),
    "two-components": lambda: _graph([(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)],
                                     [1, 2, 3, 3, 2, 1], dtype=np.int32),
    "all-equal-weights": lambda: _graph(
        [(u, v) for u in range(6) for v in range(6) if u != v], [4] * 30, dtype=np.int32),
    "multi-edges-equal-weights": lambda: _graph(
        [(0, 1), (1, 0), (0, 1), (1, 2), (2, 1), (2, 1), (0, 2)], [2, 2, 2, 2, 2, 2, 2]),
    "self-loops-only": lambda: _graph([(0, 0), (1, 1), (2, 2), (1, 1)], [-5, 0, 1, -9]),
    "self-loops-lightest": lambda: _graph([(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (0, 2)],
                                          [-100, 5, -100, 4, -100, 6], dtype=np.int32),
    "negative-weights": lambda: _graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)],
                                       [-4.5, -1.0, -4.5, -2.0, -8.0]),
    "zero-weights": lambda: _graph([(0, 1), (1, 2), (2, 0), (2, 3)], [0, 0, 0, 0],
                                   dtype=np.int64),
    "signed-zeros": lambda: _graph([(0, 1), (0, 1), (1, 2), (1, 2), (2, 0)],
                                   [0.0, -0.0, -0.0, 0.0, -0.0]),
    "infinite-weights": lambda: _graph(
        [(0, 1), (1, 2), (2, 3), (3, 1), (0, 4), (4, 5), (5, 0)],
        [np.inf, 1.0, np.inf, np.inf, -7.0, np.inf, np.inf]),
    "plus-and-minus-infinity": lambda: _graph(
        [(0, 1), (1, 2), (2, 0), (2, 3)], [-np.inf, np.inf, -np.inf, np.inf]),
    "float32-weights": lambda: _random_multigraph(np.float32),
    "float64-weights": lambda: _random_multigraph(np.float64),
    "int32-weights": lambda: _random_multigraph(np.int32),
    "int64-weights": lambda: _random_multigraph(np.int64),
    "int32-extremes": lambda: _graph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 0)],
                                     [INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 0],
                                     dtype=np.int32),
    "int64-extremes-large-vertex-ids": _large_vertex_ids,
    "int64-index-arrays": _int64_index_arrays,
    "path": lambda: _graph([(i, i + 1) for i in range(19)], np.arange(19)[::-1] % 4),
    "star": lambda: _graph([(0, i) for i in range(1, 16)], [3] * 15, dtype=np.int32),
    "cycle": lambda: _graph([(i, (i + 1) % 12) for i in range(12)], [1, 2, 3] * 4),
    "complete-k12": lambda: _complete(12),
    "ties-decide-everywhere": _ties_decide_everywhere,
}

# Each generator family at a tiny size (Shou and He's presets are far larger
# than their name says, so their counts are given). Some ask for few
# distinct weights, so that ties decide, and some for float weights.
GENERATOR_SPECS: dict[str, str] = {
    "gen-grid2d": "grid2d:side=6,seed=1,max_weight=3",
    "gen-random-degree": "random-degree:n=60,seed=2",
    "gen-rmat": "rmat:scale=6,seed=3,weights=float,max_weight=5",
    "gen-kronecker": "kronecker:scale=5,seed=4,max_weight=4",
    "gen-delaunay": "delaunay:n=60,seed=5",
    "gen-road": "road:side=6,seed=6,weights=float",
    "gen-seed000-sparse": "seed000-sparse:n=80,m=120,seed=7",
    "gen-seed000-dense": "seed000-dense:n=24,m=250,seed=8",
    "gen-dense": "dense:n=24,seed=9,max_weight=6",
}

WEIGHT_DTYPES = ("int32", "int64", "float32", "float64")
_TINY_FLOATS = (-1.5, -0.0, 0.0, 0.5, 2.0, np.inf)


@st.composite
def tie_heavy_graphs(draw, max_vertices: int = 16, max_edges: int = 48) -> Graph:
    """Small graphs with heavy ties, parallel edges, self-loops and several components.

    Weights come from a tiny range (five integers, or six floats including
    ``-0.0`` and ``+inf``) in one of the four weight dtypes. Vertices are
    dealt into up to three blocks and edges stay inside a block, so graphs
    often have several components; vertices without edges stay isolated.
    """
    n = draw(st.integers(0, max_vertices))
    dtype = draw(st.sampled_from(WEIGHT_DTYPES))
    if n == 0:
        return Graph.from_edges([], [], np.zeros(0, dtype=dtype), 0)
    blocks = draw(st.integers(1, 3))
    ends = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    pairs = draw(st.lists(ends, max_size=max_edges))
    src = np.array([u for u, _ in pairs], dtype=np.int64)
    dst = np.array([v - v % blocks + u % blocks for u, v in pairs], dtype=np.int64)
    dst = np.where(dst < n, dst, src)
    if dtype.startswith("int"):
        values = st.integers(-2, 2)
    else:
        values = st.sampled_from(_TINY_FLOATS)
    weight = np.array(draw(st.lists(values, min_size=len(pairs), max_size=len(pairs))),
                      dtype=dtype)
    return Graph.from_edges(src, dst, weight, n)
