"""The multiple-instance Prims of Sousa section 4.3 beyond the conformance suite.

prim-union/cpu and prim-multi/cpu are exact for every partition and thread
count; prim-bmv/cpu is approximate: it must return a spanning forest no
lighter than the minimum, break the cycles its parts create (Figure 4.5)
and stay within its documented bound on the road family the thesis ran it
on.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import parmst
from parmst import registry
from parmst.forest import exact_sum
from parmst.graph import Graph
from parmst.partition import METHODS

BMV = "prim-bmv/cpu"


@pytest.fixture(scope="module")
def road() -> Graph:
    return parmst.generate("road:side=120,seed=5")


@pytest.fixture(scope="module")
def road_oracle(road) -> np.ndarray:
    return parmst.minimum_spanning_forest(road, solver="kruskal/serial").edge_ids


def _skip_without_metis(method: str) -> None:
    if method == "metis" and importlib.util.find_spec("pymetis") is None:
        pytest.skip("pymetis not installed (pip install 'parmst[metis]')")


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("parts", [1, 2, 5, 16])
def test_prim_union_is_exact_for_every_partition(road, road_oracle, parts, method):
    _skip_without_metis(method)
    forest = parmst.minimum_spanning_forest(road, solver="prim-union/cpu", parts=parts,
                                            partition=method)
    np.testing.assert_array_equal(forest.edge_ids, road_oracle)
    assert forest.stats.extra["cut"]["parts"] == parts


def test_prim_union_final_stage_sees_only_boundary_paths_and_crossing_edges(road):
    forest = parmst.minimum_spanning_forest(road, solver="prim-union/cpu", parts=4)
    extra = forest.stats.extra
    # Every local tree shrinks to its boundary and branch vertices: at most two path
    # edges per boundary vertex, plus the crossing edges.
    assert extra["final_edges"] <= extra["cut"]["crossing_edges"] + \
        2 * extra["cut"]["boundary_vertices"]
    assert extra["final_edges"] < road.num_edges // 10


def test_prim_union_on_disconnected_parts_and_isolated_vertices():
    # Part 0 = {0, 1, 4}, part 1 = {2, 3, 5}: part 0 is not connected inside itself, vertex 5
    # is isolated, and the only link between 0-1 and 4 runs through part 1.
    g = Graph.from_edges([0, 1, 2, 3, 0, 1], [1, 2, 3, 4, 3, 3], [5, 1, 1, 1, 2, 9],
                         num_vertices=6)
    expected = parmst.minimum_spanning_forest(g, solver="kruskal/serial").edge_ids
    for parts in (1, 2, 3, 6):
        forest = parmst.minimum_spanning_forest(g, solver="prim-union/cpu", parts=parts,
                                                partition="blocks")
        np.testing.assert_array_equal(forest.edge_ids, expected)


def test_prim_multi_records_rounds_collisions_and_share_per_thread(road, road_oracle):
    forest = parmst.minimum_spanning_forest(road, solver="prim-multi/cpu", threads=2)
    np.testing.assert_array_equal(forest.edge_ids, road_oracle)
    extra = forest.stats.extra
    assert len(extra["vertices_per_thread"]) == forest.stats.rounds == len(extra["collisions"])
    for shares in extra["vertices_per_thread"]:
        assert len(shares) == 2
        assert sum(shares) == pytest.approx(100.0, abs=0.05)
    # A round without collisions leaves every component whole: no round may follow it.
    assert all(c > 0 for c in extra["collisions"][:-1])


def test_prim_multi_with_one_thread_is_plain_prim(road, road_oracle):
    stats = parmst.minimum_spanning_forest(road, solver="prim-multi/cpu", threads=1).stats
    assert stats.rounds == 1
    assert stats.extra["collisions"] == [0]


def test_bmv_is_registered_approximate_and_never_auto(monkeypatch, road):
    assert registry.get(BMV).exact is False
    assert registry.get("prim-union/cpu").exact and registry.get("prim-multi/cpu").exact
    monkeypatch.setattr(registry, "AUTO_RULES", [(BMV, lambda g, c: True, "test"),
                                                 *registry.AUTO_RULES])
    assert registry.select(road).name != BMV


def _bmv(graph, **options):
    return parmst.minimum_spanning_forest(graph, solver=BMV, measure_error=True, **options)


def test_bmv_repairs_figure_4_3():
    # Part 0 = {0, 1}, part 1 = {2}: the local tree takes (0, 1), but the two crossing edges
    # through vertex 2 are lighter; both boundary vertices see it and repair it.
    g = Graph.from_edges([0, 0, 1], [1, 2, 2], [9, 1, 2])
    forest = _bmv(g, parts=2, partition="blocks")
    assert forest.edge_ids.tolist() == [1, 2]
    assert forest.stats.extra["excess_weight"] == 0


def test_bmv_keeps_the_wrong_interior_edge_of_figure_4_4():
    # Part 0 = path 0-1-2-3 with the heavy edge (1, 2) inside, away from the boundary
    # vertices 0 and 3; part 1 = {4}, joining 0 and 3 lightly. The minimum drops (1, 2).
    g = Graph.from_edges([0, 1, 2, 0, 3], [1, 2, 3, 4, 4], [1, 9, 1, 1, 1])
    forest = _bmv(g, partition=np.array([0, 0, 0, 0, 1]))
    extra = forest.stats.extra
    result = parmst.verify(g, forest)
    assert result.failed_checks == ["minimal"]
    assert extra["edges_not_in_minimum"] == 1
    assert extra["excess_weight"] == 8
    assert extra["excess_percent"] == pytest.approx(200.0)


def test_bmv_breaks_the_cycle_of_figure_4_5():
    # Three parts of two vertices each, in a ring; each part sees the other parts'
    # vertices as lone vertices and keeps both its crossing edges: together they close
    # the ring, and one crossing edge must go.
    g = Graph.from_edges([0, 2, 4, 1, 3, 5], [1, 3, 5, 2, 4, 0], [1, 1, 1, 2, 3, 4])
    forest = _bmv(g, parts=3, partition="blocks")
    result = parmst.verify(g, forest)
    assert result.ok
    assert forest.stats.extra["cycles_broken"] >= 1
    assert forest.edge_ids.tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("parts", [2, 4, 8])
def test_bmv_on_road_graphs_is_a_spanning_forest_within_its_bound(road, road_oracle, parts):
    forest = _bmv(road, parts=parts)
    result = parmst.verify(road, forest)
    assert set(result.failed_checks) <= {"minimal"}
    assert {"acyclic", "spanning"} <= set(result.checks_run)
    extra = forest.stats.extra
    optimum = exact_sum(road.weight[road_oracle])
    assert extra["excess_weight"] == forest.total_weight - optimum >= 0
    # Documented bound (docs/multi-instance-prim.md): under 1 % on road-like graphs.
    assert extra["excess_percent"] < 1.0


def test_bmv_with_one_part_is_exact(road, road_oracle):
    forest = _bmv(road, parts=1)
    np.testing.assert_array_equal(forest.edge_ids, road_oracle)
    assert forest.stats.extra["excess_weight"] == 0
    assert forest.stats.extra["cycles_broken"] == 0


def test_bmv_result_does_not_depend_on_thread_count_for_fixed_parts(road):
    ids = [parmst.minimum_spanning_forest(road, solver=BMV, parts=4, threads=t).edge_ids
           for t in (1, 2)]
    np.testing.assert_array_equal(ids[0], ids[1])


def test_partition_array_is_accepted_and_checked(road, road_oracle):
    part = parmst.partition(road, 3, method="blocks")
    forest = parmst.minimum_spanning_forest(road, solver="prim-union/cpu", partition=part)
    np.testing.assert_array_equal(forest.edge_ids, road_oracle)
    assert forest.stats.extra["parts"] == 3
    with pytest.raises(parmst.GraphValueError, match="one part per vertex"):
        parmst.minimum_spanning_forest(road, solver="prim-union/cpu", partition=part[1:])
    with pytest.raises(TypeError, match="either parts="):
        parmst.minimum_spanning_forest(road, solver="prim-union/cpu", partition=part, parts=3)


def test_unknown_partition_method_is_a_clear_error(road):
    with pytest.raises(ValueError, match="unknown partition method 'spectral'"):
        parmst.minimum_spanning_forest(road, solver="prim-union/cpu", partition="spectral")
