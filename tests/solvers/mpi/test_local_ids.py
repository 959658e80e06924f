import numba
import numpy as np
import pytest

from parmst.solvers.mpi.local_ids import MAX_PART_BITS, PART_LABELS, local_ids, part_bits_for


@pytest.mark.parametrize("threads", [1, numba.config.NUMBA_NUM_THREADS])
def test_local_ids_name_each_label_once_owned_ones_first(threads):
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 5_000, size=70_000)
    labels[::7] = -1  # finished components: no id
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        group, comp = local_ids(labels, 1_000, 500)
    finally:
        numba.set_num_threads(previous)
    np.testing.assert_array_equal(group[labels < 0], -1)
    np.testing.assert_array_equal(comp[group[labels >= 0]], labels[labels >= 0])
    outside = labels[(labels >= 0) & ((labels < 1_000) | (labels >= 1_500))]
    assert len(np.unique(comp)) == len(comp) == len(np.unique(outside)) + 500
    np.testing.assert_array_equal(comp[:500], np.arange(1_000, 1_500))
    _, first_seen = np.unique(outside, return_index=True)
    in_order = outside[np.sort(first_seen)]
    # Parts in turn, each part's labels in the order first seen: the ids follow the first
    # sightings within every part (one part only for few labels on one thread).
    rank = {int(label): k for k, label in enumerate(in_order)}
    seen = np.array([rank[int(label)] for label in comp[500:]])
    breaks = np.count_nonzero(np.diff(seen) < 0)
    assert breaks < (1 << part_bits_for(len(labels), threads))


def test_local_ids_one_part_keeps_the_order_first_seen_and_skip_finished_labels():
    labels = np.array([9, -1, 4, 9, 20, 5, -1, 4])
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        group, comp = local_ids(labels, 5, 1)
    finally:
        numba.set_num_threads(previous)
    assert comp.tolist() == [5, 9, 4, 20]
    assert group.tolist() == [1, -1, 2, 1, 3, 0, -1, 2]


def test_local_ids_parts_fit_the_cache_on_any_thread_count():
    assert part_bits_for(PART_LABELS, 1) == 0  # one part, in the order first seen
    assert part_bits_for(PART_LABELS + 1, 1) == 1
    assert part_bits_for(1 << 40, 1) == MAX_PART_BITS
    assert part_bits_for(10, 4) == 4  # 16 parts, PARTS_PER_THREAD per thread at least


def test_local_ids_in_place_write_over_the_labels():
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 5_000, size=70_000)
    expect, expect_comp = local_ids(labels, 1_000, 500)
    group, comp = local_ids(labels, 1_000, 500, in_place=True)
    assert group is labels
    np.testing.assert_array_equal(group, expect)
    np.testing.assert_array_equal(comp, expect_comp)


@pytest.mark.parametrize("threads", [1, numba.config.NUMBA_NUM_THREADS])
def test_local_ids_dense_table_numbers_in_label_order_like_the_hash_parts(threads):
    from parmst._blocks import BLOCK

    rng = np.random.default_rng(6)
    labels = rng.integers(0, 3 * BLOCK, size=2 * BLOCK + 5)  # several blocks of each pass
    labels[::5] = -1
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        hashed, hashed_comp = local_ids(labels, 100, 50)
        group, comp = local_ids(labels.copy(), 100, 50, in_place=True, bound=3 * BLOCK)
    finally:
        numba.set_num_threads(previous)
    np.testing.assert_array_equal(comp[:50], np.arange(100, 150))
    np.testing.assert_array_equal(comp[50:], np.sort(hashed_comp[50:]))  # label order
    np.testing.assert_array_equal(comp[group[labels >= 0]], labels[labels >= 0])
    np.testing.assert_array_equal(group < 0, hashed < 0)


def test_local_ids_dense_table_only_where_the_bound_is_near_the_count():
    from parmst.solvers.mpi.local_ids import DENSE_LABELS

    labels = np.array([5, 3, 5])
    # Up to DENSE_LABELS slots per label: the dense table, ids in label order; above, the
    # hash parts, ids in the order first seen.
    assert local_ids(labels, 0, 1, bound=DENSE_LABELS * 3)[1].tolist() == [0, 3, 5]
    assert local_ids(labels, 0, 1, bound=DENSE_LABELS * 3 + 1)[1].tolist() == [0, 5, 3]
