"""SNAP edge lists: ``#`` comment lines, then ``u v`` or ``u v w`` separated by tabs or spaces.

SNAP (snap.stanford.edu/data) ids are 0-based but often sparse. Reading
keeps the ids as given by default (``num_vertices = max id + 1``);
``relabel=True`` (or ``"sorted"``) maps them onto ``0..n-1`` in increasing
order, ``relabel="first"`` in order of first appearance, and
:func:`read` returns the original ids as ``labels``. Undirected SNAP graphs
usually list each edge in both directions; ``symmetric="dedupe"`` keeps one
edge per mirrored pair. Every other rule (weights, metadata comment, empty
file) is that of :mod:`parmst.formats.edgelist`, whose reader this is with
``#`` as the only comment marker.

Writing produces SNAP's comment header (with the vertex and edge counts and
the column names), parmst's metadata comment and tab-separated rows.

Example
-------
>>> import os, tempfile
>>> from parmst import Graph
>>> path = os.path.join(tempfile.mkdtemp(), "g.snap")
>>> write(Graph.from_edges([0, 2], [1, 1], [4, 5]), path)
>>> open(path).read().splitlines()[1:3]
['# Nodes: 3 Edges: 2', '# FromNodeId\\tToNodeId\\tWeight']
>>> read(path).weight.tolist()
[4, 5]
"""

from __future__ import annotations

import os

import numpy as np

from parmst._host_edges import EdgeArrays
from parmst.formats import edgelist
from parmst.formats._common import EdgeList, metadata_comment
from parmst.formats._ranges import Part


def read(path: str | os.PathLike, **options) -> EdgeArrays:
    """Read a SNAP edge list (options: those of :func:`parmst.formats.edgelist.read`).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.snap")
    >>> _ = open(path, "w").write("# Nodes: 2 Edges: 1\\n10\\t30\\n")
    >>> edges = read(path, relabel=True)
    >>> edges.num_vertices, edges.labels.tolist()
    (2, [10, 30])
    >>> _ = open(path, "w").write("# FromNodeId\\tToNodeId\\n0\\t1\\n1\\t0\\n")
    >>> read(path, symmetric="dedupe").num_edges
    1
    """
    return edgelist.read(path, comments="#", **options)


def read_range(path: str | os.PathLike, rank: int, size: int, **options) -> Part:
    """Read part ``rank`` of ``size`` of a SNAP file (see :func:`parmst.formats.edgelist.read_range`).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.snap")
    >>> _ = open(path, "w").write("# Nodes: 3 Edges: 2\\n0\\t1\\n1\\t2\\n")
    >>> [read_range(path, r, 2).dst.tolist() for r in range(2)]
    [[1], [2]]
    """
    return edgelist.read_range(path, rank, size, comments="#", **options)


def write(graph: EdgeList, path: str | os.PathLike, *, metadata: bool = True,
          labels: np.ndarray | None = None, progress: bool | None = None) -> None:
    """Write ``graph`` as a SNAP edge list (tab-separated ``u v w``).

    ``labels`` writes vertex ``v`` as ``labels[v]`` (see
    :func:`parmst.formats.edgelist.write`).

    Examples
    --------
    >>> import os, tempfile
    >>> from parmst import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.snap")
    >>> write(Graph.from_edges([0], [1], [2]), path, metadata=False)
    >>> open(path).read().splitlines()[-1]
    '0\\t1\\t2'
    """
    head = (f"# Undirected graph: {os.path.basename(os.fspath(path))}\n"
            f"# Nodes: {graph.num_vertices} Edges: {graph.num_edges}\n"
            "# FromNodeId\tToNodeId\tWeight\n")
    if metadata:
        named = labels is not None or graph.labels is not None
        head += metadata_comment("#", graph, with_vertices=not named)
    edgelist.write_lines(graph, path, head, separator="\t", labels=labels, progress=progress)
