"""The plotly figures of the boards, below the views (issue 39, case 9).

A game's board as plotly ``go.Figure`` objects, built from the game's state, with plotly
only: no ipywidgets, no anywidget, nothing of :mod:`moneynb.ui`. The board widgets
(:mod:`moneynb.ui.boards`) extend these drawings with their ``FigureWidget``, panels and
clicks; the env's pictures (``render_mode="rgb_array"``), the handouts and the service's
status text use them directly.

* :data:`FIGURES`: game name -> ``"module:Class"`` of its drawing
  (:class:`~moneynb.figures.base.BoardDrawing`);
* :func:`drawing_for`: a game's drawing, as it stands when made;
* :func:`board_figure`: the whole board of a game as one static ``go.Figure``;
  :func:`static_figure`: a drawing's figures as one.
"""

from __future__ import annotations

import importlib

from .base import BoardDrawing

#: game name -> "module:Class" of its drawing
FIGURES: dict[str, str] = {
    "money_moves": "moneynb.figures.money_moves:Board",
    "moolah": "moneynb.figures.moolah:Board",
    "easy_money": "moneynb.figures.easy_money:Board",
    "money_card": "moneynb.figures.money_card:Board",
    "money_run": "moneynb.figures.money_run:Board",
}


def drawing_class(name: str) -> type:
    """The drawing class of game ``name`` (the generic :class:`BoardDrawing`, a bar per
    wallet, for a game that has none)."""
    target = FIGURES.get(name)
    if target is None:
        return BoardDrawing
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def drawing_for(game) -> BoardDrawing:
    """A drawing of ``game`` (its figures built from the game's state when made; call
    ``update(game, events)`` after actions)."""
    return drawing_class(game.name)(game)


def static_figure(board: BoardDrawing):
    """``board``'s figures as one static plotly ``go.Figure`` (a copy): the backdrop's traces,
    shapes and annotations with the moving traces drawn over them."""
    import plotly.graph_objects as go

    top = board.figure
    if board.backdrop is None:
        return go.Figure(data=list(top.data), layout=top.layout)
    return go.Figure(data=list(board.backdrop.data) + list(top.data), layout=board.backdrop.layout)


def board_figure(game, theme: str = "light"):
    """The board of ``game`` as it stands, as one static plotly ``go.Figure``
    (:func:`static_figure`): the same traces, layout and size as the board widget of
    :func:`moneynb.ui.boards.board_for`, in ``theme`` ("light" or "dark"; not the theme a
    page last reported), with the cues of the whole log (the last move's path...).

    Raises:
        ValueError: an unknown theme.
    """
    from .base import PALETTES

    if theme not in PALETTES:
        raise ValueError(f"theme must be one of {tuple(PALETTES)}, got {theme!r}")
    board = drawing_for(game)
    board.set_theme(theme)
    board.update(game, list(game.log))  # boards draw the events' traces (last move, cards)
    return static_figure(board)


__all__ = [
    "FIGURES",
    "BoardDrawing",
    "board_figure",
    "drawing_class",
    "drawing_for",
    "static_figure",
]
