""":func:`parmst.verify` on a graph spread over MPI ranks: each rank checks its own edges.

Collective: every rank calls ``parmst.verify(dgraph, forest)`` and every rank
gets the same :class:`~parmst.verify.VerifyResult`. The checks are those of
the one-process verifier; what changes is where each runs:

1. **The forest, whole once per host.** The forest is the union of the edge
   ids the ranks were given: rank 0's whole forest after the default gather
   of an mpi solve (the other ranks' shares then repeat part of it), or each
   rank's share (a Forest solved with ``gather=False``, or any spread of the
   ids). Each rank first checks its own list (``ids``: integers in range,
   none listed twice by it); the valid ids are gathered on each host's
   lowest rank, its holder (:class:`~parmst._mpi.host_share.HostShare`).
   The rank that holds an id's edge as primary (it owns its ``src``,
   :attr:`~parmst.distributed.DistributedGraph.primary`) sends that edge's
   ends and weight to the holders, so the forest's edges are as the graph
   has them, never as the forest claims them. Each holder builds the
   ``O(n)`` link tree of :mod:`~parmst.verify.path_maxima` from them and
   shares it, with the ids, ends and weights, with its host's ranks: one
   copy a host, mapped from a file by the host's other ranks.
2. **Checks on the whole forest**: NaN weights (``ids``) and ``acyclic``
   by the holders, the forest's own arrays and totals against the graph's
   edges (``fields``) by each rank for its Forest.
3. **Checks on the held edges**, each rank on its primary edges only, so
   every graph edge is checked once: ``spanning`` (an edge whose ends lie
   in two forest trees; each rank keeps those that merge trees, at most one
   per tree, and the merges of all ranks are merged again on every rank,
   which counts the graph's components) and ``minimal`` (the cycle property
   by path maxima on the whole forest).
4. **Agreement.** Rank 0 gathers every rank's findings and broadcasts the
   result; failures found alike by several ranks (the same wrong weight in
   rank 0's whole forest and in a rank's share) are listed and counted
   once (beyond the ``max_listed`` listed, such repeats may count once per
   rank).

Memory: ``O(n)`` per host for the forest, its link tree and the vertices'
roots, plus ``O(h)`` scratch (owner ranks, flags) per rank for its ``h`` held
edges; time: ``O(n log n)`` for the forest's order and link tree, which one
rank per host builds, plus ``O(h log n)`` for the path maxima of its edges.

Examples
--------
Run on every rank (``mpiexec -n 4 python script.py``, or plainly as one rank):

>>> import parmst                                                       # doctest: +SKIP
>>> from parmst.distributed import DistributedGraph                     # doctest: +SKIP
>>> dg = DistributedGraph.read("roads.gr")                              # doctest: +SKIP
>>> forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")  # doctest: +SKIP
>>> parmst.verify(dg, forest).ok                                        # doctest: +SKIP
True
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from parmst._edge_input import index_dtype_for
from parmst._mpi.host_share import HostShare
from parmst.errors import ParmstError
from parmst.forest import Forest
from parmst.verify.given import check_listed, check_num_components, compare_fields, nan_weights
from parmst.verify.path_maxima import LinkTree, link_edges
from parmst.verify.result import CHECKS, Recorder, VerifyResult
from parmst.verify.structure import (
    Edges,
    check_acyclic,
    check_minimal,
    missing_edges,
    record_missing,
)

__all__ = ["verify_distributed"]

# The link tree's arrays, in LinkTree's order: what a host's ranks share.
_TREE_ARRAYS = ("order", "order_weight", "link_parent", "link_rank", "roots", "cycle_edges")


def verify_distributed(dgraph: Any, forest_or_edge_ids: Forest | Any,
                       max_listed: int = 10) -> VerifyResult:
    """Check, collectively, that a forest is the minimum spanning forest of ``dgraph``.

    See the module docstring for who checks what; :func:`parmst.verify`
    calls this for a :class:`~parmst.distributed.DistributedGraph`.

    Parameters
    ----------
    dgraph : DistributedGraph
    forest_or_edge_ids : Forest or array_like of int
        This rank's part of the forest (rank 0's whole forest and the other
        ranks' shares, or a share on every rank): the forest is the union.
    max_listed : int
        Failures listed per check; the rest are counted in ``unlisted``.

    Returns
    -------
    VerifyResult
        The same on every rank.
    """
    channel, limit = dgraph.channel, max(0, int(max_listed))
    shared, mine = VerifyResult(), VerifyResult()  # found alike on every rank; by this rank
    everyone, own = Recorder(shared, limit), Recorder(mine, limit)
    forest = forest_or_edge_ids if isinstance(forest_or_edge_ids, Forest) else None
    listed = check_listed(forest.edge_ids if forest is not None else forest_or_edge_ids,
                          dgraph.num_edges, own)
    unusable = channel.allreduce_int(int(listed is None), "max")
    if unusable:
        for check in (("fields",) if forest is not None else ()) + ("acyclic", "spanning",
                                                                     "minimal"):
            own.skip(check, "the edge ids are unusable")
    else:
        _check_forest(dgraph, forest, listed, everyone, own)
    return _agreed(channel, shared, mine, limit)


def _check_forest(dgraph: Any, forest: Forest | None, listed: np.ndarray, everyone: Recorder,
                  own: Recorder) -> None:
    """Steps 1 to 3 of the module docstring, once every rank's list is usable."""
    with HostShare(dgraph.channel) as host:
        every_list = host.gathered(listed)  # collective: on the holders, every rank's list
        union = host.share(_sorted_union(every_list) if host.holder else None)
        in_forest = _positions_in(dgraph.edge_ids, union)  # held positions of forest edges
        whole = _forest_edges(dgraph, host, union, in_forest)
        if forest is not None:
            compare_fields(forest, dgraph.num_vertices, dgraph.num_edges,
                           lambda ids: _fields(whole, ids), whole.weight, own)
        tree = _link_tree(dgraph, host, whole, everyone)
        _check_held(dgraph, forest, in_forest, whole, tree, everyone, own)


