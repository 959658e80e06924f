"""PNG plots of a benchmark result (matplotlib, imported only when plotting).

- throughput per graph per solver, a grouped bar chart as in Fallin et al.'s
  Figures 3-4 (``bench_<name>.png``);
- speedup against thread count for solvers run with several ``threads``,
  as Shou and He's and Sousa's scaling plots (``bench_<name>_scaling.png``);
- time against graph size for size series such as ``prim-dense``, as
  Pugliese's chart (``bench_<name>_size.png``);
- kernel time against input size for the prefix-scan experiment, as Sun and
  Skadron's Figures 5-6 (``bench_<name>_scan.png``).

Figures are drawn on :class:`matplotlib.figure.Figure` objects with the Agg
canvas, so plotting never changes the pyplot backend of the caller.
matplotlib is optional (``pip install 'parmst[plot]'``): :func:`unavailable`
says when it is missing, and the reports are written without plots.
"""

from __future__ import annotations

import importlib.util
import math
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parmst.bench.result import BenchResult

__all__ = ["plot_all", "plot_scaling", "plot_scan", "plot_size", "plot_throughput",
           "unavailable"]

_DPI = 120


def unavailable() -> str | None:
    """Why plots cannot be drawn here (matplotlib missing), or None.

    Examples
    --------
    >>> unavailable() is None or "parmst[plot]" in unavailable()
    True
    """
    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):
        found = False
    return None if found else "matplotlib is not installed (pip install 'parmst[plot]')"


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=_DPI, layout="constrained")


def _colours(count: int) -> list:
    """Distinct colours: tab20's ten dark shades first, then its ten light ones."""
    from matplotlib import colormaps

    cmap = colormaps["tab20"]
    order = list(range(0, 20, 2)) + list(range(1, 20, 2))
    return [cmap(order[i % 20]) for i in range(count)]


def _plain_numbers(axis) -> None:
    """Label a log axis 0.2, 0.5, 1, 2, 5 instead of 2x10^-1, ..., 10^0, 2x10^0."""
    from matplotlib.ticker import FuncFormatter

    def minor(value: float, _: int) -> str:
        mantissa = f"{value:.0e}"[0]
        return f"{value:g}" if mantissa in "25" else ""

    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(FuncFormatter(minor))


def _subtitle(result: BenchResult) -> str:
    from parmst.bench.machine import short_machine

    return f"{short_machine(result.machine)}; {result.config.get('scheme_text', '')}"


def plot_throughput(result: BenchResult, path: Path) -> Path:
    """Grouped bars: one group per graph, one bar per solver or peer (log scale)."""
    from matplotlib.patches import Patch

    shown = {r.label for r in result.records if r.ok or r.status == "MISMATCH"}
    labels = [label for label in result.labels() if label in shown]
    graphs = result.graphs
    by_cell = {(r.graph, r.label): r for r in result.records}
    reference = result.reference
    if reference is not None:  # the published figures, drawn as the first bar of each group
        labels.insert(0, reference["name"])
    handles = []
    width = min(0.8 / max(len(labels), 1), 0.3)
    fig_width = max(7.0, 1.0 + len(graphs) * (0.35 + 0.22 * len(labels)))
    fig = _figure(fig_width, 5.2)
    ax = fig.add_subplot()
    peer = {r.label for r in result.records if r.kind == "peer"}
    for i, (label, colour) in enumerate(zip(labels, _colours(len(labels)))):
        offset = (i - (len(labels) - 1) / 2) * width
        hatch = "//" if label in peer else None
        if reference is not None and label == reference["name"]:
            colour, hatch = "lightgrey", "xx"
        for j, graph in enumerate(graphs):
            record = by_cell.get((graph.name, label))
            if reference is not None and label == reference["name"]:
                figure = reference["values"].get(graph.name)
                if figure:
                    ax.bar(j + offset, figure, width, color=colour, edgecolor="black",
                           linewidth=0.4, hatch=hatch)
                continue
            if record is None:
                continue
            rate = result.throughput(record)
            if rate is not None:
                ax.bar(j + offset, rate, width, color=colour, edgecolor="black", linewidth=0.4,
                       hatch=hatch)
            elif record.status == "MISMATCH":
                ax.text(j + offset, 0.02, "MISMATCH", rotation=90, color="red", ha="center",
                        va="bottom", fontsize=7, transform=ax.get_xaxis_transform())
        handles.append(Patch(facecolor=colour, edgecolor="black", linewidth=0.4,
                             hatch=hatch, label=label))
    ax.set_xticks(range(len(graphs)),
                  [f"{g.name}\n{g.num_edges / 1e6:.2g} M edges" for g in graphs], fontsize=8)
    ax.set_yscale("log")
    _plain_numbers(ax.yaxis)
    what = "computation only" if result.measure == "compute" else "whole solve"
    ax.set_ylabel(f"throughput, {what} (million edges / s, log scale)")
    ax.grid(axis="y", which="major", alpha=0.4)
    ax.set_title(f"{result.config.get('name', '')}: throughput per graph (higher is better)\n"
                 f"{_subtitle(result)}", fontsize=9)
    # About 1.9 inches per legend column keeps the longest solver names inside the figure.
    fig.legend(handles=handles, fontsize=8, ncols=max(1, min(len(labels), int(fig_width / 1.9))),
               loc="outside lower center", frameon=False)
    fig.savefig(path)
    return path


