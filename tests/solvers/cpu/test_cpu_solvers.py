"""The multi-core solvers against the oracle beyond the shared conformance suite.

Their own options (key modes, filtering, path compression, base case), every
weight dtype, and thread counts: the answer must not depend on how many
threads ran (tests force 1, 2 and 4 in a subprocess with NUMBA_NUM_THREADS=4,
oversubscribing a 2-core machine on purpose).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import parmst
from parmst.graph import Graph

CPU_SOLVERS = ["ecl/cpu", "boruvka-edge/cpu", "genboruvka/cpu", "filter-kruskal/cpu",
               "prim-dense/cpu", "prim-union/cpu", "prim-multi/cpu"]
OPTION_VARIANTS = [
    ("ecl/cpu", {"keys": "two-pass"}),
    ("ecl/cpu", {"filtering": False}),
    # Kernels 2 and 3 per item from the first round, and per vertex in every round.
    ("ecl/cpu", {"kernel2": "items"}),
    ("ecl/cpu", {"kernel2": "items", "keys": "two-pass"}),
    ("ecl/cpu", {"kernel2": "sets"}),
    # The paper's GPU filtering settings, and a light part too small to join much.
    ("ecl/cpu", {"filter_target": 3.0, "filter_degree": 2.0}),
    ("ecl/cpu", {"filter_target": 0.25, "filter_degree": 0.0, "kernel2": "items"}),
    ("boruvka-edge/cpu", {"keys": "two-pass"}),
    ("boruvka-edge/cpu", {"path_compression": False}),
    ("filter-kruskal/cpu", {"keys": "two-pass", "base_case": 8}),
    ("filter-kruskal/cpu", {"base_case": 2}),
    # Every step through the parallel relax-and-reduce, in one-vertex blocks.
    ("prim-dense/cpu", {"parallel_from": 0, "min_block": 1}),
    # Parallel while 50 or more vertices are outside, the serial fused pass after.
    ("prim-dense/cpu", {"parallel_from": 50, "min_block": 8}),
    ("prim-union/cpu", {"parts": 7, "partition": "blocks"}),
    ("prim-union/cpu", {"parts": 5, "partition": "bfs"}),
]
# Options that put each solver on its parallel branches at the thread-test sizes.
PARALLEL_OPTIONS = {"prim-dense/cpu": {"parallel_from": 0, "min_block": 64},
                    "filter-kruskal/cpu": {"base_case": 256}}
DTYPES = [np.int32, np.int64, np.float32, np.float64]


def _random_graph(seed: int, n: int, m: int, dtype, spread: int = 6) -> Graph:
    """Multi-edges, self-loops and many ties (few distinct weights)."""
    rng = np.random.default_rng(seed)
    weight = rng.integers(-spread, spread, m).astype(dtype)
    return Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), weight,
                            num_vertices=n)


def _oracle(graph: Graph) -> np.ndarray:
    return parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("solver", CPU_SOLVERS)
def test_cpu_solver_matches_oracle_on_tied_multigraph(solver, dtype):
    # Average degree above 4, so ECL's filtering runs too.
    graph = _random_graph(1, n=300, m=2400, dtype=dtype)
    forest = parmst.minimum_spanning_forest(graph, solver=solver)
    np.testing.assert_array_equal(forest.edge_ids, _oracle(graph))


@pytest.mark.parametrize(("solver", "options"), OPTION_VARIANTS,
                         ids=[f"{s}-{'-'.join(map(str, o.values()))}" for s, o in OPTION_VARIANTS])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_cpu_solver_option_keeps_the_exact_answer(solver, options, dtype):
    graph = _random_graph(2, n=200, m=1500, dtype=dtype)
    forest = parmst.minimum_spanning_forest(graph, solver=solver, **options)
    np.testing.assert_array_equal(forest.edge_ids, _oracle(graph))


@pytest.mark.parametrize("solver", ["ecl/cpu", "boruvka-edge/cpu", "filter-kruskal/cpu"])
def test_full_range_int64_weights_use_two_passes_exactly(solver):
    info = np.iinfo(np.int64)
    rng = np.random.default_rng(3)
    weight = rng.choice(np.array([info.min, info.max, 0, -1, 1], dtype=np.int64), 800)
    graph = Graph.from_edges(rng.integers(0, 100, 800), rng.integers(0, 100, 800), weight,
                             num_vertices=100)
    forest = parmst.minimum_spanning_forest(graph, solver=solver)
    assert forest.stats.extra["key_mode"] == "two-pass"
    np.testing.assert_array_equal(forest.edge_ids, _oracle(graph))


@pytest.mark.parametrize(("solver", "options", "phases"), [
    ("ecl/cpu", {}, {"init", "filter", "kernel1", "kernel2", "kernel3"}),
    ("boruvka-edge/cpu", {}, {"vertex bridges", "union", "remap", "filter"}),
    ("genboruvka/cpu", {}, {"min edge", "colours", "count edges", "new ids", "insert edges"}),
    ("filter-kruskal/cpu", {"base_case": 64}, {"partition", "filter", "sort and scan"}),
    ("prim-dense/cpu", {}, {"build-matrix", "loop"}),
    ("prim-union/cpu", {}, {"local trees", "boundary", "compress", "final"}),
    ("prim-multi/cpu", {}, {"instances", "contract"}),
    ("prim-bmv/cpu", {}, {"local trees", "boundary", "revisit boundary", "break cycles"}),
])
def test_cpu_solver_reports_phases_rounds_and_threads(solver, options, phases):
    graph = _random_graph(4, n=400, m=4000, dtype=np.float32)
    stats = parmst.minimum_spanning_forest(graph, solver=solver, threads=1, **options).stats
    assert phases <= set(stats.phases)
    assert stats.threads == 1
    assert stats.rounds >= 1


@pytest.mark.parametrize(("options", "parallel_steps"), [
    ({}, 0),
    ({"parallel_from": 0, "min_block": 1}, 40),
    ({"parallel_from": 10, "min_block": 2}, 30),
], ids=["default-serial", "all-parallel", "parallel-then-serial"])
def test_prim_dense_parallel_branch_runs_when_forced(options, parallel_steps):
    """``parallel_from`` picks the branch per step: a step with k vertices left outside
    the tree runs in parallel when k >= parallel_from (40 vertices: steps k = 39..0)."""
    graph = _random_graph(9, n=40, m=300, dtype=np.int64)
    forest = parmst.minimum_spanning_forest(graph, solver="prim-dense/cpu", **options)
    np.testing.assert_array_equal(forest.edge_ids, _oracle(graph))
    assert forest.stats.extra["parallel_steps"] == parallel_steps


@pytest.mark.parametrize("options", [{"parallel_from": -1}, {"min_block": 0},
                                     {"parallel_from": 2.5}], ids=str)
def test_prim_dense_rejects_bad_branch_options(options):
    graph = _random_graph(9, n=5, m=8, dtype=np.int64)
    with pytest.raises(ValueError, match="prim-dense/cpu"):
        parmst.minimum_spanning_forest(graph, solver="prim-dense/cpu", **options)


def test_ecl_worklist_shrinks_every_round():
    graph = _random_graph(5, n=2000, m=6000, dtype=np.int32, spread=1000)
    sizes = parmst.minimum_spanning_forest(graph, solver="ecl/cpu", filtering=False) \
        .stats.worklist_sizes
    assert sizes[0] == int(np.sum(graph.src != graph.dst))
    assert all(b <= a for a, b in itertools.pairwise(sizes))


def test_ecl_filters_sparse_graphs_from_its_cpu_degree():
    graph = _random_graph(7, n=2000, m=3000, dtype=np.int32, spread=10**6)
    extra = parmst.minimum_spanning_forest(graph, solver="ecl/cpu").stats.extra
    assert extra["filtered"]  # |E| = 1.5 |V|: filtered on CPU, not by the paper's GPU rule
    paper = parmst.minimum_spanning_forest(graph, solver="ecl/cpu", filter_degree=2.0)
    assert not paper.stats.extra["filtered"]


@pytest.mark.parametrize("options", [{"filter_target": 0.0}, {"filter_degree": -1.0}])
def test_ecl_rejects_bad_filter_options(options):
    graph = _random_graph(8, n=10, m=20, dtype=np.int32)
    with pytest.raises(ValueError, match="filter_"):
        parmst.minimum_spanning_forest(graph, solver="ecl/cpu", **options)


@pytest.mark.parametrize("threads", [0, 10_000])
def test_impossible_thread_count_is_rejected(threads):
    graph = _random_graph(6, n=10, m=20, dtype=np.int32)
    with pytest.raises(ValueError, match="NUMBA_NUM_THREADS"):
        parmst.minimum_spanning_forest(graph, solver="ecl/cpu", threads=threads)


_THREADS_SCRIPT = """
import json, sys
import numpy as np
import parmst
from parmst.graph import Graph

