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


#: words a player should not meet before the Coach's details (issue 30, section 5): the
#: tests check the headline and the lines why against them
JARGON = ("Model", "P(", "EV", "expected value", "expected result", "keys 1.", "keys 0.",
          "0.0%", "100.0%", "probability", "valuation", "what-if", "probe", "heat map", "per $1")  # fmt: skip


def chance(p) -> str:
    """A chance in plain words: ``0`` -> ``"no chance"``, ``1`` -> ``"certain"``, else a whole
    percentage (``"under 1%"`` / ``"over 99%"`` at the ends, never ``"0%"`` for a chance)."""
    p = Fraction(p)
    if p <= 0:
        return "no chance"
    if p >= 1:
        return "certain"
    if p < Fraction(1, 200):
        return "under 1%"
    if p > Fraction(199, 200):
        return "over 99%"
    return f"{round(float(p) * 100)}%"


def money(x) -> str:
    """Dollars for the headline: to the dollar, or to the cent under $10 (``$0.33``)."""
    return cents(x) if abs(Fraction(x)) < 10 and Fraction(x) != int(Fraction(x)) else dollars(x)


#: the smallest lead, in dollars, that makes one choice "Best" when the Coach compares money
#: (the games' amounts are whole dollars: a lead of 45 cents on average is no reason to prefer
#: a move; the tester of stop 49 met "Best: ... $0.45 more" and "about $0.39 more ... give or
#: take $0.39")
MIN_LEAD = 1


def below_a_dollar(fmt, margin) -> bool:
    """True when ``margin`` is money (``fmt`` is one of this module's dollar writers) and less
    than :data:`MIN_LEAD`: too small a lead to call a choice best."""
    return fmt in (money, cents, dollars) and abs(Fraction(margin)) < MIN_LEAD


def best_line(ranked: list, *, fmt=None, more: str = "more for you on average") -> str:
    """The Coach's first line from ``[(label, value)]`` best first: ``"Best: Stay at $30,000 —
    $4,000 more for you on average than Raise to $60,000."`` (the margin over the runner-up
    written with ``fmt``, default :func:`money`); with one option only ``"Best: <label>."``.
    A tie is called a tie, never "Best" (issue 38, case 3): ``"A tie: Oil and Gold come out
    the same on average."`` (every option equal to the first, or within the rounding of
    ``fmt``, or, for money, less than :data:`MIN_LEAD` apart: "... come out within $1 of
    each other ...")."""
    fmt = money if fmt is None else fmt
    label, v = ranked[0]
    if len(ranked) == 1:
        return f"Best: {label}."
    label2, v2 = ranked[1]

    def close(w) -> bool:
        return w == v or fmt(v - w) in ("$0", "$0.00", "-$0") or below_a_dollar(fmt, v - w)

    if close(v2):
        tied = [lab for lab, w in ranked if close(w)]
        names = ", ".join(tied[:-1]) + " and " + tied[-1]
        if all(w == v for lab, w in ranked if lab in tied):
            return f"A tie: {names} come out the same{_measure(more)}."
        # money ties within $1 (MIN_LEAD); another writer of cents, within a cent
        cent = fmt not in (money, cents, dollars) and fmt(Fraction(1, 100)) == "$0.01"
        unit = "a cent" if cent else "$1"
        return f"A tie: {names} come out within {unit} of each other{_measure(more)}."
    return f"Best: {label} — {fmt(v - v2)} {more} than {label2}."


def _measure(more: str) -> str:
    """``"more for you on average"`` -> ``"(for you on average)"``: what a tie is measured in,
    in brackets, or after a comma when it holds brackets of its own (``", for you by the end
    of the game (a guess from the dice)"``: no brackets inside brackets)."""
    m = more.removeprefix("more ").strip() or "on average"
    return f", {m}" if "(" in m else f" ({m})"
