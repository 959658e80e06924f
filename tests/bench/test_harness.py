"""The harness end to end on tiny graphs: verification, planted faults, peers, outputs."""

import numpy as np
import pytest

import parmst
from parmst import registry
from parmst.bench import run, solver_timing
from parmst.bench.markdown import to_markdown
from parmst.bench.solver_timing import skip_reason
from parmst.bench.specs import Variant, choose_solvers
from parmst.bench.store import save
from parmst.errors import UnknownSolverError


def test_every_run_is_timed_after_a_warm_up(tiny):
    result = run([tiny], ["kruskal/serial"], peers=["none"], repeat=3, progress=False)
    (record,) = result.records
    assert record.status == "ok"
    assert len(record.times) == len(record.init_times) == len(record.compute_times) == 3
    assert record.time == sorted(record.times)[1]
    assert record.threads_used == 1
    (graph,) = result.graphs
    assert graph.verified is True
    assert graph.total_weight == parmst.minimum_spanning_forest(tiny).total_weight
    assert not result.failed


def test_prefix_warm_up_solves_the_first_edges_then_times_the_whole_graph(
        tiny, edge_count_recorder, monkeypatch):
    name, calls = edge_count_recorder
    monkeypatch.setattr(solver_timing, "WARMUP_PREFIX_EDGES", 50)
    result = run([tiny], [name], peers=["none"], repeat=2, progress=False,
                 warmup="prefix")
    assert result.records[0].status == "ok"
    assert calls == [50, 120, 120]
    assert "after a warm-up run on the graph's first 50 edges" in to_markdown(result)


def test_prefix_warm_up_answer_is_checked(tiny, wrong_solver, monkeypatch):
    monkeypatch.setattr(solver_timing, "WARMUP_PREFIX_EDGES", 60)
    result = run([tiny], [wrong_solver], peers=["none"], repeat=2, progress=False,
                 warmup="prefix")
    assert result.records[0].status == "MISMATCH"
    assert "(run 0)" in result.records[0].note


def test_kbest_times_five_runs(tiny):
    result = run([tiny], ["kruskal/serial"], peers=["none"], kbest=True, progress=False)
    record = result.records[0]
    assert len(record.times) == 5
    assert record.time == min(record.times)
    assert "k-best" in result.config["scheme_text"]


def test_planted_wrong_solver_is_a_loud_mismatch_never_timed(tiny, wrong_solver):
    result = run([tiny], ["kruskal/serial", wrong_solver], peers=["none"], repeat=2,
                 progress=False)
    good, bad = result.records
    assert good.status == "ok"
    assert bad.status == "MISMATCH"
    assert bad.times == [] and bad.time is None
    assert "1 missing, 0 extra" in bad.note
    assert result.failed
    assert "**MISMATCH**" in to_markdown(result)


def test_solvers_runs_are_interleaved_round_robin(tiny, recorders):
    names, calls = recorders
    result = run([tiny], names, peers=["none"], repeat=3, progress=False)
    assert [r.status for r in result.records] == ["ok", "ok"]
    assert calls == ["first", "second"] * 4  # a warm-up and three timed runs each


def test_failing_solver_is_recorded_as_an_error(tiny, failing_solver):
    result = run([tiny], [failing_solver], peers=["none"], repeat=2, progress=False)
    (record,) = result.records
    assert record.status == "error"
    assert "planted failure" in record.note
    assert result.failed


def test_solver_patterns_and_unknown_names():
    chosen, _ = choose_solvers(["*/serial"])
    assert "kruskal/serial" in [s.name for s in chosen]
    assert all(s.backend == "serial" for s in chosen)
    with pytest.raises(UnknownSolverError, match="no registered solver matches"):
        choose_solvers(["no-such/solver"])


