"""Money Run bots: the search bot (moneynb/bots/search.py) against random, its budget, and that
it never reads the hidden bag order."""

from __future__ import annotations

import random
import time

import moneynb
from moneynb.bots import make_bot
from moneynb.bots.search import SearchBot


def fast_search(seed: int) -> SearchBot:
    """A node budget instead of a clock, so the test gives the same result on any machine."""
    return SearchBot(seed=seed, time_budget=None, max_nodes=60, beam=2)


def test_search_bot_beats_random_in_at_least_90_of_100_seeded_games():
    """A win counts only when the search bot's pawn reaches its goal edge (not by the round
    cap's ranking); benchmarks/bench_money_run_search.py measures the rate on 1000 games."""
    wins = 0
    for seed in range(100):
        g = moneynb.new_game(
            "money_run", players=["Search", "Random"][:: 1 - 2 * (seed % 2)], seed=seed
        )
        s = g.players.index("Search")
        bots = [None, None]
        bots[s] = fast_search(seed)
        bots[1 - s] = make_bot("random", seed=seed)
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        wins += [e.data["seat"] for e in g.log if e.kind == "reached_goal"] == [s]
    assert wins >= 90, f"search bot won only {wins} of 100"


def test_search_bot_is_registered_and_plays_a_legal_whole_turn():
    bot = make_bot("search", seed=1, time_budget=None, max_nodes=50)
    assert isinstance(bot, SearchBot)
    g = moneynb.new_game("money_run", players=["A", "B", "C"], seed=2)
    while g.decision.player == 0:
        a = bot.choose(g)
        assert g.decision.allows(moneynb.core.game.normalize_action(a))
        g.apply(a)
    assert bot.last["nodes"] > 0


def test_search_bot_respects_its_time_budget():
    g = moneynb.new_game("money_run", players=["A", "B"], seed=3)
    bot = SearchBot(seed=0, time_budget=0.05, max_nodes=10**9)
    t = time.perf_counter()
    bot.choose(g)
    assert time.perf_counter() - t < 0.5


def test_search_bot_does_not_peek_at_the_bag():
    """Same position, different hidden generator state: the bot chooses the same."""
    g = moneynb.new_game("money_run", players=["A", "B"], seed=4)
    rng = random.Random(1)
    for _ in range(12):
        g.apply(make_bot("greedy", seed=2).choose(g))
    other = g.copy()
    other.rng = random.Random(rng.random())
    assert other.rng.getstate() != g.rng.getstate()
    a = SearchBot(seed=7, time_budget=None, max_nodes=120).choose(g)
    b = SearchBot(seed=7, time_budget=None, max_nodes=120).choose(other)
    assert a == b


def test_search_bot_takes_a_winning_move():
    g = moneynb.new_game("money_run", players=["A", "B"], seed=5)
    g.pawns[0] = g.sq(6, 7)
    g.stacks[g.sq(6, 7)] = (1,)
    g.stacks[g.sq(6, 8)] = (1,)
    g._ask_action()
    assert SearchBot(seed=1, time_budget=None, max_nodes=200).choose(g) == ("pawn", 6, 8)
