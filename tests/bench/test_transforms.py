"""Weight transforms: the ranked twin of a graph has the same forest, in the harness too."""

import numpy as np
import pytest

import parmst
from parmst.bench import run
from parmst.bench.transforms import ranked_weights, transform
from parmst.generators import generate


def test_ranked_weights_keep_the_order_and_the_forest():
    g = generate("grid2d:side=12,weights=float,seed=3")
    twin = ranked_weights(g)
    assert twin.weight.dtype == np.int64
    assert np.array_equal(np.argsort(twin.weight, kind="stable"),
                          np.argsort(g.weight, kind="stable"))
    assert np.array_equal(parmst.minimum_spanning_forest(twin, "kruskal/serial").edge_ids,
                          parmst.minimum_spanning_forest(g, "kruskal/serial").edge_ids)
    assert transform(g, "given") is g
    with pytest.raises(ValueError, match="given, ranked"):
        transform(g, "sorted")


def test_the_harness_runs_each_graph_once_per_weight_transform():
    g = parmst.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [0.5, 0.25, 0.75, 0.5])
    result = run([g], ["kruskal/serial"], peers=["none"], repeat=1, progress=False,
                 weights=["given", "ranked"])
    assert [(info.name, info.weight_dtype) for info in result.graphs] == [
        ("graph0", "float64"), ("graph0~ranked", "int64")]
    assert [r.status for r in result.records] == ["ok", "ok"]
    with pytest.raises(ValueError, match="weights must be among given, ranked"):
        run([g], ["kruskal/serial"], weights=["squared"], progress=False)
