"""Schema of Money Run's ``setup.toml`` (see :mod:`moneynb.core.schema`).

Bounds (reconstruction): a board of 3 to 26 squares a side, 1 to 20 coins face up, 1 to 20
coin sizes of 1 to 300 coins each, 4 to 8 seats whose squares lie within the largest board
(``rules.py`` checks them against the file's own board size).
"""

from __future__ import annotations

from ...core.schema import MAX_COUNT, MAX_LABEL, Int, Items, Schema, Text

MAX_SIZE = 26


class Coin(Schema):
    """One coin size: its name, its rank (bigger sits on smaller) and how many are in the bag."""

    name: Text(MAX_LABEL, 1)
    rank: Int(1, 20)
    count: Int(1, MAX_COUNT, "coins")


class Seat(Schema):
    """A seat's start square ``[x, y]`` and the line it races to."""

    start: Items(Int(0, MAX_SIZE - 1), 2, 2)
    goal_axis: Text(1, 1)
    goal_line: Int(0, MAX_SIZE - 1)


class SetupFile(Schema):
    """The whole ``setup.toml``."""

    board_size: Int(3, MAX_SIZE, "squares")
    table_size: Int(1, 20, "coins")
    coins: Items(Coin, 1, 20)
    seats: Items(Seat, 4, 8)
