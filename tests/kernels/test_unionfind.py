"""Union-find and Kruskal's scan, shared with Filter-Kruskal's base cases."""

from __future__ import annotations

import numpy as np

from parmst.kernels.unionfind import (
    find_signed,
    label_kept_roots,
    reset_signed_at,
    scan_in_order,
    scan_in_order_ascending,
    scan_in_order_signed,
    scan_signed,
)


def test_scan_continues_from_count_and_stops_when_spanning():
    src = np.array([0, 1, 2, 0, 3], dtype=np.int32)
    dst = np.array([1, 2, 0, 3, 2], dtype=np.int32)
    parent = np.arange(4)
    size = np.ones(4, dtype=np.int64)
    chosen = np.full(3, -1, dtype=np.int64)
    count = scan_in_order(np.array([0, 1]), src, dst, parent, size, chosen, 0)
    assert count == 2
    count = scan_in_order(np.array([2, 3, 4]), src, dst, parent, size, chosen, count)
    assert count == 3
    assert chosen.tolist() == [0, 1, 3]


def test_scan_ignores_self_loops_and_parallel_duplicates():
    src = np.array([0, 0, 1, 1], dtype=np.int64)
    dst = np.array([0, 1, 0, 2], dtype=np.int64)
    parent = np.arange(3)
    size = np.ones(3, dtype=np.int64)
    chosen = np.empty(2, dtype=np.int64)
    assert scan_in_order(np.arange(4), src, dst, parent, size, chosen, 0) == 2
    assert chosen.tolist() == [1, 3]


def test_scan_hands_back_the_kept_ids_ascending():
    """Taken in key order (4, 0, 3; 2 and 1 close cycles), handed back in id order; the scan
    stops at the capacity (edge 5 is never looked at)."""
    src = np.array([0, 1, 1, 2, 2, 0], dtype=np.int32)
    dst = np.array([1, 2, 0, 3, 0, 3], dtype=np.int32)
    order = np.array([4, 0, 2, 1, 3, 5])
    parent = np.arange(4, dtype=np.int32)
    size = np.ones(4, dtype=np.int32)
    kept = scan_in_order_ascending(order, src, dst, parent, size, 3)
    assert kept.tolist() == [0, 3, 4] and kept.dtype == np.int64
    empty = scan_in_order_ascending(np.arange(0), src[:0], dst[:0], np.arange(1), np.ones(1), 0)
    assert empty.tolist() == []


def test_kept_roots_are_numbered_in_root_order_from_the_offset():
    parent = np.array([0, 0, 2, 2, 4, 5])  # roots 0, 2, 4, 5
    keep = np.array([True, False, False, False, True, True])
    labels, count = label_kept_roots(parent, keep, 10)
    assert count == 3
    assert labels.tolist() == [10, 10, -1, -1, 11, 12]


def test_one_array_scan_keeps_kruskals_forest_and_the_sizes_at_the_roots():
    """On random multigraphs with loops, the one-array scan keeps what the two-array scan
    keeps, leaves minus each tree's size at its root, and continues from a count; the reset
    at some endpoints makes them singletons again and leaves the rest."""
    rng = np.random.default_rng(3)
    for n in (1, 7, 40):
        m = 3 * n
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        order = rng.permutation(m)
        want = np.empty(n, dtype=np.int64)
        k = scan_in_order(order, src, dst, np.arange(n), np.ones(n, np.int64), want, 0)
        parent = np.full(n, -1)
        got = np.empty(n, dtype=np.int64)
        assert scan_in_order_signed(order, src, dst, parent, got) == k
        assert got[:k].tolist() == want[:k].tolist()
        roots = np.array([find_signed(parent, v) for v in range(n)])
        assert (-parent[np.unique(roots)]).tolist() == np.bincount(roots)[np.unique(roots)].tolist()
        parent = np.full(n, -1)
        half = scan_signed(src[order[:m // 2]], dst[order[:m // 2]], parent, got, 0)
        whole = scan_signed(src[order[m // 2:]], dst[order[m // 2:]], parent, got, half)
        assert whole == k and order[got[:half]].tolist() == want[:half].tolist()
        assert order[m // 2 + got[half:k]].tolist() == want[half:k].tolist()
    parent = np.array([-3, 0, 0, -1])
    reset_signed_at(np.array([1]), np.array([3]), parent)
    assert parent.tolist() == [-3, -1, 0, -1]
