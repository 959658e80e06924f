"""Suite definitions resolve to generator families, and generated graphs are cached."""

import inspect

import numpy as np
import pytest

import parmst
from parmst.bench.suites import SUITES, _cache_path, default_cache_dir, get_suite, load_graph
from parmst.generators import FAMILIES, parse_spec

PAPER_SUITES = ("seed000", "ecl", "road", "prim-dense")
FULL_SUITES = tuple(name for name in SUITES if not name.endswith("-small"))


def test_every_suite_has_a_small_variant():
    assert set(PAPER_SUITES) <= set(FULL_SUITES)
    assert set(SUITES) == {name for base in FULL_SUITES for name in (base, base + "-small")}


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_suite_specs_name_known_families_and_parameters(suite):
    graphs = get_suite(suite).graphs
    assert graphs or get_suite(suite).scans  # a scan-only suite has no graphs
    assert len({g.name for g in graphs}) == len(graphs)
    for graph in graphs:
        family, params = parse_spec(graph.spec)
        assert family in FAMILIES, graph.spec
        accepted = set(inspect.signature(FAMILIES[family].function).parameters)
        assert set(params) <= accepted, graph.spec


def test_small_suites_are_smaller_than_their_full_versions():
    for base in FULL_SUITES:
        full = {g.name for g in get_suite(base).graphs}
        small = get_suite(base + "-small").graphs
        assert len(small) <= len(get_suite(base).graphs)
        if get_suite(base).scans:
            assert max(get_suite(base + "-small").scans) < max(get_suite(base).scans)
        if full:
            assert full != {g.name for g in small}


def test_seed000_suite_lists_the_reports_eight_files():
    assert sorted(g.stands_for for g in get_suite("seed000").graphs) == sorted(
        f"{kind}/{size}.txt" for kind in ("sparse", "dense")
        for size in ("small", "medium", "large", "extreme"))


def test_unknown_suite_lists_the_known_ones():
    with pytest.raises(ValueError, match="ecl-small"):
        get_suite("nope")


def test_generated_graphs_are_cached_and_reloaded(tmp_path):
    spec = "grid2d:side=6,seed=3"
    first = load_graph(spec, tmp_path)
    cached = _cache_path(tmp_path, spec)
    assert cached.exists() and cached.suffix == ".npz"
    again = load_graph(spec, tmp_path)
    for name in ("src", "dst", "weight"):
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))
    assert again.num_vertices == first.num_vertices
    assert _cache_path(tmp_path, "grid2d:side=6,seed=4") != cached


def test_files_are_read_not_generated(tmp_path):
    path = tmp_path / "g.txt"
    parmst.Graph.from_edges([0, 1], [1, 2], [5, 6]).write(path)
    assert load_graph(str(path), tmp_path).num_edges == 2
    assert list(tmp_path.glob("*.npz")) == []


def test_cache_directory_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PARMST_CACHE", str(tmp_path))
    assert default_cache_dir() == tmp_path
    monkeypatch.delenv("PARMST_CACHE")
    assert default_cache_dir().parts[-2:] == ("parmst", "graphs")
