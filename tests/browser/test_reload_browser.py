"""A game survives a page reload and a double-click, in JupyterLab (issue 18, cases 1-3).

For every game's play notebook: Run All, DOUBLE-click the main button (Roll, Spin, Money
Run's End turn, Easy Money's Buy...) and check from the autosave that exactly one of the
person's decisions was answered (the second click was meant for a decision no longer
pending: it must do nothing and show no error), click three more times, save (Ctrl+S's
save command), reload the tab, and check that the board draws as many points and text labels
as before. A view opened later is built from the widget's synced state only, so a trace whose
``x``/``y`` were updated in the kernel but not in that state came back empty.

Then, for every game (issue 18, case 2): Kernel > Restart: the board still shown says it
lost its kernel and what to do, its controls are disabled and a click changes nothing; then
the kernel is stopped and the notebook reopened: the output says what to do instead of a
bare "model not found", and running the game's cell again (Money Moves: the whole notebook)
offers the game to continue, and Continue brings it back with the same log and board.
(Hot-seat Money Run, two people at one screen, is checked in ``tests/test_ui.py``.)
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import _kernel_idle, open_and_run, patience, screenshot

import moneynb

pytestmark = pytest.mark.browser

VIEW = ".moneynb-view >> nth=0"

COUNT_JS = """(view) => {
    const board = view.querySelector('.moneynb-board');
    if (!board) return {points: -1, labels: -1};
    return {
        points: board.querySelectorAll('.scatterlayer path.point').length,
        labels: [...board.querySelectorAll('.scatterlayer .textpoint text')]
            .filter(t => t.textContent.trim()).length,
        error: (view.querySelector('.moneynb-error') || {textContent: ''}).textContent.trim(),
        log: Number((view.querySelector('.moneynb-log-box') || {dataset: {count: -1}})
            .dataset.count),
    };
}"""


SAME_JS = (
    f"(b) => {{ const n = ({COUNT_JS})(document.querySelector('.moneynb-view'));"
    " return n.points === b.points && n.labels === b.labels; }"
)


def _main_button(view, required: bool = True):
    """The control answering the pending decision with one logged step: Roll first, then
    Money Run's End turn (its first control, Go, may only pick a coin, which logs nothing),
    else the first button (None when there is none and not ``required``)."""
    for css in (".moneynb-roll", ".moneynb-mr-end", ""):
        b = view.locator(f".moneynb-decision button{css}:not([disabled])")
        if b.count():
            return b.first
    if not required:
        return None
    raise AssertionError("no enabled control in the decision panel")


class StoredGame:
    """The newest game of ``game`` in a test server's store (``<tmp>/store/games.sqlite3``,
    see servers.py), read from the store as the server wrote it."""

    def __init__(self, root, game: str):
        from moneynb.store import open_store

        self.store = open_store(Path(root).parent / "store" / "games.sqlite3")
        self.id = self.store.list_all(game=game, limit=1)[0].id

    def read_text(self) -> str:
        """The game's save JSON, as stored now."""
        return self.store.read(self.id)

    def kinds(self) -> dict[str, str]:
        """``{player: "human" | "bot:..."}``."""
        return {s.name: s.kind for s in self.store.info(self.id).seats}


def person_decisions(save) -> int:
    """How many decisions of the stored game's people (seats of kind ``"human"``) it holds."""
    g = moneynb.load_game(save.read_text())
    seats = save.kinds()
    fresh = type(g)(list(g.players), g.seed, **g.options)
    n = 0
    for a in g.actions:
        n += seats[g.players[fresh.decision.player]] == "human"
        fresh.apply(a)
    return n


def _newest_save(root, game: str) -> StoredGame:
    return StoredGame(root, game)


SAVE_JS = """async () => {
    const w = window.jupyterapp.shell.currentWidget;
    const late = new Promise((r) => setTimeout(() => r("timeout"), 20000));
    const saved = await Promise.race([w.context.save().then(() => "saved"), late]);
    return saved === "saved" && !w.context.model.dirty;
}"""


