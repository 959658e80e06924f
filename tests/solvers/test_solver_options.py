"""Every solver's registry ``options`` are exactly the keyword options of its solve function
(and of its distributed entry, for the mpi solvers).

The API passes the registry's defaults to the solver (tests override them to
force parallel branches on tiny graphs), so the two lists must not drift.
"""

from __future__ import annotations

import importlib.util
import inspect

import pytest

from parmst import registry

SOLVERS = list(registry.solvers())


@pytest.mark.parametrize("name", SOLVERS)
def test_registry_options_match_the_solve_signature(name):
    solver = registry.get(name)
    missing = [m for m in solver.requires if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{name} needs {', '.join(missing)}, not installed")
    parameters = list(inspect.signature(solver.load()).parameters.values())[2:]  # graph, stats
    defaults = {p.name: p.default for p in parameters}
    assert defaults == solver.options


@pytest.mark.parametrize("name", [n for n, s in registry.solvers().items() if s.distributed_entry])
def test_distributed_entry_takes_the_same_options(name):
    solver = registry.get(name)
    parameters = list(inspect.signature(solver.load(distributed=True)).parameters.values())[1:]
    defaults = {p.name: p.default for p in parameters}  # after the graph
    # gather= belongs to every distributed solve (the driver's, not the solver's options)
    assert defaults.pop("gather") is True
    assert defaults == solver.options
