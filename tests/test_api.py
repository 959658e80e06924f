import numpy as np
import pytest

import parmst
from parmst import (
    GraphValueError,
    SolverUnavailable,
    UnknownOptionError,
    UnknownSolverError,
)


def triangle():
    return parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 2, 3])


def test_unknown_solver_lists_valid_names():
    with pytest.raises(UnknownSolverError, match="kruskal/serial"):
        parmst.minimum_spanning_forest(triangle(), solver="nope")


def test_unknown_option_is_a_type_error():
    with pytest.raises(TypeError, match="unknown option"):
        parmst.minimum_spanning_forest(triangle(), solver="kruskal/serial", bogus=1)
    with pytest.raises(UnknownOptionError):
        parmst.minimum_spanning_forest(triangle(), solver="kruskal/serial", bogus=1)


def test_nan_needs_ignore_nan_and_ids_refer_to_original_graph():
    g = parmst.Graph.from_edges([0, 0, 1], [1, 2, 2], [np.nan, 5.0, 1.0], allow_nan=True)
    with pytest.raises(GraphValueError, match="NaN"):
        parmst.minimum_spanning_forest(g)
    f = parmst.minimum_spanning_forest(g, ignore_nan=True)
    assert f.edge_ids.tolist() == [1, 2] and f.total_weight == 6.0


def test_maximum_forest_leaves_input_untouched():
    g = triangle()
    before = g.weight.copy()
    f = parmst.maximum_spanning_forest(g, verify=True)
    assert f.edge_ids.tolist() == [1, 2] and f.total_weight == 5
    assert np.array_equal(g.weight, before)


def test_maximum_forest_int32_extremes_do_not_overflow():
    g = parmst.Graph.from_edges([0, 1], [1, 2], np.array([-(2**31), 2**31 - 1], dtype=np.int32))
    assert parmst.maximum_spanning_forest(g).total_weight == -1


def test_maximum_forest_rejects_unnegatable_int64():
    g = parmst.Graph.from_edges([0], [1], np.array([-(2**63)], dtype=np.int64))
    with pytest.raises(GraphValueError, match="cannot be negated"):
        parmst.maximum_spanning_forest(g)


def test_accepts_scipy_and_networkx_inputs():
    nx = pytest.importorskip("networkx")
    f = parmst.minimum_spanning_forest(nx.cycle_graph(4))
    assert f.num_edges == 3
    with pytest.raises(GraphValueError, match="expected a parmst.Graph"):
        parmst.minimum_spanning_forest([[0, 1]])


def test_unavailable_solver_reason(monkeypatch):
    from parmst import registry

    solver = registry.get("prim-dense/serial")
    monkeypatch.setattr(registry.Solver, "can_run",
                        lambda self, graph=None, options=None: "no reason at all")
    with pytest.raises(SolverUnavailable, match="no reason at all"):
        parmst.minimum_spanning_forest(triangle(), solver=solver.name)


def test_distributed_input_keeps_its_messages():
    class Spread:  # what the registry reads of a graph spread over MPI ranks
        is_distributed = True

    with pytest.raises(SolverUnavailable, match="a DistributedGraph needs an mpi solver"):
        parmst.minimum_spanning_forest(Spread(), solver="kruskal/serial")
