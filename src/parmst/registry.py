"""Solver registry: stable names, metadata, lazy loading, selection.

A solver is a function ``solve(graph, stats, **options) -> edge_ids``
living in a module that is imported only when the solver runs, so that
optional dependencies (numba-cuda, mpi4py, pyopencl) are never imported by
``import parmst``. Each backend package (``parmst.solvers.<backend>``)
declares its solvers with :func:`register` in its ``__init__``, which
imports nothing heavy.

Selection follows NetworkX's dispatch habit: :meth:`Solver.can_run` returns
``True`` or a reason string, and ``solver="auto"`` picks by the documented
rule in :func:`select`. :func:`run` is the one way into a solver (the API,
the front doors and the command line all go through it): select, check the
options, check that the solver can run, load it, call it. A graph spread over
MPI ranks (one whose ``is_distributed`` attribute is true) goes the same way
through :func:`run_distributed` to the solver's ``distributed_entry``.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from parmst.errors import SolverUnavailable, UnknownOptionError, UnknownSolverError
from parmst.stats import Stats

if TYPE_CHECKING:
    from parmst.forest import Forest
    from parmst.graph import Graph

__all__ = [
    "BACKENDS",
    "CITATIONS",
    "Solver",
    "add_auto_rule",
    "available_solvers",
    "cpu_count",
    "explain",
    "explain_points",
    "get",
    "is_distributed",
    "prepare",
    "register",
    "resolve",
    "run",
    "run_distributed",
    "run_points",
    "select",
    "solvers",
]

BACKENDS = ("serial", "cpu", "gpu", "multigpu", "opencl", "mpi")

CITATIONS = {
    "shou-he": "Shou and He, Parallel Minimum Spanning Tree (15-418 final project report)",
    "ecl-mst": "ECL-MST (Fallin, Gonzalez, Seo, Burtscher, SC '23)",
    "sun-skadron": "Sun and Skadron, Prefix Scan and Minimum Spanning Tree with OpenCL "
                   "(U. Virginia tech. report CS-2013-02)",
    "sousa": "Sousa, Efficient sequential and parallel versions of MST-solvers for multi-core "
             "CPU-chips and GPUs (MSc thesis, Universidade do Minho, 2014)",
    "pugliese": "Pugliese, Parallel implementation of Prim's Algorithm for computing a Minimum "
                "Spanning Tree (GPU Computing project report)",
    "filter-kruskal": "Filter-Kruskal (Osipov, Sanders, Singler, ALENEX 2009)",
    "sanders-schimek": "Sanders and Schimek, Engineering Massively Parallel MST Algorithms "
                       "(IPDPS 2023)",
    "ghs": "Gallager, Humblet and Spira, A Distributed Algorithm for Minimum-Weight Spanning "
           "Trees (TOPLAS 1983)",
    "prokopenko": "Prokopenko, Sao and Lebrun-Grandié, A single-tree algorithm to compute the "
                  "Euclidean minimum spanning tree on GPUs (ICPP 2022)",
}
"""Each paper a solver implements, as its ``paper`` field starts (docs/papers.md: full
citations, what each contributes, which solvers implement it)."""


@dataclass(frozen=True)
class Solver:
    """A registered solver.

    Attributes
    ----------
    name : str
        ``"<algorithm>/<backend>"``, e.g. ``"kruskal/serial"``.
    entry : str
        ``"module:function"`` of the solve function, imported lazily.
    paper : str
        The paper (one of :data:`CITATIONS`) and the part of it implemented,
        e.g. ``CITATIONS["sousa"] + ", Algorithm 4"``.
    summary : str
        One line for ``parmst info``.
    requires : tuple of str
        Importable modules it needs beyond the base install.
    options : dict
        Accepted keyword options and their defaults; anything else is a TypeError.
    probe : callable, optional
        ``probe() -> True | str``: whether the hardware is there (GPU, MPI).
    probe_options : tuple of str
        Options that decide whether the hardware suffices (``ecl/multigpu``'s
        ``devices`` and ``parts``): :meth:`can_run` passes those it is given
        to ``probe`` as keywords.
    limit : callable, optional
        ``limit(graph) -> True | str``: whether this input fits the solver.
    exact : bool
        Whether it returns the minimum spanning forest. An approximate solver
        (False) returns a spanning forest at least as heavy; "auto" never picks it.
    distributed_entry : str, optional
        ``"module:function"`` solving a graph spread over MPI ranks:
        ``function(dg, **options) -> Forest``, called on every rank (the
        complete Forest on rank 0, each other rank its share). Only solvers
        with one accept a distributed graph.
    kind : str
        What it solves: ``"graph"`` (a :class:`~parmst.Graph`; ``solve(graph, stats,
        **options) -> edge ids``) or ``"points"`` (a point set, the complete graph of its
        points; ``solve(points, stats, **options) -> (first, second, key)``, see
        :func:`run_points`).
    runs_on : str
        The backend, where the name's suffix says something else (``prim-dense/points``
        runs on ``serial``).
    ascending : bool
        Its host edge ids come back strictly ascending, the order a
        :class:`~parmst.Forest` reports them in, so the forest keeps them as they
        are instead of ordering them again.
    """

    name: str
    entry: str
    paper: str
    summary: str
    requires: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    probe: Callable[..., bool | str] | None = None
    probe_options: tuple[str, ...] = ()
    limit: Callable[[Graph], bool | str] | None = None
    exact: bool = True
    distributed_entry: str | None = None
    kind: str = "graph"
    runs_on: str = ""
    ascending: bool = False

    @property
    def algorithm(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def backend(self) -> str:
        return self.runs_on or self.name.split("/", 1)[1]

    def can_run(self, graph: Graph | None = None,
                options: dict[str, Any] | None = None) -> bool | str:
        """``True`` if this solver can run here (on ``graph``, with ``options``, if given),
        else why not."""
        for module in self.requires:
            if not _importable(module):
                return _missing(module, self.backend)
        if self.probe is not None:
            given = {k: v for k, v in (options or {}).items() if k in self.probe_options}
            ok = self.probe(**given)
            if ok is not True:
                return ok
        if graph is not None and self.limit is not None:
            return self.limit(graph)
        return True

    def check_options(self, options: dict[str, Any]) -> None:
        """Raise :class:`~parmst.errors.UnknownOptionError` (a TypeError) naming any of
        ``options`` this solver does not accept, and those it does."""
        unknown = options.keys() - self.options.keys()
        if unknown:
            accepted = ", ".join(sorted(self.options)) or "none"
            raise UnknownOptionError(f"solver {self.name!r} got unknown option(s) "
                                     f"{', '.join(sorted(unknown))}; it accepts: {accepted}")

    def load(self, distributed: bool = False) -> Callable[..., Any]:
        """Import and return the solve function (``distributed``: the one for a graph spread
        over MPI ranks)."""
        module, function = (self.distributed_entry if distributed else self.entry).split(":")
        # sys.modules first: import_module's own lookup costs microseconds on every solve.
        loaded = sys.modules.get(module) or importlib.import_module(module)
        return getattr(loaded, function)


@functools.cache
def _importable(module: str) -> bool:
    """Whether ``module`` can be found (not imported), looked up once per process: a solve
    asks on every call, and a package does not appear or vanish under a running process."""
    return importlib.util.find_spec(module) is not None


def _missing(module: str, backend: str) -> str:
    """Why a solver needing ``module`` cannot run: the package's own name and its pip extra."""
    from parmst._optional import OPTIONAL

    dep = next((d for d in OPTIONAL if d.module == module), None)
    if dep is None:
        return f"{module} is not installed (pip install 'parmst[{backend}]')"
    return f"{dep.distribution} is not installed ({dep.hint})"


