"""A board changed many times before the page has loaded plotly's code is drawn whole
(issue 38: a cell that shows a view and then plays on).

The changes that arrive before plotly's code runs are kept and replayed (moneynb/ui/boards/
base.py, ``_LOADER_ESM``); a view drawn from them missed most of the board (Easy Money: 9 of 57
points after 23 early changes) until the frozen-board watch drew it again 2.4 s later. The
loader now asks for the full state as soon as plotly's code runs after early changes. This
test turns the watch off (``__moneynbTestNoWatch``), so only that path can draw the board:
it fails without it (the drawn points stay 9 of 57)."""

from __future__ import annotations

import pytest
from conftest import open_and_run, patience, screenshot, write_probe_notebook

pytestmark = pytest.mark.browser

CELL = """
import moneynb
from moneynb.bots import make_bot
v = moneynb.play("easy_money", players=["Ann", "bot:greedy"], seed=5, autosave=False)
v.add_class("probe-early")
display(v)
bot = make_bot("greedy", seed=1)
for _ in range(23):  # played at once, before the page has plotly's code
    d = v.game.decision
    if d is None or not v.is_human(d.player):
        break
    v.submit(bot.choose(v.game))
"""

#: markers drawn in the board's SVG and markers in its data, per trace: ``{drawn, data}``
DRAWN_JS = """() => {
  const gd = document.querySelector('.probe-early .js-plotly-plot');
  if (!gd || !Array.isArray(gd.data)) return null;
  const data = gd.data.reduce((n, t) =>
    n + ((t.mode || '').includes('markers') && t.x ? Array.from(t.x).length : 0), 0);
  return {drawn: gd.querySelectorAll('.scatterlayer .point').length, data,
          why: globalThis.__moneynbResyncWhy ?? []};
}"""


def test_a_board_changed_before_plotly_loaded_is_drawn_whole(lab_server, page):
    _base, root = lab_server
    page.add_init_script("globalThis.__moneynbTestNoWatch = true")
    write_probe_notebook(root / "notebooks" / "_early_board_probe.ipynb", CELL)
    page.set_viewport_size({"width": 1024, "height": 700})
    try:
        open_and_run(page, lab_server, "notebooks/_early_board_probe.ipynb", timeout_s=120)
        page.wait_for_function(
            f"() => {{ const c = ({DRAWN_JS})(); return c && c.data > 20 && c.drawn === c.data; }}",
            timeout=patience(60_000),
        )
    except BaseException:
        screenshot(page, "early-board-failure")
        print("drawn vs data:", page.evaluate(DRAWN_JS))
        raise
    finally:
        print("drawn vs data:", page.evaluate(DRAWN_JS))
        page.evaluate("window.jupyterapp.commands.execute('application:close-all')")
