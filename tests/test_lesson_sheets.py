"""Worksheets and keys (issue 37), checked from their HTML without a browser (a few seconds).

Each of the eight lessons: the worksheet has no code and no "cell"/"run", every task's data is
on the page, the standards are docs/teaching.md's; the key has every answer as a number, equal
to the engine's value (parsed back from the key's text, and for the main answers recomputed here
by an independent call of the engine); no float repr anywhere. Also the statements a lesson
makes about a bound or a magnitude, against the lesson's own data (the Gini of net worth with
debts; the EAR of the Loan Shark). The printed PDFs are checked by
tests/browser/test_worksheets_print.py.
"""

from __future__ import annotations

import html as htmllib
import math
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from moneynb import lesson_sheets, worksheets
from moneynb.lesson_sheets import float_artefacts, parse_number

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(lesson_sheets.BUILDERS)


def text_of(page: str) -> str:
    """The visible text of an HTML page (MathML's text kept), whitespace collapsed."""
    page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


@pytest.fixture(scope="module")
def built():
    """{lesson: (sheet, worksheet HTML, key HTML)}, each sheet computed once (about 10 s)."""
    out = {}
    for lesson in LESSONS:
        sheet = lesson_sheets.sheet(lesson)
        nb = nbformat.read(ROOT / "notebooks" / f"{lesson}.ipynb", as_version=4)
        out[lesson] = (
            sheet,
            worksheets.sheet_worksheet_html(sheet),
            worksheets.sheet_key_html(sheet, nb),
        )
    return out


def test_every_teaching_notebook_has_a_sheet():
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("teach_*.ipynb"))
    assert notebooks == LESSONS


@pytest.mark.parametrize("lesson", LESSONS)
def test_worksheet_is_for_pencil_and_calculator(built, lesson):
    sheet, ws, _ = built[lesson]
    text = text_of(ws)
    assert "<pre" not in ws and "<code" not in ws, f"{lesson}: code on the worksheet"
    assert "teach." not in text and "()" not in text and "import " not in text
    words = re.sub(r"Money Run|long[ -]run", "", text)
    assert not re.search(r"\bcells?\b|\brun\b|\brunning\b", words, re.I), (
        f"{lesson}: the worksheet tells the student to run something: "
        f"{re.search(r'.{40}(cell|run).{40}', words, re.I)}"
    )
    assert "Answer" not in text and "Check:" not in text  # no answers
    assert not re.search(r"\\(frac|sqrt|sum|text|times|ln)\b|\$\$", text), "raw LaTeX"
    assert "\\" not in text, f"{lesson}: a stray backslash {text[text.find(chr(92)) - 30 :][:60]}"
    assert "table above" not in text and "(below)" not in text and "part 1" not in text
    # standards at the top, from docs/teaching.md §11
    cc, ap, js = sheet.standards
    assert text.index("Standards.") < text.index("What you need")
    assert cc in text and js in text
    # each task's data on the page; tasks in the order predict -> derive -> check -> computer
    for task in sheet.tasks:
        for item in task.data:
            assert text_of(item) in text, f"{lesson}: {item!r} is not on the worksheet"
    stages = [t.stage for t in sheet.ordered()]
    assert stages[0] == "predict" and "derive" in stages and "check" in stages
    shown = [lesson_sheets.STAGE_TITLES[s] for s in lesson_sheets.STAGES if s in stages]
    assert [text.index(t) for t in shown] == sorted(text.index(t) for t in shown)
    if "computer" in stages:  # the computer part is its own marked section, the last one
        assert ws.count('<h2 class="computer">') == 1
        assert stages[-1] == "computer"
    assert ws.count('class="space"') == len(sheet.tasks)
    assert float_artefacts(text) == []


def test_standards_are_those_of_docs_teaching():
    doc = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    section = doc[doc.index("## 11. Standards") :]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("teach_"):
            rows[cells[0]] = tuple(cells[1:])
    assert rows == lesson_sheets.STANDARDS


def _answers(sheet):
    """(label, answer) of every answer of a sheet, labels as the key prints them."""
    out = []
    for n, task in enumerate(sheet.ordered(), start=1):
        for i, ans in enumerate(task.answers):
            out.append((f"{n}{'abcdefgh'[i]}" if len(task.answers) > 1 else str(n), ans))
    return out


def key_number(key_text: str, label: str) -> tuple[float, float]:
    """The number after "Answer <label>:" in a key's text, with half its last digit."""
    m = re.search(rf"Answer {label}: (.+?)(?: Answer |$)", key_text)
    assert m, f"no 'Answer {label}:' in the key"
    return parse_number(m.group(1))


