"""Printable worksheets and teacher's keys: a lesson's sheet drawn as HTML for A4.

A worksheet is what a student does with a pencil and a calculator (issue 37): the lesson's
standards at the top, "What you need" (every table, number and formula a task uses, computed
from the engine when the page is built by :mod:`moneynb.lesson_sheets`), the tasks grouped
predict -> derive -> check, each with answer space sized to its answer, and the computer part,
where a lesson has one, in its own marked section. There is no code and no answer on it.

The teacher's key is the same sheet with every answer as a number and its working (the
formula with the values put in, the exact fraction, the simulated check with its interval),
then the notebook's goals, 45-minute timing, takeaways and teacher's notes (its Markdown cells
tagged ``key``; inline code is printed as plain text). No code is printed in either.

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

from . import lesson_sheets

TAGS = ("worksheet-lead", "worksheet-step", "worksheet", "worksheet-answers", "key")

_MD = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$([^$\n]+?)\$", re.S)

CSS = """
@page { size: A4; margin: 14mm 15mm; }
body { font: 10pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #000; max-width: 180mm; }
h1 { font-size: 15pt; margin: 0 0 4pt; }
h2 { font-size: 11.5pt; margin: 6pt 0 2pt; break-after: avoid; }
h3 { font-size: 11pt; margin: 6pt 0 2pt; } p, li { margin: 2pt 0; }
.name { border-bottom: 1px solid #000; width: 60%; margin: 0 0 6pt; padding-top: 10pt; }
.std { font-size: 8.5pt; color: #222; margin: 0 0 4pt; }
.given { border-left: 2pt solid #999; padding-left: 6pt; }
table { border-collapse: collapse; margin: 2pt 0 4pt; font-size: 9pt; }
th, td { border: 1px solid #999; padding: 1pt 4pt; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.task { break-inside: avoid; margin: 3pt 0 5pt; }
.task .space { border: 1px dashed #999; margin: 2pt 0 0 12pt; }
.ans { margin-left: 12pt; } .working, .check, .note { margin: 1pt 0 1pt 12pt; font-size: 9pt; }
.working { padding-left: 14pt; }
h2.computer { border-top: 1.5pt solid #000; padding-top: 4pt; margin-top: 8pt; }
.computer ~ .task .space { border-style: dotted; }
.notes { margin-top: 6pt; border-top: 1px solid #999; }
math[display="block"] { margin: 3pt 0; }
figure { margin: 2pt 0; break-inside: avoid; } figcaption { font-size: 8.5pt; }
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
        tex = m.group(1) if block else m.group(2)
        tex = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", tex)  # 5,410.67: a comma is a list in TeX
        formulas.append(latex_to_mathml(tex, block))
        return f"\x00{len(formulas) - 1}\x00"

    body = _MD(_MATH.sub(keep, source))
    body = body.replace("\\$", "$")
    return re.sub("\x00(\\d+)\x00", lambda m: formulas[int(m.group(1))], body)


def _blocks(source: str) -> list[str]:
    """Markdown split into blocks at blank lines (a list stays one block)."""
    return [b.strip("\n") for b in re.split(r"\n\s*\n", source) if b.strip()]


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


def _page(title: str, kind: str, body: list[str], lesson: str = "") -> str:
    label = f"{kind} · {lesson}" if lesson else kind
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} ({kind})</title><style>{CSS}</style></head><body>"
        f'<div class="kind">{html.escape(label)}</div>' + "\n".join(body) + "</body></html>\n"
    )


def _task_html(n: int, task, key: bool) -> str:
    prompt = markdown_html(task.prompt)
    if prompt.startswith("<p>") and prompt.endswith("</p>\n"):
        prompt = prompt[3:-5]
    head = f'<div class="task stage-{task.stage}"><p><b>{n}.</b> {prompt}</p>'
    if not key:
        return head + f'<div class="space" style="height:{task.space}mm"></div></div>'
    parts = [head]
    for i, ans in enumerate(task.answers):
        label = f"{n}{'abcdefgh'[i]}" if len(task.answers) > 1 else str(n)
        parts.append(
            f'<p class="ans"><b>Answer {label}:</b> <span class="num">'
            f"{html.escape(ans.shown)}</span></p>"
        )
        if ans.working:
            items = "".join(f"<li>{_inline(w)}</li>" for w in ans.working)
            parts.append(f'<ul class="working">{items}</ul>')
        if ans.check:
            parts.append(f'<p class="check"><i>Check:</i> {_inline(ans.check)}</p>')
    if task.note:
        parts.append(f'<p class="note">{_inline(task.note)}</p>')
    return "".join(parts) + "</div>"


def _inline(source: str) -> str:
    out = markdown_html(source).strip()
    if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1:
        out = out[3:-4]
    return out


def _sheet_body(sheet, key: bool) -> list[str]:
    cc, ap, js = sheet.standards
    body = [
        f"<h1>{html.escape(sheet.title)}</h1>",
        f'<p class="std"><b>Standards.</b> Common Core: {html.escape(cc)}. AP Statistics: '
        f"{html.escape(ap)}. Jump$tart: {html.escape(js)}.</p>",
    ]
    if not key:
        body.insert(0, '<div class="name">Name:</div>')
        body.append(
            f"<p>{html.escape(sheet.intro)} You need a pencil and a calculator; every number a "
            "task needs is on this sheet.</p>"
        )
    body.append('<h2>What you need</h2><div class="given">')
    body += [markdown_html(g) for g in sheet.given]
    body.append("</div>")
    stage, n = None, 0
    for task in sheet.ordered():
        if task.stage != stage:
            stage = task.stage
            cls = ' class="computer"' if stage == "computer" else ""
            body.append(f"<h2{cls}>{html.escape(lesson_sheets.STAGE_TITLES[stage])}</h2>")
        n += 1
        body.append(_task_html(n, task, key))
    return body


def sheet_worksheet_html(sheet) -> str:
    """The student worksheet of a :class:`moneynb.lesson_sheets.Sheet`: HTML, no answers."""
    return _page(sheet.title, "Worksheet", _sheet_body(sheet, key=False), sheet.lesson)


def sheet_key_html(sheet, nb=None) -> str:
    """The teacher's key of a sheet: every task with its answers and working, then the
    notebook's timing, takeaways and teacher's notes (``nb``: its nbformat node, optional)."""
    body = _sheet_body(sheet, key=True)
    if nb is not None:
        for cell in nb.cells:
            t = tags(cell)
            if cell.cell_type != "markdown" or "key" not in t:
                continue
            src = cell.source
            if "worksheet-lead" in t:  # the top cell: keep goals, prerequisites, timing
                src = src[src.find("**Learning goals") :] if "**Learning goals" in src else src
            elif "worksheet-answers" in t or "Quick assessment" in src:
                continue  # the exercises and assessment are the tasks above, answered
            body.append('<div class="notes">' + markdown_html(_plain(src)) + "</div>")
    return _page(sheet.title, "Teacher's key", body, sheet.lesson)


def _plain(source: str) -> str:
    """Markdown without inline code (a printed key has no code font)."""
    return re.sub(r"`([^`]+)`", r"\1", source)


def build(notebook: Path, out: Path) -> tuple[Path, Path]:
    """Write ``<name>-worksheet.html`` and ``<name>-key.html`` for one teaching notebook.

    The tasks and their answers are those of :func:`moneynb.lesson_sheets.sheet` for the
    notebook's name, computed from the engine now; the key adds the notebook's ``key``
    Markdown cells. Returns the two paths. Raises KeyError for a notebook that has no sheet
    and ValueError if a formula cannot be rendered.
    """
    nb = nbformat.read(notebook, as_version=4)
    sheet = lesson_sheets.sheet(notebook.stem)
    out.mkdir(parents=True, exist_ok=True)
    ws = out / f"{notebook.stem}-worksheet.html"
    key = out / f"{notebook.stem}-key.html"
    ws.write_text(sheet_worksheet_html(sheet), encoding="utf-8")
    key.write_text(sheet_key_html(sheet, nb), encoding="utf-8")
    return ws, key
