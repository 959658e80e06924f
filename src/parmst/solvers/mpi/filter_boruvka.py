"""Distributed Borůvka: all-reduce rounds (Shou and He, Listing 8) and the filter-first variant.

**boruvka-allreduce/mpi** follows Shou and He section 3.4, Listing 8: the edges
are partitioned over the ranks (here: read in parallel and held by the owner
of their source vertex, instead of broadcast from rank 0), every rank keeps
a union-find over the components, finds the lightest edge of each component
among its own edges, and one ``Allreduce`` with ``MIN`` over the packed
``(weight, edge_id)`` keys gives every rank the lightest edge of every
component. A second ``Allreduce`` (``MAX``) tells every rank the component
at the other end of each winning edge, which only its holder knows; then all
ranks join the same components in the same order, so their union-finds stay
identical, renumber the surviving components ``0..k-1`` and drop the edges
that became internal. Limit: the per-component arrays are replicated, so
each rank holds ``O(n)`` words in the first round (``O(k)`` in later rounds);
this bounds the graphs it can solve by one rank's memory, as in the paper.

**filter-boruvka/mpi** (after Sanders and Schimek, "Engineering Massively
Parallel MST Algorithms", 2023): vertices are owned by ranks and every rank
holds all edges incident to its vertices. Each rank

1. computes the minimum spanning forest of its *local* edges (both ends
   owned) with a fast one-process solver: by the cycle property, a local edge
   outside it is in no global forest and is dropped;
2. contracts safely: scanning that forest and its cut edges in key order, it
   joins the two components of a forest edge when at least one of them has
   met no cut edge yet. Such an edge is then the lightest edge leaving that
   component (every lighter incident edge is inside it), so it is a global
   forest edge by the cut property. Only the forest edges are sorted: each
   component keeps its lightest cut edge (one pass finds it per vertex), and
   it has met a cut edge exactly when that one comes first;
3. numbers the components that still touch a cut edge with an exclusive
   prefix sum, learns the component of each cut edge's remote end with one
   ``Alltoallv`` request and reply, and runs the all-reduce rounds above on
   this contracted graph only while it has at most 65,536 components, the
   owner rounds of :mod:`parmst.solvers.mpi.owners` beyond.

On graphs with locality (roads, grids, meshes, a partition that follows
communities) most vertices are contracted before any communication; on
random graphs with many cut edges it falls back to the all-reduce rounds on
most of the graph.

The complete forest is gathered on rank 0; see :func:`solve_distributed`.
"""

from __future__ import annotations

import time
from typing import Any

import numba
import numpy as np

from parmst.distributed import DistributedGraph
from parmst.forest import Forest, exact_sum
from parmst.graph import Graph, index_dtype_for
from parmst.order import id_bits, weight_keys
from parmst.solvers.serial._keys import precedes
from parmst.solvers.serial._unionfind import find, union_roots
from parmst.stats import Stats

NO_EDGE = np.iinfo(np.int64).max
NO_KEY = np.iinfo(np.uint64).max


# ---------------------------------------------------------------------------- round kernels
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
def _join(winner, target, parent, size, chosen, count):
    """Listing 8 lines 33-38: join along the winning edges, in component order on every rank."""
    for c in range(len(winner)):
        if winner[c] == NO_EDGE:
            continue
        ru = find(parent, c)
        rv = find(parent, target[c])
        if ru != rv:
            union_roots(parent, size, ru, rv)
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
    new_id = np.full(k, -1, dtype=np.int64)
    count = 0
    for c in range(k):
        if alive[c] and parent[c] == c:
            new_id[c] = count
            count += 1
    label = np.empty(k, dtype=np.int64)
    for c in range(k):
        label[c] = new_id[find(parent, c)]
    return label, count


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
        t0 = time.perf_counter()
        best_key = np.full(k, NO_KEY, dtype=np.uint64)
        best_id = np.full(k, NO_EDGE, dtype=np.int64)
        best_pos = np.zeros(k, dtype=np.int64)
        local_lightest(cu[:live], cv[:live], keys[:live], ids[:live], best_key, best_id,
                        best_pos)
        _phase(stats, "lightest-edge", t0)
        t0 = time.perf_counter()
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
        _phase(stats, "allreduce", t0)
        t0 = time.perf_counter()
        parent = np.arange(k, dtype=np.int64)
        size = np.ones(k, dtype=np.int64)
        chosen = np.empty(k, dtype=np.int64)
        count = _join(winner, target, parent, size, chosen, 0)
        chosen_parts.append(chosen[:count])
        label, k = _renumber(winner, parent)
        live = _contract_edges(cu[:live], cv[:live], keys[:live], ids[:live], label)
        _phase(stats, "contract", t0)
    stats.rounds = (stats.rounds or 0) + len(chosen_parts)
    return np.concatenate(chosen_parts) if chosen_parts else np.zeros(0, dtype=np.int64)


