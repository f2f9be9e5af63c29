"""Decisions a game waits on, and events it reports.

Source: DESIGN.md ("A game is a state machine driven by decisions").

An *action* is a plain JSON value, so a game's action list saves as JSON:
``"roll"``, an option string such as ``"stay"``, an ``int`` amount, or an ``int`` seat.
"""

from __future__ import annotations

from collections.abc import Callable
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


_UNSET = object()


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

    Computed when first read (engine speed: a bot that never looks at them never pays for
    them): ``more``, a function returning the options that follow ``options`` (so
    ``options`` = the given ones + ``more()``), and ``labels`` given as a function returning
    the dict. With ``more``, ``more_has`` (optional) is a function telling whether one action
    is among ``more()`` without listing them all (``apply`` checking a bot's "build:3" need
    not list every build, mortgage and lift); it must agree with ``more()`` exactly, and is
    used only while the decision is pending. A rules file passes them only where the function reads nothing that changes
    before the next action (the decision is then the same whenever it is read). Decisions are
    immutable and compare equal by everything but the labels.

    Raises:
        ValueError: an unknown kind, an amount decision with neither a range nor options, or
            another kind without options.
    """

    __slots__ = ("player", "kind", "prompt", "_options", "_more", "low", "high", "step",
                 "_labels", "tag", "_origin", "suggested", "_more_has")  # fmt: skip

    def __init__(
        self,
        player: int,
        kind: str,
        prompt: str,
        options: tuple = (),
        low: int | None = None,
        high: int | None = None,
        step: int = 1,
        labels: Any = None,
        tag: str = "",
        more: Callable[[], Any] | None = None,
        suggested: int | None = None,
        more_has: Callable[[Any], bool] | None = None,
    ):
        if kind not in KINDS:
            raise ValueError(f"unknown decision kind {kind!r}; kinds are {KINDS}")
        options = options if type(options) is tuple else tuple(options)
        if kind == "amount":
            if low is None or high is None or low > high:
                if not options and more is None:
                    raise ValueError("an amount decision needs low <= high or options")
        elif not options and more is None:
            raise ValueError(f"a {kind!r} decision needs at least one option")
        _set_player(self, player)  # the slots' own setters (see below the class)
        _set_kind(self, kind)
        _set_prompt(self, prompt)
        _set_options(self, options)
        _set_more(self, more)
        _set_low(self, low)
        _set_high(self, high)
        _set_step(self, step)
        _set_labels(self, {} if labels is None else labels)
        _set_tag(self, tag)
        _set_origin(self, None)
        _set_suggested(self, suggested)
        _set_more_has(self, more_has if more is not None else None)

    def _bind(self, game: Any, actions: list, n: int) -> None:
        """Remember where this decision stands: pending in ``game`` after the first ``n`` of
        ``actions`` (:meth:`Game.ask` calls this). Read after the game moved on, the lazy
        options and labels are computed on a replay of those ``n`` actions, so they are what
        they were while the decision was pending."""
        if self._more is not None or not isinstance(self._labels, dict):
            _set_origin(self, (game, actions, n))

    def _source(self) -> Decision:
        """The decision whose state the lazy parts are read from: this one while it is
        pending, else the same decision in a replay of the game up to it."""
        origin = self._origin
        if origin is None or origin[0].pending is self:
            return self
        game, actions, n = origin
        replay = type(game)(list(game.players), game.seed, **game.options)
        for a in actions[:n]:
            replay.apply(a)
        return replay.pending

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Decision is immutable (cannot set {name!r})")

    @property
    def options(self) -> tuple:
        """The discrete legal actions (tuple)."""
        if self._more is not None:
            src = self._source()
            more = tuple(self._more() if src is self else src.options[len(self._options) :])
            _set_options(self, self._options + more)
            _set_more(self, None)
            _set_more_has(self, None)
            if self.kind != "amount" and not self._options:
                raise ValueError(f"a {self.kind!r} decision needs at least one option")
        return self._options

    @property
    def first_option(self) -> Any:
        """``options[0]`` (without computing a lazy tail when given options come first).

        Raises:
            IndexError: the decision has no options (an amount range only).
        """
        return self._options[0] if self._options else self.options[0]

    @property
    def labels(self) -> dict:
        """``{option: display text}`` (options without one show as themselves)."""
        if not isinstance(self._labels, dict):
            src = self._source()
            _set_labels(self, self._labels() if src is self else src.labels)
        return self._labels

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
        """A copy that no longer computes from the original game: its options and labels are
        read now (a copied game must not read the original's state later)."""
        return Decision(self.player, self.kind, self.prompt, self.options, self.low, self.high,
                        self.step, dict(self.labels), self.tag,
                        suggested=self.suggested)  # fmt: skip

    def __reduce__(self):
        return (
            Decision,
            (self.player, self.kind, self.prompt, self.options, self.low, self.high, self.step,
             dict(self.labels), self.tag, None, self.suggested),
        )  # fmt: skip

    def allows(self, action: Any) -> bool:
        """True if ``action`` answers this decision."""
        if self.kind == "amount" and type(action) is int and self.low is not None:
            return (
                self.high is not None
                and self.low <= action <= self.high
                and (action - self.low) % self.step == 0
            )
        try:  # fast reject by ==, then the strict check on the (few) equal options
            if action not in self._options:
                if self._more is None:
                    return False
                has = self._more_has
                if has is not None and (self._origin is None or self._origin[0].pending is self):
                    return bool(has(action))  # one action looked up, the tail not listed
                if action not in self.options:
                    return False
        except (TypeError, ValueError):  # unhashable, or == without a truth value (arrays)
            return False
        if type(action) is str:  # only a str equals a str
            return True
        options = self.options
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


# Each slot's own setter: how ``Decision.__init__`` fills a decision (faster than
# ``object.__setattr__``; engine speed) while ``decision.x = ...`` stays refused.
_set_player = Decision.player.__set__
_set_kind = Decision.kind.__set__
_set_prompt = Decision.prompt.__set__
_set_options = Decision._options.__set__
_set_more = Decision._more.__set__
_set_low = Decision.low.__set__
_set_high = Decision.high.__set__
_set_step = Decision.step.__set__
_set_labels = Decision._labels.__set__
_set_tag = Decision.tag.__set__
_set_origin = Decision._origin.__set__
_set_suggested = Decision.suggested.__set__
_set_more_has = Decision._more_has.__set__


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
