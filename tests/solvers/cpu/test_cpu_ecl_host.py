"""ECL-MST's shared host logic: the filtering threshold, and ecl/cpu's keys read on the fly."""

from __future__ import annotations

import numpy as np
import pytest

from parmst.order import edge_keys
from parmst.solvers.ecl_host import NO_THRESHOLD, filter_threshold


def test_threshold_is_off_below_average_degree_four():
    # 399 undirected edges are 798 CSR entries over 200 vertices: average degree 3.99.
    keys = np.arange(399, dtype=np.uint64)
    assert filter_threshold(keys, num_vertices=200) == NO_THRESHOLD
    assert filter_threshold(keys[:-1], num_vertices=199) != NO_THRESHOLD


def test_threshold_splits_near_three_per_vertex_lightest():
    keys = np.random.default_rng(3).permutation(100_000).astype(np.uint64)
    light = [int(np.sum(keys < filter_threshold(keys, 1000, seed=s))) for s in range(20)]
    # 20 samples locate the 3000th key only roughly; the median lands near it.
    assert 1000 < np.median(light) < 9000


def test_threshold_is_reproducible_for_a_seed():
    keys = np.random.default_rng(1).integers(0, 2**60, 10_000).astype(np.uint64)
    assert filter_threshold(keys, 100, seed=5) == filter_threshold(keys, 100, seed=5)


def _weights(kind: str) -> np.ndarray:
    """Weights over several key-kernel blocks (65536 edges each), with ties."""
    weight = np.random.default_rng(7).integers(-1000, 10**6, 3 * 65536 + 17).astype(kind)
    return weight * weight.dtype.type(0.1) if weight.dtype.kind == "f" else weight


def _graph_with(weight: np.ndarray):
    import parmst

    m = len(weight)
    rng = np.random.default_rng(11)
    return parmst.Graph.from_edges(rng.integers(0, 5000, m), rng.integers(0, 5000, m), weight,
                                   num_vertices=5000)


@pytest.mark.parametrize("kind", ["int32", "float32", "float64", "int64"])
@pytest.mark.parametrize("mode", ["auto", "two-pass"])
def test_ecl_cpu_key_source_gives_the_prepared_keys(kind, mode):
    """ecl/cpu packs 32-bit weights while it reads them; every key and the filter threshold
    must be exactly what parmst.order.edge_keys gives."""
    from parmst.solvers.cpu.ecl import _KeySource

    weight = _weights(kind)
    source = _KeySource.of(_graph_with(weight), mode)
    prepared = edge_keys(weight, mode)
    assert (source.pack_bits > 0) == (kind in ("int32", "float32") and mode == "auto")
    assert (source.packed, source.id_bits, source.mode) == (prepared.packed, prepared.id_bits,
                                                            prepared.mode)
    np.testing.assert_array_equal(source[np.arange(len(weight))], prepared.keys)
    assert filter_threshold(source, 5000, samples=1024, degree=1.25, target=1.0) == \
        filter_threshold(prepared.keys, 5000, samples=1024, degree=1.25, target=1.0)


