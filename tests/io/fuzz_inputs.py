"""Mutational fuzzing of every graph file format through the real ``parmst`` command line.

Seed files (one small graph written in every format and variant: edge list
with and without metadata or header, gzip, SNAP, DIMACS, Matrix Market,
ECL ``.egr`` with and without weights, PBBS, ``.npz``) are mutated with a
fixed-seed ``random.Random``: bytes flipped, inserted, deleted, lines
duplicated, dropped or swapped, numbers replaced by edge values (negative,
2**31, 2**63, 10^12, nan, inf), files truncated; ``.egr`` words overwritten
with edge int32 values; ``.npz`` archives rebuilt with arrays of the wrong
shape, dtype, length or count, or with a ``.npy`` header that claims more
than it holds. Each case runs ``parmst.cli.main`` in this process (``solve``
with ``--verify``, sometimes ``--relabel``, ``convert`` or the auto solver)
and is classified:

accepted
    exit status 0;
clean error
    exit status 2 and exactly one line on stderr, ``parmst: error: ...``;
crash
    anything else: an exception escaping ``main``, another exit status,
    a traceback or several lines on stderr, or a ``MemoryError`` caught by
    the command line's last resort (a size check is missing).

A hang or a signal would end the process: :func:`run_campaign` arms
:mod:`faulthandler` to dump every thread's stack and exit after
``CASE_TIMEOUT_S`` seconds per case.

``PARMST_MEMORY_LIMIT`` is pinned to :data:`MEMORY_LIMIT`, so that ids such
as 4294967296 are refused the same way on every machine instead of being
allocated on a large one.

Run many more cases than the test suite does (the counts are printed)::

    PYTHONPATH=src python tests/io/fuzz_inputs.py --cases 5000 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import io
import json
import os
import random
import sys
import tempfile
import time
import traceback
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MEMORY_LIMIT = "64M"
CASE_TIMEOUT_S = 120
INTERESTING = [b"0", b"1", b"-1", b"2", b"7", b"65536", b"2147483647", b"2147483648",
               b"-2147483649", b"4294967296", b"9007199254740993", b"9223372036854775807",
               b"9223372036854775808", b"18446744073709551616", b"999999999999",
               b"100000000000000000000000000000", b"nan", b"-inf", b"inf", b"1e308", b"1e-320",
               b"-0", b"0.5", b"0x10", b"1_000", b"", b"a", b"#", b"%", b"p", b"\x00", b"\xff",
               b"\t", b"\r", b"\n"]
INT32_VALUES = [0, 1, -1, 2, 3, 2**31 - 1, -(2**31), 2**16, 100, -7]
TEXT_SUFFIXES = (".txt", ".snap", ".gr", ".mtx", ".pbbs", ".txt.gz")


@dataclass
class Outcome:
    kind: str  # "accepted", "clean error" or "crash"
    case: str
    detail: str = ""


@dataclass
class Report:
    counts: Counter = field(default_factory=Counter)
    by_format: dict = field(default_factory=dict)
    crashes: list = field(default_factory=list)
    seeds: list = field(default_factory=list)
    seconds: float = 0.0

    def add(self, fmt: str, outcome: Outcome) -> None:
        self.counts[outcome.kind] += 1
        self.by_format.setdefault(fmt, Counter())[outcome.kind] += 1
        if outcome.kind == "crash":
            self.crashes.append(f"{outcome.case}: {outcome.detail}")

    def summary(self) -> dict:
        return {"cases": sum(self.counts.values()), "accepted": self.counts["accepted"],
                "clean errors": self.counts["clean error"], "crashes": self.counts["crash"],
                "seconds": round(self.seconds, 1),
                "by format": {k: dict(v) for k, v in sorted(self.by_format.items())},
                "crash cases": self.crashes[:20]}


# ---------------------------------------------------------------------- seeds
def _seed_graph():
    import parmst

    # Ties, a self-loop, a multi-edge, a negative weight, an isolated vertex (6).
    return parmst.Graph.from_edges([0, 1, 2, 3, 0, 4, 2, 5, 1], [1, 2, 3, 0, 2, 4, 5, 3, 2],
                                   np.array([4, 1, 3, 2, 3, 5, -2, 7, 1], dtype=np.int32),
                                   num_vertices=7)


def write_seeds(folder: Path) -> list[Path]:
    """The seed graph in every format and variant; returns the paths."""
    from parmst import io as pio

    g = _seed_graph()
    gf = g.with_weights(g.weight.astype(np.float64) / 4)
    seeds = {
        "meta.txt": (g, {}), "plain.txt": (gf, {"metadata": False}), "g.txt.gz": (g, {}),
        "g.snap": (g, {}), "g.gr": (g, {}), "both.gr": (gf, {"both_directions": True}),
        "g.mtx": (gf, {}), "general.mtx": (g, {"symmetry": "general"}), "g.pbbs": (gf, {}),
        "g.egr": (g, {}), "g.npz": (g, {}), "packed.npz": (gf, {"compressed": True}),
    }
    paths = []
    for name, (graph, options) in seeds.items():
        pio.write(graph, folder / name, **options)
        paths.append(folder / name)
    header = folder / "header.txt"
    header.write_text("7 9\n" + "".join(f"{u} {v} {w}\n" for u, v, w in
                                         zip(g.src.tolist(), g.dst.tolist(), g.weight.tolist())))
    unweighted = folder / "unweighted.snap"
    unweighted.write_text("# Nodes: 7 Edges: 9\n" + "".join(
        f"{u}\t{v}\n" for u, v in zip(g.src.tolist(), g.dst.tolist())))
    egr = (folder / "g.egr").read_bytes()
    n, e = np.frombuffer(egr[:8], dtype="<i4")
    unweighted_egr = folder / "unweighted.egr"
    unweighted_egr.write_bytes(egr[:8 + 4 * (n + 1) + 4 * e])
    return paths + [header, unweighted, unweighted_egr]


# ---------------------------------------------------------------------- mutations
def _mutate_bytes(data: bytes, rnd: random.Random) -> bytes:
    """One generic byte-level mutation."""
    data = bytearray(data)
    choice = rnd.randrange(5)
    at = rnd.randrange(len(data) + 1)
    if choice == 0 and data:
        data[min(at, len(data) - 1)] = rnd.randrange(256)
    elif choice == 1:
        data[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
    elif choice == 2:
        del data[at:at + rnd.randint(1, 16)]
    elif choice == 3:
        del data[at:]
    else:
        data[at:at] = rnd.choice(INTERESTING)
    return bytes(data)


def _mutate_text(data: bytes, rnd: random.Random) -> bytes:
    """Line and token mutations of a text graph file (or a byte mutation)."""
    lines = data.split(b"\n")
    choice = rnd.randrange(7)
    k = rnd.randrange(len(lines))
    if choice == 0:
        lines.insert(rnd.randrange(len(lines) + 1), lines[k])
    elif choice == 1:
        del lines[k]
    elif choice == 2:
        j = rnd.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    elif choice in (3, 4):
        words = lines[k].split(b" ") if b" " in lines[k] else lines[k].split(b"\t")
        words[rnd.randrange(len(words))] = rnd.choice(INTERESTING)
        lines[k] = b" ".join(words)
    elif choice == 5:
        lines[k] = lines[k] + b"\r"
    else:
        return _mutate_bytes(data, rnd)
    return b"\n".join(lines)


def _mutate_egr(data: bytes, rnd: random.Random) -> bytes:
    words = bytearray(data)
    if rnd.random() < 0.6 and len(words) >= 4:
        at = 4 * rnd.randrange(len(words) // 4)
        words[at:at + 4] = np.array([rnd.choice(INT32_VALUES)], dtype="<i4").tobytes()
        return bytes(words)
    return _mutate_bytes(data, rnd)


def _npz_arrays(path: Path) -> dict:
    with np.load(path) as archive:
        return {name: archive[name] for name in archive.files}


def _mutate_npz(path: Path, out: Path, rnd: random.Random) -> None:
    """Rebuild the archive with one array made wrong, or damage its bytes."""
    arrays = _npz_arrays(path)
    choice = rnd.randrange(9)
    name = rnd.choice(["src", "dst", "weight"])
    if choice == 0:
        arrays[name] = arrays[name].astype(rnd.choice([np.float64, np.complex128, np.uint64,
                                                       np.int8, np.bool_, "U3"]))
    elif choice == 1:
        arrays[name] = np.stack([arrays[name], arrays[name]])
    elif choice == 2:
        arrays[name] = arrays[name][:rnd.randrange(len(arrays[name]))]
    elif choice == 3:
        arrays[name] = arrays[name].astype(np.int64)
        arrays[name][rnd.randrange(len(arrays[name]))] = rnd.choice(
            [-1, 2**40, 999999999999, 2**62, 4294967296])
    elif choice == 4:
        arrays["num_vertices"] = np.array(rnd.choice([-1, 0, 3, 10**12, 2**62, 2**63 - 1]))
    elif choice == 5:
        arrays["num_vertices"] = rnd.choice([np.array([7, 7]), np.array(7.5), np.array("7")])
    elif choice == 6:
        del arrays[rnd.choice(list(arrays))]
    elif choice == 7:
        _write_lying_header(out, arrays, name, rnd)
        return
    else:
        out.write_bytes(_mutate_bytes(path.read_bytes(), rnd))
        return
    np.savez(out, **arrays)


def _write_lying_header(out: Path, arrays: dict, name: str, rnd: random.Random) -> None:
    """An archive whose ``name`` member's ``.npy`` header claims far more entries than it holds."""
    with zipfile.ZipFile(out, "w") as archive:
        for key, array in arrays.items():
            buffer = io.BytesIO()
            if key == name:
                claimed = rnd.choice([10**12, 2**40, len(array) + 1])
                np.lib.format.write_array_header_1_0(buffer, {
                    "descr": np.lib.format.dtype_to_descr(array.dtype), "fortran_order": False,
                    "shape": (claimed,)})
                buffer.write(array.tobytes())
            else:
                np.lib.format.write_array(buffer, array)
            archive.writestr(key + ".npy", buffer.getvalue())


