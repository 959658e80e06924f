"""Families drawn by edge-id range: any split concatenates to exactly the serial graph."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from scipy.sparse import coo_array
from scipy.sparse.csgraph import connected_components

from parmst.errors import GraphValueError
from parmst.generators import FAMILIES, generate, parse_spec
from parmst.generators._positional import BLOCK

RANGED = ("grid2d", "road", "seed000-sparse")

# Small specs of every weight kind, with and without ties, and one per family whose
# m passes BLOCK so that ranges cross the blocks of random draws (and road's link blocks).
PAST_BLOCK = ["grid2d:side=190,seed=2", "road:side=250,seed=4",
              "seed000-sparse:n=50000,m=75000,seed=1"]
SPECS = [
    "grid2d:side=20", "grid2d:side=17,weights=float,seed=3", "grid2d:side=12,weights=unique",
    "grid2d:side=20,max_weight=3,seed=1",
    "road:side=30", "road:side=31,weights=float,max_weight=4,seed=2",
    "road:side=25,weights=unique,seed=1", "road:side=30,remove=0.6,weights=float",
    "seed000-sparse:n=2000,m=3000", "seed000-sparse:n=300,m=450,weights=float,seed=5",
    "seed000-sparse:n=500,m=800,weights=int,max_weight=3,seed=2",
    "seed000-sparse:n=10,m=200,seed=3", *PAST_BLOCK,
]


@functools.cache
def whole(spec: str):
    return generate(spec)


def edge_range(spec: str, lo: int, hi: int):
    name, params = parse_spec(spec)
    family = FAMILIES[name]
    return family.edge_range(lo, hi, **family.resolve(params))


def assert_concatenation_is_the_graph(spec: str, bounds) -> None:
    g = whole(spec)
    parts = [edge_range(spec, lo, hi) for lo, hi in itertools.pairwise(bounds)]
    for k, field in enumerate(("src", "dst", "weight")):
        joined = np.concatenate([part[k] for part in parts])
        expected = getattr(g, field)
        assert len(joined) == g.num_edges, (spec, field)
        np.testing.assert_array_equal(joined, expected, err_msg=f"{spec} {field} {bounds}")
    assert all(part[2].dtype == g.weight.dtype for part in parts)


def test_the_ranged_families_offer_edge_ranges():
    assert {name for name, family in FAMILIES.items() if family.edge_range} >= set(RANGED)
    assert {parse_spec(spec)[0] for spec in SPECS} == set(RANGED)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("parts", [1, 2, 3, 7])
def test_even_splits_concatenate_to_the_graph(spec, parts):
    m = whole(spec).num_edges
    assert_concatenation_is_the_graph(spec, np.linspace(0, m, parts + 1).astype(np.int64))


@pytest.mark.parametrize("spec", SPECS)
def test_uneven_splits_with_empty_ranges(spec):
    m = whole(spec).num_edges
    cuts = sorted({0, 1, m // 3, m // 3 + 1, m - 1, m} | {min(b * BLOCK + d, m)
                  for b in (1, 2) for d in (-1, 0, 1)})
    assert_concatenation_is_the_graph(spec, [0, 0, *cuts, m, m])


@pytest.mark.parametrize("spec", PAST_BLOCK)
def test_a_range_inside_the_graph_crosses_a_block(spec):
    g = whole(spec)
    assert g.num_edges > BLOCK + 10
    src, dst, weight = edge_range(spec, BLOCK - 7, BLOCK + 9)
    np.testing.assert_array_equal(src, g.src[BLOCK - 7:BLOCK + 9])
    np.testing.assert_array_equal(dst, g.dst[BLOCK - 7:BLOCK + 9])
    np.testing.assert_array_equal(weight, g.weight[BLOCK - 7:BLOCK + 9])


def test_seed000_sparse_past_a_block_is_connected():
    g = whole(PAST_BLOCK[-1])
    adjacency = coo_array((np.ones(g.num_edges), (g.src, g.dst)), shape=(50_000,) * 2)
    assert connected_components(adjacency, directed=False)[0] == 1


@pytest.mark.parametrize("name", RANGED)
@pytest.mark.parametrize("lo, hi", [(5, 4), (-1, 3), (0, 10**9), (0.5, 3), ("0", 3)])
def test_a_bad_range_is_one_clear_error(name, lo, hi):
    spec = next(s for s in SPECS if s.startswith(name))
    with pytest.raises(GraphValueError, match="edge range"):
        edge_range(spec, lo, hi)


def test_bad_parameters_fail_as_in_the_serial_function():
    with pytest.raises(GraphValueError, match="m >= 9"):
        edge_range("seed000-sparse:n=10,m=5", 0, 1)
    with pytest.raises(GraphValueError, match="remove"):
        edge_range("road:side=4,remove=2", 0, 1)
