"""The size limits of ``prim-dense`` (its ``n x n`` key matrix): what its solvers' ``limit`` is.

Apart from the kernels of :mod:`parmst.kernels.dense`, so that registering the solvers
(which name this limit) loads no Numba.
"""

from __future__ import annotations

__all__ = ["DENSE_MAX_EDGES", "DENSE_MAX_VERTICES", "dense_fits"]

DENSE_MAX_VERTICES = 46_340  # n*n fits int32 and the n-by-n key matrix stays under ~16 GiB
DENSE_MAX_EDGES = 2**32 - 1  # below this no unique (weight, edge_id) key equals NO_EDGE


def dense_fits(graph) -> bool | str:
    """True where an ``n``-by-``n`` key matrix of the graph fits, else why not (a solver limit).

    Examples
    --------
    >>> import parmst
    >>> dense_fits(parmst.Graph.from_edges([0], [1], [1.0]))
    True
    """
    if graph.num_vertices > DENSE_MAX_VERTICES:
        return (f"dense adjacency matrix of {graph.num_vertices} vertices is too large "
                f"(limit {DENSE_MAX_VERTICES})")
    if graph.num_edges > DENSE_MAX_EDGES:
        return (f"{graph.num_edges} edges: packed (weight, edge_id) keys need at most "
                f"{DENSE_MAX_EDGES}")
    return True
