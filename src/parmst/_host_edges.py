"""Host edge arrays checked and typed for a Graph: the checks and copies of ``Graph.from_edges``.

:func:`checked` turns the ends and weights a caller gives (ids or names,
any integer or float dtypes) into :class:`EdgeArrays`, the arrays a
:class:`~parmst.Graph` takes as they are: ids numbered by the rule of
:mod:`parmst._names`, checked against the vertex count, typed (index
dtype from :func:`~parmst._edge_input.index_dtype_for`) and copied (or
viewed). It builds no graph, so that the file formats
(:mod:`parmst.formats`), which sit below :mod:`parmst.graph`, check what they
read exactly as ``Graph.from_edges`` does and hand the arrays up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from parmst import _edge_checks
from parmst._edge_input import (
    check_memory,
    coerce_ids,
    coerce_weights,
    has_nan,
    index_dtype_for,
    vertex_count,
)
from parmst._names import DEFAULT_COLUMNS, vertex_ids
from parmst.errors import GraphValueError

__all__ = ["EdgeArrays", "checked"]


@dataclass(frozen=True)
class EdgeArrays:
    """A graph's edge list, checked and typed: what a :class:`~parmst.Graph` holds.

    ``src`` and ``dst`` are ids ``0..num_vertices-1`` of the index dtype,
    ``weight`` one of the weight dtypes; ``labels`` and ``columns`` are the
    graph's vertex names and column names; ``nan_free`` says the weights
    were searched for NaN and hold none (the graph then never searches again).
    """

    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    num_vertices: int
    labels: np.ndarray | None = None
    columns: tuple[str, str, str] = DEFAULT_COLUMNS
    nan_free: bool = False

    @property
    def num_edges(self) -> int:
        return len(self.src)


def checked(src: Any, dst: Any, weight: Any, num_vertices: Any, *, allow_nan: bool, copy: bool,
            relabel: Any, what: tuple[str, str, str] = ("src", "dst", "weights"),
            columns: tuple[str, str, str] = DEFAULT_COLUMNS,
            labels: np.ndarray | None = None) -> EdgeArrays:
    """The checks and copies of ``Graph.from_edges`` on host arrays, as :class:`EdgeArrays`.

    ``what`` names the three arguments (or the user's columns) in errors,
    ``columns`` become the graph's column names; ``labels`` are given where
    the caller numbered the ends already (Arrow names), else the ends are
    numbered by ``relabel``. Raises :class:`~parmst.errors.GraphValueError`.

    Examples
    --------
    >>> edges = checked(["a", "b"], ["b", "c"], [2, 3], None, allow_nan=False, copy=True,
    ...                 relabel=None)
    >>> edges.src.tolist(), edges.labels.tolist(), edges.num_vertices
    ([0, 1], ['a', 'b', 'c'], 3)
    """
    if labels is None:
        src, dst, labels = vertex_ids(src, dst, relabel, what[:2])
    if labels is not None and num_vertices is not None:
        raise GraphValueError(f"num_vertices applies to integer vertex ids; the "
                              f"{len(labels)} vertex names give the vertex count")
    s, d, w, n, nan_free = _checked_ids(coerce_ids(what[0], src), coerce_ids(what[1], dst),
                                        weight, num_vertices, allow_nan=allow_nan, copy=copy,
                                        what=what)
    return EdgeArrays(s, d, w, n, labels, columns, nan_free)


def _checked_ids(s: np.ndarray, d: np.ndarray, weight: Any, num_vertices: Any, *,
                 allow_nan: bool, copy: bool, what: tuple[str, str, str]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """:func:`checked` on integer ids: src, dst, weights, vertex count, and whether the
    weights are known to hold no NaN."""
    if len(s) != len(d):
        raise GraphValueError(f"{what[0]} has {len(s)} entries but {what[1]} has {len(d)}")
    m = len(s)
    w = coerce_weights(weight, m, what[2])
    if len(w) != m:
        raise GraphValueError(f"{m} edges but {len(w)} weights")
    parallel = _edge_checks.takes(s, d, w)
    if parallel:
        lo, hi = _edge_checks.id_bounds(s, d)
    else:
        lo = min(int(s.min()), int(d.min())) if m else 0
        hi = max(int(s.max()), int(d.max())) if m else -1
    if lo < 0:
        where = int(np.flatnonzero((s < 0) | (d < 0))[0])
        raise GraphValueError(f"edge {where} has negative vertex id {min(s[where], d[where])}; "
                              "pass relabel=True to number any ids 0..n-1")
    inferred = num_vertices is None
    if inferred:
        num_vertices = hi + 1
    else:
        num_vertices = vertex_count(num_vertices)
        if hi >= num_vertices:
            first = int(np.flatnonzero((s >= num_vertices) | (d >= num_vertices))[0])
            raise GraphValueError(
                f"edge {first} has vertex id {max(int(s[first]), int(d[first]))} "
                f"but num_vertices is {num_vertices}")
    if w.dtype.kind == "f" and not allow_nan and has_nan(w):
        nan = np.isnan(w)
        raise GraphValueError(
            f"edge {int(np.flatnonzero(nan)[0])} has a NaN weight "
            f"({int(nan.sum())} NaN weights in all); pass allow_nan=True and solve "
            "with ignore_nan=True to leave them out")
    idx = index_dtype_for(int(num_vertices), m)
    check_memory(num_vertices, inferred, s, d, w, idx)
    if copy and parallel:
        s, d, w = (_edge_checks.copy_into(s, idx), _edge_checks.copy_into(d, idx),
                   _edge_checks.copy_into(w, w.dtype))
    elif copy:
        s, d, w = np.array(s, dtype=idx), np.array(d, dtype=idx), np.array(w)
    else:
        # New array objects over the same buffers: the graph marks its arrays read-only,
        # which must not reach the caller's own array objects.
        s, d, w = np.asarray(s, dtype=idx).view(), np.asarray(d, dtype=idx).view(), w.view()
    # The NaN search above ran: the solve need not scan again.
    return s, d, w, int(num_vertices), w.dtype.kind != "f" or not allow_nan
