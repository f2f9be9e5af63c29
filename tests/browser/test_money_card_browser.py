"""Money Card in a real browser: JupyterLab + headless Chromium (see conftest.py).

Opens ``notebooks/money_card.ipynb``, runs it, clicks Spin, then clicks a legal landing space
on the plotly map (no dropdown), and checks in the page that the move was made: the spinner
shows a result, the log reads "You move <n> to <space>", and the money table still sums to its
starting total. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import time

import pytest
from conftest import open_and_run, painted, patience, screenshot, settled_in_place

import moneynb

pytestmark = pytest.mark.browser

VIEW = ".moneynb-view >> nth=0"

_STATE_JS = """(view) => {
    const box = view.querySelector('.moneynb-log-box');
    const table = view.querySelector('.moneynb-money-table');
    const cells = [...view.querySelectorAll('.moneynb-money-table .moneynb-dollars')];
    return {
        log: box ? Number(box.dataset.count) : -1,
        text: box ? box.textContent : '',
        start: table ? Number(table.dataset.startTotal) : null,
        sum: cells.reduce((s, c) => s + Number(c.dataset.dollars), 0),
        prompt: (view.querySelector('.moneynb-prompt') || {textContent: ''}).textContent,
        spinner: (view.querySelector('.moneynb-spinner') || {dataset: {}}).dataset.result,
        keys: view.querySelectorAll('.moneynb-keys-table tr[data-seat]').length,
    };
}"""


_PIXEL_JS = """(view, xy) => {
    const gd = view.querySelector('.js-plotly-plot');
    const fl = gd._fullLayout, box = gd.getBoundingClientRect();
    return [box.left + fl._size.l + fl.xaxis.l2p(xy[0]), box.top + fl._size.t + fl.yaxis.l2p(xy[1])];
}"""


def _state(view):
    return view.evaluate(_STATE_JS)


def _wait_log(page, before: int) -> None:
    page.wait_for_function(
        "([sel, n]) => Number(document.querySelector(sel).dataset.count) > n",
        arg=[".moneynb-view .moneynb-log-box", before],
        timeout=patience(15_000),
    )


def test_money_card_spin_and_move_by_clicks(lab_server, page):
    t0 = time.perf_counter()
    open_and_run(page, lab_server, "notebooks/money_card.ipynb", timeout_s=90)
    view = page.locator(VIEW)
    view.wait_for(state="visible")
    view.scroll_into_view_if_needed()
    # the backdrop draws routes, perimeter, arrows, names and spaces; the figure over it the
    # planes (empty traces draw no group)
    page.wait_for_function(
        "() => { const figs = document.querySelectorAll('.moneynb-view .js-plotly-plot');"
        " return figs.length === 2 && figs[0].querySelectorAll('.scatterlayer .trace').length >= 1"
        " && figs[1].querySelectorAll('.scatterlayer .trace').length === 5"
        " && [...figs[1].querySelectorAll('text')].some(t => t.textContent === 'Paris'); }"
    )
    # plotly has finished its first draw of both figures (no pending redraw promises, no
    # transition) before the figure is updated
    page.wait_for_function(
        "() => [...document.querySelectorAll('.moneynb-view .js-plotly-plot')].every(gd =>"
        " gd._fullLayout && !gd._transitioning && !(gd._promises && gd._promises.length))",
        timeout=patience(10_000),
    )
    painted(page)
    first = _state(view)
    assert first["sum"] == first["start"], first
    assert first["keys"] == 3, first
    # hovering a place shows its name: the mouse passes through the board figure to the
    # backdrop's spaces under it
    paris = moneynb.new_game("money_card", players=["A", "B"], seed=1).board.spaces["paris"]
    settled_in_place(page)
    xy = view.evaluate(_PIXEL_JS, [paris["x"], paris["y"]])
    page.mouse.move(xy[0], xy[1])
    page.wait_for_function(
        "() => [...document.querySelectorAll('.moneynb-view .hoverlayer .hovertext')]"
        ".some(h => h.textContent.includes('Paris'))",
        timeout=patience(10_000),
    )
    page.mouse.move(5, 5)
    # 1. Spin (a click on the Spin button of the turn panel)
    spin = view.locator(".moneynb-decision button.moneynb-spin")
    spin.wait_for(state="visible")
    spin.click()
    _wait_log(page, first["log"])
    after_spin = _state(view)
    assert "spun" in after_spin["text"], after_spin["text"][-300:]
    assert after_spin["spinner"], "the spinner shows no result"
    assert "choose where to land" in after_spin["prompt"], after_spin["prompt"]
    # 2. Click a legal landing space on the map. The notebook's game is seeded (seed 7), so
    # replaying it here gives the same spin and the same legal spaces; the click goes to the
    # space marker's position computed from the plot's own axes.
    g = moneynb.new_game("money_card", players=["You", "Greedy bot 1", "Greedy bot 2"], seed=7)
    g.apply("spin")
    dest = g.decision.options[0]
    sp = g.board.spaces[dest]
    settled_in_place(page)
    xy = view.evaluate(_PIXEL_JS, [sp["x"], sp["y"]])
    page.mouse.move(xy[0], xy[1])
    page.mouse.click(xy[0], xy[1])
    _wait_log(page, after_spin["log"])
    page.wait_for_function(
        "(name) => document.querySelector('.moneynb-view .moneynb-log-box').textContent"
        ".includes('You move ' + name[0] + ' to ' + name[1])",  # the view's second person
        arg=[len(g.ctx["paths"][dest]) - 1, g.board.name(dest)],
        timeout=patience(15_000),
    )
    end = _state(view)
    assert end["sum"] == end["start"] == first["start"], end
    # the map followed: all three planes are drawn (the bots moved after You)
    page.wait_for_function(
        "() => document.querySelector('.moneynb-view .js-plotly-plot').data.find(d => d.name === 'planes').x.length === 3",
        timeout=patience(15_000),
    )
    screenshot(page, "money_card_browser", element=view)
    print(f"\nMoney Card browser test: {time.perf_counter() - t0:.1f} s")
