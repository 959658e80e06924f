"""The k-d tree Borůvka rounds' hooking (``parmst.solvers.kdtree_boruvka``)."""

from __future__ import annotations

import numpy as np

from parmst.kernels.distance import pair_id
from parmst.solvers.kdtree_boruvka import _NO_PAIR, _hook


def test_hook_reads_the_pair_back_from_its_id_when_the_holder_raced() -> None:
    # Four points, two components' lightest pairs (0, 1) and (2, 3); component 0's holder
    # names point 2, as a lost race of the lightest-answer pass leaves it.
    n = 4
    order = np.array([2, 0, 3, 1])  # tree position -> input index
    position = np.argsort(order).astype(np.int32)
    answer = np.array([2, 3, 0, 1], dtype=np.int32)  # tree positions
    best_id = np.full(n, _NO_PAIR, dtype=np.int64)
    best = np.zeros(n, dtype=np.int32)
    best_id[0], best[0] = pair_id(0, 1, n), 0  # point 0 is input 2: its pair is (2, 3)
    best_id[1], best[1] = pair_id(2, 3, n), 0  # consistent: input 2's answer is input 3
    bound = np.array([1.0, 2.0, 0.0, 0.0])
    parent = np.arange(n, dtype=np.int32)
    size = np.ones(n, dtype=np.int32)
    first, second, keys = np.empty(3, np.int64), np.empty(3, np.int64), np.empty(3)
    count = _hook(order, position, answer, bound, best_id, best, parent, size, first, second,
                  keys, 0)
    assert count == 2
    assert first[:2].tolist() == [0, 2] and second[:2].tolist() == [1, 3]
    assert keys[:2].tolist() == [1.0, 2.0]
