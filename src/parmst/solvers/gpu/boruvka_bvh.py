"""``boruvka-bvh/gpu``: Borůvka rounds on a point set with a tree of boxes built on the device.

Prokopenko, Sao and Lebrun-Grandié, "A single-tree algorithm to compute the Euclidean
minimum spanning tree on GPUs" (ICPP 2022): every round, every point asks the tree for its
nearest point in another component (Algorithm 2; the k-d tree's own query,
:func:`~parmst.kernels.kdtree.nearest_outside`, compiled for the device), pruning nodes
whose points all share its component (labels refreshed bottom-up each round, section 4.2)
and nodes beyond its component's best pair so far (their shared upper bound, section 4.3:
a float ``atomicMin`` per component that every query of the component reads, started each
round from the pairs of consecutive tree positions that join two components, as ArborX's
``resetSharedRadii`` does from Morton neighbours). Each component's lightest pair under
``(key, i, j)`` is settled in two passes, the key by ``atomicMin``, then the smallest
pair id among the pairs holding it (Fallin et al.'s two-pass minimum for keys that do not
pack into one word), and the winning pairs join their components through ECL-MST's
lock-free union-find (:func:`parmst.solvers.gpu._kernels.join`), then every point reads its
new root. The tree is a k-d tree of tight boxes (a bounding-volume hierarchy) built on the
device (:mod:`parmst.solvers.gpu._point_tree`), where Prokopenko et al. order the points
along a Morton curve.

As in :mod:`parmst.solvers.kdtree_boruvka` (whose per-point step,
:func:`~parmst.solvers.kdtree_boruvka.list_answer`, runs here as a device function), every
point may first list its ``neighbours`` nearest points (one search per point, where the
CPU runs one per leaf), which answer most queries of the first rounds without a search; with
``neighbours=0`` there are no lists, and the first round searches for every point, as
Prokopenko et al. do. A point's answer stays its answer while its point is still outside
the component (outside points only become fewer), so it is not asked again; an absorbed
answer's key bounds the next one from below, and a point whose lower bound exceeds its
component's bound does not search. Mutual reachability takes the core distances from
lists of ``min_samples - 1`` neighbours whatever ``neighbours`` says (they answer nothing
there: they order plain distances).

The tree's pairs go back to the host in the order of their ids: grouped by first index on
the device by a counting sort (:func:`parmst._cuda.arrays.group_order`), each group then put
in order by its second index, or sorted by id with the radix sort (``pair_sort="radix"``,
and wherever a group is too long for one thread).

Both searches, the lists' and the rounds', are the k-d tree's
(:func:`~parmst.kernels.kdtree.nearest_k_point`, :func:`~parmst.kernels.kdtree.nearest_outside`);
by default the 32 searches of a warp walk the tree together
(:mod:`parmst.solvers.gpu._packet_search`, ``walk="warp"``), or each thread walks alone
(``walk="thread"``).

Keys are the squared distances of :mod:`parmst.kernels.distance` with the device's
arithmetic made the CPU's (:mod:`parmst.kernels.distance_cuda`), so the pairs are exactly
those of the CPU solvers.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import cuda

import parmst.kernels.distance_cuda  # noqa: F401  (CUDA's add_square: before any kernel compiles)
from parmst import _pair_order
from parmst._cuda import arrays, pool, runtime
from parmst.errors import PointsValueError
from parmst.kernels import distance, kdtree
from parmst.kernels.distance import pair_id
from parmst.kernels.kdtree import NO_POINT
from parmst.solvers import kdtree_boruvka
from parmst.solvers.gpu import _device, _point_tree
from parmst.solvers.gpu._kernels import find, join
from parmst.solvers.gpu._packet_search import (
    nearest_k_packet,
    nearest_outside_packet,
    warp_rounded,
)
from parmst.solvers.gpu._simulated import for_kernels
from parmst.stats import Stats

__all__ = ["PAIR_SORTS", "WALKS", "solve"]

STACK = 64
"""Entries of a query's stack: a depth-first search keeps at most one pending node per level
plus one, and the tree has at most 31 levels (int32 positions)."""

_NO_ID = np.int64(2**63 - 1)

QUERY_BLOCK = 128
"""Threads per block of the query kernels: their stacks live in local memory, so fewer
threads a block than the edge kernels' 512; with :data:`QUERY_REGISTERS`, blocks of 128
let the register file hold more warps than blocks of 256."""

QUERY_REGISTERS = 56
"""Registers per thread of the warp-walk query kernels (uncapped: 72 and 80, three blocks
of 256 threads an SM, 37.5 % occupancy; the searches wait on dependent arithmetic and
loads, so more warps hide more of it). H100, 37 M clustered points, with blocks of 128:
lists 0.195 -> 0.178 s, searches 0.078-0.082 -> 0.073 s; a cap of 48 spilled more and
gained less. Compiled by :func:`parmst._cuda.runtime.kernel_jit`."""


WALKS = ("warp", "thread")
"""How a query kernel walks the tree: the 32 searches of a warp together
(:mod:`parmst.solvers.gpu._packet_search`), or each thread its own search."""

PAIR_SORTS = ("counting", "radix")
"""How the tree's pairs are put in id order on the device: grouped by first index (a
counting sort, then each group by second index), or a radix sort of their ids."""

GROUP_LIMIT = 64
"""Pairs of one first index that one thread puts in order; a longer group (a point with
many copies is the centre of a star) sends the pairs to the radix sort instead."""


leaf_component = for_kernels(kdtree.leaf_component)
nearest_k_point = for_kernels(kdtree.nearest_k_point)
nearest_outside = for_kernels(kdtree.nearest_outside)
list_answer = for_kernels(kdtree_boruvka.list_answer)
is_copy = for_kernels(kdtree_boruvka.is_copy)
sort_run = for_kernels(_pair_order.sort_run)
squared_distance = for_kernels(distance.squared_distance)
mutual_reachability = for_kernels(distance.mutual_reachability)


@cuda.jit(cache=True)
def _neighbours(points, order, start, end, lo, hi, min_index, first_leaf, near, near_key,
                core2, core_column):
    """Each point's ``k`` nearest other points and their squared distances, one thread per
    point (:func:`~parmst.kernels.kdtree.nearest_k_point`; consecutive threads take
    consecutive points of the tree's order, so a warp's searches visit the same nodes);
    with ``core_column >= 0``, each point's squared core distance too: the key in that
    column, the point itself counted first."""
    stack = cuda.local.array(STACK, np.int64)
    stack_bound = cuda.local.array(STACK, np.float64)
    for q in range(cuda.grid(1), points.shape[0], cuda.gridsize(1)):
        nearest_k_point(points, order, start, end, lo, hi, min_index, first_leaf, q, near,
                        near_key, stack, stack_bound)
        if core_column >= 0:
            core2[q] = near_key[q, core_column]


@runtime.kernel_jit(QUERY_REGISTERS)
def _neighbours_warp(points, order, start, end, lo, hi, min_index, first_leaf, near, near_key,
                     core2, core_column):
    """:func:`_neighbours` with the searches of a warp walking the tree together
    (:func:`~parmst.solvers.gpu._packet_search.nearest_k_packet`)."""
    stack = cuda.local.array(STACK, np.int64)
    stack_bound = cuda.local.array(STACK, np.float64)
    n = points.shape[0]
    for q in range(cuda.grid(1), warp_rounded(n), cuda.gridsize(1)):
        active = q < n
        nearest_k_packet(points, order, start, end, lo, hi, min_index, first_leaf, q, active,
                         near, near_key, stack, stack_bound)
        if active and core_column >= 0:
            core2[q] = near_key[q, core_column]


@cuda.jit(cache=True)
def _list_answers(comp, order, near, near_key, core2, cursor, answer, answer_key, lead):
    """:func:`~parmst.solvers.kdtree_boruvka.list_answer` for every point, plain distances
    (the lists are kept only then): most answers come from the neighbour lists, without a
    search."""
    for q in range(cuda.grid(1), comp.shape[0], cuda.gridsize(1)):
        list_answer(comp, order, near, near_key, core2, False, cursor, answer, answer_key,
                    lead, q)


@cuda.jit(cache=True)
def _leaf_components(comp, start, end, first_leaf, node_comp):
    """Every leaf's label (:func:`~parmst.kernels.kdtree.leaf_component`)."""
    for v in range(first_leaf + cuda.grid(1), start.shape[0], cuda.gridsize(1)):
        node_comp[v] = leaf_component(comp, start, end, v)


