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

import copy
import hashlib
import io
import pickle
import random
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .chance import ScriptedRandom, copy_generator
from .decision import Decision, Event

#: most leaves one enumeration may visit before it refuses (a guard against shuffles of
#: whole decks being walked card by card: those never branch, see ScriptedRandom)
MAX_OUTCOMES = 20_000


@dataclass
class Outcome:
    """One way an action can turn out.

    Attributes:
        probability: exact probability (``Fraction``); the outcomes of one call sum to 1.
        game: the game after the action (an independent copy; its generator draws as a plain
            :class:`~moneynb.core.chance.GameRandom` again, so it can be played on).
        draws: what chance gave, in order: ``("int", n, k)`` for a uniform draw of ``k`` in
            ``0..n-1``, ``("top", card)`` for a card drawn.
        events: the events the action produced in this outcome.
    """

    probability: Fraction
    game: Any
    draws: tuple
    events: list = field(default_factory=list)


#: game attributes holding the loaded rule data (board, cards, dice), shared by the copies
_SHARED = ("data", "cards", "board", "money_die", "task_die")

#: values a copy shares as they are (immutable)
_ATOMS = frozenset({int, str, bool, float, type(None), Fraction, bytes})
#: per class: may :func:`_copy` copy its instances by their ``__dict__`` (see :func:`_plain_class`)
_PLAIN: dict = {}


def _plain_class(t: type) -> bool:
    """True for a moneynb class (a Deck, a Ledger, a game's own record) whose instances are
    plain attribute holders: a ``__dict__``, no ``__slots__`` and no copy or pickle hooks of
    its own, so copying its ``__dict__`` is what ``copy.deepcopy`` would do."""
    r = _PLAIN.get(t)
    if r is None:
        r = (
            t.__module__.startswith("moneynb.")
            and "__dict__" in dir(t)
            and not any("__slots__" in vars(k) for k in t.__mro__[:-1])
            and not any(
                hook in vars(k)
                for k in t.__mro__[:-1]
                for hook in ("__deepcopy__", "__copy__", "__reduce__", "__reduce_ex__",
                             "__getstate__", "__setstate__")
            )
        )  # fmt: skip
        _PLAIN[t] = r
    return r


def _copy(x: Any, memo: dict) -> Any:
    """``copy.deepcopy(x, memo)``, faster for the plain data a game's state is made of
    (lists, dicts, tuples, sets of immutable values, moneynb record classes): the same result
    (shared references stay shared, through ``memo``), 3-20x less time. A Decision (immutable
    once its lazy parts are read) and an Event (immutable, as in the shared log) are shared;
    anything else goes to ``copy.deepcopy``."""
    t = type(x)
    if t in _ATOMS:
        return x
    i = id(x)
    y = memo.get(i)
    if y is not None:
        return y
    if t is list:
        y = x.copy()
        memo[i] = y
        for j, v in enumerate(x):
            tv = type(v)
            if tv in _ATOMS:
                continue
            if tv is tuple:  # a tuple of immutable values (a stack of coins) is shared
                for w in v:
                    if type(w) not in _ATOMS:
                        break
                else:
                    continue
            y[j] = _copy(v, memo)
        return y
    if t is dict:
        if not all(type(k) in _ATOMS or type(k) is tuple for k in x):  # (hashable: immutable)
            return copy.deepcopy(x, memo)
        y = x.copy()
        memo[i] = y
        for k, v in x.items():
            if type(v) not in _ATOMS:
                y[k] = _copy(v, memo)
        return y
    if t is tuple:
        for v in x:
            if type(v) not in _ATOMS:
                break
        else:  # of immutable values: immutable
            return x
        y = tuple([v if type(v) in _ATOMS else _copy(v, memo) for v in x])
        if all(a is b for a, b in zip(x, y, strict=True)):
            y = x
        memo[i] = y
        return y
    if t is Decision:
        x.options, x.labels  # noqa: B018 - read its lazy parts now: then it never changes
        memo[i] = x
        return x
    if t is Event:
        memo[i] = x
        return x
    if (t is set or t is frozenset) and all(type(v) in _ATOMS for v in x):
        y = t(x)
        memo[i] = y
        return y
    if _plain_class(t):
        y = object.__new__(t)
        memo[i] = y
        d = x.__dict__.copy()  # attribute names: strings
        for k, v in d.items():
            if type(v) not in _ATOMS:
                d[k] = _copy(v, memo)
        y.__dict__.update(d)
        return y
    return copy.deepcopy(x, memo)


