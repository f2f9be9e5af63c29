"""Which decisions does the coach say nothing (or no engine-checked number) about?

Walks seeded greedy-bot games of all five games (3 players) and, at every pending decision,
asks :func:`moneynb.ui.coach.coach`. Prints, per game and decision tag: how many states were
seen, how many had no coaching at all, how many had coaching without an engine-checked number
(``Coaching.checks`` empty), and the median / max milliseconds per coach call.

Usage: ``python scripts/coach_coverage.py [games per game-name] [max decisions per game]``
(defaults 3 and 600). A survey, not a test.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict

import moneynb
from moneynb.ui.coach import coach

GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]


def survey(name: str, n_games: int, cap: int) -> dict:
    """``{tag: {"seen", "none", "unchecked", "ms": [..]}}`` over ``n_games`` seeded games."""
    out: dict = defaultdict(lambda: {"seen": 0, "none": 0, "unchecked": 0, "ms": []})
    for seed in range(n_games):
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
        steps = 0
        while not g.over and steps < cap:
            tag = g.decision.tag
            row = out[tag]
            t0 = time.perf_counter()
            c = coach(g)
            row["ms"].append(1000 * (time.perf_counter() - t0))
            row["seen"] += 1
            if c is None:
                row["none"] += 1
            elif not c.checks:
                row["unchecked"] += 1
            g.apply(bots[g.decision.player].choose(g))
            steps += 1
    return out


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cap = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    print(
        f"{'game':12} {'tag':22} {'seen':>5} {'none':>5} {'unchk':>5} {'med ms':>7} {'max ms':>7}"
    )
    for name in GAMES:
        for tag, r in sorted(survey(name, n_games, cap).items()):
            print(
                f"{name:12} {tag:22} {r['seen']:5} {r['none']:5} {r['unchecked']:5} "
                f"{statistics.median(r['ms']):7.1f} {max(r['ms']):7.1f}"
            )


if __name__ == "__main__":
    main()