@cuda.jit(cache=True)
def _inner_components(first, count, node_comp):
    """One level's labels from their children's: shared, or -1."""
    for c in range(cuda.grid(1), count, cuda.gridsize(1)):
        v = first + c
        left = node_comp[2 * v + 1]
        node_comp[v] = left if left == node_comp[2 * v + 2] else -1


@cuda.jit(cache=True)
def _keep_answers(comp, answer, answer_key, bound, best_id):
    """Start a round: every component's bound is the smallest key among its points' answers
    still pointing outside it; an answer that was absorbed is dropped (its key stays, as a
    lower bound). Roots' tie-breaking ids are reset."""
    for q in range(cuda.grid(1), comp.shape[0], cuda.gridsize(1)):
        if comp[q] == q:
            best_id[q] = _NO_ID
        p = answer[q]
        if p != NO_POINT:
            if comp[p] != comp[q]:
                cuda.atomic.min(bound, comp[q], answer_key[q])
            else:
                answer[q] = NO_POINT


@cuda.jit(cache=True)
def _seed_bounds(points, comp, core2, bound):
    """Lower every component's bound to the key of each pair of consecutive tree positions
    that joins it to another component: neighbours in the tree's order are mostly near
    (the same leaf, or leaves of one parent), so the bound starts near the component's
    lightest pair even where no answer is left (ArborX's ``resetSharedRadii`` from Morton
    neighbours, Prokopenko et al. section 4.3). Every such key is a real pair's,
    so no bound drops below its component's lightest pair."""
    for t in range(cuda.grid(1), comp.shape[0] - 1, cuda.gridsize(1)):
        a = comp[t]
        b = comp[t + 1]
        if a != b:
            key = mutual_reachability(core2, t, t + 1, squared_distance(points, t, points, t + 1))
            if key < bound[a]:
                cuda.atomic.min(bound, a, key)
            if key < bound[b]:
                cuda.atomic.min(bound, b, key)


