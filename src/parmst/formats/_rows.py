"""The shared tokenizer of the text formats: rows ``[prefix] u v [w]`` parsed straight from bytes.

One Numba kernel walks the byte buffer row by row, parses ids and weights
with :mod:`parmst.formats._numbers`, checks id and weight ranges, and stops at the
first problem with its line, column and byte position, from which the Python
driver writes the error message. Lines are separated by ``\\n`` (``\\r\\n``
works: ``\\r`` counts as a space); fields by spaces or tabs. In stream mode
(PBBS) line breaks separate fields like spaces, as PBBS reads its files.

The driver feeds the kernel 64 MiB chunks (ending at a line break) so that a
progress bar can follow large loads; a row never spans chunks in line mode,
and in stream mode the kernel simply reads past the chunk end to finish a row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from parmst import _memory
from parmst.errors import GraphFormatError
from parmst.formats._files import CHUNK_BYTES, progress_bar
from parmst.formats._numbers import (
    NUMBER_FALLBACK,
    NUMBER_INT,
    NUMBER_INVALID,
    NUMBER_NAN,
    _is_space,
    _parse_number,
    _scan_int,
)

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
NEWLINE = 10
_SAMPLE_BYTES = 1 << 20
_LONGEST_LINE_SHOWN = 1 << 20

ROW_OK = 0
ROW_FULL = 1
BAD_ID = 2
BAD_WEIGHT = 3
MISSING_COLUMN = 4
EXTRA_COLUMN = 5
ID_RANGE = 6
WEIGHT_RANGE = 7
NAN_WEIGHT = 8
BAD_PREFIX = 9
WEIGHT_OVERFLOW = 10


@numba.njit(cache=True)
def _token_end(buf, pos):
    """First byte at or after ``pos`` that is a space or a line break."""
    n = len(buf)
    while pos < n and buf[pos] != NEWLINE and not _is_space(buf[pos]):
        pos += 1
    return pos


@numba.njit(cache=True)
def _skip_to_row(buf, pos, line, comment):
    """Skip spaces, blank lines and comment lines; returns (pos, line).

    ``comment`` is a 256-entry table: nonzero for bytes that start a comment line.
    """
    n = len(buf)
    while pos < n:
        c = buf[pos]
        if c == NEWLINE:
            line += 1
            pos += 1
        elif _is_space(c):
            pos += 1
        elif comment[c]:
            while pos < n and buf[pos] != NEWLINE:
                pos += 1
        else:
            break
    return pos, line


@numba.njit(cache=True)
def _skip_separator(buf, pos, line, by_line):
    """Skip spaces (and, in stream mode, line breaks) between fields; returns (pos, line)."""
    n = len(buf)
    while pos < n and (_is_space(buf[pos]) or (not by_line and buf[pos] == NEWLINE)):
        if buf[pos] == NEWLINE:
            line += 1
        pos += 1
    return pos, line


@numba.njit(cache=True)
def _read_id(buf, pos, id_lo, id_hi):
    """Parse the vertex id at ``pos``; returns (value, end, status code)."""
    value, end, ok = _scan_int(buf, pos)
    if not ok:
        return value, end, BAD_ID
    if value < id_lo or value > id_hi:
        return value, end, ID_RANGE
    return value, end, ROW_OK


@numba.njit(cache=True)
def _is_integer_token(buf, start, end):
    """Whether ``buf[start:end]`` is ``[+-]digits``: an integer literal, whatever its size."""
    if start < end and (buf[start] == 43 or buf[start] == 45):
        start += 1
    if start == end:
        return False
    for i in range(start, end):
        if not 48 <= buf[i] <= 57:
            return False
    return True


@numba.njit(cache=True)
def _store_weight(buf, start, weight_lo, weight_hi, integers_only, float_weights, allow_nan,
                  wint, wfloat, wkind, row):
    """Parse the weight at ``start``; returns (end, status code).

    Integers go to ``wint``, floats to ``wfloat``, the kind to ``wkind``; a
    token Python must parse (``NUMBER_FALLBACK``) leaves its byte offset in ``wint``.
    The integer path is kept small (it runs for every row of integer files).
    """
    value, end, is_int = _scan_int(buf, start)
    if not is_int:
        return _store_other_weight(buf, start, integers_only, float_weights, allow_nan,
                                   wint, wfloat, wkind, row)
    if value < weight_lo or value > weight_hi:
        return end, WEIGHT_RANGE
    wint[row] = value
    wkind[row] = NUMBER_INT
    return end, ROW_OK


@numba.njit(cache=True)
def _store_other_weight(buf, start, integers_only, float_weights, allow_nan,
                        wint, wfloat, wkind, row):
    """The weight at ``start`` when ``_scan_int`` found no int64 there; returns (end, status).

    An integer literal beyond int64 is refused unless float weights were asked for: read
    as a float, it would silently lose digits and turn the file's weights into floats.
    """
    end = _token_end(buf, start)
    kind, _, value = _parse_number(buf, start, end)
    if kind == NUMBER_INVALID:
        return end, BAD_WEIGHT
    if not float_weights and _is_integer_token(buf, start, end):
        return end, WEIGHT_OVERFLOW
    if integers_only:
        return end, BAD_WEIGHT
    if kind == NUMBER_NAN and not allow_nan:
        return end, NAN_WEIGHT
    if kind == NUMBER_FALLBACK:
        wint[row] = start
    else:
        wfloat[row] = value
    wkind[row] = kind
    return end, ROW_OK


@numba.njit(cache=True)
def _parse_rows(buf, pos, stop, line, row, prefix, comment, ncols, by_line, id_lo, id_hi,
                weight_lo, weight_hi, integers_only, float_weights, allow_nan, src, dst, wint, wfloat,
                wkind):
    """Parse rows starting before ``stop`` into the output arrays from index ``row`` on.

    Returns (status, rows, pos, line, column, token position): ``ROW_OK`` when
    ``stop`` is reached, ``ROW_FULL`` when the arrays are full, or an error
    code with the 1-based line and 0-based column of the offending token.
    """
    n = len(buf)
    while row < len(src):
        pos, line = _skip_to_row(buf, pos, line, comment)
        if pos >= stop:
            return ROW_OK, row, pos, line, 0, pos
        row_line = line
        if prefix >= 0:
            if buf[pos] != prefix or _token_end(buf, pos) != pos + 1:
                return BAD_PREFIX, row, pos, line, 0, pos
            pos += 1
        for column in range(ncols):
            pos, line = _skip_separator(buf, pos, line, by_line)
            if pos == n or buf[pos] == NEWLINE:  # reported on the row's first line
                return MISSING_COLUMN, row, pos, row_line, column, pos
            if column < 2:
                value, end, status = _read_id(buf, pos, id_lo, id_hi)
                if column == 0:
                    src[row] = value
                else:
                    dst[row] = value
            else:
                end, status = _store_weight(buf, pos, weight_lo, weight_hi, integers_only,
                                            float_weights, allow_nan, wint, wfloat, wkind, row)
            if status != ROW_OK:
                return status, row, pos, line, column, pos
            pos = end
        if by_line:
            pos, line = _skip_separator(buf, pos, line, True)
            if pos < n and buf[pos] != NEWLINE:
                return EXTRA_COLUMN, row, pos, line, ncols, pos
        row += 1
    return ROW_FULL, row, pos, line, 0, pos


@numba.njit(cache=True)
def _count_newlines(buf):
    count = 0
    for k in range(len(buf)):
        if buf[k] == NEWLINE:
            count += 1
    return count


@numba.njit(cache=True)
def _find_newline(buf, start):
    """Index of the first line break at or after ``start`` (``len(buf)`` if none)."""
    for k in range(start, len(buf)):
        if buf[k] == NEWLINE:
            return k
    return len(buf)


@numba.njit(cache=True)
def _in_word(c):
    """Whether byte ``c`` belongs to a word: neither a space nor a line break."""
    return c != NEWLINE and not _is_space(c)


@numba.njit(cache=True)
def _count_word_starts(buf, lo, hi):
    """Words starting in ``buf[lo:hi]`` (a word that began before ``lo`` is not counted)."""
    count = 0
    for k in range(lo, hi):
        if _in_word(buf[k]) and (k == 0 or not _in_word(buf[k - 1])):
            count += 1
    return count


@numba.njit(cache=True)
def _word_span(buf, lo, skip, take):
    """Start of word ``skip`` counted from ``lo`` and the end of word ``skip + take - 1``.

    Stops at the end of the buffer (the row parser then reports an incomplete row).
    """
    n = len(buf)
    pos, seen, start = lo, 0, n
    while True:
        pos = _skip_separator(buf, pos, 0, False)[0]
        if pos >= n:
            break
        if seen == skip:
            start = pos
        pos = _token_end(buf, pos)
        seen += 1
        if seen == skip + take:
            return start, pos
    return start, n


def count_lines(data: np.ndarray) -> int:
    """Line breaks in ``data``."""
    return int(_count_newlines(data))


def count_words(data: np.ndarray, lo: int, hi: int) -> int:
    """Words (runs of bytes other than spaces and line breaks) that start in ``data[lo:hi]``."""
    return int(_count_word_starts(data, lo, hi))


def first_word(data: np.ndarray, pos: int, line: int) -> tuple[int, int, int]:
    """The first word at or after ``pos`` (1-based ``line``): its start, end and line.

    Line breaks count as spaces here (PBBS files); start and end are ``len(data)``
    when no word is left.
    """
    start, line = (int(x) for x in _skip_separator(data, pos, line, False))
    return start, int(_token_end(data, start)), line


def word_span(data: np.ndarray, lo: int, skip: int, take: int) -> tuple[int, int]:
    """Bytes of ``take`` words after the first ``skip`` words from ``lo`` (line breaks are spaces).

    Returns ``(start, end)``; ``end`` may lie past a part's range (its last row
    finishes there) and is ``len(data)`` when the words run out.
    """
    start, end = _word_span(data, lo, skip, take)
    return int(start), int(end)


@dataclass(frozen=True)
class TextFile:
    """A text graph file's bytes and the name used in error messages."""

    path: str
    data: np.ndarray

    def read_line(self, pos: int) -> tuple[str, int]:
        """The line at ``pos`` (without its line break, cut at 1 MiB) and the next line's start."""
        end = int(_find_newline(self.data, pos))
        shown = self.data[pos:min(end, pos + _LONGEST_LINE_SHOWN)]
        text = shown.tobytes().decode("utf-8", errors="replace").rstrip("\r")
        return text, min(end + 1, len(self.data))

    def token(self, pos: int) -> str:
        """The whole token starting at byte ``pos``."""
        end = int(_token_end(self.data, pos))
        return self.data[pos:end].tobytes().decode("utf-8", errors="replace")

    def token_at(self, pos: int) -> str:
        """The token at byte ``pos`` for messages: shortened, or 'end of line' / 'end of file'."""
        if pos >= len(self.data):
            return "end of file"
        found = self.token(pos)
        if not found:
            return "end of line"
        return found if len(found) <= 40 else found[:37] + "..."

    def error(self, message: str, line: int) -> GraphFormatError:
        return GraphFormatError(self.path, message, line=line)


