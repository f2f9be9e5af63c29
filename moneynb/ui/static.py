"""Plotly's widget code as a file the Jupyter server and Voila serve (issue 41, case 4).

Every :class:`~moneynb.ui.boards.base.BoardFigure` needs plotly's page-side widget module
(``plotly/package_data/widgetbundle.js``, about 5 MB). Sent through the kernel, it is
serialised by every kernel and pushed through the server's websocket on every page load and
every reload (measured: 5.49 MB over the websocket for a Moolah page in Voila). Instead, the
kernel publishes it ONCE as a static file in the Jupyter data folder's ``labextensions``
tree, where both servers already serve files from, with HTTP caching:

* JupyterLab (and Voila run as a server extension): ``{base_url}lab/extensions/<path>``,
* Voila (standalone): ``{base_url}voila/labextensions/<path>``,

and the page reads the right prefix from its page config (``fullLabextensionsUrl`` in the
``jupyter-config-data`` script element: it holds the base URL, so a hub's ``/user/<name>/``
prefix is kept). ``<path>`` is :func:`bundle_path`: ``moneynb/static/<key>.js``, ``<key>`` the
plotly version and a digest of the code, so a file is never stale: another plotly version
publishes another file. The folder holds no ``package.json``: JupyterLab does not take it
for an extension.

The page falls back to asking the kernel for the code (one message, then as before) when the
file cannot be written (a read-only data folder), is not served (a kernel on another
machine), or fails to import. ``MONEYNB_INLINE_WIDGET_CODE=1`` sends the code through the
kernel always (the path before issue 41; ``benchmarks/bench_class_load.py`` compares both).

Trust: the file is written by the kernel into the data folder of the user running it, and
served to that user's pages; a kernel could as well write any other file there.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

#: the environment variable that sends plotly's code through the kernel (the old path)
INLINE_ENV = "MONEYNB_INLINE_WIDGET_CODE"
#: where the files go under the data folder's ``labextensions`` tree
STATIC_DIR = ("moneynb", "static")

_CODE: tuple[str, str] | None = None
_PUBLISHED: dict[str, str] = {}


def plotly_code() -> tuple[str, str]:
    """``(source, key)`` of plotly's widget ESM (read once per kernel). ``key`` is
    ``plotly-<version>-<16 hex digits of its SHA-1>``: one page-wide cache entry per build."""
    global _CODE
    if _CODE is None:
        import plotly

        src = (Path(plotly.__file__).parent / "package_data" / "widgetbundle.js").read_text(
            encoding="utf-8"
        )
        digest = hashlib.sha1(src.encode("utf-8")).hexdigest()[:16]
        _CODE = (src, f"plotly-{plotly.__version__}-{digest}")
    return _CODE


def inline_only() -> bool:
    """True when ``MONEYNB_INLINE_WIDGET_CODE=1``: plotly's code goes through the kernel."""
    return os.environ.get(INLINE_ENV, "") == "1"


def static_root() -> Path:
    """The ``labextensions`` folder of the user's Jupyter data folder (``JUPYTER_DATA_DIR``
    or the platform's default), the first place both servers look for files."""
    from jupyter_core.paths import jupyter_data_dir

    return Path(jupyter_data_dir()) / "labextensions"


def bundle_path() -> str:
    """The path of plotly's code under a server's ``labextensions`` URL, published if needed
    (``"moneynb/static/<key>.js"``), or ``""`` when it cannot be (inline mode, a data folder
    that cannot be written): the page then asks the kernel for the code.

    Writes the file once per kernel at most, atomically (a temporary file renamed: kernels
    starting together never serve a half-written file); an existing file with the same name
    and size is kept (its name holds the code's digest)."""
    if inline_only():
        return ""
    src, key = plotly_code()
    if key in _PUBLISHED:
        return _PUBLISHED[key]
    rel = "/".join([*STATIC_DIR, f"{key}.js"])
    data = src.encode("utf-8")
    try:
        folder = static_root().joinpath(*STATIC_DIR)
        target = folder / f"{key}.js"
        if not (target.is_file() and target.stat().st_size == len(data)):
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".js")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.chmod(tmp, 0o644)
                os.replace(tmp, target)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
    except OSError:
        rel = ""
    _PUBLISHED[key] = rel
    return rel
