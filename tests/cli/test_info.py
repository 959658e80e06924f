"""``parmst info``: each solver's paper always, what it does with ``-v`` before or after ``info``."""

from __future__ import annotations

import pytest

from parmst import registry
from parmst.cli import main


def _solver_blocks(out: str, heading: str = "\nsolvers:\n") -> dict[str, list[str]]:
    """Each solver's lines of one listing (graph or point-set solvers): its state line, then
    the indented lines below it, up to the blank line that ends the listing."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in out.split(heading, 1)[1].split("\n\n", 1)[0].splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            current = line.split()[0]
            blocks[current] = [line]
        elif current is not None and line.strip():
            blocks[current].append(line.strip())
    return blocks


def test_info_cites_every_solvers_paper(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    for blocks, table in ((_solver_blocks(out), registry.solvers()),
                          (_solver_blocks(out, "\npoint-set solvers (parmst.euclidean_mst):\n"),
                           registry.solvers("points"))):
        assert list(blocks) == list(table)
        for name, solver in table.items():
            assert f"paper: {solver.paper}" in blocks[name], name
            assert solver.summary not in blocks[name]


@pytest.mark.parametrize("argv", [["info", "-v"], ["info", "--verbose"], ["-v", "info"]])
def test_info_verbose_adds_what_each_solver_does(argv, capsys):
    assert main(argv) == 0
    blocks = _solver_blocks(capsys.readouterr().out)
    for name, solver in registry.solvers().items():
        assert blocks[name][1:] == [solver.summary, f"paper: {solver.paper}"], name
