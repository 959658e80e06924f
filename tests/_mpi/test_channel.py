"""The channel's one-rank kernels, without mpiexec: fetch's request side and range owners."""

from __future__ import annotations

import numpy as np
import pytest

from parmst._mpi.channel import _range_owners, _requests_by_owner


@pytest.mark.parametrize("seed", range(3))
def test_fetch_requests_grouped_by_owner_array_or_by_ranges_match_numpy(seed):
    """The request side of Channel.fetch: ids grouped by owner (stable), given as an array
    of owners or found in contiguous ranges (empty ranges included); out-of-range ids fail."""
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
    rng = np.random.default_rng(seed)
    bounds = np.sort(rng.integers(0, 5_000_000, 14))
    starts = np.concatenate(([0], bounds, bounds[-1:] + 3, [6_000_000])).astype(np.int64)
    size = len(starts) - 1
    ids = np.concatenate([rng.integers(0, 6_000_000, 20_000), starts[:-1], starts[1:] - 1])
    ids = ids[(ids >= 0) & (ids < starts[-1])]
    np.testing.assert_array_equal(_range_owners(ids, starts, size),
                                  np.searchsorted(starts, ids, side="right") - 1)
    np.testing.assert_array_equal(_range_owners(np.array([-1, 6_000_000]), starts, size), [-1, -1])
