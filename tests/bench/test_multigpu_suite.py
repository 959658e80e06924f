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