@dataclass(frozen=True)
class RowSpec:
    """What a format's data rows look like.

    ``columns`` names the fields (2 without a weight, 3 with one) for
    messages; ``prefix`` is a one-letter row tag such as DIMACS's ``a``;
    ``comments`` are the bytes that start a comment line; ``id_range`` is
    inclusive and ``id_hint`` explains it in a range error. ``ids_count``
    says that the largest id sets the vertex count (no header names it), so
    it must fit in memory (:mod:`parmst._memory`); ``sparse_hint`` follows
    that error.
    """

    columns: tuple[str, ...]
    prefix: str = ""
    comments: bytes = b""
    by_line: bool = True
    id_range: tuple[int, int] = (0, INT64_MAX)
    id_hint: str = ""
    weight_range: tuple[int, int] = (INT64_MIN, INT64_MAX)
    integer_weights: bool = False
    float_weights: bool = False
    allow_nan: bool = False
    ids_count: bool = False
    sparse_hint: str = ""

    def describe(self) -> str:
        return " ".join(([self.prefix] if self.prefix else []) + list(self.columns))


@dataclass
class Rows:
    """Parsed rows: ids (int32, or int64 if any needs it), weights (int64, float64 or None)."""

    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray | None


class _Buffers:
    """Growable output arrays of the row kernel (only the rows written are ever touched).

    Weights parse into int64 words that hold an integer or a float's bits
    (``wfloat`` views them), except when the file's weights must be integers
    of a known type: they then go straight into an array of that type.
    """

    def __init__(self, capacity: int, id_dtype: type, spec: RowSpec, most: int) -> None:
        self.most = most
        self.src = np.empty(capacity, dtype=id_dtype)
        self.dst = np.empty(capacity, dtype=id_dtype)
        wcap = capacity if len(spec.columns) == 3 else 0
        lo, hi = spec.weight_range
        self.narrow_weights = spec.integer_weights and INT32_MIN <= lo and hi <= INT32_MAX
        self.wint = np.empty(wcap, dtype=np.int32 if self.narrow_weights else np.int64)
        self.wkind = np.empty(wcap, dtype=np.int8)

    @property
    def wfloat(self) -> np.ndarray:
        return np.empty(0, dtype=np.float64) if self.narrow_weights else self.wint.view(np.float64)

    def _resize(self, rows: int, capacity: int) -> None:
        for name in ("src", "dst", "wint", "wkind"):
            old = getattr(self, name)
            if len(old):
                new = np.empty(capacity, dtype=old.dtype)
                new[:rows] = old[:rows]
                setattr(self, name, new)

    def next_capacity(self) -> int:
        """Rows after the next :meth:`grow`: doubled, but never beyond what the bytes can hold."""
        return max(min(2 * len(self.src) + 1024, self.most), len(self.src) + 1)

    def grow(self, rows: int) -> None:
        self._resize(rows, self.next_capacity())

    def trim(self, rows: int) -> None:
        """Shrink to ``rows`` when the estimate overshot by much (the graph keeps these arrays)."""
        if len(self.src) > 1.25 * rows + 4096:
            self._resize(rows, rows)


