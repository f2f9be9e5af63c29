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
