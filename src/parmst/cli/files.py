"""The files a command names: the graph it reads, the forest or edge ids it writes or reads."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from parmst._text import plural
from parmst.errors import GraphFormatError, ParmstError

IDS_SUFFIXES = (".ids", ".npy")


COLUMN_FLAGS = {"source": "--src-col", "target": "--dst-col", "weight": "--weight-col"}


def add_column_flags(parser: argparse.ArgumentParser) -> None:
    """``--src-col``, ``--dst-col``, ``--weight-col``: the columns of a CSV or Parquet table."""
    defaults = {"source": "first", "target": "second", "weight": "third"}
    for role, flag in COLUMN_FLAGS.items():
        parser.add_argument(flag, dest=f"{role}_col", metavar="NAME",
                            help=f"{role} column of a csv/parquet table (default: the column "
                                 f"named {role}, else the {defaults[role]} column)")


def column_options(args: argparse.Namespace) -> dict[str, str]:
    """The reader options set by the column flags that were given."""
    return {role: getattr(args, f"{role}_col") for role in COLUMN_FLAGS
            if getattr(args, f"{role}_col", None) is not None}


def read_graph(path: str, format: str | None, relabel: str | None, keep_nan: bool = False,
               columns: dict[str, str] | None = None):
    """The graph in ``path`` and its vertex names (the file's ids with ``relabel``, the names
    of a csv/parquet table; else None).

    ``keep_nan`` (``--ignore-nan``) has the reader keep NaN-weight rows, for the solve to
    leave out, where the format can hold NaN (binary formats read them regardless).
    ``columns`` (:func:`column_options`) name a table's columns.
    """
    if relabel is None and not keep_nan:
        from parmst._small_text import read_small_edge_list

        graph = read_small_edge_list(path, format)  # NumPy alone: no Numba for a small file
        if graph is not None:
            return graph, None
    from parmst import io

    fmt = io.detect_format(path, format)
    options = dict(columns or {})
    if options and "source" not in fmt.read_options:
        flags = ", ".join(COLUMN_FLAGS[role] for role in options)
        tables = " and ".join(f.name for f in io.FORMATS.values() if "source" in f.read_options)
        raise ParmstError(f"{flags} name{'s' if len(options) == 1 else ''} the columns of "
                          f"{tables} files, not of {fmt.name} files")
    if keep_nan and "allow_nan" in fmt.read_options:
        options["allow_nan"] = True
    if relabel is None:
        graph = io.read(path, format=format, **options)
        return graph, graph.labels
    return io.read_with_labels(path, format=format, relabel=relabel, **options)


def check_input(args: argparse.Namespace, what: str = "a graph FILE") -> None:
    """Fail before any work unless exactly one of ``FILE`` and ``--generate SPEC`` is given
    (``what`` names the kind of file in the message)."""
    if args.generate and args.file:
        raise ParmstError(f"give {what} or --generate SPEC, not both "
                          f"({args.file!r} and --generate {args.generate!r})")
    if not args.generate and not args.file:
        raise ParmstError(f"give {what} or --generate SPEC")


def load_graph(args: argparse.Namespace, device: int | None = None):
    """The graph of ``FILE`` or ``--generate SPEC`` and, with ``--relabel``, its file's ids.

    With ``device``, a spec of a family that GPUs generate is built in that GPU's memory.
    """
    check_input(args)
    if args.generate:
        from parmst.generators import describe, generate
        from parmst.generators.device import DEVICE_FAMILIES
        from parmst.generators.device import generate as generate_on_device

        if args.relabel is not None:
            raise ParmstError("--relabel applies to graph files, not to --generate")
        if device is not None and describe(args.generate)["family"] in DEVICE_FAMILIES:
            return generate_on_device(args.generate, device), None
        return generate(args.generate), None
    return read_graph(args.file, args.format, args.relabel,
                      keep_nan=getattr(args, "ignore_nan", False), columns=column_options(args))


def check_writable(out: Path, flag: str) -> None:
    """Fail before any work if ``out`` (the value of ``flag``) cannot be written: a folder,
    a missing or read-only parent folder, or a read-only file."""
    parent = out.parent if str(out.parent) else Path(".")
    if out.is_dir():
        raise ParmstError(f"{flag} {out}: is a directory; name a file to write")
    if not parent.is_dir():
        raise ParmstError(f"{flag} {out}: the folder {parent} does not exist")
    if not os.access(out if out.exists() else parent, os.W_OK):
        raise ParmstError(f"{flag} {out}: permission denied (cannot write there)")


def check_output(out: Path, format: str | None, labels: np.ndarray | None) -> None:
    """Fail before solving if the forest cannot be written in the format of ``out``
    (:func:`check_writable` checks the place)."""
    from parmst import io

    if out.suffix in IDS_SUFFIXES:
        return
    problem = io.names_problem(io.detect_format(out, format), labels)
    if problem is not None:
        raise ParmstError(f"{out}: the forest is written under the input's vertex names or ids; "
                          f"{problem} ({', '.join(IDS_SUFFIXES)} for edge ids)")


def write_output(forest, args: argparse.Namespace) -> None:
    """Write ``--output``: edge ids for ``.ids``/``.npy``, else the forest's edges as a graph
    (under the input's vertex names: a table's names, or the file's own ids when it was read
    with ``--relabel``)."""
    if not args.output:
        return
    out = Path(args.output)
    if out.suffix in IDS_SUFFIXES:
        write_ids(out, forest.edge_ids)
        what = f"{plural(forest.num_edges, 'forest edge id')}"
    else:
        forest.write(out, format=args.output_format)
        what = f"{plural(forest.num_edges, 'forest edge')}"
    say_wrote(out, what)


def say_wrote(path: str | Path, what: str) -> None:
    """The one line each writing command ends with, on stderr (stdout may carry a report)."""
    print(f"parmst: wrote {path}: {what}", file=sys.stderr)


def write_ids(path: Path, ids: np.ndarray) -> None:
    """Write forest edge ids (or vertex labels): ``.npy`` as a NumPy array, else one per line
    (vertex names as text)."""
    if path.suffix == ".npy":
        np.save(path, ids, allow_pickle=False)
    elif ids.dtype.kind not in "iu":
        path.write_text("".join(f"{name}\n" for name in ids.tolist()), encoding="utf-8")
    else:
        from parmst.distributed.output import id_lines

        path.write_bytes(id_lines(ids))


def read_edge_ids(path: Path) -> np.ndarray:
    """Read forest edge ids written by :func:`write_ids` (one integer per line)."""
    if not path.exists():
        raise GraphFormatError(str(path), "no such file")
    if path.is_dir():
        raise GraphFormatError(str(path), "is a directory, not an edge-id file")
    if path.suffix == ".npy":
        try:  # a memory map: a damaged header cannot make NumPy allocate what it claims
            return np.array(np.load(path, mmap_mode="r", allow_pickle=False))
        except (ValueError, OSError, EOFError) as exc:
            raise GraphFormatError(str(path),
                                   f"not a NumPy .npy array of edge ids ({exc})") from None
    ids = []
    text = path.read_bytes().decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        token = line.strip()
        if not token or token.startswith("#"):
            continue
        try:
            value = int(token)
        except ValueError:
            value = None
        if value is None or not -(2**63) <= value < 2**63:
            raise GraphFormatError(str(path), f"expected an edge id (int64), found {token[:40]!r}",
                                   line=number)
        ids.append(value)
    return np.array(ids, dtype=np.int64)
