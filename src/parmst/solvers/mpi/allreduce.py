"""Distributed Borůvka by all-reduce rounds (Shou and He, section 3.4, Listing 8).

**boruvka-allreduce/mpi** follows Listing 8: the edges are partitioned over
the ranks (here: read in parallel and held by the owner of their source
vertex, instead of broadcast from rank 0), every rank keeps a union-find
over the components, finds the lightest edge of each component among its
own edges, and one ``Allreduce`` with ``MIN`` over the packed
``(weight, edge_id)`` keys gives every rank the lightest edge of every
component. A second ``Allreduce`` (``MAX``) tells every rank the component
at the other end of each winning edge, which only its holder knows; then all
ranks join the same components in the same order, so their union-finds stay
identical, renumber the surviving components ``0..k-1`` and drop the edges
that became internal. Limit: the per-component arrays are replicated, so
each rank holds ``O(n)`` words in the first round (``O(k)`` in later rounds);
this bounds the graphs it can solve by one rank's memory, as in the paper.

filter-boruvka runs the same rounds on its contracted graph while few
components are left (:mod:`parmst.solvers.mpi.filter_boruvka`).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from parmst.distributed import DistributedGraph
from parmst.kernels.unionfind import find, label_kept_roots, link_roots
from parmst.order import id_bits, precedes
from parmst.solvers.mpi.held import edge_keys, held_share
from parmst.stats import Stats

NO_EDGE = np.iinfo(np.int64).max
NO_KEY = np.iinfo(np.uint64).max

@numba.njit(cache=True)
def local_lightest(cu, cv, keys, ids, best_key, best_id, best_pos):
    """Listing 8 lines 21-29: the lightest of this rank's edges leaving each component.

    ``best_id[c] == NO_EDGE`` means none yet; ``best_pos[c]`` is that edge's position.
    """
    for e in range(len(cu)):
        for c in (cu[e], cv[e]):
            if best_id[c] == NO_EDGE or precedes(keys[e], ids[e], best_key[c], best_id[c]):
                best_key[c] = keys[e]
                best_id[c] = ids[e]
                best_pos[c] = e


@numba.njit(cache=True)
def _pack(best_key, best_id, bits, packed):
    """``key << bits | id`` per component (all ones where a component has no edge here)."""
    for c in range(len(best_key)):
        if best_id[c] == NO_EDGE:
            packed[c] = NO_KEY
        else:
            packed[c] = (best_key[c] << np.uint64(bits)) | np.uint64(best_id[c])


@numba.njit(cache=True)
def _other_ends(best_id, winner, best_pos, cu, cv, target):
    """Component at the far end of each winning edge this rank holds (-1 where it holds none)."""
    for c in range(len(winner)):
        target[c] = -1
        if winner[c] != NO_EDGE and best_id[c] == winner[c]:
            e = best_pos[c]
            target[c] = cv[e] if cu[e] == c else cu[e]


@numba.njit(cache=True)
def _join(winner, target, parent, chosen, count):
    """Listing 8 lines 33-38: join along the winning edges, in component order on every rank."""
    for c in range(len(winner)):
        if winner[c] == NO_EDGE:
            continue
        ru = find(parent, c)
        rv = find(parent, target[c])
        if ru != rv:
            link_roots(parent, ru, rv)
            chosen[count] = winner[c]
            count += 1
    return count


@numba.njit(cache=True)
def _renumber(winner, parent):
    """Listing 8 line 40: new ids ``0..k-1`` for the components that still have edges.

    A component whose members had no edge anywhere is finished (label -1).
    """
    k = len(winner)
    alive = np.zeros(k, dtype=np.bool_)
    for c in range(k):
        if winner[c] != NO_EDGE:
            alive[find(parent, c)] = True
    return label_kept_roots(parent, alive, 0)


@numba.njit(cache=True)
def _contract_edges(cu, cv, keys, ids, label):
    """Listing 8 line 41: relabel this rank's edges and drop those now inside one component."""
    kept = 0
    for e in range(len(cu)):
        a = label[cu[e]]
        b = label[cv[e]]
        if a != b:
            cu[kept], cv[kept], keys[kept], ids[kept] = a, b, keys[e], ids[e]
            kept += 1
    return kept


def allreduce_rounds(channel: Any, cu: np.ndarray, cv: np.ndarray, keys: np.ndarray,
                     ids: np.ndarray, num_components: int, key_bits: int, num_edges: int,
                     stats: Stats) -> np.ndarray:
    """Shou and He Listing 8 on this rank's edges between components ``0..num_components-1``.

    ``keys`` are order-preserving weight keys of ``key_bits`` bits and ``ids``
    global edge ids (< ``num_edges``); each edge is held by exactly one rank.
    The arrays are consumed. Returns the chosen edge ids, the same on every rank.
    """
    bits = id_bits(num_edges)
    packs = key_bits + bits <= 63  # the packed key then never equals NO_KEY
    cu, cv = cu.astype(np.int64), cv.astype(np.int64)
    k = num_components
    chosen_parts = []
    live = len(cu)
    while k > 0:
        stats.worklist_sizes.append(k)
        with stats.phase("lightest-edge"):
            best_key = np.full(k, NO_KEY, dtype=np.uint64)
            best_id = np.full(k, NO_EDGE, dtype=np.int64)
            best_pos = np.zeros(k, dtype=np.int64)
            local_lightest(cu[:live], cv[:live], keys[:live], ids[:live], best_key, best_id,
                           best_pos)
        with stats.phase("allreduce"):
            if packs:
                packed = np.empty(k, dtype=np.uint64)
                _pack(best_key, best_id, bits, packed)
                channel.allreduce(packed, "min")
                winner = np.where(packed == NO_KEY, NO_EDGE,
                                  (packed & np.uint64((1 << bits) - 1)).astype(np.int64))
            else:  # 64-bit weight keys: minimum key first, then the smallest id among its holders
                global_key = channel.allreduce(best_key.copy(), "min")
                winner = np.where(best_key == global_key, best_id, NO_EDGE)
                channel.allreduce(winner, "min")
            target = np.empty(k, dtype=np.int64)
            _other_ends(best_id, winner, best_pos, cu, cv, target)
            channel.allreduce(target, "max")
        with stats.phase("contract"):
            parent = np.full(k, -1, dtype=np.int64)
            chosen = np.empty(k, dtype=np.int64)
            count = _join(winner, target, parent, chosen, 0)
            chosen_parts.append(chosen[:count])
            label, k = _renumber(winner, parent)
            live = _contract_edges(cu[:live], cv[:live], keys[:live], ids[:live], label)
    stats.rounds = (stats.rounds or 0) + len(chosen_parts)
    return np.concatenate(chosen_parts) if chosen_parts else np.zeros(0, dtype=np.int64)


def boruvka_allreduce_held(dg: DistributedGraph, stats: Stats) -> np.ndarray:
    """This rank's share of the forest (:func:`~parmst.solvers.mpi.held.held_share`) by
    the all-reduce rounds on the vertices: each rank gives its primary non-loop edges."""
    primary = np.flatnonzero(dg.primary & (dg.src != dg.dst))
    keys, key_bits = edge_keys(dg)
    chosen = allreduce_rounds(dg.channel, dg.src[primary], dg.dst[primary], keys[primary],
                              dg.edge_ids[primary].astype(np.int64), dg.num_vertices, key_bits,
                              dg.num_edges, stats)
    return held_share(dg, chosen)
