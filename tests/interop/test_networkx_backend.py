"""The ``parmst`` NetworkX backend gives exactly NetworkX's results.

Random small graphs (ties, NaN, infinities, self-loops, multi-edges, mixed
node labels) are solved by NetworkX's own code and by the backend; the
yielded tuples must be equal element by element, with the very same
attribute dict objects, and errors must match in type, message and timing.
"""

from __future__ import annotations

import gc
import random
import subprocess
import sys

import networkx as nx
import pytest
from networkx.algorithms.tree import mst

from interop.nx_numpy_route_plugin import route_patches
from parmst.interop import _nx_results
from parmst.interop.networkx_backend import MIN_EDGES, BackendInterface, NxSnapshot

# None: no weight attribute (NetworkX then uses 1)
WEIGHTS = [0.5, -0.0, 0.0, 1.5, 2.25, 1, 2, -1, float("inf"), float("-inf"), float("nan"), None]


@pytest.fixture(params=["numpy", "compiled"])
def route(request, monkeypatch):
    """Small graphs take the NumPy route while no compiled kernel is loaded, the compiled
    kernels otherwise: both must give NetworkX's answer."""
    for module, name, value in route_patches(compiled=request.param == "compiled"):
        monkeypatch.setattr(module, name, value)
    return request.param


def _random_graph(seed: int) -> nx.Graph:
    rng = random.Random(seed)
    graph = nx.MultiGraph() if seed % 3 == 0 else nx.Graph()
    n = rng.randint(0, 10)
    labels = list(range(n)) if seed % 2 else [rng.choice([i, f"n{i}", (i, "x"), 7 * i + 50])
                                               for i in range(n)]
    rng.shuffle(labels)
    graph.add_nodes_from(labels)
    for _ in range(rng.randint(0, 3 * n) if n else 0):
        w = rng.choice(WEIGHTS)
        attrs = {} if w is None else {"weight": w}
        graph.add_edge(rng.choice(labels), rng.choice(labels), color=rng.random(), **attrs)
    return graph


def _outcome(function, graph, **options):
    out = []
    try:
        out.extend(function(graph, **options))
    except (ValueError, nx.NetworkXNotImplemented) as exc:
        return out, (type(exc), str(exc))
    return out, None


def _assert_same(ours, theirs):
    assert ours[1] == theirs[1]
    assert len(ours[0]) == len(theirs[0])
    for a, b in zip(ours[0], theirs[0]):
        assert a == b
        assert all(x is y for x, y in zip(a, b) if isinstance(x, dict))


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("algorithm", ["kruskal", "prim", "boruvka"])
def test_spanning_edges_equal_networkx(seed, algorithm, route):
    graph = _random_graph(seed)
    for minimum in (True, False):
        theirs_fn = mst.minimum_spanning_edges if minimum else mst.maximum_spanning_edges
        ours_fn = (BackendInterface.minimum_spanning_edges if minimum
                   else BackendInterface.maximum_spanning_edges)
        for ignore_nan in (False, True):
            for keys, data in ((True, True), (False, False), (True, False), (False, True)):
                options = {"algorithm": algorithm, "keys": keys, "data": data,
                           "ignore_nan": ignore_nan}
                theirs = _outcome(theirs_fn, graph, backend="networkx", **options)
                try:
                    ours = _outcome(ours_fn, graph, **options)
                except nx.NetworkXNotImplemented as exc:  # raised at call time, as NetworkX does
                    ours = [], (type(exc), str(exc))
                _assert_same(ours, theirs)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("algorithm", ["kruskal", "prim"])
def test_trees_equal_networkx(seed, algorithm, route):
    graph = _random_graph(seed)
    graph.graph["name"] = "g"
    for node in graph:
        graph.nodes[node]["size"] = str(node)
    for ours_fn, theirs_fn in ((BackendInterface.minimum_spanning_tree, mst.minimum_spanning_tree),
                               (BackendInterface.maximum_spanning_tree, mst.maximum_spanning_tree)):
        theirs = theirs_fn(graph, algorithm=algorithm, ignore_nan=True, backend="networkx")
        ours = ours_fn(graph, algorithm=algorithm, ignore_nan=True)
        assert type(ours) is type(theirs) and ours.graph == theirs.graph
        assert list(ours.nodes(data=True)) == list(theirs.nodes(data=True))
        assert list(ours.edges(data=True)) == list(theirs.edges(data=True))
        assert ours._adj == theirs._adj


