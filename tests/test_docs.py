"""The docs stand on their own and say what the code does: no paths outside the repository,
papers cited by name, and every command-line example runs.

A user of the package has the repository (or just the installed package),
never the project's working folders, so README.md, docs/*.md and the sources
must not point at them; papers are cited by authors and title
(docs/papers.md), and every registered solver says which one it implements.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from parmst import registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = sorted(p for p in (ROOT / "src").rglob("*") if p.is_file()
                 and p.suffix in {".py", ".md", ".cl", ".txt", ".toml", ".cfg"})
OUTSIDE = re.compile(r"\.\./shared|seeds/|DESIGN\.md|STYLE\.md")
SEED_NUMBER = re.compile(r"\bseed\s+00\d\b", re.IGNORECASE)


@pytest.mark.parametrize("path", DOCS + SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reference_outside_the_repository(path):
    hits = [f"line {i}: {line.strip()}" for i, line in
            enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert not hits, f"{path.relative_to(ROOT)} points outside the repository: {hits}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_cite_papers_by_name_not_number(path):
    text = path.read_text(encoding="utf-8")
    hits = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group()!r}"
            for m in SEED_NUMBER.finditer(text)]
    assert not hits, f"{path.relative_to(ROOT)}: cite the paper by its authors: {hits}"


def test_scanned_files_exist():
    assert (ROOT / "docs" / "papers.md") in DOCS
    assert any(p.name == "registry.py" for p in SOURCES)


@pytest.mark.parametrize("name", list(registry.solvers()) + list(registry.solvers("points")))
def test_every_solver_cites_a_paper_and_is_listed_in_papers_md(name):
    solver = registry.get(name)
    assert solver.paper.startswith(tuple(registry.CITATIONS.values())), solver.paper
    assert f"`{name}`" in (ROOT / "docs" / "papers.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------- the CLI examples run
# Every shell block of README.md and docs/*.md whose lines start with ``parmst`` or
# ``python -m parmst`` runs here, its commands in order in a fresh folder (so a command
# may use the files an earlier one wrote). A block that cannot run here (a GPU, MPI
# ranks, the network, minutes of work) says so in an HTML comment on the line before
# its fence, ``<!-- not run: needs a GPU -->``, and is reported as skipped with that reason.
SHELL_FENCES = {"", "sh", "bash", "shell", "console"}
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->\s*$")
COMMAND = re.compile(r"^(parmst|python3? -m parmst(\.[\w.]+)?)\s")


def _examples() -> list[tuple[str, list[str], str | None]]:
    """(where, command lines, why not run or None) of every example block."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1).strip() not in SHELL_FENCES:
                continue
            lines = [line.split("  #")[0].strip() for line in match.group(2).splitlines()]
            lines = [line for line in lines if line and not line.startswith("#")]
            if not any(COMMAND.match(line) for line in lines):
                continue
            before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = NOT_RUN.search(before)
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
            found.append((where, lines, marker.group(1) if marker else None))
    return found


EXAMPLES = _examples()


def _argv(line: str) -> list[str]:
    words = shlex.split(line)
    if words[0] == "parmst":
        return [sys.executable, "-m", "parmst", *words[1:]]
    return [sys.executable, *words[1:]]  # python -m parmst[.module] ...


def test_examples_are_found():
    places = [where for where, _, _ in EXAMPLES]
    assert any(p.startswith("README.md") for p in places)
    assert any(why is None for _, _, why in EXAMPLES)


@pytest.mark.parametrize(("where", "lines", "why"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_cli_examples_in_the_docs_run(where, lines, why, tmp_path):
    if why is not None:
        pytest.skip(f"{where}: {why}")
    strays = [line for line in lines if not COMMAND.match(line)]
    assert not strays, (f"{where}: {strays[0]!r} is not a parmst command: split the block or "
                        "mark it <!-- not run: REASON -->")
    env = {**os.environ, "PARMST_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                       os.environ.get("PYTHONPATH")]))}
    for line in lines:
        done = subprocess.run(_argv(line), cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, f"{where}: {line}\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
        assert "Traceback" not in done.stderr, f"{where}: {line}\n{done.stderr[-3000:]}"
