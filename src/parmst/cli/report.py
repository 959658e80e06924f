"""Printing a solve's report: JSON, or aligned ``key  value`` lines."""

from __future__ import annotations

import json
from typing import Any


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
