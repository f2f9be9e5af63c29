"""Benchmark: the kernel's time for one click of a person in a game view, per game.

A click is the person's move, the bots' moves after it and the redraw (header, board, panel,
log), all in the kernel (no page): the time a player waits before the page is sent the new
state. It replaces the timed test ``test_ui.py::test_money_moves_click_latency`` (0.1 s limit;
issue 38: speed is measured by benchmarks that print figures, never by timed tests); the
property that test protected (one board update per click, few widget messages) is tested by
``test_ui.py::test_money_moves_click_sends_one_board_update_and_few_messages``.

Run: ``python benchmarks/bench_click.py [--games money_moves,moolah] [--clicks 15]``
(one process; the person against two greedy bots, seed 3, the greedy bot choosing the
person's moves; the Coach off). Prints per game the median, 90th percentile and largest
time per click in ms, and the bot moves per click.
"""

from __future__ import annotations

import argparse
import os
import time

import moneynb
from moneynb.bots import make_bot

GAMES = ("money_moves", "moolah", "easy_money", "money_card", "money_run")


def clicks(game: str, n: int, seed: int = 3) -> tuple[list[float], int]:
    """Times (s) of ``n`` clicks of "You" in ``game`` (fewer if it ends), and the bot moves."""
    players = ["You", "bot:greedy"] if game == "money_run" else ["You", "bot:greedy", "bot:greedy"]
    view = moneynb.play(game, players=players, seed=seed, autosave=False)
    you = make_bot("greedy", seed=seed)
    times, bot_moves = [], 0
    for _ in range(n):
        if view.game.over:
            break
        action = you.choose(view.game)
        before = len(view.game.actions)
        t = time.perf_counter()
        view.submit(action)
        times.append(time.perf_counter() - t)
        bot_moves += len(view.game.actions) - before - 1
    return times, bot_moves


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--clicks", type=int, default=15)
    a = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}; one process, the Coach off")
    print(
        f"{'game':<12} {'clicks':>6} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'bot moves/click':>16}"
    )
    for game in a.games.split(","):
        times, bots = clicks(game, a.clicks)
        if not times:
            print(f"{game:<12} no click (game over at once)")
            continue
        s = sorted(times)
        med, p90 = s[len(s) // 2], s[min(len(s) - 1, int(0.9 * len(s)))]
        print(
            f"{game:<12} {len(s):>6} {med * 1000:>10.1f} {p90 * 1000:>8.1f} {s[-1] * 1000:>8.1f}"
            f" {bots / len(s):>16.1f}"
        )


if __name__ == "__main__":
    main()
