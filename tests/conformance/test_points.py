"""Every registered point solver that can run here against the brute-force reference.

Parametrized over ``parmst.registry.solvers("points")``: each tree must hold exactly the
reference's pairs (Kruskal over all pairs under the ``(key, i, j)`` order), plain and
mutual-reachability, and pass :func:`parmst.verify_points`.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import parmst
from parmst import registry
from points.reference import POINT_CASES, brute_tree

POINT_SOLVERS = list(registry.solvers("points"))
MUTUAL_CASES = ["uniform-2d", "uniform-5d", "duplicates-3d", "lattice-2d", "three-equal",
                "identical-4d-float32"]


@functools.cache
def points(name: str) -> np.ndarray:
    return POINT_CASES[name]()


@functools.cache
def reference(name: str, min_samples: int | None) -> np.ndarray:
    return brute_tree(points(name), min_samples)


def skip_unless_runs(solver: str) -> None:
    reason = registry.get(solver).can_run()
    if reason is not True:
        pytest.skip(f"{solver} cannot run here: {reason}")


def check(name: str, solver: str, min_samples: int | None = None, **options) -> None:
    x = points(name)
    fits = registry.get(solver).can_run(x)
    if fits is not True:  # a size limit: the GPU solver's under the CUDA simulator
        pytest.skip(f"{solver} cannot run here: {fits}")
    tree = parmst.euclidean_mst(x, solver=solver, min_samples=min_samples, **options)
    expected = reference(name, min_samples)
    assert tree.solver == solver
    np.testing.assert_array_equal(tree.edge_ids, expected)
    assert tree.num_vertices == len(x) and tree.num_components == 1
    assert (tree.src < tree.dst).all()
    result = parmst.verify_points(x, tree, min_samples=min_samples)
    assert result, str(result)


@pytest.mark.parametrize("solver", POINT_SOLVERS)
@pytest.mark.parametrize("name", list(POINT_CASES))
def test_euclidean_tree_equals_reference(solver: str, name: str) -> None:
    skip_unless_runs(solver)
    check(name, solver)


@pytest.mark.parametrize("solver", POINT_SOLVERS)
@pytest.mark.parametrize("min_samples", [1, 2, 5, 12])
@pytest.mark.parametrize("name", MUTUAL_CASES)
def test_mutual_reachability_tree_equals_reference(solver: str, name: str,
                                                   min_samples: int) -> None:
    skip_unless_runs(solver)
    check(name, solver, min(min_samples, len(points(name))))


@pytest.mark.parametrize("solver", [s for s in POINT_SOLVERS if "leaf_size" in
                                    registry.get(s).options])
@pytest.mark.parametrize("leaf_size", [1, 3, 1000])
def test_leaf_sizes_do_not_change_the_tree(solver: str, leaf_size: int) -> None:
    skip_unless_runs(solver)
    check("lattice-3d", solver, leaf_size=leaf_size)
    check("duplicates-3d", solver, 3, leaf_size=leaf_size)


@pytest.mark.parametrize("solver", [s for s in POINT_SOLVERS if "threads" in
                                    registry.get(s).options])
def test_thread_counts_give_the_same_tree(solver: str) -> None:
    skip_unless_runs(solver)
    for threads in (1, 2):
        check("uniform-3d", solver, threads=threads)
        check("lattice-2d", solver, 4, threads=threads)
