"""``parmst convert``: a graph file in another format, optionally renumbered 0..n-1."""

from __future__ import annotations

import argparse
from pathlib import Path

from parmst._text import plural
from parmst.cli.files import check_writable, column_options, read_graph, say_wrote, write_ids
from parmst.errors import ParmstError


def cmd_convert(args: argparse.Namespace) -> int:
    from parmst import io

    if args.labels and args.relabel is None:
        raise ParmstError("--labels writes the ids that --relabel replaced; give --relabel too")
    check_writable(Path(args.output), "OUTPUT")
    if args.labels:
        check_writable(Path(args.labels), "--labels")
    graph, labels = read_graph(args.input, args.from_format, args.relabel,
                               columns=column_options(args))
    if args.relabel is not None:  # the numbers 0..n-1 are asked for; the names go to --labels
        graph = graph.with_labels(None)
    io.write(graph, args.output, format=args.to_format)
    say_wrote(args.output, f"{plural(graph.num_vertices, 'vertex', 'vertices')}, "
                           f"{plural(graph.num_edges, 'edge')}")
    if args.relabel is not None and labels is not None:
        print(f"relabelled {plural(graph.num_vertices, 'vertex', 'vertices')} to "
              f"0..{graph.num_vertices - 1}"
              + (f"; their ids in {args.input} are in {args.labels}" if args.labels else ""))
        if args.labels:
            write_ids(Path(args.labels), labels)
            say_wrote(args.labels, f"{plural(len(labels), 'vertex id')} of {args.input}")
    return 0
