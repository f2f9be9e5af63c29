"""Money Card numbers from the engine: a real Monte Carlo bet, valued by the game itself.

Source: DESIGN.md ("Chance outcomes come from the engine"). :func:`monte_carlo_state` brings
seeded games to a Monte Carlo colour decision; :func:`monte_carlo_values` values each colour
there with :func:`moneynb.core.outcomes.value_option`, so the payout odds, the spinner and
the stake are the engine's own (``ev.monte_carlo_bet`` is the same bet as a formula on
``spinner.toml``; tests check that the two agree).
"""

from __future__ import annotations

__all__ = ["monte_carlo_state", "monte_carlo_values"]


def monte_carlo_state(seed: int = 0, players: int = 3, tries: int = 40):
    """A seeded Money Card game (players A, B, C, ...; greedy bots) stopped at the first
    Monte Carlo colour decision ("red" or "black") of a player who does not hold the Money Card
    (so the bet's loss is paid in full, not charged). Seeds ``seed``, ``seed + 1``, ... are
    tried in turn.

    Returns the game (its ``monte["bet"]`` is the stake in dollars, 10 or 20).

    Raises:
        ValueError: none of ``tries`` games reaches such a decision.
    """
    from ..bots import make_bot
    from ..core.registry import game_class

    names = [chr(ord("A") + i) for i in range(players)]
    for s in range(seed, seed + tries):
        g = game_class("money_card")(names, s)
        bots = [make_bot("greedy", seed=s * 10 + i) for i in range(players)]
        while not g.over:
            d = g.decision
            if d.tag == "color" and g.holder != d.player:
                return g
            g.apply(bots[d.player].choose(g))
    raise ValueError(f"no Monte Carlo colour decision in seeds {seed}..{seed + tries - 1}")


def monte_carlo_values(seed: int = 0) -> dict[str, dict]:
    """Each colour's bet at :func:`monte_carlo_state` ``(seed)``, valued by the engine.

    Returns ``{colour: {"stake": dollars, "mean": Fraction (expected net dollars),
    "per_dollar": Fraction (mean / stake: the player's edge), "variance": Fraction,
    "p_win": Fraction, "outcomes": {net dollars: Fraction}}}``.
    """
    from ..core.outcomes import value_option

    g = monte_carlo_state(seed)
    stake = g.monte["bet"]
    out = {}
    for colour in g.decision.options:
        v = value_option(g, colour)
        out[colour] = {
            "stake": stake,
            "mean": v.mean,
            "per_dollar": v.mean / stake,
            "variance": v.variance,
            "p_win": v.probability(lambda x: x > 0),
            "outcomes": dict(sorted(v.distribution.items())),
        }
    return out
