"""ecl/multigpu's host side: device plans, probe reasons, splits, and the whole driver.

No GPU is needed: the driver tests replace ``ecl/gpu``'s solve with
``kruskal/serial``'s and the device switch with a no-op, so the split, the
id mapping, the merge, the statistics and the one-thread-per-device path
(two fake devices) run on the CPU. The kernels themselves run under the
simulator (``tests/solvers/gpu/multigpu_cases.py``) and on real GPUs.
"""

from __future__ import annotations

import contextlib
import importlib.util
import threading
import types

import numpy as np
import pytest

import parmst
from parmst import registry
from parmst.stats import Stats

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                reason="numba-cuda is not installed (pip install 'parmst[gpu]')")


@pytest.fixture
def machine(monkeypatch):
    """Pretend this process sees ``count`` real CUDA devices; returns a setter."""
    from parmst._cuda import runtime
    from parmst.solvers.multigpu import _devices

    def set_devices(count: int) -> None:
        monkeypatch.setattr(runtime, "probe", lambda: True)
        monkeypatch.setattr(runtime, "simulator_active", lambda: False)
        monkeypatch.setattr(_devices, "visible_devices",
                            lambda: [f"cuda:{d} Fake GPU" for d in range(count)])

    return set_devices


@pytest.fixture
def cpu_standin(monkeypatch, machine):
    """Run the driver on the CPU: kruskal/serial for ecl/gpu, host arrays in the simulator's
    device-array wrapper for device memory, NumPy for the gather and sort kernels, no device
    switching; returns the (device, thread name) pairs the parts ran on."""
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

    from parmst._cuda import runtime
    from parmst.solvers.multigpu import _devices
    from parmst.solvers.multigpu import ecl as multigpu
    from parmst.solvers.serial import kruskal

    seen = []
    current = threading.local()

    @contextlib.contextmanager
    def on_device(device):
        current.device = device
        yield

    def ecl_solve(graph, stats, keys):
        assert keys in ("auto", "two-pass") and graph.is_on_device
        seen.append((current.device, threading.current_thread().name))
        with stats.compute():
            return FakeCUDAArray(np.sort(kruskal.solve(graph, Stats())))  # ascending, as ecl/gpu

    def host(a):
        return a.copy_to_host()

    kernels = types.SimpleNamespace(
        gather=lambda values, index: FakeCUDAArray(host(values)[host(index)]),
        shift=lambda values, amount: FakeCUDAArray(host(values) + amount),
        radix_order=lambda keys, bits: FakeCUDAArray(np.argsort(host(keys), kind="stable")))
    monkeypatch.setattr(multigpu, "on_device", on_device)
    monkeypatch.setattr(_devices, "on_device", on_device)
    # The stand-in's devices are not real ones: never ask the driver about peer access.
    monkeypatch.setattr(_devices, "_can_access_peer", lambda target, source: False)
    monkeypatch.setattr(multigpu.ecl, "solve", ecl_solve)
    monkeypatch.setattr(multigpu, "arrays", kernels)
    monkeypatch.setattr(multigpu, "cuda", types.SimpleNamespace(
        device_array=lambda count, dtype: FakeCUDAArray(np.empty(count, dtype))))
    monkeypatch.setattr(runtime, "to_device", lambda a: FakeCUDAArray(np.array(a)))
    monkeypatch.setattr(runtime, "synchronize", lambda: None)
    monkeypatch.setattr(multigpu, "visible_devices",
                        lambda: [f"cuda:{d} Fake GPU" for d in range(4)])
    monkeypatch.setattr(multigpu, "memory_info", lambda device, reclaim=False: (float("inf"), float("inf")))
    machine(4)
    return seen


def test_registered_as_the_multigpu_backend_with_device_options():
    solver = registry.get("ecl/multigpu")
    assert solver.backend == "multigpu" and solver.requires == ("numba_cuda",)
    assert solver.probe_options == ("devices", "parts")
    assert solver.options == {"devices": None, "parts": None, "split": "edges", "keys": "auto"}


def test_one_device_is_not_enough_without_parts(machine):
    from parmst.solvers.multigpu import _devices

    machine(1)
    reason = registry.get("ecl/multigpu").can_run()
    assert "sees 1 CUDA device (cuda:0 Fake GPU)" in reason and "parts=2" in reason
    assert parmst.available_solvers()["ecl/multigpu"] == reason
    assert registry.get("ecl/multigpu").can_run(None, {"parts": 2}) is True
    assert _devices.plan(None, 2) == _devices.Plan((0,), 2)
    machine(2)
    assert registry.get("ecl/multigpu").can_run(None, {"devices": [1]}).startswith(
        "devices=[1] names one device (cuda:1 Fake GPU)")
    assert registry.get("ecl/multigpu").can_run() is True
    assert _devices.plan() == _devices.Plan((0, 1), 2)
    assert _devices.plan([1], 3).device_of(2) == 1


