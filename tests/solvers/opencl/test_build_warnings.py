"""Every OpenCL program builds without compiler warnings (PoCL in CI; any device here).

pyopencl turns a non-empty build log into a ``CompilerWarning``, printed on every
run that builds the program (or loads it from pyopencl's cache, which keeps the log);
a warning in a kernel is noise in the user's terminal and breaks progress bars. The
programs are built through the code that uses them, so each is built with the options
its driver passes.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

import parmst
from parmst import opencl, registry
from parmst._opencl import runtime as _runtime


@pytest.fixture
def compiler_warnings(monkeypatch):
    """The CompilerWarnings of builds in a fresh per-device program cache, log text included."""
    from pyopencl import CompilerWarning

    monkeypatch.setattr(_runtime, "_ENVS", {})
    monkeypatch.setenv("PYOPENCL_COMPILER_OUTPUT", "1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CompilerWarning)
        yield caught


def _graph() -> parmst.Graph:
    rng = np.random.default_rng(4)
    return parmst.Graph.from_edges(rng.integers(0, 300, 2000), rng.integers(0, 300, 2000),
                                   rng.integers(0, 40, 2000).astype(np.int32), num_vertices=300)


def test_solver_and_scan_programs_build_without_warnings(compiler_warnings):
    from pyopencl import CompilerWarning

    from parmst.bench.scan import time_scans
    from parmst.bench.timing import MEDIAN

    graph = _graph()
    for solver in ("ecl/opencl", "segscan-boruvka/opencl"):
        if registry.get(solver).can_run(graph) is True:
            parmst.minimum_spanning_forest(graph, solver=solver)
    values = np.arange(1, 1001)
    heads = np.zeros(1000, dtype=bool)
    heads[::7] = True
    opencl.prefix_scan(values.astype(np.int32))
    opencl.prefix_scan(values.astype(np.float32), op="min")
    opencl.prefix_scan(values.astype(np.float64), op="max", segment_heads=heads)
    opencl.prefix_scan(values.astype(np.uint64), op="min", segment_heads="top-bit")
    time_scans([1], dataclasses.replace(MEDIAN, runs=1))  # the benchmark's multi-pass scan
    logs = [str(w.message) for w in compiler_warnings if issubclass(w.category, CompilerWarning)]
    assert not logs, "\n\n".join(logs)
