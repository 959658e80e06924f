"""O(V^2) Prim: the key matrix, restarts, and the size limit."""

from __future__ import annotations

import pytest

import parmst
from parmst.errors import SolverUnavailable
from parmst.kernels.dense import DENSE_MAX_VERTICES


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
