"""Schemas of Money Card's ``map.toml``, ``spinner.toml`` and ``cards.toml`` (see
:mod:`moneynb.core.schema`).

Bounds (reconstruction): a map of at most 1,000 spaces and 5,000 routes drawn on a 100 x 100
grid; 6 starting cities (one per seat of the rulebook's 2-6 players); a spinner of 1 to 100
segments worth 1 to 12 spaces; card amounts 1 to 500 (dollars, or extra moves for ``move``);
phrase fragments of at most 100 characters with 1 to 4 symbols. Which kinds, colours, decks
and effects exist, and every cross-reference, is checked by ``rules.py``.
"""

from __future__ import annotations

from ...core.schema import MAX_ITEMS, MAX_LABEL, Int, Items, Num, Schema, Text

Id = Text(MAX_LABEL, 1)


class Space(Schema):
    """One space of the map."""

    id: Id
    name: Text(MAX_LABEL)
    x: Num(0, 100)
    y: Num(0, 100)
    area: Id
    kind: Id
    color: Id


class MapFile(Schema):
    """The whole ``map.toml``."""

    key_cities: Items(Id, 2, 50)
    language_countries: Items(Id, 1, 20)
    starts: Items(Id, 6, 6)
    displaced_to: Id
    side_trips: Items(Id, 1, 50)
    perimeter: Items(Id, 3, MAX_ITEMS)
    space: Items(Space, 3, MAX_ITEMS)
    routes: Items(Items(Id, 2, 2), 0, 5_000)


class Segment(Schema):
    """One segment of the spinner."""

    label: Text(20, 1)
    color: Id
    value: Int(1, 12, "spaces")
    money_card: bool = None


class SpinnerFile(Schema):
    """The whole ``spinner.toml``."""

    money_card_value: Int(1, 12, "spaces") = None
    segment: Items(Segment, 1, 100)


class Card(Schema):
    """One card (Language Country cards also carry a phrase fragment)."""

    id: Id
    deck: Id
    text: Text()
    effect: Id
    amount: Int(1, 500) = None
    target: Id = None
    phrase: Id = None
    words: Text(100, 1) = None
    say: Text(100, 1) = None
    means: Text(100, 1) = None
    symbols: Items(Text(8, 1), 1, 4) = None


class CardsFile(Schema):
    """The whole ``cards.toml``."""

    card: Items(Card, 1, MAX_ITEMS)
