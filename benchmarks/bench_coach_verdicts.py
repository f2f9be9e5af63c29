"""Benchmark (a script, not a test): does the Coach's verdict hang on its own draw? (issue 38,
case 3). Before and after in the same run.

*before*: the play-outs of every choice run to the action budget with none settled
(``rollouts.SETTLED`` infinite, at most 100 play-outs a choice, the old budgets: Moolah's
``BANK_BUDGET`` 4,000, Easy Money's ``OFFER_BUDGET`` 5,000, Money Moves' ``BORROW_BUDGET``
8,000, Money Run's ``ACTION_BUDGET`` 5,000); *settling*: choices settled behind the best are
played no further, the old budgets; *after*: as the package stands (settling; 16,000, 20,000,
32,000 and 5,000). The three run one after
another on each seed, so the load is shared alike.

Part 1, Moolah's first withdrawal (the game recommends $50,000), with 2 and 3 players, on the
Coach's sampling seeds ``0..n-1`` (``rollouts.SEED``): how many first lines say each verdict
("better: 0": Withdraw $0 did better; "none": no choice did clearly better; "agree": the rules'
amount is the clear best), the median give-or-take of the margin of the best over the rules'
amount on the paired play-outs and as two independent means would give it (unpaired: twice
``sqrt(var_a / n_a + var_b / n_b)``), the median play-outs behind it, the CPU and wall-clock
seconds per decision (median / max, cache cleared).

Part 2, every game's ranked decisions (``bench_coach_play_outs.TAGS``): at up to ``k``
decisions per game from seeded greedy games (3 players), the verdict (the best option, or
none) on the Coach's seeds 0 and 1: how many agree, "Best" / "No clear best" counts, CPU ms
median / max. The machine's load is printed before and after (``os.getloadavg``).

Usage: ``python benchmarks/bench_coach_verdicts.py [seeds (20)] [decisions per game (6)]``.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from collections import Counter

import moneynb
from moneynb.coach import clear_cache, coach, easy_money, money_moves, money_run, moolah
from moneynb.coach import rollouts as ro

#: each game's budget constant: ``(module, name)``
BUDGETS = {
    "BANK": (moolah, "BANK_BUDGET"),
    "OFFER": (easy_money, "OFFER_BUDGET"),
    "BORROW": (money_moves, "BORROW_BUDGET"),
    "ACTION": (money_run, "ACTION_BUDGET"),
}
AFTER = {
    "SETTLED": ro.SETTLED,
    "N_PLAY_OUTS": ro.N_PLAY_OUTS,
    **{k: getattr(m, name) for k, (m, name) in BUDGETS.items()},
}
#: the budgets before issue 38's steady verdicts
OLD = {"BANK": 4_000, "OFFER": 5_000, "BORROW": 8_000, "ACTION": 5_000}
MODES = {
    "before": {"SETTLED": math.inf, "N_PLAY_OUTS": 100, **OLD},
    "settling": {**AFTER, **OLD},
    "after": AFTER,
}
TAGS = {
    "moolah": ("first_withdrawal", "bank", "bank_amount", "turn"),
    "easy_money": ("offer_item", "offer_to", "offer_price", "buy"),
    "money_moves": ("borrow",),
    "money_run": ("action",),
}


def use(mode: str, seed: int) -> None:
    m = MODES[mode]
    ro.SETTLED, ro.N_PLAY_OUTS = m["SETTLED"], m["N_PLAY_OUTS"]
    for k, (module, name) in BUDGETS.items():
        setattr(module, name, m[k])
    ro.SEED = seed
    clear_cache()


def timed(game):
    t0, c0 = time.perf_counter(), time.process_time()
    c = coach(game)
    if c is not None:
        c.headline  # noqa: B018 - the ranking is worked out when first read
    return c, time.process_time() - c0, time.perf_counter() - t0


def first_withdrawal(players: int, seeds: int) -> None:
    rows = {m: {"v": Counter(), "p": [], "u": [], "n": [], "cpu": [], "wall": []} for m in MODES}
    for s in range(seeds):
        for mode in MODES:
            use(mode, s)
            g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"][:players], seed=0)
            d = g.decision
            c, cpu, wall = timed(g)
            r = rows[mode]
            r["cpu"].append(cpu)
            r["wall"].append(wall)
            r["v"][
                "none"
                if c.best is None
                else "agree"
                if c.best == d.suggested
                else f"better: {c.best}"
            ] += 1
            po = c.numbers["play_outs"]
            best = c.numbers["moves"][c.ranking[0][0]]
            other = d.suggested if best != d.suggested else c.numbers["moves"][c.ranking[1][0]]
            xa, xb = po.samples[best], po.samples[other]
            r["p"].append(po.gap(best, other)[1])
            r["u"].append(
                2 * math.sqrt(statistics.variance(xa) / len(xa) + statistics.variance(xb) / len(xb))
            )
            r["n"].append(po.paired(best, other))
    med = statistics.median
    for mode, r in rows.items():
        print(
            f"{players} players {mode:9} verdicts {dict(sorted(r['v'].items()))}; give or take "
            f"paired ${med(r['p']):,.0f}, unpaired ${med(r['u']):,.0f}; play-outs {med(r['n']):.0f}; "
            f"CPU s {med(r['cpu']):.2f}/{max(r['cpu']):.2f}, wall s {med(r['wall']):.2f}/"
            f"{max(r['wall']):.2f}"
        )


def every_game(k: int) -> None:
    for name, tags in TAGS.items():
        rows = {m: {"same": 0, "best": 0, "none": 0, "cpu": []} for m in MODES}
        seen = 0
        for seed in range(20):
            if seen >= k:
                break
            g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
            bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
            last = None
            while not g.over and seen < k:
                d = g.decision
                if d.tag in tags and d.tag != last and (len(d.options) > 1 or d.low is not None):
                    said = {}
                    for mode in MODES:
                        for s in (0, 1):
                            use(mode, s)
                            c, cpu, _wall = timed(g)
                            if c is None or "play_outs" not in c.numbers:
                                break
                            said[mode, s] = c.best
                            rows[mode]["cpu"].append(cpu)
                            rows[mode]["best" if c.best is not None else "none"] += 1
                    if len(said) == 2 * len(MODES):
                        seen += 1
                        for mode in MODES:
                            rows[mode]["same"] += said[mode, 0] == said[mode, 1]
                last = d.tag
                g.apply(bots[d.player].choose(g))
        for mode, r in rows.items():
            cpu = r["cpu"] or [0]
            print(
                f"{name:12} {mode:9} decisions {seen:2}: same verdict on seeds 0 and 1 "
                f"{r['same']:2}/{seen}; Best {r['best']:2}, No clear best {r['none']:2}; CPU ms "
                f"{1000 * statistics.median(cpu):5.0f}/{1000 * max(cpu):5.0f}"
            )


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for players in (2, 3):
        first_withdrawal(players, seeds)
    if k:
        every_game(k)
    use("after", 0)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
