"""``parmst convert``: a graph file in another format, optionally renumbered 0..n-1."""

from __future__ import annotations

import argparse
from pathlib import Path

from parmst.cli.files import read_graph, write_ids
from parmst.errors import ParmstError


def cmd_convert(args: argparse.Namespace) -> int:
    from parmst import io

    if args.labels and args.relabel is None:
        raise ParmstError("--labels writes the ids that --relabel replaced; give --relabel too")
    graph, labels = read_graph(args.input, args.from_format, args.relabel)
    io.write(graph, args.output, format=args.to_format)
    if labels is not None:
        print(f"relabelled {graph.num_vertices} vertices to 0..{graph.num_vertices - 1}"
              + (f"; their ids in {args.input} are in {args.labels}" if args.labels else ""))
        if args.labels:
            write_ids(Path(args.labels), labels)
    return 0
