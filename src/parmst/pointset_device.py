"""Point sets on a GPU: another library's device array checked and read as float64 there.

The device twin of :func:`parmst.pointset.as_points`, with the same checks and messages:
a CuPy, PyTorch or other ``__cuda_array_interface__`` / DLPack array is read in place
(:func:`parmst._cuda.foreign.as_device_array`), converted to a C-contiguous float64 array
on the device, and searched there for NaN and infinite coordinates; only the first bad
coordinate's place comes back to the host. Imported only when such an array is given (it
imports ``numba.cuda``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import cuda

from parmst._cuda import arrays, runtime
from parmst._cuda.foreign import as_device_array
from parmst.errors import GraphValueError, PointsValueError
from parmst.pointset import check_layout

__all__ = ["as_device_points"]

_NONE = np.int64(2**63 - 1)


@cuda.jit(cache=True)
def _to_float64(a, out, first_bad):
    """``out = float64(a)`` item by item (any strides in), and the smallest flat index of a
    NaN or infinite coordinate (atomicMin; unchanged if none)."""
    d = a.shape[1]
    bad = _NONE
    for e in range(cuda.grid(1), a.shape[0] * d, cuda.gridsize(1)):
        i = e // d
        k = e - i * d
        value = np.float64(a[i, k])
        out[i, k] = value
        if bad == _NONE and not math.isfinite(value):
            bad = e
    if bad != _NONE:
        cuda.atomic.min(first_bad, 0, bad)


def as_device_points(points: Any) -> Any:
    """The device array ``points`` as a checked C-contiguous float64 numba-cuda array of shape
    (n, d) on the same device (a copy: the caller's array is never changed).

    Raises :class:`~parmst.errors.PointsValueError` with the messages of
    :func:`~parmst.pointset.as_points`: not float or integer, not two dimensions, fewer than
    2 points, no coordinates, a NaN or infinite coordinate (its row and column).
    """
    try:
        array = as_device_array(points)
    except GraphValueError as exc:
        raise PointsValueError(str(exc)) from None
    check_layout(tuple(array.shape), array.dtype)
    n, d = array.shape
    out = cuda.device_array((n, d), dtype=np.float64)
    first_bad = arrays.fill(1, _NONE, np.int64)
    _to_float64[arrays.launch_grid(n * d)](array, out, first_bad)
    bad = int(first_bad.copy_to_host()[0])
    if bad != _NONE:
        row, column = divmod(bad, d)
        value = float(out[row].copy_to_host()[column])
        what = "NaN" if np.isnan(value) else "infinite"
        raise PointsValueError(f"point {row} has a {what} coordinate (column {column})")
    runtime.synchronize()
    return out
