"""Handouts: every teaching notebook exports to HTML with every figure drawn into the page.

Building a handout runs its notebook in a fresh kernel and draws each figure with kaleido
(~0.2 s a figure; 20-95 s a notebook at load ~20, teach_agents the longest), so one CI run
builds one notebook, a different one each day of an eight-day round (the name is printed;
CI time); ``MONEYNB_ALL_HANDOUTS=1`` builds all of them. The structure checks at the bottom
read every teaching notebook without running it.
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path

import nbformat
import pytest

from moneynb import teach

HERE = Path(__file__).resolve().parent.parent / "notebooks"
#: The teaching notebooks that follow docs/teaching.md (each helper adds its notebooks here).
TEACHING = [
    "teach_dice",
    "teach_expected_value",
    "teach_markov",
    "teach_tournaments",
    "teach_agents",
    "teach_credit",
    "teach_property",
    "teach_inequality",
]
NOTEBOOKS = [HERE / f"{name}.ipynb" for name in TEACHING]


def todays_handouts() -> list[Path]:
    """The teaching notebooks whose handouts this run builds: today's one, or all of them with
    ``MONEYNB_ALL_HANDOUTS=1``."""
    if os.environ.get("MONEYNB_ALL_HANDOUTS") == "1" or len(NOTEBOOKS) <= 1:
        return NOTEBOOKS
    today = NOTEBOOKS[datetime.date.today().toordinal() % len(NOTEBOOKS)]
    print("handout built in this run:", today.name)
    return [today]


def _static_figures(html: str) -> int:
    return len(re.findall(r'data-mime-type="image/svg\+xml"', html))


@pytest.mark.parametrize("notebook", todays_handouts(), ids=lambda p: p.stem)
def test_handout_has_every_figure_with_titled_axes(notebook, tmp_path):
    path, nb = teach.build_handout(notebook, tmp_path, figures="static")
    html = path.read_text(encoding="utf-8")
    figures = teach.figure_outputs(nb)
    assert figures, f"{notebook.name} shows no figure"
    # every figure output of the notebook became an image in the page ...
    assert _static_figures(html) == len(figures), (
        f"{notebook.name}: {len(figures)} figures in the notebook, "
        f"{_static_figures(html)} drawn in the handout"
    )
    # ... with its description as alt text, and no plotly JSON left for a viewer to drop
    assert "No description has been provided" not in html
    for fig in figures:
        assert teach.figure_problems(fig) == [], teach.describe_figure(fig)
    # answers are not in the student handout
    assert "Answer hidden" not in html
    widget_text = re.search(r"Figure(Widget)?\(\d+ traces\)|\w+\(children=", html)
    assert widget_text is None, f"a widget's text stands in for it: {widget_text}"
    # static figures keep a handout small enough to mail (plotly.js alone is 4.7 MB)
    assert path.stat().st_size < 2_000_000, f"{path.name}: {path.stat().st_size} bytes"


def test_teachers_key_prints_the_answers(tmp_path):
    nb = tmp_path / "teach_tiny.ipynb"
    nbformat.write(_tiny_notebook(), nb)
    student, _ = teach.build_handout(nb, tmp_path, key=False, figures="cdn")
    key, _ = teach.build_handout(nb, tmp_path, key=True, figures="cdn")
    assert "the answer is 42" not in student.read_text()
    assert "the answer is 42" in key.read_text()
    assert "misconception" not in student.read_text()  # teacher's notes: the key only
    assert "misconception" in key.read_text()
    assert student.read_text().count('class="plotly-graph-div"') == 1


def _tiny_notebook():
    code = nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        code("from moneynb import teach\nimport plotly.graph_objects as go\nteach.setup()"),
        code(
            "fig = go.Figure(go.Bar(x=[1, 2], y=[3, 4]))\n"
            "fig.update_layout(title='t', xaxis_title='a', yaxis_title='b')\nfig"
        ),
        code(
            "with teach.answer():\n    print('the answer is', 6 * 7)",
            metadata=nbformat.from_dict(teach.ANSWER_METADATA),
        ),
        nbformat.v4.new_markdown_cell(
            "## Teacher's notes\n\nA common misconception.",
            metadata={"jupyter": {"source_hidden": True}, "tags": ["key", "teacher"]},
        ),
    ]
    return nb


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_follows_the_teaching_conventions(notebook):
    """docs/teaching.md, checked without running: top, predictions, knobs, hidden answers."""
    nb = nbformat.read(notebook, as_version=4)
    top = nb.cells[0].source
    for heading in ("Learning goals", "Prerequisites", "Suggested timing"):
        assert heading in top, f"{notebook.name}: first cell lacks {heading!r}"
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert "teach.setup(" in code[0]
    predictions = [i for i, c in enumerate(nb.cells) if "teach.predict(" in c.source]
    assert len(predictions) >= 2, f"{notebook.name}: {len(predictions)} predictions"
    for i in predictions:  # the answer comes after the guess, in a later cell
        assert any("teach.check(" in c.source for c in nb.cells[i + 1 :])
        assert "teach.check(" not in nb.cells[i].source
    assert any("teach.knobs(" in c for c in code), f"{notebook.name}: no live-knob cell"
    notes = [c for c in nb.cells if teach.is_teacher_cell(c)]  # the key's notes, not the handout's
    assert [c.source.splitlines()[0] for c in notes] == ["## Teacher's notes"]
    answers = [c for c in nb.cells if teach.is_answer_cell(c)]
    assert answers, f"{notebook.name}: no hidden answers"
    for cell in answers:
        assert cell.metadata["jupyter"] == teach.ANSWER_METADATA["jupyter"]
        assert "with teach.answer():" in cell.source
    for cell in nb.cells:  # committed clean
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
    assert "widgets" not in nb.metadata