def _phase(stats: Stats, name: str, start: float) -> None:
    stats.phases[name] = stats.phases.get(name, 0.0) + time.perf_counter() - start


def _edge_keys(dg: DistributedGraph) -> tuple[np.ndarray, int]:
    """Order-preserving uint64 weight keys of the held edges and their width in bits."""
    return weight_keys(dg.weight).astype(np.uint64), dg.weight.dtype.itemsize * 8


# ---------------------------------------------------------------------------- filter step
@numba.njit(cache=True)
def _lightest_cut(at, cut, keys, cut_key, cut_pos):
    """Filter step 2's cut side: the lightest cut edge at each owned vertex, in one pass.

    ``at`` is the owned end (local index) of each cut edge ``cut`` (held
    positions, which break ties as edge ids do); ``cut_pos`` stays -1 where a
    vertex has no cut edge.
    """
    for i in range(len(cut)):
        v, e = at[i], cut[i]
        if cut_pos[v] < 0 or precedes(keys[e], e, cut_key[v], cut_pos[v]):
            cut_key[v], cut_pos[v] = keys[e], e


@numba.njit(cache=True)
def _contract_forest(a, b, key, pos, parent, size, cut_key, cut_pos, contracted):
    """Filter step 2: join a local forest edge if one of its two components met no cut edge.

    The local forest edges come in key order: ends ``a``, ``b``, keys
    ``key``, held positions ``pos``. A component *met* a cut edge before
    this one when its lightest cut edge (``cut_key``, ``cut_pos`` at its
    root) comes first. Keeping each root's lightest cut edge replaces
    scanning the cut edges themselves in key order, so only the forest edges
    are sorted.
    """
    for k in range(len(a)):
        ra, rb = find(parent, a[k]), find(parent, b[k])
        met_a = cut_pos[ra] >= 0 and precedes(cut_key[ra], cut_pos[ra], key[k], pos[k])
        met_b = cut_pos[rb] >= 0 and precedes(cut_key[rb], cut_pos[rb], key[k], pos[k])
        if met_a and met_b:
            continue
        union_roots(parent, size, ra, rb)
        root, other = (ra, rb) if find(parent, ra) == ra else (rb, ra)
        if cut_pos[other] >= 0 and (cut_pos[root] < 0 or precedes(
                cut_key[other], cut_pos[other], cut_key[root], cut_pos[root])):
            cut_key[root], cut_pos[root] = cut_key[other], cut_pos[other]
        contracted[k] = True


@numba.njit(cache=True)
def _component_labels(parent, touched, offset):
    """Global label of each owned vertex's component, or -1 when it touches no cut edge."""
    n = len(parent)
    root_label = np.full(n, -1, dtype=np.int64)
    count = 0
    for v in range(n):
        if parent[v] == v and touched[v]:
            root_label[v] = offset + count
            count += 1
    label = np.empty(n, dtype=np.int64)
    for v in range(n):
        label[v] = root_label[find(parent, v)]
    return label, count


@numba.njit(cache=True)
def _contracted_edges(label, fa, fb, forest_pos, contracted, at, cut, primary, far_label,
                      keys, edge_ids):
    """Filter step 3: the contracted graph's edges held here, in one pass.

    The local forest edges left uncontracted, then each cut edge this rank is
    primary for, as ``(cu, cv, key, id)`` between component labels;
    ``far_label`` is the far end's label of each primary cut edge, in order.
    """
    total = len(contracted) - np.count_nonzero(contracted) + len(far_label)
    cu = np.empty(total, dtype=np.int64)
    cv = np.empty(total, dtype=np.int64)
    key = np.empty(total, dtype=keys.dtype)
    eid = np.empty(total, dtype=np.int64)
    j = 0
    for k in range(len(contracted)):
        if not contracted[k]:
            cu[j], cv[j] = label[fa[k]], label[fb[k]]
            key[j], eid[j] = keys[forest_pos[k]], edge_ids[forest_pos[k]]
            j += 1
    f = 0
    for k in range(len(cut)):
        if primary[k]:
            cu[j], cv[j] = label[at[k]], far_label[f]
            key[j], eid[j] = keys[cut[k]], edge_ids[cut[k]]
            j += 1
            f += 1
    return cu, cv, key, eid


