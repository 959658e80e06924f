"""The independent verifier must catch every planted fault and name the right check."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parmst
from faults import FAULTS, kruskal, plant
from parmst.errors import ParmstError, VerificationError
from parmst.verify import CHECKS, VerifyResult, verify


def random_graph(n, m, seed, dtype=np.float64, num_vertices=None):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if np.dtype(dtype).kind == "f":
        weight = rng.integers(-20, 20, m).astype(dtype) / 4  # ties, negatives, zeros
    else:
        weight = rng.integers(-20, 20, m).astype(dtype)
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=num_vertices or n)


def square_with_diagonal():
    """0-1-2-3-0 square (weights 1, 2, 3, 4) plus diagonal 0-2 of weight 5.

    The MSF is {0, 1, 2}; edges 3 and 4 are outside it.
    """
    return parmst.Graph.from_edges([0, 1, 2, 3, 0], [1, 2, 3, 0, 2], [1.0, 2.0, 3.0, 4.0, 5.0])


# ---------------------------------------------------------------------- correct forests
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_kruskal_forest_verifies_for_every_weight_dtype(dtype):
    g = random_graph(60, 150, seed=4, dtype=dtype)
    f = kruskal(g)
    result = verify(g, f)
    assert result.ok and bool(result)
    assert result.checks_run == list(CHECKS)
    assert result.failures == [] and result.not_checked == {}
    assert result.num_trees == f.num_components == result.num_graph_components
    assert str(result) == (f"verified: forest of {f.num_edges} edges, {f.num_components} "
                           "components, minimal")
    assert result.raise_if_failed() is result


@pytest.mark.parametrize("make_ids", [list, np.array, lambda ids: np.array(ids, np.uint32),
                                      lambda ids: tuple(reversed(ids))],
                         ids=["list", "int64-array", "uint32-array", "reversed-tuple"])
def test_plain_edge_id_containers_verify(make_ids):
    g = square_with_diagonal()
    result = verify(g, make_ids([0, 1, 2]))
    assert result.ok and result.checks_run == ["ids", "acyclic", "spanning", "minimal"]


def test_total_weight_matches_scipy_and_networkx_on_a_correct_forest():
    scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
    nx = pytest.importorskip("networkx")
    g = parmst.Graph.from_edges(*_positive_graph_arrays(80, 300, seed=9), num_vertices=90)
    f = kruskal(g)
    assert verify(g, f).ok
    assert f.total_weight == pytest.approx(scipy_csgraph.minimum_spanning_tree(g.to_scipy()).sum())
    nx_total = nx.minimum_spanning_tree(g.to_networkx()).size(weight="weight")
    assert f.total_weight == pytest.approx(nx_total)


def _positive_graph_arrays(n, m, seed):
    # SciPy treats 0 as "no edge", so its cross-check needs positive weights.
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, m), rng.integers(0, n, m), rng.random(m) + 0.5


def test_disconnected_graph_with_isolated_vertices():
    g = parmst.Graph.from_edges([0, 1, 0, 4, 5], [1, 2, 2, 5, 6], [3, 1, 2, 1, 1],
                                num_vertices=9)  # vertices 3, 7, 8 are isolated
    f = kruskal(g)
    result = verify(g, f)
    assert result.ok and result.num_trees == 5 == result.num_graph_components
    assert not verify(g, [0, 1]).ok  # vertex pair 4-6 tree missing


@pytest.mark.parametrize("n", [0, 1, 4])
def test_graphs_without_edges(n):
    g = parmst.Graph.from_edges([], [], [], num_vertices=n)
    result = verify(g, [])
    assert result.ok and result.num_trees == n


def test_multi_edges_and_self_loops():
    # Edge 0 is a self-loop; 1, 2, 3 are parallel 0-1 edges (3 ties with 1); 4 is 1-2.
    g = parmst.Graph.from_edges([0, 0, 1, 0, 1], [0, 1, 0, 1, 2], [-1, 2, 1, 2, 7])
    assert kruskal(g).edge_ids.tolist() == [2, 4]
    assert verify(g, [2, 4]).ok
    heavier_parallel = verify(g, [1, 4])
    assert heavier_parallel.failed_checks == ["minimal"]
    assert "edge 2 (u=1, v=0, weight 1) is lighter than forest edge 1" in str(heavier_parallel)
    loop = verify(g, [0, 2, 4])
    assert loop.failed_checks == ["acyclic"]
    assert "edge 0 (u=0, v=0, weight -1) is a self-loop" in str(loop)


def test_negative_infinite_and_negative_weights():
    inf = np.inf
    g = parmst.Graph.from_edges([0, 1, 2, 0, 3], [1, 2, 0, 3, 4], [-inf, inf, -2.5, 4.0, -1e308])
    f = kruskal(g)
    assert f.edge_ids.tolist() == [0, 2, 3, 4]
    assert verify(g, f).ok
    result = verify(g, [0, 1, 3, 4])  # +inf edge 1 instead of -2.5 edge 2
    assert result.failed_checks == ["minimal"]
    assert "edge 2 (u=2, v=0, weight -2.5) is lighter than forest edge 1 (weight inf)" in str(result)


def test_positive_infinity_is_an_ordinary_heaviest_weight():
    g = parmst.Graph.from_edges([0, 1, 2, 2], [1, 2, 1, 3], [np.inf, 1.0, np.inf, np.inf])
    f = kruskal(g)
    assert f.edge_ids.tolist() == [0, 1, 3] and verify(g, f).ok
    result = verify(g, [0, 2, 3])
    assert result.failed_checks == ["minimal"] and "forest edge 2 (weight inf)" in str(result)


def test_negative_zero_ties_with_positive_zero():
    g = parmst.Graph.from_edges([0, 0], [1, 1], [0.0, -0.0])
    assert verify(g, [0]).ok
    result = verify(g, [1])  # -0.0 == +0.0, so the tie goes to the smaller id
    assert result.failed_checks == ["minimal"] and "ties with forest edge 1" in str(result)


def test_int64_weights_beyond_float_precision():
    big = 2**62
    g = parmst.Graph.from_edges([0, 0], [1, 1], np.array([big + 1, big], dtype=np.int64))
    assert verify(g, [1]).ok
    assert verify(g, [0]).failed_checks == ["minimal"]


def test_nan_edges_are_absent_and_may_not_be_listed():
    g = parmst.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], [np.nan, 5.0, 1.0, np.nan],
                                allow_nan=True)
    f = parmst.minimum_spanning_forest(g, ignore_nan=True, solver="kruskal/serial")
    result = verify(g, f)
    assert result.ok and result.num_graph_components == 2  # vertex 3 only has a NaN edge
    listed_nan = verify(g, [0, 1, 2])
    assert listed_nan.failed_checks == ["ids"]
    assert "edge 0 has a NaN weight" in str(listed_nan)


# ---------------------------------------------------------------------- planted faults
def test_swap_for_heavier_edge_reconnecting_the_same_trees_is_not_minimal():
    g = square_with_diagonal()
    result = verify(g, [0, 2, 3])  # edge 1 (weight 2) swapped for edge 3 (weight 4)
    assert not result and result.failed_checks == ["minimal"]
    assert result.checks_run == ["ids", "acyclic", "spanning", "minimal"]
    assert result.failures[0].message == (
        "edge 1 (u=1, v=2, weight 2.0) is lighter than forest edge 3 (weight 4.0) on the "
        "forest path between its ends: the forest is not minimal")
    assert "passed: ids, acyclic, spanning" in str(result)


def test_extra_edge_closing_a_cycle_is_caught_and_minimality_not_claimed():
    g = square_with_diagonal()
    result = verify(g, [0, 1, 2, 4])
    assert result.failed_checks == ["acyclic"]
    assert result.failures[0].message.startswith("edge 4 (u=0, v=2, weight 5.0) closes a cycle")
    assert "minimal" not in result.checks_run and "minimal" in result.not_checked
    assert "not checked: minimal" in str(result)


def test_dropped_forest_edge_is_a_missing_component_edge():
    g = square_with_diagonal()
    result = verify(g, [0, 2])
    assert result.failed_checks == ["spanning"]
    assert result.count("spanning") == 1
    assert "missing component edge" in result.failures[0].message
    assert result.num_trees == 2 and result.num_graph_components == 1
    assert "minimal" in result.checks_run


def test_tie_broken_towards_larger_id_is_not_minimal():
    g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [7, 7, 7])
    assert verify(g, [0, 1]).ok
    result = verify(g, [1, 2])
    assert result.failed_checks == ["minimal"]
    assert result.failures[0].message == (
        "edge 0 (u=0, v=1, weight 7) ties with forest edge 2 (weight 7) on the forest path "
        "between its ends and has the smaller id: the forest is not minimal under the "
        "(weight, edge_id) order")


def test_duplicate_id_is_named_and_other_checks_still_run():
    g = square_with_diagonal()
    result = verify(g, [0, 1, 1, 2, 2, 2])
    assert result.failed_checks == ["ids"]
    assert [f.message for f in result.failures] == ["edge id 1 is listed 2 times",
                                                    "edge id 2 is listed 3 times"]
    assert result.checks_run == ["ids", "acyclic", "spanning", "minimal"]


@pytest.mark.parametrize("bad_id", [-1, 5, 2**40])
def test_out_of_range_id(bad_id):
    g = square_with_diagonal()
    result = verify(g, [0, 1, 2, bad_id])
    assert result.failed_checks == ["ids"]
    assert result.failures[0].message == (f"edge id {bad_id} is out of range: the graph has 5 "
                                          "edges (ids 0..4)")


@pytest.mark.parametrize("ids, expected", [
    (np.array([0.0, 1.0]), "must be integers, got dtype float64"),
    (np.array([True, False, True]), "pass numpy.flatnonzero(mask)"),
    (np.zeros((2, 2), dtype=np.int64), "one-dimensional array, got shape (2, 2)"),
], ids=["float", "mask", "2-d"])
def test_unusable_ids_fail_without_claiming_anything(ids, expected):
    result = verify(square_with_diagonal(), ids)
    assert result.failed_checks == ["ids"] and expected in result.failures[0].message
    assert result.checks_run == ["ids"]
    assert set(result.not_checked) == {"acyclic", "spanning", "minimal"}
    assert not result.ok


def test_forest_with_wrong_weight_array():
    g = parmst.Graph.from_edges([0, 1, 2, 3, 0], [1, 2, 3, 0, 2], [1.0, 2.0, 3.0, 4.0, 5.0])
    f = kruskal(g)
    bad = dataclasses.replace(f, weight=np.array([1.0, 2.0, 4.0]))
    result = verify(g, bad)
    assert result.failed_checks == ["fields"]
    assert result.failures[0].message == "edge 2 has weight 4.0 in the forest but 3.0 in the graph"


@pytest.mark.parametrize("change, expected", [
    ({"total_weight": 7.0},
     "total_weight is 7.0 but the graph's weights of the forest's edges sum to 6.0"),
    ({"num_components": 2}, "num_components is 2 but the forest's edges form 1 tree"),
    ({"src": np.array([0, 1, 3])}, "edge 2 has ends (3, 3) in the forest but (2, 3) in the graph"),
    ({"num_vertices": 5}, "the forest has 5 vertices but the graph has 4"),
    ({"dst": np.array([1, 2])}, "the forest has 3 edge ids but 2 dst entries"),
], ids=["total", "components", "ends", "vertices", "length"])
def test_forest_fields_inconsistent_with_graph(change, expected):
    g = square_with_diagonal()
    result = verify(g, dataclasses.replace(kruskal(g), **change))
    assert result.failed_checks == ["fields"]
    assert [f.message for f in result.failures] == [expected]


def test_caller_data_is_not_modified():
    g = random_graph(50, 120, seed=6)
    f = kruskal(g)
    ids = f.edge_ids[::-1].copy()
    saved = [a.copy() for a in (ids, f.edge_ids, f.src, f.dst, f.weight, g.src, g.dst, g.weight)]
    assert verify(g, ids).ok and verify(g, f).ok
    after = (ids, f.edge_ids, f.src, f.dst, f.weight, g.src, g.dst, g.weight)
    assert all(np.array_equal(a, b) for a, b in zip(saved, after))


def test_reversed_edge_ends_are_the_same_undirected_edge():
    g = square_with_diagonal()
    f = kruskal(g)
    assert verify(g, dataclasses.replace(f, src=f.dst, dst=f.src)).ok


def test_every_failure_is_reported_across_checks():
    g = square_with_diagonal()
    f = dataclasses.replace(kruskal(g), edge_ids=np.array([0, 0, 9]))
    result = verify(g, f)
    assert result.failed_checks == ["ids", "fields", "spanning"]
    assert result.count("ids") == 2 and result.count("spanning") == 2


def test_failures_are_capped_per_check_with_a_count_of_the_rest():
    n = 40
    g = parmst.Graph.from_edges(np.arange(n - 1), np.arange(1, n), np.ones(n - 1))
    result = verify(g, [])  # a path with no edges listed: 39 missing edges
    assert result.count("spanning") == n - 1
    assert len(result.failures) == 10 and result.unlisted == {"spanning": n - 11}
    assert f"... and {n - 11} more [spanning] failures" in str(result)
    assert len(verify(g, [], max_listed=3).failures) == 3


def test_raise_if_failed_raises_verification_error_with_the_result():
    g = square_with_diagonal()
    result = verify(g, [0, 2, 3])
    with pytest.raises(VerificationError, match="not minimal") as caught:
        result.raise_if_failed()
    assert caught.value.result is result


def test_verify_true_in_the_api_catches_nothing_on_correct_results():
    g = random_graph(30, 60, seed=2)
    assert parmst.minimum_spanning_forest(g, solver="kruskal/serial", verify=True).num_edges > 0


def test_graph_argument_must_be_a_graph():
    with pytest.raises(TypeError, match="needs a parmst.Graph"):
        verify([[0, 1]], [0])


def test_broken_sort_order_is_detected_not_trusted(monkeypatch):
    from parmst.verify import path_maxima  # the attribute parmst.verify is the function

    monkeypatch.setattr(path_maxima, "weight_keys", lambda w: -w.astype(np.int64))  # order reversed
    with pytest.raises(ParmstError, match="weight_keys is broken"):
        verify(square_with_diagonal(), [0, 1, 2])


def test_empty_result_object_claims_nothing():
    assert not VerifyResult() and "verification failed" in str(VerifyResult())


# ---------------------------------------------------------------------- exhaustive / random
def _all_subsets_verdicts(g):
    return [ids for k in range(g.num_edges + 1)
            for ids in itertools.combinations(range(g.num_edges), k) if verify(g, list(ids))]


@st.composite
def small_graphs(draw, max_vertices=6, max_edges=7):
    n = draw(st.integers(1, max_vertices))
    m = draw(st.integers(0, max_edges))
    vertex = st.integers(0, n - 1)
    src = draw(st.lists(vertex, min_size=m, max_size=m))
    dst = draw(st.lists(vertex, min_size=m, max_size=m))
    weight = draw(st.lists(st.sampled_from([-1.5, 0.0, -0.0, 1.0, 1.0, 2.0, np.inf]),
                           min_size=m, max_size=m))
    return parmst.Graph.from_edges(src, dst, np.array(weight, dtype=np.float64), num_vertices=n)


@given(small_graphs())
def test_exactly_one_edge_subset_verifies_and_it_is_kruskals(g):
    assert _all_subsets_verdicts(g) == [tuple(kruskal(g).edge_ids.tolist())]


@given(small_graphs(max_vertices=12, max_edges=30), st.data())
def test_single_edge_swaps_are_rejected(g, data):
    forest = kruskal(g).edge_ids.tolist()
    assert verify(g, forest)
    outside = sorted(set(range(g.num_edges)) - set(forest))
    if not forest or not outside:
        return
    removed = data.draw(st.sampled_from(forest))
    added = data.draw(st.sampled_from(outside))
    swapped = sorted(set(forest) - {removed} | {added})
    result = verify(g, swapped)
    assert not result and result.failures


def test_thread_count_does_not_change_the_result():
    g = random_graph(300, 900, seed=11)
    forest = kruskal(g).edge_ids
    wrong = np.concatenate([forest[1:], np.flatnonzero(~np.isin(np.arange(900), forest))[:3]])
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = str(verify(g, wrong))
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        multi = str(verify(g, wrong))
    finally:
        numba.set_num_threads(before)
    assert single == multi and "failed" in single


def test_parmst_verify_stays_callable_after_the_submodule_is_imported():
    # parmst imports the submodule eagerly, so a later import cannot rebind the name.
    import parmst.verify

    assert parmst.verify(square_with_diagonal(), [0, 1, 2]).ok


_SUBPROCESS_CHECK = """
import json, sys
import numpy as np
import parmst
from parmst.verify import verify
g = parmst.Graph.from_edges([0, 1, 2, 3, 0, 4], [1, 2, 3, 0, 2, 4], [1, 2, 3, 4, 5, 0],
                            num_vertices=6)
