"""What :func:`parmst.verify` found: the result type and the recorder that fills it.

Failures are recorded per check, at most ``max_listed`` of each listed with
a count of the rest, so a result never claims less than was found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parmst._text import plural
from parmst.errors import VerificationError

__all__ = ["CHECKS", "Failure", "Recorder", "VerifyResult"]

CHECKS = ("ids", "fields", "acyclic", "spanning", "minimal")
"""Names of the checks, in the order they run."""


@dataclass(frozen=True)
class Failure:
    """One failed check: which check, and what exactly is wrong."""

    check: str
    message: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.message}"


@dataclass
class VerifyResult:
    """What :func:`parmst.verify` checked and found; truthy iff every check ran and passed.

    Attributes
    ----------
    failures : list[Failure]
        Listed failures, at most ``max_listed`` per check.
    unlisted : dict[str, int]
        Per check, how many further failures were found but not listed.
    checks_run : list[str]
        Checks that ran, in order (``"fields"`` only for a Forest).
    not_checked : dict[str, str]
        Checks that could not run, with the reason.
    num_forest_edges : int
        Edge ids given (after dropping invalid and duplicate ones).
    num_trees : int or None
        Trees formed by the valid listed edges, isolated vertices included.
    num_graph_components : int or None
        Connected components of the graph (NaN edges left out).

    Examples
    --------
    >>> import parmst
    >>> g = parmst.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    >>> r = parmst.verify(g, [0, 1, 1])
    >>> bool(r), r.failed_checks
    (False, ['ids'])
    """

    failures: list[Failure] = field(default_factory=list)
    unlisted: dict[str, int] = field(default_factory=dict)
    checks_run: list[str] = field(default_factory=list)
    not_checked: dict[str, str] = field(default_factory=dict)
    num_forest_edges: int = 0
    num_trees: int | None = None
    num_graph_components: int | None = None

    @property
    def ok(self) -> bool:
        """Every check that applies ran, and none failed, listed or not.

        Unlisted failures count as much as listed ones, so ``max_listed=0``
        gives a result that lists nothing yet is still false for a wrong forest.
        """
        return (not self.failures and not any(self.unlisted.values()) and not self.not_checked
                and "minimal" in self.checks_run)

    def __bool__(self) -> bool:
        return self.ok

    @property
    def failed_checks(self) -> list[str]:
        """Names of the checks with at least one failure, listed or not, in check order."""
        return [c for c in CHECKS if self.count(c)]

    def count(self, check: str) -> int:
        """How many failures ``check`` found, listed or not."""
        return sum(f.check == check for f in self.failures) + self.unlisted.get(check, 0)

    def raise_if_failed(self) -> VerifyResult:
        """Raise :class:`~parmst.errors.VerificationError` unless ok; return self otherwise."""
        if not self.ok:
            raise VerificationError(self)
        return self

    def __str__(self) -> str:
        if self.ok:
            return (f"verified: forest of {plural(self.num_forest_edges, 'edge')}, "
                    f"{plural(self.num_trees, 'component')}, minimal")
        total = sum(self.count(c) for c in CHECKS)
        lines = [(f"verification failed: {total} failure{'s' if total != 1 else ''} "
                 f"({self._sizes()})")]
        for check in CHECKS:
            lines += [f"  {f}" for f in self.failures if f.check == check]
            if self.unlisted.get(check):
                lines.append(f"  ... and {self.unlisted[check]} more [{check}] failures")
        passed = [c for c in self.checks_run if c not in self.failed_checks]
        if passed:
            lines.append(f"  passed: {', '.join(passed)}")
        lines += [f"  not checked: {c} ({why})" for c, why in self.not_checked.items()]
        return "\n".join(lines)

    def _sizes(self) -> str:
        text = f"forest of {plural(self.num_forest_edges, 'edge')}"
        if self.num_trees is not None:
            text += f", {plural(self.num_trees, 'tree')}"
        if self.num_graph_components is not None:
            text += (f"; graph has "
                     f"{plural(self.num_graph_components, 'connected component')}")
        return text


class Recorder:
    """Collects failures per check into a :class:`VerifyResult`, listing at most ``limit`` of each.

    Examples
    --------
    >>> rec = Recorder(VerifyResult(), limit=1)
    >>> rec.run("ids")
    >>> rec.fail("ids", ["edge id 7 is out of range", "edge id 9 is out of range"])
    >>> rec.result.failed_checks, rec.result.count("ids"), rec.result.unlisted
    (['ids'], 2, {'ids': 1})
    """

    def __init__(self, result: VerifyResult, limit: int) -> None:
        self.result = result
        self.limit = limit

    def run(self, check: str) -> None:
        self.result.checks_run.append(check)

    def skip(self, check: str, reason: str) -> None:
        self.result.not_checked[check] = reason

    def fail(self, check: str, messages: list[str], total: int | None = None) -> None:
        """Record failures; ``messages`` may be cut short, ``total`` counts all of them."""
        total = len(messages) if total is None else total
        listed = messages[: self.limit]
        self.result.failures += [Failure(check, m) for m in listed]
        if total > len(listed):
            self.result.unlisted[check] = self.result.unlisted.get(check, 0) + total - len(listed)
