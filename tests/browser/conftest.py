"""Shared fixtures for browser tests: a JupyterLab server and headless Chromium (Playwright).

Follows BROWSER-TESTING.md. Every browser test is marked ``@pytest.mark.browser``.

* ``lab_server`` (session): JupyterLab on 127.0.0.1, a free port, empty token, temporary
  runtime/data/settings/workspaces folders (news pop-up and document autosave off),
  ``--LabApp.expose_app_in_browser=True``, serving a temporary copy of ``notebooks/`` so a run
  never writes into the repository; polled until ``/api/status`` answers; stopped by its
  process id. Yields its base URL.
* ``browser_context`` (session): Chromium from ``$MONEYNB_CHROMIUM``, else
  ``/usr/bin/chromium``, else Playwright's own download. When none exists the test FAILS with
  how to get one.
* ``page``: a fresh page per test (closed afterwards).
* :func:`open_and_run` opens a notebook, waits for a really idle kernel and runs all cells.
* :func:`screenshot` saves page and element screenshots under ``test-output/``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from moneynb.ui.saves import WIDGET_LOADING, WIDGET_NOT_FOUND

sys.path.insert(0, str(Path(__file__).resolve().parent))  # servers.py, also when loaded by path
from servers import jupyter_server, patience  # noqa: E402,F401

REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "test-output"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
INSTALL_HELP = (
    "No Chromium found for the browser tests. Install one of:\n"
    "  * Debian/Ubuntu: sudo apt-get install -y chromium   (gives /usr/bin/chromium)\n"
    "  * Playwright's own: python -m playwright install chromium\n"
    "or point MONEYNB_CHROMIUM at a Chromium/Chrome executable."
)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def lab_server():
    """Start JupyterLab for the session (see :func:`servers.jupyter_server`); yields
    ``(base_url, root_dir)``."""
    with jupyter_server("lab", timeout=60) as server:
        yield server


#: what the Jupyter server logs when it starts dropping a kernel's IOPub messages (its
#: ``iopub_msg_rate_limit`` / ``iopub_data_rate_limit``): a page then misses widget messages
DROPPED = ("IOPub message rate exceeded", "IOPub data rate exceeded")


@pytest.fixture(autouse=True)
def no_dropped_messages(request):
    """Every browser test on a session server: the server dropped none of a kernel's
    messages while it ran (issue 41: a page that missed a widget message keeps an old board
    or label for good; :mod:`moneynb.ui.pace` keeps the views under the limit). Reads the
    part of the server's log written during the test; fails it naming the limit."""
    logs = []
    for name in ("lab_server", "voila_server"):
        if name in request.fixturenames:
            _base, root = request.getfixturevalue(name)
            log = Path(root).parent / "server.log"
            logs.append((name, log, log.stat().st_size if log.exists() else 0))
    yield
    for name, log, start in logs:
        with open(log, "rb") as f:
            f.seek(start)
            new = f.read().decode("utf-8", "replace")
        said = [d for d in DROPPED if d in new]
        assert not said, (
            f"{name} dropped kernel messages during this test ({'; '.join(said)}): the page "
            "missed widget updates (moneynb.ui.pace keeps a view's messages under the limit)"
        )


@pytest.fixture(scope="session")
def voila_server():
    """Voila serving a copy of ``notebooks/`` for the session; yields ``(base_url, root_dir)``
    (the app's kernels run in ``root_dir/notebooks``, where games autosave)."""
    with jupyter_server("voila") as server:
        yield server


def find_chromium() -> str | None:
    """Path of a Chromium: ``$MONEYNB_CHROMIUM``, ``/usr/bin/chromium``, or Playwright's."""
    env = os.environ.get("MONEYNB_CHROMIUM")
    if env:
        if Path(env).exists():
            return env
        pytest.fail(f"MONEYNB_CHROMIUM={env} does not exist.\n{INSTALL_HELP}")
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
        if path and Path(path).exists():
            return path
    except Exception:  # noqa: BLE001 - any failure means "no Playwright browser"
        pass
    return None


