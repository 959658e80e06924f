"""The benchmark's progress bar, with warnings and log lines printed above it, not through it.

A line written to the terminal while tqdm draws its bar lands in the middle of
the bar and leaves a broken copy of it behind. While the bar is shown, Python
warnings (a library's ``DeprecationWarning``, a compiler's build log) and log
records go through ``tqdm.write``, which clears the bar, prints the line and
draws the bar again below it.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(total: int, enabled: bool = True) -> Iterator[Any]:
    """A tqdm bar over ``total`` runs (disabled unless ``enabled``) that warnings and logging
    print above.

    Examples
    --------
    >>> with progress_bar(2, enabled=False) as bar:
    ...     bar.total
    2
    """
    from tqdm.auto import tqdm
    from tqdm.contrib.logging import logging_redirect_tqdm

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        tqdm.write(warnings.formatwarning(message, category, filename, lineno, line).rstrip(),
                   file=file or sys.stderr)

    with (tqdm(total=total, desc="bench", unit="run", disable=not enabled) as bar,
          logging_redirect_tqdm(), warnings.catch_warnings()):
        warnings.showwarning = show  # restored by catch_warnings on the way out
        yield bar
