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


def test_voila_preheats_a_kernel_for_each_app_notebook_only():
    """Issue 41: a reload of an app page takes a kernel that already ran the notebook
    (Voila's preheated kernels, one per app notebook); the lessons (``teach_*``) get none."""
    from voila.app import Voila

    app = Voila()
    app.load_config_file("voila", path=[str(REPO)])
    assert app.config.VoilaConfiguration.preheat_kernel is True
    pools = app.config.VoilaKernelManager.kernel_pools_config
    assert pools["default"]["pool_size"] == 0
    apps = {k for k, v in pools.items() if k != "default" and v["pool_size"] >= 1}
    play = {f"{n}.ipynb" for n in ("start_here", "money_moves", "moolah", "easy_money",
                                   "money_card", "money_run")}  # fmt: skip
    assert apps == play
    assert all((REPO / "notebooks" / nb).exists() for nb in apps)
    # preheating and progressive rendering exclude each other in Voila
    assert not app.config.VoilaConfiguration.get("progressive_rendering", False)


def test_a_preheated_kernel_learns_the_pages_address_before_it_draws_links(monkeypatch):
    """A preheated kernel runs the notebook before any page asks for it: ``links_open_here``
    waits for the page (Voila's ``wait_for_request``) when it has no address yet, and reads
    the path Voila then gives (``SCRIPT_NAME``)."""
    import voila.utils

    from moneynb.ui import launcher

    calls = []

    def arrive(path):
        def wait(url=None):
            calls.append(path)
            monkeypatch.setenv("SCRIPT_NAME", path)

        return wait

    monkeypatch.setenv("VOILA_KERNEL_ID", "k")
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("VOILA_REQUEST_URL", raising=False)
    monkeypatch.setattr(voila.utils, "wait_for_request", arrive("/voila/render/start_here.ipynb"))
    assert launcher.links_open_here() is True
    monkeypatch.delenv("SCRIPT_NAME")
    monkeypatch.setattr(voila.utils, "wait_for_request", arrive("/"))
    assert launcher.links_open_here() is False
    assert calls == ["/voila/render/start_here.ipynb", "/"]
    # a later kernel of the pool has the address of the page before it: no wait
    monkeypatch.setenv("VOILA_REQUEST_URL", "http://h:1/voila/render/start_here.ipynb")
    assert launcher.links_open_here() is True and len(calls) == 2
