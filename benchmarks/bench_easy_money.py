"""Benchmark: Easy Money full games per second and turns per second, greedy bots, one core.

Run: ``python benchmarks/bench_easy_money.py [n_games]``. Four greedy bots play seeded games
with the default turn cap (``max_rounds=50``: 200 turns, a long evening's game); a game ends
earlier by bankruptcy or a broken Bank. Prints games/s, turns/s, actions/s and how the games
ended.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import moneynb
from moneynb.bots import make_bot, play_out

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def main(n_games: int = 200) -> dict:
    """Play ``n_games`` seeded greedy games; return the measured rates."""
    turns = actions = 0
    ends: Counter = Counter()
    t0 = time.perf_counter()
    for seed in range(n_games):
        g = moneynb.new_game("easy_money", players=PLAYERS, seed=seed)
        actions += play_out(g, [make_bot("greedy", seed=seed * 10 + k) for k in range(4)])
        turns += g.turns + (0 if g.end_reason.startswith("the turn cap") else 1)
        ends["bankruptcy" if "bankrupt" in g.end_reason else g.end_reason] += 1
    dt = time.perf_counter() - t0
    out = {
        "games_per_s": n_games / dt,
        "turns_per_s": turns / dt,
        "actions_per_s": actions / dt,
        "ms_per_game": 1000 * dt / n_games,
        "turns_per_game": turns / n_games,
    }
    print(f"Easy Money, 4 greedy bots, max_rounds=50, {n_games} games in {dt:.1f} s")
    print(f"  {out['games_per_s']:.1f} games/s  {out['turns_per_s']:,.0f} turns/s  "
          f"{out['actions_per_s']:,.0f} actions/s  ({out['ms_per_game']:.1f} ms/game, "
          f"{out['turns_per_game']:.0f} turns/game)")  # fmt: skip
    print("  ended by:", dict(ends))
    return out


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
