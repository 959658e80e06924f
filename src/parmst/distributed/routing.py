"""Routing: every edge sent to the owners of its endpoints with one ``Alltoallv`` per array.

A rank starts with a :class:`Slice` of the input (edges read or given, with
global ids ``first_id ..``) and ends holding every edge incident to its
vertices: an edge whose ends have different owners (a *cut* edge) goes to
both, so it is held twice. Received edges stay in global id order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from parmst._blocks import block_span, num_blocks
from parmst.distributed.ownership import Ownership
from parmst.graph import WEIGHT_DTYPES, index_dtype_for


@dataclass(frozen=True)
class Slice:
    """One rank's slice of the input, as every rank agreed on it before routing.

    ``src, dst, weight`` carry global ids ``first_id .. first_id + len(src) - 1``;
    ``weight`` has the same dtype on every rank; the counts are global.
    """

    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    first_id: int
    num_vertices: int
    num_edges: int


@dataclass(frozen=True)
class Held:
    """The edges a rank holds after routing (global ids, increasing) and who owns what."""

    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    edge_ids: np.ndarray
    ownership: Ownership


def agree_weight_dtype(channel: Any, weight: np.ndarray,
                       named: np.dtype | None = None) -> np.ndarray:
    """Weights of one dtype on every rank, as the one-process reader would give for the file.

    ``named`` (a dtype the caller or the file names) wins. Otherwise ranks
    whose weights mix integer and float kinds all get float64 (a text file
    with one non-integer weight reads as float64), else the widest dtype of
    the ranks that hold edges wins.
    """
    if named is not None:
        return weight.astype(named, copy=False)
    mine = WEIGHT_DTYPES.index(weight.dtype)
    codes = channel.allgather_int(mine if len(weight) else -1 - mine)  # negative: no edges
    used = [WEIGHT_DTYPES[c] for c in codes if c >= 0] or [WEIGHT_DTYPES[-1 - c] for c in codes]
    if len({d.kind for d in used}) > 1:
        target = np.dtype(np.float64)
    else:
        target = max(used, key=lambda d: d.itemsize)
    return weight.astype(target, copy=False)


@numba.njit(parallel=True, cache=True)
def _block_counts(owner_src, owner_dst, size):
    """Copies each block of edges sends to each rank: one to its source's owner, and one to
    its target's when that is another rank."""
    m = len(owner_src)
    blocks = num_blocks(m)
    counts = np.zeros((blocks, size), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, m)
        for e in range(lo, hi):
            r, q = owner_src[e], owner_dst[e]
            counts[b, r] += 1
            if q != r:
                counts[b, q] += 1
    return counts


@numba.njit(cache=True)
def _block_offsets(counts):
    """Where each block's copies for each rank start in the send buffer: the ranks'
    segments in rank order, and within a segment the blocks in order."""
    blocks, size = counts.shape
    offsets = np.empty((blocks, size), dtype=np.int64)
    at = 0
    for r in range(size):
        for b in range(blocks):
            offsets[b, r] = at
            at += counts[b, r]
    return offsets


@numba.njit(parallel=True, cache=True)
def _scatter_by_owner(src, dst, weight, owner_src, owner_dst, offsets, first_id, out_src,
                      out_dst, out_weight, out_id):
    """Place each edge in the send buffer of its source's owner, and of its target's if
    different, each block from its own ``offsets`` (:func:`_block_offsets`).

    Edge order within a segment stays increasing, so received edges stay in
    global id order; ``out_id`` receives each copy's global id.
    """
    m = len(src)
    for b in numba.prange(offsets.shape[0]):
        at = offsets[b].copy()
        lo, hi = block_span(b, m)
        for e in range(lo, hi):
            r = owner_src[e]
            k = at[r]
            out_src[k], out_dst[k], out_weight[k], out_id[k] = src[e], dst[e], weight[e], \
                first_id + e
            at[r] = k + 1
            q = owner_dst[e]
            if q != r:
                k = at[q]
                out_src[k], out_dst[k], out_weight[k], out_id[k] = src[e], dst[e], \
                    weight[e], first_id + e
                at[q] = k + 1


def route(channel: Any, part: Slice, ownership: str) -> Held:
    """Send every edge of ``part`` to the owners of its endpoints (collective).

    The send buffers are filled block by block on all of this rank's Numba
    threads; the result is the same on any number of them.
    """
    owners = Ownership(ownership, part.num_vertices, channel.size)
    owner_src = owners.owner(part.src)
    owner_dst = owners.owner(part.dst)
    block_counts = _block_counts(owner_src, owner_dst, channel.size)
    counts = block_counts.sum(axis=0)
    total = int(counts.sum())
    idx = index_dtype_for(part.num_vertices, part.num_edges)
    out_src = np.empty(total, dtype=idx)
    out_dst = np.empty(total, dtype=idx)
    out_weight = np.empty(total, dtype=part.weight.dtype)
    out_id = np.empty(total, dtype=np.int64)
    _scatter_by_owner(part.src, part.dst, part.weight, owner_src, owner_dst,
                      _block_offsets(block_counts), part.first_id, out_src, out_dst,
                      out_weight, out_id)
    del owner_src, owner_dst
    (rs, rd, rw, rid), _ = channel.alltoallv([out_src, out_dst, out_weight, out_id], counts)
    if (np.diff(rid) < 0).any():  # from_local_edges: id ranges need not follow rank order
        order = np.argsort(rid, kind="stable")
        rs, rd, rw, rid = rs[order], rd[order], rw[order], rid[order]
    return Held(rs, rd, rw, rid, owners)