@cuda.jit(cache=True)
def _flag_queries(points, order, comp, answer, answer_key, bound, flags):
    """The points that must search: no answer, a lower bound within their component's
    bound, and not a copy of the point before them in tree order
    (:func:`~parmst.solvers.kdtree_boruvka.is_copy`): others cannot hold its lightest
    pair."""
    for q in range(cuda.grid(1), comp.shape[0], cuda.gridsize(1)):
        search = answer[q] == NO_POINT and answer_key[q] <= bound[comp[q]]
        flags[q] = 1 if search and (q == 0 or not is_copy(points, order, comp, q - 1, q)) else 0


@cuda.jit(cache=True)
def _queries(points, order, start, end, lo, hi, min_index, first_leaf, comp, node_comp, core2,
             node_core, bound, answer, answer_key, worklist):
    """Prokopenko et al. Algorithm 2 for the listed points (consecutive threads take
    consecutive points, neighbours in tree order): the search runs under the component's
    bound, and a pair found lowers it for the component's other queries. Not found: every
    outside key exceeds the bound read, which becomes the point's lower bound."""
    stack = cuda.local.array(STACK, np.int64)
    stack_bound = cuda.local.array(STACK, np.float64)
    for i in range(cuda.grid(1), worklist.shape[0], cuda.gridsize(1)):
        q = worklist[i]
        c = comp[q]
        limit = bound[c]
        if answer_key[q] > limit:  # lowered since the point was listed
            continue
        p, key, _ = nearest_outside(points, order, start, end, lo, hi, min_index, first_leaf,
                                    comp, node_comp, core2, node_core, q, limit, stack,
                                    stack_bound)
        if p != NO_POINT:
            answer[q] = p
            answer_key[q] = key
            cuda.atomic.min(bound, c, key)
        else:
            answer_key[q] = limit


