"""The README's play command opens a JupyterLab that serves the docs the notebooks point to
(issue 18, "Also"): given only a notebook, JupyterLab serves that notebook's folder, and
``docs/`` (beside ``notebooks/``) answered 404.

Runs the command's ``jupyter lab`` arguments from the README (plus a port, no token, no
browser) in a copy of ``notebooks/`` and ``docs/`` and asks the server for a doc.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

from servers import REPO, free_port, patience


def _play_command() -> list[str]:
    readme = (REPO / "README.md").read_text()
    block = readme.split("**Play**", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    line = next(x for x in block.splitlines() if "jupyter lab" in x)
    args = shlex.split(re.split(r"&&", line)[-1])
    assert args[:2] == ["jupyter", "lab"], args
    return args[2:]


def test_readme_play_command_serves_the_docs(tmp_path):
    for sub in ("notebooks", "docs"):
        shutil.copytree(REPO / sub, tmp_path / sub, ignore=shutil.ignore_patterns("moneynb-saves"))
    env = dict(os.environ)
    for var in ("JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR",
                "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):  # fmt: skip
        (tmp_path / "jupyter" / var).mkdir(parents=True)
        env[var] = str(tmp_path / "jupyter" / var)
    port = free_port()
    cmd = [sys.executable, "-m", "jupyter", "lab", *_play_command(), "--no-browser",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--ServerApp.token=",
           "--ServerApp.password=", "--ServerApp.ip=127.0.0.1", "--allow-root"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + patience(60_000) / 1000
        while True:
            assert proc.poll() is None, "jupyter lab exited"
            try:
                with urllib.request.urlopen(base + "/api/contents/docs/moolah.md", timeout=2) as r:
                    doc = json.loads(r.read())
                break
            except urllib.error.HTTPError as e:
                raise AssertionError(f"docs/moolah.md answered {e.code}: not served") from None
            except OSError:
                assert time.monotonic() < deadline, "jupyter lab did not answer in 60 s"
                time.sleep(0.3)
        assert doc["path"] == "docs/moolah.md" and doc["type"] == "file"
        with urllib.request.urlopen(base + "/api/contents/notebooks/start_here.ipynb") as r:
            assert json.loads(r.read())["type"] == "notebook"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(15)
