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

import math

import numba
import numpy as np

from parmst.generators._counter import (
    bounded,
    permutation_at,
    permute_one,
    stream_key,
    word,
)
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
    pairs_at,
    weights_at,
)
from parmst.generators._sampling import make_graph
from parmst.generators._weights import int_dtype, length_rule, length_weight
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

# Road coordinates are integers in units of 2**-20 grid steps, so lengths are exact
# integers before one square root; vertices move by up to 0.25 along each axis.
_UNIT_BITS = 20
_STEP = 1 << _UNIT_BITS
_JITTER = _STEP // 4
_SCALE = 2.0 ** -_UNIT_BITS
_MAX_ROAD_LENGTH = math.sqrt(float((_STEP + 2 * _JITTER) ** 2 + (2 * _JITTER) ** 2)) * _SCALE

Edges = tuple[np.ndarray, np.ndarray, np.ndarray]


def grid_counts(side: int) -> tuple[int, int]:
    """``(n, m)`` of the ``side x side`` 4-neighbour grid."""
    side = check_int("side", side)
    return side * side, 2 * side * (side - 1)


def road_counts(side: int, remove: float) -> tuple[int, int]:
    """``(n, m)`` of ``road``: the grid less ``round(remove * m)`` edges."""
    n, m = grid_counts(side)
    return n, m - round(check_fraction("remove", remove) * m)


@numba.njit(cache=True)
def grid_link(k, side, horizontal):
    """Endpoints of grid link ``k``: ``k < horizontal = side (side - 1)`` joins ``(r, c)`` to
    ``(r, c + 1)`` with ``r, c = divmod(k, side - 1)``; the ``j``-th vertical link joins
    vertex ``j`` to ``j + side``."""
    if k < horizontal:
        row, col = k // (side - 1), k % (side - 1)
        return row * side + col, row * side + col + 1
    return k - horizontal, k - horizontal + side


def grid_args(side: int) -> tuple:
    """The integers :func:`grid_link` takes after the link number."""
    return np.int64(side), np.int64(side * (side - 1))


def _grid_setup(side, size, weights, max_weight) -> tuple[int, int, int, str, int | None]:
    side = fill_size("grid2d", GRID2D_SIZES, size, side=side)["side"]
    n, m = grid_counts(side)
    return side, n, m, *check_weights(weights, max_weight)


def grid2d_edge_range(lo: int, hi: int, *, side: int | None = None, size: str = "small",
                      seed: int = 0, weights: str = "int", max_weight: int | None = None) -> Edges:
    """Edges ``lo .. hi - 1`` of :func:`grid2d` with the same parameters, as ``(src, dst, weight)``.

    Endpoints by formula (:func:`grid_link`), weights by
    :func:`parmst.generators._positional.weights_at`: ``O(hi - lo)`` work.

    Examples
    --------
    >>> src, dst, weight = grid2d_edge_range(5, 8, side=3, seed=1)
    >>> src.tolist(), dst.tolist()
    ([7, 0, 1], [8, 3, 4])
    """
    side, _, m, kind, max_weight = _grid_setup(side, size, weights, max_weight)
    lo, hi = check_range(lo, hi, m)
    src, dst = pairs_at(grid_link, grid_args(side), lo, hi)
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


