"""A game comes into sight, and its "Last move" line shows its outcome (issue 38), in Voila at
1024x700.

* After the start form's Start, after a reload of the page (the form brings the game back)
  and after a new game's Start once a game was shown, every button of the game's decision and
  the whole board are inside the window, with no scrolling of the player's own (the view
  scrolls its row to the top once, when it first shows: ``bringOnShow`` in
  ``moneynb/ui/a11y.py``). Before: a new game's board was below the window ("the board
  282-882" at 700 px).
* After each of a few moves of Money Card (long lines: a country's card, the House's hand),
  the last of the move's log lines (its outcome) is wholly inside the "Last move" line's box.
  Before: one line cut with "..." ("...House card 19 against 20: G..."; here "Travel Agent
  paid $20 to G...").
"""

from __future__ import annotations

import pytest
from conftest import decision_button, launcher_form, patience, screenshot, wait_saved

pytestmark = pytest.mark.browser

GAME = ".moneynb-launch-game-box .moneynb-view"

#: the buttons of the game's decision and its board that are not wholly in the window (text
#: and top-bottom)
OUT_OF_SIGHT_JS = f"""() => {{
  const v = document.querySelector('{GAME}');
  const board = v.querySelector('.moneynb-board svg.main-svg');
  return [...v.querySelectorAll('.moneynb-decision button')]
    .filter(b => b.offsetParent)
    .map(b => [b.textContent.trim(), b.getBoundingClientRect()])
    .concat(board ? [['the board', board.getBoundingClientRect()]] : [])
    .filter(([t, r]) => r.top < -1 || r.bottom > innerHeight + 1)
    .map(([t, r]) => `${{t}} ${{Math.round(r.top)}}-${{Math.round(r.bottom)}}`);
}}"""

#: the move's last log line (its outcome): where its text is in the "Last move" line, and
#: whether all of it is inside that line's box (clipped text is outside it)
OUTCOME_JS = f"""() => {{
  const v = document.querySelector('{GAME}');
  const lines = [...v.querySelectorAll('.moneynb-log-line.moneynb-log-last')];
  const box = v.querySelector('.moneynb-header .moneynb-last-move');
  if (!lines.length || !box) return null;
  const outcome = lines[lines.length - 1].textContent.trim();
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  const all = nodes.map(n => n.data).join('');
  const at = all.lastIndexOf(outcome);
  if (at < 0) return {{outcome, shown: false, text: all}};
  const range = document.createRange();
  let seen = 0;
  for (const n of nodes) {{  // the outcome's first and last characters in their text nodes
    const end = seen + n.data.length;
    if (seen <= at && at < end) range.setStart(n, at - seen);
    if (seen < at + outcome.length && at + outcome.length <= end)
      range.setEnd(n, at + outcome.length - seen);
    seen = end;
  }}
  const b = box.getBoundingClientRect();
  const out = [...range.getClientRects()].filter(r => r.width > 0 && (
    r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1));
  return {{outcome, shown: true, clipped: out.length > 0, text: all}};
}}"""


def _start(page, game: str) -> None:
    form = launcher_form(page)
    form.locator(".moneynb-launch-game select").select_option(value=game)
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('.moneynb-launcher .moneynb-launch-game select')]"
        ".some(s => s.value === t)",
        arg=game,
        timeout=patience(30_000),
    )
    form.locator(".moneynb-launch-seed input").fill("7")
    page.evaluate(
        f"() => {{ const v = document.querySelector('{GAME}'); if (v) v.dataset.old = 1; }}"
    )
    form.locator("button.moneynb-launch-start").click()
    _shown(page)


def _shown(page) -> None:
    """The game's view drawn, its board too, and the person's decision served (the helper's
    ``data-focused``: the moment the view brings itself into sight)."""
    page.wait_for_function(
        f"""() => {{ const v = document.querySelector('{GAME}');
            return v && !v.dataset.old && v.querySelector('.js-plotly-plot .scatterlayer .trace')
              && v.querySelector('.moneynb-a11y[data-focused]')
              && v.querySelector('.moneynb-decision button:not([disabled])'); }}""",
        timeout=patience(120_000),
    )
    # two frames: the scroll and the fit of the board are done
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_the_game_comes_into_sight_and_its_last_move_shows_the_outcome(voila_server, page):
    base, _root = voila_server
    problems: dict[str, object] = {}
    page.set_viewport_size({"width": 1024, "height": 700})
    try:
        page.goto(f"{base}/voila/render/start_here.ipynb", timeout=patience(240_000))
        _start(page, "Money Card")
        if out := page.evaluate(OUT_OF_SIGHT_JS):
            problems["after Start"] = out
        view = page.locator(GAME)
        for move in range(6):  # the outcome of each move in its "Last move" line
            button = decision_button(view, ("moneynb-roll", ""), skip=("Back", "Cancel", "Undo.*"))
            if button is None:
                break
            n = int(view.locator(".moneynb-log-box").get_attribute("data-count"))
            button.click()
            page.wait_for_function(
                f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box')"
                f".dataset.count) > n && document.querySelector('{GAME} .moneynb-last-move')",
                arg=n,
                timeout=patience(30_000),
            )
            seen = page.evaluate(OUTCOME_JS)
            if seen and (not seen["shown"] or seen["clipped"]):
                problems[f"move {move + 1}"] = seen
        wait_saved(page, GAME)  # the moves are in the store: the reload brings them back
        page.reload(timeout=patience(240_000))
        launcher_form(page)
        _shown(page)
        if out := page.evaluate(OUT_OF_SIGHT_JS):
            problems["after a reload"] = out
        _start(page, "Money Run")  # a new game's Start, a game shown in the form's box
        if out := page.evaluate(OUT_OF_SIGHT_JS):
            problems["after a new game's Start"] = out
        assert not problems, problems
    except BaseException:
        screenshot(page, "in-sight-failure")
        raise
