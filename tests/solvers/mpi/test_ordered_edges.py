"""Edge lists in (key, id) order on a rank's threads: the sort by runs and the merge by
co-ranks against NumPy's lexsort, with many ties and lists shorter than the threads."""

from __future__ import annotations

import numpy as np
import pytest

from parmst import Stats
from parmst._threads import using_threads
from parmst.solvers.mpi.ordered_edges import merge_edges, sort_edges


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("m", [0, 1, 2, 3, 7, 1001, 40_000])
def test_sort_and_merge_give_the_key_and_id_order(threads, m):
    rng = np.random.default_rng(m)
    key = rng.integers(0, 5, m).astype(np.uint32)
    ids = np.sort(rng.permutation(3 * m + 1)[:m]).astype(np.int64)
    src = rng.integers(0, 100, m).astype(np.int32)
    edges = (src, src + 1, key, ids)
    want = [a[np.lexsort((ids, key))].tolist() for a in edges]
    part = rng.integers(0, 2, m).astype(bool)
    with using_threads(threads, Stats()):
        assert [a.tolist() for a in sort_edges(edges)] == want
        a = sort_edges(tuple(x[part] for x in edges))
        b = sort_edges(tuple(x[~part] for x in edges))
        assert [x.tolist() for x in merge_edges(a, b)] == want
        assert [x.tolist() for x in merge_edges(list(b), list(a))] == want


def test_sort_of_wide_keys_breaks_ties_by_id():
    """64-bit keys leave no room to pack a position beside them: a stable sort instead."""
    key = np.array([2**63 + 5, 7, 2**63 + 5, 7, 0], dtype=np.uint64)
    ids = np.array([1, 4, 6, 8, 9])
    got = sort_edges((ids, ids, key, ids))
    assert got[3].tolist() == [9, 4, 8, 1, 6]
