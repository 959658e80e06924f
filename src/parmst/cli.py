"""The ``parmst`` command line: argument mapping only; the work lives in the library."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from parmst.errors import ParmstError, VerificationError
from parmst.keyvalue import parse_pairs

log = logging.getLogger("parmst")

IDS_SUFFIXES = (".ids", ".npy")


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    try:
        return parse_pairs(pairs, "--option")
    except ValueError as exc:
        raise ParmstError(str(exc)) from None


def read_graph(path: str, format: str | None, relabel: str | None):
    """The graph in ``path`` and, with ``relabel``, the file's id of each vertex (else None)."""
    from parmst import io

    if relabel is None:
        return io.read(path, format=format), None
    return io.read_with_labels(path, format=format, relabel=relabel)


def _load_graph(args: argparse.Namespace):
    if args.generate:
        from parmst.generators import generate

        if args.relabel is not None:
            raise ParmstError("--relabel applies to graph files, not to --generate")
        return generate(args.generate), None
    if not args.file:
        raise ParmstError("give a graph FILE or --generate SPEC")
    return read_graph(args.file, args.format, args.relabel)


def _check_output(out: Path, format: str | None, labels: np.ndarray | None) -> None:
    """Fail before solving if the forest cannot be written to ``out``."""
    from parmst import io

    if out.suffix in IDS_SUFFIXES:
        return
    fmt = io.detect_format(out, format)
    if labels is not None and "labels" not in fmt.write_options:
        holders = [f.name for f in io.FORMATS.values() if "labels" in f.write_options]
        raise ParmstError(f"{out}: with --relabel the forest is written in the input file's own "
                          f"vertex ids, which {fmt.name} files cannot hold; write "
                          f"{' or '.join(holders)} ({', '.join(IDS_SUFFIXES)} for edge ids)")


def _write_forest(forest, out: Path, format: str | None, labels: np.ndarray | None) -> None:
    """Edge ids (``.ids``/``.npy``), or the forest's edges as a graph file in the input's ids."""
    if out.suffix in IDS_SUFFIXES:
        write_ids(out, forest.edge_ids)
    elif labels is None:
        forest.write(out, format=format)
    else:
        forest.write(out, format=format, labels=labels)


def write_ids(path: Path, ids: np.ndarray) -> None:
    """Write forest edge ids (or vertex labels): ``.npy`` as a NumPy array, else one per line."""
    if path.suffix == ".npy":
        np.save(path, ids)
    else:
        path.write_text("".join(f"{i}\n" for i in ids.tolist()))


def read_edge_ids(path: Path) -> np.ndarray:
    """Read forest edge ids written by :func:`write_ids` (one integer per line)."""
    from parmst.errors import GraphFormatError

    if not path.exists():
        raise GraphFormatError(str(path), "no such file")
    if path.is_dir():
        raise GraphFormatError(str(path), "is a directory, not an edge-id file")
    if path.suffix == ".npy":
        try:  # a memory map: a damaged header cannot make NumPy allocate what it claims
            return np.array(np.load(path, mmap_mode="r", allow_pickle=False))
        except (ValueError, OSError, EOFError) as exc:
            raise GraphFormatError(str(path),
                                   f"not a NumPy .npy array of edge ids ({exc})") from None
    ids = []
    text = path.read_bytes().decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        token = line.strip()
        if not token or token.startswith("#"):
            continue
        try:
            value = int(token)
        except ValueError:
            value = None
        if value is None or not -(2**63) <= value < 2**63:
            raise GraphFormatError(str(path), f"expected an edge id (int64), found {token[:40]!r}",
                                   line=number)
        ids.append(value)
    return np.array(ids, dtype=np.int64)


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


def cmd_solve(args: argparse.Namespace) -> int:
    import parmst
    from parmst import registry

    options = _parse_options(args.option)
    if args.threads is not None:
        options["threads"] = args.threads
    if args.solver != "auto" and registry.get(args.solver).backend == "mpi":
        from parmst.solvers.mpi.cli import solve_command

        if args.relabel is not None:
            raise ParmstError("--relabel is not available with the mpi solvers (each rank reads "
                              "only its share of the file); renumber it once with "
                              "'parmst convert --relabel' instead")

        return solve_command(args, options)
    graph, labels = _load_graph(args)
    if args.output:
        _check_output(Path(args.output), args.output_format, labels)
    solve = parmst.maximum_spanning_forest if args.maximum else parmst.minimum_spanning_forest
    if args.solver == "auto":
        _, why = registry.explain(graph)
        if why == _cold_start_why():
            print(f"parmst: solver kruskal/serial: {why}", file=sys.stderr)
    try:
        forest = solve(graph, solver=args.solver, ignore_nan=args.ignore_nan,
                       verify=args.verify, **options)
    except VerificationError as failure:
        print(f"parmst: verification failed: {failure}", file=sys.stderr)
        return 1
    except ParmstError:
        raise
    except ValueError as exc:  # solvers check their option values (threads=0) with ValueError
        raise ParmstError(f"{args.solver}: {exc}") from exc
    s = forest.stats
    report = {
        "solver": forest.solver,
        "num_vertices": graph.num_vertices,
        "num_edges": graph.num_edges,
        "forest_edges": forest.num_edges,
        "components": forest.num_components,
        "total_weight": forest.total_weight,
        "init_time_s": s.init_time,
        "compute_time_s": s.compute_time,
        "compile_time_s": s.compile_time,
    }
    if args.stats:
        report.update({k: v for k, v in s.as_dict().items()
                       if k not in ("init_time", "compute_time", "compile_time")})
    if args.verify:
        report["verified"] = True
    print_report(report, args.json)
    write_output(forest, args, labels)
    return 0


