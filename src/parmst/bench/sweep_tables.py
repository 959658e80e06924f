"""The Markdown tables of the experiments' sweeps: threads, MPI ranks, phases, file formats
and the prefix scan.

Each writer takes a :class:`~parmst.bench.result.BenchResult` and returns the
table's lines, or none when the result has nothing for it.
"""

from __future__ import annotations

from parmst.bench.cells import fmt_rate, fmt_ratio, fmt_time, status_cell, table
from parmst.bench.result import BenchResult, Record

__all__ = ["io_table", "phase_tables", "rank_table", "scaling_table", "scan_table",
           "weak_table"]


def scaling_table(result: BenchResult) -> list[str]:
    """Per graph and solver timed at several thread counts: time and speedup per count."""
    sweeps: dict[tuple[str, str], dict[int, Record]] = {}
    for r in result.records:
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
        compute = (fmt_ratio(fewest.compute_time / most.compute_time)
                   if fewest.compute_time and most.compute_time else "")
        rows.append([graph, name] + cells + [compute])
    return table(["graph", "solver"] + [f"{t} thr" for t in counts]
                  + ["compute-only, most vs fewest"], rows, "ll" + "r" * (len(counts) + 1))


def _over(record: Record, seconds: float | None) -> str:
    """Another run's ``seconds`` over this mpi record's solve time."""
    solve = record.compute_time if record.ok else None
    return fmt_ratio(seconds / solve if seconds and solve else None)


def _mib(extra: dict, key: str) -> str:
    return f"{extra[key] / 2**20:,.0f}" if key in extra else ""


def rank_table(result: BenchResult) -> list[str]:
    """Per graph, mpi solver and rank count: read and solve, local work against
    communication (the slowest rank's), self-speedup, ratios to the serial baseline and
    to ecl/cpu, resident memory per rank (largest rank), exactness."""
    rows = []
    for r in result.records:
        if r.ranks is None or r.kind != "parmst" or r.extra.get("weak"):
            continue
        name = f"{r.solver}[{r.variant}]" if r.variant else r.solver
        one = next((o for o in result.records if o.ok and o.solver == r.solver
                    and o.variant == r.variant and o.graph == r.graph and o.ranks == 1),
                   None)
        base, ecl = result.find(r.graph, result.baseline), result.find(r.graph, "ecl/cpu")
        x = r.extra
        rows.append([r.graph, name, str(r.ranks), "" if r.threads_used is None
                     else str(r.threads_used), fmt_time(r.time), fmt_time(r.init_time),
                     fmt_time(r.compute_time), fmt_time(x.get("local_time_max_s")),
                     fmt_time(x.get("comm_time_max_s")),
                     _over(r, one.compute_time if one else None),
                     _over(r, result.seconds(base) if base else None),
                     _over(r, result.seconds(ecl) if ecl else None),
                     _mib(x, "peak_memory_max_bytes"), _mib(x, "peak_growth_max_bytes"),
                     _mib(x, "peak_growth_others_max_bytes"),
                     {"ok": "yes", "MISMATCH": "**NO**"}.get(r.status, r.status)])
    if not rows:
        return []
    return table(["graph", "solver", "ranks", "threads/rank", "time (s)", "read+route (s)",
                   "solve (s)", "local (s)", "comm (s)", "self-speedup",
                   f"vs {result.baseline}", "vs ecl/cpu", "peak MiB/rank",
                   "peak growth MiB/rank", "peak growth MiB, ranks 1..p-1", "exact"],
                  rows, "llrr" + "r" * 11 + "l")


