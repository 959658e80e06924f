"""Peers: name resolution, weight agreement, and the time budget that stops slow ones."""

import numpy as np
import pytest

import parmst
from parmst.bench.peers import PEERS, PeerRunner, available_peers, resolve_peers


@pytest.fixture(scope="module")
def runner():
    with PeerRunner(budget=60) as shared:
        yield shared


def _arrays(graph):
    return graph.src, graph.dst, graph.weight, graph.num_vertices


def test_default_peers_are_the_installed_ones():
    names, explicit = resolve_peers(None)
    assert names == available_peers() and not explicit
    assert "scipy" in names


def test_unknown_peer_is_rejected_with_the_list():
    with pytest.raises(ValueError, match="networkx-kruskal"):
        resolve_peers(["matlab"])


@pytest.mark.parametrize("name", [p for p in PEERS if p != "cugraph" and PEERS[p].finds_tree])
def test_peer_weight_matches_ours_with_multi_edges_and_loops(runner, name):
    if not PEERS[name].installed():
        pytest.skip(f"{PEERS[name].module} is not installed")
    g = parmst.Graph.from_edges([0, 0, 1, 2, 2, 3, 4], [1, 1, 2, 0, 2, 4, 3],
                                [5.0, 2.0, 3.0, 4.0, 1.0, 7.0, 6.0], num_vertices=6)
    out = runner.run(name, *_arrays(g), runs=2)
    assert out.error is None and out.skipped is None
    assert len(out.times) == 2
    assert out.total_weight == parmst.minimum_spanning_forest(g).total_weight == 11.0


def test_reference_timing_without_a_tree_reports_times_and_no_weight(runner):
    pytest.importorskip("networkx")
    g = parmst.generate("grid2d:side=5,seed=1")
    out = runner.run("networkx-read-edges", *_arrays(g), runs=2)
    assert out.error is None and len(out.times) == 2 and out.total_weight is None


def test_a_prefix_names_every_peer_it_starts():
    names, _ = resolve_peers(["parmst"])
    assert names == [p for p in PEERS if p.startswith("parmst-")]
    assert {"parmst-scipy", "parmst-networkx-uncached", "parmst-networkx-tree"} <= set(names)
    assert all(PEERS[p].compares_with in PEERS for p in names)


def test_peer_error_is_reported_not_raised(runner):
    out = runner.run("scipy", np.array([0]), np.array([5]), np.array([1.0]), 2, runs=1)
    assert out.error is not None and out.times == []
    assert runner.run("scipy", np.array([0]), np.array([1]), np.array([2.0]), 2,
                      runs=1).total_weight == 2.0


def test_budget_stops_a_peer_and_the_next_job_gets_a_fresh_worker():
    g = parmst.generate("grid2d:side=8,seed=1")
    with PeerRunner(budget=0.001) as tight:
        out = tight.run("scipy", *_arrays(g), runs=2, start_timeout=0)
        assert out.skipped == "exceeded the 0.001 s budget (building its graph)"
        assert out.times == []
        tight.budget = 60
        assert tight.run("scipy", *_arrays(g), runs=1).skipped is None


def test_budget_stops_a_slow_warm_up_run():
    if not PEERS["networkx-boruvka"].installed():
        pytest.skip("networkx is not installed")
    g = parmst.generate("grid2d:side=100,seed=1")
    with PeerRunner(budget=0.05) as tight:
        out = tight.run("networkx-boruvka", *_arrays(g), runs=3, start_timeout=120)
    assert out.skipped == "exceeded the 0.05 s budget (the warm-up run)"


class _Column:
    def __init__(self, values):
        self.values = np.asarray(values)

    def to_numpy(self):
        return self.values


class _FakeTree:
    """Stands in for a cuGraph result: view_edge_list().to_pandas() -> columns."""

    def __init__(self, src, dst, weight):
        self.columns = {"src": _Column(src), "dst": _Column(dst), "weight": _Column(weight)}

    def view_edge_list(self):
        return self

    def to_pandas(self):
        return self.columns


def test_cugraph_weight_counts_each_tree_edge_once_in_either_listing():
    weight_of = PEERS["cugraph"].weight_of
    assert weight_of(_FakeTree([0, 1], [1, 2], [2.0, 3.0])) == 5.0
    assert weight_of(_FakeTree([0, 1, 1, 2], [1, 0, 2, 1], [2.0, 2.0, 3.0, 3.0])) == 5.0
