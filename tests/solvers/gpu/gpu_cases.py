"""GPU solver cases that need numba-cuda's simulator or a real GPU.

Not collected by a plain ``pytest`` run (the name does not start with
``test_``): ``test_gpu_simulator.py`` runs this file in a subprocess with
``NUMBA_ENABLE_CUDASIM=1`` (CI), and ``benchmarks/gpu_device_run.sh`` runs it
on the GPU machine, where the warp paths (ballot/shuffle) run for real and the
graphs are larger. The tests that only a real GPU can run are in
``test_gpu_device.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parmst
from parmst._cuda import runtime

SIMULATOR = runtime.simulator_active()
GPU_SOLVERS = [name for name in parmst.registry.solvers() if name.endswith("/gpu")]
# Every ecl/gpu code path: edge-list and CSR (hybrid warp / thread) initialization,
# with and without filtering, atomic guards, one or both directions, select by sweeping
# the vertices (the default where keys pack) or by records, filter targets.
ECL_VARIANTS = [
    {},
    {"init": "hybrid"},
    {"init": "thread", "atomic_guards": False},
    {"filter": False, "both_directions": True},
    {"init": "hybrid", "both_directions": True, "seed": 3},
    {"launch": "per-round"},
    {"launch": "persistent", "filter": False},
    {"launch": "per-round", "init": "hybrid", "atomic_guards": False},
    {"select": "records"},
    {"launch": "per-round", "filter_target": 0.5},
    {"launch": "persistent", "select": "records", "filter_target": 3},
    # Two-pass keys (records carry the edge id) by every launch and select path.
    {"launch": "per-round", "keys": "two-pass"},
    {"keys": "two-pass", "select": "records"},
    {"init": "hybrid", "launch": "per-round", "keys": "two-pass"},
    # ecl/opencl's round loop: rounds queued between reads of the size.
    {"launch": "batched"},
    {"launch": "batched", "keys": "two-pass", "select": "records", "filter": False},
    # The populate lowers the minima (each phase's first round starts at its select), and
    # the sets are flattened between the phases, on every launch path and key method.
    {"fused": True, "compress": True},
    {"fused": True, "launch": "per-round", "keys": "two-pass", "init": "hybrid"},
    {"fused": True, "launch": "batched", "select": "records", "compress": True,
     "max_registers": 32},
    # Fallin et al.'s threshold: 20 samples, 3|V| light CSR entries.
    {"filter_samples": 20, "filter_target": 1.5, "init": "thread", "fused": True},
]
BLOCK = {"block_size": 32} if SIMULATOR else {}

pytestmark = [
    pytest.mark.skipif(runtime.probe() is not True,
                       reason=f"GPU solvers cannot run: {runtime.probe()}"),
    # The simulator runs the float64 -> float32 narrowing check in NumPy, which warns where
    # a GPU just rounds to infinity (and the check then keeps the float64 keys).
    pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning"),
]


def random_graph(seed: int, n: int, m: int, dtype: str) -> parmst.Graph:
    """Multi-edges, self-loops, ties and several components, with ``dtype`` weights."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    if dtype in ("int32", "int64"):
        weight = rng.integers(-3, 4, m).astype(dtype)
    else:
        weight = rng.choice([-1.5, 0.0, 0.25, 2.0, np.inf], m).astype(dtype)
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=n)


def exact_route(solver: str) -> str:
    """The key method a GPU solver takes where keys do not pack: ``ecl/gpu`` settles ties
    by a second atomicMin on edge ids, the others rank the keys with a device sort."""
    return "two-pass" if solver == "ecl/gpu" else "rank"


def solver_block(solver: str) -> dict:
    """``BLOCK`` where the solver takes a block size (prim-dense/gpu's is fixed)."""
    return {k: v for k, v in BLOCK.items() if k in parmst.registry.get(solver).options}


def assert_exact(graph: parmst.Graph, solver: str, **options) -> parmst.Forest:
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver, **options)
    np.testing.assert_array_equal(forest.edge_ids, expected, err_msg=f"{solver} {options}")
    return forest


SIZES = [(12, 40), (30, 140)] if SIMULATOR else [(1000, 6000), (50_000, 400_000)]


# The kernels see only keys, and random_graph's int64 weights give the int32 graph's keys (the
# same draws, a 3-bit range), its float64 weights the float32 graph's (exact float32 values,
# narrowed before keying): so every variant runs on one integer and one float dtype, and the
# default one on all four (each dtype's key preparation).
VARIANT_DTYPES = [(variant, dtype) for variant in ECL_VARIANTS for dtype in ("int32", "float64")] \
    + [({}, "int64"), ({}, "float32")]


@pytest.mark.parametrize(("variant", "dtype"), VARIANT_DTYPES, ids=str)
def test_ecl_variants_match_kruskal(variant, dtype):
    for seed, (n, m) in enumerate(SIZES):
        assert_exact(random_graph(seed, n, m, dtype), "ecl/gpu", **variant, **BLOCK)


@pytest.mark.parametrize("solver", GPU_SOLVERS)
@settings(max_examples=10 if SIMULATOR else 50)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 24), m=st.integers(0, 70))
def test_gpu_solver_on_random_multigraphs(solver, seed, n, m):
    assert_exact(random_graph(seed, n, m, "float64"), solver, **solver_block(solver))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_boruvka_edge_matches_kruskal(dtype):
    for seed, (n, m) in enumerate(SIZES):
        assert_exact(random_graph(seed, n, m, dtype), "boruvka-edge/gpu", **BLOCK)


