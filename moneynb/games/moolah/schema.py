"""Schemas of Moolah's ``board.toml`` and ``cards.toml`` (see :mod:`moneynb.core.schema`).

Bounds (reconstruction, wide enough for any house rule the rulebook could mean): every rule
amount $1 to $100,000,000 (rulebook: $250,000 account, $1,000,000 goal); the smallest bill $1
to $1,000,000; the Loan Shark's interest 1 to 500%; a money space -$100,000,000 to
$100,000,000; 3 to 1,000 spaces drawn within -100..100; card amounts and payouts $1 to
$100,000,000; a gamble's target 1-6 and an Advantage card's steps 1-5 (one die; the
rulebook's 1 to 5 spaces); stock cards -100% (a total loss) to +1,000%, at most 300 a deck;
Black Jack scores 1 to 99 with 1 to 300 cards each. Which kinds exist, that amounts are whole
bills, and every cross-reference are checked by ``rules.py``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ...core.schema import MAX_COUNT, MAX_ITEMS, MAX_LABEL, Int, Items, Num, Schema, Text

Id = Text(MAX_LABEL, 1)
Money = Int(1, 100_000_000, "dollars")


class Rules(Schema):
    """The ``[rules]`` table: amounts in dollars."""

    start_account: Money
    credit_line: Money
    suggested_withdrawal: Money
    goal: Money
    denomination: Int(1, 1_000_000, "dollars")
    loan_shark_percent: Int(1, 500, "percent")
    wall_street_min: Money
    casino_min: Money
    #: "Back"/"Cancel" answers a player may give in one turn (reconstruction; rules.MAX_BACKS
    #: when left out)
    max_backs: Int(0, 1000, "answers") = None


class Space(Schema):
    """One space of the track (or off it)."""

    id: Id
    name: Text(MAX_LABEL, 1)
    kind: Id
    amount: Int(-100_000_000, 100_000_000, "dollars") = None
    to: Id = None
    x: Num(-100, 100)
    y: Num(-100, 100)
    next: Items(Id, 0, 2)


class BoardFile(Schema):
    """The whole ``board.toml``."""

    rules: Rules
    space: Items(Space, 3, MAX_ITEMS)


class Temptation(Schema):
    """One Temptation card."""

    id: Id
    kind: Id
    text: Text()
    amount: Money = None
    to: Id = None
    target: Int(1, 6) = None
    payout: Money = None
    steps: Int(1, 5, "spaces") = None


Score = Annotated[str, Field(pattern=r"^[1-9][0-9]?$")]  # a Black Jack score, 1 to 99


class CardsFile(Schema):
    """The whole ``cards.toml``."""

    temptation: Items(Temptation, 2, MAX_COUNT)
    stocks: Annotated[
        dict[Id, Items(Int(-100, 1_000, "percent"), 1, MAX_COUNT)], Field(max_length=10)
    ]
    casino: Annotated[dict[Score, Int(1, MAX_COUNT, "cards")], Field(max_length=99)]
