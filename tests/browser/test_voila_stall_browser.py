"""The app page mends Voila's stalls by itself (closing notes of 2026-12-02: "a gap for a class
server").

On a loaded server Voila's front end may leave an output reading "Error displaying widget:
model not found" for good (it asked for the widgets while the kernel was still making them;
voila-dashboards/voila#1428, #920): a student then saw part of the app missing, and only the
note under it said to reload. Now the note carries a watch (``moneynb.ui.saves.STALL_WATCH_JS``)
that loads the page again by itself, once in a row, and otherwise shows an alert with a
"Reload the page" button.

The race itself is not waited for: an output holding a widget view whose model does not exist
makes Voila's widget manager write "model not found" on every load, deterministically. A
second page with a real widget shows that a drawn page clears the count, so a later stall may
reload again.
"""

from __future__ import annotations

import pytest
from conftest import patience, screenshot, voila_shows, write_probe_notebook

pytestmark = pytest.mark.browser

STALLED = """
from IPython.display import display
from moneynb.ui.saves import fallback_html
# a widget view whose model the kernel never made: Voila writes "model not found" every time
display({"application/vnd.jupyter.widget-view+json": {"model_id": "f" * 32,
         "version_major": 2, "version_minor": 0}, "text/plain": "a widget"}, raw=True)
display({"text/html": fallback_html("game")}, raw=True)
"""

DRAWN = """
import ipywidgets as W
from IPython.display import display
from moneynb.ui.saves import fallback_html
button = W.Button(description="drawn")
button.add_class("probe-drawn")
display(button)
display({"text/html": fallback_html("game")}, raw=True)
"""

_COUNT_KEY = "() => sessionStorage.getItem('moneynb-stall-reloads')"


def test_a_page_voila_left_stalled_reloads_itself_once_then_offers_a_reload(voila_server, page):
    base, root = voila_server
    write_probe_notebook(root / "notebooks" / "_stall_probe.ipynb", STALLED)
    write_probe_notebook(root / "notebooks" / "_drawn_probe.ipynb", DRAWN)
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    # the watch's own timers, shortened as for the other branch below (CI time): a check every
    # 0.5 s (3 s in the app) and 2 s of a drawn page holding still before its count is
    # cleared (20 s in the app); every load of this page gets them
    page.add_init_script("window.moneynbStallEvery = 500; window.moneynbStallSettled = 2000;")
    try:
        page.goto(f"{base}/voila/render/_stall_probe.ipynb", timeout=patience(240_000))
        alert = page.locator("#moneynb-stall[role='alert']")
        alert.wait_for(state="visible", timeout=patience(240_000))
        # it loaded the page again by itself once (two loads), then said so and stopped
        assert len(loads) == 2, loads
        assert page.evaluate(_COUNT_KEY) == "1"
        assert "did not load" in alert.inner_text()
        missing = page.locator(".jp-OutputArea-output", has_text="model not found")
        assert missing.count() == 1  # the stall is real, not the watch's own invention
        screenshot(page, "voila-stall-alert")
        # the button loads the page again (no further automatic loads: still one in a row)
        page.locator("#moneynb-stall button.moneynb-stall-reload").click()
        alert.wait_for(state="visible", timeout=patience(240_000))
        page.wait_for_function("() => document.readyState === 'complete'")
        assert len(loads) == 3 and page.evaluate(_COUNT_KEY) == "1", loads

        # a page whose widgets draw clears the count (the next stall may reload again), and
        # shows no alert
        page.goto(f"{base}/voila/render/_drawn_probe.ipynb", timeout=patience(240_000))
        # (a real stall of this page under load is loaded again by the helper)
        voila_shows(page, "button.probe-drawn", name="voila-stall-drawn")
        # (drawn and settled for the watch's 2 s)
        page.wait_for_function(f"() => {_COUNT_KEY[6:]} === null", timeout=patience(90_000))
        assert page.locator("#moneynb-stall").count() == 0
        assert len(loads) >= 4, loads
    except BaseException:
        screenshot(page, "voila-stall-failure")
        raise


def test_a_page_still_loading_is_offered_a_reload_and_the_alert_goes_when_it_draws(page):
    """The other branch, on a plain page holding what Voila shows (no server needed): an
    output reading "Loading widget..." with nothing changing for the watch's patience (90 s
    in the app, 2 s here) brings the alert, which does not reload the page by itself; once
    every output is drawn the alert goes."""
    from moneynb.ui.saves import STALL_WATCH_JS, WIDGET_LOADING

    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    page.set_content(
        "<div class='jp-OutputArea-output'>Board</div>"
        f"<div class='jp-OutputArea-output' id='slow'>{WIDGET_LOADING}</div>"
        "<script>window.moneynbStallPatience = 2000;</script>"
        f"<script>{STALL_WATCH_JS}</script>"
    )
    alert = page.locator("#moneynb-stall[role='alert']")
    alert.wait_for(state="visible", timeout=patience(30_000))
    assert "still loading" in alert.inner_text()
    assert page.locator("#moneynb-stall button.moneynb-stall-reload").is_visible()
    assert len(loads) == 1  # offered, not forced (this blank page has no storage either)
    page.evaluate("document.getElementById('slow').textContent = 'Money table'")
    alert.wait_for(state="detached", timeout=patience(30_000))
    assert len(loads) == 1
