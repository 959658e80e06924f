"""Union-find and Kruskal's scan, shared with Filter-Kruskal's base cases."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.kernels.unionfind import (
    find,
    find_read_only,
    label_kept_roots,
    link_roots,
    reset_at,
    scan_in_order,
    scan_in_order_ascending,
    scan_sorted,
)


def _plain_kruskal(order, src, dst, n):
    """Kruskal's scan by component labels, relabelled whole at every join: the kept ids in
    scan order and each vertex's component (its smallest vertex)."""
    label = list(range(n))
    kept = []
    for e in order.tolist():
        a, b = label[src[e]], label[dst[e]]
        if a != b:
            kept.append(e)
            low, high = min(a, b), max(a, b)
            label = [low if x == high else x for x in label]
    return kept, label


def test_scan_continues_from_count_and_stops_when_spanning():
    src = np.array([0, 1, 2, 0, 3], dtype=np.int32)
    dst = np.array([1, 2, 0, 3, 2], dtype=np.int32)
    parent = np.full(4, -1, dtype=np.int32)
    chosen = np.full(3, -1, dtype=np.int64)
    count = scan_in_order(np.array([0, 1]), src, dst, parent, chosen, 0)
    assert count == 2
    count = scan_in_order(np.array([2, 3, 4]), src, dst, parent, chosen, count)
    assert count == 3
    assert chosen.tolist() == [0, 1, 3]
    assert parent[find(parent, 3)] == -4


def test_scan_ignores_self_loops_and_parallel_duplicates():
    src = np.array([0, 0, 1, 1], dtype=np.int64)
    dst = np.array([0, 1, 0, 2], dtype=np.int64)
    parent = np.full(3, -1, dtype=np.int64)
    chosen = np.empty(2, dtype=np.int64)
    assert scan_in_order(np.arange(4), src, dst, parent, chosen, 0) == 2
    assert chosen.tolist() == [1, 3]


def test_scan_hands_back_the_kept_ids_ascending():
    """Taken in key order (4, 0, 3; 2 and 1 close cycles), handed back in id order; the scan
    stops at the capacity (edge 5 is never looked at)."""
    src = np.array([0, 1, 1, 2, 2, 0], dtype=np.int32)
    dst = np.array([1, 2, 0, 3, 0, 3], dtype=np.int32)
    order = np.array([4, 0, 2, 1, 3, 5])
    parent = np.full(4, -1, dtype=np.int32)
    kept = scan_in_order_ascending(order, src, dst, parent, 3)
    assert kept.tolist() == [0, 3, 4] and kept.dtype == np.int64
    empty = scan_in_order_ascending(np.arange(0), src[:0], dst[:0], np.full(1, -1), 0)
    assert empty.tolist() == []


def test_kept_roots_are_numbered_in_root_order_from_the_offset():
    parent = np.array([-2, 0, -2, 2, -1, -1])  # roots 0, 2, 4, 5
    keep = np.array([True, False, False, False, True, True])
    labels, count = label_kept_roots(parent, keep, 10)
    assert count == 3
    assert labels.tolist() == [10, 10, -1, -1, 11, 12]


def test_link_keeps_the_larger_tree_root_and_the_first_on_equal_sizes():
    parent = np.array([-1, -1, -2, 2])
    assert link_roots(parent, 0, 1) == 0 and parent.tolist() == [-2, 0, -2, 2]
    assert link_roots(parent, 2, 0) == 2 and parent.tolist() == [2, 0, -4, 2]
    parent = np.array([-1, -3, 1, 1])
    assert link_roots(parent, 0, 1) == 1 and parent.tolist() == [1, -4, 1, 1]


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_scan_keeps_kruskals_forest_and_the_sizes_at_the_roots(dtype):
    """On random multigraphs with loops, the scan keeps what a plain Kruskal keeps, in scan
    order, whole or in two halves continued from a count; each root holds minus its tree's
    size, and a read-only find agrees with find without writing."""
    rng = np.random.default_rng(3)
    for n in (1, 7, 40):
        m = 3 * n
        src, dst = rng.integers(0, n, m).astype(dtype), rng.integers(0, n, m).astype(dtype)
        order = rng.permutation(m)
        want, component = _plain_kruskal(order, src, dst, n)
        parent = np.full(n, -1, dtype=dtype)
        got = np.empty(max(n - 1, 0), dtype=np.int64)
        assert got[:scan_in_order(order, src, dst, parent, got, 0)].tolist() == want
        before = parent.copy()
        assert [find_read_only(parent, v) for v in range(n)] == [
            find_read_only(before, v) for v in range(n)]
        assert parent.tolist() == before.tolist()
        roots = np.array([find(parent, v) for v in range(n)])
        assert len(set(zip(roots.tolist(), component))) == len(set(component))
        assert (-parent[np.unique(roots)]).tolist() == np.bincount(roots)[np.unique(roots)].tolist()
        parent = np.full(n, -1, dtype=dtype)
        half = scan_sorted(src[order[:m // 2]], dst[order[:m // 2]], parent, got, 0)
        whole = scan_sorted(src[order[m // 2:]], dst[order[m // 2:]], parent, got, half)
        assert whole == len(want)
        assert order[got[:half]].tolist() + order[m // 2 + got[half:whole]].tolist() == want


def test_reset_makes_the_endpoints_singletons_and_leaves_the_rest():
    parent = np.array([-3, 0, 0, -1])
    reset_at(np.array([1]), np.array([3]), parent)
    assert parent.tolist() == [-3, -1, 0, -1]