def _fork(game, rng: random.Random):
    """A copy of ``game`` for one replay: a deep copy (:func:`_copy`), except that the event
    log and the action list (immutable events and actions, only ever appended to) are copied
    shallowly and the generator is ``rng`` (neither is deep-copied, nor are the rule data of
    :data:`_SHARED`: this keeps enumeration fast late in a game, when the log is long)."""
    log = list(game.log)
    actions = list(game.actions)  # JSON values: immutable
    memo = {id(game.log): log, id(game.actions): actions, id(game.rng): rng}
    for name in _SHARED:  # loaded rule data: read, never changed, during play
        value = getattr(game, name, None)
        if value is not None:
            memo[id(value)] = value
    for name in type(game).record_only:  # records: lists copied, their written rows shared
        value = getattr(game, name, None)
        if type(value) is list:
            memo[id(value)] = [list(v) if type(v) is list else v for v in value]
    d = game.pending
    if d is not None:  # its lazy options and labels are read from this game, first
        d.options, d.labels  # noqa: B018
    g = object.__new__(type(game))
    memo[id(game)] = g
    g.__dict__.update(_copy(game.__dict__, memo))
    g.rng = rng
    return g


def what_if_copy(game):
    """An independent copy of ``game`` for a what-if probe or a one-off ``apply``: like
    :meth:`Game.copy`, but faster late in a game (the event log and the action list are copied
    shallowly, their items being immutable, and the loaded rule data is shared, as in
    :func:`chance_outcomes`). Its generator is a copy of ``game``'s, in the same state."""
    # counts its draws (apply on the copy need not compare whole states); streams copied too
    return _fork(game, copy_generator(game.rng))


class _Walker:
    """Chooser for one replay: follows ``prefix``, then takes choice 0 and records the rest."""

    def __init__(self, prefix: tuple, rng: random.Random | None = None, limit: int | None = None):
        self.prefix = prefix
        self.path: list = []  # (kind, choices, index) per draw
        self.rng, self.limit = rng, limit

    def __call__(self, kind: str, arg: Any) -> Any:
        i = len(self.path)
        if self.limit is not None and i >= self.limit:  # past the branched draws: plain chance
            return None  # the drawing generator's own number (its kind's stream), the top card
        idx = self.prefix[i] if i < len(self.prefix) else 0
        if kind == "int":  # arg: n, the draw is uniform on 0..n-1
            self.path.append(("int", arg, idx))
            return idx
        counts = Counter(arg)  # arg: the draw pile
        distinct = sorted(counts, key=repr)
        self.path.append(("top", tuple((c, counts[c]) for c in distinct), idx, len(arg)))
        return distinct[idx]