def mutate(seed: Path, out: Path, rnd: random.Random) -> None:
    """Write a mutant of ``seed`` to ``out`` (1 to 3 mutations)."""
    import gzip

    name = seed.name
    if name.endswith(".npz"):
        _mutate_npz(seed, out, rnd)
        return
    data = seed.read_bytes()
    compressed = name.endswith(".gz")
    if compressed and rnd.random() < 0.3:  # damage the gzip stream itself
        out.write_bytes(_mutate_bytes(data, rnd))
        return
    if compressed:
        data = gzip.decompress(data)
    for _ in range(rnd.randint(1, 3)):
        data = _mutate_egr(data, rnd) if name.endswith(".egr") else _mutate_text(data, rnd)
    out.write_bytes(gzip.compress(data, mtime=0) if compressed else data)


# ---------------------------------------------------------------------- running
def _argv(path: Path, folder: Path, rnd: random.Random) -> list[str]:
    """The command a case runs: mostly ``solve --verify``, some ``--relabel``, convert, auto."""
    choice = rnd.randrange(10)
    if choice == 0:
        return ["convert", str(path), str(folder / "converted.txt")]
    argv = ["solve", str(path), "--verify"]
    if choice >= 3:
        argv += ["--solver", "kruskal/serial"]
    if choice in (1, 4) and path.name.endswith((".txt", ".snap", ".txt.gz")):
        argv += ["--relabel"]
    return argv


