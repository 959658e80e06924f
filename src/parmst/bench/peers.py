"""Other libraries' minimum spanning tree codes, timed by the same harness.

Each :class:`Peer` builds its library's graph object outside the timer
(``prepare``), times only the spanning-tree call (``solve``) and reports the
total weight of what it found (``weight_of``, also untimed), which the harness
compares with parmst's forest.

Peers run in a worker process (:class:`parmst.bench.peer_runner.PeerRunner`),
so that a peer that is too slow for a graph is stopped when it exceeds its
time budget per run and skipped with a note, never left hanging and never
holding up the benchmark.

A peer may also be a program that gets the graph as a file and times itself,
built by the user from public sources and named by an environment variable:
PBBS's parallel filter-Kruskal (``pbbs``, ``PARMST_PBBS_MST``), whose timer
covers the algorithm on the edge array in memory (compared with parmst's whole
call), and ECL-MST's CUDA binary (``ecl-mst``, ``PARMST_ECL_MST``), whose timer
covers its GPU computation alone (compared with parmst's compute time) and
which checks its own forest edge for edge against its serial Kruskal; and
ParGeo's Euclidean minimum spanning tree (``pargeo-emst``, ``PARMST_PARGEO_EMST``:
the small driver that benchmarks/pargeo_side_by_side.sh builds around its
library), whose timer covers its ``euclideanMst`` call on points in memory.

Point peers (``inputs="points"``: the Euclidean tree; ``"mutual-reachability"``:
HDBSCAN's tree) take the ``(n, d)`` points and ``min_samples`` instead of edges:
mlpack's dual-tree Borůvka, the SciPy Delaunay route (2-D and 3-D), fast_hdbscan's
tree and scikit-learn's HDBSCAN tree. Where they expose the tree's pairs
(``pair_ids_of``) the harness compares them with ours besides the total weight.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from parmst.bench.program_peers import (
    ECL_MST_PROGRAM,
    PARGEO_EMST_PROGRAM,
    PBBS_PROGRAM,
    _ecl_mst_solve,
    _ecl_mst_weight,
    _egr_input,
    _pargeo_input,
    _pargeo_solve,
    _pargeo_weight,
    _pbbs_input,
    _pbbs_solve,
    _pbbs_weight,
)
from parmst.forest import exact_sum

__all__ = ["ECL_MST_PROGRAM", "PBBS_PROGRAM", "PEERS", "Peer", "available_peers",
           "resolve_peers"]

log = logging.getLogger(__name__)

# NetworkX runs pure-Python loops: 30-90 µs per edge per run on a 2-core VM
# (Borůvka the slowest), so by default it is timed only on graphs up to this size.
NETWORKX_DEFAULT_MAX_EDGES = 20_000

@dataclass(frozen=True)
class Peer:
    """A library's spanning-tree routine, as the harness runs it.

    Attributes
    ----------
    name : str
        ``"scipy"``, ``"networkx-kruskal"``, ...
    module : str, optional
        What must be importable for it to run (None for a program).
    summary : str
        The call that is timed.
    prepare : callable
        ``prepare(src, dst, weight, n) -> object``: builds the input (untimed); for a
        point peer ``prepare(points, min_samples)``.
    solve : callable
        ``solve(object) -> result``: the timed call.
    weight_of : callable
        ``weight_of(result) -> total weight`` (untimed).
    default_max_edges : int, optional
        Graphs with more edges are left out unless the peer is asked for by name.
    needs_nonzero_weights : bool
        The library treats weight-0 entries as missing edges (SciPy).
    finds_tree : bool
        False for a reference timing that computes no tree (its weight is not compared).
    compares_with : str, optional
        For parmst's front doors, the peer whose call it replaces (the report's
        "Front doors" table divides that peer's time by this one's).
    floor : str, optional
        For parmst's front doors, the reference peer timing the least such a call must
        do (reading every edge and its weight), whose ``solve`` takes this peer's prepared
        object: the worker times it on the same graph beside each run of this peer, in
        the same process (first on every other run), and the report's "Floor" table
        divides each run's time by the floor's beside it.
    wraps : callable, optional
        For parmst's own whole call: ``wraps(prepared) -> (solver, seconds)`` times,
        in the same process and right after each run of the call, the bare solve of
        the solver the call picks on that graph; the report's "Call overhead" table
        divides this peer's time by that solve's (both selected alike from their runs).
    extra : str, optional
        The parmst pip extra that installs the library (None: installed otherwise).
    install : str
        How to install it, for the hint when it is missing.
    program_env : str, optional
        For a program rather than a library: the environment variable holding
        its path; it is installed when that names an executable file.
    times_itself : bool
        ``solve(prepared, calls)`` makes ``calls`` calls (the first the warm-up)
        and returns ``(seconds per call by its own timer, result)``.
    times_compute_only : bool
        Its own timer covers the computation alone, graph already on the
        device, so speedups against it use parmst's compute time, not the call.
    checks_itself : bool
        ``weight_of`` returns None when the peer's own exact check passed (its
        forest equals its own serial one, edge for edge) and NaN when it failed.
    weights_as : str, optional
        The dtype it reads weights as; graphs whose weights change when cast
        to it are skipped (their forest could differ from ours).
    inputs : str
        What it takes: ``"graph"`` (edges), ``"points"`` (the Euclidean tree of
        points) or ``"mutual-reachability"`` (HDBSCAN's tree of points, ``min_samples``).
    pair_ids_of : callable, optional
        ``pair_ids_of(result, points, min_samples)``: a point peer's tree as pair ids
        (``i*n - i*(i+1)/2 + j-i-1``), compared with ours after its last run (untimed).
    dimensions : tuple of int, optional
        The point dimensions it can take (others are skipped).
    distinct_points : bool
        It needs distinct points (point sets with repeats are skipped).
    weight_rel_tol : float
        How far its total float weight may lie from ours, relatively: rounding
        only, unless it computes in lower precision (fast_hdbscan's float32 distances).
    """

    name: str
    module: str | None
    summary: str
    prepare: Callable[[np.ndarray, np.ndarray, np.ndarray, int], Any]
    solve: Callable[[Any], Any]
    weight_of: Callable[[Any], int | float]
    default_max_edges: int | None = None
    needs_nonzero_weights: bool = False
    finds_tree: bool = True
    compares_with: str | None = None
    floor: str | None = None
    wraps: Callable[[Any], tuple[str, float]] | None = None
    extra: str | None = "peers"
    install: str = ""
    program_env: str | None = None
    times_itself: bool = False
    times_compute_only: bool = False
    checks_itself: bool = False
    weights_as: str | None = None
    inputs: str = "graph"
    pair_ids_of: Callable[..., np.ndarray] | None = None
    dimensions: tuple[int, ...] | None = None
    distinct_points: bool = False
    weight_rel_tol: float = 1e-9

    def installed(self) -> bool:
        """Whether its library can be imported (without importing it), or its program run."""
        if self.program_env is not None:
            path = os.environ.get(self.program_env, "")
            return os.path.isfile(path) and os.access(path, os.X_OK)
        try:
            return importlib.util.find_spec(self.module) is not None
        except (ImportError, ValueError):  # a dotted name whose parent package is missing
            return False

    def missing(self) -> str:
        """One line: the library is not installed, and how to get it.

        Examples
        --------
        >>> PEERS["scipy"].missing()
        "scipy is not installed (pip install 'parmst[peers]')"
        """
        if self.program_env is not None:
            return f"{self.program_env} names no executable file ({self.install})"
        how = f"pip install 'parmst[{self.extra}]'" if self.extra else self.install
        return f"{self.module.split('.')[0]} is not installed ({how})"


def _scipy_matrix(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int):
    from parmst.graph import Graph

    # Symmetric CSR without self-loops, keeping the lightest of parallel edges:
    # the minimum spanning forest weight is unchanged by both.
    return Graph(src, dst, weight, n).to_scipy()


def _scipy_solve(matrix):
    from scipy.sparse.csgraph import minimum_spanning_tree

    return minimum_spanning_tree(matrix)


def _networkx_graph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int):
    import networkx as nx

    return nx.from_scipy_sparse_array(_scipy_matrix(src, dst, weight, n))


def _networkx_solve(graph, algorithm: str) -> list:
    import networkx as nx

    return list(nx.minimum_spanning_edges(graph, algorithm=algorithm, data=True))


def _networkx_tree(graph):
    import networkx as nx

    return nx.minimum_spanning_tree(graph, algorithm="kruskal")


def _networkx_parmst_solve(graph, cached: bool, tree: bool):
    """parmst's NetworkX backend: the edges or the tree, conversion cached on G or redone.

    With ``cached`` NetworkX keeps the converted graph on ``G`` after the
    untimed warm-up run, as for any repeated call on an unchanged graph;
    without it every timed call converts ``G`` again.
    """
    import networkx as nx

    with nx.config(cache_converted_graphs=cached):
        if tree:
            return nx.minimum_spanning_tree(graph, algorithm="kruskal", backend="parmst")
        return list(nx.minimum_spanning_edges(graph, algorithm="kruskal", data=True,
                                              backend="parmst"))


def _networkx_edges_floor(graph) -> int:
    # What any backend must at least do with a NetworkX graph: read every edge and its weight.
    count = 0
    for _, _, data in graph.edges(data=True):
        data.get("weight")
        count += 1
    return count


def _parmst_scipy_solve(matrix):
    from parmst.scipy import minimum_spanning_tree

    return minimum_spanning_tree(matrix)


def _parmst_graph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int):
    from parmst.graph import Graph

    return Graph.from_edges(src, dst, weight, num_vertices=n)


def _parmst_auto_solve(graph):
    """``parmst.minimum_spanning_forest(graph)`` on a graph built beforehand, as a user calls
    it once: the graph's cached views (CSR, keys) are dropped first, so every run pays them."""
    from parmst.api import minimum_spanning_forest

    graph.clear_cache()
    forest = minimum_spanning_forest(graph)
    forest.edge_ids  # noqa: B018 - reading the ids is part of the call
    return forest


def _parmst_auto_wrapped(graph) -> tuple[str, float]:
    """The solve that ``parmst.minimum_spanning_forest(graph)`` wraps, timed alone from the
    same state (cached views dropped): the solver "auto" picks, called as the harness calls
    a solver, without the call's selection, checks and Forest."""
    from parmst.registry import prepare
    from parmst.stats import Stats

    graph.clear_cache()
    chosen, solve = prepare("auto", graph, {})
    start = time.perf_counter()
    solve(graph, Stats())
    return chosen.name, time.perf_counter() - start


def _networkx_weight(edges) -> int | float:
    if not isinstance(edges, list):  # a tree graph
        edges = edges.edges(data=True)
    return exact_sum(np.array([data["weight"] for _, _, data in edges]))


def _igraph_graph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int):
    import igraph

    graph = igraph.Graph(n=n, edges=np.column_stack([src, dst]).tolist())
    return graph, weight.tolist(), weight


def _igraph_solve(prepared) -> tuple[list, np.ndarray]:
    graph, weights, weight_array = prepared
    return graph.spanning_tree(weights=weights, return_tree=False), weight_array


def _igraph_weight(result) -> int | float:
    ids, weight = result
    return exact_sum(weight[np.asarray(ids, dtype=np.int64)])


def _networkit_graph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int):
    import networkit

    # One entry per vertex pair, as for SciPy: NetworKit's graph keeps no edge ids.
    coo = _scipy_matrix(src, dst, weight, n).tocoo()
    upper = coo.row < coo.col
    return networkit.GraphFromCoo(
        (coo.data[upper].astype(np.float64),
         (coo.row[upper].astype(np.uint64), coo.col[upper].astype(np.uint64))),
        n=n, weighted=True, directed=False)


