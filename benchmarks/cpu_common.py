"""Timing helpers shared by the cpu_* benchmark scripts (not a test, not library code).

A solver's time is its own initialization plus computation from
``Forest.stats`` with the graph's cached views cleared first (so building
the CSR view counts, every run), as in ``serial_vs_scipy.py``. SciPy's is
the whole ``minimum_spanning_tree`` call on a CSR matrix built outside the
timer. Repeats go round-robin over the runners, so load from other
processes falls on all of them alike.
"""

from __future__ import annotations

import math
import platform
import statistics
import time
from collections.abc import Callable

import numba
import numpy as np

import parmst

CPU_SOLVERS = ["ecl/cpu", "boruvka-edge/cpu", "genboruvka/cpu", "filter-kruskal/cpu",
               "prim-dense/cpu"]
DENSE_PRIM_MAX_VERTICES = 4096  # dense Prim only where the n*n key matrix stays small


def solver_run(graph: parmst.Graph, solver: str, **options) -> Callable[[], tuple[float, object]]:
    """A runner: ``() -> (seconds, forest)`` for one solver on one graph."""

    def run() -> tuple[float, object]:
        graph.clear_cache()
        forest = parmst.minimum_spanning_forest(graph, solver=solver, **options)
        return forest.stats.total_time, forest

    return run


def scipy_run(graph: parmst.Graph) -> Callable[[], tuple[float, float]]:
    """A runner for SciPy's minimum_spanning_tree: ``() -> (seconds, total weight)``."""
    from scipy.sparse import csgraph

    matrix = graph.to_scipy()

    def run() -> tuple[float, float]:
        start = time.perf_counter()
        tree = csgraph.minimum_spanning_tree(matrix)
        return time.perf_counter() - start, float(tree.sum())

    return run


def medians(runners: dict[str, Callable], repeats: int) -> tuple[dict[str, float], dict]:
    """Warm up every runner once (compiles), then the median of ``repeats`` round-robin runs."""
    results = {name: run()[1] for name, run in runners.items()}
    times: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeats):
        for name, run in runners.items():
            times[name].append(run()[0])
    return {name: statistics.median(t) for name, t in times.items()}, results


def geomean(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def environment(machine: str) -> str:
    """One line naming the machine and the software versions (call after a parallel run)."""
    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        layer = "not started"
    return (f"Machine: {machine}; {platform.processor() or platform.machine()}, "
            f"Python {platform.python_version()}, NumPy {np.__version__}, "
            f"Numba {numba.__version__} (threading layer: {layer}).")
