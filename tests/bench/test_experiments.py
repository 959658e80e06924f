"""Every experiment suite end to end at tiny size: its settings, its tables, its checks.

Each test swaps a suite's graphs for tiny ones (same names, so reference
figures still line up) and runs it through ``parmst bench``'s argument
parser, as a user would with the full-size suite.
"""

import argparse
import dataclasses
import importlib.util
import json
import os
import subprocess
import sys

import pytest

from parmst.bench import cli, run, suites
from parmst.bench.markdown import to_markdown
from parmst.bench.specs import parse_solver_spec, split_specs
from parmst.errors import UnknownOptionError

TINY = {"grid2d": "grid2d:side=5,seed=1", "rmat": "rmat:scale=5,edge_factor=4,seed=7",
        "seed000-dense": "seed000-dense:n=12,m=40,seed=5"}


def _shrink(monkeypatch, name, specs):
    """Give suite ``name`` tiny graphs: its first graphs, keeping their names."""
    suite = suites.SUITES[name]
    graphs = tuple(dataclasses.replace(g, spec=spec) for g, spec in zip(suite.graphs, specs))
    monkeypatch.setitem(suites.SUITES, name, dataclasses.replace(suite, graphs=graphs))
    return graphs


def _bench(tmp_path, *argv):
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    status = cli.run(parser.parse_args([*argv, "--repeat", "1", "--no-cache", "--no-progress",
                                        "--out", str(tmp_path)]))
    return status, json.loads(next(tmp_path.glob("bench_*.json")).read_text())


def _records(data, **match):
    return [r for r in data["records"] if all(r[k] == v for k, v in match.items())]


def test_solver_specs_carry_options():
    assert split_specs(["a/serial,ecl/gpu[init=thread,filter=false]"]) == [
        "a/serial", "ecl/gpu[init=thread,filter=false]"]
    assert parse_solver_spec("x/cpu[threads=2,ratio=0.5,keys=auto,opt=none]")[1] == {
        "threads": 2, "ratio": 0.5, "keys": "auto", "opt": None}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_solver_spec("ecl/gpu[filter]")
    with pytest.raises(ValueError, match="brackets"):
        parse_solver_spec("ecl/gpu[filter=false")


def test_unknown_solver_option_is_a_clear_error(tiny):
    with pytest.raises(UnknownOptionError, match="kruskal/serial has no option 'threads'"):
        run([tiny], ["kruskal/serial[threads=2]"], peers=["none"], progress=False)


def test_time_limit_starts_no_graph_after_it(tiny):
    seen = []
    result = run([tiny, tiny], ["kruskal/serial"], peers=["none"], repeat=1, progress=False,
                 time_limit=0.0, after_graph=lambda partial: seen.append(len(partial.graphs)))
    assert result.graphs == [] and seen == []
    assert set(result.config["skipped_graphs"]) == {"graph0", "graph1"}
    assert "- graph graph1 not run: not started: the time limit of 0 s was spent" in (
        to_markdown(result))


def test_after_graph_sees_the_result_grow(tiny):
    seen = []
    run([tiny, tiny], ["kruskal/serial"], peers=["none"], repeat=1, progress=False,
        after_graph=lambda partial: seen.append(len(partial.graphs)))
    assert seen == [1, 2]


def test_phases_suite_tables_each_phase_with_and_without_path_compression(monkeypatch,
                                                                            tmp_path):
    _shrink(monkeypatch, "phases-small", ["seed000-sparse:n=30,m=60,seed=1",
                                          "seed000-dense:n=10,m=30,seed=1"])
    status, data = _bench(tmp_path, "--suite", "phases-small")
    assert status == 0
    records = _records(data, solver="boruvka-edge/cpu")
    assert sorted(r["variant"] for r in records) == ["", "", "path_compression=false",
                                                     "path_compression=false"]
    assert all(r["status"] == "ok" and set(r["phases"]) == {
        "vertex bridges", "union", "remap", "filter"} for r in records)
    assert all(r["options"].get("path_compression") is False for r in records if r["variant"])
    text = (tmp_path / "bench_phases-small.md").read_text()
    assert "## Phases" in text and "| `vertex bridges` ms (%) |" in text
    assert "boruvka-edge/cpu[path_compression=false]" in text