def _key_order(keys: np.ndarray, key_bits: int, cand: np.ndarray) -> np.ndarray:
    """Indices into ``cand`` (held-edge positions) in ``(weight, edge_id)`` order.

    Held edges are in global id order, so their positions break ties as ids
    do: one sort of ``key << bits | position`` when that fits 64 bits, else a
    two-key sort.
    """
    if len(cand) == 0:
        return np.zeros(0, dtype=np.int64)
    bits = id_bits(int(cand.max()) + 1)
    if key_bits + bits > 64:
        return np.lexsort((cand, keys[cand]))
    packed = (keys[cand] << np.uint64(bits)) | cand.astype(np.uint64)
    packed.sort()
    position = (packed & np.uint64((1 << bits) - 1)).astype(np.int64)
    # Map positions back to indices into cand (cand holds distinct positions).
    where = np.empty(int(cand.max()) + 1, dtype=np.int64)
    where[cand] = np.arange(len(cand))
    return where[position]


@numba.njit(cache=True, inline="always")
def _owner_and_index(v, cyclic, size, block):
    """A vertex's owner rank and its index there (``Ownership.owner`` and ``.local``)."""
    if cyclic:
        return v % size, v // size
    return v // block, v % block


@numba.njit(cache=True, inline="always")
def _holder(owner_src, owner_dst, edge_id):
    """The rank that gives a cut edge to the rounds: its src owner for even ids, else its
    dst owner (given the edge's two ends instead, the end whose owner that is). Generators that write the smaller end first would otherwise give every cut
    edge to the lower rank, which then did most of the rounds' work."""
    return owner_src if edge_id % 2 == 0 else owner_dst


@numba.njit(cache=True)
def _split_held(src, dst, ids, rank, cyclic, size, block, local_pos, lsrc, ldst, cut, at,
                far, primary):
    """Filter step 1's input in one pass: the held edges split into local and cut edges.

    Local edges (both ends owned): held position and both local indices.
    Cut edges: held position, owned end's local index ``at``, the far end's
    global id ``far``, and whether this rank is its *primary* holder
    (:func:`_holder`): each cut edge joins the contracted graph once.
    """
    n_local = 0
    n_cut = 0
    for e in range(len(src)):
        s, d = np.int64(src[e]), np.int64(dst[e])
        owner_s, index_s = _owner_and_index(s, cyclic, size, block)
        owner_d, index_d = _owner_and_index(d, cyclic, size, block)
        if owner_s == rank and owner_d == rank:
            local_pos[n_local], lsrc[n_local], ldst[n_local] = e, index_s, index_d
            n_local += 1
            continue
        src_here = owner_s == rank
        cut[n_cut] = e
        at[n_cut] = index_s if src_here else index_d
        far[n_cut] = d if src_here else s
        primary[n_cut] = _holder(owner_s, owner_d, ids[e]) == rank
        n_cut += 1


def _split(dg: DistributedGraph, n_local: int) -> tuple[np.ndarray, ...]:
    """:func:`_split_held` on this rank's edges, its arrays allocated to size (``n_local``
    edges with both ends owned, from :func:`_held_counts`)."""
    own = dg.ownership
    cyclic, size, block = own.kind == "cyclic", own.size, own.block
    n_cut = len(dg.src) - n_local
    # The narrowest types that hold them: held positions, local indices, global vertex ids
    # (int32 below 2**31 halves what a rank holds of its cut edges until the rounds).
    idx = index_dtype_for(own.count(dg.rank), n_local)
    pos = index_dtype_for(len(dg.src), 0)
    vertex = index_dtype_for(dg.num_vertices, 0)
    arrays = (np.empty(n_local, dtype=pos), np.empty(n_local, dtype=idx),
              np.empty(n_local, dtype=idx), np.empty(n_cut, dtype=pos),
              np.empty(n_cut, dtype=idx), np.empty(n_cut, dtype=vertex),
              np.empty(n_cut, dtype=np.bool_))
    _split_held(dg.src, dg.dst, dg.edge_ids, dg.rank, cyclic, size, block, *arrays)
    return arrays


def _local_forest(dg: DistributedGraph, local_pos: np.ndarray, lsrc: np.ndarray,
                  ldst: np.ndarray, local_solver: str, threads: int | None) -> np.ndarray:
    """Indices into ``local_pos`` of the minimum spanning forest of the local edges.

    ``lsrc``, ``ldst`` are the local edges' ends as this rank's local indices.
    """
    from parmst import registry
    from parmst.api import minimum_spanning_forest

    # Held edges are in global id order, so local ids order ties exactly as global ones do.
    graph = Graph(lsrc, ldst, dg.weight[local_pos], dg.ownership.count(dg.rank))
    options = {}
    one_thread = (threads if threads is not None else numba.get_num_threads()) == 1
    if local_solver == "auto" and one_thread:
        local_solver = "kruskal/serial"  # on one thread it beats ecl/cpu about 2x (docs/mpi.md)
    if threads is not None and local_solver != "auto" and \
            "threads" in registry.get(local_solver).options:
        options["threads"] = threads
    return minimum_spanning_forest(graph, solver=local_solver, **options).edge_ids


