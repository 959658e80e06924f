"""Independent certificate that a forest is the minimum spanning forest.

:func:`verify` proves a result right without trusting any solver: it
imports nothing from :mod:`parmst.solvers`. It runs these
checks and reports every failure it finds, at most ``max_listed`` per check
with a count of the rest:

``ids``
    Edge ids are integers in ``[0, m)``, listed once each, and none has a
    NaN weight (NaN edges are absent from every forest, as with
    ``ignore_nan=True``).
``fields``
    Only for a :class:`~parmst.Forest`: its ``src``, ``dst`` and ``weight``
    arrays agree with the graph for its ids, and ``num_vertices``,
    ``num_components`` and ``total_weight`` agree with its edges.
``acyclic``
    No listed edge closes a cycle (a self-loop is a cycle of one edge).
``spanning``
    The trees of the listed edges are the graph's connected components: no
    graph edge joins two different trees.
``minimal``
    The cycle property (Shou and He, section 2.4) under the ``(weight, edge_id)``
    total order: every non-forest edge ``e = (u, v)`` has a larger key than
    every forest edge on the forest path between ``u`` and ``v``. Runs only
    when ``acyclic`` holds, since "the forest path" needs a forest.

The modules of this package hold one part each: :mod:`~parmst.verify.result`
(what was found), :mod:`~parmst.verify.given` (``ids``, ``fields``),
:mod:`~parmst.verify.structure` (``acyclic``, ``spanning``, ``minimal``) and
:mod:`~parmst.verify.path_maxima` (the heaviest forest edge on a forest path,
in ``O(log n)`` per query, for the cycle property); :mod:`~parmst.verify.approximate`
judges an approximate solver's result (a spanning forest, and how much heavier
than the minimum it is).

Examples
--------
>>> import parmst
>>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
>>> print(verify(g, [0, 1]))
verified: forest of 2 edges, 1 component, minimal
>>> print(verify(g, [0, 2]))  # doctest: +NORMALIZE_WHITESPACE
verification failed: 1 failure (forest of 2 edges, 1 tree; graph has 1 connected component)
  [minimal] edge 1 (u=1, v=2, weight 1) is lighter than forest edge 2 (weight 5) on the
  forest path between its ends: the forest is not minimal
  passed: ids, acyclic, spanning
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parmst.forest import Forest
from parmst.graph import Graph
from parmst.verify.given import check_fields, check_ids, check_num_components
from parmst.verify.points import verify_points
from parmst.verify.result import CHECKS, Failure, Recorder, VerifyResult

if TYPE_CHECKING:
    from parmst.distributed import DistributedGraph

__all__ = ["CHECKS", "Failure", "VerifyResult", "verify", "verify_points"]


def verify(graph: Graph | DistributedGraph, forest_or_edge_ids: Forest | Any, *,
           max_listed: int = 10) -> VerifyResult:
    """Check that a forest is the minimum spanning forest of ``graph``.

    Uses no solver code: see the module docstring for the checks and
    :mod:`parmst.verify.path_maxima` for the method. Every check runs even after others fail (``minimal`` needs an
    acyclic edge set), so one call reports all problems found.

    Parameters
    ----------
    graph : Graph or DistributedGraph
        A :class:`~parmst.distributed.DistributedGraph` is verified
        collectively: call on every rank, with rank 0's whole forest (after
        the default gather) or each rank's share; every rank checks its own
        edges against the whole forest (``O(n)`` memory per rank) and gets
        the same result (:mod:`parmst.verify.distributed`).
    forest_or_edge_ids : Forest or array_like of int
        A result to check, or the edge ids of a claimed forest (any order).
    max_listed : int
        Failures listed per check; the rest are counted in ``unlisted``.

    Returns
    -------
    VerifyResult
        Truthy iff every check ran and passed.

    Raises
    ------
    TypeError
        ``graph`` is neither a :class:`~parmst.Graph` nor a distributed graph.
    ParmstError
        :func:`parmst.order.weight_keys` does not preserve the weight order
        (a bug in parmst, not in the forest).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 3], [1, 2, 0, 4], [2, 2, 1, 7], num_vertices=6)
    >>> r = verify(g, [1, 2, 3])
    >>> bool(r), r.num_trees, r.num_graph_components
    (False, 3, 3)
    >>> r.failures[0].message  # 0 and 1 tie on weight 2; the smaller id wins
    'edge 0 (u=0, v=1, weight 2) ties with forest edge 1 (weight 2) on the forest path between its ends and has the smaller id: the forest is not minimal under the (weight, edge_id) order'
    >>> verify(g, [0, 2, 3]).ok
    True
    """
    if getattr(graph, "is_distributed", False):
        from parmst.verify.distributed import verify_distributed

        return verify_distributed(graph, forest_or_edge_ids, max_listed)
    if not isinstance(graph, Graph):
        raise TypeError(f"verify needs a parmst.Graph or a DistributedGraph, got "
                        f"{type(graph).__name__}")
    result = VerifyResult()
    rec = Recorder(result, max(0, int(max_listed)))
    forest = forest_or_edge_ids if isinstance(forest_or_edge_ids, Forest) else None
    given = forest.edge_ids if forest is not None else forest_or_edge_ids
    ids = check_ids(graph, given, rec)
    if forest is not None:
        check_fields(graph, forest, rec)
    if ids is None:
        for check in ("acyclic", "spanning", "minimal"):
            rec.skip(check, "the edge ids are unusable")
        return result
    # The compiled checks load with the first verification, not with ``import parmst``.
    from parmst.verify.path_maxima import link_tree
    from parmst.verify.structure import (
        Edges,
        candidates,
        check_acyclic,
        check_minimal,
        check_spanning,
    )

    result.num_forest_edges = len(ids)
    tree = link_tree(graph, ids)
    result.num_trees = tree.num_trees
    if forest is not None:
        check_num_components(forest, tree.num_trees, rec)
    check_acyclic(tree, Edges.of(graph), rec)
    candidate = candidates(graph, ids)
    result.num_graph_components = check_spanning(graph, tree, candidate, rec)
    if len(tree.cycle_edges):
        rec.skip("minimal", "the listed edges contain a cycle, so forest paths are undefined")
    else:
        check_minimal(tree, Edges.of(graph), candidate, rec)
    return result