def test_default_solvers_leave_out_dense_matrix_solvers_on_sparse_graphs():
    n = 5000
    path = parmst.Graph.from_edges(np.arange(n - 1), np.arange(1, n), np.ones(n - 1))
    dense = registry.get("prim-dense/serial")
    assert "dense-matrix" in skip_reason(Variant(dense, {}, "", explicit=False), path)
    assert skip_reason(Variant(dense, {}, "", explicit=True), path) is None
    complete = parmst.generate("dense:n=64,seed=1")
    assert skip_reason(Variant(dense, {}, "", explicit=False), complete) is None


def test_thread_sweep_runs_threaded_solvers_once_per_count(tiny):
    threaded = [name for name, s in registry.solvers().items()
                if "threads" in s.options and s.can_run() is True]
    if not threaded:
        pytest.skip("no registered solver takes a threads option on this machine")
    result = run([tiny], [threaded[0], "kruskal/serial"], peers=["none"], repeat=1,
                 threads=[1, 2], progress=False)
    counts = [r.threads for r in result.records if r.solver == threaded[0]]
    assert counts == [1, 2]
    assert [r.threads for r in result.records if r.solver == "kruskal/serial"] == [None]


def test_scipy_peer_agrees_on_the_total_weight(tiny):
    result = run([tiny], ["kruskal/serial"], peers=["scipy"], repeat=2, progress=False)
    peer = result.records[1]
    assert (peer.solver, peer.kind, peer.status, peer.weight_ok) == ("scipy", "peer", "ok", True)
    assert peer.total_weight == result.graphs[0].total_weight
    assert len(peer.times) == 2 and peer.init_time is not None


def test_floor_table_comes_from_the_floor_timed_in_the_calls_worker(tiny):
    pytest.importorskip("networkx")
    result = run([tiny], ["kruskal/serial"], peers=["parmst-networkx-uncached"], repeat=3,
                 progress=False)
    call = result.records[1]
    assert call.solver == "parmst-networkx-uncached" and call.status == "ok"
    assert len(call.extra["floor_times"]) == len(call.times) == 3
    assert "## Floor" in to_markdown(result)  # without the floor's own row


def test_scipy_peer_is_skipped_on_zero_weights():
    g = parmst.Graph.from_edges([0, 1], [1, 2], [0, 1])
    result = run([g], ["kruskal/serial"], peers=["scipy"], repeat=1, progress=False)
    assert result.records[1].status == "skipped"
    assert "weight-0" in result.records[1].note


def test_networkx_is_left_out_of_large_graphs_unless_named():
    n = 30_000
    path = parmst.Graph.from_edges(np.arange(n - 1), np.arange(1, n), np.ones(n - 1))
    result = run([path], ["kruskal/serial"], peers=None, repeat=1, progress=False)
    networkx = [r for r in result.records if r.solver.startswith("networkx")]
    assert networkx and all(r.status == "skipped" and "default limit" in r.note
                            for r in networkx)


def test_bench_result_writes_markdown_json_and_plots(tiny, tmp_path):
    result = run([tiny], ["kruskal/serial"], peers=["none"], repeat=2, progress=False,
                 name="tiny", label="test machine")
    written = save(result, tmp_path)
    names = sorted(p.name for p in written)
    assert names == ["bench_tiny.json", "bench_tiny.md", "bench_tiny.png"]
    assert all(p.stat().st_size > 0 for p in written)
    assert "test machine" in (tmp_path / "bench_tiny.md").read_text()


def test_solver_all_is_every_solver_that_can_run_here():
    from parmst.bench.specs import variants

    every, _, unavailable = variants(["all"], {}, explicit=True)
    table = {**registry.solvers(), **registry.solvers("points")}  # graph and point solvers
    runnable = [name for name, s in table.items() if s.can_run() is True]
    assert sorted(v.solver.name for v in every) == sorted(runnable)
    assert not any(v.explicit for v in every)  # as the default: dense solvers still filtered
    assert set(unavailable) == set(table) - set(runnable)