def chance_outcomes(
    game,
    action: Any,
    *,
    play_on: Callable[[Any], Any] | None = None,
    branch_draws: int | None = None,
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
        branch_draws: branch only the first ``branch_draws`` draws; later draws of a replay
            come from the copy's own generator (one sample, not enumerated). The probabilities
            stay exact for whatever the first draws decide (e.g. where two dice move a token,
            whatever card the space then draws). ``None``: branch every draw.

    Returns:
        A list of :class:`Outcome`, probabilities summing exactly to 1. An action with no
        chance in it gives one outcome of probability 1.

    Raises:
        IllegalAction: ``action`` is not legal now (nothing is changed).
        ValueError: more than :data:`MAX_OUTCOMES` outcomes.
    """
    out: list[Outcome] = []
    stack: list[tuple] = [()]
    base = game.rng
    if getattr(base, "streams", None) is None:  # one generator: its state, read once
        base, state = None, base.getstate()
    else:  # a stream set: every stream's state (read per replay)
        state = None
    while stack:
        prefix = stack.pop()
        rng = ScriptedRandom(base, state=state)
        g = _fork(game, rng)
        walker = _Walker(prefix, rng, branch_draws)
        rng.chooser = walker
        g.rng = rng
        events = list(g.apply(action))
        while play_on is not None and not g.over:
            nxt = play_on(g)
            if nxt is None:
                break
            events.extend(g.apply(nxt))
        num = den = 1  # the probability, multiplied out in whole numbers (one Fraction)
        draws = []
        for i, step in enumerate(walker.path):
            if step[0] == "int":
                _, n, idx = step
                den *= n
                draws.append(("int", n, idx))
                n_choices = n
            else:
                _, counts, idx, size = step
                num *= counts[idx][1]
                den *= size
                draws.append(("top", counts[idx][0]))
                n_choices = len(counts)
            if i >= len(prefix):  # a new branch point: queue its other choices
                taken = tuple(s[2] for s in walker.path[:i])
                stack.extend(taken + (j,) for j in range(n_choices - 1, 0, -1))
        rng.chooser = None  # from here on it draws as a plain GameRandom (it is one)
        out.append(Outcome(Fraction(num, den), g, tuple(draws), events))
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


def shuffle_hidden(game, rng: random.Random) -> None:
    """Shuffle every deck's draw pile of ``game`` with ``rng`` (decks held as attributes, or in a
    dict or list attribute). The order is hidden from the players, so a Monte Carlo play of a
    decision as a player sees it starts from any order alike (a copy keeps the real order).
    Changes ``game``: use it on a copy."""
    from .chance import Deck

    for value in vars(game).values():
        if isinstance(value, Deck):
            value.shuffle(rng)
        elif isinstance(value, (dict, list, tuple)):
            for v in value.values() if isinstance(value, dict) else value:
                if isinstance(v, Deck):
                    v.shuffle(rng)


# ===== values of a decision's options (expectimax over the engine's own outcomes) ===============
def worth(game, seat: int) -> int:
    """Dollars ``seat`` holds: the sum of its ledger accounts (those named ``"<kind>:<player>"``,
    e.g. Moolah's wallet and Personal Bank Account), less any House Bank loan it owes (Money
    Moves' ``loans``). Money Run has no money: always 0."""
    name = game.players[seat]
    total = sum(v for k, v in game.money().items() if k.partition(":")[2] == name)
    loans = getattr(game, "loans", None)
    if isinstance(loans, list):
        total -= loans[seat]
    return total


def _dist_stats(dist: dict) -> tuple[Fraction, Fraction]:
    mean = sum((p * v for v, p in dist.items()), Fraction(0))
    var = sum((p * (v - mean) ** 2 for v, p in dist.items()), Fraction(0))
    return mean, var


@dataclass
class Valuation:
    """The exact value of one option of a decision, from the engine's chance outcomes.

    Attributes:
        action: the option valued.
        distribution: ``{measured value: Fraction}`` (probabilities sum to 1).
        mean: expected value (``Fraction``); variance: its variance (``Fraction``).
        follow_tags: the deciding seat's follow-up decisions that were taken by best mean.
    """

    action: Any
    distribution: dict
    mean: Fraction
    variance: Fraction
    follow_tags: tuple = ()

    def probability(self, pred: Callable[[Any], bool]) -> Fraction:
        """P(the measured value satisfies ``pred``), exact."""
        return sum((p for v, p in self.distribution.items() if pred(v)), Fraction(0))


def follow_up_options(decision, amounts: str = "ends") -> list:
    """The options of a follow-up ``decision`` that :func:`best_action` compares: every discrete
    option, plus for an amount range its two ends (``amounts="ends"``: exact when the value is
    linear in the amount, as a bet paid at even money) or every step (``"all"``)."""
    opts = list(decision.options)
    if decision.kind == "amount" and decision.low is not None and decision.high is not None:
        if amounts == "all":
            opts += list(range(decision.low, decision.high + 1, decision.step))
        else:
            opts += list(dict.fromkeys((decision.low, decision.high)))
    return opts


def state_key(game, *, full: bool = False) -> bytes | None:
    """A short fingerprint of ``game``'s state, equal for two games that play on alike: every
    attribute but the event log, the action list, the generator, the loaded rule data
    (:data:`_SHARED`: only which objects they are), remembered caches (``_cache_*``) and the
    attributes the game declares
    record-only (:attr:`Game.record_only`, e.g. the last dice). Equal keys mean equal states
    (a 16-byte BLAKE2 digest of their pickle); equal states may still get different keys (a
    dict filled in another order), which only costs a recomputation. ``full``: also the
    record-only attributes, the generator's state and the log's length (everything a what-if
    probe that samples some draws, or a text, can read). ``None``: the state cannot be
    pickled (nothing is then remembered)."""
    skip = {"log", "actions", "_events", *_SHARED}
    if not full:
        skip.update(("rng", *type(game).record_only))
    state = {k: v for k, v in vars(game).items() if k not in skip and not k.startswith("_cache_")}
    if full:
        state["log"] = len(game.log)
    d = game.pending
    if d is not None:
        d.options, d.labels  # noqa: B018 - its lazy parts, read from this game
    buf = io.BytesIO()
    try:
        # the loaded rule data by identity (one object per data file and version read)
        data = tuple(id(getattr(game, n, None)) for n in _SHARED)
        _KeyPickler(buf, protocol=5).dump((type(game).__qualname__, data, state))
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.blake2b(buf.getbuffer(), digest_size=16).digest()


class _KeyPickler(pickle.Pickler):
    """A pickler for :func:`state_key`: a set's items in a fixed order (a copied set may
    iterate in another order than the original)."""

    def persistent_id(self, obj):  # asked for every object (reducer_override is not, for sets)
        t = type(obj)
        if t is set or t is frozenset:
            return (t.__name__, tuple(sorted(obj, key=repr)))
        return None


#: exact valuations of follow-up decisions, by :func:`state_key` (the enumeration under a
#: follow-up plays every draw, so the generator's state does not matter): a follow-up state
#: reached again (another dice total to the same Option Point, another option of the same
#: decision, the next redraw of the Coach) is not valued again. Least recently used first.
_FOLLOW_CACHE: OrderedDict = OrderedDict()
#: most follow-up valuations remembered
FOLLOW_CACHE_SIZE = 4096


def clear_cache() -> None:
    """Forget every remembered valuation (benchmarks time the work itself with it)."""
    _FOLLOW_CACHE.clear()


def _worth_of(seat: int) -> Callable:
    return lambda g, events: worth(g, seat)


def _shifted(v: Valuation, base: int) -> Valuation:
    """``v`` (of dollars held) as dollars gained against ``base``."""
    dist = {x - base: p for x, p in v.distribution.items()}
    return Valuation(v.action, dict(sorted(dist.items(), key=lambda kv: repr(kv[0]))),
                     v.mean - base, v.variance, v.follow_tags)  # fmt: skip


def value_option(
    game,
    action: Any,
    seat: int | None = None,
    *,
    follow_tags: tuple = (),
    measure: Callable | None = None,
    amounts: str = "ends",
    branch_draws: int | None = None,
) -> Valuation:
    """Exact distribution of what ``action`` leads to for ``seat`` (default: the decider).

    The action is played on copies through :func:`chance_outcomes`; whenever the game then waits
    on ``seat`` again at a decision whose tag is in ``follow_tags`` (e.g. Moolah's
    ``"casino_raise"`` after a ``"casino_bet"``), every option of it
    (:func:`follow_up_options`) is valued the same way and the best mean is taken
    (expectimax). Any other decision, or the end of the game, ends the valuation. With the
    default measure, a follow-up state already valued (:func:`state_key`) is not valued again.

    Args:
        measure: ``f(game_after, events) -> number``; default ``worth(game_after, seat) -
            worth(game, seat)`` (dollars gained, after all the engine's rounding and limits).
        branch_draws: as for :func:`chance_outcomes` (only at the first action).

    Returns:
        a :class:`Valuation`.

    Raises:
        IllegalAction: ``action`` is not legal now (nothing is changed).
    """
    seat = game.decision.player if seat is None else seat
    if measure is None:
        v = _value(game, action, seat, tuple(follow_tags), None, amounts, branch_draws)
        return _shifted(v, worth(game, seat))
    return _value(game, action, seat, tuple(follow_tags), measure, amounts, branch_draws)


def _value(game, action, seat, follow_tags, measure, amounts, branch_draws) -> Valuation:
    """:func:`value_option`; ``measure=None``: dollars ``seat`` holds after (not gained)."""
    m = _worth_of(seat) if measure is None else measure
    dist: dict = {}
    for o in chance_outcomes(game, action, branch_draws=branch_draws):
        g, d = o.game, o.game.decision
        if d is not None and not g.over and d.player == seat and d.tag in follow_tags:
            sub = _best(g, seat, follow_tags, measure, amounts)
            for v, p in sub.distribution.items():
                dist[v] = dist.get(v, Fraction(0)) + o.probability * p
        else:
            v = m(g, o.events)
            dist[v] = dist.get(v, Fraction(0)) + o.probability
    mean, var = _dist_stats(dist)
    return Valuation(action, dict(sorted(dist.items(), key=lambda kv: repr(kv[0]))), mean, var,
                     follow_tags)  # fmt: skip


def _best(game, seat, follow_tags, measure, amounts) -> Valuation:
    """:func:`best_action` in :func:`_value`'s terms, remembered by state for the default
    measure (:data:`_FOLLOW_CACHE`)."""
    key = None
    if measure is None:
        sk = state_key(game)
        if sk is not None:
            key = (sk, seat, follow_tags, amounts)
            hit = _FOLLOW_CACHE.get(key)
            if hit is not None:
                _FOLLOW_CACHE.move_to_end(key)
                return hit
    best = None
    for a in follow_up_options(game.decision, amounts):
        v = _value(game, a, seat, follow_tags, measure, amounts, None)
        if best is None or v.mean > best.mean:
            best = v
    if key is not None:
        _FOLLOW_CACHE[key] = best
        if len(_FOLLOW_CACHE) > FOLLOW_CACHE_SIZE:
            _FOLLOW_CACHE.popitem(last=False)
    return best


def best_action(
    game, seat: int | None = None, *, follow_tags: tuple = (), measure=None, amounts="ends"
) -> Valuation:
    """The option of ``game``'s pending decision with the highest exact mean (ties: the first
    in :func:`follow_up_options` order), valued by :func:`value_option`."""
    seat = game.decision.player if seat is None else seat
    best = _best(game, seat, tuple(follow_tags), measure, amounts)
    return best if measure is not None else _shifted(best, worth(game, seat))
