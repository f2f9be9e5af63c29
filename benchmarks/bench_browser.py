"""Browser benchmark (a script, not a test): click -> board updated, for a person's move.

For each front end (Voila, JupyterLab) and each game, opens the game's notebook, starts a game
from the launcher form (seat 1 a person, the others greedy bots, a fixed seed), then presses
the pending decision's button ``--moves`` times with the Coach off and ``--moves`` times with
the Coach on. Every latency is timed INSIDE the page: a capturing click listener stamps
``performance.now()``, and MutationObservers record the first change of the plotly figure
(``.moneynb-board .js-plotly-plot``: "board") and of the header's action counter ("label")
after it. Moves that leave the figure unchanged count only for "label".

Prints, per front end, game and Coach setting: moves, median, 90th percentile and max (ms)
for board and label.

Usage::

    python benchmarks/bench_browser.py                      # both front ends, all games
    python benchmarks/bench_browser.py --frontends voila --games moolah --moves 20

Needs Chromium (``/usr/bin/chromium`` or ``$MONEYNB_CHROMIUM``), playwright, voila, jupyterlab.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from servers import jupyter_server  # noqa: E402

GAMES = ["money_moves", "moolah", "easy_money", "money_card", "money_run"]
GAME = ".moneynb-launch-game-box .moneynb-view"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip

_HOOK_JS = """(view) => {
    // one observer on the whole game box: robust to plotly/ipywidgets replacing elements
    const box = view.closest('.moneynb-launch-game-box') || view;
    window.__mn = {t0: null, board: null, label: null};
    if (!window.__mnClick) {
        window.__mnClick = true;
        document.addEventListener('click', (e) => {
            if (!e.target.closest('.moneynb-launch-game-box')) return;
            if (e.target.closest('.moneynb-coach-toggle')) return;
            window.__mn = {t0: performance.now(), board: null, label: null};
        }, true);
    }
    new MutationObserver((records) => {
        const m = window.__mn, now = performance.now();
        if (m.t0 === null) return;
        for (const r of records) {
            const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
            if (!el) continue;
            if (m.board === null && el.closest('.js-plotly-plot')) m.board = now - m.t0;
            if (m.label === null && el.closest('.moneynb-header')) m.label = now - m.t0;
        }
    }).observe(box, {subtree: true, childList: true, attributes: true, characterData: true});
}"""

_ACTIONS_JS = """(view) => {
    const m = /action (\\d+)/.exec(view.querySelector('.moneynb-header').textContent);
    return {n: m ? Number(m[1]) : -1,
            over: /Game over/.test(view.querySelector('.moneynb-header').textContent)};
}"""


def _next_button(view):
    """The control to press: Roll, Submit/Go, then an option or player button that does not
    go back (Back/Cancel would loop without moving on), then any button."""
    for css in (".moneynb-roll", ".moneynb-submit", ".moneynb-option", ".moneynb-player", ""):
        b = view.locator(f".moneynb-decision button{css}:not([disabled])").filter(
            has_not_text=re.compile(r"^\s*(Back|Cancel)\s*$", re.I)
        )
        if b.count():
            return b.first
    return None


def _start(page, seed: int):
    """Press Start on the launcher form with ``seed``; returns the game view (hooks set)."""
    form = page.locator(".moneynb-launcher").first
    page.evaluate(f"() => document.querySelectorAll('{GAME}').forEach(v => v.dataset.mnOld = '1')")
    seed_box = form.locator(".moneynb-launch-seed input")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    form.locator("button.moneynb-launch-start").click()
    view = page.locator(GAME)
    page.wait_for_function(
        f"""(s) => {{ const v = document.querySelector('{GAME}:not([data-mn-old])');
            return v && v.querySelector('.js-plotly-plot .main-svg')
                && /action \\d+/.test(v.querySelector('.moneynb-header').textContent); }}""",
        arg=seed,
        timeout=60_000,
    )
    time.sleep(0.5)
    view.evaluate(_HOOK_JS)
    return view


def _moves(page, view, n_moves: int, seed: list) -> tuple[list, list]:
    board, label = [], []
    stuck = failed = 0
    while len(label) < n_moves:
        if failed >= 5:
            print(f"  (gave up after {len(label)} moves: 5 clicks changed nothing)", flush=True)
            break
        st = view.evaluate(_ACTIONS_JS)
        b = None if st["over"] else _next_button(view)
        if b is None:
            stuck += 1
            if stuck > 3:
                seed[0] += 1
                view = _start(page, seed[0])
                stuck = 0
            else:
                time.sleep(0.5)
            continue
        try:
            b.click(timeout=20_000)
        except Exception:  # noqa: BLE001 - detached or hidden: look again
            failed += 1
            continue
        try:
            page.wait_for_function(
                f"""(n) => {{ const m = /action (\\d+)/.exec(
                        document.querySelector('{GAME} .moneynb-header').textContent);
                    return (m && Number(m[1]) > n) ||
                        document.querySelector('{GAME} .moneynb-error').textContent.trim(); }}""",
                arg=st["n"],
                timeout=20_000,
            )
        except Exception:  # noqa: BLE001 - a click that did nothing: try the next control
            failed += 1
            continue
        try:  # let a late board update arrive (a move may also leave the board as it was)
            page.wait_for_function("() => window.__mn.board !== null", timeout=1500)
        except Exception:  # noqa: BLE001
            pass
        m = page.evaluate("() => window.__mn")
        if m["label"] is not None:
            label.append(m["label"])
            if m["board"] is not None:
                board.append(m["board"])
    return board, label


def _p90(xs: list) -> float:
    """The 90th percentile (nearest rank) of ``xs``."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, -(-9 * len(s) // 10) - 1))]