def dense_forest(dtype: str) -> parmst.Graph:
    """Two dense blocks and an isolated vertex: three trees, parallel edges, ties."""
    n = 20 if SIMULATOR else 600
    half = n // 2
    rng = np.random.default_rng(11)
    src = np.concatenate([rng.integers(0, half, 4 * n), rng.integers(half, n - 1, 4 * n)])
    dst = np.concatenate([rng.integers(0, half, 4 * n), rng.integers(half, n - 1, 4 * n)])
    weight = rng.integers(0, 5, len(src)).astype(dtype)
    return parmst.Graph.from_edges(src, dst, weight, num_vertices=n)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_prim_dense_matches_kruskal_on_dense_forest(dtype):
    forest = assert_exact(dense_forest(dtype), "prim-dense/gpu")
    assert forest.stats.rounds == forest.num_components


@pytest.mark.parametrize("solver", GPU_SOLVERS)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_rank_keys_give_the_exact_forest(solver, dtype):
    """The exact key route (:func:`exact_route`), the one for weights whose keys do not pack
    with ids, forced on weights that would pack, on every GPU solver."""
    graph = dense_forest(dtype) if solver == "prim-dense/gpu" \
        else random_graph(7, *SIZES[-1], dtype)
    forest = assert_exact(graph, solver, keys=exact_route(solver), **solver_block(solver))
    assert forest.stats.extra["key_method"] == exact_route(solver)


