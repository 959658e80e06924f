"""Borůvka on a point set with a k-d tree: the rounds shared by ``boruvka-kdtree/serial``
and ``boruvka-kdtree/cpu``.

Each round, every component finds its lightest pair to another component under the
``(key, i, j)`` order, the pairs join components through union-find, and labels are
refreshed (Borůvka's rounds; the per-point query of Prokopenko, Sao and Lebrun-Grandié,
ICPP 2022, on :mod:`parmst.kernels.kdtree`). Four facts keep later rounds cheap:

* a point's answer stays its answer while that point is still in another component
  (the set of outside points only shrinks), so it is not asked again;
* an answer that was absorbed is a lower bound on the point's next answer;
* a component's valid answers bound its lightest outgoing pair from above, so a point
  whose lower bound exceeds that bound is not asked, and the others search under it;
* a copy of a point of its component (equal coordinates, larger input index) never
  holds the lightest pair (:func:`is_copy`), so it is not asked either.

The query loop runs over fixed blocks of tree positions with ``prange``; the tie rule
makes its result independent of the number of threads, and the serial solver is the
same loop on one thread.
"""

from __future__ import annotations

import numba
import numpy as np

from parmst._blocks import block_span, exclusive_sums, num_blocks
from parmst._threads import using_threads
from parmst.errors import ParmstError
from parmst.kernels.distance import mutual_reachability, pair_id, pair_of_id, precedes_pair
from parmst.kernels.kdtree import (
    NO_POINT,
    STACK_SIZE,
    index_dtype,
    nearest_k_all,
    nearest_outside,
    node_components,
    node_minima,
)
from parmst.kernels.kdtree_build import build
from parmst.solvers.cpu._atomics import atomic_load, atomic_min
from parmst.stats import Stats

__all__ = ["NEIGHBOURS", "default_leaf_size", "is_copy", "list_answer", "solve"]

NEIGHBOURS = 8
"""Nearest neighbours listed per point for plain distances (with ``min_samples``, half as
many beyond the core neighbours): a point's answer while one of them is outside its
component, its lower bound after."""

def default_leaf_size(d: int) -> int:
    """Points per leaf when the caller gives none: 16 up to three dimensions, 32 above.

    Measured on one thread (uniform points): smaller leaves make the neighbour lists
    cheaper in two dimensions (0.78 s against 0.92 s for 10^6 points), make no
    difference in three, and cost 12% in five, where a point's neighbours spread over
    more leaves.

    Examples
    --------
    >>> default_leaf_size(2), default_leaf_size(5)
    (16, 32)
    """
    return 16 if d <= 3 else 32


_NO_PAIR = np.int64(np.iinfo(np.int64).max)  # above every pair id
_INF_BITS = np.array([np.inf]).view(np.int64)[0]
"""The bits of inf. Keys are never negative (nor -0.0), so their float64 bits, read as
int64 (``keys.view(np.int64)``), order as the keys do: an atomic integer minimum on them is
a minimum of keys."""

_BLOCK = 256
"""Query points per ``prange`` iteration: one scratch stack each, few enough for balance."""

_BLOCK_CHUNK = 4
"""Blocks a thread takes at a time in :func:`_answer_round` (dynamic scheduling: after the
first rounds the points that search gather along the components' borders, so equal shares
of the blocks per thread are unequal work)."""


@numba.njit(cache=True, parallel=True)
def _list_answers(comp, order, near, near_key, core2, mutual, cursor, answer, answer_key,
                  answer_bits, lead, lead_bits, bits):
    """:func:`list_answer` for every point, and each component's bound: per component
    root, in ``bits`` (reset to :data:`_INF_BITS` by :func:`_next_round`), the smallest key
    among its points' answers and their list leads (``answer_bits`` and ``lead_bits``:
    ``answer_key`` and ``lead`` as bits), an upper bound on its lightest outgoing pair (inf where none). Points in
    parallel, each lowering its root's bound by an atomic minimum (keys as bits:
    :data:`_INF_BITS`)."""
    for q in numba.prange(len(comp)):
        list_answer(comp, order, near, near_key, core2, mutual, cursor, answer, answer_key,
                    lead, q)
        # Every answer left is outside the point's component: list_answer cleared the
        # absorbed ones.
        key = answer_bits[q] if answer[q] != NO_POINT else _INF_BITS
        _lower(bits, comp[q], min(key, lead_bits[q]))


