"""One timed call of a solver, and whether its answer is right.

Two kinds of call are timed:

- the solver's solve function on a cold graph (:func:`timed_solve`): the
  graph's cached views are dropped first, so initialization is measured
  every time; the API's option checks and the Forest assembly stay outside;
- the whole public call (:func:`timed_call`, the harness's ``end_to_end``):
  :meth:`Graph.from_edges <parmst.graph.Graph.from_edges>` on the input arrays
  (host or device), :func:`parmst.minimum_spanning_forest`, and the forest's
  edge ids where the input lies, as a user holding those arrays pays for it.

Either way the stats are the solver's own, so a report shows the whole time
beside the solver's initialization and computation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from parmst.api import minimum_spanning_forest
from parmst.bench.placement import Placed
from parmst.bench.result import REFERENCE, Record
from parmst.bench.timing import clocked
from parmst.graph import Graph
from parmst.stats import Stats

__all__ = ["timed_call", "timed_solve", "wrong_answer"]


def _host_ids(edge_ids: Any) -> np.ndarray:
    """Sorted int64 ids on the host, from a NumPy array or a device array (outside the clock)."""
    if hasattr(edge_ids, "copy_to_host"):
        edge_ids = edge_ids.copy_to_host()
    return np.sort(np.asarray(edge_ids, dtype=np.int64))


def timed_solve(placed: Placed, solve: Callable[[Graph, Stats], Any]
                ) -> tuple[np.ndarray, Stats, float, float]:
    """One call of a solve function bound by :func:`parmst.registry.prepare` on the cold
    graph ``placed.graph``.

    Returns the sorted edge ids, the stats, wall-clock and CPU seconds. A GPU
    solver's ids stay on the device inside the clock and are copied back after.
    """
    graph = placed.graph
    graph.clear_cache()
    stats = Stats()

    def call() -> Any:
        edge_ids = solve(graph, stats)
        placed.sync()
        return edge_ids

    edge_ids, elapsed, cpu = clocked(call)
    return _host_ids(edge_ids), stats, elapsed, cpu


def timed_call(placed: Placed, solver: str, options: dict[str, Any]
               ) -> tuple[np.ndarray, Stats, float, float]:
    """One whole public call from ``placed.arrays``: graph, forest, the forest's ids.

    The ids are read where the input lies (``edge_ids_device`` for device
    arrays). Returns them sorted on the host, the solver's stats, wall-clock
    and CPU seconds.
    """
    def call() -> Any:
        graph = Graph.from_edges(*placed.arrays, num_vertices=placed.num_vertices)
        forest = minimum_spanning_forest(graph, solver, **options)
        if placed.on_device:
            forest.edge_ids_device  # noqa: B018 - reading it is the measured work
        else:
            forest.edge_ids  # noqa: B018
        placed.sync()
        return forest

    forest, elapsed, cpu = clocked(call)
    return _host_ids(forest.edge_ids), forest.stats, elapsed, cpu


def _id_difference(got: np.ndarray, want: np.ndarray, reference_name: str) -> str:
    missing = np.setdiff1d(want, got)
    extra = np.setdiff1d(got, want)
    where = f"first missing id {missing[0]}" if len(missing) else f"first extra id {extra[0]}"
    return (f"edge ids differ from {reference_name}: {len(missing)} missing, {len(extra)} "
            f"extra ({where}; {len(got)} edges vs {len(want)})")


def wrong_answer(graph: Graph, edge_ids: np.ndarray, reference: np.ndarray, exact: bool,
                 record: Record, reference_name: str = REFERENCE) -> str | None:
    """What is wrong with a result, or None.

    An exact solver must return the reference ids (``reference_name`` computed them). An approximate one (the
    registry's ``exact=False``) must return a spanning forest, proven by
    :func:`parmst.verify` with only minimality allowed to fail; how much
    heavier than the minimum it is goes into the record as
    ``excess_weight_percent``.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 2, 3])
    >>> wrong_answer(g, np.array([0, 1]), np.array([0, 1]), True, Record("g", "s")) is None
    True
    >>> wrong_answer(g, np.array([0, 2]), np.array([0, 1]), True, Record("g", "s"))
    'edge ids differ from kruskal/serial: 1 missing, 1 extra (first missing id 1; 2 edges vs 2)'
    """
    if exact:
        return None if np.array_equal(edge_ids, reference) else _id_difference(
            edge_ids, reference, reference_name)
    from parmst.verify.approximate import excess_percent, spanning_failures

    failed = spanning_failures(graph, edge_ids)
    if failed:
        return f"not a spanning forest (failed: {', '.join(sorted(failed))})"
    record.extra["excess_weight_percent"] = excess_percent(graph, edge_ids, reference)
    return None
