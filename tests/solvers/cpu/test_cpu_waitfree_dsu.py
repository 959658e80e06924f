"""The wait-free union-find of Shou and He Listing 4 under concurrent joins."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from parmst._labels import smallest_vertex_labels
from parmst.solvers.cpu._waitfree_dsu import PARENT_BITS, find, join, make_sets


@numba.njit(parallel=True, cache=True)
def _join_all(dsu, a, b, compress, merged):
    for i in numba.prange(len(a)):
        merged[i] = join(dsu, a[i], b[i], compress)


@numba.njit(parallel=True, cache=True)
def _roots(dsu, compress, out):
    for v in numba.prange(len(out)):
        out[v] = find(dsu, v, compress)


@pytest.mark.parametrize("compress", [True, False], ids=["path-compression", "no-compression"])
def test_concurrent_joins_give_the_serial_components(compress):
    rng = np.random.default_rng(11)
    n, m = 3000, 2500
    a = rng.integers(0, n, m)
    b = rng.integers(0, n, m)
    dsu = make_sets(n)
    merged = np.zeros(m, dtype=np.bool_)
    _join_all(dsu, a, b, compress, merged)
    roots = np.empty(n, dtype=np.int64)
    _roots(dsu, compress, roots)
    labels = smallest_vertex_labels(a, b, n)
    # Same partition: roots and labels correspond one to one.
    pairs = {(r, lab) for r, lab in zip(roots.tolist(), labels.tolist(), strict=True)}
    assert len(pairs) == len(set(roots.tolist())) == len(set(labels.tolist()))
    # Each successful join merged two sets: n minus the merges is the component count.
    assert n - int(merged.sum()) == len(set(labels.tolist()))


def test_ranks_live_above_the_parent_bits():
    dsu = make_sets(4)
    merged = np.zeros(1, dtype=np.bool_)
    _join_all(dsu, np.array([0]), np.array([1]), True, merged)
    assert merged[0]
    assert int(dsu[1]) >> PARENT_BITS == 1
    assert int(dsu[0]) & ((1 << PARENT_BITS) - 1) == 1


def test_lower_rank_links_under_and_ties_link_the_lower_id_under():
    dsu = make_sets(4)
    merged = np.zeros(2, dtype=np.bool_)
    mask = (1 << PARENT_BITS) - 1
    _join_all(dsu, np.array([3]), np.array([2]), True, merged[:1])  # tie: 2 goes under 3
    assert int(dsu[2]) & mask == 3 and int(dsu[3]) >> PARENT_BITS == 1
    _join_all(dsu, np.array([3]), np.array([1]), True, merged[1:])  # rank 0 under rank 1
    assert int(dsu[1]) & mask == 3 and int(dsu[3]) >> PARENT_BITS == 1
