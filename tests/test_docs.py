"""The docs stand on their own: no paths outside the repository, papers cited by name.

A user of the package has the repository (or just the installed package),
never the project's working folders, so README.md, docs/*.md and the sources
must not point at them; papers are cited by authors and title
(docs/papers.md), and every registered solver says which one it implements.
"""

from __future__ import annotations

import re
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
