"""Bots: players that answer the pending :class:`~moneynb.core.Decision`.

``make_bot("random", seed=1)`` or ``make_bot("bot:greedy")``. A bot sees the decision and the
game's public methods; the greedy bot asks the game's own ``greedy_action`` heuristic, which
reads only what that seat may see. Games can register extra bots (e.g. Money Run's search bot)
in :data:`BOTS`.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.decision import Decision


def random_action(decision: Decision, rng: random.Random) -> Any:
    """A uniformly random legal answer to ``decision`` (an amount range counts each dollar
    step, plus the discrete options).

    Raises:
        ValueError: ``decision`` is None (the game is over).
    """
    if decision is None:
        raise ValueError("the game is over: there is no decision to answer")
    n_opts = len(decision.options)
    n_range = 0
    if decision.kind == "amount" and decision.low is not None and decision.high is not None:
        n_range = (decision.high - decision.low) // decision.step + 1
    # pick a discrete option half the time when both exist, so "pass" is not drowned out
    if n_opts and (not n_range or rng.random() < 0.5):
        return decision.options[rng.randrange(n_opts)]
    return decision.low + decision.step * rng.randrange(n_range)


def require_decision(game) -> None:
    """Bots call this first: a finished game has nothing to answer.

    Raises:
        ValueError: ``game`` is over (its decision is None).
    """
    if game.decision is None:
        raise ValueError("the game is over: there is no decision to answer")


class Bot:
    """Base bot. ``choose(game)`` returns an action for ``game.decision`` (ValueError when the
    game is over)."""

    kind = "bot"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    kind = "random"

    def choose(self, game) -> Any:
        return random_action(game.decision, self.rng)


class GreedyBot(Bot):
    """Uses the game's heuristic (``game.greedy_action``), which sees no hidden card order."""

    kind = "greedy"

    def choose(self, game) -> Any:
        require_decision(game)
        return game.greedy_action(self.rng)


#: bot name -> class (or "module:Class" string, imported when asked for)
BOTS: dict[str, Any] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": "moneynb.bots.search:SearchBot",
}


def make_bot(name: str, seed: int | None = None, **kwargs: Any) -> Bot:
    """Make a bot by name: ``"random"``, ``"greedy"``, ``"search"`` (a ``"bot:"`` prefix is allowed).

    Raises:
        ValueError: unknown bot name (the message lists the known ones).
    """
    key = name[4:] if isinstance(name, str) and name.startswith("bot:") else name
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}")
    cls = BOTS[key]
    if isinstance(cls, str):
        import importlib

        mod, attr = cls.split(":")
        try:
            cls = getattr(importlib.import_module(mod), attr)
        except (ModuleNotFoundError, AttributeError) as e:
            raise ValueError(f"bot {name!r} is not available: {e}") from None
    return cls(seed=seed, **kwargs)


def is_bot_spec(player: str) -> bool:
    """True for a player entry such as ``"bot:greedy"``."""
    return isinstance(player, str) and player.startswith("bot:")


def play_out(game, bots, max_actions: int = 1_000_000) -> int:
    """Let ``bots`` (a list of Bot, one per seat) play ``game`` to the end; returns actions taken.

    Raises:
        RuntimeError: the game did not end within ``max_actions`` actions.
    """
    n = 0
    while not game.over:
        if n >= max_actions:
            raise RuntimeError(f"{game.title} did not end within {max_actions} actions")
        game.apply(bots[game.decision.player].choose(game))
        n += 1
    return n