def _remote_labels(channel: Any, dg: DistributedGraph, vertices: np.ndarray,
                   label: np.ndarray) -> np.ndarray:
    """Labels of (remote) ``vertices`` from their owners (one request and reply Alltoallv)."""
    own = dg.ownership
    # fetch() indexes by id - first; map vertices to their owners' local indices first.
    local = own.local(vertices)
    owner = own.owner(vertices)
    return channel.fetch(local, owner, 0, [label])[0]


@numba.njit(cache=True)
def _lightest_of_components(roots, cut_at, src, dst, ids, rank, cyclic, size, block):
    """The contracted graph's lightest edge at each of this rank's components, known here.

    A rank holds every edge at its vertices, so each component's lightest
    cut edge is known locally (``cut_at`` at its root), and no edge left in
    the contracted graph at it is lighter: an uncontracted forest edge was
    kept only because both its components had met a lighter cut edge.
    Returns, per component (``roots`` in label order): that edge's global id,
    its far end's global vertex id, and its holder in the contracted graph
    (:func:`_holder`).
    """
    k = len(roots)
    eid = np.empty(k, dtype=np.int64)
    far = np.empty(k, dtype=np.int64)
    holder = np.empty(k, dtype=np.int64)
    for c in range(k):
        e = cut_at[roots[c]]
        s, d = np.int64(src[e]), np.int64(dst[e])
        owner_s = _owner_and_index(s, cyclic, size, block)[0]
        owner_d = _owner_and_index(d, cyclic, size, block)[0]
        eid[c] = ids[e]
        far[c] = d if owner_s == rank else s
        holder[c] = _holder(owner_s, owner_d, eid[c])
    return eid, far, holder


@numba.njit(cache=True)
def _held_counts(src, dst, ids, rank, cyclic, size, block):
    """Of the held edges: how many non-loop edges have both ends owned by ``rank``, how
    many self-loops it owns (:func:`_split_held` counts them as local edges too), and how
    many non-loop edges it gives to the rounds (:func:`_holder`). One pass serves the
    filter's choice and the allocation of :func:`_split` or :func:`_vertex_graph`."""
    local, loops, held = 0, 0, 0
    for e in range(len(src)):
        s, d = np.int64(src[e]), np.int64(dst[e])
        owner_s = _owner_and_index(s, cyclic, size, block)[0]
        owner_d = _owner_and_index(d, cyclic, size, block)[0]
        if s == d:
            loops += owner_s == rank
            continue
        local += owner_s == rank and owner_d == rank
        held += _holder(owner_s, owner_d, ids[e]) == rank
    return local, loops, held


@numba.njit(cache=True, inline="always")
def _vertex_label(v, cyclic, size, starts):
    """Round label of vertex ``v`` under :meth:`Ownership.starts`: ``starts[owner(v)] +
    local(v)`` (``v`` itself for block ownership, so the hot loops below divide only under
    cyclic ownership)."""
    return starts[v % size] + v // size if cyclic else v


@numba.njit(cache=True)
def _vertex_graph(src, dst, ids, keys, rank, cyclic, size, block, starts, held):
    """The rounds' input when the filter is skipped: vertices are the components.

    Vertex ``v`` gets the label :func:`_vertex_label`, so labels are owned in
    the contiguous ranges ``starts`` with no message. Returns this rank's
    held edges between labels (``held`` of them, from :func:`_held_counts`),
    each edge given by one rank only (:func:`_holder`) with its own end
    first, self-loops left out; and each owned vertex's lightest edge
    (id, -1 where none; far label; that edge's holder), which this rank knows
    because it holds every edge at its vertices: the first round's minima
    without a message. Each vertex's lightest key and held position share
    one 16-byte row, read with one cache miss per edge end; the edge's id,
    far end and holder are looked up once per vertex at the end (keeping
    them current cost three more scattered writes per improvement, and most
    edge ends improve their vertex's minimum on a sparse graph).
    """
    first, n_owned = starts[rank], starts[rank + 1] - starts[rank]
    cu = np.empty(held, dtype=np.int64)
    cv = np.empty(held, dtype=np.int64)
    key = np.empty(held, dtype=keys.dtype)
    eid = np.empty(held, dtype=np.int64)
    # Rows of (key, held position) as uint64, all ones for none: every real edge precedes
    # that. Held edges are in global id order, so positions break ties as ids do.
    best = np.full((n_owned, 2), NO_KEY, dtype=np.uint64)
    j = 0
    for e in range(len(src)):
        s, d = np.int64(src[e]), np.int64(dst[e])
        if s == d:
            continue
        label_s = _vertex_label(s, cyclic, size, starts)
        label_d = _vertex_label(d, cyclic, size, starts)
        key_e, pos_e = np.uint64(keys[e]), np.uint64(e)
        v = label_s - first
        if 0 <= v < n_owned and precedes(key_e, pos_e, best[v, 0], best[v, 1]):
            best[v, 0], best[v, 1] = key_e, pos_e
        v = label_d - first
        if 0 <= v < n_owned and precedes(key_e, pos_e, best[v, 0], best[v, 1]):
            best[v, 0], best[v, 1] = key_e, pos_e
        held_at = _holder(label_s, label_d, ids[e])
        if first <= held_at < first + n_owned:
            cu[j], cv[j] = held_at, label_d if held_at == label_s else label_s
            key[j], eid[j] = keys[e], ids[e]
            j += 1
    best_id = np.full(n_owned, -1, dtype=np.int64)
    best_far = np.zeros(n_owned, dtype=np.int64)
    holder = np.zeros(n_owned, dtype=np.int64)
    for v in range(n_owned):
        if best[v, 1] == NO_KEY:
            continue
        e = np.int64(best[v, 1])
        s, d = np.int64(src[e]), np.int64(dst[e])
        label_s = _vertex_label(s, cyclic, size, starts)
        best_id[v] = ids[e]
        best_far[v] = _vertex_label(d, cyclic, size, starts) if label_s == first + v else label_s
        holder[v] = _owner_and_index(_holder(s, d, ids[e]), cyclic, size, block)[0]
    return (cu, cv, key, eid), (best_id, best_far, holder)


