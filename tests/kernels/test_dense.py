"""The key matrix of dense Prim."""

from __future__ import annotations

import numpy as np

from parmst.kernels.dense import NO_EDGE, build_key_matrix
from parmst.order import edge_keys


def test_key_matrix_keeps_lightest_parallel_edge_and_skips_loops():
    src = np.array([0, 1, 0, 2, 2], dtype=np.int32)
    dst = np.array([1, 0, 1, 2, 0], dtype=np.int32)
    weight = np.array([5, 3, 3, -9, 7], dtype=np.int32)
    keys = edge_keys(weight).keys
    matrix = build_key_matrix(src, dst, keys, 3)
    assert matrix[0, 1] == matrix[1, 0] == keys[1]
    assert matrix[0, 2] == matrix[2, 0] == keys[4]
    assert matrix[2, 2] == matrix[1, 2] == NO_EDGE
    assert matrix.dtype == np.uint64