verdicts = {name: verify(g, ids).failed_checks for name, ids in
            [("ok", [0, 1, 2]), ("heavier", [0, 2, 3]), ("cycle", [0, 1, 2, 4]),
             ("loop", [0, 1, 2, 5]), ("drop", [0, 2])]}
solvers = sorted(m for m in sys.modules if m.startswith("parmst.solvers"))
print(json.dumps({"verdicts": verdicts, "solvers": solvers}))
"""


@pytest.mark.parametrize("disable_jit", ["0", "1"])
def test_kernels_run_interpreted_and_verify_imports_no_solver(disable_jit):
    env = {**os.environ, "NUMBA_DISABLE_JIT": disable_jit}
    out = subprocess.run([sys.executable, "-c", _SUBPROCESS_CHECK], env=env, check=True,
                         capture_output=True, text=True).stdout
    report = json.loads(out)
    assert report["solvers"] == []
    assert report["verdicts"] == {"ok": [], "heavier": ["minimal"], "cycle": ["acyclic"],
                                  "loop": ["acyclic"], "drop": ["spanning"]}


# ---------------------------------------------------------------------- soundness property
# Every planted fault, on random graphs, under every max_listed: verify rejects, and names
# the check the fault breaks. "ok" must not depend on how many failures are listed.
@st.composite
def fault_graphs(draw):
    """Small random multigraphs with ties, loops, int or float weights, at least one real edge."""
    n = draw(st.integers(2, 10))
    m = draw(st.integers(1, 24))
    vertex = st.integers(0, n - 1)
    src = draw(st.lists(vertex, min_size=m, max_size=m))
    dst = draw(st.lists(vertex, min_size=m, max_size=m))
    if all(a == b for a, b in zip(src, dst)):
        dst[0] = (src[0] + 1) % n
    dtype = draw(st.sampled_from([np.int32, np.int64, np.float32, np.float64]))
    weight = draw(st.lists(st.integers(-3, 3), min_size=m, max_size=m))
    return parmst.Graph.from_edges(src, dst, np.array(weight, dtype=dtype), num_vertices=n)


def _assert_rejected(result, check, max_listed):
    assert not result and not result.ok
    assert not str(result).startswith("verified")
    assert check in result.failed_checks and result.count(check) >= 1
    for name in CHECKS:
        assert sum(f.check == name for f in result.failures) <= max_listed
    if max_listed == 0:
        assert result.failures == [] and sum(result.unlisted.values()) >= 1


@pytest.mark.parametrize("max_listed", [0, 1, 2, 3])
@pytest.mark.parametrize("fault", list(FAULTS))
@settings(max_examples=8)
@given(g=fault_graphs(), rnd=st.randoms(use_true_random=False), as_forest=st.booleans())
def test_every_planted_fault_is_rejected_under_every_max_listed(fault, max_listed, g, rnd,
                                                                 as_forest):
    assert verify(g, kruskal(g), max_listed=max_listed).ok
    g, claim = plant(fault, g, rnd)
    if as_forest and not isinstance(claim, parmst.Forest):
        ids = np.array(claim)
        if ((ids >= 0) & (ids < g.num_edges)).all():
            claim = parmst.Forest.from_edge_ids(g, ids)  # sorted: a repeated id stays repeated
    _assert_rejected(verify(g, claim, max_listed=max_listed), FAULTS[fault], max_listed)


def test_max_listed_zero_lists_nothing_and_still_fails():
    g = square_with_diagonal()
    for ids in ([0, 2, 3], [0, 1, 2, 4], [0, 2], [0, 1, 1, 2], [0, 1, 2, 9]):
        result = verify(g, ids, max_listed=0)
        assert result.failures == [] and not result and result.failed_checks
        assert str(result).startswith("verification failed")
