"""The app's kernels of closed pages are culled, wherever the README and docs run it
(a newcomer's report: 36 reloads left 36 Voila kernels of 150-180 MB each).

``voila notebooks/start_here.ipynb`` (README, docs/app.md), run from the repository root,
reads ``voila.json`` there; Binder's Voila is the Jupyter server's extension, whose kernels
follow ``jupyter_server_config.json`` (written by ``binder/postBuild`` through
``binder/cull_config.py``). Both are read here by Voila's and jupyter_server's own loaders.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "binder"))


def _check(section) -> None:
    assert 600 <= section["cull_idle_timeout"] <= 1800
    assert section["cull_interval"] == 60
    assert section["cull_connected"] is False  # a kernel with an open page is never culled
    assert section.get("cull_busy", False) is False


def test_voila_reads_the_culling_from_the_repository_root():
    from voila.app import Voila

    app = Voila()
    app.load_config_file("voila", path=[str(REPO)])  # what `voila ...` run from the root does
    _check(app.config.MappingKernelManager)
    readme = (REPO / "README.md").read_text("utf-8") + (REPO / "docs" / "app.md").read_text()
    runs = re.findall(r"voila (\S+)", readme)
    # every command starts Voila at the root (where voila.json is): paths from it
    assert runs and all(r.startswith("notebooks/") for r in runs if not r.startswith("<")), runs


def test_binder_server_gets_the_same_culling(tmp_path):
    import cull_config

    (tmp_path / "jupyter_server_config.json").write_text(json.dumps({"ServerApp": {"x": 1}}))
    path = cull_config.write(tmp_path)
    assert json.loads(path.read_text())["ServerApp"] == {"x": 1}  # the rest kept
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path)}
    shown = subprocess.run(
        [sys.executable, "-m", "jupyter_server", "--show-config"],
        env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path,
    ).stdout  # fmt: skip
    lines = shown[shown.index("MappingKernelManager\n") :].splitlines()[1:]
    block = "\n".join(next(iter([lines[:i] for i, x in enumerate(lines) if x[:1] not in " \t"]),
                           lines))  # fmt: skip
    got = {k: json.loads(v.lower()) for k, v in re.findall(r"\.(\w+) = (\S+)", block)}
    _check(got)
    assert got == json.loads((REPO / "voila.json").read_text())["MappingKernelManager"]
