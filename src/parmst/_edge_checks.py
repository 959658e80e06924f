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

The kernels (:mod:`parmst._edge_check_kernels`) compile once per machine
(``cache=True``) for each dtype they meet; that module, and Numba with it, is
imported only when a large graph needs them.
"""

from __future__ import annotations

import numpy as np

from parmst._jit import compiled_pays

__all__ = ["PARALLEL_FROM_EDGES", "copy_into", "first_nan", "id_bounds", "takes"]

PARALLEL_FROM_EDGES = 1 << 16
"""Edge count from which :meth:`parmst.Graph.from_edges` uses these kernels."""



def takes(src: np.ndarray, dst: np.ndarray, weight: np.ndarray) -> bool:
    """Whether these coerced edge arrays go through the kernels: at least
    :data:`PARALLEL_FROM_EDGES` edges, enough or Numba already loaded
    (:func:`parmst._jit.compiled_pays`: a small graph does not load it for its checks),
    signed integer ids, native byte order (Numba reads no other).

    >>> ids = np.zeros(1 << 20, dtype=np.int32)
    >>> takes(ids, ids, np.ones(len(ids))), takes(ids[:10], ids[:10], np.ones(10))
    (True, False)
    """
    return (len(src) >= PARALLEL_FROM_EDGES and compiled_pays(len(src))
            and src.dtype.kind == dst.dtype.kind == "i"
            and all(a.dtype.isnative for a in (src, dst, weight)))


def id_bounds(src: np.ndarray, dst: np.ndarray) -> tuple[int, int]:
    """``(min, max)`` over both signed-integer id arrays of equal, non-zero length, in one
    parallel pass.

    >>> id_bounds(np.array([3, 1]), np.array([2, 7]))
    (1, 7)
    """
    from parmst._edge_check_kernels import chunks, id_bounds_kernel

    low, high = id_bounds_kernel(src, dst, chunks())
    return int(low), int(high)


def first_nan(weight: np.ndarray) -> int:
    """Position of the first NaN in a float array, or -1, in one parallel pass that writes
    nothing per element.

    >>> first_nan(np.array([1.0, np.nan, np.nan])), first_nan(np.array([1.0]))
    (1, -1)
    """
    from parmst._edge_check_kernels import chunks, first_nan_kernel

    position = int(first_nan_kernel(weight, chunks()))
    return -1 if position == len(weight) else position


def copy_into(source: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A new array of ``dtype`` holding ``source`` (values that fit, as the callers check),
    copied in parallel.

    >>> copy_into(np.array([1, 2], dtype=np.int64), np.dtype(np.int32)).dtype.name
    'int32'
    """
    from parmst._edge_check_kernels import copy_kernel

    out = np.empty(len(source), dtype=dtype)
    copy_kernel(source, out)
    return out
