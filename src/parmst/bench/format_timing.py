"""File formats in the harness: write a graph in one format and read it back, timed.

The file read back must hold exactly the graph's edges (a MISMATCH
otherwise); a format that cannot hold the graph (``egr``: int32 only) is
skipped with the reason.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from parmst.bench.result import Record
from parmst.bench.timing import Scheme, clocked, finish
from parmst.errors import GraphFormatError
from parmst.graph import Graph

__all__ = ["time_format"]

log = logging.getLogger(__name__)


def _canonical_edges(graph: Graph) -> tuple[np.ndarray, ...]:
    """The graph's edges as a sorted multiset of (smaller end, larger end, weight)."""
    low, high = np.minimum(graph.src, graph.dst), np.maximum(graph.src, graph.dst)
    order = np.lexsort((graph.weight, high, low))
    return low[order], high[order], graph.weight[order]


def _same_edges(back: Graph, graph: Graph) -> str | None:
    """Why the graph read back differs from the one written, or None.

    Formats may reorder edges (``egr`` is a CSR), swap endpoints or widen
    dtypes, and PBBS files do not store trailing isolated vertices; the edges
    themselves, with their weights, must come back unchanged.
    """
    if back.num_edges != graph.num_edges:
        return f"read back {back.num_edges:,} edges, wrote {graph.num_edges:,}"
    if back.num_vertices > graph.num_vertices:
        return f"read back {back.num_vertices:,} vertices, wrote {graph.num_vertices:,}"
    for what, got, want in zip(("endpoints", "endpoints", "weights"), _canonical_edges(back),
                               _canonical_edges(graph)):
        if not np.array_equal(got, want):
            return f"the {what} read back differ from those written"
    return None


def time_format(graph: Graph, name: str, fmt: str, folder: Path, scheme: Scheme,
                 bar) -> list[Record]:
    """Write ``graph`` in format ``fmt`` and read it back: a warm-up, then timed runs.

    The warm-up's file is read back and compared with the graph; the read
    runs come right after a write, so they measure parsing from the page
    cache, not the disk.
    """
    from parmst import io

    write = Record(graph=name, solver=f"{fmt} write", kind="io")
    read = Record(graph=name, solver=f"{fmt} read", kind="io")
    path = folder / f"graph{io.FORMATS[fmt].extensions[0]}"
    bar.set_postfix_str(f"{name} {fmt}", refresh=False)
    try:
        for run in range(scheme.runs + 1):
            _, write_wall, write_cpu = clocked(
                lambda: io.write(graph, path, format=fmt, progress=False))
            back, read_wall, read_cpu = clocked(
                lambda: io.read(path, format=fmt, progress=False))
            bar.update(1)
            if run == 0:
                write.warmup_time, read.warmup_time = write_wall, read_wall
                size = path.stat().st_size
                write.extra["file_bytes"] = read.extra["file_bytes"] = size
                problem = _same_edges(back, graph)
                if problem is not None:
                    for record in (write, read):
                        record.status, record.note = "MISMATCH", problem
                    log.error("MISMATCH: format %s on %s: %s", fmt, name, problem)
                    bar.update(scheme.runs)
                    return [write, read]
                continue
            for record, wall, cpu in ((write, write_wall, write_cpu), (read, read_wall, read_cpu)):
                record.times.append(wall)
                record.cpu_times.append(cpu)
            del back
    except GraphFormatError as exc:  # the format cannot hold this graph (egr: int32 only)
        for record in (write, read):
            record.status, record.note = "skipped", exc.detail
        bar.update(scheme.runs + 1 - len(write.times))
        return [write, read]
    except Exception as exc:
        log.exception("format %s failed on %s", fmt, name)
        for record in (write, read):
            record.status, record.note = "error", f"{type(exc).__name__}: {exc}"
            record.clear_times()
        return [write, read]
    finally:
        path.unlink(missing_ok=True)
    for record in (write, read):
        finish(record, scheme, [])
    return [write, read]