_REGISTRY: dict[str, Solver] = {}
"""Every registered solver, kept sorted by name as it is filled, so that the lookups of
every solve need no sort."""
_LOADED = False


def register(solver: Solver) -> Solver:
    """Add a solver to the registry (called from backend packages' ``__init__``)."""
    if solver.name in _REGISTRY and _REGISTRY[solver.name] != solver:
        raise ValueError(f"solver {solver.name!r} registered twice")
    if solver.backend not in BACKENDS:
        raise ValueError(f"solver {solver.name!r}: backend must be one of {BACKENDS}")
    last = next(reversed(_REGISTRY), solver.name)
    _REGISTRY[solver.name] = solver
    if solver.name < last:  # out of order: sort again (registrations happen at import)
        ordered = sorted(_REGISTRY.items())
        _REGISTRY.clear()
        _REGISTRY.update(ordered)
    return solver


def _load_backends() -> None:
    global _LOADED
    if _LOADED:
        return
    for backend in BACKENDS:
        name = f"parmst.solvers.{backend}"
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
    _LOADED = True


def _table() -> dict[str, Solver]:
    """Every registered solver, sorted by name: the registry itself, not to be modified."""
    _load_backends()
    return _REGISTRY


def solvers(kind: str = "graph") -> dict[str, Solver]:
    """Every registered solver of ``kind`` (``"graph"`` or ``"points"``), by name, whether
    or not it can run here."""
    return {name: s for name, s in _table().items() if s.kind == kind}


