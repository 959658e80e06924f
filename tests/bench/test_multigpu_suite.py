"""The multigpu suites: one GPU against several, compute-only, with the merge's share."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from parmst.bench.suites import SUITES


def test_suites_time_ecl_gpu_against_ecl_multigpu_compute_only():
    full, small = SUITES["multigpu"], SUITES["multigpu-small"]
    assert full.solvers == ("ecl/gpu", "ecl/multigpu")
    assert small.solvers == ("ecl/gpu", "ecl/multigpu[parts=2]")
    for suite in (full, small):
        assert suite.measure == "compute" and suite.baseline == "ecl/gpu" and suite.peers == ()
    names = [g.name for g in full.graphs]
    assert names[:7] == [g.name for g in SUITES["ecl-gpu"].graphs]
    assert names[7:] == ["rmat-2e26", "random-degree-2e27"]


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                    reason="numba-cuda is not installed (pip install 'parmst[gpu]')")
def test_multigpu_small_suite_under_the_simulator(tmp_path):
    """multigpu-small's settings on a tiny graph, both solvers really running (simulator)."""
    script = ("import dataclasses, sys\n"
              "from parmst.bench import suites\n"
              "from parmst.bench.__main__ import main\n"
              "s = suites.SUITES['multigpu-small']\n"
              "suites.SUITES['multigpu-small'] = dataclasses.replace(s, graphs=(\n"
              "    dataclasses.replace(s.graphs[0], spec='grid2d:side=5,seed=1'),))\n"
              "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted below
        [sys.executable, "-c", script, "--suite", "multigpu-small", "--repeat", "1",
         "--no-cache", "--no-progress", "--no-plots", "--out", str(tmp_path)],
        env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}, capture_output=True, text=True,
        timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "bench_multigpu-small.json").read_text())
    records = data["records"]
    assert [(r["solver"], r["variant"], r["status"]) for r in records] == [
        ("ecl/gpu", "", "ok"), ("ecl/multigpu", "parts=2", "ok")]
    extra = records[1]["extra"]
    assert extra["parts"] == 2 and 0 < extra["merge_share"] < 1
    assert extra["end_to_end_time"] > records[1]["compute_time"] > 0
    text = (tmp_path / "bench_multigpu-small.md").read_text()
    assert "### ecl/multigpu" in text and "`merge` ms (%)" in text


def test_scale_suite_generates_every_family_at_a_billion_edges_and_more():
    from parmst.bench.multigpu_scale import SCALE_GRAPHS
    from parmst.generators import describe

    full, small = SUITES["multigpu-scale"], SUITES["multigpu-scale-small"]
    assert full.gpus == (1, 2, 4) and small.gpus == (1,) and full.graphs == small.graphs == ()
    for suite in (full, small):
        assert suite.measure == "compute" and suite.baseline == "ecl/gpu" and suite.peers == ()
    edges = {name: describe(SCALE_GRAPHS[name].spec)["m"] for name in full.gpu_scale}
    assert min(edges.values()) >= 10**9 and edges["rmat-2e28"] == 2**32
    assert [SCALE_GRAPHS[name].spec.split(":")[0] for name in full.gpu_scale] == [
        "rmat", "seed000-sparse", "random-degree", "road", "rmat", "rmat"]
    assert SCALE_GRAPHS["rmat-2e28"].min_gpus == 4
    assert SCALE_GRAPHS["rmat-2e6"].placement(1) == [0, 0, 0]


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                    reason="numba-cuda is not installed (pip install 'parmst[gpu]')")
def test_multigpu_scale_small_suite_under_the_simulator(tmp_path):
    """The scale path end to end on the simulator's one device: parts generated there, solved
    where they lie, checked by ecl/cpu and by parmst.verify, the per-GPU table written."""
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted below
        [sys.executable, "-m", "parmst", "bench", "--suite", "multigpu-scale-small", "--repeat",
         "1", "--no-cache", "--no-progress", "--no-plots", "--out", str(tmp_path)],
        env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}, capture_output=True, text=True,
        timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "bench_multigpu-scale-small.json").read_text())
    got = [(r["graph"], r["solver"], r["variant"], r["status"], r["extra"].get("parts"))
           for r in data["records"]]
    assert got == [("rmat-2e6", "ecl/multigpu", "gpus=1", "ok", 3),
                   ("road-small", "ecl/gpu", "gpus=1", "ok", None),
                   ("road-small", "ecl/multigpu", "gpus=1", "ok", 1)]
    checks = [r["extra"].get("check") for r in data["records"]]
    assert checks == ["ecl/cpu", "verify", None]
    assert all(g["verified"] for g in data["graphs"])
    multigpu = data["records"][0]
    assert multigpu["phases"]["generate"] > 0 and multigpu["extra"]["local_time_gpu0"] > 0
    text = (tmp_path / "bench_multigpu-scale-small.md").read_text()
    assert "## Per GPU" in text and "| rmat-2e6 | ecl/multigpu[gpus=1] | 3 | gpu0 |" in text
