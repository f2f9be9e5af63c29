"""Board renderers: game name -> ``"module:Class"`` of its :class:`BoardRenderer`.

:func:`board_for` imports the game's renderer lazily, and falls back to the generic
:class:`~moneynb.ui.boards.base.BoardRenderer` (a bar per wallet) when a game has none yet.
"""

from __future__ import annotations

import importlib

from .base import BoardRenderer

#: game name -> "module:Class" of its renderer
BOARDS: dict[str, str] = {
    "money_moves": "moneynb.ui.boards.money_moves:Board",
    "moolah": "moneynb.ui.boards.moolah:Board",
    "easy_money": "moneynb.ui.boards.easy_money:Board",
    "money_card": "moneynb.ui.boards.money_card:Board",
    "money_run": "moneynb.ui.boards.money_run:Board",
}


def board_class(name: str) -> type:
    """The renderer class for game ``name`` (the generic one if it has none or its module is
    missing)."""
    target = BOARDS.get(name)
    if target is None:
        return BoardRenderer
    module, cls = target.split(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name is not None and module.startswith(e.name):
            return BoardRenderer  # the game's board module is not written yet
        raise
    return getattr(mod, cls, BoardRenderer)


def board_for(game) -> BoardRenderer:
    """A renderer instance drawing ``game``."""
    return board_class(game.name)(game)


__all__ = ["BOARDS", "BoardRenderer", "board_class", "board_for"]
