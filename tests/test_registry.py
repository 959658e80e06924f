import pytest

import parmst
from parmst import SolverUnavailable, UnknownOptionError, registry


def test_names_follow_algorithm_slash_backend():
    for name, solver in registry.solvers().items():
        algorithm, backend = name.split("/")
        assert solver.algorithm == algorithm and backend in registry.BACKENDS
        assert solver.paper and solver.summary


def test_available_solvers_reports_true_or_reason():
    for name, status in parmst.available_solvers().items():
        assert status is True or (isinstance(status, str) and status), name


def test_missing_package_gives_reason():
    fake = registry.Solver(name="x/gpu", entry="nowhere:solve", paper="-", summary="-",
                           requires=("surely_not_a_module_parmst",))
    assert "surely_not_a_module_parmst is not installed" in fake.can_run()
    assert fake.can_run() == fake.can_run()  # the lookup is cached, the reason still given


def test_registry_stays_sorted_after_a_late_registration():
    late = registry.Solver(name="aaa-late/serial", entry="parmst.solvers.serial.kruskal:solve",
                           paper="-", summary="-")
    registry.solvers()  # every backend loaded first
    try:
        registry.register(late)
        table = registry.solvers()
        assert list(table) == sorted(table) and registry.get("aaa-late/serial") is late
        table.clear()  # a copy: the registry is untouched
        assert "kruskal/serial" in registry.solvers()
    finally:
        registry._REGISTRY.pop("aaa-late/serial", None)
    assert "aaa-late/serial" not in registry.solvers()


@pytest.fixture
def compiled_loaded(monkeypatch):
    """A process that has loaded compiled kernels already: "auto" no longer takes the
    NumPy-only route, whatever ran before in this test session."""
    from parmst.solvers import serial

    monkeypatch.setattr(serial, "numba_loaded", lambda: True)


@pytest.fixture
def nothing_loaded(monkeypatch):
    from parmst.solvers import serial
    from parmst.solvers.serial import numpy_boruvka

    monkeypatch.setattr(serial, "numba_loaded", lambda: False)
    monkeypatch.setattr(numpy_boruvka, "_SOLVES", [0])


def test_auto_takes_numpy_boruvka_for_a_small_graph_on_a_process_first_solve(
        nothing_loaded, monkeypatch):
    import numpy as np

    from parmst.solvers import serial
    from parmst.solvers.serial import numpy_boruvka

    small = parmst.Graph.from_edges([0, 1, 2], [1, 2, 0], [3.0, 1.0, 2.0])
    assert registry.select(small).name == "boruvka-numpy/serial"
    forest = parmst.minimum_spanning_forest(small)
    assert forest.solver == "boruvka-numpy/serial" and forest.edge_ids.tolist() == [1, 2]
    assert numpy_boruvka.solves() == 1
    assert registry.select(small).name != "boruvka-numpy/serial"  # a second solve: compiled
    monkeypatch.setattr(numpy_boruvka, "_SOLVES", [0])
    monkeypatch.setattr(serial, "NUMPY_MAX_EDGES", 2)
    assert registry.select(small).name != "boruvka-numpy/serial"  # too large
    monkeypatch.setattr(serial, "NUMPY_MAX_EDGES", 3)
    assert registry.select(small, {"threads": 2}).name != "boruvka-numpy/serial"
    assert registry.select(small).name == "boruvka-numpy/serial"
    assert np.array_equal(forest.edge_ids,
                          parmst.minimum_spanning_forest(small, "kruskal/serial").edge_ids)


def test_auto_prefers_dense_prim_on_dense_graphs(compiled_loaded):
    import numpy as np

    n = 50
    i, j = np.triu_indices(n, 1)
    dense = parmst.Graph.from_edges(i, j, np.arange(len(i)))
    assert registry.select(dense).name.startswith("prim-dense/")
    sparse = parmst.Graph.from_edges(np.arange(99), np.arange(1, 100), np.ones(99))
    solver, why = registry.explain(sparse)
    assert solver.name != "prim-dense/serial" and why


def test_auto_takes_kruskal_on_dense_unweighted_graphs(compiled_loaded):
    import numpy as np

    n = 50
    i, j = np.triu_indices(n, 1)
    unweighted = parmst.Graph.from_edges(i, j, np.full(len(i), 7.0))
    solver, why = registry.explain(unweighted)
    assert solver.name == "kruskal/serial" and "unweighted" in why
    # one differing weight makes it a weighted dense graph again
    weighted = parmst.Graph.from_edges(i, j, np.r_[np.full(len(i) - 1, 7.0), 8.0])
    assert registry.select(weighted).name.startswith("prim-dense/")
    forest = parmst.minimum_spanning_forest(unweighted)
    assert forest.solver == "kruskal/serial" and parmst.verify(unweighted, forest)


def test_can_run_hands_the_probe_only_its_own_options():
    given = []

    def probe(parts=None):
        given.append(parts)
        return True if parts else "needs parts"

    fake = registry.Solver(name="x/gpu", entry="nowhere:solve", paper="-", summary="-",
                           options={"parts": None, "keys": "auto"}, probe=probe,
                           probe_options=("parts",))
    assert fake.can_run() == "needs parts"
    assert fake.can_run(None, {"parts": 2, "keys": "rank"}) is True
    assert given == [None, 2]


def test_check_options_names_the_unknown_and_the_accepted():
    solver = registry.get("filter-kruskal/serial")
    solver.check_options({name: None for name in solver.options})
    with pytest.raises(UnknownOptionError) as raised:
        solver.check_options({"colour": "red", "bogus": 1})
    accepted = ", ".join(sorted(solver.options)) or "none"
    assert str(raised.value) == (f"solver 'filter-kruskal/serial' got unknown option(s) bogus, "
                                 f"colour; it accepts: {accepted}")


def test_run_returns_the_solver_its_edge_ids_and_stats():
    g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 2, 3])
    chosen, edge_ids, stats = registry.run("auto", g)
    assert chosen is registry.select(g)
    assert sorted(edge_ids.tolist()) == [0, 1] and isinstance(stats, parmst.Stats)
    with pytest.raises(UnknownOptionError, match="unknown option"):
        registry.run("kruskal/serial", g, bogus=1)


class _Spread:
    """Stands for a graph spread over MPI ranks: only the attribute the registry reads."""

    is_distributed = True


def test_distributed_graphs_go_to_distributed_entries():
    spread = _Spread()
    assert registry.is_distributed(spread) and not registry.is_distributed(object())
    assert registry.select(spread).name == "filter-boruvka/mpi"
    with pytest.raises(SolverUnavailable, match="'kruskal/serial' solves a whole Graph"):
        registry.resolve("kruskal/serial", spread)
    with pytest.raises(TypeError, match="run_distributed"):
        registry.run("auto", spread)
    for name, solver in registry.solvers().items():
        assert (solver.distributed_entry is not None) == (solver.backend == "mpi"), name
