"""What a benchmark suite is made of: its inputs and what it reproduces (:mod:`parmst.bench.suites`
holds the named suites themselves)."""

from __future__ import annotations

from dataclasses import dataclass, field

from parmst.bench.inputs import is_point_source

__all__ = ["BenchGraph", "Reference", "Suite"]


@dataclass(frozen=True)
class BenchGraph:
    """One input of a suite: a display name, a generator spec and the paper's input.

    A spec of a point family (:mod:`parmst.generators.points`) or a point file
    (``.npy``, ``.csv``) makes it a point set, whose tree the point solvers build:
    the Euclidean one, or with ``min_samples`` HDBSCAN's mutual-reachability tree.
    """

    name: str
    spec: str
    stands_for: str = ""
    min_samples: int | None = None

    @property
    def is_points(self) -> bool:
        """Whether the input is a point set rather than a graph."""
        return is_point_source(self.spec)


@dataclass(frozen=True)
class Reference:
    """Published throughputs (M edges/s) to print beside ours, per graph name.

    ``measure`` says which of our times they compare with: ``"compute"``
    (computation only, as ECL-MST's own timer) or ``"time"`` (the whole solve).
    """

    name: str
    source: str
    values: dict[str, float]
    measure: str = "compute"


@dataclass(frozen=True)
class Suite:
    """A named list of inputs reproducing one paper's experiment, and its settings.

    Attributes
    ----------
    name : str
    paper : str
        The seed paper and the table or figure it reproduces.
    graphs : tuple of BenchGraph
    size_series : bool
        The inputs form a size series (plotted as time against size).
    solvers, peers : tuple of str, optional
        Solver specs (``"ecl/gpu[launch=persistent]"``) and peers to run
        when the command names none (every suite of :data:`SUITES` names both);
        ``None``: the harness's defaults, every solver that can run here and
        every installed peer.
    threads : tuple of int, optional
        A thread-count sweep for solvers that take ``threads``.
    ranks : tuple of int, optional
        An MPI rank-count sweep for the mpi solvers (one mpiexec launch each).
    weak : tuple of str
        Weak-scaling series run at each rank count (:mod:`parmst.bench.weak`).
    edges_per_rank : int, optional
        Their edges per rank (default :data:`parmst.bench.weak.EDGES_PER_RANK`).
    measure : str
        ``"time"`` (whole solve) or ``"compute"`` (computation only) for
        throughput and speedups.
    baseline : str, optional
        Solver that speedups are taken against (default ``kruskal/serial``).
    reference : Reference, optional
        Published figures printed as a column beside ours.
    formats : tuple of str
        File formats whose write and read speed is timed on every graph.
    scans : tuple of int
        Sizes (MiB of uint32) of the OpenCL prefix-scan experiment
        (:mod:`parmst.bench.scan`), run besides any graphs.
    warmup : str
        ``"graph"``: each solver's warm-up solves the graph itself;
        ``"prefix"``: its first :data:`parmst.bench.solver_timing.WARMUP_PREFIX_EDGES`
        edges (same vertex count and dtypes, so the same kernels compile), for
        graphs where a second full solve of a slow baseline would cost minutes.
    weights : tuple of str
        Weight transforms (:mod:`parmst.bench.transforms`): each graph runs
        once per transform, ``"ranked"`` as ``<name>~ranked``.
    placements : tuple of str
        Where the solvers take each graph from (:mod:`parmst.bench.placement`):
        ``"host"`` arrays and/or ``"device"`` arrays, the latter as ``<name>@device``.
    end_to_end : bool
        Time the whole public call (graph from the arrays, the forest, its ids)
        instead of the solve function (:mod:`parmst.bench.solver_calls`).
    gpu_scale : tuple of str
        Graphs generated on the GPUs and solved at each of ``gpus`` GPU counts
        (:data:`parmst.bench.multigpu_scale.SCALE_GRAPHS`).
    gpus : tuple of int
        The GPU counts of ``gpu_scale``.
    """

    name: str
    paper: str
    graphs: tuple[BenchGraph, ...]
    size_series: bool = False
    notes: str = ""
    solvers: tuple[str, ...] | None = None
    peers: tuple[str, ...] | None = None
    threads: tuple[int, ...] | None = None
    ranks: tuple[int, ...] | None = None
    weak: tuple[str, ...] = ()
    edges_per_rank: int | None = None
    measure: str = "time"
    baseline: str | None = None
    reference: Reference | None = None
    formats: tuple[str, ...] = ()
    scans: tuple[int, ...] = ()
    warmup: str = "graph"
    weights: tuple[str, ...] = ("given",)
    placements: tuple[str, ...] = ("host",)
    end_to_end: bool = False
    gpu_scale: tuple[str, ...] = ()
    gpus: tuple[int, ...] = (1, 2, 4)
    specs: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(g.spec for g in self.graphs))
