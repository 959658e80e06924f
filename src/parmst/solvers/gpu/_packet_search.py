"""The point tree's two searches for ``boruvka-bvh/gpu``, walked by a whole warp together.

:func:`parmst.kernels.kdtree.nearest_k_point` and :func:`~parmst.kernels.kdtree.nearest_outside`
search for one point each. Run one thread a point, the 32 searches of a warp take different
paths through the tree and the warp executes the union of them with few lanes active at a
time (Nsight Compute on 4 M clustered 3-D points, H100: 4.7 and 8.0 active threads a warp).
Here the 32 queries of a warp, neighbours in the tree's order, walk ONE depth-first order over
the tree together (packet traversal, as ray tracers walk a bounding-volume hierarchy with a
ray packet; Aila and Laine, "Understanding the efficiency of ray traversal on GPUs", HPG
2009): a child goes on the shared stack when any lane still needs it (a vote), the nearer
child for most lanes is visited first, and at a leaf every lane that needs it scans the same
points, so the lanes run the same instructions. Each lane keeps its own bound and its own
answer, and prunes for itself exactly as the one-point searches do, so every answer is the
same: the k-nearest list under ``(d2, input index)`` and the nearest outside point under
``(key, pair id)`` do not depend on the order in which leaves are scanned.

Every lane of a warp must call a search together (the kernels' loops run whole warps:
:func:`warp_rounded`); a lane without a query passes ``active=False``. Under the CUDA
simulator there are no warp votes: each thread then walks alone, which is the same search
for one lane.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from parmst._cuda import runtime
from parmst.kernels import distance, kdtree
from parmst.solvers.gpu._simulated import for_kernels

__all__ = ["nearest_k_packet", "nearest_outside_packet", "warp_rounded"]

FULL_MASK = 0xFFFFFFFF
WARP_VOTES = not runtime.simulator_active()
_NO_ID = np.int64(2**63 - 1)

_leaf_of = for_kernels(kdtree._leaf_of)
_seed_list = for_kernels(kdtree._seed_list)
_add_nearer = for_kernels(kdtree._add_nearer)
_box_distance = for_kernels(kdtree._box_distance)
_cannot_precede = for_kernels(kdtree._cannot_precede)
_squared_distance = for_kernels(distance.squared_distance)
_mutual_reachability = for_kernels(distance.mutual_reachability)
_pair_id = for_kernels(distance.pair_id)


@cuda.jit(device=True, inline=True)
def warp_rounded(count):
    """``count`` rounded up to whole warps: a search kernel's loop runs to it, so that every
    lane of a warp takes part in each vote."""
    return (count + 31) // 32 * 32


@cuda.jit(device=True, inline=True)
def _any(flag):
    """Whether any lane of the warp holds ``flag`` (the lane's own flag under the simulator)."""
    if WARP_VOTES:
        return cuda.any_sync(FULL_MASK, flag)
    return flag


@cuda.jit(device=True, inline=True)
def _most(flag, voting):
    """Whether at least half of the ``voting`` lanes hold ``flag``."""
    if WARP_VOTES:
        yes = cuda.popc(cuda.ballot_sync(FULL_MASK, flag and voting))
        return 2 * yes >= cuda.popc(cuda.ballot_sync(FULL_MASK, voting))
    return flag


@cuda.jit(device=True, inline=True)
def _child_bounds(lo, hi, v, points, q, need):
    """The box bounds of node ``v``'s children for the lane's query ``q``, or infinity for
    both where the lane does not need ``v`` (it still votes on the children with the warp)."""
    if need:
        a = 2 * v + 1
        return _box_distance(lo, hi, a, points, q), _box_distance(lo, hi, a + 1, points, q)
    return np.inf, np.inf


@cuda.jit(device=True, inline=True)
def _push_children(v, bound_a, bound_b, min_index, want_a, want_b, stack, stack_bound, top):
    """Put node ``v``'s children on the shared stack: each one some lane wants, the one to
    search first for most of those lanes last (it is popped first). A lane searches first
    the child of smaller bound, on equal bounds the one of smaller input index (the winner
    of a tie, as the one-point searches order them). Returns the new top."""
    a = 2 * v + 1
    b_first = bound_b < bound_a or (bound_b == bound_a and min_index[a + 1] < min_index[a])
    if _most(b_first, want_a or want_b):
        if _any(want_a):
            stack[top], stack_bound[top] = a, bound_a
            top += 1
        if _any(want_b):
            stack[top], stack_bound[top] = a + 1, bound_b
            top += 1
    else:
        if _any(want_b):
            stack[top], stack_bound[top] = a + 1, bound_b
            top += 1
        if _any(want_a):
            stack[top], stack_bound[top] = a, bound_a
            top += 1
    return top


@cuda.jit(device=True)
def nearest_k_packet(points, order, start, end, lo, hi, min_index, first_leaf, q, active, near,
                     near_key, stack, stack_bound):
    """Row ``q`` of ``near``/``near_key``: the ``k`` points nearest to tree position ``q`` in
    ``(d2, input index)`` order, as :func:`parmst.kernels.kdtree.nearest_k_point` gives it,
    found by the warp's shared walk (module docstring). The list starts from ``q``'s own
    leaf; a lane needs a node while some point of it could still enter its list (its box
    within the list's last key, or equal to it with a smaller input index:
    :func:`~parmst.kernels.kdtree._cannot_precede`)."""
    k = near.shape[1]
    home = -1
    last, last_entry = -1.0, kdtree.NO_POINT
    if active:
        home = _leaf_of(start, end, first_leaf, q)
        _seed_list(points, order, start[home], end[home], q, near[q], near_key[q])
        # The list's last entry, read again only where the list can change: after a leaf.
        last, last_entry = near_key[q, k - 1], near[q, k - 1]
    stack[0], stack_bound[0], top = 0, 0.0, 1
    while top:
        top -= 1
        v = stack[top]
        need = active and v != home and not _cannot_precede(stack_bound[top], min_index, v,
                                                            last, order, last_entry)
        if v >= first_leaf:
            if need:
                _add_nearer(points, order, start[v], end[v], q, near[q], near_key[q])
                last, last_entry = near_key[q, k - 1], near[q, k - 1]
            continue
        a = 2 * v + 1
        bound_a, bound_b = _child_bounds(lo, hi, v, points, q, need)
        want_a = want_b = False
        if need:
            want_a = not _cannot_precede(bound_a, min_index, a, last, order, last_entry)
            want_b = not _cannot_precede(bound_b, min_index, a + 1, last, order, last_entry)
        top = _push_children(v, bound_a, bound_b, min_index, want_a, want_b, stack,
                             stack_bound, top)


@cuda.jit(device=True)
def nearest_outside_packet(points, order, start, end, lo, hi, min_index, first_leaf, comp,
                           node_comp, mutual, core2, node_core, q, active, bound, stack,
                           stack_bound):
    """The point of another component nearest to ``q`` under ``(key, pair id)`` with a key
    at most ``bound``, as :func:`parmst.kernels.kdtree.nearest_outside` gives it (Prokopenko,
    Sao and Lebrun-Grandié, Algorithm 2, with its tie pruning), found by the warp's shared
    walk. Returns ``(position, key)``; ``(NO_POINT, bound)`` if there is none (or the lane
    is not active). Without ``mutual`` the keys are plain squared distances, and the
    core distances (all zero then) are not read."""
    n = order.shape[0]
    cq = np.int64(-2)
    core_q = 0.0
    best, best_key, best_id = kdtree.NO_POINT, bound, _NO_ID
    if active:
        cq = comp[q]
        core_q = core2[q]
    stack[0], stack_bound[0], top = 0, 0.0, 1
    while top:
        top -= 1
        v = stack[top]
        need = active and not _cannot_precede(stack_bound[top], min_index, v, best_key, order,
                                              best)
        if v >= first_leaf:
            if need:
                for p in range(start[v], end[v]):
                    if comp[p] == cq:
                        continue
                    key = _squared_distance(points, q, points, p)
                    if mutual:
                        key = _mutual_reachability(core2, q, p, key)
                    if key <= best_key:
                        ident = _pair_id(order[q], order[p], n)
                        if key < best_key or ident < best_id:
                            best, best_key, best_id = p, key, ident
            continue
        a = 2 * v + 1
        bound_a, bound_b = _child_bounds(lo, hi, v, points, q, need)
        want_a = want_b = False
        if need:
            if mutual:
                bound_a = max(core_q, node_core[a], bound_a)
                bound_b = max(core_q, node_core[a + 1], bound_b)
            want_a = (not _cannot_precede(bound_a, min_index, a, best_key, order, best)
                      and node_comp[a] != cq)
            want_b = (not _cannot_precede(bound_b, min_index, a + 1, best_key, order, best)
                      and node_comp[a + 1] != cq)
        top = _push_children(v, bound_a, bound_b, min_index, want_a, want_b, stack,
                             stack_bound, top)
    return best, best_key
