"""Counter-based words and the rules built on them: exact, in range, functions of the position."""

from __future__ import annotations

import numpy as np
import pytest

import parmst
from parmst.generators._counter import bounded, permutation, permute_one, stream_key, unit, word
from parmst.generators._positional import BLOCK
from parmst.generators.lattice import road_blocks


@pytest.mark.parametrize("bound", [1, 2, 3, 10, 2**31 - 1, 2**32 + 7, 2**63 + 5, 2**64 - 1])
def test_bounded_is_the_high_word_of_the_full_product(bound):
    for position in range(50):
        w = int(word(stream_key(7, 1), position, 3))
        assert int(bounded(np.uint64(w), np.uint64(bound))) == (w * bound) >> 64


def test_words_depend_on_every_coordinate_and_floats_lie_in_the_unit_interval():
    base = int(word(stream_key(1, 2), 3, 4))
    others = {int(word(stream_key(2, 2), 3, 4)), int(word(stream_key(1, 3), 3, 4)),
              int(word(stream_key(1, 2), 4, 4)), int(word(stream_key(1, 2), 3, 5))}
    assert base not in others and len(others) == 4
    floats = [unit(np.uint64(word(stream_key(0, 0), i, 0))) for i in range(2000)]
    assert 0 <= min(floats) and max(floats) < 1 and 0.45 < np.mean(floats) < 0.55
    assert unit(np.uint64(2**64 - 1)) == 1 - 2.0**-53


@pytest.mark.parametrize("n", [1, 2, 3, 17, 1000])
def test_permutation_is_a_bijection_of_its_range(n):
    p = permutation(n, seed=9, stream=4)
    assert sorted(int(permute_one(x, p)) for x in range(n)) == list(range(n))


def test_road_drops_exactly_its_share_in_every_block():
    side = 200  # 79,600 links: two blocks
    g = parmst.generate(f"road:side={side},seed=3")
    links = 2 * side * (side - 1)
    first = road_blocks(links, links - g.num_edges)
    assert first[-1] == g.num_edges
    horizontal = side * (side - 1)
    link = np.where(g.dst - g.src == 1, g.src - g.src // side, g.src + horizontal)
    assert (np.diff(link) > 0).all()  # kept links in grid order, each once
    kept_per_block = np.bincount(link // BLOCK, minlength=len(first) - 1)
    np.testing.assert_array_equal(kept_per_block, np.diff(first))
