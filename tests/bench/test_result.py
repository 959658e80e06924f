"""Report writing: Markdown tables, the JSON schema, loading and comparing runs."""

import json
from pathlib import Path

import pytest

from parmst.bench.compare import compare, format_compare
from parmst.bench.markdown import to_markdown
from parmst.bench.result import SCHEMA, BenchResult, GraphInfo, Record
from parmst.bench.store import load, save, to_json


def _result(kruskal_time=0.02, ecl_time=0.01, label="box A"):
    graphs = [GraphInfo("g1", "grid2d:side=4", 16, 24, "int32", "2d-2e20.sym", 1, 30, True),
              GraphInfo("g2", "rmat:scale=4", 16, 100, "float64", "", 3, 1.5, True)]
    records = [
        Record("g1", "kruskal/serial", times=[kruskal_time], time=kruskal_time,
               init_time=0.0, compute_time=kruskal_time, threads_used=1),
        Record("g1", "ecl/cpu", threads=2, times=[ecl_time], time=ecl_time, rounds=3,
               phases={"init": 0.001}),
        Record("g1", "scipy", kind="peer", times=[0.04], time=0.04, init_time=0.5,
               total_weight=30.0, weight_ok=True),
        Record("g2", "kruskal/serial", times=[0.1], time=0.1),
        Record("g2", "ecl/cpu", threads=2, status="MISMATCH", note="edge ids differ"),
        Record("g2", "scipy", kind="peer", status="skipped", note="weight-0 edges"),
    ]
    return BenchResult(machine={"label": label, "cpu": "X", "cores": 2},
                       config={"name": "demo", "scheme_text": "median of 1 runs"},
                       graphs=graphs, records=records)


def test_figures_come_from_the_selected_times():
    result = _result()
    ecl = result.records[1]
    assert result.throughput(ecl) == pytest.approx(24 / 0.01 / 1e6)
    assert result.speedup(ecl, "kruskal/serial") == pytest.approx(2.0)
    assert result.speedup(ecl, "scipy") == pytest.approx(4.0)
    assert result.speedup(result.records[4], "kruskal/serial") is None


def test_markdown_has_headline_details_graphs_and_notes():
    text = to_markdown(_result())
    assert "# parmst bench: demo" in text
    assert "| graph | edges | kruskal/serial | ecl/cpu x2 | scipy |" in text
    assert "| g1 | 24 | 0.0012 | 0.0024 | 0.0006 |" in text
    assert "**MISMATCH**" in text
    assert "| geometric mean |" in text
    assert "2.00x" in text and "4.00x" in text
    assert "box A" in text
    assert "- g2, ecl/cpu x2: MISMATCH: edge ids differ" in text
    assert "| g1 | `grid2d:side=4` | 2d-2e20.sym | 16 | 24 | int32 | 1 | 30 | yes |" in text


def test_failed_flags_mismatches_errors_and_unverified_references():
    result = _result()
    assert result.failed
    result.records[4].status = "skipped"
    assert not result.failed
    result.graphs[0].verified = False
    assert result.failed


def test_json_round_trip_keeps_every_field(tmp_path):
    result = _result()
    data = json.loads(to_json(result))
    assert data["schema"] == SCHEMA
    assert set(data) == {"schema", "machine", "config", "graphs", "records"}
    assert {"graph", "solver", "kind", "threads", "status", "times", "time", "init_time",
            "compute_time", "phases", "rounds", "total_weight", "weight_ok"} <= set(
        data["records"][0])
    written = save(result, tmp_path, plots=False)
    assert [p.name for p in written] == ["bench_demo.md", "bench_demo.json"]
    again = load(tmp_path / "bench_demo.json")
    assert again.to_dict() == result.to_dict()


def test_load_rejects_other_json(tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"schema": "something-else"}')
    with pytest.raises(ValueError, match="not a parmst bench result"):
        load(path)


def test_compare_matches_ok_records_and_reports_ratios():
    before, after = _result(label="old"), _result(kruskal_time=0.01, ecl_time=0.02, label="new")
    rows = {(row["graph"], row["solver"]): row["speedup"] for row in compare(before, after)}
    assert rows == {("g1", "kruskal/serial"): pytest.approx(2.0),
                    ("g1", "ecl/cpu x2"): pytest.approx(0.5),
                    ("g1", "scipy"): pytest.approx(1.0),
                    ("g2", "kruskal/serial"): pytest.approx(1.0)}
    text = format_compare(before, after, ("old.json", "new.json"))
    assert "old.json: old" in text and "new.json: new" in text
    assert "| g1 | kruskal/serial | 0.02 | 0.01 | 2.00x |" in text
    assert "| geometric mean |" in text


def test_compare_without_common_records_says_so():
    empty = BenchResult({"label": "e"}, {}, [], [])
    assert "no (graph, solver) pair" in format_compare(empty, _result())


def test_a_peer_error_is_reported_but_does_not_fail_the_run():
    result = _result()
    result.records[4].status = "skipped"
    result.records[5].status = "error"
    assert not result.failed
    result.records[5].status = "MISMATCH"
    assert result.failed


