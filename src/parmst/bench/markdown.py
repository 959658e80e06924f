"""The Markdown report of a benchmark result: machine, method, tables, notes."""

from __future__ import annotations

from parmst.bench.machine import describe_machine
from parmst.bench.multigpu_scale import gpu_table
from parmst.bench.result import REFERENCE, BenchResult
from parmst.bench.sweep_tables import (
    io_table,
    phase_tables,
    rank_table,
    scaling_table,
    scan_table,
    weak_table,
)
from parmst.bench.tables import (
    detail_table,
    floor_table,
    front_door_table,
    graph_table,
    headline_table,
    notes,
    overhead_table,
    summary_table,
)

__all__ = ["to_markdown"]


def _method(result: BenchResult) -> str:
    """The paragraph that says what was timed and what was checked."""
    scheme = result.config.get("scheme_text", "")
    kinds = {r.kind for r in result.records}
    if result.measure == "compute":
        what = ("computation only: a GPU solver's graph is already on the device and "
                "its result left there, as ECL-MST's own timer")
    elif result.config.get("end_to_end"):
        what = ("the whole call: the graph built from the input arrays, the forest, its "
                "edge ids where the input lies")
    else:
        what = "the whole solve: initialization and computation"
    checks = [f"Every parmst result has the same edge ids as {REFERENCE}"]
    if result.config.get("point_sets"):
        checks = [f"Every parmst result on a graph has the same edge ids as {REFERENCE}",
                  ("on a point set (a whole `euclidean_mst` call; its edges are the "
                   "tree's n - 1) the same pairs as its reference tree, checked by "
                   "`verify_points`")]
    if "peer" in kinds:
        what += "; a peer's library call"
        checks.append("peers' total weights equal ours")
    if "io" in kinds:
        what += "; writing or reading one file"
        checks.append("every file read back holds the edges written")
    if "scan" in kinds:
        checks.append("every OpenCL scan equals NumPy's cumsum")
    warmup = result.config.get("warmup_text", "after a warm-up run")
    return (f"Throughput in millions of input edges per second ({what}; {scheme}, "
            f"{warmup}; higher is better). {'; '.join(checks)}.{_graph_names(result)}")


def _graph_names(result: BenchResult) -> str:
    """What the suffixes of graph names say: a weight transform, the input's placement."""
    said = []
    if "ranked" in (result.config.get("weights") or ()):
        said.append("`~ranked`: the same edges with the int64 ranks of their weights (same "
                    "order, same forest)")
    if "device" in (result.config.get("placements") or ()):
        said.append("`@device`: the solvers take the graph from arrays already on the GPU")
    return "".join(f" {line}." for line in said)


