"""Prim's indexed binary heap: pops in ``(key, edge_id)`` order after decreases."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from parmst.kernels.heap import sift_down, sift_up


@given(st.lists(st.integers(0, 3), max_size=40), st.data())
def test_heap_pops_in_key_then_edge_order_after_decreases(keys, data):
    n = len(keys)
    key = np.array(keys, dtype=np.uint64)
    edge = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    heap_key = np.empty(n, dtype=np.uint64)
    heap_edge = np.empty(n, dtype=np.int64)
    heap_vertex = np.empty(n, dtype=np.int64)
    position = np.full(n, -1, dtype=np.int64)
    for v in range(n):
        sift_up(heap_key, heap_edge, heap_vertex, position, v, key[v], edge[v], v)
    decreased = data.draw(st.lists(st.integers(0, n - 1), max_size=n)) if n else []
    for v in decreased:
        key[v] = 0
        sift_up(heap_key, heap_edge, heap_vertex, position, position[v], key[v], edge[v], v)
    popped = []
    for size in range(n - 1, -1, -1):
        popped.append(int(heap_vertex[0]))
        sift_down(heap_key, heap_edge, heap_vertex, position, size, heap_key[size],
                  heap_edge[size], heap_vertex[size])
    assert popped == sorted(range(n), key=lambda v: (key[v], edge[v]))
