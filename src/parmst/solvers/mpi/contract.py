"""filter-boruvka's filter: local forest, safe contraction, contracted graph (steps 1-3).

After Sanders and Schimek, "Engineering Massively Parallel MST Algorithms"
(2023). A rank holds every edge at the vertices it owns. It

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
   prefix sum and learns the component of each cut edge's remote end with
   one ``Alltoallv`` request and reply: the contracted graph the rounds of
   :mod:`parmst.solvers.mpi.filter_boruvka` solve.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst import registry
from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst._mpi.channel import owner_of
from parmst._prefetch import prefetch
from parmst.distributed import DistributedGraph
from parmst.graph import Graph, index_dtype_for
from parmst.kernels.local_forest import Share, local_forest_filter
from parmst.kernels.unionfind import SCAN_PREFETCH_DISTANCE, find, find_read_only, link_roots
from parmst.order import id_bits, precedes
from parmst.solvers.mpi.contracted import Contracted, FirstMinima, RoundEdges
from parmst.solvers.mpi.held import GIVEN, LOCAL, LOOP, Labels, edge_keys, holder
from parmst.solvers.mpi.local_ids import local_ids
from parmst.solvers.mpi.ordered_edges import run_order, sort_edges
from parmst.solvers.mpi.shared_min import lower_min
from parmst.solvers.mpi.vertex_graph import NO_KEY, NO_POSITION
from parmst.stats import Stats


@numba.njit(parallel=True, cache=True)
def _lightest_cut(at, cut, keys, n_owned, shift, shared):
    """Filter step 2's cut side: the lightest cut edge at each owned vertex, on the rank's
    threads.

    ``at`` is the owned end (local index) of each cut edge ``cut`` (held
    positions, which break ties as edge ids do). As for the vertex graph's
    first minima (:func:`~parmst.solvers.mpi.vertex_graph.vertex_graph`), each
    cut edge offers ``key << shift | position`` to its owned end by an atomic
    minimum behind a guard (Fallin et al. section 5.3), one word settling key
    and tie at once; with ``shift == 0`` (keys too wide to share a word) the
    keys win first and a second pass takes the smallest position among the
    cut edges of the winning key. ``shared``: more than one thread runs.
    Returns each vertex's lightest cut edge: its key and its held position
    (-1 where the vertex has none).
    """
    best = np.full(n_owned, NO_KEY, dtype=np.uint64)
    n = len(cut)
    blocks = num_blocks(n)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        for i in range(lo, hi):
            e = np.int64(cut[i])
            word = (keys[e] << np.uint64(shift)) | np.uint64(e) if shift else keys[e]
            lower_min(best, np.int64(at[i]), word, shared)
    cut_key = np.zeros(n_owned, dtype=np.uint64)
    cut_pos = np.full(n_owned, -1, dtype=np.int64)
    if shift:
        low = (np.uint64(1) << np.uint64(shift)) - np.uint64(1)
        for v in numba.prange(n_owned):
            if best[v] != NO_KEY:
                cut_pos[v] = np.int64(best[v] & low)
                cut_key[v] = keys[cut_pos[v]]
        return cut_key, cut_pos
    position = np.full(n_owned, NO_POSITION, dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        for i in range(lo, hi):
            e, v = np.int64(cut[i]), np.int64(at[i])
            if keys[e] == best[v]:
                lower_min(position, v, e, shared)
    for v in numba.prange(n_owned):
        if position[v] != NO_POSITION:
            cut_key[v], cut_pos[v] = best[v], position[v]
    return cut_key, cut_pos


@numba.njit(cache=True)
def _contract_forest(a, b, key, pos, parent, cut_key, cut_pos, contracted):
    """Filter step 2: join a local forest edge if one of its two components met no cut edge.

    The local forest edges come in key order: ends ``a``, ``b``, keys
    ``key``, held positions ``pos``. A component *met* a cut edge before
    this one when its lightest cut edge (``cut_key``, ``cut_pos`` at its
    root) comes first. Keeping each root's lightest cut edge replaces
    scanning the cut edges themselves in key order, so only the forest edges
    are sorted. The union-find at the ends of the edge
    :data:`~parmst.kernels.unionfind.SCAN_PREFETCH_DISTANCE` ahead is asked for
    while this one is joined, as in Kruskal's scan: a road-like graph's 3.05 M local
    forest edges at 2 ranks of 2^22 edges, 0.70 -> 0.37 s (2-core VM).
    """
    ahead = len(a) - SCAN_PREFETCH_DISTANCE
    for k in range(len(a)):
        if k < ahead:  # the union-find at a later edge's ends, read while this one is done
            prefetch(parent, a[k + SCAN_PREFETCH_DISTANCE])
            prefetch(parent, b[k + SCAN_PREFETCH_DISTANCE])
        ra, rb = find(parent, a[k]), find(parent, b[k])
        met_a = cut_pos[ra] >= 0 and precedes(cut_key[ra], cut_pos[ra], key[k], pos[k])
        met_b = cut_pos[rb] >= 0 and precedes(cut_key[rb], cut_pos[rb], key[k], pos[k])
        if met_a and met_b:
            continue
        root = link_roots(parent, ra, rb)
        other = rb if root == ra else ra
        if cut_pos[other] >= 0 and (cut_pos[root] < 0 or precedes(
                cut_key[other], cut_pos[other], cut_key[root], cut_pos[root])):
            cut_key[root], cut_pos[root] = cut_key[other], cut_pos[other]
        contracted[k] = True


@numba.njit(parallel=True, cache=True)
def _contracted_edges(label, fa, fb, forest_pos, contracted, at, cut, primary, far_label,
                      keys, edge_ids):
    """Filter step 3: the contracted graph's edges held here, and the contracted forest
    edges' ids, on the rank's threads.

    The contracted graph's edges are the local forest edges left uncontracted,
    then each cut edge this rank is primary for, as ``(cu, cv, key, id)``
    between component labels; ``far_label`` is the far end's label of each
    primary cut edge, in order. Blocks of forest edges and of cut edges count
    what they keep, then each writes from its offsets (:mod:`parmst._blocks`),
    so the output is in the serial order.
    """
    n_forest, n_cut = len(contracted), len(cut)
    forest_blocks = num_blocks(n_forest)
    blocks = forest_blocks + num_blocks(n_cut)
    counts = np.zeros((blocks, 2), dtype=np.int64)  # edges kept, forest edges contracted
    for b in numba.prange(blocks):
        if b < forest_blocks:
            lo, hi = block_span(b, n_forest)
            joined = 0
            for k in range(lo, hi):
                joined += contracted[k]
            counts[b, 0], counts[b, 1] = hi - lo - joined, joined
        else:
            lo, hi = block_span(b - forest_blocks, n_cut)
            given = 0
            for k in range(lo, hi):
                given += primary[k]
            counts[b, 0] = given
    starts = exclusive_sums(counts)
    total = starts[blocks, 0]
    cu = np.empty(total, dtype=np.int64)
    cv = np.empty(total, dtype=np.int64)
    key = np.empty(total, dtype=keys.dtype)
    eid = np.empty(total, dtype=np.int64)
    forest = np.empty(starts[blocks, 1], dtype=np.int64)
    first_cut = starts[forest_blocks, 0]  # where the primary cut edges start
    for b in numba.prange(blocks):
        j, c = starts[b, 0], starts[b, 1]
        if b < forest_blocks:
            lo, hi = block_span(b, n_forest)
            for k in range(lo, hi):
                e = forest_pos[k]
                if contracted[k]:
                    forest[c] = edge_ids[e]
                    c += 1
                else:
                    cu[j], cv[j] = label[fa[k]], label[fb[k]]
                    key[j], eid[j] = keys[e], edge_ids[e]
                    j += 1
        else:
            lo, hi = block_span(b - forest_blocks, n_cut)
            for k in range(lo, hi):
                if primary[k]:
                    e = cut[k]
                    cu[j], cv[j] = label[at[k]], far_label[j - first_cut]
                    key[j], eid[j] = keys[e], edge_ids[e]
                    j += 1
    return cu, cv, key, eid, forest


def _key_order(keys: np.ndarray, key_bits: int, cand: np.ndarray) -> np.ndarray:
    """Indices into ``cand`` (held-edge positions, increasing) in ``(weight, edge_id)``
    order, sorted on the rank's threads.

    Held edges are in global id order, so their positions break ties as ids
    do, and so do the indices of increasing positions. Keys of at most 32
    bits are narrowed first, so that a run sorts as one word per edge
    (:func:`~parmst.solvers.mpi.ordered_edges.sort_edges`: one run per
    thread, merged by co-ranks; on one thread the run's order is the answer).
    """
    key = keys[cand]
    if key_bits <= 32:
        key = key.astype(np.uint32)
    if numba.get_num_threads() == 1:
        return run_order(key)
    index = np.arange(len(cand))
    return sort_edges((index, index, key, cand))[0]


@numba.njit(parallel=True, cache=True)
def _split_held(src, dst, ids, first, stop, kinds, local_pos, lsrc, ldst, cut, at, primary,
                far):
    """Filter step 1's input: the held edges split into local and cut edges, in held order.

    ``src``, ``dst`` are the held edges' range labels; this rank owns the
    labels ``first .. stop - 1``. Local edges (both ends owned): held
    position and both local indices. Cut edges: held position, owned end's
    local index ``at``, and whether this rank is its *primary* holder
    (:func:`~parmst.solvers.mpi.held.holder`): each cut edge joins the
    contracted graph once. ``far``: the far end's label of each primary cut
    edge, in order (only those are asked for). ``kinds`` counts each block's
    edges of each :func:`~parmst.solvers.mpi.held.edge_kind` (the pass that
    chose the filter), so each block writes from its offsets at once
    (:mod:`parmst._blocks`).
    """
    n = len(src)
    blocks = num_blocks(n)
    counts = np.empty((blocks, 2), dtype=np.int64)  # local edges, primary cut edges
    for b in range(blocks):
        counts[b, 0], counts[b, 1] = kinds[b, LOCAL] + kinds[b, LOOP], kinds[b, GIVEN]
    starts = exclusive_sums(counts)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        n_local, n_primary = starts[b, 0], starts[b, 1]
        n_cut = lo - n_local
        for e in range(lo, hi):
            s, d = np.int64(src[e]), np.int64(dst[e])
            src_here = first <= s < stop
            dst_here = first <= d < stop
            if src_here and dst_here:
                local_pos[n_local], lsrc[n_local], ldst[n_local] = e, s - first, d - first
                n_local += 1
                continue
            cut[n_cut] = e
            at[n_cut] = s - first if src_here else d - first
            held_at = holder(s, d, ids[e])
            primary[n_cut] = first <= held_at < stop
            if primary[n_cut]:
                far[n_primary] = d if src_here else s
                n_primary += 1
            n_cut += 1


def _split(dg: DistributedGraph, labels: Labels, kinds: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`_split_held` on this rank's edges, its arrays allocated to size from the
    per-block counts of each edge kind ``kinds``
    (:func:`~parmst.solvers.mpi.filter_boruvka.held_counts`)."""
    totals = kinds.sum(axis=0)
    n_local = int(totals[LOCAL] + totals[LOOP])
    n_cut = len(dg.src) - n_local
    # The narrowest types that hold them: held positions, local indices, labels (int32
    # below 2**31 halves what a rank holds of its cut edges until the rounds).
    idx = index_dtype_for(labels.stop - labels.first, n_local)
    pos = index_dtype_for(len(dg.src), 0)
    vertex = index_dtype_for(dg.num_vertices, 0)
    arrays = (np.empty(n_local, dtype=pos), np.empty(n_local, dtype=idx),
              np.empty(n_local, dtype=idx), np.empty(n_cut, dtype=pos),
              np.empty(n_cut, dtype=idx), np.empty(n_cut, dtype=np.bool_),
              np.empty(int(totals[GIVEN]), dtype=vertex))
    _split_held(labels.src, labels.dst, dg.edge_ids, labels.first, labels.stop, kinds,
                *arrays)
    return arrays


def local_solver_name(graph: Graph, local_solver: str, threads: int) -> str:
    """The registered solver :func:`solve_locally` runs for ``local_solver`` on ``graph``:
    ``"auto"`` is kruskal/serial on one thread, else :func:`parmst.registry.select`'s pick."""
    if local_solver == "auto" and threads == 1:
        return "kruskal/serial"  # on one thread it beats ecl/cpu about 2x (docs/mpi.md)
    if local_solver == "auto":
        return registry.select(graph).name
    return local_solver


def solve_locally(graph: Graph, local_solver: str, threads: int,
                  options: dict | None = None) -> np.ndarray:
    """Positions in ``graph`` of its minimum spanning forest, by the one-process solver
    ``local_solver`` on ``threads`` threads (and ``options`` of that solver, if given).

    ``local_solver`` names a registered one-process solver, or ``"auto"``:
    kruskal/serial on one thread, else the solver :func:`parmst.registry.select`
    picks for ``graph``. Its solve function (:func:`parmst.registry.prepare`)
    is called directly: the graph holds no NaN and needs no Forest.
    """
    local_solver = local_solver_name(graph, local_solver, threads)
    given = dict(options or {})
    if "threads" in registry.get(local_solver).options:
        given["threads"] = threads
    _, solve = registry.prepare(local_solver, graph, given)
    return solve(graph, Stats())


def _local_forest(dg: DistributedGraph, local_pos: np.ndarray, lsrc: np.ndarray,
                  ldst: np.ndarray, local_solver: str, threads: int) -> np.ndarray:
    """Indices into ``local_pos`` of the minimum spanning forest of the local edges, sorted:
    this rank's share of the local-forest filter (:mod:`parmst.kernels.local_forest`).

    ``lsrc``, ``ldst`` are the local edges' ends as this rank's local
    indices; :func:`solve_locally` solves them.
    """
    # Held edges are in global id order, so local ids order ties exactly as global ones do.
    graph = Graph(lsrc, ldst, dg.weight[local_pos], dg.ownership.count(dg.rank))
    return local_forest_filter([Share(graph, 0)],
                               lambda share: solve_locally(share, local_solver, threads))


@numba.njit(parallel=True, cache=True)
def _kept_roots(parent, cut_pos):
    """Filter step 3's count: per block of owned vertices (:mod:`parmst._blocks`), the
    roots of the union-find ``parent`` (:mod:`parmst.kernels.unionfind`: a root holds minus
    its size) whose component still has a cut edge (``cut_pos``,
    its lightest one, at least 0)."""
    n = len(parent)
    blocks = num_blocks(n)
    counts = np.zeros((blocks, 1), dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        kept = 0
        for v in range(lo, hi):
            kept += parent[v] < 0 and cut_pos[v] >= 0
        counts[b, 0] = kept
    return counts


@numba.njit(parallel=True, cache=True)
def _component_labels(parent, cut_pos, counts, offset):
    """Filter step 3's numbering, on the rank's threads: the kept roots (``counts`` per
    block, from :func:`_kept_roots`) in label order, and each owned vertex its root's
    label ``offset, offset + 1, ...`` in root order (-1 where its component is finished).

    Each block labels its kept roots from its offset, as the serial numbering
    would; then every other vertex reads its root's label.
    """
    n = len(parent)
    starts = exclusive_sums(counts)
    blocks = len(counts)
    roots = np.empty(starts[blocks, 0], dtype=np.int64)
    label = np.empty(n, dtype=np.int64)
    for b in numba.prange(blocks):
        lo, hi = block_span(b, n)
        j = starts[b, 0]
        for v in range(lo, hi):
            if parent[v] < 0:
                label[v] = -1
                if cut_pos[v] >= 0:
                    roots[j], label[v] = v, offset + j
                    j += 1
    for v in numba.prange(n):
        if parent[v] >= 0:  # roots are labelled, and no thread writes the parents: read only
            label[v] = label[find_read_only(parent, np.int64(v))]
    return roots, label


@numba.njit(parallel=True, cache=True)
def _lightest_of_components(roots, cut_at, src, dst, ids, first, stop):
    """The contracted graph's lightest edge at each of this rank's components, known here.

    A rank holds every edge at its vertices, so each component's lightest
    cut edge is known locally (``cut_at`` at its root), and no edge left in
    the contracted graph at it is lighter: an uncontracted forest edge was
    kept only because both its components had met a lighter cut edge.
    ``src``, ``dst`` are the held edges' range labels, ``first .. stop - 1``
    this rank's. Returns, per component (``roots`` in label order): that
    edge's global id, its far end's label, and the label of its holder end
    (:func:`~parmst.solvers.mpi.held.holder`).
    """
    k = len(roots)
    eid = np.empty(k, dtype=np.int64)
    far = np.empty(k, dtype=np.int64)
    holder_end = np.empty(k, dtype=np.int64)
    for c in numba.prange(k):
        e = cut_at[roots[c]]
        s, d = np.int64(src[e]), np.int64(dst[e])
        eid[c] = ids[e]
        far[c] = d if first <= s < stop else s
        holder_end[c] = holder(s, d, eid[c])
    return eid, far, holder_end


@numba.njit(parallel=True, cache=True)
def _by_local_id(group, label, answer):
    """Each asked label's component: ``label[g]`` for a local id ``g`` owned here, else
    ``answer[g - len(label)]`` (the owner's reply for the ``g``-th distinct far end)."""
    owned = len(label)
    out = np.empty(len(group), dtype=label.dtype)
    for i in numba.prange(len(group)):
        g = group[i]
        out[i] = label[g] if g < owned else answer[g - owned]
    return out


REPEAT_SAMPLE = 4096
"""Far ends sampled (evenly spaced) to estimate how often a request repeats."""

REPEATS_AT_LEAST = 4.0
"""Ask each distinct far end once where a request's far end is asked this many times on
average, as estimated (:func:`_repeats`). On the 2-core VM, 2 ranks x 1 thread,
numbering the far ends cost more than it saved on a uniform random graph (1.33 M
requests to 654 k distinct far ends; the fetch's CPU 66 -> 78 ms per rank) and saved a
little on R-MAT scale 18 (996 k requests to 62 k; 32 -> 30 ms)."""


def _repeats(asked: np.ndarray) -> float:
    """How many times a request's far end is asked, on average over the requests
    (``sum f**2 / n`` for far ends asked ``f`` times of ``n``), estimated from the pairs of
    equal far ends in an evenly spaced sample of :data:`REPEAT_SAMPLE`: two sampled
    requests ask the same far end with probability ``sum f (f - 1) / (n (n - 1))``."""
    n = len(asked)
    sample = asked[::max(1, n // REPEAT_SAMPLE)]
    s = len(sample)
    if s < 2:
        return 1.0
    counts = np.unique(sample, return_counts=True)[1]
    pairs = float((counts * (counts - 1)).sum()) / 2
    return 1.0 + 2.0 * n * pairs / (s * (s - 1))


def _far_labels(channel, asked: np.ndarray, labels: Labels, label: np.ndarray
                ) -> tuple[np.ndarray, int]:
    """The component label of each far end ``asked`` (range labels, int64), and how many
    far ends were fetched.

    On R-MAT a few hub vertices are the far end of very many cut edges, so most requests
    repeat. Where they repeat enough (:data:`REPEATS_AT_LEAST`), the far ends are numbered as
    the owner rounds number their edges' far components
    (:func:`~parmst.solvers.mpi.local_ids.local_ids` on the rank's threads, through its
    dense table where the vertex count allows, else in hash parts), each distinct one is
    asked once, and the replies are placed back by local id; else
    each is asked as it comes, as a numbering costs about what it saves where few repeat.
    """
    if _repeats(asked) < REPEATS_AT_LEAST:
        (far_label,) = channel.fetch(asked, None, labels.first, [label], labels.starts)
        return far_label, len(asked)
    n_owned = len(label)
    group, distinct = local_ids(asked, labels.first, n_owned, bound=int(labels.starts[-1]))
    (answer,) = channel.fetch(distinct[n_owned:], None, labels.first, [label], labels.starts)
    return _by_local_id(group, label, answer), len(distinct) - n_owned


def filter_contract(dg: DistributedGraph, stats: Stats, labels: Labels, local_solver: str,
                    threads: int, kinds: np.ndarray) -> Contracted:
    """Steps 1-3 of filter-boruvka: local forest, safe contraction, contracted graph
    (``kinds``: the held edges of each kind per block, from
    :func:`~parmst.solvers.mpi.filter_boruvka.held_counts`).

    The contracted graph's components are labelled in block-owned ranges;
    each component's lightest edge comes as the owner rounds' first minima,
    found without a message (:func:`_lightest_of_components`).
    """
    channel = dg.channel
    with stats.phase("split-held"):
        local_pos, lsrc, ldst, cut, at, primary, primary_far = _split(dg, labels, kinds)
    with stats.phase("local-forest"):
        in_forest = _local_forest(dg, local_pos, lsrc, ldst, local_solver, threads)
        forest_pos = local_pos[in_forest]
        fa, fb = lsrc[in_forest], ldst[in_forest]
    with stats.phase("edge-keys"):
        keys, key_bits = edge_keys(dg)
    n_owned = labels.stop - labels.first
    if len(cut):
        with stats.phase("lightest-cut"):
            parent = np.full(n_owned, -1, dtype=np.int64)
            shift = id_bits(len(keys))
            cut_key, cut_at = _lightest_cut(at, cut, keys, n_owned,
                                            shift if key_bits + shift < 64 else 0,
                                            numba.get_num_threads() > 1)
        with stats.phase("forest-order"):
            # Gathered in key order first: the scan then reads them in sequence.
            order = _key_order(keys, key_bits, forest_pos)
        with stats.phase("contract-local"):
            in_order = np.zeros(len(forest_pos), dtype=np.bool_)
            _contract_forest(fa[order], fb[order], keys[forest_pos[order]], forest_pos[order],
                             parent, cut_key, cut_at, in_order)
            contracted = np.empty_like(in_order)
            contracted[order] = in_order
    else:  # no cut edge: the local forest is this rank's part of the answer, all of it
        contracted = np.ones(len(forest_pos), dtype=np.bool_)
        parent = np.zeros(0, dtype=np.int64)  # and no component is left here
        cut_at = np.zeros(0, dtype=np.int64)
    with stats.phase("component-labels"):
        kept = _kept_roots(parent, cut_at)
        k_here = int(kept.sum())
    with stats.phase("contract-sync"):  # collectives: their time is the wait for the others
        offset = channel.exscan_int(k_here)
        total = channel.allreduce_int(k_here, "sum")
    with stats.phase("component-labels"):
        roots, label = _component_labels(parent, cut_at, kept, offset)
        lightest, lightest_far, holder_end = _lightest_of_components(
            roots, cut_at, labels.src, labels.dst, dg.edge_ids, labels.first, labels.stop)
    # Per-vertex state is done with: freed before the exchange's buffers.
    del parent, cut_at, roots
    with stats.phase("contract-fetch"):
        # Contracted graph: forest edges left uncontracted, and each cut edge once. The far
        # labels of the components' lightest edges come in the same request.
        asked = np.concatenate([primary_far, lightest_far]).astype(np.int64, copy=False)
        n_primary = len(primary_far)
        del primary_far
        far_label, n_fetched = _far_labels(channel, asked, labels, label)
        far_label, lightest_far_label = far_label[:n_primary], far_label[n_primary:]
        stats.extra["far_ends_asked"] = len(asked)
        stats.extra["far_ends_fetched"] = n_fetched
        del asked
    with stats.phase("contracted-edges"):
        *edges, forest = _contracted_edges(label, fa, fb, forest_pos, contracted, at, cut,
                                           primary, far_label, keys, dg.edge_ids)
        minima = FirstMinima(lightest, lightest_far_label, owner_of(labels.starts, holder_end))
    stats.extra["local_edges"] = len(local_pos)
    stats.extra["cut_edges_held"] = len(cut)
    stats.extra["contracted_edges"] = len(forest)
    stats.extra["components_after_filter"] = total
    return Contracted(forest, RoundEdges(*edges), total, key_bits, offset, k_here, minima)