@numba.njit(cache=True, inline="always")
def list_answer(comp, order, near, near_key, core2, mutual, cursor, answer, answer_key,
                lead, q):
    """Answer point ``q`` from its neighbour list if its answer was absorbed (also a device
    function of ``boruvka-bvh/gpu``).

    A point's list holds its first pairs in ``(d2, index)`` order. For plain distances
    that is the ``(key, pair id)`` order, so the first entry still outside the point's
    component is its exact answer. For mutual reachability the best outside entry under
    ``(key, pair id)`` is exact only if its key is below ``max(core2[q], d2 of the last
    entry)``, which every pair off the list reaches; else it is a real pair that bounds
    the component from above (``lead``). A point left without an answer gets the lower
    bound the list proves. The cursor skips the entries already inside the component:
    components only grow. A list spent in an earlier round is not read again (its
    bound is in ``answer_key`` already).
    """
    n, k = near.shape
    p = answer[q]
    lead[q] = np.inf
    if p != NO_POINT and comp[p] != comp[q]:
        return
    c = cursor[q]
    if c == k:
        # Spent in an earlier round, which raised the lower bound to what the list
        # proves; a later answer or bound is at least that, so nothing here changes.
        answer[q] = NO_POINT
        return
    while c < k and comp[near[q, c]] == comp[q]:
        c += 1
    cursor[q] = c
    best, best_key, best_id = NO_POINT, np.inf, _NO_PAIR
    for s in range(c, k):
        if near_key[q, s] > best_key:
            break  # keys are at least the squared distance, which only grows
        p = near[q, s]
        if comp[p] == comp[q]:
            continue
        key = mutual_reachability(core2, q, p, near_key[q, s])
        if key <= best_key:
            ident = pair_id(order[q], order[p], n)
            if precedes_pair(key, ident, best_key, best_id):
                best, best_key, best_id = p, key, ident
    off_list = max(core2[q], near_key[q, k - 1])
    if best != NO_POINT and (best_key < off_list or not mutual):
        answer[q], answer_key[q] = best, best_key
    else:
        answer[q] = NO_POINT
        answer_key[q] = max(answer_key[q], min(off_list, best_key))
        lead[q] = best_key


@numba.njit(cache=True, parallel=True)
def _answer_round(points, order, start, end, lo, hi, min_index, first_leaf, comp, node_comp,
                  core2, node_core, bound, bits, answer, answer_key, answer_bits):
    """Search the tree for every point without an answer whose answer may be its
    component's lightest pair; returns how many points searched and how many leaves
    their searches scanned.

    A point whose lower bound (``answer_key``) exceeds its component's bound (``bound``;
    ``bits`` the same array as bits, :data:`_INF_BITS`) is skipped, and so is a copy
    (:func:`is_copy`) of the point that last searched (or of the point that was a copy
    of: tested only for points about to search, it costs the rounds nothing where no
    point repeats). The others search
    under that bound, tightened by the answers found for the same component earlier in the block (points
    in tree order are neighbours, so runs of one component are common): every bound is
    the key of a real pair, so the component's lightest pair is never pruned. A found
    answer lowers its component's bound, so that afterwards ``bits`` holds each
    component's lightest key: its lightest pair is some point's answer, either valid
    before (and then in the bound already) or found here, and no bound is below it
    (``answer_bits``: ``answer_key`` as bits).
    """
    n = len(points)
    blocks = (n + _BLOCK - 1) // _BLOCK
    searched = np.zeros(blocks, dtype=np.int64)
    scanned = np.zeros(blocks, dtype=np.int64)
    for b in numba.prange(blocks):
        stack = np.empty(STACK_SIZE, dtype=np.int64)
        stack_bound = np.empty(STACK_SIZE)
        run_comp, run_key = NO_POINT, np.inf
        copy = NO_POINT  # the last point to search, or the copy it was of
        for q in range(b * _BLOCK, min(n, (b + 1) * _BLOCK)):
            if answer[q] != NO_POINT:
                continue
            c = comp[q]
            if c != run_comp:
                run_comp, run_key = c, bound[c]
            if answer_key[q] > run_key:
                continue
            if copy != NO_POINT and is_copy(points, order, comp, copy, q):
                continue
            copy = q
            searched[b] += 1
            p, key, leaves = nearest_outside(points, order, start, end, lo, hi, min_index,
                                             first_leaf, comp, node_comp, core2, node_core, q,
                                             run_key, stack, stack_bound)
            scanned[b] += leaves
            answer[q] = p
            # Found: the exact answer. Not found: every outside key exceeds the bound.
            answer_key[q] = key if p != NO_POINT else run_key
            if p != NO_POINT:
                _lower(bits, c, answer_bits[q])
            run_key = min(run_key, key)
    return searched.sum(), scanned.sum()


