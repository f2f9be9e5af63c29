"""Replay scrubbing benchmark (a script, not a test; issue 19): how long moving the replay's
slider to a random step of a long game takes in the kernel.

It plays a seeded Easy Money game of four greedy bots (seed chosen so the game is at least
``--actions`` actions long; the default 500), then jumps to ``--jumps`` random steps (seeded)
and times, per jump:

* ``state``: :meth:`moneynb.core.replay.Replay.state` alone (nearest snapshot copied, then at
  most ``every - 1`` actions applied);
* ``widget``: the whole step change of :class:`moneynb.ui.replay.ReplayView` in the kernel
  (state, board update, money table, log, decision panel, board text, chart marker), the
  Coach off (its numbers are a separate figure: ``coach``, per step, first visit);
* ``build``: making the Replay (one pass over the game keeping snapshots) and the view.

Prints the median and p90 in ms of each, for the default snapshot spacing and, for
comparison, for a replay keeping only the start (``every`` = the whole game: a jump back
replays from the start, a jump forward from the step shown; the "before" of this design). The page-side cost (plotly.js redrawing the
board) is measured by ``benchmarks/bench_board_render.py``.

Usage::

    python benchmarks/bench_replay.py
    python benchmarks/bench_replay.py --actions 500 --jumps 200 --game easy_money
    python benchmarks/bench_replay.py --browser 40     # and the page (Voila + Chromium)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import moneynb
from moneynb.core.replay import SNAPSHOT_EVERY, Replay


def long_game(name: str, players: int, actions: int):
    """The first seeded greedy-bot game of ``name`` with at least ``actions`` actions."""
    for seed in range(200):
        g = moneynb.new_game(name, players=[f"Bot {i + 1}" for i in range(players)], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=seed * 10 + i) for i in range(players)]
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        if len(g.actions) >= actions:
            return g
    raise SystemExit(f"no {name} game of {actions}+ actions among seeds 0..199")


def stats(ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return f"median {statistics.median(ms):7.2f} ms   p90 {p90:7.2f} ms   max {ms[-1]:7.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="easy_money")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--actions", type=int, default=500)
    ap.add_argument("--jumps", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--browser", type=int, default=0, help="steps timed in Chromium (0: none)")
    args = ap.parse_args()

    from moneynb.ui.replay import ReplayView

    g = long_game(args.game, args.players, args.actions)
    text = g.to_json()
    print(f"{g.title}, {len(g.players)} greedy bots, seed {g.seed}: {len(g.actions)} actions")
    rng = random.Random(args.seed)
    steps = [rng.randrange(len(g.actions) + 1) for _ in range(args.jumps)]

    for label, every in (("from the start (before)", len(g.actions) + 1),
                         (f"snapshots every {SNAPSHOT_EVERY}", SNAPSHOT_EVERY)):  # fmt: skip
        t = time.perf_counter()
        r = Replay(text, every=every)
        build = (time.perf_counter() - t) * 1000
        ms = []
        for i in steps:
            t = time.perf_counter()
            r.state(i)
            ms.append((time.perf_counter() - t) * 1000)
        print(f"  state, {label:22}: {stats(ms)}   (build {build:.0f} ms)")

    for label, every in (("from the start (before)", len(g.actions) + 1),
                         (f"snapshots every {SNAPSHOT_EVERY}", SNAPSHOT_EVERY)):  # fmt: skip
        t = time.perf_counter()
        view = ReplayView(Replay(text, every=every), coach=False)
        build = (time.perf_counter() - t) * 1000
        ms = []
        for i in steps:
            view.go(i)
            ms.append(view.last_update_ms)
        print(f"  widget, {label:21}: {stats(ms)}   (build {build:.0f} ms)")

    r = Replay(text)
    from moneynb.coach import coach

    ms = []
    for i in steps[:60]:
        s = r.state(i)
        t = time.perf_counter()
        coach(s)
        ms.append((time.perf_counter() - t) * 1000)
    print(f"  coach per step (first visit, cached after): {stats(ms)}")
    if args.browser:
        browser(text, [rng.randrange(len(g.actions) + 1) for _ in range(args.browser)])


_HOOK_JS = """() => {
    const view = document.querySelector('.moneynb-replay');
    const rp = window.__rp = {t0: null, target: null, ms: null, parts: {}};
    const PARTS = {board: '.moneynb-board', money: '.moneynb-money', log: '.moneynb-log',
                   chart: '.moneynb-replay-chart', decision: '.moneynb-replay-decision'};
    document.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && e.target.closest('.moneynb-replay-slider'))
            rp.t0 = performance.now();
    }, true);
    new MutationObserver((records) => {
        const now = performance.now();
        if (rp.t0 !== null && rp.ms === null) {
            for (const r of records) {
                const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
                for (const [k, css] of Object.entries(PARTS))
                    if (!(k in rp.parts) && el && el.closest(css)) rp.parts[k] = now - rp.t0;
            }
        }
        const s = view.querySelector('.moneynb-replay-step-text');
        if (rp.t0 !== null && rp.ms === null && s && Number(s.dataset.step) === rp.target)
            rp.ms = performance.now() - rp.t0;
    }).observe(view, {childList: true, subtree: true, attributes: true, characterData: true});
}"""


def browser(text: str, steps: list[int]) -> None:
    """Serve a replay of ``text`` with Voila and time typed steps in Chromium (see above)."""
    import sys
    from pathlib import Path

    import nbformat
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
    from conftest import CHROMIUM_ARGS, find_chromium
    from servers import jupyter_server

    with jupyter_server("voila") as (base, root):
        (root / "notebooks" / "bench-replay.json").write_text(text)
        code = "import moneynb\nmoneynb.replay('bench-replay.json', coach=False)"
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(nb, root / "notebooks" / "bench_replay.ipynb")
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            page = b.new_page(viewport={"width": 1400, "height": 1400})
            page.goto(f"{base}/voila/render/bench_replay.ipynb", timeout=240_000)
            page.wait_for_selector(".moneynb-replay .js-plotly-plot .scatterlayer .trace",
                                   timeout=240_000)  # fmt: skip
            page.evaluate(_HOOK_JS)
            readout = page.locator(".moneynb-replay-slider .widget-readout")
            ms, shown, parts = [], 0, {}
            for i in steps:
                if i == shown:
                    continue
                page.evaluate("(i) => Object.assign(window.__rp, {t0: null, target: i, ms: null, parts: {}})",
                              i)  # fmt: skip
                readout.click()
                page.keyboard.press("Control+a")
                page.keyboard.type(str(i))
                page.keyboard.press("Enter")
                page.wait_for_function("() => window.__rp.ms !== null", timeout=30_000)
                ms.append(page.evaluate("() => window.__rp.ms"))
                for k, v in page.evaluate("() => window.__rp.parts").items():
                    parts.setdefault(k, []).append(v)
                shown = i
            b.close()
    print(f"  page (Voila, Chromium), Enter -> step shown: {stats(ms)}   ({len(ms)} steps)")
    for k, v in parts.items():
        print(f"    first change of {k:9}: {stats(v)}")


if __name__ == "__main__":
    main()
