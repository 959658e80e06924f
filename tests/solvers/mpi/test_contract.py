"""filter-boruvka's safe contraction on one rank, without mpiexec, against a plain-Python
statement of what it must do."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.solvers.mpi.contract import _contract_forest, _key_order, _lightest_cut


def _random_forest_and_cuts(rng: np.random.Generator, n: int, cuts: int):
    """A random forest on ``0..n-1`` and ``cuts`` cut edges, with distinct held positions
    and 3-bit keys (many ties, broken by position)."""
    fa, fb = [], []
    for v in range(1, n):
        if rng.random() < 0.8:
            fa.append(v)
            fb.append(int(rng.integers(0, v)))
    positions = rng.permutation(len(fa) + cuts)
    keys = rng.integers(0, 8, size=len(positions)).astype(np.uint64)
    return (np.array(fa, dtype=np.int64), np.array(fb, dtype=np.int64),
            positions[:len(fa)].astype(np.int64), positions[len(fa):].astype(np.int64),
            rng.integers(0, n, size=cuts).astype(np.int64), keys)


def _scan_all_in_key_order(n, fa, fb, forest, cut, at, keys):
    """The rule stated plainly: visit forest and cut edges in (key, position) order; a cut
    edge marks its component; a forest edge joins two components unless both are marked."""
    comp = list(range(n))
    marked = [False] * n
    contracted = np.zeros(len(forest), dtype=bool)
    events = [(int(keys[e]), int(e), "forest", k) for k, e in enumerate(forest)]
    events += [(int(keys[e]), int(e), "cut", k) for k, e in enumerate(cut)]
    for _, _, kind, k in sorted(events):
        if kind == "cut":
            marked[comp[at[k]]] = True
            continue
        a, b = comp[fa[k]], comp[fb[k]]
        if marked[a] and marked[b]:
            continue
        comp = [a if c == b else c for c in comp]
        marked[a] = marked[a] or marked[b]
        contracted[k] = True
    return contracted, [marked[comp[v]] for v in range(n)]


@pytest.mark.parametrize("seed", range(8))
def test_mpi_safe_contraction_sorting_only_the_forest_matches_the_full_scan(seed):
    from parmst.kernels.unionfind import find

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    fa, fb, forest, cut, at, keys = _random_forest_and_cuts(rng, n, int(rng.integers(0, 30)))
    parent = np.full(n, -1, dtype=np.int64)
    cut_key = np.zeros(n, dtype=np.uint64)
    cut_at = np.full(n, -1, dtype=np.int64)
    in_order = np.zeros(len(forest), dtype=np.bool_)
    _lightest_cut(at, cut, keys, cut_key, cut_at)
    order = _key_order(keys, 3, forest)
    _contract_forest(fa[order], fb[order], keys[forest[order]], forest[order], parent,
                     cut_key, cut_at, in_order)
    contracted = np.empty_like(in_order)
    contracted[order] = in_order
    want_contracted, want_marked = _scan_all_in_key_order(n, fa, fb, forest, cut, at, keys)
    assert contracted.tolist() == want_contracted.tolist()
    assert [bool(cut_at[find(parent, v)] >= 0) for v in range(n)] == want_marked
