"""Small plain edge lists read by NumPy alone, so that ``parmst solve`` on one loads no Numba.

:mod:`parmst.io`'s readers parse with compiled kernels: on a file of a few
thousand lines, loading Numba costs a fresh process several times more than
the parse. :func:`read_small_edge_list` reads the common case (a plain edge
list, ``format="edgelist"``, of at most :data:`SMALL_BYTES`, ``u v w`` or
``u v`` per line, optional ``n m`` header, comment lines, parmst's metadata
comment) into exactly the :class:`~parmst.Graph` that
:func:`parmst.io.read` returns, and gives up (returns ``None``) on anything
else: another format, reader options, a byte outside digits, signs, ``.``,
``e``/``E`` and blanks, lines of mixed field counts, negative or huge ids,
integer weights beyond int64, declared counts that the file contradicts. The
full reader then reads it, and reports any error with its line.
"""

from __future__ import annotations

import os

import numpy as np

from parmst.graph import Graph, index_dtype_for

__all__ = ["EDGELIST_EXTENSIONS", "SMALL_BYTES", "read_small_edge_list"]

SMALL_BYTES = 1 << 21
"""Largest file read here: about 80 thousand lines of ``u v w``, parsed in tens of ms."""

EDGELIST_EXTENSIONS = (".txt", ".el", ".wel", ".edges")
"""The extensions :func:`parmst.io.detect_format` reads as ``edgelist`` (a test keeps them equal)."""

_MOST_VERTICES = 1 << 24
"""Vertex counts beyond this go to the full reader, which checks them against memory."""

_MOST_COMMENTS = 1000
"""Files with more comment lines go to the full reader (each is looked at in Python here)."""

_METADATA_TAG = b"parmst:"
_ALLOWED = np.zeros(256, dtype=bool)
_ALLOWED[list(b"0123456789+-.eE \t\n")] = True
_DTYPES = {name: np.dtype(name) for name in ("int32", "int64", "float32", "float64")}


def _comment_lines(data: np.ndarray) -> list[tuple[int, int]] | None:
    """``(start, end)`` byte spans of the comment lines (``#`` or ``%`` first after blanks);
    None where a marker sits elsewhere in a line, or comments are too many to look at."""
    marks = np.flatnonzero((data == ord("#")) | (data == ord("%")))
    if len(marks) == 0:
        return []
    if len(marks) > _MOST_COMMENTS:
        return None
    newlines = np.flatnonzero(data == ord("\n"))
    spans = []
    for mark in marks.tolist():
        at = int(np.searchsorted(newlines, mark))
        start = int(newlines[at - 1]) + 1 if at else 0
        end = int(newlines[at]) if at < len(newlines) else len(data)
        if spans and start == spans[-1][0]:
            continue  # a second marker inside a comment line
        if not np.isin(data[start:mark], (32, 9)).all():
            return None
        spans.append((start, end))
    return spans


def _metadata(raw: bytes, spans: list[tuple[int, int]]
              ) -> tuple[int | None, np.dtype | None] | None:
    """``(num_vertices, weight dtype)`` of the metadata comment (each None if not given); None
    where a comment is one the full reader must judge (Matrix Market banner, a bad field)."""
    vertices, dtype = None, None
    for start, end in spans:
        words = raw[start:end].strip()[1:].split()
        if start == 0 and words and words[0].startswith(b"%MatrixMarket"):
            return None
        if not words or words[0] != _METADATA_TAG:
            continue
        fields = dict(word.split(b"=", 1) for word in words[1:] if b"=" in word)
        if b"num_vertices" in fields:
            if not fields[b"num_vertices"].isdigit():
                return None
            vertices = int(fields[b"num_vertices"])
        if b"weight" in fields:
            if fields[b"weight"].decode("ascii", "replace") not in _DTYPES:
                return None
            dtype = _DTYPES[fields[b"weight"].decode("ascii")]
    return vertices, dtype


def _fields_per_line(data: np.ndarray) -> np.ndarray:
    """How many blank-separated fields each non-blank line holds, in line order."""
    word = (data != 32) & (data != 9) & (data != 10)
    starts = word & ~np.concatenate(([False], word[:-1]))
    counts = np.bincount(np.cumsum(data == 10)[starts])
    return counts[counts > 0]