# filter-boruvka contracts each rank's local forest first only when the local edges could
# contract at least this fraction of the vertices (sum over ranks of min(local edges, owned
# vertices), against n). Below it the filter costs more than the Borůvka round that replaces
# it: on seed000-sparse large (uniform random, 1.5 edges per vertex) a rank holds both ends
# of a fraction 1/p of its edges, and at 4 ranks the filter took 1.5 s to contract 2 of the
# 10 M vertices, where the first round contracts three quarters of them (10 M to 2.5 M
# components); at 2 ranks (reach 0.75) the rounds from the vertices took 3.96 s, the filter
# first 4.35 s (H200 host, one call).
FILTER_MIN_REACH = 0.9
LOCAL_FILTER = ("auto", "on", "off")


def filter_pays(dg: DistributedGraph, local: int) -> bool:
    """Whether ``local_filter="auto"`` runs the filter, this rank holding ``local`` edges
    with both ends owned: see :data:`FILTER_MIN_REACH`."""
    reach = dg.channel.allreduce_int(min(local, dg.ownership.count(dg.rank)), "sum")
    return reach >= FILTER_MIN_REACH * dg.num_vertices


def vertex_graph(dg: DistributedGraph, held: int) -> tuple[tuple, int, int, tuple[int, int],
                                                          tuple]:
    """:func:`filter_contract`'s results with no filter: every vertex a component
    (``held``: the edges this rank gives to the rounds, from :func:`_held_counts`).

    Vertices without an edge are components without one; the rounds finish them
    at once.
    """
    own = dg.ownership
    starts = own.starts()
    keys, key_bits = _edge_keys(dg)
    edges, minima = _vertex_graph(dg.src, dg.dst, dg.edge_ids, keys, dg.rank,
                                  own.kind == "cyclic", own.size, own.block, starts, held)
    return edges, dg.num_vertices, key_bits, (int(starts[dg.rank]), own.count(dg.rank)), minima


