"""Run on every rank by test_mpi_output.py: reading bounds, ``gather=False`` shares, parallel output.

``python output_worker.py FOLDER`` under mpiexec, FOLDER holding ``g.egr``
and ``floats.npz``. Each rank reads ``g.egr`` through an in-memory copy
whose touched pages it reports (see tests/io/touched.py), solves both graphs
with ``gather=False``, writes the forests with
:func:`parmst.distributed.write_forest` and tries a format that cannot be
written in parallel. Rank 0 prints every rank's findings as one JSON line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import parmst
from parmst._mpi.channel import Channel, DistributedError
from parmst.distributed import DistributedGraph, write_forest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "io"))
import touched

folder = Path(sys.argv[1])
channel = Channel()
found = {"rank": channel.rank}

maps = []


def in_memory(path):
    maps.append(touched.memory_copy(path))
    return maps[-1]


for module in touched.MAPPED_FORMATS:
    module.file_bytes = in_memory
egr = folder / "g.egr"
dg = DistributedGraph.read(egr, channel)
share, nindex = touched.egr_windows(egr, channel.rank, channel.size)
used = touched.touched_windows(maps[0])
found["outside"] = sorted(used - share - nindex)
found["searched"] = len((used - share) & nindex)
found["input_edges"] = dg.input_edges

forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi", gather=False)
floats = DistributedGraph.from_graph(parmst.Graph.read(folder / "floats.npz"), channel)
float_forest = parmst.minimum_spanning_forest(floats, solver="filter-boruvka/mpi", gather=False)
for name, result in (("egr", forest), ("floats", float_forest)):
    found[name] = {"ids": result.edge_ids.tolist(), "total": result.total_weight,
                   "components": result.num_components,
                   "gathered": result.stats.extra["gathered"]}
for name in ("f.npy", "f.ids", "f.txt"):
    write_forest(channel, forest, folder / name)
write_forest(channel, float_forest, folder / "floats.txt")
try:
    write_forest(channel, forest, folder / "f.gr")
except DistributedError as exc:
    found["refused"] = str(exc)
every = channel.comm.gather(found, root=0)
if channel.rank == 0:
    print(json.dumps(every))
