import parmst
from parmst import registry


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


def test_auto_prefers_dense_prim_on_dense_graphs():
    import numpy as np

    n = 50
    i, j = np.triu_indices(n, 1)
    dense = parmst.Graph.from_edges(i, j, np.arange(len(i)))
    assert registry.select(dense).name.startswith("prim-dense/")
    sparse = parmst.Graph.from_edges(np.arange(99), np.arange(1, 100), np.ones(99))
    solver, why = registry.explain(sparse)
    assert solver.name != "prim-dense/serial" and why


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