@pytest.fixture(scope="session")
def browser_context():
    """A persistent headless Chromium context (1400x1400) for the session."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Python playwright is not installed: pip install 'moneynb[test]'\n"
                    + INSTALL_HELP)  # fmt: skip
    exe = find_chromium()
    if exe is None:
        pytest.fail(INSTALL_HELP)
    profile = tempfile.mkdtemp(prefix="moneynb-chromium-")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=exe, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1400},
        )  # fmt: skip
        ctx.moneynb_playwright = p  # more browsers (tests of several visitors) from it
        ctx.moneynb_chromium = exe
        try:
            yield ctx
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser_context):
    pg = browser_context.new_page()
    pg.set_default_timeout(patience(30_000))
    yield pg
    _shutdown_sessions(pg)
    pg.close()


def _shutdown_sessions(page) -> None:
    """Shut down every kernel session the test left running (they would compete for the CPU
    with the next test). State-changing REST calls need the _xsrf cookie as X-XSRFToken."""
    if not page.url.startswith("http"):
        return
    try:
        page.evaluate(
            """async () => {
                const m = document.cookie.match(/_xsrf=([^;]+)/);
                const headers = m ? {'X-XSRFToken': decodeURIComponent(m[1])} : {};
                const base = location.pathname.startsWith('/voila') ? null : location.origin;
                if (!base) return 0;
                const r = await fetch(base + '/api/sessions', {headers});
                if (!r.ok) return 0;
                const sessions = await r.json();
                for (const s of sessions)
                    await fetch(base + '/api/sessions/' + s.id, {method: 'DELETE', headers});
                return sessions.length;
            }"""
        )
    except Exception:  # a page that already navigated away or closed: nothing to clean
        pass


PAINTED_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def painted(page) -> None:
    """Wait until the browser has painted what the page holds now: two animation frames (the
    first runs before the next paint, the second after it). For waits that stand only for a
    repaint; a wait for a state is a ``wait_for_function`` on that state."""
    page.evaluate(PAINTED_JS)


def wait_saved(page, view_selector: str, timeout_ms: float = 30_000) -> None:
    """Wait until the view's game is stored as it is shown: its "saved automatically (action
    N, ...)" note (``.moneynb-saved``, ``data-actions``) names the action count its header
    shows, so a reload now brings back every move made."""
    page.wait_for_function(
        """(sel) => {
            const v = document.querySelector(sel);
            const head = v && v.querySelector('.moneynb-header');
            const m = head && head.textContent.match(/action (\\d+)/);
            const s = v && v.querySelector('.moneynb-saved');
            return !!(m && s && s.dataset.actions === m[1]);
        }""",
        arg=view_selector,
        timeout=patience(timeout_ms),
    )


#: Voila's widget placeholder (an output whose widget model has not reached the page yet) and
#: what the widget manager writes in an output whose model it never got (final): the texts the
#: app page's own stall watch reads, kept in one place (moneynb.ui.saves)
VOILA_LOADING, VOILA_NOT_FOUND = WIDGET_LOADING, WIDGET_NOT_FOUND
#: how far a Voila page has got: (outputs still loading, outputs whose model was never found,
#: outputs, drawn plots, text length)
_VOILA_PROGRESS_JS = """([loading, missing]) => {
    const outs = [...document.querySelectorAll('.jp-OutputArea-output')];
    const say = (t) => outs.filter(e => e.textContent.trim() === t).length;
    return [say(loading), say(missing), outs.length,
            document.querySelectorAll('.js-plotly-plot .main-svg').length,
            document.body ? document.body.innerText.length : 0];
}"""


def voila_ready(
    page,
    ready: str,
    arg=None,
    *,
    name: str,
    timeout_ms: float = 240_000,
    stalled_ms: float = 60_000,
    loads: int = 3,
) -> None:
    """Wait until the JavaScript predicate ``ready`` (called with ``arg``) holds on the Voila
    page ``page``, loading the page again when Voila's front end has stalled.

    On a loaded machine Voila's front end can leave some or all of a page's widgets unrendered
    for good (voila-dashboards/voila#1428 and #920, "refreshing eventually renders"): their
    outputs keep reading "Loading widget..." although the kernel made them long ago, or read
    "Error displaying widget: model not found" (the front end fetched the kernel's widgets
    while the last cell was still making them: seen here under load on the 20-board probe
    page, its last two replay views, and in CI, where that page never got all its views). A
    page is stalled when such outputs are on it and nothing on it has changed (outputs
    loading, outputs not found, outputs, drawn plots, text) for ``stalled_ms`` (times
    :func:`patience`; an eighth of it when a model was not found, which is final): it is saved
    as ``test-output/<name>-voila-stalled-<k>.png``, the fact is printed, and the page is
    loaded again (a new kernel), at most ``loads`` loads in all. A page that is merely slow
    (still changing) is waited for up to ``timeout_ms`` (times :func:`patience`) a load; a page
    that is not ready and shows neither message is not loaded again, so only Voila's known
    stalls are retried. The app page's own watch (``moneynb.ui.saves.STALL_WATCH_JS``) may
    load the page again first; the wait then goes on with the new page. Raises
    ``AssertionError`` (with the progress seen) when no load gets ready."""
    import time

    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    seen = []
    for load in range(1, loads + 1):
        if load > 1:
            page.reload(timeout=patience(240_000))
        deadline = time.monotonic() + patience(timeout_ms) / 1000
        last, since = None, time.monotonic()
        while True:
            try:
                page.wait_for_function(ready, arg=arg, timeout=5_000)  # a poll, not a limit
                return
            except PlaywrightTimeout:
                pass
            except PlaywrightError:  # the page loaded itself again (its stall watch)
                last, since = None, time.monotonic()
                continue
            try:
                progress = page.evaluate(_VOILA_PROGRESS_JS, [VOILA_LOADING, VOILA_NOT_FOUND])
            except PlaywrightError:  # as above: a new page, a fresh start
                last, since = None, time.monotonic()
                continue
            now = time.monotonic()
            if progress != last:
                last, since = progress, now
            still = now - since
            if (progress[0] and still > patience(stalled_ms) / 1000) or (
                progress[1] and still > patience(stalled_ms / 8) / 1000
            ):
                break  # stalled: one of Voila's known stalls
            if now > deadline:
                raise AssertionError(
                    f"{name}: the Voila page was not ready after {patience(timeout_ms)} ms "
                    f"(outputs loading, not found, outputs, plots, text: {progress}; earlier loads: "
                    f"{seen})"
                )
        seen.append(progress)
        screenshot(page, f"{name}-voila-stalled-{load}")
        print(
            f"{name}: Voila left {progress[0]} of {progress[2]} outputs reading "
            f"{VOILA_LOADING!r} and {progress[1]} reading {VOILA_NOT_FOUND!r} (voila#1428); "
            f"load {load} of {loads}" + (", loading the page again" if load < loads else "")
        )
    raise AssertionError(
        f"{name}: Voila stalled on every one of {loads} loads (outputs loading, not found, "
        f"outputs, plots, text: {seen})"
    )


def voila_shows(page, selector: str, *, name: str, timeout_ms: float = 240_000) -> None:
    """Wait until the Voila page shows an element matching ``selector`` (rendered, not
    hidden), by :func:`voila_ready` (a page Voila left stalled is loaded again)."""
    voila_ready(
        page,
        "(sel) => { const e = document.querySelector(sel);"
        " return !!(e && e.getClientRects().length); }",
        selector,
        name=name,
        timeout_ms=timeout_ms,
    )


def launcher_form(page, timeout_ms: float = 240_000):
    """The page's game form (``.moneynb-launcher``) once it knows whose browser this is.

    The form learns its owner from the browser after it is drawn, and in the app it then brings
    back that owner's last game and sets its own fields to that game's settings: a choice made
    on the form before then may be overwritten (the whole session shares one browser profile,
    so a later test's page is the same owner as an earlier one). Tests choose only after the
    form is marked ``moneynb-owner-known``. In a Voila page the wait is :func:`voila_ready`
    (a page Voila left stalled is loaded again)."""
    form = page.locator(".moneynb-launcher.moneynb-owner-known").first
    if "/voila/" in page.url:
        voila_ready(
            page,
            "() => !!document.querySelector('.moneynb-launcher.moneynb-owner-known')",
            name="launcher-form",
            timeout_ms=timeout_ms,
        )
    form.wait_for(state="visible", timeout=patience(timeout_ms))
    return form


def press_start(page, form, game_sel: str, timeout_ms: float = 60_000, board: bool = True):
    """Press the form's Start and return the locator of the *new* game's view (``game_sel``).

    A page may already show a game when Start is pressed: the app brings back the owner's
    last game after a reload, and the session's tests share one owner, so an earlier test's
    unfinished game can be on the page (CI, stop 47: a test read the restored game's money
    table instead of its own). The views on the page before the click are marked
    ``data-old``; the wait is for a view without the mark (and, with ``board``, its board
    drawn)."""
    page.evaluate(
        "(sel) => document.querySelectorAll(sel).forEach((v) => { v.dataset.old = '1'; })",
        game_sel,
    )
    form.locator("button.moneynb-launch-start").click()
    fresh = f"{game_sel}:not([data-old])"
    board_js = " && v.querySelector('.js-plotly-plot .scatterlayer .trace')" if board else ""
    page.wait_for_function(
        f"(sel) => {{ const v = document.querySelector(sel); return !!(v{board_js}); }}",
        arg=fresh,
        timeout=patience(timeout_ms),
    )
    return page.locator(fresh)


#: where a view's hot-seat hand-over words are ("Hand over the screen: Bob, it is your turn."),
#: and whether they are in sight: in the window and not under anything (Lab's toolbar):
#: ``(view selector) -> {seen, where}`` (the tester of stop 49: a line of their own above the
#: "Last move" line, scrolled out of sight by every move)
HANDOVER_SEEN_JS = """(view) => {
  const h = document.querySelector(view + ' .moneynb-header .moneynb-handoff');
  if (!h) return {seen: false, where: 'none'};
  const r = h.getBoundingClientRect();
  const hit = document.elementFromPoint(r.right - 4, r.top + r.height / 2);
  return {seen: r.top >= 0 && r.bottom <= innerHeight && !!hit && h.contains(hit),
          where: `${Math.round(r.top)}-${Math.round(r.bottom)} of ${innerHeight}`};
}"""


def settled_in_place(page, timeout_ms: float = 90_000) -> None:
    """Wait until no game view on the page keeps itself in sight any more (``data-moneynb-kept``
    absent or "done": :func:`moneynb.ui.a11y` leaves the page to the user at most 60 s after
    a run). A test that aims the mouse at a pixel of a board computes it after this wait: a
    view still being brought into sight may scroll the page between the aim and the move
    (stop 48's full run: Money Card's hover on Paris never came, the mouse was elsewhere)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('.moneynb-view')]"
        ".every((v) => (v.dataset.moneynbKept || 'done') === 'done')",
        timeout=patience(timeout_ms),
    )


