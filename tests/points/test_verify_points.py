"""parmst.verify_points: passes true trees, catches planted faults, samples above ALL_PAIRS."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import parmst
from parmst.verify import points as verify_module


@pytest.fixture(scope="module")
def case():
    x = np.random.default_rng(11).random((300, 2))
    return x, parmst.euclidean_mst(x, solver="prim-dense/points")


def _swapped_edge(x, tree):
    """The tree with its heaviest edge replaced by a heavier pair that reconnects it."""
    from points.reference import all_pairs, keys

    heaviest = int(np.argmax(tree.weight))
    kept = np.delete(np.arange(len(tree)), heaviest)
    parent = list(range(len(x)))

    def root(v):
        while parent[v] != v:
            v = parent[v]
        return v

    for e in kept:
        parent[root(int(tree.src[e]))] = root(int(tree.dst[e]))
    i, j = all_pairs(len(x))
    key = keys(x)
    for e in np.argsort(-key):  # the heaviest reconnecting pair
        if root(int(i[e])) != root(int(j[e])):
            break
    return parmst.pointset.forest_of_pairs(np.append(tree.src[kept], i[e]),
                                           np.append(tree.dst[kept], j[e]),
                                           np.append(tree.weight[kept] ** 2, key[e]), len(x))


def test_a_true_tree_passes(case) -> None:
    x, tree = case
    result = parmst.verify_points(x, tree)
    assert result and "minimal" in result.checks_run
    tree5 = parmst.euclidean_mst(x, min_samples=5)
    assert parmst.verify_points(x, tree5, min_samples=5)
    assert not parmst.verify_points(x, tree5)  # checked under the wrong distance


def test_planted_faults_are_caught(case) -> None:
    x, tree = case
    heavier = _swapped_edge(x, tree)
    assert parmst.verify_points(x, heavier).failed_checks == ["minimal"]
    wrong_weight = dataclasses.replace(tree, weight=tree.weight * (1 + 1e-15))
    assert "fields" in parmst.verify_points(x, wrong_weight).failed_checks
    short = parmst.pointset.forest_of_pairs(tree.src[1:], tree.dst[1:], tree.weight[1:] ** 2,
                                            len(x))
    assert parmst.verify_points(x, short).failed_checks == ["spanning"]
    repeated = dataclasses.replace(tree, edge_ids=np.append(tree.edge_ids[1:],
                                                            tree.edge_ids[1]))
    assert "ids" in parmst.verify_points(x, repeated).failed_checks
    out_of_range = dataclasses.replace(tree, edge_ids=tree.edge_ids + 10**9)
    assert parmst.verify_points(x, out_of_range).failed_checks[0] == "ids"


def test_above_all_pairs_a_sample_is_checked(monkeypatch, case) -> None:
    x, tree = case
    monkeypatch.setattr(verify_module, "ALL_PAIRS", 100)
    monkeypatch.setattr(verify_module, "SAMPLE", 300)  # every point: the sample is the whole
    assert parmst.verify_points(x, tree)
    assert not parmst.verify_points(x, _swapped_edge(x, tree))
    tree5 = parmst.euclidean_mst(x, min_samples=5)
    assert parmst.verify_points(x, tree5, min_samples=5)  # core distances by the k-d tree
