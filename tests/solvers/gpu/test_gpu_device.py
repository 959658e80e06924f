"""GPU paths that only a real device runs: the warp intrinsics, at sizes that fill warps.

numba-cuda's simulator has no ``ballot_sync``/``shfl_sync``, so there every
kernel takes its thread-only path (``_kernels.WARP_INTRINSICS`` is false).
These tests run the warp paths: ECL-MST's hybrid initialization (a warp per
vertex of degree >= 4), the warp-aggregated worklist reservation of every
edge-centric kernel, genboruvka's run-aggregated ``atomicAdd``, and the exact key
route for keys that do not pack (``ecl/gpu``'s two-pass atomicMin, the others' device
sort) of every GPU solver on graphs larger than the simulator takes.

Without a CUDA device they skip, naming why. On the GPU machine
``benchmarks/gpu_device_run.sh`` sets ``PARMST_REQUIRE_GPU=1``, which makes a
missing device a failure instead, and fails unless every test here passed.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import parmst
from parmst._cuda import runtime

try:  # the kernel source of the packed-launch test reads ``cuda`` as a global
    from numba import cuda
except ImportError:  # no numba-cuda: every test here skips
    cuda = None

REQUIRED = os.environ.get("PARMST_REQUIRE_GPU") == "1"
_PROBE = runtime.probe()
ON_DEVICE = _PROBE is True and not runtime.simulator_active()
_WHY_NOT = "the CUDA simulator has no warp intrinsics" if runtime.simulator_active() \
    else f"no real GPU: {_PROBE}"

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not ON_DEVICE and not REQUIRED,
                       reason=f"{_WHY_NOT} (PARMST_REQUIRE_GPU=1 makes this a failure)"),
]
GPU_SOLVERS = ["ecl/gpu", "boruvka-edge/gpu", "genboruvka/gpu", "prim-dense/gpu"]


def _exact_route(solver: str) -> str:
    return "two-pass" if solver == "ecl/gpu" else "rank"


def _assert_exact(graph: parmst.Graph, solver: str, **options) -> parmst.Forest:
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    forest = parmst.minimum_spanning_forest(graph, solver, **options)
    np.testing.assert_array_equal(forest.edge_ids, expected, err_msg=f"{solver} {options}")
    return forest


def _star_with_chords(leaves: int, seed: int) -> parmst.Graph:
    """A hub of degree ``leaves`` (one warp walks it) plus random chords among the leaves."""
    rng = np.random.default_rng(seed)
    src = np.concatenate([np.zeros(leaves, np.int64), rng.integers(1, leaves + 1, leaves)])
    dst = np.concatenate([np.arange(1, leaves + 1), rng.integers(1, leaves + 1, leaves)])
    return parmst.Graph.from_edges(src, dst, rng.integers(0, 50, 2 * leaves).astype(np.int32))


def _random_graph(seed: int, n: int, m: int, dtype: str) -> parmst.Graph:
    rng = np.random.default_rng(seed)
    weight = rng.integers(-50, 50, m).astype(dtype)
    return parmst.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), weight,
                                   num_vertices=n)


def test_a_real_device_runs_the_warp_paths():
    from parmst.solvers.gpu import _kernels

    assert ON_DEVICE, f"PARMST_REQUIRE_GPU=1 but {_WHY_NOT}"
    assert _kernels.WARP_INTRINSICS
    assert runtime.device_name().startswith("cuda:")


@pytest.mark.parametrize("keys", ["auto", "two-pass"])
@pytest.mark.parametrize("init", ["hybrid", "thread", "edge"])
def test_ecl_hybrid_warp_initialization_on_a_hub(init, keys):
    """The hub (degree 20,000) goes to a whole warp under ``init="hybrid"``; leaves of
    degree < 4 to single threads; the other inits are the references."""
    graph = _star_with_chords(20_000, seed=5)
    degree = np.diff(graph.csr().indptr)
    assert degree.max() >= 20_000 and (degree >= 4).sum() < len(degree) // 2
    forest = _assert_exact(graph, "ecl/gpu", init=init, keys=keys)
    assert forest.stats.extra["key_method"] == ("two-pass" if keys == "two-pass" else "packed")


@pytest.mark.parametrize("keys", ["auto", "exact"])
@pytest.mark.parametrize("solver", ["ecl/gpu", "boruvka-edge/gpu", "genboruvka/gpu"])
def test_warp_aggregated_reservations_on_a_large_multigraph(solver, keys):
    """Every worklist/entry kernel reserves slots per block (warp ballots summed in shared
    memory, one atomicAdd), per warp (ballot + one atomicAdd) or per run of equal targets on
    400,000 edges: full and partial blocks and warps, many rounds, parallel edges, self-loops
    and ties."""
    graph = _random_graph(3, 50_000, 400_000, "int64")
    keys = _exact_route(solver) if keys == "exact" else keys
    forest = _assert_exact(graph, solver, keys=keys)
    assert forest.stats.rounds >= 2
    assert forest.stats.extra["key_method"] == ("packed" if keys == "auto" else keys)


def test_ecl_auto_launch_hands_over_on_the_device():
    """Per-round launches for the first rounds, the cooperative grid after, in one solve.

    A grid with random weights: the edges between components shrink round by round
    (a random graph can jump from many crossing edges to none), so some rounds fall
    below the hand-over size.
    """
    side = 400
    ids = np.arange(side * side).reshape(side, side)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    weight = np.random.default_rng(4).random(len(src)).astype(np.float32)
    graph = parmst.Graph.from_edges(src, dst, weight)
    forest = _assert_exact(graph, "ecl/gpu", filter=False, persistent_below=len(src) // 4)
    sizes = forest.stats.worklist_sizes
    assert sizes[0] >= len(src) // 4 > sizes[-1]
    assert 1 <= forest.stats.extra["persistent_rounds"] < forest.stats.rounds


@pytest.mark.parametrize("keys", ["auto", "rank"])
def test_prim_dense_block_reduction_of_1024_threads(keys):
    """Pugliese's shared-memory reduction with 1,024-thread blocks (the simulator gets 32)
    over several blocks, on a forest of two dense parts and an isolated vertex."""
    rng = np.random.default_rng(6)
    n = 3000
    src = np.concatenate([rng.integers(0, 1500, 20_000), rng.integers(1500, n - 1, 20_000)])
    dst = np.concatenate([rng.integers(0, 1500, 20_000), rng.integers(1500, n - 1, 20_000)])
    graph = parmst.Graph.from_edges(src, dst, rng.integers(0, 9, 40_000).astype(np.float64),
                                    num_vertices=n)
    forest = _assert_exact(graph, "prim-dense/gpu", keys=keys)
    assert forest.stats.rounds == forest.num_components == 3


def test_kernels_compile_once_per_machine(tmp_path):
    """``cache=True``: a second process loads the compiled kernels instead of compiling them,
    and either way the cost is booked as ``compile_time``, apart from compute."""
    import subprocess
    import sys

    code = ("import numpy as np, parmst\n"
            "g = parmst.Graph.from_edges(np.arange(999), np.arange(1, 1000), np.arange(999) % 7)\n"
            "s = parmst.minimum_spanning_forest(g, 'ecl/gpu').stats\n"
            "print(s.compile_time, s.compute_time)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [[float(x) for x in subprocess.run([sys.executable, "-c", code], env=env,
                                               capture_output=True, text=True, check=True,
                                               timeout=300).stdout.split()[-2:]]
            for _ in range(2)]
    (first_compile, first_compute), (second_compile, second_compute) = runs
    assert any(p.suffix == ".nbi" and "ecl" in p.name for p in tmp_path.rglob("*")), \
        "no kernel cache index of ecl.py was written"
    assert second_compile < first_compile / 3, runs
    assert first_compute < first_compile and second_compute < 1.0, runs


@pytest.mark.parametrize("library", ["cupy", "torch"])
def test_graph_from_cupy_or_torch_stays_on_the_device(library):
    """CuPy arrays and PyTorch CUDA tensors in, ids of the same kind out, nothing on the host."""
    module = pytest.importorskip(library, reason=f"{library} is not installed")
    graph = _random_graph(12, 20_000, 160_000, "float64")
    if library == "cupy":
        arrays = [module.asarray(a) for a in (graph.src, graph.dst, graph.weight)]
    else:
        arrays = [module.as_tensor(a, device="cuda") for a in (graph.src, graph.dst, graph.weight)]
    on_device = parmst.Graph.from_edges(*arrays, num_vertices=graph.num_vertices)
    forest = parmst.minimum_spanning_forest(on_device, "ecl/gpu")
    assert on_device._host is None
    ids = forest.edge_ids_device
    assert type(ids).__module__.split(".")[0] == library
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial")
    host_ids = ids.get() if library == "cupy" else ids.cpu().numpy()
    np.testing.assert_array_equal(host_ids, expected.edge_ids)
    assert forest.total_weight == expected.total_weight


def _shifted_copy(out, values, grid2d, flag, offset, scale, wide, empty):
    """Every kind of argument a packed launch writes: 1-D and 2-D arrays of several dtypes,
    an empty array, a bool, Python and NumPy integers and floats."""
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        v = values[i] * scale + offset + grid2d[i % grid2d.shape[0], i % grid2d.shape[1]]
        if flag:
            v += wide
        out[i] = v + empty.shape[0]


def test_packed_launches_match_the_dispatcher_and_skip_it(monkeypatch):
    """A launch through :func:`runtime.launch` (its parameter block packed once, scalars and
    changed arrays rewritten in place) gives what the dispatcher's launch gives, for every
    kind of argument, and never calls the dispatcher once the block is built."""
    from numba.cuda import dispatcher

    from parmst._cuda import packed

    kernel = cuda.jit(_shifted_copy)
    rng = np.random.default_rng(7)
    values = [cuda.to_device(rng.random(1000)) for _ in range(2)]
    grid2d = cuda.to_device(rng.integers(0, 9, (7, 5)).astype(np.int32))
    empty = cuda.device_array(0, np.int64)
    calls = [(values[0], True, 3, 2.5, np.uint64(2**40)), (values[1], False, -4, 0.5,
                                                              np.uint64(1)),
             (values[0], True, np.int64(9), 1.25, np.uint64(2**63 + 5))]
    expected = []
    for v, flag, offset, scale, wide in calls:
        out = cuda.device_array(1000, np.float64)
        kernel[(4, 64)](out, v, grid2d, flag, offset, scale, wide, empty)
        expected.append(out.copy_to_host())
    runtime.launch(kernel, (4, 64), cuda.device_array(1000, np.float64), values[0], grid2d,
                   True, 1, 1.0, np.uint64(0), empty)  # builds the blocks
    monkeypatch.setattr(dispatcher.CUDADispatcher, "call",
                        lambda *a, **k: pytest.fail("a launch went through the dispatcher"))
    out = cuda.device_array(1000, np.float64)
    for (v, flag, offset, scale, wide), want in zip(calls, expected):
        runtime.launch(kernel, (3, 96), out, v, grid2d, flag, offset, scale, wide, empty)
        np.testing.assert_array_equal(out.copy_to_host(), want)
    assert len(packed._BLOCKS[kernel]) == 2  # Python and NumPy integer offsets: two signatures


def test_a_repeated_device_call_copies_nothing_in_and_packs_every_launch(monkeypatch):
    """A graph built again from the same device arrays and solved, the ids left on the
    device: no host-to-device copy (values the kernels need are arguments or computed there),
    no device allocation (the graph's copies, its keys and the forest's ids are lent by the
    pool, and pooled memory that a previous call's forest held came back), no launch through
    numba's dispatcher, ten launches and two waits in all, and the forest exact."""
    from numba.cuda import dispatcher
    from numba.cuda.cudadrv import driver

    host = _random_graph(13, 50_000, 400_000, "int32")
    arrays = [cuda.to_device(a) for a in (host.src, host.dst, host.weight)]

    def call():
        graph = parmst.Graph.from_edges(*arrays, num_vertices=host.num_vertices)
        return parmst.minimum_spanning_forest(graph, "ecl/gpu").edge_ids_device

    call()
    copies_in, allocations = [], []
    real_copy, real_alloc = driver.host_to_device, driver.Context.memalloc
    monkeypatch.setattr(driver, "host_to_device",
                        lambda *a, **k: (copies_in.append(a[2]), real_copy(*a, **k))[1])
    monkeypatch.setattr(driver.Context, "memalloc",
                        lambda self, size: (allocations.append(size), real_alloc(self, size))[1])
    monkeypatch.setattr(dispatcher.CUDADispatcher, "call",
                        lambda *a, **k: pytest.fail("a launch went through the dispatcher"))
    with runtime.tally() as counts:
        ids = call()
    monkeypatch.undo()
    assert copies_in == [] and allocations == []
    assert counts == {"launches": 10, "dispatched": 0, "host_syncs": 2, "allocations": 0}
    expected = parmst.minimum_spanning_forest(host, "kruskal/serial").edge_ids
    np.testing.assert_array_equal(ids.copy_to_host(), expected)


def test_lent_device_memory_goes_back_to_the_pool_with_its_last_view():
    """On a GPU a lent array's memory is numba-cuda's reference-counted pointer over a pooled
    buffer: it returns to the pool when the array and its views are gone, not before, and its
    contents are the buffer's."""
    import gc

    from parmst._cuda import pool as cuda_pool

    gc.collect()  # arrays earlier tests left to the collector go back now, not in the middle
    pool = cuda_pool.device_pool()
    lent = cuda_pool.lend(1013, np.int64)
    lent.copy_to_device(np.arange(1013))
    view = lent[10:20]
    idle = pool.idle_bytes
    del lent
    gc.collect()
    assert pool.idle_bytes == idle
    np.testing.assert_array_equal(view.copy_to_host(), np.arange(10, 20))
    del view
    gc.collect()
    assert pool.idle_bytes == idle + 8 * 1013
    again = cuda_pool.lend(1013, np.int64)
    assert pool.idle_bytes == idle
    np.testing.assert_array_equal(again.copy_to_host(), np.arange(1013))
