"""Solver registry: stable names, metadata, lazy loading, selection.

A solver is a function ``solve(graph, stats, **options) -> edge_ids``
living in a module that is imported only when the solver runs, so that
optional dependencies (numba-cuda, mpi4py, pyopencl) are never imported by
``import parmst``. Each backend package (``parmst.solvers.<backend>``)
declares its solvers with :func:`register` in its ``__init__``, which
imports nothing heavy.

Selection follows NetworkX's dispatch habit: :meth:`Solver.can_run` returns
``True`` or a reason string, and ``solver="auto"`` picks by the documented
rule in :func:`select`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parmst.errors import SolverUnavailable, UnknownSolverError

if TYPE_CHECKING:
    from parmst.graph import Graph

__all__ = [
    "BACKENDS",
    "CITATIONS",
    "Solver",
    "add_auto_rule",
    "available_solvers",
    "cpu_count",
    "explain",
    "get",
    "register",
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

    @property
    def algorithm(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def backend(self) -> str:
        return self.name.split("/", 1)[1]

    def can_run(self, graph: Graph | None = None,
                options: dict[str, Any] | None = None) -> bool | str:
        """``True`` if this solver can run here (on ``graph``, with ``options``, if given),
        else why not."""
        for module in self.requires:
            if importlib.util.find_spec(module) is None:
                return _missing(module, self.backend)
        if self.probe is not None:
            given = {k: v for k, v in (options or {}).items() if k in self.probe_options}
            ok = self.probe(**given)
            if ok is not True:
                return ok
        if graph is not None and self.limit is not None:
            return self.limit(graph)
        return True

    def load(self) -> Callable[..., Any]:
        """Import and return the solve function."""
        module, function = self.entry.split(":")
        return getattr(importlib.import_module(module), function)


def _missing(module: str, backend: str) -> str:
    """Why a solver needing ``module`` cannot run: the package's own name and its pip extra."""
    from parmst._optional import OPTIONAL

    dep = next((d for d in OPTIONAL if d.module == module), None)
    if dep is None:
        return f"{module} is not installed (pip install 'parmst[{backend}]')"
    return f"{dep.distribution} is not installed ({dep.hint})"


_REGISTRY: dict[str, Solver] = {}
_LOADED = False


def register(solver: Solver) -> Solver:
    """Add a solver to the registry (called from backend packages' ``__init__``)."""
    if solver.name in _REGISTRY and _REGISTRY[solver.name] != solver:
        raise ValueError(f"solver {solver.name!r} registered twice")
    if solver.backend not in BACKENDS:
        raise ValueError(f"solver {solver.name!r}: backend must be one of {BACKENDS}")
    _REGISTRY[solver.name] = solver
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


def solvers() -> dict[str, Solver]:
    """Every registered solver, by name, whether or not it can run here."""
    _load_backends()
    return dict(sorted(_REGISTRY.items()))


def get(name: str) -> Solver:
    """The solver registered under ``name``; ValueError listing valid names otherwise."""
    table = solvers()
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
AUTO_RULES: list[tuple[str, Callable[[Graph, int], bool], str]] = [
    ("prim-dense/serial",
     lambda g, cores: g.num_vertices >= 2 and 2 * g.num_edges >= 0.5 * g.num_vertices**2
     and g.num_vertices <= 20_000,
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


def select(graph: Graph) -> Solver:
    """The solver ``solver="auto"`` picks for ``graph`` on this machine."""
    return explain(graph)[0]


def explain(graph: Graph) -> tuple[Solver, str]:
    """The solver "auto" picks for ``graph`` and the rule that picked it."""
    table = solvers()
    cores = cpu_count()
    for name, condition, why in AUTO_RULES:
        solver = table.get(name)
        if solver is None or not solver.exact or solver.can_run(graph) is not True:
            continue
        if condition(graph, cores):
            return solver, why
    raise SolverUnavailable("no registered solver can run on this graph")
