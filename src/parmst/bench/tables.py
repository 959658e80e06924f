"""The Markdown tables of every report: throughput per graph, speedups, front doors and their
floor, details.

Each writer takes a :class:`~parmst.bench.result.BenchResult` and returns the
table's lines, or none when the result has nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import median

from parmst.bench.cells import (
    fmt_rate,
    fmt_ratio,
    fmt_time,
    fmt_weight,
    geomean,
    status_cell,
    table,
)
from parmst.bench.result import SCIPY, BenchResult

__all__ = ["detail_table", "floor_table", "front_door_table", "graph_table", "headline_table", "notes",
           "overhead_table", "paired_ratio", "summary_table"]


def headline_table(result: BenchResult) -> list[str]:
    """Rows = graphs, columns = solvers (and the reference's figures), cells = M edges/s;
    geometric mean last."""
    labels = result.labels()
    by_cell = {(r.graph, r.label): r for r in result.records}
    reference = result.reference
    figures = [] if reference is None else [reference["values"].get(g.name)
                                             for g in result.graphs]
    rows = []
    for i, g in enumerate(result.graphs):
        row = [g.name, f"{g.num_edges:,}"]
        if reference is not None:
            row.append(fmt_rate(figures[i]))
        rows.append(row + [status_cell(result, by_cell.get((g.name, lab))) for lab in labels])
    means = [geomean([result.throughput(r) or 0 for r in result.records
                       if r.label == lab and r.ok]) for lab in labels]
    last = ["geometric mean", ""]
    if reference is not None:
        last.append(fmt_rate(geomean([f for f in figures if f])))
    rows.append(last + [fmt_rate(m) for m in means])
    header = ["graph", "edges"] + ([reference["name"]] if reference else []) + labels
    return table(header, rows)


def summary_table(result: BenchResult) -> list[str]:
    """Per solver: geometric means over the graphs of throughput and of speedups."""
    baseline, rows = result.baseline, []
    for label in result.labels():
        records = [r for r in result.records if r.label == label and r.ok]
        if not records or records[0].kind == "io":
            continue
        rows.append([label, str(len(records)),
                     fmt_rate(geomean([result.throughput(r) or 0 for r in records])),
                     fmt_ratio(geomean([result.speedup(r, baseline) or 0 for r in records])),
                     fmt_ratio(geomean([result.speedup(r, SCIPY) or 0 for r in records]))])
    if len(rows) < 2:
        return []
    return table(["solver", "graphs", "M edges/s", f"vs {baseline}", f"vs {SCIPY}"], rows)


def front_door_table(result: BenchResult) -> list[str]:
    """Per graph: each front door's speedup over the call it replaces; geometric mean and
    lowest last."""
    return _paired_table(result, "compares_with", "vs", lambda mine, theirs: theirs / mine,
                         "lowest", min)


def floor_table(result: BenchResult) -> list[str]:
    """Per graph and front door with a floor: the median of its runs, the median of the
    floor's timed beside each of them on the same graph in the same process, and the median
    of the per-run ratios (:func:`paired_ratio`), whatever the run's scheme; per door the
    geometric mean and the highest last.

    Examples
    --------
    >>> from parmst.bench.result import GraphInfo, Record
    >>> result = BenchResult(machine={}, config={},
    ...                      graphs=[GraphInfo("g", "grid2d", 500, 1000, "float64")],
    ...                      records=[Record("g", "parmst-networkx-uncached", kind="peer",
    ...                                      times=[0.42, 0.9, 0.4], time=0.42,
    ...                                      extra={"floor_times": [0.35, 0.5, 0.35]})])
    >>> floor_table(result)[2]
    '| g | 1,000 | parmst-networkx-uncached | 0.42 | 0.35 | 1.20x |'
    """
    from parmst.bench.peers import PEERS

    edges = {g.name: g.num_edges for g in result.graphs}
    calls = [label for label in result.labels() if label in PEERS and PEERS[label].floor]
    rows = []
    for label in calls:
        ratios = []
        for r in result.records:
            if r.label != label or not r.ok or not r.extra.get("floor_times"):
                continue
            ratios.append(paired_ratio(r.times, r.extra["floor_times"]))
            rows.append([r.graph, f"{edges.get(r.graph, 0):,}", label, fmt_time(median(r.times)),
                         fmt_time(median(r.extra["floor_times"])), fmt_ratio(ratios[-1])])
        if ratios:
            rows.append(["geometric mean", "", label, "", "", fmt_ratio(geomean(ratios))])
            rows.append(["highest", "", label, "", "", fmt_ratio(max(ratios))])
    if not rows:
        return []
    return table(["graph", "edges", "call", "call (s)", "floor beside it (s)",
                  "call / floor"], rows)


def paired_ratio(times: list[float], floor_times: list[float]) -> float:
    """The median over runs of each run's time over the floor's timed beside it.

    Each pair was timed within a second or so, so a load change slower than that
    scales both of its times and leaves its ratio; the median then drops the pairs that
    a change inside the pair moved. (A ratio of the two medians would divide times
    taken at different moments again.)

    Examples
    --------
    >>> paired_ratio([2.0, 9.0, 3.0], [1.0, 3.0, 2.0])
    2.0
    """
    if len(times) != len(floor_times):
        raise ValueError(f"{len(times)} runs but {len(floor_times)} floor runs beside them")
    return median([mine / least for mine, least in zip(times, floor_times)])


def overhead_table(result: BenchResult) -> list[str]:
    """Per graph and whole call that wraps a solve: the solver it picked, both times and the
    call's over the solve's (the bare solve timed beside each run of the call, in the same
    process, from the same state); geometric mean and highest last."""
    rows, ratios = [], []
    edges = {g.name: g.num_edges for g in result.graphs}
    for r in result.records:
        solve = r.extra.get("wrapped_time") if r.ok else None
        if not solve or not r.time:
            continue
        ratios.append(r.time / solve)
        rows.append([r.graph, f"{edges.get(r.graph, 0):,}", r.solver,
                     r.extra.get("wrapped_solver", ""), fmt_time(r.time), fmt_time(solve),
                     fmt_ratio(ratios[-1])])
    if not rows:
        return []
    rows.append(["geometric mean", "", "", "", "", "", fmt_ratio(geomean(ratios))])
    rows.append(["highest", "", "", "", "", "", fmt_ratio(max(ratios))])
    return table(["graph", "edges", "call", "solver picked", "whole call (s)", "solve (s)",
                  "call / solve"], rows)


def _paired_table(result: BenchResult, partner: str, sign: str,
                  ratio_of: Callable[[float, float], float], worst_name: str,
                  worst: Callable[[list[float]], float]) -> list[str]:
    """Per graph: ``ratio_of(peer's time, partner's time)`` for every peer that names a
    partner (its :class:`~parmst.bench.peers.Peer` attribute ``partner``) that ran; the
    geometric mean and the ``worst`` ratio last."""
    from parmst.bench.peers import PEERS

    pairs = [(label, getattr(PEERS[label], partner)) for label in result.labels()
             if label in PEERS and getattr(PEERS[label], partner)]
    pairs = [(label, other) for label, other in pairs
             if any(r.label == other and r.ok for r in result.records)]
    if not pairs:
        return []
    by_cell = {(r.graph, r.label): r for r in result.records if r.ok}
    rows, ratios = [], {label: [] for label, _ in pairs}
    for g in result.graphs:
        row = [g.name, f"{g.num_edges:,}"]
        for label, other in pairs:
            mine, theirs = by_cell.get((g.name, label)), by_cell.get((g.name, other))
            ratio = (ratio_of(mine.time, theirs.time)
                     if mine and theirs and mine.time and theirs.time else None)
            if ratio is not None:
                ratios[label].append(ratio)
            row.append(fmt_ratio(ratio))
        rows.append(row)
    rows.append(["geometric mean", ""] + [fmt_ratio(geomean(ratios[label]))
                                          for label, _ in pairs])
    rows.append([worst_name, ""] + [fmt_ratio(worst(ratios[label]) if ratios[label] else None)
                                    for label, _ in pairs])
    return table(["graph", "edges"] + [f"{label} {sign} {other}" for label, other in pairs], rows)


def detail_table(result: BenchResult) -> list[str]:
    baseline = result.baseline
    header = ["graph", "solver", "threads", "time (s)", "init (s)", "compute (s)",
              "CPU (s)", "M edges/s", f"vs {baseline}", f"vs {SCIPY}", "rounds",
              "warm-up (s)", "status"]
    rows = []
    for r in result.records:
        if r.kind == "scan":  # in scan_table
            continue
        threads = r.threads_used if r.threads_used is not None else r.threads
        status = r.status if r.converged else "ok, not converged †"
        name = f"{r.solver}[{r.variant}]" if r.variant else r.solver
        if r.ranks is not None:
            name += f" {r.ranks} rank{'s' if r.ranks > 1 else ''}"
        rows.append([r.graph, name, "" if threads is None else str(threads),
                     fmt_time(r.time), fmt_time(r.init_time), fmt_time(r.compute_time),
                     fmt_time(r.cpu_time), fmt_rate(result.throughput(r)),
                     fmt_ratio(result.speedup(r, baseline) if r.kind != "io" else None),
                     fmt_ratio(result.speedup(r, SCIPY) if r.kind != "io" else None),
                     "" if r.rounds is None else str(r.rounds), fmt_time(r.warmup_time),
                     status])
    return table(header, rows, "lllrrrrrrrrrl")


def graph_table(result: BenchResult) -> list[str]:
    rows = [[g.name, f"`{g.source}`", g.stands_for, f"{g.num_vertices:,}",
             f"{g.num_edges:,}", g.weight_dtype,
             "" if g.num_components is None else f"{g.num_components:,}",
             fmt_weight(g.total_weight),
             {True: "yes", False: "**FAILED**", None: ""}[g.verified]]
            for g in result.graphs]
    return table(["graph", "source", "stands for", "vertices", "edges", "weights",
                   "components", "forest weight", "verified"], rows, "lllrrlrrl")


def notes(result: BenchResult) -> list[str]:
    lines = []
    for r in result.records:
        if r.note:
            lines.append(f"- {r.graph}, {r.label}: {r.status}: {r.note}")
    for g in result.graphs:
        if g.verified is False:
            lines.append(f"- {g.name}: reference forest FAILED verification: "
                         f"{g.verify_message}")
    for graph, why in (result.config.get("skipped_graphs") or {}).items():
        lines.append(f"- graph {graph} not run: {why}")
    for peer, why in (result.config.get("skipped_peers") or {}).items():
        lines.append(f"- peer {peer} not run: {why}")
    return lines
