"""Compile every kernel a solver can need ahead of time, filling Numba's on-disk cache.

A solver's kernels are compiled on their first call in a fresh environment
(seconds each) and loaded from Numba's cache afterwards. :func:`warmup`
runs each runnable solver on small graphs shaped to reach every code path
the solvers choose between at run time (each weight dtype, packed and
two-pass keys, filtering), each point-set solver on small point sets (float64
and float32 coordinates, the Euclidean and the mutual-reachability tree), and
the independent verifiers once, so that later calls on real data start warm.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np

__all__ = ["warmup"]

# Vertices and edges of the warm-up graphs: average degree 8, so the solvers'
# filtering paths (taken from average degree 4) compile as well.
_VERTICES = 256
_EDGES = 2048
# Points of the warm-up point sets: more than a k-d tree leaf, so the tree's searches
# compile; min_samples of the mutual-reachability warm-up.
_POINTS = 512
_MIN_SAMPLES = 5


def _warmup_graphs():
    """One small graph per weight dtype, plus float64 weights too wide to pack with their ids."""
    from parmst.graph import Graph

    rng = np.random.default_rng(0)
    src = rng.integers(0, _VERTICES, _EDGES)
    dst = rng.integers(0, _VERTICES, _EDGES)
    draws = rng.integers(-1000, 1000, _EDGES)
    graphs = [Graph.from_edges(src, dst, draws.astype(dtype), num_vertices=_VERTICES)
              for dtype in (np.int32, np.int64, np.float32, np.float64)]
    wide = draws * 1.000001 * np.where(draws % 2 == 0, 1e300, 1e-300)
    graphs.append(Graph.from_edges(src, dst, wide, num_vertices=_VERTICES))
    return graphs


def _warmup_points() -> list[np.ndarray]:
    """Uniform points in the unit cube, with float64 and float32 coordinates."""
    points = np.random.default_rng(0).random((_POINTS, 3))
    return [points, points.astype(np.float32)]


def warmup(backends: Iterable[str] | None = None, progress: bool = True) -> dict[str, float | str]:
    """Compile the kernels of every solver of ``backends`` that can run here.

    Parameters
    ----------
    backends : iterable of str, optional
        Backend names (``"serial"``, ``"cpu"``, ``"gpu"``, ...); all by default.
    progress : bool
        Show a progress bar.

    Returns
    -------
    dict
        Per solver, graph or point-set (and ``"verify"``, ``"verify_points"``), the
        seconds its warm-up took, or why it was skipped.

    Examples
    --------
    >>> report = warmup(["serial"], progress=False)
    >>> isinstance(report["kruskal/serial"], float)
    True
    """
    from tqdm.auto import tqdm

    from parmst import registry
    from parmst.api import minimum_spanning_forest
    from parmst.api_points import euclidean_mst
    from parmst.errors import UnknownOptionError
    from parmst.verify import verify, verify_points

    table = {**registry.solvers(), **registry.solvers("points")}
    wanted = set(backends) if backends is not None else set(registry.BACKENDS)
    unknown = wanted - set(registry.BACKENDS)
    if unknown:
        raise UnknownOptionError(f"unknown backend(s) {', '.join(sorted(unknown))}; "
                                 f"backends: {', '.join(registry.BACKENDS)}")
    graphs, point_sets = _warmup_graphs(), _warmup_points()
    report: dict[str, float | str] = {}
    runnable = []
    for name, solver in table.items():
        if solver.backend not in wanted:
            continue
        ok = solver.can_run()
        if ok is True:
            runnable.append(name)
        else:
            report[name] = f"skipped: {ok}"
    with tqdm(total=len(runnable) + 2, desc="compiling kernels", unit="solver",
              disable=not progress) as bar:
        for name in runnable:
            bar.set_postfix_str(name)
            start = time.perf_counter()
            if table[name].kind == "points":
                for points in point_sets:
                    for min_samples in (None, _MIN_SAMPLES):
                        euclidean_mst(points, solver=name, min_samples=min_samples)
            else:
                for graph in graphs:
                    if table[name].can_run(graph) is True:
                        minimum_spanning_forest(graph, solver=name)
            report[name] = time.perf_counter() - start
            bar.update()
        bar.set_postfix_str("verify")
        start = time.perf_counter()
        for graph in graphs:
            verify(graph, minimum_spanning_forest(graph, solver="kruskal/serial"))
        report["verify"] = time.perf_counter() - start
        bar.update()
        bar.set_postfix_str("verify_points")
        start = time.perf_counter()
        for min_samples in (None, _MIN_SAMPLES):
            tree = euclidean_mst(point_sets[0], min_samples=min_samples)
            verify_points(point_sets[0], tree, min_samples=min_samples)
        report["verify_points"] = time.perf_counter() - start
        bar.update()
    return report
