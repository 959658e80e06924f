"""Point solvers in the harness: every variant on one point set, warmed up, timed, checked.

A point set's input is its ``(n, d)`` array (and HDBSCAN's ``min_samples``). The
reference tree comes from ``prim-dense/points`` up to :data:`DENSE_POINTS_MAX` points,
from ``boruvka-kdtree/serial`` above, checked by :func:`parmst.verify_points`. Each
variant's run is the whole public call :func:`parmst.euclidean_mst` (validation, the
solve, the Forest and its ids), interleaved with the other variants' runs as the graph
solvers' are (:func:`parmst.bench.solver_timing.run_interleaved`), and its pair ids must
equal the reference's exactly.
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

__all__ = ["DENSE_POINTS_MAX", "point_info", "point_reference", "time_point_solvers"]

DENSE_POINTS_MAX = 20_000
"""Above this many points dense Prim (n^2 / 2 distances) is left out unless named, and the
reference tree comes from the k-d tree's serial Borůvka instead."""


def point_info(name: str, source: str, points: np.ndarray, min_samples: int | None,
               stands_for: str = "") -> GraphInfo:
    """The report's entry of a point set: ``n`` points as vertices, the ``n - 1`` tree edges
    as edges (so throughput reads as points per second)."""
    n, d = points.shape
    what = f"{n:,} points in {d}-D" + ("" if min_samples is None else
                                       f", mutual reachability, min_samples {min_samples}")
    return GraphInfo(name, source, n, max(n - 1, 0), points.dtype.name,
                     f"{stands_for} ({what})" if stands_for else what)


def reference_solver(n: int) -> str:
    """The solver of a point set's reference tree."""
    return "prim-dense/points" if n <= DENSE_POINTS_MAX else "boruvka-kdtree/serial"


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


def _skip_reason(variant: Variant, n: int) -> str | None:
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
                       bar) -> list[Record]:
    """Time every point-solver variant on ``points``, their runs interleaved; each run's
    pair ids must be ``reference``."""
    records, timings = [], []
    reference_name = reference_solver(len(points))
    for variant in variants:
        record = Record(graph=name, solver=variant.solver.name, threads=variant.threads,
                        options=variant.options, variant=variant.variant)
        records.append(record)
        reason = _skip_reason(variant, len(points))
        if reason is not None:
            record.status, record.note = "skipped", reason
            bar.update(scheme.runs + 1)
            continue
        call = partial(_timed_call, solver=variant.solver.name, min_samples=min_samples,
                       options=variant.options)
        timings.append(_Timing(record, call, reference_name=reference_name))
    gc.collect()
    run_interleaved(timings, scheme, lambda timing, run: _one_run(
        points, points, timing, reference, run, scheme.runs, bar))
    return records
