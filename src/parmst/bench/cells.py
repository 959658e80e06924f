"""The cells of the Markdown reports: numbers as text, and a table from rows."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parmst.bench.result import BenchResult, Record

__all__ = ["fmt_rate", "fmt_ratio", "fmt_time", "fmt_weight", "geomean", "status_cell", "table"]


def fmt_time(seconds: float | None) -> str:
    """Seconds to 3 significant digits; blank for None."""
    return "" if seconds is None else f"{seconds:.3g}"


def fmt_weight(weight: float | None) -> str:
    """An exact integer weight with thousands separators, a float to 10 digits."""
    if weight is None:
        return ""
    return f"{weight:,}" if isinstance(weight, int) else f"{weight:.10g}"


def fmt_ratio(value: float | None) -> str:
    """A speedup such as ``2.50x``."""
    return "" if value is None else f"{value:.2f}x"


def fmt_rate(value: float | None) -> str:
    """A throughput: whole numbers from 100 up, 3 significant digits below."""
    if value is None:
        return ""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def geomean(values: list[float]) -> float | None:
    """The geometric mean of the positive values, None without any.

    Examples
    --------
    >>> geomean([1.0, 4.0, 0.0])
    2.0
    """
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    """A Markdown table's lines; ``align`` has one ``l`` or ``r`` per column (default: the
    first left, the rest right).

    Examples
    --------
    >>> table(["graph", "edges"], [["g", "4"]])
    ['| graph | edges |', '| --- | ---: |', '| g | 4 |']
    """
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---:" if a == "r" else "---" for a in align]
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"] + [
        "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]


def status_cell(result: BenchResult, record: Record | None) -> str:
    """A record's cell in a per-graph table: its throughput, or what kept it from one."""
    if record is None:
        return ""
    if record.status == "MISMATCH":
        return "**MISMATCH**"
    if record.status == "error":
        return "error"
    if record.status == "skipped":
        return "—"
    return fmt_rate(result.throughput(record)) + ("" if record.converged else " †")
