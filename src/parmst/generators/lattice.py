"""Grid families: ``grid2d`` (Fallin et al.'s 2d-2e20.sym) and ``road`` (its road maps).

Vertex ``r * side + c`` sits at row ``r``, column ``c``. The grid's links are
numbered horizontal ones row by row, then vertical ones, and a link's
endpoints are a formula of its number; every random value belongs to a
position (a link, a block of links, a vertex; see
:mod:`parmst.generators._positional`). So the edges of any id range are drawn on
their own (:func:`grid2d_edge_range`, :func:`road_edge_range`), and the whole
graph is the range ``0 .. m``.
"""

from __future__ import annotations

import bisect
import math

import numba
import numpy as np

from parmst.generators._params import (
    check_fraction,
    check_int,
    check_range,
    check_weights,
    fill_size,
)
from parmst.generators._positional import (
    BLOCK,
    STREAM_COORDINATES,
    STREAM_STRUCTURE,
    block_rng,
    draw_range,
    weights_at,
)
from parmst.generators._sampling import make_graph
from parmst.generators._weights import length_weights
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

Edges = tuple[np.ndarray, np.ndarray, np.ndarray]


def grid_counts(side: int) -> tuple[int, int]:
    """``(n, m)`` of the ``side x side`` 4-neighbour grid."""
    side = check_int("side", side)
    return side * side, 2 * side * (side - 1)


def road_counts(side: int, remove: float) -> tuple[int, int]:
    """``(n, m)`` of ``road``: the grid less ``round(remove * m)`` edges."""
    n, m = grid_counts(side)
    return n, m - round(check_fraction("remove", remove) * m)


def _grid_links(links: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Endpoints of the grid links numbered ``links`` (ascending), and how many are horizontal.

    Link ``k < side (side - 1)`` joins ``(r, c)`` to ``(r, c + 1)`` with
    ``r, c = divmod(k, side - 1)``; the ``j``-th vertical link joins vertex
    ``j`` to ``j + side``.
    """
    horizontal = side * (side - 1)
    split = int(np.searchsorted(links, horizontal))
    row, col = np.divmod(links[:split], max(side - 1, 1))
    src = np.concatenate([row * side + col, links[split:] - horizontal])
    dst = src.copy()
    dst[:split] += 1
    dst[split:] += side
    return src, dst, split


def _grid_setup(side, size, weights, max_weight) -> tuple[int, int, int, str, int | None]:
    side = fill_size("grid2d", GRID2D_SIZES, size, side=side)["side"]
    n, m = grid_counts(side)
    return side, n, m, *check_weights(weights, max_weight)


def grid2d_edge_range(lo: int, hi: int, *, side: int | None = None, size: str = "small",
                      seed: int = 0, weights: str = "int", max_weight: int | None = None) -> Edges:
    """Edges ``lo .. hi - 1`` of :func:`grid2d` with the same parameters, as ``(src, dst, weight)``.

    Endpoints by formula (:func:`_grid_links`), weights by
    :func:`parmst.generators._positional.weights_at`: ``O(hi - lo)`` work.

    Examples
    --------
    >>> src, dst, weight = grid2d_edge_range(5, 8, side=3, seed=1)
    >>> src.tolist(), dst.tolist()
    ([7, 0, 1], [8, 3, 4])
    """
    side, _, m, kind, max_weight = _grid_setup(side, size, weights, max_weight)
    lo, hi = check_range(lo, hi, m)
    src, dst, _ = _grid_links(np.arange(lo, hi, dtype=np.int64), side)
    return src, dst, weights_at(lo, hi, m, seed, kind, max_weight)


def grid2d(*, side: int | None = None, size: str = "small", seed: int = 0,
           weights: str = "int", max_weight: int | None = None) -> Graph:
    """A ``side x side`` 4-neighbour grid with random weights.

    The stand-in for Fallin et al.'s ``2d-2e20.sym`` (Table 2: 1,048,576 vertices,
    4,190,208 directed = 2,095,104 undirected edges, which ``size="large"``
    reproduces exactly). ``n = side**2``, ``m = 2 * side * (side - 1)``;
    connected, no self-loops, no multi-edges. Edge ``k``'s weight is a
    function of ``k`` and the seed, so any id range can be generated alone
    (:func:`grid2d_edge_range`).

    Parameters
    ----------
    side : int, optional
        Vertices per row and column; from ``size`` if omitted
        (small 32, medium 768, large 1024).
    size : {"small", "medium", "large"}
    seed : int
        The graph is a function of it.
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
    side, n, m, _, _ = _grid_setup(side, size, weights, max_weight)
    src, dst, weight = grid2d_edge_range(0, m, side=side, seed=seed, weights=weights,
                                         max_weight=max_weight)
    return make_graph(src, dst, weight, n)


def _removed_before(link: int, links: int, removed: int) -> int:
    """Road links removed among grid links ``0 .. link - 1``: ``removed`` spread evenly."""
    return link * removed // links if links else 0


def _kept_in_block(block: int, links: int, removed: int, seed: int) -> np.ndarray:
    """The grid links a road keeps in one block of :data:`BLOCK` links, ascending.

    The block drops exactly its share of the removed links (so ``m`` is exact
    and a block's first road edge id is known without drawing), chosen
    uniformly by the block's own generator.
    """
    start = block * BLOCK
    count = min(BLOCK, links - start)
    drop = _removed_before(start + count, links, removed) - _removed_before(start, links, removed)
    keep = np.ones(count, dtype=bool)
    keep[block_rng(seed, STREAM_STRUCTURE, block).choice(count, drop, replace=False,
                                                         shuffle=False)] = False
    return start + np.flatnonzero(keep)