@pytest.mark.parametrize("solver", GPU_SOLVERS)
def test_unpackable_weights_take_rank_keys_by_default(solver):
    """Weights spanning float64's range do not pack with edge ids: ``"auto"`` takes the
    solver's exact route."""
    graph = random_graph(4, 12, 40, "float64")
    weight = graph.weight * np.where(np.arange(graph.num_edges) % 3, 1e300, 1e-300)
    graph = parmst.Graph.from_edges(graph.src, graph.dst, weight, num_vertices=12)
    forest = assert_exact(graph, solver, **solver_block(solver))
    assert forest.stats.extra["key_method"] == exact_route(solver)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_ecl_auto_launch_hands_over_to_persistent_kernel(dtype):
    """launch="auto": per-round launches for big rounds, the cooperative kernel after."""
    n, m = SIZES[-1]
    forest = assert_exact(random_graph(5, n, m, dtype), "ecl/gpu", launch="auto",
                          persistent_below=m // 2, filter=False, **BLOCK)
    stats = forest.stats
    assert stats.rounds == len(stats.worklist_sizes)
    assert 1 <= stats.extra["persistent_rounds"] < stats.rounds


def test_ecl_batched_launch_reads_the_size_once_per_batch_of_rounds():
    """launch="batched": big rounds read their size, the rest run ROUNDS_PER_CHECK rounds per
    read (the empty rounds after the last are not counted)."""
    from parmst.solvers.gpu._ecl_rounds import ROUNDS_PER_CHECK

    n, m = SIZES[-1]
    graph = random_graph(5, n, m, "float64")
    # Unfused: every round, the first included, relaxes and then reads its size.
    assert_exact(graph, "ecl/gpu", filter=False, fused=False, **BLOCK)  # caches the keys
    warm = assert_exact(graph, "ecl/gpu", filter=False, fused=False, **BLOCK).stats
    batched = assert_exact(graph, "ecl/gpu", launch="batched", persistent_below=m // 2,
                           filter=False, fused=False, **BLOCK).stats
    per_round = assert_exact(graph, "ecl/gpu", launch="per-round", filter=False, fused=False,
                             **BLOCK).stats
    assert "persistent_rounds" not in batched.extra
    assert batched.worklist_sizes == per_round.worklist_sizes == warm.worklist_sizes
    big = sum(size >= m // 2 for size in batched.worklist_sizes)
    small = batched.rounds - big
    # Per-round: a read per round and one that finds the list empty. Batched: a read per big
    # round and one that finds the first small size, then one per batch of small rounds.
    assert per_round.extra["host_syncs"] - warm.extra["host_syncs"] == per_round.rounds + 1
    assert batched.extra["host_syncs"] - warm.extra["host_syncs"] == \
        big + 1 + -(-small // ROUNDS_PER_CHECK)


def grid_graph(side: int, seed: int) -> parmst.Graph:
    """A ``side`` x ``side`` grid with random float32 weights: rounds shrink slowly."""
    ids = np.arange(side * side).reshape(side, side)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    weight = np.random.default_rng(seed).random(len(src)).astype(np.float32)
    return parmst.Graph.from_edges(src, dst, weight)


def test_ecl_auto_launch_runs_medium_rounds_batched_and_small_ones_persistent():
    """launch="auto" below ``persistent_below``: rounds from ``batched_min`` records up as
    separate launches, ROUNDS_PER_CHECK per read, the rest in the persistent kernel, in one
    phase; the rounds and their sizes are those of per-round launches."""
    from parmst.solvers.gpu._ecl_rounds import ROUNDS_PER_CHECK

    graph = grid_graph(16, 4)
    m = graph.num_edges
    per_round = assert_exact(graph, "ecl/gpu", launch="per-round", filter=False, **BLOCK).stats
    assert per_round.rounds > ROUNDS_PER_CHECK
    auto = assert_exact(graph, "ecl/gpu", launch="auto", persistent_below=2 * m,
                        batched_min=m, filter=False, **BLOCK).stats
    assert auto.worklist_sizes == per_round.worklist_sizes
    assert auto.extra["persistent_rounds"] == per_round.rounds - ROUNDS_PER_CHECK
    persistent = assert_exact(graph, "ecl/gpu", launch="auto", persistent_below=2 * m,
                              batched_min=m + 1, filter=False, **BLOCK).stats
    assert persistent.extra["persistent_rounds"] == per_round.rounds


@pytest.mark.parametrize("launch", ["per-round", "batched", "auto"])
def test_ecl_fused_populate_runs_the_same_rounds_without_the_first_relaxes(launch):
    """fused=True: the populate lowers the minima, so each phase's first round starts at its
    select; the rounds and their sizes are the unfused solve's, on every launch path (``auto``
    here hands big rounds to per-round launches, then batched, then persistent), and per-round
    launches save one relax launch per phase."""
    n, m = SIZES[-1]
    graph = random_graph(9, n, 3 * m, "float32")
    tiers = {} if launch == "per-round" else {"persistent_below": m, "batched_min": m // 4}
    plain = assert_exact(graph, "ecl/gpu", launch=launch, fused=False, **tiers, **BLOCK).stats
    fused = assert_exact(graph, "ecl/gpu", launch=launch, fused=True, **tiers, **BLOCK).stats
    assert plain.extra["filter_threshold"] is not None
    assert fused.worklist_sizes == plain.worklist_sizes and fused.rounds == plain.rounds >= 3
    assert fused.extra.get("persistent_rounds") == plain.extra.get("persistent_rounds")
    if launch == "per-round":  # against a solve that found the keys prepared, as this one
        again = assert_exact(graph, "ecl/gpu", launch=launch, fused=False, **BLOCK).stats
        assert again.extra["launches"] - fused.extra["launches"] == 2


def test_ecl_per_round_launch_never_uses_persistent_kernel():
    forest = assert_exact(random_graph(6, *SIZES[-1], "int64"), "ecl/gpu", launch="per-round",
                          **BLOCK)
    assert "persistent_rounds" not in forest.stats.extra


def test_ecl_stats_report_rounds_times_and_memory():
    forest = assert_exact(random_graph(1, *SIZES[-1], "int32"), "ecl/gpu", **BLOCK)
    stats = forest.stats
    assert stats.rounds >= 1 and len(stats.worklist_sizes) == stats.rounds
    assert stats.compute_time > 0 and stats.extra["end_to_end_time"] >= stats.compute_time
    assert stats.extra["device_memory_bytes"] > 0
    assert stats.device.startswith("cuda")


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_ecl_solve_launches_and_waits_a_fixed_few_times(dtype):
    """The host side of a solve cannot creep back: a repeated solve of a filtered host graph
    is eight launches (work reset with the threshold, per phase a populate and a persistent
    kernel, the sets compressed between the phases, the two compaction passes) and two waits
    (the log with the forest's size, the ids' copy), on the simulator and on a GPU alike;
    the first solve adds the device copy (its timer's two waits) and the key preparation
    (the key range, one launch and its read, and the keys, one launch)."""
    n = SIZES[-1][0]
    graph = random_graph(7, n, 4 * n, dtype)
    first = assert_exact(graph, "ecl/gpu", **BLOCK).stats
    again = assert_exact(graph, "ecl/gpu", **BLOCK).stats
    assert again.extra["filter_threshold"] is not None and again.extra["persistent_rounds"]
    assert (again.extra["launches"], again.extra["host_syncs"]) == (8, 2)
    assert (first.extra["launches"], first.extra["host_syncs"]) == (10, 5)
    assert again.extra["dispatched"] == first.extra["dispatched"] == 0
    # ECL-MST's host loop (unfused): a wait per round (the size read) instead.
    per_round = assert_exact(graph, "ecl/gpu", launch="per-round", fused=False,
                             **BLOCK).stats
    assert per_round.extra["host_syncs"] == 2 + per_round.rounds + 2


def device_arrays(graph: parmst.Graph) -> list:
    from numba import cuda

    return [cuda.to_device(a) for a in (graph.src, graph.dst, graph.weight)]


@pytest.mark.parametrize(("dtype", "key_method"), [("int32", "packed"), ("float32", "packed"),
                                                   ("float64", "packed"),
                                                   ("float64-wide", "two-pass")])
def test_ecl_whole_call_from_device_arrays_has_no_fixed_cost(dtype, key_method):
    """The whole call from device arrays (the graph built from them, the solve, the forest's
    ids left on the device), repeated on arrays of the same sizes, as a caller holding CuPy
    arrays makes it: ten launches, none through numba-cuda's dispatcher (the checks with the
    weights' key range, the keys, the work reset, per phase a populate and a persistent
    kernel, the compression between the phases, the two compaction passes), two waits (the
    checks' result, the solve's log) and no allocation (the graph's copies, its keys and the
    forest's ids come from the device pool); every weight kind, float64 weights that are
    exact float32 values (narrowed) or not (two-pass keys) included; exact."""
    n = SIZES[-1][0]
    host = random_graph(12, n, 4 * n, dtype.removesuffix("-wide"))
    if dtype.endswith("-wide"):
        rng = np.random.default_rng(12)
        host = host.with_weights(rng.random(host.num_edges) * 10.0 ** rng.integers(-200, 200,
                                                                                  4 * n))
    arrays = device_arrays(host)

    def call():
        graph = parmst.Graph.from_edges(*arrays, num_vertices=n)
        forest = parmst.minimum_spanning_forest(graph, "ecl/gpu", **BLOCK)
        return forest, forest.edge_ids_device

    call()  # fills the pool with buffers of these sizes
    with runtime.tally() as counts:
        forest, ids = call()
    assert counts == {"launches": 10, "dispatched": 0, "host_syncs": 2, "allocations": 0}
    assert forest.stats.extra["key_method"] == key_method
    assert forest.stats.extra["filter_threshold"] is not None
    expected = parmst.minimum_spanning_forest(host, "kruskal/serial").edge_ids
    np.testing.assert_array_equal(ids.copy_to_host(), expected)


@pytest.mark.parametrize(("samples", "target"), [(None, None), (20, 1.5), (1000, 0.75)])
def test_ecl_device_threshold_is_the_host_rule(samples, target):
    """The threshold picked on the device is the host's sampled threshold of the same keys,
    for the default sample count and target, the paper's, and more samples than a block has
    threads."""
    from parmst.order import edge_keys
    from parmst.solvers import ecl_host
    from parmst.solvers.gpu.ecl import sample_count

    n = SIZES[-1][0]
    many = samples == 1000
    graph = random_graph(8, n, 80 * n if many else 4 * n, "int32")
    options = {} if samples is None else {"filter_samples": samples, "filter_target": target}
    forest = assert_exact(graph, "ecl/gpu", seed=5, **options, **BLOCK)
    keys = edge_keys(graph.weight)
    assert keys.mode == forest.stats.extra["key_method"] == "packed"
    count = sample_count(samples or ecl_host.GPU_FILTER_SAMPLES, graph.num_edges)
    threads = runtime.launch_limits(BLOCK.get("block_size", runtime.DEFAULT_BLOCK_SIZE))[0]
    assert count > threads or not many
    # The device shifts keys by their minimum (the host does not for int32), so the two
    # thresholds differ in value; their slots name the edge sampled at the threshold's rank.
    host = ecl_host.filter_threshold(keys.keys, n, seed=5, samples=count,
                                     degree=ecl_host.FILTER_DEGREE,
                                     target=target or ecl_host.GPU_FILTER_TARGET)
    device = forest.stats.extra["filter_threshold"]
    assert device & keys.slot_mask == int(host) & keys.slot_mask


def test_ecl_filtering_runs_both_phases():
    n, m = SIZES[-1]
    forest = assert_exact(random_graph(2, n, 6 * m, "float32"), "ecl/gpu", **BLOCK)
    assert forest.stats.extra["filter_threshold"] is not None
    assert set(forest.stats.phases) == {"keys", "light", "heavy"}


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_genboruvka_matches_kruskal(dtype):
    for seed, (n, m) in enumerate(SIZES):
        assert_exact(random_graph(seed, n, m, dtype), "genboruvka/gpu", **BLOCK)


def test_genboruvka_stats_count_rounds_of_the_contracted_graphs():
    graph = random_graph(3, *SIZES[-1], "float32")
    forest = assert_exact(graph, "genboruvka/gpu", **BLOCK)
    stats = forest.stats
    assert stats.rounds == len(stats.worklist_sizes) == len(stats.extra["colour_passes"]) >= 2
    assert stats.worklist_sizes[0] == int(np.count_nonzero(graph.src != graph.dst))
    assert all(a > b for a, b in zip(stats.worklist_sizes, stats.worklist_sizes[1:]))
    assert stats.extra["end_to_end_time"] >= stats.compute_time > 0
    assert stats.device.startswith("cuda")


def test_genboruvka_long_path_needs_several_colour_passes():
    """Increasing weights along a path: every vertex picks its left edge, one long chain.

    In-place jumping may converge in fewer passes than log2(n) (a thread can
    read colours already jumped), but the chain needs a changing pass and a
    quiet one.
    """
    n = 40 if SIMULATOR else 100_000
    graph = parmst.Graph.from_edges(np.arange(n - 1), np.arange(1, n), np.arange(n - 1.0))
    forest = assert_exact(graph, "genboruvka/gpu", **BLOCK)
    assert forest.stats.rounds == 1
    assert forest.stats.extra["colour_passes"][0] >= 2


@pytest.mark.parametrize("count", [0, 1, 31, 32, 33, 1100])
def test_genboruvka_exclusive_scan_over_several_block_levels(count):
    from numba import cuda

    from parmst.solvers.gpu import genboruvka

    values = np.random.default_rng(count).integers(0, 9, count).astype(np.int32)
    out = cuda.device_array(count + 1, np.int64)
    launcher = genboruvka._Launcher(BLOCK.get("block_size", runtime.DEFAULT_BLOCK_SIZE))
    total = launcher.exclusive_scan(cuda.to_device(values), count, out)
    expected = np.concatenate([[0], np.cumsum(values)])
    assert total == expected[-1]
    np.testing.assert_array_equal(out.copy_to_host(), expected)


# ---------------------------------------------------------------- keys on the device
def _device_keys(weight: np.ndarray, method: str):
    from numba import cuda

    from parmst.solvers.gpu._keys import device_keys

    return device_keys(cuda.to_device(weight), method)


KEY_WEIGHTS = {
    "int32": np.array([3, -1, 3, 0, -1], dtype=np.int32),
    "float64-narrow": np.array([0.5, -2.0, 0.5, np.inf, -0.0, 0.0]),
    "int64-wide": np.array([2**62, -(2**62), 7, 7], dtype=np.int64),
    "float64-wide": np.array([0.1, 2.0**60, -1e300, 0.1, -np.inf, 5e-324, -0.0, 0.0]),
    "float64-random": np.random.default_rng(1).random(60 if SIMULATOR else 100_000),
    "float32-ties": np.random.default_rng(2).integers(0, 4, 50).astype(np.float32) / 3,
}


@pytest.mark.parametrize("method", ["auto", "rank"])
@pytest.mark.parametrize("name", KEY_WEIGHTS)
def test_device_keys_order_edges_like_the_canonical_order(name, method):
    """Keys made on the device sort exactly as the host's one tie rule, by either route."""
    weight = KEY_WEIGHTS[name]
    keys = _device_keys(weight, method)
    host = keys.keys.copy_to_host()
    np.testing.assert_array_equal(np.argsort(host, kind="stable"),
                                  parmst.order.canonical_order(weight))
    assert len(np.unique(host)) == len(weight)
    slots = (host & keys.slot_mask).astype(np.int64)
    np.testing.assert_array_equal(keys.edge_ids(slots), np.arange(len(weight)))
    if method == "rank":
        assert keys.mode == "rank"


@pytest.mark.parametrize("name", KEY_WEIGHTS)
def test_two_pass_keys_order_weights_and_leave_ties_to_ids(name):
    """``unpacked="two-pass"``: the weight keys alone, in weight order with equal weights
    equal, so that (key, edge id) is the canonical order; no sort, edge id = slot."""
    from numba import cuda

    from parmst.solvers.gpu._keys import device_keys

    weight = KEY_WEIGHTS[name]
    keys = device_keys(cuda.to_device(weight), "two-pass", unpacked="two-pass")
    assert keys.mode == "two-pass" and keys.order is None
    host = keys.keys.copy_to_host()
    np.testing.assert_array_equal(np.argsort(host, kind="stable"),
                                  parmst.order.canonical_order(weight))
    assert len(np.unique(host)) == len(np.unique(weight))
    wide = KEY_WEIGHTS["float64-wide"]
    assert device_keys(cuda.to_device(wide), unpacked="two-pass").mode == "two-pass"
    with pytest.raises(ValueError, match="keys must be one of"):
        device_keys(cuda.to_device(wide), "rank", unpacked="two-pass")


def test_float64_weights_that_do_not_pack_take_the_device_sort():
    keys = _device_keys(KEY_WEIGHTS["float64-wide"], "auto")
    assert keys.mode == "rank"
    np.testing.assert_array_equal(keys.keys.copy_to_host(), [5, 7, 1, 6, 0, 4, 2, 3])
    with pytest.raises(ValueError, match="do not fit"):
        _device_keys(KEY_WEIGHTS["float64-wide"], "packed")
    with pytest.raises(ValueError, match="keys must be one of"):
        _device_keys(KEY_WEIGHTS["int32"], "two-pass")


@pytest.mark.parametrize("name", KEY_WEIGHTS)
def test_device_graph_checks_find_the_weights_key_range(name):
    """The pass that checks a graph's device arrays finds its weights' key range, the same as
    ranging them on their own and as the host's keys (float64 weights that are all exact
    float32 values ranged as float32), so that the solvers' keys read nothing back."""
    from numba import cuda

    from parmst._cuda import edge_scan

    weight = KEY_WEIGHTS[name]
    ids = cuda.to_device(np.zeros(len(weight), np.int32))
    found = parmst.Graph.from_edges(ids, ids, cuda.to_device(weight)).to_device().key_range
    assert found == edge_scan.weight_key_range(cuda.to_device(weight))
    narrow = weight.dtype == np.float64 and bool((weight.astype(np.float32) == weight).all())
    keys = parmst.order.weight_keys(weight.astype(np.float32) if narrow else weight)
    assert found == (int(keys.min()), int(keys.max()), narrow)


def test_float32_bits_narrow_exactly_where_numpy_does():
    """:func:`~parmst._cuda.edge_scan.float32_bits` (the device's narrowing of float64 weights,
    on their bits): exact where NumPy's float32 is the same value, with its bit pattern;
    normals, subnormals, zeros, infinities, NaN, overflow and underflow."""
    from parmst._cuda.edge_scan import float32_bits

    f32 = np.finfo(np.float32)
    exact = np.concatenate([
        np.random.default_rng(3).standard_normal(200).astype(np.float32),
        np.float32([0.0, -0.0, np.inf, -np.inf, f32.max, -f32.max, f32.tiny, -f32.tiny]),
        f32.smallest_subnormal * np.float32([1, -1, 7, 2**22 + 1, 2**23 - 1])])
    inexact = [0.1, 1e39, -1e39, 2.0**-150, 5e-324, np.nan, 1 + 2.0**-30, -(2.0**-149) * 1.5,
               float(f32.max) * (1 + 2.0**-30)]
    for value in np.concatenate([exact.astype(np.float64), inexact]):
        bits, same = float32_bits(value.view(np.uint64))
        assert bool(same) == bool(np.float32(value) == value), value
        if same:
            assert int(bits) == int(np.float32(value).view(np.uint32)), value


def test_lent_arrays_go_back_to_the_pool_when_their_last_view_goes():
    """:func:`parmst._cuda.pool.lend`: an array a caller keeps comes from the pool and returns
    to it only once it and every view of it are gone; the next one of that size allocates
    nothing."""
    import gc

    from parmst._cuda import pool as cuda_pool

    pool = cuda_pool.device_pool()
    lent = cuda_pool.lend(37, np.int64)
    view = lent[3:9].view(np.uint64)
    idle = pool.idle_bytes
    del lent
    gc.collect()
    assert pool.idle_bytes == idle  # the view still holds it
    del view
    gc.collect()
    assert pool.idle_bytes == idle + 8 * 37
    with runtime.tally() as counts:
        again = cuda_pool.lend(37, np.int64)
    assert pool.idle_bytes == idle and again.shape == (37,)
    assert counts["allocations"] == 0


@pytest.mark.parametrize("bits", [6, 29, 64])
def test_radix_order_is_a_stable_sort(bits):
    """One pass, a partial last digit, and all sixteen 4-bit passes of a 64-bit key."""
    from numba import cuda

    from parmst._cuda import arrays as cuda_arrays

    rng = np.random.default_rng(bits)
    keys = rng.integers(0, 2**bits, 90 if SIMULATOR else 300_000, dtype=np.uint64)
    keys[::7] = keys[0]  # many ties
    assert int(keys.max()).bit_length() == bits
    order = cuda_arrays.radix_order(cuda.to_device(keys), bits)
    np.testing.assert_array_equal(order.copy_to_host(), np.argsort(keys, kind="stable"))


# The last count spans several of the scatter's chunks in every tile (SCAN_THREADS *
# COMPACT_ITEMS flags: 512 under the simulator's one-warp blocks).
@pytest.mark.parametrize("count", [0, 1, 33, 300 if SIMULATOR else 3_000_000,
                                   2_500 if SIMULATOR else 40_000_000])
def test_compaction_keeps_flagged_items_in_order(count):
    from numba import cuda

    from parmst._cuda import arrays as cuda_arrays

    rng = np.random.default_rng(count)
    flags = (rng.random(count) < 0.3).astype(np.uint8)
    np.testing.assert_array_equal(cuda_arrays.compact(cuda.to_device(flags)).copy_to_host(),
                                  np.flatnonzero(flags))
    values = rng.integers(-2**40, 2**40, count)
    np.testing.assert_array_equal(
        cuda_arrays.compact(cuda.to_device(flags), cuda.to_device(values)).copy_to_host(),
        values[flags != 0])


@pytest.mark.parametrize("start", [0, 1, 4])
@pytest.mark.parametrize("as_words", [True, False])
def test_compaction_reads_any_nonzero_byte_as_a_flag(start, as_words, monkeypatch):
    """Flags of any nonzero byte value (int8, -1 included), in an array that starts off a
    word or on one, read as words or byte by byte."""
    from numba import cuda

    from parmst._cuda import arrays as cuda_arrays
    from parmst._cuda import runtime

    if not as_words:
        monkeypatch.setattr(cuda_arrays, "_flag_words", lambda flags: runtime.empty(np.uint32))
    rng = np.random.default_rng(start)
    count = 1_203 if SIMULATOR else 5_000_003
    flags = rng.choice(np.array([0, 0, 0, 1, -1, 2, -128, 64], dtype=np.int8), count)
    on_device = cuda.to_device(flags)[start:]
    np.testing.assert_array_equal(cuda_arrays.compact(on_device).copy_to_host(),
                                  np.flatnonzero(flags[start:]))


@pytest.mark.parametrize("count", [0, 1, 70 if SIMULATOR else 2_000_000])
def test_group_order_groups_positions_by_key(count):
    """Every position once, keys ascending, groups where the starts say (empty keys too)."""
    from numba import cuda

    from parmst._cuda import arrays as cuda_arrays

    num_keys = max(1, count // 3)
    keys = np.random.default_rng(count).integers(0, num_keys, count)
    order, starts = cuda_arrays.group_order(cuda.to_device(keys), num_keys)
    order, starts = order.copy_to_host(), starts.copy_to_host()
    np.testing.assert_array_equal(np.sort(order), np.arange(count))
    np.testing.assert_array_equal(keys[order], np.sort(keys))
    np.testing.assert_array_equal(starts, np.searchsorted(np.sort(keys), np.arange(num_keys + 1)))


# ---------------------------------------------------------------- graphs on the device
class CudaArrayInterface:
    """The smallest foreign device array: only ``__cuda_array_interface__`` (as a library
    other than numba-cuda would hand over). Under the simulator, device memory is host
    memory, so the interface points into a NumPy array."""

    def __init__(self, host: np.ndarray) -> None:
        from numba import cuda

        if SIMULATOR:
            self._memory = np.ascontiguousarray(host)
            interface = dict(self._memory.__array_interface__)
            interface.pop("descr", None)
        else:
            self._memory = cuda.to_device(host)
            interface = dict(self._memory.__cuda_array_interface__)
        self.__cuda_array_interface__ = {**interface, "version": 3}


# The solvers that never copy a device graph back (the others build a CSR view or a dense
# matrix on the host first; docs/gpu-data.md).
READ_IN_PLACE = ("ecl/gpu", "boruvka-edge/gpu")


def on_device(graph: parmst.Graph, wrap=None) -> parmst.Graph:
    """The same graph built from device arrays (numba's, or ``wrap``'s)."""
    from numba import cuda

    wrap = wrap or cuda.to_device
    return parmst.Graph.from_edges(wrap(graph.src), wrap(graph.dst), wrap(graph.weight),
                                   num_vertices=graph.num_vertices)


@pytest.mark.parametrize("wrap", ["numba", "cuda_array_interface"])
@pytest.mark.parametrize("solver", GPU_SOLVERS)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_graph_on_the_device_is_solved_there(solver, dtype, wrap):
    """A graph built from device arrays stays there; the forest's ids are on the device,
    the host fields are copied back on demand and match the reference exactly."""
    host = dense_forest(dtype) if solver == "prim-dense/gpu" else random_graph(8, *SIZES[-1], dtype)
    graph = on_device(host, CudaArrayInterface if wrap == "cuda_array_interface" else None)
    assert graph.is_on_device and graph._host is None
    forest = parmst.minimum_spanning_forest(graph, solver, **solver_block(solver))
    if solver in READ_IN_PLACE:
        assert graph._host is None, "the GPU solve copied the graph to the host"
    reference = parmst.minimum_spanning_forest(host, "kruskal/serial")
    np.testing.assert_array_equal(forest.edge_ids_device.copy_to_host(), reference.edge_ids)
    np.testing.assert_array_equal(forest.edge_ids, reference.edge_ids)
    np.testing.assert_array_equal(forest.src, reference.src)
    np.testing.assert_array_equal(forest.weight, reference.weight)
    assert forest.total_weight == reference.total_weight
    assert parmst.verify(graph, forest).ok


@pytest.mark.parametrize("solver", ["ecl/gpu", "boruvka-edge/gpu", "genboruvka/gpu"])
def test_wide_float64_weights_on_the_device_are_exact(solver):
    """float64 weights over many binades (the exact route: two-pass or the device sort) on a
    device graph (a host graph's: ``test_unpackable_weights_take_rank_keys_by_default``)."""
    host = random_graph(9, *SIZES[0], "float64")
    rng = np.random.default_rng(9)
    scale = 10.0 ** rng.integers(-200, 200, host.num_edges)
    host = host.with_weights(rng.random(host.num_edges) * scale)
    forest = parmst.minimum_spanning_forest(on_device(host), solver, **solver_block(solver))
    assert forest.stats.extra["key_method"] == exact_route(solver)
    np.testing.assert_array_equal(forest.edge_ids,
                                  parmst.minimum_spanning_forest(host, "kruskal/serial").edge_ids)


def test_host_graph_caches_its_device_copy_and_keys():
    graph = random_graph(10, *SIZES[0], "float32")
    first = assert_exact(graph, "ecl/gpu", **BLOCK)
    copy = graph.to_device()
    assert first.stats.extra["transfer_time"] > 0 and "keys" in first.stats.phases
    second = assert_exact(graph, "ecl/gpu", **BLOCK)
    assert graph.to_device() is copy
    assert "keys" not in second.stats.phases  # keys cached with the device copy
    graph.clear_cache()
    assert graph.to_device() is not copy


def test_host_solvers_read_a_device_graph_through_one_copy_back():
    graph = on_device(random_graph(11, *SIZES[0], "int64"))
    forest = parmst.minimum_spanning_forest(graph, "kruskal/serial")
    assert graph._host is not None and graph.is_on_device
    gpu = parmst.minimum_spanning_forest(graph, "ecl/gpu", **BLOCK)
    np.testing.assert_array_equal(gpu.edge_ids, forest.edge_ids)
    np.testing.assert_array_equal(forest.edge_ids_device.copy_to_host(), forest.edge_ids)


def test_device_inputs_are_checked_on_the_device_with_the_host_messages():
    from numba import cuda

    d = cuda.to_device
    with pytest.raises(parmst.errors.GraphValueError, match="edge 1 has negative vertex id -1"):
        parmst.Graph.from_edges(d(np.array([0, -1])), d(np.array([1, 2])))
    with pytest.raises(parmst.errors.GraphValueError, match="edge 1 has vertex id 5 but"):
        parmst.Graph.from_edges(d(np.array([0, 5])), d(np.array([1, 2])), num_vertices=4)
    with pytest.raises(parmst.errors.GraphValueError, match="edge 2 has a NaN weight"):
        parmst.Graph.from_edges(d(np.arange(3)), d(np.arange(3)), d(np.array([1, 2, np.nan])))
    with pytest.raises(parmst.errors.GraphValueError, match="src has 3 entries but dst has 2"):
        parmst.Graph.from_edges(d(np.arange(3)), d(np.arange(2)))
    with pytest.raises(parmst.errors.GraphValueError, match="integer vertex ids"):
        parmst.Graph.from_edges(d(np.arange(3.0)), d(np.arange(3)))
    with pytest.raises(parmst.errors.GraphValueError, match="not converted on the device"):
        parmst.Graph.from_edges(d(np.arange(3)), d(np.arange(3)), d(np.arange(3, dtype=np.uint64)))


def test_device_inputs_take_the_host_dtypes_and_copy_unless_told():
    from numba import cuda

    src = cuda.to_device(np.array([0, 1, 2], dtype=np.int64))
    weight = cuda.to_device(np.array([5, 250, 7], dtype=np.uint8))
    graph = parmst.Graph.from_edges(src, np.array([1, 2, 0]), weight)  # host dst joins them
    assert graph.index_dtype == np.int32 and graph.weight_dtype == np.int32
    np.testing.assert_array_equal(graph.weight, [5, 250, 7])
    unit = parmst.Graph.from_edges(src, cuda.to_device(np.array([1, 2, 0])))
    np.testing.assert_array_equal(unit.weight, [1, 1, 1])
    same = cuda.to_device(np.array([0, 1], dtype=np.int32))
    weights = cuda.to_device(np.array([1.0, 2.0]))
    view = parmst.Graph.from_edges(same, same, weights, copy=False)
    assert view.to_device().src is same and view.to_device().weight is weights
    # copy=False still narrows 64-bit ids (one launch: checks and the copy); copy=True copies
    # every array, in the graph's dtypes.
    wide_ids = cuda.to_device(np.array([1, 0], dtype=np.int64))
    narrowed = parmst.Graph.from_edges(wide_ids, same, weights, copy=False).to_device()
    assert narrowed.src.dtype == np.int32 and narrowed.dst is same and narrowed.weight is weights
    np.testing.assert_array_equal(narrowed.src.copy_to_host(), [1, 0])
    copied = parmst.Graph.from_edges(wide_ids, same, weights).to_device()
    assert all(a is not b for a, b in zip((copied.src, copied.dst, copied.weight),
                                          (wide_ids, same, weights)))
    np.testing.assert_array_equal(copied.weight.copy_to_host(), [1.0, 2.0])
    np.testing.assert_array_equal(copied.dst.copy_to_host(), [0, 1])
    nan = parmst.Graph.from_edges(same, same, cuda.to_device(np.array([np.nan, 2.0])),
                                  allow_nan=True)
    assert nan.has_nan
    assert parmst.minimum_spanning_forest(nan, "ecl/gpu", ignore_nan=True, **BLOCK).num_edges == 0


# ---------------------------------------------------------------- pooled device buffers
def poison_idle_buffers(value: int = 1) -> int:
    """Fill every idle pooled array with ``value`` (1: every vertex's parent is vertex 1,
    every minimum and worklist count 1, every edge in the forest), as a previous solve might
    have left it; returns how many arrays."""
    from parmst._cuda import arrays as cuda_arrays
    from parmst._cuda import pool as cuda_pool

    idle = [a for arrays in cuda_pool.device_pool()._idle.values() for a in arrays if a.size]
    for array in idle:
        cuda_arrays.refill(array, value)
    return len(idle)


def test_carved_arrays_share_one_allocation_without_overlapping():
    from parmst._cuda import arrays as cuda_arrays

    specs = [(5, np.int32), (0, np.float64), (3, np.float64), (7, np.uint8), (2, np.int64)]
    carved = cuda_arrays.carve(specs)
    assert [(len(a), a.dtype) for a in carved] == [(c, np.dtype(t)) for c, t in specs]
    for k, a in enumerate(carved):
        cuda_arrays.refill(a, k + 1)
    for k, a in enumerate(carved):
        assert (a.copy_to_host() == k + 1).all()


@pytest.mark.parametrize("keys", ["auto", "two-pass"])
def test_ecl_pooled_buffers_never_leak_a_previous_solve(keys):
    """Solves of different graphs and sizes, interleaved, each after every idle buffer was
    poisoned: each forest exact, and a second graph of the same sizes allocates nothing."""
    import gc

    from parmst._cuda import pool as cuda_pool

    pool = cuda_pool.device_pool()
    graphs = [random_graph(20 + i, n, m, dtype) for i, ((n, m), dtype)
              in enumerate([(SIZES[1], "int32"), (SIZES[0], "float64"), (SIZES[1], "float64"),
                            (SIZES[0], "int32")])]
    poisoned = 0
    for graph in graphs + graphs[::-1]:
        poisoned += poison_idle_buffers()
        assert_exact(graph, "ecl/gpu", keys=keys, **BLOCK)
    assert poisoned
    graphs.clear()
    gc.collect()  # the graphs' cached keys go back to the pool
    same_sizes = random_graph(30, *SIZES[1], "int32")
    idle = pool.idle_bytes
    assert_exact(same_sizes, "ecl/gpu", keys=keys, **BLOCK)
    # Every buffer it took was idle and came back, but its keys, cached on the graph.
    held = 8 * same_sizes.num_edges
    assert pool.idle_bytes == idle - held
    from parmst.solvers.gpu import release_buffers

    assert release_buffers() == idle - held and pool.idle_bytes == 0
    assert_exact(same_sizes, "ecl/gpu", keys=keys, **BLOCK)  # allocates afresh
    assert 0 < pool.idle_bytes < idle  # only this size's buffers came back


def test_keys_of_a_freed_graph_go_back_to_the_pool():
    """A graph's cached device keys come from the pool and return to it when the graph goes,
    so a fresh graph of the same edge count allocates none."""
    import gc

    from parmst._cuda import pool as cuda_pool

    pool = cuda_pool.device_pool()
    n, m = SIZES[1]
    graph = random_graph(40, n, m, "int32")
    assert_exact(graph, "ecl/gpu", **BLOCK)
    idle = pool.idle_bytes
    del graph
    gc.collect()
    assert pool.idle_bytes == idle + 8 * m
    assert_exact(random_graph(41, n, m, "int32"), "ecl/gpu", **BLOCK)
    assert pool.idle_bytes == idle + 8 * m  # took the keys, gave them back when dropped


def test_pool_reuses_by_shape_and_dtype_and_frees_beyond_its_cap():
    from parmst._cuda import pool as cuda_pool

    pool = cuda_pool.DevicePool(max_idle_bytes=1000)
    a = pool.take(100, np.int64)
    b = pool.take((2, 50), np.int32)
    assert pool.missing_bytes([(100, np.int64)]) == 800
    pool.give([a, b])
    assert pool.idle_bytes == 1200 - 800  # over the cap: the older size (a) was freed
    assert pool.missing_bytes([((2, 50), np.int32), ((2, 50), np.int32)]) == 400
    assert pool.take((2, 50), np.int32) is b
    assert pool.take((2, 50), np.int32) is not b and pool.idle_bytes == 0
    pool.give([b])
    assert pool.clear() == 400 and pool.idle_bytes == 0


@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("count", [1, 33, 700 if SIMULATOR else 3_000_000])
def test_edge_checks_fold_every_block(dtype, count):
    """Id bounds and NaN count of :func:`~parmst._cuda.edge_scan.edge_checks` (one row
    per block, folded on the host) against NumPy, with extremes in the last items."""
    from numba import cuda

    from parmst._cuda import edge_scan

    rng = np.random.default_rng(count)
    src = rng.integers(5, 1000, count).astype(dtype)
    dst = rng.integers(5, 1000, count).astype(dtype)
    src[-1], dst[-1] = -7, 2**30
    weight = rng.random(count)
    weight[rng.random(count) < 0.1] = np.nan
    weight[-1] = np.nan
    d = cuda.to_device
    assert edge_scan.edge_checks(d(src), d(dst), d(weight)) == (
        -7, 2**30, int(np.isnan(weight).sum()))
    assert edge_scan.edge_checks(d(src), d(dst), None) == (-7, 2**30, 0)
