"""Exception classes raised by parmst.

Every error a user can provoke with bad input is one of these, raised once,
with a message that names the problem (file, line or byte offset, value).
"""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with line breaks and other control characters escaped, so it stays one line.

    Examples
    --------
    >>> printable("found '1\\x0c2\\n'")
    "found '1\\\\x0c2\\\\n'"
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class ParmstError(Exception):
    """Base class of every error parmst raises on purpose."""


class GraphValueError(ParmstError, ValueError):
    """Arrays or objects given to a ``Graph`` constructor are invalid."""


class PointsValueError(GraphValueError):
    """A point set given to :func:`parmst.euclidean_mst` (or its options) is invalid: not a
    2-D numeric array, NaN or infinite coordinates, too few points, a bad ``min_samples``."""


class GraphFormatError(ParmstError, ValueError):
    """A graph file is malformed.

    Parameters
    ----------
    path : str
        The file being read.
    message : str
        What was expected and what was found.
    line : int, optional
        1-based line number of text formats.
    offset : int, optional
        Byte offset in binary formats.
    """

    def __init__(self, path: str, message: str, *, line: int | None = None,
                 offset: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.offset = offset
        self.detail = printable(message)  # file content quoted in it may hold any byte
        where = printable(self.path)
        if line is not None:
            where += f", line {line}"
        if offset is not None:
            where += f", byte offset {offset}"
        super().__init__(f"{where}: {self.detail}")


class GraphFileNotFoundError(GraphFormatError, FileNotFoundError):
    """The graph file does not exist (also a ``FileNotFoundError``)."""


class SettingError(ParmstError, ValueError):
    """An environment variable parmst reads (``PARMST_MEMORY_LIMIT``) holds an unusable value."""


class MissingDependencyError(ParmstError, ImportError):
    """An optional package a feature needs is not installed; the message names the pip extra.

    Also an ``ImportError``, so ``except ImportError`` keeps working.
    """


class UnknownSolverError(ParmstError, ValueError):
    """A solver name that is not registered."""


class UnknownOptionError(ParmstError, TypeError):
    """A solver option the chosen solver does not accept."""


class SolverUnavailable(ParmstError, RuntimeError):
    """A registered solver that cannot run here (missing package, no device, input too large)."""


class VerificationError(ParmstError, AssertionError):
    """A forest failed independent verification; ``result`` says what failed."""

    def __init__(self, result) -> None:
        self.result = result
        super().__init__(str(result))