def _kept_links(lo: int, hi: int, links: int, removed: int, seed: int) -> np.ndarray:
    """Grid link numbers of road edges ``lo .. hi - 1``, from the blocks that hold them."""
    def first_edge(block: int) -> int:
        start = min(block * BLOCK, links)
        return start - _removed_before(start, links, removed)

    blocks = range(-(-links // BLOCK) + 1)
    first = bisect.bisect_right(blocks, lo, key=first_edge) - 1
    parts = [np.empty(0, dtype=np.int64)]
    for block in range(first, bisect.bisect_left(blocks, hi, key=first_edge)):
        kept = _kept_in_block(block, links, removed, seed)
        offset = first_edge(block)
        parts.append(kept[max(lo - offset, 0):max(hi - offset, 0)])
    return np.concatenate(parts)


@numba.njit(cache=True)
def _jittered_lengths(src, dst, first, jitter, side, out):
    """Length of each grid link once its ends move by their jitter (vertex ``v``'s at row ``v - first``)."""
    for i in range(src.size):
        s, d = src[i] - first, dst[i] - first
        vertical = dst[i] - src[i] == side
        dx = (0.0 if vertical else 1.0) + jitter[d, 0] - jitter[s, 0]
        dy = (1.0 if vertical else 0.0) + jitter[d, 1] - jitter[s, 1]
        out[i] = math.hypot(dx, dy)


def _link_lengths(src: np.ndarray, dst: np.ndarray, split: int, side: int,
                  seed: int) -> np.ndarray:
    """Euclidean lengths of grid links between jittered vertices (horizontal ones ``[:split]``).

    Vertex ``v``'s jitter is position ``v`` of a blockwise stream, drawn for
    the run of vertex ids the links touch: one run per direction, one in all
    where they overlap (as for the whole graph).
    """
    overlap = 0 < split < len(src) and src[split] < dst[split - 1]
    runs = [(0, len(src))] if overlap else [(0, split), (split, len(src))]
    lengths = np.empty(len(src))
    for a, b in runs:
        if b == a:
            continue
        first, last = int(src[a:b].min()), int(dst[a:b].max()) + 1
        jitter = draw_range(first, last, seed, STREAM_COORDINATES,
                            lambda rng, k: rng.uniform(-_JITTER, _JITTER, (k, 2)))
        _jittered_lengths(src[a:b], dst[a:b], first, jitter, side, lengths[a:b])
    return lengths


def _road_setup(side, remove, size, weights, max_weight):
    side = fill_size("road", ROAD_SIZES, size, side=side)["side"]
    n, m = road_counts(side, remove)
    return side, n, m, *check_weights(weights, max_weight)


def road_edge_range(lo: int, hi: int, *, side: int | None = None, remove: float = 0.32,
                    size: str = "small", seed: int = 0, weights: str = "int",
                    max_weight: int | None = None) -> Edges:
    """Edges ``lo .. hi - 1`` of :func:`road` with the same parameters, as ``(src, dst, weight)``.

    Draws only the blocks of links that hold the range and the jitter of the
    vertices those links touch: ``O(hi - lo + BLOCK)`` work.

    Examples
    --------
    >>> whole = road(side=10, seed=2)
    >>> src, dst, weight = road_edge_range(50, 60, side=10, seed=2)
    >>> bool((whole.src[50:60] == src).all() and (whole.weight[50:60] == weight).all())
    True
    """
    side, _, m, kind, max_weight = _road_setup(side, remove, size, weights, max_weight)
    lo, hi = check_range(lo, hi, m)
    links = 2 * side * (side - 1)
    src, dst, split = _grid_links(_kept_links(lo, hi, links, links - m, seed), side)
    if kind == "unique":
        return src, dst, weights_at(lo, hi, m, seed, kind, None)
    lengths = _link_lengths(src, dst, split, side, seed)
    return src, dst, length_weights(lengths, _MAX_ROAD_LENGTH, kind, max_weight)


def road(*, side: int | None = None, remove: float = 0.32, size: str = "small", seed: int = 0,
         weights: str = "int", max_weight: int | None = None) -> Graph:
    """A road-like graph: a jittered grid with a fraction of its links removed.

    The stand-in for Fallin et al.'s road maps (``USA-road-d.*``, ``europe_osm``:
    average degree 2.1-2.8). Vertices of a ``side x side`` grid are moved by
    up to ``0.25`` along each axis; exactly ``round(remove * m_grid)`` links
    are dropped, spread evenly over blocks of 65,536 consecutive links and
    chosen at random inside each, so the average degree is about
    ``4 * (1 - remove)`` (2.7 by default) and small components split off, as
    in real road networks. ``"int"`` and ``"float"`` weights follow the
    Euclidean link lengths (see
    :func:`parmst.generators._weights.length_weights`), like the distance
    weights of the DIMACS road graphs; ``"unique"`` weights are a seeded
    permutation of ``1 .. m`` over the edge ids, independent of the lengths
    (ranking all lengths would need the whole graph, which an id range does
    not have). No self-loops, no multi-edges; edges keep the grid order. Any
    id range can be generated alone (:func:`road_edge_range`).

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
    side, n, m, _, _ = _road_setup(side, remove, size, weights, max_weight)
    src, dst, weight = road_edge_range(0, m, side=side, remove=remove, seed=seed,
                                       weights=weights, max_weight=max_weight)
    return make_graph(src, dst, weight, n)
