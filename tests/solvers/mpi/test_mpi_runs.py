"""The mpi backend under a real mpiexec: conformance on 1-4 ranks, the CLI, bad input, faults.

Each test starts one mpiexec (through parmst.solvers.mpi.launch, which adds
``--allow-run-as-root`` and ``--oversubscribe`` for Open MPI) and checks
what the ranks printed, never only the exit status: Open MPI refusing to run
as root may still exit 0. Every run has a timeout, so a hang fails the test.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import parmst
from mpi_launch import run_ranks
from parmst import registry

pytestmark = pytest.mark.mpi

HERE = Path(__file__).resolve().parent
MPI_SOLVERS = [name for name, s in registry.solvers().items() if s.backend == "mpi"]
TIMEOUT = 600


def _launcher():
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip("mpi4py is not installed (pip install 'parmst[mpi]')")
    from parmst.errors import SolverUnavailable
    from parmst.solvers.mpi import launch

    try:
        launch.find_mpiexec()
    except SolverUnavailable as exc:
        pytest.skip(str(exc))
    return launch


def test_launcher_command_has_the_flags_open_mpi_needs():
    launch = _launcher()
    command = launch.mpiexec_command(4, ["-c", "pass"])
    assert command[1:3] == ["-n", "4"] and command[-3:] == [sys.executable, "-c", "pass"]
    if launch.is_open_mpi(command[0]):
        assert "--oversubscribe" in command
        assert ("--allow-run-as-root" in command) == (os.geteuid() == 0)


@pytest.mark.parametrize("ranks", [1, 2, 3, 4])
def test_whole_catalogue_on_ranks(ranks):
    """One launch per rank count runs every case, solver and ownership (see the worker)."""
    done = run_ranks(ranks, [str(HERE / "conformance_worker.py")])
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, done.stdout + done.stderr
    result = json.loads(lines[0])
    assert result["ranks"] == ranks
    assert result["solvers"] == MPI_SOLVERS and len(MPI_SOLVERS) >= 2
    assert result["variants"] == len(MPI_SOLVERS) + 8  # filter-boruvka's other rounds, filters
    assert result["checks"] == result["cases"] * result["variants"] * 2
    assert result["cases"] >= 30
    assert result["failures"] == []
    assert done.returncode == 0


@pytest.fixture(scope="module")
def road_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("mpi") / "road.gr"
    graph = parmst.generate("road:side=30,seed=4")
    graph.write(path)
    return path, parmst.minimum_spanning_forest(graph, solver="kruskal/serial")


@pytest.mark.parametrize("solver", MPI_SOLVERS)
def test_cli_on_three_ranks_prints_one_summary_and_writes_the_forest_once(road_file, tmp_path,
                                                                          solver):
    path, reference = road_file
    out = tmp_path / "forest.ids"
    done = run_ranks(3, ["-m", "parmst", "solve", str(path), "--solver", solver, "--stats",
                    "-o", str(out)])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.startswith("solver ") for line in lines) == 1
    assert "forest_edges" in done.stdout and f"{reference.num_edges}" in done.stdout
    per_rank = lines[lines.index("per rank:") + 2:]
    assert [row.split()[0] for row in per_rank] == ["0", "1", "2"]
    ids = np.array(out.read_text().split(), dtype=np.int64)
    assert ids.tolist() == reference.edge_ids.tolist()


def test_malformed_line_ends_every_rank_with_one_message(tmp_path):
    lines = [f"{i} {i + 1} {i % 7}" for i in range(400)]
    lines[371] = "371 372 seven"
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    done = run_ranks(4, ["-m", "parmst", "solve", str(path), "--solver", "filter-boruvka/mpi"],
                timeout=300)
    errors = [line for line in done.stderr.splitlines() if line.startswith("parmst:")]
    expected = (f"parmst: error: {path}, line 372: expected a number for the weight 'w', "
                "found 'seven'")
    assert errors == [expected], done.stderr
    assert done.returncode == 2
    assert "forest_edges" not in done.stdout


def test_unknown_option_is_one_message_from_every_rank(road_file):
    path, _ = road_file
    done = run_ranks(2, ["-m", "parmst", "solve", str(path), "--solver", "boruvka-allreduce/mpi",
                    "--option", "colour=red"], timeout=300)
    errors = [line for line in done.stderr.splitlines() if line.startswith("parmst:")]
    assert len(errors) == 1 and "unknown option(s) colour" in errors[0], done.stderr
    assert done.returncode == 2


PLANTED = """
import sys
from mpi4py import MPI
import parmst.solvers.mpi.{module} as b
real = b.{function}
def planted(*args, **kwargs):
    if MPI.COMM_WORLD.rank == 1:
        {action}
    return real(*args, **kwargs)