@runtime.kernel_jit(QUERY_REGISTERS)
def _queries_warp(points, order, start, end, lo, hi, min_index, first_leaf, comp, node_comp,
                  mutual, core2, node_core, bound, answer, answer_key, worklist):
    """:func:`_queries` with the searches of a warp walking the tree together
    (:func:`~parmst.solvers.gpu._packet_search.nearest_outside_packet`; ``mutual``: the
    keys are mutual-reachability distances)."""
    stack = cuda.local.array(STACK, np.int64)
    stack_bound = cuda.local.array(STACK, np.float64)
    count = worklist.shape[0]
    for i in range(cuda.grid(1), warp_rounded(count), cuda.gridsize(1)):
        active = i < count
        q = worklist[i] if active else worklist[0]
        c = comp[q]
        limit = bound[c]
        if answer_key[q] > limit:  # lowered since the point was listed
            active = False
        p, key = nearest_outside_packet(points, order, start, end, lo, hi, min_index,
                                        first_leaf, comp, node_comp, mutual, core2, node_core, q,
                                        active, limit, stack, stack_bound)
        if active:
            if p != NO_POINT:
                answer[q] = p
                answer_key[q] = key
                cuda.atomic.min(bound, c, key)
            else:
                answer_key[q] = limit


@cuda.jit(cache=True)
def _tie_ids(order, comp, answer, answer_key, bound, best_id):
    """Second pass of the two-pass minimum: among its points' answers at the component's
    smallest key, the smallest pair id."""
    n = comp.shape[0]
    for q in range(cuda.grid(1), n, cuda.gridsize(1)):
        p = answer[q]
        if p != NO_POINT and answer_key[q] == bound[comp[q]]:
            cuda.atomic.min(best_id, comp[q], pair_id(order[q], order[p], n))


@cuda.jit(cache=True)
def _hook(order, comp, answer, answer_key, bound, best_id, parent, count, first, second, keys):
    """Borůvka's hooking: the point holding its component's lightest pair joins the two
    components (ECL-MST's lock-free ``join``) and records the pair, once where two
    components chose the same pair (the smaller component records it)."""
    n = comp.shape[0]
    for q in range(cuda.grid(1), n, cuda.gridsize(1)):
        p = answer[q]
        c = comp[q]
        if p == NO_POINT or answer_key[q] != bound[c]:
            continue
        ident = pair_id(order[q], order[p], n)
        if ident != best_id[c]:
            continue
        other = comp[p]
        if best_id[other] != ident or c < other:
            slot = cuda.atomic.add(count, 0, 1)
            first[slot] = min(order[q], order[p])
            second[slot] = max(order[q], order[p])
            keys[slot] = answer_key[q]
        join(parent, c, other)


@cuda.jit(cache=True)
def _relabel(parent, comp, bound):
    """Every point's component: its union-find root; roots' bounds reset for the next round."""
    for q in range(cuda.grid(1), comp.shape[0], cuda.gridsize(1)):
        comp[q] = find(parent, q)
        bound[q] = np.inf


@cuda.jit(cache=True)
def _compress(parent, comp):
    """Parents point straight at the roots (after :func:`_relabel` has read them all)."""
    for q in range(cuda.grid(1), comp.shape[0], cuda.gridsize(1)):
        parent[q] = comp[q]