def _sharing(tree: nx.Graph, graph: nx.Graph) -> list[tuple]:
    """Which of a tree's dicts are one object: per node, whether its data is the input's;
    per edge entry, whether its data is the input's and the mirror entry's."""
    nodes = [tree._node[v] is graph._node[v] for v in tree]
    entries = []
    for u, row in tree._adj.items():
        for v, data in row.items():
            for key, d in (data.items() if tree.is_multigraph() else [(None, data)]):
                mirror = tree._adj[v][u] if key is None else tree._adj[v][u][key]
                given = graph._adj[u][v] if key is None else graph._adj[u][v][key]
                entries.append((u, v, key, d is mirror, d is given))
    return [nodes, entries]


@pytest.mark.parametrize("seed", range(1, 12, 2))
def test_results_made_in_bursts_equal_networkx(seed, monkeypatch):
    """Tuples and tree entries are made in bursts of ``CHUNK`` with collections between:
    with bursts of 2 (many per graph) the results are still NetworkX's."""
    monkeypatch.setattr(_nx_results, "CHUNK", 2)
    graph = _random_graph(seed)
    for minimum in (True, False):
        ours_fn = (BackendInterface.minimum_spanning_edges if minimum
                   else BackendInterface.maximum_spanning_edges)
        theirs_fn = mst.minimum_spanning_edges if minimum else mst.maximum_spanning_edges
        _assert_same(_outcome(ours_fn, graph, ignore_nan=True),
                     _outcome(theirs_fn, graph, ignore_nan=True, backend="networkx"))
    ours = BackendInterface.minimum_spanning_tree(graph, ignore_nan=True)
    theirs = mst.minimum_spanning_tree(graph, ignore_nan=True, backend="networkx")
    assert list(ours.edges(data=True)) == list(theirs.edges(data=True))
    assert _sharing(ours, graph) == _sharing(theirs, graph)


def test_collector_left_as_the_caller_had_it(monkeypatch):
    """With the collector running, the youngest generation is collected after each burst
    (which untracks tuples of ints alone); with it stopped, no collection is made."""
    monkeypatch.setattr(_nx_results, "CHUNK", 16)
    graph = nx.convert_node_labels_to_integers(nx.grid_2d_graph(8, 8))
    for k, (_, _, data) in enumerate(graph.edges(data=True)):
        data["weight"] = (k * 37 % 11) / 4
    expected = list(mst.minimum_spanning_edges(graph, backend="networkx"))
    assert gc.isenabled()
    pairs = list(BackendInterface.minimum_spanning_edges(graph, data=False))
    assert gc.isenabled() and pairs == [(u, v) for u, v, _ in expected]
    assert not any(map(gc.is_tracked, pairs))
    gc.disable()
    try:
        before = [stats["collections"] for stats in gc.get_stats()]
        edges = list(BackendInterface.minimum_spanning_edges(graph))
        tree = BackendInterface.minimum_spanning_tree(graph)
        assert not gc.isenabled()
        assert [stats["collections"] for stats in gc.get_stats()] == before
    finally:
        gc.enable()
    assert edges == expected and sorted(tree.edges) == sorted((u, v) for u, v, _ in expected)


@pytest.mark.parametrize("seed", range(12))
def test_trees_share_dicts_as_networkx_does(seed, route):
    """NetworkX's tree copies every node's and edge's data once, and both entries of an
    edge hold the same copy: the backend's tree has the same objects in the same places."""
    graph = _random_graph(seed)
    for node in graph:
        graph.nodes[node]["size"] = 1
    theirs = mst.minimum_spanning_tree(graph, ignore_nan=True, backend="networkx")
    ours = BackendInterface.minimum_spanning_tree(graph, ignore_nan=True)
    assert _sharing(ours, graph) == _sharing(theirs, graph)
    assert all(type(d) is dict for row in ours._adj.values() for d in row.values())


@pytest.mark.parametrize("multigraph", [False, True])
def test_labels_that_are_positions_give_networkx_results(multigraph, route):
    """Nodes 0..n-1 in order: neighbours are their own positions, no lookup is made."""
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(6, 5))
    graph = nx.MultiGraph(grid) if multigraph else nx.Graph(grid)
    graph.add_edge(3, 4)
    for u, v, data in graph.edges(data=True):
        data["weight"] = (u * 7 + v) % 5
    assert NxSnapshot(graph).labels_are_positions
    tree = BackendInterface.minimum_spanning_tree(graph)
    expected = mst.minimum_spanning_tree(graph, backend="networkx")
    assert list(tree.edges(data=True)) == list(expected.edges(data=True))
    assert tree._adj == expected._adj and list(tree.nodes) == list(expected.nodes)
    next(iter(graph.edges(data=True)))[2]["weight"] = float("nan")
    _assert_same(_outcome(BackendInterface.minimum_spanning_edges, graph),
                 _outcome(mst.minimum_spanning_edges, graph, backend="networkx"))