def weak_table(result: BenchResult) -> list[str]:
    """Per weak series, mpi solver and rank count: the graph's size, generation and solve
    times, the time and each rank's peak memory growth against the one-rank run (ideal
    weak scaling keeps both at 1), the time of the one-rank job run by every rank alone at
    once and the time against it, the parallel verification's time and verdict."""
    rows = []
    weak = [r for r in result.records if r.extra.get("weak")]
    for r in weak:
        if r.extra.get("alone"):
            continue
        one = next((o for o in weak if o.ok and o.graph == r.graph and o.solver == r.solver
                    and o.variant == r.variant and o.ranks == 1), None)
        alone = next((o for o in weak if o.ok and o.extra.get("alone") and o.graph == r.graph
                      and o.solver == r.solver and o.extra.get("alone_of") == r.variant
                      and o.ranks == r.ranks), None)
        x = r.extra
        name = f"{r.solver}[{r.variant}]" if r.variant else r.solver
        growth = x.get("peak_growth_max_bytes")
        one_growth = one.extra.get("peak_growth_max_bytes") if one else None
        rows.append([r.graph, name, str(r.ranks), "" if r.threads_used is None
                     else str(r.threads_used), f"{x['num_edges']:,}" if "num_edges" in x else "",
                     fmt_time(r.time), fmt_time(r.init_time), fmt_time(r.compute_time),
                     fmt_ratio(r.time / one.time if one and r.ok and one.time else None),
                     fmt_time(alone.time if alone else None),
                     fmt_ratio(alone.time / one.time if alone and one and one.time else None),
                     _mib(x, "peak_growth_max_bytes"),
                     fmt_ratio(growth / one_growth if growth and one_growth else None),
                     fmt_time(x.get("verify_time")),
                     {"ok": "yes", "MISMATCH": "**NO**"}.get(r.status, r.status)])
    if not rows:
        return []
    return table(["series", "solver", "ranks", "threads/rank", "edges", "time (s)",
                  "generate+route (s)", "solve (s)", "time / 1 rank", "alone at once (s)",
                  "alone / 1 rank", "peak growth MiB/rank", "growth / 1 rank", "verify (s)",
                  "verified"],
                 rows, "llrrr" + "r" * 9 + "l")


def phase_tables(result: BenchResult) -> list[str]:
    """Per solver: milliseconds per phase (summed over rounds) and its share of the phases."""
    by_solver: dict[str, list[Record]] = {}
    for r in result.records:
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
        lines += ["", f"### {solver}", ""] + table(
            ["graph", "solver", "rounds"] + [f"`{n}` ms (%)" for n in names]
            + ["phases ms", "time ms"], rows, "lll" + "r" * (len(names) + 2))
    return lines


def io_table(result: BenchResult) -> list[str]:
    """Per graph and format: file size, write and read throughput (wall and CPU)."""
    rows = []
    for g in result.graphs:
        for r in result.records:
            if r.kind != "io" or r.graph != g.name or not r.solver.endswith(" read"):
                continue
            fmt = r.solver[:-len(" read")]
            write = next((w for w in result.records if w.graph == g.name
                          and w.solver == f"{fmt} write"), None)
            size = r.extra.get("file_bytes")
            cpu_rate = (g.num_edges / r.cpu_time / 1e6) if r.ok and r.cpu_time else None
            rows.append([g.name, fmt, "" if size is None else f"{size / 1e6:.0f}",
                         status_cell(result, write), status_cell(result, r), fmt_rate(cpu_rate)])
    if not rows:
        return []
    return table(["graph", "format", "file MB", "write M edges/s", "read M edges/s",
                   "read M edges/s (CPU)"], rows, "llrrrr")


def scan_table(result: BenchResult) -> list[str]:
    """Sun and Skadron Figures 5-8: per size, each scan method's kernel and total time."""
    found = {(r.graph, r.solver): r for r in result.records if r.kind == "scan"}
    sizes = list(dict.fromkeys(r.graph for r in result.records if r.kind == "scan"))
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
            fmt_ratio(cpu.time / scan.time) if cpu is not None and cpu.ok else "",
            fmt_ratio(cpu.time / total) if cpu is not None and cpu.ok and total else "",
            fmt_ratio(multi.time / scan.time) if multi_ok else ""])
    if not rows:
        return []
    return table(["input", "kernel ms", "total ms", "GB/s", "of copy", "copy GB/s",
                   "multi-pass kernel ms", "multi-pass total ms", "NumPy ms",
                   "kernel vs NumPy", "total vs NumPy", "kernel vs multi-pass"], rows)