@cuda.jit(cache=True)
def _pair_ids(first, second, n, ids):
    """Each tree pair's id: its place in the ``(i, j)`` order."""
    for e in range(cuda.grid(1), ids.shape[0], cuda.gridsize(1)):
        ids[e] = pair_id(first[e], second[e], n)


@cuda.jit(cache=True)
def _order_groups(second, order, starts, too_long):
    """Each group of ``order`` (the pairs of one first index, from ``starts``) in order of
    the pairs' ``second``, one thread a group (:func:`parmst._pair_order.sort_run`); a
    group of more than :data:`GROUP_LIMIT` pairs sets ``too_long[0]`` instead."""
    for i in range(cuda.grid(1), starts.shape[0] - 1, cuda.gridsize(1)):
        if starts[i + 1] - starts[i] > GROUP_LIMIT:
            too_long[0] = 1
        else:
            sort_run(order, second, starts[i], starts[i + 1])


def _id_order(first: Any, second: Any, n: int, pair_sort: str) -> Any:
    """Positions of the ``n - 1`` pairs in the order of their ids, on the device.

    ``"counting"``: grouped by first index (:func:`parmst._cuda.arrays.group_order`: three
    launches), then each group by second index; a tree's groups are short (a point's
    neighbours of larger index), so that is a few passes over the pairs where the radix
    sort of 2 log2(n)-bit ids makes 13 at 37 M points, each pass a count, a scan and a
    scatter. ``"radix"``, or a group longer than :data:`GROUP_LIMIT`: the radix sort.
    """
    if pair_sort == "counting":
        order, starts = arrays.group_order(first, n)
        too_long = arrays.fill(1, 0, np.int32)
        _order_groups[arrays.launch_grid(n)](second, order, starts, too_long)
        if not too_long.copy_to_host()[0]:
            return order
    ids = cuda.device_array(n - 1, dtype=np.int64)
    _pair_ids[arrays.launch_grid(n - 1)](first, second, np.int64(n), ids)
    return arrays.radix_order(ids, (n * (n - 1) // 2 - 1).bit_length())


def _grid(count: int) -> tuple[int, int]:
    """One query thread per point (grid-stride beyond the launch limit)."""
    threads, max_blocks = runtime.launch_limits(QUERY_BLOCK)
    return min(max_blocks, runtime.blocks_for(count, threads)), threads


def _memory_bytes(n: int, d: int, k: int, num_nodes: int) -> int:
    """Device bytes of a solve: input and tree-ordered points, the tree build's second copy
    of the points and its bin counters, per-point state and sort scratch, node boxes,
    ranges, labels, core minima and smallest input indices, the ``k`` nearest neighbours of
    every point (a position and a float64 key each) and, with lists, their cursors and
    leads."""
    position = np.dtype(kdtree.index_dtype(n)).itemsize
    counters = _point_tree.level_counters((num_nodes + 1).bit_length() - 2)
    return (n * (24 * d + 152 + (k * (position + 8) + 16 if k else 0)) + position * counters
            + num_nodes * (16 * d + 48))


class _Settings(NamedTuple):
    """The solver's tuning options, checked (:func:`_settings`)."""

    neighbours: int
    pair_sort: str
    seed_bounds: bool
    walk: str


def _settings(neighbours: Any, pair_sort: Any, seed_bounds: Any, walk: Any) -> _Settings:
    """The options checked: each bad one raises a :class:`PointsValueError` naming it."""
    if (isinstance(neighbours, (bool, np.bool_)) or not isinstance(neighbours, (int, np.integer))
            or neighbours < 0):
        raise PointsValueError(f"boruvka-bvh/gpu: neighbours must be an integer >= 0, got "
                               f"{neighbours!r}")
    if pair_sort not in PAIR_SORTS:
        raise PointsValueError(f"boruvka-bvh/gpu: pair_sort must be one of "
                               f"{', '.join(PAIR_SORTS)}, got {pair_sort!r}")
    if not isinstance(seed_bounds, (bool, np.bool_)):
        raise PointsValueError(f"boruvka-bvh/gpu: seed_bounds must be True or False, got "
                               f"{seed_bounds!r}")
    if walk not in WALKS:
        raise PointsValueError(f"boruvka-bvh/gpu: walk must be one of {', '.join(WALKS)}, got "
                               f"{walk!r}")
    return _Settings(int(neighbours), pair_sort, bool(seed_bounds), walk)


def solve(x: Any, stats: Stats, *, min_samples: int | None, leaf_size: int,
          device: int | None = None, neighbours: int = kdtree_boruvka.NEIGHBOURS,
          pair_sort: str = "counting", seed_bounds: bool = True, walk: str = "warp"
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The minimum spanning tree of the points ``x`` (float64, shape (n, d): a host array,
    or a device array already checked by :func:`parmst.pointset_device.as_device_points`)
    on CUDA device ``device`` (None: the current one).

    Parameters
    ----------
    neighbours : int
        Nearest points listed per point before the rounds (plain distances only: under
        mutual reachability the lists hold the ``min_samples - 1`` nearest, for the core
        distances). 0: no lists; the first round searches the tree for every point.
    pair_sort : str
        How the pairs are put in id order on the device (:data:`PAIR_SORTS`).
    seed_bounds : bool
        Start each round's component bounds from the pairs of consecutive points in
        the tree's order that join two components (:func:`_seed_bounds`).
    walk : str
        How the query kernels walk the tree (:data:`WALKS`): ``"warp"``, the searches of a
        warp together; ``"thread"``, each its own.

    Returns ``(first, second, key)`` on the host: input indices ``first < second`` of each
    tree pair and its squared (mutual-reachability) distance, sorted by pair id.
    """
    settings = _settings(neighbours, pair_sort, seed_bounds, walk)
    if device is None or runtime.simulator_active():
        return _solve(x, stats, min_samples, leaf_size, settings)
    with cuda.gpus[device]:
        return _solve(x, stats, min_samples, leaf_size, settings)


def _solve(x: Any, stats: Stats, min_samples: int | None, leaf_size: int, settings: _Settings
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, d = x.shape
    mutual = min_samples is not None and min_samples > 1
    # Mutual reachability: the lists order plain distances, not keys; they give the core
    # distances only (as on the CPU).
    k = min(min_samples - 1 if mutual else settings.neighbours, n - 1)
    nodes = 4 * n // max(1, leaf_size) + 3
    pool.ensure_memory("boruvka-bvh/gpu", _memory_bytes(n, d, k, nodes))
    with stats.init():
        if isinstance(x, np.ndarray):
            with runtime.timed_transfer(stats, "transfer_time"):
                x = runtime.to_device(x)
        with stats.phase("build-tree"):
            tree = _point_tree.build(x, leaf_size)
            runtime.synchronize()
        with stats.phase("neighbours"):
            core2 = arrays.fill(n, 0.0, np.float64)
            node_core = arrays.fill(tree.num_nodes, 0.0, np.float64)
            near = near_key = None
            if k:
                near = cuda.device_array((n, k), dtype=kdtree.index_dtype(n))
                near_key = cuda.device_array((n, k), dtype=np.float64)
                search = _neighbours_warp if settings.walk == "warp" else _neighbours
                search[_grid(n)](tree.points, tree.order, tree.start, tree.end, tree.lo,
                                 tree.hi, tree.min_index, np.int64(tree.first_leaf), near,
                                 near_key, core2, np.int64(k - 1 if mutual else -1))
            if mutual:
                near = near_key = None
                _point_tree.node_minima(tree, core2, node_core)
            runtime.synchronize()
    with stats.compute():
        result = _rounds(tree, mutual, core2, node_core, near, near_key, settings, stats)
    _device.record_device(stats, _memory_bytes(n, d, k, tree.num_nodes))
    return result


def _rounds(tree: _point_tree.DeviceTree, mutual: bool, core2: Any, node_core: Any, near: Any,
            near_key: Any, settings: _Settings, stats: Stats
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Borůvka rounds until one tree spans the points (``mutual``: the keys are
    mutual-reachability distances; ``near``: the neighbour lists, None under mutual
    reachability or without lists); the pairs copied back at the end."""
    n = tree.points.shape[0]
    grid = arrays.launch_grid(n)
    comp = arrays.iota(n)
    parent = arrays.iota(n, np.int32)
    node_comp = cuda.device_array(tree.num_nodes, dtype=np.int64)
    answer = arrays.fill(n, NO_POINT, np.int64)
    answer_key = arrays.fill(n, 0.0, np.float64)
    if near is not None:
        cursor = arrays.fill(n, 0, kdtree.index_dtype(n))
        lead = cuda.device_array(n, dtype=np.float64)  # list leads: unused by plain distances
    bound = arrays.fill(n, np.inf, np.float64)
    best_id = cuda.device_array(n, dtype=np.int64)
    count = arrays.fill(1, 0, np.int64)
    flags = cuda.device_array(n, dtype=np.int8)
    first = cuda.device_array(n - 1, dtype=np.int64)
    second = cuda.device_array(n - 1, dtype=np.int64)
    keys = cuda.device_array(n - 1, dtype=np.float64)
    found, rounds = 0, 0
    first_leaf = np.int64(tree.first_leaf)
    while found < n - 1:
        rounds += 1
        with stats.phase("labels"):
            if near is not None:
                _list_answers[grid](comp, tree.order, near, near_key, core2, cursor, answer,
                                    answer_key, lead)
            _leaf_components[arrays.launch_grid(tree.num_nodes - tree.first_leaf)](
                comp, tree.start, tree.end, first_leaf, node_comp)
            for level in tree.levels():
                width = 1 << level
                _inner_components[arrays.launch_grid(width)](np.int64(width - 1),
                                                             np.int64(width), node_comp)
            _keep_answers[grid](comp, answer, answer_key, bound, best_id)
            if settings.seed_bounds:
                _seed_bounds[grid](tree.points, comp, core2, bound)
            runtime.synchronize()
        with stats.phase("queries"):
            _flag_queries[grid](tree.points, tree.order, comp, answer, answer_key, bound, flags)
            worklist = arrays.compact(flags)
            if worklist.shape[0]:
                tree_arrays = (tree.points, tree.order, tree.start, tree.end, tree.lo, tree.hi,
                               tree.min_index, first_leaf, comp, node_comp)
                state = (core2, node_core, bound, answer, answer_key, worklist)
                if settings.walk == "warp":
                    _queries_warp[_grid(worklist.shape[0])](*tree_arrays, mutual, *state)
                else:
                    _queries[_grid(worklist.shape[0])](*tree_arrays, *state)
            runtime.synchronize()
        stats.worklist_sizes.append(int(worklist.shape[0]))
        with stats.phase("hook"):
            _tie_ids[grid](tree.order, comp, answer, answer_key, bound, best_id)
            _hook[grid](tree.order, comp, answer, answer_key, bound, best_id, parent, count,
                        first, second, keys)
            _relabel[grid](parent, comp, bound)
            _compress[grid](parent, comp)
            done = int(count.copy_to_host()[0])
        if done == found:
            raise RuntimeError(f"boruvka-bvh/gpu: round {rounds} joined no components "
                               f"({found} of {n - 1} pairs found)")
        found = done
    stats.rounds = rounds
    with stats.phase("pairs"):
        order = _id_order(first, second, n, settings.pair_sort)
        runtime.synchronize()
    # In the Forest's own order: the host only checks that it is sorted. The ends go back
    # as int32 where every position fits, a third fewer bytes over the bus.
    ends = kdtree.index_dtype(n)
    with runtime.timed_transfer(stats, "copy_back_time"):
        return tuple(runtime.read(arrays.gather(values, order, cuda.device_array(n - 1, dtype)))
                     for values, dtype in ((first, ends), (second, ends), (keys, np.float64)))
