"""O(V^2) Prim: the key matrix, restarts, and the size limit."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst.errors import SolverUnavailable
from parmst.order import edge_keys
from parmst.solvers.serial import DENSE_MAX_VERTICES, prim_dense
from parmst.solvers.serial.prim_dense import NO_EDGE


def test_key_matrix_keeps_lightest_parallel_edge_and_skips_loops():
    src = np.array([0, 1, 0, 2, 2], dtype=np.int32)
    dst = np.array([1, 0, 1, 2, 0], dtype=np.int32)
    weight = np.array([5, 3, 3, -9, 7], dtype=np.int32)
    keys = edge_keys(weight).keys
    matrix = prim_dense._build_key_matrix(src, dst, keys, 3)
    assert matrix[0, 1] == matrix[1, 0] == keys[1]
    assert matrix[0, 2] == matrix[2, 0] == keys[4]
    assert matrix[2, 2] == matrix[1, 2] == NO_EDGE
    assert matrix.dtype == np.uint64


def test_restarts_on_each_component_and_reports_matrix_size():
    graph = parmst.Graph.from_edges([0, 2, 2, 4], [1, 3, 3, 4], [1.5, 2.0, 2.0, 0.0],
                                    num_vertices=6)
    forest = parmst.minimum_spanning_forest(graph, solver="prim-dense/serial")
    assert forest.edge_ids.tolist() == [0, 1]
    assert forest.stats.rounds == forest.num_components == 4
    assert forest.stats.extra["matrix_bytes"] == 6 * 6 * 8
    assert forest.stats.init_time > 0


def test_too_many_vertices_is_refused_with_reason():
    graph = parmst.Graph.from_edges([0], [1], [1.0], num_vertices=DENSE_MAX_VERTICES + 1)
    reason = parmst.available_solvers(graph)["prim-dense/serial"]
    assert isinstance(reason, str)
    assert str(DENSE_MAX_VERTICES) in reason
    with pytest.raises(SolverUnavailable, match="too large"):
        parmst.minimum_spanning_forest(graph, solver="prim-dense/serial")
