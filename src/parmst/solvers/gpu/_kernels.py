"""Device functions shared by the GPU solvers: union-find, worklist slots, record packing.

Worklist records are two uint64 words, ``(v << 32 | n, key)``: ECL-MST's
4-tuple ``<v, n, weight, id>`` (seed 001 section 3.3) with weight and id in
one packed key, 16 bytes per record, both words in one memory segment.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from parmst.solvers.gpu._device import simulator_active

# The simulator has no warp intrinsics: there every thread reserves its own
# worklist slot. On a GPU a warp reserves all its slots with one atomicAdd.
WARP_INTRINSICS = not simulator_active()
FULL_MASK = 0xFFFFFFFF
LOW32 = np.uint64(0xFFFFFFFF)
SHIFT32 = np.uint64(32)
NO_EDGE = np.uint64(2**64 - 1)


@cuda.jit(device=True, inline=True)
def pack_pair(v, n):
    """Two vertex ids (< 2**32) in one word, ``v`` high."""
    return (np.uint64(v) << SHIFT32) | np.uint64(n)


@cuda.jit(device=True, inline=True)
def unpack_pair(word):
    """Inverse of :func:`pack_pair`."""
    return np.int64(word >> SHIFT32), np.int64(word & LOW32)


@cuda.jit(device=True, inline=True)
def find(parent, v):
    """Seed 001 section 3.2: follow parents to the root, no explicit path compression."""
    up = parent[v]
    while up != v:
        v = up
        up = parent[v]
    return v


@cuda.jit(device=True, inline=True)
def join(parent, a, b):
    """Seed 001 (ECL-MST ``join``): lock-free union, the larger root points to the smaller.

    Parents always point to smaller ids, so a failed CAS just moves the
    larger side one step up its tree; it ends when it links two roots or
    finds both sides in one tree.
    """
    while True:
        high = max(a, b)
        low = min(a, b)
        seen = cuda.atomic.cas(parent, high, np.int32(high), np.int32(low))
        if seen == high:
            return
        a = low
        b = np.int64(seen)


@cuda.jit(device=True, inline=True)
def reserve(counts, slot, keep):
    """Index for this thread's record in worklist ``slot``: seed 001's atomicAdd, warp-aggregated.

    Every lane of the warp must call it together (loops are warp-uniform).
    Returns garbage where ``keep`` is false.
    """
    if WARP_INTRINSICS:
        ballot = cuda.ballot_sync(FULL_MASK, keep)
        base = np.int64(0)
        if cuda.laneid == 0 and ballot != 0:
            base = cuda.atomic.add(counts, slot, np.int64(cuda.popc(ballot)))
        base = cuda.shfl_sync(FULL_MASK, base, 0)
        below = np.int64(ballot) & ((np.int64(1) << cuda.laneid) - 1)
        return base + cuda.popc(below)
    if keep:
        return cuda.atomic.add(counts, slot, np.int64(1))
    return np.int64(0)


@cuda.jit(device=True, inline=True)
def lower_min(min_edge, v, key, guard):
    """atomicMin of ``key`` into ``min_edge[v]``; with ``guard``, only if it could lower it.

    Seed 001 section 5.3 (1), "atomic guards": a plain load first, since most
    atomicMins find no new minimum.
    """
    if not guard or min_edge[v] > key:
        cuda.atomic.min(min_edge, v, key)


@cuda.jit(device=True, inline=True)
def warp_round(count):
    """``count`` rounded up to whole warps: loops run whole warps, so ballots see every lane."""
    return (count + 31) // 32 * 32
