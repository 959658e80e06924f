"""The settings of one benchmark run: :class:`RunConfig`.

``parmst bench`` builds one from its options; :func:`parmst.bench.run` builds
one from its keyword arguments. A setting left at None takes the suite's
value where the run names a suite, else the harness's default.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parmst.bench.placement import PLACEMENTS
from parmst.bench.result import MEASURES
from parmst.bench.suite_types import BenchGraph, Suite
from parmst.bench.suites import get_suite
from parmst.bench.timing import KBEST, MEDIAN, Scheme
from parmst.bench.transforms import WEIGHTS

if TYPE_CHECKING:
    from parmst.bench.result import BenchResult
    from parmst.graph import Graph

__all__ = ["RunConfig"]


@dataclass(frozen=True)
class RunConfig:
    """What one benchmark run measures, and how.

    Parameters
    ----------
    graphs : iterable of str, Graph or BenchGraph
        Graph files, generator specs (``"rmat:scale=14,seed=1"``) or graphs.
    solvers : sequence of str, optional
        Solver names or patterns (``"*/cpu"``), each optionally with solver
        options in brackets (``"ecl/gpu[launch=persistent,filter=false]"``), or
        ``["all"]``; default the suite's, else every solver that can run here
        (dense-matrix solvers only where the matrix is not much larger than
        the graph).
    suite : str, optional
        A named suite from :data:`parmst.bench.suites.SUITES`, run before
        ``graphs``; its settings apply where the arguments are None.
    only : sequence of str, optional
        Run only these of the suite's graphs (by name).
    peers : sequence of str, optional
        ``scipy``, ``networkx`` (or ``networkx-kruskal`` etc.), ``igraph``,
        ``networkit``, ``cugraph``, ``pbbs``; ``["none"]`` for none. Default:
        the suite's, else those installed, NetworkX only on graphs up to 20,000 edges.
    repeat : int, optional
        Timed runs after the warm-up; default 9 (5 with ``kbest``).
    kbest : bool
        Report Sousa's k-best (best of the 3 fastest of 5, within 5 %)
        instead of the median.
    threads : sequence of int, optional
        Run solvers that take ``threads`` once per count (a scaling sweep).
    ranks : sequence of int, optional
        Run the mpi solvers under ``mpiexec`` once per rank count, one launch
        each (:mod:`parmst.bench.mpi`); ``budget`` seconds per run bound a
        launch.
    weak : sequence of str, optional
        Weak-scaling series (:data:`parmst.bench.weak.WEAK_GRAPHS`: ``rmat``,
        ``uniform``, ``road``): at each of the ``ranks`` the mpi solvers solve
        a graph of ``edges_per_rank`` edges per rank, generated and verified
        in parallel.
    edges_per_rank : int, optional
        Edges per rank of the weak series (default ``2**24``).
    measure : {"time", "compute"}, optional
        What throughput and speedups divide by: the whole solve
        (initialization and computation; the default) or the computation
        alone (for GPU solvers: graph already on the device, as ECL-MST's timer).
    baseline : str, optional
        The solver whose time speedups are taken against (default ``kruskal/serial``).
    formats : sequence of str, optional
        File formats (:data:`parmst.io.FORMATS`) whose write and read-back
        speed is timed on every graph.
    scans : sequence of int, optional
        Sizes in MiB of uint32 for Sun and Skadron's prefix-scan experiment
        (:mod:`parmst.bench.scan`), run after the graphs.
    opencl_device : int or str, optional
        The OpenCL device of the scan experiment and of every solver that
        takes ``device`` without fixing it in brackets (index or name, as
        :func:`parmst.opencl.prefix_scan`'s ``device``).
    weights : sequence of str, optional
        Weight transforms (:mod:`parmst.bench.transforms`): ``"given"`` (the
        default) and/or ``"ranked"`` (int64 ranks of the weights, same
        forest); each graph runs once per transform, ``"ranked"`` named
        ``<graph>~ranked``.
    placements : sequence of str, optional
        Where solvers take each graph from (:mod:`parmst.bench.placement`):
        ``"host"`` arrays (the default) and/or ``"device"`` arrays (a graph
        built on the GPU), the latter named ``<graph>@device``; peers and
        formats run on the first placement only.
    end_to_end : bool, optional
        Time the whole public call (graph from the arrays, the forest, its
        ids where the input lies) instead of the solve function
        (:mod:`parmst.bench.solver_calls`); default False.
    cache_dir : path, optional
        Where generated graphs are cached (default ``$PARMST_CACHE`` or
        ``~/.cache/parmst/graphs``).
    cache : bool
        False to generate graphs afresh and cache nothing.
    budget : float
        Seconds a peer (or an mpi launch) may take per run (and to build its
        graph) before it is stopped and skipped with a note.
    time_limit : float, optional
        Seconds after which no further graph is started (the rest are listed
        as not run), so a run under a wall-clock limit keeps what it measured.
    progress : bool
        Show a progress bar over graphs x solvers x runs.
    label : str, optional
        A name for the machine in the report.
    name : str, optional
        The report's name (file stem ``bench_<name>``); the suite's by default.
    command : str, optional
        The command line, recorded in the report.
    after_graph : callable, optional
        Called with the result so far after each graph, and after each mpiexec
        launch of the ranks sweep (to save it as it grows).
    warmup : {"graph", "prefix"}, optional
        What each solver's untimed warm-up run solves: the graph (default,
        or the suite's) or its first
        :data:`~parmst.bench.solver_timing.WARMUP_PREFIX_EDGES` edges.

    Examples
    --------
    >>> config = RunConfig(suite="float-vs-int", repeat=3)
    >>> config.setting("weights"), config.scheme.runs
    (('given', 'ranked'), 3)
    """

    graphs: Iterable[str | Graph | BenchGraph] | None = None
    solvers: Sequence[str] | None = None
    suite: str | None = None
    peers: Sequence[str] | None = None
    repeat: int | None = None
    kbest: bool = False
    only: Sequence[str] | None = None
    threads: Sequence[int] | None = None
    ranks: Sequence[int] | None = None
    weak: Sequence[str] | None = None
    edges_per_rank: int | None = None
    measure: str | None = None
    baseline: str | None = None
    formats: Sequence[str] | None = None
    scans: Sequence[int] | None = None
    opencl_device: Any = None
    weights: Sequence[str] | None = None
    placements: Sequence[str] | None = None
    end_to_end: bool | None = None
    cache_dir: str | os.PathLike | None = None
    cache: bool = True
    budget: float = 30.0
    time_limit: float | None = None
    progress: bool = True
    label: str | None = None
    name: str | None = None
    command: str | None = None
    after_graph: Callable[[BenchResult], None] | None = None
    warmup: str | None = None

    @property
    def suite_info(self) -> Suite | None:
        """The named suite, or None."""
        return get_suite(self.suite) if self.suite is not None else None

    def setting(self, name: str, default: Any = None) -> Any:
        """A setting given here, else the suite's, else ``default``."""
        given = getattr(self, name)
        if given is not None:
            return given
        suite = self.suite_info
        value = getattr(suite, name) if suite is not None else None
        return default if value is None else value

    @property
    def scheme(self) -> Scheme:
        """How many runs are timed and which one is reported."""
        base = KBEST if self.kbest else MEDIAN
        runs = self.repeat or base.runs
        return Scheme(base.kind, runs, min(base.k, runs), base.tolerance,
                      self.setting("warmup", "graph"))

    def check(self) -> None:
        """Raise ValueError for a setting out of range (before anything runs)."""
        from parmst import io

        if self.repeat is not None and self.repeat < 1:
            raise ValueError(f"repeat must be at least 1, got {self.repeat}")
        measure = self.setting("measure", "time")
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
        unknown = [f for f in self.setting("formats", ()) if f not in io.FORMATS]
        if unknown:
            raise ValueError(f"unknown format {unknown[0]!r}; formats: {', '.join(io.FORMATS)}")
        if any(int(mb) < 1 for mb in self.setting("scans", ())):
            raise ValueError(f"scan sizes are whole MiB of at least 1, got "
                             f"{list(self.setting('scans', ()))}")
        self._check_weak()
        for what, allowed in (("weights", WEIGHTS), ("placements", PLACEMENTS)):
            values = self.setting(what, allowed[:1])
            wrong = [v for v in values if v not in allowed]
            if wrong or not values:
                raise ValueError(f"{what} must be among {', '.join(allowed)}, got "
                                 f"{', '.join(map(repr, values)) or 'none'}")

    def _check_weak(self) -> None:
        from parmst.bench.weak import WEAK_GRAPHS

        weak = list(self.setting("weak", ()))
        unknown = [name for name in weak if name not in WEAK_GRAPHS]
        if unknown:
            raise ValueError(f"unknown weak-scaling series {unknown[0]!r}; series: "
                             f"{', '.join(WEAK_GRAPHS)}")
        if weak and not self.setting("ranks"):
            raise ValueError("weak scaling runs the mpi solvers at several rank counts: "
                             "give ranks too (--ranks 1,2,4)")
        edges = self.setting("edges_per_rank")
        if edges is not None and edges < 64:
            raise ValueError(f"edges per rank must be at least 64, got {edges}")
