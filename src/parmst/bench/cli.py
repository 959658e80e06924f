"""``parmst bench``: argument mapping onto a :class:`~parmst.bench.config.RunConfig`, the run
and the reports.

The project's CLI adds the subcommand with :func:`add_arguments` and calls
:func:`run`; ``python -m parmst.bench`` runs it standalone.

Exit status: 0 when everything ran and agreed, 1 when any result was wrong
(MISMATCH), any solver failed or a reference forest did not verify, 2 for a
usage error. A missing optional library (matplotlib for plots, a peer's
library, a generator's) costs only what needs it, said in one line each; so
does a plot that fails to draw, after the tables are written.

The report (Markdown tables, JSON, plots) goes to ``--out DIR`` (default
``bench-results``), rewritten after each graph, so a run stopped part way leaves a
whole report of what ran; the terminal gets a few lines (per graph the fastest
solver and its speed over the main peer, :mod:`parmst.bench.summary`) and the
report's path. ``--out -`` prints the Markdown report instead and writes no file.
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from pathlib import Path

__all__ = ["add_arguments", "run"]

log = logging.getLogger(__name__)

DEFAULT_OUT = "bench-results"
"""Where ``parmst bench`` writes its report without ``--out``."""


def _split(values: list[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [part for value in values for part in value.split(",") if part]


def _positive_ints(text: str, flag: str, example: str, noun: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--{flag} takes {example}, got {text!r}")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{noun} must be positive, got {text!r}")
    return values


def _counts(text: str, what: str) -> list[int]:
    return _positive_ints(text, what, "counts like 1,2,4", f"{what[:-1]} counts")


def _sizes(text: str) -> list[int]:
    return _positive_ints(text, "scan-mb", "sizes like 1,16,512", "scan sizes")


def _device(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _thread_counts(text: str) -> list[int]:
    return _counts(text, "threads")


def _rank_counts(text: str) -> list[int]:
    return _counts(text, "ranks")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``parmst bench``'s options to ``parser``.

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--suite", "ecl-small", "--threads", "1,2"]).threads
    [1, 2]
    """
    from parmst.bench.suites import SUITES

    parser.description = ("Time solvers and other libraries on graphs or on the papers' "
                          "suites; verify every result; write Markdown, JSON and PNG reports.")
    what = parser.add_argument_group("what to run")
    what.add_argument("--suite", choices=sorted(SUITES), metavar="NAME",
                      help="a named suite: " + ", ".join(SUITES))
    what.add_argument("--only", metavar="NAMES",
                      help="run only these of the suite's graphs, e.g. grid2d,rmat")
    what.add_argument("--graph", action="append", metavar="FILE|SPEC",
                      help="a graph file or generator spec such as rmat:scale=14,seed=1 "
                           "(repeatable)")
    what.add_argument("--solver", action="append", metavar="NAME",
                      help="solver name or pattern such as '*/cpu', with options in brackets "
                           "such as 'ecl/gpu[launch=persistent,filter=false]' (repeatable or "
                           "comma-separated), or 'all' for every solver that can run here "
                           "(default: the suite's, else all)")
    what.add_argument("--peers", action="append", metavar="NAME",
                      help="scipy, networkx (or networkx-kruskal|prim|boruvka), igraph, "
                           "networkit, cugraph, pbbs (PBBS's MST binary, named by "
                           "$PARMST_PBBS_MST), or none (default: those installed; NetworkX "
                           "only on graphs up to 20,000 edges)")
    what.add_argument("--threads", type=_thread_counts, metavar="LIST",
                      help="thread counts for solvers that take threads, e.g. 1,2,4")
    what.add_argument("--scan-mb", type=_sizes, metavar="LIST",
                      help="run Sun and Skadron's OpenCL prefix-scan experiment at these sizes "
                           "(MiB of uint32), e.g. 1,16,512")
    what.add_argument("--opencl-device", metavar="DEVICE",
                      help="OpenCL device for the scan and for solvers that take device= "
                           "(index in 'parmst info', or part of its name)")
    what.add_argument("--ranks", type=_rank_counts, metavar="LIST",
                      help="MPI rank counts for the mpi solvers, e.g. 1,2,4 (one mpiexec "
                           "launch per solver and count)")
    what.add_argument("--weak", metavar="LIST",
                      help="weak-scaling series run at each of --ranks with --edges-per-rank "
                           "edges per rank, generated and verified in parallel: rmat, "
                           "uniform, road (e.g. rmat,road)")
    what.add_argument("--edges-per-rank", type=int, metavar="N",
                      help="edges per rank of the weak-scaling series (default 2^24)")
    what.add_argument("--weights", metavar="LIST",
                      help="weight transforms, each run on every graph: given (default), "
                           "ranked (int64 ranks of the weights: same order, same forest; "
                           "reported as <graph>~ranked), e.g. given,ranked")
    what.add_argument("--formats", metavar="LIST",
                      help="time writing and reading these file formats on every graph, "
                           "e.g. edgelist,npz, or 'all'")
    how = parser.add_argument_group("how to time")
    how.add_argument("--repeat", type=int, metavar="N",
                     help="timed runs after the warm-up (default 9; 5 with --kbest)")
    how.add_argument("--warmup", choices=("graph", "prefix"),
                     help="what the untimed warm-up run solves: the graph (default) or its "
                          "first 65,536 edges (the opencl-boruvka suite's default)")
    how.add_argument("--kbest", action="store_true",
                     help="Sousa's k-best: best of the 3 fastest of 5 runs within 5%% "
                          "(default: the median, as Fallin et al.)")
    how.add_argument("--measure", choices=("time", "compute"),
                     help="what throughput and speedups divide by: the whole solve (default) "
                          "or the computation alone (GPU: graph already on the device)")
    how.add_argument("--placement", metavar="LIST",
                     help="where solvers take each graph from: host (default) and/or device "
                          "(arrays already on the GPU; reported as <graph>@device), e.g. "
                          "host,device")
    how.add_argument("--end-to-end", action="store_true", default=None,
                     help="time the whole call (graph from the arrays, the forest, its ids) "
                          "instead of the solver alone")
    how.add_argument("--baseline", metavar="SOLVER",
                     help="solver that speedups are taken against (default kruskal/serial)")
    how.add_argument("--budget", type=float, default=30.0, metavar="SECONDS",
                     help="time a peer may take per run before it is skipped (default 30)")
    how.add_argument("--time-limit", type=float, metavar="SECONDS",
                     help="start no graph after this many seconds (reports keep what ran)")
    how.add_argument("--cache-dir", metavar="DIR",
                     help="where generated graphs are cached (default $PARMST_CACHE or "
                          "~/.cache/parmst/graphs)")
    how.add_argument("--no-cache", action="store_true", help="regenerate graphs, cache nothing")
    out = parser.add_argument_group("reports")
    out.add_argument("--out", metavar="DIR", default=DEFAULT_OUT,
                     help="write bench_<name>.md, .json and .png plots here (default "
                          f"{DEFAULT_OUT}); '-' prints the Markdown report instead")
    out.add_argument("--name", help="report name (default: the suite's name, or 'custom')")
    out.add_argument("--label", metavar="TEXT",
                     help="machine name for the report, e.g. '2-core laptop, no GPU'")
    out.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    out.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    out.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                     help="print the time ratios between two saved runs and exit")
    out.add_argument("--list", action="store_true",
                     help="list the suites and peers and exit")


