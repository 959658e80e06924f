"""The compiled kernels of :mod:`parmst._edge_checks`: one parallel pass per check or copy.

Imported only for graphs of at least :data:`parmst._edge_checks.PARALLEL_FROM_EDGES` edges.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["chunks", "copy_kernel", "first_nan_kernel", "id_bounds_kernel"]

_CHUNKS_PER_THREAD = 4
_INT64_MAX = np.int64(2**63 - 1)
_INT64_MIN = np.int64(-(2**63))


@numba.njit(cache=True)
def _chunk(c, chunks, m):
    """``[begin, end)`` of block ``c`` of ``chunks`` equal blocks over ``m`` items."""
    size = (m + chunks - 1) // chunks
    return c * size, min(m, (c + 1) * size)


def chunks() -> int:
    """Work split: a few chunks per thread, so an uneven chunk does not hold the others up."""
    return max(1, numba.get_num_threads() * _CHUNKS_PER_THREAD)


@numba.njit(parallel=True, cache=True)
def id_bounds_kernel(src, dst, chunks):
    """``(min, max)`` over both id arrays, each of ``chunks`` blocks scanned by one thread."""
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


@numba.njit(parallel=True, cache=True)
def first_nan_kernel(w, chunks):
    """Position of the first NaN of ``w`` (``len(w)``: none); each block stops at its first."""
    m = len(w)
    first = np.full(chunks, m, dtype=np.int64)
    for c in numba.prange(chunks):
        begin, end = _chunk(c, chunks, m)
        for i in range(begin, end):
            if w[i] != w[i]:  # NaN is the only value unequal to itself
                first[c] = i
                break
    return first.min()


@numba.njit(parallel=True, cache=True)
def copy_kernel(source, out):
    """``out[:] = source``, converted element by element, in parallel."""
    for i in numba.prange(len(source)):
        out[i] = source[i]