solvers = json.loads(sys.argv[1])
options = json.loads(sys.argv[2])
rng = np.random.default_rng(8)
graphs = []
for n, m, dtype in [(3000, 24000, np.int32), (5000, 9000, np.float64), (400, 30000, np.float32)]:
    weight = rng.integers(0, 50, m).astype(dtype)
    graphs.append(Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), weight,
                                   num_vertices=n))
out = {}
for solver in solvers:
    runs = []
    for threads in (1, 2, 4):
        runs.append([parmst.minimum_spanning_forest(g, solver=solver, threads=threads,
                                                    **options.get(solver, {}))
                     .edge_ids.tolist() for g in graphs])
    out[solver] = {"same": runs[0] == runs[1] == runs[2],
                   "oracle": runs[0] == [parmst.minimum_spanning_forest(g).edge_ids.tolist()
                                         for g in graphs]}
print(json.dumps(out))
"""


def _run_isolated(env_extra: dict, script: str, *args: str) -> str:
    env = {**os.environ, **env_extra}
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_answer_is_identical_at_1_2_and_4_threads():
    out = json.loads(_run_isolated({"NUMBA_NUM_THREADS": "4"}, _THREADS_SCRIPT,
                                   json.dumps(CPU_SOLVERS), json.dumps(PARALLEL_OPTIONS))
                     .strip().splitlines()[-1])
    assert out == {s: {"same": True, "oracle": True} for s in CPU_SOLVERS}


_NOJIT_SCRIPT = """
import json, sys
import numpy as np
import parmst

