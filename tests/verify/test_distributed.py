"""``parmst.verify`` on a distributed graph, under a real mpiexec on 1 to 4 ranks.

One launch per rank count runs every case (see distributed_worker.py), the
CLI's ``parmst solve --verify`` included. Every run has a timeout, so a
hang fails the test.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

import parmst

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent
TIMEOUT = 600


def _run(ranks: int, args: list[str]):
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
    return launch.run_mpi(ranks, args, timeout=TIMEOUT, env=env)


@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_every_rank_gets_the_one_process_verdict(ranks):
    """Correct forests pass and planted faults fail alike on every rank, whole or shared;
    the CLI's --verify passes a correct forest and fails a wrong one with status 1."""
    done = _run(ranks, [str(HERE / "distributed_worker.py")])
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == ranks
    assert result["checks"] == {"correct": 350, "faults": 204}
    assert result["failures"] == []
    assert done.returncode == 0

