"""Parallel generation (parmst.distributed.generation) under a real mpiexec, and the CLI.

The worker runs every check on 1, 2, 3 and 4 ranks in one launch (see its
docstring); the CLI test solves a generated graph on 2 ranks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import parmst
from mpi_launch import run_ranks

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent




def test_every_rank_count_generates_exactly_the_serial_graph():
    done = run_ranks(4, [str(HERE / "generation_worker.py")])
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == 4
    assert result["checks"] == 4 * 15  # 11 specs and 4 errors on each of 1..4 ranks
    assert result["failures"] == []
    assert done.returncode == 0


def test_cli_generates_in_parallel_and_prints_the_serial_weight():
    spec = "rmat:scale=8,seed=3"
    done = run_ranks(2, ["-m", "parmst", "solve", "--generate", spec, "--solver",
                    "filter-boruvka/mpi", "--json"], timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    reference = parmst.minimum_spanning_forest(parmst.generate(spec), solver="kruskal/serial")
    assert report["ranks"] == 2
    assert (report["num_edges"], report["forest_edges"]) == (parmst.generate(spec).num_edges,
                                                             reference.num_edges)
    assert report["total_weight"] == reference.total_weight
