"""Writing rows ``[prefix] u v w`` as text, vectorized.

A Numba kernel formats integers straight into a byte buffer, a chunk of
rows at a time. Float weights are rendered by Python's ``repr`` (the
shortest text that reads back to the same float64; float32 weights are
written as their exact float64 value) through ``repr`` of a whole list,
which runs in C, and the kernel copies those tokens into place.
"""

from __future__ import annotations

from typing import BinaryIO

import numba
import numpy as np

from parmst.formats._files import progress_bar

ROWS_PER_CHUNK = 1 << 20
BYTES_PER_ROW_ESTIMATE = 20
_MAX_INT_CHARS = 20  # "-9223372036854775808"


@numba.njit(cache=True)
def _put_int(out, pos, value):
    """Write ``value`` in decimal at ``out[pos:]``; returns the position after it."""
    if value < 0:
        out[pos] = 45
        pos += 1
        magnitude = np.uint64(-(value + 1)) + np.uint64(1)  # -2**63 has no int64 negation
    else:
        magnitude = np.uint64(value)
    digits = 1
    probe = magnitude
    while probe >= np.uint64(10):
        probe //= np.uint64(10)
        digits += 1
    for k in range(digits - 1, -1, -1):
        out[pos + k] = np.uint64(48) + magnitude % np.uint64(10)
        magnitude //= np.uint64(10)
    return pos + digits


@numba.njit(cache=True)
def _format_rows(prefix, separator, src, dst, base, wint, wtext, out):
    """Rows ``prefix u+base sep v+base sep w`` into ``out``; returns the byte count.

    Weights come from ``wint`` (integers) or, when it is empty and there are
    rows, from ``wtext``: the tokens one per line.
    """
    pos = 0
    t = 0
    for e in range(len(src)):
        for b in prefix:
            out[pos] = b
            pos += 1
        pos = _put_int(out, pos, src[e] + base)
        out[pos] = separator
        pos = _put_int(out, pos + 1, dst[e] + base)
        out[pos] = separator
        pos += 1
        if len(wint) > 0:
            pos = _put_int(out, pos, wint[e])
        else:
            while wtext[t] != 10:
                out[pos] = wtext[t]
                pos += 1
                t += 1
            t += 1
        out[pos] = 10
        pos += 1
    return pos


def float_tokens(weight: np.ndarray) -> np.ndarray:
    """Shortest round-trip text of each weight (as float64), one per line, as bytes."""
    text = repr(weight.tolist())[1:-1].replace(", ", "\n") + "\n"
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8)


def write_rows(f: BinaryIO, src: np.ndarray, dst: np.ndarray, weight: np.ndarray, *,
               prefix: str = "", separator: str = " ", base: int = 0,
               progress: bool | None = None, description: str = "writing") -> None:
    """Write one text row per edge to the open binary file ``f``."""
    prefix_bytes = np.frombuffer(prefix.encode("ascii"), dtype=np.uint8)
    per_row = len(prefix_bytes) + 3 * (_MAX_INT_CHARS + 1)
    m = len(src)
    empty_ints = np.zeros(0, dtype=np.int64)
    with progress_bar(m, description, progress, unit="edges",
                      size_in_bytes=m * BYTES_PER_ROW_ESTIMATE) as bar:
        for start in range(0, m, ROWS_PER_CHUNK):
            part = slice(start, start + ROWS_PER_CHUNK)
            w = weight[part]
            if w.dtype.kind == "f":
                wint, wtext = empty_ints, float_tokens(w)
            else:
                wint, wtext = w.astype(np.int64, copy=False), np.zeros(0, dtype=np.uint8)
            out = np.empty(len(w) * per_row + len(wtext), dtype=np.uint8)
            used = _format_rows(prefix_bytes, ord(separator), src[part].astype(np.int64),
                                dst[part].astype(np.int64), base, wint, wtext, out)
            f.write(out[:used].data)
            bar.update(len(w))
