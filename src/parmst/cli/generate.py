"""``parmst generate``: write a generated graph to a file, or list the families."""

from __future__ import annotations

import argparse
from pathlib import Path

from parmst._text import plural
from parmst.cli.files import check_writable, say_wrote
from parmst.errors import ParmstError


def cmd_generate(args: argparse.Namespace) -> int:
    from parmst import generators

    if args.list:
        for name, family in generators.FAMILIES.items():
            print(f"{name:<16} {family.description}")
        return 0
    if not args.spec or not args.output:
        raise ParmstError("usage: parmst generate SPEC -o FILE (or --list)")
    check_writable(Path(args.output), "--output")
    graph = generators.generate(args.spec)
    graph.write(args.output, format=args.format)
    say_wrote(args.output, f"{plural(graph.num_vertices, 'vertex', 'vertices')}, "
                           f"{plural(graph.num_edges, 'edge')}")
    return 0
