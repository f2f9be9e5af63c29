"""Dice, spinners and decks driven by the game's own seeded generator.

Every random draw in moneynb goes through the ``random.Random`` held in the game state
(:attr:`moneynb.core.game.Game.rng`), so a game is fully given by config + seed + actions.
Source: DESIGN.md ("Chance is part of the state").

**Chance streams** (issue 39, case 7). A rules file asks for the generator of one *kind* of
chance (``game.chance("dice")``, ``game.chance("deck:Mail")``) and draws from it. How kinds map
to generators is the game's ``chance_streams`` option (:data:`CHANCE_STREAMS`):

* ``1``: one stream (:class:`GameRandom`, seeded with the game's seed) serves every kind, in
  the order the game asks. Games saved before streams existed are this version.
* ``2``: each kind draws from its own stream (:class:`ChanceStreams`), seeded with
  :func:`stream_seed` of the game's seed and the kind's name, so two games on one seed (a
  duplicate deal) meet the same k-th roll of the dice and the same k-th card of each deck
  however differently they are played.
"""

from __future__ import annotations

import hashlib
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
    :func:`copy_generator` remembers a state with its count, so set a state only through these
    methods (never ``random.Random.setstate(game_rng, ...)``: the count would not move).
    """

    draws = 0
    #: ``{kind: generator}`` of a stream set (:class:`ChanceStreams`); ``None``: this one
    #: generator serves every kind of chance (``chance_streams`` 1)
    streams = None

    def all_draws(self) -> int:
        """The draws counted by this generator and every stream it holds."""
        return self.draws

    def _randbelow(self, n: int) -> int:  # = random.Random._randbelow_with_getrandbits
        self.draws += 1
        k = n.bit_length()
        r = _getrandbits(self, k)
        while r >= n:
            r = _getrandbits(self, k)
        return r

    def shuffle(self, x: list) -> None:
        """``random.Random.shuffle``: the same order from the same state, each of its
        ``len(x) - 1`` integer draws counted; the draws made here rather than through
        :meth:`_randbelow` once per card (a deck is shuffled at every game's start). A class
        whose integer draw is not this one's (the test rig's, one replaced while chance is
        recorded) shuffles through its own draw, as ``random.Random`` does."""
        if type(self)._randbelow is not _PLAIN_RANDBELOW:
            return random.Random.shuffle(self, x)
        for i in range(len(x) - 1, 0, -1):  # (random.Random.shuffle, _randbelow inlined)
            n = i + 1
            k = n.bit_length()
            j = _getrandbits(self, k)
            while j >= n:
                j = _getrandbits(self, k)
            x[i], x[j] = x[j], x[i]
        if len(x) > 1:
            self.draws += len(x) - 1

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


_PLAIN_RANDBELOW = GameRandom._randbelow  # (GameRandom.shuffle: its own draw, inlined)


#: the chance-stream schemes a game's ``chance_streams`` option may name (see the module
#: docstring); a save file without the option is version 1, a new game is the latest
CHANCE_STREAMS = {1: "one stream for every kind of chance", 2: "a stream per kind of chance"}
LATEST_STREAMS = 2


def stream_seed(seed: int | str, kind: str) -> int:
    """The seed of the stream of ``kind`` (e.g. ``"dice"``) in a game seeded ``seed``: the first
    16 bytes of SHA-256 of ``"moneynb chance <seed> <kind>"``, as a big-endian int. Fixed
    forever: changing it changes every game of ``chance_streams`` 2 (reconstruction, issue 39)."""
    digest = hashlib.sha256(f"moneynb chance {seed} {kind}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def _blank(cls: type) -> random.Random:
    """A generator of ``cls`` whose state is about to be set (no seeding counted; seeded with 0
    by the C type, which is cheaper than from the system's entropy)."""
    return cls.__new__(cls, 0)


def _rebuilt(cls: type, state: tuple, attrs: dict) -> random.Random:
    """A generator of ``cls`` in ``state`` with the instance attributes ``attrs`` (how
    :class:`ChanceStreams` and :class:`ScriptedRandom` are copied and pickled)."""
    new = _blank(cls)
    random.Random.setstate(new, state)
    new.__dict__.update(attrs)
    return new


class ChanceStreams(GameRandom):
    """The generators of a game of ``chance_streams`` 2: a stream per kind of chance.

    ``stream(kind)`` is the kind's :class:`GameRandom`, seeded with :func:`stream_seed`
    ``(root, kind)`` when first asked for (``root``: the game's seed). The object itself is
    also a :class:`GameRandom` seeded with ``root`` (as a game of version 1 is), which serves a
    draw made without naming a kind (a whole hidden state resampled, a test's own draw).
    ``seed(a)`` re-seeds it all: its own state and every stream, from ``a``. ``draws`` counts
    its own draws and every stream handed out by :meth:`~moneynb.core.game.Game.chance` (so
    the engine's chance fingerprint reads one number); :meth:`all_draws` adds the streams'
    own counts. Copies (``copy.deepcopy``,
    pickle) keep every stream's state.

    Source: issue 39, case 7 (duplicate deals paired per kind of chance).
    """

    def seed(self, a: Any = None, version: int = 2) -> None:
        super().seed(a, version)
        self.root = random.SystemRandom().randrange(2**64) if a is None else a
        self.streams: dict[str, GameRandom] = {}

    def stream(self, kind: str) -> GameRandom:
        """The generator of ``kind`` (made on first use)."""
        s = self.streams.get(kind)
        if s is None:
            s = GameRandom(stream_seed(self.root, kind))
            s.draws = 0  # seeding is no draw: only a stream's use counts
            self.streams[kind] = s
        return s

    def all_draws(self) -> int:
        return self.draws + sum(s.draws for s in self.streams.values())

    def __reduce__(self):  # random.Random's drops the instance dict: keep the streams
        # (each stream by its state; no draw count: a copy counts its own draws)
        streams = {k: (_rebuilt, (GameRandom, s.getstate(), {})) for k, s in self.streams.items()}
        return _rebuilt, (type(self), self.getstate(), {"root": self.root}), {"streams": streams}

    def __setstate__(self, state) -> None:
        self.streams = {k: f(*args) for k, (f, args) in state["streams"].items()}


def _state_of(rng: random.Random) -> tuple:
    """``rng.getstate()``, remembered by a :class:`GameRandom` (or a stream set) with its draw
    count: the count moves exactly when the state does, so a generator copied again and again
    between draws (a search bot's copies) builds its 625-word state tuple once."""
    if type(rng) is not GameRandom and type(rng) is not ChanceStreams:
        return rng.getstate()
    saved = rng.__dict__.get("_saved")
    if saved is not None and saved[0] == rng.draws:
        return saved[1]
    state = rng.getstate()
    rng._saved = (rng.draws, state)
    return state


def _copied(cls: type, state: tuple) -> GameRandom:
    new = _blank(cls)
    random.Random.setstate(new, state)
    new._saved = (0, state)  # its draw count is 0 in this state
    return new


def copy_generator(rng: random.Random) -> random.Random:
    """An independent copy of a game's generator in the same state, every stream of a
    :class:`ChanceStreams` included, with no draw counted. A plain or scripted generator gives
    a :class:`GameRandom` (a :class:`ChanceStreams` when it holds streams) in its state."""
    streams = getattr(rng, "streams", None)
    new = _copied(GameRandom if streams is None else ChanceStreams, _state_of(rng))
    if streams is not None:
        new.root = rng.root
        states = {**_pending(rng), **{k: _state_of(s) for k, s in streams.items()}}
        new.streams = {kind: _copied(GameRandom, state) for kind, state in states.items()}
    return new


def _pending(rng: random.Random) -> dict:
    """``{kind: state}`` of the streams a scripted set holds by state only (not used yet)."""
    return rng.__dict__.get("_states") or {}


def generator_state(rng: random.Random) -> tuple:
    """A comparable snapshot of a game's generator: ``("rng", state)``, plus ``{kind: state}``
    of every stream a stream set holds."""
    streams = getattr(rng, "streams", None)
    if streams or _pending(rng):
        states = {**_pending(rng), **{k: s.getstate() for k, s in streams.items()}}
        return ("rng", rng.getstate(), dict(sorted(states.items())))
    return ("rng", rng.getstate())


def new_generator(seed: int, version: int) -> GameRandom:
    """A game's generator for ``chance_streams`` ``version`` (see :data:`CHANCE_STREAMS`).

    Raises:
        ValueError: ``version`` is not one of :data:`CHANCE_STREAMS`.
    """
    if version == 1:
        return GameRandom(seed)
    if version == 2:
        return ChanceStreams(seed)
    raise ValueError(check_streams_message(version))


def check_streams_message(version: Any) -> str:
    """The error message for a ``chance_streams`` value that is not a known version."""
    known = "; ".join(f"{v}: {what}" for v, what in CHANCE_STREAMS.items())
    return (
        f"option 'chance_streams' must be one of {sorted(CHANCE_STREAMS)} ({known}; a game "
        f"saved without it is 1), got {version!r}"
    )


class ScriptedRandom(GameRandom):
    """A ``random.Random`` whose next draws can be fixed (the test rig) or enumerated (exact
    chance outcomes), and that otherwise behaves as the generator it replaces. Like
    :class:`GameRandom` it counts its draws in ``draws`` (a forced or chosen answer counts).

    Every uniform integer draw of the engine (a die, a spinner, ``randrange``, ``randint``, a
    coin out of Money Run's bag) goes through ``_randbelow(n)``; every deck draw goes through
    :meth:`pick_top`. ``script`` is a queue of forced answers: ``("int", n, k)`` answers the
    next ``_randbelow(n)`` with ``k``; ``("top", card)`` puts ``card`` on top at the next deck
    draw. With ``chooser`` set, an unscripted draw asks ``chooser(kind, choices)`` instead (the
    enumeration; an answer ``None`` leaves the draw to the generator). Shuffles never consume the script (a shuffled order is hidden: only the card
    drawn matters, and that is chosen by :meth:`pick_top`).

    Replacing a :class:`ChanceStreams` (``chance_streams`` 2), it keeps a scripted stream per
    kind (``stream(kind)``), each in the state of the kind's stream it replaces: the one
    ``script`` and ``chooser`` (this object's) answer the draws of every kind in the order the
    game makes them, and an unscripted draw comes from its kind's own stream, as in play.

    Raises:
        ValueError: a forced answer does not fit the draw the game makes (wrong range, or a card
            not in the draw pile); the message names both.

    Source: DESIGN.md ("A test rig is public API"; "Chance outcomes come from the engine").
    """

    def __init__(self, base: random.Random | None = None, *, state: tuple | None = None):
        """``base``: start in that generator's state (every stream of a stream set too);
        ``state``: in that ``getstate()`` state; neither: freshly seeded."""
        if base is not None:
            state = _state_of(base)
        if state is None:
            super().__init__()
        else:  # no seeding (a generator from __new__ is not seeded yet): the state is set
            random.Random.setstate(self, state)
        self.script: list = []
        self.chooser = None
        self._shuffling = False
        self._ctl = self  # whose script and chooser answer this generator's draws
        base_streams = getattr(base, "streams", None)
        if base_streams is not None:  # each kind's state; its scripted stream made on first use
            self.root = base.root
            self.streams = {}
            self._states = {**_pending(base), **{k: _state_of(s) for k, s in base_streams.items()}}

    def _child(self, kind: str, state: tuple) -> ScriptedRandom:
        c = _blank(ScriptedRandom)
        random.Random.setstate(c, state)
        c.script, c.chooser, c._shuffling, c._ctl = [], None, False, self
        self.streams[kind] = c
        return c

    def stream(self, kind: str) -> ScriptedRandom:
        """The scripted stream of ``kind`` (when replacing a stream set; made on first use)."""
        s = self.streams.get(kind)
        if s is None:
            state = self._states.pop(kind, None)
            if state is None:
                state = GameRandom(stream_seed(self.root, kind)).getstate()
            s = self._child(kind, state)
        return s

    def all_draws(self) -> int:
        streams = self.streams
        return self.draws + (0 if streams is None else sum(s.draws for s in streams.values()))

    def __reduce__(self):  # deep copies keep the script (random.Random's drops instance dicts)
        attrs = {k: v for k, v in sorted(vars(self).items()) if k != "draws"}
        return _blank, (type(self),), (self.getstate(), attrs)

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], dict):
            random.Random.setstate(self, state[0])
            self.__dict__.update(state[1])
        else:
            random.Random.setstate(self, state)

    def _randbelow(self, n: int) -> int:
        if self._shuffling:
            return random.Random._randbelow_with_getrandbits(self, n)
        ctl = self._ctl
        if ctl.script:
            kind, *rest = ctl.script[0]
            if kind != "int" or rest[0] not in (None, n):
                raise ValueError(
                    f"the rig expected {self._describe(ctl.script[0])}, but the game drew a "
                    f"number below {n}"
                )
            ctl.script.pop(0)
            self.draws += 1
            return rest[1]
        if ctl.chooser is not None:
            k = ctl.chooser("int", n)
            if k is not None:  # (None: the chooser leaves this draw to chance)
                self.draws += 1
                return k
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
        script = self._ctl.script
        if script and script[0][0] == "top":
            card = script.pop(0)[1]
            if card not in pile:
                raise ValueError(f"the rig wanted {card!r} on top, but it is not in the draw pile")
        elif script:
            raise ValueError(
                f"the rig expected {self._describe(script[0])}, but the game drew a card"
            )
        elif self._ctl.chooser is not None:
            card = self._ctl.chooser("top", pile)
        if card is not None:
            pile.insert(0, pile.pop(pile.index(card)))

    @staticmethod
    def _describe(entry: tuple) -> str:
        if entry[0] == "top":
            return f"a card draw ({entry[1]!r} on top)"
        return f"a number below {entry[1]}" if entry[1] else "a number draw"
