"""The discrete action space of a moneynb environment, built over the :class:`Decision` protocol.

No PettingZoo or Gymnasium import here: this is plain numpy over ``Decision`` (kind, options,
low/high/step), so a game whose rules change (a new option, a wider range) needs no change here.

The action space of a game is ``Discrete(option_slots + amount_slots)``:

* **option slots** ``0 .. option_slots-1``: slot ``k`` answers the pending decision with
  ``decision.options[k]``, the engine's ``k``-th option in the engine's own order (``"roll"``,
  ``"stay"``, a seat, a space id, ``"pass"`` ...). Legal iff ``k < len(decision.options)``.
* **amount slots** ``option_slots .. option_slots+amount_slots-1``: for an ``"amount"`` decision
  with a range, the amount ``low + step * j`` is entered as the number ``j`` written in base
  ``B = amount_slots``, most significant digit first, one digit per env step. A range of at most
  ``B`` amounts (``j < B``) therefore takes ONE step and slot ``option_slots + j`` means the
  amount ``low + step*j`` directly; a wider range takes ``ceil(log_B(count))`` steps by the same
  agent (the engine is only asked once the last digit is in). Only digits that can still end in
  a legal amount are unmasked, so every legal amount is reachable and nothing illegal is.

Source: reconstruction (issue 17); the base-``B`` entry is this project's choice so that ranges
of any width ($1 steps in Easy Money bids, $5,000 steps in Moolah) fit one fixed space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.decision import Decision
from ..core.game import normalize_action


class ActionSpaceTooSmall(RuntimeError):
    """A decision has more options than the environment's ``option_slots``."""


def amount_count(decision: Decision) -> int:
    """How many amounts ``decision``'s range allows (0 for no range)."""
    if decision.kind != "amount" or decision.low is None or decision.high is None:
        return 0
    if decision.high < decision.low:
        return 0
    return (decision.high - decision.low) // decision.step + 1


@dataclass
class AmountEntry:
    """An amount being entered digit by digit: ``prefix`` (the digits so far, as a number) and
    ``left`` (digits still to enter). ``count`` is how many amounts the range allows."""

    prefix: int
    left: int
    count: int


