"""Build HTML handouts of the teaching notebooks, with every figure drawn into the page.

Usage::

    python scripts/build_handouts.py out/                      # every notebooks/teach_*.ipynb
    python scripts/build_handouts.py out/ notebooks/teach_dice.ipynb --key   # teacher's key
    python scripts/build_handouts.py out/ --figures embed      # interactive, plotly.js inside

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

from moneynb.teach import FIGURE_MODES, build_handout

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the HTML handouts")
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/teach_*.ipynb")
    parser.add_argument("--key", action="store_true", help="also write the teacher's key")
    parser.add_argument("--figures", choices=FIGURE_MODES, default="static")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("teach_*.ipynb"))
    for nb in paths:
        for key in (False, True) if args.key else (False,):
            start = time.perf_counter()
            path, _ = build_handout(nb, args.out, key=key, figures=args.figures)
            size = path.stat().st_size / 1e6
            print(f"{path}: {size:.2f} MB in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