def to_markdown(result: BenchResult) -> str:
    """The report: machine, headline table, speedups, scaling, phases, I/O, details, notes."""
    config = result.config
    title = config.get("name") or "benchmark"
    lines = [f"# parmst bench: {title}", ""]
    if config.get("paper"):
        lines += [f"Reproduces {config['paper']}.", ""]
    lines += [f"Machine: {describe_machine(result.machine)}", ""]
    if config.get("command"):
        lines += [f"Command: `{config['command']}`", ""]
    if result.graphs:
        lines += [_method(result), ""]
    else:
        lines += [(f"{config.get('scheme_text', '')}, "
                  f"{config.get('warmup_text', 'after a warm-up run')}; every OpenCL "
                  f"scan equals NumPy's cumsum."), ""]
    if result.reference:
        lines += [f"`{result.reference['name']}`: {result.reference['source']}.", ""]
    if any(not r.converged for r in result.records):
        lines += [("† k-best did not converge: the fastest runs spread more than the "
                   "tolerance."), ""]
    if result.graphs:
        lines += headline_table(result)
    sections = [("Speedups", "Geometric means over the graphs each solver ran on.",
                 summary_table(result)),
                ("Front doors", ("Each front door's speedup over the call it replaces "
                 "(that call's time over the front door's, whole calls, conversion "
                 "included; `networkx-edges-floor`: only iterating `G.edges(data=True)` "
                 "and reading each weight, the most any backend that reads the graph "
                 "could gain)."),
                 front_door_table(result)),
                ("Floor", ("Each uncached NetworkX backend call against the floor: "
                 "iterating `G.edges(data=True)` and reading each weight, the least a "
                 "backend that reads the graph must do, timed by the wall clock in the "
                 "call's worker on the same graph beside each of its runs (after it on one run, "
                 "before it on the next); `call / floor` is the median of the per-run "
                 "ratios, the times the medians of their runs (1.00x: as fast as the "
                 "floor)."), floor_table(result)),
                ("Call overhead", ("`parmst.minimum_spanning_forest(graph)`'s whole time (the "
                 "`parmst-auto` call: selection, checks, the solve, the Forest, reading its "
                 "ids) over the bare solve of the solver it picks, timed right after each "
                 "run of the call in the same process from the same state (cached views "
                 "dropped), both selected alike from their runs (1.00x: nothing but the "
                 "solve)."), overhead_table(result)),
                ("Thread scaling", ("Milliseconds (speedup over the fewest threads), "
                 "whole solve; last column: computation only."), scaling_table(result)),
                ("MPI ranks", ("One mpiexec launch per solver and rank count; each run "
                 "reads the file in parallel (read+route) and solves; `local` and `comm` "
                 "are the slowest rank's solve time outside and inside MPI calls; "
                 "self-speedup and the ratios divide by the solve time (the others' "
                 "whole solve of the graph in memory against it); self-speedup is over "
                 "the same solver on 1 rank; `peak` is the largest "
                 "rank's peak resident memory during the timed runs (on Linux; its whole "
                 "life elsewhere), `peak growth` that peak less the rank's memory before "
                 "them (interpreter, libraries, compiled kernels); rank 0 also gathers "
                 "the whole forest, so the last column leaves it out."), rank_table(result)),
                ("Weak scaling", ("At p ranks each series' graph has about p times the "
                 "edges per rank; each launch generates it in parallel (generate+route) and "
                 "solves it, and the last forest is verified in parallel (no process holds "
                 "the graph). `time / 1 rank` divides the whole time by the one-rank run's "
                 "(ideal: 1); `peak growth` is the largest rank's peak resident memory "
                 "during the timed runs less its memory before them, and `growth / 1 rank` "
                 "divides it by the one-rank run's (ideal: 1). `alone at once` is one more "
                 "launch of as many ranks, each generating, solving and verifying a graph of "
                 "the one-rank size on its own (no message between ranks): what the host "
                 "allows, since its copies share the memory system; `alone / 1 rank` is the "
                 "floor under `time / 1 rank`."), weak_table(result)),
                ("Per GPU", ("ecl/multigpu per GPU: peak memory in use (its parts, the "
                 "solve's working memory, the survivors), the graph's generation on the GPUs, "
                 "the local forests (wall and kernels), the trip of its survivors to the merge "
                 "device (exchange) and the merge, on the merge device."), gpu_table(result)),
                ("Phases", "Per phase, summed over rounds (share of the phases' total).",
                 phase_tables(result)),
                ("File formats", ("Write, then read back from the page cache (parsing, "
                 "not the disk); CPU: this process's CPU time, steadier on a loaded "
                 "machine."), io_table(result)),
                ("Prefix scan", ("Exclusive sum of uint32 (Sun and Skadron Figures 5-8), "
                 "medians. Kernel: device time of the launches (OpenCL profiling); "
                 "total: with the copies to and from the device; GB/s counts 8 bytes "
                 "per element (a read and a write), as the device copy's."),
                 scan_table(result))]
    for heading, words, table in sections:
        if table:
            lines += ["", f"## {heading}", "", words] + ([""] if table[0] else []) + table
    if result.graphs:
        lines += _times_section(result)
    listed = notes(result)
    if listed:
        lines += ["", "## Notes", ""] + listed
    return "\n".join(lines) + "\n"


def _times_section(result: BenchResult) -> list[str]:
    lines = [
        "", "## Times", "",
        ("`time` is the wall-clock time of one solve: for parmst solvers initialization "
         "(building views) plus computation, both also shown; for peers the library call "
         "alone, with `init` the untimed building of the library's graph object. "
         "`CPU` is this process's CPU time over all its threads. "
         "`warm-up` is the untimed first solve (JIT compilation or loading from "
         "Numba's cache)."), ""]
    return lines + detail_table(result) + ["", "## Graphs", ""] + graph_table(result)
