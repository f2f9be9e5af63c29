"""Moolah numbers: the exact Black Jack odds and the Loan Shark's price, with seeded
simulations to check them against.

Exact arithmetic lives in :mod:`moneynb.games.moolah.rules` (``blackjack_win_probability``,
``blackjack_table``, ``blackjack_value``); this module shapes it for notebooks and adds the
Monte Carlo checks. Everything reads the game's own data files, so a house-rule pile or
interest rate gives its own numbers.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..games.moolah.rules import blackjack_table, blackjack_value, load_data
from ..games.moolah.rules import loan_shark_cost as _loan_shark_cost

__all__ = [
    "casino_pile",
    "blackjack_rows",
    "blackjack_values",
    "simulate_blackjack",
    "blackjack_hand_distribution",
    "play_blackjack_hands",
    "loan_shark_cost",
    "decision_state",
    "wall_street_values",
    "simulate_loan_shark",
]


def casino_pile(cards_file: str = "") -> dict[int, int]:
    """The Black Jack pile of ``cards.toml`` (or a house-rule file): ``{score: cards}``."""
    return dict(load_data("", cards_file).casino)


def blackjack_rows(pile: dict[int, int] | None = None) -> list[dict]:
    """One row per possible card of a fresh pile: ``card``, ``chance`` (of drawing it),
    ``p_win`` (that it beats the House card), ``stay`` and ``double`` (expected result per $1
    first bet), ``best`` — all exact :class:`Fraction` values, as in
    :func:`moneynb.games.moolah.rules.blackjack_table`."""
    return blackjack_table(casino_pile() if pile is None else pile)


def blackjack_values(pile: dict[int, int] | None = None) -> dict[str, Fraction]:
    """Expected result per $1 first bet, before the card is seen, for three ways to play:
    ``"always stay"``, ``"always double"`` and ``"double when P(win) > 1/2"`` (the best)."""
    pile = casino_pile() if pile is None else pile
    rows = blackjack_table(pile)
    return {
        "always stay": blackjack_value(pile, can_double=False),
        "always double": sum(r["chance"] * r["double"] for r in rows),
        "double when P(win) > 1/2": blackjack_value(pile),
    }


def simulate_blackjack(n_hands: int, seed: int = 0) -> dict[str, object]:
    """Play ``n_hands`` Black Jack hands through the engine, each three ways, to check
    :func:`blackjack_values` by simulation.

    Each hand starts at a real casino bet (:func:`decision_state`: a fresh pile, the smallest
    bet the decision allows) whose hidden cards the engine reshuffles (``seed``); the engine
    draws the player's card, then the same hand is finished three ways at its raise decision
    (:data:`BLACKJACK_POLICIES` "stay", "double", "best") and the House's card drawn by the
    engine settles it. The result of a hand is the change of the player's wallet and account
    per $1 of first bet (the engine's own payout), so nothing of the rule is restated here.

    Returns:
        ``{"per_card": {card: (hands, wins)}, "always stay": mean, "always double": mean,
        "double when P(win) > 1/2": mean, "standard error": {same three names: s.e.}}``; the
        means are per $1 of first bet (floats), the standard errors those of the means.

    Raises:
        ValueError: ``n_hands`` < 1.
    """
    from ..core.outcomes import worth
    from .stats import mean_interval

    if n_hands < 1:
        raise ValueError("n_hands must be at least 1")
    names = {"stay": "always stay", "double": "always double", "best": "double when P(win) > 1/2"}
    follow = {policy: _blackjack_follow(policy) for policy in names}
    game = decision_state("casino_bet")
    seat, stake = game.decision.player, game.decision.low
    before = worth(game, seat)
    rng = random.Random(seed)
    per_card: dict[int, list[int]] = {}
    results: dict[str, list[float]] = {name: [] for name in names.values()}
    for _ in range(n_hands):
        hand = game.copy(resample_chance=rng.getrandbits(64))
        hand.apply(stake)  # the engine draws the player's card
        card = hand.ctx["card"]
        for policy, name in names.items():
            played = hand.copy()  # the same hidden cards: the three ways see the same House card
            while (action := follow[policy](played)) is not None:
                played.apply(action)
            results[name].append((worth(played, seat) - before) / stake)
            if policy == "stay":  # a hand won is one that left the player richer
                counts = per_card.setdefault(card, [0, 0])
                counts[0] += 1
                counts[1] += results[name][-1] > 0
    out: dict[str, object] = {"per_card": {c: tuple(v) for c, v in sorted(per_card.items())}}
    errors = {}
    for name, values in results.items():
        mean, low, _high = mean_interval(values)
        out[name], errors[name] = mean, (mean - low) / 1.96
    out["standard error"] = errors
    return out


def loan_shark_cost(amount: int, wallet: int = 0, percent: int | None = None) -> int:
    """Dollars a payment of ``amount`` takes off the bank account when the wallet holds
    ``wallet``: the engine's own :func:`moneynb.games.moolah.rules.loan_shark_cost` with the
    board's ``loan_shark_percent`` (50%) unless ``percent`` is given.

    Raises:
        ValueError: a negative amount or wallet.
    """
    if percent is None:
        percent = load_data().rules["loan_shark_percent"]
    return _loan_shark_cost(amount, wallet, percent)


#: how a hand is played at the raise decision: the engine's own options ("stay"; "double": the
#: highest raise the decision allows; "best": that raise when the engine's table says it pays)
BLACKJACK_POLICIES = ("stay", "double", "best")


def _blackjack_follow(policy: str):
    """``play_on`` for :func:`~moneynb.core.outcomes.chance_outcomes`: answers the player's
    own Black Jack raise decision by ``policy`` and stops anywhere else."""
    if policy not in BLACKJACK_POLICIES:
        raise ValueError(f"policy must be one of {BLACKJACK_POLICIES}, got {policy!r}")

    def play_on(game):
        d = game.decision
        if d is None or d.tag != "casino_raise":
            return None
        if policy == "stay":
            return "stay"
        if policy == "double":
            return d.high
        return game.greedy_action(random.Random(0))  # the engine's table: raise when it pays

    return play_on


def blackjack_hand_distribution(policy: str = "stay", seed: int = 0) -> dict[Fraction, Fraction]:
    """The exact distribution of one Black Jack hand's result per $1 of first bet, from the
    engine's own chance outcomes at a real casino bet (:func:`decision_state`, the smallest bet
    the decision allows), the hand followed through its raise decision by ``policy``
    (``"stay"``: always stay; ``"best"``: raise to the most the decision allows when the
    engine's table says it pays) and the House's card.

    Returns:
        ``{result per $1: probability}`` (Fractions; probabilities sum to 1).

    Raises:
        ValueError: unknown ``policy``.
    """
    from ..core.outcomes import chance_outcomes, worth

    play_on = _blackjack_follow(policy)
    game = decision_state("casino_bet", seed=seed)
    seat, stake = game.decision.player, game.decision.low
    before = worth(game, seat)
    dist: dict[Fraction, Fraction] = {}
    for o in chance_outcomes(game, stake, play_on=play_on):
        k = Fraction(worth(o.game, seat) - before, stake)
        dist[k] = dist.get(k, 0) + o.probability
    return dist


def play_blackjack_hands(n_hands: int, seed: int = 0, policy: str = "stay") -> float:
    """Play ``n_hands`` Black Jack hands through the engine (each from the same real casino bet
    as :func:`blackjack_hand_distribution`, its hidden cards reshuffled by ``seed``), the raise
    decision answered by ``policy``.

    Returns:
        the mean result per $1 of first bet (a float).

    Raises:
        ValueError: ``n_hands`` < 1, or unknown ``policy``.
    """
    from ..core.outcomes import worth

    if n_hands < 1:
        raise ValueError("n_hands must be at least 1")
    play_on = _blackjack_follow(policy)
    game = decision_state("casino_bet")
    seat, stake = game.decision.player, game.decision.low
    before = worth(game, seat)
    rng = random.Random(seed)
    total = 0
    for _ in range(n_hands):
        hand = game.copy(resample_chance=rng.getrandbits(64))
        hand.apply(stake)
        while (action := play_on(hand)) is not None:
            hand.apply(action)
        total += worth(hand, seat) - before
    return total / (n_hands * stake)


def decision_state(tag: str, wallet: int = 100_000, seed: int = 0):
    """A fresh two-player Moolah game (players A and B, ``seed``) brought by the engine itself to
    the first player's ``tag`` decision ("wall_street", "casino_bet", ...) with ``wallet`` dollars in its
    wallet: both players withdraw ``wallet`` first, then the first roll's outcomes
    (:func:`moneynb.core.outcomes.chance_outcomes`, outer or inner path at an Option Point) are
    searched for one that stops there.

    Raises:
        ValueError: no first roll reaches ``tag``.
    """
    from ..core.outcomes import chance_outcomes
    from ..core.registry import game_class

    g = game_class("moolah")(["A", "B"], seed)
    while g.decision.tag == "first_withdrawal":
        g.apply(wallet)
    frontier = [o.game for o in chance_outcomes(g, "roll", branch_draws=2)]
    while frontier:
        h = frontier.pop()
        d = h.decision
        if d is not None and d.tag == tag:
            return h
        if d is not None and d.tag == "fork":
            for opt in d.options:
                nxt = h.copy()
                nxt.apply(opt)
                frontier.append(nxt)
    raise ValueError(f"no first roll reaches a {tag!r} decision")


def wall_street_values(
    stock: str, amounts=(10_000, 20_000, 50_000, 100_000), wallet: int = 100_000
) -> list[dict]:
    """What investing each of ``amounts`` in ``stock`` does to the investor's money, exactly, as
    the engine pays it (percent card, then the Round-Off Clause: gains up, losses down to the
    bill), from a fresh stock deck: ``[{"amount", "mean", "p_loss", "p_gain", "outcomes":
    {dollars: Fraction}}]``.

    Raises:
        IllegalAction: an amount the engine does not allow (off the bill, over the wallet).
    """
    from ..core.outcomes import value_option

    g = decision_state("wall_street", wallet)
    g.apply(stock)
    rows = []
    for a in amounts:
        v = value_option(g, a)
        rows.append({"amount": a, "mean": v.mean, "p_loss": v.probability(lambda x: x < 0),
                     "p_gain": v.probability(lambda x: x > 0), "outcomes": v.distribution})  # fmt: skip
    return rows


def simulate_loan_shark(n_games: int = 20, seed: int = 0, players: int = 3) -> dict[str, float]:
    """Play ``n_games`` seeded greedy-bot games and total what went to the Loan Shark.

    Returns ``{"games", "loans", "interest", "interest per loan"}`` (dollars), a check that
    every recorded loan cost exactly 50% on top (``"interest per loan"`` is the mean of
    interest / loan over the loans taken, 0.5 with the shipped rules).
    """
    from ..bots import make_bot
    from ..core.registry import game_class

    loans = interest = 0
    ratios = []
    for g_seed in range(seed, seed + n_games):
        g = game_class("moolah")([f"P{i}" for i in range(players)], g_seed)
        bots = [make_bot("greedy", seed=g_seed * 7 + i) for i in range(players)]
        while not g.over:
            for e in g.apply(bots[g.decision.player].choose(g)):
                if e.kind == "loan_shark":
                    loans += e.data["loan"]
                    interest += e.data["interest"]
                    ratios.append(e.data["interest"] / e.data["loan"])
    return {
        "games": n_games,
        "loans": loans,
        "interest": interest,
        "interest per loan": sum(ratios) / len(ratios) if ratios else 0.0,
    }
