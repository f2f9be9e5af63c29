"""Decisions a game waits on, and events it reports.

Source: DESIGN.md ("A game is a state machine driven by decisions").

An *action* is a plain JSON value, so a game's action list saves as JSON:
``"roll"``, an option string such as ``"stay"``, an ``int`` amount, or an ``int`` seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The kinds of decision a view draws a panel for.
KINDS = ("roll", "choose", "amount", "player", "space")


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (so ``True`` is not seat 1, ``1.0`` not 1)."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@dataclass(frozen=True)
class Decision:
    """The one thing a game is waiting for.

    Attributes:
        player: seat index (0-based) of who must decide.
        kind: one of :data:`KINDS`: ``"roll"`` (press to roll/spin/draw), ``"choose"`` (one of
            ``options``), ``"amount"`` (an ``int`` dollars in ``low..high`` or one of
            ``options``, e.g. ``"pass"``), ``"player"`` (a seat in ``options``), ``"space"``
            (a board space id in ``options``).
        prompt: a sentence for the player ("Bet $10,000-$45,000 or pass").
        options: the discrete legal actions.
        low, high: for ``"amount"``, the inclusive range in dollars (``step`` apart).
        labels: optional display text for options (``{option: text}``).
        tag: a game-specific name for the decision ("bet", "borrow", "wild_card").
        suggested: for ``"amount"``, the amount the rules recommend (e.g. Moolah's first
            withdrawal), or ``None``; an amount box starts there (else at ``low``).
    """

    player: int
    kind: str
    prompt: str
    options: tuple = ()
    low: int | None = None
    high: int | None = None
    step: int = 1
    labels: dict = field(default_factory=dict, compare=False, hash=False)
    tag: str = ""
    suggested: int | None = field(default=None, compare=False, hash=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown decision kind {self.kind!r}; kinds are {KINDS}")
        if self.kind == "amount":
            if self.low is None or self.high is None or self.low > self.high:
                if not self.options:
                    raise ValueError("an amount decision needs low <= high or options")
        elif not self.options:
            raise ValueError(f"a {self.kind!r} decision needs at least one option")

    def allows(self, action: Any) -> bool:
        """True if ``action`` answers this decision."""
        if self.kind == "amount" and type(action) is int and self.low is not None:
            return (
                self.high is not None
                and self.low <= action <= self.high
                and (action - self.low) % self.step == 0
            )
        try:  # fast reject by ==, then the strict check on the (few) equal options
            if action not in self.options:
                return False
        except (TypeError, ValueError):  # unhashable, or == without a truth value (arrays)
            return False
        return any(_same(action, o) for o in self.options if o == action)

    def describe(self) -> str:
        """A sentence listing what is allowed (used in :class:`IllegalAction` messages)."""
        parts = []
        if self.kind == "amount" and self.low is not None and self.high is not None:
            step = f" in steps of ${self.step:,}" if self.step != 1 else ""
            parts.append(f"an amount from ${self.low:,} to ${self.high:,}{step}")
        if self.options:
            shown = ", ".join(repr(o) for o in self.options[:12])
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


@dataclass(frozen=True)
class Event:
    """Something that happened: ``kind`` (e.g. "rolled", "paid", "drew", "mugged", "moved"),
    a readable ``text`` for the log, and ``data`` for views (amounts in dollars, seats, spaces).
    """

    kind: str
    text: str
    data: dict = field(default_factory=dict, compare=False, hash=False)
