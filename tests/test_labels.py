"""Component labels by smallest vertex, as Forest.component_labels and the NetworkX backend use them."""

import numpy as np

from parmst._labels import smallest_vertex_labels


def test_each_component_is_named_by_its_smallest_vertex():
    labels = smallest_vertex_labels(np.array([3, 1]), np.array([0, 4]), 6)
    assert labels.tolist() == [0, 1, 2, 0, 1, 5]


def test_no_edges_leave_every_vertex_alone():
    empty = np.zeros(0, dtype=np.int64)
    assert smallest_vertex_labels(empty, empty, 3).tolist() == [0, 1, 2]