def _networkit_solve(graph):
    import networkit

    forest = networkit.graph.KruskalMSF(graph)
    forest.run()
    return forest


def _networkit_weight(forest) -> int | float:
    return forest.getTotalWeight()


def _cugraph_graph(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, n: int):
    import cudf
    import cugraph

    upper = _scipy_matrix(src, dst, weight, n)
    coo = upper.tocoo()
    keep = coo.row < coo.col
    frame = cudf.DataFrame({"src": coo.row[keep], "dst": coo.col[keep],
                            "weight": coo.data[keep].astype(np.float64)})
    graph = cugraph.Graph(directed=False)
    graph.from_cudf_edgelist(frame, source="src", destination="dst", edge_attr="weight")
    return graph


def _cugraph_solve(graph):
    import cugraph

    return cugraph.minimum_spanning_tree(graph)


def _cugraph_weight(tree) -> int | float:
    edges = tree.view_edge_list().to_pandas()
    # Each tree edge may be listed once or in both directions: count each pair once.
    src, dst = edges["src"].to_numpy(), edges["dst"].to_numpy()
    pairs = np.minimum(src, dst).astype(np.int64) << 32 | np.maximum(src, dst)
    _, first = np.unique(pairs, return_index=True)
    return exact_sum(edges["weight"].to_numpy()[first])


