"""Every registered solver that can run here against the oracle, kruskal/serial.

Parametrized over ``parmst.registry.solvers()``: solvers added later (CPU,
GPU, MPI, OpenCL) join automatically, and one that cannot run here (no
device, missing package, input over its limit) is skipped with its reason.
Each result must have exactly the oracle's edge ids, pass the independent
``parmst.verify``, and report a consistent total weight and component count.
An approximate solver (registered with ``exact=False``) must instead return
a spanning forest (acyclic, one tree per component, checked by ``verify``)
at least as heavy as the oracle's, and as light for a maximum forest.
"""

from __future__ import annotations

import functools
import math
import os

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings

import parmst
from parmst import registry
from parmst.errors import UnknownSolverError
from parmst.forest import exact_sum
from parmst.generators import generate

from .cases import CASES, GENERATOR_SPECS, tie_heavy_graphs

ORACLE = "kruskal/serial"
SOLVERS = list(registry.solvers())
CASE_NAMES = list(CASES) + list(GENERATOR_SPECS)
# Cases that each solve twice (minimum and maximum) in the option and maximum tests.
SMALL_CASES = ["two-components", "float64-weights", "int32-weights", "signed-zeros",
               "infinite-weights", "complete-k12", "ties-decide-everywhere"]


@functools.cache
def case_graph(name: str) -> parmst.Graph:
    """The named catalogue graph or generated family (built once per session)."""
    if name in CASES:
        return CASES[name]()
    return generate(GENERATOR_SPECS[name])


@functools.cache
def oracle_forest(name: str) -> parmst.Forest:
    return parmst.minimum_spanning_forest(case_graph(name), solver=ORACLE)


def skip_unless_runs(solver: str, graph: parmst.Graph | None = None) -> None:
    reason = registry.get(solver).can_run(graph)
    if reason is not True:
        pytest.skip(f"{solver} cannot run here: {reason}")


def assert_spanning_forest_no_lighter(graph: parmst.Graph, forest: parmst.Forest,
                                      expected_ids: np.ndarray, solver: str,
                                      maximum: bool = False) -> None:
    """An approximate solver's answer: a spanning forest, no better than the optimum."""
    result = parmst.verify(graph, forest)
    assert {"ids", "fields", "acyclic", "spanning"} <= set(result.checks_run), str(result)
    assert set(result.failed_checks) <= {"minimal"}, str(result)
    assert forest.solver == solver
    assert forest.num_components == graph.num_vertices - len(expected_ids)
    optimum = exact_sum(graph.weight[expected_ids])
    total = exact_sum(graph.weight[forest.edge_ids])
    np.testing.assert_equal(forest.total_weight, total)
    if not (isinstance(optimum, float) and math.isnan(optimum)):
        assert (total <= optimum) if maximum else (total >= optimum), (total, optimum)


def assert_same_forest(graph: parmst.Graph, forest: parmst.Forest,
                       expected_ids: np.ndarray, solver: str) -> None:
    """Exact oracle edge ids, an independent certificate, consistent totals.

    For an approximate solver: a spanning forest at least as heavy as the oracle's.
    """
    if not registry.get(solver).exact:
        assert_spanning_forest_no_lighter(graph, forest, expected_ids, solver)
        return
    np.testing.assert_array_equal(forest.edge_ids, expected_ids,
                                  err_msg=f"{solver} differs from {ORACLE}")
    result = parmst.verify(graph, forest)
    assert result, str(result)
    assert forest.solver == solver
    assert forest.num_components == graph.num_vertices - len(expected_ids)
    np.testing.assert_equal(forest.total_weight, exact_sum(graph.weight[expected_ids]))  # nan == nan


@pytest.mark.parametrize("case", CASE_NAMES)
@pytest.mark.parametrize("solver", SOLVERS)
def test_catalogue_case_matches_oracle(solver, case):
    graph = case_graph(case)
    skip_unless_runs(solver, graph)
    forest = parmst.minimum_spanning_forest(graph, solver=solver)
    assert_same_forest(graph, forest, oracle_forest(case).edge_ids, solver)


