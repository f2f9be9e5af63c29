"""Money Moves in a real browser: JupyterLab + headless Chromium (see conftest.py).

Opens ``notebooks/money_moves.ipynb``, runs it, presses Roll at least 5 times (answering any
other panel that appears), and checks in the page that the log grew and that the money table
still sums to the starting total. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import statistics
import time

import pytest
from conftest import open_and_run, patience, screenshot

pytestmark = pytest.mark.browser

VIEW = ".moneynb-view >> nth=0"

_STATE_JS = """(view) => {
    const box = view.querySelector('.moneynb-log-box');
    const table = view.querySelector('.moneynb-money-table');
    const cells = [...view.querySelectorAll('.moneynb-money-table .moneynb-dollars')];
    return {
        log: box ? Number(box.dataset.count) : -1,
        lines: view.querySelectorAll('.moneynb-log-line').length,
        start: table ? Number(table.dataset.startTotal) : null,
        sum: cells.reduce((s, c) => s + Number(c.dataset.dollars), 0),
        shownTotal: (view.querySelector('.moneynb-total') || {dataset: {}}).dataset.dollars,
        cells: cells.length,
        over: /Game over/.test(view.querySelector('.moneynb-header').textContent),
        dice: [...view.querySelectorAll('.moneynb-die')].map(d => d.dataset.face),
    };
}"""


def _state(view):
    return view.evaluate(_STATE_JS)


_LATENCY_JS = """(view) => {
    // time, inside the page, from a click in the view to the log box showing more events
    window.__mnLat = [];
    const count = () => Number(view.querySelector('.moneynb-log-box').dataset.count);
    let t0 = null, before = count();
    view.addEventListener('click', () => { t0 = performance.now(); before = count(); }, true);
    new MutationObserver(() => {
        if (t0 !== null && count() > before) { window.__mnLat.push(performance.now() - t0); t0 = null; }
    }).observe(view, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def _next_button(view):
    """The control to press for the pending decision: Roll first, else the first option."""
    for css in (".moneynb-roll", ".moneynb-option", ".moneynb-player", ".moneynb-submit"):
        b = view.locator(f".moneynb-decision button{css}:not([disabled])")
        if b.count():
            return b.first, css
    return None, None


def test_money_moves_plays_in_jupyterlab(lab_server, page):
    try:
        _play(lab_server, page)
    except BaseException:
        screenshot(page, "money_moves_browser-failure")
        raise


def _play(lab_server, page):
    t0 = time.perf_counter()
    open_and_run(page, lab_server, "notebooks/money_moves.ipynb")
    t_run = time.perf_counter() - t0
    view = page.locator(VIEW)
    view.wait_for(state="visible")
    view.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('.moneynb-view .js-plotly-plot .scatterlayer .trace')",
        timeout=patience(
            60_000
        ),  # plotly.js (5 MB) is loaded and run first: slow on a busy machine
    )
    first = _state(view)
    assert first["cells"] >= 5, first  # House Bank, Pot and three wallets
    assert first["sum"] == first["start"], first
    start_log = first["log"]
    view.evaluate(_LATENCY_JS)
    rolls, clicks, latencies = 0, 0, []
    while rolls < 6 and clicks < 40:
        button, css = _next_button(view)
        assert button is not None, f"no enabled control in the decision panel: {_state(view)}"
        before = _state(view)["log"]
        t = time.perf_counter()
        button.click()
        page.wait_for_function(
            "([sel, n]) => Number(document.querySelector(sel).dataset.count) > n",
            arg=[".moneynb-view .moneynb-log-box", before],
            timeout=patience(10_000),
        )
        latencies.append(time.perf_counter() - t)
        clicks += 1
        rolls += css == ".moneynb-roll"
        now = _state(view)
        assert now["sum"] == now["start"] == first["start"], now
        assert str(now["sum"]) == now["shownTotal"]
        if now["over"]:
            break
    assert rolls >= 5, f"only {rolls} Roll clicks before the game ended"
    end = _state(view)
    assert end["log"] > start_log and end["lines"] > first["lines"]
    assert all(end["dice"]), end["dice"]
    # the plotly table shows the players' seats (one text per seat with a dollar amount)
    seat_texts = view.locator(".js-plotly-plot .scatterlayer .trace >> nth=0").locator("text")
    assert seat_texts.count() == 3 and all("$" in seat_texts.nth(i).text_content()
                                           for i in range(3))  # fmt: skip
    screenshot(page, "money_moves_browser", element=view)
    in_page = page.evaluate("window.__mnLat")
    assert len(in_page) == clicks, in_page
    print(
        f"\n{clicks} clicks ({rolls} Rolls); click -> log updated, timed in the page: "
        f"median {statistics.median(in_page):.0f} ms, max {max(in_page):.0f} ms "
        f"(from Python incl. Playwright: median {statistics.median(latencies) * 1000:.0f} ms); "
        f"open+run notebook {t_run:.1f} s; test {time.perf_counter() - t0:.1f} s"
    )