b.{function} = planted
from parmst.cli import main
sys.exit(main(["solve", sys.argv[1], "--solver", "filter-boruvka/mpi"]))
"""


def test_planted_failure_on_one_rank_aborts_the_job_naming_the_rank(road_file):
    path, _ = road_file
    code = PLANTED.format(module="contract", function="_local_forest",
                          action='raise RuntimeError("planted failure")')
    done = run_ranks(3, ["-c", code, str(path)], timeout=300)
    assert done.returncode != 0
    assert "parmst: error on rank 1 of 3: RuntimeError: planted failure" in done.stderr
    assert "forest_edges" not in done.stdout


def test_rank_that_dies_mid_run_ends_the_job(road_file):
    path, _ = road_file
    code = PLANTED.format(module="filter_boruvka", function="allreduce_rounds", action="import os; os._exit(7)")
    done = run_ranks(3, ["-c", code, str(path)], timeout=300)
    assert done.returncode != 0
    assert "forest_edges" not in done.stdout


def test_without_mpiexec_the_cli_runs_as_one_rank(road_file):
    import subprocess

    path, reference = road_file
    _launcher()
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-m", "parmst", "solve", str(path), "--solver",
                           "boruvka-allreduce/mpi", "--json"], capture_output=True, text=True,
                          timeout=TIMEOUT, env=env, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ranks"] == 1 and report["forest_edges"] == reference.num_edges
    assert report["total_weight"] == reference.total_weight


CHANNEL_EXTREMES = """
import numpy as np
from parmst._mpi.channel import Channel
ch = Channel()
top = np.iinfo(np.uint64).max
mine = np.array([top, 2**63 + ch.rank, 17 + ch.rank, 2**63 - 1 - ch.rank], dtype=np.uint64)
low = ch.allreduce(mine.copy(), "min").tolist()
high = ch.allreduce(mine.copy(), "max").tolist()
if ch.rank == 0:
    print("min", low, "max", high)
"""


def test_unsigned_minima_are_exact_across_the_sign_bit():
    """Open MPI 4.1 compared uint64 as signed through mpi4py; the channel must not."""
    done = run_ranks(2, ["-c", CHANNEL_EXTREMES], timeout=300)
    top = 2**64 - 1
    assert f"min [{top}, {2**63}, 17, {2**63 - 2}] max [{top}, {2**63 + 1}, 18, {2**63 - 1}]" \
        in done.stdout, done.stdout + done.stderr


OWNER_ROUNDS_TO_THE_END = """
import sys
import parmst
from parmst.distributed import DistributedGraph
from parmst.solvers.mpi import owners
owners.FINISH_EDGES = 0  # every round distributed, none finished on rank 0
graph = parmst.generate(sys.argv[1])
reference = parmst.minimum_spanning_forest(graph, "kruskal/serial").edge_ids.tolist()
forest = parmst.minimum_spanning_forest(DistributedGraph.from_graph(graph),
                                        "filter-boruvka/mpi", rounds="owners")
timed = [name for name in ("held-labels", "filter-choice", "local-ids", "relabel-fetch",
                            "relabel", "rounds-sync") if name in forest.stats.phases]
if forest.stats.extra["rank"] == 0:
    # Each rank's rounds, as the bench's per-rank rows carry them: a round starts with the
    # edges and local ids the one before left.
    rounds = [row["owner_rounds"] for row in forest.stats.extra["ranks"]]
    chained = all(len(r) == len(rounds[0]) > 1 and all(
        a["edges_out"] == b["edges_in"] <= a["edges_in"] and a["groups"] == b["ids_in"]
        for a, b in zip(r, r[1:])) for r in rounds)
    print("exact", forest.edge_ids.tolist() == reference, "rounds", forest.stats.rounds,
          "timed", ",".join(timed), "chained", chained)
