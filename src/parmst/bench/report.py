"""Benchmark results: records, Markdown tables, JSON files, and comparing two runs.

The JSON schema (``"schema": "parmst-bench/1"``)::

    {"schema", "machine": {label, cpu, cores, gpus, versions, git_commit, date, ...},
     "config": {name, suite, paper, scheme: {kind, runs, k, tolerance}, threads, budget,
                size_series, measure, baseline, reference: {name, source, values, measure},
                formats, skipped_peers, skipped_graphs},
     "graphs": [{name, source, stands_for, num_vertices, num_edges, weight_dtype,
                 num_components, total_weight, verified, verify_message}],
     "records": [{graph, solver, kind, threads, options, variant, status, ranks, note, warmup_time,
                  times, init_times, compute_times, cpu_times, time, init_time,
                  compute_time, cpu_time, converged, phases, rounds, worklist_sizes, device,
                  threads_used, total_weight, weight_ok, extra}]}

``kind`` is ``"parmst"`` (a solver), ``"peer"`` (another library),
``"io"`` (writing or reading one file format) or ``"scan"`` (one method of
the prefix-scan experiment, :mod:`parmst.bench.scan`; ``graph`` names the size). ``status`` is ``"ok"``,
``"MISMATCH"`` (a solver's edge ids differ from the reference, a peer's total
weight from ours, or a file read back from the graph written), ``"error"`` or
``"skipped"``; only ``"ok"`` records carry times.
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parmst.bench.machine import describe_machine

__all__ = [
    "MEASURES",
    "REFERENCE",
    "SCHEMA",
    "SCIPY",
    "BenchResult",
    "GraphInfo",
    "Record",
    "compare",
    "format_compare",
    "load",
]

log = logging.getLogger(__name__)

SCHEMA = "parmst-bench/1"
REFERENCE = "kruskal/serial"
SCIPY = "scipy"
# What throughput and speedups divide by: the whole solve, or the computation alone.
MEASURES = ("time", "compute")


@dataclass
class GraphInfo:
    """An input of the benchmark and its reference forest."""

    name: str
    source: str
    num_vertices: int
    num_edges: int
    weight_dtype: str
    stands_for: str = ""
    num_components: int | None = None
    total_weight: int | float | None = None
    verified: bool | None = None
    verify_message: str = ""


@dataclass
class Record:
    """One solver (or peer) on one graph: its timed runs, or why there are none."""

    graph: str
    solver: str
    kind: str = "parmst"
    threads: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    variant: str = ""
    status: str = "ok"
    ranks: int | None = None  # MPI ranks (the ranks sweep), for mpi solvers
    note: str = ""
    warmup_time: float | None = None
    times: list[float] = field(default_factory=list)
    init_times: list[float] = field(default_factory=list)
    compute_times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    time: float | None = None
    init_time: float | None = None
    compute_time: float | None = None
    cpu_time: float | None = None
    converged: bool = True
    phases: dict[str, float] = field(default_factory=dict)
    rounds: int | None = None
    worklist_sizes: list[int] = field(default_factory=list)
    device: str = ""
    threads_used: int | None = None
    total_weight: int | float | None = None
    weight_ok: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # Stats.extra, or a file's size

    @property
    def label(self) -> str:
        """The column name: ``"ecl/cpu"``, ``"ecl/cpu x2"`` (2 threads), ``"ecl/gpu[filter=false]"``,
        ``"ghs/mpi 4 ranks"``."""
        name = f"{self.solver}[{self.variant}]" if self.variant else self.solver
        if self.ranks is not None:
            name = f"{name} {self.ranks} rank{'s' if self.ranks > 1 else ''}"
        return name if self.threads is None else f"{name} x{self.threads}"

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.time is not None

    def clear_times(self) -> None:
        """Drop every time measured (a failed or wrong run reports none)."""
        self.times, self.init_times, self.compute_times, self.cpu_times = [], [], [], []


def _fmt_time(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds:.3g}"


def _fmt_weight(weight: float | None) -> str:
    if weight is None:
        return ""
    return f"{weight:,}" if isinstance(weight, int) else f"{weight:.10g}"


def _fmt_ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}x"


def _fmt_rate(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _table(header: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---:" if a == "r" else "---" for a in align]
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"] + [
        "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]


@dataclass
class BenchResult:
    """Everything one benchmark run measured, with the machine it ran on.

    Examples
    --------
    >>> r = BenchResult(machine={"label": "box"}, config={"name": "demo"},
    ...                 graphs=[GraphInfo("g", "grid2d", 4, 4, "int32")],
    ...                 records=[Record("g", "kruskal/serial", times=[1e-3], time=1e-3)])
    >>> r.throughput(r.records[0])
    0.004
    >>> r.failed
    False
    """

    machine: dict[str, Any]
    config: dict[str, Any]
    graphs: list[GraphInfo] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)

    # ------------------------------------------------------------------ figures
    @property
    def measure(self) -> str:
        """``"time"`` (whole solve) or ``"compute"`` (computation alone): what rates divide by."""
        return self.config.get("measure") or "time"

    @property
    def baseline(self) -> str:
        """The solver speedups are taken against."""
        return self.config.get("baseline") or REFERENCE

    def graph(self, name: str) -> GraphInfo:
        return next(g for g in self.graphs if g.name == name)

    def find(self, graph: str, solver: str, threads: int | None = None) -> Record | None:
        """The ok record labelled ``solver`` on ``graph``, else that solver without options
        (at ``threads``, any if None)."""
        for record in self.records:
            if (record.graph == graph and record.ok
                    and (record.label == solver
                         or (record.solver == solver and not record.variant
                             and (threads is None or record.threads == threads)))):
                return record
        return None

    def seconds(self, record: Record) -> float | None:
        """The time rates and speedups use: with measure ``"compute"``, a solver's
        computation alone (peers' time is their library call already)."""
        if not record.ok:
            return None
        if self.measure == "compute" and record.kind == "parmst" and record.compute_time:
            return record.compute_time
        return record.time

    def throughput(self, record: Record) -> float | None:
        """Millions of (undirected input) edges per second."""
        seconds = self.seconds(record)
        if seconds is None or seconds <= 0:
            return None
        return self.graph(record.graph).num_edges / seconds / 1e6

    def speedup(self, record: Record, baseline: str) -> float | None:
        """``baseline``'s time over this record's time on the same graph.

        Against a peer the whole solve counts whatever the measure (a peer's
        input is never on a device already), unless the peer timed its
        computation alone (ECL-MST's own timer).
        """
        base = self.find(record.graph, baseline)
        if base is None or not record.ok:
            return None
        whole = base.kind == "peer" and not base.extra.get("own_timer")
        mine = record.time if whole else self.seconds(record)
        return self.seconds(base) / mine if mine and mine > 0 else None

    @property
    def failed(self) -> bool:
        """True if any result was wrong, a parmst solver or format failed, or a reference
        did not verify.

        A peer that raised is reported but does not fail the run: its library's
        fault is not ours. A peer whose weight disagrees does.
        """
        return (any(r.status == "MISMATCH" or (r.status == "error" and r.kind != "peer")
                    for r in self.records)
                or any(g.verified is False for g in self.graphs))

    def labels(self) -> list[str]:
        """Column labels: the reference first, other parmst solvers in run order, then peers
        and file formats."""
        seen: dict[str, str] = {}
        for record in self.records:
            seen.setdefault(record.label, record.kind)
        return (sorted((lab for lab, kind in seen.items() if kind == "parmst"),
                       key=lambda lab: lab != REFERENCE)
                + [lab for lab, kind in seen.items() if kind == "peer"]
                + [lab for lab, kind in seen.items() if kind == "io"])

    @property
    def reference(self) -> dict[str, Any] | None:
        """Published figures shown beside ours: ``{name, source, values, measure}``."""
        return self.config.get("reference")

    # ------------------------------------------------------------------ Markdown
    def _cell(self, record: Record | None) -> str:
        if record is None:
            return ""
        if record.status == "MISMATCH":
            return "**MISMATCH**"
        if record.status == "error":
            return "error"
        if record.status == "skipped":
            return "—"
        return _fmt_rate(self.throughput(record)) + ("" if record.converged else " †")

    def headline_table(self) -> list[str]:
        """Rows = graphs, columns = solvers (and the reference's figures), cells = M edges/s;
        geometric mean last."""
        labels = self.labels()
        by_cell = {(r.graph, r.label): r for r in self.records}
        reference = self.reference
        figures = [] if reference is None else [reference["values"].get(g.name)
                                                 for g in self.graphs]
        rows = []
        for i, g in enumerate(self.graphs):
            row = [g.name, f"{g.num_edges:,}"]
            if reference is not None:
                row.append(_fmt_rate(figures[i]))
            rows.append(row + [self._cell(by_cell.get((g.name, lab))) for lab in labels])
        means = [_geomean([self.throughput(r) or 0 for r in self.records
                           if r.label == lab and r.ok]) for lab in labels]
        last = ["geometric mean", ""]
        if reference is not None:
            last.append(_fmt_rate(_geomean([f for f in figures if f])))
        rows.append(last + [_fmt_rate(m) for m in means])
        header = ["graph", "edges"] + ([reference["name"]] if reference else []) + labels
        return _table(header, rows)

    def detail_table(self) -> list[str]:
        baseline = self.baseline
        header = ["graph", "solver", "threads", "time (s)", "init (s)", "compute (s)",
                  "CPU (s)", "M edges/s", f"vs {baseline}", f"vs {SCIPY}", "rounds",
                  "warm-up (s)", "status"]
        rows = []
        for r in self.records:
            if r.kind == "scan":  # in scan_table
                continue
            threads = r.threads_used if r.threads_used is not None else r.threads
            status = r.status if r.converged else "ok, not converged †"
            name = f"{r.solver}[{r.variant}]" if r.variant else r.solver
            if r.ranks is not None:
                name += f" {r.ranks} rank{'s' if r.ranks > 1 else ''}"
            rows.append([r.graph, name, "" if threads is None else str(threads),
                         _fmt_time(r.time), _fmt_time(r.init_time), _fmt_time(r.compute_time),
                         _fmt_time(r.cpu_time), _fmt_rate(self.throughput(r)),
                         _fmt_ratio(self.speedup(r, baseline) if r.kind != "io" else None),
                         _fmt_ratio(self.speedup(r, SCIPY) if r.kind != "io" else None),
                         "" if r.rounds is None else str(r.rounds), _fmt_time(r.warmup_time),
                         status])
        return _table(header, rows, "lllrrrrrrrrrl")

    def summary_table(self) -> list[str]:
        """Per solver: geometric means over the graphs of throughput and of speedups."""
        baseline, rows = self.baseline, []
        for label in self.labels():
            records = [r for r in self.records if r.label == label and r.ok]
            if not records or records[0].kind == "io":
                continue
            rows.append([label, str(len(records)),
                         _fmt_rate(_geomean([self.throughput(r) or 0 for r in records])),
                         _fmt_ratio(_geomean([self.speedup(r, baseline) or 0 for r in records])),
                         _fmt_ratio(_geomean([self.speedup(r, SCIPY) or 0 for r in records]))])
        if len(rows) < 2:
            return []
        return _table(["solver", "graphs", "M edges/s", f"vs {baseline}", f"vs {SCIPY}"], rows)

    def front_door_table(self) -> list[str]:
        """Per graph: each front door's speedup over the call it replaces; geometric mean and
        lowest last."""
        from parmst.bench.peers import PEERS

        pairs = [(label, PEERS[label].compares_with) for label in self.labels()
                 if label in PEERS and PEERS[label].compares_with]
        pairs = [(label, base) for label, base in pairs
                 if any(r.label == base and r.ok for r in self.records)]
        if not pairs:
            return []
        by_cell = {(r.graph, r.label): r for r in self.records if r.ok}
        rows, ratios = [], {label: [] for label, _ in pairs}
        for g in self.graphs:
            row = [g.name, f"{g.num_edges:,}"]
            for label, base in pairs:
                mine, theirs = by_cell.get((g.name, label)), by_cell.get((g.name, base))
                ratio = theirs.time / mine.time if mine and theirs and mine.time else None
                if ratio is not None:
                    ratios[label].append(ratio)
                row.append(_fmt_ratio(ratio))
            rows.append(row)
        rows.append(["geometric mean", ""] + [_fmt_ratio(_geomean(ratios[label]))
                                              for label, _ in pairs])
        rows.append(["lowest", ""] + [_fmt_ratio(min(ratios[label], default=None))
                                      for label, _ in pairs])
        return _table(["graph", "edges"] + [f"{label} vs {base}" for label, base in pairs], rows)

    def scaling_table(self) -> list[str]:
        """Per graph and solver timed at several thread counts: time and speedup per count."""
        sweeps: dict[tuple[str, str], dict[int, Record]] = {}
        for r in self.records:
            if r.ok and r.threads is not None:
                name = f"{r.solver}[{r.variant}]" if r.variant else r.solver
                sweeps.setdefault((r.graph, name), {})[r.threads] = r
        sweeps = {key: runs for key, runs in sweeps.items() if len(runs) > 1}
        if not sweeps:
            return []
        counts = sorted({t for runs in sweeps.values() for t in runs})
        rows = []
        for (graph, name), runs in sweeps.items():
            fewest, most = runs[min(runs)], runs[max(runs)]
            cells = [f"{1e3 * runs[t].time:.3g} ({fewest.time / runs[t].time:.2f}x)"
                     if t in runs else "" for t in counts]
            compute = (_fmt_ratio(fewest.compute_time / most.compute_time)
                       if fewest.compute_time and most.compute_time else "")
            rows.append([graph, name] + cells + [compute])
        return _table(["graph", "solver"] + [f"{t} thr" for t in counts]
                      + ["compute-only, most vs fewest"], rows, "ll" + "r" * (len(counts) + 1))

    def rank_table(self) -> list[str]:
        """Per graph, mpi solver and rank count: read and solve, local work against
        communication (the slowest rank's), self-speedup, ratios to the serial baseline and
        to ecl/cpu, resident memory per rank (largest rank), exactness."""
        rows = []
        for r in self.records:
            if r.ranks is None or r.kind != "parmst":
                continue
            name = f"{r.solver}[{r.variant}]" if r.variant else r.solver
            one = next((o for o in self.records if o.ok and o.solver == r.solver
                        and o.variant == r.variant and o.graph == r.graph and o.ranks == 1),
                       None)
            base, ecl = self.find(r.graph, self.baseline), self.find(r.graph, "ecl/cpu")
            x = r.extra
            mib = (lambda key: f"{x[key] / 2**20:,.0f}" if key in x else "")  # noqa: E731

            def over(other: Record | None, seconds: float | None) -> str:
                solve = r.compute_time if r.ok else None
                return _fmt_ratio(seconds / solve if other and seconds and solve else None)

            rows.append([r.graph, name, str(r.ranks), "" if r.threads_used is None
                         else str(r.threads_used), _fmt_time(r.time), _fmt_time(r.init_time),
                         _fmt_time(r.compute_time), _fmt_time(x.get("local_time_max_s")),
                         _fmt_time(x.get("comm_time_max_s")),
                         over(one, one.compute_time if one else None),
                         over(base, self.seconds(base) if base else None),
                         over(ecl, self.seconds(ecl) if ecl else None),
                         mib("peak_memory_max_bytes"), mib("peak_growth_max_bytes"),
                         mib("peak_growth_others_max_bytes"),
                         {"ok": "yes", "MISMATCH": "**NO**"}.get(r.status, r.status)])
        if not rows:
            return []
        return _table(["graph", "solver", "ranks", "threads/rank", "time (s)", "read+route (s)",
                       "solve (s)", "local (s)", "comm (s)", "self-speedup",
                       f"vs {self.baseline}", "vs ecl/cpu", "peak MiB/rank",
                       "peak growth MiB/rank", "peak growth MiB, ranks 1..p-1", "exact"],
                      rows, "llrr" + "r" * 11 + "l")

    def phase_tables(self) -> list[str]:
        """Per solver: milliseconds per phase (summed over rounds) and its share of the phases."""
        by_solver: dict[str, list[Record]] = {}
        for r in self.records:
            if r.ok and r.phases:
                by_solver.setdefault(r.solver, []).append(r)
        lines: list[str] = []
        for solver, records in by_solver.items():
            names = list(dict.fromkeys(name for r in records for name in r.phases))
            rows = []
            for r in records:
                total = sum(r.phases.values())
                rows.append([r.graph, r.label, "" if r.rounds is None else str(r.rounds)]
                            + [f"{1e3 * r.phases.get(n, 0.0):.3g} "
                               f"({100 * r.phases.get(n, 0.0) / total if total else 0:.0f} %)"
                               for n in names]
                            + [f"{1e3 * total:.3g}", f"{1e3 * r.time:.3g}"])
            lines += ["", f"### {solver}", ""] + _table(
                ["graph", "solver", "rounds"] + [f"`{n}` ms (%)" for n in names]
                + ["phases ms", "time ms"], rows, "lll" + "r" * (len(names) + 2))
        return lines

    def io_table(self) -> list[str]:
        """Per graph and format: file size, write and read throughput (wall and CPU)."""
        rows = []
        for g in self.graphs:
            for r in self.records:
                if r.kind != "io" or r.graph != g.name or not r.solver.endswith(" read"):
                    continue
                fmt = r.solver[:-len(" read")]
                write = next((w for w in self.records if w.graph == g.name
                              and w.solver == f"{fmt} write"), None)
                size = r.extra.get("file_bytes")
                cpu_rate = (g.num_edges / r.cpu_time / 1e6) if r.ok and r.cpu_time else None
                rows.append([g.name, fmt, "" if size is None else f"{size / 1e6:.0f}",
                             self._cell(write), self._cell(r), _fmt_rate(cpu_rate)])
        if not rows:
            return []
        return _table(["graph", "format", "file MB", "write M edges/s", "read M edges/s",
                       "read M edges/s (CPU)"], rows, "llrrrr")

    def scan_table(self) -> list[str]:
        """Sun and Skadron Figures 5-8: per size, each scan method's kernel and total time."""
        found = {(r.graph, r.solver): r for r in self.records if r.kind == "scan"}
        sizes = list(dict.fromkeys(r.graph for r in self.records if r.kind == "scan"))
        rows = []
        for size in sizes:
            scan, multi, cpu, copy = (found.get((size, m)) for m in
                                      ("reduce-then-scan", "multi-pass scan", "numpy cumsum",
                                       "device copy"))
            if scan is None:
                continue
            if not scan.ok:
                rows.append([size, f"{scan.status}: {scan.note}"] + [""] * 10)
                continue
            nbytes = 8 * scan.extra["elements"]  # one read and one write per element
            total = scan.extra.get("total_time")
            rate = nbytes / scan.time / 1e9
            copy_rate = nbytes / copy.time / 1e9 if copy is not None and copy.ok else None

            def ms(seconds: float | None) -> str:
                return "" if seconds is None else f"{1e3 * seconds:.3g}"

            multi_ok = multi is not None and multi.ok
            rows.append([
                size, ms(scan.time), ms(total), f"{rate:.4g}",
                "" if copy_rate is None else f"{100 * rate / copy_rate:.0f} %",
                "" if copy_rate is None else f"{copy_rate:.4g}",
                ms(multi.time) if multi_ok else (multi.status if multi else ""),
                ms(multi.extra.get("total_time")) if multi_ok else "",
                ms(cpu.time) if cpu is not None and cpu.ok else "",
                _fmt_ratio(cpu.time / scan.time) if cpu is not None and cpu.ok else "",
                _fmt_ratio(cpu.time / total) if cpu is not None and cpu.ok and total else "",
                _fmt_ratio(multi.time / scan.time) if multi_ok else ""])
        if not rows:
            return []
        return _table(["input", "kernel ms", "total ms", "GB/s", "of copy", "copy GB/s",
                       "multi-pass kernel ms", "multi-pass total ms", "NumPy ms",
                       "kernel vs NumPy", "total vs NumPy", "kernel vs multi-pass"], rows)

    def graph_table(self) -> list[str]:
        rows = [[g.name, f"`{g.source}`", g.stands_for, f"{g.num_vertices:,}",
                 f"{g.num_edges:,}", g.weight_dtype,
                 "" if g.num_components is None else f"{g.num_components:,}",
                 _fmt_weight(g.total_weight),
                 {True: "yes", False: "**FAILED**", None: ""}[g.verified]]
                for g in self.graphs]
        return _table(["graph", "source", "stands for", "vertices", "edges", "weights",
                       "components", "forest weight", "verified"], rows, "lllrrlrrl")

    def notes(self) -> list[str]:
        lines = []
        for r in self.records:
            if r.note:
                lines.append(f"- {r.graph}, {r.label}: {r.status}: {r.note}")
        for g in self.graphs:
            if g.verified is False:
                lines.append(f"- {g.name}: reference forest FAILED verification: "
                             f"{g.verify_message}")
        for graph, why in (self.config.get("skipped_graphs") or {}).items():
            lines.append(f"- graph {graph} not run: {why}")
        for peer, why in (self.config.get("skipped_peers") or {}).items():
            lines.append(f"- peer {peer} not run: {why}")
        return lines

    def _method(self) -> str:
        scheme = self.config.get("scheme_text", "")
        kinds = {r.kind for r in self.records}
        if self.measure == "compute":
            what = ("computation only: a GPU solver's graph is already on the device and "
                    "its result left there, as ECL-MST's own timer")
        else:
            what = "the whole solve: initialization and computation"
        checks = [f"Every parmst result has the same edge ids as {REFERENCE}"]
        if "peer" in kinds:
            what += "; a peer's library call"
            checks.append("peers' total weights equal ours")
        if "io" in kinds:
            what += "; writing or reading one file"
            checks.append("every file read back holds the edges written")
        if "scan" in kinds:
            checks.append("every OpenCL scan equals NumPy's cumsum")
        warmup = self.config.get("warmup_text", "after a warm-up run")
        return (f"Throughput in millions of input edges per second ({what}; {scheme}, "
                f"{warmup}; higher is better). {'; '.join(checks)}.")

    def to_markdown(self) -> str:
        """The report: machine, headline table, speedups, scaling, phases, I/O, details, notes."""
        config = self.config
        title = config.get("name") or "benchmark"
        lines = [f"# parmst bench: {title}", ""]
        if config.get("paper"):
            lines += [f"Reproduces {config['paper']}.", ""]
        lines += [f"Machine: {describe_machine(self.machine)}", ""]
        if config.get("command"):
            lines += [f"Command: `{config['command']}`", ""]
        if self.graphs:
            lines += [self._method(), ""]
        else:
            lines += [f"{config.get('scheme_text', '')}, "
                      f"{config.get('warmup_text', 'after a warm-up run')}; every OpenCL "
                      f"scan equals NumPy's cumsum.", ""]
        if self.reference:
            lines += [f"`{self.reference['name']}`: {self.reference['source']}.", ""]
        if any(not r.converged for r in self.records):
            lines += [("† k-best did not converge: the fastest runs spread more than the "
                       "tolerance."), ""]
        if self.graphs:
            lines += self.headline_table()
        sections = [("Speedups", "Geometric means over the graphs each solver ran on.",
                     self.summary_table()),
                    ("Front doors", "Each front door's speedup over the call it replaces "
                     "(that call's time over the front door's, whole calls, conversion "
                     "included; `networkx-read-edges`: only iterating `G.edges(data=True)`, "
                     "the most any backend that reads the graph could gain).",
                     self.front_door_table()),
                    ("Thread scaling", "Milliseconds (speedup over the fewest threads), "
                     "whole solve; last column: computation only.", self.scaling_table()),
                    ("MPI ranks", "One mpiexec launch per solver and rank count; each run "
                     "reads the file in parallel (read+route) and solves; `local` and `comm` "
                     "are the slowest rank's solve time outside and inside MPI calls; "
                     "self-speedup and the ratios divide by the solve time (the others' "
                     "whole solve of the graph in memory against it); self-speedup is over "
                     "the same solver on 1 rank; `peak` is the largest "
                     "rank's peak resident memory during the timed runs (on Linux; its whole "
                     "life elsewhere), `peak growth` that peak less the rank's memory before "
                     "them (interpreter, libraries, compiled kernels); rank 0 also gathers "
                     "the whole forest, so the last column leaves it out.", self.rank_table()),
                    ("Phases", "Per phase, summed over rounds (share of the phases' total).",
                     self.phase_tables()),
                    ("File formats", "Write, then read back from the page cache (parsing, "
                     "not the disk); CPU: this process's CPU time, steadier on a loaded "
                     "machine.", self.io_table()),
                    ("Prefix scan", "Exclusive sum of uint32 (Sun and Skadron Figures 5-8), "
                     "medians. Kernel: device time of the launches (OpenCL profiling); "
                     "total: with the copies to and from the device; GB/s counts 8 bytes "
                     "per element (a read and a write), as the device copy's.",
                     self.scan_table())]
        for heading, words, table in sections:
            if table:
                lines += ["", f"## {heading}", "", words] + ([""] if table[0] else []) + table
        if self.graphs:
            lines += self._times_section()
        notes = self.notes()
        if notes:
            lines += ["", "## Notes", ""] + notes
        return "\n".join(lines) + "\n"

    def _times_section(self) -> list[str]:
        lines = [
            "", "## Times", "",
            ("`time` is the wall-clock time of one solve: for parmst solvers initialization "
             "(building views) plus computation, both also shown; for peers the library call "
             "alone, with `init` the untimed building of the library's graph object. "
             "`CPU` is this process's CPU time over all its threads. "
             "`warm-up` is the untimed first solve (JIT compilation or loading from "
             "Numba's cache)."), ""]
        return lines + self.detail_table() + ["", "## Graphs", ""] + self.graph_table()

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "machine": self.machine, "config": self.config,
                "graphs": [asdict(g) for g in self.graphs],
                "records": [asdict(r) for r in self.records]}

    def to_json(self) -> str:
        """The result as a JSON document (see the module docstring for its schema)."""
        return json.dumps(self.to_dict(), indent=1, default=_json_default)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BenchResult:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a parmst bench result (schema {data.get('schema')!r}, "
                             f"expected {SCHEMA!r})")
        return cls(machine=data["machine"], config=data["config"],
                   graphs=[GraphInfo(**g) for g in data["graphs"]],
                   records=[Record(**r) for r in data["records"]])

    # ------------------------------------------------------------------ files
    def plot(self, directory: str | os.PathLike, stem: str | None = None) -> list[Path]:
        """Write the PNG plots that apply to this result; returns their paths."""
        from parmst.bench.plots import plot_all

        return plot_all(self, Path(directory), stem or self.stem)

    @property
    def stem(self) -> str:
        return f"bench_{self.config.get('name') or 'custom'}"

    def save(self, directory: str | os.PathLike, plots: bool = True) -> list[Path]:
        """Write ``bench_<name>.md``, ``.json`` and the plots into ``directory``.

        Without matplotlib the plots are left out with a logged warning
        (:func:`parmst.bench.plots.unavailable` says why); the tables are written.
        """
        from parmst.bench.plots import unavailable

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = [out / f"{self.stem}.md", out / f"{self.stem}.json"]
        written[0].write_text(self.to_markdown(), encoding="utf-8")
        written[1].write_text(self.to_json() + "\n", encoding="utf-8")
        if plots:
            why = unavailable()
            if why is None:
                written += self.plot(out)
            else:
                log.warning("plots skipped: %s", why)
        return written


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # NumPy scalars
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def load(path: str | os.PathLike) -> BenchResult:
    """Read a result written by :meth:`BenchResult.save`."""
    with open(path, encoding="utf-8") as handle:
        return BenchResult.from_dict(json.load(handle))


def compare(before: BenchResult, after: BenchResult) -> list[dict[str, Any]]:
    """Match the ok records of two runs by (graph, solver, threads); time ratios.

    ``speedup`` is ``before.time / after.time``: above 1 when ``after`` is faster.

    Examples
    --------
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
    body = [[row["graph"], row["solver"], _fmt_time(row["before"]), _fmt_time(row["after"]),
             _fmt_ratio(row["speedup"])] for row in rows]
    body.append(["geometric mean", "", "", "", _fmt_ratio(_geomean([r["speedup"] for r in rows]))])
    lines += _table(["graph", "solver", f"{names[0]} time (s)", f"{names[1]} time (s)",
                     f"{names[0]}/{names[1]}"], body, "llrrr")
    return "\n".join(lines) + "\n"
