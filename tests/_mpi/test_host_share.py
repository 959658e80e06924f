"""Arrays one host's ranks hold in one copy (``parmst._mpi.host_share``), under a real mpiexec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mpi_launch import run_ranks

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("ranks", [1, 3])
def test_a_hosts_ranks_map_the_holders_file_or_get_copies_where_it_cannot_be_written(ranks):
    """Every rank reads the holder's arrays intact (int64, float64, bool, empty), the other
    ranks as read-only maps of a file gone once mapped; the holders gather every rank's
    array; an unwritable folder falls back to a private copy on each rank with one warning."""
    done = run_ranks(ranks, [str(HERE / "host_share_worker.py")], timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result == {"ranks": ranks, "failures": []}
    assert done.returncode == 0