def run_cli(argv: list[str]) -> tuple[int | None, str, str]:
    """``parmst.cli.main(argv)`` in this process: (status or None if it raised, stderr, error)."""
    from parmst.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    except BaseException:  # noqa: BLE001 - any escape from main is what the fuzzer looks for
        return None, err.getvalue(), traceback.format_exc(limit=-3)
    return status, err.getvalue(), ""


def classify(status: int | None, stderr: str, escaped: str) -> tuple[str, str]:
    lines = stderr.splitlines()
    if status is None:
        return "crash", escaped.strip().splitlines()[-1]
    if status == 0 and "Traceback" not in stderr:
        return "accepted", ""
    if status == 2 and len(lines) == 1 and lines[0].startswith("parmst: error: "):
        if "out of memory" in lines[0]:  # the CLI's last resort: a size check is missing
            return "crash", lines[0]
        return "clean error", ""
    return "crash", f"status {status}, stderr {stderr[-300:]!r}"


def run_campaign(cases: int, seed: int, folder: Path) -> Report:
    """``cases`` mutants spread evenly over the seed files, each run through the CLI.

    The caller sets ``PARMST_MEMORY_LIMIT`` to :data:`MEMORY_LIMIT`.
    """
    rnd = random.Random(seed)
    seeds = write_seeds(folder)
    report = Report(seeds=[p.name for p in seeds])
    start = time.perf_counter()
    faulthandler.enable()
    for k in range(cases):
        source = seeds[k % len(seeds)]
        mutant = folder / f"case{k}{''.join(source.suffixes)}"
        mutate(source, mutant, rnd)
        argv = _argv(mutant, folder, rnd)
        faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True)
        try:
            kind, detail = classify(*run_cli(argv))
        finally:
            faulthandler.cancel_dump_traceback_later()
        report.add(source.name, Outcome(kind, f"case {k} ({' '.join(argv[:1] + argv[2:])} "
                                              f"on a mutant of {source.name})", detail))
        if kind != "crash":
            mutant.unlink()
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="keep crashing mutants in DIR")
    args = parser.parse_args(argv)
    os.environ["PARMST_MEMORY_LIMIT"] = MEMORY_LIMIT
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        summary = run_campaign(args.cases, args.seed, folder).summary()
    print(json.dumps(summary, indent=2))
    return 1 if summary["crashes"] else 0


if __name__ == "__main__":
    sys.exit(main())
