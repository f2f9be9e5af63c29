"""Worksheets and teacher's keys: built from the notebooks' tagged cells, printed to A4 PDF.

The session's headless Chromium (conftest) prints all 16 documents (``page.pdf(format="A4")``, the browser's own
print). Nothing is executed: the documents are the notebooks' cell sources.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from moneynb import worksheets

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("teach_*.ipynb"))


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def _formulas(source: str) -> int:
    return len(worksheets._MATH.findall(source))


@pytest.fixture(scope="module")
def printed(browser_context, tmp_path_factory):
    """Every worksheet and key built and printed to A4 by the session's Chromium."""
    out = tmp_path_factory.mktemp("sheets")
    docs = {}
    page = browser_context.new_page()
    try:
        for nb in NOTEBOOKS:
            for path in worksheets.build(nb, out):
                page.goto(path.as_uri())
                docs[path.stem] = (path.read_text(encoding="utf-8"), page.pdf(format="A4"))
    finally:
        page.close()
    return docs


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_worksheet_fits_two_pages_with_every_box_and_formula(printed, notebook):
    nb = nbformat.read(notebook, as_version=4)
    html, pdf = printed[f"{notebook.stem}-worksheet"]
    assert 1 <= _pages(pdf) <= 2, f"{notebook.stem}: worksheet prints on {_pages(pdf)} A4 pages"
    # a box with room to write for every prediction the notebook asks for
    predictions = [c for c in nb.cells if "teach.predict(" in c.source and c.cell_type == "code"]
    assert html.count('class="box prediction"') == len(predictions) >= 2
    for cell in predictions:
        assert html.count(html_escape(worksheets.prediction(cell.source)[0])) >= 1
    assert 'class="box answer"' in html  # the derive-then-check exercise
    assert html.count('<div class="space"></div></li>') >= 3  # room under each exercise
    # no code, no answers, no formula left as raw LaTeX or for a CDN to draw
    assert "<pre" not in html and "teach." not in html and "with teach.answer" not in html
    assert "three dots" not in html and "hidden cell" not in html
    assert not re.search(r"\\(frac|sqrt|sum|text)\b|\$\$", html), "raw LaTeX in the worksheet"
    assert "<script" not in html and not re.search(r"(src|href)=\"?https?:", html)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_key_has_every_answer_and_formula(printed, notebook):
    nb = nbformat.read(notebook, as_version=4)
    html, pdf = printed[f"{notebook.stem}-key"]
    assert _pages(pdf) >= 1
    answers = [c for c in nb.cells if "answer" in worksheets.tags(c)]
    assert answers and html.count("Answer (run in the notebook)") == len(answers)
    predictions = [c for c in nb.cells if c.cell_type == "code" and "teach.predict(" in c.source]
    assert html.count("How the notebook answers prediction") == len(predictions)
    # the 45-minute plan, takeaways, assessment, expected results and misconceptions
    for heading in (
        "Suggested timing",
        "Takeaways",
        "Quick assessment",
        "Teacher's notes",
        "Expected class results",
        "Common misconceptions",
    ):
        assert heading in html, f"{notebook.stem}: the key lacks {heading!r}"
    key_md = [
        c.source for c in nb.cells if c.cell_type == "markdown" and "key" in worksheets.tags(c)
    ]
    assert html.count("<math") == sum(_formulas(s) for s in key_md), "a formula is missing"
    assert not re.search(r"\\(frac|sqrt|sum|text)\b", html.split("<pre>")[0])
    assert "<script" not in html


def html_escape(text: str) -> str:
    import html

    return html.escape(text)


def test_formulas_render_to_mathml_and_dollars_stay_text():
    out = worksheets.markdown_html(r"Rent <span>\$50</span>; $\frac{1}{6}$ and $$\sqrt{n}$$")
    assert "<span>$50</span>" in out
    assert out.count("<math") == 2 and "<mfrac>" in out and "<msqrt>" in out
    assert 'display="block"' in out


def test_untagged_notebook_is_refused(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A lesson")]
    path = tmp_path / "teach_x.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(ValueError, match="no cell tagged"):
        worksheets.build(path, tmp_path / "out")
