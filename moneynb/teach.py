"""Classroom helpers for the ``teach_*`` notebooks: predictions, hidden answers, live knobs, figures.

A teaching notebook starts with::

    from moneynb import teach

    teach.setup()  # teach.setup(key=True) shows the teacher's key (every answer cell prints)

and then uses five conventions (docs/teaching.md describes them for notebook authors):

* **Predict, then run.** ``q = teach.predict("question")`` shows a box where the student types a
  guess (a number, a fraction such as ``35/6``, or a percentage such as ``17%``); a student who
  edits code may write ``teach.predict("question", guess="35/6")`` instead. A later cell
  computes the answer from the engine and calls ``teach.check(q, answer)``, which sets the guess
  beside the computed value. ``check`` also draws a button, so a guess typed after the notebook
  ran (Voila runs every cell at once) can still be checked.
* **Hidden answers.** An answer cell carries the tag ``"answer"`` and the metadata
  ``{"jupyter": {"source_hidden": true, "outputs_hidden": true}}`` (JupyterLab collapses both),
  and wraps its printing in ``with teach.answer():``. With the teacher's key off, the block
  runs (so the test suite checks the answer code) but its output is swallowed and a one-line
  note says where the answer is; with the key on, it prints. The key is ONE switch: the
  environment variable ``MONEYNB_TEACHER_KEY=1`` (for ``jupyter lab``, ``voila`` and
  ``jupyter nbconvert`` alike) or ``teach.setup(key=True)`` in the first cell.
* **Figures that survive export.** ``setup()`` installs the plotly renderer ``"moneynb"``:
  every figure is sent as the plotly JSON that JupyterLab and Voila draw interactively, plus a
  copy for exports. With ``MONEYNB_FIGURES=static`` (what ``scripts/build_handouts.py`` uses)
  the copy is an SVG image drawn by kaleido with the system's Chromium; with ``embed`` it is
  HTML that carries plotly.js itself (once per notebook, about 4.7 MB); by default it is HTML
  that loads plotly.js from the CDN (small, needs the internet to draw).
  ``teach.show(fig)`` displays a figure after checking it (:func:`figure_problems`).
* **No more points than a figure can show.** :func:`thin` picks a few hundred indices of a long
  series (evenly, or evenly on a log scale).
* **Live knobs.** ``teach.knobs(draw, rolls=(10, 10_000, 10), seed=(0, 99))`` is ipywidgets'
  ``interact``; in a handout (``MONEYNB_HANDOUT=1``) it calls ``draw`` once with the starting
  values and shows the result without widgets, so the printed page has the figure.

Needs the ``ui`` extra (plotly, ipywidgets); static figures need ``moneynb[teach]`` (kaleido)
and a Chrome or Chromium. Source: moneynb's own classroom conventions (issue 16); nothing here
states a game rule.
"""

from __future__ import annotations

import atexit
import contextlib
import html
import math
import os
import warnings
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = [
    "MAX_POINTS",
    "Prediction",
    "answer",
    "check",
    "derived_verdict",
    "figure_problems",
    "knobs",
    "parse_guess",
    "predict",
    "setup",
    "show",
    "teacher_key",
    "thin",
]

#: Environment variable that turns the teacher's key on ("1", "true", "yes", "on").
TEACHER_KEY_ENV = "MONEYNB_TEACHER_KEY"
#: Environment variable choosing the export copy of each figure: "static", "embed" or "cdn".
FIGURES_ENV = "MONEYNB_FIGURES"
#: Environment variable set by scripts/build_handouts.py: knobs draw once, without widgets.
HANDOUT_ENV = "MONEYNB_HANDOUT"
#: The most data points one figure may store (all traces together); a 700-pixel-wide plot
#: cannot show more than a few hundred points per trace.
MAX_POINTS = 2_000
FIGURE_MODES = ("static", "embed", "cdn")

_state: dict[str, Any] = {"key": None, "figures": None, "plotlyjs_sent": False, "kaleido": False}


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def teacher_key() -> bool:
    """Whether answer cells print their answers: ``setup(key=...)`` if given, else the env var."""
    if _state["key"] is not None:
        return bool(_state["key"])
    return _truthy(os.environ.get(TEACHER_KEY_ENV))


def handout() -> bool:
    """Whether the notebook is being built into a handout (``MONEYNB_HANDOUT=1``)."""
    return _truthy(os.environ.get(HANDOUT_ENV))


def figure_mode() -> str:
    """The export copy every figure carries: ``"static"``, ``"embed"`` or ``"cdn"``.

    ``setup(figures=...)`` wins, then ``MONEYNB_FIGURES``, then ``"static"`` in a handout build
    and ``"cdn"`` otherwise. Raises ValueError for any other name.
    """
    mode = _state["figures"] or os.environ.get(FIGURES_ENV) or ("static" if handout() else "cdn")
    if mode not in FIGURE_MODES:
        raise ValueError(f"{FIGURES_ENV} must be one of {FIGURE_MODES}, not {mode!r}")
    return mode


def setup(key: bool | None = None, figures: str | None = None, quiet: bool = False) -> None:
    """Prepare a teaching notebook: install the ``"moneynb"`` plotly renderer, set the key.

    ``key``: True shows every answer (the teacher's key), False hides them, None (default)
    follows ``MONEYNB_TEACHER_KEY``. ``figures``: "static", "embed" or "cdn" (see
    :func:`figure_mode`); None follows ``MONEYNB_FIGURES``. Raises ValueError on another
    figure mode. Unless ``quiet``, shows one line saying whether the key is on.
    """
    if figures is not None and figures not in FIGURE_MODES:
        raise ValueError(f"figures must be one of {FIGURE_MODES}, not {figures!r}")
    _state["key"] = key
    _state["figures"] = figures
    _state["plotlyjs_sent"] = False
    import plotly.io as pio

    pio.renderers["moneynb"] = _TeachRenderer()
    pio.renderers.default = "moneynb"
    if not quiet:
        _display_markdown(
            "*Teacher's key **on**: answer cells print their answers.*"
            if teacher_key()
            else "*Answers are hidden. Teacher's key: `teach.setup(key=True)` in this cell, "
            f"or start Jupyter/Voila with `{TEACHER_KEY_ENV}=1`.*"
        )


