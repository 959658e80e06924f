"""Peers: name resolution, weight agreement, and the time budget that stops slow ones."""

import sys

import numpy as np
import pytest

import parmst
import parmst.bench
from parmst.bench.peer_runner import PeerRunner
from parmst.bench.peers import PEERS, available_peers, resolve_peers
from parmst.bench.program_peers import ECL_MST_PROGRAM, PBBS_PROGRAM


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


@pytest.mark.parametrize("name", [p for p in PEERS if p not in ("cugraph", "ecl-mst", "pbbs")
                                  and PEERS[p].finds_tree and PEERS[p].inputs == "graph"])
def test_peer_weight_matches_ours_with_multi_edges_and_loops(runner, name):
    if not PEERS[name].installed():
        pytest.skip(PEERS[name].missing())
    g = parmst.Graph.from_edges([0, 0, 1, 2, 2, 3, 4], [1, 1, 2, 0, 2, 4, 3],
                                [5.0, 2.0, 3.0, 4.0, 1.0, 7.0, 6.0], num_vertices=6)
    out = runner.run(name, *_arrays(g), runs=2)
    assert out.error is None and out.skipped is None
    assert len(out.times) == 2
    assert out.total_weight == parmst.minimum_spanning_forest(g).total_weight == 11.0


def test_reference_timing_without_a_tree_reports_times_and_no_weight(runner):
    pytest.importorskip("networkx")
    g = parmst.generate("grid2d:side=5,seed=1")
    out = runner.run("networkx-edges-floor", *_arrays(g), runs=2)
    assert out.error is None and len(out.times) == 2 and out.total_weight is None


def test_the_whole_call_comes_with_its_bare_solve_timed_beside_each_run(runner):
    g = parmst.generate("grid2d:side=5,seed=1")
    out = runner.run("parmst-auto", *_arrays(g), runs=3)
    assert out.error is None and len(out.times) == 3
    assert len(out.wrapped_times) == 3 and all(t > 0 for t in out.wrapped_times)
    assert out.wrapped_solver == parmst.registry.select(g).name
    floor = runner.run("networkx-edges-floor", *_arrays(g), runs=1)
    assert floor.wrapped_times == [] and floor.wrapped_solver is None  # wraps nothing


def test_the_uncached_backend_call_comes_with_its_floor_timed_beside_each_run(runner):
    pytest.importorskip("networkx")
    g = parmst.generate("grid2d:side=5,seed=1")
    out = runner.run("parmst-networkx-uncached", *_arrays(g), runs=3)
    assert out.error is None and len(out.times) == 3
    assert len(out.floor_times) == 3 and all(t > 0 for t in out.floor_times)
    alone = runner.run("networkx-edges-floor", *_arrays(g), runs=1)
    assert alone.error is None and alone.floor_times == []  # its own row, no floor beside it


def test_every_floor_takes_its_callers_prepared_graph():
    with_floor = [peer for peer in PEERS.values() if peer.floor]
    assert with_floor
    for peer in with_floor:
        assert PEERS[peer.floor].prepare is peer.prepare and not PEERS[peer.floor].finds_tree


def test_the_floor_runs_on_the_same_graph_in_the_same_process_alternating(monkeypatch):
    """The worker loop itself, in this process, with peers that log what they were given."""
    import io
    import pickle

    from parmst.bench import peer_runner
    from parmst.bench.peers import Peer

    log = []

    def solve(tag, prepared):
        log.append((tag, id(prepared)))
        return tag

    monkeypatch.setitem(PEERS, "fake-call", Peer(
        "fake-call", None, "", lambda *inputs: object(), lambda g: solve("call", g),
        lambda result: 1.0, floor="fake-floor"))
    monkeypatch.setitem(PEERS, "fake-floor", Peer(
        "fake-floor", None, "", PEERS["fake-call"].prepare, lambda g: solve("floor", g),
        lambda result: None, finds_tree=False))
    jobs, replies = io.BytesIO(), io.BytesIO()
    pickle.dump(("fake-call", (), 3), jobs)
    pickle.dump(None, jobs)
    jobs.seek(0)
    peer_runner._serve(jobs, replies)
    replies.seek(0)
    kinds = []
    while replies.tell() < len(replies.getvalue()):
        kinds.append(pickle.load(replies)[0])
    # warm-up run and three timed runs, the floor after the call, then before it, ...
    assert [tag for tag, _ in log] == ["call", "floor", "floor", "call", "call", "floor",
                                       "floor", "call"]
    assert len({graph for _, graph in log}) == 1
    assert kinds.count("run") == kinds.count("floor") == 4 and kinds[-1] == "done"


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