@pytest.mark.parametrize("lesson", LESSONS)
def test_key_gives_every_answer_as_a_number_with_its_working(built, lesson):
    sheet, _, key = built[lesson]
    text = text_of(key)
    assert "<pre" not in key and "<code" not in key, f"{lesson}: code in the key"
    assert "teach." not in text and "run in the notebook" not in text
    for n, task in enumerate(sheet.ordered(), start=1):
        if task.stage != "computer":  # every paper task is answered with a number
            assert task.answers, f"{lesson}: task {n} has no answer"
        else:
            assert task.answers or task.note, f"{lesson}: computer task {n} has no key"
    for label, ans in _answers(sheet):
        number, half = key_number(text, label)
        assert abs(number - float(ans.value)) <= half + 1e-12, (
            f"{lesson} answer {label}: the key prints {number}, the engine says {ans.value}"
        )
        assert ans.working, f"{lesson} answer {label} has no working"
    for heading in ("Suggested timing", "Takeaways", "Teacher's notes", "Common misconceptions"):
        assert heading in text, f"{lesson}: the key lacks {heading!r}"
    assert float_artefacts(text) == []
    assert not re.search(r"\\(frac|sqrt|sum|text|times|ln)\b|\$\$", text), "raw LaTeX"
    assert "\\" not in text, f"{lesson}: a stray backslash {text[text.find(chr(92)) - 30 :][:60]}"


def _engine():
    """Independent engine calls for main answers: {(lesson, label): value}."""
    from moneynb.analysis import ev, finance, risk
    from moneynb.analysis.markov import TrackModel
    from moneynb.analysis.moolah import loan_shark_cost
    from moneynb.analysis.stats import gini, sample_size_two_proportions
    from moneynb.analysis.tracks import moolah_track
    from moneynb.core.chance import D6, sum_distribution

    two = sum_distribution([D6, D6])
    mill = next(r for r in ev.easy_money_returns(opponents=3) if r["name"] == "Mill Street")
    track = moolah_track()
    return {
        ("teach_dice", "1"): two[7],
        ("teach_dice", "4"): sum(p for s, p in two.items() if s >= 10),
        ("teach_dice", "6b"): Fraction(35, 6),
        ("teach_dice", "3"): sum(p for s, p in sum_distribution([D6] * 30).items() if s >= 120),
        ("teach_expected_value", "5a"): ev.monte_carlo_bet("black", 10)["ev"],
        ("teach_expected_value", "6"): Fraction(3000, 37),
        ("teach_expected_value", "7a"): risk.ruin_probability(Fraction(18, 38), 10, 20),
        ("teach_markov", "1"): track.compile().stationary_spaces()[track.names.index("Bank")],
        ("teach_markov", "4"): TrackModel(12).compile().stationary_spaces()[0],
        ("teach_tournaments", "7"): sample_size_two_proportions(0.55, 0.45),
        ("teach_tournaments", "5"): sample_size_two_proportions(0.27, 0.23),
        ("teach_agents", "3"): ev.coin_reach_probability("large", 0),
        ("teach_credit", "1b"): finance.effective_annual_rate(Fraction(1, 2), 26),
        ("teach_credit", "2"): finance.doubling_time(0.07),
        ("teach_credit", "5"): loan_shark_cost(30_000, 0),
        ("teach_credit", "8"): finance.annuity_payment(10_000, 0.01, 12),
        ("teach_credit", "10"): finance.effective_annual_rate(0.02, 12),
        ("teach_property", "3"): mill["payback_rounds"][0],
        ("teach_property", "5"): 3.6,
        ("teach_inequality", "3"): gini([2, 4, 6, 16]),
        ("teach_inequality", "5a"): 0.75,
    }


def test_key_numbers_equal_the_engine_asked_independently(built):
    for (lesson, label), value in _engine().items():
        number, half = key_number(text_of(built[lesson][2]), label)
        assert abs(number - float(value)) <= half + 1e-12, (lesson, label, number, value)


def test_parse_number_reads_what_the_sheets_print():
    assert parse_number("$888.49 a month") == (888.49, 0.005)
    assert parse_number("1/6 = 16.7%")[0] == pytest.approx(1 / 6)
    assert parse_number("3,787,575% effective")[0] == pytest.approx(37875.75)
    assert parse_number("-$50") == (-50.0, 0.5)
    assert lesson_sheets.money(3.5999999999999996) == "$3.60"
    assert lesson_sheets.dec(-1e-17) == "0.000" and lesson_sheets.pct(-1e-9) == "0.0%"
    with pytest.raises(ValueError, match="no number"):
        parse_number("about a third")
    with pytest.raises(KeyError, match="no worksheet"):
        lesson_sheets.sheet("teach_nothing")
    with pytest.raises(ValueError, match="unknown stage"):
        lesson_sheets.Task("guess", "?")


