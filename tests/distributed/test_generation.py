"""Parallel generation (parmst.distributed.generation) under a real mpiexec, and the CLI.

The worker runs every check on 1, 2, 3 and 4 ranks in one launch (see its
docstring); the CLI test solves a generated graph on 2 ranks.
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


def _run(ranks: int, args: list[str], timeout: float = 600):
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


def test_every_rank_count_generates_exactly_the_serial_graph():
    done = _run(4, [str(HERE / "generation_worker.py")])
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == 4
    assert result["checks"] == 4 * 15  # 11 specs and 4 errors on each of 1..4 ranks
    assert result["failures"] == []
    assert done.returncode == 0


def test_cli_generates_in_parallel_and_prints_the_serial_weight():
    spec = "rmat:scale=8,seed=3"
    done = _run(2, ["-m", "parmst", "solve", "--generate", spec, "--solver",
                    "filter-boruvka/mpi", "--json"], timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    reference = parmst.minimum_spanning_forest(parmst.generate(spec), solver="kruskal/serial")
    assert report["ranks"] == 2
    assert (report["num_edges"], report["forest_edges"]) == (parmst.generate(spec).num_edges,
                                                             reference.num_edges)
    assert report["total_weight"] == reference.total_weight
