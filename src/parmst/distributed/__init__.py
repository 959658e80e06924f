"""Graphs spread over MPI ranks: each rank holds only its share, never the whole edge list.

A :class:`DistributedGraph` is one rank's part of a graph whose edges are
spread over an MPI communicator. Global edge ids are positions in the whole
input, so the ``(weight, edge_id)`` order, and with it the unique minimum
spanning forest, are those of the same graph on one machine.

How it is built (collective: every rank calls the same constructor):

1. Every rank reads only its own part of the input, with the format's own
   parser: :func:`parmst.io.read_part` calls the format's ``read_range``
   (:mod:`parmst.distributed.reading`). A text file (edge list, SNAP, DIMACS
   ``.gr``, Matrix Market ``.mtx``) is cut into ``p`` byte ranges at line
   boundaries (a range starts after the first line break at or after
   ``r * size / p``), so every line belongs to exactly one rank; a PBBS file
   the same way, each rank taking the rows whose first word lies in its
   range (an exclusive prefix sum of word counts says where rows start); an
   ECL ``.egr`` file into whole CSR rows of near-equal entry counts, its
   mirror checksums summed over the ranks; a binary ``.npz`` archive into
   ``p`` equal slices of its arrays, read through the archive member without
   loading the rest. Line numbers and edge ids come from an exclusive prefix
   sum of the ranks' line and row counts. Or every rank generates only its
   share of ``parmst.generate(spec)``: :meth:`DistributedGraph.generate`
   (:mod:`parmst.distributed.generation`).
2. Vertices are owned by ranks (:class:`Ownership`): ``ownership="block"``
   gives rank ``r`` the ids ``r*b .. (r+1)*b - 1`` with ``b = ceil(n / p)``
   (the block rule of :mod:`parmst.partition`; the last ranks may own
   none), ``"cyclic"`` gives it the ids ``v`` with ``v % p == r``.
3. Edges are routed with one ``Alltoallv`` to the owner of each endpoint
   (:mod:`parmst.distributed.routing`): an edge whose ends have different
   owners (a *cut* edge) is held by both, so each rank sees every edge
   incident to its vertices.

Memory: a rank holds ``O(m/p)`` input edges while reading and ``O((m + c)/p)``
after routing (``c`` cut edges, at most ``m``), plus ``O(n/p)`` per-vertex
data. Shou and He's first MPI version gave every rank a copy of the whole graph
and ran out of memory at 8 ranks; here no rank ever holds more than its
share (the solvers' own replicated state is documented with each solver).

The forest of a solve with ``gather=False`` stays spread: each rank keeps
the forest edges of its id range, and :func:`write_forest` writes them to
one file in parallel (``.npy``, ``.ids`` or an edge list; MPI-IO at offsets
from an exclusive prefix sum of the ranks' byte counts).

Errors seen by any rank (a malformed line in one rank's range, an id out of
range) are agreed on: every rank raises the same
:class:`~parmst._mpi.channel.DistributedError` with the lowest failing
rank's message (file, line), so no rank is left waiting.

Example
-------
Run under ``mpiexec -n 4 python script.py`` (or plainly, as one rank):

>>> import parmst, parmst.distributed as pd                    # doctest: +SKIP
>>> dg = pd.DistributedGraph.read("roads.gr")                   # doctest: +SKIP
>>> forest = parmst.minimum_spanning_forest(dg, solver="filter-boruvka/mpi")  # doctest: +SKIP
"""

from parmst.distributed.graph import DistributedGraph
from parmst.distributed.output import write_forest, writes_in_parallel
from parmst.distributed.ownership import OWNERSHIPS, Ownership
from parmst.formats import read_part
from parmst.formats._ranges import byte_range

__all__ = ["OWNERSHIPS", "DistributedGraph", "Ownership", "byte_range", "read_part",
           "write_forest", "writes_in_parallel"]
