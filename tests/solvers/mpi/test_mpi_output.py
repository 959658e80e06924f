"""Reading bounds, ``gather=False`` and the parallel ``--output`` under a real mpiexec.

One launch of output_worker.py per rank count (1 and 4) checks, on every
rank, that reading an ``.egr`` file touched only that rank's share of it
and left near-equal slices, that ``gather=False`` leaves each rank the
forest edges of its id range with the global figures, and that the files
the ranks wrote together are the serial solver's forest byte for byte. Two
CLI launches (3 and 2 ranks) write ``--output`` in parallel and, for a
format that cannot be, from the gathered forest with a note.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import parmst
from mpi_launch import run_ranks as _run
from parmst.cli.files import read_edge_ids

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    """``g.egr`` (int weights, random ids) and ``floats.npz`` (weights over 16 decades, so the
    total weight is exact only if summed exactly), with their serial forests."""
    folder = tmp_path_factory.mktemp("output")
    rng = np.random.default_rng(11)
    rmat = parmst.generate("rmat:scale=13,seed=3")
    ints = parmst.Graph.from_edges(rmat.src, rmat.dst,
                                   rng.integers(0, 50, rmat.num_edges).astype(np.int32),
                                   rmat.num_vertices)
    ints.write(folder / "g.egr")
    ints = parmst.Graph.read(folder / "g.egr")  # in the file's CSR id order
    m = 20_000
    floats = parmst.Graph.from_edges(rng.integers(0, 3000, m), rng.integers(0, 3000, m),
                                     rng.random(m) * 10.0 ** rng.integers(-8, 9, m), 3000)
    floats.write(folder / "floats.npz")
    forests = {name: parmst.minimum_spanning_forest(graph, solver="kruskal/serial")
               for name, graph in (("egr", ints), ("floats", floats))}
    return folder, forests, ints.num_edges


def _expected_file(tmp_path: Path, name: str, forest) -> bytes:
    path = tmp_path / name
    if path.suffix == ".npy":
        np.save(path, forest.edge_ids)
    else:
        forest.write(path)
    return path.read_bytes()


@pytest.mark.parametrize("ranks", [1, 4])
def test_ranks_read_their_share_keep_their_forest_and_write_one_file(graphs, tmp_path, ranks):
    folder, forests, m = graphs
    done = _run(ranks, [str(HERE / "output_worker.py"), str(folder)], timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(lines) == 1, done.stdout + done.stderr
    found = json.loads(lines[0])
    assert sum(rank["input_edges"] for rank in found) == m
    for rank in found:
        assert rank["outside"] == [], rank["rank"]  # no page beyond its share and nindex
        assert rank["searched"] <= (ranks + 1) * 4
        assert abs(rank["input_edges"] - m / ranks) <= m / (8 * ranks), rank["rank"]
    for name, reference in forests.items():
        shares = [rank[name] for rank in found]
        joined = [i for share in shares for i in share["ids"]]
        assert joined == reference.edge_ids.tolist(), name
        assert all(s["total"] == reference.total_weight for s in shares), name
        assert all(s["components"] == reference.num_components for s in shares), name
        assert not any(s["gathered"] for s in shares)
    egr = forests["egr"]
    assert np.load(folder / "f.npy").tolist() == egr.edge_ids.tolist()
    assert (folder / "f.npy").read_bytes() == _expected_file(tmp_path, "f.npy", egr)
    assert read_edge_ids(folder / "f.ids").tolist() == egr.edge_ids.tolist()
    assert (folder / "f.txt").read_bytes() == _expected_file(tmp_path, "f.txt", egr)
    assert (folder / "floats.txt").read_bytes() == _expected_file(tmp_path, "floats.txt",
                                                                  forests["floats"])
    refused = {rank["refused"] for rank in found}
    assert len(refused) == 1 and "in parallel" in refused.pop()


@pytest.mark.parametrize(("ranks", "name", "parallel"), [(3, "out.npy", True),
                                                         (2, "out.mtx", False)])
def test_cli_output_under_mpiexec(graphs, tmp_path, ranks, name, parallel):
    """``--output`` in parallel (.npy) or from the gathered forest with a note (.mtx); the
    ``--stats`` table has every rank's peak memory and growth."""
    folder, forests, _ = graphs
    out = tmp_path / name
    done = _run(ranks, ["-m", "parmst", "solve", str(folder / "g.egr"), "--solver",
                        "filter-boruvka/mpi", "--output", str(out), "--stats"], timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("written by rank 0 from the gathered forest" in done.stderr) != parallel
    header = next(line for line in done.stdout.splitlines() if "memory_growth_bytes" in line)
    rows = done.stdout.split(header, 1)[1].split("\n")[1:ranks + 1]
    growth = [int(row.split()[-1]) for row in rows]
    peaks = [int(row.split()[-2]) for row in rows]
    assert len(rows) == ranks and all(0 < g <= p for g, p in zip(growth, peaks, strict=True))
    egr = forests["egr"]
    assert re.search(rf"^forest_edges +{egr.num_edges}$", done.stdout, re.MULTILINE), \
        done.stdout
    if parallel:
        expected = tmp_path / "expected"
        expected.mkdir()
        assert out.read_bytes() == _expected_file(expected, name, egr)
    else:
        assert parmst.Graph.read(out).weight.tolist() == egr.weight.tolist()
