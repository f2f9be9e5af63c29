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
    from moneynb.ui.coach import coach

    ms = []
    for i in steps[:60]:
        s = r.state(i)
        t = time.perf_counter()
        coach(s)
        ms.append((time.perf_counter() - t) * 1000)
    print(f"  coach per step (first visit, cached after): {stats(ms)}")


if __name__ == "__main__":
    main()