# A stand-in for ECL-MST's binary: checks the .egr header it is given (n, 2m) and prints
# ECL-MST's timer line and its own check's verdict.
_FAKE_ECL_MST = """#!{python}
import sys
import numpy as np
n, entries = np.fromfile(sys.argv[1], dtype="<i4", count=2)
assert (n, entries) == (6, 14), (n, entries)
print("ECL-MST v1.0")
print("Dev+:  0.002500000 s")
print("Host:  0.100000000 s")
print("{verdict}")
"""


@pytest.mark.parametrize("verdict", ["all good", "ERROR: results differ!"])
def test_ecl_mst_peer_reads_its_own_timer_and_check(tmp_path, monkeypatch, verdict):
    program = tmp_path / "ecl-mst"
    program.write_text(_FAKE_ECL_MST.format(python=sys.executable, verdict=verdict))
    program.chmod(0o755)
    monkeypatch.setenv(ECL_MST_PROGRAM, str(program))
    assert PEERS["ecl-mst"].installed()
    g = parmst.Graph.from_edges([0, 0, 1, 2, 2, 3, 4], [1, 1, 2, 0, 2, 4, 3],
                                [5, 2, 3, 4, 1, 7, 6], num_vertices=6)
    result = parmst.bench.run([g], ["kruskal/serial"], peers=["ecl-mst"], repeat=2,
                              progress=False, measure="compute", baseline="ecl-mst")
    record = result.find("graph0", "ecl-mst") if verdict == "all good" else None
    if verdict == "all good":
        assert record.times == [0.0025, 0.0025]  # its own timer, the warm-up run dropped
        assert record.weight_ok and not result.failed
        ours = result.find("graph0", "kruskal/serial")
        assert result.speedup(ours, "ecl-mst") == pytest.approx(0.0025 / ours.compute_time)
    else:
        mismatch = next(r for r in result.records if r.solver == "ecl-mst")
        assert mismatch.status == "MISMATCH" and result.failed


def test_ecl_mst_peer_without_its_program_says_how_to_get_it(monkeypatch):
    monkeypatch.delenv(ECL_MST_PROGRAM, raising=False)
    assert not PEERS["ecl-mst"].installed()
    assert "PARMST_ECL_MST" in PEERS["ecl-mst"].missing()
    assert "ecl-mst" not in available_peers()


# A stand-in for PBBS's MST binary: the same command line, output file and timer lines.
# Kruskal over the (weight, edge id) order, as PBBS breaks ties; WRONG=1 drops an edge.
_FAKE_PBBS = '''import os, sys
import numpy as np
rounds, out, path = int(sys.argv[2]), sys.argv[4], sys.argv[5]
words = open(path).read().split()
assert words[0] == "WeightedEdgeArray"
u, v, w = (np.array(words[1 + k::3], dtype=float) for k in range(3))
parent = list(range(int(max(u.max(), v.max())) + 1))
def find(x):
    while parent[x] != x:
        x = parent[x]
    return x
forest = []
for i in np.lexsort((np.arange(len(w)), w)):
    a, b = find(int(u[i])), find(int(v[i]))
    if a != b:
        parent[a] = b
        forest.append(int(i))
if os.environ.get("WRONG"):
    forest.pop()
for _ in range(rounds):
    print("mst: sort prefix: 0.0001")
    print("Parlay time: 0.0125")
with open(out, "w") as f:
    f.write("sequenceInt\\n" + "".join(f"{i}\\n" for i in sorted(forest)))
'''


@pytest.fixture
def fake_pbbs(tmp_path, monkeypatch):
    program = tmp_path / "MST"
    program.write_text(f"#!{sys.executable}\n{_FAKE_PBBS}")
    program.chmod(0o755)
    monkeypatch.setenv(PBBS_PROGRAM, str(program))
    return program


def test_pbbs_peer_needs_its_program(monkeypatch, tmp_path):
    monkeypatch.delenv(PBBS_PROGRAM, raising=False)
    assert not PEERS["pbbs"].installed()
    assert PEERS["pbbs"].missing().startswith(f"{PBBS_PROGRAM} names no executable file "
                                              "(build benchmarks/minSpanningForest/")
    monkeypatch.setenv(PBBS_PROGRAM, str(tmp_path))  # a folder, not a program
    assert not PEERS["pbbs"].installed()
    assert "pbbs" not in available_peers()


