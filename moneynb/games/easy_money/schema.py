"""Schemas of Easy Money's ``board.toml`` and ``cards.toml`` (see :mod:`moneynb.core.schema`).

Bounds (reconstruction, wide enough for any house rule the rulebook could mean): starting cash
$1 to $100,000 (rulebook: $2,000) in bills of $1 to $1,000; Bonus and traffic fine $0 to
$10,000 (rulebook: $250 and $10; never negative, the Bank pays the one and takes the other);
1 to 100 houses a player; lift interest 0 to 100%; the Bank's money supply $1 to $10,000,000;
8 to 400 spaces; building costs, mortgage values, rents and legend amounts whole dollars
$0 to $100,000 (rents up to $1,000,000); a card's amount (dollars, or spaces for a move back)
1 to 100,000; 1 to 300 copies of a card. Which kinds and effects exist, and the fields each
kind needs, are checked by ``rules.py`` (``SPACE_KINDS``, ``CARD_EFFECTS``), not restated.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ...core.schema import MAX_COUNT, MAX_LABEL, Colour, Int, Items, Schema, Text

Dollars = Int(0, 100_000, "dollars")
Bill = Annotated[str, Field(pattern=r"^[1-9][0-9]{0,3}$")]  # a bill's face value, $1 to $9,999


class Space(Schema):
    """One board space; ``kind`` says which of the other fields it uses (see board.toml)."""

    name: Text(MAX_LABEL, 1)
    kind: Text(MAX_LABEL, 1)
    text: Text() = None
    B: Int(1, 100_000, "dollars") = None
    M: Int(1, 100_000, "dollars") = None
    rents: Items(Int(1, 1_000_000, "dollars"), 5, 5) = None
    colour: Colour() = None
    rent: Int(1, 100_000, "dollars") = None
    value: Int(1, 1_000_000, "dollars") = None
    effect: Text(MAX_LABEL, 1) = None
    amount: Dollars = None
    exempt: bool = None


class BoardFile(Schema):
    """The whole ``board.toml``."""

    start_cash: Int(1, 100_000, "dollars")
    start_bills: Annotated[dict[Bill, Int(0, 1_000, "bills")], Field(max_length=20)]
    bonus: Int(0, 10_000, "dollars")
    traffic_fine: Int(0, 10_000, "dollars")
    houses_per_player: Int(1, 100, "houses")
    lift_interest_percent: Int(0, 100, "percent")
    money_supply: Int(1, 10_000_000, "dollars")
    space: Items(Space, 8, 400)


class Card(Schema):
    """One kind of Give or Take card (``count`` copies in the pack)."""

    id: Text(MAX_LABEL, 1)
    title: Text(MAX_LABEL, 1)
    text: Text()
    effect: Text(MAX_LABEL, 1)
    count: Int(1, MAX_COUNT, "cards")
    target: Text(MAX_LABEL, 1) = None
    amount: Int(1, 100_000) = None
    exempt: bool = None
    source: Text() = ""


class CardsFile(Schema):
    """The whole ``cards.toml``."""

    card: Items(Card, 1, 100)
