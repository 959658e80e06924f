"""Where the benchmarks keep generated and fetched graphs: one directory, the user's choice."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_cache_dir"]


def default_cache_dir() -> Path:
    """``$PARMST_CACHE`` if set, else ``~/.cache/parmst/graphs``.

    Examples
    --------
    >>> isinstance(default_cache_dir(), Path)
    True
    """
    env = os.environ.get("PARMST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "parmst" / "graphs"
