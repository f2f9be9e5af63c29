"""Render printed worksheets and keys (PDF) to PNG, one image per page, for reading them.

Usage::

    python scripts/build_handouts.py out/ --worksheets --pdf   # the 16 PDFs
    python scripts/render_sheets.py out/                       # out/png/<name>-<page>.png
    python scripts/render_sheets.py out/ --scale 2             # sharper (default 1.3)

Uses pypdfium2 (in ``moneynb[teach]``); prints each PNG written and the page count of each
PDF. Raises SystemExit when the folder holds no PDF.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def render(pdf: Path, out: Path, scale: float = 1.3) -> list[Path]:
    """Each page of ``pdf`` as ``out/<stem>-<page>.png`` (pages from 1). Returns the paths."""
    import pypdfium2 as pdfium

    out.mkdir(parents=True, exist_ok=True)
    doc = pdfium.PdfDocument(str(pdf))
    paths = []
    try:
        for i, page in enumerate(doc):
            path = out / f"{pdf.stem}-{i + 1}.png"
            page.render(scale=scale).to_pil().save(path)
            paths.append(path)
    finally:
        doc.close()
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder of the PDFs")
    parser.add_argument("--scale", type=float, default=1.3, help="1 = 72 dpi")
    args = parser.parse_args(argv)
    pdfs = sorted(args.folder.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDF in {args.folder}: build them with --worksheets --pdf")
    for pdf in pdfs:
        paths = render(pdf, args.folder / "png", args.scale)
        print(f"{pdf.name}: {len(paths)} page(s)")
        for path in paths:
            print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
