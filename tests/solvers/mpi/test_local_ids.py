import numba
import numpy as np
import pytest

from parmst.solvers.mpi.local_ids import local_ids


@pytest.mark.parametrize("threads", [1, numba.config.NUMBA_NUM_THREADS])
def test_local_ids_name_each_label_once_owned_ones_first(threads):
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 5_000, size=70_000)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        group, comp = local_ids(labels, 1_000, 500)
    finally:
        numba.set_num_threads(previous)
    np.testing.assert_array_equal(comp[group], labels)
    outside = labels[(labels < 1_000) | (labels >= 1_500)]
    assert len(np.unique(comp)) == len(comp) == len(np.unique(outside)) + 500
    np.testing.assert_array_equal(comp[:500], np.arange(1_000, 1_500))
    _, first_seen = np.unique(outside, return_index=True)
    in_order = outside[np.sort(first_seen)]
    if threads == 1:
        np.testing.assert_array_equal(comp[500:], in_order)
    else:
        # Parts in turn, each part's labels in the order first seen: the ids follow the
        # first sightings within every part.
        rank = {int(label): k for k, label in enumerate(in_order)}
        seen = np.array([rank[int(label)] for label in comp[500:]])
        breaks = np.count_nonzero(np.diff(seen) < 0)
        assert breaks < 8 * threads


def test_local_ids_in_place_write_over_the_labels():
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 5_000, size=70_000)
    expect, expect_comp = local_ids(labels, 1_000, 500)
    group, comp = local_ids(labels, 1_000, 500, in_place=True)
    assert group is labels
    np.testing.assert_array_equal(group, expect)
    np.testing.assert_array_equal(comp, expect_comp)
