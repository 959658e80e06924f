"""Weight transforms the harness applies to any graph: the same edges, other weights.

``"given"`` keeps the graph's weights. ``"ranked"`` replaces them by their
dense ranks as int64: the same ``(weight, edge_id)`` order, the same ties and
therefore the same forest, so a solver's time on the two differs only in
its key preparation and sort (float64 weights against integers of the same
order, issue 12's question for ``kruskal/serial``).
"""

from __future__ import annotations

import numpy as np

from parmst.graph import Graph

__all__ = ["WEIGHTS", "ranked_weights", "transform"]

WEIGHTS = ("given", "ranked")


def ranked_weights(graph: Graph) -> Graph:
    """The same edges with the dense ranks of their weights as int64.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 2], [1, 2, 0], [0.5, 0.25, 0.5])
    >>> ranked_weights(g).weight.tolist()
    [1, 0, 1]
    """
    ranks = np.unique(graph.weight, return_inverse=True)[1].reshape(-1)
    return graph.with_weights(ranks.astype(np.int64))


def transform(graph: Graph, weights: str) -> Graph:
    """``graph`` under the weight transform ``weights`` (one of :data:`WEIGHTS`)."""
    if weights == "given":
        return graph
    if weights == "ranked":
        return ranked_weights(graph)
    raise ValueError(f"weights must be one of {', '.join(WEIGHTS)}, got {weights!r}")
