"""Run under mpiexec by test_distributed.py: ``parmst.verify`` on distributed graphs.

Every rank builds each graph, spreads it with ``DistributedGraph.from_graph``
(block and cyclic ownership) and verifies, collectively:

- correct forests, given two ways: rank 0 holding the whole forest and the
  other ranks their share (as after an mpi solve's default gather), and
  every rank holding only its share (as with ``gather=False``), both as a
  Forest and as edge ids; and the forest of an mpi solve itself;
- planted faults (:mod:`faults`: a missing edge, a cycle, a heavier edge
  swapped in, a wrong weight, an id listed twice, an id that does not
  exist) and a forest of another graph with as many vertices and edges,
  given the same two ways.

Rank 0 gathers every rank's result text and compares each result with the
one-process verifier on the whole claim. Last, ``parmst solve --verify``
runs twice through the CLI's entry: as shipped, and with the solve made to
drop a forest edge, which every rank must report with status 1 (rank 0
printing the failure once). Rank 0 prints one JSON line with the counts and
any problems.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for faults and cases

import parmst
from conformance.cases import CASES, GENERATOR_SPECS
from faults import FAULTS, kruskal, plant
from parmst._mpi.channel import Channel
from parmst.cli import main as cli
from parmst.distributed import DistributedGraph
from parmst.forest import Forest

FAULT_GRAPHS = ("two-components", "multi-edges-equal-weights", "self-loops-lightest",
                "int64-weights", "ties-decide-everywhere", "gen-road", "gen-seed000-sparse")
OTHER_GRAPH = {"gen-seed000-sparse": "seed000-sparse:n=80,m=120,seed=70",
               "gen-road": "road:side=6,seed=60,weights=float"}


def _graphs():
    for name, build in CASES.items():
        yield name, build()
    for name, spec in GENERATOR_SPECS.items():
        yield name, parmst.generate(spec)


def _share(claim, num_edges: int, channel: Channel):
    """This rank's share of a claim (ids or a Forest): the ids in its range of ``0..m-1``
    (ids outside every range go to the nearest), in the claim's order."""
    ids = np.asarray(claim.edge_ids if isinstance(claim, Forest) else claim, dtype=np.int64)
    p = channel.size
    rank = np.clip(ids * p // max(num_edges, 1), 0, p - 1) if len(ids) else ids
    mine = rank == channel.rank
    if not isinstance(claim, Forest):
        return ids[mine]
    return dataclasses.replace(claim, edge_ids=ids[mine], src=claim.src[mine],
                               dst=claim.dst[mine], weight=claim.weight[mine])


def _ways(claim, num_edges: int, channel: Channel):
    """The claim as the ranks hold it after the default gather, and with gather=False."""
    share = _share(claim, num_edges, channel)
    return {"whole-on-0": claim if channel.rank == 0 else share, "shares": share}


def _compare(got, oracle) -> list[str]:
    """What differs between a distributed result and the one-process verifier's (which
    lists every failure)."""
    problems = []
    if got.ok != oracle.ok or got.failed_checks != oracle.failed_checks:
        problems.append(f"checks {got.failed_checks} instead of {oracle.failed_checks}")
    for field in ("num_forest_edges", "num_trees", "num_graph_components"):
        if getattr(got, field) != getattr(oracle, field):
            problems.append(f"{field} {getattr(got, field)} instead of {getattr(oracle, field)}")
    for check in got.failed_checks:
        listed = [f for f in got.failures if f.check == check]
        expected = [f for f in oracle.failures if f.check == check]
        if check == "spanning":  # other witnesses may follow, but the first is the same
            listed = listed[:1]
            expected = expected[:1]
        if not listed or any(f not in expected for f in listed):
            problems.append(f"[{check}] listed {[f.message for f in listed]}")
        if check != "fields" and got.count(check) != oracle.count(check):
            problems.append(f"[{check}] {got.count(check)} failures, not {oracle.count(check)}")
    return problems


def _cli_verify(channel: Channel, drop_an_edge: bool) -> tuple[int, str, str]:
    """``parmst solve --verify`` on this rank: its status and what it printed."""
    solve = parmst.minimum_spanning_forest

    def without_first_edge(*args, **options):
        forest = solve(*args, **options)
        return dataclasses.replace(forest, edge_ids=forest.edge_ids[1:], src=forest.src[1:],
                                   dst=forest.dst[1:], weight=forest.weight[1:])

    out, err = io.StringIO(), io.StringIO()
    if drop_an_edge:
        parmst.minimum_spanning_forest = without_first_edge
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli(["solve", "--generate", "grid2d:side=8,seed=1", "--solver",
                          "filter-boruvka/mpi", "--verify"])
    finally:
        parmst.minimum_spanning_forest = solve
    return status, out.getvalue(), err.getvalue()


def _cli_problems(channel: Channel) -> list[str]:
    """What is wrong with the CLI's ``--verify`` under mpiexec (rank 0; empty elsewhere)."""
    good = channel.gather_object(_cli_verify(channel, drop_an_edge=False))
    bad = channel.gather_object(_cli_verify(channel, drop_an_edge=True))
    if channel.rank != 0:
        return []
    problems = []
    if [s for s, _, _ in good] != [0] * channel.size or "verified        True" not in good[0][1]:
        problems.append(f"cli: a correct forest gave {good}")
    # Only rank 0 prints, only the failure. Each rank's forest loses its first edge, but
    # rank 0's whole forest lists the others' again: the forest lacks edge 0 only.
    if ([s for s, _, _ in bad] != [1] * channel.size or any(o for _, o, _ in bad)
            or any(e for _, _, e in bad[1:]) or not bad[0][2].startswith(
                "parmst: verification failed: ") or "[spanning] graph edge 0 " not in bad[0][2]):
        problems.append(f"cli: a forest without edge 0 gave {bad}")
    return problems


def main() -> None:
    channel = Channel()
    checks, failures = {"correct": 0, "faults": 0}, []

    def check(label: str, dg, claim, graph, kind: str) -> None:
        oracle = parmst.verify(graph, claim, max_listed=10**6)
        for way, part in _ways(claim, graph.num_edges, channel).items():
            result = parmst.verify(dg, part)
            texts = channel.gather_object(str(result))
            if channel.rank != 0:
                continue
            checks[kind] += 1
            problems = _compare(result, oracle)
            if kind == "faults" and result.ok:
                problems.append("a wrong forest passed")
            if any(text != texts[0] for text in texts):
                problems.append("the ranks' results differ")
            if problems:
                failures.append(f"{label} {way}: {'; '.join(problems)}")

    for number, (name, graph) in enumerate(_graphs()):
        reference = kruskal(graph)
        for ownership in ("block", "cyclic"):
            dg = DistributedGraph.from_graph(graph, channel, ownership=ownership)
            label = f"{name} {ownership}"
            check(f"{label} forest", dg, reference, graph, "correct")
            check(f"{label} ids", dg, reference.edge_ids, graph, "correct")
            if not graph.has_nan:
                solved = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")
                result = parmst.verify(dg, solved)
                texts = channel.gather_object(str(result))
                if channel.rank == 0:
                    checks["correct"] += 1
                    if not result.ok or any(text != texts[0] for text in texts):
                        failures.append(f"{label} solved: {texts}")
            if name not in FAULT_GRAPHS:
                continue
            for fault in FAULTS:
                planted, claim = plant(fault, graph, random.Random(number))
                pdg = dg if planted is graph else DistributedGraph.from_graph(
                    planted, channel, ownership=ownership)
                check(f"{label} {fault}", pdg, claim, planted, "faults")
            if name in OTHER_GRAPH:
                other = kruskal(parmst.generate(OTHER_GRAPH[name]))
                check(f"{label} other-graph", dg, other, graph, "faults")
    failures += _cli_problems(channel)
    if channel.rank == 0:
        print(json.dumps({"ranks": channel.size, "checks": checks, "failures": failures}),
              flush=True)


if __name__ == "__main__":
    main()
