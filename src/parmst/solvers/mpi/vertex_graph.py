"""filter-boruvka without the filter: the rounds start from the vertices.

Every vertex is a component, labelled by its range label
(:func:`~parmst.solvers.mpi.held.vertex_labels`), so labels are owned in
contiguous ranges with no message. Vertices without an edge are components
without one; the rounds finish them at once.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst._mpi.channel import owner_of
from parmst.distributed import DistributedGraph
from parmst.order import id_bits
from parmst.solvers.mpi.contracted import Contracted, FirstMinima, RoundEdges
from parmst.solvers.mpi.held import Labels, edge_keys, holder, is_given
from parmst.solvers.mpi.shared_min import lower_min

NO_KEY = np.iinfo(np.uint64).max
NO_POSITION = np.iinfo(np.int64).max


@numba.njit(parallel=True, cache=True)
def _given_edges(src, dst, ids, keys, first, stop, held):
    """The rounds' edges this rank gives, in held order: ``held`` non-loop edges between
    range labels (``src``, ``dst``; this rank owns ``first .. stop - 1``), each given by
    one rank only (:func:`~parmst.solvers.mpi.held.holder`) with its own end first."""
    cu = np.empty(held, dtype=np.int64)
    cv = np.empty(held, dtype=np.int64)
    key = np.empty(held, dtype=keys.dtype)
    eid = np.empty(held, dtype=np.int64)
    n = len(src)
    blocks = num_blocks(n)
    counts = np.zeros((blocks, 1), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        given = 0
        for e in range(lo, hi):
            given += is_given(np.int64(src[e]), np.int64(dst[e]), ids[e], first, stop)
        counts[b, 0] = given
    starts = exclusive_sums(counts)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        j = starts[b, 0]
        for e in range(lo, hi):
            label_s, label_d = np.int64(src[e]), np.int64(dst[e])
            if is_given(label_s, label_d, ids[e], first, stop):
                held_at = holder(label_s, label_d, ids[e])
                cu[j], cv[j] = held_at, label_d if held_at == label_s else label_s
                key[j], eid[j] = keys[e], ids[e]
                j += 1
    return cu, cv, key, eid


@numba.njit(parallel=True, cache=True)
def _lightest_positions(src, dst, keys, first, n_owned, shift, shared):
    """Each owned vertex's lightest held edge, as its held position (-1 where none).

    Held edges are in global id order, so positions break ties as ids do.
    Every non-loop edge offers ``key << shift | position`` to its owned ends
    by an atomic minimum behind a guard (Fallin et al. section 5.3), one
    word settling key and tie at once; with ``shift == 0`` (keys too wide to
    share a word) the keys win first and a second pass takes the smallest
    position among the edges of the winning key (their two-pass mode).
    ``shared``: more than one thread runs (one thread needs no locked
    instruction).
    """
    best = np.full(n_owned, NO_KEY, dtype=np.uint64)
    n = len(src)
    blocks = num_blocks(n)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        for e in range(lo, hi):
            label_s, label_d = np.int64(src[e]), np.int64(dst[e])
            if label_s == label_d:
                continue
            word = (np.uint64(keys[e]) << np.uint64(shift)) | np.uint64(e) if shift \
                else np.uint64(keys[e])
            for v in (label_s - first, label_d - first):
                if 0 <= v < n_owned:
                    lower_min(best, v, word, shared)
    position = np.full(n_owned, NO_POSITION, dtype=np.int64)
    if shift:
        low = (np.uint64(1) << np.uint64(shift)) - np.uint64(1)
        for v in numba.prange(n_owned):
            if best[v] != NO_KEY:
                position[v] = np.int64(best[v] & low)
    else:
        for b in numba.prange(blocks):
            lo, hi = block_span(b, n)
            for e in range(lo, hi):
                label_s, label_d = np.int64(src[e]), np.int64(dst[e])
                if label_s == label_d:
                    continue
                for v in (label_s - first, label_d - first):
                    if 0 <= v < n_owned and np.uint64(keys[e]) == best[v]:
                        lower_min(position, v, e, shared)
    for v in numba.prange(n_owned):
        if position[v] == NO_POSITION:
            position[v] = -1
    return position


@numba.njit(parallel=True, cache=True)
def _first_minima(position, src, dst, ids, first):
    """Each owned vertex's lightest edge from its held ``position``: id (-1 where none), far
    label, and the label of its holder end (-1 where none)."""
    n_owned = len(position)
    best_id = np.full(n_owned, -1, dtype=np.int64)
    best_far = np.zeros(n_owned, dtype=np.int64)
    holder_end = np.full(n_owned, -1, dtype=np.int64)
    for v in numba.prange(n_owned):
        e = position[v]
        if e < 0:
            continue
        label_s, label_d = np.int64(src[e]), np.int64(dst[e])
        best_id[v] = ids[e]
        best_far[v] = label_d if label_s == first + v else label_s
        holder_end[v] = holder(label_s, label_d, ids[e])
    return best_id, best_far, holder_end


def vertex_graph(dg: DistributedGraph, labels: Labels, held: int) -> Contracted:
    """The rounds' input with no filter: every vertex a component (``held``: the edges
    this rank gives to the rounds, from
    :func:`~parmst.solvers.mpi.filter_boruvka.held_counts`).

    Each owned vertex's lightest edge is known here, since this rank holds
    every edge at its vertices: the first round's minima without a message.
    """
    keys, key_bits = edge_keys(dg)
    n_owned = labels.stop - labels.first
    cu, cv, key, eid = _given_edges(labels.src, labels.dst, dg.edge_ids, keys, labels.first,
                                    labels.stop, held)
    shift = id_bits(len(keys))
    position = _lightest_positions(labels.src, labels.dst, keys, labels.first, n_owned,
                                   shift if key_bits + shift < 64 else 0,
                                   numba.get_num_threads() > 1)
    best_id, best_far, holder_end = _first_minima(position, labels.src, labels.dst,
                                                  dg.edge_ids, labels.first)
    minima = FirstMinima(best_id, best_far, owner_of(labels.starts, holder_end))
    return Contracted(np.zeros(0, dtype=np.int64), RoundEdges(cu, cv, key, eid),
                      dg.num_vertices, key_bits, labels.first, n_owned, minima)