class _NeedsWideIds(Exception):
    """An id beyond int32 was met while parsing into int32 arrays."""


def _most_rows(data: np.ndarray, pos: int, spec: RowSpec) -> int:
    """Rows that the bytes from ``pos`` on can hold at most: every field takes a digit and a
    separator (or the row's line break), the prefix a letter and a space."""
    per_row = 2 * (len(spec.columns) + bool(spec.prefix))
    return (len(data) - pos + 1) // per_row + 1


def _estimate_rows(data: np.ndarray, pos: int, most: int) -> int:
    """Rows from ``pos`` on, judged by the line breaks in the first MiB (arrays grow if short)."""
    sample = data[pos:pos + _SAMPLE_BYTES]
    lines = count_lines(sample) + 1
    if len(sample) == len(data) - pos:
        return min(lines, most)
    return min(int(lines * (len(data) - pos) / len(sample) * 1.05) + 1024, most)


def _kernel_codes(spec: RowSpec) -> tuple[np.ndarray, int]:
    """The row kernel's comment table (256 flags) and prefix byte (-1 for none)."""
    comment = np.zeros(256, dtype=np.uint8)
    comment[np.frombuffer(spec.comments, dtype=np.uint8)] = 1
    return comment, ord(spec.prefix) if spec.prefix else -1


