"""Local forests of a vertex partition, one Prim instance per part."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst.graph import Graph
from parmst.kernels.prim_instances import local_forests, prim_instance_forest


@pytest.fixture(scope="module")
def road() -> Graph:
    return parmst.generate("road:side=60,seed=2")


def test_local_forests_list_each_part_parents_first(road):
    part = parmst.partition(road, 4)
    forests = local_forests(road, part)
    seen = np.zeros(road.num_vertices, dtype=bool)
    for p in range(4):
        members = forests.order[forests.starts[p]:forests.starts[p + 1]]
        assert (part[members] == p).all()
        for v in members:
            e = forests.via[v]
            if e >= 0:
                u = road.src[e] + road.dst[e] - v
                assert seen[u] and part[u] == p
            seen[v] = True
    assert seen.all()


def test_one_instance_gives_the_forest(road):
    msf = parmst.minimum_spanning_forest(road, solver="kruskal/serial").edge_ids
    np.testing.assert_array_equal(prim_instance_forest(road), msf)
