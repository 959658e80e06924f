"""Every family: determinism, counts, structure (loops, repeats, connectivity), dtypes."""

from __future__ import annotations

import functools
import sys

import numpy as np
import pytest
from scipy.sparse import coo_array
from scipy.sparse.csgraph import connected_components

from parmst.generators import (
    DEFAULT_MAX_WEIGHT,
    FAMILIES,
    delaunay,
    dense,
    describe,
    generate,
    grid2d,
    random_degree,
    rmat,
    road,
    seed000_dense,
    seed000_sparse,
)
from parmst.graph import index_dtype_for

# Small but non-trivial instances, fast enough to build many times.
SPECS = {
    "grid2d": "grid2d:side=20",
    "road": "road:side=30",
    "random-degree": "random-degree:n=500",
    "rmat": "rmat:scale=9",
    "kronecker": "kronecker:scale=7",
    "delaunay": "delaunay:n=400",
    "seed000-sparse": "seed000-sparse:n=2000,m=3000",
    "seed000-dense": "seed000-dense:n=60,m=1600",
    "dense": "dense:n=50,density=0.7",
}
CONNECTED = ("grid2d", "delaunay", "seed000-sparse", "seed000-dense", "dense")
MULTIGRAPHS = ("seed000-sparse",)
SEED000_TABLE = [  # Shou and He, section 4.1
    ("seed000-dense", "small", 200, 17_847),
    ("seed000-dense", "medium", 1_000, 449_576),
    ("seed000-dense", "large", 5_000, 11_245_624),
    ("seed000-dense", "extreme", 8_000, 28_793_554),
    ("seed000-sparse", "small", 100_000, 149_960),
    ("seed000-sparse", "medium", 1_000_000, 1_501_216),
    ("seed000-sparse", "large", 10_000_000, 15_000_571),
    ("seed000-sparse", "extreme", 20_000_000, 29_998_467),
]


def with_params(spec: str, **params) -> str:
    return spec + "".join(f",{key}={value}" for key, value in params.items())


def components(g) -> int:
    adjacency = coo_array((np.ones(g.num_edges), (g.src, g.dst)), shape=(g.num_vertices,) * 2)
    return connected_components(adjacency, directed=False)[0]


def pair_keys(g) -> np.ndarray:
    lo = np.minimum(g.src, g.dst).astype(np.int64)
    return lo * g.num_vertices + np.maximum(g.src, g.dst)


def test_specs_cover_every_family():
    assert set(SPECS) == set(FAMILIES)


@functools.cache
def small(name: str):
    return generate(SPECS[name])


@pytest.fixture(params=sorted(SPECS))
def family_graph(request):
    return request.param, small(request.param)


def test_same_seed_gives_identical_arrays(family_graph):
    name, g = family_graph
    again = generate(SPECS[name])
    for field in ("src", "dst", "weight"):
        np.testing.assert_array_equal(getattr(g, field), getattr(again, field))
    assert g.num_vertices == again.num_vertices


def test_different_seed_gives_a_different_graph(family_graph):
    name, g = family_graph
    other = generate(with_params(SPECS[name], seed=1))
    assert not all(np.array_equal(getattr(g, f), getattr(other, f))
                   for f in ("src", "dst", "weight"))


def test_describe_matches_the_generated_graph(family_graph):
    name, g = family_graph
    info = describe(SPECS[name])
    assert info["n"] == g.num_vertices
    if info["m_exact"]:
        assert info["m"] == g.num_edges
    else:
        assert 0 < g.num_edges <= info["m"]


def test_no_self_loops(family_graph):
    _, g = family_graph
    assert not np.any(g.src == g.dst)


@pytest.mark.parametrize("name", sorted(set(SPECS) - set(MULTIGRAPHS)))
def test_no_repeated_pairs(name):
    g = small(name)
    assert len(np.unique(pair_keys(g))) == g.num_edges


@pytest.mark.parametrize("name", CONNECTED)
def test_promised_connectivity(name):
    assert components(small(name)) == 1


def test_index_and_default_weight_dtypes(family_graph):
    name, g = family_graph
    assert g.src.dtype == g.dst.dtype == index_dtype_for(g.num_vertices, g.num_edges)
    assert g.weight.dtype == np.int32
    assert g.weight.min() >= 1
    if name.startswith("seed000"):
        np.testing.assert_array_equal(np.sort(g.weight), np.arange(1, g.num_edges + 1))
    else:
        assert g.weight.max() <= DEFAULT_MAX_WEIGHT


@pytest.mark.parametrize("name", sorted(SPECS))
def test_float_weights_are_float64_in_unit_interval(name):
    g = generate(with_params(SPECS[name], weights="float"))
    assert g.weight.dtype == np.float64
    assert 0 <= g.weight.min() and g.weight.max() <= 1
    assert len(np.unique(g.weight)) > g.num_edges // 2


@pytest.mark.parametrize("name", sorted(SPECS))
def test_unique_weights_are_a_permutation(name):
    g = generate(with_params(SPECS[name], weights="unique"))
    assert g.weight.dtype == np.int32
    np.testing.assert_array_equal(np.sort(g.weight), np.arange(1, g.num_edges + 1))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_max_weight_forces_ties(name):
    g = generate(with_params(SPECS[name], weights="int", max_weight=3))
    assert set(np.unique(g.weight)) <= {1, 2, 3}
    assert len(np.unique(g.weight)) >= 2
    f = generate(with_params(SPECS[name], weights="float", max_weight=4))
    assert set(np.unique(f.weight * 4)) <= {0.0, 1.0, 2.0, 3.0, 4.0}


def test_wide_max_weight_switches_to_int64():
    assert grid2d(side=4, max_weight=2**40).weight.dtype == np.int64
    assert road(side=4, max_weight=2**40).weight.dtype == np.int64


