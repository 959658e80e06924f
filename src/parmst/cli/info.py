"""``parmst info``: the machine, the optional packages, the solvers and why any cannot run."""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util

from parmst.cli.files import read_graph
from parmst.errors import ParmstError

APPROXIMATE = "a spanning forest near the minimum, not the minimum; auto never picks it"
"""How ``parmst info`` marks a solver whose registry entry says ``exact=False``."""


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
    _list_solvers(registry.solvers(), graph, args.verbose)
    print("\npoint-set solvers (parmst.euclidean_mst):")
    _list_solvers(registry.solvers("points"), None, args.verbose)
    if graph is not None:
        chosen, why = registry.explain(graph)
        print(f"\nauto picks {chosen.name} for {args.explain}: {why}")
    return 0


def _list_solvers(table: dict, graph, verbose: bool) -> None:
    """One line per solver: available, or why not; with ``verbose`` its summary and paper."""
    for name, solver in table.items():
        ok = solver.can_run(graph)
        state = "available" if ok is True else f"unavailable: {ok}"
        if not solver.exact:
            state = f"approximate ({APPROXIMATE}); {state}"
        print(f"  {name:<24} {state}")
        if verbose:
            print(f"  {'':<24} {solver.summary} [{solver.paper}]")
