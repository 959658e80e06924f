"""Distributed-memory solvers over MPI (mpi4py); the distributed graph is :mod:`parmst.distributed`.

Nothing here imports mpi4py until a solver runs or :func:`mpi_available`
is asked. Launch with ``mpiexec -n 4 parmst solve FILE --solver
filter-boruvka/mpi`` (see :mod:`parmst.solvers.mpi.launch`); a run without
mpiexec is one rank.
"""

from __future__ import annotations

import functools

from parmst.registry import CITATIONS, Solver, register


@functools.cache
def mpi_available() -> bool | str:
    """True if mpi4py loads an MPI library here, else why not (importing it initialises MPI)."""
    try:
        from mpi4py import MPI
    except (ImportError, RuntimeError, OSError) as exc:
        return (f"mpi4py cannot load an MPI library ({exc}); pip install 'parmst[mpi]' "
                "installs Open MPI")
    MPI.Get_library_version()
    return True


def describe_mpi() -> str:
    """One line for ``parmst info``: the MPI library and launcher found, or why there is none."""
    ok = mpi_available()
    if ok is not True:
        return ok
    from mpi4py import MPI

    from parmst.errors import SolverUnavailable
    from parmst.solvers.mpi.launch import find_mpiexec

    try:
        launcher = find_mpiexec()
    except SolverUnavailable as exc:
        launcher = str(exc)
    version = MPI.Get_library_version().replace("\x00", "").splitlines()[0].strip()
    return f"{version}; mpiexec: {launcher}"


register(Solver(
    name="boruvka-allreduce/mpi",
    entry="parmst.solvers.mpi.solve:boruvka_allreduce",
    distributed_entry="parmst.solvers.mpi.solve:boruvka_allreduce_distributed",
    paper=CITATIONS["shou-he"] + ", section 3.4, Listing 8 (Allreduce of the lightest edge "
                                 "per component)",
    summary="edge-partitioned Borůvka: Allreduce MIN of packed (weight, id) per component "
            "each round; O(n) replicated component arrays per rank",
    requires=("mpi4py",),
    probe=mpi_available,
))
register(Solver(
    name="filter-boruvka/mpi",
    entry="parmst.solvers.mpi.solve:filter_boruvka",
    distributed_entry="parmst.solvers.mpi.solve:filter_boruvka_distributed",
    paper=CITATIONS["sanders-schimek"] + "; rounds of Shou and He's Listing 8",
    summary="local forest of each rank's own edges, merged up a binary tree of ranks "
            "where the forest is small against the edges; else safe local contraction, "
            "then distributed Borůvka on the contracted cut graph (minima sent to component "
            "owners; all-reduce rounds up to 65,536 components)",
    requires=("mpi4py",),
    options={"local_solver": "auto", "threads": None, "rounds": "auto", "local_filter": "auto"},
    probe=mpi_available,
))
register(Solver(
    name="ghs/mpi",
    entry="parmst.solvers.mpi.solve:ghs",
    distributed_entry="parmst.solvers.mpi.solve:ghs_distributed",
    paper=CITATIONS["ghs"] + ", as " + CITATIONS["shou-he"] + " adapt it (section 3.4, "
          "optimizations 2 and 3)",
    summary="Gallager-Humblet-Spira message passing, each rank simulating its vertices: local "
            "delivery, batched Isend/Iprobe, counting termination; slow, for comparison",
    requires=("mpi4py",),
    probe=mpi_available,
))
register(Solver(
    name="genboruvka/mpi",
    entry="parmst.solvers.mpi.solve:genboruvka",
    distributed_entry="parmst.solvers.mpi.solve:genboruvka_distributed",
    paper=CITATIONS["sousa"] + ", section 4.4 and Figure 5.7 (GenBoruvka, MPI x threads)",
    summary="block-owned contracted CSR per rank, genboruvka/cpu's lightest-edge kernel, "
            "pointer jumping across ranks, Exscan renumbering, Alltoallv redistribution",
    requires=("mpi4py",),
    options={"threads": None},
    probe=mpi_available,
))
