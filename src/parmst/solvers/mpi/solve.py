"""Registry entry points of the mpi solvers: for a distributed graph, and for a whole Graph.

Each solver has two entries. Its distributed entry (``*_distributed``,
the registry's ``distributed_entry``) solves a
:class:`~parmst.distributed.DistributedGraph` on every rank through
:func:`parmst.solvers.mpi.driver.solve_distributed`, handing it the rounds
that choose this rank's forest edges. Its plain entry solves a
:class:`~parmst.Graph` that every rank holds (the conformance suite, a script
run on every rank): it spreads the graph over ``MPI.COMM_WORLD`` (each rank
keeps its slice), runs the distributed entry and gives every rank the forest's
edge ids. Every distributed entry takes ``gather`` (see
:func:`parmst.registry.run_distributed`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from parmst.forest import Forest
from parmst.stats import Stats


def boruvka_allreduce_distributed(dg, gather: bool = True) -> Forest:
    """The minimum spanning forest of ``dg`` by Shou and He's all-reduce Borůvka."""
    from parmst.solvers.mpi.allreduce import boruvka_allreduce_held
    from parmst.solvers.mpi.driver import solve_distributed

    return solve_distributed(dg, "boruvka-allreduce/mpi",
                             lambda stats: boruvka_allreduce_held(dg, stats), gather)


def filter_boruvka_distributed(dg, local_solver: str = "auto", threads: int | None = None,
                               rounds: str = "auto", local_filter: str = "auto",
                               gather: bool = True) -> Forest:
    """The minimum spanning forest of ``dg`` by filter-first distributed Borůvka.

    ``local_solver`` solves each rank's own edges (any registered one-process
    solver). ``threads``: Numba threads per rank for every step (the local
    solver gets them when it takes threads); None gives each rank its part
    of the cores it may run on (:mod:`parmst.solvers.mpi.rank_threads`). ``rounds="merge"``
    merges the ranks' local forests up a binary tree of ranks instead
    (:mod:`parmst.solvers.mpi.forest_merge`: no filter, no rounds); otherwise
    what crosses ranks after the filter is contracted by
    ``"allreduce"`` rounds (replicated per-component arrays), ``"owners"``
    rounds (minima sent to each component's owner; edges stay where they
    are) or ``"genboruvka"`` rounds (contracted rows redistributed each round).
    ``"auto"`` merges where ``2 (n - 1) <= 2 m / p`` (a merge then reads no
    more than twice a rank's share of the edges) unless ``local_filter`` is
    forced, else all-reduce rounds up to
    65,536 components left after the filter, owner rounds beyond.
    ``local_filter`` runs the filter (``"on"``), skips
    it so the rounds start from the vertices (``"off"``), or (``"auto"``)
    runs it only where the ranks' local edges could contract at least 90 %
    of the vertices (graphs with locality; not uniform random graphs at two
    ranks or more).
    """
    from parmst.solvers.mpi.driver import solve_distributed
    from parmst.solvers.mpi.filter_boruvka import filter_boruvka_held

    return solve_distributed(dg, "filter-boruvka/mpi", lambda stats: filter_boruvka_held(
        dg, stats, local_solver, threads, rounds, local_filter), gather)


def genboruvka_distributed(dg, threads: int | None = None, gather: bool = True) -> Forest:
    """The minimum spanning forest of ``dg`` by Sousa's distributed GenBoruvka.

    ``threads``: Numba threads per rank for the lightest-edge kernel.
    """
    from parmst.solvers.mpi.driver import solve_distributed
    from parmst.solvers.mpi.genboruvka import genboruvka_held

    return solve_distributed(dg, "genboruvka/mpi",
                             lambda stats: genboruvka_held(dg, stats, threads), gather)


def ghs_distributed(dg, gather: bool = True) -> Forest:
    """The minimum spanning forest of ``dg`` by Gallager-Humblet-Spira message passing."""
    from parmst.solvers.mpi.driver import solve_distributed
    from parmst.solvers.mpi.ghs import ghs_held

    return solve_distributed(dg, "ghs/mpi", lambda stats: ghs_held(dg, stats), gather)


def _on_every_rank(graph, stats: Stats, distributed: Callable[..., Forest],
                   **options) -> np.ndarray:
    """Spread ``graph`` over the ranks, solve it with the ``distributed`` entry, and give
    every rank the forest's edge ids; ``stats`` gets the solve's figures."""
    from parmst.distributed import DistributedGraph

    with stats.init():
        dg = DistributedGraph.from_graph(graph)
    forest = distributed(dg, **options)
    ids = dg.channel.comm.bcast(forest.edge_ids if dg.rank == 0 else None, root=0)
    stats.compute_time += forest.stats.compute_time
    stats.phases.update(forest.stats.phases)
    stats.rounds = forest.stats.rounds
    stats.worklist_sizes = forest.stats.worklist_sizes
    stats.device, stats.threads = forest.stats.device, forest.stats.threads
    stats.extra.update(forest.stats.extra)
    return ids


def boruvka_allreduce(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Shou and He's all-reduce Borůvka.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> boruvka_allreduce(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _on_every_rank(graph, stats, boruvka_allreduce_distributed)


def filter_boruvka(graph, stats: Stats, local_solver: str = "auto",
                   threads: int | None = None, rounds: str = "auto",
                   local_filter: str = "auto") -> np.ndarray:
    """Edge ids of the minimum spanning forest by filter-first distributed Borůvka.

    The options are those of :func:`filter_boruvka_distributed`.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> filter_boruvka(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _on_every_rank(graph, stats, filter_boruvka_distributed, local_solver=local_solver,
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
    return _on_every_rank(graph, stats, genboruvka_distributed, threads=threads)


def ghs(graph, stats: Stats) -> np.ndarray:
    """Edge ids of the minimum spanning forest by Gallager-Humblet-Spira message passing.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1])
    >>> ghs(g, parmst.Stats()).tolist()  # doctest: +SKIP
    [0, 1]
    """
    return _on_every_rank(graph, stats, ghs_distributed)
