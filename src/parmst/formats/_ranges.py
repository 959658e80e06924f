"""What the formats' ``read_range`` share: a file cut into ``p`` parts that are read apart.

Part ``r`` of ``p`` is what rank ``r`` of an MPI job reads (see
:mod:`parmst.distributed`); here nothing knows of MPI. A text file's rows
are cut into byte ranges at line starts (:func:`byte_range`), so every line
belongs to exactly one part. A part's first line number, and with it its
error messages, need the lines of the parts before it: a ``before``
callable gives those sums.

``before(mine, of_rank)`` returns, for the tuple of counts ``mine`` of this
part (lines, or lines and words), the sums of the same counts over the parts
before it: an exclusive prefix sum, which an MPI rank gets with one
``Exscan``. ``of_rank(r)`` computes part ``r``'s counts, for one process
that simulates the ranks (:func:`simulated_before`, the default).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from parmst.errors import GraphFormatError
from parmst.formats._files import is_gzip, read_bytes
from parmst.formats._rows import NEWLINE, TextFile, count_lines, count_words

Before = Callable[[tuple[int, ...], Callable[[int], tuple[int, ...]]], tuple[int, ...]]


@dataclass
class Part:
    """What one part of a file holds, and what the whole file must agree on.

    Attributes
    ----------
    path : str
    src, dst, weight : ndarray
        This part's edges, in file order (0-based ids).
    weight_dtype : dtype or None
        The weight dtype the caller or the file names (None: inferred, so the
        parts must agree on one).
    num_vertices : int or None
        The vertex count the caller or the file declares (None: ``max id + 1``
        over all parts).
    expected_edges, count_line : int or None
        The row count a header announces for the whole file, and its line.
    count_message : callable or None
        The error message for a whole file of ``found`` rows that differs.
    rows_read : int or None
        Rows parsed, where some were then dropped (``.mtx`` ``general=``).
    balance : ndarray or None
        ``.egr``: mirror checksums, which sum to zero over the parts of a good file.
    """

    path: str
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray
    weight_dtype: np.dtype | None
    num_vertices: int | None
    expected_edges: int | None = None
    count_line: int | None = None
    count_message: Callable[[int], str] | None = None
    rows_read: int | None = None
    balance: np.ndarray | None = None

    @property
    def max_id(self) -> int:
        return max(int(self.src.max()), int(self.dst.max())) if len(self.src) else -1

    @property
    def counted(self) -> int:
        """Rows this part holds as the header counts them."""
        return len(self.src) if self.rows_read is None else self.rows_read


def announced_rows(expected: int, what: str, found: int) -> str:
    """The error for a header's row count ``expected`` that the whole file's ``found`` misses."""
    return f"the header announces m={expected} {what} but the file has {found} {what} lines"


def simulated_before(rank: int) -> Before:
    """The ``before`` of one process reading part ``rank``: it counts the parts before it."""
    def before(mine: tuple[int, ...], of_rank: Callable[[int], tuple[int, ...]]
               ) -> tuple[int, ...]:
        sums = [0] * len(mine)
        for r in range(rank):
            sums = [a + b for a, b in zip(sums, of_rank(r), strict=True)]
        return tuple(sums)
    return before


def slice_bounds(total: int, rank: int, size: int) -> tuple[int, int]:
    """Part ``rank``'s share ``[lo, hi)`` of ``total`` items cut into ``size`` near-equal slices.

    Examples
    --------
    >>> [slice_bounds(5, r, 3) for r in range(3)]
    [(0, 1), (1, 3), (3, 5)]
    """
    return total * rank // size, total * (rank + 1) // size


@numba.njit(cache=True)
def _line_start_at_or_after(buf, pos, floor):
    """First line start at or after ``pos`` (``pos`` itself if a line starts there)."""
    if pos <= floor:
        return floor
    while pos < len(buf) and buf[pos - 1] != NEWLINE:
        pos += 1
    return pos


def byte_range(data: np.ndarray, start: int, rank: int, size: int) -> tuple[int, int]:
    """Rank ``rank``'s byte range of ``data[start:]``, cut at line boundaries.

    The ranges of ranks ``0..size-1`` tile ``[start, len(data))`` and each
    begins at a line start, so every line is in exactly one range (a line
    longer than a range leaves that range empty).

    Examples
    --------
    >>> data = np.frombuffer(b"0 1 5\\n1 2 7\\n2 3 1\\n", dtype=np.uint8)
    >>> [byte_range(data, 0, r, 2) for r in range(2)]
    [(0, 12), (12, 18)]
    """
    end = len(data)
    lo, hi = (start + (end - start) * k // size for k in (rank, rank + 1))
    lo = int(_line_start_at_or_after(data, lo, start))
    hi = end if rank == size - 1 else int(_line_start_at_or_after(data, hi, start))
    return lo, max(lo, hi)


def range_counts(data: np.ndarray, start: int, size: int, *, words: bool = False
                 ) -> Callable[[int], tuple[int, ...]]:
    """``of_rank`` for text files: the lines (and words) in each rank's byte range."""
    def of_rank(r: int) -> tuple[int, ...]:
        lo, hi = byte_range(data, start, r, size)
        lines = count_lines(data[lo:hi])
        return (lines, count_words(data, lo, hi)) if words else (lines,)
    return of_rank


def check_uncompressed(path: str | os.PathLike) -> None:
    """GraphFormatError for a gzip file: a part cannot seek into the compressed stream."""
    if is_gzip(path):
        raise GraphFormatError(os.fspath(path), "distributed reading needs an uncompressed "
                                                "file (each rank seeks to its own byte range); "
                                                "gunzip it first")


def file_bytes(path: str | os.PathLike) -> np.ndarray:
    """The file memory-mapped: a part touches only the pages of its own range."""
    check_uncompressed(path)
    return read_bytes(path)


def line_range(text: TextFile, start: int, first_line: int, rank: int, size: int,
               before: Before | None) -> tuple[TextFile, int]:
    """Rank ``rank``'s lines of the rows from byte ``start`` (line ``first_line``) on.

    Returns the lines as a :class:`TextFile` of the same path and the file's
    line number of their first line. ``before=None`` simulates the ranks
    (:func:`simulated_before`).
    """
    data = text.data
    lo, hi = byte_range(data, start, rank, size)
    lines = count_lines(data[lo:hi])
    before = simulated_before(rank) if before is None else before
    line = first_line + before((lines,), range_counts(data, start, size))[0]
    return TextFile(text.path, data[lo:hi]), line
