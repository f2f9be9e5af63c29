"""Benchmark: Moolah full games per second and actions per second with greedy bots.

Run: ``python benchmarks/bench_moolah.py [n_games]`` (one core, one process). Three greedy
bots, seeds 0..n-1; also reports how the games ended (the $1,000,000 goal, last player
standing, or the turn cap).
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import moneynb
from moneynb.bots import make_bot, play_out


def main(n_games: int = 200) -> None:
    players = ["Ann", "Bob", "Cy"]
    actions = turns = 0
    ends: Counter = Counter()
    start = time.perf_counter()
    for seed in range(n_games):
        g = moneynb.new_game("moolah", players=players, seed=seed)
        bots = [make_bot("greedy", seed=seed * 3 + i) for i in range(3)]
        actions += play_out(g, bots)
        turns += g.turn_no
        ends[g.end_reason] += 1
    dt = time.perf_counter() - start
    print(f"Moolah, 3 greedy bots, {n_games} games in {dt:.2f} s")
    print(f"  {n_games / dt:,.1f} full games/s ({1000 * dt / n_games:.1f} ms per game)")
    print(f"  {actions / dt:,.0f} actions/s ({actions / n_games:.1f} actions, "
          f"{turns / n_games:.1f} player turns per game)")  # fmt: skip
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