def _fmt(xs: list) -> str:
    if not xs:
        return "     -        -        -   (n=0)"
    return f"{statistics.median(xs):6.0f}   {_p90(xs):6.0f}   {max(xs):6.0f}   (n={len(xs)})"


def run(frontends, games, n_moves: int) -> list[tuple]:
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("MONEYNB_CHROMIUM", "/usr/bin/chromium")
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        for fe in frontends:
            for game in games:
                # one server per game: a second notebook opened in the same JupyterLab
                # sometimes never ran (the kernel stayed idle)
                with jupyter_server(fe) as (base, _root):
                    page = browser.new_page(viewport={"width": 1400, "height": 1400})
                    page.set_default_timeout(60_000)
                    t0 = time.perf_counter()
                    if fe == "voila":
                        page.goto(f"{base}/voila/render/{game}.ipynb", timeout=300_000)
                        page.locator(".moneynb-launcher").first.wait_for(timeout=300_000)
                    else:
                        from conftest import open_and_run

                        open_and_run(page, (base, None), f"notebooks/{game}.ipynb", timeout_s=240)
                    load = time.perf_counter() - t0
                    seed = [1]
                    view = _start(page, seed[0])
                    for coach_on in (False, True):
                        if coach_on:
                            view.locator("button.moneynb-coach-toggle").click()
                            time.sleep(1.0)
                        board, label = _moves(page, page.locator(GAME), n_moves, seed)
                        rows.append((fe, game, coach_on, board, label, load))
                        print(f"{fe:6s} {game:12s} coach {'on ' if coach_on else 'off'}  "
                              f"board {_fmt(board)}   label {_fmt(label)}   "
                              f"(page ready in {load:.0f} s)", flush=True)  # fmt: skip
                    page.close()
        browser.close()
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frontends", nargs="+", default=["voila", "lab"], choices=["voila", "lab"])
    ap.add_argument("--games", nargs="+", default=GAMES, choices=GAMES)
    ap.add_argument("--moves", type=int, default=20)
    a = ap.parse_args(argv)
    # a SIGTERM ends the run through the context managers, so the servers are stopped too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print("click -> updated, ms, timed in the page: median   p90   max   (moves)")
    rows = run(a.frontends, a.games, a.moves)
    print("\nsummary (board = plotly figure changed; label = header action counter changed)")
    print(
        f"{'front':6s} {'game':12s} {'coach':5s}  {'board median/p90/max':>33s}   label median/p90/max"
    )
    for fe, game, coach_on, board, label, _ in rows:
        print(f"{fe:6s} {game:12s} {'on' if coach_on else 'off':5s}  {_fmt(board)}   {_fmt(label)}")


if __name__ == "__main__":
    main()
