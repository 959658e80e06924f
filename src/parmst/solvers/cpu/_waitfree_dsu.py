"""The wait-free disjoint-set union of Shou and He (Listing 4), for Numba threads.

Each vertex owns one 64-bit *record* holding its rank (high bits) and its
parent, "next" (low :data:`PARENT_BITS` bits), so a single compare-and-swap
changes both at once. ``find`` optionally halves paths with a CAS per step
(Shou and He optimization 3 turns this off: reads only). ``join`` links the
root of lower rank (ties: of lower id) under the other with a CAS and
retries from fresh roots when another thread got there first.

Struct-of-arrays: the whole structure is one uint64 array from
:func:`make_sets`; the functions are inlined into the kernels that call them.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst.solvers.cpu._atomics import atomic_cas, atomic_load
from parmst.solvers.cpu._common import singleton_parents

PARENT_BITS = 58
"""Low bits of a record holding the parent; ranks (at most 63) use the top 6."""

_SHIFT = np.uint64(PARENT_BITS)
_PARENT_MASK = np.uint64((1 << PARENT_BITS) - 1)


def make_sets(num_vertices: int) -> np.ndarray:
    """Listing 4 ``make_set`` for every vertex: rank 0, parent itself."""
    return singleton_parents(num_vertices, np.uint64)


@numba.njit(cache=True)
def _record(rank, parent):
    return (np.uint64(rank) << _SHIFT) | np.uint64(parent)


@numba.njit(cache=True)
def _next(record):
    return np.int64(record & _PARENT_MASK)


@numba.njit(cache=True)
def _rank(record):
    return np.int64(record >> _SHIFT)


@numba.njit(cache=True)
def find(dsu, v, compress):
    """Listing 4 lines 5-17: root of ``v``; with ``compress``, CAS each record to its grandparent."""
    node = np.int64(v)
    record = atomic_load(dsu, node)
    while node != _next(record):
        parent = _next(record)
        if compress:
            grandparent = _next(atomic_load(dsu, parent))
            halved = _record(_rank(record), grandparent)
            if record != halved:
                atomic_cas(dsu, node, record, halved)
            node = grandparent
        else:
            node = parent
        record = atomic_load(dsu, node)
    return node


@numba.njit(cache=True)
def _update_root(dsu, u, old_rank, v, new_rank):
    """Listing 4 lines 19-23: CAS root ``u`` (of ``old_rank``) to point at ``v`` with ``new_rank``."""
    expected = _record(old_rank, u)
    return atomic_cas(dsu, u, expected, _record(new_rank, v)) == expected


@numba.njit(cache=True)
def join(dsu, u, v, compress):
    """Listing 4 lines 25-43: union by rank with CAS; False if already in one set."""
    while True:
        u = find(dsu, u, compress)
        v = find(dsu, v, compress)
        if u == v:
            return False
        u_rank = _rank(atomic_load(dsu, u))
        v_rank = _rank(atomic_load(dsu, v))
        if u_rank > v_rank or (u_rank == v_rank and u > v):
            u, v = v, u
            u_rank, v_rank = v_rank, u_rank
        if not _update_root(dsu, u, u_rank, v, v_rank):
            continue
        if u_rank == v_rank:
            _update_root(dsu, v, v_rank, v, v_rank + 1)
        return True