def _check_held(dgraph: Any, forest: Forest | None, in_forest: np.ndarray, whole: Edges,
                tree: LinkTree, everyone: Recorder, own: Recorder) -> None:
    """The checks on the whole forest's link ``tree`` and on this rank's held edges."""
    shared = everyone.result
    shared.num_forest_edges = len(tree.order)
    shared.num_trees = tree.num_trees
    if forest is not None:
        check_num_components(forest, tree.num_trees, own)
    check_acyclic(tree, whole, everyone)
    held = Edges(dgraph.edge_ids, dgraph.src, dgraph.dst, dgraph.weight)
    candidate = _candidates(dgraph, in_forest)
    everyone.run("spanning")
    merges = _gathered(dgraph.channel, held, missing_edges(held, tree.roots, candidate))
    merges = _at(merges, np.argsort(merges.ids, kind="stable"))
    missing = missing_edges(merges, tree.roots, np.ones(len(merges.ids), dtype=np.bool_))
    record_missing(merges, missing, everyone)
    shared.num_graph_components = tree.num_trees - len(missing)
    if len(tree.cycle_edges):
        everyone.skip("minimal", "the listed edges contain a cycle, so forest paths are undefined")
    else:
        everyone.run("minimal")
        check_minimal(tree, held, candidate, own)


def _link_tree(dgraph: Any, host: HostShare, whole: Edges, everyone: Recorder) -> LinkTree:
    """The link tree of the forest's edges that are not NaN, built by the host's holder (who
    also records the NaN weights) and shared with the host's ranks."""
    tree = None
    if host.holder:
        edges = _at(whole, ~nan_weights(whole.ids, whole.weight, everyone))
        n = dgraph.num_vertices
        tree = link_edges(n, edges.ids, edges.src, edges.dst, edges.weight,
                          index_dtype_for(n, dgraph.num_edges))
    num_trees = host.host.bcast_object(tree.num_trees if host.holder else None)
    return LinkTree(*(host.share(getattr(tree, name) if host.holder else None)
                      for name in _TREE_ARRAYS), num_trees)


def _at(edges: Edges, where: np.ndarray) -> Edges:
    """The edges at ``where`` (positions or a mask)."""
    return Edges(edges.ids[where], edges.src[where], edges.dst[where], edges.weight[where])