@pytest.mark.parametrize("family, size, n, m", SEED000_TABLE[:2] + SEED000_TABLE[4:6])
def test_seed000_table_sizes_generate_exactly(family, size, n, m):
    g = generate(f"{family}:size={size}")
    assert (g.num_vertices, g.num_edges) == (n, m)


@pytest.mark.parametrize("family, size, n, m", SEED000_TABLE)
def test_seed000_table_sizes_describe_exactly(family, size, n, m):
    info = describe(f"{family}:size={size}")
    assert (info["n"], info["m"], info["m_exact"]) == (n, m, True)


def test_seed000_sparse_multi_edges_can_occur():
    g = seed000_sparse(n=10, m=200, seed=3)
    assert len(np.unique(pair_keys(g))) < g.num_edges
    assert components(g) == 1


def test_seed000_dense_is_about_ninety_percent_of_pairs():
    g = seed000_dense(size="small")
    assert g.num_edges / (200 * 199 / 2) == pytest.approx(0.9, abs=0.01)


def test_grid2d_is_the_four_neighbour_lattice():
    g = grid2d(side=3)
    pairs = {tuple(sorted(p)) for p in zip(g.src.tolist(), g.dst.tolist())}
    expected = {(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)}
    expected |= {(r * 3 + c, r * 3 + c + 3) for r in range(2) for c in range(3)}
    assert pairs == expected


def test_grid2d_large_preset_matches_2d_2e20():
    info = describe("grid2d:size=large")
    assert (info["n"], 2 * info["m"]) == (1_048_576, 4_190_208)


def test_road_removes_the_requested_fraction_and_splits():
    g = road(side=40, remove=0.32, seed=5)
    full = 2 * 40 * 39
    assert g.num_edges == full - round(0.32 * full)
    assert 2.5 < 2 * g.num_edges / g.num_vertices < 3
    assert components(g) > 1
    assert road(side=40, remove=0.0).num_edges == full


def test_road_weights_follow_link_lengths():
    # Jitter is at most 0.25 per axis, so lengths lie in [0.5, hypot(1.5, 0.5)]:
    # the integer weights span about a third of the range up to the top.
    g = road(side=30, seed=1)
    assert 0.3 * DEFAULT_MAX_WEIGHT < g.weight.min() < 0.4 * DEFAULT_MAX_WEIGHT
    assert g.weight.max() <= DEFAULT_MAX_WEIGHT
    f = road(side=30, seed=1, weights="float")
    assert np.all(np.diff(g.weight[np.argsort(f.weight)]) >= 0)
    # Unique weights are a permutation of the ids, not of the lengths (a range cannot rank them).
    u = road(side=30, seed=1, weights="unique")
    np.testing.assert_array_equal(np.sort(u.weight), np.arange(1, g.num_edges + 1))


def test_random_degree_draws_degree_links_per_vertex():
    g = random_degree(n=2000, degree=4, seed=2)
    assert 2000 * 4 - 40 <= g.num_edges <= 2000 * 4
    assert np.bincount(np.concatenate([g.src, g.dst]), minlength=2000).min() >= 3
    assert np.all(g.src < g.dst)


def test_rmat_is_skewed_scrambled_and_sorted():
    g = rmat(scale=12, seed=0)
    degree = np.bincount(np.concatenate([g.src, g.dst]), minlength=g.num_vertices)
    assert degree.max() > 20 * degree.mean()
    assert (degree == 0).sum() > 0.05 * g.num_vertices
    # Without the id permutation the heaviest vertex would be 0 (quadrant a).
    assert degree.argmax() != 0
    assert np.all(g.src < g.dst)
    assert np.all(np.diff(pair_keys(g)) > 0)


def test_rmat_uniform_quadrants_are_not_skewed():
    g = rmat(scale=12, a=0.25, b=0.25, c=0.25, seed=0)
    degree = np.bincount(np.concatenate([g.src, g.dst]), minlength=g.num_vertices)
    assert degree.max() < 3 * degree.mean()


def test_delaunay_is_a_triangulation():
    n = 1000
    g = delaunay(n=n, seed=6)
    # A triangulation of n points with h on the hull has 3n - 3 - h edges.
    assert 3 * n - 3 - 100 <= g.num_edges <= 3 * n - 6
    assert components(g) == 1


@pytest.mark.parametrize("n, m", [(0, 0), (1, 0), (2, 1)])
def test_delaunay_with_fewer_than_three_points(n, m):
    assert (delaunay(n=n).num_vertices, delaunay(n=n).num_edges) == (n, m)


def test_delaunay_without_scipy_says_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.spatial", None)
    with pytest.raises(ImportError, match=r"delaunay generator .*needs scipy.*parmst\[interop\]"):
        delaunay(n=10)


def test_dense_defaults_to_the_complete_graph():
    g = dense(n=40)
    assert g.num_edges == 40 * 39 // 2
    assert len(np.unique(pair_keys(g))) == g.num_edges


def test_dense_density_sets_the_edge_count():
    assert dense(n=100, density=0.85).num_edges == round(0.85 * 4950)


@pytest.mark.parametrize("spec, n", [
    ("grid2d:side=0", 0), ("grid2d:side=1", 1), ("seed000-sparse:n=1,m=0", 1),
    ("seed000-dense:n=0,m=0", 0), ("dense:n=1", 1), ("random-degree:n=1", 1),
    ("rmat:scale=0", 1), ("rmat:scale=3,edge_factor=0", 8),
])
def test_degenerate_sizes_give_edgeless_graphs(spec, n):
    g = generate(spec)
    assert (g.num_vertices, g.num_edges) == (n, 0)