@numba.njit(cache=True, inline="always")
def is_copy(points, order, comp, a, q):
    """Whether point ``q`` is a copy of point ``a`` (tree positions): equal coordinates, the
    same component, a larger input index (also a device function of ``boruvka-bvh/gpu``).

    A copy's answer is never its component's lightest pair, so it need not search: equal
    coordinates give equal core distances and equal keys to every other point ``p``, and
    the pair ``(a, p)`` has the smaller id (for every ``p``, the pair with the smaller of
    two indices comes first). Many copies of one point otherwise all search in every
    round once their lists hold only each other.
    """
    if comp[a] != comp[q] or order[q] < order[a]:
        return False
    for k in range(points.shape[1]):
        if points[a, k] != points[q, k]:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _lower(bits, c, value):
    """``bits[c] = min(bits[c], value)``, atomically (guarded: most calls change nothing)."""
    if value < atomic_load(bits, c):
        atomic_min(bits, c, value)


@numba.njit(cache=True, parallel=True)
def _lightest_answers(comp, order, answer, answer_bits, bits, best_id, best):
    """Fill ``best_id``: each component's lightest answer under ``(key, pair id)``, by its
    pair id, and ``best``: the point holding it (Fallin et al.'s two-pass minimum, as
    ``boruvka-bvh/gpu``: the key's bits by atomic minimum, here already in ``bits`` from
    :func:`_list_answers` and :func:`_answer_round`, then the smallest pair id among the
    answers at that key; a float64 key and a pair id do not pack into one word). Points
    in parallel; ``best_id`` comes reset (:func:`_next_round`). The point is stored after
    each lowering of the id, with no second pass over the points: where two threads
    lower one component's id at once (answers of equal keys) the last store may name
    the larger id, which :func:`_hook` detects. Every answer is outside its point's
    component here, so none is read twice."""
    n = len(comp)
    # Few points hold their component's smallest key: test that first.
    for q in numba.prange(n):
        if answer_bits[q] == bits[comp[q]] and answer[q] != NO_POINT:
            ident = pair_id(order[q], order[answer[q]], n)
            if ident < atomic_load(best_id, comp[q]):
                atomic_min(best_id, comp[q], ident)
                best[comp[q]] = q


@numba.njit(cache=True, parallel=True)
def _link(roots, comp, order, position, answer, best_id, best, link, counts):
    """Borůvka's hooking, the components in parallel (blocks of :mod:`parmst._blocks` over
    ``roots``, the labels of the round's components): each component links to the
    component across its lightest pair (``best_id``, held by point ``best``). Under a
    strict total order these links form a forest but for two components that chose the
    same pair, which link to each other: of those two the smaller label stays a root (it
    links to itself) and records the pair, so each chosen pair is recorded once, as the
    serial union-find's hooking would. ``counts[b]``: block ``b``'s recorded pairs and
    roots that stay, for :func:`_emit`. Where ``best`` holds another pair than
    ``best_id`` (a race of :func:`_lightest_answers`), the pair is read back from its id
    (``position``: each input index's tree position)."""
    n, m = len(order), len(roots)
    for b in numba.prange(num_blocks(m)):
        recorded = stays = 0
        lo, hi = block_span(b, m)
        for r in range(lo, hi):
            c = roots[r]
            ident = best_id[c]
            if ident == _NO_PAIR:  # no pair found: a bug, which the caller reports
                link[c] = c
                stays += 1
                continue
            q = best[c]
            p = answer[q]
            if pair_id(order[q], order[p], n) != ident:
                i, j = pair_of_id(ident, n)
                q, p = position[i], position[j]
                if comp[q] != c:
                    p = q
            target = comp[p]
            if best_id[target] != ident or c < target:
                recorded += 1
            if best_id[target] == ident and c < target:
                link[c] = c
                stays += 1
            else:
                link[c] = target
        counts[b, 0], counts[b, 1] = recorded, stays