def test_pbbs_peer_reports_its_own_timer_and_forest_weight(fake_pbbs):
    g = parmst.generate("rmat:scale=6,seed=3")
    with PeerRunner(budget=60) as runner:
        out = runner.run("pbbs", *_arrays(g), runs=3)
    assert out.error is None and out.skipped is None
    assert out.times == [0.0125] * 3  # its own timer's lines, the warm-up call left out
    assert out.total_weight == parmst.minimum_spanning_forest(g).total_weight


def test_pbbs_in_the_harness_wrong_forest_and_rounded_weights(fake_pbbs, monkeypatch):
    g = parmst.generate("grid2d:side=5,seed=2")
    result = parmst.bench.run([g], ["kruskal/serial"], peers=["pbbs"], repeat=2,
                              baseline="pbbs", progress=False)
    peer = result.find("graph0", "pbbs")
    assert peer is not None and peer.time == 0.0125 and not result.failed
    assert result.speedup(result.find("graph0", "kruskal/serial"), "pbbs") > 0
    monkeypatch.setenv("WRONG", "1")
    result = parmst.bench.run([g], ["kruskal/serial"], peers=["pbbs"], repeat=1,
                              progress=False)
    assert result.records[-1].status == "MISMATCH" and result.failed
    wide = parmst.Graph.from_edges([0, 1], [1, 2], [0.1, 0.2])  # not float32 numbers
    record = parmst.bench.run([wide], ["kruskal/serial"], peers=["pbbs"], repeat=1,
                              progress=False).records[-1]
    assert record.status == "skipped" and "float32" in record.note


@pytest.mark.skipif(not PEERS["pbbs"].installed(),
                    reason=f"the real PBBS binary is used only where {PBBS_PROGRAM} names it")
def test_real_pbbs_returns_our_forest(runner):
    g = parmst.generate("rmat:scale=10,seed=5")
    out = runner.run("pbbs", *_arrays(g), runs=1)
    assert out.error is None and out.total_weight == parmst.minimum_spanning_forest(g).total_weight


# A stand-in for the ParGeo EMST driver: the same command line, timer lines and pairs file.
# Kruskal over all pairs of the points; WRONG=1 swaps the heaviest tree pair for a heavier one.
_FAKE_PARGEO = '''import os, sys
import numpy as np
path, calls, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
n, d = np.fromfile(path, dtype=np.int64, count=2)
x = np.fromfile(path, dtype=np.float64, offset=16).reshape(n, d)
i, j = np.triu_indices(n, 1)
dist = np.sqrt(((x[i] - x[j]) ** 2).sum(axis=1))
parent = list(range(n))
def find(a):
    while parent[a] != a:
        a = parent[a]
    return a
tree = []
for k in np.argsort(dist, kind="stable"):
    a, b = find(int(i[k])), find(int(j[k]))
    if a != b:
        parent[a] = b
        tree.append(k)
if os.environ.get("WRONG"):
    tree[-1] = int(np.argmax(dist))
for _ in range(calls):
    print(f"pargeo-emst 0.0125 s total {dist[tree].sum()} edges {len(tree)} workers 1")
np.stack([i[tree], j[tree]], axis=1).astype(np.int64).tofile(out)
'''


@pytest.mark.parametrize("wrong", [False, True])
def test_pargeo_peer_reads_its_timer_and_pairs(tmp_path, monkeypatch, wrong):
    from parmst.bench.program_peers import PARGEO_EMST_PROGRAM

    program = tmp_path / "emst_driver"
    program.write_text(f"#!{sys.executable}\n{_FAKE_PARGEO}")
    program.chmod(0o755)
    monkeypatch.setenv(PARGEO_EMST_PROGRAM, str(program))
    if wrong:
        monkeypatch.setenv("WRONG", "1")
    assert PEERS["pargeo-emst"].installed()
    result = parmst.bench.run(["uniform-points:n=120,d=3,seed=4"], ["boruvka-kdtree/serial"],
                              peers=["pargeo-emst"], repeat=2, progress=False)
    record = next(r for r in result.records if r.solver == "pargeo-emst")
    if wrong:
        assert record.status == "MISMATCH" and result.failed
    else:
        assert record.times == [0.0125, 0.0125]  # its own timer, the warm-up run dropped
        assert record.weight_ok and record.extra["same_pairs"] and not result.failed


def test_pargeo_peer_without_its_program_says_how_to_get_it(monkeypatch):
    from parmst.bench.program_peers import PARGEO_EMST_PROGRAM

    monkeypatch.delenv(PARGEO_EMST_PROGRAM, raising=False)
    assert not PEERS["pargeo-emst"].installed()
    assert "pargeo_side_by_side.sh" in PEERS["pargeo-emst"].missing()