def _size(spec: str) -> str:
    from parmst.bench import real
    from parmst.bench.inputs import is_point_source
    from parmst.generators import describe

    if is_point_source(spec):
        from parmst.generators.points import describe_points

        n, d = describe_points(spec)
        return f"{n:,} points in {d}-D"
    if spec.startswith(real.PREFIX):  # a fetched real graph: its counts are in the manifest
        graph = real.manifest()[spec[len(real.PREFIX):]]
        return f"{graph.num_vertices:,} vertices, {graph.num_edges:,} edges"
    about = describe(spec)
    return f"{about['n']:,} vertices, {'' if about['m_exact'] else '~'}{about['m']:,} edges"


def _listing() -> str:
    from parmst.bench.peers import PEERS
    from parmst.bench.suites import SUITES

    lines = ["suites:"]
    for suite in SUITES.values():
        lines.append(f"  {suite.name:18s} {suite.paper}")
        settings = [f"{what} {', '.join(map(str, value)) or 'none'}" for what, value in
                    (("solvers", suite.solvers), ("peers", suite.peers),
                     ("threads", suite.threads), ("ranks", suite.ranks),
                     ("formats", suite.formats or None),
                     ("weights", suite.weights if suite.weights != ("given",) else None),
                     ("placements", suite.placements if suite.placements != ("host",)
                      else None))
                    if value is not None]
        if suite.measure != "time":
            settings.append(f"measure {suite.measure}")
        if suite.end_to_end:
            settings.append("end to end")
        if settings:
            lines.append(f"    ({'; '.join(settings)})")
        lines.extend(f"    {g.name:16s} {g.spec:42s} {_size(g.spec)}"
                     + (f"  (for {g.stands_for})" if g.stands_for else "")
                     for g in suite.graphs)
    lines.append("peers:")
    lines.extend(f"  {p.name:18s} {p.summary}" + ("" if p.installed() else "  [not installed]")
                 for p in PEERS.values())
    return "\n".join(lines) + "\n"