def write_output(forest, args: argparse.Namespace, labels: np.ndarray | None = None) -> None:
    """Write ``--output``: edge ids for ``.ids``/``.npy``, else the forest's edges as a graph
    (in the input file's own vertex ids when it was read with ``--relabel``)."""
    if args.output:
        _write_forest(forest, Path(args.output), args.output_format, labels)


def cmd_generate(args: argparse.Namespace) -> int:
    from parmst import generators

    if args.list:
        for name, family in generators.FAMILIES.items():
            print(f"{name:<16} {family.description}")
        return 0
    if not args.spec or not args.output:
        raise ParmstError("usage: parmst generate SPEC -o FILE (or --list)")
    graph = generators.generate(args.spec)
    graph.write(args.output, format=args.format)
    print(f"wrote {args.output}: {graph.num_vertices} vertices, {graph.num_edges} edges")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from parmst import io

    if args.labels and args.relabel is None:
        raise ParmstError("--labels writes the ids that --relabel replaced; give --relabel too")
    graph, labels = read_graph(args.input, args.from_format, args.relabel)
    io.write(graph, args.output, format=args.to_format)
    if labels is not None:
        print(f"relabelled {graph.num_vertices} vertices to 0..{graph.num_vertices - 1}"
              + (f"; their ids in {args.input} are in {args.labels}" if args.labels else ""))
        if args.labels:
            write_ids(Path(args.labels), labels)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    import parmst

    graph, _ = read_graph(args.graph, args.format, args.relabel)  # edge ids do not change
    if args.max_listed < 0:
        raise ParmstError(f"--max-listed must be 0 or more, got {args.max_listed}")
    result = parmst.verify(graph, read_edge_ids(Path(args.forest)), max_listed=args.max_listed)
    print(str(result))
    return 0 if result else 1


def device_report() -> list[tuple[str, str]]:
    """What hardware and optional packages this machine offers, as (name, status) rows.

    One row per entry of :data:`parmst._optional.OPTIONAL`: its version, or
    ``not installed (pip install 'parmst[extra]')``.
    """
    import numba

    from parmst import _optional
    from parmst.registry import cpu_count

    rows = [("cpu", (f"{cpu_count()} cores, numba {numba.__version__}, "
                     f"{numba.config.NUMBA_NUM_THREADS} threads"))]
    for dep in _optional.OPTIONAL:
        rows.append((dep.distribution, f"{_optional.status(dep.module)}; {dep.enables}"))
    if importlib.util.find_spec("numba_cuda") is not None:
        from parmst.solvers.multigpu import describe_devices

        rows.append(("cuda", describe_devices()))
    if importlib.util.find_spec("mpi4py") is not None:
        from parmst.solvers.mpi import describe_mpi

        rows.append(("mpi", describe_mpi()))
    from parmst.opencl import device_rows

    return rows + device_rows()


def cmd_warmup(args: argparse.Namespace) -> int:
    from parmst.warmup import warmup

    backends = args.backend.split(",") if args.backend else None
    report = warmup(backends, progress=not args.quiet)
    width = max(len(name) for name in report)
    for name, outcome in report.items():
        shown = f"{outcome:.2f} s" if isinstance(outcome, float) else outcome
        print(f"{name:<{width}}  {shown}")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from parmst import registry

    print(f"parmst {importlib.metadata.version('parmst')}")
    print("\nmachine and optional packages:")
    for name, status in device_report():
        print(f"  {name:<12} {status}")
    graph = None
    if args.relabel is not None and not args.explain:
        raise ParmstError("--relabel applies to the graph of --explain FILE")
    if args.explain:
        graph, _ = read_graph(args.explain, args.format, args.relabel)
    print("\nsolvers:")
    for name, solver in registry.solvers().items():
        ok = solver.can_run(graph)
        state = "available" if ok is True else f"unavailable: {ok}"
        print(f"  {name:<24} {state}")
        if args.verbose:
            print(f"  {'':<24} {solver.summary} [{solver.paper}]")
    if graph is not None:
        chosen, why = registry.explain(graph)
        print(f"\nauto picks {chosen.name} for {args.explain}: {why}")
    return 0