g = parmst.Graph.from_edges([0, 1, 2, 0, 3, 4, 4], [1, 2, 3, 3, 0, 5, 4],
                            [4.0, 1.0, 3.0, 2.0, 2.0, -1.0, 0.0])
print(json.dumps({s: parmst.minimum_spanning_forest(g, solver=s).edge_ids.tolist()
                  for s in json.loads(sys.argv[1])}))
"""


def test_kernels_run_without_jit_on_a_tiny_graph():
    out = json.loads(_run_isolated({"NUMBA_DISABLE_JIT": "1"}, _NOJIT_SCRIPT,
                                   json.dumps(CPU_SOLVERS)).strip().splitlines()[-1])
    assert out == {s: [1, 2, 3, 5] for s in CPU_SOLVERS}


class _Shape:
    """Just the sizes the auto rule looks at."""

    def __init__(self, num_vertices: int, num_edges: int) -> None:
        self.num_vertices = num_vertices
        self.num_edges = num_edges


@pytest.mark.parametrize(("cores", "n", "m", "expected"), [
    (16, 10_000_000, 15_000_000, True),
    (8, 1_000_000, 1_500_000, True),
    (2, 1_000_000, 1_500_000, False),
    (1, 10_000_000, 15_000_000, False),
    (16, 100_000, 400_000, False),
    (16, 5_000, 12_000_000, True),  # dense: ecl/cpu 30x dense Prim on 16 cores (Evidence 10)
    (2, 5_000, 12_000_000, False),
], ids=["16-cores-large-sparse", "8-cores-medium", "2-cores-medium", "1-core", "too-small", "dense",
        "2-cores-dense"])
def test_auto_rule_picks_ecl_only_where_it_was_measured_faster(cores, n, m, expected):
    from parmst import registry
    from parmst.solvers.cpu import _parallel_pays

    assert "ecl/cpu" in [rule[0] for rule in registry.AUTO_RULES]
    assert _parallel_pays(_Shape(n, m), cores) is expected


@pytest.mark.parametrize("kernel2, expect_items", [("items", True), ("sets", False)])
def test_ecl_cpu_kernel2_mode_is_the_one_asked_for(kernel2, expect_items):
    graph = _random_graph(3, 300, 1500, np.float64)
    forest = parmst.minimum_spanning_forest(graph, solver="ecl/cpu", kernel2=kernel2)
    item_rounds = forest.stats.extra.get("item_driven_rounds", 0)
    assert (item_rounds == forest.stats.rounds) if expect_items else item_rounds == 0
    assert forest.stats.rounds > 1
    np.testing.assert_array_equal(
        forest.edge_ids, parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids)


def test_ecl_cpu_rejects_an_unknown_kernel2_mode():
    with pytest.raises(ValueError, match="kernel2 must be one of"):
        parmst.minimum_spanning_forest(_random_graph(3, 10, 20, np.int32), solver="ecl/cpu",
                                       kernel2="edges")


@pytest.mark.parametrize(("compiled", "m", "ecl"), [
    (True, 1_500_000, True), (False, 1_500_000, False), (False, 60_000_000, True),
], ids=["warm", "cold-small", "cold-huge"])
def test_auto_passes_over_cold_ecl_kernels_below_the_cold_start_size(monkeypatch, compiled, m,
                                                                     ecl):
    from parmst import registry
    from parmst.solvers import cpu

    monkeypatch.setattr(cpu, "ecl_compiled", lambda: compiled)
    shape = _Shape(10_000_000, m)
    names = [rule[0] for rule in registry.AUTO_RULES]
    cold = next(rule for rule in registry.AUTO_RULES if rule[2] == cpu.COLD_START_WHY)
    # The cold-start rule (serial Kruskal) comes right after ecl/cpu's and catches the rest.
    assert cold[0] == "kruskal/serial" and names.index("ecl/cpu") < registry.AUTO_RULES.index(cold)
    assert cpu._parallel_pays_now(shape, 16) is ecl
    assert cold[1](shape, 16)


def test_cold_start_rule_reads_numbas_cache_index(tmp_path):
    # A fresh cache directory: ecl/cpu's kernels are not compiled there, serial Kruskal's
    # are after one call; "auto" on a 600 k-edge graph follows.
    script = (
        "import parmst\n"
        "from parmst.solvers.cpu import ecl_compiled\n"
        "g = parmst.generate('random-degree:n=150000,seed=1')\n"
        "print(ecl_compiled(), parmst.registry.explain(g)[0].name)\n"
        "parmst.minimum_spanning_forest(g, solver='ecl/cpu', threads=1)\n"
        "print(ecl_compiled())\n")
    import os
    import subprocess

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, check=True, timeout=600).stdout.split()
    assert out == ["False", "kruskal/serial", "True"]