def test_scaling_suite_sweeps_threads_and_runs_the_serial_baseline_once(monkeypatch, tmp_path):
    _shrink(monkeypatch, "cpu-scaling-small", ["rmat:scale=5,seed=1", "random-degree:n=40,seed=1"])
    status, data = _bench(tmp_path, "--suite", "cpu-scaling-small", "--solver",
                          "ecl/cpu,kruskal/serial")
    assert status == 0
    assert [r["threads"] for r in _records(data, graph="rmat-medium", solver="ecl/cpu")] == [1, 2]
    assert [r["threads"] for r in _records(data, graph="rmat-medium",
                                           solver="kruskal/serial")] == [None]
    assert all(r["status"] == "ok" for r in data["records"])
    assert "## Thread scaling" in (tmp_path / "bench_cpu-scaling-small.md").read_text()
    assert (tmp_path / "bench_cpu-scaling-small_scaling.png").exists()


@pytest.mark.parametrize("name, dtype", [("cpu-medium-small", "int32"),
                                         ("serial-medium-small", "int32"),
                                         ("serial-medium-float64-small", "float64")])
def test_solvers_against_kruskal_and_scipy(monkeypatch, tmp_path, name, dtype):
    graphs = _shrink(monkeypatch, name, ["random-degree:n=40,seed=1", "rmat:scale=5,seed=2"])
    weights = ",weights=float" if dtype == "float64" else ""
    monkeypatch.setitem(suites.SUITES, name, dataclasses.replace(
        suites.SUITES[name], graphs=tuple(dataclasses.replace(g, spec=g.spec + weights)
                                          for g in graphs)))
    status, data = _bench(tmp_path, "--suite", name)
    assert status == 0
    assert {g["weight_dtype"] for g in data["graphs"]} == {dtype}
    assert data["config"]["solvers"] == [
        s for s in suites.SUITES[name].solvers]
    scipy = _records(data, solver="scipy")
    assert len(scipy) == 2 and all(r["status"] == "ok" and r["weight_ok"] for r in scipy)
    assert all(r["status"] in ("ok", "skipped") for r in data["records"])
    text = (tmp_path / f"bench_{name}.md").read_text()
    assert "## Speedups" in text and "| solver | graphs | M edges/s | vs kruskal/serial |" in text


def test_io_suite_writes_and_reads_every_format_and_checks_the_edges(monkeypatch, tmp_path):
    _shrink(monkeypatch, "io-small", ["seed000-sparse:n=30,m=60,seed=1",
                                      "seed000-sparse:n=30,m=60,seed=1,weights=float"])
    status, data = _bench(tmp_path, "--suite", "io-small")
    assert status == 0
    assert {r["kind"] for r in data["records"]} == {"io"}
    formats = suites.SUITES["io-small"].formats
    assert len(data["records"]) == 2 * 2 * len(formats)
    egr_float = _records(data, graph="sparse-medium-float64", solver="egr read")[0]
    assert egr_float["status"] == "skipped" and "int32" in egr_float["note"]
    others = [r for r in data["records"] if r is not egr_float
              and not (r["graph"] == "sparse-medium-float64" and r["solver"] == "egr write")]
    assert all(r["status"] == "ok" and r["extra"]["file_bytes"] > 0 and len(r["cpu_times"]) == 1
               for r in others)
    assert "## File formats" in (tmp_path / "bench_io-small.md").read_text()


def test_a_format_that_reads_back_other_edges_is_a_mismatch(monkeypatch, tiny, tmp_path):
    from parmst import io

    real_read = io.read

    def lossy_read(path, **options):
        graph = real_read(path, **options)
        return graph.with_weights(graph.weight + 1)

    monkeypatch.setattr(io, "read", lossy_read)
    result = run([tiny], [], peers=["none"], formats=["npz"], repeat=1, progress=False)
    assert [r.status for r in result.records] == ["MISMATCH", "MISMATCH"]
    assert "weights read back differ" in result.records[0].note
    assert result.failed


