"""Money Card: how often the Payment of Debts rules play in ordinary greedy games.

Run: ``python benchmarks/money_card_debts.py [n_games] [cards_file]`` (one core). For 2, 3 and 4
greedy players (game seeds 0..n-1, bot ``k`` seeded ``10 * seed + k``) it prints, per 1,000
games, the games in which some player owed more than they held (a "debt" event), in which a key
was turned in, and in which a player went out. ``cards_file`` plays a house-rule deck instead of
the shipped one (e.g. tests/conformance/data/money_card_first_amounts.toml, the first amounts).
Issue 13 item 7; the figures are quoted in docs/money_card.md.
"""

from __future__ import annotations

import sys
import time

import moneynb
from moneynb.bots import make_bot


def main(n_games: int = 1000, cards_file: str = "") -> None:
    for players in (2, 3, 4):
        start = time.perf_counter()
        seen = {"debt": 0, "turned_in": 0, "out": 0}
        for seed in range(n_games):
            names = ["Ann", "Bob", "Cy", "Dee"][:players]
            g = moneynb.new_game("money_card", players=names, seed=seed, cards_file=cards_file)
            bots = [make_bot("greedy", seed=seed * 10 + k) for k in range(players)]
            kinds = set()
            while not g.over:
                kinds.update(e.kind for e in g.apply(bots[g.decision.player].choose(g)))
            for k in seen:
                seen[k] += k in kinds
        per = {k: round(1000 * v / n_games) for k, v in seen.items()}
        print(f"{players} players, {n_games} games ({time.perf_counter() - start:.0f} s): per "
              f"1,000 games {per['debt']} with a debt, {per['turned_in']} with a key turned in, "
              f"{per['out']} with a player out")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000, sys.argv[2] if len(sys.argv) > 2 else "")
