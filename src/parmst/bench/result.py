"""Benchmark results: the data model (graphs, records, a run's result) and its figures.

The Markdown report is :mod:`parmst.bench.markdown`, JSON files :mod:`parmst.bench.store`,
the comparison of two runs :mod:`parmst.bench.compare`.

The JSON schema (``"schema": "parmst-bench/1"``)::

    {"schema", "machine": {label, cpu, cores, gpus, versions, git_commit, date, ...},
     "config": {name, suite, paper, scheme: {kind, runs, k, tolerance}, threads, budget,
                size_series, measure, baseline, reference: {name, source, values, measure},
                formats, weights, placements, end_to_end, skipped_peers, skipped_graphs},
     "graphs": [{name, source, stands_for, num_vertices, num_edges, weight_dtype,
                 num_components, total_weight, verified, verify_message}],
     "records": [{graph, solver, kind, threads, options, variant, status, ranks, note, warmup_time,
                  times, init_times, compute_times, cpu_times, time, init_time,
                  compute_time, cpu_time, converged, phases, rounds, worklist_sizes, device,
                  threads_used, total_weight, weight_ok, extra}]}

A graph's name ends in ``~ranked`` for the ranked-weights twin
(:mod:`parmst.bench.transforms`) and in ``@device`` where the solvers took it
from device arrays (:mod:`parmst.bench.placement`). ``kind`` is ``"parmst"``
(a solver), ``"peer"`` (another library), ``"io"`` (writing or reading one
file format) or ``"scan"`` (one method of the prefix-scan experiment,
:mod:`parmst.bench.scan`; ``graph`` names the size). ``status`` is ``"ok"``,
``"MISMATCH"`` (a solver's edge ids differ from the reference, a peer's total
weight from ours, or a file read back from the graph written), ``"error"`` or
``"skipped"``; only ``"ok"`` records carry times.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "MEASURES",
    "REFERENCE",
    "SCHEMA",
    "SCIPY",
    "BenchResult",
    "GraphInfo",
    "Record",
]

SCHEMA = "parmst-bench/1"
REFERENCE = "kruskal/serial"
SCIPY = "scipy"
# What throughput and speedups divide by: the whole solve, or the computation alone.
MEASURES = ("time", "compute")


@dataclass
class GraphInfo:
    """An input of the benchmark and its reference forest."""

    name: str
    source: str
    num_vertices: int
    num_edges: int
    weight_dtype: str
    stands_for: str = ""
    num_components: int | None = None
    total_weight: int | float | None = None
    verified: bool | None = None
    verify_message: str = ""


@dataclass
class Record:
    """One solver (or peer) on one graph: its timed runs, or why there are none."""

    graph: str
    solver: str
    kind: str = "parmst"
    threads: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    variant: str = ""
    status: str = "ok"
    ranks: int | None = None  # MPI ranks (the ranks sweep), for mpi solvers
    note: str = ""
    warmup_time: float | None = None
    times: list[float] = field(default_factory=list)
    init_times: list[float] = field(default_factory=list)
    compute_times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    time: float | None = None
    init_time: float | None = None
    compute_time: float | None = None
    cpu_time: float | None = None
    converged: bool = True
    phases: dict[str, float] = field(default_factory=dict)
    rounds: int | None = None
    worklist_sizes: list[int] = field(default_factory=list)
    device: str = ""
    threads_used: int | None = None
    total_weight: int | float | None = None
    weight_ok: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # Stats.extra, or a file's size

    @property
    def label(self) -> str:
        """The column name: ``"ecl/cpu"``, ``"ecl/cpu x2"`` (2 threads), ``"ecl/gpu[filter=false]"``,
        ``"ghs/mpi 4 ranks"``."""
        name = f"{self.solver}[{self.variant}]" if self.variant else self.solver
        if self.ranks is not None:
            name = f"{name} {self.ranks} rank{'s' if self.ranks > 1 else ''}"
        return name if self.threads is None else f"{name} x{self.threads}"

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.time is not None

    def clear_times(self) -> None:
        """Drop every time measured (a failed or wrong run reports none)."""
        self.times, self.init_times, self.compute_times, self.cpu_times = [], [], [], []



@dataclass
class BenchResult:
    """Everything one benchmark run measured, with the machine it ran on.

    Examples
    --------
    >>> r = BenchResult(machine={"label": "box"}, config={"name": "demo"},
    ...                 graphs=[GraphInfo("g", "grid2d", 4, 4, "int32")],
    ...                 records=[Record("g", "kruskal/serial", times=[1e-3], time=1e-3)])
    >>> r.throughput(r.records[0])
    0.004
    >>> r.failed
    False
    """

    machine: dict[str, Any]
    config: dict[str, Any]
    graphs: list[GraphInfo] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)

    # ------------------------------------------------------------------ figures
    @property
    def measure(self) -> str:
        """``"time"`` (whole solve) or ``"compute"`` (computation alone): what rates divide by."""
        return self.config.get("measure") or "time"

    @property
    def baseline(self) -> str:
        """The solver speedups are taken against."""
        return self.config.get("baseline") or REFERENCE

    def graph(self, name: str) -> GraphInfo:
        return next(g for g in self.graphs if g.name == name)

    def find(self, graph: str, solver: str, threads: int | None = None) -> Record | None:
        """The ok record labelled ``solver`` on ``graph``, else that solver without options
        (at ``threads``, any if None)."""
        for record in self.records:
            if (record.graph == graph and record.ok
                    and (record.label == solver
                         or (record.solver == solver and not record.variant
                             and (threads is None or record.threads == threads)))):
                return record
        return None

    def seconds(self, record: Record) -> float | None:
        """The time rates and speedups use: with measure ``"compute"``, a solver's
        computation alone (peers' time is their library call already)."""
        if not record.ok:
            return None
        if self.measure == "compute" and record.kind == "parmst" and record.compute_time:
            return record.compute_time
        return record.time

    def throughput(self, record: Record) -> float | None:
        """Millions of (undirected input) edges per second."""
        seconds = self.seconds(record)
        if seconds is None or seconds <= 0:
            return None
        return self.graph(record.graph).num_edges / seconds / 1e6

    def speedup(self, record: Record, baseline: str) -> float | None:
        """``baseline``'s time over this record's time on the same graph.

        Against a peer the whole solve counts whatever the measure (a peer's
        input is never on a device already), unless the peer timed its
        computation alone (ECL-MST's own timer).
        """
        base = self.find(record.graph, baseline)
        if base is None or not record.ok:
            return None
        whole = base.kind == "peer" and not base.extra.get("own_timer")
        mine = record.time if whole else self.seconds(record)
        return self.seconds(base) / mine if mine and mine > 0 else None

    @property
    def failed(self) -> bool:
        """True if any result was wrong, a parmst solver or format failed, or a reference
        did not verify.

        A peer that raised is reported but does not fail the run: its library's
        fault is not ours. A peer whose weight disagrees does.
        """
        return (any(r.status == "MISMATCH" or (r.status == "error" and r.kind != "peer")
                    for r in self.records)
                or any(g.verified is False for g in self.graphs))

    def labels(self) -> list[str]:
        """Column labels: the reference first, other parmst solvers in run order, then peers
        and file formats."""
        seen: dict[str, str] = {}
        for record in self.records:
            seen.setdefault(record.label, record.kind)
        return (sorted((lab for lab, kind in seen.items() if kind == "parmst"),
                       key=lambda lab: lab != REFERENCE)
                + [lab for lab, kind in seen.items() if kind == "peer"]
                + [lab for lab, kind in seen.items() if kind == "io"])

    @property
    def reference(self) -> dict[str, Any] | None:
        """Published figures shown beside ours: ``{name, source, values, measure}``."""
        return self.config.get("reference")

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data, in the schema of the module docstring."""
        return {"schema": SCHEMA, "machine": self.machine, "config": self.config,
                "graphs": [asdict(g) for g in self.graphs],
                "records": [asdict(r) for r in self.records]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BenchResult:
        """The result :meth:`to_dict` gave (read from a JSON file)."""
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a parmst bench result (schema {data.get('schema')!r}, "
                             f"expected {SCHEMA!r})")
        return cls(machine=data["machine"], config=data["config"],
                   graphs=[GraphInfo(**g) for g in data["graphs"]],
                   records=[Record(**r) for r in data["records"]])

    @property
    def stem(self) -> str:
        """The file stem of this result's reports: ``bench_<name>``."""
        return f"bench_{self.config.get('name') or 'custom'}"

