"""Launching a test's worker script under a real ``mpiexec``, or skipping with the reason."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

import parmst


def run_ranks(ranks: int, args: list[str], timeout: float = 600
              ) -> subprocess.CompletedProcess:
    """``mpiexec -n ranks python args...`` with one Numba thread per rank (the ranks share the
    cores) and this checkout's ``parmst`` first on the path; skips the test where mpi4py or
    mpiexec is missing."""
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip("mpi4py is not installed (pip install 'parmst[mpi]')")
    from parmst.errors import SolverUnavailable
    from parmst.solvers.mpi import launch

    try:
        launch.find_mpiexec()
    except SolverUnavailable as exc:
        pytest.skip(str(exc))
    env = os.environ.copy()
    env["NUMBA_NUM_THREADS"] = "1"  # ranks share the cores; threads would oversubscribe them
    src = str(Path(parmst.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return launch.run_mpi(ranks, args, timeout=timeout, env=env)
