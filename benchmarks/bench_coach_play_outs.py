"""Benchmark (a script, not a test): the time per coached decision where the Coach ranks the
options by seeded play-outs (issue 30, section 5): Moolah's Bank, Easy Money's offers, Money
Moves' House Bank loan, Money Run's actions.

Plays seeded greedy-bot games (players A, B, C) and, at every decision of those tags, asks
:func:`moneynb.coach.coach` with its cache cleared (the work itself, as a player's first look
at the decision; its first line read, which works the ranking out). Prints per game and tag:
decisions seen, how many got a "Best:" line and how many "No clear best", the median play-outs per option and engine actions played, and the
median / max milliseconds per coached decision, wall-clock and CPU of this process
(``time.process_time``: steadier on a shared machine). The machine's load is printed before and
after (``os.getloadavg``). The work is capped by an action budget per decision (the
``*_BUDGET`` constants in ``moneynb/coach``), so the same decision gets the same answer on any
machine; only the time varies.

Usage: ``python benchmarks/bench_coach_play_outs.py [games per game-name] [game ...]``
(defaults 2 and all four).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import defaultdict

import moneynb
from moneynb.coach import clear_cache, coach

TAGS = {
    "moolah": ("first_withdrawal", "bank", "bank_amount"),
    "easy_money": ("offer_item", "offer_to", "offer_price"),
    "money_moves": ("borrow",),
    "money_run": ("action",),
}
#: most decisions of one tag timed per game (Money Run asks "action" twice a turn)
PER_GAME = 12


def run(name: str, n_games: int) -> dict:
    rows: dict = defaultdict(
        lambda: {"best": 0, "tied": 0, "n": [], "acts": [], "ms": [], "cpu": []}
    )
    for seed in range(n_games):
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
        seen: dict = defaultdict(int)
        while not g.over:
            d = g.decision
            if d.tag in TAGS[name] and seen[d.tag] < PER_GAME:
                seen[d.tag] += 1
                clear_cache()
                t0, c0 = time.perf_counter(), time.process_time()
                c = coach(g)
                if c is not None:
                    c.headline  # noqa: B018 - the ranking is worked out when first read
                r = rows[d.tag]
                r["cpu"].append(1000 * (time.process_time() - c0))
                r["ms"].append(1000 * (time.perf_counter() - t0))
                po = c.numbers.get("play_outs") if c is not None else None
                if po is not None:
                    r["n"].append(po.n)
                    r["acts"].append(po.actions)
                    r["best" if c.best is not None else "tied"] += 1
            g.apply(bots[d.player].choose(g))
    return rows


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    names = sys.argv[2:] or list(TAGS)
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'game':12} {'tag':17} {'seen':>4} {'best':>4} {'tied':>4} {'med n':>5} "
          f"{'med acts':>8} {'med ms':>7} {'max ms':>7} {'med cpu':>7} {'max cpu':>7}")  # fmt: skip
    for name in names:
        for tag, r in run(name, n_games).items():
            med = statistics.median
            print(
                f"{name:12} {tag:17} {len(r['ms']):4} {r['best']:4} {r['tied']:4} "
                f"{med(r['n']) if r['n'] else 0:5.0f} {med(r['acts']) if r['acts'] else 0:8.0f} "
                f"{med(r['ms']):7.0f} {max(r['ms']):7.0f} {med(r['cpu']):7.0f} "
                f"{max(r['cpu']):7.0f}",
                flush=True,
            )
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