@numba.njit(cache=True, parallel=True)
def _jump(roots, link):
    """One pointer-jumping sweep over the components' links (``link[c] = link[link[c]]``,
    in place; a concurrent read sees an older or newer link, both on the way to the
    same root); returns how many changed (none: every link names its tree's root)."""
    changed = 0
    for r in numba.prange(len(roots)):
        c = roots[r]
        up = link[link[c]]
        if up != link[c]:
            link[c] = up
            changed += 1
    return changed


@numba.njit(cache=True, parallel=True)
def _emit(roots, link, offsets, best_id, bound, first, second, keys, count, next_roots):
    """After :func:`_link`: write the pairs the components record (input indices
    ``first < second``, key from ``bound``) from position ``count`` on, and the labels
    that stay roots into ``next_roots``, each block from its offset in ``offsets``
    (:func:`parmst._blocks.exclusive_sums` of :func:`_link`'s counts): the order of
    ``roots`` on any number of threads. A component records its pair unless the
    component it links to chose the same pair (and so records it as a root)."""
    n, m = len(best_id), len(roots)
    for b in numba.prange(num_blocks(m)):
        e, s = count + offsets[b, 0], offsets[b, 1]
        lo, hi = block_span(b, m)
        for r in range(lo, hi):
            c = roots[r]
            ident = best_id[c]
            if link[c] == c:
                next_roots[s] = c
                s += 1
            if ident != _NO_PAIR and (link[c] == c or best_id[link[c]] != ident):
                first[e], second[e] = pair_of_id(ident, n)
                keys[e] = bound[c]
                e += 1


@numba.njit(cache=True, parallel=True)
def _relabel(comp, link, roots, bits, best_id):
    """Each point's component after the hooking (``link`` of its old label, jumped to
    its tree's root: :func:`_jump`), and the components' scratch of the next round reset
    (``bits`` to :data:`_INF_BITS`, ``best_id`` to none: only the old labels were set)."""
    for q in numba.prange(len(comp)):
        comp[q] = link[comp[q]]
    for r in numba.prange(len(roots)):
        bits[roots[r]], best_id[roots[r]] = _INF_BITS, _NO_PAIR


@numba.njit(cache=True, parallel=True)
def _first_round(order, comp, roots, answer, answer_key, cursor, bits, best_id, position):
    """The state before the first round, in one parallel pass (the pages of these
    arrays are first written by the threads, not by one NumPy fill): every point its own
    component, no answer, its list unread; the components' scratch reset; each input
    index's tree position in ``position``."""
    for q in numba.prange(len(order)):
        comp[q] = roots[q] = q
        answer[q] = NO_POINT
        answer_key[q] = 0.0
        cursor[q] = 0
        bits[q], best_id[q] = _INF_BITS, _NO_PAIR
        position[order[q]] = q


