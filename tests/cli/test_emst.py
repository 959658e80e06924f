"""``parmst emst`` end to end: points in, report out, tree or linkage written, clear errors."""

import json
import re

import numpy as np
import pytest

import parmst
from parmst.cli import main

POINTS = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0], [10.0, 0.0], [9.0, 1.0]])


@pytest.fixture
def point_file(tmp_path):
    path = tmp_path / "points.csv"
    path.write_text("name,x,y\n" + "".join(f"p{i},{x},{y}\n" for i, (x, y) in enumerate(POINTS)))
    return path


def test_summary_and_every_output(point_file, tmp_path, capsys):
    tree = parmst.euclidean_mst(POINTS)
    linkage = tmp_path / "linkage.npy"
    assert main(["emst", str(point_file), "--columns", "x,y", "-o", str(linkage)]) == 0
    captured = capsys.readouterr()
    for field in ("solver", "points", "dimension", "tree_edges", "total_weight",
                  "init_time_s", "compute_time_s"):
        assert re.search(rf"^{field}\s", captured.out, re.MULTILINE), field
    assert re.search(r"^points\s+5$", captured.out, re.MULTILINE)
    assert f"parmst: wrote {linkage}: single-linkage matrix, 4 rows" in captured.err
    np.testing.assert_array_equal(np.load(linkage), tree.to_linkage())

    edges = tmp_path / "tree.npz"
    assert main(["emst", str(point_file), "--columns", "1,2", "-o", str(edges), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["total_weight"] == tree.total_weight and report["dimension"] == 2
    written = parmst.Graph.read(edges)
    np.testing.assert_array_equal(written.src, tree.src)
    np.testing.assert_array_equal(written.weight, tree.weight)

    ids = tmp_path / "tree.ids"
    assert main(["emst", "--generate", "lattice-points:n=30,d=2,seed=2", "--min-samples", "3",
                 "--solver", "boruvka-kdtree/serial", "--verify", "-o", str(ids)]) == 0
    expected = parmst.euclidean_mst(parmst.generate_points("lattice-points:n=30,d=2,seed=2"),
                                    min_samples=3, solver="prim-dense/points")
    assert ids.read_text().split() == [str(i) for i in expected.edge_ids]
    out = capsys.readouterr().out
    assert re.search(r"^min_samples\s+3$", out, re.MULTILINE)
    assert re.search(r"^verified\s+True$", out, re.MULTILINE)


def test_a_wrong_tree_fails_verification_with_status_1(monkeypatch, capsys):
    from parmst.solvers.serial import prim_points

    real = prim_points.solve

    def wrong(points, stats, **options):  # the tree's heaviest pair swapped for another pair
        first, second, key = real(points, stats, **options)
        heaviest = key.argmax()
        first[heaviest], second[heaviest] = 0, len(points) - 1
        return first, second, key

    monkeypatch.setattr(prim_points, "solve", wrong)
    assert main(["emst", "--generate", "uniform-points:n=40,d=2,seed=4", "--solver",
                 "prim-dense/points", "--verify"]) == 1
    assert "parmst: " in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["emst"], "give a point FILE (.npy, .csv, .parquet) or --generate SPEC"),
    (["emst", "{file}", "--generate", "uniform-points"], "not both"),
    (["emst", "{file}"], "column name: 'p0' is not a number"),
    (["emst", "{file}", "--columns", "x,w"], "no column 'w'"),
    (["emst", "--generate", "uniform-points:n=5", "--columns", "x"], "--columns picks columns"),
    (["emst", "--generate", "cube-points"], "unknown point family 'cube-points'"),
    (["emst", "--generate", "uniform-points:n=5", "--solver", "kruskal/serial"], "solves graphs"),
    (["emst", "--generate", "uniform-points:n=5", "--min-samples", "9"], "min_samples"),
    (["emst", "--generate", "uniform-points:n=5", "-o", "{dir}/t.bogus"], "t.bogus"),
    (["emst", "--generate", "uniform-points:n=5", "-o", "{dir}/no/t.npy"], "does not exist"),
])
def test_bad_input_is_one_line_and_status_2(point_file, tmp_path, argv, message, capsys):
    argv = [a.format(file=point_file, dir=tmp_path) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("parmst: error: ") and err.count("\n") == 1
    assert message in err
    assert not list(tmp_path.glob("t.*"))
