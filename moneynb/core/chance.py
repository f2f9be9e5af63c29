"""Dice, spinners and decks driven by the game's own seeded generator.

Every random draw in moneynb goes through the ``random.Random`` held in the game state
(:attr:`moneynb.core.game.Game.rng`), so a game is fully given by config + seed + actions.
Source: DESIGN.md ("Chance is part of the state").
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar


@dataclass(frozen=True)
class Die:
    """A fair die with the given ``faces`` (any hashable labels: ints 1-6, "SAFE", ...).

    ``roll(rng)`` returns one face, each with probability ``1/len(faces)``.
    """

    faces: tuple

    def roll(self, rng: random.Random) -> Any:
        """Return one face chosen uniformly by ``rng``."""
        return self.faces[rng.randrange(len(self.faces))]

    def distribution(self) -> dict[Any, Fraction]:
        """Exact probability of each face, as ``{face: Fraction}``."""
        out: dict[Any, Fraction] = {}
        for f in self.faces:
            out[f] = out.get(f, Fraction(0)) + Fraction(1, len(self.faces))
        return out


D6 = Die((1, 2, 3, 4, 5, 6))


def sum_distribution(dice: Sequence[Die]) -> dict[int, Fraction]:
    """Exact distribution of the sum of numeric ``dice``: ``{total: Fraction}``."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for d in dice:
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for f, q in d.distribution().items():
                nxt[s + f] = nxt.get(s + f, Fraction(0)) + p * q
        dist = nxt
    return dist


@dataclass(frozen=True)
class Spinner:
    """A spinner of equal segments; each segment is any label (e.g. ``("red", 3)``).

    Same interface as :class:`Die`: ``roll(rng)`` and ``distribution()``.
    """

    segments: tuple

    def roll(self, rng: random.Random) -> Any:
        """Return one segment chosen uniformly by ``rng``."""
        return self.segments[rng.randrange(len(self.segments))]

    def distribution(self) -> dict[Any, Fraction]:
        """Exact probability of each segment label, as ``{label: Fraction}``."""
        return Die(self.segments).distribution()


@dataclass
class Deck:
    """A draw pile and a discard pile of cards (any JSON-able hashable value, usually a str id).

    ``draw_pile[0]`` is the top card. Cards a player holds are outside both piles until
    returned with :meth:`discard` or :meth:`put_bottom`. The order of ``draw_pile`` is hidden
    information: views and bots use :meth:`public_view`.

    Raises:
        IndexError: :meth:`draw` on an empty deck with nothing to reshuffle.
    """

    draw_pile: list = field(default_factory=list)
    discard_pile: list = field(default_factory=list)
    reshuffle_when_empty: bool = True
    #: cards drawn from any deck so far in this process: the game compares it around an
    #: action to know a card was revealed (for its undo policy; see Game.undo)
    draws: ClassVar[int] = 0

    @classmethod
    def from_counts(cls, counts: dict[Hashable, int], rng: random.Random) -> Deck:
        """Build and shuffle a deck holding ``counts[card]`` copies of each card."""
        cards = [c for c, n in counts.items() for _ in range(n)]
        deck = cls(draw_pile=cards)
        deck.shuffle(rng)
        return deck

    def shuffle(self, rng: random.Random) -> None:
        """Shuffle the draw pile in place with ``rng``."""
        rng.shuffle(self.draw_pile)

    def reshuffle(self, rng: random.Random, keep_out: Sequence = ()) -> None:
        """Put the discard pile back into the draw pile and shuffle; ``keep_out`` cards stay out."""
        back = [c for c in self.discard_pile if c not in keep_out]
        self.discard_pile = [c for c in self.discard_pile if c in keep_out]
        self.draw_pile.extend(back)
        self.shuffle(rng)

    def draw(self, rng: random.Random) -> Any:
        """Take the top card; an empty pile is first refilled from the discards (reshuffled)."""
        if not self.draw_pile and self.reshuffle_when_empty and self.discard_pile:
            self.reshuffle(rng)
        if not self.draw_pile:
            raise IndexError("the deck is empty")
        Deck.draws += 1
        return self.draw_pile.pop(0)

    def discard(self, card: Any) -> None:
        """Put ``card`` face up on the discard pile."""
        self.discard_pile.append(card)

    def put_bottom(self, card: Any) -> None:
        """Put ``card`` at the bottom of the draw pile (e.g. Money Card's Miscellaneous cards)."""
        self.draw_pile.append(card)

    def __len__(self) -> int:
        return len(self.draw_pile)

    def public_view(self) -> dict:
        """What any player may see: pile sizes and the discard pile, not the draw order."""
        return {"draw_pile": len(self.draw_pile), "discard_pile": list(self.discard_pile)}


def seat_at(seat: int, distance: int, n_seats: int, direction: str) -> int:
    """Seat index ``distance`` places to the ``"left"`` or ``"right"`` of ``seat``.

    Seats are numbered 0..n_seats-1 clockwise, so the left neighbour (clockwise at a table seen
    from above) is ``seat + 1``. Counting wraps around the table.

    Raises:
        ValueError: unknown direction or fewer than 1 seat.
    """
    if n_seats < 1:
        raise ValueError("a table needs at least one seat")
    if direction == "left":
        return (seat + distance) % n_seats
    if direction == "right":
        return (seat - distance) % n_seats
    raise ValueError(f"direction must be 'left' or 'right', got {direction!r}")
