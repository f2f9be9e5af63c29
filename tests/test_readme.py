"""Every Python block of the README runs when pasted as one cell in a fresh kernel (issue 24).

Each ```python block of README.md becomes the one code cell of a notebook, executed by nbclient
in a fresh ipykernel whose working folder (and game store) is a temporary folder, so nothing the
examples save lands in the repository. A block that raises fails the test with the block's
first line and the error.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

REPO = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(), re.S)


def test_the_readme_has_python_blocks():
    assert len(BLOCKS) >= 3, "README.md lost its examples"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[-1][:40] for b in BLOCKS])
def test_readme_block_runs_in_a_fresh_kernel(block, tmp_path, monkeypatch):
    monkeypatch.setenv("MONEYNB_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    )
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(block)]
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    try:
        client.execute()
    except CellExecutionError as e:  # pragma: no cover - the failure message is the point
        pytest.fail(f"README block starting {block.splitlines()[0]!r} raised:\n{e}")
