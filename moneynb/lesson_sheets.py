"""Paper worksheets and teacher's keys of the eight teaching notebooks, computed from the engine.

Each lesson is a :class:`Sheet`: the standards it serves (docs/teaching.md §11), the data a
student needs on the page (tables and formulas, every number asked of the engine when the sheet
is built), and its tasks in the order predict -> derive -> check, then a separate computer part
where the lesson has one. Each task carries its answers: the number as printed (money to the
cent, probabilities as fractions or %), the working (formula with the values put in), the exact
fraction where there is one and, for a prediction, the simulated or measured check with its 95%
interval. :mod:`moneynb.worksheets` draws a sheet as a worksheet (no answers, no code) and as a
teacher's key; ``tests/test_lesson_sheets.py`` checks both against the engine.

Source: issue 37 (worksheets a student does with a pencil and a calculator; keys with every
answer as a number). The tasks are the notebooks' predictions, exercises and quick assessments,
rewritten for paper where they asked for code.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np

#: The stages of a worksheet, in print order (the computer part is its own section).
STAGES = ("predict", "derive", "check", "computer")
STAGE_TITLES = {
    "predict": "A. Predict (write a guess before the lesson shows the answer)",
    "derive": "B. Derive (work it out with a pencil and a calculator)",
    "check": "C. Check (quick assessment)",
    "computer": "Computer part (in the notebook, not on paper)",
}

#: docs/teaching.md §11, one row per lesson: (Common Core, AP Statistics, Jump$tart).
STANDARDS = {
    "teach_dice": (
        "HSS-CP.A.1, CP.A.2, HSS-MD.A.1, HSS-IC.A.2",
        "Units 4, 5",
        "Managing Risk (chance of a loss)",
    ),
    "teach_expected_value": (
        "HSS-MD.A.2, MD.A.3, MD.B.5a-b, MD.B.7",
        "Unit 4",
        "Investing (risk and return, diversification), Managing Risk (Kelly sizing)",
    ),
    "teach_markov": (
        "HSS-MD.A.1, HSS-IC.A.2 (model against simulation)",
        "Unit 4 (an extension: Markov chains are beyond the course)",
        "none",
    ),
    "teach_tournaments": (
        "HSS-IC.A.2, IC.B.4, IC.B.5",
        "Units 5, 6 (intervals, tests, power)",
        "none",
    ),
    "teach_agents": ("HSS-MD.B.7, HSS-IC.A.2", "Units 3, 6", "none"),
    "teach_credit": (
        "(HSF-LE.A: exponential growth)",
        "none",
        "Managing Credit (APR, APY, minimum payments, loan cost), Saving (compound interest, "
        "inflation, real rates)",
    ),
    "teach_property": (
        "HSS-MD.A.2, MD.B.5b, MD.B.7",
        "Unit 4",
        "Investing (return, payback), Spending",
    ),
    "teach_inequality": (
        "HSS-ID.A.2, HSS-IC.B.4",
        "Units 1, 7",
        "Managing Credit (net worth: assets minus debts), Saving",
    ),
}


@dataclass(frozen=True)
class Answer:
    """One answer of a task, as the key prints it.

    ``value``: the engine's number (a float or Fraction; a share is a number in [0, 1], a
    percentage in the text is value x 100). ``shown``: the printed answer; its first token is
    the number (``$888.49``, ``1/6``, ``16.67%``, ``10.24``), which :func:`parse_number` reads
    back. ``working``: Markdown lines (formulas in ``$...$``) giving the derivation with the
    values put in. ``check``: the simulated or measured check with its 95% interval, if any.
    """

    value: float | Fraction
    shown: str
    working: tuple[str, ...] = ()
    check: str = ""


@dataclass(frozen=True)
class Task:
    """One task of a worksheet.

    ``stage``: one of :data:`STAGES`. ``prompt``: Markdown, with every number the task needs
    (or a pointer to a numbered table of the sheet's "What you need"). ``space``: the height
    of the answer space in millimetres. ``data``: the strings that must be printed on the
    worksheet for the task to be done on paper (checked by the tests). ``note``: key-only text
    for answers that are words, not numbers.
    """

    stage: str
    prompt: str
    answers: tuple[Answer, ...] = ()
    space: int = 12
    data: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self):
        if self.stage not in STAGES:
            raise ValueError(f"unknown stage {self.stage!r}: one of {STAGES}")


@dataclass(frozen=True)
class Sheet:
    """A lesson's worksheet and key: ``given`` is Markdown (tables, formulas) printed under
    "What you need"; ``tasks`` in any order (printed grouped by :data:`STAGES`)."""

    lesson: str
    title: str
    intro: str
    given: tuple[str, ...]
    tasks: tuple[Task, ...]
    statements: dict = field(default_factory=dict)

    @property
    def standards(self) -> tuple[str, str, str]:
        return STANDARDS[self.lesson]

    def ordered(self) -> list[Task]:
        """The tasks in print order: predict, derive, check, computer."""
        return sorted(self.tasks, key=lambda t: STAGES.index(t.stage))


# ---------------------------------------------------------------------------- formatting


def money(x: float | Fraction) -> str:
    """Dollars as printed: ``$1,234`` for whole dollars, else to the cent (``$81.08``)."""
    x = float(x)
    sign = "-" if x < -0.004 else ""
    x = abs(x)
    if abs(x - round(x)) < 0.005:
        return f"{sign}${round(x):,}"
    return f"{sign}${x:,.2f}"


def pct(x: float | Fraction, digits: int = 1) -> str:
    """A share as a percentage (``0.1667`` -> ``16.7%``); never ``-0.0%``."""
    v = 100 * float(x)
    out = f"{v:,.{digits}f}%"
    return out[1:] if re.fullmatch(r"-0\.?0*%", out) else out


def dec(x: float | Fraction, digits: int = 3) -> str:
    """A plain number to ``digits`` decimals; never ``-0.000``."""
    out = f"{float(x):,.{digits}f}"
    return out[1:] if re.fullmatch(r"-0\.?0*", out) else out


def frac(x: Fraction) -> str:
    """A Fraction as ``a/b`` (an integer as itself)."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def prob(x: Fraction, digits: int = 1) -> str:
    """An exact probability as ``a/b = p%``."""
    return f"{frac(x)} = {pct(x, digits)}"


_NUMBER = re.compile(r"^-?\$?-?[\d,]*\.?\d+(/\d+)?%?")


def parse_number(text: str) -> tuple[float, float]:
    """The number at the start of ``text`` as printed by this module, and half its last digit.

    ``"$888.49 a month"`` -> (888.49, 0.005); ``"1/6 = 16.7%"`` -> (0.1666.., 0);
    ``"16.67%"`` -> (0.1667, 0.00005). Raises ValueError when ``text`` starts with no number.
    """
    m = _NUMBER.match(text.strip().replace("\u2212", "-"))
    if not m:
        raise ValueError(f"no number at the start of {text!r}")
    token = m.group(0)
    sign = -1 if token.startswith("-") or token.startswith("$-") else 1
    body = token.replace("$", "").replace(",", "").lstrip("-")
    if "/" in body:
        a, b = body.split("/")
        return sign * float(Fraction(int(a), int(b))), 0.0
    scale = 0.01 if body.endswith("%") else 1.0
    body = body.rstrip("%")
    decimals = len(body.split(".")[1]) if "." in body else 0
    return sign * float(body) * scale, 0.5 * 10.0**-decimals * scale


#: A float's repr or a rounding artefact printed where a student reads it (issue 37):
#: ``3.5999999999999996``, ``0.024999999999999804``, ``0.6348214285714285``, ``-0.000``.
FLOAT_ARTEFACT = re.compile(r"\d\.\d*(?:9{6,}|0{6,})\d+|\d\.\d{10,}|(?<![\w.])-0\.0+(?![\d])")


def float_artefacts(text: str) -> list[str]:
    """Every float repr artefact in ``text`` (see :data:`FLOAT_ARTEFACT`), with 30 characters
    of context; [] when the text is clean."""
    return [
        text[max(0, m.start() - 30) : m.end() + 10].replace("\n", " ")
        for m in FLOAT_ARTEFACT.finditer(text)
    ]


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(c.replace("$", "\\$") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def bar_figure(caption: str, labels: list[str], values: list[float], ylabel: str) -> str:
    """A bar chart as an inline SVG ``<figure>`` with its caption (HTML; nothing loaded, drawn
    by any browser and printed as vectors). ``values`` are bar heights (>= 0)."""
    w, h, left, bottom = 330, 120, 34, 22
    top = max(values) or 1
    step = (w - left - 4) / len(values)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" role="img"><title>{caption}</title>',
        f'<line x1="{left}" y1="{h - bottom}" x2="{w}" y2="{h - bottom}" stroke="#000"/>',
        f'<text x="2" y="10" font-size="8">{ylabel}</text>',
    ]
    for i, (label, v) in enumerate(zip(labels, values, strict=True)):
        bh = (h - bottom - 16) * v / top
        x = left + i * step + 2
        parts.append(
            f'<rect x="{x:.1f}" y="{h - bottom - bh:.1f}" width="{step - 4:.1f}" '
            f'height="{bh:.1f}" fill="#6b8fbf"/>'
            f'<text x="{x + (step - 4) / 2:.1f}" y="{h - bottom + 10}" font-size="8" '
            f'text-anchor="middle">{label}</text>'
        )
    parts.append("</svg>")
    return f"<figure>{''.join(parts)}<figcaption>{caption}</figcaption></figure>"


def _interval(lo: float, hi: float, fmt: Callable = dec) -> str:
    return f"95% interval {fmt(lo)} to {fmt(hi)}"


# ---------------------------------------------------------------------------- the lessons


def _dice() -> Sheet:
    import moneynb
    from moneynb.analysis import ev
    from moneynb.analysis.stats import wilson_interval
    from moneynb.core.chance import D6, sum_distribution
    from moneynb.core.outcomes import chance_outcomes

    game = moneynb.new_game("easy_money", players=["A", "B"], seed=1)
    two: dict[int, Fraction] = {}
    for o in chance_outcomes(game, "roll"):
        (rolled,) = [e for e in o.events if e.kind == "rolled"]
        t = sum(rolled.data["dice"])
        two[t] = two.get(t, Fraction(0)) + o.probability
    two = dict(sorted(two.items()))
    most = max(two, key=two.get)
    rolls = np.random.default_rng(2024).integers(1, 7, size=(100_000, 2))
    sums = rolls.sum(axis=1)
    k7 = int((sums == most).sum())
    lo7, hi7 = wilson_interval(k7, len(sums))
    p_double = Fraction(6, 36)
    kd = int((rolls[:, 0] == rolls[:, 1]).sum())
    lod, hid = wilson_interval(kd, len(rolls))
    mean2 = sum(s * p for s, p in two.items())
    var2 = sum((s - mean2) ** 2 * p for s, p in two.items())
    ten = sum_distribution([D6] * 10)
    m10 = sum(s * p for s, p in ten.items())
    v10 = sum((s - m10) ** 2 * p for s, p in ten.items())
    thirty = sum_distribution([D6] * 30)
    p120 = sum(p for s, p in thirty.items() if s >= 120)
    sd30 = math.sqrt(30 * 35 / 12)
    z = (119.5 - 105) / sd30
    from statistics import NormalDist

    normal = 1 - NormalDist().cdf(z)
    p_red = ev.monte_carlo_bet("red")["p_win"]
    segs = moneynb.new_game("money_card", players=["A", "B"], seed=0).board.segments
    is_red = np.array([s["color"] == "red" for s in segs])
    spins = is_red[np.random.default_rng(5).integers(len(segs), size=400_000)]
    run = np.zeros(len(spins), dtype=int)
    for i in range(1, len(spins)):
        run[i] = run[i - 1] + 1 if spins[i - 1] else 0
    after = spins[run >= 5]
    lor, hir = wilson_interval(int(after.sum()), len(after))
    at_least_10 = sum(p for t, p in two.items() if t >= 10)
    task_die = 1 - Fraction(4, 6) ** 3
    lo180, hi180 = wilson_interval(180, 1000)
    se180 = math.sqrt(0.18 * 0.82 / 1000)
    counts = _table(
        ["sum", *[str(t) for t in two]],
        [["rolls out of 36", *[str(p * 36) for p in two.values()]]],
    )
    ztab = _table(
        ["z", "1.4", "1.5", "1.55", "1.6", "1.7"],
        [
            [
                "P(Z ≥ z)",
                *[dec(1 - NormalDist().cdf(v), 4) for v in (1.4, 1.5, 1.55, 1.6, 1.7)],
            ]
        ],
    )
    given = (
        "**Table 1. Two dice: how many of the 36 equally likely rolls give each sum** "
        "(the engine's own dice, every way they can fall):\n\n" + counts,
        bar_figure(
            "Figure 1. The sum of two dice: rolls out of 36 for each sum",
            [str(t) for t in two],
            [float(p * 36) for p in two.values()],
            "rolls of 36",
        ),
        "**Formulas.** Expected value $E[S] = \\sum_s s\\,P(s)$; variance "
        "$\\mathrm{Var}(S) = \\sum_s (s - E[S])^2 P(s)$; one die has mean 7/2 and variance "
        "35/12, and the variances of independent dice add. A 95% interval for a share "
        "$\\hat p$ of $n$ trials: $\\hat p \\pm 1.96\\sqrt{\\hat p(1-\\hat p)/n}$.",
        "**Table 2. The normal curve:** the chance that a normal value lies at least $z$ "
        "standard deviations above its mean.\n\n" + ztab,
    )
    tasks = (
        Task(
            "predict",
            "Before you look at Table 1: which sum of two dice is the most likely, and what is "
            "its probability?",
            (
                Answer(
                    two[most],
                    f"{frac(two[most])} (the sum {most})",
                    (
                        f"Table 1: {two[most] * 36} of the 36 rolls give {most}: "
                        f"$P({most}) = {two[most] * 36}/36 = {frac(two[most])}$.",
                    ),
                    f"100,000 simulated rolls: {k7:,} sevens = {dec(k7 / len(sums), 4)} "
                    f"({_interval(lo7, hi7, lambda v: dec(v, 4))}), which contains "
                    f"1/6 = {dec(Fraction(1, 6), 4)}.",
                ),
            ),
            space=10,
            data=("rolls out of 36",),
        ),
        Task(
            "predict",
            "A Money Card spinner has 12 equal segments, 6 of them red and 6 black. After five "
            "reds in a row, what is the chance that the next spin is red?",
            (
                Answer(
                    p_red,
                    f"{frac(p_red)}",
                    (
                        "The spinner has no memory: $P(\\text{red}) = 6/12 = 1/2$ "
                        "whatever came before.",
                    ),
                    f"400,000 simulated spins: {len(after):,} followed five reds; "
                    f"{dec(after.mean(), 3)} of them were red "
                    f"({_interval(lor, hir)}), which contains 1/2.",
                ),
            ),
            space=10,
            data=("12 equal segments, 6 of them red and 6 black",),
        ),
        Task(
            "predict",
            "Roll 30 dice. What is the chance that their sum is at least 120? (Their mean is "
            f"105 and their standard deviation $\\sqrt{{30 \\cdot 35/12}} \\approx {dec(sd30, 2)}$; "
            "a sum of at least 120 is a sum above 119.5 on the normal curve.)",
            (
                Answer(
                    p120,
                    f"{dec(p120, 4)} (about {pct(p120)})",
                    (
                        f"Normal approximation: $z = (119.5 - 105)/{dec(sd30, 2)} = "
                        f"{dec(z, 2)}$, Table 2: $P(Z \\ge {dec(z, 2)}) \\approx "
                        f"{dec(normal, 4)}$ (119.5: the sum is a whole number).",
                        f"Exact count of the engine's 30 dice: {dec(p120, 4)}.",
                    ),
                ),
            ),
            space=14,
            data=("9.35", "119.5", "P(Z ≥ z)"),
        ),
        Task(
            "derive",
            "What is the probability that two dice show a sum of at least 10?",
            (
                Answer(
                    at_least_10,
                    prob(at_least_10),
                    (f"Table 1: $(3 + 2 + 1)/36 = 6/36 = {frac(at_least_10)}$.",),
                ),
            ),
            space=12,
        ),
        Task(
            "derive",
            "Doubles are 6 of the 36 rolls. What is the chance of doubles? Of three doubles in "
            "a row?",
            (
                Answer(
                    p_double,
                    prob(p_double),
                    ("$6/36 = 1/6$.",),
                    f"100,000 simulated rolls: {dec(kd / len(rolls), 4)} doubles "
                    f"({_interval(lod, hid, lambda v: dec(v, 4))}).",
                ),
                Answer(
                    p_double**3,
                    prob(p_double**3, 2),
                    ("Independent rolls multiply: $(1/6)^3 = 1/216$.",),
                ),
            ),
            space=14,
        ),
        Task(
            "derive",
            "What are the mean and the variance of the sum of two dice? Its standard deviation?",
            (
                Answer(mean2, f"{frac(mean2)}", ("$2 \\times 7/2 = 7$.",)),
                Answer(
                    var2,
                    f"{frac(var2)} = {dec(var2, 2)}",
                    (
                        "Variances of independent dice add: $35/12 + 35/12 = 35/6$ "
                        "(or from Table 1: $\\sum (s-7)^2 P(s) = 210/36$).",
                    ),
                    f"Simulated variance of 100,000 sums: {dec(np.var(sums), 3)}.",
                ),
                Answer(
                    math.sqrt(var2), dec(math.sqrt(var2), 2), ("$\\sqrt{35/6} \\approx 2.42$.",)
                ),
            ),
            space=20,
        ),
        Task(
            "derive",
            "In Money Moves the task die has six faces, two of which draw a card. What is the "
            "chance of drawing at least one card in three turns?",
            (
                Answer(
                    task_die,
                    prob(task_die),
                    ("No card in a turn: 4/6. $1 - (4/6)^3 = 1 - 8/27 = 19/27$.",),
                ),
            ),
            space=14,
            data=("six faces, two of which draw a card",),
        ),
        Task(
            "derive",
            "What are the mean and the variance of the sum of 10 dice?",
            (
                Answer(m10, f"{frac(m10)}", ("$10 \\times 7/2 = 35$.",)),
                Answer(v10, f"{frac(v10)} = {dec(v10, 2)}", ("$10 \\times 35/12 = 175/6$.",)),
            ),
            space=14,
        ),
        Task(
            "check",
            "You roll two dice 1,000 times and see 180 doubles. Give a 95% interval for the "
            "share of doubles. Is 1/6 inside it?",
            (
                Answer(
                    0.18 - 1.96 * se180,
                    f"{dec(0.18 - 1.96 * se180, 3)} to {dec(0.18 + 1.96 * se180, 3)}",
                    (
                        f"$0.18 \\pm 1.96\\sqrt{{0.18 \\times 0.82/1000}} = 0.18 \\pm "
                        f"{dec(1.96 * se180, 3)}$; it contains 1/6 = 0.167: no evidence "
                        "against fair dice.",
                        f"(Wilson's interval, which the notebook uses: {dec(lo180, 3)} to "
                        f"{dec(hi180, 3)}.)",
                    ),
                ),
            ),
            space=14,
        ),
        Task(
            "check",
            "A friend has lost five Monte Carlo bets on black in a row. What is the chance "
            "that the sixth bet wins?",
            (Answer(Fraction(1, 2), "1/2", ("6 of the 12 segments are black; no memory.",)),),
            space=8,
        ),
        Task(
            "computer",
            "Class experiment: roll ten dice with your own seed and post their **mean** under "
            "the lesson code. Where do the class's means pile up, and how spread out are they?",
            (
                Answer(
                    Fraction(7, 2),
                    "7/2 (= 3.5), standard deviation 0.54",
                    (
                        "The mean of ten dice has mean 7/2 and variance "
                        "$(35/12)/10 = 7/24$, standard deviation "
                        f"$\\sqrt{{7/24}} = {dec(math.sqrt(7 / 24), 2)}$.",
                    ),
                ),
            ),
            space=10,
        ),
    )
    return Sheet(
        "teach_dice",
        "Dice and distributions",
        "Two dice, sums, spread and the spinner's memory: exact probabilities from the "
        "game engine's own dice, against simulated rolls.",
        given,
        tasks,
    )


def _expected_value() -> Sheet:
    from moneynb.analysis import ev, finance, risk
    from moneynb.analysis.moolah import blackjack_hand_distribution, decision_state
    from moneynb.core.outcomes import value_option

    bj = ev.blackjack_table()
    game = decision_state("casino_bet")
    stake = game.decision.low
    value = value_option(game, stake, follow_tags=("casino_raise",))
    per_dollar = Fraction(value.mean) / stake
    stay = -ev.blackjack_house_edge(policy="stay")
    casino = -1000 * 10 * per_dollar
    black = ev.monte_carlo_bet("black", 10)
    red20, black20 = ev.monte_carlo_bet("red", 20), ev.monte_carlo_bet("black", 20)
    until = ev.bet_until_loss("red", 10)
    kelly = finance.kelly_fraction(black["outcomes"], 10)
    ws = ev.wall_street_table()
    r20 = next(r for r in bj if r["score"] == 20)
    p_red = Fraction(18, 38)
    ruin = risk.ruin_probability(p_red, 10, 20)
    ruin_eu = risk.ruin_probability(Fraction(18, 37), 10, 20)
    euro = Fraction(10 * 100 * 3, 37)
    one = blackjack_hand_distribution("stay")
    # the check: 2,000 hands of "always stay", drawn from the engine's exact hand distribution
    rng = np.random.default_rng(11)
    vals = np.array([float(k) for k in one])
    probs = np.array([float(p) for p in one.values()])
    hands = rng.choice(vals, p=probs, size=2000)
    hm, hhalf = hands.mean(), 1.96 * hands.std(ddof=1) / math.sqrt(len(hands))
    best_mean = max(r["mean"] for r in ws)
    low_loss = min(r["p_loss"] for r in ws)
    tied = [r["stock"] for r in ws if r["p_loss"] == low_loss]
    bjt = _table(
        ["your card", "P(draw it)", "P(win)", "EV per \\$1, stay", "EV per \\$1, double"],
        [
            [
                str(r["score"]),
                frac(r["p_draw"]),
                frac(r["p_win"]),
                frac(r["ev_stay"]),
                frac(r["ev_double"]),
            ]
            for r in bj
        ],
    )
    black_t = _table(
        ["dollars won", *[f"{x:+,}" for x in black["outcomes"]]],
        [["probability", *[frac(p) for p in black["outcomes"].values()]]],
    )
    ws_t = _table(
        ["stock", "profit cards (%)"],
        [[r["stock"], ", ".join(str(c) for c in r["cards"])] for r in ws],
    )
    given = (
        "**Table 1. Moolah's Black Jack, fresh pile** (the engine's table; a win pays even "
        "money, doubling doubles the stake):\n\n" + bjt,
        "**Table 2. A <span>\\$10</span> Monte Carlo bet on black** (Money Card's spinner: 12 "
        "equal segments, 6 red and 6 black; a bet on red pays the same way):"
        "\n\n" + black_t,
        "**Table 3. Wall Street's three stock decks** (ten cards each, equally likely):\n\n" + ws_t,
        "**Facts.** A roulette bet on red wins even money; American roulette: 18 red pockets "
        "of 38; European: 18 of 37 (a bet on one number: 35 to 1). Gambler's ruin, start "
        "with $i$ stakes, stop at $N$ or 0, win each bet with chance $p$, $q = 1 - p$: "
        "$P(\\text{ruin}) = \\dfrac{(q/p)^i - (q/p)^N}{1 - (q/p)^N}$.",
    )
    tasks = (
        Task(
            "predict",
            "Casinos make money. Guess the **player's** expected gain per <span>\\$1</span> at "
            "Moolah's Black Jack, playing as well as possible (negative if the House is ahead).",
            (
                Answer(
                    per_dollar,
                    f"{frac(per_dollar)} = {dec(per_dollar, 4)} per $1 (the player is ahead)",
                    (
                        "Best play (Table 1): double where the double column is larger. "
                        "$\\sum_\\text{cards} P(\\text{draw}) \\times \\max(\\text{stay}, "
                        f"\\text{{double}}) = {frac(per_dollar)}$ per \\$1.",
                        f"Always staying: {frac(stay)} = {dec(stay, 4)} per \\$1.",
                    ),
                    f"2,000 simulated hands, always staying: {dec(hm, 3)} per \\$1 "
                    f"({_interval(hm - hhalf, hm + hhalf)}), containing {dec(stay, 3)}.",
                ),
            ),
            space=10,
            data=("P(draw it)",),
        ),
        Task(
            "predict",
            "A casino deals 1,000 hands of this Black Jack at <span>\\$10</span> to players "
            "who play best. How many dollars does the casino expect to win (negative: lose)?",
            (
                Answer(
                    casino,
                    f"{money(casino)}",
                    (
                        f"$-1000 \\times 10 \\times {frac(per_dollar)} = {dec(casino, 2)}$ "
                        "dollars: the casino expects to lose.",
                    ),
                ),
            ),
            space=10,
        ),
        Task(
            "predict",
            "Betting <span>\\$10</span> on red until the first loss: what is the chance of "
            "ending the session down <span>\\$10</span> (the first spin loses)?",
            (
                Answer(
                    until["distribution"][-10],
                    frac(until["distribution"][-10]),
                    ("The first spin loses with chance 6/12 = 1/2.",),
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "With the 20 in Black Jack, should you stay or double? What is your EV per "
            "<span>\\$1</span> if you double?",
            (
                Answer(
                    r20["ev_double"],
                    f"{frac(r20['ev_double'])} per $1: {r20['best']}",
                    (
                        f"Table 1: stay {frac(r20['ev_stay'])}, double "
                        f"{frac(r20['ev_double'])} = $2 \\times {frac(r20['ev_stay'])}$.",
                    ),
                ),
            ),
            space=10,
        ),
        Task(
            "derive",
            "From Table 2, compute the expected value of the <span>\\$10</span> bet on black, "
            "$\\sum x \\cdot p$. Then the EV of <span>\\$20</span> on black and on red.",
            (
                Answer(
                    black["ev"],
                    money(black["ev"]),
                    (
                        "$-10 \\cdot \\tfrac12 + (10 + 20 + 30 + 40 + 50 + 60) \\cdot "
                        f"\\tfrac1{{12}} = -5 + 17.5 = {dec(black['ev'], 2)}$.",
                    ),
                ),
                Answer(
                    black20["ev"],
                    f"{money(black20['ev'])} on black, {money(red20['ev'])} on red",
                    ("Twice the stake, twice the EV; red and black pay alike.",),
                ),
            ),
            space=16,
            data=("dollars won",),
        ),
        Task(
            "derive",
            "A European roulette player bets <span>\\$10</span> a spin on one number, 100 "
            "spins an hour, for 3 hours. What does the casino expect to win from them?",
            (
                Answer(
                    euro,
                    money(euro),
                    (
                        "Per \\$1: the player gets $(35 - 36)/37 = -1/37$. 300 spins of "
                        f"\\$10 = \\$3,000 staked; $3000/37 = {dec(euro, 2)}$ dollars.",
                    ),
                ),
            ),
            space=12,
        ),
        Task(
            "derive",
            "You start with <span>\\$100</span> and bet <span>\\$10</span> on red at American "
            "roulette until you reach <span>\\$200</span> or lose everything. What is the chance "
            "of losing everything? And at European roulette?",
            (
                Answer(
                    ruin,
                    dec(ruin, 3),
                    (
                        "$i = 10$, $N = 20$ stakes, $q/p = 20/18$: "
                        "$((20/18)^{10} - (20/18)^{20})/(1 - (20/18)^{20}) = "
                        f"{dec(ruin, 3)}$ (a fair coin: 0.5).",
                    ),
                ),
                Answer(
                    ruin_eu,
                    dec(ruin_eu, 3),
                    (f"$q/p = 19/18$: {dec(ruin_eu, 3)}; the smaller edge lowers the risk.",),
                ),
            ),
            space=18,
        ),
        Task(
            "check",
            "Table 3: which stock has the highest mean profit? Which has the lowest chance of a loss "
            "(a card below 0)?",
            (
                Answer(
                    best_mean / 100,
                    f"{frac(best_mean)}% ({next(r['stock'] for r in ws if r['mean'] == best_mean)})",
                    ("Means: " + ", ".join(f"{r['stock']} {frac(r['mean'])}%" for r in ws) + ".",),
                ),
                Answer(
                    low_loss,
                    f"{frac(low_loss)} ({' and '.join(tied)}, a tie)"
                    if len(tied) > 1
                    else f"{frac(low_loss)} ({tied[0]})",
                    (
                        "P(loss): "
                        + ", ".join(f"{r['stock']} {frac(r['p_loss'])}" for r in ws)
                        + "; the smaller spread of grain's cards makes it the safer of the two.",
                    ),
                ),
            ),
            space=12,
        ),
        Task(
            "check",
            "Betting until the first loss on red (each spin loses with chance 1/2): how many "
            "spins does a session last on average?",
            (
                Answer(
                    until["expected_spins"],
                    f"{frac(until['expected_spins'])} spins",
                    ("Geometric: $1/P(\\text{loss}) = 1/(1/2) = 2$.",),
                ),
            ),
            space=8,
        ),
        Task(
            "computer",
            "Kelly: with the knobs, find the share of your money to stake on black that makes "
            "it grow fastest. What happens at twice that share?",
            answers=(
                Answer(
                    kelly,
                    f"{pct(kelly)} of your money",
                    (
                        "The Kelly share $f$ maximises the expected log-growth "
                        "$\\sum_x p_x \\ln(1 + f\\,x/10)$ over Table 2's outcomes; the "
                        "notebook prints the typical result of 100 bets at half, once and twice "
                        "this share (twice it grows the money more slowly).",
                    ),
                ),
            ),
            space=10,
        ),
    )
    return Sheet(
        "teach_expected_value",
        "Expected value and risk",
        "Black Jack, stocks, the spinner, house edges and ruin: every game number is the "
        "engine's, worked out exactly from its cards and spinner.",
        given,
        tasks,
    )


def _markov() -> Sheet:
    import moneynb
    from moneynb.analysis.markov import TrackModel
    from moneynb.analysis.montecarlo import simulate_tokens
    from moneynb.analysis.stats import mean_interval
    from moneynb.analysis.tracks import moolah_track

    moolah = moolah_track()
    chain = moolah.compile()
    bank = moolah.names.index("Bank")
    pi = chain.stationary_spaces()
    avg100 = chain.to_spaces(chain.distribution_after(100)[1:].mean(axis=0))
    n_tok = 20_000
    visits = simulate_tokens(chain, n_tok, 100, seed=1, record="spaces")
    sim = visits / visits.sum()
    se = math.sqrt(avg100[bank] * (1 - avg100[bank]) / n_tok)
    h = chain.hitting_times([bank])
    at_bank = chain.states.index((bank, 0, 0))
    back = 1 + chain.P[at_bank] @ h
    games = moneynb.simulate("moolah", ["greedy"] * 3, n_games=40, seed=1, progress=False)
    m, lo, hi = mean_interval(games["turns"] / 3)
    loop12 = Fraction(TrackModel(12).compile().stationary_spaces()[0]).limit_denominator(100)
    loop40 = Fraction(TrackModel(40).compile().stationary_spaces()[0]).limit_denominator(100)
    p7 = Fraction(6, 36)
    given = (
        "**The board as a chain.** A token's next space depends only on where it is now. A "
        "row of the transition matrix lists where a token on one space goes after a roll, and "
        "how likely. The **long-run share** $\\pi_s$ of a space is the share of all rolls that "
        "end there; the mean number of rolls between two visits to a space is $1/\\pi_s$ "
        "(Kac's formula).",
        "**Moolah's board** has about fifty spaces (the engine's chain: "
        f"{moolah.n_spaces} spaces). No roll may pass the Bank: a token that would pass it "
        "stops there.",
        "**Two dice** (36 equally likely rolls): sums 2 to 12 come up in 1, 2, 3, 4, 5, 6, 5, "
        "4, 3, 2, 1 rolls of the 36.",
    )
    tasks = (
        Task(
            "predict",
            "In the long run, what share of all rolls end with the token on Moolah's Bank? (If "
            "every space were equally likely it would be about 1/50.)",
            (
                Answer(
                    pi[bank],
                    f"{dec(pi[bank], 4)} (about 1 roll in {dec(1 / pi[bank], 1)})",
                    (
                        "The chain's stationary distribution, $\\pi P = \\pi$: no roll passes "
                        f"the Bank, so every lap ends there: $\\pi_\\text{{Bank}} = "
                        f"{dec(pi[bank], 4)}$.",
                    ),
                    f"{n_tok:,} simulated tokens, 100 rolls each from the Bank: "
                    f"{dec(sim[bank], 4)} of rolls end on the Bank; the exact average of the "
                    f"first 100 rolls is {dec(avg100[bank], 4)} "
                    f"({_interval(sim[bank] - 1.96 * se, sim[bank] + 1.96 * se, lambda v: dec(v, 4))}).",
                ),
            ),
            space=10,
            data=("1/50",),
        ),
        Task(
            "predict",
            "A token stands on the Bank. On average, how many rolls until a roll ends on the "
            "Bank again?",
            (
                Answer(
                    back,
                    f"{dec(back, 2)} rolls",
                    (
                        f"Kac: $1/\\pi_\\text{{Bank}} = 1/{dec(pi[bank], 4)} = "
                        f"{dec(1 / pi[bank], 2)}$; the chain's hitting times give "
                        f"{dec(back, 2)}.",
                    ),
                ),
            ),
            space=10,
        ),
        Task(
            "predict",
            "In a three-player game of Moolah, how many turns does each player get?",
            (
                Answer(
                    m,
                    f"{dec(m, 1)} turns",
                    ("Measured: 40 seeded games of three greedy bots, turns / 3.",),
                    f"{_interval(lo, hi, lambda v: dec(v, 1))}; shortest "
                    f"{dec((games['turns'] / 3).min(), 0)}, longest "
                    f"{dec((games['turns'] / 3).max(), 0)}.",
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "A plain loop of 12 spaces, no special spaces, two dice. In the long run, what share "
            "of rolls ends on space 0? Argue it without a matrix.",
            (
                Answer(
                    loop12,
                    prob(loop12),
                    (
                        "Every space looks the same from the token's point of view "
                        "(turning the loop changes nothing), so all 12 shares are equal: 1/12.",
                    ),
                ),
            ),
            space=12,
        ),
        Task(
            "derive",
            "On that loop of 12 spaces a token stands on space 0. After one roll of two dice, "
            "what is the chance it stands on space 7? On space 0?",
            (
                Answer(p7, prob(p7), ("Space 7: a sum of 7, 6 of the 36 rolls.",)),
                Answer(
                    Fraction(1, 36),
                    prob(Fraction(1, 36), 2),
                    ("Space 0 again: a sum of 12 (one full lap), 1 of the 36 rolls.",),
                ),
            ),
            space=12,
        ),
        Task(
            "derive",
            "A space has a long-run share of 1/20. About how many rolls pass between two visits?",
            (Answer(20, "20 rolls", ("Kac: $1/(1/20) = 20$.",)),),
            space=8,
        ),
        Task(
            "check",
            "What does one row of the transition matrix add up to, and why?",
            (
                Answer(
                    1,
                    "1",
                    ("From any state the token goes somewhere; the row lists every place.",),
                ),
            ),
            space=8,
        ),
        Task(
            "check",
            "On a plain loop of 40 spaces with no special spaces, what is each space's "
            "long-run share?",
            (Answer(loop40, prob(loop40, 1), ("By symmetry, $1/40$.",)),),
            space=8,
        ),
        Task(
            "computer",
            "Move the knob: after how many rolls from the Bank is the distribution close to "
            "the long run? Switch to the inner paths at the Option Points.",
            note="The notebook draws the n-roll distribution beside the long run.",
            space=10,
        ),
    )
    return Sheet(
        "teach_markov",
        "The board as a Markov chain",
        "Where does a token spend its time? Moolah's board as a chain: long-run shares, return "
        "times, and the length of a real game.",
        given,
        tasks,
    )


def _tournaments() -> Sheet:
    import pandas as pd

    import moneynb
    from moneynb.analysis.stats import sample_size_two_proportions, wilson_interval

    games = moneynb.simulate(
        "money_moves",
        ["greedy", "random", "greedy", "random"],
        n_games=150,
        seed=1,
        progress=False,
    )
    swapped = moneynb.simulate(
        "money_moves",
        ["random", "greedy", "random", "greedy"],
        n_games=150,
        seed=2,
        progress=False,
    )
    both = pd.concat([games, swapped], ignore_index=True)
    kind = both["winner"].str.rstrip("0123456789")
    n = len(both)
    gw, rw = int((kind == "greedy").sum()), int((kind == "random").sum())
    glo, ghi = wilson_interval(gw, n)
    per_bot = gw / n / 2
    decided = gw + rw
    dlo, dhi = wilson_interval(gw, decided)
    dse = math.sqrt((gw / decided) * (1 - gw / decided) / decided)
    mr = pd.concat(
        [
            moneynb.simulate("money_run", ["greedy", "random"], n_games=30, seed=3, progress=False),
            moneynb.simulate("money_run", ["random", "greedy"], n_games=30, seed=4, progress=False),
        ],
        ignore_index=True,
    )
    w = int(mr["winner"].fillna("").str.startswith("greedy").sum())
    wlo, whi = wilson_interval(w, len(mr))
    p, half = 0.30, 0.05
    n_formula = 1.96**2 * p * (1 - p) / half**2

    def wilson_half(k):
        a, b = wilson_interval(round(p * k), k)
        return (b - a) / 2

    n_wilson = next(k for k in range(10, 5000) if wilson_half(k) <= half)
    lo60, hi60 = wilson_interval(60, 100)
    se60 = math.sqrt(0.6 * 0.4 / 100)
    n55 = sample_size_two_proportions(0.55, 0.45)
    n27 = sample_size_two_proportions(0.27, 0.23)
    given = (
        "**Formulas.** A 95% interval for a win rate $\\hat p$ from $n$ games: "
        "$\\hat p \\pm 1.96\\sqrt{\\hat p(1-\\hat p)/n}$ (half-width $1.96\\sqrt{p(1-p)/n}$). "
        "Games per bot for a two-sided test at the 5% level to find a difference between "
        "win rates $p_1$ and $p_2$ 80% of the time (power): "
        "$n = \\dfrac{(1.96\\sqrt{2\\bar p\\bar q} + 0.8416\\sqrt{p_1q_1 + p_2q_2})^2}"
        "{(p_1 - p_2)^2}$, with $\\bar p = (p_1 + p_2)/2$, $q = 1 - p$.",
    )
    tasks = (
        Task(
            "predict",
            "With four players an even share is 25% each. What share of Money Moves games does "
            "one greedy bot win (two greedy bots play two random bots)?",
            (
                Answer(
                    per_bot,
                    pct(per_bot),
                    (f"Greedy bots won {gw} of {n}; per bot: ${gw}/{n}/2 = {dec(per_bot, 3)}$.",),
                    f"Both greedy bots together: {dec(gw / n, 3)} ({_interval(glo, ghi)}); "
                    f"per bot {dec(glo / 2, 3)} to {dec(ghi / 2, 3)}.",
                ),
            ),
            space=8,
        ),
        Task(
            "predict",
            "Money Run has no dice. What share of two-player Money Run games will the greedy "
            "bot win against the random bot?",
            (
                Answer(
                    w / len(mr),
                    pct(w / len(mr)),
                    (f"Measured: greedy won {w} of {len(mr)} games (both seat orders).",),
                    _interval(wlo, whi),
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "A bot wins 30% of its games. How many games make the 95% interval of its win rate "
            "about ±0.05 wide? Solve $1.96\\sqrt{p(1-p)/n} = 0.05$ for $n$.",
            (
                Answer(
                    n_formula,
                    f"{dec(n_formula, 0)} games",
                    (
                        f"$n = 1.96^2 \\times 0.3 \\times 0.7 / 0.05^2 = {dec(n_formula, 1)}$, "
                        "about 323 games.",
                        f"Wilson's interval (the notebook's) reaches ±0.05 at {n_wilson} games.",
                    ),
                ),
            ),
            space=14,
        ),
        Task(
            "derive",
            f"Money Moves, two greedy bots against two random bots, {n} games (both seat "
            f"orders): greedy bots won **{gw}** games, random bots **{rw}**, and {n - gw - rw} "
            "were shared. Among the games one kind won alone, is the greedy share different "
            "from 50% at the 95% level? Give the share and its interval.",
            (
                Answer(
                    gw / decided,
                    dec(gw / decided, 3),
                    (
                        f"$\\hat p = {gw}/{decided} = {dec(gw / decided, 3)}$; "
                        f"$\\pm 1.96\\sqrt{{\\hat p(1-\\hat p)/{decided}}} = \\pm "
                        f"{dec(1.96 * dse, 3)}$: {dec(gw / decided - 1.96 * dse, 3)} to "
                        f"{dec(gw / decided + 1.96 * dse, 3)}.",
                        f"Wilson: {dec(dlo, 3)} to {dec(dhi, 3)}; "
                        + (
                            "0.5 is outside: significant."
                            if not dlo <= 0.5 <= dhi
                            else "0.5 is inside: not significant."
                        ),
                    ),
                ),
            ),
            space=18,
            data=(str(gw), str(rw)),
        ),
        Task(
            "derive",
            "How many games per bot would you need to tell a 27% win rate from a 23% one "
            "(5% level, 80% power)?",
            (
                Answer(
                    n27,
                    f"{n27:,} games per bot",
                    (
                        "$\\bar p = 0.25$: $n = (1.96\\sqrt{2 \\cdot 0.25 \\cdot 0.75} + "
                        "0.8416\\sqrt{0.27 \\cdot 0.73 + 0.23 \\cdot 0.77})^2 / 0.04^2$, "
                        "rounded up.",
                    ),
                ),
            ),
            space=14,
        ),
        Task(
            "check",
            "A bot wins 60 of 100 games. Give a 95% interval for its win rate.",
            (
                Answer(
                    0.6 - 1.96 * se60,
                    f"{dec(0.6 - 1.96 * se60, 3)} to {dec(0.6 + 1.96 * se60, 3)}",
                    (
                        f"$0.6 \\pm 1.96\\sqrt{{0.6 \\times 0.4/100}} = 0.6 \\pm "
                        f"{dec(1.96 * se60, 3)}$.",
                        f"(Wilson: {dec(lo60, 3)} to {dec(hi60, 3)}.)",
                    ),
                ),
            ),
            space=10,
        ),
        Task(
            "check",
            "How many games per bot find a 55% against 45% difference 80% of the time at the "
            "5% level?",
            (
                Answer(
                    n55,
                    f"{n55:,} games per bot",
                    (
                        "$\\bar p = 0.5$: $(1.96\\sqrt{0.5} + 0.8416\\sqrt{0.495})^2 / "
                        f"0.1^2$, rounded up: {n55}.",
                    ),
                ),
            ),
            space=10,
        ),
        Task(
            "computer",
            "Try it: with $p = 0.5$, how many of 100 tournaments' intervals miss, for 10 games "
            "and for 500 games? Why is it not exactly 5?",
            note="A random count near 5: each interval misses with chance about 5%.",
            space=10,
        ),
    )
    return Sheet(
        "teach_tournaments",
        "Tournaments and confidence intervals",
        "Is one bot better than another? Win rates from seeded games, with 95% intervals, "
        "tests and the number of games a study needs.",
        given,
        tasks,
    )


def _agents() -> Sheet:
    import pandas as pd

    import moneynb
    import moneynb.env as menv
    from moneynb.analysis import ev
    from moneynb.analysis.stats import wilson_interval

    env = menv.make("money_run", players=2)
    env.reset(seed=1)
    obs = env.last()[0]
    n_legal = int(np.count_nonzero(obs["action_mask"]))
    large = ev.coin_reach_probability("large", 0)
    mine = 1 - Fraction(math.comb(37, 5), math.comb(42, 5))
    games = pd.concat(
        [
            moneynb.simulate("money_run", ["greedy", "random"], n_games=60, seed=1, progress=False),
            moneynb.simulate("money_run", ["random", "greedy"], n_games=60, seed=2, progress=False),
        ]
    )
    gw = int(games["winner"].fillna("").str.startswith("greedy").sum())
    glo, ghi = wilson_interval(gw, len(games))
    hse = math.sqrt(0.65 * 0.35 / 120)  # the check task's 78 of 120
    hlo, hhi = wilson_interval(78, 120)
    scores = np.array([1.0, 0.5, -1.0])
    soft = np.exp(scores) / np.exp(scores).sum()
    rewards, gamma = [0, 1, 0, 2], 0.95
    g0 = sum(r * gamma**t for t, r in enumerate(rewards))
    given = (
        "**Money Run's bag** holds 42 coins: 5 large, 10 medium, 12 small, 15 puny. The "
        "first table shows 5 coins drawn from it. $\\binom{n}{k}$ is the number of ways to "
        "choose $k$ of $n$ (nCr on a calculator).",
        "**The policy.** Each option $k$ gets a score $w\\cdot\\phi_k$; the agent picks it with "
        "probability $\\pi(k) = e^{w\\cdot\\phi_k} / \\sum_j e^{w\\cdot\\phi_j}$. The reward "
        "from step $t$ on is $G_t = r_t + \\gamma\\,G_{t+1}$ (discount $\\gamma$).",
    )
    tasks = (
        Task(
            "predict",
            "Money Run starts with coins on a table that a player may place on the board. How "
            "many legal actions does the first player have at the very start?",
            (
                Answer(
                    n_legal,
                    f"{n_legal} actions",
                    ("The engine's action mask at the first decision (seed 1).",),
                ),
            ),
            space=8,
        ),
        Task(
            "predict",
            "The greedy bot (written by a person who knows the game) plays the random bot, "
            f"{len(games)} games. Guess the greedy bot's share of wins.",
            (
                Answer(
                    gw / len(games),
                    pct(gw / len(games)),
                    (f"Measured: greedy won {gw} of {len(games)}.",),
                    _interval(glo, ghi),
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "What is the exact chance that **at least one large coin** is on the first table "
            "of 5? (Count the tables with no large coin.)",
            (
                Answer(
                    large,
                    f"{frac(large)} = {dec(large, 4)}",
                    (
                        "$1 - \\binom{37}{5}/\\binom{42}{5} = 1 - 435897/850668 = "
                        f"{frac(mine)}$ (the engine's figure: {frac(large)}).",
                    ),
                ),
            ),
            space=14,
            data=("5 large",),
        ),
        Task(
            "derive",
            "Three options have scores $w\\cdot\\phi = 1$, $0.5$ and $-1$. With what "
            "probability does the policy pick each?",
            (
                Answer(
                    soft[0],
                    f"{dec(soft[0], 3)}, {dec(soft[1], 3)}, {dec(soft[2], 3)}",
                    (
                        "$e^{1} = 2.718$, $e^{0.5} = 1.649$, $e^{-1} = 0.368$; sum "
                        f"{dec(np.exp(scores).sum(), 3)}; divide each by the sum.",
                    ),
                ),
            ),
            space=14,
        ),
        Task(
            "derive",
            "An agent's rewards after its first four choices are 0, 1, 0 and 2, with "
            "$\\gamma = 0.95$. What is $G_0$?",
            (
                Answer(
                    g0,
                    dec(g0, 4),
                    (
                        "$G_0 = 0 + 0.95 \\times 1 + 0.95^2 \\times 0 + 0.95^3 \\times 2 = "
                        f"{dec(g0, 4)}$.",
                    ),
                ),
            ),
            space=12,
        ),
        Task(
            "check",
            "Suppose a trained agent wins 78 of 120 games against the greedy bot (both seat "
            "orders). Give a 95% interval for its win rate. Is it better than the greedy bot "
            "at the 95% level?",
            (
                Answer(
                    0.65 - 1.96 * hse,
                    f"{dec(0.65 - 1.96 * hse, 3)} to {dec(0.65 + 1.96 * hse, 3)}",
                    (
                        "$\\hat p = 78/120 = 0.65$, $\\pm 1.96\\sqrt{0.65 \\times 0.35/120} = "
                        f"\\pm {dec(1.96 * hse, 3)}$; wholly above 0.5: better than greedy.",
                        f"(Wilson: {dec(hlo, 3)} to {dec(hhi, 3)}.)",
                    ),
                ),
            ),
            space=12,
            data=("78 of 120",),
        ),
        Task(
            "computer",
            "Train the agent (200 games; about a minute on a school laptop). What share of its "
            "games against the random bot does it win? Against the greedy bot? Read the two "
            "intervals in the notebook's table.",
            note=(
                "The notebook trains and plays at fixed seeds and prints each share with its "
                "Wilson interval; the key is not built by training (a minute or more)."
            ),
            space=12,
        ),
    )
    return Sheet(
        "teach_agents",
        "Teach an agent",
        "Can a program learn to play Money Run from the rules' answers and the score? The "
        "arithmetic behind a learning player.",
        given,
        tasks,
    )


def _credit() -> Sheet:
    import pandas as pd

    from moneynb.analysis import ev, finance
    from moneynb.analysis.moolah import loan_shark_cost

    terms = finance.game_credit_terms()
    rate = terms["loan_shark_rate"]
    apr = finance.apr(rate, 26)
    ear = finance.effective_annual_rate(rate, 26)
    d7, r72 = finance.doubling_time(0.07), finance.rule_of_72(0.07)
    loan = terms["credit_line"]
    rows = pd.DataFrame(finance.amortization_schedule(loan, 21 / 1200, 60))
    interest5 = rows.interest.sum()
    pay5 = rows.payment[0]
    shark = loan_shark_cost(30_000, 0)
    lap = 1.1 ** (1 / 3) - 1
    y5 = ev.years_to_target(250_000, 1_000_000, 0.05)
    y5d = ev.years_to_target(250_000, 1_000_000, 0.05, deposit=20_000)
    pay = finance.annuity_payment(10_000, 0.01, 12)
    apy24 = finance.effective_annual_rate(0.24 / 12, 12)
    real = finance.real_rate(0.01, 0.03)
    trap = finance.minimum_payment_payoff(5_000, 0.22)
    card_apr = finance.apr(0.015, 12)
    card_ear = finance.effective_annual_rate(0.015, 12)
    given = (
        "**Game rules (the engine's).** The Loan Shark pays what you are short and takes it "
        "back from your bank account with 50% on top, at once. Easy Money's mortgage costs 10% to lift, however long it ran. "
        "Moolah's Line of Credit: <span>\\$200,000</span>, no interest.",
        "**Formulas.** APR = rate per period × periods in a year. Effective annual rate (APY) "
        "$= (1 + \\text{rate per period})^{\\text{periods}} - 1$. Doubling time "
        "$n = \\ln 2 / \\ln(1+r)$; rule of 72: $n \\approx 72 / (\\text{rate in } \\%)$. Equal "
        "monthly payment on a loan $P$ at $r$ a month over $n$ months: "
        "$c = \\dfrac{P\\,r}{1 - (1+r)^{-n}}$. Savings from $B_0$ with a deposit $d$ a year at "
        "$r$: $B_n = (B_0 + d/r)(1+r)^n - d/r$, so the years to reach $T$ are "
        "$n = \\ln\\dfrac{T + d/r}{B_0 + d/r} / \\ln(1+r)$. Real rate "
        "$= (1 + \\text{nominal})/(1 + \\text{inflation}) - 1$.",
    )
    tasks = (
        Task(
            "predict",
            "Suppose the Loan Shark's 50% were the fee for a loan repaid after **two weeks** "
            "(as a payday loan is). What yearly rate (APR) is that? And if the loan is rolled "
            "over every two weeks all year (the effective rate)?",
            (
                Answer(
                    float(apr),
                    f"{pct(apr, 0)} APR",
                    ("26 two-week periods a year: $26 \\times 50\\% = 1300\\%$.",),
                ),
                Answer(
                    ear,
                    f"{pct(ear, 0)} effective",
                    (
                        f"$(1 + 0.5)^{{26}} - 1 = {dec(ear + 1, 2)} - 1 = {dec(ear, 2)}$, "
                        f"about {pct(ear, 0)}: almost 3.8 million percent.",
                    ),
                ),
            ),
            space=12,
            data=("50%",),
        ),
        Task(
            "predict",
            "How many years does money take to double at **7%** a year?",
            (
                Answer(
                    d7,
                    f"{dec(d7, 2)} years",
                    (
                        f"$\\ln 2 / \\ln 1.07 = 0.6931 / 0.06766 = {dec(d7, 2)}$; rule of 72: "
                        f"$72/7 = {dec(r72, 2)}$.",
                    ),
                ),
            ),
            space=8,
        ),
        Task(
            "predict",
            "You borrow Moolah's whole <span>\\$200,000</span> line at a real credit card's "
            "21% APR (1.75% a month) and repay it monthly over 5 years. Is the total interest "
            "about 10%, about 60% or about 150% of the loan?",
            (
                Answer(
                    interest5 / loan,
                    f"{pct(interest5 / loan, 0)} of the loan (about 60%)",
                    (
                        f"$c = 200000 \\times 0.0175 / (1 - 1.0175^{{-60}}) = {dec(pay5, 2)}$ a "
                        f"month; $60 \\times {dec(pay5, 2)} - 200000 = {dec(interest5, 2)}$.",
                    ),
                ),
            ),
            space=10,
        ),
        Task(
            "predict",
            "A card balance of <span>\\$5,000</span> at 22% APR. Each month the interest is "
            "added first, then you pay only the minimum: 2% of the new balance, at least "
            "<span>\\$25</span>. How many years to clear it?",
            (
                Answer(
                    trap["months"],
                    f"{trap['months']} months ({dec(trap['months'] / 12, 0)} years)",
                    (
                        "Each month: balance × (1 + 0.22/12), then pay 2% of it (or \\$25); "
                        f"repeated until cleared: {trap['months']} months, "
                        f"{money(trap['interest'])} of interest.",
                    ),
                ),
            ),
            space=8,
            data=("interest is added first",),
        ),
        Task(
            "derive",
            "You are <span>\\$30,000</span> short in Moolah and your bank account is empty. "
            "How much does the Loan Shark take from your bank account in all?",
            (
                Answer(
                    shark,
                    money(shark),
                    ("$30000 \\times 1.5 = 45000$ dollars.",),
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "A 10% mortgage is lifted after 3 laps. What compound rate per lap is that?",
            (Answer(lap, pct(lap, 2), (f"$1.1^{{1/3}} - 1 = {dec(lap, 4)}$.",)),),
            space=10,
        ),
        Task(
            "derive",
            "At 5% a year, how long does <span>\\$250,000</span> take to become "
            "<span>\\$1,000,000</span>? With <span>\\$20,000</span> saved a year? Check the "
            "first with the rule of 72.",
            (
                Answer(
                    y5,
                    f"{dec(y5, 1)} years",
                    (
                        f"$\\ln 4 / \\ln 1.05 = {dec(y5, 2)}$; rule of 72: two doublings of "
                        "$72/5 = 14.4$, 28.8 years.",
                    ),
                ),
                Answer(
                    y5d,
                    f"{dec(y5d, 1)} years",
                    (f"$d/r = 400000$: $\\ln(1400000/650000)/\\ln 1.05 = {dec(y5d, 2)}$.",),
                ),
            ),
            space=18,
        ),
        Task(
            "derive",
            "A <span>\\$10,000</span> loan at 1% a month is paid back in 12 equal monthly "
            "payments. Find the payment. (Why is <span>\\$10,000</span>/12 = "
            "<span>\\$833.33</span> too little?)",
            (
                Answer(
                    pay,
                    money(pay),
                    (
                        "$c = 10000 \\times 0.01 / (1 - 1.01^{-12}) = 100 / 0.11255 = "
                        f"{dec(pay, 2)}$; \\$833.33 leaves each month's interest unpaid.",
                    ),
                ),
            ),
            space=14,
        ),
        Task(
            "derive",
            "A credit card charges 1.5% a month. What are its APR and its effective annual rate?",
            (
                Answer(float(card_apr), pct(card_apr, 0), ("$12 \\times 1.5\\% = 18\\%$.",)),
                Answer(card_ear, pct(card_ear, 2), (f"$1.015^{{12}} - 1 = {dec(card_ear, 4)}$.",)),
            ),
            space=10,
        ),
        Task(
            "check",
            "A card charges 24% APR, monthly. What is its APY?",
            (Answer(apy24, pct(apy24, 2), (f"$1.02^{{12}} - 1 = {dec(apy24, 4)}$.",)),),
            space=8,
        ),
        Task(
            "check",
            "Savings earn 1% while prices rise 3%. What is the real rate?",
            (Answer(real, pct(real, 2), (f"$1.01/1.03 - 1 = {dec(real, 4)}$.",)),),
            space=8,
        ),
        Task(
            "check",
            "Using the rule of 72, how long does money take to double at 8% a year?",
            (
                Answer(
                    finance.rule_of_72(0.08),
                    f"{dec(finance.rule_of_72(0.08), 0)} years",
                    (f"$72/8 = 9$; exactly {dec(finance.doubling_time(0.08), 2)} years.",),
                ),
            ),
            space=8,
        ),
        Task(
            "computer",
            "Move the loan knobs: what APR makes the interest as large as the loan over 5 "
            "years? Over 30 years?",
            note="Read it off the knobs: the total interest equals the amount borrowed.",
            space=10,
        ),
    )
    return Sheet(
        "teach_credit",
        "Credit and interest",
        "Line of Credit, Loan Shark, mortgages and a million dollars: the games' borrowing "
        "priced as yearly rates, beside the rates real lenders charge.",
        given,
        tasks,
    )


def _property() -> Sheet:
    from moneynb.analysis import ev, finance
    from moneynb.analysis.moolah import loan_shark_cost
    from moneynb.analysis.stats import mean_interval

    rows = ev.easy_money_returns(opponents=3)
    props = [r for r in rows if r["kind"] == "property"]
    by = {r["name"]: r for r in rows}
    gold, mill = by["Gold Coast Road"], by["Mill Street"]
    others = [r for r in rows if r["kind"] != "property"]
    best_u = max(others, key=lambda r: r["rent_per_round"][0])
    rounds = finance.game_rounds("easy_money", players=4, n_games=20, seed=0)
    gm, glo, ghi = mean_interval(rounds)
    r0 = next(r for r in props if r["M"] == 180)
    cost = ev.mortgage_cost(180)
    mortgage_total = cost["interest"] + 5 * r0["rent_per_round"][0]
    shark = loan_shark_cost(180, 0) - 180
    rent_q = Fraction(40) * Fraction(3, 100) * 3
    shown = [gold, mill, r0, best_u] if r0 not in (gold, mill) else [gold, mill, best_u]
    table = _table(
        ["space", "house price B", "rent, 1 house", "landing per opponent turn"],
        [
            [
                r["name"],
                money(r["B"]) if r["kind"] == "property" else "no houses",
                money(r["rents"][0]),
                dec(r["landing"], 5),
            ]
            for r in shown
        ],
    )
    given = (
        "**Table 1. From Easy Money's board and its Markov chain** (the long-run chance that "
        "an opponent's turn ends on the space):\n\n" + table,
        "**Formulas.** Expected rent per round = landing per turn × rent × opponents. "
        "Payback (rounds) = cost / expected rent per round. A mortgage of M costs 10% of M to "
        "lift, however long it ran; the Loan Shark takes 50% on top.",
    )
    tasks = (
        Task(
            "predict",
            "Gold Coast Road with one house, three opponents: how many dollars a round do you "
            "expect it to earn? (Guess from its rent before using the landing rate.)",
            (
                Answer(
                    gold["rent_per_round"][0],
                    money(gold["rent_per_round"][0]),
                    (
                        f"${dec(gold['landing'], 5)} \\times {gold['rents'][0]} \\times 3 = "
                        f"{dec(gold['rent_per_round'][0], 2)}$ dollars a round.",
                    ),
                ),
            ),
            space=8,
            data=(
                "Gold Coast Road",
                money(gold["B"]),
                money(gold["rents"][0]),
                dec(gold["landing"], 5),
            ),
        ),
        Task(
            "predict",
            "How many rounds does a real four-player game of Easy Money last?",
            (
                Answer(
                    gm,
                    f"{dec(gm, 0)} rounds",
                    ("Measured: 20 seeded four-player games of greedy bots.",),
                    f"{_interval(glo, ghi, lambda v: dec(v, 0))} rounds; from "
                    f"{dec(rounds.min(), 0)} to {dec(rounds.max(), 0)}.",
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "Mill Street: how many rounds does the first house take to pay for itself with "
            "three opponents? Does it pay back within a real game?",
            (
                Answer(
                    mill["payback_rounds"][0],
                    f"{dec(mill['payback_rounds'][0], 0)} rounds",
                    (
                        f"Rent per round ${dec(mill['landing'], 5)} \\times {mill['rents'][0]} "
                        f"\\times 3 = {dec(mill['rent_per_round'][0], 3)}$; payback "
                        f"${mill['B']} / {dec(mill['rent_per_round'][0], 3)} = "
                        f"{dec(mill['payback_rounds'][0], 0)}$ rounds, far longer than a game "
                        f"(about {dec(gm, 0)} rounds).",
                    ),
                ),
            ),
            space=16,
            data=(
                "Mill Street",
                money(mill["B"]),
                money(mill["rents"][0]),
                dec(mill["landing"], 5),
            ),
        ),
        Task(
            "derive",
            f"You need <span>\\$180</span> for 5 rounds. Mortgage {r0['name']} (M = "
            f"<span>\\$180</span>, one house, Table 1) or go to Moolah's Loan Shark: which "
            "costs less?",
            (
                Answer(
                    mortgage_total,
                    f"{money(mortgage_total)} (mortgage) against {money(shark)} (Loan Shark)",
                    (
                        f"Mortgage: 10% of 180 = 18, plus 5 rounds of lost rent "
                        f"$5 \\times {dec(r0['rent_per_round'][0], 3)}$ = "
                        f"{dec(mortgage_total, 2)}. Loan Shark: 50% of 180 = 90.",
                    ),
                ),
            ),
            space=14,
            data=(r0["name"],),
        ),
        Task(
            "check",
            "Rent is <span>\\$40</span> and a space is landed on 3% of opponent turns. With "
            "three opponents, what is the expected rent per round?",
            (Answer(rent_q, money(rent_q), ("$0.03 \\times 40 \\times 3 = 3.60$ dollars.",)),),
            space=8,
        ),
        Task(
            "check",
            "A house costs <span>\\$120</span> and brings <span>\\$6</span> a round. How many "
            "rounds to pay it back?",
            (Answer(20, "20 rounds", ("$120 / 6 = 20$.",)),),
            space=8,
        ),
        Task(
            "check",
            f"Table 1: which earns more rent per round with three opponents, "
            f"{best_u['name']} or Gold Coast Road with one house? Why has {best_u['name']} no "
            "payback?",
            (
                Answer(
                    best_u["rent_per_round"][0],
                    f"{money(best_u['rent_per_round'][0])} a round ({best_u['name']})",
                    (
                        f"${dec(best_u['landing'], 5)} \\times {best_u['rents'][0]} \\times 3$; "
                        "no houses can be built on it, so there is nothing to pay back.",
                    ),
                ),
            ),
            space=10,
            data=(best_u["name"],),
        ),
        Task(
            "computer",
            "Move the knobs (opponents, houses): how many properties pay back within a mean "
            "game with a subdivision?",
            note="The notebook prints the count beside the chart.",
            space=10,
        ),
    )
    return Sheet(
        "teach_property",
        "Property investment",
        "Rent, return and payback in Easy Money: a property earns only when an opponent lands "
        "on it.",
        given,
        tasks,
    )


@cache
def inequality_data() -> dict:
    """The lesson's own games (teach_inequality: 120 four-player Money Moves games of greedy
    bots, seed 7): ``{"worths": (games, 4) int array of final net worths, "gini": array,
    "mean", "low", "high", "turn20": (mean, low, high)}``."""
    import moneynb
    from moneynb.analysis.stats import gini, mean_interval

    games, turns = moneynb.simulate(  # the lesson's games: one random stream (issue 39)
        "money_moves", ["greedy"] * 4, n_games=120, seed=7, per_turn=True, progress=False,
        options={"chance_streams": 1},
    )  # fmt: skip
    cols = [c for c in games.columns if c.startswith("score_")]
    worths = games[cols].to_numpy()
    g = np.array([gini(r, negative=True) for r in worths])
    m, lo, hi = mean_interval(g)
    tg = np.array([gini(r, negative=True) for r in turns[cols].to_numpy()])
    at20 = tg[(turns["turn"] == 20).to_numpy() & ~np.isnan(tg)]
    return {
        "worths": worths,
        "gini": g,
        "mean": m,
        "low": lo,
        "high": hi,
        "turn20": mean_interval(at20),
    }


def _inequality() -> Sheet:
    from moneynb.analysis.stats import gini

    d = inequality_data()
    worths, g = d["worths"], d["gini"]
    first = next(i for i in range(len(g)) if g[i] > 0.75)
    x = [int(v) for v in worths[first]]
    pairs = sum(abs(a - b) for a in x for b in x)
    gx = Fraction(pairs, 2 * 16) / Fraction(sum(x), 4)
    w4 = [2, 4, 6, 16]
    g4 = Fraction(sum(abs(a - b) for a in w4 for b in w4), 2 * 16) / Fraction(sum(w4), 4)
    t20 = d["turn20"]
    above = int((g > 0.75).sum())
    first5 = _table(
        ["game", "net worths (dollars)", "Gini"],
        [[str(i + 1), ", ".join(str(int(v)) for v in worths[i]), dec(g[i], 3)] for i in range(5)],
    )
    given = (
        "**The Gini coefficient** of $n$ amounts with mean $\\bar x$: "
        "$G = \\dfrac{\\sum_i \\sum_j |x_i - x_j|}{2 n^2 \\bar x}$ (all $n^2$ ordered pairs). "
        "$G = 0$ when everyone holds the same. When nobody owes anything, $G$ is at most "
        "$(n-1)/n$ (0.75 for four players: one holds everything).",
        "**Net worth** = what a player holds minus what they owe (Money Moves: the wallet "
        "minus the House Bank loan). It can be negative, and then $G$ can exceed $(n-1)/n$, "
        "even 1: the richest hold more than the group's whole net worth, because others owe.",
        "**Table 1. The lesson's first five games** (four greedy bots, seed 7; final net "
        "worths):\n\n" + first5,
    )
    tasks = (
        Task(
            "predict",
            "Four identical bots start with <span>\\$7</span> each and play to the end. What "
            "is the mean Gini of the four final net worths over many games?",
            (
                Answer(
                    d["mean"],
                    dec(d["mean"], 3),
                    ("Measured: 120 seeded games, the mean of the 120 Ginis.",),
                    f"{_interval(d['low'], d['high'])}; {above} of the 120 games are above "
                    f"0.75 (a player owes), the largest {dec(g.max(), 3)}.",
                ),
            ),
            space=8,
        ),
        Task(
            "predict",
            "Every game starts at $G = 0$. What is the mean Gini of net worth at turn 20?",
            (
                Answer(
                    t20[0],
                    dec(t20[0], 3),
                    ("Measured over the games still running at turn 20.",),
                    _interval(t20[1], t20[2]),
                ),
            ),
            space=8,
        ),
        Task(
            "derive",
            "Four players end with net worths <span>\\$2</span>, <span>\\$4</span>, "
            "<span>\\$6</span> and <span>\\$16</span>. Compute their Gini coefficient as a "
            "fraction.",
            (
                Answer(
                    g4,
                    f"{frac(g4)} = {dec(g4, 3)}",
                    (
                        "Mean 7. Pairs: |2-4| + |2-6| + |2-16| + |4-6| + |4-16| + |6-16| = "
                        "2 + 4 + 14 + 2 + 12 + 10 = 44, each twice: 88.",
                        "$G = 88 / (2 \\times 16 \\times 7) = 88/224 = 11/28$.",
                    ),
                    f"The engine's gini: {dec(gini(w4), 3)}.",
                ),
            ),
            space=20,
        ),
        Task(
            "derive",
            f"Game {first + 1} of Table 1 ended with net worths {', '.join(map(str, x))}. "
            "Compute its Gini. Why can it be above 0.75?",
            (
                Answer(
                    gx,
                    f"{frac(gx)} = {dec(gx, 3)}",
                    (
                        f"Mean $= {sum(x)}/4 = {frac(Fraction(sum(x), 4))}$; the sum over all "
                        f"16 ordered pairs is {pairs}; $G = {pairs}/(2 \\times 16 \\times "
                        f"{frac(Fraction(sum(x), 4))}) = {frac(gx)}$.",
                        "A player owes money (a negative net worth), so the others together "
                        "hold more than the group's total: the bound (n-1)/n holds only "
                        "without debts.",
                    ),
                ),
            ),
            space=20,
            data=(", ".join(map(str, x)),),
        ),
        Task(
            "check",
            "What is the Gini when one of four players holds all the money? When two hold half "
            "each?",
            (
                Answer(
                    gini([0, 0, 0, 28]),
                    "3/4",
                    ("$(28 \\times 3 \\times 2)/(2 \\times 16 \\times 7) = 168/224 = 3/4$.",),
                ),
                Answer(
                    gini([0, 0, 14, 14]),
                    "1/2",
                    ("$(14 \\times 4 \\times 2)/(2 \\times 16 \\times 7) = 112/224 = 1/2$.",),
                ),
            ),
            space=12,
        ),
        Task(
            "check",
            "A player has <span>\\$9</span> in their wallet and owes the House Bank "
            "<span>\\$7</span>. What is their net worth?",
            (Answer(2, "$2", ("$9 - 7 = 2$ dollars.",)),),
            space=8,
        ),
        Task(
            "check",
            "How many games would halve the width of the 95% interval of the 120 games' mean?",
            (
                Answer(
                    480, "480 games", ("The width shrinks like $1/\\sqrt{n}$: $4 \\times 120$.",)
                ),
            ),
            space=8,
        ),
        Task(
            "computer",
            "Play with 3 players instead of 4 (the knobs). Is inequality higher or lower? "
            "Compare each mean with its maximum $(n-1)/n$ without debts.",
            note="The notebook prints the mean Gini with its interval for each table size.",
            space=10,
        ),
    )
    return Sheet(
        "teach_inequality",
        "Inequality from luck",
        "Four equal players, pure luck: how unequal does a game of Money Moves make them? The "
        "Gini coefficient of net worth, debts included.",
        given,
        tasks,
        statements={"gini_bound": 0.75},
    )


BUILDERS: dict[str, Callable[[], Sheet]] = {
    "teach_dice": _dice,
    "teach_expected_value": _expected_value,
    "teach_markov": _markov,
    "teach_tournaments": _tournaments,
    "teach_agents": _agents,
    "teach_credit": _credit,
    "teach_property": _property,
    "teach_inequality": _inequality,
}


@cache
def sheet(lesson: str) -> Sheet:
    """The worksheet and key of one lesson (``"teach_dice"``, ...), computed from the engine.

    Cached per process (a lesson takes 0.1-3 s). Raises KeyError for an unknown lesson.
    """
    if lesson not in BUILDERS:
        raise KeyError(f"no worksheet for {lesson!r}: one of {sorted(BUILDERS)}")
    return BUILDERS[lesson]()
