"""Benchmark: Money Moves full games per second and actions per second with random bots.

Run: ``python benchmarks/bench_money_moves.py [n_games]`` (one core, one process).
"""

from __future__ import annotations

import sys
import time

import moneynb
from moneynb.bots import make_bot, play_out


def main(n_games: int = 2000) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    actions = 0
    start = time.perf_counter()
    for seed in range(n_games):
        g = moneynb.new_game("money_moves", players=players, seed=seed)
        bots = [make_bot("random", seed=seed * 4 + i) for i in range(4)]
        actions += play_out(g, bots)
    dt = time.perf_counter() - start
    print(f"Money Moves, 4 random bots, {n_games} games in {dt:.2f} s")
    print(f"  {n_games / dt:,.0f} full games/s")
    print(f"  {actions / dt:,.0f} actions/s ({actions / n_games:.1f} actions per game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