def get(name: str) -> Solver:
    """The solver registered under ``name``; ValueError listing valid names otherwise."""
    table = _table()
    if name not in table:
        raise UnknownSolverError(
            f"unknown solver {name!r}; registered solvers: {', '.join(table)} (or 'auto')")
    return table[name]


def available_solvers(graph: Graph | None = None) -> dict[str, bool | str]:
    """Each registered solver mapped to ``True`` or the reason it cannot run here.

    Examples
    --------
    >>> import parmst
    >>> parmst.available_solvers()["kruskal/serial"]
    True
    """
    return {name: s.can_run(graph) for name, s in solvers().items()}


def cpu_count() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# The "auto" rule, first match wins. Each entry: (solver name, condition on
# (graph, cores), why). The evidence behind the order is in
# docs/solver-selection.md. Backend packages add their rules with
# add_auto_rule when they load, so faster hardware is tried first.
def _dense(graph: Graph) -> bool:
    """At least half of all vertex pairs, on at most 20,000 vertices: O(1)."""
    n = graph.num_vertices
    return 2 <= n <= 20_000 and 2 * graph.num_edges >= 0.5 * n**2


def _equal_weights(graph: Graph) -> bool:
    """Every weight the same (an unweighted graph): one pass over the weights."""
    weight = graph.weight
    return len(weight) == 0 or bool((weight == weight[0]).all())


AUTO_RULES: list[tuple[str, Callable[[Graph, int], bool], str]] = [
    # The weights are read only for a dense graph, where either solver reads them all anyway.
    ("kruskal/serial", lambda g, cores: _dense(g) and _equal_weights(g),
     ("dense but unweighted: the (weight, id) order is the id order, so Kruskal is one "
      "union-find pass with no sort, 3.7-6.1x faster than dense Prim, whose key matrix "
      "alone costs more")),
    ("prim-dense/serial", lambda g, cores: _dense(g),
     "dense graph (at least half of all pairs): O(n^2) Prim touches each pair once"),
    ("kruskal/serial", lambda g, cores: True,
     "general sparse graph: sort-based Kruskal was fastest serially on every family measured"),
]


def add_auto_rule(name: str, condition: Callable[[Graph, int], bool], why: str,
                  before: str | None = None) -> None:
    """Add a rule to "auto" selection, ahead of the rule for solver ``before`` (or first)."""
    position = 0
    if before is not None:
        position = next(i for i, rule in enumerate(AUTO_RULES) if rule[0] == before)
    AUTO_RULES.insert(position, (name, condition, why))


# The "auto" rule for a graph spread over MPI ranks (docs/mpi.md): the solver that
# contracts each rank's own edges before it communicates, and picks its rounds by
# what is left.
DISTRIBUTED_AUTO = ("filter-boruvka/mpi",
                    "distributed graph: filter-first Borůvka, the default of the mpi backend")


def is_distributed(graph: Any) -> bool:
    """Whether ``graph`` is spread over MPI ranks: it says so with a true
    ``is_distributed`` attribute (:class:`parmst.distributed.DistributedGraph` does)."""
    return bool(getattr(graph, "is_distributed", False))


# With options the rule's pick does not take (threads=4 when the rule picks a serial
# solver), "auto" picks among the solvers that take them: first the multi-core solver
# that the rules themselves pick on more cores for such a graph, then any that runs.
THREADED_AUTO: list[tuple[str, Callable[[Graph], bool]]] = [
    ("prim-dense/cpu", _dense),
    ("ecl/cpu", lambda g: True),
]


def select(graph: Graph, options: dict[str, Any] | None = None) -> Solver:
    """The solver ``solver="auto"`` picks for ``graph`` on this machine (among those that
    take ``options``, e.g. ``{"threads": 2}``, if given)."""
    return explain(graph, options)[0]


def explain(graph: Graph, options: dict[str, Any] | None = None) -> tuple[Solver, str]:
    """The solver "auto" picks for ``graph`` and the rule that picked it; with ``options``,
    among the solvers that take them (:data:`THREADED_AUTO` first).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1], [1, 2], [5, 6])
    >>> explain(g, {"threads": 2})[0].name
    'ecl/cpu'
    """
    chosen, why = _by_rule(graph)
    if not options or not options.keys() - chosen.options.keys():
        return chosen, why
    return _taking(graph, options, chosen)


