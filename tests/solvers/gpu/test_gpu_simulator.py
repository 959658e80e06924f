"""Run the GPU kernels under numba-cuda's simulator, in a subprocess.

``NUMBA_ENABLE_CUDASIM`` must be set before ``numba.cuda`` is first
imported, and this pytest process may already hold the real CUDA target,
so the simulator runs in a fresh interpreter: ``gpu_cases.py`` (every GPU
solver option, rank keys included), ``multigpu_cases.py`` (``ecl/multigpu``
with its parts on the one simulated device), ``points_cases.py`` (``boruvka-bvh/gpu``
against the CPU point solver, on device arrays and bad input) and the shared
conformance suite restricted to the ``gpu`` and ``multigpu`` solvers (``-k gpu`` takes
both, and the GPU point solver).
Each run must skip exactly the tests listed here, for exactly the reasons
listed: a new skip, or a skip for a new reason, fails until it is reviewed
and written down.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                       reason="numba-cuda is not installed (pip install 'parmst[gpu]')"),
]

_TOO_BIG = "{} cannot run here: 5000 vertices, 5 edges: too slow for the CUDA simulator " \
           "(limit 4096 of each)"
_TOO_DENSE = "prim-dense/gpu cannot run here: {} vertices: dense Prim is too slow for the " \
             "CUDA simulator (limit 40)"
# The conformance cases over the simulator's size limits (solvers/gpu/_device.py), by reason:
# the sparse 5000-vertex case for every GPU solver, and dense Prim's larger generator graphs.
CONFORMANCE_SKIPS = Counter({
    _TOO_BIG.format("boruvka-edge/gpu"): 1,
    _TOO_BIG.format("ecl/gpu"): 1,
    _TOO_BIG.format("ecl/multigpu"): 1,
    _TOO_BIG.format("genboruvka/gpu"): 1,
    _TOO_BIG.format("prim-dense/gpu"): 1,
    _TOO_DENSE.format(60): 2,
    _TOO_DENSE.format(64): 1,
    _TOO_DENSE.format(80): 1,
    # The point sets of tests/conformance/test_points.py above the point solver's limit (400).
    **{f"boruvka-bvh/gpu cannot run here: {n} points: too slow for the CUDA simulator "
       f"(limit 400)": count
       for n, count in ((500, 1), (600, 6), (729, 4), (800, 1), (900, 5), (1200, 1), (1500, 5))},
})
# gpu_cases.py: the device-only tests (warp intrinsics do not exist in the simulator).
GPU_CASES_SKIPS = Counter()
# points_cases.py: CuPy (absent in CI) and the device-only rounding check.
POINTS_CASES_SKIPS = Counter({
    "CuPy is not installed": 1,
    "the simulator runs the Python arithmetic: a fused multiply-add can only happen on a GPU": 1,
})
# multigpu_cases.py: the simulator models one device, so the one-part-per-device cases
# (3 option sets x 3 graphs) skip, the peer-copy path (no real device), and the
# conformance catalogue, which the conformance suite runs there itself; every case with
# parts on one device runs.
MULTIGPU_CASES_SKIPS = Counter({
    "the CUDA simulator models one device": 9,
    "a peer copy needs a real device": 1,
    "the conformance suite runs ecl/multigpu under the simulator itself (two parts by "
    "default there)": 1,
})


def run_under_simulator(report: Path, *pytest_args: str) -> tuple[Counter, Counter, str]:
    """Run pytest with ``NUMBA_ENABLE_CUDASIM=1``; returns the outcome counts, the skip
    reasons with their counts, and the output's tail."""
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(ROOT), f"--junitxml={report}", *pytest_args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
                          check=False)
    tail = done.stdout[-6000:] + done.stderr[-3000:]
    assert done.returncode == 0, tail
    outcomes, skips = Counter(), Counter()
    for case in ET.parse(report).iter("testcase"):
        skipped = case.find("skipped")
        failed = case.find("failure") is not None or case.find("error") is not None
        outcomes["failed" if failed else "skipped" if skipped is not None else "passed"] += 1
        if skipped is not None:
            skips[skipped.get("message", "").removeprefix("Skipped: ")] += 1
    return outcomes, skips, tail


def test_gpu_cases_pass_under_simulator(tmp_path):
    outcomes, skips, tail = run_under_simulator(tmp_path / "cases.xml",
                                                str(HERE / "gpu_cases.py"))
    assert outcomes["passed"] > 0 and outcomes["failed"] == 0, tail
    assert skips == GPU_CASES_SKIPS, tail


def test_point_cases_pass_under_simulator(tmp_path):
    outcomes, skips, tail = run_under_simulator(tmp_path / "points.xml",
                                                str(HERE / "points_cases.py"))
    assert outcomes["passed"] > 0 and outcomes["failed"] == 0, tail
    assert skips == POINTS_CASES_SKIPS, tail


def test_multigpu_cases_pass_under_simulator(tmp_path):
    outcomes, skips, tail = run_under_simulator(tmp_path / "multigpu.xml",
                                                str(HERE / "multigpu_cases.py"))
    assert outcomes["passed"] > 0 and outcomes["failed"] == 0, tail
    assert skips == MULTIGPU_CASES_SKIPS, tail


def test_conformance_suite_passes_for_gpu_solvers_under_simulator(tmp_path):
    outcomes, skips, tail = run_under_simulator(tmp_path / "conformance.xml",
                                                str(ROOT / "tests" / "conformance"), "-k", "gpu")
    assert outcomes["passed"] > 0 and outcomes["failed"] == 0, tail
    assert skips == CONFORMANCE_SKIPS, tail
