"""Families of drawn pairs (R-MAT, Kronecker, random-degree): every value is a function of its
position, so any split of the draws gives back the one graph that ranks generate together."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from parmst.errors import GraphValueError
from parmst.generators import FAMILIES, describe, generate
from parmst.generators._positional import BLOCK
from parmst.generators._sampling import distinct_pairs

SPECS = ["rmat:scale=9,seed=4", "rmat:scale=11,edge_factor=40,seed=1,weights=unique",
         "kronecker:scale=7,weights=float", "random-degree:n=900,degree=5,seed=2,max_weight=6"]


def recipe_of(spec):
    info = describe(spec)
    return FAMILIES[info["family"]].drawn(**info["params"])


@pytest.mark.parametrize("spec", SPECS)
def test_any_split_of_the_draws_gives_the_same_keys_and_the_serial_graph(spec):
    recipe, graph = recipe_of(spec), generate(spec)
    raw = recipe.raw_count
    whole = recipe.keys(0, raw)
    rng = np.random.default_rng(7)
    # Splits: ranks' blocks, cuts inside and at block edges (the large rmat spans 10 blocks).
    for cuts in ([raw // 3, 2 * raw // 3], [BLOCK - 1, BLOCK, BLOCK + 1],
                 sorted(rng.integers(0, raw + 1, 5).tolist())):
        bounds = [0, *[c for c in cuts if c <= raw], raw]
        parts = [recipe.keys(lo, hi) for lo, hi in itertools.pairwise(bounds)]
        np.testing.assert_array_equal(np.concatenate(parts), whole)
    lo, hi = distinct_pairs(whole, recipe.num_vertices)
    np.testing.assert_array_equal(graph.src, lo)
    np.testing.assert_array_equal(graph.dst, hi)
    m = graph.num_edges
    pieces = [recipe.weights(a, b, m) for a, b in ((0, m // 2), (m // 2, m - 1), (m - 1, m))]
    np.testing.assert_array_equal(np.concatenate(pieces), graph.weight)


def test_the_drawn_families_offer_their_recipe_and_raw_count():
    assert {name for name, f in FAMILIES.items() if f.drawn is not None} == {
        "rmat", "kronecker", "random-degree"}
    for spec in SPECS:
        assert recipe_of(spec).raw_count == describe(spec)["m"]


def test_rmat_keeps_its_size_after_removing_repeats():
    """Position-wise draws keep the sequential generator's character: its rmat14 of the
    benchmarks (scale 14, edge factor 16, seed 1) had 212,928 edges after clean-up."""
    assert generate("rmat:scale=14,seed=1").num_edges == pytest.approx(212_928, rel=0.01)


def test_a_graph_too_big_for_memory_fails_before_drawing(monkeypatch):
    monkeypatch.setenv("PARMST_MEMORY_LIMIT", "1M")
    with pytest.raises(GraphValueError, match=r"rmat with 1,048,576 drawn edges on 65,536 "
                                              r"vertices would need .* more than"):
        generate("rmat:scale=16")
