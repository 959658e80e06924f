"""The owner rounds' one-rank kernels, without mpiexec: edge contraction and minima."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.solvers.mpi.owners import TWIN_DENSITY, _Edges


def test_mpi_owner_edges_drop_loops_always_and_heavier_twins_once_dense():
    # This rank owns 10, 11 and 12. Twins 0 and 1 (ends 10 and 11), edge 2 from 10 to 20,
    # and seven edges from 12 to 30..36: numbered in place, 11 groups, nothing dropped yet.
    cu = np.array([10, 11, 10] + [12] * 7)
    cv = np.concatenate([[11, 10, 20], np.arange(30, 37)])
    edges = _Edges(cu, cv, np.array([5, 3, 3] + [1] * 7, dtype=np.uint64), np.arange(10), 10, 3, 37)
    assert edges.lu is cu and edges.lv is cv  # the ids are written over the labels
    assert edges.comp[:3].tolist() == [10, 11, 12]
    assert sorted(edges.comp[3:].tolist()) == [20] + list(range(30, 37))
    np.testing.assert_array_equal(edges.comp[edges.lu], [10, 11, 10] + [12] * 7)
    assert edges.size == 10
    # Three groups: 10, 11, and everything else; the seven become loops, the twins meet.
    remap = np.full(11, 2, dtype=np.int64)
    remap[np.flatnonzero(edges.comp == 10)] = 0
    remap[np.flatnonzero(edges.comp == 11)] = 1
    assert 3 * TWIN_DENSITY > 3 ** 2
    edges.contract(remap, 3)
    lu, lv, key, eid = edges.arrays()
    kept = sorted(zip(lu.tolist(), lv.tolist(), key.tolist(), eid.tolist()))
    assert kept == [(0, 1, 3, 1), (0, 2, 3, 2)]


def test_mpi_owner_edges_relabel_in_place_keeps_order_across_blocks():
    from parmst._blocks import num_blocks
    from parmst.solvers.mpi.owners import _relabel_in_place

    rng = np.random.default_rng(5)
    m, groups = 100_000, 50
    assert num_blocks(m) > 2
    lu = rng.integers(0, 1000, size=m)
    lv = rng.integers(0, 1000, size=m)
    key = rng.integers(0, 9, size=m).astype(np.uint64)
    eid = np.arange(m)
    remap = rng.integers(0, groups, size=1000)
    a, b = remap[lu], remap[lv]
    keep = a != b
    expect = (np.minimum(a, b)[keep], np.maximum(a, b)[keep], key[keep], eid[keep])
    kept = _relabel_in_place(lu, lv, key, eid, remap)
    assert kept == np.count_nonzero(keep)
    for got, want in zip((lu, lv, key, eid), expect):
        np.testing.assert_array_equal(got[:kept], want)


@pytest.mark.parametrize("seed", range(6))
def test_owner_round_minima_packed_and_pairs_equal_the_plain_minimum(seed):
    from parmst.solvers.mpi.owners import _lightest_packed, _lightest_pairs

    rng = np.random.default_rng(seed)
    groups, m = 40, 120
    lu = rng.integers(0, groups, size=m)
    lv = (lu + rng.integers(1, groups, size=m)) % groups  # no loops
    key = rng.integers(0, 4, size=m).astype(np.uint64)  # heavy ties, broken by id
    eid = rng.permutation(1000)[:m].astype(np.int64)
    expect_id = np.full(groups, -1)
    expect_far = np.full(groups, -1)
    for e in sorted(range(m), key=lambda e: (int(key[e]), int(eid[e])), reverse=True):
        for c, o in ((lu[e], lv[e]), (lv[e], lu[e])):
            expect_id[c], expect_far[c] = eid[e], o
    for best_key, best_id, far in (_lightest_pairs(lu, lv, key, eid, groups),
                                   _lightest_packed(lu, lv, key, eid, groups, np.uint64(10), True)):
        has = best_id >= 0
        assert best_id.tolist() == expect_id.tolist()
        assert far[has].tolist() == expect_far[has].tolist()
        by_id = {int(i): int(k) for i, k in zip(eid, key)}
        assert [int(k) for k in best_key[has]] == [by_id[int(i)] for i in best_id[has]]



@pytest.mark.parametrize("groups", [30, 800])  # a slot per pair of groups, or the hash table
def test_mpi_owner_edges_contract_keeps_the_lightest_of_each_pair_of_groups(groups):
    rng = np.random.default_rng(groups)
    m, labels = 60_000, 4000
    cu = rng.integers(0, 100, size=m)  # owned: 0..99
    cv = rng.integers(0, labels, size=m)
    key = rng.integers(0, 5, size=m).astype(np.uint64)  # ties, broken by id
    eid = rng.permutation(m)
    edges = _Edges(cu.copy(), cv.copy(), key.copy(), eid.copy(), 0, 100, labels)
    local = np.full(labels, -1)
    local[edges.comp] = np.arange(len(edges.comp))
    remap = rng.integers(0, groups, size=len(edges.comp))
    a, b = remap[local[cu]], remap[local[cv]]
    lightest = {}
    for e in sorted(np.flatnonzero(a != b), key=lambda e: (key[e], eid[e]), reverse=True):
        lightest[min(a[e], b[e]), max(a[e], b[e])] = eid[e]
    assert m * TWIN_DENSITY > groups * groups
    record = {}
    edges.contract(remap, groups, record)
    assert ("twins_s" in record) == (groups == 800)  # the hash table's separate pass
    lu, lv, _, kept = edges.arrays()
    assert record["edges_out"] == len(kept) == len(lightest)
    assert dict(zip(zip(lu.tolist(), lv.tolist()), kept.tolist())) == lightest
