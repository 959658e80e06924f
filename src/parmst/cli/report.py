"""Printing a solve's report: JSON, or aligned ``key  value`` lines."""

from __future__ import annotations

import json
import re
from typing import Any

# The library's advice names its Python keywords; on the command line the flags that set them.
_FLAGS = (
    (re.compile(r"pass allow_nan=True (?:and solve\s+with ignore_nan=True )?to "
                r"(?:keep NaN weights|leave them out)"), "give --ignore-nan to leave those edges out"),
    (re.compile(r"pass (?:allow|ignore)_nan=True"), "give --ignore-nan"),
    (re.compile(r"read with relabel=True \(parmst CLI: --relabel\)"), "give --relabel"),
    (re.compile(r"take relabel=True"), "take --relabel"),
    (re.compile(r"number the vertices 0\.\.n-1 with graph\.with_labels\(None\)"),
     "give --relabel to number the vertices 0..n-1"),
    (re.compile(r", or read with weight_dtype='float64'"), ""),
    (re.compile(r"\bthreads=(?=\S)"), "--threads "),
)


def cli_words(message: str) -> str:
    """``message`` with the library's Python keywords (``allow_nan=True``) replaced by the
    command-line flags that set them (``--ignore-nan``).

    Examples
    --------
    >>> cli_words("line 2: NaN weight 'nan' (pass allow_nan=True to keep NaN weights)")
    "line 2: NaN weight 'nan' (give --ignore-nan to leave those edges out)"
    """
    for pattern, flag in _FLAGS:
        message = pattern.sub(flag, message)
    return message


def print_report(report: dict[str, Any], as_json: bool) -> None:
    """Print a solve report as JSON or as aligned ``key  value`` lines."""
    if as_json:
        print(json.dumps(report, default=str, indent=2))
        return
    width = max(len(k) for k in report)
    for key, value in report.items():
        if isinstance(value, float):
            value = f"{value:.6f}"
        print(f"{key:<{width}}  {value}")
