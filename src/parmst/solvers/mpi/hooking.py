"""Owner rounds, step 2: hooking each component to the far end of its lightest edge, and
pointer jumping through the owners to the roots.

After Sanders and Schimek, "Engineering Massively Parallel MST Algorithms" (2023),
distributed Borůvka's contraction: each component points at the far end of its
lightest edge; two components that chose each other chose the same edge (keys are
distinct), and one of them becomes a root (the smaller for an even edge id, else the
larger, so that the roots, and the later rounds' work, do not pile up on the lowest
ranks). The roots that have an edge are numbered by an exclusive prefix sum over the
owners, and pointer jumping through the owners (one request and reply per jump, only
for components not yet at a root) gives every component its root and the root's
number. :mod:`parmst.solvers.mpi.owners` runs the rounds.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np


def hook(channel: Any, starts: np.ndarray, best_id: np.ndarray, best_far: np.ndarray
         ) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Steps 2 and 3's numbering: which owned components are roots, and the next round's
    label of every owned component (-1: finished); how many labels this rank gives, from
    which first one.

    One fetch of each chosen far end's own choice finds the mutual pairs (a
    component whose far end chose it back; two such chose the same edge, the
    lightest between them) and is, for every other component, the first jump.
    The roots that have an edge are then numbered by an exclusive prefix sum,
    and every later jump asks for its target's label beside its colour: the
    jump that reaches a root brings its label, so no request for the labels
    follows.
    """
    first = int(starts[channel.rank])
    choosing = np.flatnonzero(best_id >= 0)
    # The far end's own choice: a component is one of a mutual pair exactly when it comes
    # back to it, and otherwise it is the component's target after one jump.
    (far_choice,) = channel.fetch(best_far[choosing], None, first, [best_far], starts)
    second = np.full(len(best_id), -1, dtype=np.int64)
    second[choosing] = far_choice
    root, count = _roots(first, best_id, best_far, second)
    new_first = channel.exscan_int(count)
    new_label, colour, pending = _jump_start(first, best_id, best_far, second, root, new_first)
    label = new_label.copy()  # the roots' own; the others' come with the jumps
    while channel.allreduce_int(len(pending), "sum"):
        asked = colour[pending]
        jumped, jumped_label = channel.fetch(asked, None, first, [colour, new_label], starts)
        pending = _jumped(pending, asked, jumped, jumped_label, colour, label)
    return root, label, count, new_first


@numba.njit(cache=True)
def _roots(first, best_id, best_far, second):
    """Step 2's roots among the owned components ``first ..``: those without an edge, and
    of each mutual pair (``second``, the far end's own far end, leads back) the smaller
    for an even edge id, else the larger. Returns which are roots and how many of them
    have an edge (the next round's labels given here)."""
    root = np.empty(len(best_id), dtype=np.bool_)
    count = 0
    for c in range(len(best_id)):
        if best_id[c] < 0:
            root[c] = True
        else:
            mutual = second[c] == first + c
            root[c] = mutual and ((first + c < best_far[c]) == (best_id[c] % 2 == 0))
            count += root[c]
    return root, count


@numba.njit(cache=True)
def _jump_start(first, best_id, best_far, second, root, new_first):
    """The pointer jumping's start, in one pass: the roots with an edge numbered from
    ``new_first`` in order (-1 for the others); each component's colour: a root's own
    id, the root of a mutual pair for its other member, else the far end's far end
    (``second``: the first jump, already made); and the components that are not
    roots."""
    n = len(best_id)
    new_label = np.full(n, -1, dtype=np.int64)
    colour = np.empty(n, dtype=np.int64)
    pending = np.empty(n, dtype=np.int64)
    waiting, label = 0, new_first
    for c in range(n):
        if root[c]:
            colour[c] = first + c
            if best_id[c] >= 0:
                new_label[c] = label
                label += 1
        else:  # not a root: it has an edge
            colour[c] = best_far[c] if second[c] == first + c else second[c]
            pending[waiting] = c
            waiting += 1
    return new_label, colour, pending[:waiting]


@numba.njit(cache=True)
def _jumped(pending, asked, jumped, jumped_label, colour, label):
    """One pointer jump's bookkeeping: a pending component whose target answered with
    itself (a root) takes the root's label and is done; the others move their colour to
    the target's. Returns the components still pending, in order."""
    still = 0
    for i in range(len(pending)):
        c = pending[i]
        if jumped[i] == asked[i]:
            label[c] = jumped_label[i]
        else:
            colour[c] = jumped[i]
            pending[still] = c
            still += 1
    return pending[:still]
