"""In JupyterLab a game comes into sight after its cell runs, after a reload and after a new
game from the cell run again (issue 38, the tester's F5), at 1024x700 with the file browser
open (Lab's default), in all five games.

As a newcomer does: the game's notebook opened, its first cell selected, Shift+Enter pressed
down to and through the game's cell (Lab then selects the next cell and scrolls to it). Then
every button of the game's decision, its "Last move" line (when it shows one) and the whole
board are inside the part of the window the notebook shows. The same after the notebook is
saved and the page reloaded (Lab opens it at its top), and after the game's cell is run again
in place (Ctrl+Enter in its editor: a new game). ``bringOnShow`` and ``keepInSight`` in
``moneynb/ui/a11y.py``. Before: after Shift+Enter the view's header above the window (the
tester: y = -1037), after a reload the game 1-2 screens down.
"""

from __future__ import annotations

import json

import pytest
from conftest import _kernel_idle, patience, screenshot

pytestmark = pytest.mark.browser

GAMES = ("moolah", "easy_money", "money_card", "money_moves", "money_run")
CELL = ".jp-Notebook .jp-CodeCell.moneynb-game-cell"
VIEW = f"{CELL} .moneynb-view"

#: the decision's buttons, the "Last move" line and the board of the game's view that are not
#: wholly in the part of the window the notebook shows (text and top-bottom)
OUT_OF_SIGHT_JS = f"""() => {{
  const v = document.querySelector('{VIEW}');
  if (!v) return ['no view'];
  let top = 0, bottom = innerHeight;
  for (let p = v.parentElement; p; p = p.parentElement) {{
    if (p.scrollHeight > p.clientHeight && /auto|scroll/.test(getComputedStyle(p).overflowY)) {{
      const q = p.getBoundingClientRect();
      top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom);
    }}
  }}
  const last = v.querySelector('.moneynb-header .moneynb-last-move');
  const board = v.querySelector('.moneynb-board svg.main-svg');
  return [...v.querySelectorAll('.moneynb-decision button')]
    .filter(b => b.offsetParent)
    .map(b => [b.textContent.trim(), b.getBoundingClientRect()])
    .concat(board ? [['the board', board.getBoundingClientRect()]] : [['no board', null]])
    .concat(last && last.offsetParent ? [['Last move', last.getBoundingClientRect()]] : [])
    .filter(([t, r]) => !r || r.top < top - 1 || r.bottom > bottom + 1)
    .map(([t, r]) => r ? `${{t}} ${{Math.round(r.top)}}-${{Math.round(r.bottom)}}` : t)
    .concat([`(seen ${{Math.round(top)}}-${{Math.round(bottom)}}; kept: ${{v.dataset.moneynbKept}};`
             + ` user: ${{JSON.stringify(window.__moneynbUser)}}; now ${{performance.now()}};`
             + ` focus: ${{document.activeElement?.className}})`]);
}}"""

#: the game's view shown, its board drawn, its decision served (``data-focused``) and left to
#: the player (``data-moneynb-kept`` absent, or "done": the view no longer keeps itself in
#: sight), the kernel idle
SHOWN_JS = f"""() => {{
  const v = document.querySelector('{VIEW}');
  const ind = document.querySelector('.jp-NotebookPanel .jp-Notebook-ExecutionIndicator');
  return !!v && !v.dataset.old && !!v.querySelector('.js-plotly-plot .scatterlayer .trace')
    && !!v.querySelector('.moneynb-a11y[data-focused]')
    && !!v.querySelector('.moneynb-decision button:not([disabled])')
    && (v.dataset.moneynbKept || 'done') === 'done'
    && !!ind && ind.getAttribute('data-status') === 'idle'
    && ![...document.querySelectorAll('.jp-Notebook .jp-InputPrompt')]
         .some(p => p.textContent.includes('*'));
}}"""


def _game_cell(root, game: str) -> int:
    """The index of the notebook's cell that shows a game (``moneynb.play(``)."""
    nb = json.loads((root / "notebooks" / f"{game}.ipynb").read_text())
    return next(
        i
        for i, c in enumerate(nb["cells"])
        if c["cell_type"] == "code" and "moneynb.play(" in "".join(c["source"])
    )


def _mark_cell(page, index: int) -> None:
    page.wait_for_function(
        "(i) => document.querySelectorAll('.jp-Notebook .jp-Cell').length > i",
        arg=index,
        timeout=patience(60_000),
    )
    page.evaluate(
        "(i) => document.querySelectorAll('.jp-Notebook .jp-Cell')[i]"
        ".classList.add('moneynb-game-cell')",
        index,
    )


def _shown(page) -> None:
    page.wait_for_function(SHOWN_JS, timeout=patience(180_000))
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _file_browser_open(page) -> None:
    page.evaluate(
        """() => { const app = window.jupyterapp;
            if (app.shell.leftCollapsed) return app.commands.execute('filebrowser:activate'); }"""
    )
    page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed")


