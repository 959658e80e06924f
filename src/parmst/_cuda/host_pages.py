"""Host arrays whose pages are mapped before a device copy writes them.

A new NumPy array's pages are mapped by the kernel when first written. A device-to-host
copy into fresh pageable memory writes them one after another on one thread, each page a
fault; touching one byte of every page on all threads first maps them in parallel, and the
copy then runs at the bus's pageable rate. Imported by :func:`parmst._cuda.runtime.read`
for large copies only (it compiles with Numba).
"""

from __future__ import annotations

import mmap
from typing import Any

import numba
import numpy as np

__all__ = ["touched_empty"]


@numba.njit(cache=True, parallel=True)
def _touch(raw, step):
    """Write a zero at every ``step``-th byte of ``raw``, the steps split over the threads."""
    for i in numba.prange((len(raw) + step - 1) // step):
        raw[i * step] = 0


def touched_empty(shape: Any, dtype: Any) -> np.ndarray:
    """``np.empty(shape, dtype)`` with every page already mapped (contents undefined).

    Examples
    --------
    >>> touched_empty((2, 3), np.float32).shape
    (2, 3)
    """
    out = np.empty(shape, dtype)
    if out.nbytes:
        _touch(out.reshape(-1).view(np.uint8), mmap.PAGESIZE)
    return out
