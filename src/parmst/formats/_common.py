"""Policy shared by the formats: metadata comments, weight dtypes, relabelling, the edges read.

Text formats cannot say whether weights were int32 or float32, nor (for
plain edge lists) how many isolated vertices trail the last id. parmst's
writers therefore add one comment line (a *metadata comment*) such as
``# parmst: num_vertices=7 weight=int32`` that other tools skip as a
comment and parmst's readers honour, so that files written by parmst read
back exactly. Without it, integer weights read as int64 and other numbers as
float64.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from parmst import _memory
from parmst._edge_input import WEIGHT_DTYPES, index_dtype_for
from parmst._host_edges import EdgeArrays, checked
from parmst._names import vertex_ids
from parmst.errors import GraphFormatError, GraphValueError
from parmst.formats._mirror import mirror_pairs
from parmst.formats._rows import INT64_MAX, INT64_MIN, Rows

METADATA_TAG = "parmst:"
WEIGHT_DTYPE_NAMES = tuple(d.name for d in WEIGHT_DTYPES)
SYMMETRIC_CHOICES = ("keep", "dedupe")
RELABEL_CHOICES = (False, True, "sorted", "first")
#: Ends the error for a huge vertex id in formats that can relabel.
SPARSE_HINT = "; read with relabel=True (parmst CLI: --relabel) for sparse ids"


class EdgeList(Protocol):
    """What the writers read of a graph: a :class:`parmst.Graph` is one."""

    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    num_vertices: int
    num_edges: int
    labels: np.ndarray | None
    columns: tuple[str, str, str]

    def csr(self) -> Any:
        """The CSR view (:mod:`parmst._csr`) of both directions of every edge."""


def metadata_comment(marker: str, graph: EdgeList, *, with_vertices: bool) -> str:
    """The metadata comment line (with its line break) for ``graph``."""
    fields = [f"num_vertices={graph.num_vertices}"] if with_vertices else []
    fields.append(f"weight={graph.weight.dtype.name}")
    return f"{marker} {METADATA_TAG} {' '.join(fields)}\n"


@dataclass
class Metadata:
    """The ``key=value`` fields of a file's metadata comment and the line it is on."""

    fields: dict[str, str] = field(default_factory=dict)
    line: int | None = None

    def take(self, comment: str, line: int) -> None:
        """Keep the fields of ``comment`` (text after the marker) if it is a metadata comment."""
        words = comment.split()
        if words and words[0] == METADATA_TAG:
            self.fields.update(word.split("=", 1) for word in words[1:] if "=" in word)
            self.line = line

    def num_vertices(self, path: str) -> int | None:
        value = self.fields.get("num_vertices")
        if value is None:
            return None
        if not value.isdigit():
            raise GraphFormatError(path, f"the metadata comment says num_vertices={value!r}; "
                                         "expected a non-negative integer", line=self.line)
        return int(value)


