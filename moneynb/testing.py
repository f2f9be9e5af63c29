"""A public test rig: fix the next dice, spins, bag draws and cards of a game.

Source: DESIGN.md ("A test rig is public API"). A rulebook scenario then reads like the
rulebook::

    from moneynb.testing import rig

    g = moneynb.new_game("easy_money", players=["Ann", "Bob"], seed=1)
    r = rig(g)
    r.dice(2, 2)                       # the next two six-sided dice show 2 and 2
    g.apply("roll")
    r.face(g.task_die, "RE-R")         # the next roll of that die shows RE-R (Money Moves)
    r.top("go_to_hospital")            # the next card drawn from any deck is that card
    r.pick(g.bag, 3)                   # the next random pick from that list takes a 3 (Money Run)
    r.check_used()                     # every fixed draw was used

The rig works through the game's own generator: it replaces ``game.rng`` by a
:class:`~moneynb.core.chance.ScriptedRandom` in the same state, whose next uniform draws (every
die, spinner and ``randrange``) and next deck draws follow the script; unscripted draws go on
exactly as before. Nothing private is touched, and the rules code is the same code that plays.

A rigged game no longer follows from its seed: do not save and reload it (``undo`` replays from
the seed and so drops the rig too). With ``chance_streams`` 2 (a stream per kind of chance) the
script answers the draws of every kind in the order the game makes them, and an unscripted draw
comes from its kind's own stream.

:func:`record_chance` records the chance events of a game by kind, and :func:`paired_events`
counts what two games of one deal share (issue 39; ``benchmarks/duplicate_pairing.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .core.chance import D6, Deck, Die, GameRandom, ScriptedRandom, Spinner
from .core.outcomes import Outcome, chance_outcomes, expected_money_change

__all__ = [
    "Rig",
    "rig",
    "chance_outcomes",
    "expected_money_change",
    "Outcome",
    "record_chance",
    "paired_events",
]


class Rig:
    """Fixes the next chance draws of ``game`` (see the module docstring).

    Args:
        game: any moneynb :class:`~moneynb.core.game.Game`.

    Every method returns the rig, so calls chain: ``rig(g).dice(6, 6).top("bonus")``.

    Raises (from the game's next draw): ValueError when a fixed draw does not fit the draw the
    game makes (a die of another size, a card not in the draw pile).
    """

    def __init__(self, game: Any):
        self.game = game
        if not isinstance(game.rng, ScriptedRandom):
            game.rng = ScriptedRandom(game.rng)
        self.rng: ScriptedRandom = game.rng

    def draw_below(self, n: int | None, k: int) -> Rig:
        """The next uniform draw of a number below ``n`` gives ``k`` (``n=None``: any size).

        Raises:
            ValueError: ``k`` is not in ``0..n-1``.
        """
        if type(k) is not int or k < 0 or (n is not None and k >= n):
            raise ValueError(f"{k!r} is not a draw below {n}")
        self.rng.script.append(("int", n, k))
        return self

    def face(self, die: Die | Spinner, *faces: Any) -> Rig:
        """The next rolls of ``die`` (a Die or Spinner of the game) show ``faces`` in order.

        Raises:
            ValueError: a face the die does not have.
        """
        labels = die.faces if isinstance(die, Die) else die.segments
        for f in faces:
            if f not in labels:
                raise ValueError(f"{f!r} is not a face of this die; faces: {list(labels)}")
            self.draw_below(len(labels), list(labels).index(f))
        return self

    def dice(self, *pips: int) -> Rig:
        """The next six-sided dice show ``pips`` in order (``dice(2, 2)``: a double 2)."""
        return self.face(D6, *pips)

    def spin(self, spinner: Spinner, *segments: Any) -> Rig:
        """The next spins of ``spinner`` stop on ``segments`` (labels of its segments)."""
        return self.face(spinner, *segments)

    def top(self, *cards: Any) -> Rig:
        """The next cards drawn (from whatever deck the game draws) are ``cards``, in order.

        Each card must be in the draw pile when it is drawn (else the draw raises ValueError).
        """
        for c in cards:
            self.rng.script.append(("top", c))
        return self

    def pick(self, items: Sequence, *wanted: Any) -> Rig:
        """The next random picks out of ``items`` (e.g. Money Run's bag, ``randrange(len)``)
        take ``wanted`` in order; each pick removes the item from a working copy, as a bag does.

        Raises:
            ValueError: a wanted item is not in ``items``.
        """
        pool = list(items)
        for w in wanted:
            if w not in pool:
                raise ValueError(f"{w!r} is not among the items to pick from")
            self.draw_below(len(pool), pool.index(w))
            pool.remove(w)
        return self

    @property
    def pending(self) -> list:
        """The fixed draws not used yet."""
        return list(self.rng.script)

    def check_used(self) -> None:
        """Raise AssertionError if some fixed draw was never used (the scenario went astray)."""
        if self.rng.script:
            raise AssertionError(f"fixed draws never used: {self.rng.script}")


def rig(game: Any) -> Rig:
    """A :class:`Rig` on ``game`` (installs the scripted generator once)."""
    return Rig(game)


@contextmanager
def record_chance(game: Any) -> Iterator[list]:
    """Record every chance event of ``game`` while the ``with`` block runs, as a list of
    ``(kind, value)`` in the order they happen: ``kind`` is the name the rules asked
    :meth:`~moneynb.core.game.Game.chance` for (``"dice"``, ``"deck:Mail"``...); ``value`` is
    ``("int", n, k)`` for a number ``k`` drawn below ``n`` (one die, a spin, a coin out of the
    bag, a blind pick) or ``("card", card)`` for a card drawn. Shuffles are not events (their
    order shows in the cards drawn later). Draws on copies of the game (a bot's look-ahead)
    are not recorded.

    For tests and measurements (how much of a duplicate deal is paired, issue 39): it
    replaces three engine methods for the duration (the game class's ``chance``,
    ``GameRandom``'s integer draw and shuffle, ``Deck.draw``), so use it in one thread.
    """
    events: list = []
    cls = type(game)
    own_chance = cls.__dict__.get("chance")
    base_chance, base_below, base_shuffle, base_draw = (
        cls.chance,
        GameRandom._randbelow,
        GameRandom.shuffle,
        Deck.draw,
    )
    last: list = [None, None]  # the kind last asked for by the game, and its generator
    shuffling = [False]

    def chance(self, kind: str) -> random.Random:
        rng = base_chance(self, kind)
        if self is game:
            last[0], last[1] = kind, rng
        return rng

    def below(self, n: int) -> int:
        k = base_below(self, n)
        if self is last[1] and not shuffling[0]:
            events.append((last[0], ("int", n, k)))
        return k

    def shuffle(self, x) -> None:
        shuffling[0] = True
        try:
            base_shuffle(self, x)
        finally:
            shuffling[0] = False

    def draw(self, rng: random.Random) -> Any:
        card = base_draw(self, rng)
        if rng is last[1]:
            events.append((last[0], ("card", card)))
        return card

    cls.chance, GameRandom._randbelow, GameRandom.shuffle, Deck.draw = chance, below, shuffle, draw
    try:
        yield events
    finally:
        GameRandom._randbelow, GameRandom.shuffle, Deck.draw = base_below, base_shuffle, base_draw
        if own_chance is None:
            del cls.chance
        else:
            cls.chance = own_chance


def paired_events(a: list, b: list) -> tuple[int, int]:
    """How many chance events two games of one deal share, from :func:`record_chance`'s lists
    ``a`` and ``b``: ``(one stream, per kind)``. *One stream*: the length of the common start
    of the two sequences (the events both games drew from the same point of one stream: after
    the first difference the two games draw from different points, whatever the kind). *Per
    kind*: for each kind, the length of the common start of that kind's events, summed (the
    k-th roll of the dice, the k-th card of a deck). Under ``chance_streams`` 1 only the first
    figure is pairing by construction (a per-kind match after the streams parted is luck); under
    2 the second is."""
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    per_kind = 0
    kinds = {k for k, _ in a} | {k for k, _ in b}
    for kind in kinds:
        xs = [v for k, v in a if k == kind]
        ys = [v for k, v in b if k == kind]
        for x, y in zip(xs, ys, strict=False):
            if x != y:
                break
            per_kind += 1
    return common, per_kind
