"""Planted solvers for the harness tests: registered for one test, then removed; every bench
test runs in its own empty folder, where a run without ``--out`` writes its report."""

import numpy as np
import pytest

import parmst
from parmst import registry
from parmst.registry import Solver
from parmst.solvers.serial.kruskal import solve as kruskal_solve


@pytest.fixture(autouse=True)
def _in_a_fresh_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def _wrong_solve(graph, stats):
    """Kruskal's forest with its heaviest edge dropped: plausible, and wrong."""
    ids = np.asarray(kruskal_solve(graph, stats))
    return ids[np.argsort(graph.weight[ids], kind="stable")][:-1]


def _failing_solve(graph, stats):
    raise RuntimeError("planted failure")


CALLS = []


def _first_recorder(graph, stats):
    CALLS.append("first")
    return kruskal_solve(graph, stats)


def _second_recorder(graph, stats):
    CALLS.append("second")
    return kruskal_solve(graph, stats)


def _edge_count_recorder(graph, stats):
    CALLS.append(graph.num_edges)
    return kruskal_solve(graph, stats)


def _plant(name, function):
    registry.solvers()  # load the real backends first, so that ours is only added
    registry.register(Solver(name=name, entry=f"{__name__}:{function}",
                             paper="none (test double)", summary="planted by a test"))
    return name


@pytest.fixture
def edge_count_recorder():
    """A correct solver that logs the edge count of every graph it solves in CALLS."""
    CALLS.clear()
    yield _plant("planted-edges/serial", "_edge_count_recorder"), CALLS
    registry._REGISTRY.pop("planted-edges/serial", None)


@pytest.fixture
def wrong_solver():
    yield _plant("planted-wrong/serial", "_wrong_solve")
    registry._REGISTRY.pop("planted-wrong/serial", None)


@pytest.fixture
def failing_solver():
    yield _plant("planted-failing/serial", "_failing_solve")
    registry._REGISTRY.pop("planted-failing/serial", None)


@pytest.fixture
def recorders():
    """Two correct solvers that log their calls in CALLS, in order."""
    CALLS.clear()
    names = [_plant(f"planted-{which}/serial", f"_{which}_recorder")
             for which in ("first", "second")]
    yield names, CALLS
    for name in names:
        registry._REGISTRY.pop(name, None)


@pytest.fixture
def tiny():
    rng = np.random.default_rng(7)
    n, m = 40, 120
    return parmst.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m),
                                   rng.integers(1, 50, m), num_vertices=n)
