"""Edge-list arrays as a :class:`~parmst.Graph` takes them: dtypes, coercion and the checks.

The host side of :meth:`parmst.Graph.from_edges`'s validation, shared with
its device path (:mod:`parmst._graph_device`): ids become int32 while
``num_vertices`` and ``2 * num_edges`` fit, int64 beyond; weights become
int32, int64, float32 or float64; anything else fails with one
:class:`~parmst.errors.GraphValueError` naming the problem.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from parmst import _edge_checks, _memory
from parmst._jit import compiled_pays
from parmst.errors import GraphValueError

__all__ = ["WEIGHT_DTYPES", "as_array", "check_memory", "coerce_ids", "coerce_weights",
           "has_nan", "index_dtype_for", "readonly", "vertex_count"]

_INT32_LIMIT = 2**31 - 1
WEIGHT_DTYPES = (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32),
                 np.dtype(np.float64))


def index_dtype_for(num_vertices: int, num_edges: int) -> np.dtype:
    """int32 while ``num_vertices`` and ``2 * num_edges`` fit, else int64."""
    if num_vertices <= _INT32_LIMIT and 2 * num_edges <= _INT32_LIMIT:
        return np.dtype(np.int32)
    return np.dtype(np.int64)


def readonly(a: np.ndarray) -> np.ndarray:
    """``a``, marked read-only (a graph's arrays never change)."""
    a.setflags(write=False)
    return a


def as_array(name: str, values: Any) -> np.ndarray:
    """``values`` as a one-dimensional array, or GraphValueError naming what it is instead."""
    try:
        a = np.asarray(values)
    except (ValueError, TypeError) as exc:  # ragged nested lists, objects NumPy cannot read
        raise GraphValueError(f"{name} must be a one-dimensional array: {exc}") from None
    if a.ndim != 1:
        what = "a scalar" if a.ndim == 0 else f"shape {a.shape}"
        raise GraphValueError(f"{name} must be a one-dimensional array, got {what}")
    return a


def coerce_weights(weight: Any, m: int, what: str = "weights") -> np.ndarray:
    """``weight`` as one of :data:`WEIGHT_DTYPES` (narrower types widened; unit weights for
    ``None``), or GraphValueError (``what`` names the weights, e.g. the user's column)."""
    if weight is None:
        return np.ones(m, dtype=np.int32)
    w = as_array("weight" if what == "weights" else what, weight)
    if w.dtype == object or w.dtype.kind not in "biuf":
        raise GraphValueError(f"{what} must be real numbers, got dtype {w.dtype}")
    if w.dtype.kind == "b" or (w.dtype.kind in "iu" and w.dtype.itemsize < 4):
        return w.astype(np.int32)
    if w.dtype == np.uint32:
        return w.astype(np.int64)
    if w.dtype == np.uint64:
        if m and int(w.max()) > np.iinfo(np.int64).max:
            raise GraphValueError(
                f"weight {int(w.max())} does not fit int64 (the widest integer weight type)")
        return w.astype(np.int64)
    if w.dtype.kind == "f" and w.dtype.itemsize < 4:
        return w.astype(np.float32)
    if w.dtype.kind == "f" and w.dtype.itemsize > 8:
        raise GraphValueError(f"weight dtype {w.dtype} is wider than float64")
    return w


def has_nan(w: np.ndarray) -> bool:
    """Whether a float weight array holds a NaN (one parallel pass on large arrays)."""
    if len(w) >= _edge_checks.PARALLEL_FROM_EDGES and compiled_pays(len(w)) and w.dtype.isnative:
        return _edge_checks.first_nan(w) >= 0
    return bool(np.isnan(w).any())


def coerce_ids(name: str, ids: Any) -> np.ndarray:
    """``ids`` as an integer array (integral floats converted), or GraphValueError."""
    a = as_array(name, ids)
    if a.dtype == object or (a.size and a.dtype.kind not in "iub"):
        if a.dtype.kind == "f" and a.size and np.all(np.isfinite(a)) and np.all(a == np.floor(a)):
            largest = float(np.abs(a).max())
            if largest >= 2.0**63:
                raise GraphValueError(f"{name} holds vertex id {largest!r}, beyond int64")
            return a.astype(np.int64)
        raise GraphValueError(f"{name} must hold integer vertex ids or names, got dtype "
                              f"{a.dtype}; pass relabel=True to number any values 0..n-1")
    return a


def vertex_count(value: Any) -> int:
    """The ``num_vertices`` argument as an int (integral floats allowed), or GraphValueError."""
    number = None
    if not isinstance(value, (bool, np.bool_)):
        try:
            number = operator.index(value)
        except TypeError:
            if (isinstance(value, (float, np.floating)) and math.isfinite(value)
                    and value == int(value)):
                number = int(value)
    if number is None or number < 0:
        raise GraphValueError(f"num_vertices must be a non-negative integer, got {value!r}")
    return number


def check_memory(num_vertices: int, inferred: bool, s: np.ndarray, d: np.ndarray,
                 w: np.ndarray, idx: np.dtype) -> None:
    """GraphValueError before the copies and the solvers' per-vertex arrays outgrow memory."""
    problem = _memory.shortfall(num_vertices)
    if problem is not None:
        if not inferred:
            raise GraphValueError(f"num_vertices={num_vertices} {problem}")
        hi = num_vertices - 1
        where = int(np.flatnonzero((s == hi) | (d == hi))[0])
        raise GraphValueError(
            f"vertex id {hi} (edge {where}) {problem}; vertex ids must be 0..n-1, so number "
            "sparse ids densely first (Graph.from_edges, Graph.from_table and the text readers "
            "take relabel=True)")
    problem = _memory.shortfall(len(s), "edges", 2 * idx.itemsize + w.dtype.itemsize)
    if problem is not None:
        raise GraphValueError(f"the graph's arrays {problem}")


def part_index_dtype(num_vertices: int, largest_part: int) -> np.dtype:
    """The vertex id dtype of a graph's parts: int32 while the vertices and each part's own
    positions fit in 32 bits, whatever the whole graph's edge count (a part is solved as an
    edge list, so no CSR view doubles its entries), else int64.

    Examples
    --------
    >>> part_index_dtype(2**28, 2**30), part_index_dtype(2**31, 10)
    (dtype('int32'), dtype('int64'))
    """
    fits = max(num_vertices, largest_part) <= np.iinfo(np.int32).max
    return np.dtype(np.int32 if fits else np.int64)
