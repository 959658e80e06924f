"""Two benchmark runs side by side: time ratios of the (graph, solver) pairs both measured."""

from __future__ import annotations

from typing import Any

from parmst.bench.cells import fmt_ratio, fmt_time, geomean, table
from parmst.bench.machine import describe_machine
from parmst.bench.result import BenchResult

__all__ = ["compare", "format_compare"]


def compare(before: BenchResult, after: BenchResult) -> list[dict[str, Any]]:
    """Match the ok records of two runs by (graph, solver, threads); time ratios.

    ``speedup`` is ``before.time / after.time``: above 1 when ``after`` is faster.

    Examples
    --------
    >>> from parmst.bench.result import Record
    >>> a = BenchResult({}, {}, [], [Record("g", "s", time=2.0)])
    >>> b = BenchResult({}, {}, [], [Record("g", "s", time=1.0)])
    >>> compare(a, b)[0]["speedup"]
    2.0
    """
    later = {(r.graph, r.label): r for r in after.records if r.ok}
    rows = []
    for r in before.records:
        match = later.get((r.graph, r.label))
        if r.ok and match is not None:
            rows.append({"graph": r.graph, "solver": r.label, "before": r.time,
                         "after": match.time, "speedup": r.time / match.time})
    return rows


def format_compare(before: BenchResult, after: BenchResult,
                   names: tuple[str, str] = ("A", "B")) -> str:
    """A Markdown table of :func:`compare`, with both machines and a geometric mean."""
    rows = compare(before, after)
    lines = [f"{names[0]}: {describe_machine(before.machine)}",
             f"{names[1]}: {describe_machine(after.machine)}", ""]
    if not rows:
        return "\n".join(lines + ["no (graph, solver) pair measured in both runs"]) + "\n"
    body = [[row["graph"], row["solver"], fmt_time(row["before"]), fmt_time(row["after"]),
             fmt_ratio(row["speedup"])] for row in rows]
    body.append(["geometric mean", "", "", "", fmt_ratio(geomean([r["speedup"] for r in rows]))])
    lines += table(["graph", "solver", f"{names[0]} time (s)", f"{names[1]} time (s)",
                     f"{names[0]}/{names[1]}"], body, "llrrr")
    return "\n".join(lines) + "\n"