def _taking(graph: Graph, options: dict[str, Any], passed: Solver) -> tuple[Solver, str]:
    """The "auto" pick among the solvers that take ``options``, which ``passed`` does not."""
    given = ", ".join(sorted(options))
    table = _table()
    preferred = [table.get(name) for name, condition in THREADED_AUTO if condition(graph)]
    rest = [s for s in table.values() if s.backend != "mpi" and s.kind == "graph"]
    for solver in preferred + rest:
        if (solver is None or not solver.exact or options.keys() - solver.options.keys()
                or solver.can_run(graph, options) is not True):
            continue
        return solver, (f"option(s) {given} given, which {passed.name} does not take: "
                        f"{solver.name}, the first solver here that takes them")
    raise SolverUnavailable(f"no solver that takes the option(s) {given} can run on this "
                            f"graph here; 'parmst info' lists the solvers and their options")


def _by_rule(graph: Graph) -> tuple[Solver, str]:
    """The solver the first matching rule of :data:`AUTO_RULES` picks, and the rule's why."""
    if is_distributed(graph):
        name, why = DISTRIBUTED_AUTO
        return get(name), why
    table = _table()
    cores = cpu_count()
    for name, condition, why in AUTO_RULES:
        solver = table.get(name)
        # The condition first: it is a few comparisons, can_run may probe the hardware.
        if solver is None or not solver.exact or not condition(graph, cores):
            continue
        if solver.can_run(graph) is True:
            return solver, why
    raise SolverUnavailable("no registered solver can run on this graph")


def resolve(solver: str, graph: Any = None, options: dict[str, Any] | None = None) -> Solver:
    """The solver that ``solver`` (a name or ``"auto"``) names for ``graph``, checked.

    Raises
    ------
    UnknownSolverError
        No solver of that name.
    SolverUnavailable
        A distributed graph and a solver without a distributed entry, or the
        solver cannot run here (on ``graph``, with ``options``).
    UnknownOptionError
        An option the solver does not take.
    """
    options = options or {}
    if solver == "auto" and not options and not is_distributed(graph):
        chosen = select(graph)
        if chosen.kind == "graph":
            return chosen  # the rule picks only solvers that can run on this graph here
    chosen = select(graph, options) if solver == "auto" else get(solver)
    if chosen.kind != "graph":
        raise SolverUnavailable(f"solver {chosen.name!r} solves point sets "
                                "(parmst.euclidean_mst), not graphs")
    if is_distributed(graph) and chosen.distributed_entry is None:
        spread = [name for name, s in solvers().items() if s.distributed_entry is not None]
        raise SolverUnavailable(f"a DistributedGraph needs an mpi solver ({', '.join(spread)}); "
                                f"{chosen.name!r} solves a whole Graph on one process")
    chosen.check_options(options)
    ok = chosen.can_run(graph, options)
    if ok is not True:
        raise SolverUnavailable(f"solver {chosen.name!r} cannot run here: {ok}")
    return chosen


def prepare(solver: str, graph: Graph | None, options: dict[str, Any]
            ) -> tuple[Solver, Callable[[Graph, Stats], Any]]:
    """Resolve and check ``solver`` once; return it and its solve function with its options
    bound, ``solve(graph, stats) -> edge ids``.

    :func:`run` calls it for one solve; the benchmark harness calls it once per
    solver and then times the bound function alone, run after run.

    Examples
    --------
    >>> import parmst
    >>> chosen, solve = prepare("kruskal/serial", None, {})
    >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 2, 3])
    >>> sorted(solve(g, parmst.Stats()).tolist())
    [0, 1]
    """
    chosen = resolve(solver, graph, options)
    solve = chosen.load()
    if not options and not chosen.options:  # the common call: nothing to bind
        return chosen, solve
    return chosen, functools.partial(solve, **{**chosen.options, **options})


def run(solver: str, graph: Graph, /, **options: Any) -> tuple[Solver, Any, Stats]:
    """Select, check and run a solver on a NaN-free graph held whole.

    Returns the solver that ran, its edge ids (any order; a device array when
    a GPU solver ran on a graph on the device) and its stats, without
    assembling a :class:`~parmst.Forest`: the front doors (``parmst.scipy``,
    the NetworkX backend) return their callers' types and would throw it away.

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 2, 3])
    >>> chosen, edge_ids, stats = run("kruskal/serial", g)
    >>> chosen.name, sorted(edge_ids.tolist())
    ('kruskal/serial', [0, 1])
    """
    if is_distributed(graph):
        raise TypeError("a graph spread over MPI ranks is solved by run_distributed")
    chosen, solve = prepare(solver, graph, options)
    stats = Stats()
    edge_ids = solve(graph, stats)
    if not hasattr(edge_ids, "copy_to_host"):  # ids a GPU solve left on the device stay there
        edge_ids = np.asarray(edge_ids)
    return chosen, edge_ids, stats


