"""Measure: the Money Run search bot against the random bot, wins by reaching the goal only.

Run: ``python benchmarks/bench_money_run_search.py [n_games] [max_nodes] [beam]`` (one core;
defaults 1000 games, 60 positions per move, beam 2; the shipped bot's node budget is
``2000 3``, without its 0.3 s clock so that runs repeat exactly). Seats
alternate (the search bot opens in even seeds); each game is seeded by its index. A game counts
as a search win only when the search bot's pawn reaches its goal edge ("reached_goal"); games
stopped by the round cap (EFAQ 3 ranking) are counted apart, whoever the ranking favours.
Prints the win rate with a 95% Wilson interval (moneynb.analysis.stats).
"""

from __future__ import annotations

import sys
import time

import moneynb
from moneynb.analysis.stats import wilson_interval
from moneynb.bots import make_bot
from moneynb.bots.search import SearchBot


def main(n_games: int = 1000, max_nodes: int = 60, beam: int = 2) -> None:
    goal_wins = goal_losses = capped = rounds = 0
    start = time.perf_counter()
    for seed in range(n_games):
        names = ["Search", "Random"][:: 1 - 2 * (seed % 2)]
        g = moneynb.new_game("money_run", players=names, seed=seed)
        s = g.players.index("Search")
        bots = [None, None]
        bots[s] = SearchBot(seed=seed, time_budget=None, max_nodes=max_nodes, beam=beam)
        bots[1 - s] = make_bot("random", seed=seed)
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        reached = [e.data["seat"] for e in g.log if e.kind == "reached_goal"]
        rounds += g.round
        if not reached:
            capped += 1
        elif reached[0] == s:
            goal_wins += 1
        else:
            goal_losses += 1
    dt = time.perf_counter() - start
    low, high = wilson_interval(goal_wins, n_games)
    print(
        f"Money Run, search bot (max_nodes={max_nodes}, beam={beam}) against random, {n_games} games"
    )
    print(f"  search reached its goal first: {goal_wins} ({goal_wins / n_games:.1%}, "
          f"95% CI {low:.1%}-{high:.1%})")  # fmt: skip
    print(f"  random reached its goal first: {goal_losses}; stopped by the round cap: {capped}")
    print(f"  {rounds / n_games:.1f} rounds per game on average; {dt:.1f} s in all")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:4]]
    main(*args)
