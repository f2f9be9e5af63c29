"""Counted words for what a player reads (issue 38: "1 cards", "action(s)"): a count and its
noun, singular or plural by the count. Engine, coach and views use it alike."""

from __future__ import annotations

#: nouns whose plural is not the noun + "s"
_PLURALS = {"house": "houses", "match": "matches", "box": "boxes"}


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 card"``, ``"2 cards"``, ``"0 cards"``: ``n`` and ``noun`` in the singular when
    ``n`` is 1 (or -1), else ``plural`` (default: the noun + "s", or a known irregular form).

    >>> counted(1, "card"), counted(3, "space"), counted(0, "turn")
    ('1 card', '3 spaces', '0 turns')
    """
    if abs(n) == 1:
        return f"{n} {noun}"
    return f"{n} {plural or _PLURALS.get(noun, noun + 's')}"
