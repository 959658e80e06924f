import math

import parmst
from parmst.verify.approximate import excess_percent, spanning_failures


def test_spanning_failures_lists_all_but_minimality():
    g = parmst.Graph.from_edges([0, 1, 0, 2], [1, 2, 2, 3], [1, 1, 5, 2])
    assert spanning_failures(g, [0, 2, 3]) == []  # spanning, not minimal
    assert spanning_failures(g, [0, 1, 2, 3]) == ["acyclic"]
    assert spanning_failures(g, [0, 1]) == ["spanning"]
    assert spanning_failures(g, [0, 0, 9]) == ["ids", "spanning"]


def test_excess_percent_is_exact_signed_and_relative_to_the_optimum():
    g = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [-2, 3, 5])
    assert excess_percent(g, [0, 2], [0, 1]) == 200.0
    assert excess_percent(g, [0, 1], [0, 2]) == -200.0 / 3  # lighter than a maximum
    zero = parmst.Graph.from_edges([0, 1, 0], [1, 2, 2], [-1, 1, 2])
    assert excess_percent(zero, [0, 1], [0, 1]) == 0.0
    assert math.isinf(excess_percent(zero, [0, 2], [0, 1]))
