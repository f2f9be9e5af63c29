"""plotly's widget code is installed with moneynb and served by Jupyter's own servers (issue 41).

``pip install`` (a wheel, or ``pip install -e .``) puts plotly's widget module at
``{sys.prefix}/share/jupyter/labextensions/moneynb/static/<key>.js`` (``setup.py``,
:mod:`moneynb.ui.static`). Here real servers of this Python, under a hub's ``/user/<name>/``
prefix, serve it over HTTP at the URL a board page computes: the page config's
``fullLabextensionsUrl`` (read from the page's ``jupyter-config-data`` element) joined with the
path the kernel names (:func:`~moneynb.ui.static.bundle_path`) and ``?v=<key>``, as the loader
in ``moneynb/ui/boards/base.py`` does. Answered 200 with plotly's exact bytes by:

* JupyterLab's server (``lab/extensions/``), before any kernel has run;
* Voila run as that server's extension (``voila/labextensions/``; how Binder serves the app);
* standalone Voila (``voila <folder>``, its own server, which loads no server extensions);

each kept by the browser and revalidated (``no-cache``, a conditional request gets a 304
without a body),

and no kernel writes anything into the server's Jupyter data folder. Without the install (the
kernel wrote the file, before) Lab answers 404. HTTP only: no browser.
"""

from __future__ import annotations

import email.utils
import html
import json
import re
import time
import urllib.error
import urllib.request
from urllib.parse import urljoin

import pytest
from conftest import write_probe_notebook
from servers import jupyter_server, patience

from moneynb.ui import static

#: a hub's single-user server prefix
PREFIX = "/user/ann/"
#: a probe notebook: the kernel prints the path it would give a board page
PROBE = "from moneynb.ui.static import bundle_path\nprint('bundle path: ' + bundle_path())"


def _get(url: str, headers: dict | None = None, timeout_ms: float = 120_000):
    """``(status, headers, body)`` of a GET (an HTTP error's status too)."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=patience(timeout_ms) / 1000) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def _page_config(page: bytes) -> dict:
    m = re.search(rb'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                  page, flags=re.S)  # fmt: skip
    assert m, page[:2000]
    return json.loads(m.group(1))


def _kernel_path(page: bytes) -> str:
    m = re.search(r"bundle path: (\S+)", html.unescape(page.decode("utf-8")))
    assert m, "the probe's output is not in the page"
    return m.group(1)


def _file_url(page_url: str, page: bytes, path: str) -> str:
    """The URL the loader imports: ``new URL(path, fullLabextensionsUrl + "/")`` with
    ``?v=<key>``, resolved against the page's URL."""
    base = urljoin(page_url, _page_config(page)["fullLabextensionsUrl"].rstrip("/") + "/")
    return urljoin(base, path) + "?v=" + static.plotly_code()[1]


def _served_right(url: str) -> dict:
    status, headers, body = _get(url)
    assert status == 200, (
        f"{url}: {status}. Is moneynb installed with its data file "
        f"(pip install -e . ; python -m moneynb.ui.static)?"
    )
    assert body == static.plotly_source()[0], "served bytes are not plotly's widgetbundle.js"
    return headers


def _revalidated(headers, url: str) -> None:
    """The browser keeps the file and asks again with its date (JupyterLab and Voila mark
    their labextensions files ``no-cache``; Lab's ``LabApp.cache_files`` is off by default):
    the answer is a 304 without a body."""
    assert "no-cache" in headers.get("Cache-Control", ""), headers.get("Cache-Control")
    since = headers["Last-Modified"]
    assert email.utils.parsedate_to_datetime(since).timestamp() <= time.time() + 1
    status, _h, body = _get(url, headers={"If-Modified-Since": since})
    assert (status, body) == (304, b"")


def _data_files(root) -> list:
    """Files in the ``labextensions`` folder of the server's own Jupyter data folder
    (``servers.py``: ``<tmp>/data``; the server keeps its own secret and signatures there)."""
    return list((root.parent / "data" / "labextensions").rglob("*"))


@pytest.fixture(scope="module")
def prefixed_lab():
    with jupyter_server("lab", timeout=60, extra_args=(f"--ServerApp.base_url={PREFIX}",)) as s:
        yield s


@pytest.fixture(scope="module")
def prefixed_voila():
    with jupyter_server("voila", extra_args=(f"--Voila.base_url={PREFIX}",)) as s:
        yield s


def test_pip_installed_the_file_with_moneynb():
    """The file the servers serve is moneynb's own install (pip's record of its files), not
    a copy some kernel wrote into a data folder before issue 41's fix (the same name)."""
    import importlib.metadata

    name = f"{static.INSTALL_DIR}/{static.plotly_code()[1]}.js"
    # every record of moneynb on the path (a source tree's moneynb.egg-info may come first)
    records = [d.files or [] for d in importlib.metadata.distributions(name="moneynb")]
    recorded = [f for files in records for f in files if str(f).endswith(name)]
    assert recorded, f"moneynb's install holds no {name}: pip install -e . again"
    assert recorded[0].locate().read_bytes() == static.plotly_source()[0]


def _voila_file_url(base: str, root, render_path: str) -> str:
    """Render the probe notebook with Voila at ``{base}{PREFIX}{render_path}`` (HTTP 200) and
    give the URL of plotly's file as its kernel names it under Voila's labextensions path;
    the kernel wrote nothing into the Jupyter data folder."""
    write_probe_notebook(root / "notebooks" / "_served_probe.ipynb", PROBE)
    render = f"{base}{PREFIX}{render_path}"
    status, _h, page = _get(render, timeout_ms=240_000)
    assert status == 200
    url = _file_url(render, page, _kernel_path(page))
    assert url.startswith(f"{base}{PREFIX}voila/labextensions/moneynb/static/plotly-"), url
    assert _data_files(root) == [], "a kernel wrote into the Jupyter data folder"
    return url


def test_jupyterlab_and_its_voila_serve_the_installed_file(prefixed_lab):
    base, root = prefixed_lab
    lab = f"{base}{PREFIX}lab"
    status, _h, page = _get(lab)
    assert status == 200
    assert _page_config(page)["fullLabextensionsUrl"] == f"{PREFIX}lab/extensions"
    # before any kernel ran: the installed file, at the path a kernel names
    url = _file_url(lab, page, static.bundle_path())
    assert url.startswith(f"{base}{PREFIX}lab/extensions/moneynb/static/plotly-"), url
    _revalidated(_served_right(url), url)
    # Voila as this server's extension (Binder's Voila app): the kernel's path, its prefix
    _served_right(_voila_file_url(base, root, "voila/render/notebooks/_served_probe.ipynb"))


def test_standalone_voila_serves_the_installed_file_and_revalidates_it(prefixed_voila):
    base, root = prefixed_voila
    url = _voila_file_url(base, root, "voila/render/_served_probe.ipynb")
    _revalidated(_served_right(url), url)
