"""Exact chance outcomes of an action, enumerated by the engine itself.

Source: DESIGN.md ("Chance outcomes come from the engine"), in the spirit of OpenSpiel's
``chance_outcomes``. Instead of restating a rule (a bet's payout, a rounding, a cap) in a
formula, :func:`chance_outcomes` plays the action on copies of the game, once for every way the
dice, spinners and unseen cards can fall, and reports each resulting state with its exact
probability. Whatever the engine does (its rounding, limits, reshuffles) is what is counted.

How: the copy's generator is a :class:`~moneynb.core.chance.ScriptedRandom` whose ``chooser``
picks each uniform draw ``_randbelow(n)`` (probability ``1/n`` each) and, at each deck draw,
which distinct unseen card comes up (probability: its copies in the draw pile over the pile's
size). A depth-first walk replays the action with every sequence of choices.

Known limit: cards held face down by other players are not mixed back into the unseen cards
(no moneynb game has a hidden hand that a draw could come from).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .chance import ScriptedRandom

#: most leaves one enumeration may visit before it refuses (a guard against shuffles of
#: whole decks being walked card by card: those never branch, see ScriptedRandom)
MAX_OUTCOMES = 20_000


@dataclass
class Outcome:
    """One way an action can turn out.

    Attributes:
        probability: exact probability (``Fraction``); the outcomes of one call sum to 1.
        game: the game after the action (an independent copy; its generator is a plain
            ``random.Random`` again, so it can be played on).
        draws: what chance gave, in order: ``("int", n, k)`` for a uniform draw of ``k`` in
            ``0..n-1``, ``("top", card)`` for a card drawn.
        events: the events the action produced in this outcome.
    """

    probability: Fraction
    game: Any
    draws: tuple
    events: list = field(default_factory=list)

    def money_change(self, before: dict[str, int]) -> dict[str, int]:
        """``{account: dollars gained (negative: lost)}`` against ``before`` (a ``money()``)."""
        after = self.game.money()
        keys = set(before) | set(after)
        return {k: after.get(k, 0) - before.get(k, 0) for k in sorted(keys)}


class _Walker:
    """Chooser for one replay: follows ``prefix``, then takes choice 0 and records the rest."""

    def __init__(self, prefix: tuple):
        self.prefix = prefix
        self.path: list = []  # (kind, choices, index) per draw

    def __call__(self, kind: str, arg: Any) -> Any:
        i = len(self.path)
        idx = self.prefix[i] if i < len(self.prefix) else 0
        if kind == "int":  # arg: n, the draw is uniform on 0..n-1
            self.path.append(("int", arg, idx))
            return idx
        distinct = sorted(set(arg), key=repr)  # arg: the draw pile
        self.path.append(("top", tuple((c, arg.count(c)) for c in distinct), idx, len(arg)))
        return distinct[idx]


def chance_outcomes(
    game, action: Any, *, play_on: Callable[[Any], Any] | None = None
) -> list[Outcome]:
    """Every way ``action`` can turn out from ``game``'s current state, with exact odds.

    Args:
        game: a :class:`~moneynb.core.game.Game` waiting on a decision that ``action`` answers.
            It is not changed.
        action: the action (as for :meth:`Game.apply`).
        play_on: optional ``f(game) -> action or None``: after the action, keep applying
            ``f``'s answers (chance included) while it returns an action; used to follow a
            decision through to its end (e.g. a Black Jack bet through its raise and the
            House's card). ``None`` stops.

    Returns:
        A list of :class:`Outcome`, probabilities summing exactly to 1. An action with no
        chance in it gives one outcome of probability 1.

    Raises:
        IllegalAction: ``action`` is not legal now (nothing is changed).
        ValueError: more than :data:`MAX_OUTCOMES` outcomes.
    """
    out: list[Outcome] = []
    stack: list[tuple] = [()]
    while stack:
        prefix = stack.pop()
        g = game.copy()
        walker = _Walker(prefix)
        rng = ScriptedRandom(g.rng)
        rng.chooser = walker
        g.rng = rng
        events = list(g.apply(action))
        while play_on is not None and not g.over:
            nxt = play_on(g)
            if nxt is None:
                break
            events.extend(g.apply(nxt))
        prob = Fraction(1)
        draws = []
        for i, step in enumerate(walker.path):
            if step[0] == "int":
                _, n, idx = step
                prob *= Fraction(1, n)
                draws.append(("int", n, idx))
                n_choices = n
            else:
                _, counts, idx, size = step
                prob *= Fraction(counts[idx][1], size)
                draws.append(("top", counts[idx][0]))
                n_choices = len(counts)
            if i >= len(prefix):  # a new branch point: queue its other choices
                taken = tuple(s[2] for s in walker.path[:i])
                stack.extend(taken + (j,) for j in range(n_choices - 1, 0, -1))
        plain = random.Random()
        plain.setstate(rng.getstate())
        g.rng = plain
        out.append(Outcome(prob, g, tuple(draws), events))
        if len(out) > MAX_OUTCOMES:
            raise ValueError(
                f"{action!r} has more than {MAX_OUTCOMES} chance outcomes; too many to list"
            )
    return out


def expected_money_change(game, action: Any, account: str, **kw: Any) -> Fraction:
    """Exact expected change of ``account``'s balance (dollars, ``Fraction``) from ``action``.

    Keyword arguments go to :func:`chance_outcomes`. Raises as :func:`chance_outcomes`.
    """
    before = game.money().get(account, 0)
    outcomes = chance_outcomes(game, action, **kw)
    return sum(
        (o.probability * (o.game.money().get(account, 0) - before) for o in outcomes), Fraction(0)
    )
