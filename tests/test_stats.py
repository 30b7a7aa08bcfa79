"""Interval arithmetic of analysis.stats against textbook values."""

import pytest

from analysis.stats import mean_from_moments, t_quantile, wilson


@pytest.mark.parametrize("df,q", [(1, 12.7062), (3, 3.18245), (10, 2.22814), (1000, 1.96234)])
def test_t_quantile_is_the_student_t_quantile(df, q):
    assert t_quantile(df) == pytest.approx(q, abs=1e-4)


def test_mean_interval_uses_the_t_quantile():
    e = mean_from_moments(2, 0 + 2, 0 + 4)          # values 0 and 2: mean 1, sd sqrt(2)
    assert e.value == 1 and e.hi - e.value == pytest.approx(12.7062 * 1.0, abs=1e-3)


def test_wilson_interval_stays_inside_zero_one():
    e = wilson(0, 20)
    assert e.lo == 0 and 0 < e.hi < 0.2
