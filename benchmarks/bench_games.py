"""Benchmark: whole bot games per second with ``moneynb.simulate`` at 1 and 2 workers.

Run: ``python benchmarks/bench_games.py [n_games]``. Every game uses greedy bots (three seats,
two for Money Run's... see PLAYERS) and the same master seed, so the 1- and 2-worker tables
are identical (checked here too).
"""

from __future__ import annotations

import sys
import time

import moneynb
from moneynb.analysis.montecarlo import simulate

PLAYERS = {
    "money_moves": ["greedy", "greedy", "random"],
    "moolah": ["greedy", "greedy", "random"],
    "easy_money": ["greedy", "greedy", "random"],
    "money_card": ["greedy", "greedy", "random"],
    "money_run": ["greedy", "random"],
}


def main(n_games: int = 40) -> None:
    for game in moneynb.available_games():
        players = PLAYERS.get(game, ["greedy", "random"])
        rates = []
        tables = []
        for workers in (1, 2):
            t = time.perf_counter()
            try:
                df = simulate(game, players, n_games=n_games, seed=1, workers=workers,
                              progress=False)  # fmt: skip
            except Exception as e:  # a game still being built
                print(f"{game:12s} failed: {type(e).__name__}: {e}")
                break
            rates.append(n_games / (time.perf_counter() - t))
            tables.append(df)
        if len(rates) == 2:
            same = tables[0].equals(tables[1])
            print(f"{game:12s} {rates[0]:8.1f} games/s (1 worker) {rates[1]:8.1f} games/s "
                  f"(2 workers)  mean actions {tables[0]['actions'].mean():8.0f}  "
                  f"identical={same}")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
