"""A Voila kernel culled for idleness is noticed, and no markup from a name reaches the page
(issue 26 items 10 and 1: one page for both, to keep the browser tests lean).

The players are named ``<a href="https://e.vil/">Ann</a>`` and
``<span style="font-size:60px">Z</span>``: the board (plotly) must show those names as
typed, with no link and no styled text made from them.

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

NAMES = ['<a href="https://e.vil/">Ann</a>', '<span style="font-size:60px">Z</span>']
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
                f"import moneynb\nmoneynb.play('money_moves', players={NAMES!r}, seed=1, "
                "autosave=False)",
            )
            page.goto(base + "/voila/render/cull_probe.ipynb", timeout=120_000)
            view = page.locator(".moneynb-view").first
            roll = view.locator(".moneynb-decision button").first
            roll.wait_for(timeout=120_000)
            assert roll.is_enabled()
            plot = view.locator(".js-plotly-plot").first
            plot.locator(".textpoint").first.wait_for(timeout=60_000)
            made = plot.evaluate(
                """p => ({links: p.querySelectorAll('a').length,
                         styled: [...p.querySelectorAll('tspan[style]')]
                                   .filter(t => /60px/.test(t.getAttribute('style'))).length,
                         text: p.textContent})"""
            )
            assert made["links"] == 0 and made["styled"] == 0, made
            # shown as typed: on the board as literal text (a long name is cut to fit its seat,
            # so only its beginning), whole in the view's money table and log
            assert "<a" in made["text"] and "<span" in made["text"], made["text"]
            whole = view.evaluate("v => v.textContent")
            assert NAMES[0] in whole and NAMES[1] in whole
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