def _command_line(args: argparse.Namespace) -> str:
    words = ["parmst", "bench"]
    for option in ("suite", "only", "repeat", "budget", "name", "measure", "baseline",
                   "formats", "weights", "placement", "opencl_device", "time_limit", "weak",
                   "edges_per_rank"):
        value = getattr(args, option)
        if value is not None and not (option == "budget" and value == 30.0):
            words += [f"--{option.replace('_', '-')}", f"{value:g}"
                      if isinstance(value, float) else str(value)]
    for option in ("graph", "solver", "peers"):
        for value in getattr(args, option) or ():
            words += [f"--{option}", value]
    for option in ("threads", "ranks", "scan_mb"):
        values = getattr(args, option)
        if values:
            words += [f"--{option.replace('_', '-')}", ",".join(map(str, values))]
    for flag in ("kbest", "end_to_end"):
        if getattr(args, flag):
            words.append(f"--{flag.replace('_', '-')}")
    return shlex.join(words)


def missing_graph_file(source: str) -> str | None:
    """Why ``source`` (a ``--graph`` value) names no graph, if it looks like a file path that
    does not exist (a path separator or a graph file extension, and no generator family
    before any ``:``), else None: generator specs and real graphs are checked when loaded.

    Examples
    --------
    >>> missing_graph_file("nosuch.gr")
    'nosuch.gr: no such file'
    >>> missing_graph_file("rmat:scale=5") is None
    True
    """
    import os

    from parmst.bench import real
    from parmst.generators import FAMILIES
    from parmst.io import FORMATS

    if os.path.exists(source) or source.startswith(real.PREFIX):
        return None
    if source.split(":", 1)[0] in FAMILIES:
        return None
    extensions = {e for f in FORMATS.values() for e in f.extensions}
    base = source.removesuffix(".gz")
    if os.sep in source or "/" in source or Path(base).suffix.lower() in extensions:
        return f"{source}: no such file"
    return None


