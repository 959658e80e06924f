"""What a fresh process loads on the small-graph route: no Numba, no scipy.linalg, no tqdm,
no pandas (import time and the first call; the times themselves are in
``docs/benchmarks.md``, "Startup")."""

import json
import subprocess
import sys

from interop.backend_env import networkx_backend_env

HEAVY = ("numba", "scipy.linalg", "tqdm", "pandas")

_SMALL_SOLVE = """
import json, sys
import numpy as np
import parmst
loaded = {"import parmst": [m for m in HEAVY if m in sys.modules]}
rng = np.random.default_rng(3)
g = parmst.Graph.from_edges(rng.integers(0, 300, 1000), rng.integers(0, 300, 1000),
                            rng.random(1000))
forest = parmst.minimum_spanning_forest(g)
forest.total_weight, forest.src, forest.num_components
loaded["minimum_spanning_forest"] = [m for m in HEAVY if m in sys.modules]
print(json.dumps({"solver": forest.solver, "loaded": loaded,
                  "masked arrays": "numpy.ma" in sys.modules}))
"""


def _run(code, env=None):
    done = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{code}"],
                          capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_and_a_small_solve_load_no_numba():
    result = _run(_SMALL_SOLVE)
    assert result["solver"] == "boruvka-numpy/serial"
    assert result["loaded"] == {"import parmst": [], "minimum_spanning_forest": []}
    assert not result["masked arrays"]  # numpy.ma alone costs a first call ~18 ms


def test_cli_solve_of_a_small_file_loads_no_numba(tmp_path):
    path = tmp_path / "g.txt"
    parmst_graph = f"""
import numpy as np
import parmst
rng = np.random.default_rng(3)
parmst.Graph.from_edges(rng.integers(0, 300, 1000), rng.integers(0, 300, 1000),
                        rng.random(1000)).write({str(path)!r})
"""
    subprocess.run([sys.executable, "-c", parmst_graph], check=True)
    result = _run(f"""
import contextlib, io, json, sys
from parmst.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    status = main(["solve", {str(path)!r}, "--json"])
report = json.loads(out.getvalue())
print(json.dumps({{"status": status, "solver": report["solver"],
                  "loaded": [m for m in HEAVY if m in sys.modules]}}))
""")
    assert result == {"status": 0, "solver": "boruvka-numpy/serial", "loaded": []}


def test_first_scipy_drop_in_call_loads_no_numba():
    result = _run("""
import json, sys
import numpy as np
import scipy.sparse as sp
from parmst.scipy import minimum_spanning_tree
from scipy.sparse.csgraph import minimum_spanning_tree as scipys
rng = np.random.default_rng(3)
a = sp.coo_array((rng.random(1000), (rng.integers(0, 300, 1000), rng.integers(0, 300, 1000))),
                 shape=(300, 300)).tocsr()
ours, theirs = minimum_spanning_tree(a), scipys(a)
same = bool((ours != theirs).nnz == 0)
print(json.dumps({"same": same, "loaded": [m for m in ("numba", "tqdm", "pandas")
                                            if m in sys.modules]}))
""")
    assert result == {"same": True, "loaded": []}


def test_first_networkx_backend_call_loads_no_numba(tmp_path):
    result = _run("""
import json, sys
import networkx as nx
import numpy as np
rng = np.random.default_rng(3)
G = nx.Graph()
G.add_weighted_edges_from(zip(rng.integers(0, 300, 1000).tolist(),
                              rng.integers(0, 300, 1000).tolist(), rng.random(1000).tolist()))
ours = nx.minimum_spanning_tree(G, backend="parmst")
loaded = [m for m in HEAVY if m in sys.modules]
theirs = nx.minimum_spanning_tree(G, backend="networkx")
same = list(ours.edges(data=True)) == list(theirs.edges(data=True)) and ours._adj == theirs._adj
print(json.dumps({"same": same, "loaded": loaded}))
""", env=networkx_backend_env(tmp_path))
    assert result == {"same": True, "loaded": []}