def decision_button(view, classes, skip=("Back", "Cancel")):
    """The first enabled button of ``view``'s pending decision whose CSS class comes first
    in ``classes`` ("" matches any button), leaving out buttons whose whole text is one of
    ``skip`` (regular expressions); ``None`` when there is none."""
    import re

    skip_re = re.compile(r"^\s*(" + "|".join(skip) + r")\s*$", re.I)
    for css in classes:
        b = view.locator(f".moneynb-decision button{css}:not([disabled])").filter(
            has_not_text=skip_re
        )
        if b.count():
            return b.first
    return None


def _kernel_idle(page, timeout_ms: int) -> None:
    page.wait_for_function(
        """() => {
            const ind = document.querySelector('.jp-NotebookPanel .jp-Notebook-ExecutionIndicator');
            if (!ind || ind.getAttribute('data-status') !== 'idle') return false;
            return [...document.querySelectorAll('.jp-StatusBar-Item')]
                .some(e => /\\|\\s*Idle/.test(e.textContent));
        }""",
        timeout=timeout_ms,
    )


def _all_cells_done(page, timeout_ms: int) -> None:
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
            if (!prompts.length) return false;
            if (prompts.some(p => p.textContent.includes('*'))) return false;
            const ind = document.querySelector('.jp-NotebookPanel .jp-Notebook-ExecutionIndicator');
            return ind && ind.getAttribute('data-status') === 'idle'
                && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
        }""",
        timeout=timeout_ms,
    )


#: kernel-side probe code shared by the layout tests (``test_no_clipping_lab_browser``,
#: ``test_zz_boards_fit_browser``): ``next_kinds_button(views, css)`` is a button (class
#: ``css``) and a line (class ``probe-kinds``, JSON ``{"seq": n, "shown": {game: kind}}``);
#: each click takes every view of ``views`` (``{game: GameView}``) on to the person's next
#: decision of a kind not shown yet, two greedy bots playing the moves in between in the
#: engine, and shows that position. A kind is the engine's decision kind, the prompt's first
#: word (Buy, Auction, Spin, Deposit, ...) and whether the player is short of cash.
NEXT_KINDS_CODE = r"""
import json as _json
import re as _re
import ipywidgets as _W
from moneynb.bots import make_bot as _make_bot

