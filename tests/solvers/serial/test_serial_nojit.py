"""The serial kernels run as plain Python under NUMBA_DISABLE_JIT=1 (kernels must stay correct without JIT)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

import parmst

SERIAL = ["kruskal/serial", "filter-kruskal/serial", "prim/serial", "prim-dense/serial",
          "boruvka/serial"]
EDGES = ([0, 1, 2, 3, 0, 4, 4, 1, 5], [1, 2, 0, 0, 2, 4, 5, 3, 4],
         [2.0, 1.0, 2.0, 1.0, 1.0, -3.0, 0.5, 1.0, 0.5])
SCRIPT = """
import json, sys
import numpy as np
import parmst
src, dst, weight, solvers = json.loads(sys.argv[1])
for dtype in ("int64", "float32"):
    g = parmst.Graph.from_edges(src, dst, np.array(weight).astype(dtype), num_vertices=8)
    options = {"filter-kruskal/serial": {"base_case": 2}}
    print(json.dumps({s: parmst.minimum_spanning_forest(g, solver=s, **options.get(s, {}))
                      .edge_ids.tolist() for s in solvers}))
"""


def test_serial_solvers_run_without_jit():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    argument = json.dumps([*EDGES, SERIAL])
    done = subprocess.run([sys.executable, "-c", SCRIPT, argument], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == 2
    for dtype, by_solver in zip(("int64", "float32"), results):
        weight = np.array(EDGES[2]).astype(dtype)
        graph = parmst.Graph.from_edges(EDGES[0], EDGES[1], weight, num_vertices=8)
        expected = parmst.minimum_spanning_forest(graph, solver="kruskal/serial").edge_ids
        for solver in SERIAL:
            assert by_solver[solver] == expected.tolist(), (dtype, solver)