def _save(page) -> None:
    """Save the notebook with Ctrl+S's own command (docmanager's save; a key press can be
    swallowed by a focused widget control) and check it is saved."""
    assert page.evaluate(SAVE_JS) is True, "the notebook was not saved within 20 s"


def _settle(page) -> None:
    """Let every click message reach the kernel and the kernel finish with them."""
    time.sleep(0.5)
    _kernel_idle(page, 30_000)


def _click_and_wait(page, view) -> None:
    _settle(page)  # the last click's panel is in place (Money Card's spinner still turns)
    n = view.evaluate(COUNT_JS)["log"]
    button = _main_button(view)
    try:
        button.click(timeout=patience(5_000))
    except Exception:  # noqa: BLE001 - moved by an animation: press it where it is
        button.dispatch_event("click")
    page.wait_for_function(
        "([sel, n]) => Number(document.querySelector(sel).dataset.count) > n",
        arg=[".moneynb-view .moneynb-log-box", n],
        timeout=patience(20_000),
    )


def _wait_board(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('.moneynb-view .js-plotly-plot .scatterlayer .trace')",
        timeout=patience(60_000),
    )


def _double_click_answers_one(page, view, root, game: str) -> None:
    _settle(page)
    before = person_decisions(_newest_save(root, game))
    n = view.evaluate(COUNT_JS)["log"]
    _main_button(view).dblclick()
    page.wait_for_function(
        "([sel, n]) => Number(document.querySelector(sel).dataset.count) > n",
        arg=[".moneynb-view .moneynb-log-box", n],
        timeout=patience(20_000),
    )
    _settle(page)
    after = person_decisions(_newest_save(root, game))
    assert after == before + 1, f"{game}: a double-click answered {after - before} decisions"
    state = view.evaluate(COUNT_JS)
    assert state["error"] == "", f"{game}: the second click showed {state['error']!r}"


GAMES = ["money_moves", "easy_money", "moolah", "money_run", "money_card"]


@pytest.mark.parametrize("game", GAMES)
def test_double_click_and_reload_keep_the_game(lab_server, page, game):
    _base, root = lab_server
    try:
        open_and_run(page, lab_server, f"notebooks/{game}.ipynb")
        view = page.locator(VIEW)
        view.wait_for(state="visible")
        _wait_board(page)
        _double_click_answers_one(page, view, root, game)
        for _ in range(3):
            if _main_button(view, required=False) is None:
                break
            _click_and_wait(page, view)
        _settle(page)
        before = view.evaluate(COUNT_JS)
        assert before["points"] > 0 and before["labels"] > 0, before
        _save(page)
        page.reload()
        page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=patience(60_000))
        view = page.locator(VIEW)
        view.wait_for(state="visible", timeout=patience(60_000))
        _wait_board(page)
        try:
            page.wait_for_function(SAME_JS, arg=before, timeout=patience(20_000))
        except Exception:  # noqa: BLE001 - the assertion below says what differs
            pass
        after = view.evaluate(COUNT_JS)
        assert (after["points"], after["labels"]) == (before["points"], before["labels"]), (
            f"{game}: before the reload {before}, after {after}"
        )
        after["actions"] = view.evaluate(ACTIONS_JS)
        _restarted_kernel_shows_note(page, view, root, game)
        if game == "money_moves":
            # the full walk, for one game: stop the kernel, reopen, Run All
            _reopen_with_kernel_stopped(page)
            open_and_run(page, lab_server, f"notebooks/{game}.ipynb")
        else:
            # the others follow the note in the restarted kernel: run the game's cell again
            _kernel_idle(page, 60_000)
            assert page.evaluate(RUN_GAME_CELL_JS) >= 0, "no cell holds the game's note"
        _continue_restores(page, after, game)
    except BaseException:
        screenshot(page, f"reload_{game}-failure")
        raise


#: the action count the header shows ("... · action 34")
ACTIONS_JS = """(view) => Number((view.querySelector('.moneynb-header').textContent
    .match(/action (\\d+)/) || [0, -1])[1])"""
