"""Which decisions does the coach say nothing (or no engine-checked number) about, and how
long does it take at each?

Walks seeded greedy-bot games of all five games (3 players) and, at every pending decision,
asks :func:`moneynb.coach.coach` (a fresh call each time: no cache). Prints, per game and
decision tag: how many states were seen, how many of them were real choices (more than one
option, or an amount range), how many had no coaching at all, how many real choices had no
coaching (``real none``), how many had coaching without an engine-checked number
(``Coaching.checks`` empty), how many real choices the Coach ranked with a "Best:" line
(``best``: ``Coaching.best`` set), how many it ranked and found no clear best among (``tied``:
``Coaching.ranking`` set, ``best`` not: seeded play-outs that cannot tell the options apart,
:mod:`moneynb.coach.rollouts`), how many real choices it did not rank at all (``unrkd``), and
the median / max milliseconds per coach call (the kernel's
time for the Coach of one decision): wall-clock (what a player waits) and CPU time of this
process (``time.process_time``: steadier on a shared machine, equal to wall-clock when the
machine is idle). Ends with the machine's load (``os.getloadavg``) and the
list of real choices the coach said nothing about.

Usage: ``python scripts/coach_coverage.py [games per game-name] [max decisions per game]
[game ...]`` (defaults 3, 600, all five). A survey and a benchmark, not a test.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import defaultdict

import moneynb
from moneynb import coach as coach_module

GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]


def real_choice(d) -> bool:
    """A decision with something to choose: two or more options, or an amount range."""
    n = len(d.options)
    if d.kind == "amount" and d.low is not None and d.high is not None and d.high > d.low:
        n += 2
    return n > 1


def survey(name: str, n_games: int, cap: int) -> dict:
    """``{tag: {"seen", "real", "none", "real_none", "unchecked", "ms": [..]}}`` over
    ``n_games`` seeded games."""
    out: dict = defaultdict(
        lambda: {
            "seen": 0,
            "real": 0,
            "none": 0,
            "real_none": 0,
            "unchecked": 0,
            "ranked": 0,
            "tied": 0,
            "unranked": 0,
            "ms": [],
            "cpu": [],
        }
    )
    clear = getattr(coach_module, "clear_cache", None)
    for seed in range(n_games):
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
        steps = 0
        while not g.over and steps < cap:
            d = g.decision
            row = out[d.tag]
            if clear is not None:
                clear()  # time the work, not a cache hit
            t0, c0 = time.perf_counter(), time.process_time()
            c = coach_module.coach(g)
            if c is not None:
                c.headline  # noqa: B018 - a deferred ranking is worked out when first read
            row["cpu"].append(1000 * (time.process_time() - c0))
            row["ms"].append(1000 * (time.perf_counter() - t0))
            row["seen"] += 1
            real = real_choice(d)
            row["real"] += real
            if c is None:
                row["none"] += 1
                row["real_none"] += real
            else:
                row["unchecked"] += not c.checks
                row["ranked"] += real and c.best is not None
                row["tied"] += real and c.best is None and bool(c.ranking)
            row["unranked"] += real and (c is None or not c.ranking)
            g.apply(bots[d.player].choose(g))
            steps += 1
    return out


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cap = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    names = sys.argv[3:] or GAMES
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'game':12} {'tag':22} {'seen':>5} {'real':>5} {'none':>5} {'real none':>9} "
        f"{'unchk':>5} {'best':>5} {'tied':>5} {'unrkd':>5} {'med ms':>7} {'max ms':>7} {'med cpu':>7} {'max cpu':>7}"
    )
    gaps, unranked = [], []
    for name in names:
        for tag, r in sorted(survey(name, n_games, cap).items()):
            print(
                f"{name:12} {tag:22} {r['seen']:5} {r['real']:5} {r['none']:5} "
                f"{r['real_none']:9} {r['unchecked']:5} {r['ranked']:5} {r['tied']:5} "
                f"{r['unranked']:5} "
                f"{statistics.median(r['ms']):7.1f} {max(r['ms']):7.1f} "
                f"{statistics.median(r['cpu']):7.1f} {max(r['cpu']):7.1f}",
                flush=True,
            )
            if r["real_none"]:
                gaps.append(f"{name} {tag} ({r['real_none']})")
            if r["unranked"]:
                unranked.append(f"{name} {tag} ({r['unranked']})")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("real choices with no coach: " + (", ".join(gaps) if gaps else "none"))
    print("real choices not ranked: " + (", ".join(unranked) if unranked else "none"))


if __name__ == "__main__":
    main()
