"""Exact numbers behind Money Moves, and seeded simulations through the real engine to check
them (used by ``notebooks/money_moves.ipynb``).

Exact results (fractions, from the dice and the deck composition in ``cards.toml``):

* :func:`task_chances`: each task-die face 1/6; a roll draws a card (11 or PL) with chance 1/3.
* :func:`first_stop_distribution`: in a freshly shuffled deck of ``N`` cards holding ``k``
  round-ending cards (Round Over and Game Over), the chance that the first of them is the
  ``j``-th card drawn is ``C(N-j, k-1) / C(N, k)``; its mean is ``(N+1)/(k+1)``. Every card
  drawn in round 1 comes from that one shuffled deck (kept cards such as PotLuck and Wild
  still count as drawn), so this is exactly how many cards round 1 lasts, whatever the players
  decide.

Simulations play seeded games with bots through :meth:`moneynb.core.Game.apply`.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

STOP_EFFECTS = ("round_over", "game_over")


def _game(players=3, seed=0, **options):
    from ..core.registry import game_class

    cls = game_class("money_moves")
    return cls([f"P{i + 1}" for i in range(players)], seed, **options)


def task_chances(data_file: str = "") -> dict[str, Fraction]:
    """``{task face: exact chance}`` for one roll of the task die, plus ``"card"``: the chance
    a roll draws a card (the faces 11 and PL)."""
    g = _game(data_file=data_file)
    dist = g.task_die.distribution()
    out = {str(k): v for k, v in dist.items()}
    out["card"] = dist.get("11", Fraction(0)) + dist.get("PL", Fraction(0))
    return out


def deck_counts(data_file: str = "") -> tuple[int, int]:
    """``(cards in the deck, round-ending cards among them)`` from ``cards.toml``."""
    g = _game(data_file=data_file)
    n = sum(c["count"] for c in g.data["card"])
    k = sum(c["count"] for c in g.data["card"] if c["effect"] in STOP_EFFECTS)
    return n, k


def first_stop_distribution(n_cards: int, n_stop: int) -> dict[int, Fraction]:
    """Exact ``{j: P(the first round-ending card is the j-th card drawn)}``, ``j = 1..N-k+1``.

    Raises:
        ValueError: ``n_stop`` not in ``1..n_cards``.
    """
    if not 1 <= n_stop <= n_cards:
        raise ValueError(f"need 1 <= round-ending cards <= cards, got {n_stop} of {n_cards}")
    total = comb(n_cards, n_stop)
    return {
        j: Fraction(comb(n_cards - j, n_stop - 1), total) for j in range(1, n_cards - n_stop + 2)
    }


def expected_first_stop(n_cards: int, n_stop: int) -> Fraction:
    """Mean of :func:`first_stop_distribution`: ``(N + 1) / (k + 1)`` cards."""
    return Fraction(n_cards + 1, n_stop + 1)


def simulate_round_one(
    n_games: int = 1000, seed: int = 0, players: int = 3, bot: str = "random"
) -> dict:
    """Play ``n_games`` seeded games (bots of kind ``bot``) until round 1 ends; count the task
    faces rolled and the cards drawn in round 1.

    A game can also end in round 1 without a round-ending card (one player holds all the
    money); then the rest of the engine's own shuffled deck is read to find where the first
    round-ending card lay, so ``first_stop`` is, for every game, the position of the first
    round-ending card in the deck the engine shuffled (what :func:`first_stop_distribution`
    describes), and ``ended_early`` counts those games.

    Returns ``{"first_stop": [per game], "cards_drawn": [per game], "ended_early": n,
    "task_counts": {face: n}, "rolls": n, "turns": [per game]}``.
    """
    from ..bots import make_bot

    drawn, stops, turns, faces, rolls, early = [], [], [], {}, 0, 0
    for i in range(n_games):
        g = _game(players, seed * 1_000_003 + i)
        bots = [make_bot(bot, seed=seed + 7 * i + s) for s in range(players)]
        n_drawn = 0
        done = False
        while not done and not g.over:
            for ev in g.apply(bots[g.decision.player].choose(g)):
                if ev.kind == "rolled" and "task" in ev.data:
                    faces[ev.data["task"]] = faces.get(ev.data["task"], 0) + 1
                    rolls += 1
                elif ev.kind == "drew":
                    n_drawn += 1
                    if g.cards[ev.data["card"]]["effect"] in STOP_EFFECTS:
                        done = True
        drawn.append(n_drawn)
        turns.append(g.turns)
        if done:
            stops.append(n_drawn)
        else:
            early += 1
            pile = g.deck.draw_pile
            j = next(i for i, c in enumerate(pile) if g.cards[c]["effect"] in STOP_EFFECTS)
            stops.append(n_drawn + j + 1)
    return {
        "first_stop": stops,
        "cards_drawn": drawn,
        "ended_early": early,
        "task_counts": faces,
        "rolls": rolls,
        "turns": turns,
    }


__all__ = ["task_chances", "deck_counts", "first_stop_distribution", "expected_first_stop",
           "simulate_round_one"]  # fmt: skip