def _display_markdown(text: str) -> None:
    from IPython.display import Markdown, display

    display(Markdown(text))


# --- figures -----------------------------------------------------------------------------


def _renderer_base():
    from plotly.io._base_renderers import MimetypeRenderer

    return MimetypeRenderer


class _TeachRenderer(_renderer_base()):
    """Plotly JSON (drawn by JupyterLab/Voila) plus an export copy (SVG or HTML)."""

    def to_mimebundle(self, fig_dict):
        import json

        import plotly.io as pio

        fig_json = json.loads(pio.to_json(fig_dict, validate=False, remove_uids=False))
        title = _title_text(fig_dict.get("layout", {}).get("title")) or "figure"
        bundle = {"application/vnd.plotly.v1+json": fig_json, "text/plain": f"<Figure: {title}>"}
        mode = figure_mode()
        if mode == "static":
            svg = _svg(fig_dict)
            if svg is not None:
                bundle["image/svg+xml"] = svg
                return bundle
            mode = "cdn"
        include = "cdn"
        if mode == "embed":
            include = not _state["plotlyjs_sent"]
            _state["plotlyjs_sent"] = True
        bundle["text/html"] = pio.to_html(
            fig_dict, include_plotlyjs=include, full_html=False, validate=False
        )
        return bundle


def _svg(fig_dict) -> str | None:
    """The figure as SVG text drawn by kaleido, or None (with a warning, once) if it cannot."""
    if _state["kaleido"] == "failed":
        return None
    try:
        import kaleido
        import plotly.io as pio

        if not _state["kaleido"]:
            kaleido.start_sync_server(silence_warnings=True)
            atexit.register(kaleido.stop_sync_server, silence_warnings=True)
            _state["kaleido"] = True
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "kopts ignored when using a server"
            return pio.to_image(fig_dict, format="svg", validate=False).decode()
    except Exception as exc:  # no kaleido, or no Chrome/Chromium for it
        _state["kaleido"] = "failed"
        warnings.warn(
            f"static figure not drawn ({exc}); falling back to HTML that loads plotly.js "
            "from the CDN. Install moneynb[teach] and Chromium for static handouts.",
            stacklevel=3,
        )
        return None


def _title_text(title) -> str:
    if title is None:
        return ""
    if isinstance(title, str):
        return title
    if hasattr(title, "to_plotly_json"):
        title = title.to_plotly_json()
    return str(title.get("text") or "")


_NO_AXES = {"pie", "sunburst", "treemap", "icicle", "funnelarea", "sankey", "table", "indicator"}
_POINT_KEYS = ("x", "y", "z", "values", "lat", "r")


def figure_problems(fig, max_points: int = MAX_POINTS) -> list[str]:
    """What keeps ``fig`` from being a good handout figure, as sentences (empty list: none).

    Checks that every visible x/y axis a trace uses has a title (a figure with several traces
    on one axis needs it once; a board's hidden axes need none) and that the figure stores at most ``max_points`` data points over all
    its traces. ``fig`` is a plotly Figure or its dict (as stored in a notebook output).
    """
    if hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    layout = fig.get("layout", {}) or {}
    problems = []
    used = set()
    points = 0
    for trace in fig.get("data", []) or []:
        if trace.get("type", "scatter") not in _NO_AXES:
            used.add("xaxis" + str(trace.get("xaxis", "x"))[1:])
            used.add("yaxis" + str(trace.get("yaxis", "y"))[1:])
        points += max((_length(trace.get(k)) for k in _POINT_KEYS), default=0)
    for axis in sorted(used):
        spec = layout.get(axis) or {}
        if spec.get("visible") is False:  # a hidden axis (a board) shows nothing to name
            continue
        if not _title_text(spec.get("title")):
            problems.append(f"{axis} has no title")
    if points > max_points:
        problems.append(f"stores {points} data points (at most {max_points})")
    return problems


def _length(values) -> int:
    if values is None or isinstance(values, str | int | float):
        return 0
    if isinstance(values, dict):  # plotly's typed-array JSON: {"dtype": ..., "bdata": ...}
        shape = values.get("shape")
        if shape:
            return math.prod(int(s) for s in str(shape).split(","))
        import base64

        size = np.dtype(values.get("dtype", "f8")).itemsize
        return len(base64.b64decode(values.get("bdata", ""))) // size
    return len(values)


def show(fig, max_points: int = MAX_POINTS) -> None:
    """Display a plotly figure through the ``"moneynb"`` renderer, after checking it.

    Warns (UserWarning) for each of :func:`figure_problems`; the handout test fails on them.
    Calls :func:`setup` quietly if the notebook has not.
    """
    import plotly.io as pio
    from IPython.display import display

    if pio.renderers.default != "moneynb":
        setup(key=_state["key"], figures=_state["figures"], quiet=True)
    for problem in figure_problems(fig, max_points):
        warnings.warn(f"figure {_title_text(fig.layout.title)!r}: {problem}", stacklevel=2)
    display(fig)


def board_snapshot(game) -> None:
    """In a handout (``MONEYNB_HANDOUT=1``), show ``game``'s board as it stands, as a static
    figure; elsewhere do nothing (a live notebook already shows the live board widget, which
    an export cannot draw). ``game``: any moneynb game. Uses :func:`moneynb.figures.board_figure`
    (the board as the live widget draws it, in the light theme of a printed page).
    """
    if not handout():
        return
    from .figures import board_figure

    show(board_figure(game))


