"""filter-boruvka/mpi's threads under a real mpiexec: the same edge ids on 1 or 2 threads per
rank and with the default count, which every rank takes from its cores."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import parmst
from parmst._blocks import exclusive_sums

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent


def test_block_offsets_are_exclusive_sums_per_column():
    counts = np.array([[3, 0], [1, 2], [0, 5]])
    offsets = exclusive_sums(counts)
    np.testing.assert_array_equal(offsets[:-1], np.cumsum(counts, axis=0) - counts)
    np.testing.assert_array_equal(offsets[-1], counts.sum(axis=0))


def test_threads_per_rank_give_the_same_forest():
    """One launch of 3 ranks with up to 2 threads each (see the worker)."""
    from parmst.errors import SolverUnavailable
    from parmst.solvers.mpi import launch

    try:
        launch.find_mpiexec()
    except SolverUnavailable as exc:
        pytest.skip(str(exc))
    env = os.environ.copy()
    env["NUMBA_NUM_THREADS"] = "2"
    src = str(Path(parmst.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    done = launch.run_mpi(3, [str(HERE / "threads_worker.py")], timeout=600, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == 3 and result["checks"] == 3 * 4 * 3
    assert 1 <= result["default"] <= 2
    assert result["failures"] == []
    assert done.returncode == 0
