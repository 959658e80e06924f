"""Building blocks: pair indexing, simple-edge clean-up, radix sort, trees, weights."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from parmst.generators._sampling import (
    _sorted_keys,
    connected_distinct_pairs,
    pair_from_index,
    pair_index,
    random_tree,
    simple_edges,
)
from parmst.generators._weights import length_weights, random_weights


def test_pair_index_round_trips_across_row_boundaries():
    k = np.concatenate([np.arange(100_000), 31_996_000 - np.arange(1, 100_000),
                        2**40 + np.arange(-5_000, 5_000)])
    hi, lo = pair_from_index(k)
    assert np.all(hi > lo) and np.all(lo >= 0)
    np.testing.assert_array_equal(pair_index(hi, lo), k)
    np.testing.assert_array_equal(pair_index(lo, hi), k)


def test_pair_index_lists_pairs_in_row_order():
    hi, lo = pair_from_index(np.arange(6))
    assert list(zip(hi.tolist(), lo.tolist())) == [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]


@given(arrays(np.int64, st.integers(0, 200), elements=st.integers(0, 2**45 - 1)))
def test_radix_sort_matches_numpy(keys):
    np.testing.assert_array_equal(_sorted_keys(keys.copy(), 45), np.sort(keys))


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.just(n),
    arrays(np.int64, st.integers(0, 80), elements=st.integers(0, n - 1)),
    arrays(np.int64, 80, elements=st.integers(0, n - 1)))))
def test_simple_edges_matches_a_set_of_pairs(case):
    n, src, dst = case
    dst = dst[:len(src)]
    lo, hi = simple_edges(src, dst, n)
    expected = sorted({(min(u, v), max(u, v)) for u, v in zip(src.tolist(), dst.tolist())
                       if u != v})
    assert list(zip(lo.tolist(), hi.tolist())) == expected


def test_simple_edges_leaves_its_input_alone():
    src, dst = np.array([3, 1, 1]), np.array([1, 3, 1])
    simple_edges(src, dst, 4)
    np.testing.assert_array_equal(src, [3, 1, 1])
    np.testing.assert_array_equal(dst, [1, 3, 1])


@pytest.mark.parametrize("n", [0, 1, 2, 50])
def test_random_tree_spans_all_vertices(n):
    child, parent = random_tree(np.random.default_rng(0), n)
    assert len(child) == max(n - 1, 0)
    # Every vertex but the root is a child exactly once, and parents come earlier.
    assert len(np.unique(child)) == len(child)
    labels = np.arange(n)
    for c, p in zip(child.tolist(), parent.tolist()):
        labels[labels == labels[c]] = labels[p]
    assert len(np.unique(labels)) == min(n, 1)


@given(st.integers(2, 25).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(n - 1, n * (n - 1) // 2), st.integers(0, 9))))
def test_connected_distinct_pairs(case):
    n, m, seed = case
    hi, lo = connected_distinct_pairs(np.random.default_rng(seed), n, m)
    keys = pair_index(hi, lo)
    assert len(keys) == m and np.all(np.diff(keys) > 0)
    labels = np.arange(n)
    for u, v in zip(hi.tolist(), lo.tolist()):
        labels[labels == labels[u]] = labels[v]
    assert len(np.unique(labels)) == 1


def test_random_weight_kinds():
    rng = np.random.default_rng(0)
    assert random_weights(rng, 5, "unique", None).tolist() != [1, 2, 3, 4, 5]
    assert sorted(random_weights(rng, 5, "unique", None).tolist()) == [1, 2, 3, 4, 5]
    ints = random_weights(rng, 1000, "int", 2)
    assert ints.dtype == np.int32 and set(ints.tolist()) == {1, 2}
    floats = random_weights(rng, 1000, "float", 4)
    assert set(floats.tolist()) == {0.0, 0.25, 0.5, 0.75}


def test_length_weights_preserve_length_order():
    lengths = np.array([0.5, 2.0, 1.0, 1.0, 0.25])
    assert length_weights(lengths, 2.0, "int", 8).tolist() == [2, 8, 4, 4, 1]
    assert length_weights(lengths, 2.0, "float", None).tolist() == [0.25, 1.0, 0.5, 0.5, 0.125]
    assert length_weights(lengths, 2.0, "float", 4).tolist() == [0.25, 1.0, 0.5, 0.5, 0.25]


_SPECS_FOR_PURE_PYTHON = ["rmat:scale=5", "kronecker:scale=4", "random-degree:n=40",
                          "delaunay:n=30", "road:side=5", "seed000-dense:n=12,m=40",
                          "seed000-sparse:n=20,m=30", "grid2d:side=5,weights=unique"]


def test_kernels_give_the_same_graphs_without_jit():
    script = ("import sys, numpy as np\n"
              "from parmst.generators import generate\n"
              "for spec in sys.argv[1:]:\n"
              "    g = generate(spec)\n"
              "    print(spec, g.num_edges, int(np.sum(g.src * 7 + g.dst * 3 + g.weight)))\n")
    outputs = []
    for disable in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": disable}
        done = subprocess.run([sys.executable, "-c", script, *_SPECS_FOR_PURE_PYTHON],
                              env=env, capture_output=True, text=True, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert len(outputs[0].splitlines()) == len(_SPECS_FOR_PURE_PYTHON)