# ---------------------------------------------------------------- statements of the lessons


def _notebook_text(lesson: str) -> str:
    nb = nbformat.read(ROOT / "notebooks" / f"{lesson}.ipynb", as_version=4)
    return "\n".join(c.source for c in nb.cells)


def test_gini_statements_hold_for_the_lessons_own_games():
    """teach_inequality's 120 games (seed 7): a Gini above (n-1)/n = 0.75 happens exactly when
    a player is in debt, and the lesson says what such a value means instead of calling 0.75
    the maximum; the teacher's notes' figures are the data's."""
    d = lesson_sheets.inequality_data()
    worths, g = d["worths"], d["gini"]
    in_debt = (worths < 0).any(axis=1)
    assert ((g > 0.75) <= in_debt).all(), "a Gini above 0.75 without any debt"
    assert (g[~in_debt] <= 0.75 + 1e-12).all()
    above = int((g > 0.75).sum())
    assert above > 0  # the bound does not hold for net worth: the lesson must say why
    text = _notebook_text("teach_inequality")
    assert "between 0\nand 0.75" not in text and "between 0 and 0.75" not in text
    assert "0.75 = one holds all)" not in text
    assert "Above 0.75: what it means" in text and "owes" in text
    notes = text[text.index("## Teacher's notes") :]
    assert "A Gini of 1 is possible with four players: the maximum" not in notes
    assert f"{above} end above 0.75" in notes, f"the notes should say {above} games"
    assert f"the largest {g.max():.2f}" in notes
    # the worked example the lesson quotes is one of its games
    example = [0, 25, -7, 10]
    assert any(list(row) == example for row in worths.tolist())
    assert "G = 53/56" in text and abs(53 / 56 - g[worths.tolist().index(example)]) < 1e-12


def test_loan_shark_ear_is_stated_with_its_real_magnitude():
    from moneynb.analysis import finance

    ear = finance.effective_annual_rate(Fraction(1, 2), 26)
    text = _notebook_text("teach_credit")
    notes = text[text.index("## Teacher's notes") :]
    assert "tens of thousands of percent" not in notes
    stated = re.search(r"is ([\d,]+)% \(almost ([\d.]+) million percent\)", notes)
    assert stated, "the notes must state the EAR in percent"
    assert int(stated.group(1).replace(",", "")) == round(100 * ear)
    assert float(stated.group(2)) == round(100 * ear / 1e6, 1)
    # the minimum-payment example says when the 2% is taken (before or after interest)
    assert "interest is added\n  first, then 2% of the new balance" in text
    trap = finance.minimum_payment_payoff(5_000, 0.22)
    assert trap["months"] == 817  # interest first; 2% before interest would take 968 months
    assert math.isclose(finance.doubling_time(0.07), 10.24, abs_tol=0.005)


def test_other_bounds_and_magnitudes_the_lessons_state():
    """Each "within", "never" or "about" a lesson states about its numbers, against the engine."""
    from moneynb.analysis import ev, finance
    from moneynb.analysis.stats import wilson_interval

    credit = _notebook_text("teach_credit")
    assert "within\n6% of it from 1% to 20% a year (exact near 8%)" in credit
    errors = [
        abs(finance.rule_of_72(p / 100) / finance.doubling_time(p / 100) - 1) for p in range(1, 21)
    ]
    assert max(errors) < 0.06 and errors.index(min(errors)) + 1 == 8
    assert "doubles in 1.71 periods, the rule says 1.44" in credit
    assert (round(finance.doubling_time(0.5), 2), round(finance.rule_of_72(0.5), 2)) == (1.71, 1.44)

    prop = _notebook_text("teach_property")
    assert (
        "A lone first house never pays back within a game; a subdivision\nbuilt early can." in prop
    )
    props = [r for r in ev.easy_money_returns(opponents=3) if r["kind"] == "property"]
    rounds = finance.game_rounds("easy_money", players=4, n_games=20, seed=0)
    assert min(r["payback_rounds"][0] for r in props) > rounds.max()
    assert min(r["payback_rounds"][-1] for r in props) < rounds.mean()

    agents = _notebook_text("teach_agents")
    assert "interval is wide (about ±0.13)" in agents  # 50 games, shares 0.4-0.6
    for wins in (20, 25, 30):
        low, high = wilson_interval(wins, 50)
        assert round((high - low) / 2, 2) == 0.13

    dice = _notebook_text("teach_dice")
    assert "about one spin in 32 follows five reds" in dice
    assert ev.monte_carlo_bet("red")["p_win"] ** 5 == Fraction(1, 32)
    assert "standard deviation of about 0.54 (the square root of 35/120)" in dice
    assert round(math.sqrt(35 / 120), 2) == 0.54
