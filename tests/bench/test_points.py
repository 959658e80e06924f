"""Point sets in the benchmark: the emst suites on tiny point sets, end to end."""

import argparse
import dataclasses
import importlib.util
import inspect
import json
import os
import subprocess
import sys

import pytest

from parmst.bench import cli, suites
from parmst.bench.inputs import is_point_source
from parmst.bench.peers import PEERS
from parmst.bench.suite_types import BenchGraph
from parmst.bench.suites import get_suite
from parmst.generators import parse_spec
from parmst.generators.points import POINT_FAMILIES


def _bench(*argv):
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(list(argv)))


@pytest.fixture
def tiny_suites(monkeypatch):
    """emst-small and emst-mreach-small with the same settings on point sets of 300."""
    tiny = {"emst-small": (BenchGraph("uniform", "uniform-points:n=300,d=2,seed=1"),
                           BenchGraph("repeats", "duplicate-points:n=300,d=3,unique=40,seed=1")),
            "emst-mreach-small": (BenchGraph("clusters-k5", "gaussian-clusters:n=300,d=2,seed=2",
                                             min_samples=5),)}
    for name, graphs in tiny.items():
        monkeypatch.setitem(suites.SUITES, name, dataclasses.replace(get_suite(name),
                                                                     graphs=graphs))


def _installed(*names):
    return [name for name in names if PEERS[name].installed()]


def test_point_suites_run_solvers_and_peers_on_the_same_tree(tiny_suites, tmp_path, capsys):
    for suite in ("emst-small", "emst-mreach-small"):
        assert _bench("--suite", suite, "--repeat", "1", "--no-cache", "--no-progress",
                      "--out", str(tmp_path), "--name", suite) == 0
        assert "fastest per graph" in capsys.readouterr().out  # the terminal summary
        assert "| graph |" in (tmp_path / f"bench_{suite}.md").read_text()
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"bench_{s}.{ext}" for s in ("emst-small", "emst-mreach-small")
                             for ext in ("json", "md", "png"))

    assert "checked by `verify_points`" in (tmp_path / "bench_emst-small.md").read_text()
    emst = json.loads((tmp_path / "bench_emst-small.json").read_text())
    assert all(g["verified"] for g in emst["graphs"])
    assert [g["name"] for g in emst["graphs"]] == ["uniform", "repeats"]
    assert emst["graphs"][1]["stands_for"] == "300 points in 3-D"
    records = {(r["graph"], r["solver"]): r for r in emst["records"]}
    for graph in ("uniform", "repeats"):
        for solver in ("boruvka-kdtree/serial", "boruvka-kdtree/cpu", "prim-dense/points"):
            assert records[graph, solver]["status"] == "ok"
        for peer in _installed("mlpack-emst"):
            assert records[graph, peer]["status"] == "ok" and records[graph, peer]["weight_ok"]
    if _installed("mlpack-emst", "delaunay-scipy"):  # distinct random points: no ties
        assert all(records["uniform", peer]["extra"]["same_pairs"]
                   for peer in _installed("mlpack-emst", "delaunay-scipy"))
    for peer in _installed("mlpack-emst"):  # the repeats tie: another tree of equal weight
        assert records["repeats", peer]["extra"]["same_pairs"] or "pairs differ from ours" in (
            records["repeats", peer]["note"])
    if _installed("delaunay-scipy"):
        assert "the points repeat" in records["repeats", "delaunay-scipy"]["note"]
    assert not any(peer in ("fast-hdbscan", "sklearn-hdbscan") for _, peer in records)

    mreach = json.loads((tmp_path / "bench_emst-mreach-small.json").read_text())
    records = {r["solver"]: r for r in mreach["records"]}
    assert records["boruvka-kdtree/serial"]["status"] == "ok"
    for peer in _installed("fast-hdbscan", "sklearn-hdbscan"):
        assert records[peer]["status"] == "ok" and records[peer]["weight_ok"], records[peer]
    assert "mlpack-emst" not in records


def test_dense_prim_is_left_out_of_large_point_sets_unless_named(monkeypatch):
    from parmst.bench import point_timing
    from parmst.bench.config import RunConfig
    from parmst.bench.harness import run

    monkeypatch.setattr(point_timing, "DENSE_POINTS_MAX", 100)
    points = ["uniform-points:n=150,d=2,seed=3"]
    chosen = run(RunConfig(points, ["prim-dense/points"], peers=["none"], repeat=1,
                           progress=False))
    assert chosen.records[0].status == "ok"
    suite = dataclasses.replace(get_suite("emst-small"), graphs=(BenchGraph("u", points[0]),))
    monkeypatch.setitem(suites.SUITES, "emst-small", suite)
    default = run(RunConfig(suite="emst-small", peers=["none"], repeat=1, progress=False))
    dense = next(r for r in default.records if r.solver == "prim-dense/points")
    assert dense.status == "skipped" and "name it with --solver" in dense.note


def test_point_suites_name_point_families_and_their_parameters():
    for name in ("emst", "emst-small", "emst-mreach", "emst-mreach-small", "emst-gpu",
                 "emst-gpu-small", "emst-scaling", "emst-scaling-small"):
        for item in get_suite(name).graphs:
            family, params = parse_spec(item.spec)
            assert item.is_points and family in POINT_FAMILIES
            assert set(params) <= set(inspect.signature(POINT_FAMILIES[family][0]).parameters)
    assert is_point_source("p.npy") and is_point_source("P.CSV") and not is_point_source("g.gr")


def test_point_suites_place_points_on_the_device_and_time_threads():
    for name in ("emst-gpu", "emst-gpu-small"):
        suite = get_suite(name)
        assert suite.placements == ("host", "device") and "boruvka-bvh/gpu" in suite.solvers
    assert get_suite("emst-gpu").graphs[0].spec.startswith("cosmology-points:n=37000000,d=3")
    assert get_suite("emst-scaling").threads == (1, 2, 4, 8, 16)
    assert get_suite("emst-scaling").graphs[0].spec.startswith("uniform-points:n=10000000,d=3")


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                    reason="numba-cuda is not installed (pip install 'parmst[gpu]')")
def test_emst_gpu_small_suite_under_the_simulator(tmp_path):
    """emst-gpu-small's settings on a tiny point set: the GPU solver from host and from
    device points, the host solver skipped on the device (simulator)."""
    script = ("import dataclasses, sys\n"
              "from parmst.bench import suite_types, suites\n"
              "from parmst.bench.__main__ import main\n"
              "s = suites.SUITES['emst-gpu-small']\n"
              "suites.SUITES['emst-gpu-small'] = dataclasses.replace(s, graphs=(\n"
              "    suite_types.BenchGraph('c', 'cosmology-points:n=80,d=3,seed=2'),))\n"
              "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted below
        [sys.executable, "-c", script, "--suite", "emst-gpu-small", "--repeat", "1",
         "--no-progress", "--no-plots", "--out", str(tmp_path)],
        env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}, capture_output=True, text=True,
        timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads((tmp_path / "bench_emst-gpu-small.json").read_text())
    assert [g["name"] for g in data["graphs"]] == ["c", "c@device"]
    records = {(r["graph"], r["solver"]): r for r in data["records"]}
    assert records["c", "boruvka-bvh/gpu"]["status"] == "ok"
    assert records["c", "boruvka-kdtree/cpu"]["status"] == "ok"
    on_device = records["c@device", "boruvka-bvh/gpu"]
    assert on_device["status"] == "ok" and on_device["compute_time"] > 0
    assert records["c@device", "boruvka-kdtree/cpu"]["status"] == "skipped"