@pytest.mark.parametrize("name", ["ecl-gpu-small", "ecl-ablation-small"])
def test_gpu_suites_carry_the_reference_figures_and_compute_only_measure(monkeypatch,
                                                                         tmp_path, name):
    _shrink(monkeypatch, name, TINY.values())
    status, data = _bench(tmp_path, "--suite", name, "--no-plots")
    config = data["config"]
    assert status == 0 and config["measure"] == "compute"
    if name == "ecl-gpu-small":
        assert config["reference"]["values"]["grid2d"] == 1117
        text = (tmp_path / f"bench_{name}.md").read_text()
        assert "| graph | edges | ECL-MST H100 |" in text
        assert "| grid2d | 40 | 1117 |" in text
    else:
        assert config["baseline"] == "ecl/gpu"
        assert len(_records(data, graph="grid2d", solver="ecl/gpu")) == 9
    # Without a CUDA device (or the simulator) the GPU solvers are skipped with the reason;
    # test_gpu_suite_under_the_simulator runs them.
    assert all(r["status"] in ("ok", "skipped") for r in data["records"])


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                    reason="numba-cuda is not installed (pip install 'parmst[gpu]')")
def test_gpu_suite_under_the_simulator(tmp_path):
    """ecl-gpu-small's settings with GPU solvers really running (numba-cuda's simulator)."""
    script = ("import dataclasses, sys\n"
              "from parmst.bench import suites\n"
              "from parmst.bench.__main__ import main\n"
              "s = suites.SUITES['ecl-gpu-small']\n"
              "suites.SUITES['ecl-gpu-small'] = dataclasses.replace(s, graphs=(\n"
              "    dataclasses.replace(s.graphs[0], spec='grid2d:side=4,seed=1'),))\n"
              "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted below
        [sys.executable, "-c", script, "--suite", "ecl-gpu-small", "--solver",
         "ecl/gpu,ecl/gpu[launch=per-round,filter=false],boruvka-edge/gpu", "--repeat", "1",
         "--no-cache", "--no-progress", "--no-plots", "--out", str(tmp_path)],
        env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}, capture_output=True, text=True,
        timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "bench_ecl-gpu-small.json").read_text())
    assert [(r["solver"], r["variant"], r["status"]) for r in data["records"]] == [
        ("ecl/gpu", "", "ok"), ("ecl/gpu", "launch=per-round,filter=false", "ok"),
        ("boruvka-edge/gpu", "", "ok"), ("scipy", "", "ok")]
    text = (tmp_path / "bench_ecl-gpu-small.md").read_text()
    assert "| grid2d | 24 | 1117 |" in text


def test_only_picks_graphs_of_the_suite(monkeypatch, tmp_path):
    _shrink(monkeypatch, "ecl-gpu-small", TINY.values())
    status, data = _bench(tmp_path, "--suite", "ecl-gpu-small", "--only", "rmat,grid2d",
                          "--solver", "kruskal/serial", "--peers", "none", "--no-plots")
    assert status == 0 and [g["name"] for g in data["graphs"]] == ["grid2d", "rmat"]
    with pytest.raises(ValueError, match="has no graph 'nope'; its graphs: grid2d, rmat"):
        run(suite="ecl-gpu-small", only=["nope"], progress=False)


def test_device_launch_script_runs_parmst_bench(tmp_path):
    """benchmarks/gpu_device_run.sh's bench mode hands its arguments to `parmst bench`."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted below
        ["bash", "benchmarks/gpu_device_run.sh", "bench", "--graph", "grid2d:side=4,seed=1",
         "--solver", "kruskal/serial", "--peers", "none", "--repeat", "1", "--no-cache",
         "--no-plots"],
        cwd=root, env={**os.environ, "OUT": str(tmp_path), "PYTHON": sys.executable},
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads((tmp_path / "bench_custom.json").read_text())
    assert [r["status"] for r in data["records"]] == ["ok"]
    assert "--time-limit 2400" in data["config"]["command"]
