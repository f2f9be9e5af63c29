"""The five games as PettingZoo AEC environments, for training agents (optional extra ``rl``).

``moneynb.env.make("moolah", players=3)`` returns an ``AECEnv`` whose agents are the seats
(``"player_0"`` ...). Observations are ``{"observation": float32 vector, "action_mask": int8
vector}``; actions are ints in a fixed ``Discrete`` space per game (option slots, then amount
digits); rewards are the change in the seat's score (scaled) plus a win reward at the end.
docs/env.md gives every definition. The engine imports nothing from here.

:func:`make`, :func:`raw_env` and :class:`MoneynbEnv` need ``pettingzoo`` and ``gymnasium``
(``pip install -e ".[rl]"`` in a clone); :mod:`moneynb.env.actions` and :mod:`moneynb.env.observe` need
only numpy, and importing this package imports neither library.
"""

from __future__ import annotations

from .actions import ActionCodec, ActionSpaceTooSmall
from .observe import SPECS


def _aec():
    """The :mod:`moneynb.env.aec` module.

    Raises:
        ModuleNotFoundError: pettingzoo or gymnasium is missing (the message says what to
            install).
    """
    try:
        from . import aec
    except ModuleNotFoundError as e:
        if e.name not in ("pettingzoo", "gymnasium"):
            raise
        raise ModuleNotFoundError(
            f"moneynb.env needs {e.name}: pip install -e '.[rl]' in a clone of moneynb "
            "(pettingzoo, gymnasium)",
            name=e.name,
        ) from None
    return aec


#: versioned ids (``make("moneynb/moolah-v1")``; Gymnasium ids of the single-agent wrapper)
ENV_IDS = {
    "moneynb/money_moves-v0": "money_moves",
    "moneynb/moolah-v1": "moolah",
    "moneynb/easy_money-v1": "easy_money",
    "moneynb/money_card-v1": "money_card",
    "moneynb/money_run-v1": "money_run",
}

#: ids of observations no longer built -> what changed (a ValueError names the new id)
RETIRED_IDS = {
    "moneynb/moolah-v0": (
        "moneynb/moolah-v1",
        "play:won was a bool divided by $100,000 and play:* kept the last Black Jack hand "
        "at a second bet (issue 39)",
    ),
    "moneynb/easy_money-v0": (
        "moneynb/easy_money-v1",
        "a man's backward crossings of Bonus still to make up were left out (issue 39)",
    ),
    "moneynb/money_card-v0": (
        "moneynb/money_card-v1",
        "the seat's own hand was only a count; v1 names each card (issue 39)",
    ),
    "moneynb/money_run-v0": (
        "moneynb/money_run-v1",
        "the coins under a stack's top were left out; v1 counts every size (issue 39)",
    ),
}


def _game_name(name: str) -> str:
    """A game name, or a versioned id of :data:`ENV_IDS`, as the game's name.

    Raises:
        ValueError: an unknown id, or a retired one (:data:`RETIRED_IDS`: the message names
            its successor and what changed).
    """
    if isinstance(name, str) and name.startswith("moneynb/"):
        if name in RETIRED_IDS:
            new, why = RETIRED_IDS[name]
            raise ValueError(f"{name} is retired, use {new}: {why}")
        if name not in ENV_IDS:
            raise ValueError(f"unknown environment id {name!r}; ids: {', '.join(ENV_IDS)}")
        return ENV_IDS[name]
    return name


def make(name: str, players: int = 2, render_mode: str | None = None, **kwargs):
    """A PettingZoo AEC environment of game ``name`` for ``players`` seats, wrapped in
    PettingZoo's ``OrderEnforcingWrapper`` (``reset`` before ``step``; the environment itself
    is ``env.unwrapped``, a :class:`~moneynb.env.aec.MoneynbEnv`).

    Args:
        name: "money_moves", "moolah", "easy_money", "money_card" or "money_run", or a
            versioned id of :data:`ENV_IDS` (``"moneynb/moolah-v1"``).
        players: number of seats, in the rulebook's range for the game.
        render_mode: None, "ansi", "human" or "rgb_array".
        **kwargs: ``max_cycles``, ``reward``, ``illegal_action``, ``option_slots``,
            ``amount_slots``, ``win_reward`` (see
            :class:`~moneynb.env.aec.MoneynbEnv`) and the game's own options (house rules).

    Raises:
        ValueError: unknown game, bad player count, unknown option (the engine's message).
        ModuleNotFoundError: pettingzoo or gymnasium is not installed.
    """
    aec = _aec()
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = aec.MoneynbEnv(_game_name(name), players, render_mode=render_mode, **kwargs)
    return OrderEnforcingWrapper(env)


def raw_env(name: str, players: int = 2, render_mode: str | None = None, **kwargs):
    """Like :func:`make` without the order-enforcing wrapper (a
    :class:`~moneynb.env.aec.MoneynbEnv`)."""
    return _aec().MoneynbEnv(_game_name(name), players, render_mode=render_mode, **kwargs)


def parallel_env(name: str, players: int = 2, render_mode: str | None = None, **kwargs):
    """The parallel form (:class:`~moneynb.env.gym.MoneynbParallelEnv`): every agent sends an
    action each step, only the one the game waits on counts (docs/env.md)."""
    _aec()
    from .gym import MoneynbParallelEnv

    return MoneynbParallelEnv(_game_name(name), players, render_mode=render_mode, **kwargs)


def gym_env(name: str, **kwargs):
    """A Gymnasium single-agent environment: one seat against built-in bots
    (:class:`~moneynb.env.gym.MoneynbGymEnv`; ``seat=0, opponents="random"`` by default)."""
    _aec()
    from .gym import MoneynbGymEnv

    return MoneynbGymEnv(_game_name(name), **kwargs)


def __getattr__(name: str):
    if name in ("MoneynbEnv", "AMOUNT_SLOTS"):
        return getattr(_aec(), name)
    if name in ("MoneynbGymEnv", "MoneynbParallelEnv", "BotPolicy"):
        _aec()
        from . import gym

        return getattr(gym, name)
    raise AttributeError(f"module 'moneynb.env' has no attribute {name!r}")


__all__ = [
    "make",
    "raw_env",
    "parallel_env",
    "gym_env",
    "ENV_IDS",
    "RETIRED_IDS",
    "MoneynbGymEnv",
    "MoneynbParallelEnv",
    "BotPolicy",
    "MoneynbEnv",
    "ActionCodec",
    "ActionSpaceTooSmall",
    "SPECS",
    "AMOUNT_SLOTS",
]
