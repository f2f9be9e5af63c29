"""The five games as PettingZoo AEC environments, for training agents (optional extra ``rl``).

``moneynb.env.make("moolah", players=3)`` returns an ``AECEnv`` whose agents are the seats
(``"player_0"`` ...). Observations are ``{"observation": float32 vector, "action_mask": int8
vector}``; actions are ints in a fixed ``Discrete`` space per game (option slots, then amount
digits); rewards are the change in the seat's score (scaled) plus a win reward at the end.
docs/env.md gives every definition. The engine imports nothing from here.

Importing this package needs ``pettingzoo`` and ``gymnasium`` (``pip install moneynb[rl]``);
:mod:`moneynb.env.actions` and :mod:`moneynb.env.observe` need only numpy.
"""

from __future__ import annotations

from .actions import ActionCodec, ActionSpaceTooSmall
from .observe import SPECS

try:
    from .aec import AMOUNT_SLOTS, MoneynbEnv
except ModuleNotFoundError as e:  # pragma: no cover - depends on the install
    if e.name not in ("pettingzoo", "gymnasium"):
        raise
    raise ModuleNotFoundError(
        f"moneynb.env needs {e.name}: pip install 'moneynb[rl]' (pettingzoo, gymnasium)",
        name=e.name,
    ) from None


def make(name: str, players: int = 2, render_mode: str | None = None, **kwargs) -> MoneynbEnv:
    """A PettingZoo AEC environment of game ``name`` for ``players`` seats, wrapped in
    PettingZoo's ``OrderEnforcingWrapper`` (``reset`` before ``step``).

    Args:
        name: "money_moves", "moolah", "easy_money", "money_card" or "money_run".
        players: number of seats, in the rulebook's range for the game.
        render_mode: None, "ansi" or "human".
        **kwargs: ``option_slots``, ``amount_slots``, ``win_reward`` (see
            :class:`~moneynb.env.aec.MoneynbEnv`) and the game's own options (house rules).

    Raises:
        ValueError: unknown game, bad player count, unknown option (the engine's message).
    """
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(MoneynbEnv(name, players, render_mode=render_mode, **kwargs))


def raw_env(name: str, players: int = 2, render_mode: str | None = None, **kwargs) -> MoneynbEnv:
    """Like :func:`make` without the order-enforcing wrapper."""
    return MoneynbEnv(name, players, render_mode=render_mode, **kwargs)


__all__ = [
    "make",
    "raw_env",
    "MoneynbEnv",
    "ActionCodec",
    "ActionSpaceTooSmall",
    "SPECS",
    "AMOUNT_SLOTS",
]
