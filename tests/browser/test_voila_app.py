"""App mode in a real browser: Voila serves ``notebooks/money_moves.ipynb`` with the code hidden;
the game is started from the launcher form and played by clicks (Chromium via Playwright); then
each other play notebook is started from its form with the defaults, double-clicked (one
decision answered), moved a few times and reloaded (the same game comes back): issue 18, cases
1-3 in the app for every game (Money Moves' in ``test_voila_resume_browser.py``).

Starts Voila on 127.0.0.1 on a free port (``servers.jupyter_server``, stopped by its process
id), opens the notebook as an app, picks the players on the form (seat 2 a random bot, seed 5),
presses Start, turns the Coach on, presses Roll (or the first offered button) at least 5 times
and checks that the board figure, the log and the header changed and that money is conserved.
"""

from __future__ import annotations

import time

import pytest
from conftest import (
    decision_button,
    launcher_form,
    painted,
    patience,
    press_start,
    screenshot,
    voila_shows,
    wait_saved,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_reload_browser import COUNT_JS, _main_button, _newest_save, person_decisions

pytestmark = pytest.mark.browser

GAME = ".moneynb-launch-game-box .moneynb-view"

_STATE_JS = """(view) => ({
    log: Number((view.querySelector('.moneynb-log-box') || {dataset: {count: -1}}).dataset.count),
    header: view.querySelector('.moneynb-header').textContent,
    board: view.querySelector('.moneynb-board .js-plotly-plot').innerHTML,
    // a game without money (Money Run) shows no money table: 0 = 0
    start: Number((view.querySelector('.moneynb-money-table') || {dataset: {startTotal: 0}})
        .dataset.startTotal),
    sum: [...view.querySelectorAll('.moneynb-money-table .moneynb-dollars')]
        .reduce((s, c) => s + Number(c.dataset.dollars), 0),
    coach: (view.querySelector('.moneynb-coach') || {textContent: ''}).textContent,
})"""

#: the view is ready for a click: the decision panel has an enabled button (or the game is
#: over) and the board figure is drawn
_READY_JS = f"""() => {{
    const v = document.querySelector('{GAME}');
    if (!v || !v.querySelector('.moneynb-board .js-plotly-plot .scatterlayer .trace')) return false;
    return /Game over/.test(v.querySelector('.moneynb-header').textContent)
        || !!v.querySelector('.moneynb-decision button:not([disabled])');
}}"""


@pytest.fixture(scope="module")
def voila(voila_server):
    """The session's Voila (``voila_server``): one server start for every Voila test that
    needs no server settings of its own (CI time)."""
    return voila_server


def _press_start(page, form):
    """Press the form's Start; returns the new game's view once its board is drawn (not a
    game the app brought back before the click)."""
    return press_start(page, form, GAME)


def _next_button(view):
    for css in (".moneynb-roll", ".moneynb-option", ".moneynb-player", ".moneynb-submit"):
        b = view.locator(f".moneynb-decision button{css}:not([disabled])")
        if b.count():
            return b.first
    return None


def test_voila_app_plays_money_moves_from_the_form(voila, page):
    try:
        _play(voila, page)
    except BaseException:
        screenshot(page, "voila_app-failure")
        raise


def _play(voila, page):
    base, _root = voila
    t0 = time.perf_counter()
    page.goto(f"{base}/voila/render/money_moves.ipynb", timeout=patience(240_000))
    form = launcher_form(page)
    # the code is hidden in the app: no code cell inputs on the page
    assert page.locator(".jp-InputArea-editor, .jp-CodeMirrorEditor").count() == 0
    rows = form.locator(".moneynb-launch-row")
    assert rows.count() == 3
    rows.nth(1).locator("select").select_option("random bot")
    seed = form.locator(".moneynb-launch-seed input")
    seed.fill("5")
    seed.press("Enter")
    view = _press_start(page, form)
    # the kernel ran every cell before it handled Start: the notebook's ready-made game cell
    # showed nothing in the app, so the form's game is the only one
    assert page.locator(".moneynb-view").count() == 1
    t_load = time.perf_counter() - t0
    before = view.evaluate(_STATE_JS)
    assert "Random bot 1" in view.locator(".moneynb-money").inner_text()
    view.locator("button.moneynb-coach-toggle").click()
    page.wait_for_function(
        f"() => /Coach/.test(document.querySelector('{GAME} .moneynb-coach').textContent)",
        timeout=patience(20_000),
    )
    presses = 0
    for _ in range(40):
        if presses >= 5:
            break
        b = _next_button(view)
        if b is None:
            break
        n = view.evaluate(_STATE_JS)["log"]
        b.click()
        page.wait_for_function(
            f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box').dataset.count) > n",
            arg=n,
            timeout=patience(20_000),
        )
        presses += 1
    after = view.evaluate(_STATE_JS)
    screenshot(page, "voila_app", view)
    assert presses >= 5, f"only {presses} moves could be made"
    assert after["log"] > before["log"]
    assert after["board"] != before["board"], "the board figure did not change"
    assert after["header"] != before["header"]
    assert after["sum"] == after["start"] == before["start"]
    assert "Coach" in after["coach"]
    print(f"Voila app: page + form + game in {t_load:.1f} s, {presses} moves by clicks")


#: one more control for the other games: their first buttons (Spin, Go, Pass...)
#: (Money Run: End turn, not its first control, the action list's Go: picking a coin logs
#: nothing until it is placed)
_ANY = (".moneynb-roll", ".moneynb-spin", ".moneynb-submit", ".moneynb-option", ".moneynb-player",
        ".moneynb-mr-end", "")  # fmt: skip


@pytest.mark.parametrize("game", ["moolah", "easy_money", "money_card", "money_run"])
def test_voila_app_starts_each_game_from_the_form(voila, page, game):
    """Every play notebook as an app: the form's defaults (you and bots), Start; a
    double-click on the main button answers exactly one decision and shows no error; a few
    moves by clicks change the board figure, and only the form's game is on the page; a
    reload brings back the same game (log, board points and labels)."""
    base, root = voila
    try:
        page.goto(f"{base}/voila/render/{game}.ipynb", timeout=patience(240_000))
        form = launcher_form(page)
        view = _press_start(page, form)
        # the first decision's panel is in the page and the board drawn
        page.wait_for_function(_READY_JS, timeout=patience(30_000))
        painted(page)
        _double_click_answers_one(page, view, root, game)
        before = view.evaluate(_STATE_JS)
        moves = 0
        for _ in range(30):
            if moves >= 4 and view.evaluate(_STATE_JS)["board"] != before["board"]:
                break
            button = decision_button(view, _ANY)
            if button is None:
                break
            n = view.evaluate(_STATE_JS)["log"]
            try:  # the panel is rebuilt after the log: a button seen a moment ago may be gone
                button.click(timeout=patience(5_000))
            except PlaywrightTimeout:
                continue
            try:  # a button of a panel just replaced answers nothing (it was drawn for the
                # decision before): press the new panel's one
                page.wait_for_function(
                    f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box')"
                    ".dataset.count) > n",
                    arg=n,
                    timeout=patience(10_000),
                )
            except PlaywrightTimeout:
                continue
            try:  # the new decision panel has arrived (or the game is over)
                page.wait_for_function(_READY_JS, timeout=patience(10_000))
            except PlaywrightTimeout:
                pass
            moves += 1
        try:  # the board's update of the last moves has reached the page
            page.wait_for_function(
                f"(b) => ({_STATE_JS})(document.querySelector('{GAME}')).board !== b",
                arg=before["board"],
                timeout=patience(10_000),
            )
        except PlaywrightTimeout:
            pass  # the assertion below names the failure
        painted(page)
        after = view.evaluate(_STATE_JS)
        assert moves >= 4, f"only {moves} moves could be made"
        assert after["log"] > before["log"]
        assert after["board"] != before["board"], "the board figure did not change"
        assert after["sum"] == after["start"] == before["start"]
        assert page.locator(".moneynb-view").count() == 1  # only the form's game
        _reload_keeps_the_game(page, view)
    except BaseException:
        screenshot(page, f"voila_{game}-failure")
        raise


def _wait_log_above(page, n: int) -> None:
    page.wait_for_function(
        f"(n) => Number(document.querySelector('{GAME} .moneynb-log-box').dataset.count) > n",
        arg=n,
        timeout=patience(20_000),
    )


def _double_click_answers_one(page, view, root, game: str) -> None:
    """Issue 18, case 3 in the app: a double-click on the main button answers one decision
    (counted in the autosave) and the second click shows nothing."""
    before = person_decisions(_newest_save(root, game))
    n = view.evaluate(COUNT_JS)["log"]
    _main_button(view).dblclick()
    _wait_log_above(page, n)
    time.sleep(1.5)  # the second click's message reaches the kernel and is handled
    after = person_decisions(_newest_save(root, game))
    assert after == before + 1, f"{game}: a double-click answered {after - before} decisions"
    assert view.locator(".moneynb-error").inner_text().strip() == ""


def _reload_keeps_the_game(page, view) -> None:
    """Issue 18, cases 1 and 2 in the app: a reload runs the notebook in a new kernel and the
    form brings back the same game, its board with all its points and labels."""
    wait_saved(page, GAME)  # the last click's move is in the store
    played = view.evaluate(COUNT_JS)
    page.reload(timeout=patience(240_000))
    voila_shows(page, GAME, name="voila-app-reload")
    view = page.locator(GAME)
    page.wait_for_function(
        f"() => document.querySelector('{GAME} .js-plotly-plot .scatterlayer .trace')",
        timeout=patience(60_000),
    )
    assert "Welcome back" in page.locator(".moneynb-launch-restored").inner_text()
    try:
        page.wait_for_function(
            f"(b) => {{ const n = ({COUNT_JS})(document.querySelector('{GAME}'));"
            " return n.points === b.points && n.labels === b.labels; }",
            arg=played,
            timeout=patience(20_000),
        )
    except PlaywrightTimeout:  # the assertion below says what differs
        pass
    back = view.evaluate(COUNT_JS)
    assert back["log"] == played["log"], (played, back)
    assert (back["points"], back["labels"]) == (played["points"], played["labels"]), (
        played,
        back,
    )


def test_a_finished_game_offers_a_new_game_in_the_app(voila, page):
    """The tester's F7 (2026-12-06): a finished game offered no way to play again where it
    was. In the app, an all-bot Money Moves game ends at once: "New game" is shown in its
    decision column; a click plays a new game (a fresh seed: another log) in the same view,
    which offers "New game" again."""
    base, _root = voila
    try:
        page.goto(f"{base}/voila/render/money_moves.ipynb", timeout=patience(240_000))
        form = launcher_form(page)
        rows = form.locator(".moneynb-launch-row")
        for k in range(rows.count()):
            rows.nth(k).locator("select").select_option("greedy bot")
        view = _press_start(page, form)
        new = view.locator(".moneynb-decision button.moneynb-new-game")
        new.wait_for(state="visible", timeout=patience(30_000))
        assert "Game over" in view.locator(".moneynb-header").inner_text()
        log = view.locator(".moneynb-log-box").inner_text()
        new.click()
        page.wait_for_function(
            f"""(log) => {{ const v = document.querySelector('{GAME}');
                const b = v.querySelector('.moneynb-log-box');
                return b && b.innerText !== log
                    && !!v.querySelector('.moneynb-decision button.moneynb-new-game'); }}""",
            arg=log,
            timeout=patience(30_000),
        )
        assert page.locator(".moneynb-view").count() == 1  # the same view, the new game in it
    except BaseException:
        screenshot(page, "voila_new_game-failure")
        raise
