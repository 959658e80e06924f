"""Graphs of other libraries as edge arrays, and edge arrays as their graphs.

The conversions behind :meth:`parmst.Graph.from_scipy`,
:meth:`~parmst.Graph.from_networkx`, :meth:`~parmst.Graph.from_igraph`,
:meth:`~parmst.Graph.to_scipy` and :meth:`~parmst.Graph.to_networkx`: each
reads the other library's object into ``(src, dst, weight, num_vertices)``
for :meth:`parmst.Graph.from_edges` to check, or builds that library's
object from an edge list. Tables are :mod:`parmst._tables`. The libraries are
imported only by the conversions that need them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parmst import _optional
from parmst.errors import GraphValueError

__all__ = ["igraph_edges", "names_of", "networkx_edges", "networkx_multigraph", "scipy_edges",
           "scipy_matrix"]

Edges = tuple[np.ndarray, np.ndarray, Any, int]
Named = tuple[np.ndarray, np.ndarray, Any, int, "np.ndarray | None"]


def names_of(labels: np.ndarray | None, num_vertices: int) -> list:
    """The Python name of each vertex: its label, or its number where there are no labels."""
    return list(range(num_vertices)) if labels is None else labels.tolist()


def scipy_edges(matrix: Any, symmetric: str) -> Edges:
    """The stored entries of a square SciPy sparse matrix as edges (see
    :meth:`parmst.Graph.from_scipy` for ``symmetric``)."""
    sp = _optional.require("scipy.sparse", "Graph.from_scipy")
    if not sp.issparse(matrix):
        raise GraphValueError(f"expected a SciPy sparse matrix, got {type(matrix).__name__}")
    rows, cols = matrix.shape
    if rows != cols:
        raise GraphValueError(f"adjacency matrix must be square, got shape {matrix.shape}")
    coo = matrix.tocoo()
    r, c, w = coo.row, coo.col, coo.data
    if symmetric == "upper":
        keep = r <= c
    elif symmetric == "lower":
        keep = r >= c
    elif symmetric == "all":
        keep = slice(None)
    else:
        raise GraphValueError(f"symmetric must be 'upper', 'lower' or 'all', got {symmetric!r}")
    return r[keep], c[keep], w[keep], rows


def networkx_edges(graph: Any, weight: str, default: float) -> Named:
    """A NetworkX (Multi)Graph's edges in ``graph.edges`` order, nodes numbered in
    ``graph.nodes`` order, a missing ``weight`` attribute counting as ``default``; the last
    item is the nodes (None where they are ``0..n-1`` in order)."""
    index = {node: i for i, node in enumerate(graph.nodes)}
    edges = list(graph.edges(data=weight, default=default))
    src = np.fromiter((index[u] for u, _, _ in edges), dtype=np.int64, count=len(edges))
    dst = np.fromiter((index[v] for _, v, _ in edges), dtype=np.int64, count=len(edges))
    w = np.array([x for _, _, x in edges]) if edges else np.zeros(0)
    dense = all(type(node) is int and node == i for node, i in index.items())
    labels = None if dense else np.fromiter(index, dtype=object, count=len(index))
    return src, dst, w, len(index), labels


def igraph_edges(graph: Any, weight: str | None) -> Named:
    """An ``igraph.Graph``'s edges by igraph edge id (weights ``None`` where the graph is
    unweighted; see :meth:`parmst.Graph.from_igraph`); the last item is the ``name`` vertex
    attribute, or None."""
    module = type(graph).__module__.split(".", 1)[0]
    if module != "igraph":
        raise GraphValueError(f"expected an igraph.Graph, got {type(graph).__name__}")
    ends = np.array(graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
    w = None
    if weight is not None:
        if weight in graph.es.attributes():
            w = np.array(graph.es[weight])
        elif weight != "weight":
            raise GraphValueError(
                f"igraph graph has no edge attribute {weight!r}; it has "
                f"{', '.join(graph.es.attributes()) or 'none'}")
    labels = None
    if "name" in graph.vs.attributes():
        labels = np.fromiter(graph.vs["name"], dtype=object, count=graph.vcount())
    return ends[:, 0], ends[:, 1], w, graph.vcount(), labels


def scipy_matrix(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, num_vertices: int):
    """A symmetric ``scipy.sparse.csr_array`` of the edges (parallel edges keep their
    minimum, self-loops dropped)."""
    sp = _optional.require("scipy.sparse", "Graph.to_scipy")

    loop = src == dst
    s = np.minimum(src, dst)[~loop]
    d = np.maximum(src, dst)[~loop]
    w = weight[~loop]
    order = np.lexsort((w, d, s))
    s, d, w = s[order], d[order], w[order]
    first = np.ones(len(s), dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (d[1:] != d[:-1])
    s, d, w = s[first], d[first], w[first]
    n = num_vertices
    return sp.coo_array((np.concatenate([w, w]), (np.concatenate([s, d]), np.concatenate([d, s]))),
                        shape=(n, n)).tocsr()


def networkx_multigraph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray,
                        num_vertices: int, labels: np.ndarray | None = None):
    """A ``networkx.MultiGraph`` of the edges with ``weight`` and ``edge_id`` attributes, nodes
    named by ``labels`` (else ``0..n-1``)."""
    nx = _optional.require("networkx", "Graph.to_networkx")

    names = names_of(labels, num_vertices)
    g = nx.MultiGraph()
    g.add_nodes_from(names)
    g.add_edges_from(
        (names[u], names[v], {"weight": w, "edge_id": i})
        for i, (u, v, w) in enumerate(zip(src.tolist(), dst.tolist(), weight.tolist())))
    return g
