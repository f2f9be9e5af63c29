"""Does any policy beat the random bot in Money Moves, and by how much? (issue 29)

Two seats; game ``i`` is ``moneynb.new_game("money_moves", seed=1_000_000 + i)`` with the
policy in seat ``i % 2`` (seats alternated) and the random bot in the other. Printed per
policy: sole wins with a Wilson 95% interval (the issue's measure: a tie is not a win), the
share of games the policy tied (the pot shared), and the win rate with a tie counted as half a
win. The policies: ``random`` (the random bot in the seat: the baseline), ``greedy``,
``borrow_low`` / ``wild_keep`` / ``wild_use`` (greedy with one of its three choices changed:
borrow the least, never / always play the Wild Card) and ``teacher`` (the rollout teacher of
``train_maskable_ppo.py`` at every choice Money Moves has: Wild Card, whom to take from, how
much to borrow; 24 play-outs each). Money Moves has no other decision: the dice and cards do
the rest (docs/money_moves.md).

    nice -n 10 python benchmarks/money_moves_vs_random.py 20000 random,greedy,borrow_low
    nice -n 10 python benchmarks/money_moves_vs_random.py 2000 teacher
    python benchmarks/money_moves_vs_random.py 400 random,greedy --duplicate   # fourth round

``--duplicate``: games ``2k`` and ``2k + 1`` are one deal with the seats swapped, and a last
column gives the paired 95% interval over the deals (``train_maskable_ppo.paired_interval``).

Source: reconstruction (a measurement, docs/env.md "Third round").
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import moneynb
from moneynb.analysis.stats import wilson_interval
from moneynb.bots import Bot, GreedyBot, make_bot


class GreedyVariant(Bot):
    """The greedy bot with one choice changed: ``borrow`` ``"high"`` (greedy's) or ``"low"``;
    ``wild`` ``"greedy"``, ``"use"`` or ``"keep"``."""

    kind = "greedy_variant"

    def __init__(self, seed: int | None = None, borrow: str = "high", wild: str = "greedy"):
        super().__init__(seed=seed)
        self.borrow, self.wild = borrow, wild
        self.greedy = GreedyBot(seed=seed)

    def choose(self, game):
        d = game.decision
        if d.tag == "borrow":
            return d.low if self.borrow == "low" else d.high
        if d.tag == "wild_card" and self.wild != "greedy":
            return self.wild
        return self.greedy.choose(game)


def _teacher(seed: int) -> Bot:
    spec = importlib.util.spec_from_file_location(
        "train_maskable_ppo", Path(__file__).with_name("train_maskable_ppo.py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.RolloutTeacher({"pick_player", "borrow", "wild_card"}, 24, seed=seed)


POLICIES = {
    "random": lambda i: make_bot("random", seed=i),
    "greedy": lambda i: make_bot("greedy", seed=i),
    "borrow_low": lambda i: GreedyVariant(seed=i, borrow="low"),
    "wild_keep": lambda i: GreedyVariant(seed=i, wild="keep"),
    "wild_use": lambda i: GreedyVariant(seed=i, wild="use"),
    "teacher": _teacher,
}


def measure(make, n: int, duplicate: bool = False) -> dict:
    """``{"sole", "tie", "games", "cpu_s", "record"}`` of the policy ``make(i)`` (a Bot for
    game ``i``) against the random bot over ``n`` games (see the module docstring). With
    ``duplicate`` games ``2k`` and ``2k + 1`` are one deal (seed 1,000,000 + k, the random
    bot seeded 7 + k) with the seats swapped. ``record``: ``(game, seat, sole win)`` rows."""
    sole = tie = 0
    record = []
    t0 = time.process_time()
    for i in range(n):
        me = i % 2
        k = i // 2 if duplicate else i
        g = moneynb.new_game("money_moves", players=["p0", "p1"], seed=1_000_000 + k)
        bots = [None, None]
        bots[me] = make(k)
        bots[1 - me] = make_bot("random", seed=7 + k)
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        won = g.winners == [me]
        record.append((i, me, won))
        if me in g.winners:
            sole += len(g.winners) == 1
            tie += len(g.winners) > 1
    return {"sole": sole, "tie": tie, "games": n, "cpu_s": time.process_time() - t0,
            "record": record}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    duplicate = "--duplicate" in argv
    argv = [a for a in argv if a != "--duplicate"]
    n = int(argv[0]) if argv else 2000
    names = argv[1].split(",") if len(argv) > 1 else list(POLICIES)
    print(
        "| policy | games | sole wins (95% interval) | ties | a tie as half a win | cpu s |"
        + (" paired over deals (95%) |" if duplicate else "")
    )
    print("| --- | ---: | --- | ---: | --- | ---: |" + (" --- |" if duplicate else ""))
    for name in names:
        r = measure(POLICIES[name], n, duplicate)
        lo, hi = wilson_interval(r["sole"], n)
        half = r["sole"] + r["tie"] / 2
        hlo, hhi = wilson_interval(round(half), n)
        extra = ""
        if duplicate:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from train_maskable_ppo import paired_interval

            pi = paired_interval(r["record"])
            extra = f" {pi['mean']:.3f} ({pi['low']:.3f}-{pi['high']:.3f}) |"
        print(
            f"| {name} | {n:,} | {r['sole']:,} = {r['sole'] / n:.3f} ({lo:.3f}-{hi:.3f}) "
            f"| {r['tie'] / n:.3f} | {half / n:.3f} ({hlo:.3f}-{hhi:.3f}) | {r['cpu_s']:.0f} |"
            + extra,
            flush=True,
        )


if __name__ == "__main__":
    main()