RESTART_JS = "() => { window.jupyterapp.shell.currentWidget.sessionContext.restartKernel(); }"


def _restarted_kernel_shows_note(page, view, root, game: str) -> None:
    """Kernel > Restart without reopening the notebook: the old board stays in the page, but
    its widgets answer nothing any more. The view must say so (``moneynb-lost-note``: lost
    kernel, the game is saved, run the cell again and choose Continue), and so must the
    notebook's start form; the view's controls must be disabled, and a click on them or on the
    board changes nothing."""
    save = _newest_save(root, game)
    saved = save.read_text()
    n = view.evaluate(COUNT_JS)["log"]
    page.evaluate(RESTART_JS)
    note = view.locator(".moneynb-lost-note")
    note.wait_for(state="visible", timeout=patience(30_000))
    text = note.inner_text()
    assert "lost its kernel" in text and "run this cell again" in text, text
    assert "Continue" in text and "saved" in text, text
    # the notebook's start form (no game in it) says so too
    form = page.locator(".moneynb-launcher .moneynb-lost-note").first
    assert "This form lost its kernel" in form.inner_text(timeout=patience(5_000))
    live = view.locator("button:not([disabled]), select:not([disabled]), input:not([disabled])")
    assert live.count() == 0, f"{game}: {live.count()} controls still look usable"
    view.locator(".moneynb-decision button").first.click(force=True, timeout=patience(5_000))
    view.locator(".moneynb-board .js-plotly-plot").first.click(force=True, timeout=patience(5_000))
    time.sleep(0.5)
    assert view.evaluate(COUNT_JS)["log"] == n
    assert save.read_text() == saved, f"{game}: a click after the restart changed the save"


RUN_GAME_CELL_JS = """async () => {
    const nb = window.jupyterapp.shell.currentWidget.content;
    const i = nb.widgets.findIndex(c => [...c.node.querySelectorAll('.moneynb-fallback')]
        .some(n => n.textContent.includes('If no game shows here')));
    if (i < 0) return -1;
    nb.activeCellIndex = i;
    await window.jupyterapp.commands.execute('notebook:run-cell');
    return i;
}"""


def _reopen_with_kernel_stopped(page) -> None:
    """Issue 18, case 2 in JupyterLab: stop the kernel and reopen the notebook. The output
    cannot be drawn ("model not found") and must say what to do."""
    from conftest import _shutdown_sessions

    # the note is in the output but hidden while the game draws
    assert page.locator(".moneynb-fallback").count() >= 1
    assert not page.locator(".moneynb-fallback").first.is_visible()
    _shutdown_sessions(page)
    page.reload()
    note = page.locator(".moneynb-fallback", has_text="If no game shows here").first
    note.wait_for(state="visible", timeout=patience(60_000))
    text = note.inner_text()
    assert "run this cell again" in text and "saved automatically" in text and "Continue" in text


def _continue_restores(page, played, game: str) -> None:
    """After the game's cell ran again: the new view offers the unfinished game (newest
    first, naming the game and "You"), and Continue brings it back where it was (the same
    log, board points and labels, and action count)."""
    view = page.locator(VIEW)
    view.wait_for(state="visible", timeout=patience(60_000))
    offer = view.locator(".moneynb-resume")
    offer.wait_for(state="visible", timeout=patience(30_000))
    page.wait_for_function(
        "() => { const o = document.querySelector('.moneynb-view .moneynb-resume option');"
        " return o && o.textContent.trim().length > 0; }",
        timeout=patience(10_000),
    )
    first = offer.locator("select option").first.inner_text().replace("\xa0", " ")
    title = moneynb.game_class(game).title
    assert title in first and "You" in first, first
    offer.locator("button.moneynb-resume-go").click()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.moneynb-view .moneynb-log-box')"
        ".dataset.count) === n",
        arg=played["log"],
        timeout=patience(20_000),
    )
    _settle(page)
    back = view.evaluate(COUNT_JS)
    assert (back["points"], back["labels"]) == (played["points"], played["labels"]), back
    assert view.evaluate(ACTIONS_JS) == played["actions"] > 0, played
