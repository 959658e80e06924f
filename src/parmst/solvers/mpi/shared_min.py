"""A minimum that the threads of a ``prange`` loop may lower at once."""

from __future__ import annotations

import numba

from parmst.solvers.cpu._atomics import atomic_load, atomic_min


@numba.njit(cache=True, inline="always")
def lower_min(array, index, value, shared):
    """``array[index] = min(array[index], value)``; with ``shared`` (more than one thread
    running) by an atomic minimum behind an atomic guard (Fallin et al. section 5.3), else
    by a plain compare and store: on one thread the locked instruction cost more than the
    kernel's other work (most edge ends lower their vertex's minimum on a sparse graph).
    """
    if shared:
        if value < atomic_load(array, index):
            atomic_min(array, index, value)
    elif value < array[index]:
        array[index] = value