def test_no_device_at_all_is_a_reason(machine):
    machine(0)
    assert "sees 0 CUDA devices (none)" in registry.get("ecl/multigpu").can_run()


def test_a_device_this_machine_lacks_is_a_reason(machine):
    machine(2)
    reason = registry.get("ecl/multigpu").can_run(None, {"devices": [0, 2]})
    assert reason == "device 2 is not visible: this process sees 2 CUDA devices (ids 0..1)"


@pytest.mark.parametrize("options, message", [
    ({"parts": 1}, "parts must be an integer of at least 2"),
    ({"parts": True}, "parts must be"),
    ({"devices": "01"}, "devices must be a non-empty list"),
    ({"devices": []}, "devices must be a non-empty list"),
    ({"devices": [0, 0]}, "device 0 is listed twice"),
    ({"devices": [-1]}, "device ids are non-negative integers"),
])
def test_malformed_options_raise_one_value_error(machine, options, message):
    machine(2)
    graph = parmst.Graph.from_edges([0], [1], [1.0])
    with pytest.raises(ValueError, match=message):
        parmst.minimum_spanning_forest(graph, "ecl/multigpu", **options)


def test_unknown_split_is_a_value_error(cpu_standin):
    from parmst.solvers.multigpu import ecl as multigpu

    with pytest.raises(ValueError, match="split must be one of"):
        multigpu.solve(parmst.Graph.from_edges([0], [1], [1.0]), Stats(), split="rows")


@pytest.mark.parametrize("spec", ["rmat:scale=10,seed=3", "grid2d:side=30,seed=1",
                                  "seed000-sparse:size=small,seed=2", "road:side=25,seed=4"])
@pytest.mark.parametrize("options", [{"parts": 2}, {"parts": 5, "split": "bfs"},
                                     {"devices": [0, 1]}, {"devices": [2, 0, 1], "parts": 4},
                                     {"devices": [1, 3], "split": "blocks", "keys": "two-pass"}],
                         ids=str)
def test_driver_gives_the_exact_forest(cpu_standin, spec, options):
    from parmst.solvers.multigpu import ecl as multigpu

    graph = parmst.generate(spec)
    expected = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids
    stats = Stats()
    got = multigpu.solve(graph, stats, **options)
    np.testing.assert_array_equal(got, expected)  # ascending global ids, as every solver
    devices = options.get("devices", [0, 1, 2, 3])
    parts = options.get("parts", len(devices))
    # Each part ran on devices[p % len(devices)] (threads: in any order), then the merge.
    assert sorted(d for d, _ in cpu_standin[:-1]) == sorted(devices[p % len(devices)]
                                                            for p in range(parts))
    assert cpu_standin[-1][0] == devices[0]
    extra = stats.extra
    assert extra["parts"] == parts and extra["merge_edges"] >= len(expected)
    used = list(dict.fromkeys(devices[p % len(devices)] for p in range(parts)))
    assert stats.device == ", ".join(f"cuda:{d} Fake GPU" for d in devices if d in used)
    assert 0 <= extra["merge_share"] <= 1 and 0 <= extra["merge_compute_share"] <= 1
    assert set(stats.phases) == {"split", "local", "exchange", "merge"}
    for d in {devices[p % len(devices)] for p in range(parts)}:
        assert extra[f"local_time_gpu{d}"] >= extra[f"local_compute_time_gpu{d}"] >= 0
    assert sum(extra[f"part{p}_edges"] for p in range(parts)) \
        + extra["crossing_edges"] == graph.num_edges
    assert extra["end_to_end_time"] == pytest.approx(stats.total_time + extra["copy_back_time"])


def test_devices_each_get_their_own_host_thread(cpu_standin):
    from parmst.solvers.multigpu import ecl as multigpu

    graph = parmst.generate("rmat:scale=8,seed=1")
    multigpu.solve(graph, Stats(), devices=[0, 1], parts=4)
    # (Thread names, not idents: an ident may be reused once a thread has ended.)
    assert sorted(cpu_standin[:-1]) == [(0, "ecl-multigpu-gpu0")] * 2 \
        + [(1, "ecl-multigpu-gpu1")] * 2
    assert cpu_standin[-1] == (0, threading.current_thread().name)  # the merge, here


