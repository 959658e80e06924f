"""``parmst.scipy.minimum_spanning_tree`` against SciPy: its own tests, then side by side."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph
from scipy.sparse.csgraph import minimum_spanning_tree as scipy_mst

from parmst.scipy import minimum_spanning_tree

HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix inputs


def test_scipy_spanning_tree_suite_passes_with_parmst(backend_env, tmp_path):
    tests = Path(scipy.sparse.csgraph.__file__).parent / "tests" / "test_spanning_tree.py"
    env = {**backend_env, "PYTHONPATH": f"{HERE}{os.pathsep}{backend_env['PYTHONPATH']}"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "scipy_dropin_plugin", "--rootdir", str(tests.parent), str(tests)],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout


def _same(ours, theirs):
    assert type(ours) is type(theirs)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours.indptr, theirs.indptr)
    np.testing.assert_array_equal(ours.indices, theirs.indices)
    np.testing.assert_array_equal(ours.data, theirs.data)


def _inputs(seed: int):
    rng = np.random.default_rng(seed)
    n = 7
    dense = rng.choice([0.0, 0.0, 1.0, 2.0, -1.0, 0.5, np.inf, np.nan, -0.0], size=(n, n))
    symmetric = np.triu(dense) + np.triu(dense, 1).T
    r, c = rng.integers(0, n, 30), rng.integers(0, n, 30)
    stored = sp.coo_array((rng.choice([0.0, 1.0, 2.0, np.nan], 30), (r, c)), shape=(n, n))
    unsorted = stored.tocsr()
    unsorted.has_sorted_indices = False
    return [dense, symmetric, np.asmatrix(symmetric), sp.csr_array(symmetric),
            sp.csr_matrix(dense), sp.csc_array(symmetric), sp.coo_array(dense), stored,
            unsorted, np.ma.masked_array(dense, mask=rng.random((n, n)) < 0.3),
            sp.csr_array(np.array([[0.0, 0.0], [0.0, 0.0]]))]


@pytest.fixture(params=["numpy", "compiled"])
def route(request, monkeypatch):
    """Small matrices are converted by NumPy while no compiled kernel is loaded, by the
    compiled kernels otherwise: both must give SciPy's answer."""
    import parmst.scipy

    monkeypatch.setattr(parmst.scipy, "_numpy_route", lambda data: request.param == "numpy")
    return request.param


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("overwrite", [False, True])
def test_same_result_and_same_side_effects_as_scipy(seed, overwrite, route):
    for theirs_in, ours_in in zip(_inputs(seed), _inputs(seed)):
        _same(minimum_spanning_tree(ours_in, overwrite=overwrite),
              scipy_mst(theirs_in, overwrite=overwrite))
        if sp.issparse(theirs_in):  # what overwrite=True leaves in the input, too
            np.testing.assert_array_equal(ours_in.toarray(), theirs_in.toarray())


def test_stored_zero_joins_components_but_is_left_out():
    graph = sp.csr_array((np.array([0.0, 5.0, 5.0]), (np.array([0, 0, 1]), np.array([1, 2, 2]))),
                         shape=(3, 3))
    tree = minimum_spanning_tree(graph)
    assert tree.nnz == 1 and tree[0, 2] == 5.0


@pytest.mark.parametrize("bad", [np.zeros((2, 3)), sp.csr_array(np.zeros((2, 3))),
                                 np.zeros((2, 2, 2)), "abc"])
def test_same_errors_as_scipy(bad):
    with pytest.raises(Exception) as theirs:
        scipy_mst(bad)
    with pytest.raises(type(theirs.value), match=re.escape(str(theirs.value))):
        minimum_spanning_tree(bad)


def test_every_solver_gives_scipys_tree():
    rng = np.random.default_rng(0)
    a = sp.random_array((40, 40), density=0.2, rng=rng, format="csr")
    a = (a + a.T).tocsr()
    expected = scipy_mst(a)
    for solver in ("kruskal/serial", "prim/serial", "boruvka/serial", "ecl/cpu"):
        _same(minimum_spanning_tree(a, solver=solver), expected)


@pytest.mark.parametrize("seed", range(12))
def test_mirror_entries_and_ties_without_nan(seed, route):
    """Canonical NaN-free input takes the mirror-pruning path: ties between an entry and its
    mirror, one-sided entries, stored zeros and diagonal entries, symmetric or not."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 30))
    weights = rng.choice([0.0, 1.0, 2.0, 3.0, -1.0], size=(n, n))
    present = rng.random((n, n)) < 0.3
    if seed % 2:
        weights, present = np.triu(weights) + np.triu(weights, 1).T, present | present.T
    r, c = np.nonzero(present)
    matrix = sp.csr_array((weights[r, c], (r, c)), shape=(n, n))
    assert matrix.has_canonical_format and not np.isnan(matrix.data).any()
    before = matrix.copy()
    _same(minimum_spanning_tree(matrix), scipy_mst(matrix.copy()))
    np.testing.assert_array_equal(matrix.data, before.data)  # overwrite=False writes nothing
