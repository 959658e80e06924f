"""Text fields as numbers, where fields are already split (CSV tables, edge lists of names).

The numeric text formats parse their bytes with the Numba tokenizer of
:mod:`parmst.formats._rows`; tables whose fields are strings (names beside the
numbers) are split first and their weight column parsed here with NumPy, by
the same rules: integers -> int64 (an integer literal beyond int64 refused
unless floats are asked for), other numbers -> float64, a ``weight_dtype``
enforced, NaN only where allowed. ``fail(row, what)`` builds the caller's
error for the first bad row (the caller knows its file, line and column).

Examples
--------
>>> parse_weights(np.array(["3", "-1"]), None, False, None).tolist()
[3, -1]
>>> parse_weights(np.array(["3", "1e3"]), None, False, None).tolist()
[3.0, 1000.0]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["INT64_LIMIT", "as_integers", "integer_literals", "is_number", "parse_weights"]

INT64_LIMIT = 2.0**63


def as_integers(text: np.ndarray) -> np.ndarray | None:
    """``text`` as int64 if every entry is an integer literal within int64, else None."""
    try:
        return text.astype(np.int64)
    except (ValueError, OverflowError):
        return None


def integer_literals(text: np.ndarray) -> np.ndarray:
    """Which entries are integer literals (``[+-]digits``, surrounding spaces allowed)."""
    bare = np.char.lstrip(np.char.strip(text), "+-")
    return np.char.isdigit(bare)


def parse_weights(text: np.ndarray, dtype: np.dtype | None, allow_nan: bool,
                  fail: Callable[[int, str], Exception]) -> np.ndarray:
    """The weight fields ``text`` as numbers (see the module docstring); ``fail(row, what)``
    gives the error to raise for the first bad row, ``what`` saying what it holds."""
    values = as_integers(text) if dtype is None or dtype.kind == "i" else None
    if values is None:
        try:
            values = text.astype(np.float64)
        except ValueError:
            bad = next(i for i, token in enumerate(text.tolist()) if not is_number(token))
            raise fail(bad, f"holds {str(text[bad])!r}; expected a number") from None
        huge = np.flatnonzero(np.abs(values) >= INT64_LIMIT)
        huge = huge[integer_literals(text[huge])]
        if len(huge) and (dtype is None or dtype.kind == "i"):
            bad = int(huge[0])
            raise fail(bad, f"holds the integer {text[bad].strip()}, beyond int64; read it "
                            "with weight_dtype='float64' to take such integers as floats")
        if dtype is not None and dtype.kind == "i":
            bad = int(np.flatnonzero(~integer_literals(text))[0])
            raise fail(bad, f"holds {str(text[bad])!r}; weight_dtype={dtype.name} needs "
                            "integers")
    if dtype is not None and dtype.kind == "i" and dtype != values.dtype:
        info = np.iinfo(dtype)
        outside = (values < info.min) | (values > info.max)
        if outside.any():
            bad = int(np.flatnonzero(outside)[0])
            raise fail(bad, f"holds {values[bad]}, beyond {dtype.name}")
    if values.dtype.kind == "f" and not allow_nan and np.isnan(values).any():
        bad = int(np.flatnonzero(np.isnan(values))[0])
        raise fail(bad, "holds NaN; pass allow_nan=True and solve with ignore_nan=True to "
                        "leave them out")
    return values if dtype is None else values.astype(dtype)


def is_number(token: str) -> bool:
    """Whether Python reads ``token`` as a float (one token at a time: error paths and
    single tokens only)."""
    try:
        float(token)
    except ValueError:
        return False
    return True