def _panels(count: int) -> tuple[Any, Any]:
    """A figure of ``count`` panels, three to a row, and its axes (the spare ones hidden)."""
    columns = min(count, 3)
    rows = math.ceil(count / columns)
    fig = _figure(4.2 * columns, 3.6 * rows + 0.6)
    axes = fig.subplots(rows, columns, squeeze=False).ravel()
    for ax in axes[count:]:
        ax.set_visible(False)
    return fig, axes


def _sweeps(result: BenchResult, by: str) -> dict[str, dict[str, dict[int, float]]]:
    """solver -> graph -> {count: time} for solvers timed at several ``by`` (threads, ranks)."""
    sweeps: dict[str, dict[str, dict[int, float]]] = defaultdict(lambda: defaultdict(dict))
    for record in result.records:
        count = getattr(record, by)
        if record.ok and count is not None and not record.extra.get("weak"):
            # ranks: the solve, without the parallel read
            sweeps[record.solver][record.graph][count] = (record.compute_time if by == "ranks"
                                                          else record.time)
    return {solver: graphs for solver, graphs in sweeps.items()
            if any(len(times) > 1 for times in graphs.values())}


def plot_scaling(result: BenchResult, path: Path, by: str = "threads") -> Path | None:
    """Speedup over the solver's own run with the fewest ``by`` (threads or ranks), one panel
    per solver."""
    sweeps = _sweeps(result, by)
    if not sweeps:
        return None
    fig, axes = _panels(len(sweeps))
    for ax, (solver, graphs) in zip(axes, sorted(sweeps.items())):
        fewest = min(min(times) for times in graphs.values())
        most = max(max(times) for times in graphs.values())
        for (graph, times), colour in zip(sorted(graphs.items()), _colours(len(graphs))):
            counts = sorted(times)
            ax.plot(counts, [times[counts[0]] / times[t] for t in counts],
                    marker="o", color=colour, label=graph)
        ax.plot([fewest, most], [1, most / fewest], linestyle="--", color="grey", label="ideal")
        ax.set_title(solver, fontsize=9)
        ax.set_xlabel(by)
        ax.set_ylabel(f"speedup over {fewest} {by if fewest > 1 else by[:-1]}")
        ax.grid(alpha=0.4)
        ax.legend(fontsize=7)
    fig.suptitle(f"{result.config.get('name', '')}: speedup vs {by}\n{_subtitle(result)}",
                 fontsize=9)
    fig.savefig(path)
    return path


