"""A JupyterLab reload brings back every widget view when the page's thread was busy while the
kernel restore ran (issue 41 case 1: under load, every widget output of a game notebook read
"Error displaying widget: model not found" after a reload, although the kernel had answered
ipywidgets' ``request_states`` and the page's manager then held every model).

The cause is a race in ipywidgets 8.1's page code: a view's ``get_model`` looks for its model
every 100 ms for 2 s and does not look again after its last sleep; a sleep that began before
the restore's long run on the page's thread ends after it, past the 2 s, so the view gives up
although its model now exists, and writes "model not found" for good since the manager then
reads "restored". Load is not waited for: the page's ``setTimeout`` is wrapped (an init
script) so that ``get_model``'s sleeps are held until the manager is restored and 2.1 s have
passed, which is what a thread busy with the restore does to them, deterministically. Without
the mend (``moneynb.ui.saves.LAB_WIDGET_MEND_JS``, carried by the note under each game) every
view reads "model not found"; with it, every view draws.
"""

from __future__ import annotations

import contextlib

import pytest
from conftest import WIDGET_NOT_FOUND, open_and_run, patience, screenshot

pytestmark = pytest.mark.browser

PROBE = "notebooks/_lab_mend_probe.ipynb"
VIEWS = 2  # widget outputs in the probe notebook (like a game notebook's form and game)

#: Held ``get_model`` sleeps (see the module docstring). The manager is found through an
#: output's WidgetRenderer (its ``_manager`` promise; the test server exposes ``jupyterapp``);
#: its private ``_restoredStatus`` is read, not the getter the mend wraps.
HOLD_JS = """(() => {
  const orig = window.setTimeout, held = [];
  const hold = window.moneynbHold = {held: 0, released: false, manager: null};
  function restored() {
    try {
      const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
      const seen = new Set(); let r = null;
      const walk = (w) => { if (!w || seen.has(w) || r) return; seen.add(w);
        if ('_rerenderMimeModel' in w && w._manager) { r = w; return; }
        for (const c of (w.widgets || [])) walk(c);
        if (w.layout && w.layout.widgets) for (const c of w.layout.widgets) walk(c); };
      walk(nb && nb.content);
      if (r && !hold.manager) r._manager.promise.then(m => { hold.manager = m; });
      return !!(hold.manager && hold.manager._restoredStatus);
    } catch (e) { return false; }
  }
  function check() {
    if (restored() && held.every(h => Date.now() - h.at > 2100)) {
      hold.released = true;
      held.splice(0).forEach(h => h.run());
      return;
    }
    orig(check, 100);
  }
  window.setTimeout = function (fn, ms, ...rest) {
    if (!hold.released && ms === 100 && /get_model/.test(new Error().stack)) {
      held.push({run: () => fn(...rest), at: Date.now()});
      hold.held += 1;
      if (held.length === 1) orig(check, 100);
      return 0;
    }
    return orig.call(this, fn, ms, ...rest);
  };
})();"""

PROBE_CELL = """\
import ipywidgets as w
from IPython.display import HTML, display
from moneynb.ui.saves import fallback_html
for k in range(2):
    box = w.VBox([w.Button(description=f"probe {k}.{i}") for i in range(5)])
    box.add_class("moneynb-probe")
    display(box)
    display(HTML(fallback_html("game")))
"""


def _probe_notebook(path) -> None:
    """Two widget views, each with the note (and its scripts) under it, as a game shows."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    nb = new_notebook(cells=[new_code_cell(PROBE_CELL)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}  # fmt: skip
    nbformat.write(nb, str(path))


def test_a_lab_reload_whose_views_waited_past_the_restore_draws_every_view(lab_server, page):
    base, root = lab_server
    _probe_notebook(root / PROBE)
    probe = page.locator(".jp-Notebook .moneynb-probe")
    try:
        open_and_run(page, lab_server, PROBE, timeout_s=120)
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-Notebook .moneynb-probe').length === n",
            arg=VIEWS,
            timeout=patience(60_000),
        )
        page.keyboard.press("Control+s")  # the outputs must be saved to come back
        page.wait_for_function(
            "() => !document.querySelector('.jp-mod-dirty')", timeout=patience(30_000)
        )
        page.add_init_script(HOLD_JS)
        page.reload()
        page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=patience(120_000))
        # every view drawn, or one gave up (the bug): whichever comes first
        page.wait_for_function(
            """([n, missing]) => document.querySelectorAll('.jp-Notebook .moneynb-probe').length === n
               || [...document.querySelectorAll('.jp-OutputArea-output')]
                    .some(o => o.textContent.trim() === missing)""",
            arg=[VIEWS, WIDGET_NOT_FOUND],
            timeout=patience(180_000),
        )
        hold = page.evaluate(
            "() => ({held: moneynbHold.held, released: moneynbHold.released,"
            " mend: window.moneynbWidgetMend || null})"
        )
        # the slow path really ran: views' sleeps were held until the restore was done
        assert hold["held"] >= VIEWS and hold["released"], hold
        missing = page.evaluate(
            "(t) => [...document.querySelectorAll('.jp-OutputArea-output')]"
            ".filter(o => o.textContent.trim() === t).length",
            WIDGET_NOT_FOUND,
        )
        assert missing == 0, f"{missing} views read 'model not found' after the reload ({hold})"
        assert probe.count() == VIEWS
        assert hold["mend"] and hold["mend"]["rounds"] >= 1, hold
        # nothing for the stall watch to say
        assert page.locator("#moneynb-stall").count() == 0
    except BaseException:
        screenshot(page, "lab-reload-mend-failure")
        raise
    finally:
        with contextlib.suppress(Exception):
            page.evaluate("window.jupyterapp.commands.execute('application:close-all')")
