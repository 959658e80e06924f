"""The mpi solvers' one-rank kernels, without mpiexec: filter-boruvka's safe contraction and
the owner rounds' edge contraction, against plain-Python statements of what they must do."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.solvers.mpi.boruvka import _contract_forest, _key_order, _lightest_cut
from parmst.solvers.mpi.owners import TWIN_DENSITY, _Edges


def _random_forest_and_cuts(rng: np.random.Generator, n: int, cuts: int):
    """A random forest on ``0..n-1`` and ``cuts`` cut edges, with distinct held positions
    and 3-bit keys (many ties, broken by position)."""
    fa, fb = [], []
    for v in range(1, n):
        if rng.random() < 0.8:
            fa.append(v)
            fb.append(int(rng.integers(0, v)))
    positions = rng.permutation(len(fa) + cuts)
    keys = rng.integers(0, 8, size=len(positions)).astype(np.uint64)
    return (np.array(fa, dtype=np.int64), np.array(fb, dtype=np.int64),
            positions[:len(fa)].astype(np.int64), positions[len(fa):].astype(np.int64),
            rng.integers(0, n, size=cuts).astype(np.int64), keys)


def _scan_all_in_key_order(n, fa, fb, forest, cut, at, keys):
    """The rule stated plainly: visit forest and cut edges in (key, position) order; a cut
    edge marks its component; a forest edge joins two components unless both are marked."""
    comp = list(range(n))
    marked = [False] * n
    contracted = np.zeros(len(forest), dtype=bool)
    events = [(int(keys[e]), int(e), "forest", k) for k, e in enumerate(forest)]
    events += [(int(keys[e]), int(e), "cut", k) for k, e in enumerate(cut)]
    for _, _, kind, k in sorted(events):
        if kind == "cut":
            marked[comp[at[k]]] = True
            continue
        a, b = comp[fa[k]], comp[fb[k]]
        if marked[a] and marked[b]:
            continue
        comp = [a if c == b else c for c in comp]
        marked[a] = marked[a] or marked[b]
        contracted[k] = True
    return contracted, [marked[comp[v]] for v in range(n)]


@pytest.mark.parametrize("seed", range(8))
def test_mpi_safe_contraction_sorting_only_the_forest_matches_the_full_scan(seed):
    from parmst.solvers.serial._unionfind import find

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    fa, fb, forest, cut, at, keys = _random_forest_and_cuts(rng, n, int(rng.integers(0, 30)))
    parent = np.arange(n, dtype=np.int64)
    cut_key = np.zeros(n, dtype=np.uint64)
    cut_at = np.full(n, -1, dtype=np.int64)
    in_order = np.zeros(len(forest), dtype=np.bool_)
    _lightest_cut(at, cut, keys, cut_key, cut_at)
    order = _key_order(keys, 3, forest)
    _contract_forest(fa[order], fb[order], keys[forest[order]], forest[order], parent,
                     np.ones(n, dtype=np.int64), cut_key, cut_at, in_order)
    contracted = np.empty_like(in_order)
    contracted[order] = in_order
    want_contracted, want_marked = _scan_all_in_key_order(n, fa, fb, forest, cut, at, keys)
    assert contracted.tolist() == want_contracted.tolist()
    assert [bool(cut_at[find(parent, v)] >= 0) for v in range(n)] == want_marked


def test_mpi_owner_edges_drop_loops_always_and_heavier_twins_once_dense():
    # Twins 0 and 1 (ends 10 and 11), edge 2 from 10 to 20, and seven edges apart: 17 groups,
    # too sparse for twins to be looked for.
    far = np.arange(30, 44)
    edges = _Edges(np.concatenate([[10, 11, 10], far[0::2]]),
                   np.concatenate([[11, 10, 20], far[1::2]]),
                   np.array([5, 3, 3] + [1] * 7, dtype=np.uint64), np.arange(10))
    assert len(edges.comp) == 17 and 10 * TWIN_DENSITY <= 17 ** 2
    assert edges.size == 10
    # Three groups: 10, 11, and everything else; the seven become loops, the twins meet.
    remap = np.full(17, 2, dtype=np.int64)
    remap[np.flatnonzero(edges.comp == 10)] = 0
    remap[np.flatnonzero(edges.comp == 11)] = 1
    edges.contract(remap, 3)
    lu, lv, key, eid = edges.arrays()
    kept = sorted(zip(lu.tolist(), lv.tolist(), key.tolist(), eid.tolist()))
    assert kept == [(0, 1, 3, 1), (0, 2, 3, 2)]


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
                                   _lightest_packed(lu, lv, key, eid, groups, np.uint64(10))):
        has = best_id >= 0
        assert best_id.tolist() == expect_id.tolist()
        assert far[has].tolist() == expect_far[has].tolist()
        by_id = {int(i): int(k) for i, k in zip(eid, key)}
        assert [int(k) for k in best_key[has]] == [by_id[int(i)] for i in best_id[has]]


@pytest.mark.parametrize("seed", range(4))
def test_gathered_forest_order_and_held_positions_match_numpy(seed):
    from parmst.solvers.mpi.boruvka import _held_positions, _id_order

    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 700))
    ids = rng.permutation(m)[:int(rng.integers(0, m + 1))].astype(np.int64)
    assert _id_order(ids, m).tolist() == np.argsort(ids).tolist()
    held = np.sort(rng.permutation(3 * m)[:m]).astype(np.int64)
    wanted = np.sort(rng.choice(held, size=int(rng.integers(0, m + 1)), replace=False))
    assert _held_positions(held, wanted).tolist() == np.searchsorted(held, wanted).tolist()


@pytest.mark.parametrize("seed", range(3))
def test_fetch_requests_grouped_by_owner_array_or_by_ranges_match_numpy(seed):
    """The request side of Channel.fetch: ids grouped by owner (stable), given as an array
    of owners or found in contiguous ranges (empty ranges included); out-of-range ids fail."""
    from parmst.solvers.mpi._comm import _requests_by_owner

    rng = np.random.default_rng(seed)
    starts = np.array([0, 40, 40, 100, 101, 300], dtype=np.int64)  # rank 1 owns nothing
    ids = rng.integers(0, 300, 500)
    owner = np.searchsorted(starts, ids, side="right") - 1
    order = np.argsort(owner, kind="stable")
    none = np.zeros(0, dtype=np.int64)
    for by_owner, by_range in ((owner, none), (none, starts)):
        ok, grouped, came_from, counts = _requests_by_owner(ids, by_owner, by_range, 5)
        assert ok
        np.testing.assert_array_equal(came_from, order)
        np.testing.assert_array_equal(grouped, ids[order])
        np.testing.assert_array_equal(counts, np.bincount(owner, minlength=5))
    for bad in (-1, 300):
        assert not _requests_by_owner(np.array([5, bad]), none, starts, 5)[0]
    assert not _requests_by_owner(ids, np.full(len(ids), 5), none, 5)[0]
    for by_owner, by_range in ((none, none), (none, starts)):  # nothing asked
        ok, grouped, came_from, counts = _requests_by_owner(none, by_owner, by_range, 5)
        assert ok and len(grouped) == len(came_from) == 0 and counts.tolist() == [0] * 5


@pytest.mark.parametrize("seed", range(3))
def test_range_owners_match_a_binary_search_over_wide_ranges(seed):
    """The bucket table of the request side: ranges much wider than its 4,096 buckets, empty
    ranks and ranges narrower than a bucket among them, every id at a boundary."""
    from parmst.solvers.mpi._comm import _range_owners

    rng = np.random.default_rng(seed)
    bounds = np.sort(rng.integers(0, 5_000_000, 14))
    starts = np.concatenate(([0], bounds, bounds[-1:] + 3, [6_000_000])).astype(np.int64)
    size = len(starts) - 1
    ids = np.concatenate([rng.integers(0, 6_000_000, 20_000), starts[:-1], starts[1:] - 1])
    ids = ids[(ids >= 0) & (ids < starts[-1])]
    np.testing.assert_array_equal(_range_owners(ids, starts, size),
                                  np.searchsorted(starts, ids, side="right") - 1)
    np.testing.assert_array_equal(_range_owners(np.array([-1, 6_000_000]), starts, size), [-1, -1])
