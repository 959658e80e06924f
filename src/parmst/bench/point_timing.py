"""Point solvers in the harness: every variant on one point set, warmed up, timed, checked.

A point set's input is its ``(n, d)`` array (and HDBSCAN's ``min_samples``). The
reference tree comes from ``prim-dense/points`` up to :data:`DENSE_POINTS_MAX` points,
from ``boruvka-kdtree/serial`` above (``/cpu`` above :data:`SERIAL_REFERENCE_MAX`),
checked by :func:`parmst.verify_points`. Each
variant's run is the whole public call :func:`parmst.euclidean_mst` (validation, the
solve, the Forest and its ids), interleaved with the other variants' runs as the graph
solvers' are (:func:`parmst.bench.solver_timing.run_interleaved`), and its pair ids must
equal the reference's exactly.

With the ``"device"`` placement (:func:`place_points`) the points are first copied to the
GPU, outside every timing, as a user holding a CuPy array has them: the GPU solver reads
them in place (its record's time is then the whole call from device points, its compute
time the tree build, neighbour lists and rounds), and a host solver is skipped.
"""

from __future__ import annotations

import gc
from functools import partial
from typing import Any

import numpy as np

from parmst.bench.result import GraphInfo, Record
from parmst.bench.solver_timing import _one_run, _Timing, loading_skip_reason, run_interleaved
from parmst.bench.specs import Variant
from parmst.bench.timing import Scheme, clocked

__all__ = ["DENSE_POINTS_MAX", "place_points", "point_info", "point_reference",
           "time_point_solvers"]

DENSE_POINTS_MAX = 20_000
"""Above this many points dense Prim (n^2 / 2 distances) is left out unless named, and the
reference tree comes from the k-d tree's Borůvka instead."""


def point_info(name: str, source: str, points: np.ndarray, min_samples: int | None,
               stands_for: str = "") -> GraphInfo:
    """The report's entry of a point set: ``n`` points as vertices, the ``n - 1`` tree edges
    as edges (so throughput reads as points per second)."""
    n, d = points.shape
    what = f"{n:,} points in {d}-D" + ("" if min_samples is None else
                                       f", mutual reachability, min_samples {min_samples}")
    return GraphInfo(name, source, n, max(n - 1, 0), points.dtype.name,
                     f"{stands_for} ({what})" if stands_for else what)


SERIAL_REFERENCE_MAX = 2_000_000
"""Above this many points the reference tree comes from ``boruvka-kdtree/cpu`` on every
core (the serial solver's rounds on more threads: the same pairs, a 37 M-point set in
seconds rather than minutes)."""


def reference_solver(n: int) -> str:
    """The solver of a point set's reference tree."""
    if n <= DENSE_POINTS_MAX:
        return "prim-dense/points"
    return "boruvka-kdtree/serial" if n <= SERIAL_REFERENCE_MAX else "boruvka-kdtree/cpu"


def point_reference(points: np.ndarray, min_samples: int | None, info: GraphInfo) -> np.ndarray:
    """The reference tree's pair ids, checked by :func:`parmst.verify_points`; its figures go
    into ``info``."""
    import parmst

    tree = parmst.euclidean_mst(points, solver=reference_solver(len(points)),
                                min_samples=min_samples)
    verdict = parmst.verify_points(points, tree, min_samples=min_samples)
    info.verified = bool(verdict)
    if not verdict:
        info.verify_message = str(verdict)
    info.num_components = tree.num_components
    info.total_weight = tree.total_weight
    return tree.edge_ids


def place_points(points: np.ndarray, placement: str) -> Any:
    """The points where the runs take them from: ``"host"`` (the array itself) or
    ``"device"``, a CuPy copy on the current GPU (a numba-cuda device array where CuPy is
    not installed: :func:`parmst.euclidean_mst` reads either in place). Raises where no
    GPU (or numba-cuda's simulator) is at hand; the harness then skips the entry.

    Examples
    --------
    >>> x = np.zeros((3, 2))
    >>> place_points(x, "host") is x
    True
    """
    if placement == "host":
        return points
    if placement != "device":
        raise ValueError(f"placement must be host or device, got {placement!r}")
    from numba import cuda

    try:
        import cupy
    except ImportError:
        placed = cuda.to_device(points)
    else:
        placed = cupy.asarray(points)
    cuda.synchronize()
    return placed


def _skip_reason(variant: Variant, n: int, on_device: bool) -> str | None:
    if on_device and variant.solver.backend != "gpu":
        return "a host solver does not take device points"
    ok = variant.solver.can_run(None, variant.options)
    if ok is not True:
        return ok
    if (not variant.explicit and variant.solver.algorithm.startswith("prim-dense")
            and n > DENSE_POINTS_MAX):
        return (f"dense Prim over all {n * (n - 1) // 2:,} pairs; name it with --solver to "
                "run it anyway")
    return loading_skip_reason(variant)


def _timed_call(points: np.ndarray, solver: str, min_samples: int | None,
                options: dict[str, Any]) -> tuple[np.ndarray, Any, float, float]:
    """One whole :func:`parmst.euclidean_mst` call and the tree's ids: ids, stats, wall and
    CPU seconds."""
    import parmst

    def call() -> Any:
        tree = parmst.euclidean_mst(points, solver=solver, min_samples=min_samples, **options)
        tree.edge_ids  # noqa: B018 - reading them is part of the call
        return tree

    tree, elapsed, cpu = clocked(call)
    return tree.edge_ids, tree.stats, elapsed, cpu


def time_point_solvers(points: np.ndarray, min_samples: int | None, name: str,
                       variants: list[Variant], reference: np.ndarray, scheme: Scheme,
                       bar, placed: Any = None) -> list[Record]:
    """Time every point-solver variant on ``points`` (read from ``placed``, a device copy
    of them, where given), their runs interleaved; each run's pair ids must be
    ``reference``."""
    on_device = placed is not None
    placed = points if placed is None else placed
    records, timings = [], []
    reference_name = reference_solver(len(points))
    for variant in variants:
        record = Record(graph=name, solver=variant.solver.name, threads=variant.threads,
                        options=variant.options, variant=variant.variant)
        records.append(record)
        reason = _skip_reason(variant, len(points), on_device)
        if reason is not None:
            record.status, record.note = "skipped", reason
            bar.update(scheme.runs + 1)
            continue
        call = partial(_timed_call, solver=variant.solver.name, min_samples=min_samples,
                       options=variant.options)
        timings.append(_Timing(record, call, reference_name=reference_name))
    gc.collect()
    run_interleaved(timings, scheme, lambda timing, run: _one_run(
        points, placed, timing, reference, run, scheme.runs, bar))
    return records