def run(args: argparse.Namespace) -> int:
    """Carry out ``parmst bench`` for parsed ``args``; returns the exit status."""
    from parmst.bench import store
    from parmst.bench.compare import format_compare
    from parmst.bench.config import RunConfig
    from parmst.bench.harness import run as bench
    from parmst.bench.markdown import to_markdown
    from parmst.bench.plots import unavailable
    from parmst.bench.result import BenchResult
    from parmst.bench.specs import split_specs
    from parmst.bench.summary import summary
    from parmst.errors import ParmstError

    if args.list:
        sys.stdout.write(_listing())
        return 0
    if args.compare:
        try:
            before, after = (store.load(path) for path in args.compare)
        except (OSError, ValueError, KeyError) as exc:
            sys.stderr.write(f"parmst bench --compare: {exc}\n")
            return 2
        sys.stdout.write(format_compare(before, after, tuple(args.compare)))
        return 0
    if not args.suite and not args.graph and not args.scan_mb:
        sys.stderr.write("parmst bench: give --suite NAME, --graph FILE|SPEC or --scan-mb LIST "
                         "(--list shows the suites)\n")
        return 2
    for source in args.graph or ():
        why = missing_graph_file(source)
        if why is not None:
            sys.stderr.write(f"parmst bench: {why}\n")
            return 2
    formats = _split([args.formats]) if args.formats else None
    if formats == ["all"]:
        from parmst.io import FORMATS

        formats = list(FORMATS)

    to_files = args.out != "-"
    if to_files:
        try:  # refused before any work, not after the last graph
            Path(args.out).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            sys.stderr.write(f"parmst bench: --out {args.out}: cannot write there: "
                             f"{exc.strerror or exc}\n")
            return 2
    why_no_plots = None if args.no_plots or not to_files else unavailable()
    plots = to_files and not args.no_plots and why_no_plots is None

    def save(partial: BenchResult) -> list[Path]:
        """Write the tables, then the plots; a failed plot is one line and no more tries."""
        nonlocal plots
        written = store.save(partial, args.out, plots=False)
        if plots:
            try:
                written += store.plot(partial, args.out)
            except Exception as exc:  # noqa: BLE001 - a figure is never worth the tables
                sys.stderr.write(f"plots not written: {type(exc).__name__}: {exc}\n")
                plots = False
        return written

    def checkpoint(partial: BenchResult) -> None:
        if to_files:  # the report so far, so that a run stopped part way keeps it
            save(partial)

    try:
        result = bench(RunConfig(
            args.graph, split_specs(args.solver) if args.solver else None, suite=args.suite,
            only=_split([args.only]) if args.only else None, peers=_split(args.peers),
            repeat=args.repeat, kbest=args.kbest, threads=args.threads, ranks=args.ranks,
            weak=_split([args.weak]) if args.weak else None, edges_per_rank=args.edges_per_rank,
            measure=args.measure, baseline=args.baseline, formats=formats, scans=args.scan_mb,
            opencl_device=None if args.opencl_device is None else _device(args.opencl_device),
            weights=_split([args.weights]) if args.weights else None,
            placements=_split([args.placement]) if args.placement else None,
            end_to_end=args.end_to_end, cache_dir=args.cache_dir, cache=not args.no_cache,
            budget=args.budget, time_limit=args.time_limit, progress=not args.no_progress,
            label=args.label, name=args.name, command=_command_line(args),
            after_graph=checkpoint, warmup=args.warmup))
    except (ValueError, ParmstError) as exc:
        sys.stderr.write(f"parmst bench: {exc}\n")
        return 2
    for peer, why in result.config["skipped_peers"].items():
        sys.stderr.write(f"peer {peer} skipped: {why}\n")
    for graph, why in result.config["skipped_graphs"].items():
        sys.stderr.write(f"graph {graph} skipped: {why}\n")
    if why_no_plots is not None:
        sys.stderr.write(f"plots skipped: {why_no_plots}\n")
    if to_files:
        written = save(result)
        beside = ", ".join(path.name for path in written[1:])
        lines = [*summary(result), f"report: {written[0]} (beside it: {beside})"]
        sys.stdout.write("\n".join(lines) + "\n")
    else:
        sys.stdout.write(to_markdown(result))
    if result.failed:
        sys.stderr.write("parmst bench: FAILED: some results were wrong or did not run; "
                         "see the MISMATCH/error lines above and the report's notes\n")
        return 1
    return 0