def thin(n: int, keep: int = 400, log: bool = False) -> np.ndarray:
    """Indices of at most ``keep`` of ``n`` points, the first and last always included.

    ``log=True`` spaces them evenly on a log scale (for a log x axis: dense early, sparse
    late). Use as ``x[idx], y[idx]``. Raises ValueError if ``n < 0`` or ``keep < 2``.
    """
    if n < 0 or keep < 2:
        raise ValueError(f"need n >= 0 and keep >= 2, got n={n}, keep={keep}")
    if n <= keep:
        return np.arange(n)
    if log:
        idx = np.unique(np.geomspace(1, n, keep).round().astype(int) - 1)
    else:
        idx = np.unique(np.linspace(0, n - 1, keep).round().astype(int))
    return idx


# --- predict, then run ---------------------------------------------------------------------


def parse_guess(text) -> float | None:
    """A student's guess as a number: ``"35/6"``, ``"5.8"``, ``"17%"``, ``"1e3"``, or a number.

    Returns None for an empty guess (None, "" or ``...``). Raises ValueError for text that is
    not a number, a fraction or a percentage.
    """
    if text is None or text is Ellipsis:
        return None
    if isinstance(text, int | float | Fraction):
        return float(text)
    s = str(text).strip().replace(",", "").replace("$", "")
    if not s:
        return None
    try:
        if s.endswith("%"):
            return float(Fraction(s[:-1].strip())) / 100
        return float(Fraction(s))
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f"cannot read {text!r} as a number: write e.g. 6, 5.8, 35/6 or 17%"
        ) from None


class Prediction:
    """A question and the student's guess: a text box in JupyterLab/Voila, a blank in a handout.

    ``value`` is the guess as a float (None when nothing was written); ``text`` the raw text.
    With ``percent=True`` the question asks for a percentage: a bare number is read as percent
    (``25`` and ``25%`` are both 0.25) and :func:`check` shows both sides as percentages.
    """

    def __init__(self, question: str, guess=None, unit: str = "", percent: bool = False):
        self.question = question
        self.unit = unit
        self.percent = percent
        self._guess = "" if guess is None else str(guess)
        self._read(self._guess)  # a bad guess written in code fails here, not at check()
        self._box = None

    def _read(self, text) -> float | None:
        value = parse_guess(text)
        if value is not None and self.percent and not str(text).strip().endswith("%"):
            value /= 100
        return value

    @property
    def text(self) -> str:
        return self._box.value if self._box is not None else self._guess

    @property
    def value(self) -> float | None:
        return self._read(self.text)

    def widget(self):
        """The ipywidgets box the student types into (built on first use)."""
        if self._box is None:
            import ipywidgets as w

            self._box = w.Text(
                value=self._guess,
                placeholder="your guess in %: e.g. 17"
                if self.percent
                else "your guess: 6, 5.8, 35/6 or 17%",
                description="Your guess",
                style={"description_width": "initial"},
            )
        return self._box

    def _html(self) -> str:
        guess = html.escape(self.text) if self.text else "_" * 16
        unit = f" {html.escape(self.unit)}" if self.unit else (" %" if self.percent else "")
        return (
            f"<p><b>Predict:</b> {html.escape(self.question)}<br>"
            f"Your guess: <b>{guess}</b>{unit}</p>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        plain = f"Predict: {self.question}\nYour guess: {self.text or '____'} {self.unit}"
        bundle = {"text/plain": plain.rstrip(), "text/html": self._html()}
        if not handout():
            import ipywidgets as w

            box = w.VBox([w.HTML(f"<b>Predict:</b> {html.escape(self.question)}"), self.widget()])
            bundle = {**box._repr_mimebundle_(), **bundle}  # exports without widget state: HTML
        return bundle


def predict(question: str, guess=None, unit: str = "", percent: bool = False) -> Prediction:
    """Ask the student for a guess before the cell that computes the answer.

    ``question``: one sentence. ``guess``: what a student wrote in code (a number or text such
    as ``"35/6"``); None leaves the box empty. ``unit``: shown after the guess ("dollars").
    ``percent``: the answer is a share shown as a percentage (a guess of ``25`` means 25%).
    Returns the :class:`Prediction` (a notebook cell ending in it shows the box).
    Raises ValueError if ``guess`` cannot be read as a number.
    """
    return Prediction(question, guess, unit, percent)


def verdict(
    guess: float | None, answer: float, tolerance: float | None = None, percent: bool = False
) -> str:
    """One sentence comparing a guess with the computed answer.

    ``tolerance``: how far off still counts as right (default: 5% of the answer, or 0.01 when
    the answer is 0), in the answer's units (a share, also when ``percent``). ``percent``:
    write the numbers as percentages (0.25 as 25%).
    """
    fmt = _fmt_percent if percent else _fmt
    if guess is None:
        return f"No guess written: compare yours with the computed answer, {fmt(answer)}."
    tol = tolerance if tolerance is not None else (0.05 * abs(answer) or 0.01)
    off = guess - answer
    if abs(off) <= tol:
        return f"Your guess {fmt(guess)} is right: the computed answer is {fmt(answer)}."
    side = "high" if off > 0 else "low"
    return (
        f"Your guess {fmt(guess)} is {side} by {fmt(abs(off))}: "
        f"the computed answer is {fmt(answer)}."
    )


def _fmt_percent(x: float) -> str:
    p = 100 * float(x)
    return f"{p:,.0f}%" if abs(p) >= 100 else f"{p:.3g}%"


def _fmt(x: float) -> str:
    if isinstance(x, Fraction) and 1 < x.denominator <= 1000:
        return f"{x} = {float(x):.4g}"
    x = float(x)
    return f"{x:,.0f}" if x == round(x) and abs(x) >= 1 else f"{x:.4g}"


def derived_verdict(
    derived, answer, tolerance: float | None = None, hint: str = "", what: str = ""
) -> str:
    """The sentence :func:`check` prints for an answer a student derived themselves.

    ``derived``: their number (int, float, Fraction, or text such as ``"1/6"`` or ``"17%"``;
    ``...``/None: not answered yet). ``answer``: the engine's figure. Exact comparison when
    both are Fractions or ints (``Fraction(6, 36)`` is right for ``Fraction(1, 6)``); otherwise
    within ``tolerance`` (default 0.5% of the figure, or 0.001 when it is 0). A wrong answer
    gets its distance, the engine's figure and ``hint``. Raises ValueError when ``derived`` is
    not a number.
    """
    name = f"{what}: " if what else ""
    if derived is None or derived is Ellipsis:
        return (
            f"{name}No answer yet: replace the ... with your own calculation, "
            f"then run the cell again."
        )
    exact = isinstance(answer, int | Fraction) and isinstance(derived, int | Fraction)
    if exact:
        value, target = Fraction(derived), Fraction(answer)
        right = value == target
    else:
        value, target = parse_guess(derived), float(answer)
        tol = tolerance if tolerance is not None else (0.005 * abs(target) or 0.001)
        right = abs(value - target) <= tol
    if right:
        how = "exactly" if exact else "to within rounding"
        return f"{name}Right: {_fmt(value)} is {how} the engine's figure, {_fmt(target)}."
    side = "high" if value > target else "low"
    why = f" Hint: {hint}" if hint else ""
    return (
        f"{name}Not yet: your {_fmt(value)} is {side} by {_fmt(abs(value - target))}; "
        f"the engine's figure is {_fmt(target)}.{why}"
    )


def check(
    prediction, answer, tolerance: float | None = None, hint: str = "", what: str = ""
) -> None:
    """Set the student's guess, or the answer they derived, beside the engine's figure.

    ``prediction``: a :class:`Prediction` (a guess made before the computing cell), or a
    number the student DERIVED in their own code (an int, float, Fraction or text such as
    ``"1/6"``; ``...`` or None while they have not answered yet). ``answer``: the engine's
    figure, a number or Fraction (a Fraction is shown as both). For a Prediction, shows the
    sentence of :func:`verdict` and (outside handouts) a "Check my guess" button that re-reads
    the box. For a derived answer, prints the sentence of :func:`derived_verdict`: right or
    wrong, by how much, and ``hint`` (why it may be off; the notebook writes it) when wrong;
    ``what`` names the quantity. ``tolerance`` as in :func:`verdict` (a derived answer is held
    to 0.5% of the figure by default, and to exact equality when both are Fractions).
    Raises ValueError for a derived answer that is not a number.
    """
    if not isinstance(prediction, Prediction):
        print(derived_verdict(prediction, answer, tolerance, hint=hint, what=what))
        return
    from IPython.display import display

    sentence = verdict(prediction.value, answer, tolerance, prediction.percent)
    if handout():
        print(sentence)
        return
    import ipywidgets as w

    out = w.HTML(html.escape(sentence))
    button = w.Button(description="Check my guess", icon="check")

    def recheck(_):
        try:
            out.value = html.escape(
                verdict(prediction.value, answer, tolerance, prediction.percent)
            )
        except ValueError as exc:
            out.value = html.escape(str(exc))

    button.on_click(recheck)
    box = w.VBox([button, out])
    display(_WithFallback(box, sentence))


class _WithFallback:
    """A widget that exports as text when the widget state is not saved."""

    def __init__(self, widget, text: str):
        self.widget, self.text = widget, text

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text, "text/html": f"<p>{html.escape(self.text)}</p>"}
        return {**self.widget._repr_mimebundle_(), **bundle}


