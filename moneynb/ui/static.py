"""Plotly's widget code as a file installed with moneynb and served by Jupyter (issue 41).

Every :class:`~moneynb.ui.boards.base.BoardFigure` needs plotly's page-side widget module
(``plotly/package_data/widgetbundle.js``, about 5 MB). Sent through the kernel, it is
serialised by every kernel and pushed through the server's websocket on every page load and
every reload (measured: 5.49 MB over the websocket for a Moolah page in Voila). Instead it is a
file that ``pip install`` puts, once, where Jupyter's servers already serve files from with
HTTP caching: the ``labextensions`` folder of the environment's Jupyter data folder,

    ``{sys.prefix}/share/jupyter/labextensions/moneynb/static/<key>.js``

(``setup.py`` copies it from the plotly of the build, pinned to the plotly moneynb runs with,
:func:`write_bundle`; an editable install gets it too). Served at

* JupyterLab / jupyter_server (a hub's single-user server too): ``{base_url}lab/extensions/<path>``,
* Voila (standalone or as a server extension): ``{base_url}voila/labextensions/<path>``,

and the page reads the right prefix from its page config (``fullLabextensionsUrl`` in the
``jupyter-config-data`` script element: it holds the base URL, so a hub's ``/user/<name>/``
prefix is kept). ``<path>`` is :func:`bundle_path`: ``moneynb/static/<key>.js``, ``<key>`` the
plotly version and a digest of the code (:func:`bundle_key`), so a file is never stale: another
plotly build has another name. The folder holds no ``package.json``: JupyterLab and Voila do
not take it for an extension (with one, they would try to load it as one).

The kernel never writes the file: it only names it. The page falls back to asking the kernel
for the code (one message, then as before) when the file is not served (moneynb installed in
another environment than the server's, a plotly other than the build's) or fails to import.
``MONEYNB_INLINE_WIDGET_CODE=1`` sends the code through the kernel always (the path before
issue 41; ``benchmarks/bench_class_load.py`` compares both).

This module imports only the standard library at its top: ``setup.py`` runs it (``runpy``) in
the build environment, where moneynb's dependencies are not installed.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

#: the environment variable that sends plotly's code through the kernel (the old path)
INLINE_ENV = "MONEYNB_INLINE_WIDGET_CODE"
#: where the file is under a ``labextensions`` folder (no package.json: not an extension)
STATIC_DIR = ("moneynb", "static")
#: where ``pip install`` puts it, relative to the environment's prefix (``sys.prefix``)
INSTALL_DIR = "/".join(("share", "jupyter", "labextensions", *STATIC_DIR))

_CODE: tuple[str, str] | None = None


def plotly_source() -> tuple[bytes, str]:
    """``(bytes, version)`` of the installed plotly's widget module
    (``plotly/package_data/widgetbundle.js``). Raises ImportError without plotly, OSError
    when the file is missing."""
    import plotly

    data = (Path(plotly.__file__).parent / "package_data" / "widgetbundle.js").read_bytes()
    return data, plotly.__version__


def bundle_key(data: bytes, version: str) -> str:
    """The name of one plotly build's file, without ``.js``: ``plotly-<version>-<16 hex
    digits of the SHA-1 of data>``. Another plotly build gets another name, so a cached file
    is never stale."""
    return f"plotly-{version}-{hashlib.sha1(data).hexdigest()[:16]}"


def plotly_code() -> tuple[str, str]:
    """``(source, key)`` of plotly's widget ESM (read once per kernel; ``key`` as
    :func:`bundle_key`)."""
    global _CODE
    if _CODE is None:
        data, version = plotly_source()
        _CODE = (data.decode("utf-8"), bundle_key(data, version))
    return _CODE


def inline_only() -> bool:
    """True when ``MONEYNB_INLINE_WIDGET_CODE=1``: plotly's code goes through the kernel."""
    return os.environ.get(INLINE_ENV, "") == "1"


def bundle_path() -> str:
    """The path of plotly's code under a server's ``labextensions`` URL
    (``"moneynb/static/<key>.js"``), or ``""`` in inline mode. Writes nothing: the file is
    installed with moneynb (:func:`write_bundle`); where the page's server does not serve it,
    the page asks the kernel for the code."""
    if inline_only():
        return ""
    return "/".join([*STATIC_DIR, f"{plotly_code()[1]}.js"])


def installed_bundle() -> Path | None:
    """The file of :func:`bundle_path` in this Python's Jupyter data folders
    (``jupyter_core.paths.jupyter_path("labextensions")``, the folders the servers of this
    environment serve, first match), or None when it is not installed (for diagnosis and
    tests: the kernel does not need it)."""
    from jupyter_core.paths import jupyter_path

    name = f"{plotly_code()[1]}.js"
    for root in jupyter_path("labextensions"):
        path = Path(root).joinpath(*STATIC_DIR, name)
        if path.is_file():
            return path
    return None


def write_bundle(folder: Path) -> Path:
    """Write plotly's widget module into ``folder`` as ``<key>.js`` (the build's plotly;
    other ``plotly-*.js`` files there are removed) and return its path. Run by ``setup.py``
    at build time; never by a kernel. Raises ImportError without plotly."""
    data, version = plotly_source()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{bundle_key(data, version)}.js"
    for old in folder.glob("plotly-*.js"):
        if old != target:
            old.unlink()
    if not (target.is_file() and target.read_bytes() == data):
        target.write_bytes(data)
    return target


def write_license(folder: Path) -> Path | None:
    """Write plotly's license (MIT: its notice goes with every copy of its code) into
    ``folder`` as ``plotly-LICENSE.txt``, from the build's plotly distribution; None when
    that distribution lists no license file. Run by ``setup.py`` beside :func:`write_bundle`."""
    from importlib.metadata import distribution

    files = distribution("plotly").files or []
    found = [f for f in files if f.name.upper().startswith(("LICENSE", "LICENCE"))]
    if not found:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "plotly-LICENSE.txt"
    target.write_bytes(found[0].locate().read_bytes())
    return target


if __name__ == "__main__":  # python -m moneynb.ui.static: where the file is (or is not)
    found = installed_bundle()
    print(found or f"not installed: {bundle_path()} (pip install moneynb again)")
    sys.exit(0 if found else 1)
