import math

import numpy as np
import pytest

import parmst
from parmst.forest import exact_sum


def test_exact_integer_total_beyond_int64():
    assert exact_sum(np.array([2**62] * 4, dtype=np.int64)) == 2**64


def test_compensated_float_total():
    values = np.array([1e16, 1.0, -1e16, 1.0])
    assert exact_sum(values) == math.fsum(values.tolist()) == 2.0


def test_forest_fields_and_converters(tmp_path):
    g = parmst.Graph.from_edges([0, 1, 0, 3], [1, 2, 2, 4], [1, 2, 3, 4], num_vertices=6)
    f = parmst.minimum_spanning_forest(g, solver="kruskal/serial")
    assert f.edge_ids.tolist() == [0, 1, 3]
    assert f.num_components == 3 and len(f) == 3 and f.total_weight == 7
    assert f.component_labels().tolist() == [0, 0, 0, 3, 3, 5]
    _src, _dst, weight = f.to_numpy()
    assert weight.tolist() == [1, 2, 4]
    if pytest.importorskip("networkx"):
        assert f.to_networkx().number_of_edges() == 3
    assert "3 forest edges" in f.summary()


def test_total_with_both_infinities_is_nan_not_an_error():
    assert math.isnan(exact_sum(np.array([-np.inf, 1.0, np.inf])))
    assert exact_sum(np.array([1.0, np.inf])) == np.inf
