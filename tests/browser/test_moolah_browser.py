"""Moolah in a real browser: JupyterLab + headless Chromium (see conftest.py).

Opens ``notebooks/moolah.ipynb``, runs it, and plays by clicking: the first withdrawal (amount
panel), then Roll at least three times, answering every other panel on the way (the Bank,
Wall Street, Black Jack, Take A Pal, Option Points and Moolah jumps — those by clicking the
highlighted space on the plotly board when one is offered). Checks in the page that the log
grew, the tokens moved, the money table still sums to the starting total and the score pad
shows every player. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import time

import pytest
from conftest import _kernel_idle, painted, patience, screenshot, settled_in_place
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

VIEW = ".moneynb-view >> nth=0"

_STATE_JS = """(view) => {
    const box = view.querySelector('.moneynb-log-box');
    const table = view.querySelector('.moneynb-money-table');
    const cells = [...view.querySelectorAll('.moneynb-money-table .moneynb-dollars')];
    // the board figure, and the backdrop under it (track, labels, spaces)
    const [gd, back] = view.querySelectorAll('.js-plotly-plot');
    const pts = (name) => {
        const fig = [gd, back].find(f => f && f.data && f.data.some(d => d.name === name));
        const t = fig ? fig.data.find(d => d.name === name) : null;
        return t ? [...fig.querySelectorAll(`.trace${t.uid} path.point`)] : [];
    };
    const tokens = pts('tokens');
    const targets = pts('targets').length;
    return {
        log: box ? Number(box.dataset.count) : -1,
        start: table ? Number(table.dataset.startTotal) : null,
        sum: cells.reduce((s, c) => s + Number(c.dataset.dollars), 0),
        over: /Game over/.test(view.querySelector('.moneynb-header').textContent),
        tokens: tokens.map(p => p.getAttribute('transform')),
        targets: targets,
        pad: view.querySelectorAll('.moneynb-pad-table tr[data-seat]').length,
        spaces: pts('spaces').length,
    };
}"""

#: controls to press, most preferred first (a quick, safe way through every panel)
PREFERENCE = (
    ".moneynb-roll",
    ".moneynb-bank-done",
    ".moneynb-stock-pass",
    ".moneynb-option-pass",
    ".moneynb-bj-stay",
    ".moneynb-pal-nobody",
    ".moneynb-submit",
    ".moneynb-target",
    ".moneynb-option",
    ".moneynb-player",
)


_RUN_JS = """() => {
    // execution counts of the code cells, read from the notebook MODEL (JupyterLab renders
    // only the cells in view, so prompts in the page are not a reliable signal)
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    if (!w || !w.content || !w.content.model) return null;
    const cells = w.content.model.cells, out = [];
    let errors = [];
    for (let i = 0; i < cells.length; i++) {
        const c = cells.get(i);
        if (c.type !== 'code') continue;
        out.push(c.executionCount);
        const outs = c.outputs ? c.outputs.toJSON() : [];
        errors = errors.concat(outs.filter(o => o.output_type === 'error').map(o => o.ename + ': ' + o.evalue));
    }
    const kernel = w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
    return {counts: out, errors: errors, status: kernel ? kernel.status : null};
}"""


_RUN_NEWS_JS = (
    "(sent) => { const st = (" + _RUN_JS + ")(); if (!st) return true;"
    " if (st.errors.length) return true;"
    " const idle = st.status === 'idle';"
    " if (st.counts.length && st.counts.every(c => c !== null) && idle) return true;"
    " return st.counts.every(c => c === null) && idle && Date.now() - sent > 10000; }"
)


def open_and_run_model(page, lab_server, notebook: str, timeout_s: float = 240) -> None:
    """Open ``notebook``, run all cells and wait until the notebook model shows every code
    cell executed and the kernel idle (Run All is sent again if it was dropped)."""
    base, _root = lab_server
    page.goto(f"{base}/lab/tree/{notebook}?reset")
    page.wait_for_selector(
        ".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=patience(timeout_s * 1000)
    )
    _kernel_idle(page, patience(timeout_s * 1000))
    deadline = time.monotonic() + patience(timeout_s * 1000) / 1000
    sent = page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells');"
                         " return Date.now(); }")  # fmt: skip
    while True:
        # wait until the run is done, a cell raised, or Run All looks dropped (nothing ran
        # 10 s after it was sent, the kernel idle)
        try:
            page.wait_for_function(
                _RUN_NEWS_JS,
                arg=sent,
                timeout=max(1, int((deadline - time.monotonic()) * 1000)),
            )
        except PlaywrightTimeout:
            pass
        st = page.evaluate(_RUN_JS)
        assert st is not None, "no notebook open"
        assert not st["errors"], f"a cell raised: {st['errors']}"
        counts = st["counts"]
        if counts and all(c is not None for c in counts) and st["status"] == "idle":
            return
        assert time.monotonic() < deadline, f"the notebook did not finish running: {st}"
        if all(c is None for c in counts) and st["status"] == "idle":
            sent = page.evaluate(
                "() => { window.jupyterapp.commands.execute('notebook:run-all-cells');"
                " return Date.now(); }"
            )


def _state(view):
    return view.evaluate(_STATE_JS)


def _next_button(view):
    for css in PREFERENCE:
        b = view.locator(f".moneynb-decision button{css}:not([disabled])")
        if b.count():
            return b.first, css
    return None, None


def _wait_log(page, before):
    page.wait_for_function(
        "([sel, n]) => Number(document.querySelector(sel).dataset.count) > n",
        arg=[".moneynb-view .moneynb-log-box", before],
        timeout=patience(15_000),
    )


_SETTLED_JS = """() => {
    // the panel in the page belongs to the decision the header names (widget messages for
    // the header, the panel and the board can arrive in any order on a busy machine)
    const v = document.querySelector('.moneynb-view');
    const head = v.querySelector('.moneynb-turn').textContent;
    if (/Game over/.test(v.querySelector('.moneynb-header').textContent)) return true;
    const i = head.indexOf('must decide: ');
    if (i < 0) return false;
    const want = head.slice(i + 'must decide: '.length).trim();
    const prompt = v.querySelector('.moneynb-decision .moneynb-prompt').textContent;
    return prompt.trim().endsWith(want) && v.querySelector('.moneynb-decision button:not([disabled])');
}"""


def _settle(page):
    page.wait_for_function(_SETTLED_JS, timeout=patience(15_000))
    # the board's own update has arrived too: the kernel is idle (it sent every message of
    # the move before it said so), plotly has drawn it, and the page painted it
    _kernel_idle(page, patience(15_000))
    page.wait_for_function(
        "() => [...document.querySelectorAll('.moneynb-view .js-plotly-plot')].every(gd =>"
        " gd._fullLayout && !gd._transitioning && !(gd._promises && gd._promises.length))",
        timeout=patience(10_000),
    )
    painted(page)


def test_moolah_plays_in_jupyterlab(lab_server, page):
    try:
        _play(lab_server, page)
    except BaseException:
        screenshot(page, "moolah_browser-failure")
        raise


def _play(lab_server, page):
    t0 = time.perf_counter()
    open_and_run_model(page, lab_server, "notebooks/moolah.ipynb")
    view = page.locator(VIEW)
    view.wait_for(state="visible")
    view.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => { const gd = document.querySelector('.moneynb-view .js-plotly-plot');"
        " return gd && gd.data && gd.data.length === 3; }",
        timeout=patience(60_000),  # plotly.js is loaded and run first: slow on a busy machine
    )
    # the fixed board is drawn in the static backdrop under the figure: track, labels, spaces
    page.wait_for_function(
        "() => { const b = document.querySelector('.moneynb-view .moneynb-board-backdrop "
        ".js-plotly-plot'); return b && b.data && b.data.length === 4 && "
        "[...b.querySelectorAll('.scatterlayer text')].some(t => t.textContent === 'BANK'); }",
        timeout=patience(60_000),
    )
    first = _state(view)
    assert first["spaces"] == 51, first  # every space of board.toml is a marker
    assert first["pad"] == 3, first
    assert first["sum"] == first["start"], first
    # the first withdrawal: type $50,000 into the amount box and submit
    box = view.locator(".moneynb-decision .moneynb-amount-text input")
    box.fill("50000")
    box.press("Enter")
    before = _state(view)["log"]
    view.locator(".moneynb-decision button.moneynb-submit").first.click()
    _wait_log(page, before)
    rolls, clicks, board_clicks = 0, 0, 0
    moved = False
    while (rolls < 3 or clicks < 4) and clicks < 40:
        now = _state(view)
        if now["over"]:
            break
        _settle(page)
        now = _state(view)
        if now["targets"]:  # a space decision: click the highlighted target on the board
            uid = view.evaluate(
                "v => v.querySelector('.js-plotly-plot').data.find(d => d.name === 'targets').uid"
            )
            settled_in_place(page)
            bb = view.locator(f".js-plotly-plot .trace{uid} path.point").first.bounding_box()
            page.mouse.click(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
            try:
                _wait_log(page, now["log"])
                board_clicks += 1
                clicks += 1
                continue
            except Exception:  # a click that missed the marker: fall back to the buttons
                pass
        button, css = _next_button(view)
        assert button is not None, f"no enabled control in the decision panel: {now}"
        button.click()
        _wait_log(page, now["log"])
        clicks += 1
        rolls += css == ".moneynb-roll"
        after = _state(view)
        assert after["sum"] == after["start"] == first["start"], after
        moved = moved or after["tokens"] != first["tokens"]
    end = _state(view)
    assert rolls >= 3 or end["over"], f"only {rolls} Roll clicks"
    assert end["log"] > first["log"]
    assert moved, (
        "the log and panels advanced but no token moved in the plotly board in the page: the "
        "figure's updates after it was shown did not reach the browser"
    )
    screenshot(page, "moolah_browser", element=view)
    print(f"\n{clicks} clicks ({rolls} Rolls, {board_clicks} on the board); "
          f"test {time.perf_counter() - t0:.1f} s")  # fmt: skip
