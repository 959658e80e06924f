"""The public entry points: validate -> select -> run -> Forest."""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst import registry
from parmst.errors import GraphValueError, SolverUnavailable
from parmst.forest import Forest
from parmst.graph import Graph
from parmst.graph_parts import SplitGraph
from parmst.stats import Stats

__all__ = ["as_graph", "maximum_spanning_forest", "minimum_spanning_forest"]


def as_graph(data: Any) -> Graph:
    """Accept a :class:`Graph`, a SciPy sparse matrix or a NetworkX graph.

    Examples
    --------
    >>> import networkx as nx
    >>> as_graph(nx.cycle_graph(3)).num_edges
    3
    """
    if isinstance(data, Graph):
        return data
    module = type(data).__module__.split(".", 1)[0]
    if module == "scipy":
        return Graph.from_scipy(data)
    if module == "networkx":
        return Graph.from_networkx(data)
    raise GraphValueError(
        f"expected a parmst.Graph, a SciPy sparse matrix or a NetworkX graph, "
        f"got {type(data).__name__}; build one with parmst.Graph.from_edges")


def _run(graph: Graph, solver: str, options: dict[str, Any]) -> Forest:
    chosen, edge_ids, stats = registry.run(solver, graph, **options)
    return Forest.from_edge_ids(graph, edge_ids, solver=chosen.name, stats=stats,
                                ascending=chosen.ascending)


def _run_distributed(dg: Any, solver: str, ignore_nan: bool, verify: bool,
                     options: dict[str, Any]) -> Forest:
    """The forest of a graph spread over MPI ranks: rank 0 the whole, the others their share
    (each its share with ``gather=False``); ``verify`` checks it on the ranks, collectively."""
    if ignore_nan:
        dg = dg.without_nan()
    forest = registry.run_distributed(solver, dg, **options)
    if verify:
        from parmst.verify import verify as check

        check(dg, forest).raise_if_failed()
    return forest


#: Solvers that take a graph split over GPUs (:class:`parmst.graph_parts.SplitGraph`).
SPLIT_SOLVERS = ("ecl/multigpu",)


def _run_split(graph: SplitGraph, solver: str, verify: bool, options: dict[str, Any]
               ) -> Forest:
    """A graph split over GPUs, solved where its parts lie: the hardware is checked for the
    parts' devices (a part per device, or several on one), not for the options' defaults."""
    if solver not in ("auto", *SPLIT_SOLVERS):
        raise SolverUnavailable(
            f"a graph split over GPUs is solved by {', '.join(SPLIT_SOLVERS)}, not {solver!r}")
    name = SPLIT_SOLVERS[0] if solver == "auto" else solver
    devices = list(dict.fromkeys(graph.devices))
    chosen = registry.resolve(name, None, {"devices": devices, "parts": max(2, len(devices))})
    chosen.check_options(options)
    fits = chosen.limit(graph) if chosen.limit is not None else True
    if fits is not True:
        raise SolverUnavailable(f"solver {chosen.name!r} cannot run here: {fits}")
    stats = Stats()
    edge_ids = chosen.load()(graph, stats, **{**chosen.options, **options})
    forest = Forest.from_edge_ids(graph, edge_ids, solver=chosen.name, stats=stats)
    if verify:
        from parmst.verify import verify as check

        check(graph.to_host(), forest).raise_if_failed()
    return forest


def minimum_spanning_forest(graph: Any, solver: str = "auto", *, ignore_nan: bool = False,
                            verify: bool = False, **options: Any) -> Forest:
    """The minimum spanning forest under the ``(weight, edge_id)`` order.

    Parameters
    ----------
    graph : Graph, SciPy sparse matrix, NetworkX graph, DistributedGraph or SplitGraph
        A :class:`parmst.distributed.DistributedGraph` is solved collectively
        by an ``mpi`` solver (``"auto"``: ``filter-boruvka/mpi``): rank 0 gets
        the complete forest, the other ranks their share; with the option
        ``gather=False`` rank 0 too keeps only its share (see
        :func:`parmst.distributed.write_forest`). A
        :class:`parmst.graph_parts.SplitGraph` (parts on GPUs,
        :meth:`parmst.Graph.from_device_parts`) is solved by ``ecl/multigpu``
        where its parts lie.
    solver : str
        A registered solver id (see :func:`parmst.available_solvers`) or
        ``"auto"``, which picks by the rule in :func:`parmst.registry.select`;
        given options it picks among the solvers that take them (``threads=2``:
        a multi-core solver).
    ignore_nan : bool
        Leave out edges with NaN weight instead of raising.
    verify : bool
        Check the result with :func:`parmst.verify` and raise
        :class:`~parmst.errors.VerificationError` if it fails.
    **options
        Solver options (e.g. ``threads=4``); unknown ones raise TypeError.

    Returns
    -------
    Forest

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [4, 1, 3, 2])
    >>> f = parmst.minimum_spanning_forest(g)
    >>> f.edge_ids.tolist(), f.total_weight
    ([1, 2, 3], 6)
    """
    if registry.is_distributed(graph):
        return _run_distributed(graph, solver, ignore_nan, verify, options)
    if isinstance(graph, SplitGraph):  # checked for NaN when it was built
        return _run_split(graph, solver, verify, options)
    g = as_graph(graph)
    if g.has_nan:
        if not ignore_nan:
            first = int(np.flatnonzero(np.isnan(g.weight))[0])
            raise GraphValueError(f"edge {first} has a NaN weight; pass ignore_nan=True to "
                                  "leave NaN edges out")
        sub, ids = g.subgraph_edges(~np.isnan(g.weight))
        inner = _run(sub, solver, options)
        forest = Forest.from_edge_ids(g, ids[inner.edge_ids], solver=inner.solver,
                                      stats=inner.stats, ascending=True)  # both ascend
    else:
        forest = _run(g, solver, options)
    if verify:
        from parmst.verify import verify as check

        check(g, forest).raise_if_failed()
    return forest


def maximum_spanning_forest(graph: Any, solver: str = "auto", *, ignore_nan: bool = False,
                            verify: bool = False, **options: Any) -> Forest:
    """The maximum spanning forest: the minimum one under negated weights.

    Ties still go to the smaller edge id. The caller's graph is not modified;
    the returned forest carries the original weights. Integer weights are
    widened to int64 before negation, so no value overflows, except int64's
    own minimum, which is rejected.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 2, 3])
    >>> parmst.maximum_spanning_forest(g).edge_ids.tolist()
    [1, 2]
    """
    g = as_graph(graph)
    w = g.weight
    if w.dtype == np.int32:
        w = w.astype(np.int64)
    elif w.dtype == np.int64 and len(w) and int(w.min()) == np.iinfo(np.int64).min:
        first = int(np.argmin(w))
        raise GraphValueError(f"edge {first} has weight -2**63, which cannot be negated in int64")
    negated = Graph(g.src, g.dst, -w, g.num_vertices)
    inner = minimum_spanning_forest(negated, solver, ignore_nan=ignore_nan, **options)
    forest = Forest.from_edge_ids(g, inner.edge_ids, solver=inner.solver, stats=inner.stats,
                                  ascending=True)
    if verify:
        from parmst.verify import verify as check

        check(negated, inner).raise_if_failed()
    return forest
