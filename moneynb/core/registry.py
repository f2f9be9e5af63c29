"""The registry of games: name -> class, imported lazily so ``import moneynb`` stays fast."""

from __future__ import annotations

import importlib
import importlib.util

#: game name -> "module:ClassName"
GAMES: dict[str, str] = {
    "money_moves": "moneynb.games.money_moves.rules:MoneyMoves",
    "moolah": "moneynb.games.moolah.rules:Moolah",
    "easy_money": "moneynb.games.easy_money.rules:EasyMoney",
    "money_card": "moneynb.games.money_card.rules:MoneyCard",
    "money_run": "moneynb.games.money_run.rules:MoneyRun",
}


def available_games() -> list[str]:
    """Names of the games whose rules module is present."""
    out = []
    for name, target in GAMES.items():
        mod = target.split(":")[0]
        if importlib.util.find_spec(mod.rsplit(".", 1)[0]) is not None:
            try:
                if importlib.util.find_spec(mod) is not None:
                    out.append(name)
            except ModuleNotFoundError:
                pass
    return out


def game_class(name: str):
    """The Game subclass registered as ``name``.

    Raises:
        ValueError: unknown game (the message lists the known ones).
    """
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; games are: {', '.join(available_games())}")
    module, cls = GAMES[name].split(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise ValueError(f"game {name!r} is not built yet ({e})") from None
    return getattr(mod, cls)
