"""Spec strings, parameter validation, presets and the FAMILIES/SIZES tables."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst.errors import GraphValueError
from parmst.generators import (
    FAMILIES,
    SIZES,
    describe,
    generate,
    grid2d,
    kronecker,
    parse_spec,
    rmat,
)
from parmst.keyvalue import parse_value


def test_parse_spec_reads_int_float_and_string_values():
    assert parse_spec("rmat:scale=16, a=0.6 ,weights=float,n=1e6") == (
        "rmat", {"scale": 16, "a": 0.6, "weights": "float", "n": 1e6})


def test_parse_spec_family_alone_has_no_parameters():
    assert parse_spec("grid2d") == ("grid2d", {})
    assert parse_spec(" grid2d: ") == ("grid2d", {})


@pytest.mark.parametrize("text, value", [("7", 7), ("-3", -3), ("2.5", 2.5), ("int", "int")])
def test_parse_value(text, value):
    assert parse_value(text) == value and type(parse_value(text)) is type(value)


@pytest.mark.parametrize("spec, fragment", [
    ("rmat:scale", "KEY=VALUE"),
    ("rmat:=3", "KEY=VALUE"),
    ("rmat:scale=", "KEY=VALUE"),
    ("rmat:scale=1,scale=2", "twice"),
    ("", "names no family"),
    (":scale=3", "names no family"),
])
def test_malformed_specs_are_rejected(spec, fragment):
    with pytest.raises(GraphValueError, match=fragment):
        generate(spec)


def test_spec_must_be_a_string():
    with pytest.raises(GraphValueError, match="string"):
        parse_spec(3)


def test_unknown_family_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown generator family 'grid3d'") as info:
        generate("grid3d:side=4")
    for name in FAMILIES:
        assert name in str(info.value)


def test_unknown_parameter_lists_the_valid_ones():
    with pytest.raises(GraphValueError, match="no parameter 'edges'") as info:
        describe("grid2d:edges=5")
    assert "side" in str(info.value) and "max_weight" in str(info.value)


@pytest.mark.parametrize("spec, fragment", [
    ("grid2d:size=huge", "size must be one of small, medium, large"),
    ("seed000-sparse:size=huge", "small, medium, large, extreme"),
    ("grid2d:side=3.5", "side must be an integer"),
    ("grid2d:side=-1", "side must be at least 0"),
    ("grid2d:weights=complex", "weights must be one of int, float, unique"),
    ("grid2d:max_weight=0", "max_weight must be at least 1"),
    ("grid2d:weights=unique,max_weight=4", "cannot go with weights='unique'"),
    ("road:remove=1.5", r"remove must lie in \[0, 1\]"),
    ("rmat:scale=40", "scale must be at most 31"),
    ("rmat:a=0.6,b=0.3,c=0.3", "must not exceed 1"),
    ("rmat:a=x", "a must be a number"),
    ("dense:density=0", r"density must lie in \(0, 1\]"),
    ("dense:n=100,density=0.01", "fewer than the 99 a connected graph needs"),
    ("seed000-dense:n=100", "between 99 and 4950 edges, got m=17847"),
    ("seed000-sparse:n=10,m=5", "m >= 9"),
    ("seed000-sparse:n=1,m=3", "m = 0"),
])
def test_out_of_range_parameters_are_named(spec, fragment):
    with pytest.raises(GraphValueError, match=fragment):
        generate(spec)


def test_describe_catches_bad_counts_without_generating():
    with pytest.raises(GraphValueError, match="m >= 9"):
        describe("seed000-sparse:n=10,m=5")


def test_integral_float_values_are_accepted_as_integers():
    assert generate("random-degree:n=1e2,seed=1").num_vertices == 100


def test_every_family_takes_the_common_parameters():
    for family in FAMILIES.values():
        assert family.description
        assert {"size", "seed", "weights", "max_weight"} <= set(family.defaults)
        assert family.defaults["size"] == "small"
        assert {"small", "medium", "large"} <= set(family.sizes)


def test_sizes_table_is_indexed_by_size_then_family():
    assert SIZES["large"]["grid2d"] == {"side": 1024}
    assert SIZES["medium"]["rmat"] == {"scale": 16}
    assert set(SIZES["extreme"]) == {"seed000-sparse", "seed000-dense"}
    for size, families in SIZES.items():
        for name, preset in families.items():
            assert FAMILIES[name].sizes[size] == preset


def test_size_preset_fills_only_what_the_caller_left_out():
    assert describe("grid2d:size=medium")["params"]["side"] == 768
    assert describe("grid2d:size=large,side=5")["params"]["side"] == 5
    assert describe("grid2d")["params"]["side"] == 32


def test_spec_and_direct_call_give_the_same_graph():
    g = generate("rmat:scale=6,edge_factor=4,seed=2,weights=float")
    h = rmat(scale=6, edge_factor=4, seed=2, weights="float")
    for name in ("src", "dst", "weight"):
        np.testing.assert_array_equal(getattr(g, name), getattr(h, name))


def test_kronecker_is_rmat_with_graph500_parameters():
    g = kronecker(scale=7, seed=4)
    h = rmat(scale=7, edge_factor=48, a=0.57, b=0.19, c=0.19, seed=4)
    for name in ("src", "dst", "weight"):
        np.testing.assert_array_equal(getattr(g, name), getattr(h, name))


def test_describe_reports_counts_and_exactness():
    assert describe("grid2d:side=10") == {
        "family": "grid2d", "n": 100, "m": 180, "m_exact": True,
        "params": {"side": 10, "size": "small", "seed": 0, "weights": "int",
                   "max_weight": None}}
    info = describe("rmat:scale=10,edge_factor=8")
    assert (info["n"], info["m"], info["m_exact"]) == (1024, 8192, False)


def test_top_level_generate_uses_this_package():
    g = parmst.generate("grid2d:side=4,seed=1")
    np.testing.assert_array_equal(g.weight, grid2d(side=4, seed=1).weight)