"""


def test_owner_rounds_when_components_finish_while_others_go_on():
    """RMAT scale 14 has components that finish in early rounds while the rest goes on.

    A rank whose edges of such a component had all become loops once asked for the
    finished component's label (it has none), which wrote out of bounds on the device;
    now a finished component gets no local id, and every local id asks. The steps between
    the named phases are timed too (the rounds' waits in ``rounds-sync``).
    """
    done = run_ranks(2, ["-c", OWNER_ROUNDS_TO_THE_END, "rmat:scale=14,seed=1"], timeout=300)
    assert "exact True" in done.stdout, done.stdout + done.stderr
    assert "timed held-labels,filter-choice,local-ids,relabel-fetch,relabel,rounds-sync" \
        in done.stdout, done.stdout
    assert "chained True" in done.stdout, done.stdout


SHARES = """
import sys
import numpy as np
import parmst
from parmst.distributed import DistributedGraph
graph = parmst.generate(sys.argv[1])
reference = parmst.minimum_spanning_forest(graph, "kruskal/serial")
forest = parmst.minimum_spanning_forest(DistributedGraph.from_graph(graph), "filter-boruvka/mpi",
                                        local_filter=sys.argv[2])
from mpi4py import MPI
comm = MPI.COMM_WORLD
m, p, r = graph.num_edges, comm.size, comm.rank
ids = forest.edge_ids
share_ok = bool(np.all((ids >= r * m // p) & (ids < (r + 1) * m // p)) and np.all(np.diff(ids) > 0)
                and np.array_equal(forest.src, graph.src[ids]) and np.array_equal(forest.dst, graph.dst[ids])
                and np.array_equal(forest.weight, graph.weight[ids]))
shares = comm.gather(ids if r else None, root=0)
oks = comm.gather(share_ok, root=0)
if r == 0:
    whole = ids.tolist() == reference.edge_ids.tolist() and bool(parmst.verify(graph, forest))
    joined = np.concatenate([np.zeros(0, dtype=np.int64)] + shares[1:])
    rest = reference.edge_ids[reference.edge_ids >= m // p]
    print("whole", whole, "shares", all(oks[1:]) and joined.tolist() == rest.tolist())
"""


@pytest.mark.parametrize("local_filter", ["on", "off"])
def test_rank_shares_are_the_forest_by_id_range(local_filter):
    """Rank 0 gets the whole forest; rank r its edges with ids in r*m//p .. (r+1)*m//p - 1,
    in id order, with their ends and weights; the shares of ranks 1..p-1 are the rest."""
    done = run_ranks(3, ["-c", SHARES, "rmat:scale=12,seed=2", local_filter], timeout=300)
    assert "whole True shares True" in done.stdout, done.stdout + done.stderr


FILTER_CHOICE = """
import sys
import parmst
from parmst.distributed import DistributedGraph
for spec in sys.argv[1:]:
    graph = parmst.generate(spec)
    forest = parmst.minimum_spanning_forest(DistributedGraph.from_graph(graph),
                                            "filter-boruvka/mpi")
    if forest.stats.extra["rank"] == 0:
        reference = parmst.minimum_spanning_forest(graph, "kruskal/serial")
        print(spec, forest.stats.extra["local_filter"],
              forest.edge_ids.tolist() == reference.edge_ids.tolist())
"""


def test_local_filter_auto_filters_only_where_ranks_hold_most_edges_whole():
    """On two ranks a grid keeps nearly every edge inside a rank (the filter runs); a uniform
    random graph keeps a third of the held edges (the rounds start from the vertices)."""
    road, sparse = "road:side=40,seed=1", "seed000-sparse:n=4000,m=6000,seed=1"
    done = run_ranks(2, ["-c", FILTER_CHOICE, road, sparse], timeout=300)
    assert f"{road} on True" in done.stdout, done.stdout + done.stderr
    assert f"{sparse} off True" in done.stdout, done.stdout + done.stderr


READ_EVERY_FORMAT = """
import json, sys
import numpy as np
import parmst
from parmst.distributed import DistributedGraph
from parmst._mpi.channel import Channel, DistributedError
channel = Channel()
found = {}
for path in sys.argv[1:]:
    try:
        dg = DistributedGraph.read(path, channel)
    except DistributedError as exc:
        found[path] = "error: " + str(exc)
        continue
    forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")
    found[path] = forest.edge_ids.tolist()
every = channel.comm.gather(found, root=0)
if channel.rank == 0:
    print(json.dumps(every))
"""


def test_every_format_is_read_in_parallel_with_global_ids(tmp_path):
    """Each rank reads only its part of .mtx, .pbbs, .egr (and the others); ids as one process."""
    graph = parmst.generate("road:side=12,seed=5")
    paths = []
    for ext in (".txt", ".snap", ".gr", ".mtx", ".pbbs", ".egr", ".npz"):
        path = tmp_path / f"g{ext}"
        graph.write(path)
        paths.append(str(path))
    broken = tmp_path / "broken.egr"
    raw = np.fromfile(paths[5], dtype="<i4")
    raw[-1] += 1
    raw.tofile(broken)
    done = run_ranks(3, ["-c", READ_EVERY_FORMAT, *paths, str(broken)], timeout=300)
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(lines) == 1, done.stdout + done.stderr
    ranks = json.loads(lines[0])
    assert len(ranks) == 3
    for path in paths:
        whole = parmst.Graph.read(path)
        expected = parmst.minimum_spanning_forest(whole, solver="kruskal/serial").edge_ids
        assert ranks[0][path] == expected.tolist(), path
    messages = {rank[str(broken)] for rank in ranks}
    assert len(messages) == 1 and "no mirror" in messages.pop()
