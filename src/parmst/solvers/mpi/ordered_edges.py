"""Edge lists in ``(key, edge_id)`` order, built on a rank's threads: merge two, sort one.

An edge list here is four arrays (ends ``src``, ``dst``, weight ``key``,
global edge ``id``). The forest merge (:mod:`parmst.solvers.mpi.forest_merge`)
keeps every forest in the ``(key, id)`` order, which makes the forest of two
forests one scan over their merge.

Two ordered lists are merged in parallel by co-ranks (Siebert and Träff,
"Perfectly load-balanced, optimal, stable, parallel merge"): the output is cut
into one equal part per thread, a binary search finds how many items of each
list come before each cut, and every thread merges its part alone. A list
whose ids increase is ordered by sorting one run per thread by key (a stable
sort, so ties keep the id order; NumPy's, in Python threads) and merging the
runs pairwise, ``log2`` of the thread count passes.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from parmst.order.scalar import precedes


@numba.njit(cache=True, inline="always")
def _co_rank(k, a_key, a_id, a_lo, a_hi, b_key, b_id, b_lo, b_hi):
    """How many of the first ``k`` items of the merge of ``a[a_lo:a_hi]`` and
    ``b[b_lo:b_hi]`` come from ``a`` (Siebert and Träff's co-rank, by binary search).

    The smallest ``i`` for which ``a[a_lo + i]`` does not precede
    ``b[b_lo + k - i - 1]``: then the first ``i`` of ``a`` and the first
    ``k - i`` of ``b`` are the merge's first ``k`` (ids are distinct, so the
    order is total).
    """
    lo, hi = max(0, k - (b_hi - b_lo)), min(k, a_hi - a_lo)
    while lo < hi:
        i = (lo + hi) // 2
        j = b_lo + k - i - 1
        if precedes(a_key[a_lo + i], a_id[a_lo + i], b_key[j], b_id[j]):
            lo = i + 1
        else:
            hi = i
    return lo


@numba.njit(cache=True, inline="always")
def _merge_part(a, a_lo, a_hi, b, b_lo, b_hi, out, k_lo, k_hi, o_lo):
    """Items ``k_lo .. k_hi - 1`` of the merge of ``a[a_lo:a_hi]`` and ``b[b_lo:b_hi]``
    (each a tuple ``src, dst, key, id``), written to ``out`` from ``o_lo + k_lo``."""
    a_src, a_dst, a_key, a_id = a
    b_src, b_dst, b_key, b_id = b
    i = a_lo + _co_rank(k_lo, a_key, a_id, a_lo, a_hi, b_key, b_id, b_lo, b_hi)
    j = b_lo + k_lo - (i - a_lo)
    for k in range(o_lo + k_lo, o_lo + k_hi):
        if j == b_hi or (i < a_hi and precedes(a_key[i], a_id[i], b_key[j], b_id[j])):
            out[0][k], out[1][k], out[2][k], out[3][k] = a_src[i], a_dst[i], a_key[i], a_id[i]
            i += 1
        else:
            out[0][k], out[1][k], out[2][k], out[3][k] = b_src[j], b_dst[j], b_key[j], b_id[j]
            j += 1


@numba.njit(parallel=True, cache=True)
def _merge_runs(edges, bounds, width, out, parts):
    """One pass of the sort: runs ``r`` and ``r + width`` of ``edges`` (``bounds[r]``
    their starts, runs of ``width`` consecutive bounds each) merged into ``out``, each
    pair cut into ``parts`` parts."""
    pairs = (len(bounds) - 2) // (2 * width) + 1
    for t in numba.prange(pairs * parts):
        pair, part = t // parts, t % parts
        lo = bounds[min(2 * pair * width, len(bounds) - 1)]
        mid = bounds[min((2 * pair + 1) * width, len(bounds) - 1)]
        hi = bounds[min((2 * pair + 2) * width, len(bounds) - 1)]
        total = hi - lo
        _merge_part(edges, lo, mid, edges, mid, hi, out, part * total // parts,
                    (part + 1) * total // parts, lo)


@numba.njit(parallel=True, cache=True)
def _merge_two(a, b, out, parts):
    """The merge of ``a`` and ``b`` into ``out``, cut into ``parts`` parts."""
    na, nb = len(a[0]), len(b[0])
    for part in numba.prange(parts):
        _merge_part(a, 0, na, b, 0, nb, out, part * (na + nb) // parts,
                    (part + 1) * (na + nb) // parts, 0)


def run_order(key: np.ndarray) -> np.ndarray:
    """Positions of ``key`` in increasing order, equal keys by position: one sort of
    ``key << 32 | position`` where that fits 64 bits (NumPy's sort of 64-bit words was 9x
    Numba's stable argsort on 2 M keys), else NumPy's stable argsort."""
    if key.dtype.itemsize <= 4 and len(key) < 1 << 32:
        packed = key.astype(np.uint64) << np.uint64(32)
        packed |= np.arange(len(key), dtype=np.uint64)
        packed.sort()
        return (packed & np.uint64(0xFFFFFFFF)).astype(np.int64)
    return np.argsort(key, kind="stable")


@numba.njit(parallel=True, cache=True)
def _gather_runs(edges, bounds, orders, out):
    """Run ``r`` of ``edges`` (``bounds[r] .. bounds[r + 1] - 1``) written to ``out`` in
    the order ``orders`` holds for it (positions within the run), one run per thread."""
    src, dst, key, ids = edges
    for r in numba.prange(len(bounds) - 1):
        lo = bounds[r]
        for k in range(lo, bounds[r + 1]):
            e = lo + orders[k]
            out[0][k], out[1][k], out[2][k], out[3][k] = src[e], dst[e], key[e], ids[e]


def _empty_like(edges: tuple[np.ndarray, ...], length: int) -> tuple[np.ndarray, ...]:
    return tuple(np.empty(length, dtype=a.dtype) for a in edges)


def sort_edges(edges: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """The edge list ``edges`` (``src, dst, key, id``, ids increasing) in ``(key, id)``
    order, on Numba's current threads.

    Examples
    --------
    >>> import numpy as np
    >>> e = (np.arange(4), np.arange(4), np.array([3, 1, 3, 0]), np.array([2, 5, 7, 9]))
    >>> [a.tolist() for a in sort_edges(e)][2:]
    [[0, 1, 3, 3], [9, 5, 2, 7]]
    """
    m = len(edges[0])
    runs = max(1, min(numba.get_num_threads(), m))
    bounds = np.array([r * m // runs for r in range(runs + 1)], dtype=np.int64)
    current, spare = _empty_like(edges, m), _empty_like(edges, m)
    key = edges[2]
    # NumPy's sort lets go of the GIL: one Python thread per run sorts in parallel.
    with ThreadPoolExecutor(runs) as pool:
        orders = list(pool.map(lambda r: run_order(key[bounds[r]:bounds[r + 1]]),
                               range(runs)))
    _gather_runs(edges, bounds, np.concatenate(orders), current)
    width = 1
    while width < runs:
        _merge_runs(current, bounds, width, spare, runs)
        current, spare = spare, current
        width *= 2
    return current


def merge_edges(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]
                ) -> tuple[np.ndarray, ...]:
    """The merge of two edge lists in ``(key, id)`` order (no id in both), in that order,
    on Numba's current threads.

    Examples
    --------
    >>> import numpy as np
    >>> a = (np.array([0, 1]), np.array([1, 2]), np.array([1, 4]), np.array([0, 3]))
    >>> b = (np.array([5]), np.array([6]), np.array([1]), np.array([2]))
    >>> merge_edges(a, b)[3].tolist()
    [0, 2, 3]
    """
    a, b = tuple(a), tuple(b)  # a received list, too: Numba takes tuples of arrays
    out = _empty_like(a, len(a[0]) + len(b[0]))
    _merge_two(a, b, out, numba.get_num_threads())
    return out


@numba.njit(parallel=True, cache=True)
def _take(edges, positions, out):
    src, dst, key, ids = edges  # the key is a weight where the edges are not yet ordered
    for i in numba.prange(len(positions)):
        e = positions[i]
        out[0][i], out[1][i], out[2][i], out[3][i] = src[e], dst[e], key[e], ids[e]


def take_edges(edges: tuple[np.ndarray, ...], positions: np.ndarray) -> tuple[np.ndarray, ...]:
    """The edges of the list ``edges`` at ``positions``, in that order, on Numba's current
    threads.

    Examples
    --------
    >>> import numpy as np
    >>> e = tuple(np.arange(4) * f for f in (1, 2, 3, 4))
    >>> take_edges(e, np.array([3, 1]))[3].tolist()
    [12, 4]
    """
    out = _empty_like(edges, len(positions))
    _take(edges, positions, out)
    return out