def examples(solver: str) -> int:
    """Random graphs a solver is checked on: the profile's count, a third of it for a GPU
    solver under numba-cuda's simulator (every GPU thread a Python thread; a real device draws
    them all, and the catalogue's edge cases run there too)."""
    drawn = settings.default.max_examples
    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" \
        and registry.get(solver).backend in ("gpu", "multigpu")
    return max(1, drawn // 3) if simulated else drawn


@pytest.mark.parametrize("solver", [name for name in SOLVERS if registry.get(name).ascending])
def test_solver_registered_ascending_returns_ascending_ids(solver):
    """A forest keeps such a solver's ids as they come: they must be strictly ascending
    (and so distinct), else its ``edge_ids`` would be out of order."""
    for case in CASE_NAMES:
        graph = case_graph(case)
        if registry.get(solver).can_run(graph) is not True or graph.has_nan:
            continue
        ids = registry.run(solver, graph)[1]
        assert (np.diff(ids) > 0).all(), f"{solver} on {case}: ids not ascending"
        assert ids.tolist() == oracle_forest(case).edge_ids.tolist()


@pytest.mark.parametrize("solver", SOLVERS)
def test_tie_heavy_random_graph_matches_oracle(solver):
    skip_unless_runs(solver)

    @settings(max_examples=examples(solver))
    @given(tie_heavy_graphs())
    def check(graph):
        reason = registry.get(solver).can_run(graph)
        assert reason is True, f"{solver} refused a tiny graph: {reason}"
        expected = parmst.minimum_spanning_forest(graph, solver=ORACLE).edge_ids
        forest = parmst.minimum_spanning_forest(graph, solver=solver)
        assert_same_forest(graph, forest, expected, solver)

    check()


@pytest.mark.parametrize("solver", SOLVERS)
def test_solver_leaves_graph_arrays_unchanged(solver):
    graph = CASES["float32-weights"]()
    skip_unless_runs(solver, graph)
    csr = graph.csr()
    before = [a.copy() for a in (graph.src, graph.dst, graph.weight, csr.indptr,
                                 csr.indices, csr.weights, csr.edge_ids)]
    parmst.minimum_spanning_forest(graph, solver=solver)
    after = (graph.src, graph.dst, graph.weight, csr.indptr, csr.indices, csr.weights,
             csr.edge_ids)
    for old, new in zip(before, after):
        np.testing.assert_array_equal(old, new)
    assert graph.csr() is csr


@pytest.mark.parametrize("solver", SOLVERS)
def test_unknown_option_is_type_error(solver):
    graph = CASES["two-components"]()
    with pytest.raises(TypeError, match="no_such_option"):
        parmst.minimum_spanning_forest(graph, solver=solver, no_such_option=1)


@pytest.mark.parametrize("solver", SOLVERS)
def test_declared_options_accepted_explicitly(solver):
    graph = CASES["ties-decide-everywhere"]()
    skip_unless_runs(solver, graph)
    defaults = registry.get(solver).options
    forest = parmst.minimum_spanning_forest(graph, solver=solver, **defaults)
    assert_same_forest(graph, forest, oracle_forest("ties-decide-everywhere").edge_ids, solver)


def test_unknown_solver_name_is_value_error_listing_names():
    graph = CASES["two-components"]()
    with pytest.raises(ValueError, match="nope") as info:
        parmst.minimum_spanning_forest(graph, solver="nope")
    assert isinstance(info.value, UnknownSolverError)
    for name in SOLVERS:
        assert name in str(info.value)


@pytest.mark.parametrize("case", SMALL_CASES)
@pytest.mark.parametrize("solver", SOLVERS)
def test_maximum_forest_matches_networkx_weight(solver, case):
    graph = case_graph(case)
    skip_unless_runs(solver, graph)
    forest = parmst.maximum_spanning_forest(graph, solver=solver)
    expected = parmst.maximum_spanning_forest(graph, solver=ORACLE)
    if not registry.get(solver).exact:
        assert_spanning_forest_no_lighter(graph, forest, expected.edge_ids, solver, maximum=True)
        return
    np.testing.assert_array_equal(forest.edge_ids, expected.edge_ids)
    tree = nx.maximum_spanning_tree(graph.to_networkx(), algorithm="kruskal")
    assert forest.total_weight == exact_sum(
        np.array([w for _, _, w in tree.edges(data="weight")], dtype=graph.weight.dtype))
    assert forest.num_components == nx.number_connected_components(tree)
