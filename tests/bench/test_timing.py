"""Median and k-best selection of timed runs (Fallin et al.'s median, Sousa's k-best)."""

import pytest

from parmst.bench.timing import KBEST, MEDIAN, Scheme, Selection, pick, select


def test_median_of_odd_count_is_the_middle_run():
    selection = select([5.0, 1.0, 3.0, 9.0, 2.0])
    assert selection.value == 3.0
    assert selection.index == 2
    assert selection.converged


def test_median_of_even_count_averages_the_middle_two():
    selection = select([4.0, 1.0, 3.0, 2.0])
    assert selection.value == 2.5
    assert selection.index == 3  # the faster of the two middle runs (2.0)


def test_kbest_reports_the_best_when_the_three_fastest_agree():
    selection = select([1.03, 1.00, 3.00, 1.04, 2.00], KBEST)
    assert (selection.value, selection.index, selection.converged) == (1.00, 1, True)


def test_kbest_flags_a_spread_beyond_the_tolerance():
    selection = select([1.00, 1.20, 1.06, 1.50, 1.70], KBEST)
    assert selection.value == 1.00
    assert not selection.converged


def test_kbest_tolerance_boundary_is_inclusive():
    assert select([1.0, 1.05, 1.05, 9.0, 9.0], KBEST).converged
    assert not select([1.0, 1.0, 1.0501, 9.0, 9.0], KBEST).converged


def test_pick_follows_the_scheme():
    values = [10.0, 30.0, 20.0]
    assert pick(values, Selection(0.0, 1), MEDIAN) == 20.0
    assert pick(values, Selection(0.0, 1), KBEST) == 30.0


def test_scheme_rejects_bad_settings():
    with pytest.raises(ValueError, match="median"):
        Scheme("mean")
    with pytest.raises(ValueError, match="at least one"):
        Scheme("median", 0)
    with pytest.raises(ValueError, match="k <= runs"):
        Scheme("kbest", 2, 3)
    with pytest.raises(ValueError, match="no timed runs"):
        select([])


def test_scheme_descriptions_name_the_method():
    assert MEDIAN.describe() == "median of 9 runs"
    assert "3 fastest of 5" in KBEST.describe()
