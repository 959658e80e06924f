"""Parallel single-pass checks and copies for :meth:`parmst.Graph.from_edges` on large host arrays.

NumPy validates an edge list in one pass per question, each on one core:
``min`` and ``max`` of both id arrays (four reads), ``isnan`` on the weights
(a whole boolean array written, then read by ``any``), and one ``np.array``
copy per column. On a 2^22-edge graph that was 14-20 ms on the H100 machine's
16-core host, more than copying the graph to the GPU. Here the id bounds of
both arrays come from one parallel pass, the NaN search stops at nothing but
writes nothing, and the copies are parallel too. Below
:data:`PARALLEL_FROM_EDGES` edges NumPy's passes are already cheap and the
callers keep them, so small graphs never wait for a compilation.

Kernels compile once per machine (``cache=True``) for each dtype they meet.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["PARALLEL_FROM_EDGES", "copy_into", "first_nan", "id_bounds", "takes"]

PARALLEL_FROM_EDGES = 1 << 16
"""Edge count from which :meth:`parmst.Graph.from_edges` uses these kernels."""

_CHUNKS_PER_THREAD = 4
_INT64_MAX = np.int64(2**63 - 1)
_INT64_MIN = np.int64(-(2**63))


def takes(src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> bool:
    """Whether these coerced edge arrays go through the kernels: at least
    :data:`PARALLEL_FROM_EDGES` edges, signed integer ids, native byte order (Numba reads
    no other).

    >>> ids = np.zeros(PARALLEL_FROM_EDGES, dtype=np.int32)
    >>> takes(ids, ids, np.ones(len(ids))), takes(ids[:10], ids[:10], np.ones(10))
    (True, False)
    """
    return (len(src) >= PARALLEL_FROM_EDGES and src.dtype.kind == dst.dtype.kind == "i"
            and all(a.dtype.isnative for a in (src, dst, weight)))


@numba.njit(cache=True)
def _chunk(c, chunks, m):
    size = (m + chunks - 1) // chunks
    return c * size, min(m, (c + 1) * size)


def _chunks() -> int:
    """Work split: a few chunks per thread, so an uneven chunk does not hold the others up."""
    return max(1, numba.get_num_threads() * _CHUNKS_PER_THREAD)


@numba.njit(parallel=True, cache=True)
def _id_bounds(src, dst, chunks):
    m = len(src)
    lows = np.empty(chunks, dtype=np.int64)
    highs = np.empty(chunks, dtype=np.int64)
    for c in numba.prange(chunks):
        begin, end = _chunk(c, chunks, m)
        low = _INT64_MAX
        high = _INT64_MIN
        for i in range(begin, end):
            a = np.int64(src[i])
            b = np.int64(dst[i])
            low = min(low, a, b)
            high = max(high, a, b)
        lows[c] = low
        highs[c] = high
    return lows.min(), highs.max()


def id_bounds(src: np.ndarray, dst: np.ndarray) -> tuple[int, int]:
    """``(min, max)`` over both signed-integer id arrays of equal, non-zero length, in one
    parallel pass.

    >>> id_bounds(np.array([3, 1]), np.array([2, 7]))
    (1, 7)
    """
    low, high = _id_bounds(src, dst, _chunks())
    return int(low), int(high)


@numba.njit(parallel=True, cache=True)
def _first_nan(w, chunks):
    m = len(w)
    first = np.full(chunks, m, dtype=np.int64)
    for c in numba.prange(chunks):
        begin, end = _chunk(c, chunks, m)
        for i in range(begin, end):
            if w[i] != w[i]:  # NaN is the only value unequal to itself
                first[c] = i
                break
    return first.min()


def first_nan(weight: np.ndarray) -> int:
    """Position of the first NaN in a float array, or -1, in one parallel pass that writes
    nothing per element.

    >>> first_nan(np.array([1.0, np.nan, np.nan])), first_nan(np.array([1.0]))
    (1, -1)
    """
    position = int(_first_nan(weight, _chunks()))
    return -1 if position == len(weight) else position


@numba.njit(parallel=True, cache=True)
def _copy_into(source, out):
    for i in numba.prange(len(source)):
        out[i] = source[i]


def copy_into(source: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A new array of ``dtype`` holding ``source`` (values that fit, as the callers check),
    copied in parallel.

    >>> copy_into(np.array([1, 2], dtype=np.int64), np.dtype(np.int32)).dtype.name
    'int32'
    """
    out = np.empty(len(source), dtype=dtype)
    _copy_into(source, out)
    return out
