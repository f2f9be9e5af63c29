"""Write the kernel culling of ``voila.json`` as a Jupyter server config file (for Binder).

``voila notebooks/start_here.ipynb`` (the standalone app) reads ``voila.json`` from the folder
it is started in, so the repository root's file culls the kernels of closed app pages there.
On Binder the app is the Voila *server extension* of the Jupyter server
(``?urlpath=voila/render/...``), whose kernels belong to the server: that reads
``~/.jupyter/jupyter_server_config.json``, not ``voila.json``. ``binder/postBuild`` runs
``python binder/cull_config.py ~/.jupyter`` to put the same ``MappingKernelManager`` settings
there, so the two never differ (why these values: docs/app.md, "Kernels of closed pages").

Usage: ``python binder/cull_config.py CONFIG_DIR`` (sets the ``MappingKernelManager`` section of
``CONFIG_DIR/jupyter_server_config.json``, keeping the rest of an existing file).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write(config_dir: str | Path) -> Path:
    """Set the ``MappingKernelManager`` section of ``<config_dir>/jupyter_server_config.json``
    to the one of the repository's ``voila.json`` (other sections of an existing file are
    kept); returns the file's path.

    Raises:
        KeyError: ``voila.json`` has no ``MappingKernelManager`` section.
        json.JSONDecodeError: the existing config file is not JSON.
    """
    section = json.loads((ROOT / "voila.json").read_text("utf-8"))["MappingKernelManager"]
    out = Path(config_dir) / "jupyter_server_config.json"
    config = json.loads(out.read_text("utf-8")) if out.exists() else {}
    config.setdefault("MappingKernelManager", {}).update(section)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(config, indent=2) + "\n", "utf-8")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python binder/cull_config.py CONFIG_DIR   (e.g. ~/.jupyter)")
    print(write(sys.argv[1]))