def filter_contract(dg: DistributedGraph, stats: Stats, local_solver: str,
                    threads: int | None, n_local: int
                    ) -> tuple[np.ndarray, tuple, int, int, tuple[int, int],
                               tuple[np.ndarray, ...]]:
    """Steps 1-3 of filter-boruvka: local forest, safe contraction, contracted graph
    (``n_local``: the held edges with both ends owned here, from :func:`_held_counts`).

    Returns the ids of the edges contracted here (global forest edges held
    here); the contracted graph's edges held here ``(cu, cv, keys, ids)``,
    each once, ``cu`` a component of this rank; the number of its components
    (global); the width of the keys in bits; this rank's components as
    ``(first label, count)`` (labels are block-owned); and the lightest edge
    of each of them as the owner rounds' first minima ``(id, far label,
    holder)``, found without a message (:func:`_lightest_of_components`).
    """
    channel = dg.channel
    own = dg.ownership
    local_pos, lsrc, ldst, cut, at, far, primary = _split(dg, n_local)
    t0 = time.perf_counter()
    in_forest = _local_forest(dg, local_pos, lsrc, ldst, local_solver, threads)
    forest_pos = local_pos[in_forest]
    _phase(stats, "local-forest", t0)
    t0 = time.perf_counter()
    keys, key_bits = _edge_keys(dg)
    fa, fb = lsrc[in_forest], ldst[in_forest]
    n_local = own.count(dg.rank)
    if len(cut):
        parent = np.arange(n_local, dtype=np.int64)
        cut_key = np.zeros(n_local, dtype=np.uint64)
        cut_at = np.full(n_local, -1, dtype=np.int64)
        _lightest_cut(at, cut, keys, cut_key, cut_at)
        # Gathered in key order first: the scan then reads them in sequence.
        order = _key_order(keys, key_bits, forest_pos)
        in_order = np.zeros(len(forest_pos), dtype=np.bool_)
        _contract_forest(fa[order], fb[order], keys[forest_pos[order]], forest_pos[order],
                         parent, np.ones(n_local, dtype=np.int64), cut_key, cut_at, in_order)
        contracted = np.empty_like(in_order)
        contracted[order] = in_order
        touched = cut_at >= 0  # at a root: its component still has a cut edge
    else:  # no cut edge: the local forest is this rank's part of the answer, all of it
        contracted = np.ones(len(forest_pos), dtype=np.bool_)
        parent = np.zeros(0, dtype=np.int64)  # and no component is left here
        touched = np.zeros(0, dtype=np.bool_)
        cut_at = np.zeros(0, dtype=np.int64)
    _phase(stats, "contract-local", t0)
    roots = np.flatnonzero(touched & (parent == np.arange(len(parent))))  # in label order
    k_here = len(roots)
    offset = channel.exscan_int(k_here)
    total = channel.allreduce_int(k_here, "sum")
    label, _ = _component_labels(parent, touched, offset)
    lightest, lightest_far, holder = _lightest_of_components(
        roots, cut_at, dg.src, dg.dst, dg.edge_ids, dg.rank, own.kind == "cyclic", own.size,
        own.block)
    # Per-vertex state and the far ends are done with: freed before the exchange's buffers.
    del parent, cut_at, touched, roots
    # Contracted graph: forest edges left uncontracted, and each cut edge once. The far
    # labels of the components' lightest edges come in the same request.
    primary_far = far[primary]
    del far
    far_label = _remote_labels(channel, dg, np.concatenate([primary_far, lightest_far]), label)
    far_label, lightest_far_label = far_label[:len(primary_far)], far_label[len(primary_far):]
    stats.extra["local_edges"] = len(local_pos)
    stats.extra["cut_edges_held"] = len(cut)
    stats.extra["contracted_edges"] = int(np.count_nonzero(contracted))
    stats.extra["components_after_filter"] = total
    return (dg.edge_ids[forest_pos[contracted]],
            _contracted_edges(label, fa, fb, forest_pos, contracted, at, cut, primary,
                              far_label, keys, dg.edge_ids),
            total, key_bits, (offset, k_here), (lightest, lightest_far_label, holder))


# ---------------------------------------------------------------------------- drivers
def _boruvka_allreduce(dg: DistributedGraph, stats: Stats) -> tuple[np.ndarray, np.ndarray]:
    """Edge ids chosen (every rank) and the ids of them contributed by this rank."""
    primary = np.flatnonzero(dg.primary & (dg.src != dg.dst))
    keys, key_bits = _edge_keys(dg)
    chosen = allreduce_rounds(dg.channel, dg.src[primary], dg.dst[primary], keys[primary],
                              dg.edge_ids[primary].astype(np.int64), dg.num_vertices, key_bits,
                              dg.num_edges, stats)
    return _held_chosen(dg, chosen)


# Above this many components left after the filter, filter-boruvka's rounds="auto"
# contracts them with the owner rounds (O(m/p + k/p) work and words per rank and round)
# instead of all-reduce rounds (O(k) replicated per rank, with O(k) words reduced each round).
ALLREDUCE_MAX_COMPONENTS = 1 << 16
ROUNDS = ("auto", "allreduce", "owners", "genboruvka")


