"""Mirror pairing (dedupe of arcs stored in both directions) against a first-in-first-out model."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from parmst.formats._mirror import mirror_pairs


def fifo_model(src, dst, weight):
    """Arcs in file order; an arc meets the oldest waiting mirror of its class, else waits."""
    later = [False] * len(src)
    waiting: dict[tuple, list[tuple[int, int]]] = {}
    for i, (u, v, w) in enumerate(zip(src, dst, weight)):
        direction = 2 if u == v else int(u > v)
        queue = waiting.setdefault((min(u, v), max(u, v), w), [])
        if queue and (direction == 2 or queue[0][1] != direction):
            queue.pop(0)
            later[i] = True
        else:
            queue.append((i, direction))
    unpaired = [False] * len(src)
    for queue in waiting.values():
        for i, _ in queue:
            unpaired[i] = True
    return later, unpaired


arcs = st.integers(0, 25).flatmap(lambda m: st.tuples(
    st.lists(st.integers(0, 4), min_size=m, max_size=m),
    st.lists(st.integers(0, 4), min_size=m, max_size=m),
    st.lists(st.integers(0, 2), min_size=m, max_size=m)))


@given(arcs)
def test_pairing_matches_fifo_model(arc_lists):
    src, dst, weight = arc_lists
    later, unpaired = mirror_pairs(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
                                   np.array(weight, dtype=np.int64))
    assert (later.tolist(), unpaired.tolist()) == fifo_model(src, dst, weight)


def test_multi_edges_pair_kth_with_kth_and_loops_pair_up():
    src = np.array([0, 0, 1, 1, 2, 2, 2])
    dst = np.array([1, 1, 0, 0, 2, 2, 2])
    later, unpaired = mirror_pairs(src, dst, None)
    assert later.tolist() == [False, False, True, True, False, True, False]
    assert unpaired.tolist() == [False] * 6 + [True]


def test_weights_must_agree_and_negative_zero_equals_zero():
    src, dst = np.array([0, 1, 0, 1]), np.array([1, 0, 1, 0])
    later, unpaired = mirror_pairs(src, dst, np.array([1.0, 2.0, 0.0, -0.0]))
    assert later.tolist() == [False, False, False, True]
    assert unpaired.tolist() == [True, True, False, False]