def kind_of(d):
    t = _re.sub(r"\$[\d,]+|\d+", "N", d.prompt)
    first = (t.split() or [""])[0].strip(":?,.")
    short = " (short of cash)" if _re.search(r"\bowes?\b|\bholds? N", t) else ""
    return f"{d.kind} {first}{short}"

def next_kinds_button(views, css):
    seen = {name: set() for name in views}
    kinds = _W.HTML(_json.dumps({"seq": 0, "shown": {}}))
    kinds.add_class("probe-kinds")

    def next_kinds(_=None):
        shown = {}
        for name, v in views.items():
            g = v.game.copy()
            bots = [_make_bot("greedy", seed=11 + i) for i in range(len(g.players))]
            for _i in range(600):
                d = g.decision
                if d is None:
                    break
                k = kind_of(d)
                if v.is_human(d.player) and k not in seen[name]:
                    seen[name].add(k)
                    shown[name] = k
                    v._replace_game(g)
                    break
                g.apply(bots[d.player].choose(g))
        kinds.value = _json.dumps({"seq": _json.loads(kinds.value)["seq"] + 1, "shown": shown})

    go = _W.Button(description="next kinds")
    go.add_class(css)
    go.on_click(next_kinds)
    return _W.HBox([go, kinds])
"""


def write_probe_notebook(path: Path, source: str) -> None:
    """Write a notebook of one code cell holding ``source`` (a test's probe) to ``path``."""
    nb = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
                   "execution_count": None}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    path.write_text(json.dumps(nb))