def _integers(tokens: np.ndarray) -> np.ndarray | None:
    """The tokens (a bytes array) as int64 if every one is an integer literal that fits."""
    try:
        return tokens.astype(np.int64)
    except (ValueError, OverflowError):
        return None


def _weights(tokens: np.ndarray, dtype: np.dtype | None) -> np.ndarray | None:
    """The weight column as the full reader types it: int64 if every weight is an integer,
    else float64, then ``dtype`` if the metadata comment names one; None where it would refuse."""
    integers = _integers(tokens)
    if integers is not None:
        if dtype is None or dtype.kind == "i":
            if dtype is not None and len(integers):
                info = np.iinfo(dtype)
                if integers.min() < info.min or integers.max() > info.max:
                    return None
            return integers if dtype is None else integers.astype(dtype)
        if len(integers) and np.abs(integers).max() >= 2**53:
            return None  # not exact in float64: how the reader rounds it is its own business
        return integers.astype(np.float64).astype(dtype)
    if dtype is not None and dtype.kind == "i":
        return None
    try:
        values = tokens.astype(np.float64)
    except (ValueError, OverflowError):
        return None
    # The reader reads an integer literal as an integer first: "-0" is 0.0 there, not -0.0,
    # and one beyond int64 is refused, not rounded.
    with np.errstate(invalid="ignore"):
        suspects = np.flatnonzero((values == 0) | ~(np.abs(values) < 2.0**63))
    for i in suspects.tolist():
        if not any(c in tokens[i] for c in (b".", b"e", b"E")):
            if values[i] != 0:
                return None
            values[i] = 0.0
    return values if dtype is None else values.astype(dtype)


def read_small_edge_list(path: str | os.PathLike, format: str | None = None) -> Graph | None:
    """The graph of a small plain edge list file, or None where :func:`parmst.io.read` must
    read it (see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> _ = open(path, "w").write("# roads\\n0 1 2.5\\n1 2 -1\\n")
    >>> g = read_small_edge_list(path)
    >>> g.num_vertices, g.weight.tolist()
    (3, [2.5, -1.0])
    >>> _ = open(path, "w").write("0 1 nan\\n")
    >>> read_small_edge_list(path) is None  # NaN: the full reader says where
    True
    """
    path = os.fspath(path)
    if format is None:
        if os.path.splitext(path)[1].lower() not in EDGELIST_EXTENSIONS:
            return None
    elif format.lower() != "edgelist":
        return None
    try:
        if not 0 < os.path.getsize(path) <= SMALL_BYTES:
            return None
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None  # the full reader reports it
    raw = np.frombuffer(data, dtype=np.uint8)
    spans = _comment_lines(raw)
    if spans is None:
        return None
    declared = _metadata(data, spans)
    if declared is None:
        return None
    if spans:
        keep = np.ones(len(raw), dtype=bool)
        for start, end in spans:
            keep[start:end] = False
        raw = raw[keep]
    if not _ALLOWED[raw].all():
        return None
    counts = _fields_per_line(raw)
    tokens = np.array(raw.tobytes().split())
    header = len(counts) >= 2 and counts[0] == 2 and (counts[1:] == 3).all()
    if header:
        counts, head, tokens = counts[1:], _integers(tokens[:2]), tokens[2:]
        if head is None or head.min() < 0 or head[1] != len(counts):
            return None
    ncols = int(counts[0]) if len(counts) else 0
    if ncols not in (2, 3) or not (counts == ncols).all():
        return None
    src, dst = _integers(tokens[0::ncols]), _integers(tokens[1::ncols])
    if src is None or dst is None or min(src.min(), dst.min()) < 0:
        return None
    if ncols == 2:
        weight = np.ones(len(src), dtype=np.int32 if declared[1] is None else declared[1])
    else:
        weight = _weights(tokens[2::3], declared[1])
        if weight is None:
            return None
    top = int(max(src.max(), dst.max()))
    n = declared[0] if declared[0] is not None else int(head[0]) if header else top + 1
    if top >= n or n > _MOST_VERTICES:
        return None
    index = index_dtype_for(n, len(src))
    return Graph(src.astype(index), dst.astype(index), weight, n)
