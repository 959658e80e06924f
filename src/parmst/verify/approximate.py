"""How far an approximate solver's forest is from the minimum one.

An approximate solver (the registry's ``exact=False``) is right when it
returns a spanning forest: every check of :func:`parmst.verify` but
``minimal`` passes. Its quality is how much heavier that forest is than the
minimum spanning forest, whose edge ids the caller supplies (this package
uses no solver code).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst.forest import Forest, exact_sum
from parmst.graph import Graph

__all__ = ["excess_percent", "spanning_failures"]


def spanning_failures(graph: Graph, forest_or_edge_ids: Forest | Any) -> list[str]:
    """The checks of :func:`parmst.verify` other than ``minimal`` that fail, in check order.

    Empty if and only if ``forest_or_edge_ids`` is a spanning forest of ``graph``.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
    >>> spanning_failures(g, [0, 2]), spanning_failures(g, [0])
    ([], ['spanning'])
    """
    from parmst.verify import verify

    return [check for check in verify(graph, forest_or_edge_ids, max_listed=1).failed_checks
            if check != "minimal"]


def excess_percent(graph: Graph, edge_ids: Any, minimum_ids: Any) -> float:
    """How much heavier the forest ``edge_ids`` is than the forest ``minimum_ids``, in percent.

    Sums are exact (:func:`parmst.forest.exact_sum`). Relative to the
    magnitude of the minimum's weight; when that weight is 0, any excess is
    infinitely many percent. Negative when ``edge_ids`` is lighter (as a
    maximum spanning forest's approximation is, against the maximum).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
    >>> excess_percent(g, [0, 2], [0, 1])
    200.0
    """
    weight = graph.weight
    optimum = exact_sum(weight[np.asarray(minimum_ids, dtype=np.int64)])
    excess = exact_sum(weight[np.asarray(edge_ids, dtype=np.int64)]) - optimum
    if optimum:
        return float(100 * excess / abs(optimum))
    return 0.0 if not excess else float("inf") if excess > 0 else float("-inf")