def _filter_boruvka(dg: DistributedGraph, stats: Stats, local_solver: str,
                    threads: int | None, rounds: str, local_filter: str) -> np.ndarray:
    """This rank's share of the forest: its contracted edges and its round choices."""
    from parmst.solvers.mpi import genboruvka
    from parmst.solvers.mpi.owners import owner_rounds

    channel = dg.channel
    own = dg.ownership
    local, loops, held = _held_counts(dg.src, dg.dst, dg.edge_ids, dg.rank,
                                      own.kind == "cyclic", own.size, own.block)
    use_filter = local_filter == "on" or (local_filter == "auto" and filter_pays(dg, local))
    stats.extra["local_filter"] = "on" if use_filter else "off"
    if use_filter:
        contracted, (cu, cv, keys, ids), total, key_bits, (first, k_here), minima = \
            filter_contract(dg, stats, local_solver, threads, local + loops)
    else:
        t0 = time.perf_counter()
        contracted = np.zeros(0, dtype=np.int64)
        (cu, cv, keys, ids), total, key_bits, (first, k_here), minima = vertex_graph(dg, held)
        _phase(stats, "vertex-graph", t0)
    if total == 0:  # every rank's local forests already make the whole forest
        return contracted
    if rounds == "auto":
        rounds = "allreduce" if total <= ALLREDUCE_MAX_COMPONENTS else "owners"
    stats.extra["rounds_by"] = rounds
    if rounds == "owners":
        starts = channel.range_starts(k_here)
        return np.concatenate([contracted, owner_rounds(channel, cu, cv, keys, ids, starts,
                                                        stats, key_bits, dg.num_edges,
                                                        minima)])
    if rounds == "allreduce":
        chosen = allreduce_rounds(channel, cu, cv, keys, ids, total, key_bits, dg.num_edges,
                                  stats)
        _, mine = _held_chosen(dg, chosen)
        return np.concatenate([contracted, mine])
    rows = genboruvka.rows_of_contracted(channel, first, k_here, cu, cv, keys, ids)
    chosen = channel.allgatherv(genboruvka.rounds(channel, rows, stats, threads))
    _, mine = _held_chosen(dg, chosen)
    return np.concatenate([contracted, mine])


