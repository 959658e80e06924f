"""filter-boruvka/mpi's forest merge: its rule and merge kernel on one rank, and the whole
merge (with the channel's point-to-point pair) under a real mpiexec on 3 and 4 ranks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mpi_launch import run_ranks
from parmst import Graph, Stats, minimum_spanning_forest
from parmst._threads import using_threads
from parmst.kernels.unionfind import reset_at
from parmst.order import weight_keys
from parmst.solvers.cpu import ecl_compiled
from parmst.solvers.mpi.forest_merge import (
    DENSE_SHARE_DEGREE,
    TWO_THREAD_ECL_DEGREE,
    _local_forest,
    forest_of_two,
    merge_fits,
    share_solver,
)

HERE = Path(__file__).resolve().parent


def test_merge_rule_bounds_a_merge_by_a_share_of_the_edges():
    assert merge_fits(5_000, 11_245_624, 16)  # seed000-dense large
    assert merge_fits(1 << 22, 1 << 26, 16) and not merge_fits(1 << 22, 1 << 26, 32)  # RMAT 22
    assert merge_fits(11, 20, 2) and not merge_fits(11, 19, 2)  # 2 (n - 1) = 20 against 2 m / p
    assert merge_fits(11, 40, 2, factor=1.0) and not merge_fits(11, 39, 2, factor=1.0)


def _ordered_forest(src, dst, weight, ids, n):
    """Kruskal's forest of the edges (ties by id), as the four arrays in (weight, id) order."""
    by_id = np.argsort(ids)
    src, dst, weight, ids = src[by_id], dst[by_id], weight[by_id], ids[by_id]
    graph = Graph.from_edges(src, dst, weight, n)
    kept = np.asarray(minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids)
    order = np.lexsort((ids[kept], weight[kept]))
    return tuple(a[kept[order]] for a in (src, dst, weight, ids))


@pytest.mark.parametrize(("seed", "threads"), [(s, 1 + s % 2) for s in range(4)])
def test_scan_of_two_ordered_forests_is_the_forest_of_their_union(seed, threads):
    """Two forests of disjoint edge sets (few distinct weights: many ties, decided by the
    global id) merged by the step's scan are Kruskal's forest of all their edges, in
    (weight, id) order, on one thread or two; the union-find array starts as garbage, is
    reset at the endpoints only and reused."""
    rng = np.random.default_rng(seed)
    n, m = 60, int(rng.integers(0, 400))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    weight = rng.integers(0, 4, m).astype(np.int64)
    ids = rng.permutation(5 * m)[:m]
    part = rng.integers(0, 2, m).astype(bool)
    a = _ordered_forest(src[part], dst[part], weight[part], ids[part], n)
    b = _ordered_forest(src[~part], dst[~part], weight[~part], ids[~part], n)
    parent = rng.integers(-9, 9, n)
    for _ in range(2):
        for forest in (a, b):
            reset_at(forest[0], forest[1], parent)
        with using_threads(threads, Stats()):
            got = forest_of_two(a, b, parent)
        want = _ordered_forest(src, dst, weight, ids, n)
        assert [g.tolist() for g in got] == [w.tolist() for w in want]


@pytest.mark.parametrize(("solver", "threads"), [("auto", 1), ("ecl/cpu", 1), ("ecl/cpu", 2)])
def test_local_forest_comes_in_key_and_id_order(solver, threads):
    """A rank's local forest, by Kruskal's scan ("auto" on one thread) or by another solver
    then ordered (on one thread and on two), is Kruskal's forest in (weight, id) order; the
    weights have many ties."""
    rng = np.random.default_rng(7)
    n, m = 80, 600
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    weight = rng.integers(0, 5, m).astype(np.float64)
    ids = np.sort(rng.permutation(3 * m)[:m])
    with using_threads(threads, Stats()):
        got = _local_forest((src, dst, weight, ids), n, solver, threads)
    want = _ordered_forest(src, dst, weight, ids, n)
    assert [g.tolist() for g in got[:2] + got[3:]] == [w.tolist() for w in want[:2] + want[3:]]
    assert (got[2] == weight_keys(want[2])).all() and len(got[2]) > 40


def test_share_solver_follows_the_threads_and_the_share_shape():
    """One thread: Kruskal; two: ecl/cpu from TWO_THREAD_ECL_DEGREE edges per vertex (where
    its kernels are compiled), else Kruskal; a named solver is kept."""
    def ring(n, m):
        return Graph(np.arange(m) % n, (np.arange(m) + 1) % n, np.ones(m), n)

    dense, sparse = ring(10, 10 * TWO_THREAD_ECL_DEGREE), ring(10, 10 * TWO_THREAD_ECL_DEGREE - 1)
    assert share_solver(dense, "auto", 1) == "kruskal/serial"
    assert share_solver(sparse, "auto", 2) == "kruskal/serial"
    assert share_solver(dense, "auto", 2) == ("ecl/cpu" if ecl_compiled() else "kruskal/serial")
    assert share_solver(sparse, "ecl/cpu", 2) == "ecl/cpu"


def test_local_forest_of_a_dense_share_is_exact():
    """A share with at least DENSE_SHARE_DEGREE edges per vertex runs ecl/cpu with its own
    filter target (forced on one thread, "auto"'s pick on two); the forest is still
    Kruskal's, in (weight, id) order."""
    rng = np.random.default_rng(11)
    n = 12
    m = DENSE_SHARE_DEGREE * n
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    weight = rng.integers(0, 50, m).astype(np.int32)
    ids = np.sort(rng.permutation(2 * m)[:m])
    want = _ordered_forest(src, dst, weight, ids, n)
    for solver, threads in (("ecl/cpu", 1), ("auto", 2)):
        with using_threads(threads, Stats()):
            got = _local_forest((src, dst, weight, ids), n, solver, threads)
        assert got[3].tolist() == want[3].tolist() and len(got[3]) == n - 1


@pytest.mark.parametrize("ranks", [3, 4])
def test_forest_merge_on_ranks_is_exact(ranks):
    """One launch per rank count runs every check (see the worker)."""
    done = run_ranks(ranks, [str(HERE / "merge_worker.py")], timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == ranks and result["checks"] == 6 * (2 * 2 + 1) + 2 + 1
    assert result["failures"] == []
    assert done.returncode == 0
