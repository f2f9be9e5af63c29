"""moneynb.teach: guesses, verdicts, thinning, figure checks and hidden answers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import plotly.graph_objects as go
import pytest

from moneynb import teach


@pytest.mark.parametrize(
    "text, value",
    [
        ("35/6", 35 / 6),
        ("5.8", 5.8),
        ("17%", 0.17),
        ("$1,000", 1000.0),
        (3, 3.0),
        (Fraction(1, 6), 1 / 6),
        ("", None),
        (None, None),
        (..., None),
    ],
)
def test_parse_guess(text, value):
    assert (
        teach.parse_guess(text) == pytest.approx(value)
        if value is not None
        else (teach.parse_guess(text) is None)
    )


@pytest.mark.parametrize("bad", ["seven", "1/0", "5..8", "%"])
def test_parse_guess_rejects_text_that_is_not_a_number(bad):
    with pytest.raises(ValueError, match="cannot read"):
        teach.parse_guess(bad)


def test_a_bad_guess_in_code_fails_at_once():
    with pytest.raises(ValueError):
        teach.predict("Variance of two dice?", guess="lots")


def test_verdict_right_high_low_and_missing():
    assert "right" in teach.verdict(5.9, Fraction(35, 6))
    assert "high by 7/6 = 1.167" in teach.verdict(7, Fraction(35, 6))
    assert "low" in teach.verdict(1, 2, tolerance=0.5)
    assert teach.verdict(None, 2).startswith("No guess")
    assert "right" in teach.verdict(0.005, 0)


def test_prediction_reads_the_guess_written_in_code():
    q = teach.predict("P(7)?", guess="1/6")
    assert q.value == pytest.approx(1 / 6)
    assert "1/6" in q._html()


def test_thin_keeps_ends_and_at_most_keep():
    for log in (False, True):
        idx = teach.thin(20_000, 300, log=log)
        assert len(idx) <= 300 and idx[0] == 0 and idx[-1] == 19_999
        assert np.all(np.diff(idx) > 0)
    assert list(teach.thin(5, 300)) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        teach.thin(10, 1)


def test_figure_problems_find_untitled_axes_and_too_many_points():
    fig = go.Figure(go.Scatter(x=np.arange(5000), y=np.arange(5000)))
    fig.update_layout(xaxis_title="rolls")
    problems = teach.figure_problems(fig)
    assert "yaxis has no title" in problems
    assert any("5000 data points" in p for p in problems)
    fig.update_layout(yaxis_title="share")
    idx = teach.thin(5000)
    fig.data[0].x, fig.data[0].y = idx, idx
    assert teach.figure_problems(fig) == []
    # the JSON a notebook stores (typed arrays) is counted too
    assert any(
        "data points" in p
        for p in teach.figure_problems(
            go.Figure(
                go.Bar(y=np.zeros(3000)), layout={"xaxis_title": "a", "yaxis_title": "b"}
            ).to_plotly_json()
        )
    )


def test_answer_is_hidden_without_the_key_and_printed_with_it(capsys):
    teach.setup(key=False, quiet=True)
    with teach.answer():
        print("secret 42")
    assert "secret 42" not in capsys.readouterr().out
    teach.setup(key=True, quiet=True)
    with teach.answer():
        print("secret 42")
    assert "secret 42" in capsys.readouterr().out
    teach.setup(key=None, quiet=True)


def test_answer_errors_are_raised_even_when_hidden():
    teach.setup(key=False, quiet=True)
    with pytest.raises(ZeroDivisionError), teach.answer():
        print(1 / 0)
    teach.setup(key=None, quiet=True)


def test_teacher_key_env_var(monkeypatch):
    teach.setup(key=None, quiet=True)
    monkeypatch.setenv(teach.TEACHER_KEY_ENV, "1")
    assert teach.teacher_key()
    monkeypatch.setenv(teach.TEACHER_KEY_ENV, "0")
    assert not teach.teacher_key()


def test_bad_figure_mode_is_refused(monkeypatch):
    with pytest.raises(ValueError, match="figures"):
        teach.setup(figures="pdf", quiet=True)
    monkeypatch.setenv(teach.FIGURES_ENV, "gif")
    teach.setup(quiet=True)
    with pytest.raises(ValueError, match="MONEYNB_FIGURES"):
        teach.figure_mode()


def test_renderer_sends_plotly_json_and_an_export_copy(monkeypatch):
    import plotly.io as pio

    monkeypatch.setenv(teach.FIGURES_ENV, "cdn")
    teach.setup(quiet=True)
    fig = go.Figure(go.Bar(x=[1], y=[2]), layout={"title": "t"})
    bundle = pio.renderers["moneynb"].to_mimebundle(fig.to_dict())
    assert "application/vnd.plotly.v1+json" in bundle
    assert "cdn.plot.ly" in bundle["text/html"]
    monkeypatch.setenv(teach.FIGURES_ENV, "embed")
    teach.setup(quiet=True)
    first = pio.renderers["moneynb"].to_mimebundle(fig.to_dict())["text/html"]
    second = pio.renderers["moneynb"].to_mimebundle(fig.to_dict())["text/html"]
    assert len(first) > 1_000_000 > len(second)  # plotly.js travels once per notebook


def test_knobs_in_a_handout_draw_once_with_the_defaults(monkeypatch, capsys):
    monkeypatch.setenv(teach.HANDOUT_ENV, "1")
    monkeypatch.setenv(teach.FIGURES_ENV, "cdn")
    seen = []

    def draw(rolls=100, seed=3):
        seen.append((rolls, seed))

    teach.knobs(draw, rolls=(10, 1000, 10), seed=(0, 9))
    assert seen == [(100, 3)]
    assert "rolls = 100" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["moolah", "money_card", "money_run"])
def test_board_snapshot_in_a_handout_is_the_whole_board_figure(monkeypatch, name):
    """A handout's board is :func:`moneynb.figures.board_figure`, backdrop and moving traces
    in one ``go.Figure`` (issue 39, case 9). Before, it was ``go.Figure(board.widget())``: a
    board with a backdrop (Moolah, Money Card) is a grid of two widgets, and that raised."""
    import warnings

    import IPython.display

    import moneynb
    from moneynb.figures import drawing_for

    monkeypatch.setenv(teach.HANDOUT_ENV, "1")
    monkeypatch.setenv(teach.FIGURES_ENV, "cdn")
    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    game = moneynb.new_game(name, players=["Ann", "Bob"], seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # teach.show's checks of a handout figure
        teach.board_snapshot(game)
    (fig,) = shown
    board = drawing_for(game)
    parts = len(board.figure.data) + (len(board.backdrop.data) if board.backdrop else 0)
    assert isinstance(fig, go.Figure) and len(fig.data) == parts >= 3
    assert fig.layout.paper_bgcolor == "#ffffff"  # the light theme of a printed page


def test_static_figures_fall_back_once_without_kaleido(monkeypatch):
    import builtins

    import plotly.io as pio

    real_import = builtins.__import__

    def no_kaleido(name, *args, **kwargs):
        if name == "kaleido":
            raise ImportError("no kaleido here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_kaleido)
    monkeypatch.setitem(teach._state, "kaleido", False)
    monkeypatch.setenv(teach.FIGURES_ENV, "static")
    teach.setup(quiet=True)
    fig = go.Figure(go.Bar(x=[1], y=[2]), layout={"title": "t"})
    with pytest.warns(UserWarning, match="static figure not drawn"):
        bundle = pio.renderers["moneynb"].to_mimebundle(fig.to_dict())
    assert "image/svg+xml" not in bundle and "cdn.plot.ly" in bundle["text/html"]
    assert teach._state["kaleido"] == "failed"  # later figures do not try again
    monkeypatch.setitem(teach._state, "kaleido", False)


def test_percent_questions_read_bare_numbers_as_percent():
    q = teach.predict("APR of a two-week 50% fee?", guess="1300", percent=True)
    assert q.value == pytest.approx(13)
    assert teach.predict("?", guess="1300%", percent=True).value == pytest.approx(13)
    sentence = teach.verdict(q.value, 12.0357, percent=True)
    assert sentence == "Your guess 1,300% is high by 96.4%: the computed answer is 1,204%."
    assert "1,250% is right" in teach.verdict(12.5, 12.0357, percent=True)
    assert teach.verdict(0.2, 0.25, percent=True) == (
        "Your guess 20% is low by 5%: the computed answer is 25%."
    )


def test_check_a_derived_answer_against_the_engines_figure(capsys):
    from fractions import Fraction

    from moneynb.core.chance import D6, sum_distribution

    two = sum_distribution([D6, D6])
    at_least_10 = sum(p for total, p in two.items() if total >= 10)  # the engine's exact 1/6
    assert at_least_10 == Fraction(1, 6)
    teach.check(Fraction(6, 36), at_least_10)  # counted by a student: 6 of 36 rolls
    assert capsys.readouterr().out.startswith("Right: 1/6")
    teach.check(Fraction(5, 36), at_least_10, hint="count (4,6) and (6,4) too", what="P(>= 10)")
    out = capsys.readouterr().out
    assert out.startswith("P(>= 10): Not yet: your 5/36") and "low by 1/36" in out
    assert "Hint: count (4,6) and (6,4) too" in out
    # a small simulation is right to within rounding, not to within any distance
    assert teach.derived_verdict(0.1669, at_least_10).startswith("Right")
    assert teach.derived_verdict(0.18, at_least_10).startswith("Not yet")
    assert teach.derived_verdict(..., at_least_10).startswith("No answer yet")
    assert teach.derived_verdict("1/6", two[7]).startswith("Right")
    with pytest.raises(ValueError, match="cannot read"):
        teach.check("about a sixth", at_least_10)
