"""The public API and the command line, pinned: a name or an option that disappears or is
renamed fails here. Adding one is a deliberate change: add it to these lists too."""

from __future__ import annotations

import argparse
import importlib

import pytest

import parmst
from parmst.cli import build_parser

PARMST = [
    "Forest", "Graph", "GraphFileNotFoundError", "GraphFormatError", "GraphValueError",
    "ParmstError", "PointsValueError", "SolverUnavailable", "Stats", "UnknownOptionError",
    "UnknownSolverError", "VerificationError", "available_solvers", "cut", "euclidean_mst",
    "generate", "maximum_spanning_forest", "minimum_spanning_forest", "partition", "verify",
    "verify_points",
]

MODULES = {
    "parmst.registry": [
        "BACKENDS", "CITATIONS", "Solver", "add_auto_rule", "available_solvers", "cpu_count",
        "explain", "get", "register", "select", "solvers",
        # the one way into a solver (issue 25)
        "is_distributed", "prepare", "resolve", "run", "run_distributed",
        # point sets (issue 30)
        "explain_points", "run_points",
    ],
    "parmst.distributed": ["OWNERSHIPS", "DistributedGraph", "Ownership", "byte_range",
                           "read_part", "write_forest", "writes_in_parallel"],
    "parmst.io": ["FORMATS", "Format", "GraphFileNotFoundError", "convert", "detect_format",
                  "read", "read_with_labels", "write",
                  # the partitioned read of every format, for MPI ranks (issue 25)
                  "Part", "read_part"],
    "parmst.generators": [
        "DEFAULT_MAX_WEIGHT", "FAMILIES", "SIZES", "WEIGHT_KINDS", "Family", "delaunay", "dense",
        "describe", "generate", "grid2d", "kronecker", "parse_spec", "random_degree", "rmat",
        "road", "seed000_dense", "seed000_sparse",
    ],
}

# Each subcommand's option strings and positional arguments.
COMMANDS = {
    "solve": (["--format", "--generate", "--help", "--ignore-nan", "--json", "--maximum",
               "--option", "--output", "--output-format", "--relabel", "--solver", "--stats",
               "--threads", "--verify", "-h", "-o"], ["file"]),
    "generate": (["--format", "--help", "--list", "--output", "-h", "-o"], ["spec"]),
    "convert": (["--from", "--help", "--labels", "--relabel", "--to", "-h"], ["input", "output"]),
    "verify": (["--format", "--help", "--max-listed", "--relabel", "-h"], ["graph", "forest"]),
    "warmup": (["--backend", "--help", "--quiet", "-h"], []),
    "info": (["--explain", "--format", "--help", "--relabel", "-h"], []),
    "bench": (["--baseline", "--budget", "--cache-dir", "--compare", "--formats", "--graph",
               "--help", "--kbest", "--label", "--list", "--measure", "--name", "--no-cache",
               "--no-plots", "--no-progress", "--only", "--opencl-device", "--out", "--peers",
               "--ranks", "--repeat", "--scan-mb", "--solver", "--suite", "--threads",
               "--time-limit", "--warmup", "-h"], []),
}


def test_top_level_names():
    assert parmst.__all__ == PARMST
    for name in PARMST:
        assert getattr(parmst, name) is not None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_names(module):
    mod = importlib.import_module(module)
    assert sorted(mod.__all__) == sorted(MODULES[module])
    for name in MODULES[module]:
        assert getattr(mod, name) is not None


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_global_options():
    parser = build_parser()
    options = sorted(s for a in parser._actions for s in a.option_strings)
    assert options == ["--help", "--verbose", "--version", "-h", "-v"]


def test_subcommands():
    assert sorted(_subcommands()) == sorted(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_subcommand_options(command):
    sub = _subcommands()[command]
    options = sorted(s for a in sub._actions for s in a.option_strings)
    positionals = [a.dest for a in sub._actions if not a.option_strings]
    expected_options, expected_positionals = COMMANDS[command]
    if command == "bench":  # the harness gains options in this step; none may go
        assert set(expected_options) <= set(options)
    else:
        assert options == expected_options
    assert positionals == expected_positionals