def _open(page, base: str, game: str, index: int) -> None:
    page.goto(f"{base}/lab/tree/notebooks/{game}.ipynb?reset")
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=patience(60_000))
    _kernel_idle(page, patience(60_000))  # a run asked before the kernel is there is lost
    _file_browser_open(page)
    _mark_cell(page, index)


@pytest.mark.parametrize("game", GAMES)
def test_the_game_comes_into_sight_in_lab(lab_server, page, game):
    base, root = lab_server
    index = _game_cell(root, game)
    problems: dict[str, object] = {}
    page.set_viewport_size({"width": 1024, "height": 700})
    try:
        _open(page, base, game, index)
        # the first cell selected (command mode), then Shift+Enter down through the game's
        page.locator(".jp-Notebook .jp-Cell").first.locator(".jp-InputPrompt").click()
        for _ in range(index + 1):
            page.keyboard.press("Shift+Enter")
        _shown(page)
        if (out := page.evaluate(OUT_OF_SIGHT_JS)) and len(out) > 1:
            problems["after Shift+Enter"] = out
        # saved and reloaded: Lab opens the notebook at its top
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_function(
            "() => !document.querySelector('.jp-mod-dirty')", timeout=patience(30_000)
        )
        page.reload()
        page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=patience(60_000))
        _file_browser_open(page)
        _mark_cell(page, index)
        _shown(page)
        if (out := page.evaluate(OUT_OF_SIGHT_JS)) and len(out) > 1:
            problems["after a reload"] = out
        # a new game: the game's cell run again in place (its editor, Ctrl+Enter)
        page.evaluate(f"() => {{ document.querySelector('{VIEW}').dataset.old = 1; }}")
        page.locator(f"{CELL} .jp-InputArea-editor").click()
        page.keyboard.press("Control+Enter")
        _shown(page)
        if (out := page.evaluate(OUT_OF_SIGHT_JS)) and len(out) > 1:
            problems["after the cell run again"] = out
        assert not problems, problems
    except BaseException:
        screenshot(page, f"in-sight-lab-{game}-failure")
        raise


#: a notebook whose game shows only once the test says so: its first cell waits for a file
#: (the kernel polls for it and removes it), so the user acts in between
WAIT_PROBE = {
    "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "import pathlib, time\nflag = pathlib.Path({flag!r})\n"
                   "while not flag.exists():\n    time.sleep(0.05)\nflag.unlink()"},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": 'import moneynb\nmoneynb.play("moolah", players=["You", "bot:greedy"], '
                   "seed=7, autosave=False)"},
        {"cell_type": "markdown", "metadata": {}, "source": "Some words\n\n" * 30},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "x = 1"},
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}  # fmt: skip


def test_the_game_does_not_yank_a_user_who_types_or_scrolls(lab_server, page):
    """The game's cell run (Shift+Enter), then before the game shows the user types in
    another cell (round 1) or scrolls the notebook with the wheel (round 2): the view does not
    bring itself into sight (no ``data-moneynb-kept``), the typing cell keeps the focus."""
    base, root = lab_server
    flag = root / "notebooks" / "_in_sight_flag"
    nb = json.loads(json.dumps(WAIT_PROBE))
    nb["cells"][0]["source"] = nb["cells"][0]["source"].replace("{flag!r}", repr(str(flag)))
    (root / "notebooks" / "_in_sight_wait.ipynb").write_text(json.dumps(nb))
    page.set_viewport_size({"width": 1024, "height": 700})
    problems: dict[str, object] = {}
    try:
        _open(page, base, "_in_sight_wait", 1)
        for round_ in ("typing", "scrolling"):
            old = page.locator(VIEW).count()
            if old:
                page.evaluate(f"() => {{ document.querySelector('{VIEW}').dataset.old = 1; }}")
            page.locator(".jp-Notebook .jp-Cell").first.locator(".jp-InputPrompt").click()
            page.keyboard.press("Shift+Enter")
            page.keyboard.press("Shift+Enter")  # the game's cell waits behind the first
            editor = page.locator(".jp-Notebook .jp-Cell").nth(3).locator(".cm-content")
            if round_ == "typing":
                editor.click()
                page.keyboard.type(" + 1")
            else:
                page.mouse.move(650, 400)  # over the notebook (right of the file browser)
                page.mouse.wheel(0, 300)
            flag.write_text("go")
            _shown(page)
            seen = page.evaluate(
                f"""() => {{ const v = document.querySelector('{VIEW}');
                    const cell = document.querySelectorAll('.jp-Notebook .jp-Cell')[3];
                    return {{kept: v.dataset.moneynbKept || null,
                             focusInCell: cell.contains(document.activeElement)}}; }}"""
            )
            if seen["kept"] or (round_ == "typing" and not seen["focusInCell"]):
                problems[round_] = seen
        assert not problems, problems
    except BaseException:
        screenshot(page, "in-sight-lab-no-yank-failure")
        raise
