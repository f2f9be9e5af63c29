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
        """Take the top card; an empty pile is first refilled from the discards (reshuffled).

        A :class:`ScriptedRandom` generator may first move another card of the draw pile to the
        top (the test rig and :func:`moneynb.core.outcomes.chance_outcomes` use this: to a
        player every unseen card is equally likely to be on top).
        """
        if not self.draw_pile and self.reshuffle_when_empty and self.discard_pile:
            self.reshuffle(rng)
        if not self.draw_pile:
            raise IndexError("the deck is empty")
        pick_top = getattr(rng, "pick_top", None)
        if pick_top is not None:  # a scripted generator (test rig, exact enumeration) chooses
            pick_top(self.draw_pile)  # which unseen card is on top; plain play never does
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


_getrandbits = random.Random.getrandbits  # the C generator's own methods
_random = random.Random.random


class GameRandom(random.Random):
    """The game's generator: a ``random.Random`` (the same draws from the same seed) that
    also counts them in ``draws``, so the engine can tell whether an action used chance
    without copying the generator's whole state (engine speed; see docs/speed.md).

    ``draws`` changes exactly when the state does: every integer draw (``_randbelow``, used by
    ``randrange``, ``choice``, ``shuffle``...), ``random()``, ``getrandbits(k)`` with ``k > 0``,
    ``gauss`` (its cached second value is state), and ``seed``/``setstate`` to another state.
    A copy or a pickle keeps its own count (only changes within one game are compared).
    """

    draws = 0

    def _randbelow(self, n: int) -> int:  # = random.Random._randbelow_with_getrandbits
        self.draws += 1
        k = n.bit_length()
        r = _getrandbits(self, k)
        while r >= n:
            r = _getrandbits(self, k)
        return r

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None and step == 1 and type(start) is int and start > 0:
            return self._randbelow(start)  # what random.Random does for randrange(n)
        return super().randrange(start, stop, step)

    def randint(self, a: int, b: int) -> int:
        if type(a) is int and type(b) is int and b >= a:
            return a + self._randbelow(b - a + 1)  # what random.Random does for these
        return super().randint(a, b)

    def random(self) -> float:
        self.draws += 1
        return _random(self)

    def getrandbits(self, k: int) -> int:
        if k:
            self.draws += 1
        return _getrandbits(self, k)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        self.draws += 1
        return super().gauss(mu, sigma)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        self.draws += 1
        super().seed(*args, **kwargs)

    def setstate(self, state: tuple) -> None:
        if state != self.getstate():
            self.draws += 1
        super().setstate(state)


class ScriptedRandom(GameRandom):
    """A ``random.Random`` whose next draws can be fixed (the test rig) or enumerated (exact
    chance outcomes), and that otherwise behaves as the generator it replaces. Like
    :class:`GameRandom` it counts its draws in ``draws`` (a forced or chosen answer counts).

    Every uniform integer draw of the engine (a die, a spinner, ``randrange``, ``randint``, a
    coin out of Money Run's bag) goes through ``_randbelow(n)``; every deck draw goes through
    :meth:`pick_top`. ``script`` is a queue of forced answers: ``("int", n, k)`` answers the
    next ``_randbelow(n)`` with ``k``; ``("top", card)`` puts ``card`` on top at the next deck
    draw. With ``chooser`` set, an unscripted draw asks ``chooser(kind, choices)`` instead (the
    enumeration). Shuffles never consume the script (a shuffled order is hidden: only the card
    drawn matters, and that is chosen by :meth:`pick_top`).

    Raises:
        ValueError: a forced answer does not fit the draw the game makes (wrong range, or a card
            not in the draw pile); the message names both.

    Source: DESIGN.md ("A test rig is public API"; "Chance outcomes come from the engine").
    """

    def __init__(self, base: random.Random | None = None, *, state: tuple | None = None):
        """``base``: start in that generator's state; ``state``: in that ``getstate()``
        state; neither: freshly seeded."""
        if base is not None:
            state = base.getstate()
        if state is None:
            super().__init__()
        else:  # no seeding (a generator from __new__ is not seeded yet): the state is set
            random.Random.setstate(self, state)
        self.script: list = []
        self.chooser = None
        self._shuffling = False

    def __reduce__(self):  # deep copies keep the script (random.Random's drops instance dicts)
        return self.__class__, (), (self.getstate(), self.script, self.chooser)

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) == 3 and isinstance(state[1], list):
            random.Random.setstate(self, state[0])
            self.script, self.chooser, self._shuffling = list(state[1]), state[2], False
        else:
            random.Random.setstate(self, state)

    def _randbelow(self, n: int) -> int:
        if self._shuffling:
            return random.Random._randbelow_with_getrandbits(self, n)
        if self.script:
            kind, *rest = self.script[0]
            if kind != "int" or rest[0] not in (None, n):
                raise ValueError(
                    f"the rig expected {self._describe(self.script[0])}, but the game drew a "
                    f"number below {n}"
                )
            self.script.pop(0)
            self.draws += 1
            return rest[1]
        if self.chooser is not None:
            self.draws += 1
            return self.chooser("int", n)
        return random.Random._randbelow_with_getrandbits(self, n)

    def shuffle(self, x) -> None:
        self._shuffling = True
        try:
            super().shuffle(x)
        finally:
            self._shuffling = False

    def pick_top(self, pile: list) -> None:
        """Move the scripted (or chosen) card to the top of ``pile`` (called by Deck.draw)."""
        card = None
        if self.script and self.script[0][0] == "top":
            card = self.script.pop(0)[1]
            if card not in pile:
                raise ValueError(f"the rig wanted {card!r} on top, but it is not in the draw pile")
        elif self.script:
            raise ValueError(
                f"the rig expected {self._describe(self.script[0])}, but the game drew a card"
            )
        elif self.chooser is not None:
            card = self.chooser("top", pile)
        if card is not None:
            pile.insert(0, pile.pop(pile.index(card)))

    @staticmethod
    def _describe(entry: tuple) -> str:
        if entry[0] == "top":
            return f"a card draw ({entry[1]!r} on top)"
        return f"a number below {entry[1]}" if entry[1] else "a number draw"