def line_of_row(text: TextFile, pos: int, line: int, spec: RowSpec, row: int) -> int:
    """The line on which data row ``row`` (0-based, from byte ``pos``, 1-based ``line``) ends.

    Parses the first ``row + 1`` rows again, a block at a time; only error
    messages need this.
    """
    block = 1 << 16
    out = _Buffers(min(block, row + 1), np.int64, spec, row + 1)
    comment, prefix = _kernel_codes(spec)
    left = row + 1
    while left:
        take = min(block, left)
        status, _, pos, line, _, _ = _parse_rows(
            text.data, pos, len(text.data), line, len(out.src) - take, prefix, comment,
            len(spec.columns), spec.by_line, *spec.id_range, *spec.weight_range,
            spec.integer_weights, spec.float_weights, spec.allow_nan, out.src, out.dst, out.wint,
            out.wfloat, out.wkind)
        if status != ROW_FULL:  # the rows were parsed once already, so this cannot happen
            raise AssertionError(f"row {row} not found again in {text.path}")
        left -= take
    return line


def _check_vertex_count(text: TextFile, pos: int, line: int, spec: RowSpec, rows: Rows) -> None:
    """GraphFormatError on the line of the largest id when ``max id + 1`` vertices cannot fit."""
    if not len(rows.src):
        return
    top = max(int(rows.src.max()), int(rows.dst.max()))
    problem = _memory.shortfall(top + 1)
    if problem is None:
        return
    row = int(np.flatnonzero((rows.src == top) | (rows.dst == top))[0])
    raise text.error(f"vertex id {top} {problem}{spec.sparse_hint}",
                     line_of_row(text, pos, line, spec, row))


def _check_rows(text: TextFile, capacity: int, id_dtype: type, spec: RowSpec, line: int) -> None:
    """GraphFormatError before row arrays of ``capacity`` rows outgrow memory."""
    row_bytes = 2 * np.dtype(id_dtype).itemsize + (9 if len(spec.columns) == 3 else 0)
    problem = _memory.shortfall(capacity, "rows", row_bytes)
    if problem is not None:
        raise text.error(f"reading on from here {problem}", line)


