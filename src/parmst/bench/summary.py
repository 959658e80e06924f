"""The few lines ``parmst bench`` prints on the terminal; the whole report goes to its files.

Per graph: the fastest parmst solver, its throughput, and its speed over the main
peer (SciPy where it ran, else the first peer that did, else the baseline); then
the wrong and failed results, if any, by name.
"""

from __future__ import annotations

from parmst.bench.cells import fmt_rate, fmt_ratio
from parmst.bench.result import SCIPY, BenchResult, Record

__all__ = ["main_peer", "summary"]


def main_peer(result: BenchResult) -> str | None:
    """The peer the summary compares with: SciPy if it has a time, else the first that has,
    else the run's baseline (None when no baseline ran either)."""
    timed = [r.label for r in result.records if r.kind == "peer" and r.ok]
    if timed:
        return SCIPY if SCIPY in timed else timed[0]
    baseline = result.baseline
    return baseline if any(r.label == baseline and r.ok for r in result.records) else None


def _fastest(result: BenchResult, graph: str) -> Record | None:
    timed = [r for r in result.records if r.graph == graph and r.kind == "parmst" and r.ok
             and result.seconds(r)]
    return min(timed, key=result.seconds, default=None)


def _columns(rows: list[list[str]]) -> list[str]:
    """Rows as aligned text: the first two columns left, the others right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in rows]


def summary(result: BenchResult) -> list[str]:
    """The terminal's lines for ``result``: one per graph, then the failures.

    Examples
    --------
    >>> from parmst.bench.result import GraphInfo
    >>> r = BenchResult(machine={}, config={"name": "demo"},
    ...                 graphs=[GraphInfo("g", "grid2d", 4, 2_000_000, "int32")],
    ...                 records=[Record("g", "kruskal/serial", time=0.5),
    ...                          Record("g", "ecl/cpu", threads=2, time=0.1),
    ...                          Record("g", "scipy", kind="peer", time=1.0)])
    >>> print("\\n".join(summary(r)))
    demo: 1 graph, 2 solver variants, 1 peer; fastest per graph:
      graph  fastest     M edges/s  vs scipy
      g      ecl/cpu x2         20    10.00x
    """
    labels = {r.label for r in result.records if r.kind == "parmst"}
    counts = [(len(result.graphs), "graph"), (len(labels), "solver variant")] + [
        (len({r.label for r in result.records if r.kind == kind}), noun)
        for kind, noun in (("peer", "peer"), ("io", "format timing"), ("scan", "scan"))]
    said = ", ".join(f"{n} {noun}{'s' * (n != 1)}" for n, noun in counts if n or noun == "graph")
    lines = [f"{result.config.get('name') or 'custom'}: {said}"
             + ("; fastest per graph:" if labels and result.graphs else "")]
    if labels and result.graphs:
        peer = main_peer(result)
        rows = [["graph", "fastest", "M edges/s"] + ([f"vs {peer}"] if peer else [])]
        for graph in result.graphs:
            best = _fastest(result, graph.name)
            row = [graph.name, best.label if best else "none ran",
                   fmt_rate(result.throughput(best)) if best else ""]
            if peer:
                row.append(fmt_ratio(result.speedup(best, peer)) if best else "")
            rows.append(row)
        lines += ["  " + line for line in _columns(rows)]
    wrong = [r for r in result.records if r.status in ("MISMATCH", "error")]
    lines += [f"  {r.status}: {r.label} on {r.graph}: {r.note}" for r in wrong]
    lines += [f"  reference forest of {g.name} did not verify: {g.verify_message}"
              for g in result.graphs if g.verified is False]
    return lines
