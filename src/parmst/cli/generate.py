"""``parmst generate``: write a generated graph to a file, or list the families."""

from __future__ import annotations

import argparse

from parmst.errors import ParmstError


def cmd_generate(args: argparse.Namespace) -> int:
    from parmst import generators

    if args.list:
        for name, family in generators.FAMILIES.items():
            print(f"{name:<16} {family.description}")
        return 0
    if not args.spec or not args.output:
        raise ParmstError("usage: parmst generate SPEC -o FILE (or --list)")
    graph = generators.generate(args.spec)
    graph.write(args.output, format=args.format)
    print(f"wrote {args.output}: {graph.num_vertices} vertices, {graph.num_edges} edges")
    return 0
