"""Benchmark results on disk: the JSON document, and the report's files.

:func:`save` writes ``bench_<name>.md`` (:mod:`parmst.bench.markdown`),
``bench_<name>.json`` (the schema of :mod:`parmst.bench.result`) and the PNG
plots (:mod:`parmst.bench.plots`); :func:`load` reads the JSON back.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from parmst.bench.markdown import to_markdown
from parmst.bench.plots import plot_all, unavailable
from parmst.bench.result import BenchResult

__all__ = ["load", "plot", "save", "to_json"]

log = logging.getLogger(__name__)


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # NumPy scalars
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def to_json(result: BenchResult) -> str:
    """The result as a JSON document (schema: :mod:`parmst.bench.result`).

    Examples
    --------
    >>> result = BenchResult(machine={"label": "box"}, config={"name": "demo"})
    >>> data = json.loads(to_json(result))
    >>> data["schema"], data["config"]["name"]
    ('parmst-bench/1', 'demo')
    """
    return json.dumps(result.to_dict(), indent=1, default=_json_default)


def load(path: str | os.PathLike) -> BenchResult:
    """Read a result written by :func:`save`."""
    with open(path, encoding="utf-8") as handle:
        return BenchResult.from_dict(json.load(handle))


def plot(result: BenchResult, directory: str | os.PathLike,
         stem: str | None = None) -> list[Path]:
    """Write the PNG plots that apply to ``result``; returns their paths."""
    return plot_all(result, Path(directory), stem or result.stem)


def save(result: BenchResult, directory: str | os.PathLike, plots: bool = True) -> list[Path]:
    """Write ``bench_<name>.md``, ``.json`` and the plots into ``directory``.

    Without matplotlib the plots are left out with a logged warning
    (:func:`parmst.bench.plots.unavailable` says why); the tables are written.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / f"{result.stem}.md", out / f"{result.stem}.json"]
    written[0].write_text(to_markdown(result), encoding="utf-8")
    written[1].write_text(to_json(result) + "\n", encoding="utf-8")
    if plots:
        why = unavailable()
        if why is None:
            written += plot(result, out)
        else:
            log.warning("plots skipped: %s", why)
    return written
