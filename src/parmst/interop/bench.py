"""Timing the front doors against the libraries they stand in for.

:func:`time_front_doors` times, on one parmst graph, NetworkX's own Kruskal
against the ``parmst`` backend (conversion included: NetworkX's conversion
cache is switched off for those runs; a second figure keeps it on, as a
repeated call on an unchanged graph would) and SciPy's
``minimum_spanning_tree`` against :func:`parmst.scipy.minimum_spanning_tree`.
Every pair of results is compared for equality before it is reported. The
``parmst bench`` harness can call it per graph for a peer mode;
``benchmarks/frontdoors.py`` does so for the committed table.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from parmst.graph import Graph

__all__ = ["time_front_doors"]


def _times(call: Callable[[], Any], runs: int) -> tuple[list[float], Any]:
    out = None
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        out = call()
        seconds.append(time.perf_counter() - start)
    return seconds, out


def _row(front_door: str, call: str, peer: list[float], ours: list[float],
         same: bool, **extra: Any) -> dict[str, Any]:
    peer_s, ours_s = statistics.median(peer), statistics.median(ours)
    return {"front_door": front_door, "call": call, "peer_s": peer_s, "parmst_s": ours_s,
            "speedup": peer_s / ours_s, "peer_runs": peer, "parmst_runs": ours, "same": same,
            **extra}


def _networkx_rows(graph: Graph, runs: int, peer_runs: int) -> list[dict[str, Any]]:
    import networkx as nx

    from parmst.interop.networkx_backend import BackendInterface

    G = nx.Graph()
    G.add_nodes_from(range(graph.num_vertices))
    G.add_weighted_edges_from(zip(graph.src.tolist(), graph.dst.tolist(), graph.weight.tolist()))
    dispatched = "parmst" in nx.utils.backends.backends
    if dispatched:
        def tree():
            return nx.minimum_spanning_tree(G, backend="parmst")

        def edges():
            return list(nx.minimum_spanning_edges(G, backend="parmst"))
    else:  # entry point not installed in this environment: the same code, called directly
        def tree():
            return BackendInterface.minimum_spanning_tree(G)

        def edges():
            return list(BackendInterface.minimum_spanning_edges(G))
    how = "backend='parmst'" if dispatched else "BackendInterface (entry point not installed)"
    rows = []
    for call, ours, theirs in (
            ("minimum_spanning_tree(G)", tree,
             lambda: nx.minimum_spanning_tree(G, backend="networkx")),
            ("list(minimum_spanning_edges(G))", edges,
             lambda: list(nx.minimum_spanning_edges(G, backend="networkx")))):
        peer, expected = _times(theirs, peer_runs)
        previous = nx.config.cache_converted_graphs
        try:
            nx.config.cache_converted_graphs = False
            ours()  # compile the kernels outside the timed runs
            cold, result = _times(ours, runs)
            nx.config.cache_converted_graphs = True
            nx.config.warnings_to_ignore.add("cache")
            ours()
            warm, _ = _times(ours, runs)
        finally:
            nx.config.cache_converted_graphs = previous
            G.__networkx_cache__.clear()
        if isinstance(expected, nx.Graph):
            same = list(result.edges(data=True)) == list(expected.edges(data=True))
        else:
            same = result == expected
        rows.append(_row("networkx", call, peer, cold, same, dispatch=how,
                         parmst_cached_s=statistics.median(warm), parmst_cached_runs=warm,
                         peer_name=f"networkx {nx.__version__} kruskal"))
    return rows


def _scipy_rows(graph: Graph, runs: int) -> list[dict[str, Any]]:
    import scipy
    import scipy.sparse as sp
    from scipy.sparse.csgraph import minimum_spanning_tree as scipy_mst

    from parmst.scipy import minimum_spanning_tree

    n = graph.num_vertices
    matrix = sp.coo_array((np.concatenate([graph.weight, graph.weight]).astype(np.float64),
                           (np.concatenate([graph.src, graph.dst]),
                            np.concatenate([graph.dst, graph.src]))), shape=(n, n)).tocsr()
    peer, expected = _times(lambda: scipy_mst(matrix), runs)
    minimum_spanning_tree(matrix)
    ours, result = _times(lambda: minimum_spanning_tree(matrix), runs)
    same = (result != expected).nnz == 0 and np.array_equal(result.indices, expected.indices)
    return [_row("scipy", "minimum_spanning_tree(csr_array)", peer, ours, same,
                 peer_name=f"scipy {scipy.__version__}", nnz=int(matrix.nnz))]


def time_front_doors(graph: Graph, *, runs: int = 5, peer_runs: int | None = None,
                     doors: tuple[str, ...] = ("networkx", "scipy")) -> list[dict[str, Any]]:
    """Time each front door against its original on ``graph``; one row per call.

    Parameters
    ----------
    graph : Graph
        Turned into an ``nx.Graph`` (parallel edges merge, the last weight
        wins) and into a symmetric float64 ``csr_array`` (both directions
        stored, duplicates summed); both sides see the same input.
    runs : int
        Timed runs of each parmst call (after one untimed compile run).
    peer_runs : int, optional
        Timed runs of NetworkX and SciPy (default ``runs``).
    doors : tuple of str
        Which front doors: ``"networkx"``, ``"scipy"``.

    Returns
    -------
    list of dict
        ``front_door``, ``call``, ``peer_s`` and ``parmst_s`` (medians),
        ``speedup``, all runs, ``same`` (results equal), and for NetworkX
        ``parmst_cached_s`` (conversion cached) and how it dispatched.

    Examples
    --------
    >>> import parmst
    >>> rows = time_front_doors(parmst.generate("grid2d:side=8,seed=1"), runs=1)
    >>> [row["front_door"] for row in rows], all(row["same"] for row in rows)
    (['networkx', 'networkx', 'scipy'], True)
    """
    rows = []
    if "networkx" in doors:
        rows += _networkx_rows(graph, runs, peer_runs or runs)
    if "scipy" in doors:
        rows += _scipy_rows(graph, runs)
    return rows