def parse_rows(text: TextFile, pos: int, line: int, spec: RowSpec,
               progress: bool | None = None) -> Rows:
    """Parse every row from byte ``pos`` (1-based ``line``) to the end of the file.

    Ids are parsed into int32 arrays, and the whole parse is redone with
    int64 only when an id needs it (no copy for the usual case).

    Raises
    ------
    GraphFormatError
        With the line, the expected fields and the token found.
    """
    lo, hi = spec.id_range
    try:
        rows = _parse_all(text, pos, line, spec, np.int32,
                          (max(lo, INT32_MIN), min(hi, INT32_MAX)), progress)
    except _NeedsWideIds:
        rows = _parse_all(text, pos, line, spec, np.int64, spec.id_range, progress)
    if spec.ids_count:
        _check_vertex_count(text, pos, line, spec, rows)
    return rows


def _parse_all(text: TextFile, pos: int, line: int, spec: RowSpec, id_dtype: type,
               id_range: tuple[int, int], progress: bool | None) -> Rows:
    data = text.data
    weighted = len(spec.columns) == 3
    most = _most_rows(data, pos, spec)
    estimate = _estimate_rows(data, pos, most)
    _check_rows(text, estimate, id_dtype, spec, line)
    out = _Buffers(estimate, id_dtype, spec, most)
    comment, prefix = _kernel_codes(spec)
    rows = 0
    with progress_bar(len(data) - pos, f"reading {text.path}", progress) as bar:
        while pos < len(data):
            stop = min(int(_find_newline(data, min(pos + CHUNK_BYTES, len(data)))) + 1, len(data))
            status, rows, new_pos, line, column, at = _parse_rows(
                data, pos, stop, line, rows, prefix, comment, len(spec.columns), spec.by_line,
                *id_range, *spec.weight_range, spec.integer_weights, spec.float_weights,
                spec.allow_nan,
                out.src, out.dst, out.wint, out.wfloat, out.wkind)
            bar.update(new_pos - pos)
            pos = new_pos
            if status == ROW_FULL:
                _check_rows(text, out.next_capacity(), id_dtype, spec, line)
                out.grow(rows)
            elif status == ID_RANGE and id_range != spec.id_range and (
                    spec.id_range[0] <= int(text.token(at)) <= spec.id_range[1]):
                raise _NeedsWideIds
            elif status != ROW_OK:
                raise text.error(_message(text, spec, status, column, at), line)
    out.trim(rows)
    weight = _weights(text, out, rows) if weighted else None
    return Rows(out.src[:rows], out.dst[:rows], weight)


def _weights(text: TextFile, out: _Buffers, rows: int) -> np.ndarray:
    """int64 if every weight is an integer, else float64 (integers converted exactly-rounded)."""
    kind = out.wkind[:rows]
    wint = out.wint[:rows]
    if not (kind != NUMBER_INT).any():
        return wint
    weight = np.where(kind == NUMBER_INT, wint.astype(np.float64), out.wfloat[:rows])
    for row in np.flatnonzero(kind == NUMBER_FALLBACK):
        weight[row] = float(text.token(int(wint[row])))
    return weight


def _message(text: TextFile, spec: RowSpec, status: int, column: int, at: int) -> str:
    found = text.token_at(at)
    fields = spec.describe()
    if status == BAD_PREFIX:
        return f"expected a line '{fields}', found '{found}'"
    if status == MISSING_COLUMN:
        return (f"expected {len(spec.columns)} fields '{fields}', found {column} "
                f"(missing '{spec.columns[column]}' at {found})")
    if status == EXTRA_COLUMN:
        return f"expected {len(spec.columns)} fields '{fields}', found an extra field '{found}'"
    name = spec.columns[column]
    if status == BAD_ID:
        return f"expected an integer vertex id for '{name}', found '{found}'"
    if status == ID_RANGE:
        lo, hi = spec.id_range
        return f"vertex id {found} for '{name}' is out of range {lo}..{hi}{spec.id_hint}"
    if status == BAD_WEIGHT:
        what = "an integer" if spec.integer_weights else "a number"
        return f"expected {what} for the weight '{name}', found '{found}'"
    if status == WEIGHT_RANGE:
        lo, hi = spec.weight_range
        return f"weight {found} is out of range {lo}..{hi}"
    if status == WEIGHT_OVERFLOW:
        return (f"integer weight {found} does not fit int64 (-2**63..2**63-1); write it with a "
                f"decimal point ({found}.0) to read it as a float, or read with "
                f"weight_dtype='float64'")
    if status == NAN_WEIGHT:
        return f"NaN weight '{found}' (pass allow_nan=True to keep NaN weights)"
    raise AssertionError(f"unknown row status {status}")
