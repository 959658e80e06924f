"""The CUDA kernels of device generation: one thread per position, calling the host's rules.

Every kernel here calls the same ``numba.njit`` scalar functions the host
generators loop over (:mod:`parmst.generators._counter` and each family's
per-position rule), so a GPU computes the host's values bit for bit. Kernels
loop grid-stride, so they also run on numba-cuda's simulator. A kernel that
takes a family's rule is built once per rule (:func:`functools.cache`): a
rule is a compile-time constant of its kernel, as is the kept-keys kernel's
choice of counting or writing, so both launches draw by one loop. This module imports
``numba.cuda``; only :mod:`parmst.generators.device` imports it, when a GPU
generation runs.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import cuda

from parmst.generators._drawn import pair_key
from parmst.generators._positional import BLOCK, int_weight_of, weight_of
from parmst.generators.lattice import grid_link, link_kept, road_weight


@cache
def kept_keys_kernel(pair: Any, write: bool) -> Any:
    """The raw edges whose pair key lies in ``klo .. khi - 1`` (loops never do): each thread
    counts its positions' keys and reserves that many slots of ``slots[0]`` with one atomic,
    so a launch leaves the kept total there. With ``write`` (a compile-time constant of the
    kernel) each thread then draws its positions again and writes their keys into ``keys``
    from its first slot, in any order (they are sorted next); without it ``keys`` is not
    touched (an empty array will do): the counting launch that sizes ``keys``."""
    @cuda.jit(device=True)
    def thread_keys(lo, count_raw, n, args, klo, khi, keys, at):
        """The keys in range among this thread's positions: how many, and (where ``at >= 0``)
        the keys themselves into ``keys[at:]``. The one rule both launches draw by."""
        mine = np.int64(0)
        for i in range(cuda.grid(1), count_raw, cuda.gridsize(1)):
            u, v = pair(lo + i, *args)
            key = pair_key(u, v, n)
            if klo <= key < khi:
                if at >= 0:
                    keys[at + mine] = key
                mine += 1
        return mine

    @cuda.jit
    def kept_keys(lo, count_raw, n, args, klo, khi, slots, keys):
        mine = thread_keys(lo, count_raw, n, args, klo, khi, keys, np.int64(-1))
        if mine == 0:
            return
        at = cuda.atomic.add(slots, 0, mine)
        if write:
            thread_keys(lo, count_raw, n, args, klo, khi, keys, at)
    return kept_keys


@cuda.jit
def first_of_runs(keys, flags):
    """``flags[i] = 1`` where sorted ``keys[i]`` starts a run of equal keys."""
    for i in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        flags[i] = 1 if i == 0 or keys[i] != keys[i - 1] else 0


@cuda.jit
def decode_keys(keys, n, src, dst):
    """Pair keys back into ``(min, max)`` endpoints."""
    for i in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        u = keys[i] // n
        src[i] = u
        dst[i] = keys[i] - u * n


@cache
def pairs_kernel(pair: Any) -> Any:
    """``(src[i], dst[i]) = pair(lo + i, *args)``: a family whose edge ``e`` is a rule of ``e``."""
    @cuda.jit
    def pairs(lo, args, src, dst):
        for i in range(cuda.grid(1), src.shape[0], cuda.gridsize(1)):
            u, v = pair(lo + i, *args)
            src[i] = u
            dst[i] = v
    return pairs


@cuda.jit
def float_weights(first, rule, key, top, p, out):
    """Weights of edge ids ``first ..`` (:func:`parmst.generators._positional.weight_of`)."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = weight_of(first + i, rule, key, top, p)


@cuda.jit
def int_weights(first, rule, key, top, p, out):
    """Integer weights of edge ids ``first ..`` (:func:`parmst.generators._positional.int_weight_of`)."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = int_weight_of(first + i, rule, key, top, p)


@cuda.jit
def kept_links(start, links, key, first, flags):
    """``flags[i]``: whether road keeps grid link ``start + i``
    (:func:`parmst.generators.lattice.link_kept`)."""
    for i in range(cuda.grid(1), flags.shape[0], cuda.gridsize(1)):
        block = (start + i) // BLOCK
        flags[i] = 1 if link_kept(start + i, links, key, first[block], first[block + 1]) else 0


@cuda.jit
def link_ends(start, kept, side, horizontal, src, dst):
    """Endpoints of grid links ``start + kept[i]``."""
    for i in range(cuda.grid(1), src.shape[0], cuda.gridsize(1)):
        u, v = grid_link(start + kept[i], side, horizontal)
        src[i] = u
        dst[i] = v


@cuda.jit
def road_weights(src, dst, side, key, rule, top, out):
    """Length weights of road links (:func:`parmst.generators.lattice.road_weight`)."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = road_weight(src[i], dst[i], side, key, rule, top)