def test_compute_measure_and_reference_column():
    graphs = [GraphInfo("grid2d", "grid2d:side=4", 16, 2_000_000, "int32", "", 1, 30, True)]
    records = [Record("grid2d", "ecl/gpu", times=[0.04], time=0.04, compute_time=0.002),
               Record("grid2d", "ecl/gpu", variant="filter=false", times=[0.05], time=0.05,
                      compute_time=0.004),
               Record("grid2d", "scipy", kind="peer", times=[0.8], time=0.8)]
    result = BenchResult({"label": "gpu box"},
                         {"name": "g", "measure": "compute", "baseline": "ecl/gpu",
                          "reference": {"name": "ECL-MST H100", "source": "the original",
                                        "values": {"grid2d": 1117}, "measure": "compute"}},
                         graphs, records)
    assert result.throughput(records[0]) == pytest.approx(1000.0)  # 2 M edges / 2 ms
    assert result.speedup(records[1], "ecl/gpu") == pytest.approx(0.5)
    assert result.speedup(records[0], "scipy") == pytest.approx(20.0)  # whole solve vs a peer
    text = to_markdown(result)
    assert "| graph | edges | ECL-MST H100 | ecl/gpu | ecl/gpu[filter=false] | scipy |" in text
    assert "| grid2d | 2,000,000 | 1117 | 1000 | 500 | 2.5 |" in text
    assert "computation only" in text and "`ECL-MST H100`: the original." in text
    assert "| ecl/gpu[filter=false] | 1 | 500 | 0.50x | 16.00x |" in text


def test_old_results_without_the_new_fields_still_load(tmp_path):
    data = _result().to_dict()
    for record in data["records"]:
        for key in ("variant", "cpu_times", "cpu_time", "extra"):
            del record[key]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert load(path).records[1].label == "ecl/cpu x2"


def test_front_door_table_divides_the_replaced_call_by_the_front_door():
    result = _result()
    result.records += [
        Record("g1", "parmst-scipy", kind="peer", times=[0.01], time=0.01, total_weight=30.0,
               weight_ok=True),
        Record("g2", "parmst-scipy", kind="peer", times=[0.05], time=0.05, total_weight=1.5,
               weight_ok=True),
        Record("g2", "scipy", kind="peer", times=[0.1], time=0.1, total_weight=1.5,
               weight_ok=True),
    ]
    result.records = [r for r in result.records if not (r.graph == "g2" and r.status == "skipped")]
    text = to_markdown(result)
    assert "## Front doors" in text
    assert "| graph | edges | parmst-scipy vs scipy |" in text
    assert "| g1 | 24 | 4.00x |" in text and "| g2 | 100 | 2.00x |" in text
    assert "| geometric mean |  | 2.83x |" in text and "| lowest |  | 2.00x |" in text
    assert "## Front doors" not in to_markdown(_result())  # no front door, no table


def test_every_committed_result_loads_and_renders():
    """The bench results committed under benchmarks/results still load and render."""
    results = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
    paths = [p for p in sorted(results.glob("*.json"))
             if '"schema": "parmst-bench/1"' in p.read_text(encoding="utf-8")[:200]]
    assert paths
    for path in paths:
        result = load(path)
        assert f"# parmst bench: {result.config['name']}" in to_markdown(result), path.name


def test_floor_table_divides_each_run_by_the_floor_timed_beside_it():
    result = _result()
    result.records += [
        Record("g1", "parmst-networkx-tree", kind="peer", times=[0.03, 0.09, 0.02],
               time=0.03, total_weight=30.0, weight_ok=True,
               extra={"floor_times": [0.02, 0.03, 0.01]}),  # per run 1.5x, 3x, 2x
        Record("g2", "parmst-networkx-tree", kind="peer", times=[0.1], time=0.1,
               total_weight=1.5, weight_ok=True, extra={"floor_times": [0.08]}),
        # the floor's own row, timed in its own loop: not what the table divides by
        Record("g1", "networkx-edges-floor", kind="peer", times=[0.001], time=0.001),
    ]
    text = to_markdown(result)
    assert "## Floor" in text
    assert "| graph | edges | call | call (s) | floor beside it (s) | call / floor |" in text
    assert "| g1 | 24 | parmst-networkx-tree | 0.03 | 0.02 | 2.00x |" in text
    assert "| g2 | 100 | parmst-networkx-tree | 0.1 | 0.08 | 1.25x |" in text
    assert "| highest |  | parmst-networkx-tree |  |  | 2.00x |" in text
    result.records[-3].extra.clear()
    result.records[-2].extra.clear()
    assert "## Floor" not in to_markdown(result)  # no floor timed beside a call, no table


def test_paired_ratio_needs_a_floor_beside_every_run():
    from parmst.bench.tables import paired_ratio

    assert paired_ratio([1.0, 4.0, 3.0], [1.0, 1.0, 2.0]) == 1.5
    with pytest.raises(ValueError, match="2 runs but 1 floor"):
        paired_ratio([1.0, 2.0], [1.0])


def test_overhead_table_divides_the_whole_call_by_the_solve_timed_beside_it():
    result = _result()
    result.records += [
        Record("g1", "parmst-auto", kind="peer", times=[0.025], time=0.025,
               total_weight=30.0, weight_ok=True,
               extra={"wrapped_solver": "kruskal/serial", "wrapped_time": 0.02}),
        Record("g2", "parmst-auto", kind="peer", times=[0.11], time=0.11,
               total_weight=1.5, weight_ok=True,
               extra={"wrapped_solver": "ecl/cpu", "wrapped_time": 0.1}),
    ]
    text = to_markdown(result)
    assert "## Call overhead" in text
    assert ("| graph | edges | call | solver picked | whole call (s) | solve (s) | call / solve |"
            in text)
    assert "| g1 | 24 | parmst-auto | kruskal/serial |" in text and "| 1.25x |" in text
    assert "| g2 | 100 | parmst-auto | ecl/cpu |" in text and "| 1.10x |" in text
    assert "| highest |  |  |  |  |  | 1.25x |" in text
    assert "## Call overhead" not in to_markdown(_result())  # no whole call timed, no table