class ActionCodec:
    """Masks and decodes env actions for one game's decisions (see the module docstring).

    Args:
        option_slots: how many option slots (the most options any decision of the game has).
        amount_slots: the base ``B`` of amount entry (``>= 2``).

    Raises:
        ValueError: ``option_slots < 1`` or ``amount_slots < 2``.
    """

    def __init__(self, option_slots: int, amount_slots: int):
        if type(option_slots) is not int or option_slots < 1:
            raise ValueError(f"option_slots must be an int >= 1, got {option_slots!r}")
        if type(amount_slots) is not int or amount_slots < 2:
            raise ValueError(f"amount_slots must be an int >= 2, got {amount_slots!r}")
        self.option_slots = option_slots
        self.amount_slots = amount_slots
        self.n = option_slots + amount_slots
        self.entry: AmountEntry | None = None

    def reset(self) -> None:
        """Forget any amount being entered (a new game, or a new decision)."""
        self.entry = None

    def digits(self, count: int) -> int:
        """Digits needed to enter any of ``count`` amounts (1 when ``count <= B``)."""
        d, cap = 1, self.amount_slots
        while cap < count:
            d += 1
            cap *= self.amount_slots
        return d

    def mask(self, decision: Decision | None, slots: list[int] | None = None) -> np.ndarray:
        """``int8`` array of length :attr:`n`: 1 for each legal action (all 0 when ``decision``
        is None). ``slots``: the option slot of each of ``decision.options`` when the game
        gives its options fixed slots (a square, a coin: see ``GameSpec.slots``); default:
        option ``k`` in slot ``k``.

        Raises:
            ActionSpaceTooSmall: ``decision`` has more options than :attr:`option_slots`, or
                a fixed slot is outside them.
        """
        m = np.zeros(self.n, dtype=np.int8)
        if decision is None:
            return m
        B = self.amount_slots
        if self.entry is None:
            k = len(decision.options)
            if k > self.option_slots:
                raise ActionSpaceTooSmall(
                    f"the decision {decision.tag or decision.kind!r} has {k} options, more than "
                    f"this environment's option_slots={self.option_slots}; make the environment "
                    f"with option_slots={k} or more"
                )
            if slots is None:
                m[:k] = 1
            else:
                if slots and max(slots) >= self.option_slots:
                    raise ActionSpaceTooSmall(
                        f"the decision {decision.tag or decision.kind!r} needs option slot "
                        f"{max(slots)}, beyond this environment's option_slots="
                        f"{self.option_slots}"
                    )
                m[slots] = 1
            count = amount_count(decision)
            if count:
                chunk = B ** (self.digits(count) - 1)  # amounts under one first digit
                top = (count - 1) // chunk  # the largest first digit still legal
                m[self.option_slots : self.option_slots + top + 1] = 1
        else:
            e = self.entry
            chunk = B ** (e.left - 1)
            lo = e.prefix * B  # first amount index under digit 0 is lo * chunk
            top = min(B - 1, (e.count - 1) // chunk - lo)
            m[self.option_slots : self.option_slots + top + 1] = 1
        return m

    def decode(
        self, decision: Decision, action: int, slots: list[int] | None = None
    ) -> tuple[bool, Any]:
        """Read env action ``action`` for ``decision``: ``(True, engine_action)`` when the
        engine should be asked now, ``(False, None)`` when an amount digit was taken and more
        are needed (the state of the entry is kept in :attr:`entry`).

        Raises:
            ValueError: ``action`` is not an int in ``0..n-1`` or is masked out (illegal); the
                entry is unchanged then.
        """
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an int 0..{self.n - 1}, got {action!r}")
        action = int(action)
        if not 0 <= action < self.n or not self.mask(decision, slots)[action]:
            raise ValueError(
                f"action {action} is not legal now ({self.describe(decision, action, slots)}); "
                f"legal actions are {np.flatnonzero(self.mask(decision, slots)).tolist()}"
            )
        if action < self.option_slots:
            k = action if slots is None else slots.index(action)
            return True, decision.options[k]
        digit = action - self.option_slots
        if self.entry is None:
            count = amount_count(decision)
            self.entry = AmountEntry(prefix=0, left=self.digits(count), count=count)
        e = self.entry
        e.prefix = e.prefix * self.amount_slots + digit
        e.left -= 1
        if e.left:
            return False, None
        self.entry = None
        return True, decision.low + decision.step * e.prefix

    def describe(
        self, decision: Decision | None, action: int, slots: list[int] | None = None
    ) -> str:
        """Readable meaning of ``action`` for ``decision`` (for messages and notebooks)."""
        if decision is None:
            return "the game is over"
        if 0 <= action < self.option_slots:
            if slots is not None:
                if action in slots:
                    return (
                        f"option {action}: {decision.label(decision.options[slots.index(action)])}"
                    )
                return f"option slot {action} (not an option of this decision)"
            if action < len(decision.options):
                return f"option {action}: {decision.label(decision.options[action])}"
            return f"option slot {action} (the decision has {len(decision.options)} options)"
        if self.option_slots <= action < self.n:
            digit = action - self.option_slots
            count = amount_count(decision)
            if not count:
                return f"amount digit {digit} (the decision has no amount range)"
            e = self.entry
            prefix, left = (0, self.digits(count)) if e is None else (e.prefix, e.left)
            chunk = self.amount_slots ** (left - 1)
            first = (prefix * self.amount_slots + digit) * chunk
            if first >= count:
                return f"amount digit {digit} (beyond the range)"
            last = min(count - 1, first + chunk - 1)
            low, high = (decision.low + decision.step * j for j in (first, last))
            if left == 1:
                return f"amount ${low:,}"
            return f"amount digit {digit}: ${low:,} to ${high:,}, {left - 1} more digit(s)"
        return f"{action} is outside 0..{self.n - 1}"

    def encode(
        self, decision: Decision, engine_action: Any, slots: list[int] | None = None
    ) -> list[int]:
        """The env actions that answer ``decision`` with ``engine_action`` (an option, or an
        amount of the range): one option slot, or the amount's digits (most significant
        first). The inverse of :meth:`decode`; bots' choices become env actions with it.

        Raises:
            ValueError: ``engine_action`` is not an option of ``decision`` nor an amount of
                its range; or an amount entry is already under way.
        """
        if self.entry is not None:
            raise ValueError("an amount is being entered digit by digit: finish it first")
        engine_action = normalize_action(engine_action)
        for k, o in enumerate(decision.options):
            if o == engine_action and type(o) is type(engine_action):
                return [k if slots is None else slots[k]]
        count = amount_count(decision)
        if (
            count
            and type(engine_action) is int
            and decision.low <= engine_action <= decision.high
            and (engine_action - decision.low) % decision.step == 0
        ):
            j, digits = (engine_action - decision.low) // decision.step, []
            for _ in range(self.digits(count)):
                j, d = divmod(j, self.amount_slots)
                digits.append(self.option_slots + d)
            return digits[::-1]
        raise ValueError(f"{engine_action!r} does not answer {decision.tag or decision.kind!r}")

    def entry_range(self, decision: Decision) -> tuple[int, int] | None:
        """``(lowest, highest)`` dollars still reachable from the amount being entered, or None
        when no amount entry is under way."""
        e = self.entry
        if e is None:
            return None
        chunk = self.amount_slots**e.left
        first = e.prefix * chunk
        last = min(e.count - 1, first + chunk - 1)
        return decision.low + decision.step * first, decision.low + decision.step * last
