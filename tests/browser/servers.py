"""Start Voila (or JupyterLab) on 127.0.0.1 for browser tests and benchmarks.

:func:`jupyter_server` is a context manager used by ``tests/browser/test_voila_app.py`` and
``benchmarks/bench_browser.py``: it copies ``notebooks/`` to a temporary folder (a run never
writes into the repository), points every Jupyter folder at temporary ones, starts the server
on a free port in its own process group, polls it until it answers, yields ``(base_url,
root)`` and stops it by its process id (the group: the server and its kernels).

Voila URLs: ``{base}/voila/render/<notebook>.ipynb`` (the server serves the copied
``notebooks/`` folder). JupyterLab URLs: ``{base}/lab/tree/notebooks/<notebook>.ipynb``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


#: how many times longer than on an idle machine a browser-test wait may take
#: (``MONEYNB_PATIENCE``, default 2); the load per core multiplies it again (up to 4 times)
PATIENCE = float(os.environ.get("MONEYNB_PATIENCE", "2"))
#: no single wait is longer than this (ms): a real failure still ends the run in time
MAX_WAIT_MS = 600_000


def patience(ms: float) -> int:
    """The limit of a browser-test wait in milliseconds, for a machine that may be loaded
    (issue 24: a slow machine makes a run slower, never red).

    ``ms`` is what the wait needs on an idle machine; the result is ``ms`` times
    :data:`PATIENCE` times the 1-minute load per core (clamped to 1..4), at most
    :data:`MAX_WAIT_MS`. Waits are on conditions, so a generous limit costs nothing when the
    condition comes early.
    """
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this platform
        load = 1.0
    return int(min(MAX_WAIT_MS, ms * PATIENCE * min(4.0, max(1.0, load))))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: the seeds the browser tests of the game notebooks were written on: the notebooks' play
#: cells deal new dice at every run (``SEED = None``: the tester's F7, 2026-12-06), so a test
#: server's copy of each replays one known game
NOTEBOOK_SEEDS = {"easy_money": 11, "money_card": 7, "money_moves": 7, "money_run": 7,
                  "moolah": 7}  # fmt: skip


def pin_notebook_seeds(folder: Path) -> None:
    """Write :data:`NOTEBOOK_SEEDS` into the copies of the game notebooks in ``folder``
    (their play cell's ``SEED = None``).

    Raises:
        AssertionError: a game notebook without that line (the tests' games would be random).
    """
    for name, seed in NOTEBOOK_SEEDS.items():
        path = folder / f"{name}.ipynb"
        text = path.read_text(encoding="utf-8")
        assert "SEED = None" in text, f"{path.name}: no 'SEED = None' in its play cell"
        path.write_text(text.replace("SEED = None", f"SEED = {seed}", 1), encoding="utf-8")


@contextlib.contextmanager
def jupyter_server(
    kind: str = "voila", timeout: float = 90, extra_args: tuple = (), settings: dict | None = None
):
    """Run ``kind`` ("voila" or "lab") until the ``with`` block ends; yields
    ``(base_url, root_dir)``. ``extra_args``: more command-line options for the server (e.g.
    ``--MappingKernelManager.cull_idle_timeout=...``). ``settings``: more JupyterLab settings
    files, ``{path under the settings folder: JSON document}`` (e.g.
    ``{"@jupyterlab/apputils-extension/themes.jupyterlab-settings": {"theme": "JupyterLab
    Dark"}}``: Lab opens dark).

    Raises:
        RuntimeError: the server exited or did not answer within ``timeout`` seconds.
    """
    tmp = Path(tempfile.mkdtemp(prefix=f"moneynb-{kind}-"))
    root = tmp / "root"
    shutil.copytree(
        REPO / "notebooks",
        root / "notebooks",
        ignore=shutil.ignore_patterns("moneynb-saves", ".ipynb_checkpoints"),
    )
    pin_notebook_seeds(root / "notebooks")
    env = dict(os.environ)
    for var, sub in (("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                     ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
                     ("JUPYTER_CONFIG_DIR", "config")):  # fmt: skip
        (tmp / sub).mkdir()
        env[var] = str(tmp / sub)
    for rel, doc in {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"},
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
        # no windowing: Lab 4 detaches cells scrolled out of view (their buttons with them)
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        **(settings or {}),
    }.items():
        p = tmp / "settings" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(doc))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    # the games of this server in a store of its own (moneynb.store), never the user's
    env["MONEYNB_STORE"] = str(tmp / "store" / "games.sqlite3")
    port = free_port()
    if kind == "voila":
        cmd = [sys.executable, "-m", "voila", str(root / "notebooks"), "--no-browser",
               "--Voila.ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
               "--ServerApp.token=", "--ServerApp.password=",
               "--VoilaConfiguration.show_tracebacks=True"]  # fmt: skip
        probe = "/"
    elif kind == "lab":
        cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
               "--ServerApp.port_retries=0", "--ServerApp.token=", "--ServerApp.password=",
               "--allow-root", f"--ServerApp.root_dir={root}",
               "--LabApp.expose_app_in_browser=True"]  # fmt: skip
        probe = "/api/status"
    else:
        raise ValueError(f"kind must be 'voila' or 'lab', got {kind!r}")
    cmd += list(extra_args)
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root,
                            start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + patience(timeout * 1000) / 1000
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{kind} exited:\n" + (tmp / "server.log").read_text()[-3000:])
            try:
                with urllib.request.urlopen(base + probe, timeout=2) as r:
                    if r.status < 500:
                        break
            except urllib.error.HTTPError as e:
                if e.code < 500:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{kind} did not answer within {timeout} s:\n"
                                   + (tmp / "server.log").read_text()[-3000:])  # fmt: skip
            time.sleep(0.3)
        yield base, root
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