def _add_relabel(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--relabel", nargs="?", const="sorted", choices=("sorted", "first"),
        help="number sparse vertex ids (edge-list and SNAP files) 0..n-1, in increasing order "
             "or ('first') by first appearance; output files keep the file's own ids")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parmst",
        description="Minimum spanning forests of large weighted graphs, fast and verified.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="compute a minimum spanning forest")
    solve.add_argument("file", nargs="?", help="graph file (format from the extension)")
    solve.add_argument("--generate", metavar="SPEC", help='generate a graph, e.g. "rmat:scale=16"')
    solve.add_argument("--format", help="input format if the extension does not tell")
    _add_relabel(solve)
    solve.add_argument("--solver", default="auto", help="solver id (see 'parmst info') or auto")
    solve.add_argument("--threads", type=int, help="threads for multi-core solvers")
    solve.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="solver option (repeatable)")
    solve.add_argument("--maximum", action="store_true", help="maximum spanning forest instead")
    solve.add_argument("--ignore-nan", action="store_true", help="leave out NaN-weight edges")
    solve.add_argument("--output", "-o", help="write the forest: .ids/.npy for edge ids, "
                                              "any graph format for its edges")
    solve.add_argument("--output-format", help="format of --output if the extension does not tell")
    solve.add_argument("--verify", action="store_true", help="check the forest independently")
    solve.add_argument("--stats", action="store_true", help="print phases, rounds, threads")
    solve.add_argument("--json", action="store_true", help="print the report as JSON")
    solve.set_defaults(handler=cmd_solve)

    gen = sub.add_parser("generate", help="generate a graph file")
    gen.add_argument("spec", nargs="?", help='family and parameters, e.g. "grid2d:side=512,seed=1"')
    gen.add_argument("--output", "-o", help="file to write (format from the extension)")
    gen.add_argument("--format", help="output format if the extension does not tell")
    gen.add_argument("--list", action="store_true", help="list the generator families")
    gen.set_defaults(handler=cmd_generate)

    conv = sub.add_parser("convert", help="convert a graph file between formats")
    conv.add_argument("input")
    conv.add_argument("output")
    conv.add_argument("--from", dest="from_format", help="input format")
    conv.add_argument("--to", dest="to_format", help="output format")
    _add_relabel(conv)
    conv.add_argument("--labels", metavar="FILE",
                      help="with --relabel: write each new vertex's id in the input, one per line")
    conv.set_defaults(handler=cmd_convert)

    ver = sub.add_parser("verify", help="verify a forest (edge-id file) against a graph")
    ver.add_argument("graph")
    ver.add_argument("forest", help="edge ids, one per line (.ids) or .npy")
    ver.add_argument("--format", help="graph format if the extension does not tell")
    _add_relabel(ver)
    ver.add_argument("--max-listed", type=int, default=10, metavar="K",
                     help="failures listed per check (the rest are counted)")
    ver.set_defaults(handler=cmd_verify)

    warm = sub.add_parser("warmup", help="compile the solvers' kernels ahead of the first solve")
    warm.add_argument("--backend", metavar="B[,B...]",
                      help="only these backends (serial, cpu, gpu, opencl, mpi); all by default")
    warm.add_argument("--quiet", action="store_true", help="no progress bar")
    warm.set_defaults(handler=cmd_warmup)

    info = sub.add_parser("info", help="solvers, backends, devices, and why any is unavailable")
    info.add_argument("--explain", metavar="FILE", help="also say what 'auto' picks for FILE")
    info.add_argument("--format", help="format of --explain FILE")
    _add_relabel(info)
    info.set_defaults(handler=cmd_info)

    if importlib.util.find_spec("parmst.bench.cli") is not None:
        bench_cli = importlib.import_module("parmst.bench.cli")
        bench = sub.add_parser("bench", help="benchmark solvers and peers on graphs or suites")
        bench_cli.add_arguments(bench)
        bench.set_defaults(handler=bench_cli.run)
    return parser


def _cold_start_why() -> str | None:
    """The "auto" reason given when a parallel solver is passed over for its cold kernels."""
    try:
        from parmst.solvers.cpu import COLD_START_WHY
    except ImportError:  # numba missing: the cpu backend does not load
        return None
    return COLD_START_WHY


def _announce_compilation() -> None:
    print("parmst: compiling kernels (first run only; 'parmst warmup' does it ahead of time)",
          file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="parmst: %(message)s")
    if args.handler is not cmd_warmup and sys.stderr.isatty():
        from parmst._jit import on_slow_compilation

        on_slow_compilation(_announce_compilation)
    try:
        return int(args.handler(args) or 0)
    except (ParmstError, OSError) as exc:
        print(f"parmst: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # the size checks before allocations make this a last resort
        print(f"parmst: error: out of memory ({exc or 'no details'}); the input is too large "
              "for this machine", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("parmst: interrupted", file=sys.stderr)
        return 130