def _scipy_weight(tree) -> int | float:
    return exact_sum(tree.data)


def _points(points: np.ndarray, min_samples: int | None) -> tuple[np.ndarray, int | None]:
    return np.ascontiguousarray(points, dtype=np.float64), min_samples


def _pair_ids(first: np.ndarray, second: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Sorted pair ids of a tree given as index pairs in either order."""
    from parmst.order.pairs import pair_ids

    first, second = np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
    return np.sort(pair_ids(np.minimum(first, second), np.maximum(first, second), len(points)))


def _mlpack_emst(prepared: tuple[np.ndarray, None]) -> np.ndarray:
    import mlpack

    return mlpack.emst(input_=prepared[0])["output"]  # rows: lesser index, greater, distance


def _delaunay_emst(prepared: tuple[np.ndarray, None]):
    """The Euclidean tree is a subgraph of the Delaunay triangulation: triangulate (Qhull),
    then SciPy's minimum spanning tree of the triangulation's edges, weighted by length."""
    from itertools import combinations

    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import minimum_spanning_tree
    from scipy.spatial import Delaunay

    points = prepared[0]
    n = len(points)
    simplices = Delaunay(points).simplices.astype(np.int64)
    sides = [np.sort(simplices[:, [a, b]], axis=1)
             for a, b in combinations(range(simplices.shape[1]), 2)]
    pairs = np.unique(np.concatenate([side[:, 0] * n + side[:, 1] for side in sides]))
    first, second = pairs // n, pairs % n
    length = np.sqrt(((points[first] - points[second]) ** 2).sum(axis=1))
    return minimum_spanning_tree(coo_array((length, (first, second)), shape=(n, n))).tocoo()


def _fast_hdbscan_tree(prepared: tuple[np.ndarray, int]) -> np.ndarray:
    from fast_hdbscan.hdbscan import compute_minimum_spanning_tree

    points, min_samples = prepared
    # fast_hdbscan's core distance is to the (min_samples + 1)-th point, the point itself
    # counted: scikit-learn's (and parmst's) min_samples less one.
    edges, _, _ = compute_minimum_spanning_tree(points, min_samples=min_samples - 1)
    return edges  # rows: src, dst, mutual-reachability distance


def _sklearn_hdbscan_tree(prepared: tuple[np.ndarray, int]) -> np.ndarray:
    from sklearn.cluster._hdbscan.hdbscan import _hdbscan_prims

    points, min_samples = prepared
    # HDBSCAN.fit's tree: k-d tree core distances, Prim's tree of the mutual reachability
    # graph, sorted into the single-linkage tree; the condensed tree is not built.
    return _hdbscan_prims(points, "kd_tree", min_samples=min_samples)


PEERS: dict[str, Peer] = {peer.name: peer for peer in (
    Peer("scipy", "scipy.sparse.csgraph", "scipy.sparse.csgraph.minimum_spanning_tree(csr)",
         _scipy_matrix, _scipy_solve, _scipy_weight, needs_nonzero_weights=True),
    *(Peer(f"networkx-{algorithm}", "networkx",
           f"networkx.minimum_spanning_edges(G, algorithm={algorithm!r})",
           _networkx_graph, partial(_networkx_solve, algorithm=algorithm), _networkx_weight,
           default_max_edges=NETWORKX_DEFAULT_MAX_EDGES)
      for algorithm in ("kruskal", "prim", "boruvka")),
    # parmst's own front doors (FRONT_DOORS), timed in the same loop as the originals they
    # replace when named: --peers parmst,scipy,networkx-kruskal.
    Peer("parmst-auto", "parmst", "parmst.minimum_spanning_forest(graph) (solver 'auto', the "
         "graph built beforehand)", _parmst_graph, _parmst_auto_solve,
         lambda forest: forest.total_weight, extra=None, compares_with="scipy",
         wraps=_parmst_auto_wrapped),
    Peer("parmst-scipy", "scipy.sparse.csgraph",
         "parmst.scipy.minimum_spanning_tree(csr) (parmst's SciPy drop-in)",
         _scipy_matrix, _parmst_scipy_solve, _scipy_weight, needs_nonzero_weights=True,
         compares_with="scipy"),
    *(Peer(f"parmst-networkx{suffix}", "networkx",
           f"networkx.{call}(G, backend='parmst') (parmst's NetworkX backend, {how})",
           _networkx_graph, partial(_networkx_parmst_solve, cached=cached, tree=tree),
           _networkx_weight,
           compares_with="networkx-kruskal-tree" if tree else "networkx-kruskal",
           floor=None if cached else "networkx-edges-floor")
      for suffix, call, how, cached, tree in (
          ("", "minimum_spanning_edges", "conversion cached on G", True, False),
          ("-uncached", "minimum_spanning_edges", "G converted in every call", False, False),
          ("-tree", "minimum_spanning_tree", "G converted in every call", False, True),
          ("-tree-cached", "minimum_spanning_tree", "conversion cached on G", True, True))),
    Peer("networkx-kruskal-tree", "networkx", "networkx.minimum_spanning_tree(G)",
         _networkx_graph, _networkx_tree, _networkx_weight,
         default_max_edges=NETWORKX_DEFAULT_MAX_EDGES),
    Peer("networkx-edges-floor", "networkx",
         "for u, v, d in G.edges(data=True): d.get('weight'): reading every edge and its "
         "weight, the least any backend must do (no tree: its weight is not compared)",
         _networkx_graph, _networkx_edges_floor, lambda count: None,
         default_max_edges=NETWORKX_DEFAULT_MAX_EDGES, finds_tree=False,
         compares_with="networkx-kruskal"),
    Peer("igraph", "igraph", "igraph.Graph.spanning_tree(weights, return_tree=False)",
         _igraph_graph, _igraph_solve, _igraph_weight),
    Peer("networkit", "networkit", "networkit.graph.KruskalMSF(G).run() (its weights are float64)",
         _networkit_graph, _networkit_solve, _networkit_weight),
    Peer("pbbs", None, "PBBS parallelFilterKruskal: MST -r N -o out graph.wea (its own "
         "timer; threads from PARLAY_NUM_THREADS)", _pbbs_input, _pbbs_solve, _pbbs_weight,
         extra=None, program_env=PBBS_PROGRAM, times_itself=True, weights_as="float32",
         install="build benchmarks/minSpanningForest/parallelFilterKruskal of "
                 "github.com/cmuparlay/pbbsbench with make and name its MST binary"),
    Peer("ecl-mst", None, "ECL-MST's CUDA binary on the graph's .egr file (its own timer, "
         "compute only; exact by its own check)", _egr_input, _ecl_mst_solve, _ecl_mst_weight,
         extra=None, program_env=ECL_MST_PROGRAM, times_itself=True, times_compute_only=True,
         checks_itself=True,
         install="benchmarks/ecl_mst_side_by_side.sh builds it from github.com/burtscher/ECL-MST"),
    Peer("mlpack-emst", "mlpack", "mlpack.emst(input_=points) (dual-tree Borůvka, March, Ram "
         "and Gray, KDD 2010; one thread)", _points, _mlpack_emst,
         lambda rows: exact_sum(rows[:, 2]), extra=None, install="pip install mlpack",
         inputs="points",
         pair_ids_of=lambda rows, points, _: _pair_ids(rows[:, 0], rows[:, 1], points)),
    Peer("pargeo-emst", None, "ParGeo's euclideanMst (Wang, Yu, Gu and Shun, SIGMOD 2021: "
         "well-separated pairs with GeoFilterKruskal; its own timer, points in memory; threads "
         "from PARLAY_NUM_THREADS)", _pargeo_input, _pargeo_solve, _pargeo_weight, extra=None,
         program_env=PARGEO_EMST_PROGRAM, times_itself=True, inputs="points",
         pair_ids_of=lambda result, points, _: _pair_ids(result[0][:, 0], result[0][:, 1], points),
         dimensions=(2, 3, 5), distinct_points=True,
         install="benchmarks/pargeo_side_by_side.sh builds it from github.com/ParAlg/ParGeo"),
    Peer("delaunay-scipy", "scipy.spatial", "scipy.spatial.Delaunay(points), then "
         "scipy.sparse.csgraph.minimum_spanning_tree of its edges (both timed)", _points,
         _delaunay_emst, lambda tree: exact_sum(tree.data), inputs="points",
         pair_ids_of=lambda tree, points, _: _pair_ids(tree.row, tree.col, points),
         dimensions=(2, 3), distinct_points=True),
    Peer("fast-hdbscan", "fast_hdbscan", "fast_hdbscan.hdbscan.compute_minimum_spanning_tree("
         "points, min_samples - 1) (the tree of its fit: k-d tree core distances, parallel "
         "Borůvka; float32 distances, so its weight is compared within 1e-5)", _points,
         _fast_hdbscan_tree, lambda edges: exact_sum(edges[:, 2]), extra=None,
         install="pip install fast_hdbscan", inputs="mutual-reachability", weight_rel_tol=1e-5,
         pair_ids_of=lambda edges, points, _: _pair_ids(edges[:, 0], edges[:, 1], points)),
    Peer("sklearn-hdbscan", "sklearn.cluster", "scikit-learn's HDBSCAN tree: "
         "sklearn.cluster._hdbscan.hdbscan._hdbscan_prims(points, 'kd_tree', min_samples) "
         "(the fit less its condensed tree; Prim over all pairs)", _points,
         _sklearn_hdbscan_tree, lambda tree: exact_sum(tree["value"]), extra=None,
         install="pip install scikit-learn", inputs="mutual-reachability"),
    Peer("cugraph", "cugraph", "cugraph.minimum_spanning_tree(G) (GPU)",
         _cugraph_graph, _cugraph_solve, _cugraph_weight, extra=None,
         install="RAPIDS: pip install cugraph-cu12 --extra-index-url=https://pypi.nvidia.com"),
)}


FRONT_DOORS = ("parmst-auto", "parmst-scipy", "parmst-networkx", "parmst-networkx-uncached",
               "parmst-networkx-tree", "parmst-networkx-tree-cached", "networkx-edges-floor")
"""parmst behind another library's API (and the edge-reading floor beside them): peers
only when named, never by default."""


def available_peers() -> list[str]:
    """Names of the other libraries' peers whose library is installed (the default peers).

    Examples
    --------
    >>> "scipy" in available_peers()
    True
    """
    return [name for name, peer in PEERS.items()
            if peer.installed() and name not in FRONT_DOORS]


def resolve_peers(names: list[str] | None) -> tuple[list[str], bool]:
    """Expand peer names: a name also names every peer it prefixes (``"networkx"``: all
    NetworkX's; ``"parmst"``: the front doors); ``"none"`` names none.

    Returns the peer names and whether they were asked for explicitly (an
    explicitly named peer runs on graphs of any size, within its budget).

    Examples
    --------
    >>> resolve_peers(["networkx"])[0][:3]
    ['networkx-kruskal', 'networkx-prim', 'networkx-boruvka']
    >>> resolve_peers(["parmst-networkx-tree"])
    (['parmst-networkx-tree', 'parmst-networkx-tree-cached'], True)
    >>> resolve_peers(["none"])
    ([], True)
    """
    if names is None:
        return available_peers(), False
    chosen: list[str] = []
    for name in names:
        if name == "none":
            continue
        matches = [p for p in PEERS if p == name or p.startswith(name + "-")]
        if not matches:
            raise ValueError(f"unknown peer {name!r}; peers: {', '.join(PEERS)} "
                             "(a name also names every peer it prefixes: networkx, parmst)")
        chosen.extend(m for m in matches if m not in chosen)
    return chosen, True
