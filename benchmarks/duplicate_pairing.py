"""How much of a duplicate deal is paired, under each chance-stream scheme (issue 39, case 7).

Run: ``PYTHONPATH=<checkout> python benchmarks/duplicate_pairing.py [deals] [game ...]``
(default 100 deals, every game).

A duplicate deal is two games on one seed with the seats swapped (the evaluation format of
``benchmarks/train_maskable_ppo.py`` and ``money_moves_vs_random.py --duplicate``): here greedy
against random, deal ``k`` on seed 1,000,000 + ``k``, game A seats greedy first, game B random
first, the bot in seat ``i`` seeded ``10 * seed + i`` (2 players; Money Run too). Each game's
chance events are recorded with :func:`moneynb.testing.record_chance` (a die, a spin, a card,
a coin out of the bag, a blind pick; shuffles are not events) and the deal's two lists are
compared with :func:`moneynb.testing.paired_events`:

* *common start*: how many events the two games share before their first difference (the
  figure issue 39 quoted: "8 of 56" in Moolah, "5 of 136" in Money Card);
* *paired per kind*: for each kind of chance (the dice, each deck, the spinner...), how many
  of its events the two games share before that kind's first difference, summed: the k-th roll
  of the dice, the k-th card of each deck. This is what a duplicate deal pairs.

Each is printed as the mean over deals, next to the mean number of events of a game, for
``chance_streams`` 1 (one stream) and 2 (a stream per kind). A game stops after 3,000 actions.
Figures depend on nothing but the code (no timing).
"""

from __future__ import annotations

import sys
from statistics import mean

import moneynb
from moneynb.testing import paired_events, record_chance

GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]
BASE = 1_000_000


def play(game: str, seed: int, bots: tuple, version: int) -> list:
    """The chance events of one game (greedy/random bots in the given seat order)."""
    g = moneynb.new_game(game, ["P1", "P2"], seed=seed, chance_streams=version)
    players = [moneynb.make_bot(b, seed=10 * seed + i) for i, b in enumerate(bots)]
    with record_chance(g) as events:
        while not g.over and len(g.actions) < 3000:
            g.apply(players[g.decision.player].choose(g))
    return events


def measure(game: str, deals: int, version: int) -> dict:
    """Means over ``deals`` duplicate deals: events a game, common start, paired per kind."""
    n, start, kind, share = [], [], [], []
    for k in range(deals):
        a = play(game, BASE + k, ("greedy", "random"), version)
        b = play(game, BASE + k, ("random", "greedy"), version)
        common, per_kind = paired_events(a, b)
        n.append((len(a) + len(b)) / 2)
        start.append(common)
        kind.append(per_kind)
        share.append(per_kind / max(1, min(len(a), len(b))))
    return {"events": mean(n), "start": mean(start), "kind": mean(kind), "share": mean(share)}


def main(argv: list[str]) -> None:
    deals = int(argv[0]) if argv and argv[0].isdigit() else 100
    games = [a for a in argv if not a.isdigit()] or GAMES
    print(f"{deals} duplicate deals a game (greedy against random, seats swapped)\n")
    print("| game | events a game | common start, 1 | common start, 2 | paired per kind, 1 "
          "| paired per kind, 2 |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for game in games:
        one, two = measure(game, deals, 1), measure(game, deals, 2)
        print(
            f"| {game} | {one['events']:.0f} / {two['events']:.0f} | {one['start']:.1f} | "
            f"{two['start']:.1f} | {one['kind']:.1f} ({one['share']:.0%}) | "
            f"{two['kind']:.1f} ({two['share']:.0%}) |",
            flush=True,
        )
    print("\nevents a game: under 1 / under 2; paired per kind: the mean count, and in brackets")
    print("the mean share of the shorter game's events")


if __name__ == "__main__":
    main(sys.argv[1:])
