"""Build HTML handouts of the teaching notebooks, with every figure drawn into the page.

Usage::

    python scripts/build_handouts.py out/                      # every notebooks/teach_*.ipynb
    python scripts/build_handouts.py out/ notebooks/teach_dice.ipynb --key   # teacher's key
    python scripts/build_handouts.py out/ --figures embed      # interactive, plotly.js inside
    python scripts/build_handouts.py out/ --worksheets         # 8 worksheets + 8 teacher's keys

``--worksheets`` writes, per notebook, ``<name>-worksheet.html`` (one or two A4 pages for a
pencil and a calculator: standards, every table and formula the tasks need, tasks predict ->
derive -> check with answer space, a separate computer part; no code) and ``<name>-key.html``
(every answer as a number with its working and check, then the notebook's timing, takeaways and
teacher's notes), from ``moneynb.lesson_sheets``: every number is computed from the engine now
(about 10 s for all 16). Formulas are MathML made at build time, so the pages print offline.
Print them from a browser, or add ``--pdf`` to print each to ``.pdf`` with headless Chromium
(playwright); ``scripts/render_sheets.py`` renders the PDFs to PNG.

Each notebook is run in a fresh kernel (moneynb.teach.build_handout): figures become SVG images
drawn by kaleido with the system's Chromium (``--figures static``, the default), or HTML
carrying plotly.js (``embed``, about 4.7 MB per handout) or loading it from the CDN (``cdn``).
The student handout leaves out the answer cells; ``--key`` also writes ``<name>-key.html``
with the answers printed. Prints each file's size and build time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from moneynb import worksheets
from moneynb.teach import FIGURE_MODES, build_handout

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the HTML handouts")
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/teach_*.ipynb")
    parser.add_argument("--key", action="store_true", help="also write the teacher's key")
    parser.add_argument("--figures", choices=FIGURE_MODES, default="static")
    parser.add_argument(
        "--worksheets", action="store_true", help="worksheet + teacher's key per notebook instead"
    )
    parser.add_argument("--pdf", action="store_true", help="with --worksheets: also A4 PDFs")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("teach_*.ipynb"))
    if args.worksheets:
        docs = [doc for nb in paths for doc in worksheets.build(nb, args.out)]
        for doc in docs:
            print(doc)
        if args.pdf:
            _print_pdfs(docs)
        return 0
    for nb in paths:
        for key in (False, True) if args.key else (False,):
            start = time.perf_counter()
            path, _ = build_handout(nb, args.out, key=key, figures=args.figures)
            size = path.stat().st_size / 1e6
            print(f"{path}: {size:.2f} MB in {time.perf_counter() - start:.1f} s")
    return 0


def _print_pdfs(docs: list[Path]) -> None:
    """Print each HTML document to ``<same name>.pdf`` (A4) with one headless Chromium."""
    import os

    from playwright.sync_api import sync_playwright

    exe = os.environ.get("MONEYNB_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        for doc in docs:
            page.goto(doc.as_uri())
            page.pdf(path=str(doc.with_suffix(".pdf")), format="A4")
            print(doc.with_suffix(".pdf"))
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
