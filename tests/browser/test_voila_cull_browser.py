"""A Voila kernel culled for idleness is noticed (issue 26 item 10).

Voila (jupyter_server) shuts a culled kernel down without a status message, and the page's
websocket may stay open: before, no lost-kernel note came within 150 s, the buttons stayed
enabled and a click did nothing. The views ask the server whether their kernel still exists
(``watchServerKernel`` in ``moneynb/ui/a11y.py``, every 5 s); here Voila culls after 15 s of
inactivity (checked every 2 s), and the game on the page must then say it lost its kernel,
with every control disabled.
"""

from __future__ import annotations

import pytest
from conftest import write_probe_notebook
from servers import jupyter_server

pytestmark = pytest.mark.browser

CULL = (
    "--MappingKernelManager.cull_idle_timeout=15",
    "--MappingKernelManager.cull_interval=2",
    "--MappingKernelManager.cull_connected=True",
)


def test_a_culled_voila_kernel_shows_the_lost_note_and_disables_the_game(browser_context):
    page = browser_context.new_page()
    try:
        with jupyter_server("voila", extra_args=CULL) as (base, root):
            write_probe_notebook(
                root / "notebooks" / "cull_probe.ipynb",
                "import moneynb\nmoneynb.play('money_moves', players=['Ann', 'Bob'], seed=1, "
                "autosave=False)",
            )
            page.goto(base + "/voila/render/cull_probe.ipynb", timeout=120_000)
            view = page.locator(".moneynb-view").first
            roll = view.locator(".moneynb-decision button").first
            roll.wait_for(timeout=120_000)
            assert roll.is_enabled()
            # culled after 15 s idle, seen at the next poll (5 s): generous for a loaded machine
            note = view.locator(".moneynb-lost-note")
            note.wait_for(timeout=120_000)
            assert "lost its kernel" in note.inner_text() and "idle" in note.inner_text()
            assert view.evaluate("v => v.dataset.lost") == "culled"
            assert view.evaluate(
                "v => [...v.querySelectorAll('button, input, select')].every(b => b.disabled)"
            )
    finally:
        page.close()
