"""nbval collection of the notebooks folder (``pytest notebooks --nbval-lax``).

The teaching notebooks (``teach_*.ipynb``) are executed by ``tests/test_teaching_headless.py``
with nbclient, which fails on any cell error as nbval-lax does and also checks what nbval
cannot see (no cell waits on a front end, no chart merges two keys). So a run over the whole
folder leaves them to that test instead of executing each one twice; a teaching notebook
named on the command line (``pytest --nbval-lax notebooks/teach_dice.ipynb``) still runs
under nbval.
"""

from __future__ import annotations

from pathlib import Path


def pytest_ignore_collect(collection_path: Path, config):
    if collection_path.suffix != ".ipynb" or not collection_path.name.startswith("teach_"):
        return None
    named = {Path(str(a).split("::")[0]).resolve() for a in config.args}
    return True if collection_path.resolve() not in named else None


def pytest_itemcollected(item):
    """Under ``pytest -n 2 --dist loadgroup`` (``scripts/test-all.sh``) the cells of a notebook
    run on one worker, in order, in one kernel: each notebook is a worker group of its own."""
    import pytest

    item.add_marker(pytest.mark.xdist_group("notebooks/" + item.path.name))
