"""Printable worksheets and teacher's keys built from a teaching notebook's own tagged cells.

Nothing is executed and no text is copied: each document is the notebook's cells, chosen by
the tags in their metadata (docs/teaching.md, "Worksheets and keys"):

``worksheet-lead``
    the worksheet keeps the cell's title and first paragraph (the lesson's question).
``worksheet-step``
    an activity step: the worksheet keeps its headings and the paragraphs that ask the
    student something (``**Predict.**``, ``**Your turn.**``, the text under a ``### Predict``
    heading); a ``**Your turn.**`` step gets a box to write in.
``worksheet``
    a ``teach.predict(...)`` code cell becomes a prediction box with room to write; a Markdown
    cell is printed whole.
``worksheet-answers``
    the exercises: its numbered questions, each followed by answer space.
``key``
    printed whole in the teacher's key (the top cell with goals and the 45-minute timing, the
    check cells after a prediction, takeaways, assessment, teacher's notes). Answer cells
    (tag ``answer``) are always in the key, as code.

Formulas (``$...$``, ``$$...$$``) become MathML at build time with latex2mathml, which
Chromium and Firefox draw without any script or network. Dollar amounts written as
``<span>\\$5</span>`` stay text.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import mistune
import nbformat

TAGS = ("worksheet-lead", "worksheet-step", "worksheet", "worksheet-answers", "key")

_MD = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", re.S)

CSS = """
@page { size: A4; margin: 14mm 15mm; }
body { font: 10pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #000; max-width: 180mm; }
h1 { font-size: 15pt; margin: 0 0 4pt; } h2 { font-size: 11.5pt; margin: 6pt 0 2pt; }
h3 { font-size: 11pt; margin: 6pt 0 2pt; } p, li { margin: 2pt 0; }
.name { border-bottom: 1px solid #000; width: 60%; margin: 0 0 6pt; padding-top: 10pt; }
.box { border: 1px solid #444; border-radius: 3pt; padding: 3pt 6pt; margin: 3pt 0 6pt;
       break-inside: avoid; }
.box .space { height: 10mm; } .answer .space { height: 16mm; }
li .space { border: 1px dashed #999; height: 11mm; margin: 2pt 0 3pt; }
pre { font-size: 8.5pt; background: #f4f4f4; padding: 4pt; white-space: pre-wrap;
      break-inside: avoid; }
code { font-size: 9pt; } math[display="block"] { margin: 3pt 0; }
.kind { font-size: 8pt; color: #555; text-transform: uppercase; letter-spacing: .05em; }
"""


def tags(cell) -> list[str]:
    """The tags of a notebook cell (nbformat node or dict); [] when it has none."""
    return list(cell.get("metadata", {}).get("tags", []))


def latex_to_mathml(tex: str, block: bool = False) -> str:
    """One LaTeX formula as a MathML element (str). Raises ValueError if it cannot be read."""
    from latex2mathml.converter import convert

    try:
        return convert(tex.strip(), display="block" if block else "inline")
    except Exception as exc:  # latex2mathml raises its own types for bad input
        raise ValueError(f"cannot render formula {tex!r}: {exc}") from exc


def markdown_html(source: str) -> str:
    """Markdown (with ``$`` formulas) to HTML; formulas as MathML, nothing loaded at view time."""
    formulas: list[str] = []

    def keep(m: re.Match) -> str:
        block = m.group(1) is not None
        formulas.append(latex_to_mathml(m.group(1) if block else m.group(2), block))
        return f"\x00{len(formulas) - 1}\x00"

    body = _MD(_MATH.sub(keep, source))
    body = body.replace("\\$", "$")
    return re.sub("\x00(\\d+)\x00", lambda m: formulas[int(m.group(1))], body)


def _blocks(source: str) -> list[str]:
    """Markdown split into blocks at blank lines (a list stays one block)."""
    return [b.strip("\n") for b in re.split(r"\n\s*\n", source) if b.strip()]


def _lead(source: str) -> str:
    blocks = _blocks(source)
    title = [b for b in blocks if b.startswith("# ")][:1]
    text = [b for b in blocks if not b.startswith(("#", "**", "*"))][:1]
    return "\n\n".join(title + text)


def _step(source: str) -> tuple[str, bool]:
    keep, after_predict, asks_work = [], False, False
    for b in _blocks(source):
        if b.startswith("#"):
            heads = [line for line in b.splitlines() if line.startswith("#")]
            keep.append("\n".join(heads))
            after_predict = heads[-1].lstrip("# ").lower().startswith("predict")
            continue
        if b.startswith(("**Predict", "**Your turn")) or after_predict:
            keep.append(b)
            asks_work |= b.startswith("**Your turn")
        after_predict = False
    return "\n\n".join(keep), asks_work


def _questions(source: str) -> str:
    """Headings and numbered questions of an exercises cell, each with room for the answer."""
    keep = [b for b in _blocks(source) if b.startswith("#") or re.match(r"\d+\.", b)]
    out = markdown_html("\n\n".join(keep))
    return out.replace("</li>", '<div class="space"></div></li>')


def prediction(source: str) -> tuple[str, str]:
    """The question and unit of the ``teach.predict(...)`` call in a code cell's source.

    Raises ValueError if the cell holds no such call with a literal question.
    """
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "predict":
            args = {k.arg: k.value for k in node.keywords}
            q = node.args[0] if node.args else args.get("question")
            unit = node.args[2] if len(node.args) > 2 else args.get("unit")
            if isinstance(q, ast.Constant):
                u = unit.value if isinstance(unit, ast.Constant) else ""
                return q.value, u
    raise ValueError(f"no teach.predict('question') call in {source[:60]!r}")


def _page(title: str, kind: str, body: list[str]) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} ({kind})</title><style>{CSS}</style></head><body>"
        f'<div class="kind">{kind}</div>' + "\n".join(body) + "</body></html>\n"
    )


def worksheet_html(nb) -> str:
    """The student worksheet of a notebook (nbformat node): HTML, no code, no answers."""
    body, n = ['<div class="name">Name:</div>'], 0
    for cell in nb.cells:
        t = tags(cell)
        if cell.cell_type == "markdown" and "worksheet-lead" in t:
            body.append(markdown_html(_lead(cell.source)))
        elif cell.cell_type == "markdown" and "worksheet-step" in t:
            text, work = _step(cell.source)
            body.append(markdown_html(text))
            if work:
                body.append(
                    '<div class="box answer"><b>Your working</b><div class="space"></div></div>'
                )
        elif cell.cell_type == "markdown" and "worksheet-answers" in t:
            body.append(_questions(cell.source))
        elif cell.cell_type == "markdown" and "worksheet" in t:
            body.append(markdown_html(cell.source))
        elif cell.cell_type == "code" and "worksheet" in t:
            n += 1
            question, unit = prediction(cell.source)
            unit = f" <i>{html.escape(unit)}</i>" if unit else ""
            body.append(
                f'<div class="box prediction"><b>Prediction {n}.</b> {html.escape(question)}'
                f'{unit}<div class="space"></div></div>'
            )
    return _page(_title(nb), "Worksheet", body)


def key_html(nb) -> str:
    """The teacher's key of a notebook: its ``key`` cells and every answer cell, in order."""
    body, questions, n = [], [], 0
    for cell in nb.cells:
        t = tags(cell)
        if cell.cell_type == "code" and "teach.predict(" in cell.source:
            questions.append(prediction(cell.source)[0])
        if cell.cell_type == "markdown" and "key" in t:
            body.append(markdown_html(cell.source))
        elif cell.cell_type == "code" and "answer" in t:
            body.append(
                f"<p><b>Answer (run in the notebook)</b></p><pre>{html.escape(cell.source)}</pre>"
            )
        elif cell.cell_type == "code" and "key" in t:
            n += 1
            asked = f": {html.escape(questions[-1])}" if questions else ""
            body.append(
                f"<p><b>How the notebook answers prediction {n}</b>{asked}</p>"
                f"<pre>{html.escape(cell.source)}</pre>"
            )
    return _page(_title(nb), "Teacher's key", body)


def _title(nb) -> str:
    m = re.search(r"^# (.+)$", nb.cells[0].source, re.M)
    return m.group(1) if m else "Lesson"


def build(notebook: Path, out: Path) -> tuple[Path, Path]:
    """Write ``<name>-worksheet.html`` and ``<name>-key.html`` for one notebook into ``out``.

    Returns the two paths. Raises ValueError if the notebook has no cell tagged for the
    worksheet (it was not prepared; see docs/teaching.md) or a formula cannot be rendered.
    """
    nb = nbformat.read(notebook, as_version=4)
    if not any(t.startswith("worksheet") for c in nb.cells for t in tags(c)):
        raise ValueError(f"{notebook.name}: no cell tagged for the worksheet")
    out.mkdir(parents=True, exist_ok=True)
    ws = out / f"{notebook.stem}-worksheet.html"
    key = out / f"{notebook.stem}-key.html"
    ws.write_text(worksheet_html(nb), encoding="utf-8")
    key.write_text(key_html(nb), encoding="utf-8")
    return ws, key
