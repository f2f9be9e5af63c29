"""Schema of Money Moves' ``cards.toml`` (see :mod:`moneynb.core.schema`).

Bounds (reconstruction, wide enough for any house rule the rulebook could mean): starting money
and the House Bank's loan limit $0 to $1,000 (rulebook: $7 each, loans up to $7), 1 to 5
rounds (the rulebook's most), 1 to 300 copies of a card. Which effects and die faces exist is
checked by ``rules.py`` (its ``EFFECTS`` and ``TASK_NAMES``), not restated here.
"""

from __future__ import annotations

from ...core.schema import MAX_COUNT, MAX_LABEL, Int, Items, Schema, Text


class Card(Schema):
    """One kind of task card (``count`` copies in the deck)."""

    id: Text(MAX_LABEL, 1)
    title: Text(MAX_LABEL, 1)
    text: Text()
    effect: Text(MAX_LABEL, 1)
    count: Int(1, MAX_COUNT, "cards")
    source: Text() = ""


class CardsFile(Schema):
    """The whole ``cards.toml``."""

    starting_money: Int(0, 1_000, "dollars")
    max_loan: Int(0, 1_000, "dollars")
    rounds: Int(1, 5, "rounds")
    money_die: Items(Int(1, 6), 6, 6)
    task_die: Items(Text(MAX_LABEL, 1), 6, 6)
    card: Items(Card, 1, 100)
