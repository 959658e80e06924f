"""Run the GPU kernels under numba-cuda's simulator, in a subprocess.

``NUMBA_ENABLE_CUDASIM`` must be set before ``numba.cuda`` is first
imported, and this pytest process may already hold the real CUDA target,
so the simulator runs in a fresh interpreter: ``gpu_cases.py`` (every
``ecl/gpu`` code path) and the shared conformance suite restricted to the
``gpu`` solvers.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                       reason="numba-cuda is not installed (pip install 'parmst[gpu]')"),
]


def run_under_simulator(*pytest_args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(ROOT), *pytest_args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
                          check=False)


def test_gpu_cases_pass_under_simulator():
    done = run_under_simulator(str(HERE / "gpu_cases.py"))
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout


def test_conformance_suite_passes_for_gpu_solvers_under_simulator():
    done = run_under_simulator(str(ROOT / "tests" / "conformance"), "-k", "gpu")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout
