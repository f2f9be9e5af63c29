"""The Coach's wording: dollars, chances and the one-line recommendation, in words a player
reads (issue 30, section 5).

Source: reconstruction.
"""

from __future__ import annotations

from fractions import Fraction


def dollars(x) -> str:
    """Dollars rounded to $1: ``-1234.5`` -> ``"-$1,235"`` (half away from zero)."""
    v = Fraction(x)
    n = int(abs(v) + Fraction(1, 2))
    return f"-${n:,}" if v < 0 and n else f"${n:,}"


def cents(x) -> str:
    """Dollars with cents, for small expected values: ``Fraction(1, 3)`` -> ``"$0.33"``."""
    v = float(x)
    return f"-${-v:,.2f}" if v < 0 else f"${v:,.2f}"


def pct(p) -> str:
    """A probability as a percentage with one decimal: ``Fraction(1, 3)`` -> ``"33.3%"``."""
    return f"{float(p) * 100:.1f}%"


def top(heat: dict, names, k: int = 3) -> str:
    best = sorted(heat.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k]
    return ", ".join(f"{names(s)} {pct(p)}" for s, p in best)
