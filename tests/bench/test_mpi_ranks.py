"""The ``ranks`` sweep of the harness: mpi solvers under a real mpiexec, one launch per count."""

from __future__ import annotations

import importlib.util
import sys

import pytest

import parmst.bench
from parmst import registry
from parmst.bench.markdown import to_markdown
from parmst.bench.specs import variants
from parmst.bench.store import save
from parmst.bench.suites import get_suite


def test_ranks_sweep_applies_to_mpi_solvers_only():
    chosen, _, _ = variants(["kruskal/serial", "ecl/cpu", "filter-boruvka/mpi[threads=1]"],
                            {"threads": [1, 2]}, explicit=True, ranks=[1, 2, 4])
    seen = [(v.solver.name, v.ranks, v.threads) for v in chosen]
    assert seen == [("kruskal/serial", None, None), ("ecl/cpu", None, 1), ("ecl/cpu", None, 2),
                    ("filter-boruvka/mpi", 1, 1), ("filter-boruvka/mpi", 2, 1),
                    ("filter-boruvka/mpi", 4, 1)]


def test_mpi_scaling_suites_cover_every_mpi_solver():
    mpi = {name for name, s in registry.solvers().items() if s.backend == "mpi"}
    small = get_suite("mpi-scaling-small")
    assert small.ranks == (1, 2)
    assert {spec.split("[")[0] for spec in small.solvers} >= mpi | {"kruskal/serial", "ecl/cpu"}
    assert get_suite("mpi-scaling").ranks == (1, 2, 4, 8, 16)


@pytest.mark.mpi
def test_mpi_scaling_small_runs_tiny_under_mpiexec(tmp_path):
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip("mpi4py is not installed (pip install 'parmst[mpi]')")
    from parmst.bench.mpi import mpi_skip_reason

    reason = mpi_skip_reason()
    if reason is not None:
        pytest.skip(reason)
    saved = []  # the records each checkpoint would save: after every launch, then the graph
    result = parmst.bench.run(suite="mpi-scaling-small", only=["road-2e12"],
                              solvers=["kruskal/serial", "filter-boruvka/mpi", "ghs/mpi"],
                              repeat=1, progress=False, cache_dir=tmp_path,
                              after_graph=lambda partial: saved.append(
                                  sum(r.ranks is not None and r.ok for r in partial.records)))
    assert saved == [1, 2, 3, 4, 4]
    ranked = [r for r in result.records if r.ranks is not None]
    assert [(r.solver, r.ranks) for r in ranked] == [
        ("filter-boruvka/mpi", 1), ("filter-boruvka/mpi", 2), ("ghs/mpi", 1), ("ghs/mpi", 2)]
    assert all(r.status == "ok" and len(r.times) == 1 for r in ranked), \
        [(r.label, r.status, r.note) for r in ranked]
    for r in ranked:
        assert r.threads_used == 1 or r.solver == "filter-boruvka/mpi"
        assert r.extra["peak_memory_max_bytes"] > r.extra["peak_growth_max_bytes"] >= 0
        assert r.extra["peak_growth_max_bytes"] >= r.extra["peak_growth_others_max_bytes"] >= 0
        assert r.extra["peak_of_timed_runs"] or sys.platform != "linux"  # window: timed runs
        assert r.extra["comm_time_max_s"] >= 0 and r.compute_time > 0
    markdown = to_markdown(result)
    assert "## MPI ranks" in markdown and "ghs/mpi 2 ranks" in markdown
    assert not result.failed
    written = save(result, tmp_path / "out", plots=importlib.util.find_spec("matplotlib") is not None)
    assert any(p.name.endswith("_ranks.png") for p in written) or \
        importlib.util.find_spec("matplotlib") is None