# --- hidden answers ------------------------------------------------------------------------


@contextlib.contextmanager
def answer() -> Iterator[None]:
    """Run an answer block; print its output only when the teacher's key is on.

    With the key off, everything the block prints or displays is swallowed and one line says
    how to show it; errors inside the block are raised either way (so tests see them).
    """
    if teacher_key():
        yield
        return
    from IPython.utils.capture import capture_output

    with capture_output(stdout=True, stderr=False, display=True):
        yield
    print(
        f"(Answer hidden: teacher's key off. Show it with teach.setup(key=True) or {TEACHER_KEY_ENV}=1.)"
    )


#: The metadata every answer cell carries (JupyterLab hides its code and its output).
ANSWER_METADATA = {"jupyter": {"source_hidden": True, "outputs_hidden": True}, "tags": ["answer"]}


def is_answer_cell(cell: dict) -> bool:
    """Whether a notebook cell (nbformat dict) is tagged as an answer."""
    return "answer" in cell.get("metadata", {}).get("tags", [])


def is_teacher_cell(cell: dict) -> bool:
    """Whether a notebook cell (nbformat dict) is for the teacher only (tag ``teacher``: the
    "Teacher's notes" Markdown cell); the student handout leaves it out like an answer."""
    return "teacher" in cell.get("metadata", {}).get("tags", [])


# --- live knobs ----------------------------------------------------------------------------


