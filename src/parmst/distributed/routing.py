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


@numba.njit(cache=True)
def _scatter_by_owner(src, dst, owner_src, owner_dst, offsets, out_src, out_dst, out_pos):
    """Place each edge in the send buffer of its source's owner, and of its target's if different.

    ``offsets[r]`` is the next free slot of rank ``r``'s segment; ``out_pos``
    receives the input position of each placed copy (edge order within a
    segment stays increasing, so received edges stay in global id order).
    """
    for e in range(len(src)):
        r = owner_src[e]
        k = offsets[r]
        out_src[k], out_dst[k], out_pos[k] = src[e], dst[e], e
        offsets[r] = k + 1
        q = owner_dst[e]
        if q != r:
            k = offsets[q]
            out_src[k], out_dst[k], out_pos[k] = src[e], dst[e], e
            offsets[q] = k + 1


def route(channel: Any, part: Slice, ownership: str) -> Held:
    """Send every edge of ``part`` to the owners of its endpoints (collective)."""
    owners = Ownership(ownership, part.num_vertices, channel.size)
    owner_src = owners.owner(part.src)
    owner_dst = owners.owner(part.dst)
    cut = owner_src != owner_dst
    counts = (np.bincount(owner_src, minlength=channel.size)
              + np.bincount(owner_dst[cut], minlength=channel.size)).astype(np.int64)
    total = int(counts.sum())
    idx = index_dtype_for(part.num_vertices, part.num_edges)
    out_src = np.empty(total, dtype=idx)
    out_dst = np.empty(total, dtype=idx)
    out_pos = np.empty(total, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    _scatter_by_owner(part.src, part.dst, owner_src, owner_dst, offsets, out_src, out_dst,
                      out_pos)
    send_w = part.weight[out_pos]
    out_pos += part.first_id
    (rs, rd, rw, rid), _ = channel.alltoallv([out_src, out_dst, send_w, out_pos], counts)
    if (np.diff(rid) < 0).any():  # from_local_edges: id ranges need not follow rank order
        order = np.argsort(rid, kind="stable")
        rs, rd, rw, rid = rs[order], rd[order], rw[order], rid[order]
    return Held(rs, rd, rw, rid, owners)