def open_and_run(page, lab_server, notebook: str, timeout_s: float = 45) -> None:
    """Open ``notebook`` (path under the repo, e.g. ``"notebooks/money_moves.ipynb"``), wait for
    an idle kernel, run all cells (retrying once if the run did not start) and wait until
    every code cell has run."""
    base, _root = lab_server
    # ?reset: open only this notebook, not the tabs an earlier test left in the workspace
    page.goto(f"{base}/lab/tree/{notebook}?reset")
    page.wait_for_selector(
        ".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=patience(timeout_s * 1000)
    )
    _kernel_idle(page, patience(timeout_s * 1000))
    for attempt in range(2):
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        try:
            page.wait_for_function(
                """() => { const p = document.querySelector('.jp-Notebook .jp-CodeCell .jp-InputPrompt');
                           return p && /\\[(\\*|\\d+)\\]/.test(p.textContent); }""",
                timeout=patience(5000),
            )
            break
        except Exception:
            if attempt == 1:
                raise
            _kernel_idle(page, patience(timeout_s * 1000))
    _all_cells_done(page, patience(timeout_s * 1000))
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    tracebacks = page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
    if tracebacks.count():
        raise AssertionError("a cell raised:\n" + tracebacks.first.inner_text()[:2000])
    del errors


def screenshot(page, name: str, element=None) -> list[Path]:
    """Save ``test-output/<name>.png`` (the viewport) and, with ``element`` (a Locator),
    ``test-output/<name>-widget.png``; returns the paths."""
    OUTPUT.mkdir(exist_ok=True)
    paths = [OUTPUT / f"{name}.png"]
    page.screenshot(path=str(paths[0]))
    if element is not None:
        paths.append(OUTPUT / f"{name}-widget.png")
        element.screenshot(path=str(paths[1]))
    return paths
