"""Union-find and Kruskal's scan, shared with Filter-Kruskal's base cases."""

from __future__ import annotations

import numpy as np

from parmst.kernels.unionfind import forest_labels, scan_in_order


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


def test_forest_labels_name_each_component_by_its_smallest_vertex():
    labels = forest_labels(np.array([3, 1]), np.array([0, 4]), 6)
    assert labels.tolist() == [0, 1, 2, 0, 1, 5]
