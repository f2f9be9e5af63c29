"""JupyterLab mends a view that never came back after a reload (issue 41: under load, Lab's
widget manager gave up on the kernel's widget states and wrote "Error displaying widget: model
not found" for good; a student reloads first, and nothing told them more).

The note under every game (``moneynb.ui.saves.fallback_html``) carries the page's stall watch
(``STALL_WATCH_JS``) in Lab as in the Voila app: a saved notebook's outputs are trusted, so its
script runs after a reload. In Lab it offers the reload (one click) instead of reloading by
itself, in a notice right under the output that did not draw. The race itself is not waited for: a saved output holding a widget
view whose model the kernel does not have makes Lab write "model not found" on every load,
deterministically, as after the lost reply.
"""

from __future__ import annotations

import contextlib

import pytest
from conftest import patience, screenshot

pytestmark = pytest.mark.browser


def _stalled_notebook(path, data_dir) -> None:
    """A notebook as Lab saves it after a game was shown: the view's output (of a model the
    kernel does not have) and the note under it, signed (trusted) as the server signs a
    notebook it saves, with the metadata Lab writes (else opening it makes it unsaved)."""
    import sys

    import nbformat
    from nbformat.sign import NotebookNotary
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    from moneynb.ui.saves import fallback_html

    view = {"model_id": "e" * 32, "version_major": 2, "version_minor": 0}
    outputs = [
        new_output("display_data", {"application/vnd.jupyter.widget-view+json": view,
                                    "text/plain": "a game"}),
        new_output("display_data", {"text/html": fallback_html("game", saved=True),
                                    "text/plain": "a note"}),
    ]  # fmt: skip
    cell = new_code_cell("moneynb.play('moolah')", outputs=outputs, execution_count=1)
    nb = new_notebook(cells=[cell], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                       "language": "python"},
        "language_info": {"codemirror_mode": {"name": "ipython", "version": 3},
                          "file_extension": ".py", "mimetype": "text/x-python",
                          "name": "python", "nbconvert_exporter": "python",
                          "pygments_lexer": "ipython3", "version": sys.version.split()[0]},
    })  # fmt: skip
    nbformat.validate(nb)
    NotebookNotary(data_dir=str(data_dir)).sign(nb)
    nbformat.write(nb, str(path))


def test_a_lab_view_that_never_came_back_says_what_to_do_and_offers_a_reload(lab_server, page):
    base, root = lab_server
    # (servers.jupyter_server: the server's data folder, where its notary keeps its secret)
    _stalled_notebook(root / "notebooks" / "_lab_stall_probe.ipynb", root.parent / "data")
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    try:
        page.goto(f"{base}/lab/tree/notebooks/_lab_stall_probe.ipynb?reset")
        alert = page.locator("#moneynb-stall[role='alert']")
        alert.wait_for(state="visible", timeout=patience(240_000))
        text = alert.inner_text()
        assert "did not load" in text and "reload the page" in text, text
        assert "run its cell again" in text, text
        # the stall is real, not the watch's own invention (the note below names it too),
        # and the notice sits right under it, in the notebook (no menu of Lab covered)
        missing = page.evaluate(
            "() => [...document.querySelectorAll('.jp-OutputArea-output')]"
            ".filter(o => o.textContent.trim() === 'Error displaying widget: model not found')"
            ".map(o => o.nextElementSibling && o.nextElementSibling.id)"
        )
        assert missing == ["moneynb-stall"], missing
        # offered, not forced: Lab is an IDE (a restarted kernel's widgets are gone for good)
        assert len(loads) == 1, loads
        screenshot(page, "lab-stall-alert")
        with page.expect_event("load", timeout=patience(120_000)):
            page.locator("#moneynb-stall button.moneynb-stall-reload").click()
        alert.wait_for(state="visible", timeout=patience(240_000))
        assert len(loads) == 2, loads
    except BaseException:
        screenshot(page, "lab-stall-failure")
        raise
    finally:
        with contextlib.suppress(Exception):
            page.evaluate("window.jupyterapp.commands.execute('application:close-all')")
