"""Decisions a game waits on, and events it reports.

Source: DESIGN.md ("A game is a state machine driven by decisions").

An *action* is a plain JSON value, so a game's action list saves as JSON:
``"roll"``, an option string such as ``"stay"``, an ``int`` amount, or an ``int`` seat.
"""

from __future__ import annotations

import copy
from operator import attrgetter
from typing import Any

#: The kinds of decision a view draws a panel for.
KINDS = ("roll", "choose", "amount", "player", "space")


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (so ``True`` is not seat 1, ``1.0`` not 1)."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        if len(a) != len(b):
            return False
        for x, y in zip(a, b, strict=True):
            if type(x) is not type(y) or (type(x) is tuple and not _same(x, y)):
                return False
    return a == b


class AnsweredError(RuntimeError):
    """A decision's options or labels, given as a function, were first read after the decision
    was answered: they can no longer be computed (the game has moved on). Read them through
    :attr:`Game.decision <moneynb.core.game.Game.decision>`, which computes them while the
    decision is pending."""


#: what a lazy part of a :class:`Decision` holds once its game has moved on unread
_ANSWERED = object()


class Decision:
    """The one thing a game is waiting for.

    Attributes:
        player: seat index (0-based) of who must decide.
        kind: one of :data:`KINDS`: ``"roll"`` (press to roll/spin/draw), ``"choose"`` (one of
            ``options``), ``"amount"`` (an ``int`` dollars in ``low..high`` or one of
            ``options``, e.g. ``"pass"``), ``"player"`` (a seat in ``options``), ``"space"``
            (a board space id in ``options``).
        prompt: a sentence for the player ("Bet $10,000-$45,000 or pass").
        options: the discrete legal actions (a tuple).
        low, high: for ``"amount"``, the inclusive range in dollars (``step`` apart).
        labels: optional display text for options (``{option: text}``).
        tag: a game-specific name for the decision ("bet", "borrow", "wild_card").
        suggested: for ``"amount"``, the amount the rules recommend (e.g. Moolah's first
            withdrawal), or ``None``; a view's amount box starts there (else at ``low``). Not
            part of the decision's equality.

    ``options`` may be given as a function ``f(player)`` returning them, and ``labels`` as a
    function ``f(options)`` returning the dict: they are then computed when first read
    (a long list that a bot answering by the game's own heuristic never needs). The game
    asks for them only while the decision is pending: :attr:`Game.decision
    <moneynb.core.game.Game.decision>` hands out the decision with both computed, and once
    the decision is answered, a part still unread raises :class:`AnsweredError` (never
    recomputed from a later state). Decisions are immutable and compare equal by everything
    but the labels.

    Raises:
        ValueError: an unknown kind, an amount decision with neither a range nor options, or
            another kind without options.
    """

    # each part in a private slot, read through a property without a setter (so a decision
    # is read-only), and set by plain assignment in __init__ (engine speed: a decision is
    # made at every action; see docs/speed.md)
    __slots__ = ("_player", "_kind", "_prompt", "_options", "_low", "_high", "_step", "_labels",
                 "_tag", "_suggested")  # fmt: skip

    def __init__(
        self,
        player: int,
        kind: str,
        prompt: str,
        options: Any = (),
        low: int | None = None,
        high: int | None = None,
        step: int = 1,
        labels: Any = None,
        tag: str = "",
        suggested: int | None = None,
    ):
        if kind not in KINDS:
            raise ValueError(f"unknown decision kind {kind!r}; kinds are {KINDS}")
        if type(options) is not tuple and not callable(options):
            options = tuple(options)
        self._player = player
        self._kind = kind
        self._prompt = prompt
        self._options = options
        self._low = low
        self._high = high
        self._step = step
        self._labels = {} if labels is None else labels
        self._tag = tag
        self._suggested = suggested
        if type(options) is tuple:
            self._check_options(options)

    def _check_options(self, options: tuple) -> None:
        if self._kind == "amount":
            low, high = self._low, self._high
            if (low is None or high is None or low > high) and not options:
                raise ValueError("an amount decision needs low <= high or options")
        elif not options:
            raise ValueError(f"a {self._kind!r} decision needs at least one option")

    player = property(attrgetter("_player"), doc="Seat index (0-based) of who must decide.")
    kind = property(attrgetter("_kind"), doc="One of :data:`KINDS`.")
    prompt = property(attrgetter("_prompt"), doc="A sentence for the player.")
    low = property(attrgetter("_low"), doc='For ``"amount"``: the lowest amount, dollars.')
    high = property(attrgetter("_high"), doc='For ``"amount"``: the highest amount, dollars.')
    step = property(attrgetter("_step"), doc='For ``"amount"``: amounts go in these steps.')
    tag = property(attrgetter("_tag"), doc="A game-specific name for the decision.")
    suggested = property(attrgetter("_suggested"), doc="The amount the rules recommend, or None.")

    @property
    def options(self) -> tuple:
        """The discrete legal actions (tuple).

        Raises:
            AnsweredError: given as a function and first read after the decision was answered.
            ValueError: given as a function that returned none (a kind that needs options).
        """
        options = self._options
        if type(options) is not tuple:
            if options is _ANSWERED:
                raise AnsweredError(
                    f"the options of {self.prompt!r} were not read while it was pending: "
                    "read them through game.decision"
                )
            options = tuple(options(self._player))
            self._check_options(options)
            self._options = options
        return options

    @property
    def first_option(self) -> Any:
        """``options[0]``.

        Raises:
            IndexError: the decision has no options (an amount range only).
        """
        return self.options[0]

    @property
    def labels(self) -> dict:
        """``{option: display text}`` (options without one show as themselves).

        Raises:
            AnsweredError: given as a function and first read after the decision was answered.
        """
        labels = self._labels
        if type(labels) is not dict:
            if labels is _ANSWERED:
                raise AnsweredError(
                    f"the labels of {self.prompt!r} were not read while it was pending: "
                    "read them through game.decision"
                )
            labels = labels(self.options)
            self._labels = labels
        return labels

    @property
    def lazy(self) -> bool:
        """True while the options or the labels are a function not yet called."""
        return type(self._options) is not tuple or type(self._labels) is not dict

    def _fill(self) -> Decision:
        """Compute the options and labels given as functions (the game calls this while the
        decision is pending); returns the decision."""
        self.options, self.labels  # noqa: B018
        return self

    def _answered(self) -> None:
        """The game moved on: a part still unread may no longer be computed."""
        if type(self._options) is not tuple:
            self._options = _ANSWERED
        if type(self._labels) is not dict:
            self._labels = _ANSWERED

    def _key(self) -> tuple:
        return (self.player, self.kind, self.prompt, self.options, self.low, self.high,
                self.step, self.tag)  # fmt: skip

    def __eq__(self, other: Any) -> bool:
        if type(other) is not Decision:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Decision(player={self.player!r}, kind={self.kind!r}, prompt={self.prompt!r}, "
            f"options={self.options!r}, low={self.low!r}, high={self.high!r}, "
            f"step={self.step!r}, labels={self.labels!r}, tag={self.tag!r})"
        )

    def __copy__(self) -> Decision:
        return self

    def __deepcopy__(self, memo: dict) -> Decision:
        """A copy. Parts not read yet stay unread when they are methods of a game being
        copied with it (they are then the copy's methods, read from the copy's state); else
        they are read now (a copy must not read another game's state later)."""
        options, labels = self._options, self._labels
        if type(options) is not tuple or type(labels) is not dict:
            if all(
                type(part) in (tuple, dict) or id(getattr(part, "__self__", None)) in memo
                for part in (options, labels)
            ):
                options, labels = copy.deepcopy(options, memo), copy.deepcopy(labels, memo)
            else:
                options, labels = self.options, dict(self.labels)
        else:
            labels = dict(labels)
        new = object.__new__(Decision)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new._options = options
        new._labels = labels
        return new

    def __reduce__(self):
        return (
            Decision,
            (self.player, self.kind, self.prompt, self.options, self.low, self.high, self.step,
             dict(self.labels), self.tag, self.suggested),
        )  # fmt: skip

    def allows(self, action: Any) -> bool:
        """True if ``action`` answers this decision."""
        if self.kind == "amount" and type(action) is int and self.low is not None:
            return (
                self.high is not None
                and self.low <= action <= self.high
                and (action - self.low) % self.step == 0
            )
        options = self.options
        try:  # fast reject by ==, then the strict check on the (few) equal options
            if action not in options:
                return False
        except (TypeError, ValueError):  # unhashable, or == without a truth value (arrays)
            return False
        if type(action) is str:  # only a str equals a str
            return True
        if _same(action, options[options.index(action)]):  # the first equal one (C speed)
            return True
        return any(_same(action, o) for o in options if o == action)  # another equal one

    def describe(self, players: list[str] | None = None) -> str:
        """A sentence listing what is allowed (used in :class:`IllegalAction` messages).

        Args:
            players: the game's player names in seat order; at a ``"player"`` decision each
                seat is then shown with its name ("1 = Bob").
        """
        parts = []
        if self.kind == "amount" and self.low is not None and self.high is not None:
            step = f" in steps of ${self.step:,}" if self.step != 1 else ""
            parts.append(f"an amount from ${self.low:,} to ${self.high:,}{step}")
        if self.options:

            def show(o: Any) -> str:
                if self.kind == "player" and players and type(o) is int and 0 <= o < len(players):
                    return f"{o} = {players[o]}"
                return repr(o)

            shown = ", ".join(show(o) for o in self.options[:12])
            more = f" (and {len(self.options) - 12} more)" if len(self.options) > 12 else ""
            parts.append(f"one of {shown}{more}")
        return " or ".join(parts)

    def label(self, option: Any) -> str:
        """Display text for ``option``."""
        return str(self.labels.get(option, option))

    def to_dict(self) -> dict:
        """JSON-able form for views and tests."""
        return {
            "player": self.player,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": list(self.options),
            "low": self.low,
            "high": self.high,
            "step": self.step,
            "tag": self.tag,
        }


class Event:
    """Something that happened: ``kind`` (e.g. "rolled", "paid", "drew", "mugged", "moved"),
    a readable ``text`` for the log, and ``data`` for views (amounts in dollars, seats, spaces).

    ``text`` may be given as a function returning the text: it is then built when first read
    (engine speed: a simulation that never reads the log never formats it). Events compare
    equal by kind and text.
    """

    __slots__ = ("kind", "_text", "data")

    def __init__(self, kind: str, text: Any, data: dict | None = None):
        self.kind = kind
        self._text = text
        self.data = {} if data is None else data

    @property
    def text(self) -> str:
        """The log line."""
        if type(self._text) is not str:
            self._text = self._text()
        return self._text

    def __eq__(self, other: Any) -> bool:
        if type(other) is not Event:
            return NotImplemented
        return self.kind == other.kind and self.text == other.text

    def __hash__(self) -> int:
        return hash((self.kind, self.text))

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, text={self.text!r}, data={self.data!r})"

    def __reduce__(self):
        return (Event, (self.kind, self.text, self.data))
