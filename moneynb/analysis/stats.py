"""Small statistics helpers for the teaching notebooks: confidence intervals and inequality."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["wilson_interval", "mean_interval", "gini", "lorenz", "sample_size_two_proportions"]


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion ``wins / n`` (95% for z = 1.96), within [0, 1]
    (rounding would otherwise print 0 wins' low end as ``-0.000``; issue 37).

    Raises:
        ValueError: ``n < 1`` or ``wins`` outside ``0..n``.
    """
    if n < 1 or not 0 <= wins <= n:
        raise ValueError(f"need 0 <= wins <= n and n >= 1, got wins={wins}, n={n}")
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)  # never -0.000 (0 wins)


def sample_size_two_proportions(
    p1: float, p2: float, alpha: float = 0.05, power: float = 0.8
) -> int:
    """Games per group for a two-sided test at level ``alpha`` to tell win rate ``p1`` from
    ``p2`` with probability ``power`` (a power calculation).

    The normal approximation for two independent proportions (pooled variance under the null,
    separate variances under the alternative; Fleiss, *Statistical Methods for Rates and
    Proportions*, 1981, without continuity correction), rounded up:
    ``n = (z_{1-alpha/2} sqrt(2 pbar qbar) + z_{power} sqrt(p1 q1 + p2 q2))^2 / (p1 - p2)^2``.
    Returns an int (games for EACH of the two groups).

    Raises:
        ValueError: a rate outside (0, 1), ``p1 == p2``, or ``alpha``/``power`` outside (0, 1).
    """
    for name, v in (("p1", p1), ("p2", p2), ("alpha", alpha), ("power", power)):
        if not 0 < v < 1:
            raise ValueError(f"{name} must be strictly between 0 and 1, got {v}")
    if p1 == p2:
        raise ValueError("p1 and p2 are equal: no sample size tells them apart")
    from statistics import NormalDist

    z_a = NormalDist().inv_cdf(1 - alpha / 2)
    z_b = NormalDist().inv_cdf(power)
    pbar = (p1 + p2) / 2
    root = z_a * math.sqrt(2 * pbar * (1 - pbar)) + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(root**2 / (p1 - p2) ** 2)


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its normal-approximation confidence interval."""
    x = np.asarray(values, dtype=float)
    m = float(x.mean())
    se = float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
    return m, m - z * se, m + z * se


def gini(values: Sequence[float], negative: bool = False) -> float:
    """Gini coefficient: 0 = all equal, (n-1)/n = one holds all (of non-negative amounts).

    ``G = sum_i sum_j |x_i - x_j| / (2 n^2 mean)``; 0 when everything is 0.
    ``negative=True`` accepts negative amounts (net worth: a player who owes more than they
    hold), as wealth surveys do; the same formula then can exceed (n-1)/n, and it is
    undefined (NaN is returned) when the total is 0 or less (everyone together owes as much as
    they hold, as can happen mid-game while the money sits in a pot).

    Raises:
        ValueError: a negative amount without ``negative=True``.
    """
    x = np.sort(np.asarray(values, dtype=float))
    if (x < 0).any():
        if not negative:
            raise ValueError(
                "the Gini coefficient needs non-negative amounts (gini(..., negative=True) "
                "for net worth)"
            )
        if x.sum() <= 0:
            return float("nan")
    n, total = len(x), x.sum()
    if n == 0 or total == 0:
        return 0.0
    # sorted form of the mean absolute difference
    i = np.arange(1, n + 1)
    return float((2 * (i * x).sum() / (n * total)) - (n + 1) / n)


def lorenz(values: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Lorenz curve: ``(share of people, share of money)`` arrays from (0, 0) to (1, 1)."""
    x = np.sort(np.asarray(values, dtype=float))
    cum = np.concatenate([[0.0], np.cumsum(x)])
    total = cum[-1] if cum[-1] else 1.0
    return np.linspace(0, 1, len(x) + 1), cum / total
