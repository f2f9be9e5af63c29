"""Tests of moneynb.analysis.stats."""

from __future__ import annotations

import numpy as np
import pytest

from moneynb.analysis.stats import gini, lorenz, mean_interval, wilson_interval


def test_gini_known_values():
    assert gini([5, 5, 5, 5]) == 0
    assert gini([0, 0, 0, 12]) == pytest.approx(3 / 4)  # one of four holds all: (n-1)/n
    x = np.random.default_rng(1).integers(0, 50, 30)
    brute = np.abs(x[:, None] - x[None, :]).sum() / (2 * len(x) ** 2 * x.mean())
    assert gini(x) == pytest.approx(brute)
    assert gini([0, 0]) == 0
    with pytest.raises(ValueError):
        gini([-1, 3])


def test_lorenz_ends():
    p, m = lorenz([1, 2, 3, 4])
    assert p[0] == 0 and m[0] == 0 and p[-1] == 1 and m[-1] == 1
    assert m[1] == pytest.approx(0.1)


def test_wilson_interval_covers_and_is_ordered():
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.192, abs=0.002)
    assert wilson_interval(0, 10)[0] == pytest.approx(0, abs=1e-12)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    m, lo, hi = mean_interval([1, 2, 3, 4, 5])
    assert m == 3 and lo < 3 < hi


def test_power_sample_size_gives_the_power_it_promises():
    """Issue 28 (teach_tournaments exercise 3): 27% against 23% at 5% with 80% power."""
    from moneynb.analysis.stats import sample_size_two_proportions

    n = sample_size_two_proportions(0.27, 0.23)
    assert sample_size_two_proportions(0.5, 0.6) == 388  # the textbook table's 387.3, up
    rng = np.random.default_rng(5)

    def rejects(n):
        a, b = rng.binomial(n, 0.27, 8000) / n, rng.binomial(n, 0.23, 8000) / n
        pool = (a + b) / 2
        z = (a - b) / np.sqrt(2 * pool * (1 - pool) / n)
        return float(np.mean(np.abs(z) > 1.96))

    assert abs(rejects(n) - 0.80) < 0.02  # 8000 trials: one standard error is 0.0045
    assert rejects(n // 2) < 0.6  # half the games: far less power
    with pytest.raises(ValueError):
        sample_size_two_proportions(0.3, 0.3)
    with pytest.raises(ValueError):
        sample_size_two_proportions(0.3, 1.2)


def test_gini_of_net_worth_accepts_debts_only_when_asked():
    with pytest.raises(ValueError, match="negative=True"):
        gini([-2, 5, 9, 16])
    # mean absolute difference over twice the mean, by hand: pairs differ by 7, 11, 18, 4, 11, 7
    assert gini([-2, 5, 9, 16], negative=True) == pytest.approx(2 * 58 / (2 * 16 * 7))
    assert gini([0, 0, 0, 28], negative=True) == gini([0, 0, 0, 28]) == 0.75
    assert gini([-6, 1, 1, 1], negative=True) != gini([-6, 1, 1, 1], negative=True)  # NaN
