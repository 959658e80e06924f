"""ECL-MST on CPU threads (Fallin et al. 2023, Algorithms 1-2, section 3.2).

Edge-centric and data-driven: a worklist of ``(set, set, key, edge_id)``
items, one item per undirected non-loop edge (one direction only); with
packed keys, whose low bits are the edge id, items keep no id of their own
(16 bytes each with int32 vertices). 32-bit weights are packed into keys as
the edges are read, so no pass of its own writes a key per edge. Each
round (Alg. 2 lines 12-38):

* kernel 1 (lines 14-23): look up both endpoint sets, drop items inside
  one set, store the *sets* in the next worklist (implicit path
  compression) and offer the packed key to both sets with a guarded atomic
  minimum;
* kernel 2 (lines 27-33): an edge recorded as lightest by a set is a forest
  edge; join its two sets with a compare-and-swap. The paper checks every
  item against its two sets' records. While items outnumber half the
  vertices we visit each set with a record instead (same edges, far fewer
  random accesses on CPUs' cache-bound graphs); once the worklist has
  shrunk below that, the paper's item-driven form runs, so late rounds
  cost what their few items cost, not a pass over every vertex;
* kernel 3 (lines 34-37): clear the records, of every vertex or, after an
  item-driven kernel 2, of the sets the round's items touched.

Filtering (section 3.2): edges lighter than a sampled threshold
(:func:`parmst.solvers.ecl_host.filter_threshold`) run first; heavy edges
whose endpoints are then already joined are filtered out before the second
run. The paper's GPU settings (20 sampled weights, the ``3 |V|``-th lightest
edge, average degree at least 4) processed 1.4-4.5 worklist items per edge
over all rounds on random-degree and R-MAT graphs. CPU threads' time follows
the items, so we sample :data:`CPU_FILTER_SAMPLES` keys (with 20, the light
part's size varies so much that the items per edge ranged up to 4x those of
the 1,024-sample estimate: 5.9 against 1.4 on random-degree) and aim at the
``|V|``-th lightest edge (``filter_target=1``: the light edges then already
join most vertices, so far fewer heavy ones survive the filter), from
``|E| >= 1.25 |V|`` (``filter_degree``) on: 0.56-1.4 items per edge on those
graphs, and 2.3 instead of 4.3 on Shou and He's sparse graphs
(``|E| = 1.5 |V|``).

Disjoint sets are a plain parent array: a root links under the smaller
root with one compare-and-swap (as ECL-MST's code does); ``find`` halves
paths with atomic stores of ancestors, which never conflict with the CAS
(it only targets roots).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parmst._threads import using_threads
from parmst.order import EdgeKeys, graph_keys, id_bits, weight_key
from parmst.solvers.cpu._atomics import atomic_cas, atomic_load, atomic_store
from parmst.solvers.cpu._common import (
    BLOCK,
    UNSET_ID,
    UNSET_KEY,
    Worklist,
    clear_minima,
    clear_touched_minima,
    flagged_ids,
    new_minima,
    offer,
    singleton_parents,
    ticket_copy,
    won,
)
from parmst.solvers.ecl_host import (
    CPU_FILTER_DEGREE,
    CPU_FILTER_TARGET,
    NO_THRESHOLD,
    filter_threshold,
)
from parmst.stats import Stats

CPU_FILTER_SAMPLES = 1024
"""Keys sampled for the filtering threshold (Fallin et al.'s GPU code samples 20)."""


@numba.njit(cache=True, inline="always")
def _edge_key(source, e, is_float, pack_bits):
    """Edge ``e``'s key (Fallin et al. section 3.2, first bullet) as :func:`parmst.order.edge_keys` makes it.

    ``pack_bits == 0``: ``source`` holds the prepared keys. Otherwise it holds
    32-bit weights' bit patterns, and the packed key ``weight_key << pack_bits | e``
    is made here, so a pass over the edges reads 4 bytes of weight instead of an
    8-byte key written by a pass of its own.
    """
    if pack_bits == 0:
        return np.uint64(source[e])
    k = weight_key(np.uint64(source[e]), is_float, np.uint64(1 << 31))
    return (k << np.uint64(pack_bits)) | np.uint64(e)


@numba.njit(cache=True)
def _keys_at(source, positions, is_float, pack_bits):
    """:func:`_edge_key` of the edges at ``positions`` (the filter threshold's sample)."""
    out = np.empty(len(positions), np.uint64)
    for i in range(len(positions)):
        out[i] = _edge_key(source, positions[i], is_float, pack_bits)
    return out


@dataclass(frozen=True)
class _KeySource:
    """What the populate passes read to get each edge's key: prepared keys, or 32-bit weights.

    Indexing by an array of positions gives those edges' keys, which is all
    :func:`parmst.solvers.ecl_host.filter_threshold` reads.
    """

    source: np.ndarray
    is_float: bool
    pack_bits: int
    keys: EdgeKeys | None

    @classmethod
    def of(cls, graph, mode: str) -> _KeySource:
        """Weights packed on the fly where :func:`parmst.order.edge_keys` would pack 32-bit weights (their
        key and id always fit in 63 bits), otherwise the graph's prepared keys."""
        weight = graph.weight
        bits = id_bits(graph.num_edges)
        if mode != "two-pass" and weight.dtype in (np.int32, np.float32) and 32 + bits <= 63:
            return cls(weight.view(np.uint32), weight.dtype.kind == "f", bits, None)
        prepared = graph_keys(graph, mode)
        return cls(prepared.keys, False, 0, prepared)

    @property
    def packed(self) -> bool:
        return self.keys is None or self.keys.packed

    @property
    def id_bits(self) -> int:
        return self.pack_bits if self.keys is None else self.keys.id_bits

    @property
    def mode(self) -> str:
        return "packed" if self.packed else "two-pass"

    def __len__(self) -> int:
        return len(self.source)

    def __getitem__(self, positions: np.ndarray) -> np.ndarray:
        return _keys_at(self.source, np.asarray(positions, np.int64), self.is_float,
                        self.pack_bits)


@numba.njit(cache=True)
def _find(parent, v):
    """Set representative of ``v``, halving the path with atomic stores of ancestors."""
    node = v
    while True:
        p = atomic_load(parent, node)
        if p == node:
            return node
        grandparent = atomic_load(parent, p)
        if grandparent != p:
            atomic_store(parent, node, grandparent)
        node = grandparent


@numba.njit(cache=True)
def _join(parent, a, b):
    """Union of the sets of ``a`` and ``b``: the larger root links under the smaller (CAS)."""
    while True:
        a = _find(parent, a)
        b = _find(parent, b)
        if a == b:
            return
        high = max(a, b)
        if atomic_cas(parent, high, high, min(a, b)) == high:
            return


@numba.njit(parallel=True, cache=True)
def _populate(src, dst, source, is_float, pack_bits, threshold, heavy, root, out, out_count):
    """Alg. 2 lines 1-11: items for the light (``key < threshold``) or heavy edges joining two sets.

    ``root[v]`` is the set of ``v``: the identity before the first run, the
    compressed parents (:func:`_compress_paths`) before the post-filter run, so
    no ``find`` runs here. Each block gathers its survivors in buffers of its
    own (a few kilobytes, cache-resident) and copies them to ``out`` at one
    ticket; nothing is written in a scratch array as long as the edge list,
    whose pages every call would otherwise fault in afresh.
    """
    for b in numba.prange((len(src) + BLOCK - 1) // BLOCK):
        w_src = np.empty(BLOCK, out[0].dtype)
        w_dst = np.empty(BLOCK, out[1].dtype)
        w_key = np.empty(BLOCK, out[2].dtype)
        w_ids = np.empty(BLOCK if len(out[3]) else 0, out[3].dtype)
        lo = b * BLOCK
        kept = 0
        for e in range(lo, min(lo + BLOCK, len(src))):
            k = _edge_key(source, e, is_float, pack_bits)
            if (k >= threshold) == heavy:
                p = root[src[e]]
                q = root[dst[e]]
                if p != q:
                    w_src[kept] = p
                    w_dst[kept] = q
                    w_key[kept] = k
                    if len(w_ids):
                        w_ids[kept] = e
                    kept += 1
        ticket_copy(0, kept, w_src, w_dst, w_key, w_ids, out[0], out[1], out[2], out[3],
                    out_count)


@numba.njit(parallel=True, cache=True)
def _compress_paths(parent):
    """Point every vertex at its set's root, between the light run and the filter pass.

    Fallin et al. filter heavy edges with a ``find`` per endpoint; one sweep over
    the vertices first makes every later lookup a single read, with no path
    halving stores from many threads into the same hot ancestors (a heavy pass
    reads each vertex ``|E| / |V|`` times over). No join runs meanwhile, so the
    roots are final for the sweep.
    """
    for i in numba.prange(len(parent)):
        v = np.int64(i)  # the prange index's own type does not unify with find's result
        atomic_store(parent, v, _find(parent, v))


@numba.njit(parallel=True, cache=True)
def _kernel1(wl, count, parent, min_key, out, out_count):
    """Alg. 2 lines 14-23: drop items inside one set, store sets, offer keys to both sets."""
    src, dst, key, ids = wl
    for b in numba.prange((count + BLOCK - 1) // BLOCK):
        lo = b * BLOCK
        kept = lo
        for i in range(lo, min(lo + BLOCK, count)):
            p = _find(parent, src[i])
            q = _find(parent, dst[i])
            if p != q:
                k = key[i]
                src[kept] = p
                dst[kept] = q
                key[kept] = k
                if len(ids):  # packed worklists carry no ids
                    ids[kept] = ids[i]
                kept += 1
                offer(min_key, p, k)
                offer(min_key, q, k)
        ticket_copy(lo, kept, src, dst, key, ids, out[0], out[1], out[2], out[3], out_count)


@numba.njit(parallel=True, cache=True)
def _kernel2(min_key, min_id, two_pass, id_mask, src, dst, parent, in_forest):
    """Alg. 2 lines 27-33, visited per set rather than per item: every set that recorded a
    lightest edge joins that edge's two sets and marks it a forest edge.

    The same edges as checking each item against both of its sets' records, with random
    accesses only for the sets (not for every item). An edge recorded by both its
    sets is joined and marked twice, harmlessly.
    """
    for v in numba.prange(len(min_key)):
        if two_pass:
            e = min_id[v]
            if e == UNSET_ID:
                continue
        else:
            k = min_key[v]
            if k == UNSET_KEY:
                continue
            e = np.int64(k & id_mask)
        _join(parent, src[e], dst[e])
        in_forest[e] = True


@numba.njit(parallel=True, cache=True)
def _kernel2_items(wl, count, min_key, min_id, two_pass, id_mask, parent, in_forest):
    """Alg. 2 lines 27-33 as the paper has it: an item that won at either of its sets is a
    forest edge; join the sets and mark it."""
    src, dst, key, ids = wl
    for i in numba.prange(count):
        p = src[i]
        q = dst[i]
        k = key[i]
        e = ids[i] if two_pass else np.int64(k & id_mask)
        if won(min_key, min_id, p, k, e, two_pass) or won(min_key, min_id, q, k, e, two_pass):
            _join(parent, p, q)
            in_forest[e] = True


KERNEL2_MODES = ("auto", "sets", "items")


def _item_driven(kernel2: str, count: int, num_vertices: int) -> bool:
    """Whether a round's kernels 2 and 3 visit its items rather than every vertex."""
    if kernel2 == "auto":
        return 2 * count < num_vertices
    return kernel2 == "items"


def _run_rounds(work: Worklist, graph, parent, min_key, min_id, prepared, in_forest,
                stats, kernel2: str) -> None:
    """Alg. 2 lines 12-39: rounds until the worklist is empty."""
    two_pass = not prepared.packed
    id_mask = np.uint64((1 << prepared.id_bits) - 1)
    while work.count:
        stats.worklist_sizes.append(work.count)
        with stats.phase("kernel1"):
            _kernel1(work.current, work.count, parent, min_key, work.spare, work.spare_count)
        work.swap()
        if not work.count:
            break
        stats.rounds += 1
        if two_pass:
            with stats.phase("kernel1 ties"):
                work.settle_ties(min_key, min_id)
        if _item_driven(kernel2, work.count, graph.num_vertices):
            src, dst = work.current[0], work.current[1]
            with stats.phase("kernel2"):
                _kernel2_items(work.current, work.count, min_key, min_id, two_pass, id_mask,
                               parent, in_forest)
            with stats.phase("kernel3"):
                clear_touched_minima(src, dst, work.count, min_key, min_id, two_pass)
            stats.extra["item_driven_rounds"] = stats.extra.get("item_driven_rounds", 0) + 1
            continue
        with stats.phase("kernel2"):
            _kernel2(min_key, min_id, two_pass, id_mask, graph.src, graph.dst, parent,
                     in_forest)
        with stats.phase("kernel3"):
            clear_minima(min_key, min_id, two_pass)


def _fill(work: Worklist, graph, keys: _KeySource, threshold, heavy, parent) -> None:
    if heavy and threshold:
        _compress_paths(parent)
    _populate(graph.src, graph.dst, keys.source, keys.is_float, keys.pack_bits,
              np.uint64(threshold), heavy, parent, work.spare, work.spare_count)
    work.swap()


def solve(graph, stats: Stats, threads: int | None = None, filtering: bool = True,
          keys: str = "auto", kernel2: str = "auto", filter_target: float = CPU_FILTER_TARGET,
          filter_degree: float = CPU_FILTER_DEGREE) -> np.ndarray:
    """Edge ids of the minimum spanning forest by ECL-MST on CPU threads.

    Parameters
    ----------
    graph : Graph
    stats : Stats
    threads : int, optional
        Numba threads; all cores when None.
    filtering : bool
        Fallin et al.'s single filtering step.
    filter_target : float
        ``c``: the light edges are about the ``c |V|`` lightest (the paper's GPU code: 3).
    filter_degree : float
        Filter only when ``|E| >= filter_degree * |V|`` (the paper's GPU code: 2).
    keys : {"auto", "packed", "two-pass"}
        Key mode of :func:`parmst.order.edge_keys`. 32-bit weights are packed
        on the fly; other keys are prepared once and cached on the graph.
    kernel2 : {"auto", "sets", "items"}
        Whether kernels 2 and 3 visit every vertex ("sets") or the round's
        items ("items"); "auto" switches to items once they are fewer than
        half the vertices.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> parmst.minimum_spanning_forest(g, solver="ecl/cpu", threads=1).edge_ids.tolist()
    [1, 2, 3]
    """
    if kernel2 not in KERNEL2_MODES:
        raise ValueError(f"kernel2 must be one of {KERNEL2_MODES}, got {kernel2!r}")
    if not filter_target > 0 or not filter_degree >= 0:
        raise ValueError(f"filter_target must be positive and filter_degree at least 0, got "
                         f"{filter_target!r} and {filter_degree!r}")
    with using_threads(threads, stats):
        with stats.init():
            prepared = _KeySource.of(graph, keys)
            threshold = filter_threshold(prepared, graph.num_vertices,
                                         samples=CPU_FILTER_SAMPLES, degree=filter_degree,
                                         target=filter_target) if filtering else NO_THRESHOLD
            two_pass = not prepared.packed
            parent = singleton_parents(graph.num_vertices, graph.index_dtype)
            min_key, min_id = new_minima(graph.num_vertices, two_pass)
            in_forest = np.zeros(graph.num_edges, dtype=np.bool_)
            work = Worklist(graph.num_edges, graph.index_dtype, with_ids=two_pass)
        stats.rounds = 0
        stats.extra.update(key_mode=prepared.mode, filter_threshold=int(threshold),
                           filtered=bool(threshold != NO_THRESHOLD))
        with stats.compute():
            # Unfiltered: one run over the edges with key >= 0, i.e. all of them.
            runs = [(threshold, False), (threshold, True)] if threshold != NO_THRESHOLD \
                else [(0, True)]
            for run_threshold, heavy in runs:
                with stats.phase("filter" if heavy and run_threshold else "init"):
                    _fill(work, graph, prepared, run_threshold, heavy, parent)
                _run_rounds(work, graph, parent, min_key, min_id, prepared, in_forest, stats,
                            kernel2)
            chosen = flagged_ids(in_forest)
    return chosen