def knobs(draw: Callable[..., Any], **controls):
    """Redraw ``draw(**values)`` whenever a slider moves: ipywidgets ``interact``'s controls.

    ``controls`` are interact's abbreviations: ``(low, high, step)`` for a slider, a list for
    a dropdown, a bool for a check box, or a widget; the function's defaults are the starting
    values. ``draw`` returns a plotly figure (shown through the ``"moneynb"`` renderer) or
    prints. Headless runs (nbval, nbconvert, nbclient) draw once with the starting values; in a
    handout (``MONEYNB_HANDOUT=1``) there are no widgets at all and the starting values' result
    is shown directly. Returns None (so a cell ending in ``teach.knobs(...)`` shows no stray
    repr). Raises what ``draw`` raises on the first draw (a later redraw shows its error).

    Unlike ``interact``, the drawing is not *captured* into the Output widget (``with out:``,
    which sets the widget's ``msg_id``); it is drawn here and the Output widget's ``outputs``
    are set in one state update. A captured output makes nbclient (``jupyter nbconvert
    --execute``) play the front end: for each output it sends a ``comm_msg`` on the shell
    channel from its IOPub task while the cell's reply is awaited on that same socket, and the
    reply's wake-up is sometimes lost, so the cell stalls for the whole cell timeout (issue 28;
    nbclient issue #312).
    """
    import functools
    import inspect

    from IPython.display import display

    @functools.wraps(draw)
    def run(**values):
        result = draw(**values)
        if result is not None and hasattr(result, "to_plotly_json"):
            show(result)
            return None
        return result

    import ipywidgets as w

    defaults = {
        k: p.default
        for k, p in inspect.signature(draw).parameters.items()
        if p.default is not inspect.Parameter.empty
    }
    widgets = {}
    for name, spec in controls.items():
        if isinstance(spec, w.ValueWidget):
            widget = spec
            if name in defaults:
                widget.value = defaults[name]
        else:
            widget = w.interactive.widget_from_abbrev(
                spec, defaults.get(name, inspect.Parameter.empty)
            )
            if widget is None:
                raise ValueError(f"cannot make a control for {name}={spec!r}")
        widget.description = widget.description or name
        widgets[name] = widget

    if handout():
        start = {name: widget.value for name, widget in widgets.items()}
        shown = ", ".join(f"{k} = {v}" for k, v in start.items())
        print(f"(Live knobs in the notebook; this handout shows {shown}.)")
        result = run(**start)
        if result is not None:
            display(result)
        return None

    out = w.Output()

    def redraw(change=None):
        values = {name: widget.value for name, widget in widgets.items()}
        out.outputs = tuple(_drawn_outputs(run, values, raise_errors=change is None))

    for widget in widgets.values():
        widget.observe(redraw, names="value")
    redraw()
    display(w.VBox([*widgets.values(), out], _dom_classes=["widget-interact"]))
    return None


def _drawn_outputs(run, values: dict, raise_errors: bool) -> list[dict]:
    """What ``run(**values)`` prints and displays, as nbformat output dicts (for an Output
    widget's ``outputs``). ``raise_errors``: raise an error of ``run`` (the first draw, so a
    headless run fails); otherwise the error's traceback becomes the output."""
    import traceback

    from IPython.utils.capture import capture_output

    outputs: list[dict] = []
    with capture_output(stdout=True, stderr=True, display=True) as cap:
        try:
            result = run(**values)
        except Exception:
            if raise_errors:
                raise
            result = None
            print(traceback.format_exc())
        if result is not None:
            from IPython.display import display

            display(result)
    for name, text in (("stdout", cap.stdout), ("stderr", cap.stderr)):
        if text:
            outputs.append({"output_type": "stream", "name": name, "text": text})
    for rich in cap.outputs:
        outputs.append(
            {"output_type": "display_data", "data": rich.data, "metadata": rich.metadata or {}}
        )
    return outputs


# --- handouts ------------------------------------------------------------------------------


def build_handout(
    notebook, out_dir, key: bool = False, figures: str = "static", timeout: int = 600
) -> tuple[Any, Any]:
    """Run a teaching notebook and write it as an HTML handout; return ``(html_path, notebook)``.

    ``notebook``: path of a ``.ipynb``; ``out_dir``: folder for ``<name>.html`` (``<name>-key.html``
    for the teacher's key, which keeps the answer cells and prints their answers; the student
    handout drops every cell tagged "answer"). ``figures``: see :func:`figure_mode`. The
    notebook runs in a fresh kernel from its own folder with ``MONEYNB_HANDOUT=1``; the
    executed notebook (nbformat node, answer cells removed as in the HTML) is returned for
    checks. Raises nbclient's CellExecutionError if a cell fails, ValueError on a bad mode.
    """
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    if figures not in FIGURE_MODES:
        raise ValueError(f"figures must be one of {FIGURE_MODES}, not {figures!r}")
    notebook, out_dir = Path(notebook), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(notebook, as_version=4)
    env = {HANDOUT_ENV: "1", FIGURES_ENV: figures, TEACHER_KEY_ENV: "1" if key else "0"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        NotebookClient(
            nb,
            timeout=timeout,
            kernel_name="python3",
            resources={"metadata": {"path": str(notebook.parent)}},
        ).execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if not key:
        nb.cells = [c for c in nb.cells if not (is_answer_cell(c) or is_teacher_cell(c))]
    for cell in nb.cells:  # a handout shows everything it keeps: no collapsed cells
        cell.metadata.pop("jupyter", None)
    nb.metadata.pop("widgets", None)  # no live widgets on paper (their state can be megabytes)
    for cell in nb.cells:  # ... so a widget with nothing else to show is left out, not its repr
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if not _bare_widget(o)]
    exporter = HTMLExporter(template_name="lab")
    body, _ = exporter.from_notebook_node(nb)
    body = _alt_texts(body, nb)
    path = out_dir / f"{notebook.stem}{'-key' if key else ''}.html"
    path.write_text(body, encoding="utf-8")
    return path, nb


def _bare_widget(output) -> bool:
    data = output.get("data", {})
    return "application/vnd.jupyter.widget-view+json" in data and not (
        set(data) & {"text/html", "image/svg+xml", "image/png", "application/vnd.plotly.v1+json"}
    )


def figure_outputs(nb) -> list[dict]:
    """The plotly figures (dicts) among a notebook's outputs, in order of appearance."""
    return [
        out["data"]["application/vnd.plotly.v1+json"]
        for cell in nb["cells"]
        if cell["cell_type"] == "code"
        for out in cell.get("outputs", [])
        if "application/vnd.plotly.v1+json" in out.get("data", {})
    ]


def describe_figure(fig: dict) -> str:
    """A one-line text description of a figure (its title and axis titles), for alt text."""
    layout = fig.get("layout", {})
    parts = [_title_text(layout.get("title")) or "Figure"]
    for axis in sorted(k for k in layout if k.startswith(("xaxis", "yaxis"))):
        text = _title_text((layout.get(axis) or {}).get("title"))
        if text:
            parts.append(f"{axis[0]} axis: {text}")
    return "; ".join(parts)


