"""Worksheets and teacher's keys printed to A4 PDF by the session's Chromium, read page by page.

All 16 documents are built once (the sheets are computed from the engine: about 10 s) and
printed once (``page.pdf(format="A4")``, the browser's own print, as
``scripts/build_handouts.py --worksheets --pdf`` does); the PDFs' text is read back with
pypdfium2. Checked (issue 37): page counts, no empty section, no code font anywhere (the
sheets have no code, the computer part included), no raw LaTeX, every figure printed, no
"cell"/"run" on a worksheet, every task's data on the worksheet, every answer of the key a
number equal to the engine's value, no float repr.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moneynb import lesson_sheets, worksheets
from moneynb.lesson_sheets import float_artefacts, parse_number

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("teach_*.ipynb"))
MONO = re.compile(rb"/BaseFont\s*/(?:[A-Z]{6}\+)?([\w-]*(?:Mono|Courier|Consol)[\w-]*)")


def pdf_pages(pdf: bytes) -> list[str]:
    """The text of each page of a PDF, whitespace collapsed."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        texts = []
        for page in doc:
            tp = page.get_textpage()
            texts.append(re.sub(r"\s+", " ", tp.get_text_bounded()).strip())
            tp.close()
            page.close()
        return texts
    finally:
        doc.close()


@pytest.fixture(scope="module")
def printed(browser_context, tmp_path_factory):
    """{"<lesson>-worksheet" / "<lesson>-key": (html, pdf bytes, page texts)}."""
    out = tmp_path_factory.mktemp("sheets")
    docs = {}
    page = browser_context.new_page()
    try:
        for nb in NOTEBOOKS:
            for path in worksheets.build(nb, out):
                page.goto(path.as_uri())
                pdf = page.pdf(format="A4")
                docs[path.stem] = (path.read_text(encoding="utf-8"), pdf, pdf_pages(pdf))
    finally:
        page.close()
    return docs


def _common(name: str, html: str, pdf: bytes, pages: list[str]) -> str:
    text = " ".join(pages)
    assert all(p for p in pages), f"{name}: an empty page"
    assert MONO.findall(pdf) == [], f"{name}: code font {MONO.findall(pdf)} in the PDF"
    assert "\\" not in text and "$$" not in text, f"{name}: raw LaTeX or a stray backslash"
    assert float_artefacts(text) == [], f"{name}: {float_artefacts(text)}"
    # every figure of the page is printed: its caption and its axis text are in the PDF
    for figure in re.findall(r"<figure>(.*?)</figure>", html, re.S):
        caption = re.search(r"<figcaption>(.*?)</figcaption>", figure).group(1)
        assert caption in text, f"{name}: figure {caption!r} not printed"
        labels = re.findall(r'font-size="8"[^>]*>([^<]+)</text>', figure)
        assert labels and all(label in text for label in labels), f"{name}: {caption} blank"
    # no empty section: each heading is followed by text before the next one
    headings = [h for h in lesson_sheets.STAGE_TITLES.values() if h in text]
    headings.append("What you need")
    at = sorted(text.index(h) + len(h) for h in headings)
    for start, end in zip(at, [*at[1:], len(text)], strict=True):
        assert len(text[start:end].strip()) > 20, f"{name}: an empty section at {start}"
    return text


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_worksheet_prints_for_pencil_and_calculator(printed, notebook):
    name = f"{notebook.stem}-worksheet"
    html, pdf, pages = printed[name]
    assert 1 <= len(pages) <= 2, f"{name}: {len(pages)} A4 pages"
    text = _common(name, html, pdf, pages)
    words = re.sub(r"Money Run|long[ -]run", "", text)
    assert not re.search(r"\bcells?\b|\brun\b|\brunning\b", words, re.I), name
    assert "Answer" not in text and "teach." not in text
    sheet = lesson_sheets.sheet(notebook.stem)
    assert "Standards." in pages[0] and sheet.standards[0] in text
    flat = re.sub(r"\s+", "", text)  # pdfium may drop the spaces of a short last page
    for n, task in enumerate(sheet.ordered(), start=1):
        assert f"{n}." in flat, f"{name}: task {n} not printed"
        for item in task.data:
            item = re.sub(r"<[^>]+>|\\|\s+", "", item)
            assert item in flat, f"{name}: {item!r} not on the page"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_key_prints_every_answer_as_the_engines_number(printed, notebook):
    name = f"{notebook.stem}-key"
    html, pdf, pages = printed[name]
    assert 1 <= len(pages) <= 4, f"{name}: {len(pages)} A4 pages"
    text = _common(name, html, pdf, pages)
    sheet = lesson_sheets.sheet(notebook.stem)
    answered = 0
    for n, task in enumerate(sheet.ordered(), start=1):
        for i, ans in enumerate(task.answers):
            label = f"{n}{'abcdefgh'[i]}" if len(task.answers) > 1 else str(n)
            m = re.search(rf"Answer {label}: (\S+)", text)
            assert m, f"{name}: no 'Answer {label}:' in the PDF"
            number, half = parse_number(m.group(1))
            assert abs(number - float(ans.value)) <= half + 1e-12, (name, label, number)
            answered += 1
    assert answered >= sum(t.stage != "computer" for t in sheet.tasks)
    for heading in ("Suggested timing", "Takeaways", "Teacher's notes"):
        assert heading in text, f"{name}: no {heading!r}"


def test_formulas_render_to_mathml_and_dollars_stay_text():
    out = worksheets.markdown_html(r"Rent <span>\$50</span>; $\frac{1}{6}$ and $$\sqrt{n}$$")
    assert "<span>$50</span>" in out
    assert out.count("<math") == 2 and "<mfrac>" in out and "<msqrt>" in out
    assert 'display="block"' in out
    assert "<mn>5410.67</mn>" in worksheets.markdown_html("$5,410.67$")  # no comma list


def test_a_notebook_without_a_sheet_is_refused(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A lesson")]
    path = tmp_path / "teach_x.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(KeyError, match="no worksheet"):
        worksheets.build(path, tmp_path / "out")
