"""The NetworkX backend's whole uncached call against the floor, interleaved in one process.

For each named graph of the front-doors suites, the floor (iterating
``G.edges(data=True)`` and reading each weight, the bench's
``networkx-edges-floor``), ``list(nx.minimum_spanning_edges(G, backend="parmst"))``
and ``nx.minimum_spanning_tree(G, backend="parmst")`` (NetworkX's conversion
cache off, as the bench's ``-uncached`` and ``-tree`` peers) run round after
round, one after another, so that a shared machine's load falls on all
alike; the bench instead times each peer's runs together. The result objects
are also timed alone from a ready forest (the tree graph, and the edge tuples,
each with the collection it sets off), to tell what any implementation must
build from what the backend adds. Times are the process's CPU time, median
over the rounds; one JSON line per graph.

Compare two checkouts by pointing ``PYTHONPATH`` at each in turn::

    PYTHONPATH=src python benchmarks/networkx_floor.py road-100k grid2d-100k --rounds 11
    PYTHONPATH=/path/to/old/src python benchmarks/networkx_floor.py road-100k --no-parts

``--no-parts`` skips the result-alone timings (they use this checkout's
internals).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import time

import networkx as nx

from parmst.bench.peers import _networkx_edges_floor, _networkx_graph, _networkx_parmst_solve
from parmst.bench.suites import get_suite
from parmst.generators import generate


def _graph_spec(name: str) -> str:
    for suite in ("front-doors-small", "front-doors"):
        for graph in get_suite(suite).graphs:
            if graph.name == name:
                return graph.spec
    raise SystemExit(f"{name} is in neither front-doors suite")


def _parts(G) -> dict:
    """The result objects alone, built from a ready forest, each with its collection."""
    from parmst.interop._nx_algorithms import solve
    from parmst.interop._nx_results import _fill_graph, _tuples
    from parmst.interop._nx_snapshot import NxSnapshot, gc_paused

    snap = NxSnapshot(G)
    halves, _ = solve(snap, "kruskal", True, "weight", False)

    def tree_alone():
        T = nx.Graph()
        with gc_paused():
            _fill_graph(T, snap, halves)
        gc.collect(0)
        return T

    def tuples_alone():
        edges = _tuples(snap, halves, True, True)
        gc.collect(0)
        return edges

    return {"tree_result": tree_alone, "edges_result": tuples_alone}


def measure(name: str, rounds: int, parts: bool) -> dict:
    g = generate(_graph_spec(name))
    G = _networkx_graph(g.src, g.dst, g.weight, g.num_vertices)
    calls = {"floor": lambda: _networkx_edges_floor(G),
             "edges": lambda: _networkx_parmst_solve(G, cached=False, tree=False),
             "tree": lambda: _networkx_parmst_solve(G, cached=False, tree=True)}
    if parts:
        calls.update(_parts(G))
    for call in calls.values():  # warm-up: Numba's compilation, first allocations
        call()
    times = {key: [] for key in calls}
    for _ in range(rounds):
        for key, call in calls.items():
            start = time.process_time()
            result = call()
            times[key].append(time.process_time() - start)
            del result
    ms = {key: statistics.median(values) * 1e3 for key, values in times.items()}
    return {"graph": name, "edges": G.number_of_edges(), "ms": ms,
            "over_floor": {key: value / ms["floor"] for key, value in ms.items()},
            "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphs", nargs="+", help="graph names, e.g. road-100k delaunay-1M")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--no-parts", action="store_true",
                        help="skip the result-alone timings (for an older checkout)")
    args = parser.parse_args()
    for name in args.graphs:
        print(json.dumps(measure(name, args.rounds, not args.no_parts)), flush=True)


if __name__ == "__main__":
    main()
