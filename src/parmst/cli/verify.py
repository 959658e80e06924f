"""``parmst verify``: check a forest's edge-id file against its graph, independently."""

from __future__ import annotations

import argparse
from pathlib import Path

from parmst.cli.files import column_options, read_edge_ids, read_graph
from parmst.errors import ParmstError


def cmd_verify(args: argparse.Namespace) -> int:
    import parmst

    graph, _ = read_graph(args.graph, args.format, args.relabel,  # edge ids do not change
                          columns=column_options(args))
    if args.max_listed < 0:
        raise ParmstError(f"--max-listed must be 0 or more, got {args.max_listed}")
    result = parmst.verify(graph, read_edge_ids(Path(args.forest)), max_listed=args.max_listed)
    print(str(result))
    return 0 if result else 1
