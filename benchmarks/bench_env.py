"""Benchmark: PettingZoo env steps per second for each game (issue 17).

Run: ``python benchmarks/bench_env.py [seconds per game] [players]``. Seeded games of uniformly
random masked actions are played through ``moneynb.env.make(game)`` for about the given time,
in two ways: **observe**, the usual AEC loop (``env.last()`` builds the observation vector and
the mask of the agent to move on every step), and **mask only** (``env.last(observe=False)``
and ``env.action_mask(agent)``: what a random or scripted opponent needs). Also prints the
engine alone (the same kind of random actions straight to ``game.apply``) for comparison.
A step is one env action (a wide amount takes more than one step). Rates are per second of
this process's processor time (``time.process_time``), so a machine shared with other work
gives the same figures as an idle one.
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np

import moneynb
import moneynb.env as menv
from moneynb.bots import random_action


def env_rate(name: str, players: int, seconds: float, observe: bool) -> tuple[float, int]:
    """Env steps per second and games played."""
    env = menv.make(name, players=players)
    raw = env.unwrapped
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=games)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last(observe=observe)
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if observe else raw.action_mask(agent)
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
    return steps / (time.process_time() - start), games


def engine_rate(name: str, players: int, seconds: float) -> float:
    """Engine actions per second with random legal actions (no env)."""
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        g = moneynb.new_game(name, players=[f"P{i}" for i in range(players)], seed=games)
        while not g.over:
            g.apply(random_action(g.decision, rng))
            steps += 1
        games += 1
    return steps / (time.process_time() - start)


def main(seconds: float = 5.0, players: int = 3) -> None:
    print(f"{'game':12} {'observe steps/s':>16} {'mask-only steps/s':>18} {'engine actions/s':>17}")
    for name in moneynb.available_games():
        n = min(players, moneynb.game_class(name).max_players)
        full, g1 = env_rate(name, n, seconds, observe=True)
        fast, g2 = env_rate(name, n, seconds, observe=False)
        eng = engine_rate(name, n, seconds)
        print(f"{name:12} {full:16,.0f} {fast:18,.0f} {eng:17,.0f}   ({n} seats, {g1}+{g2} games)")


if __name__ == "__main__":
    main(*(float(a) if i == 0 else int(a) for i, a in enumerate(sys.argv[1:3])))