def _alt_texts(body: str, nb) -> str:
    """Give each static figure of an exported page the description of its figure as alt text."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(body, features="html.parser")
    images = soup.select('div[data-mime-type="image/svg+xml"] img')
    figures = [
        out["data"]["application/vnd.plotly.v1+json"]
        for cell in nb["cells"]
        if cell["cell_type"] == "code"
        for out in cell.get("outputs", [])
        if "image/svg+xml" in out.get("data", {})
        and "application/vnd.plotly.v1+json" in out.get("data", {})
    ]
    if len(images) != len(figures):  # another SVG on the page: leave the page as it is
        return body
    for img, fig in zip(images, figures, strict=True):
        img["alt"] = describe_figure(fig)
    return str(soup)


# ===== pooled class experiments (issue 25) ===================================================
#: longest lesson code
MAX_LESSON = 100


def mean_distribution(per_trial: dict, n: int) -> dict[Fraction, Fraction]:
    """The exact distribution of the mean of ``n`` independent trials, each distributed as
    ``per_trial`` (``{outcome: probability}``, e.g. a die's ``distribution()`` or one hand's
    result from the engine's table): the ``n``-fold convolution, in exact fractions.
    Pure arithmetic on the distribution it is given (no game rule here).

    Raises:
        ValueError: ``n`` < 1 or over 1000, or probabilities that do not sum to 1.
    """
    if not isinstance(n, int) or not 1 <= n <= 1000:
        raise ValueError(f"n is a whole number of trials from 1 to 1000, got {n!r}")
    one = {Fraction(k): Fraction(p) for k, p in per_trial.items() if p}
    if sum(one.values()) != 1:
        raise ValueError("the probabilities of a trial must sum to 1")
    total = {Fraction(0): Fraction(1)}
    for _ in range(n):
        nxt: dict[Fraction, Fraction] = {}
        for s, p in total.items():
            for k, q in one.items():
                nxt[s + k] = nxt.get(s + k, 0) + p * q
        total = nxt
    return {s / n: p for s, p in sorted(total.items())}


def lesson_seed(seed: int | None = None) -> int:
    """The seed of a student's run of a pooled activity: ``seed`` when the lesson asks for one
    (everyone who uses it draws the same), else a fresh random one (so each student's run, and
    each re-run, differs). Post it with the result (:func:`post_result`'s ``seed``) so the run
    can be repeated. Raises ValueError for a seed that is not a whole number."""
    import secrets

    if seed is None:
        return secrets.randbelow(2**32)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed is a whole number, got {seed!r:.40}")
    return seed


class PostNote:
    """What :func:`post_result` shows: a line (class ``moneynb-posted``) saying what happened
    to the result, once this kernel knows whose it is. ``posted`` is the
    :class:`moneynb.store.Posted` (None until, or when it was not posted); ``text`` the line."""

    def __init__(self):
        self.posted = None
        self.text = ""
        self.widget = None

    def say(self, text: str, posted=None, alert: bool = False) -> None:
        self.text, self.posted = text, posted
        if self.widget is not None:
            kind = "alert" if alert else "status"
            data = (f" data-run='{posted.run}' data-replaced='{int(posted.replaced)}'"
                    f" data-seed='{posted.seed}'" if posted is not None else "")  # fmt: skip
            self.widget.value = f"<span role='{kind}'{data}>{html.escape(text)}</span>"
        else:
            print(text)

    def __repr__(self) -> str:
        return f"PostNote({self.text!r})"


def post_result(lesson: str, value, seed: int | None = None, store=None, owner: str | None = None,
                **data) -> PostNote:  # fmt: skip
    """Post this student's result of the pooled activity ``lesson`` (e.g. ``"dice-10"``) to
    their class: ``value`` (a number: the student's mean, share...), the ``seed`` their run
    used (:func:`lesson_seed`) and any other JSON-able ``data``.

    The class is the student's own (:func:`moneynb.join_class`, the app's form, or the hub
    user's class). Each student keeps ONE current result per run of the activity: posting again
    replaces it, and the line says so. The teacher's own notebook does not post (the line
    says so), nor does a kernel whose student is in no class. In Voila (every cell runs before
    the page says who it is) the result is posted as soon as the browser has said it.

    Returns a :class:`PostNote` (``posted``: the stored :class:`moneynb.store.Posted`, or None).

    Raises:
        ValueError: an empty or over-long lesson code, a value that is not a finite number,
            a seed that is not a whole number.
    """
    from .store import open_store

    if not isinstance(lesson, str) or not lesson.strip() or len(lesson) > MAX_LESSON:
        raise ValueError(f"a lesson code is some text of at most {MAX_LESSON} characters")
    from .store.classes import result_value

    v = result_value(value)
    if seed is not None:
        seed = lesson_seed(seed)
    lesson = lesson.strip()
    note = PostNote()
    st = open_store(store)

    def post(who: str) -> None:
        from .store import StoreError, is_teacher

        try:
            k = st.class_of(who)
            if is_teacher(who) or (k is not None and k.teacher == who):
                note.say(f"The teacher's notebook: {v:g} is not posted to the class.")
                return
            if k is None:
                note.say(f"Not posted ({v:g}): you are in no class. Join yours first: "
                         "moneynb.join_class(code, name), or the app's 'Join a class'.")  # fmt: skip
                return
            p = st.post_class_result(lesson, who, v, seed=seed, data=data or None)
        except (StoreError, ValueError) as e:
            note.say(f"Not posted: {e}", alert=True)
            return
        what = "Replaced your earlier result with" if p.replaced else "Posted"
        note.say(f"{what} {v:g} for {lesson} (run {p.run}) in {k.name}.", p)

    who = owner
    if who is None:
        try:
            from .ui.identity import current_owner, when_owner
        except ImportError:  # no front end: no browser to ask
            current_owner = when_owner = None
        from .store.hub import hub_owner

        who = hub_owner(st) or (current_owner() if current_owner else None)
        if who is None and when_owner is not None and _in_kernel():
            import ipywidgets as w
            from IPython.display import display

            from .ui.identity import BrowserIdentity

            note.widget = w.HTML("<i>Posting when this page says who you are…</i>")
            note.widget.add_class("moneynb-posted")
            display(w.VBox([BrowserIdentity(), note.widget]))
            when_owner(post)
            return note
    if who is None:
        note.say(f"Not posted ({v:g}): nobody is known here (join your class in a notebook).")
        return note
    if _in_kernel():
        import ipywidgets as w
        from IPython.display import display

        note.widget = w.HTML()
        note.widget.add_class("moneynb-posted")
        display(note.widget)
    post(who)
    return note


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython

        ip = get_ipython()
    except ImportError:
        return False
    return ip is not None and getattr(ip, "kernel", None) is not None


def _bins(exact: dict, most: int = 40) -> list[tuple[float, float]]:
    """Bins ``(low, high)`` covering the exact distribution's support: one per possible value
    when there are at most ``most``, else consecutive groups of equally many values."""
    xs = sorted(float(x) for x in exact)
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)] or [1.0]
    h = min(gaps) / 2
    g = math.ceil(len(xs) / most)  # the same number of possible values in every bin
    return [(xs[i] - h, xs[min(i + g, len(xs)) - 1] + h) for i in range(0, len(xs), g)]


def expected_value(exact: dict) -> float:
    """The mean of the exact distribution ``exact`` (``{value: probability}``)."""
    return float(sum(Fraction(x) * Fraction(p) for x, p in exact.items()))


def class_figure(values, exact: dict, title: str = "The class's results", xlabel: str = "result"):
    """A plotly figure: the share of ``values`` in each bin (bars), the exact probability of
    each bin from ``exact`` (``{value: probability}``, from the engine or analysis; a line),
    and two vertical lines: the class mean of ``values`` and the expected value of ``exact``.
    Returns a ``plotly.graph_objects.Figure`` (traces in that order: class, exact, mean, EV)."""
    import plotly.graph_objects as go

    bins = _bins(exact)
    last = len(bins) - 1

    def where(x: float) -> int | None:
        for i, (a, b) in enumerate(bins):
            if a <= x < b or (i == last and x == b):
                return i
        return None

    mids = [(a + b) / 2 for a, b in bins]
    p = [0.0] * len(bins)
    for x, q in exact.items():
        i = where(float(x))
        if i is not None:
            p[i] += float(q)
    counts = [0] * len(bins)
    outside = 0
    for v in values:
        i = where(float(v))
        if i is None:
            outside += 1
        else:
            counts[i] += 1
    n = len(values)
    share = [c / n if n else 0.0 for c in counts]
    top = max(share + p + [0.01]) * 1.08
    ev = expected_value(exact)
    mean = sum(float(v) for v in values) / n if n else None
    fig = go.Figure([
        go.Bar(x=mids, y=share, name=f"the class ({n} results)", marker_color="#90caf9"),
        go.Scatter(x=mids, y=p, mode="lines+markers", name="exact (engine)",
                   line={"color": "#b71c1c"}),
        go.Scatter(x=[mean, mean] if n else [], y=[0, top] if n else [], mode="lines",
                   name=f"class mean {mean:.4g}" if n else "class mean (no results yet)",
                   line={"color": "#0d47a1", "width": 3}),
        go.Scatter(x=[ev, ev], y=[0, top], mode="lines", name=f"expected value {ev:.4g}",
                   line={"color": "#b71c1c", "width": 2, "dash": "dash"}),
    ])  # fmt: skip
    more = f"; {outside} outside the possible range" if outside else ""
    fig.update_layout(title=f"{title}{more}", xaxis_title=xlabel, yaxis_title="share",
                      bargap=0.05, height=380, width=700)  # fmt: skip
    return fig


class ClassResults:
    """The teacher's live histogram of a pooled activity (see :func:`class_results`).

    ``widget``: the widget shown (class ``moneynb-class-results``): the figure (a
    :class:`moneynb.ui.boards.base.BoardFigure`, the boards' robust path, so it draws in
    JupyterLab and Voila), a line (class ``moneynb-class-count``, with ``data-posted``,
    ``data-roster``, ``data-mean``, ``data-ev``, ``data-run``: "3 of 3 in the roster posted")
    and "Clear the run" (``moneynb-class-clear-run``). ``values``: the values of the last read;
    ``roster``: the roster's size; ``run``: the run shown; ``redraw()``, ``clear()``,
    ``stop()``. In a student's notebook it shows only a line (the teacher's screen has it).
    """

    def __init__(self, lesson: str, exact: dict, store=None, watch: bool = True,
                 title: str | None = None, xlabel: str = "result", owner: str | None = None,
                 class_id: str | None = None):  # fmt: skip
        import threading

        import ipywidgets as widgets

        from .store import open_store

        self.lesson, self.exact, self.xlabel = lesson, dict(exact), xlabel
        self.ev = expected_value(self.exact)
        self.title = title or f"{lesson}: the class's results"
        self.store = open_store(store)
        self.values: list[float] = []
        self.roster = 0
        self.run = None
        self.owner, self.class_id = owner, class_id
        self.figure = None
        self.note = widgets.HTML("<i>Waiting for this page to say who you are…</i>")
        self.note.add_class("moneynb-class-count")
        self.clear_button = widgets.Button(description="Clear the run", icon="trash",
                                           layout={"display": "none"})  # fmt: skip
        self.clear_button.add_class("moneynb-class-clear-run")
        self.clear_button.on_click(lambda _b: self.clear())
        self.widget = widgets.VBox([self.note, self.clear_button])
        self.widget.add_class("moneynb-class-results")
        self._stop = threading.Event()
        self._thread = None
        self._watch = watch
        if owner is not None:
            self._owner_known(owner)
        elif not handout():
            from .store.hub import hub_owner
            from .ui.identity import BrowserIdentity, current_owner

            ident = BrowserIdentity()
            self.widget.children = (ident, *self.widget.children)
            me = hub_owner(self.store) or current_owner()  # a hub: the service's whoami
            if me:
                self._owner_known(me)
            else:
                ident.on_owner(self._owner_known)

    def _owner_known(self, owner: str) -> None:
        import threading

        from .store import StoreError

        self.owner = owner
        try:
            if self.class_id is None:
                k = self.store.class_of(owner)
                if k is None or k.teacher != owner:
                    self.note.value = (
                        "<i>The class's results show on the teacher's screen.</i>"
                        if k is not None else
                        "<i>No class is open here: the teacher opens one (moneynb.classroom()), "
                        "students join it.</i>"
                    )  # fmt: skip
                    return
                self.class_id = k.id
            else:
                self.store.roster(self.class_id, owner)  # only its teacher may watch it
        except StoreError as e:
            self.note.value = f"<span role='alert'>⚠ {html.escape(str(e))}</span>"
            return
        from .ui.boards.base import BoardFigure

        fig = class_figure([], self.exact, self.title, self.xlabel).to_dict()
        self.figure = BoardFigure(data=fig["data"], layout=fig["layout"])
        self.clear_button.layout.display = None
        self.widget.children = (*self.widget.children[:-2], self.figure, self.note,
                                self.clear_button)  # fmt: skip
        self.redraw()
        if self._watch and self._thread is None:
            self._thread = threading.Thread(target=self._loop, daemon=True,
                                            name="moneynb-class-results")  # fmt: skip
            self._thread.start()

    def redraw(self) -> None:
        """Read the current run's results and redraw (a store failure: a note, the last
        figure kept)."""
        from .store import StoreError

        if self.class_id is None or self.figure is None:
            return
        try:
            rows = self.store.class_results(self.class_id, self.owner, lesson=self.lesson)
            roster = len(self.store.roster(self.class_id, self.owner))
            run = self.store.current_run(self.class_id, self.lesson)
        except StoreError as e:
            self.note.value = f"<span role='alert'>⚠ {html.escape(str(e))}</span>"
            return
        values = [float(r["value"]) for r in rows if r["value"] is not None]
        first = self.run is None
        self.roster, self.run = roster, run
        mean = sum(values) / len(values) if values else None
        self.note.value = (
            f"<span data-posted='{len(values)}' data-roster='{roster}' data-run='{run}' "
            f"data-mean='{'' if mean is None else f'{mean:.6g}'}' data-ev='{self.ev:.6g}'>"
            f"<b>{len(values)} of {roster}</b> in the roster posted (run {run}) · class mean "
            f"{'—' if mean is None else f'{mean:.4g}'} · expected value {self.ev:.4g}</span>"
        )
        if values == self.values and not first:
            return
        self.values = values
        new = class_figure(values, self.exact, self.title, self.xlabel)
        # one trace per change message: a batch over several traces with different changed
        # properties left the unchanged ones of the others undefined on the page (the bars
        # lost their x, the expected value its name)
        for i, tr in enumerate(new.data):
            old = self.figure.data[i]
            changed = {k: getattr(tr, k) for k in ("x", "y", "name")
                       if getattr(old, k) != getattr(tr, k)}  # fmt: skip
            # an array value is wrapped in a list: one value for the one trace (plotly.js)
            changed = {k: [list(v)] if isinstance(v, tuple | list) else v
                       for k, v in changed.items()}  # fmt: skip
            if changed:
                self.figure.plotly_restyle(changed, trace_indexes=[i])
        if self.figure.layout.title.text != new.layout.title.text:
            self.figure.layout.title.text = new.layout.title.text

    def clear(self) -> int | None:
        """Clear the run (the teacher): a new, empty run starts; returns its number."""
        from .store import StoreError

        if self.class_id is None:
            return None
        try:
            run = self.store.clear_run(self.class_id, self.lesson, self.owner)
        except StoreError as e:
            self.note.value = f"<span role='alert'>⚠ {html.escape(str(e))}</span>"
            return None
        self.redraw()
        return run

    def _loop(self) -> None:
        from .store.store import follow

        def say(e: Exception) -> None:
            self.note.value = f"<span role='alert'>⚠ {html.escape(str(e))}</span>"

        follow(self.store, self._stop, self.redraw, on_error=say, wait_s=0.5,
               min_interval_s=0.5)  # fmt: skip

    def stop(self) -> None:
        """Stop following the store."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _ipython_display_(self, **kwargs) -> None:
        from IPython.display import display

        if handout():  # a printed page: the figure as it is now, no widget
            show(class_figure(self.values, self.exact, self.title, self.xlabel))
        else:
            display(self.widget)


def class_results(lesson: str, exact: dict, store=None, watch: bool = True,
                  title: str | None = None, xlabel: str = "result", owner: str | None = None,
                  class_id: str | None = None) -> ClassResults:  # fmt: skip
    """The class's results of the pooled activity ``lesson`` as a live histogram, for the
    teacher: the current run's results (one per student), the exact distribution ``exact``
    (``{value: probability}``: from the engine or moneynb.analysis, e.g.
    :func:`mean_distribution` of a die's distribution), the class mean and the expected value
    marked, and how many of the roster posted. Redraws when a student posts (the store's
    watcher). Display the returned object. The class is the teacher's open class (``owner``:
    the hub user or this browser by default) or ``class_id``; in a student's notebook it shows
    one line instead.

    Raises:
        moneynb.store.StoreError: the store cannot be opened.
    """
    return ClassResults(lesson, exact, store=store, watch=watch, title=title, xlabel=xlabel,
                        owner=owner, class_id=class_id)  # fmt: skip


__all__ += ["post_result", "class_results", "class_figure", "mean_distribution", "lesson_seed",
            "expected_value", "PostNote", "ClassResults"]  # fmt: skip