def _held_chosen(dg: DistributedGraph, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The chosen ids among this rank's primary edges (each chosen edge has one primary holder)."""
    mine = dg.edge_ids[dg.primary]
    hit = np.isin(mine, chosen, assume_unique=False)
    return chosen, mine[hit]


@numba.njit(cache=True)
def _merge_positions(held_ids, ids):
    """Positions of the sorted ``ids`` in the sorted ``held_ids`` (each present), by one merge."""
    out = np.empty(len(ids), dtype=np.int64)
    j = 0
    for i in range(len(ids)):
        while held_ids[j] != ids[i]:
            j += 1
        out[i] = j
    return out


def _held_positions(held_ids: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Positions of the sorted ``ids`` among this rank's held edge ids (in id order).

    One rank holds every edge, ids ``0..m-1``: then an id is its position, and
    no search is needed.
    """
    if len(held_ids) and int(held_ids[-1]) - int(held_ids[0]) == len(held_ids) - 1:
        return ids - held_ids[0]  # a contiguous range of ids
    return _merge_positions(held_ids, ids)


@numba.njit(cache=True, inline="always")
def _popcount(word):
    """Set bits of a uint64 (SWAR)."""
    word = word - ((word >> np.uint64(1)) & np.uint64(0x5555555555555555))
    word = (word & np.uint64(0x3333333333333333)) + ((word >> np.uint64(2))
                                                     & np.uint64(0x3333333333333333))
    word = (word + (word >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((word * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=True)
def _id_order(ids, num_edges):
    """``np.argsort(ids)`` for distinct ids below ``num_edges``, in linear time.

    A bitmap of the ids and each word's count of smaller ids give every id
    its rank: ``num_edges / 4`` bytes, where an argsort of the ten million
    ids of a forest took a second on the rank that gathers them.
    """
    words = (num_edges + 63) >> 6
    bits = np.zeros(words, dtype=np.uint64)
    for x in ids:
        bits[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    before = np.empty(words, dtype=np.int64)
    total = 0
    for w in range(words):
        before[w] = total
        total += _popcount(bits[w])
    order = np.empty(len(ids), dtype=np.int64)
    for i in range(len(ids)):
        x = ids[i]
        below = bits[x >> 6] & ((np.uint64(1) << np.uint64(x & 63)) - np.uint64(1))
        order[before[x >> 6] + _popcount(below)] = i
    return order


def _id_range_starts(num_edges: int, size: int) -> np.ndarray:
    """Bounds of the id ranges the forest is spread over: rank ``r`` gets ids
    ``starts[r] .. starts[r + 1] - 1`` (near-equal ranges)."""
    return np.array([r * num_edges // size for r in range(size + 1)], dtype=np.int64)


def _spread_forest(channel: Any, num_edges: int, ids: np.ndarray, *columns: np.ndarray
                   ) -> list[np.ndarray]:
    """The forest edges by id range: rank ``r`` ends with those in its range of
    :func:`_id_range_starts`, in id order, ``(ids, *columns)``.

    ``ids`` (distinct, increasing) and ``columns`` are this rank's forest edges.
    One ``Alltoallv`` (each rank's edges are grouped by range already, being
    sorted), then each rank orders the runs it received in linear time, so
    the ranks' shares concatenated in rank order are the forest in id order.
    """
    starts = _id_range_starts(num_edges, channel.size)
    counts = np.diff(np.searchsorted(ids, starts))
    received, _ = channel.alltoallv([ids, *columns], counts)
    first = int(starts[channel.rank])
    order = _id_order(received[0] - first, int(starts[channel.rank + 1]) - first)
    return [array[order] for array in received]


def _gather_forest(channel: Any, num_edges: int, ids: np.ndarray, *columns: np.ndarray
                   ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """This rank's share of the forest (:func:`_spread_forest`) and, on rank 0, the whole
    forest ``(ids, *columns)`` in id order (``None`` elsewhere).

    Rank 0 only receives the shares in rank order: sorting the 10 million
    gathered ids of seed000-sparse large's forest on rank 0 had cost a fifth of
    the 16-rank solve while the other ranks waited.
    """
    share = _spread_forest(channel, num_edges, ids, *columns)
    return share, [channel.gatherv(array) for array in share]


def solve_distributed(dg: DistributedGraph, solver: str, *, local_solver: str = "auto",
                      threads: int | None = None, rounds: str = "auto",
                      local_filter: str = "auto") -> Forest:
    """Run an mpi solver on every rank; the complete Forest on rank 0.

    On rank 0 the result is the whole minimum spanning forest. On every other
    rank it is that rank's share: ``edge_ids``, ``src``, ``dst``, ``weight``
    are the forest edges whose ids fall in its range (rank ``r`` of ``p``:
    ids ``r*m//p`` up to ``(r+1)*m//p - 1``), in id order, so the shares are
    disjoint and together make the forest; while ``num_vertices``, ``num_components`` and
    ``total_weight`` are the global figures. ``stats.extra["ranks"]`` (rank 0)
    lists every rank's building (read and route) time, and for the solve
    itself its local time, communication time, collectives, messages and
    bytes sent, plus the edges it held and its peak memory.
    """
    from parmst.solvers.mpi._comm import peak_memory_bytes

    channel = dg.channel
    stats = Stats(device=f"mpi x{channel.size}", threads=channel.size, init_time=dg.build_time)
    before = channel.counters()
    start = time.perf_counter()
    error = None
    try:
        if rounds not in ROUNDS:
            raise ValueError(f"rounds must be one of {', '.join(ROUNDS)}, got {rounds!r}")
        if local_filter not in LOCAL_FILTER:
            raise ValueError(f"local_filter must be one of {', '.join(LOCAL_FILTER)}, "
                             f"got {local_filter!r}")
        if dg.weight.dtype.kind == "f" and len(dg.weight) and np.isnan(dg.weight).any():
            raise ValueError("a NaN weight: the mpi solvers reject NaN (drop those edges first)")
    except ValueError as exc:
        error = exc
    channel.agree(error)
    if solver == "boruvka-allreduce/mpi":
        _, mine = _boruvka_allreduce(dg, stats)
    elif solver == "ghs/mpi":
        from parmst.solvers.mpi.ghs import ghs_forest

        _, mine = _held_chosen(dg, ghs_forest(dg, stats))
    elif solver == "genboruvka/mpi":
        from parmst.solvers.mpi.genboruvka import genboruvka_rounds

        _, mine = _held_chosen(dg, channel.allgatherv(genboruvka_rounds(dg, stats, threads)))
    else:
        mine = _filter_boruvka(dg, stats, local_solver, threads, rounds, local_filter)
    stats.compute_time = time.perf_counter() - start
    counters = {k: v - before[k] for k, v in channel.counters().items()}
    comm_time = counters["comm_time_s"]
    mine = mine[_id_order(mine, dg.num_edges)]
    position = _held_positions(dg.edge_ids, mine)
    per_rank = {"rank": channel.rank, "init_time_s": dg.build_time,
                "local_time_s": stats.compute_time - comm_time, **counters,
                "held_edges": len(dg.src), "held_bytes": dg.nbytes,
                "peak_memory_bytes": peak_memory_bytes(),
                **{k: stats.extra.pop(k) for k in ("local_edges", "cut_edges_held",
                                                   "contracted_edges") if k in stats.extra}}
    ranks = channel.gather_object(per_rank)
    ids, src, dst, weights = mine, dg.src[position], dg.dst[position], dg.weight[position]
    if channel.size > 1:  # on one rank its share, in id order already, is the forest
        share, whole = _gather_forest(channel, dg.num_edges, ids, src, dst, weights)
        ids, src, dst, weights = whole if channel.rank == 0 else share
    total_weight = exact_sum(weights) if channel.rank == 0 else None
    total_weight = channel.bcast_object(total_weight)
    forest_edges = channel.allreduce_int(len(mine), "sum")
    stats.rounds = stats.rounds or 0
    stats.extra["rank"] = channel.rank
    if channel.rank == 0:
        stats.extra["ranks"] = ranks
    return Forest(edge_ids=ids.astype(np.int64), src=src, dst=dst, weight=weights,
                  num_vertices=dg.num_vertices,
                  num_components=dg.num_vertices - forest_edges,
                  total_weight=total_weight, solver=solver, stats=stats)
