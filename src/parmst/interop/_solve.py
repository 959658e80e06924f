"""Forest edge ids for the SciPy drop-in, without assembling a :class:`~parmst.Forest`.

The drop-in returns SciPy's matrix, so the Forest's gathered arrays and
exact total weight (``math.fsum`` over every forest weight) would be thrown
away; on a million-edge graph they cost as much as a tenth of the whole
call. (The NetworkX backend runs Kruskal's scan itself: its order is
NetworkX's yield order.)
"""

from __future__ import annotations

import numpy as np

from parmst import registry
from parmst.graph import Graph


def forest_edge_ids(graph: Graph, solver: str = "auto") -> np.ndarray:
    """Edge ids (any order) of the minimum spanning forest of a NaN-free ``graph``.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 0], [1, 2, 2], [1.0, 1.0, 1.0])
    >>> sorted(forest_edge_ids(g).tolist())
    [0, 1]
    """
    return registry.run(solver, graph)[1]
