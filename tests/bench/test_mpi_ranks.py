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
from parmst.bench.weak import WEAK_GRAPHS


def _skip_without_mpi() -> None:
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip("mpi4py is not installed (pip install 'parmst[mpi]')")
    from parmst.bench.mpi import mpi_skip_reason

    reason = mpi_skip_reason()
    if reason is not None:
        pytest.skip(reason)


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
    _skip_without_mpi()
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


def test_weak_scaling_needs_rank_counts_and_known_series():
    with pytest.raises(ValueError, match="give ranks too"):
        parmst.bench.run(weak=["rmat"], solvers=["filter-boruvka/mpi"], progress=False)
    with pytest.raises(ValueError, match="unknown weak-scaling series 'grid'"):
        parmst.bench.run(weak=["grid"], ranks=[1], solvers=["filter-boruvka/mpi"],
                         progress=False)


@pytest.mark.mpi
def test_weak_scaling_small_generates_and_verifies_in_parallel(tmp_path):
    _skip_without_mpi()
    result = parmst.bench.run(suite="mpi-weak-small", only=["rmat-weak", "road-weak"],
                              solvers=["filter-boruvka/mpi[threads=1]"], repeat=1,
                              progress=False)
    weak = [r for r in result.records if r.extra.get("weak") and not r.extra.get("alone")]
    alone = [r for r in result.records if r.extra.get("alone")]
    assert [(r.graph, r.ranks) for r in weak] == [("rmat-weak", 1), ("rmat-weak", 2),
                                                  ("road-weak", 1), ("road-weak", 2)]
    assert all(r.status == "ok" for r in weak + alone), \
        [(r.label, r.status, r.note) for r in weak + alone]
    # Beside each run on 2 ranks, both ranks ran the one-rank job at once, each verified.
    assert [(r.graph, r.ranks, r.variant) for r in alone] == [
        ("rmat-weak", 2, "threads=1; each rank alone"), ("road-weak", 2,
                                                         "threads=1; each rank alone")]
    for a, one in zip(alone, (weak[0], weak[2]), strict=True):
        assert a.extra["spec"] == one.extra["spec"] and a.extra["verify_time"] > 0
        assert a.extra["num_edges"] == one.extra["num_edges"]  # rank 0 drew seed 1 as well
    for r in weak:  # the graph doubles with the ranks, and its forest passed verification
        assert r.extra["verify_time"] > 0 and r.extra["num_edges"] > 0
        assert r.extra["spec"] == WEAK_GRAPHS[r.graph.removesuffix("-weak")].spec(
            (1 << 12) * r.ranks)
    assert weak[1].extra["num_edges"] > 1.5 * weak[0].extra["num_edges"]
    markdown = to_markdown(result)
    assert "## Weak scaling" in markdown and "## MPI ranks" not in markdown
    assert "| alone at once (s) | alone / 1 rank |" in markdown
    written = save(result, tmp_path / "out", plots=importlib.util.find_spec("matplotlib") is not None)
    assert any(p.name.endswith("_weak.png") for p in written) or \
        importlib.util.find_spec("matplotlib") is None
