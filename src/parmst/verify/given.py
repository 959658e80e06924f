"""The ``ids`` and ``fields`` checks: what the caller gave is well formed and matches the graph.

``ids`` turns any edge-id container into valid, unique, non-NaN ids that the
other checks can use; ``fields`` compares a :class:`~parmst.Forest`'s arrays
and totals with the graph's edges.

Examples
--------
>>> import parmst
>>> g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
>>> from parmst.verify import VerifyResult
>>> rec = Recorder(VerifyResult(), limit=10)
>>> check_ids(g, [1, 5, 1], rec).tolist()
[1]
>>> [f.message for f in rec.result.failures]
['edge id 5 is out of range: the graph has 2 edges (ids 0..1)', 'edge id 1 is listed 2 times']
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from parmst._text import plural
from parmst.forest import Forest, exact_sum
from parmst.graph import Graph
from parmst.verify.result import Recorder

__all__ = ["check_fields", "check_ids", "check_listed", "check_num_components", "compare_fields",
           "nan_weights"]


def check_ids(graph: Graph, given: Any, rec: Recorder) -> np.ndarray | None:
    """Valid, unique, non-NaN ids (sorted int64), or None when the input is unusable."""
    valid = check_listed(given, graph.num_edges, rec)
    if valid is None or len(valid) == 0:
        return valid
    return valid[~nan_weights(valid, graph.weight[valid], rec)]


def check_listed(given: Any, num_edges: int, rec: Recorder) -> np.ndarray | None:
    """Valid, unique ids (sorted int64) of a graph of ``num_edges`` edges, or None when the
    input is unusable; records ids out of range and ids listed more than once."""
    ids = np.asarray(given)
    rec.run("ids")
    if ids.ndim != 1:
        rec.fail("ids", [f"edge ids must be a one-dimensional array, got shape {ids.shape}"])
        return None
    if ids.size == 0:
        return np.zeros(0, dtype=np.int64)
    if ids.dtype.kind not in "iu":
        hint = " (a mask? pass numpy.flatnonzero(mask))" if ids.dtype.kind == "b" else ""
        rec.fail("ids", [f"edge ids must be integers, got dtype {ids.dtype}{hint}"])
        return None
    m = num_edges
    out_of_range = (ids < 0) | (ids >= m)
    if out_of_range.any():
        bad = ids[out_of_range]
        rec.fail("ids", [f"edge id {int(i)} is out of range: the graph has {m} edges "
                         f"(ids 0..{m - 1})" for i in bad[: rec.limit]], len(bad))
    valid = (ids[~out_of_range] if out_of_range.any() else ids).astype(np.int64, copy=False)
    if not (valid[1:] > valid[:-1]).all():  # a Forest's ids come sorted: no sort needed
        valid = np.sort(valid)
        repeated = np.flatnonzero(valid[1:] == valid[:-1])
        if len(repeated):
            dup_ids, counts = np.unique(valid[repeated], return_counts=True)
            rec.fail("ids", [f"edge id {int(i)} is listed {int(c) + 1} times"
                             for i, c in zip(dup_ids[: rec.limit], counts)], len(dup_ids))
            valid = np.unique(valid)
    return valid


def nan_weights(ids: np.ndarray, weight: np.ndarray, rec: Recorder) -> np.ndarray:
    """Mask of the listed ``ids`` whose graph ``weight`` is NaN, each recorded as an ``ids``
    failure."""
    if weight.dtype.kind != "f":
        return np.zeros(len(ids), dtype=np.bool_)
    nan = np.isnan(weight)
    if nan.any():
        nan_ids = ids[nan]
        rec.fail("ids", [f"edge {int(i)} has a NaN weight; NaN edges belong to no forest"
                         for i in nan_ids[: rec.limit]], len(nan_ids))
    return nan


def _total_of(weights: np.ndarray) -> int | float:
    """Exact for integers; for floats NumPy's pairwise sum, compared with a tolerance."""
    if weights.dtype.kind in "iu":
        return exact_sum(weights)
    with np.errstate(invalid="ignore"):  # inf + -inf: the total is NaN, as Forest's is
        return float(np.sum(weights, dtype=np.float64))