def run_distributed(solver: str, graph: Any, /, *, gather: bool = True,
                    **options: Any) -> Forest:
    """Select, check and run a solver on a graph spread over MPI ranks; call it on every rank.

    ``solver="auto"`` picks ``filter-boruvka/mpi``. Rank 0 gets the complete
    Forest, every other rank its share (see the solver's distributed entry).
    ``gather=False`` leaves rank 0 its share too, so that no rank holds the
    whole forest (write it with :func:`parmst.distributed.write_forest`).
    """
    chosen = resolve(solver, graph, options)
    return chosen.load(distributed=True)(graph, gather=gather,
                                         **{**chosen.options, **options})


# Point sets (docs/points.md): the complete graph of n points, never materialised. A point
# solver's entry is ``solve(points, stats, **options) -> (first, second, key)``: the tree's
# pairs as input indices, first < second, and their squared keys. The "auto" rule, first
# match wins; each condition takes (n, d, cores). The evidence is in docs/points.md.
POINT_AUTO_RULES: list[tuple[str, Callable[[int, int, int], bool], str]] = [
    ("prim-dense/points", lambda n, d, cores: n < 1_000 or (d >= 12 and n <= 50_000),
     ("few points, or many dimensions and not too many points: the k-d tree prunes too "
      "little to pay for itself, dense Prim touches each pair once")),
    ("boruvka-kdtree/cpu", lambda n, d, cores: cores > 1,
     "k-d tree Borůvka on every core"),
    ("boruvka-kdtree/serial", lambda n, d, cores: True, "k-d tree Borůvka on one core"),
]


def explain_points(n: int, d: int, options: dict[str, Any] | None = None) -> tuple[Solver, str]:
    """The point solver "auto" picks for ``n`` points in ``d`` dimensions, and why; with
    ``options``, the first rule's solver that takes them all.

    Examples
    --------
    >>> explain_points(100, 2)[0].name
    'prim-dense/points'
    >>> explain_points(100, 2, {"leaf_size": 16})[0].name in ("boruvka-kdtree/cpu",
    ...                                                       "boruvka-kdtree/serial")
    True
    """
    options = options or {}
    table = _table()
    cores = cpu_count()
    for name, condition, why in POINT_AUTO_RULES:
        solver = table.get(name)
        if solver is None or options.keys() - solver.options.keys():
            continue
        if condition(n, d, cores) and solver.can_run(None, options) is True:
            return solver, why
    for solver in solvers("points").values():  # the options rule out every rule's pick
        if not options.keys() - solver.options.keys() and solver.can_run(None, options) is True:
            return solver, (f"option(s) {', '.join(sorted(options))} given: {solver.name}, "
                            "the first point solver here that takes them")
    raise SolverUnavailable(f"no point solver that takes the option(s) "
                            f"{', '.join(sorted(options))} can run here; 'parmst info' lists "
                            "the solvers and their options")


def run_points(solver: str, points: np.ndarray, /, **options: Any
               ) -> tuple[Solver, tuple[np.ndarray, np.ndarray, np.ndarray], Stats]:
    """Select, check and run a point solver on validated float64 points (shape (n, d)).

    Returns the solver that ran, its ``(first, second, key)`` arrays and its stats.

    Examples
    --------
    >>> import numpy as np
    >>> chosen, (first, second, key), _ = run_points("prim-dense/points", np.eye(3))
    >>> chosen.name, len(first), key.tolist()
    ('prim-dense/points', 2, [2.0, 2.0])
    """
    n, d = points.shape
    if solver == "auto":
        chosen = explain_points(n, d, options)[0]
    else:
        chosen = get(solver)
        if chosen.kind != "points":
            names = ", ".join(solvers("points"))
            raise UnknownSolverError(f"solver {solver!r} solves graphs; the point solvers are: "
                                     f"{names} (or 'auto')")
        chosen.check_options(options)
        ok = chosen.can_run(points, options)
        if ok is not True:
            raise SolverUnavailable(f"solver {chosen.name!r} cannot run here: {ok}")
    stats = Stats()
    result = chosen.load()(points, stats, **{**chosen.options, **options})
    return chosen, result, stats