def plot_size(result: BenchResult, path: Path) -> Path:
    """Time against vertex count, one line per solver or peer (log-log)."""
    fig = _figure(9.0, 5.0)
    ax = fig.add_subplot()
    labels = result.labels()
    vertices = {g.name: g.num_vertices for g in result.graphs}
    for label, colour in zip(labels, _colours(len(labels))):
        points = sorted((vertices[r.graph], r.time) for r in result.records
                        if r.label == label and r.ok)
        if points:
            style = "--" if any(r.kind == "peer" for r in result.records if r.label == label) \
                else "-"
            ax.plot(*zip(*points), marker="o", linestyle=style, color=colour, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    _plain_numbers(ax.xaxis)
    ax.set_xlabel("vertices (log scale)")
    ax.set_ylabel("time per solve, seconds (log scale)")
    ax.grid(which="major", alpha=0.4)
    ax.set_title(f"{result.config.get('name', '')}: time vs size (lower is better)\n"
                 f"{_subtitle(result)}", fontsize=9)
    fig.legend(fontsize=8, loc="outside right upper", frameon=False)
    fig.savefig(path)
    return path


def plot_scan(result: BenchResult, path: Path) -> Path | None:
    """Time against input size for each scan method (log-log), or None without scan records."""
    series: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r in result.records:
        if r.kind == "scan" and r.ok:
            series[r.solver].append((r.extra["megabytes"], 1e3 * r.time))
            if "total_time" in r.extra and r.solver == "reduce-then-scan":
                series["reduce-then-scan, with copies"].append(
                    (r.extra["megabytes"], 1e3 * r.extra["total_time"]))
    if not series:
        return None
    fig = _figure(7.0, 4.8)
    ax = fig.add_subplot()
    for (label, points), colour in zip(sorted(series.items()), _colours(len(series))):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label,
                color=colour)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    _plain_numbers(ax.yaxis)
    ax.set_xlabel("input (MiB of uint32)")
    ax.set_ylabel("time (ms, log scale)")
    ax.grid(which="major", alpha=0.4)
    ax.legend(fontsize=8)
    ax.set_title(f"{result.config.get('name', '')}: exclusive prefix sum (lower is better)\n"
                 f"{_subtitle(result)}", fontsize=9)
    fig.savefig(path)
    return path


def plot_weak(result: BenchResult, path: Path) -> Path | None:
    """Weak scaling: whole time (generation and solve) against ranks, one panel per solver,
    one line per series and a dotted one for its ranks each running the one-rank job alone
    at once (the host's floor); flat is ideal (:mod:`parmst.bench.weak`)."""
    series: dict[str, dict[str, dict[int, float]]] = defaultdict(lambda: defaultdict(dict))
    alone: dict[str, dict[str, dict[int, float]]] = defaultdict(lambda: defaultdict(dict))
    for record in result.records:
        if record.ok and record.extra.get("weak"):
            variant = record.extra["alone_of"] if record.extra.get("alone") else record.variant
            solver = f"{record.solver}[{variant}]" if variant else record.solver
            into = alone if record.extra.get("alone") else series
            into[solver][record.graph][record.ranks] = record.time
    if not series:
        return None
    fig, axes = _panels(len(series))
    for ax, (solver, graphs) in zip(axes, sorted(series.items())):
        for (graph, times), colour in zip(sorted(graphs.items()), _colours(len(graphs))):
            counts = sorted(times)
            ax.plot(counts, [times[c] for c in counts], marker="o", color=colour, label=graph)
            ax.axhline(times[counts[0]], linestyle="--", color=colour, alpha=0.4)
            floor = dict(alone[solver][graph])  # starting at the one-rank run, if there is one
            if floor and 1 in times:
                floor[1] = times[1]
            if len(floor) > 1:
                at = sorted(floor)
                ax.plot(at, [floor[c] for c in at], linestyle=":", marker=".", color=colour,
                        label=f"{graph}: each rank alone")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{solver}: weak scaling (flat is ideal)", fontsize=9)
        ax.set_xlabel("ranks")
        ax.set_ylabel("seconds (generate, route, solve)")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.4)
        ax.legend(fontsize=7)
    fig.suptitle(f"{result.config.get('name', '')}\n{_subtitle(result)}", fontsize=9)
    fig.savefig(path)
    return path


def plot_all(result: BenchResult, directory: Path, stem: str) -> list[Path]:
    """Every plot that applies to ``result``, written as ``<stem>*.png`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = [plot_throughput(result, directory / f"{stem}.png")] if result.graphs else []
    scan = plot_scan(result, directory / f"{stem}_scan.png")
    if scan is not None:
        written.append(scan)
    for by, suffix in (("threads", "scaling"), ("ranks", "ranks")):
        scaling = plot_scaling(result, directory / f"{stem}_{suffix}.png", by)
        if scaling is not None:
            written.append(scaling)
    weak = plot_weak(result, directory / f"{stem}_weak.png")
    if weak is not None:
        written.append(weak)
    if result.config.get("size_series"):
        written.append(plot_size(result, directory / f"{stem}_size.png"))
    return written
