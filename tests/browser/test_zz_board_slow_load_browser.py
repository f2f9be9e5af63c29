"""The board figure keeps updating when its page-side code loads slowly (a busy machine).

anywidget (0.11) drops every state update of a widget whose code has not started within two
seconds; plotly's widget module is 5 MB. Before ``BoardFigure`` loaded plotly behind a small
loader, a slow load froze the board as first drawn (and a plain ``FigureWidget`` stayed empty).
Here the page is made slow on purpose: plotly's module, served as a static file (issue 41:
``moneynb.ui.static``), waits 3 s before it runs (and so does every JavaScript module over
1 MB created from a Blob: the code sent by the kernel when the file is missing). The board
must draw, show a change made while it was loading, and follow every later click. The cell
holds a plain figure of its own (no game: a class histogram's case, issue 41 case 3) and a
bar chart beside it, which must draw too.

Runs last (``zz``) and closes its tabs: a probe tab restored by Lab confuses the next test.
"""

from __future__ import annotations

import pytest
from conftest import open_and_run, patience, screenshot, write_probe_notebook

pytestmark = pytest.mark.browser

DELAY_MS = 3000

SLOW_BIG_MODULES = """(() => {
    const orig = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (b) =>
        (b instanceof Blob && b.size > 1000000 && /javascript/.test(b.type))
            ? orig(new Blob(["await new Promise(r => setTimeout(r, DELAY));\\n", b], {type: b.type}))
            : orig(b);
})()""".replace("DELAY", str(DELAY_MS))

CELL = """\
import ipywidgets as W
import plotly.graph_objects as go
from moneynb.ui.boards.base import BoardFigure

fig = BoardFigure(data=[go.Scatter(x=[0, 1, 2], y=[0, 1, 2], mode="markers")],
                  layout=dict(height=300, margin=dict(l=30, r=10, t=10, b=30)))
fig.release()
bars = BoardFigure(data=[go.Bar(x=["a", "b", "c"], y=[3, 1, 2])],
                   layout=dict(height=200, margin=dict(l=30, r=10, t=10, b=30)))
clicks = [0]

def step(_):
    clicks[0] += 1
    with fig.batch_update():
        fig.data[0].y = [clicks[0], 10, 0]
    count.value = str(clicks[0])

go_button = W.Button(description="step")
go_button.add_class("probe-step")
go_button.on_click(step)
count = W.Label("0")
count.add_class("probe-count")
box = W.VBox([W.Box([fig]), bars, go_button, count])
box.add_class("probe-box")
box
"""

POINT_YS = """() => [...document.querySelectorAll(
    '.probe-box .js-plotly-plot .scatterlayer .trace path.point')]
    .map(e => Number(/translate\\(([^,]+),([^)]+)\\)/.exec(e.getAttribute('transform'))[2]))"""


def _click_and_wait_count(page, n):
    page.locator("button.probe-step").click()
    page.wait_for_function(
        "(n) => document.querySelector('.probe-count').textContent.trim() === String(n)", arg=n
    )


def _slow_static_file(route):
    """plotly's static module, made to wait DELAY_MS before it runs (top-level await)."""
    response = route.fetch()
    route.fulfill(
        response=response,
        body=f"await new Promise(r => setTimeout(r, {DELAY_MS}));\n" + response.text(),
    )


def test_board_updates_after_a_slow_plotly_load(lab_server, page):
    _base, root = lab_server
    write_probe_notebook(root / "notebooks" / "_slow_board_probe.ipynb", CELL)
    page.add_init_script(SLOW_BIG_MODULES)
    served = []
    page.route("**/moneynb/static/*.js?v=*", lambda route: (served.append(route.request.url),
                                                        _slow_static_file(route)))  # fmt: skip
    try:
        open_and_run(page, lab_server, "notebooks/_slow_board_probe.ipynb")
        # a change made while plotly is still loading must be what is drawn
        _click_and_wait_count(page, 1)
        page.wait_for_function(f"() => ({POINT_YS})().length === 3", timeout=patience(60_000))
        ys = page.evaluate(POINT_YS)
        # pixel y grows downwards: y=[1, 10, 0] puts point 1 on top, point 2 at the bottom
        assert ys[1] < ys[0] < ys[2], ys
        for n in (2, 3, 4):
            before = page.evaluate(POINT_YS)
            _click_and_wait_count(page, n)
            page.wait_for_function(
                f"(b) => JSON.stringify(({POINT_YS})()) !== JSON.stringify(b)",
                arg=before,
                timeout=patience(15_000),
            )
        ys = page.evaluate(POINT_YS)
        assert ys[1] < ys[0] < ys[2], ys
        # y=[4, 10, 0]: point 0 is 40% of the way up from point 2 to point 1
        frac = (ys[2] - ys[0]) / (ys[2] - ys[1])
        assert abs(frac - 0.4) < 0.02, (ys, frac)
        # the bar chart drew its three bars; plotly's code came once, as the static file
        page.wait_for_function(
            "() => document.querySelectorAll('.probe-box .barlayer .point path').length === 3",
            timeout=patience(30_000),
        )
        assert len(served) == 1 and "/lab/extensions/moneynb/static/plotly-" in served[0], served
    except BaseException:
        screenshot(page, "board_slow_load-failure")
        raise
    finally:
        # leave no open probe tab for Lab to restore in a later test's page (named zz_ to run
        # last: a restored probe tab made the next test's notebook wait fail)
        page.evaluate("window.jupyterapp.commands.execute('application:close-all')")
