"""Point-set generators: shapes, dtypes, determinism, each family's defining property."""

import numpy as np
import pytest

import parmst
from parmst.errors import GraphValueError
from parmst.generators.points import POINT_FAMILIES, generate_points

SPECS = {
    "uniform-points": "uniform-points:n=300,d=3",
    "gaussian-clusters": "gaussian-clusters:n=300,d=3,clusters=4,spread=0.001",
    "manifold-points": "manifold-points:n=300,d=6,intrinsic=2",
    "lattice-points": "lattice-points:n=300,d=3",
    "duplicate-points": "duplicate-points:n=300,d=3,unique=17",
    "cosmology-points": "cosmology-points:n=300,d=3",
}


def test_every_family_has_a_spec_here():
    assert sorted(SPECS) == sorted(POINT_FAMILIES)


@pytest.mark.parametrize("family", sorted(SPECS))
def test_shape_dtype_and_seed(family):
    spec = SPECS[family]
    points = generate_points(spec + ",seed=5")
    assert points.shape == (300, 6 if family == "manifold-points" else 3)
    assert points.dtype == np.float64 and points.flags.c_contiguous
    assert np.isfinite(points).all()
    np.testing.assert_array_equal(points, generate_points(spec + ",seed=5"))
    assert not np.array_equal(points, generate_points(spec + ",seed=6"))
    single = generate_points(spec + ",seed=5,dtype=float32")
    assert single.dtype == np.float32
    np.testing.assert_array_equal(single, points.astype(np.float32))


def test_each_family_has_its_shape():
    clusters = generate_points("gaussian-clusters:n=400,d=2,clusters=3,spread=0.0001,seed=1")
    assert len(np.unique(np.round(clusters, 2), axis=0)) <= 3 * 4  # three tight blobs
    lattice = generate_points("lattice-points:n=10,d=2,seed=1")
    assert sorted(map(tuple, lattice.tolist())) == [(x, y) for x in range(4) for y in range(4)][:10]
    duplicates = generate_points("duplicate-points:n=50,d=2,unique=7,seed=2")
    assert len(np.unique(duplicates, axis=0)) == 7
    manifold = generate_points("manifold-points:n=2000,d=8,intrinsic=1,seed=3")
    # A curve: its points spread along one direction far more than across it.
    spread = np.linalg.svd(manifold - manifold.mean(axis=0), compute_uv=False)
    assert spread[2] < 0.1 * spread[0]
    assert generate_points("uniform-points:n=0,d=4").shape == (0, 4)
    # Clustered: far fewer occupied cells of side 0.05 than uniform points fill (about 7300).
    cosmology = generate_points("cosmology-points:n=20000,seed=4")
    assert len(np.unique(np.floor(cosmology / 0.05), axis=0)) < 4000


def test_public_entry():
    np.testing.assert_array_equal(parmst.generate_points("uniform-points:n=5,seed=2"),
                                  generate_points("uniform-points:n=5,seed=2"))


@pytest.mark.parametrize(("spec", "message"), [
    ("cube-points:n=3", "unknown point family 'cube-points'; valid: uniform-points"),
    ("uniform-points:n=3,k=2", "uniform-points has no parameter 'k'; valid: n, d, seed, dtype"),
    ("uniform-points:n=-1", "n must be at least 0, got -1"),
    ("uniform-points:d=0", "d must be at least 1, got 0"),
    ("uniform-points:n=x", "n must be an integer, got 'x'"),
    ("uniform-points:dtype=int8", "dtype must be one of float64, float32, got 'int8'"),
    ("manifold-points:d=3,intrinsic=4", "intrinsic must be at most d = 3, got 4"),
    ("gaussian-clusters:spread=-1", "spread must be a number >= 0, got -1"),
    ("uniform-points:n", "expected KEY=VALUE, got 'n'"),
])
def test_bad_specs_are_one_clear_error(spec, message):
    with pytest.raises(GraphValueError, match=message.replace("(", r"\(")):
        generate_points(spec)