def test_an_empty_graph_and_more_parts_than_edges(cpu_standin):
    from parmst.solvers.multigpu import ecl as multigpu

    assert multigpu.solve(parmst.Graph.from_edges([], [], [], num_vertices=3), Stats(),
                          parts=2).tolist() == []
    graph = parmst.Graph.from_edges([0, 1], [1, 2], [5, 5])
    assert sorted(multigpu.solve(graph, Stats(), parts=6).tolist()) == [0, 1]


def test_an_error_on_one_device_reaches_the_caller(cpu_standin, monkeypatch):
    from parmst.errors import SolverUnavailable
    from parmst.solvers.multigpu import ecl as multigpu

    kruskal_standin = multigpu.ecl.solve

    def fails_on_device_one(graph, stats, keys):
        if threading.current_thread().name.endswith("gpu1"):
            raise SolverUnavailable("ecl/gpu needs 9.00 GiB of device memory")
        return kruskal_standin(graph, stats, keys)

    monkeypatch.setattr(multigpu.ecl, "solve", fails_on_device_one)
    with pytest.raises(SolverUnavailable, match="9.00 GiB"):
        multigpu.solve(parmst.generate("rmat:scale=6,seed=1"), Stats(), devices=[0, 1])


@pytest.mark.parametrize("peer, path", [(False, "host"), (True, "peer")])
def test_transfer_path_between_devices(monkeypatch, peer, path):
    """Peer copies where the devices can access each other, else host staging; the same
    device is a plain device copy (the driver is never asked)."""
    from parmst.solvers.multigpu import _devices

    asked = []
    monkeypatch.setattr(_devices, "_can_access_peer",
                        lambda target, source: asked.append((target, source)) or peer)
    assert _devices.transfer_path(1, 0) == path
    assert _devices.transfer_path(1, 1) == "device"
    assert asked == [(0, 1)]


@pytest.mark.parametrize("devices, recorded", [([0], "device"), ([0, 1], "device+host")])
def test_the_transfer_path_taken_is_recorded(cpu_standin, monkeypatch, devices, recorded):
    """Survivors staged through the host (no peer access here) still give the exact forest."""
    from parmst.solvers.multigpu import ecl as multigpu

    graph = parmst.generate("rmat:scale=9,seed=4")
    stats = Stats()
    got = multigpu.solve(graph, stats, devices=devices, parts=3, split="bfs")
    np.testing.assert_array_equal(
        got, parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids)
    assert stats.extra["transfer"] == recorded


def test_each_device_loads_its_own_kernel_image(monkeypatch):
    """The first device loads numba-cuda's shared image, every other device a copy of its
    bytes (each unloaded once at exit); loading holds the compiler lock; patched once."""
    import cuda.core as cuda_core
    from numba.cuda import codegen
    from numba.cuda.core.compiler_lock import _numba_cuda_compiler_lock
    from numba.cuda.cudadrv import devices

    from parmst.solvers.multigpu._devices import load_kernels_per_device

    shared = types.SimpleNamespace(code=b"\x7fELF cubin bytes", name="kernel")
    current = types.SimpleNamespace(device=types.SimpleNamespace(id=0))
    locked = []

    def load(self):
        locked.append(_numba_cuda_compiler_lock._lock._is_owned())
        image = codegen.CUDACodeLibrary.get_cubin(self)
        self._cufunc_cache[current.device.id] = image
        return image

    monkeypatch.setattr(codegen.CUDACodeLibrary, "get_cubin", lambda self, cc=None: shared)
    monkeypatch.setattr(codegen.CUDACodeLibrary, "get_cufunc", load)
    monkeypatch.setattr(devices, "get_context", lambda: current)
    monkeypatch.setattr(cuda_core, "ObjectCode", types.SimpleNamespace(
        from_cubin=lambda code, name: types.SimpleNamespace(code=code, name=name)))
    load_kernels_per_device()
    load_kernels_per_device()
    library = types.SimpleNamespace(_cufunc_cache={}, _ensure_cc=lambda cc: (9, 0))
    first = codegen.CUDACodeLibrary.get_cufunc(library)
    current.device.id = 1
    second = codegen.CUDACodeLibrary.get_cufunc(library)
    assert first is shared and second is not shared and second.code == shared.code
    assert codegen.CUDACodeLibrary.get_cubin(library) is second  # device 1 keeps its copy
    current.device.id = 0
    assert codegen.CUDACodeLibrary.get_cubin(library) is shared
    assert locked == [True, True]
