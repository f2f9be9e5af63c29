"""Money Run in a real browser: JupyterLab + headless Chromium (see conftest.py).

Opens ``notebooks/money_run.ipynb`` and runs it; then, only by clicks on the plotly board:
clicks a table coin and the square in front of the blue pawn (a placement), then the pawn and
the highlighted square (a pawn move). Checks in the page that the log reports both, that the
pawn marker moved up one row, and that the coin count shown is still 42. Screenshots go to
``test-output/``.
"""

from __future__ import annotations

import time

import pytest
from conftest import open_and_run, screenshot

pytestmark = pytest.mark.browser

VIEW = ".moneynb-view >> nth=0"
TRACES = ".moneynb-view .js-plotly-plot .scatterlayer .trace"
SQUARES, COINS, TARGETS, PAWNS, TABLE = 0, 1, 2, 3, 4

_STATE_JS = """(view) => {
    const box = view.querySelector('.moneynb-log-box');
    const traces = view.querySelectorAll('.js-plotly-plot .scatterlayer .trace');
    const pawn = traces[3] ? traces[3].querySelector('path.point') : null;
    return {
        log: box ? Number(box.dataset.count) : -1,
        text: box ? box.textContent : '',
        targets: traces[2] ? traces[2].querySelectorAll('path.point').length : -1,
        pawn: pawn ? pawn.getAttribute('transform') : '',
        info: (view.querySelector('.moneynb-mr-info') || {textContent: ''}).textContent,
    };
}"""


def _state(view):
    return view.evaluate(_STATE_JS)


def _click_point(page, view, trace: int, index: int) -> None:
    point = view.locator(".js-plotly-plot .scatterlayer .trace").nth(trace).locator("path.point")
    box = point.nth(index).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.click(x, y)


def _wait_targets(page, n: int) -> None:
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel)[2].querySelectorAll('path.point').length === n",
        arg=[TRACES, n],
        timeout=15_000,
    )


def test_money_run_place_and_pawn_move_by_clicks(lab_server, page):
    t0 = time.perf_counter()
    open_and_run(page, lab_server, "notebooks/money_run.ipynb", timeout_s=180)
    view = page.locator(VIEW)
    view.wait_for(state="visible")
    view.scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelectorAll('{TRACES}').length >= 6")
    first = _state(view)
    assert "coins in play: 42" in first["info"], first["info"]

    # 1. a placement: a table coin, then the square (4, 1) in front of the pawn at (4, 0)
    _click_point(page, view, TABLE, 0)
    _wait_targets(page, 81)  # every square takes a coin on the empty board
    _click_point(page, view, SQUARES, 1 * 9 + 4)
    page.wait_for_function(
        "() => /You places a \\w+ coin on \\(4, 1\\)/.test("
        "document.querySelector('.moneynb-view .moneynb-log-box').textContent)",
        timeout=15_000,
    )
    placed = _state(view)
    assert placed["targets"] == 0, placed

    # 2. a pawn move: click the pawn (its one target lights up), then that target
    _click_point(page, view, PAWNS, 0)
    _wait_targets(page, 1)
    _click_point(page, view, TARGETS, 0)
    page.wait_for_function(
        "() => /You moves along \\(4, 0\\) → \\(4, 1\\)/.test("
        "document.querySelector('.moneynb-view .moneynb-log-box').textContent)",
        timeout=30_000,
    )
    page.wait_for_function(
        "([sel, before]) => document.querySelectorAll(sel)[3].querySelector('path.point')"
        ".getAttribute('transform') !== before",
        arg=[TRACES, first["pawn"]],
        timeout=15_000,
    )
    end = _state(view)
    assert "coins in play: 42" in end["info"], end["info"]
    y_before = float(first["pawn"].split(",")[1].rstrip(")"))
    y_after = float(end["pawn"].split(",")[1].rstrip(")"))
    assert y_after < y_before - 20, (first["pawn"], end["pawn"])  # up the screen by a row
    screenshot(page, "money_run_browser", element=view)
    print(f"\nMoney Run browser test: {time.perf_counter() - t0:.1f} s")