def test_integer_labels_of_any_type_give_networkx_results(route):
    """Labels read as integers (``bool``, numpy's ints) are positions when they are 0..n-1
    in node order; out of order, only ``int`` labels map through an array, others through
    a dict: every way gives NetworkX's answer, with the graph's own label objects."""
    import numpy as np

    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(5, 4))
    for k, (_, _, data) in enumerate(grid.edges(data=True)):
        data["weight"] = (k * 7) % 5
    as_positions = [lambda i: bool(i) if i < 2 else i, np.int64, np.int32]
    out_of_order = [lambda i: 3 * i + 7, lambda i: np.int64(3 * i + 7), lambda i: float(i)]
    for relabel, positions in [(f, True) for f in as_positions] + [(f, False) for f in out_of_order]:
        graph = nx.relabel_nodes(grid, {i: relabel(i) for i in grid})
        assert NxSnapshot(graph).labels_are_positions == positions
        ours = list(BackendInterface.minimum_spanning_edges(graph))
        theirs = list(mst.minimum_spanning_edges(graph, backend="networkx"))
        assert ours == theirs
        assert all(a[0] is b[0] and a[1] is b[1] and a[2] is b[2] for a, b in zip(ours, theirs))


def test_snapshot_lists_start_out_of_the_youngest_generation():
    """The snapshot's lists of nodes and dicts are moved to an older generation while
    empty, so that the collections between bursts of results never walk them."""
    graph = nx.convert_node_labels_to_integers(nx.grid_2d_graph(20, 20))
    snap = NxSnapshot(graph)
    young = {id(o) for o in gc.get_objects(generation=0)}
    assert id(snap.nodes) not in young and id(snap.edge_dicts) not in young
    assert len(snap.nodes) == 400 and len(snap.edge_dicts) == 760


def test_subclass_uses_public_methods():
    class Roads(nx.Graph):
        pass

    graph = Roads([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (0, 2, {"weight": 3})])
    tree = BackendInterface.minimum_spanning_tree(graph)
    assert type(tree) is Roads and sorted(tree.edges) == [(0, 1), (1, 2)]


def test_snapshot_round_trips_and_maps_labels():
    graph = nx.MultiGraph([("a", "b", {"weight": 1}), ("b", "c"), ("a", "b", {"weight": 0})])
    graph.add_edge(10**30, "a")
    snap = NxSnapshot(graph)
    assert snap.num_vertices == 4 and snap.num_edges == 4
    back = BackendInterface.convert_to_nx(snap)
    assert nx.utils.edges_equal(back.edges(keys=True, data=True),
                                graph.edges(keys=True, data=True))


def test_can_run_and_should_run_give_reasons():
    small = nx.path_graph(5)
    assert BackendInterface.can_run("minimum_spanning_tree", (small,), {}) is True
    assert BackendInterface.can_run("minimum_spanning_tree", (nx.DiGraph(),), {}) is True
    assert "directed" in BackendInterface.can_run("kruskal_mst_edges", (nx.DiGraph(), True), {})
    assert "partition" in BackendInterface.can_run(
        "kruskal_mst_edges", (small, True), {"partition": "p"})
    assert "edges" in BackendInterface.should_run("minimum_spanning_tree", (small,), {})
    assert BackendInterface.should_run(
        "minimum_spanning_tree", (nx.path_graph(MIN_EDGES + 2),), {}) is True


def test_directed_graph_raises_networkx_error_with_the_reason():
    graph = nx.DiGraph()
    graph.add_weighted_edges_from((i, i + 1, 1.0) for i in range(MIN_EDGES + 2))
    with pytest.raises(nx.NetworkXNotImplemented,
                       match="directed type: parmst finds spanning trees of undirected"):
        nx.minimum_spanning_tree(graph, backend="parmst")
    with pytest.raises(nx.NetworkXNotImplemented, match="to_undirected"):
        BackendInterface.maximum_spanning_tree(graph)


def test_unsupported_weights_raise_not_implemented():
    graph = nx.Graph([(0, 1, {"weight": "heavy"})])
    with pytest.raises(NotImplementedError, match="int and float"):
        BackendInterface.minimum_spanning_tree(graph)


