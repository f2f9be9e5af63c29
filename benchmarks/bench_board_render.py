"""Board render benchmark (a script, not a test): how long plotly.js takes, in Chromium, to
apply one board update of each game.

The page-side cost of a move is mostly plotly redrawing the board. This script isolates it
from the kernel and the network: it plays a seeded game of greedy bots in Python, records
every message a real board update sends to the page (``_send_update_msg`` and friends of the
board's ``FigureWidget``), then replays them in a bare page with plotly.js (the copy plotly
ships) and times each update's ``Plotly.update`` / ``restyle`` / ``relayout`` calls. Each run
is replayed ``--repeats`` times and only the last pass is timed (the first warms up).

Prints, per game: the figure's traces, points and layout annotations/shapes, and the median
and max ms per board update.

Usage::

    python benchmarks/bench_board_render.py                   # all games, 80 updates each
    python benchmarks/bench_board_render.py --games moolah --updates 40

Needs Chromium (``/usr/bin/chromium`` or ``$MONEYNB_CHROMIUM``) and playwright.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

import plotly
import plotly.utils

import moneynb
from moneynb.ui.boards import board_for
from moneynb.ui.boards.base import BoardFigure

GAMES = ["money_moves", "moolah", "easy_money", "money_card", "money_run"]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
SENDS = ("_send_update_msg", "_send_restyle_msg", "_send_relayout_msg")

_REPLAY_JS = """async ([fig, updates, repeats]) => {
    const gd = document.getElementById('board');
    await Plotly.newPlot(gd, fig.data, fig.layout, {displayModeBar: false});
    let times = [];
    for (let r = 0; r < repeats; r++) {
        times = [];
        for (const msgs of updates) {
            const t0 = performance.now();
            for (const [name, k] of msgs) {
                if (name === '_send_update_msg')
                    Plotly.update(gd, k.restyle_data, k.relayout_data, k.trace_indexes);
                else if (name === '_send_restyle_msg')
                    Plotly.restyle(gd, k.restyle_data, k.trace_indexes);
                else
                    Plotly.relayout(gd, k.relayout_data);
            }
            times.push(performance.now() - t0);
        }
    }
    return times;
}"""


def record(game_name: str, n_updates: int, seed: int = 5) -> tuple[dict, list]:
    """Play ``game_name`` (3 greedy bots, ``seed``) for up to ``n_updates`` actions, each followed
    by the view's ``update`` + ``highlight``; returns ``(figure_json, updates)`` where each
    update is the list of ``(method, kwargs)`` messages the figure sent for it."""
    updates: list[list] = []
    originals = {name: getattr(BoardFigure, name) for name in SENDS}

    def hook(name):
        argnames = {
            "_send_update_msg": ("restyle_data", "relayout_data", "trace_indexes"),
            "_send_restyle_msg": ("restyle_data", "trace_indexes"),
            "_send_relayout_msg": ("relayout_data",),
        }[name]

        def send(self, *args, **kwargs):
            if updates:
                msg = dict(zip(argnames, args, strict=False))
                msg.update({k: v for k, v in kwargs.items() if k in argnames})
                updates[-1].append((name, msg))
            return originals[name](self, *args, **kwargs)

        return send

    for name in SENDS:
        setattr(BoardFigure, name, hook(name))
    try:
        game = moneynb.new_game(game_name, players=["Ann", "Bob", "Cy"], seed=seed)
        board = board_for(game)
        fig = board.figure.to_plotly_json()
        bot = moneynb.make_bot("greedy", seed=seed)
        while len(updates) < n_updates and not game.over:
            n0 = len(game.log)
            game.apply(bot.choose(game))
            updates.append([])
            board.update(game, game.log[n0:])
            board.highlight(game.decision)
    finally:
        for name, fn in originals.items():
            setattr(BoardFigure, name, fn)
    as_json = json.dumps([fig, updates], cls=plotly.utils.PlotlyJSONEncoder, default=lambda o: None)
    fig, updates = json.loads(as_json)
    return fig, updates


def describe(fig: dict) -> str:
    points = sum(len(t.get("x") or []) for t in fig["data"])
    lay = fig["layout"]
    return (f"{len(fig['data'])} traces, {points} points, "
            f"{len(lay.get('annotations', []))} annotations, {len(lay.get('shapes', []))} shapes")  # fmt: skip


def main(argv=None) -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="+", default=GAMES, choices=GAMES)
    ap.add_argument("--updates", type=int, default=80)
    ap.add_argument("--repeats", type=int, default=2)
    a = ap.parse_args(argv)
    plotly_js = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    exe = os.environ.get("MONEYNB_CHROMIUM", "/usr/bin/chromium")
    print("ms per board update, plotly.js in Chromium (kernel and network excluded)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        for g in a.games:
            fig, updates = record(g, a.updates)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_content("<div id='board' style='width:900px'></div>")
            page.add_script_tag(path=str(plotly_js))
            times = page.evaluate(_REPLAY_JS, [fig, updates, max(1, a.repeats)])
            page.close()
            print(f"{g:12s} median {statistics.median(times):6.1f}   max {max(times):6.1f}   "
                  f"(n={len(times)}; {describe(fig)})", flush=True)  # fmt: skip
        browser.close()


if __name__ == "__main__":
    main()
