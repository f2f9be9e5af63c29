"""Every visitor's games are their own (issue 25, case 1).

One Voila server, two visitors (two Chromium contexts: two browsers with their own
``localStorage``). Before the store, the second visitor was greeted "Welcome back" with the
first visitor's game. Now each browser is an owner (a random id it keeps): the second visitor
sees no game and no offer of the first's, and the first, reloading, gets their own game back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CHROMIUM_ARGS, launcher_form, patience, press_start, screenshot, voila_shows
from test_reload_browser import COUNT_JS, _main_button

pytestmark = pytest.mark.browser

GAME = ".moneynb-launch-game-box .moneynb-view"


def _open_app(page, base: str):
    page.goto(f"{base}/voila/render/start_here.ipynb", timeout=patience(240_000))
    # the browser has told the kernel who it is (before that, nothing is offered)
    launcher_form(page)
    return page.locator(".moneynb-launcher")


def test_two_visitors_never_see_each_others_games(voila_server, browser_context):
    base, root = voila_server
    p = browser_context.moneynb_playwright
    browser = p.chromium.launch(executable_path=browser_context.moneynb_chromium,
                                headless=True, args=CHROMIUM_ARGS)  # fmt: skip
    a = browser.new_context(viewport={"width": 1400, "height": 1400}).new_page()
    b = browser.new_context(viewport={"width": 1400, "height": 1400}).new_page()
    page = a
    from moneynb.store import open_store

    store = open_store(Path(root).parent / "store" / "games.sqlite3")
    # games other tests left on this session's Voila server are not this test's
    before = {g.id for g in store.list_all()}
    try:
        form = _open_app(a, base)
        view = press_start(a, form, GAME, board=False)
        n = view.evaluate(COUNT_JS)["log"]
        _main_button(view).click()  # a person moved: the game is one to come back to
        a.wait_for_function(
            f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box').dataset.count) > n",
            arg=n,
            timeout=patience(30_000),
        )
        a.locator(f"{GAME} .moneynb-saved").wait_for(state="attached", timeout=patience(30_000))
        games = [g for g in store.list_all() if g.id not in before]
        assert len(games) == 1 and games[0].owner.startswith("browser:")
        first = games[0]
        # the second visitor: no "Welcome back", no offer, no replay of the first's game
        page = b
        _open_app(b, base)
        assert b.locator(".moneynb-launch-restored").inner_text().strip() == ""
        assert b.locator(GAME).count() == 0
        assert not b.locator(".moneynb-resume").first.is_visible()
        assert b.locator(".moneynb-replay-list option").count() == 0
        assert "No finished games yet" in b.locator(".moneynb-replay-error").inner_text()
        # the first visitor reloads: the same owner again, their game comes back
        page = a
        a.reload(timeout=patience(240_000))
        voila_shows(a, GAME, name="classroom-reload")
        assert "Welcome back" in a.locator(".moneynb-launch-restored").inner_text()
        owners = {g.owner for g in store.list_all() if g.id not in before}
        assert owners == {first.owner}, owners  # the second visitor started nothing
        assert store.list_games(first.owner, over=False)[0].id == first.id
    except BaseException:
        screenshot(page, "classroom-two-visitors-failure")
        raise
    finally:
        browser.close()