def _fields(edges: Edges, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(src, dst, weight)`` of the edges with ``ids`` (all among ``edges``)."""
    found = _at(edges, edges.positions(ids))
    return found.src, found.dst, found.weight


@numba.njit(cache=True)
def _positions_in(held, ids):
    """Positions in the ascending ``held`` of those of the ascending ``ids`` found there,
    by one merge (a binary search per id cost several times more)."""
    out = np.empty(min(len(ids), len(held)), dtype=np.int64)
    count, j = 0, 0
    for i in range(len(ids)):
        while j < len(held) and held[j] < ids[i]:
            j += 1
        if j == len(held):
            break
        if held[j] == ids[i]:
            out[count] = j
            count += 1
    return out[:count]


def _sorted_union(ids: np.ndarray) -> np.ndarray:
    """The distinct ``ids``, ascending (a sort: NumPy's hashing ``unique`` took seconds on a
    million ids)."""
    ids = np.sort(ids)
    return ids[np.concatenate(([True], ids[1:] != ids[:-1]))] if len(ids) else ids


def _primary(dgraph: Any, positions: np.ndarray) -> np.ndarray:
    """Mask of the held edges at ``positions`` that this rank checks (it owns their ``src``)."""
    return dgraph.ownership.owner(dgraph.src[positions]) == dgraph.rank


def _gathered(channel: Any, edges: Edges, positions: np.ndarray) -> Edges:
    """The edges at ``positions`` of every rank, on every rank (rank order; four
    ``Allgatherv``)."""
    return Edges(*(channel.allgatherv(a[positions])
                   for a in (edges.ids, edges.src, edges.dst, edges.weight)))


def _forest_edges(dgraph: Any, host: HostShare, union: np.ndarray,
                  in_forest: np.ndarray) -> Edges:
    """The graph's ends and weights of the forest edges ``union`` (valid, sorted ids), each
    sent by the rank that holds it as primary to the holders, placed there in the order of
    ``union`` and shared with each host's ranks; ``in_forest``: the positions of those this
    rank holds."""
    at = in_forest[_primary(dgraph, in_forest)]
    got = [host.gathered(a[at]) for a in (dgraph.edge_ids, dgraph.src, dgraph.dst, dgraph.weight)]
    error = None
    if host.holder and len(got[0]) != len(union):  # ids tile 0..m-1, one primary rank each
        error = ParmstError(f"distributed verify: {len(got[0])} of the {len(union)} forest "
                            "edges found on their primary ranks; the distributed graph is "
                            "inconsistent")
    dgraph.channel.agree(error)
    fields = [None, None, None]
    if host.holder:
        place = np.searchsorted(union, got[0])
        for k, values in enumerate(got[1:]):
            fields[k] = np.empty_like(values)
            fields[k][place] = values
    return Edges(union, *(host.share(values) for values in fields))


def _candidates(dgraph: Any, in_forest: np.ndarray) -> np.ndarray:
    """Held edges this rank tests against the forest: primary, not in it (held positions
    ``in_forest``), not NaN."""
    candidate = dgraph.ownership.owner(dgraph.src) == dgraph.rank
    candidate[in_forest] = False
    if dgraph.weight.dtype.kind == "f":
        candidate &= ~np.isnan(dgraph.weight)
    return candidate


def _agreed(channel: Any, shared: VerifyResult, mine: VerifyResult, limit: int) -> VerifyResult:
    """The one result of every rank: ``shared`` (alike everywhere) with every rank's own
    findings, merged on rank 0 and broadcast."""
    parts = channel.gather_object(mine)
    merged = _merge(shared, parts, limit) if channel.rank == 0 else None
    return channel.bcast_object(merged)


def _merge(shared: VerifyResult, parts: list[VerifyResult], limit: int) -> VerifyResult:
    """``shared`` plus the ranks' ``parts``, in rank order; a failure listed by several
    ranks is listed and counted once. At most ``limit`` listed per check."""
    out = VerifyResult(num_forest_edges=shared.num_forest_edges, num_trees=shared.num_trees,
                       num_graph_components=shared.num_graph_components)
    listed: dict[str, list] = {c: [] for c in CHECKS}
    unlisted = dict.fromkeys(CHECKS, 0)
    seen = set()
    for part in (shared, *parts):
        for failure in part.failures:
            if failure not in seen:
                seen.add(failure)
                listed[failure.check].append(failure)
        for check, count in part.unlisted.items():
            unlisted[check] += count
        for check, why in part.not_checked.items():
            out.not_checked.setdefault(check, why)
    for check in CHECKS:
        out.failures += listed[check][:limit]
        more = unlisted[check] + max(0, len(listed[check]) - limit)
        if more:
            out.unlisted[check] = more
    out.checks_run = [c for c in CHECKS if any(c in p.checks_run for p in (shared, *parts))]
    return out
