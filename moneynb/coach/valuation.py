"""The Coach's shared valuation: what one coached decision says (:class:`Coaching`), how each
number it shows is measured in real play (:class:`Check`), and the valuing of options with the
engine's own outcomes (:func:`value`, :func:`each_option`, :func:`landing_check`): every chance
number is :func:`moneynb.core.outcomes.value_option` or :func:`~moneynb.core.outcomes.chance_outcomes`
of the engine; nothing here restates a rule.

Source: reconstruction (the rulebooks have no coach); issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.outcomes import (
    Valuation,
    best_action,
    chance_outcomes,
    shuffle_hidden,
    value_option,
    what_if_copy,
    worth,
)
from .wording import best_line, chance, dollars, pct


@dataclass
class Check:
    """How to measure one coach number in a real play of the decision (the harness uses it).

    Attributes:
        name: what the number is ("bet $10,000", "landing").
        pre: actions applied first (no chance in them), e.g. the stock before its amount.
        action: the valued action.
        seat: whose numbers.
        valuation: the exact :class:`~moneynb.core.outcomes.Valuation` (distribution, mean).
        shows: what the coach shows of it: ``"mean"`` (the expected measure), ``"p_loss"``
            (P(measure < 0)), ``"p_gain"`` (P(measure > 0)), ``"each"`` (P(measure == v) for
            every v in the distribution: a heat map), ``"model_mean"`` (a model's expected
            measure, with no exact distribution: the harness reports its measured error).
        follow_tags: the seat's follow-up decisions taken by best mean.
        measure: ``f(game_before, game_after, events) -> value``; ``None``: dollars gained by
            ``seat`` (:func:`~moneynb.core.outcomes.worth`).
        play_on: as for :func:`~moneynb.core.outcomes.chance_outcomes` (e.g. the outer path).
        base: the game the number is measured from, when it is not the coached game itself
            (a what-if probe, e.g. Moolah's "the next roll from that Moolah space": the engine's
            :meth:`Moolah.probe_roll` on a copy); ``None``: the coached game.
        model: ``None`` for an exact number; else how the model behind it was computed (the
            harness measures its error against real play and reports it).
        horizon: for a model number measured over the rest of play: ``(seat, space, throws)``
            (Easy Money: stops of ``seat``'s man on ``space`` in his next ``throws`` throws).
        real_play: for a model number, ``f(game, seed) -> value``: the same quantity measured
            in one real play on a copy (seeded greedy bots), e.g. Money Card's next spin
            after the other players have moved.
    """

    name: str
    pre: tuple
    action: Any
    seat: int
    valuation: Valuation
    shows: tuple = ("mean",)
    follow_tags: tuple = ()
    measure: Callable | None = None
    play_on: Callable | None = None
    base: Any = None
    model: str | None = None
    horizon: tuple | None = None
    real_play: Callable | None = None

    def sample(self, game, seed: int) -> Any:
        """Play the decision once on a copy of ``game`` with a fresh generator seeded ``seed``
        (plain chance, no enumeration; the hidden draw piles shuffled by it, as the player cannot
        see their order); follow-ups as in the valuation. Returns the measure. A
        :attr:`horizon` number is measured by playing on with seeded greedy bots instead
        (:func:`play_on_stops`)."""
        if self.base is not None:
            game = self.base
        if self.horizon is not None:
            return play_on_stops(game, *self.horizon, seed)
        if self.real_play is not None:
            return self.real_play(game, seed)
        g = game.copy()
        for a in self.pre:
            g.apply(a)
        before = g.copy() if self.measure is not None else None
        base = worth(g, self.seat)
        g.rng = random.Random(seed)
        shuffle_hidden(g, g.rng)
        events = list(g.apply(self.action))
        while not g.over and g.decision is not None:
            d = g.decision
            if self.play_on is not None:
                nxt = self.play_on(g)
                if nxt is None:
                    break
            elif d.player == self.seat and d.tag in self.follow_tags:
                nxt = best_action(g, self.seat, follow_tags=self.follow_tags).action
            else:
                break
            events.extend(g.apply(nxt))
        if self.measure is None:
            return worth(g, self.seat) - base
        return self.measure(before, g, events)


@dataclass
class Coaching:
    """What the coach says about one decision: first one line (:attr:`headline`, the best
    option by the engine's numbers and by how much, when the options can be ranked), then at
    most three short lines why (:attr:`why`), in a player's words; the numbers behind them
    (:attr:`lines`) are the details a view shows on request.

    Attributes:
        title: one short heading ("Black Jack: stay or raise?").
        lines: the details: plain-text lines with the numbers (dollars as ``$1,234``, chances
            as ``45.5%``), the models named.
        heatmap: ``{space id: probability}`` to draw on the board, or ``None``.
        numbers: the exact values behind the lines (Fractions / ints), by name.
        checks: one :class:`Check` per chance number shown (how to measure it in real play).
        headline: the first line: "Best: <option> - <margin> <measure> than <runner-up>." when
            :attr:`best` is set, else a plain summary ("" when there is none).
        why: at most three short lines why, no jargon (:data:`moneynb.coach.wording.JARGON`).
        best: the recommended option (an action legal at the decision), or ``None`` when the
            Coach does not rank the options here.
        ranking: ``[(option, value)]`` best first: the measure each ranked option scores
            (:attr:`measure`), from the numbers above.
        measure: what :attr:`ranking` counts, in words ("dollars for you on average").
    """

    title: str
    lines: list[str] = field(default_factory=list)
    heatmap: dict | None = None
    numbers: dict = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    headline: str = ""
    why: list[str] = field(default_factory=list)
    best: Any = None
    ranking: list = field(default_factory=list)
    measure: str = ""
    _later: Callable | None = field(default=None, repr=False, compare=False)

    #: what a deferred ranking (:meth:`defer`) fills in: reading any of them works it out
    _DEFERRED = frozenset({"lines", "numbers", "headline", "why", "best", "ranking", "measure"})

    def __getattribute__(self, name: str) -> Any:
        if name in Coaching._DEFERRED:
            later = object.__getattribute__(self, "_later")
            if later is not None:
                object.__setattr__(self, "_later", None)  # once
                try:
                    later(self)
                except Exception as e:  # noqa: BLE001 - read by a view: never break a game
                    object.__getattribute__(self, "lines").append(
                        f"The ranking could not be worked out: {e}"
                    )
        return object.__getattribute__(self, name)

    def defer(self, fn: Callable) -> Coaching:
        """Work out the rest of this coaching (``fn(self)``: a ranking by play-outs, which
        takes a good part of a second) only when :attr:`headline`, :attr:`why`,
        :attr:`best`, :attr:`ranking`, :attr:`measure`, :attr:`lines` or :attr:`numbers` is
        first read: a caller that reads only :attr:`checks` or :attr:`heatmap` (the coach
        harness) does not pay for it. ``fn`` must work on a copy of the game taken now (the
        game may move on before it runs). An error in ``fn`` is not raised to the reader (a
        view): the coaching keeps what it had and its details say the ranking failed.
        Returns ``self``."""
        self._later = fn
        return self

    def summary(self) -> list[str]:
        """What a player reads first: the headline (if any) and the lines why."""
        return [self.headline, *self.why] if self.headline else list(self.why)

    def text(self) -> str:
        """Title, headline, lines why and details as one plain-text block."""
        return "\n".join([self.title, *self.summary(), *self.lines])

    def recommend(
        self,
        values: dict,
        labels: dict,
        *,
        fmt: Callable | None = None,
        more: str = "more for you on average",
        measure: str = "dollars for you on average",
        why=(),
        headline: str | None = None,
    ) -> Coaching:
        """Rank ``values`` (``{option: number}``, each a legal option of the decision, bigger
        is better, any comparable values, e.g. ``(keys, dollars)``; ties keep the given order)
        and say the best first: sets :attr:`best` (None on a tie: equal, or for money less
        than $1 apart, :data:`~moneynb.coach.wording.MIN_LEAD`),
        :attr:`ranking`, :attr:`measure`, :attr:`headline` (:func:`~moneynb.coach.wording.
        best_line`: the margin over the runner-up written with ``fmt``, default dollars, and
        ``more``; or ``headline`` as given) and :attr:`why` (the first three of ``why``).
        Returns ``self``.

        Raises:
            ValueError: ``values`` is empty.
        """
        if not values:
            raise ValueError("nothing to rank")
        ranked = sorted(values.items(), key=lambda kv: kv[1], reverse=True)  # stable
        self.best, self.ranking, self.measure = ranked[0][0], ranked, measure
        named = [(labels[o], v) for o, v in ranked]
        self.headline = headline or best_line(named, fmt=fmt, more=more)
        if self.headline.startswith("A tie: "):
            self.best = None  # a tie names no best (as a "No clear best" of play-outs)
        self.why = [w for w in why if w][:3]
        return self


def value_check(game, name, action, *, pre=(), follow=(), shows=("mean",), **kw) -> Check:
    """Value ``action`` (after ``pre``) for the decider with the engine's outcomes."""
    g = game
    if pre:
        g = what_if_copy(game)
        for a in pre:
            g.apply(a)
    seat = game.decision.player
    v = value_option(g, action, seat, follow_tags=follow, **kw)
    return Check(name, tuple(pre), action, seat, v, shows, tuple(follow))


def valuation_of(action, dist: dict) -> Valuation:
    """A :class:`Valuation` of ``action`` from an exact distribution ``{value: Fraction}``."""
    from ..core.outcomes import _dist_stats

    mean, var = _dist_stats(dist)
    return Valuation(action, dict(sorted(dist.items(), key=lambda kv: repr(kv[0]))), mean, var)


def landing_check(game, play_on, measure, branch_draws) -> Check:
    """The heat map of a roll: exact chances of ``measure`` over the engine's outcomes."""
    seat = game.decision.player
    dist: dict = {}
    for o in chance_outcomes(game, "roll", play_on=play_on, branch_draws=branch_draws):
        v = measure(game, o.game, o.events)
        dist[v] = dist.get(v, Fraction(0)) + o.probability
    mean = Fraction(0)
    val = Valuation("roll", dict(sorted(dist.items(), key=lambda kv: repr(kv[0]))), mean, mean)
    return Check("landing", (), "roll", seat, val, ("each",), (), measure, play_on)


def play_on_stops(game, seat: int, space: int, throws: int, seed: int) -> int:
    """Easy Money, measured in real play: how often ``seat``'s man stops on ``space`` in his
    next ``throws`` throws, the game played on by greedy bots (seeded ``seed``) on a copy with a
    fresh generator (hidden piles shuffled by it). Stops early if the game ends."""
    from ..bots import make_bot

    g = game.copy()
    g.rng = random.Random(seed)
    shuffle_hidden(g, g.rng)
    bots = [make_bot("greedy", seed=seed * 7 + k) for k in range(len(g.players))]
    thrown = stops = 0
    while not g.over:
        for e in g.apply(bots[g.decision.player].choose(g)):
            if e.data.get("seat") != seat:
                continue
            if e.kind == "rolled":
                thrown += 1
                if thrown > throws:
                    return stops
            elif e.kind == "moved" and e.data.get("space") == space:
                stops += 1
    return stops


def each_option(
    game,
    d,
    title: str,
    *,
    follow=(),
    what: str = "expected result",
    shows=("mean", "p_loss"),
    note: str = "",
    fmt=None,
    **kw,
) -> Coaching:
    """Value every option of ``d`` with the engine's outcomes (:func:`value_option`; keyword
    arguments go to it): its expected money for the decider and its chance of a loss; best
    first. ``fmt``: how a mean is written (default :func:`dollars`)."""
    fmt = dollars if fmt is None else fmt
    checks = [value_check(game, str(d.label(o)), o, follow=follow, shows=shows, **kw)
              for o in d.options]  # fmt: skip
    ranked = sorted(checks, key=lambda c: -c.valuation.mean)
    lines = []
    for c in ranked:
        v = c.valuation
        line = f"{d.label(c.action)}: {what} {fmt(v.mean)}"
        if "p_loss" in shows:
            line += f", P(loss) {pct(v.probability(lambda x: x < 0))}"
        lines.append(line + ".")
    if note:
        lines.append(note)
    coaching = Coaching(title, lines, numbers={c.action: c.valuation.mean for c in checks},
                        checks=checks)  # fmt: skip
    labels = {c.action: d.label(c.action) for c in checks}
    best = ranked[0]
    return coaching.recommend(
        coaching.numbers, labels, fmt=fmt, why=[risk_line(labels[best.action], best.valuation)]
    )


def risk_line(label: str, v: Valuation) -> str:
    """One plain line on the risk of an option valued ``v`` (dollars gained): its chance of
    losing money, or of coming out ahead when it cannot lose, or that it changes nothing."""
    loss = v.probability(lambda x: x < 0)
    gain = v.probability(lambda x: x > 0)
    if loss:
        return f"Chance of losing money with {label}: {chance(loss)}."
    if gain:
        return f"{label} cannot lose you money; chance of coming out ahead: {chance(gain)}."
    return f"{label} does not change your money now."