def check_choice(name: str, value: Any, choices: tuple) -> None:
    """ValueError unless the option ``name`` has one of the allowed values."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")


def check_vertex_count(num_vertices: Any) -> None:
    """ValueError unless the ``num_vertices`` option is None or a non-negative integer."""
    if num_vertices is not None and (not isinstance(num_vertices, (int, np.integer))
                                     or isinstance(num_vertices, bool) or num_vertices < 0):
        raise ValueError(f"num_vertices must be a non-negative integer; got {num_vertices!r}")


def check_declared_vertices(path: str, num_vertices: int, what: str, *, line: int | None = None,
                            offset: int | None = None) -> None:
    """GraphFormatError naming ``what`` declared ``num_vertices`` if that many cannot fit in memory.

    Runs before reading the edges, so a header that announces 10^12 vertices
    fails at once (see :mod:`parmst._memory`).
    """
    problem = _memory.shortfall(num_vertices)
    if problem is not None:
        raise GraphFormatError(path, f"{what} {problem}", line=line, offset=offset)


def _weight_dtype(name: Any) -> np.dtype | None:
    """The weight dtype called ``name``, or None if it is not one of int32/int64/float32/float64."""
    try:
        dtype = np.dtype(name)
    except TypeError:
        return None
    return dtype if dtype in WEIGHT_DTYPES else None


def resolve_weight_dtype(path: str, option: Any, metadata: Metadata) -> np.dtype | None:
    """The weight dtype asked for by the caller, else by the metadata comment, else None (infer).

    Raises ValueError for a bad ``weight_dtype`` option and GraphFormatError
    (with the line) for a bad metadata comment.
    """
    expected = f"expected one of {', '.join(WEIGHT_DTYPE_NAMES)}"
    if option is not None:
        dtype = _weight_dtype(option)
        if dtype is None:
            raise ValueError(f"weight_dtype={option!r} is not a weight type; {expected}")
        return dtype
    name = metadata.fields.get("weight")
    if name is None:
        return None
    dtype = _weight_dtype(name)
    if dtype is None:
        raise GraphFormatError(path, f"the metadata comment names weight type {name!r}; "
                                     f"{expected}", line=metadata.line)
    return dtype


def weight_limits(dtype: np.dtype | None) -> tuple[tuple[int, int], bool]:
    """(inclusive integer range, integers only) that the row parser enforces for ``dtype``."""
    if dtype is not None and dtype.kind == "i":
        info = np.iinfo(dtype)
        return (int(info.min), int(info.max)), True
    return (INT64_MIN, INT64_MAX), False


def floats_asked(dtype: np.dtype | None) -> bool:
    """Whether ``weight_dtype`` asks for float weights, so integer literals beyond int64 are
    read as floats instead of refused."""
    return dtype is not None and dtype.kind == "f"


def finish_weights(rows: Rows, dtype: np.dtype | None) -> np.ndarray | None:
    """Parsed weights (int64/float64, range-checked by the parser) cast to ``dtype``.

    Files without a weight column give unit weights: int32, or ``dtype`` if named.
    """
    if dtype is None:
        return rows.weight
    if rows.weight is None:
        return np.ones(len(rows.src), dtype=dtype)
    return rows.weight.astype(dtype, copy=False)


def unit_weights(weight: np.ndarray | None, rows: int) -> np.ndarray:
    """``weight``, or int32 ones for a file of ``rows`` rows without a weight column."""
    return np.ones(rows, dtype=np.int32) if weight is None else weight


def relabel_ids(src: np.ndarray, dst: np.ndarray, relabel: bool | str
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Map arbitrary ids onto 0..n-1: ``"sorted"`` (or True) by id, ``"first"`` by first appearance
    (the one rule of :mod:`parmst._names`).

    Returns the new src, dst and the original id of each new vertex (None if not relabelled).
    """
    if relabel is False:
        return src, dst, None
    return vertex_ids(src, dst, relabel)


def drop_mirrors(rows: Rows, symmetric: str) -> Rows:
    """``symmetric="dedupe"``: keep one edge per pair of mirrored arcs (see :mod:`._mirror`)."""
    if symmetric == "keep":
        return rows
    later, _ = mirror_pairs(rows.src, rows.dst, rows.weight)
    keep = ~later
    weight = rows.weight[keep] if rows.weight is not None else None
    return Rows(rows.src[keep], rows.dst[keep], weight)


def checked_edges(path: str, src: np.ndarray, dst: np.ndarray, weight: np.ndarray | None,
                  num_vertices: int | None, allow_nan: bool, where: str = "") -> EdgeArrays:
    """Arrays checked as ``Graph.from_edges`` checks them (:func:`parmst._host_edges.checked`),
    errors reported against the file (after ``where``, e.g. the edge ids of a part)."""
    try:
        return checked(src, dst, weight, num_vertices, allow_nan=allow_nan, copy=True,
                       relabel=None)
    except GraphValueError as exc:
        raise GraphFormatError(path, f"{where}{exc}") from exc


def parsed_edges(path: str, src: np.ndarray, dst: np.ndarray, weight: np.ndarray | None,
                 num_vertices: int | None, labels: np.ndarray | None = None) -> EdgeArrays:
    """The edge arrays of a graph of freshly parsed rows, without copies.

    The row parser has already checked every id against its range (``>= 0``)
    and every weight (NaN only where allowed), so only the vertex count is
    left to check; ``num_vertices=None`` means ``max id + 1``. Relabelled
    rows come with ``labels``, the file's id of each vertex, which are then
    the vertices: a larger declared count is an error.
    """
    m = len(src)
    top = max(int(src.max()), int(dst.max())) if m else -1
    if labels is not None:
        if num_vertices is not None and num_vertices != len(labels):
            raise GraphFormatError(path, f"relabelling numbers the {len(labels)} vertex ids "
                                         f"of the file, but num_vertices={num_vertices} is "
                                         "declared; leave out relabel or the vertex count")
        num_vertices = len(labels)
    if num_vertices is None:
        num_vertices = top + 1
    elif top >= num_vertices:
        raise GraphFormatError(path, f"vertex id {top} needs more than num_vertices="
                                     f"{num_vertices} vertices")
    index = index_dtype_for(num_vertices, m)
    return EdgeArrays(src.astype(index, copy=False), dst.astype(index, copy=False),
                      unit_weights(weight, m), num_vertices, labels)