def solve(x: np.ndarray, stats: Stats, *, min_samples: int | None, leaf_size: int | None,
          threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The minimum spanning tree of the float64 points ``x`` by k-d tree Borůvka
    (``leaf_size`` None: :func:`default_leaf_size`).

    Returns ``(first, second, key)``: input indices ``first < second`` of each tree
    pair and its squared (mutual-reachability) distance, in the order found.
    """
    n = len(x)
    if leaf_size is None:
        leaf_size = default_leaf_size(x.shape[1])
    mutual = min_samples is not None and min_samples > 1
    with using_threads(threads, stats):
        with stats.init():
            with stats.phase("build-tree"):
                tree = build(x, leaf_size)
            with stats.phase("neighbours"):
                # With mutual reachability the list reaches past the core distance, else
                # no entry could be proved an answer.
                k = NEIGHBOURS if not mutual else max(NEIGHBOURS,
                                                      min_samples - 1 + NEIGHBOURS // 2)
                near, near_key = nearest_k_all(tree, min(k, n - 1), stats)
            core2 = np.zeros(n)
            if mutual:
                core2 = np.ascontiguousarray(near_key[:, min_samples - 2])
            node_core = node_minima(core2, tree.start, tree.end, tree.first_leaf)
        with stats.compute():
            return _rounds(tree, core2, node_core, near, near_key, mutual, stats)


def _rounds(tree, core2: np.ndarray, node_core: np.ndarray, near: np.ndarray,
            near_key: np.ndarray, mutual: bool, stats: Stats):
    """Borůvka rounds until one tree spans the points; the pairs in ``(i, j)`` order."""
    n = len(tree.order)
    index = index_dtype(n)  # positions and labels: int32 below 2^31 points
    comp = np.empty(n, dtype=index)
    roots = np.empty(n, dtype=index)  # the labels of the round's components
    next_roots = np.empty(n, dtype=index)
    link = np.empty(n, dtype=index)  # per label: the component it joins
    node_comp = np.empty(tree.num_nodes, dtype=index)
    answer = np.empty(n, dtype=index)
    answer_key = np.empty(n)
    cursor = np.empty(n, dtype=index)
    lead = np.empty(n)
    bound_bits = np.empty(n, dtype=np.int64)  # scratch of the component minima
    best_id = np.empty(n, dtype=np.int64)
    best = np.empty(n, dtype=index)  # read only where best_id was set in the same round
    position = np.empty(n, dtype=index)  # the tree position of each input index
    _first_round(tree.order, comp, roots, answer, answer_key, cursor, bound_bits, best_id,
                 position)
    counts = np.empty((num_blocks(n), 2), dtype=np.int64)
    first = np.empty(n - 1, dtype=np.int64)
    second = np.empty(n - 1, dtype=np.int64)
    keys = np.empty(n - 1)
    count, rounds, m = 0, 0, n
    stats.extra["query_leaves"] = 0
    while count < n - 1:
        rounds += 1
        with stats.phase("labels"):
            _list_answers(comp, tree.order, near, near_key, core2, mutual, cursor, answer,
                          answer_key, answer_key.view(np.int64), lead, lead.view(np.int64),
                          bound_bits)
            node_components(comp, tree.start, tree.end, tree.first_leaf, node_comp)
        with stats.phase("queries"), numba.parallel_chunksize(_BLOCK_CHUNK):
            searched, scanned = _answer_round(tree.points, tree.order, tree.start, tree.end,
                                              tree.lo, tree.hi, tree.min_index,
                                              tree.first_leaf, comp, node_comp, core2,
                                              node_core, bound_bits.view(np.float64),
                                              bound_bits, answer, answer_key,
                                              answer_key.view(np.int64))
        stats.worklist_sizes.append(int(searched))
        stats.extra["query_leaves"] += int(scanned)
        with stats.phase("hook"):
            _lightest_answers(comp, tree.order, answer, answer_key.view(np.int64), bound_bits,
                              best_id, best)
            _link(roots[:m], comp, tree.order, position, answer, best_id, best, link, counts)
            offsets = exclusive_sums(counts[:num_blocks(m)])
            recorded, stay = int(offsets[-1, 0]), int(offsets[-1, 1])
            if recorded == 0:  # every round joins components: anything else is a bug
                raise ParmstError(f"k-d tree Borůvka found no pair in round {rounds} with "
                                  f"{n - count} components left; please report this input")
            _emit(roots[:m], link, offsets, best_id, bound_bits.view(np.float64), first, second,
                  keys, count, next_roots)
            sweeps = 0
            while _jump(roots[:m], link):
                sweeps += 1  # a path of 2^s links takes s sweeps
                if sweeps > 64:
                    raise ParmstError(f"k-d tree Borůvka's links of round {rounds} form a "
                                      "cycle; please report this input")
            _relabel(comp, link, roots[:m], bound_bits, best_id)
            roots, next_roots = next_roots, roots
            count, m = count + recorded, stay
    stats.rounds = rounds
    return first, second, keys
