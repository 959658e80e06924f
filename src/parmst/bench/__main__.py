"""``python -m parmst.bench``: the ``parmst bench`` command on its own."""

import argparse
import sys

from parmst.bench import cli


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parmst.bench")
    cli.add_arguments(parser)
    return cli.run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
