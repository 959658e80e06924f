"""``parmst.verify`` on a distributed graph, under a real mpiexec on 1 to 4 ranks.

One launch per rank count runs every case (see distributed_worker.py), the
CLI's ``parmst solve --verify`` included. Every run has a timeout, so a
hang fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mpi_launch import run_ranks

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent




@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_every_rank_gets_the_one_process_verdict(ranks):
    """Correct forests pass and planted faults fail alike on every rank, whole or shared;
    the CLI's --verify passes a correct forest and fails a wrong one with status 1."""
    done = run_ranks(ranks, [str(HERE / "distributed_worker.py")])
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == ranks
    assert result["checks"] == {"correct": 350, "faults": 204}
    assert result["failures"] == []
    assert done.returncode == 0