def road_blocks(links: int, removed: int) -> np.ndarray:
    """First road edge id of every block of :data:`BLOCK` grid links, and ``m`` last (int64).

    The ``removed`` links are spread evenly: block ``b`` starting at link
    ``s`` drops ``removed_before(s + count) - removed_before(s)`` of its
    ``count`` links, ``removed_before(s) = s * removed // links`` (Python
    integers: no overflow at any size), so every block's first id is known
    without drawing.
    """
    starts = [min(b * BLOCK, links) for b in range(-(-links // BLOCK) + 1)]
    return np.array([s - (s * removed // links if links else 0) for s in starts], dtype=np.int64)


@numba.njit(cache=True)
def link_kept(j, links, key, block_first, next_first):
    """Whether road keeps grid link ``j``: its block (of :data:`BLOCK` links, whose first
    road ids are ``block_first`` and, for the next block, ``next_first``; see
    :func:`road_blocks`) drops exactly its share, the links whose image under the block's
    own seeded bijection (keyed by the block number) falls below the number dropped.
    """
    block = j // BLOCK
    start = block * BLOCK
    count = min(np.int64(BLOCK), links - start)
    drop = count - (next_first - block_first)
    return permute_one(j - start, permutation_at(count, key, block)) >= drop


@numba.njit(cache=True)
def _kept_flags(start, links, key, first, flags):
    for i in range(flags.size):
        block = (start + i) // BLOCK
        flags[i] = link_kept(start + i, links, key, first[block], first[block + 1])


def road_link_window(lo: int, hi: int, first: np.ndarray) -> tuple[int, int, int]:
    """The grid links whose blocks hold road edges ``lo .. hi - 1`` (``lo < hi``):
    ``(first link, end link, first road id of that block)``."""
    b0 = int(np.searchsorted(first, lo, side="right")) - 1
    b1 = int(np.searchsorted(first, hi, side="left"))
    return b0 * BLOCK, b1 * BLOCK, int(first[b0])


def _kept_links(lo: int, hi: int, links: int, key: np.uint64, first: np.ndarray) -> np.ndarray:
    """Grid link numbers of road edges ``lo .. hi - 1``, from the blocks that hold them."""
    if hi <= lo:
        return np.empty(0, dtype=np.int64)
    start, end, offset = road_link_window(lo, hi, first)
    end = min(end, links)
    flags = np.empty(end - start, dtype=np.bool_)
    _kept_flags(start, links, key, first, flags)
    kept = start + np.flatnonzero(flags)
    return kept[lo - offset:hi - offset]


@numba.njit(cache=True)
def _jitter(key, v, lane):
    """Vertex ``v``'s displacement along one axis, in ``-0.25 .. 0.25`` grid steps (integer
    units of 2**-20)."""
    return np.int64(bounded(word(key, v, lane), 2 * _JITTER + 1)) - _JITTER


@numba.njit(cache=True)
def link_length(src, dst, side, key):
    """Length of a grid link once its ends move by their jitter: exact integer squares,
    one square root."""
    vertical = dst - src == side
    dx = (0 if vertical else _STEP) + _jitter(key, dst, 0) - _jitter(key, src, 0)
    dy = (_STEP if vertical else 0) + _jitter(key, dst, 1) - _jitter(key, src, 1)
    return math.sqrt(np.float64(dx * dx + dy * dy)) * _SCALE


@numba.njit(cache=True)
def road_weight(src, dst, side, key, rule, top):
    """The length weight of a road link (:func:`parmst.generators._weights.length_weight`)."""
    return length_weight(link_length(src, dst, side, key), _MAX_ROAD_LENGTH, rule, top)


@numba.njit(cache=True)
def _fill_road_weights(src, dst, side, key, rule, top, out):
    for i in range(src.size):
        out[i] = road_weight(src[i], dst[i], side, key, rule, top)


@numba.njit(cache=True)
def _links_ends_into(kept, side, horizontal, src, dst):
    for i in range(kept.size):
        src[i], dst[i] = grid_link(kept[i], side, horizontal)


def _links_ends(kept: np.ndarray, side: np.int64,
                horizontal: np.int64) -> tuple[np.ndarray, np.ndarray]:
    """Endpoints of the grid links numbered ``kept``."""
    src, dst = np.empty_like(kept), np.empty_like(kept)
    _links_ends_into(kept, side, horizontal, src, dst)
    return src, dst


def road_structure(side: int, m: int, seed: int) -> tuple[int, np.uint64, np.ndarray]:
    """``(links, key, first)``: the grid's link count, the drop rule's stream key and
    :func:`road_blocks`."""
    links = 2 * side * (side - 1)
    return links, stream_key(seed, STREAM_STRUCTURE), road_blocks(links, links - m)


def _road_setup(side, remove, size, weights, max_weight):
    side = fill_size("road", ROAD_SIZES, size, side=side)["side"]
    n, m = road_counts(side, remove)
    return side, n, m, *check_weights(weights, max_weight)


def road_edge_range(lo: int, hi: int, *, side: int | None = None, remove: float = 0.32,
                    size: str = "small", seed: int = 0, weights: str = "int",
                    max_weight: int | None = None) -> Edges:
    """Edges ``lo .. hi - 1`` of :func:`road` with the same parameters, as ``(src, dst, weight)``.

    Decides only the blocks of links that hold the range, and draws the
    jitter of the vertices those links touch: ``O(hi - lo + BLOCK)`` work.

    Examples
    --------
    >>> whole = road(side=10, seed=2)
    >>> src, dst, weight = road_edge_range(50, 60, side=10, seed=2)
    >>> bool((whole.src[50:60] == src).all() and (whole.weight[50:60] == weight).all())
    True
    """
    side, _, m, kind, max_weight = _road_setup(side, remove, size, weights, max_weight)
    lo, hi = check_range(lo, hi, m)
    links, key, first = road_structure(side, m, seed)
    src, dst = _links_ends(_kept_links(lo, hi, links, key, first), *grid_args(side))
    if kind == "unique":
        return src, dst, weights_at(lo, hi, m, seed, kind, None)
    rule, top = length_rule(kind, max_weight)
    weight = np.empty(len(src), dtype=np.float64 if kind == "float" else int_dtype(top))
    _fill_road_weights(src, dst, np.int64(side), stream_key(seed, STREAM_COORDINATES),
                       rule, np.int64(top), weight)
    return src, dst, weight


def road(*, side: int | None = None, remove: float = 0.32, size: str = "small", seed: int = 0,
         weights: str = "int", max_weight: int | None = None) -> Graph:
    """A road-like graph: a jittered grid with a fraction of its links removed.

    The stand-in for Fallin et al.'s road maps (``USA-road-d.*``, ``europe_osm``:
    average degree 2.1-2.8). Vertices of a ``side x side`` grid are moved by
    up to ``0.25`` along each axis; exactly ``round(remove * m_grid)`` links
    are dropped, spread evenly over blocks of 65,536 consecutive links and
    chosen at random inside each (by a seeded bijection of the block's links), so the average degree is about
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
