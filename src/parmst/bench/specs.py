"""Which solver variants a run times: solver specs, patterns and sweeps.

A spec is a solver name or shell-style pattern with options in brackets
(``"ecl/gpu[launch=persistent,filter=false]"``, ``"*/cpu"``); a sweep is a
solver option run once per value (``threads=1,2,4``) for every solver that
takes it; the ``ranks`` sweep runs each mpi solver under ``mpiexec`` once per
rank count (:mod:`parmst.bench.mpi`).
"""

from __future__ import annotations

import fnmatch
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parmst import registry
from parmst.errors import UnknownOptionError, UnknownSolverError
from parmst.keyvalue import parse_pairs

__all__ = ["ALL", "Variant", "choose_solvers", "parse_solver_spec", "split_specs", "variants"]

ALL = "all"
"""The solver spec that names every solver that can run here, in place of a suite's own."""


@dataclass(frozen=True)
class Variant:
    """A solver with fixed options (``variant`` is their text) and this run's sweep values."""

    solver: registry.Solver
    options: dict[str, Any]
    variant: str
    explicit: bool
    ranks: int | None = None  # an mpi solver under mpiexec with this many ranks

    @property
    def threads(self) -> int | None:
        return self.options.get("threads")


def split_specs(values: Iterable[str]) -> list[str]:
    """Split comma-separated solver specs, keeping commas inside ``[...]`` options.

    Examples
    --------
    >>> split_specs(["kruskal/serial,ecl/gpu[init=hybrid,filter=false]", "*/cpu"])
    ['kruskal/serial', 'ecl/gpu[init=hybrid,filter=false]', '*/cpu']
    """
    specs = []
    for value in values:
        depth, start = 0, 0
        for i, char in enumerate(value + ","):
            depth += {"[": 1, "]": -1}.get(char, 0)
            if char == "," and depth == 0:
                if value[start:i].strip():
                    specs.append(value[start:i].strip())
                start = i + 1
    return specs


def parse_solver_spec(spec: str) -> tuple[str, dict[str, Any], str]:
    """``"ecl/gpu[launch=persistent,filter=false]"`` -> pattern, options, options' text.

    Values read as booleans (``true``/``false``), ``none``, integers or
    floats where they can, otherwise as strings.

    Examples
    --------
    >>> parse_solver_spec("ecl/gpu[launch=per-round,filter=false]")
    ('ecl/gpu', {'launch': 'per-round', 'filter': False}, 'launch=per-round,filter=false')
    >>> parse_solver_spec("*/cpu")
    ('*/cpu', {}, '')
    """
    pattern, bracket, rest = spec.partition("[")
    if not bracket:
        return spec, {}, ""
    if not rest.endswith("]"):
        raise ValueError(f"solver spec {spec!r}: options go in brackets, e.g. "
                         "'ecl/gpu[launch=persistent,filter=false]'")
    text = rest[:-1]
    options = parse_pairs(text.split(","), f"solver spec {spec!r}")
    return pattern.strip(), options, text


def choose_solvers(patterns: Sequence[str] | None = None
                   ) -> tuple[list[registry.Solver], dict[str, str]]:
    """The solvers to time, and why each registered one left out cannot run here.

    ``patterns`` are solver names or shell-style patterns (``"*/cpu"``);
    ``None`` or ``["all"]`` means every solver that can run on this machine. Graph and
    point solvers alike: the harness gives each the inputs of its kind.

    Examples
    --------
    >>> chosen, _ = choose_solvers(["kruskal/*"])
    >>> [s.name for s in chosen]
    ['kruskal/serial']
    """
    table = {**registry.solvers(), **registry.solvers("points")}
    unavailable = {}
    if patterns is None or list(patterns) == [ALL]:
        chosen = []
        for solver in table.values():
            ok = solver.can_run()
            if ok is True:
                chosen.append(solver)
            else:
                unavailable[solver.name] = ok
        return chosen, unavailable
    names: list[str] = []
    for pattern in patterns:
        matches = [name for name in table if fnmatch.fnmatchcase(name, pattern)]
        if not matches:
            raise UnknownSolverError(f"no registered solver matches {pattern!r}; "
                                     f"registered solvers: {', '.join(table)}")
        names.extend(m for m in matches if m not in names)
    return [table[name] for name in names], unavailable


def variants(specs: Sequence[str] | None, sweeps: Mapping[str, Sequence[Any]],
              explicit: bool, ranks: Sequence[int] = ()
              ) -> tuple[list[Variant], list[registry.Solver], dict[str, str]]:
    """Solver variants to time: each spec's solvers with its options, times each sweep value.

    A sweep (``{"threads": [1, 2, 4]}``) applies to the solvers that take
    that option and whose spec does not fix it; the ``ranks`` sweep applies
    to the mpi solvers, instead of the sweeps (their threads per rank follow
    from the rank count, :mod:`parmst.bench.mpi`). ``specs`` of ``["all"]`` (or None)
    are every solver that can run here, none of them counted as named.
    """
    if specs is not None and list(specs) == [ALL]:
        specs, explicit = None, False  # every runnable solver, as when no spec is given
    parsed = [parse_solver_spec(spec) for spec in specs] if specs is not None else None
    solvers, unavailable = choose_solvers(None if parsed is None else [p for p, _, _ in parsed])
    out = []
    for pattern, options, text in parsed if parsed is not None else [("*", {}, "")]:
        matches = [s for s in solvers if fnmatch.fnmatchcase(s.name, pattern)]
        for solver in matches:
            unknown = sorted(set(options) - set(solver.options))
            if unknown:
                raise UnknownOptionError(
                    f"solver {solver.name} has no option {', '.join(map(repr, unknown))}; "
                    f"its options: {', '.join(solver.options) or 'none'}")
            if ranks and solver.backend == "mpi":
                out.extend(Variant(solver, options, text, explicit, r) for r in ranks)
                continue
            swept = [(name, values) for name, values in sweeps.items()
                     if values and name in solver.options and name not in options]
            for combination in itertools.product(*(values for _, values in swept)):
                out.append(Variant(solver, {**options, **dict(zip((n for n, _ in swept),
                                                                  combination))},
                                    text, explicit))
    return out, solvers, unavailable
