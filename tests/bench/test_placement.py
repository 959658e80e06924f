"""Input placement and the end-to-end call: host and device arrays, the whole public call."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

import parmst
from parmst.bench import harness, run
from parmst.bench.placement import place


def _tiny():
    return parmst.Graph.from_edges([0, 1, 2, 0, 1], [1, 2, 3, 3, 3], [4, 1, 3, 2, 2])


def test_host_placement_is_the_graph_itself():
    g = _tiny()
    placed = place(g, "host")
    assert placed.graph is g and not placed.on_device
    assert [a.tolist() for a in placed.arrays] == [g.src.tolist(), g.dst.tolist(),
                                                   g.weight.tolist()]


def test_end_to_end_times_the_whole_call_around_the_solver():
    result = run([_tiny()], ["kruskal/serial"], peers=["none"], repeat=2, progress=False,
                 end_to_end=True)
    (record,) = result.records
    assert record.status == "ok" and len(record.times) == 2
    assert record.time >= record.compute_time + record.init_time
    assert result.config["end_to_end"] is True


def test_a_placement_that_cannot_be_had_skips_the_graph_with_the_reason(monkeypatch):
    def no_device(graph, placement):
        if placement == "device":
            raise ImportError("numba-cuda is not installed")
        return place(graph, placement)

    monkeypatch.setattr(harness, "place", no_device)
    result = run([_tiny()], ["kruskal/serial"], peers=["none"], repeat=1, progress=False,
                 placements=["host", "device"])
    assert [g.name for g in result.graphs] == ["graph0"]
    assert result.config["skipped_graphs"] == {
        "graph0@device": "input on the device: ImportError: numba-cuda is not installed"}
    assert not result.failed


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                    reason="numba-cuda is not installed (pip install 'parmst[gpu]')")
def test_device_placement_under_the_simulator(tmp_path):
    """The end-to-end suite's settings with the input on the (simulated) device."""
    done = subprocess.run(
        [sys.executable, "-m", "parmst.bench", "--graph", "grid2d:side=4,seed=1", "--solver",
         "ecl/gpu,kruskal/serial", "--peers", "none", "--placement", "host,device",
         "--end-to-end", "--repeat", "1", "--no-cache", "--no-progress", "--no-plots",
         "--out", str(tmp_path)],
        env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}, capture_output=True, text=True,
        timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "bench_custom.json").read_text())
    assert [(r["graph"], r["solver"], r["status"]) for r in data["records"]] == [
        ("grid2d:side=4,seed=1", "ecl/gpu", "ok"),
        ("grid2d:side=4,seed=1", "kruskal/serial", "ok"),
        ("grid2d:side=4,seed=1@device", "ecl/gpu", "ok"),
        ("grid2d:side=4,seed=1@device", "kruskal/serial", "ok")]
    assert "`@device`" in (tmp_path / "bench_custom.md").read_text()
