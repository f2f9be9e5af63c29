"""Risk over many bets: the chance of being ahead after n bets, and the risk of ruin.

A bet is given as its exact distribution, ``{net result in stakes: probability}`` (e.g. the
engine's valuation of a real bet divided by its stake, or a textbook roulette bet). Nothing
here knows a game rule. Sources: the gambler's ruin (W. Feller, *An Introduction to
Probability Theory and Its Applications*, vol. 1, 3rd ed., ch. XIV.2) and absorbing Markov
chains (Kemeny and Snell, *Finite Markov Chains*, ch. III).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

__all__ = ["p_ahead_after", "ruin_probability", "ruin_by_chain", "simulate_ruin"]


def _integer_steps(dist: Mapping) -> tuple[dict[int, float], int]:
    """The bet as whole steps: ``({step: probability}, scale)`` with steps = result x scale."""
    scale = 1
    for k in dist:
        scale = np.lcm(scale, Fraction(k).denominator)
    steps = {int(Fraction(k) * scale): float(p) for k, p in dist.items()}
    if abs(sum(steps.values()) - 1) > 1e-9:
        raise ValueError(f"probabilities sum to {sum(steps.values())}, not 1")
    return steps, int(scale)


def p_ahead_after(dist: Mapping, bets: Sequence[int], side: str = "house") -> dict[int, float]:
    """P(after n independent bets the house is strictly ahead) for each n in ``bets``.

    ``dist``: the player's net result of one bet, ``{result: probability}`` (results may be
    Fractions). ``side="player"`` gives P(the player is strictly ahead). A tie is neither.
    Exact up to floating point: the distribution of the total is built by convolution.
    Raises ValueError if the probabilities do not sum to 1 or ``side`` is unknown.
    """
    if side not in ("house", "player"):
        raise ValueError(f"side must be 'house' or 'player', not {side!r}")
    steps, _ = _integer_steps(dist)
    lo, hi = min(steps), max(steps)
    one = np.zeros(hi - lo + 1)
    for v, p in steps.items():
        one[v - lo] += p
    total, n, out = np.array([1.0]), 0, {}
    for target in sorted(set(int(b) for b in bets)):
        if target < 0:
            raise ValueError("a number of bets cannot be negative")
        while n < target:
            total, n = np.convolve(total, one), n + 1
        sums = np.arange(len(total)) + n * lo
        out[target] = float(total[sums < 0].sum() if side == "house" else total[sums > 0].sum())
    return {int(b): out[int(b)] for b in bets}


def ruin_probability(p_win, start: int, target: int) -> Fraction | float:
    """Gambler's ruin (Feller XIV.2): P(a bankroll of ``start`` stakes, betting one stake at a
    time that wins one stake with probability ``p_win``, reaches 0 before ``target``).

    Exact (a Fraction) when ``p_win`` is a Fraction. Raises ValueError unless
    ``0 < start < target`` and ``0 < p_win < 1``.
    """
    if not 0 < start < target:
        raise ValueError(f"need 0 < start < target, got start={start}, target={target}")
    if not 0 < p_win < 1:
        raise ValueError(f"p_win must be between 0 and 1, got {p_win}")
    start, target = int(start), int(target)
    if p_win * 2 == 1:
        return 1 - Fraction(start, target)
    r = (1 - p_win) / p_win
    return (r**start - r**target) / (1 - r**target)


def ruin_by_chain(dist: Mapping, start: int, target: int) -> float:
    """P(ruin before ``target``) for any bet with whole-stake results (e.g. +1..+6 or -1).

    The bankroll is an absorbing Markov chain on 0..target: 0 or below is ruin, ``target`` or
    above is success; solved as a linear system. Raises ValueError for results that are not
    whole stakes or a bad ``start``.
    """
    steps, scale = _integer_steps(dist)
    if scale != 1:
        raise ValueError("results must be whole numbers of stakes")
    if not 0 < start < target:
        raise ValueError(f"need 0 < start < target, got start={start}, target={target}")
    n = target - 1  # transient states 1..target-1
    q = np.zeros((n, n))
    ruin = np.zeros(n)
    for i in range(1, target):
        for s, p in steps.items():
            j = i + s
            if j <= 0:
                ruin[i - 1] += p
            elif j < target:
                q[i - 1, j - 1] += p
    h = np.linalg.solve(np.eye(n) - q, ruin)
    return float(h[start - 1])


def simulate_ruin(
    dist: Mapping, start: int, target: int, sessions: int, seed: int | None = None
) -> int:
    """How many of ``sessions`` simulated bankrolls of ``start`` stakes reach 0 or below before
    ``target`` (each bet drawn from ``dist``; results in whole stakes). Seeded."""
    steps, scale = _integer_steps(dist)
    if scale != 1:
        raise ValueError("results must be whole numbers of stakes")
    values, probs = np.array(list(steps)), np.array(list(steps.values()))
    rng = np.random.default_rng(seed)
    bank = np.full(sessions, int(start))
    alive = np.ones(sessions, dtype=bool)
    while alive.any():
        bank[alive] += rng.choice(values, p=probs / probs.sum(), size=int(alive.sum()))
        alive &= (bank > 0) & (bank < target)
    return int((bank <= 0).sum())
