"""The Voila app loses no game and ignores a double-click (issue 18, cases 2 and 3).

Money Moves as an app: Start from the form (seed 5), DOUBLE-click Roll and check from the
autosave that exactly one of the person's decisions was answered, Roll once more, then reload
the page: the app runs the notebook in a new kernel, and the form must bring back the same
game (same log, same board points and labels) with a note saying so. Then the app's kernel
dies (killed): the game on the page must say it lost its kernel and to reload the page, its
controls must be disabled (axe: no critical or serious violation in the game), and that
reload brings the game back. Last the connection to the server goes down for a while (the
page's kernel websockets closed and reconnects refused, through Playwright's websocket
routing): the game says so while it lasts and plays on once it is back.
"""

from __future__ import annotations

import re
import time

import psutil
import pytest
from conftest import launcher_form, patience, press_start, screenshot, voila_shows, wait_saved
from test_reload_browser import COUNT_JS, _newest_save, person_decisions

pytestmark = pytest.mark.browser

GAME = ".moneynb-launch-game-box .moneynb-view"


def _log(view) -> int:
    return view.evaluate(COUNT_JS)["log"]


def _wait_log_above(page, n: int) -> None:
    page.wait_for_function(
        f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box').dataset.count) > n",
        arg=n,
        timeout=patience(20_000),
    )


def _wait_board(page) -> None:
    page.wait_for_function(
        f"() => document.querySelector('{GAME} .js-plotly-plot .scatterlayer .trace')",
        timeout=patience(60_000),
    )


def test_voila_double_click_and_reload_keep_the_game(voila_server, page):
    base, root = voila_server
    kernels = []  # the page's kernel ids, from its websockets (the newest last)
    page.on("websocket", lambda ws: kernels.extend(re.findall(r"/api/kernels/([\w-]+)", ws.url)))
    try:
        page.goto(f"{base}/voila/render/money_moves.ipynb", timeout=patience(240_000))
        form = launcher_form(page)
        seed = form.locator(".moneynb-launch-seed input")
        seed.fill("5")
        seed.press("Enter")
        view = press_start(page, form, GAME, board=False)
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
        wait_saved(page, GAME)  # the click's move is in the store before the reload
        played = view.evaluate(COUNT_JS)
        page.reload(timeout=patience(240_000))
        voila_shows(page, GAME, name="voila-resume-reload")
        view = page.locator(GAME)
        _wait_board(page)
        restored = page.locator(".moneynb-launch-restored")
        assert "Welcome back" in restored.inner_text()
        page.wait_for_function(
            f"(b) => {{ const n = ({COUNT_JS})(document.querySelector('{GAME}'));"
            " return n.points === b.points && n.labels === b.labels; }",
            arg=played,
            timeout=patience(20_000),
        )
        back = view.evaluate(COUNT_JS)
        assert back["log"] == played["log"], (played, back)
        assert (back["points"], back["labels"]) == (played["points"], played["labels"])
        _dead_kernel_is_told(page, view, kernels[-1], back)
    except BaseException:
        screenshot(page, "voila_resume-failure")
        raise


def _dead_kernel_is_told(page, view, kernel_id: str, played) -> None:
    """The app's kernel dies (killed here; the server starts a new one, which knows no
    widget): the game still shown must say so and what to do (reload the page), its controls
    must be disabled, and the reload it asks for brings the game back."""
    mine = [
        p
        for p in psutil.process_iter(["cmdline"])
        if any(f"kernel-{kernel_id}.json" in c for c in (p.info["cmdline"] or []))
    ]
    assert len(mine) == 1, f"the page's kernel {kernel_id} was not found"
    mine[0].kill()
    note = view.locator(".moneynb-lost-note")
    note.wait_for(state="visible", timeout=patience(30_000))
    text = note.inner_text()
    assert "lost its kernel" in text and "reload the page" in text, text
    live = view.locator("button:not([disabled]), select:not([disabled]), input:not([disabled])")
    assert live.count() == 0, f"{live.count()} controls still look usable"
    from axe_playwright_python.sync_playwright import Axe

    bad = [
        f"{v['impact']} {v['id']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in Axe().run(page, context=GAME).response["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    assert not bad, f"the game with its kernel gone: {bad}"
    # from now on the page's kernel connections pass through a switch (_offline_is_told)
    link = {"up": True, "open": []}

    def route(ws):
        if not link["up"]:
            ws.close()  # the server cannot be reached
            return
        ws.connect_to_server()
        link["open"].append(ws)

    page.route_web_socket(re.compile(r".*/api/kernels/.*"), route)
    page.reload(timeout=patience(240_000))
    view = page.locator(GAME)
    view.wait_for(state="visible", timeout=patience(240_000))
    assert "Welcome back" in page.locator(".moneynb-launch-restored").inner_text()
    assert view.evaluate(COUNT_JS)["log"] == played["log"]
    _offline_is_told(page, view, link)


def _offline_is_told(page, view, link) -> None:
    """The connection to the server goes down (every kernel websocket closed, reconnects
    refused): after a few seconds the game says so (``moneynb-offline-note``) and no control
    can be reached; once reconnecting is let through, the note goes and a click plays."""
    link["up"] = False
    for ws in link["open"]:
        ws.close()
    note = view.locator(".moneynb-offline-note")
    note.wait_for(state="visible", timeout=patience(30_000))
    assert "connection to the server is down" in note.inner_text()
    reachable = view.evaluate(
        "v => [...v.querySelectorAll('button')].filter(b => !b.closest('[inert]')).length"
    )
    assert reachable == 0, f"{reachable} buttons can still be pressed while offline"
    link["up"] = True
    note.wait_for(state="detached", timeout=patience(60_000))
    n = view.evaluate(COUNT_JS)["log"]
    view.locator(".moneynb-decision button:not([disabled])").first.click()
    _wait_log_above(page, n)
