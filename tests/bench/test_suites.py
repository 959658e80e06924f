"""Suite definitions resolve to generator families, and generated graphs are cached."""

import inspect
from pathlib import Path

import numpy as np
import pytest

import parmst
from parmst.bench import real
from parmst.bench.inputs import _cache_path, default_cache_dir, load_graph
from parmst.bench.multigpu_scale import SCALE_GRAPHS
from parmst.bench.suites import SUITES, get_suite
from parmst.bench.weak import EDGES_PER_RANK, WEAK_GRAPHS
from parmst.generators import FAMILIES, describe, parse_spec
from parmst.generators.points import POINT_FAMILIES

PAPER_SUITES = ("seed000", "ecl", "road", "prim-dense")
FULL_SUITES = tuple(name for name in SUITES if not name.endswith("-small"))


def test_every_suite_has_a_small_variant():
    assert set(PAPER_SUITES) <= set(FULL_SUITES)
    assert set(SUITES) == {name for base in FULL_SUITES for name in (base, base + "-small")}


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_suite_specs_name_known_families_and_parameters(suite):
    graphs = get_suite(suite).graphs
    weak, scale = get_suite(suite).weak, get_suite(suite).gpu_scale
    # a scan-only, weak-scaling or GPU-generated suite has no fixed graphs
    assert graphs or get_suite(suite).scans or weak or scale
    assert len({g.name for g in graphs}) == len(graphs)
    specs = [g.spec for g in graphs] + [WEAK_GRAPHS[name].spec(2**k) for name in weak
                                        for k in (10, 20, 30)] + [SCALE_GRAPHS[name].spec
                                                                  for name in scale]
    for spec in specs:
        if spec.startswith(real.PREFIX):  # a fetched real graph, named in the manifest
            assert spec[len(real.PREFIX):] in real.manifest(), spec
            continue
        family, params = parse_spec(spec)
        if family in POINT_FAMILIES:  # a point set (tests/bench/test_points.py)
            continue
        assert family in FAMILIES, spec
        accepted = set(inspect.signature(FAMILIES[family].function).parameters)
        assert set(params) <= accepted, spec


@pytest.mark.parametrize("name", sorted(WEAK_GRAPHS))
def test_weak_series_grow_with_the_edges_asked(name):
    for edges in (2**12, 2**20, 2**24):
        m = describe(WEAK_GRAPHS[name].spec(edges))["m"]
        assert 0.7 * edges <= m <= 1.3 * edges, (name, edges, m)


def test_small_suites_are_smaller_than_their_full_versions():
    for base in FULL_SUITES:
        full = {g.name for g in get_suite(base).graphs}
        small = get_suite(base + "-small").graphs
        assert len(small) <= len(get_suite(base).graphs)
        if get_suite(base).scans:
            assert max(get_suite(base + "-small").scans) < max(get_suite(base).scans)
        if full:
            assert full != {g.name for g in small}
        if get_suite(base).weak:
            assert get_suite(base + "-small").edges_per_rank < (get_suite(base).edges_per_rank
                                                                or EDGES_PER_RANK)


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


@pytest.mark.parametrize("suite", sorted(SUITES))
def test_every_suite_names_its_solvers_and_peers(suite):
    """A suite runs what it names (the README's tables), never every solver by accident."""
    from parmst.bench.peers import resolve_peers
    from parmst.bench.specs import choose_solvers, parse_solver_spec

    chosen = get_suite(suite)
    assert chosen.solvers is not None and chosen.peers is not None
    choose_solvers([parse_solver_spec(spec)[0] for spec in chosen.solvers])  # all registered
    resolve_peers(list(chosen.peers))  # all known


def test_ecl_small_runs_the_readme_tables_columns():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    header = next(line for line in readme.splitlines()
                  if line.startswith("| graph | edges | kruskal/serial"))
    columns = [cell.strip() for cell in header.strip("|").split("|")][2:]
    suite = get_suite("ecl-small")
    assert columns == [*suite.solvers, "SciPy", "igraph"]
    assert suite.peers == ("scipy", "igraph")