def _totals_agree(claimed: Any, expected: float, weights: np.ndarray) -> bool:
    if isinstance(expected, int):
        return claimed == expected
    claimed = float(claimed)
    if not math.isfinite(expected):
        return claimed == expected or (math.isnan(claimed) and math.isnan(expected))
    # Pairwise summation errs by at most about log2(m) * 2**-53 * sum(|w|).
    scale = float(np.sum(np.abs(weights), dtype=np.float64))
    return math.isclose(claimed, expected, rel_tol=1e-12, abs_tol=1e-12 * scale)


def check_fields(graph: Graph, forest: Forest, rec: Recorder) -> None:
    """A Forest's arrays and total must describe the graph's edges with its ids."""
    compare_fields(forest, graph.num_vertices, graph.num_edges,
                   lambda ids: (graph.src[ids], graph.dst[ids], graph.weight[ids]), None, rec)


def compare_fields(forest: Forest, num_vertices: int, num_edges: int,
                   lookup: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
                   forest_weights: np.ndarray | None, rec: Recorder) -> None:
    """Compare a Forest's arrays and totals with the graph's edges.

    ``lookup(ids)`` gives the graph's ``(src, dst, weight)`` of valid edge ids;
    ``total_weight`` must be the sum of ``forest_weights``, the graph's weights
    of the whole forest (None: of the forest's own ids, when it lists the whole).
    """
    rec.run("fields")
    ids = np.asarray(forest.edge_ids)
    problems = []
    if forest.num_vertices != num_vertices:
        problems.append(f"the forest has {forest.num_vertices} vertices but the graph has "
                        f"{num_vertices}")
    comparable = True
    for name in ("src", "dst", "weight"):
        if len(getattr(forest, name)) != len(ids):
            problems.append(f"the forest has {len(ids)} edge ids but "
                            f"{len(getattr(forest, name))} {name} entries")
            comparable = False
    if ids.ndim != 1 or ids.dtype.kind not in "iu" or ((ids < 0) | (ids >= num_edges)).any():
        problems.append("edge fields not compared: some edge ids are invalid (see [ids])")
        comparable = False
    if not comparable:
        rec.fail("fields", problems)
        return
    s, d, w = lookup(ids)
    same_ends = ((forest.src == s) & (forest.dst == d)) | ((forest.src == d) & (forest.dst == s))
    same_weight = forest.weight == w
    if w.dtype.kind == "f":
        same_weight |= np.isnan(w) & np.isnan(forest.weight)
    wrong_ends = np.flatnonzero(~same_ends)
    wrong_weight = np.flatnonzero(~same_weight)
    problems += [f"edge {int(ids[k])} has ends ({int(forest.src[k])}, {int(forest.dst[k])}) in "
                 f"the forest but ({int(s[k])}, {int(d[k])}) in the graph"
                 for k in wrong_ends[: rec.limit]]
    problems += [f"edge {int(ids[k])} has weight {forest.weight[k].item()!r} in the forest but "
                 f"{w[k].item()!r} in the graph" for k in wrong_weight[: rec.limit]]
    whole = w if forest_weights is None else forest_weights
    expected = _total_of(whole)
    if not _totals_agree(forest.total_weight, expected, whole):
        problems.append(f"total_weight is {forest.total_weight!r} but the graph's weights of the "
                        f"forest's edges sum to {expected!r}")
    unlisted = (max(0, len(wrong_ends) - rec.limit) + max(0, len(wrong_weight) - rec.limit))
    rec.fail("fields", problems, len(problems) + unlisted)


def check_num_components(forest: Forest, num_trees: int, rec: Recorder) -> None:
    """A Forest's ``num_components`` must count the trees its edges form (a ``fields`` check)."""
    if forest.num_components != num_trees:
        rec.fail("fields", [(f"num_components is {forest.num_components} but the forest's "
                            f"edges form {plural(num_trees, 'tree')}")])
