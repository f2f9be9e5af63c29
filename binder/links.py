"""Write every Binder link from the one place that names the repository.

Usage (from the repository root)::

    python binder/links.py           # rewrite the links in README.md, docs/*.md, notebooks/*.ipynb
    python binder/links.py --check   # exit 1 and list the files whose links name another repository

The repository is ``[project.urls] Repository`` in ``pyproject.toml``
(``https://github.com/<owner>/<name>``). Whoever publishes moneynb sets it there and runs this
script; the links then open ``https://mybinder.org/v2/gh/<owner>/<name>/HEAD?urlpath=...``.

Raises (exit 1): the Repository URL is missing or not a GitHub address.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: a Binder link's repository part: ``mybinder.org/v2/gh/<owner>/<name>/``
LINK = re.compile(r"(mybinder\.org/v2/gh/)([A-Za-z0-9_.\-]+/[A-Za-z0-9_.\-]+)(/)")


def repository(root: Path = ROOT) -> str:
    """``"owner/name"`` from ``pyproject.toml``'s ``[project.urls] Repository``.

    Raises:
        ValueError: missing, or not ``https://github.com/<owner>/<name>``.
    """
    doc = tomllib.loads((root / "pyproject.toml").read_text())
    url = doc.get("project", {}).get("urls", {}).get("Repository", "")
    m = re.fullmatch(r"https://github\.com/([A-Za-z0-9_.\-]+/[A-Za-z0-9_.\-]+?)(?:\.git)?/?", url)
    if not m:
        raise ValueError(f"pyproject.toml [project.urls] Repository is not a GitHub URL: {url!r}")
    return m.group(1)


def files(root: Path = ROOT) -> list[Path]:
    """The files whose Binder links are written from :func:`repository`."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md")),
            *sorted((root / "notebooks").glob("*.ipynb")), root / "binder" / "README.md"]  # fmt: skip


def stale(root: Path = ROOT) -> dict[str, list[str]]:
    """``{file: [repositories its links name that are not ours]}`` (empty when all agree)."""
    repo = repository(root)
    out = {}
    for path in files(root):
        if path.exists():
            other = sorted({m.group(2) for m in LINK.finditer(path.read_text())} - {repo})
            if other:
                out[str(path.relative_to(root))] = other
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args(argv)
    try:
        repo = repository(ROOT)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    if args.check:
        bad = stale(ROOT)
        for name, others in bad.items():
            print(f"{name}: links to {', '.join(others)}, not {repo}")
        return 1 if bad else 0
    for path in files(ROOT):
        if path.exists():
            text = path.read_text()
            new = LINK.sub(lambda m: m.group(1) + repo + m.group(3), text)
            if new != text:
                path.write_text(new)
                print(f"rewrote the Binder links of {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
