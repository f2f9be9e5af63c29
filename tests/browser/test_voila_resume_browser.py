"""The Voila app loses no game and ignores a double-click (issue 18, cases 2 and 3).

Money Moves as an app: Start from the form (seed 5), DOUBLE-click Roll and check from the
autosave that exactly one of the person's decisions was answered, Roll once more, then reload
the page: the app runs the notebook in a new kernel, and the form must bring back the same
game (same log, same board points and labels) with a note saying so.
"""

from __future__ import annotations

import time

import pytest
from conftest import screenshot
from test_reload_browser import COUNT_JS, _newest_save, person_decisions

pytestmark = pytest.mark.browser

GAME = ".moneynb-launch-game-box .moneynb-view"


def _log(view) -> int:
    return view.evaluate(COUNT_JS)["log"]


def _wait_log_above(page, n: int) -> None:
    page.wait_for_function(
        f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box').dataset.count) > n",
        arg=n,
        timeout=20_000,
    )


def _wait_board(page) -> None:
    page.wait_for_function(
        f"() => document.querySelector('{GAME} .js-plotly-plot .scatterlayer .trace')",
        timeout=60_000,
    )


def test_voila_double_click_and_reload_keep_the_game(voila_server, page):
    base, root = voila_server
    try:
        page.goto(f"{base}/voila/render/money_moves.ipynb", timeout=240_000)
        form = page.locator(".moneynb-launcher")
        form.wait_for(state="visible", timeout=240_000)
        seed = form.locator(".moneynb-launch-seed input")
        seed.fill("5")
        seed.press("Enter")
        form.locator("button.moneynb-launch-start").click()
        view = page.locator(GAME)
        view.wait_for(state="visible", timeout=60_000)
        _wait_board(page)
        time.sleep(0.5)
        before = person_decisions(_newest_save(root, "money_moves"))
        n = _log(view)
        view.locator(".moneynb-decision button.moneynb-roll").first.dblclick()
        _wait_log_above(page, n)
        time.sleep(1.5)  # the second click's message reaches the kernel and is handled
        save = _newest_save(root, "money_moves")
        assert person_decisions(save) == before + 1, "a double-click answered two decisions"
        assert view.locator(".moneynb-error").inner_text().strip() == ""
        n = _log(view)
        view.locator(".moneynb-decision button:not([disabled])").first.click()
        _wait_log_above(page, n)
        time.sleep(1.0)
        played = view.evaluate(COUNT_JS)
        page.reload(timeout=240_000)
        view = page.locator(GAME)
        view.wait_for(state="visible", timeout=240_000)
        _wait_board(page)
        restored = page.locator(".moneynb-launch-restored")
        assert "Welcome back" in restored.inner_text()
        page.wait_for_function(
            f"(b) => {{ const n = ({COUNT_JS})(document.querySelector('{GAME}'));"
            " return n.points === b.points && n.labels === b.labels; }",
            arg=played,
            timeout=20_000,
        )
        back = view.evaluate(COUNT_JS)
        assert back["log"] == played["log"], (played, back)
        assert (back["points"], back["labels"]) == (played["points"], played["labels"])
    except BaseException:
        screenshot(page, "voila_resume-failure")
        raise