def test_integers_beyond_float_precision_keep_their_order_or_are_declined(route):
    path = [(0, 1), (1, 2), (2, 0), (2, 3)]
    big_ints = nx.Graph([(u, v, {"weight": w}) for (u, v), w in
                         zip(path, [2**60 + 1, 2**60, 2**60 + 2, -(2**62)])])
    ints_and_infinity = nx.Graph([(u, v, {"weight": w}) for (u, v), w in
                                  zip(path, [3, float("inf"), 1, float("-inf")])])
    for graph in (big_ints, ints_and_infinity):
        for function in ("minimum_spanning_edges", "maximum_spanning_edges"):
            theirs = list(getattr(nx, function)(graph))
            assert list(getattr(BackendInterface, function)(graph)) == theirs
    # 2**60 + 1 as a float would equal 2**60: their order would be lost.
    mixed = nx.Graph([(0, 1, {"weight": 2**60 + 1}), (1, 2, {"weight": 2.0**60}),
                      (2, 0, {"weight": 1})])
    with pytest.raises(NotImplementedError, match="2\\*\\*53"):
        BackendInterface.minimum_spanning_tree(mixed)


def test_unknown_algorithm_is_networkx_error():
    with pytest.raises(ValueError, match="random is not a valid choice for an algorithm."):
        BackendInterface.minimum_spanning_edges(nx.Graph(), algorithm="random")


DISPATCH = """
import networkx as nx, warnings
G = nx.gnm_random_graph(3000, 9000, seed=1)
for u, v, d in G.edges(data=True):
    d["weight"] = (u * 7 + v) % 13
assert "parmst" in nx.utils.backends.backends
expected = nx.minimum_spanning_tree(G, backend="networkx")
ours = nx.minimum_spanning_tree(G, backend="parmst")
assert list(ours.edges(data=True)) == list(expected.edges(data=True))
assert list(nx.minimum_spanning_edges(G, algorithm="prim", backend="parmst")) == list(
    nx.minimum_spanning_edges(G, algorithm="prim", backend="networkx"))
try:
    nx.minimum_spanning_tree(nx.DiGraph([(0, 1)]), backend="parmst")
except nx.NetworkXNotImplemented as exc:
    assert "parmst finds spanning trees of undirected graphs" in str(exc)
else:
    raise AssertionError("a directed graph was accepted")
with nx.config.backend_priority(algos=["parmst"]):
    auto = nx.maximum_spanning_tree(G)
assert list(auto.edges(data=True)) == list(nx.maximum_spanning_tree(G, backend="networkx").edges(data=True))
# NetworkX caches the converted graph on H; attribute dicts that refer back to H
# must not keep H alive once the caller drops it.
import gc, weakref
H = nx.path_graph(300)
for u, v, d in H.edges(data=True):
    d.update(weight=u % 7, graph=H)
H.nodes[0]["graph"] = H
del d  # the loop's last dict would keep H alive by itself
nx.minimum_spanning_tree(H, backend="parmst")
assert list(nx.minimum_spanning_edges(H, backend="parmst"))
assert H.__networkx_cache__.get("backends", {}).get("parmst")
alive = weakref.ref(H)
del H
gc.collect()
assert alive() is None, "a cached conversion kept its graph alive"
print("dispatched")
"""


def test_dispatch_through_networkx(backend_env):
    run = subprocess.run([sys.executable, "-c", DISPATCH], env=backend_env, capture_output=True,
                         text=True, timeout=600, check=False)
    assert run.returncode == 0 and "dispatched" in run.stdout, run.stderr[-3000:]


def test_missing_weights_count_as_one_whatever_the_attribute_dicts():
    """NetworkX reads ``d.get(weight, 1)``: a missing weight is 1, never a dict's own default."""
    from collections import defaultdict

    class Defaulting(nx.Graph):
        edge_attr_dict_factory = staticmethod(lambda: defaultdict(lambda: -5))

    for cls in (nx.Graph, Defaulting):
        graph = cls([(0, 1, {"weight": 2}), (1, 2), (0, 2, {"weight": 1.5})])
        ours = list(BackendInterface.minimum_spanning_edges(graph, data=False))
        assert ours == list(mst.minimum_spanning_edges(graph, data=False, backend="networkx"))
        assert ours == [(1, 2), (0, 2)]
        assert "weight" not in graph[1][2]  # read, not filled in by the dict's default


def test_graphs_with_their_own_dict_factories_give_networkx_results():
    class Rows(dict):
        pass

    class Custom(nx.MultiGraph):
        adjlist_inner_dict_factory = Rows
        edge_key_dict_factory = Rows

    graph = Custom([(0, 1, {"weight": 2}), (1, 2, {"weight": 1}), (0, 2, {"weight": 3}),
                    (0, 1, {"weight": 0})])
    ours = list(BackendInterface.minimum_spanning_edges(graph))
    assert ours == list(mst.minimum_spanning_edges(graph, backend="networkx"))
    assert [k for _, _, k, _ in ours] == [1, 0]
