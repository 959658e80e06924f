"""Graphs generated on the device equal the host's: numba-cuda's simulator (CI) or a real GPU.

Not collected by a plain ``pytest`` run (the name does not start with
``test_``): ``test_device.py`` runs this file in a subprocess with
``NUMBA_ENABLE_CUDASIM=1``; on a GPU machine run it with
``PARMST_REQUIRE_GPU=1 pytest tests/generators/device_cases.py``, where the
sizes grow (every simulated thread is a Python thread, so there they are tiny).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import parmst
from parmst._cuda import runtime
from parmst.errors import GraphValueError
from parmst.generators.device import generate, generate_parts

SIMULATOR = runtime.simulator_active()
_PROBE = runtime.probe()
REQUIRED = os.environ.get("PARMST_REQUIRE_GPU") == "1"

pytestmark = pytest.mark.skipif(_PROBE is not True and not REQUIRED,
                                reason=f"GPU generation cannot run: {_PROBE}")

# Every device family, with int, float (levels too) and unique weights among them.
SPECS = ["rmat:scale=5,edge_factor=4,seed=1",
         "kronecker:scale=4,edge_factor=4,seed=2,weights=unique",
         "random-degree:n=40,degree=3,seed=3,weights=float",
         "seed000-sparse:n=30,m=50,seed=4",
         "seed000-sparse:n=30,m=50,seed=4,weights=int,max_weight=5",
         "grid2d:side=6,seed=5,weights=float,max_weight=9",
         "road:side=8,seed=6",
         "road:side=8,seed=6,weights=float"] if SIMULATOR else [
         "rmat:scale=18,seed=1", "kronecker:scale=16,seed=2,weights=unique",
         "random-degree:n=200000,seed=3,weights=float", "seed000-sparse:size=medium,seed=4",
         "grid2d:side=700,seed=5,weights=float,max_weight=9", "road:side=1000,seed=6",
         "road:side=1000,seed=6,weights=float", "road:side=600,seed=7,weights=unique"]
COLUMNS = ("src", "dst", "weight")


def _assert_same(host: parmst.Graph, columns: list[np.ndarray], what: str) -> None:
    for name, got in zip(COLUMNS, columns, strict=True):
        want = getattr(host, name)
        assert got.dtype == want.dtype, (what, name, got.dtype, want.dtype)
        np.testing.assert_array_equal(got, want, err_msg=f"{what}: {name}")


@pytest.mark.parametrize("spec", SPECS)
def test_device_graph_and_parts_equal_the_host_graph(spec):
    host = parmst.generate(spec)
    graph = parmst.generate(spec, device=0)
    assert graph.is_on_device and graph.num_vertices == host.num_vertices
    _assert_same(host, [graph.src, graph.dst, graph.weight], spec)
    # Three parts on one device: id ranges in order, global ids, the whole graph's m.
    parts = generate_parts(spec, [0, 0, 0])
    assert [p.first_id for p in parts] == [0, parts[0].count, parts[0].count + parts[1].count]
    assert all(p.num_edges == host.num_edges and p.num_vertices == host.num_vertices
               and p.device == 0 for p in parts)
    _assert_same(host, [np.concatenate([getattr(p.edges, c).copy_to_host() for p in parts])
                        for c in COLUMNS], f"{spec} in parts")


def test_one_part_is_the_whole_graph():
    spec = SPECS[0]
    (part,) = generate_parts(spec, ["cuda"])
    assert part.first_id == 0 and part.count == part.num_edges
    _assert_same(parmst.generate(spec), [getattr(part.edges, c).copy_to_host()
                                         for c in COLUMNS], spec)


def test_device_graph_solves_like_the_host_graph():
    spec = SPECS[0]
    forest = parmst.minimum_spanning_forest(generate(spec, "cuda"), solver="ecl/gpu")
    want = parmst.minimum_spanning_forest(parmst.generate(spec), solver="kruskal/serial")
    np.testing.assert_array_equal(np.sort(forest.edge_ids), np.sort(want.edge_ids))


def test_too_little_device_memory_is_refused_naming_the_size(monkeypatch):
    monkeypatch.setenv("PARMST_MEMORY_LIMIT", "1K")
    for spec in (SPECS[0], SPECS[5]):
        with pytest.raises(GraphValueError, match=r"needs .* of GPU memory on device 0 but "
                                                  r"1\.00 KiB is free"):
            generate(spec, 0)


@pytest.mark.parametrize(("spec", "devices", "message"), [
    ("delaunay:n=50", [0], "cannot be generated on a GPU; families that can: rmat"),
    ("rmat:scale=-1", [0], "scale must be at least 0"),
    ("rmat:scale=5", [], "devices must be a non-empty list"),
    ("rmat:scale=5", [-1], "device must be a CUDA device number"),
    ("rmat:scale=5", "0", "devices must be a non-empty list"),
    ("rmat:scale=5", [0, 99], "device 99 is not visible: this process sees"),
])
def test_bad_specs_and_devices_raise_one_clear_error(spec, devices, message):
    with pytest.raises(GraphValueError, match=message):
        generate_parts(spec, devices)
