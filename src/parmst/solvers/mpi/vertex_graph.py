"""filter-boruvka without the filter: the rounds start from the vertices.

Every vertex is a component, labelled by its range label
(:func:`~parmst.solvers.mpi.held.vertex_labels`), so labels are owned in
contiguous ranges with no message. Vertices without an edge are components
without one; the rounds finish them at once.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._mpi.channel import owner_of
from parmst.distributed import DistributedGraph
from parmst.order import precedes
from parmst.solvers.mpi.contracted import Contracted, FirstMinima, RoundEdges
from parmst.solvers.mpi.held import Labels, edge_keys, holder

NO_KEY = np.iinfo(np.uint64).max


@numba.njit(cache=True)
def _vertex_graph(src, dst, ids, keys, first, n_owned, held):
    """The rounds' edges and first minima when the vertices are the components.

    ``src``, ``dst`` are the held edges' range labels; this rank owns the
    labels ``first .. first + n_owned - 1``. Returns this rank's held edges
    between labels (``held`` of them, from
    :func:`~parmst.solvers.mpi.filter_boruvka._held_counts`), each edge given
    by one rank only (:func:`~parmst.solvers.mpi.held.holder`) with its own
    end first, self-loops left out; and each owned vertex's lightest edge
    (id, -1 where none; far label; the label of that edge's holder end, -1
    where none), which this rank knows because it holds every edge at its
    vertices: the first round's minima without a message. Each vertex's
    lightest key and held position share one 16-byte row, read with one
    cache miss per edge end; the edge's id, far end and holder are looked up
    once per vertex at the end (keeping them current cost three more
    scattered writes per improvement, and most edge ends improve their
    vertex's minimum on a sparse graph).
    """
    cu = np.empty(held, dtype=np.int64)
    cv = np.empty(held, dtype=np.int64)
    key = np.empty(held, dtype=keys.dtype)
    eid = np.empty(held, dtype=np.int64)
    # Rows of (key, held position) as uint64, all ones for none: every real edge precedes
    # that. Held edges are in global id order, so positions break ties as ids do.
    best = np.full((n_owned, 2), NO_KEY, dtype=np.uint64)
    j = 0
    for e in range(len(src)):
        label_s, label_d = np.int64(src[e]), np.int64(dst[e])
        if label_s == label_d:
            continue
        key_e, pos_e = np.uint64(keys[e]), np.uint64(e)
        v = label_s - first
        if 0 <= v < n_owned and precedes(key_e, pos_e, best[v, 0], best[v, 1]):
            best[v, 0], best[v, 1] = key_e, pos_e
        v = label_d - first
        if 0 <= v < n_owned and precedes(key_e, pos_e, best[v, 0], best[v, 1]):
            best[v, 0], best[v, 1] = key_e, pos_e
        held_at = holder(label_s, label_d, ids[e])
        if first <= held_at < first + n_owned:
            cu[j], cv[j] = held_at, label_d if held_at == label_s else label_s
            key[j], eid[j] = keys[e], ids[e]
            j += 1
    best_id = np.full(n_owned, -1, dtype=np.int64)
    best_far = np.zeros(n_owned, dtype=np.int64)
    holder_end = np.full(n_owned, -1, dtype=np.int64)
    for v in range(n_owned):
        if best[v, 1] == NO_KEY:
            continue
        e = np.int64(best[v, 1])
        label_s, label_d = np.int64(src[e]), np.int64(dst[e])
        best_id[v] = ids[e]
        best_far[v] = label_d if label_s == first + v else label_s
        holder_end[v] = holder(label_s, label_d, ids[e])
    return cu, cv, key, eid, best_id, best_far, holder_end


def vertex_graph(dg: DistributedGraph, labels: Labels, held: int) -> Contracted:
    """The rounds' input with no filter: every vertex a component (``held``: the edges
    this rank gives to the rounds, from
    :func:`~parmst.solvers.mpi.filter_boruvka._held_counts`)."""
    keys, key_bits = edge_keys(dg)
    n_owned = labels.stop - labels.first
    cu, cv, key, eid, best_id, best_far, holder_end = _vertex_graph(
        labels.src, labels.dst, dg.edge_ids, keys, labels.first, n_owned, held)
    minima = FirstMinima(best_id, best_far, owner_of(labels.starts, holder_end))
    return Contracted(np.zeros(0, dtype=np.int64), RoundEdges(cu, cv, key, eid),
                      dg.num_vertices, key_bits, labels.first, n_owned, minima)
