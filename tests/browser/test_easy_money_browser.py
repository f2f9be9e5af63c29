"""Easy Money in a real browser: JupyterLab + headless Chromium (see conftest.py).

Opens ``notebooks/easy_money.ipynb`` (seed 11: the person is offered Canal Street on the first
move), runs it, clicks Throw the dice / End the turn / Pass until a Buy button appears, clicks
Buy, and checks in the page that the holdings table shows the purchase, that the person's cash
fell, that the owner frame appeared on the board and that the money table still sums to the
starting total. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import re
import time

import pytest
from conftest import open_and_run, patience, screenshot

pytestmark = pytest.mark.browser

VIEW = ".moneynb-view >> nth=0"

#: the number of points drawn by the board's "owners" trace. Found by the trace's name through
#: its uid: plotly.js draws no ``g.trace`` for an empty trace, so a position in the DOM names
#: another trace whenever an earlier one is empty (at a purchase offer the first drawn trace
#: after the spaces was "targets", so a test by position read the target as an owner).
_OWNERS_JS = """(root) => {
    const gd = root.querySelector('.js-plotly-plot');
    const trace = gd && gd.data ? gd.data.find(t => t.name === 'owners') : null;
    const g = trace ? root.querySelector(`.scatterlayer .trace${trace.uid}`) : null;
    return g ? g.querySelectorAll('path.point').length : 0;
}"""

_STATE_JS = """(view) => {
    const row = view.querySelector('.moneynb-em-holdings tr[data-seat="0"]');
    const table = view.querySelector('.moneynb-money-table');
    const cells = [...view.querySelectorAll('.moneynb-money-table .moneynb-dollars')];
    const owners = (OWNERS)(view);
    const box = view.querySelector('.moneynb-log-box');
    return {
        cash: row ? Number(row.dataset.cash) : null,
        holdings: row ? Number(row.dataset.holdings) : null,
        owners: owners,
        log: box ? Number(box.dataset.count) : -1,
        start: table ? Number(table.dataset.startTotal) : null,
        sum: cells.reduce((s, c) => s + Number(c.dataset.dollars), 0),
        over: /Game over/.test(view.querySelector('.moneynb-header').textContent),
    };
}"""
_STATE_JS = _STATE_JS.replace("(OWNERS)", f"({_OWNERS_JS})")


def _state(view):
    return view.evaluate(_STATE_JS)


def _control(view):
    """The control to press next: Buy if offered, else throw / end / pass / refuse."""
    for css in (".moneynb-em-buy", ".moneynb-roll", ".moneynb-em-end", ".moneynb-option-pass",
                ".moneynb-em-refuse", ".moneynb-option"):  # fmt: skip
        b = view.locator(f".moneynb-decision button{css}:not([disabled])")
        if b.count():
            return b.first, css
    return None, None


def test_easy_money_purchase_by_clicks(lab_server, page):
    try:
        _play(lab_server, page)
    except BaseException:
        screenshot(page, "easy_money_browser-failure")
        raise


def _play(lab_server, page):
    t0 = time.perf_counter()
    open_and_run(page, lab_server, "notebooks/easy_money.ipynb", timeout_s=150)
    view = page.locator(VIEW)
    view.wait_for(state="visible")
    view.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('.moneynb-view .js-plotly-plot .scatterlayer .trace')",
        timeout=patience(60_000),
    )
    first = _state(view)
    assert first["holdings"] == 0 and first["cash"] == 2000, first
    assert first["sum"] == first["start"], first
    bought = None
    for _ in range(40):
        button, css = _control(view)
        assert button is not None, f"no enabled control in the decision panel: {_state(view)}"
        before = _state(view)
        if css == ".moneynb-em-buy":
            deed = view.locator(".moneynb-decision .moneynb-em-deed").first.inner_text()
            price = int(re.search(r"price \$(\d+)", deed).group(1))
            button.click()
            page.wait_for_function(
                "(n) => Number(document.querySelector("
                "'.moneynb-view .moneynb-em-holdings tr[data-seat=\"0\"]').dataset.holdings) > n",
                arg=before["holdings"],
                timeout=patience(15_000),
            )
            bought = (before, _state(view), price, deed)
            break
        button.click()
        page.wait_for_function(
            "([sel, n]) => Number(document.querySelector(sel).dataset.count) > n",
            arg=[".moneynb-view .moneynb-log-box", before["log"]],
            timeout=patience(15_000),
        )
        if _state(view)["over"]:
            break
    assert bought is not None, "the person was never offered a purchase"
    before, after, price, deed = bought
    assert after["holdings"] == before["holdings"] + 1
    # the price was paid (bots' rent on the new street can come back only after, and is small)
    assert before["cash"] - price - 30 <= after["cash"] < before["cash"], (before, after, price)
    page.wait_for_function(
        f"(n) => ({_OWNERS_JS})(document.querySelector('.moneynb-view')) > n",
        arg=before["owners"],
        timeout=patience(15_000),
    )
    assert after["sum"] == after["start"] == first["start"], after
    screenshot(page, "easy_money_browser", element=view)
    print(f"\nbought {deed.splitlines()[0]} for ${price}; test {time.perf_counter() - t0:.1f} s")
