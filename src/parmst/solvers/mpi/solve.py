"""Registry entry points of the mpi solvers for a :class:`~parmst.Graph` that every rank holds.

``parmst.minimum_spanning_forest(graph, solver="filter-boruvka/mpi")`` with a
plain Graph (the conformance suite, a script run on every rank) spreads it
over ``MPI.COMM_WORLD`` (each rank keeps its slice), solves, and gives every
rank the forest's edge ids. Distributed inputs go through
:func:`parmst.solvers.mpi.driver.solve_distributed` instead.
"""

from __future__ import annotations

import numpy as np

from parmst.stats import Stats


def _solve(graph, stats: Stats, solver: str, **options) -> np.ndarray:
    from parmst.distributed import DistributedGraph
    from parmst.solvers.mpi.driver import solve_distributed

    with stats.init():
        dg = DistributedGraph.from_graph(graph)
    forest = solve_distributed(dg, solver, _held_forest(dg, solver, options))
    ids = dg.channel.comm.bcast(forest.edge_ids if dg.rank == 0 else None, root=0)
    stats.compute_time += forest.stats.compute_time
    stats.phases.update(forest.stats.phases)
    stats.rounds = forest.stats.rounds
    stats.worklist_sizes = forest.stats.worklist_sizes
    stats.device, stats.threads = forest.stats.device, forest.stats.threads
    stats.extra.update(forest.stats.extra)
    return ids


def _held_forest(dg, solver: str, options: dict):
    """The driver's ``held_forest(stats)`` for ``solver`` with ``options`` on ``dg``."""
    from parmst.solvers.mpi import allreduce, filter_boruvka, genboruvka, ghs

    held = {"boruvka-allreduce/mpi": allreduce.boruvka_allreduce_held,
            "filter-boruvka/mpi": filter_boruvka.filter_boruvka_held,
            "ghs/mpi": ghs.ghs_held, "genboruvka/mpi": genboruvka.genboruvka_held}[solver]
    return lambda stats: held(dg, stats, **options)


def boruvka_allreduce(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Shou and He's all-reduce Borůvka.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> boruvka_allreduce(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _solve(graph, stats, "boruvka-allreduce/mpi")


def filter_boruvka(graph, stats: Stats, local_solver: str = "auto",
                   threads: int | None = None, rounds: str = "auto",
                   local_filter: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by filter-first distributed Borůvka.

    ``local_solver`` solves each rank's own edges (any registered one-process
    solver); ``threads`` is passed to it when it takes threads (and to the
    GenBoruvka rounds). ``rounds`` contracts what crosses ranks by
    ``"allreduce"`` rounds (replicated per-component arrays), ``"owners"``
    rounds (minima sent to each component's owner; edges stay where they
    are), ``"genboruvka"`` rounds (contracted rows redistributed each round),
    or ``"auto"``: all-reduce up to 65,536 components left after the filter,
    owner rounds beyond. ``local_filter`` runs the filter (``"on"``), skips
    it so the rounds start from the vertices (``"off"``), or (``"auto"``)
    runs it only where the ranks' local edges could contract at least 90 %
    of the vertices (graphs with locality; not uniform random graphs at two
    ranks or more).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> filter_boruvka(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _solve(graph, stats, "filter-boruvka/mpi", local_solver=local_solver,
                  threads=threads, rounds=rounds, local_filter=local_filter)


def genboruvka(graph, stats: Stats, threads: int | None = None) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Sousa's distributed GenBoruvka.

    ``threads``: Numba threads per rank for the lightest-edge kernel.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> genboruvka(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _solve(graph, stats, "genboruvka/mpi", threads=threads)


def ghs(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Gallager-Humblet-Spira message passing.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> ghs(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _solve(graph, stats, "ghs/mpi")


def solve_graph(dg, solver: str = "auto", *, ignore_nan: bool = False, verify: bool = False,
                **options):
    """``parmst.minimum_spanning_forest`` for a :class:`~parmst.distributed.DistributedGraph`.

    ``solver="auto"`` picks ``filter-boruvka/mpi``. Call it on every rank;
    rank 0 gets the complete Forest, the others their share (see
    :func:`parmst.solvers.mpi.driver.solve_distributed`).
    """
    from parmst import registry
    from parmst.errors import ParmstError, SolverUnavailable, UnknownOptionError
    from parmst.solvers.mpi.driver import solve_distributed

    chosen = registry.get("filter-boruvka/mpi" if solver == "auto" else solver)
    if chosen.backend != "mpi":
        mpi = [name for name, s in registry.solvers().items() if s.backend == "mpi"]
        raise SolverUnavailable(f"a DistributedGraph needs an mpi solver ({', '.join(mpi)}); "
                                f"{chosen.name!r} solves a whole Graph on one process")
    unknown = sorted(set(options) - set(chosen.options))
    if unknown:
        raise UnknownOptionError(f"solver {chosen.name!r} got unknown option(s) "
                                 f"{', '.join(unknown)}; it accepts: "
                                 f"{', '.join(sorted(chosen.options)) or 'none'}")
    if verify:
        raise ParmstError("verify=True needs the whole graph on one rank: on rank 0 call "
                          "parmst.verify(parmst.Graph.read(path), forest)")
    if ignore_nan:
        dg = dg.without_nan()
    return solve_distributed(dg, chosen.name,
                             _held_forest(dg, chosen.name, {**chosen.options, **options}))
