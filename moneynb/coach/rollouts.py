"""The Coach's seeded play-outs: ranking a decision's options where the engine states no exact
outcomes to count over (issue 30, section 5: Moolah's Bank, Easy Money's offers, Money Moves'
House Bank loan, Money Run's actions).

Each option (a *move*: the option, and for a choice that asks an amount next, that amount) is
played on copies of the game, ``n`` times. Play-out ``i`` starts from one copy whose hidden
chance is drawn afresh (its face-down piles put in a fixed order, :func:`forget_order`, then
:meth:`Game.resample_chance <moneynb.core.game.Game.resample_chance>` with seed
:func:`sample_seed`: the copy does not know the real game's next die, spin, coin or card, and
the Coach's figures do not depend on the piles' hidden order); every move is played from that same copy (the same dice for every option: common random
numbers, so the options' difference is measured with far less noise than their values), then
the game is played on by the game's greedy bots (:class:`moneynb.bots.GreedyBot`, seeded
:func:`bot_seed`) at every seat, the deciding player's own later choices included, up to the
horizon (the deciding player's ``turns``-th turn from now, or the end of the game). The measure
is the engine's own number at the horizon (dollars held: :func:`~moneynb.core.outcomes.worth`;
an engine score; a win), against its value now.

A margin is shown only when the play-outs back it: the best option beats the runner-up by more
than twice the standard error of their paired differences (about 95% sure); otherwise the Coach
says "no clear best" and how close the options come out.

**Steady verdicts** (issue 38). A verdict drawn from a fixed number of play-outs hangs on the
draw when the true margin is close to its give-or-take (Moolah's first withdrawal, three
players, 53 play-outs a choice: Withdraw $0 ahead of the rules' $50,000 by 0.5 to 2.3 times its
give-or-take over 20 of the Coach's own seeds, "did better" on 16 and "no choice did clearly
better" on 4; two players, 77: 8 and 12). Pairing is not enough: the paired give-or-take is
already about a third of what two independent means would give. So the
play-outs are spent where the verdict is still open: every :data:`LOOK_EVERY` play-outs (from
:data:`MIN_PLAY_OUTS` on) a move whose paired gap behind the leading move is more than
:data:`SETTLED` times its give-or-take is settled and played no further (its play-outs so far
stay: they are paired with the same first play-outs of every other move); the play-outs stop
when only the leading move is left, or at the budget. A clear decision costs less than the
budget, and the budget goes to the moves still in doubt, so their give-or-take shrinks until
the margin is well away from it. The work is capped by an action budget (a count of engine
actions, so the same state gets the same answer on any machine); the number of play-outs
behind each figure is reported with it.

Source: reconstruction (the rulebooks have no coach); the method is Monte Carlo evaluation with
common random numbers on determinized copies (as :mod:`moneynb.bots.search`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..analysis.stats import mean_interval
from ..core.outcomes import what_if_copy, worth
from .wording import below_a_dollar

#: most play-outs per move (a guard: the action budget, or every move but the leading one
#: settled, stops them first)
N_PLAY_OUTS = 2_000
#: fewest play-outs per move: neither the budget nor a settled verdict stops them before this
#: many
MIN_PLAY_OUTS = 30
#: a move is settled (played no further) once its paired gap behind the leading move is more
#: than this many times the gap's give-or-take (twice its standard error): then 4 standard
#: errors, so a move still near the verdict's line (1 give-or-take) is never settled
SETTLED = 2
#: play-outs between two looks at which moves are settled
LOOK_EVERY = 10
#: the Coach's own sampling seed (:func:`sample_seed`, :func:`bot_seed`); a test varies it to
#: check that a verdict does not hang on the draw
SEED = 0
#: longest list of tied choices' names the first line holds (else it says how many, and the
#: names go behind Details)
TIE_NAMES_CHARS = 90
#: most actions one play-out may take (a guard: every game ends long before)
MAX_PLAY_OUT_ACTIONS = 2_000


def sample_seed(seed: int, i: int) -> int:
    """The hidden-chance seed of play-out ``i`` (:meth:`Game.resample_chance`)."""
    return seed * 1_000_003 + i


def bot_seed(seed: int, i: int, seat: int) -> int:
    """The seed of seat ``seat``'s greedy bot in play-out ``i``."""
    return (seed * 1_000_003 + i) * 16 + seat


def amounts(decision, k: int = 3) -> list[int]:
    """Representative amounts of an amount decision: the engine's own limits (``low``,
    ``high``) and ``k - 2`` evenly spaced steps between them, on the decision's ``step``
    (at most ``k``, fewer when the range holds fewer). ``[]`` for a decision with no range."""
    lo, hi, step = decision.low, decision.high, decision.step or 1
    if lo is None or hi is None or hi < lo:
        return []
    n = (hi - lo) // step
    picks = {0, n} | {round(n * j / (k - 1)) for j in range(1, k - 1)} if k > 1 else {0}
    return [lo + step * j for j in sorted(picks)]


def money_measure(game, seat: int) -> int:
    """Dollars ``seat`` holds (:func:`~moneynb.core.outcomes.worth`)."""
    return worth(game, seat)


def score_measure(game, seat: int) -> int:
    """``seat``'s score by the engine (:meth:`Game.scores`)."""
    return game.scores()[game.players[seat]]


def lead_measure(game, seat: int) -> int:
    """``seat``'s engine score less the best other player's (:meth:`Game.scores`)."""
    scores = game.scores()
    me = game.players[seat]
    return scores[me] - max((v for p, v in scores.items() if p != me), default=0)


def win_measure(game, seat: int) -> float:
    """``seat``'s share of the win: 1 for a lone winner, ``1/k`` for one of ``k`` tied
    winners, 0 otherwise or while the game goes on."""
    if not game.over or seat not in game.winners:
        return 0.0
    return 1.0 / len(game.winners)


@dataclass
class PlayOuts:
    """The play-outs of a decision's moves.

    Attributes:
        moves: ``{key: (action, ...)}``: the actions each move applies first.
        samples: ``{key: [measure at the horizon minus the measure now, one per play-out]}``:
            play-out ``i`` of every move is from the same resampled copy; a move settled
            early (see the module docstring) has fewer, the first ones of the others.
        n: play-outs of the moves played longest (the leading ones).
        seed: the seed the play-outs were drawn from (:func:`sample_seed`, :func:`bot_seed`).
        turns: the horizon in the deciding player's turns (``None``: the end of the game).
        actions: engine actions applied in all.
    """

    moves: dict
    samples: dict
    n: int
    seed: int
    turns: int | None
    actions: int = 0

    def mean(self, key) -> float:
        """The mean of ``key``'s samples."""
        s = self.samples[key]
        return sum(s) / len(s)

    def paired(self, a, b) -> int:
        """The play-outs ``a`` and ``b`` share (the first ones of both)."""
        return min(len(self.samples[a]), len(self.samples[b]))

    def gap(self, a, b) -> tuple[float, float]:
        """``(mean of a - b, twice its standard error)`` over the paired play-outs (the first
        :meth:`paired` of each)."""
        return paired_gap(self.samples[a], self.samples[b])


def paired_gap(xs: list, ys: list) -> tuple[float, float]:
    """``(mean of x - y, twice its standard error)`` over the first play-outs both lists hold
    (play-out ``i`` of each is from the same resampled copy); the give-or-take is infinite
    with fewer than 2."""
    k = min(len(xs), len(ys))
    diffs = [x - y for x, y in zip(xs[:k], ys[:k], strict=True)]
    if len(diffs) < 2:
        return sum(diffs) / len(diffs), math.inf
    m, _low, high = mean_interval(diffs, z=2)
    return m, high - m


def deferred(fn: Callable, game, *args: Any) -> Callable:
    """For :meth:`Coaching.defer <moneynb.coach.valuation.Coaching.defer>`: ``fn(copy,
    decision, coaching, *args)`` on a copy of ``game`` taken now (the game may move on before
    the coaching is read)."""
    snap = what_if_copy(game)
    return lambda coaching: fn(snap, snap.decision, coaching, *args)


def forget_order(game) -> None:
    """Put every face-down pile of ``game`` (each :class:`~moneynb.core.chance.Deck`, alone or
    in a list or dict attribute) in one fixed order (by ``repr``) before a play-out reshuffles
    it: the play-outs then depend on which cards are unseen, never on their hidden order (a
    reshuffle permutes the order it is given). Changes ``game``: use it on a copy."""
    from ..core.chance import Deck

    for value in list(vars(game).values()):
        many = value.values() if isinstance(value, dict) else value
        for deck in many if isinstance(value, (dict, list, tuple)) else (value,):
            if isinstance(deck, Deck):
                deck.draw_pile.sort(key=repr)


def play_to_horizon(g, seat: int, bots: list, turns: int | None) -> int:
    """Play ``g`` on with ``bots`` (one per seat) until ``seat``'s ``turns``-th turn from now
    begins (a turn begins when the game hands a decision to ``seat`` after someone else's),
    or the game ends. Returns the actions applied. Changes ``g``. Trusted bots' answers
    (``Bot.trusted``) are carried out by ``g.advance`` (no events kept), others' by ``apply``."""
    step = g.advance if all(b.trusted for b in bots) else g.apply
    handed, prev, n = 0, seat, 0
    while g.pending is not None and n < MAX_PLAY_OUT_ACTIONS:
        p = g.pending.player
        if p == seat and prev != seat:
            handed += 1
            if turns is not None and handed >= turns:
                break
        prev = p
        step(bots[p].choose(g))
        n += 1
    return n


def play_outs(
    game,
    moves: dict,
    *,
    measure: Callable[[Any, int], float] = money_measure,
    turns: int | None = None,
    n: int = N_PLAY_OUTS,
    seed: int | None = None,
    budget: int | None = None,
) -> PlayOuts:
    """Play every move of ``moves`` (``{key: (action, ...)}``, legal from ``game``'s pending
    decision) up to ``n`` times from the same resampled copies and measure each at the horizon
    (see the module docstring). ``seed``: the sampling seed (default :data:`SEED`). Every
    :data:`LOOK_EVERY` play-outs from :data:`MIN_PLAY_OUTS` on, a move settled behind the
    leading one (:func:`unsettled`) is played no further; the play-outs stop when only the
    leading move is left. ``budget``: most engine actions in all; once spent (and every move
    has :data:`MIN_PLAY_OUTS`) no further play-out starts. ``game`` is not changed.

    Raises:
        IllegalAction: a move is not legal (nothing is changed).
        ValueError: ``moves`` is empty or ``n`` < 1.
    """
    from ..bots import GreedyBot

    if not moves or n < 1:
        raise ValueError("nothing to play out")
    seed = SEED if seed is None else seed
    seat = game.decision.player
    now = measure(game, seat)
    samples: dict = {k: [] for k in moves}
    live = list(moves)
    spent = done = 0
    for i in range(n):
        if budget is not None and spent >= budget and done >= MIN_PLAY_OUTS:
            break
        if done >= MIN_PLAY_OUTS and done % LOOK_EVERY == 0:
            live = unsettled(samples, live)
            if len(live) == 1:  # every other move settled behind it
                break
        root = what_if_copy(game)
        forget_order(root)
        root.resample_chance(sample_seed(seed, i))
        for key in live:
            actions = moves[key]
            g = what_if_copy(root)
            for a in actions:
                g.apply(a)
            bots = [GreedyBot(seed=bot_seed(seed, i, s)) for s in range(len(g.players))]
            spent += len(actions) + play_to_horizon(g, seat, bots, turns)
            samples[key].append(measure(g, seat) - now)
        done += 1
    return PlayOuts(moves, samples, done, seed, turns, spent)


def unsettled(samples: dict, live: list) -> list:
    """The moves of ``live`` (keys of ``samples``, each with the same number of play-outs)
    still in doubt: the leading one (highest mean; the first of equals) and every move whose
    paired gap behind it is at most :data:`SETTLED` times its give-or-take (twice its standard
    error). A move whose play-outs all equal the leader's stays (the same, not behind)."""
    lead = max(live, key=lambda k: sum(samples[k]))
    out = []
    for k in live:
        m, give_or_take = paired_gap(samples[lead], samples[k])
        if k == lead or m <= SETTLED * give_or_take:
            out.append(k)
    return out


def describe(coaching, po: PlayOuts, labels: dict, line: str, horizon: str, how: str = "",
             fmt: Callable[[float], str] = str) -> None:  # fmt: skip
    """Add to ``coaching.lines`` one line per move of ``po``, best first (``line`` with
    ``{label}`` and ``{value}``: the move's label and ``fmt`` of its mean), then one saying how
    they were played: ``n`` times to ``horizon`` ("your 3rd turn from now", "the end of the
    game") on copies that do not know the coming chance, the greedy bots then at every seat,
    ``how`` ending the sentence (it starts with its own punctuation)."""
    coaching.lines += [
        line.format(label=labels[k], value=fmt(po.mean(k)))
        for k in sorted(po.moves, key=po.mean, reverse=True)
    ]
    counts = {len(s) for s in po.samples.values()}
    times = (
        f"{po.n} times"
        if len(counts) == 1
        else f"up to {po.n} times (a choice clearly behind the best one was played no further)"
    )
    coaching.lines.append(
        f"Each choice played out {times} to {horizon}, on copies that do not know the "
        "coming dice and cards (the same ones for every choice), everyone then playing as the "
        f"game's greedy bots{how or '.'}"
    )


def rank(
    coaching,
    po: PlayOuts,
    labels: dict,
    *,
    of: Callable[[Any], Any] = lambda key: key,
    fmt: Callable[[float], str],
    more: str = "more for you on average",
    measure: str = "dollars for you on average",
    why=(),
    suggested: Any = None,
    suggestion: str = "",
):
    """Rank ``po``'s moves for ``coaching`` (a :class:`~moneynb.coach.valuation.Coaching`) and
    write its first line. ``of(key)`` is the decision's option a move starts with (the moves
    of one option, e.g. Deposit at several amounts, count by the best of them); ``labels``
    names each move; ``fmt`` writes a margin.

    With a clear best (its lead over the runner-up is more than twice the standard error of
    their paired differences): ``"Best: <label> — about <margin> <more> than <runner-up>
    (<n> simulated games; give or take <2 s.e.>)."`` and :attr:`best` set. Otherwise
    :attr:`best` stays ``None`` and the line says ``"No clear best: ..."`` with how close the
    options come out. :attr:`ranking` is ``[(option, mean)]`` best first either way, and
    ``numbers["play_outs"]`` the figures (``PlayOuts``, the best move of each option, the
    margin and its give-or-take). Returns ``coaching``.

    ``suggested``: the move the game itself recommends (a key of ``po.moves``: the rules'
    amount, :attr:`Decision.suggested <moneynb.core.decision.Decision.suggested>`), or None.
    The first line then starts from it, so the Coach agrees with the game or says why not
    (issue 38): "Best: <label> — as the rules suggest; ..." when it is the clear best; "The
    rules suggest <label>, but in these simulated games <best> did better: about <margin>
    ..." only when the best beats IT by more than the give-or-take of that difference (then
    :attr:`best` is set); otherwise "The rules suggest <label>; in these simulated games no
    choice did clearly better ..." and :attr:`best` stays ``None``. ``suggestion``: the words
    that name it ("The rules suggest withdrawing $50,000"; default "The rules suggest
    <label>").
    """
    if suggested is not None and suggested in po.moves:
        suggestion = suggestion or f"The rules suggest {labels[suggested]}"
    top: dict = {}
    for key in po.moves:
        o = of(key)
        if o not in top or po.mean(key) > po.mean(top[o]):
            top[o] = key
    order = sorted(top.values(), key=po.mean, reverse=True)  # stable: ties keep move order
    coaching.ranking = [(of(k), po.mean(k)) for k in order]
    coaching.measure = measure + f" ({po.n} simulated games)"
    coaching.why = [w for w in why if w][:3]
    figures = coaching.numbers
    figures.update(play_outs=po, moves={of(k): k for k in order}, n=po.n)
    if len(order) == 1:
        coaching.best = of(order[0])
        coaching.headline = f"Best: {labels[order[0]]} (the only choice here)."
        return coaching
    a, b = order[0], order[1]
    diff, noise = po.gap(a, b)
    # a lead under $1 is no reason to prefer (wording.MIN_LEAD): no best, whatever the noise
    small = below_a_dollar(fmt, diff)
    sims = f"{po.paired(a, b)} simulated games"  # the play-outs behind the margin stated
    figures.update(margin=diff, give_or_take=noise)
    full, labels = labels, dict(labels)
    tail = _shared_aside(labels[a], labels[b])
    if tail:  # said once, with the best: "Borrow $1 (paid back from what you win next) — ...
        # than Borrow $3" (the tester of stop 48: the aside twice in one line)
        labels[b] = labels[b].removesuffix(tail)
    if (
        len(labels[a]) + len(labels[b]) > TIE_NAMES_CHARS
        and not small
        and (diff > noise or noise == 0 < diff)
    ):
        # a clear best, both moves long (Money Run's): the first line names the best, the
        # runner-up's words go behind Details, so it stays one short line (issue 38)
        coaching.lines.insert(0, f"Next best: {labels[b]}.")
        labels[b] = "the next best choice"
    if suggested is not None and suggested in po.moves and of(suggested) != of(a):
        return _against_suggestion(coaching, po, full, a, suggested, of, fmt, more, suggestion)
    if suggested is not None and suggested in po.moves and diff > noise and not small:
        coaching.best = of(a)
        margin = f"{fmt(diff)}" if noise == 0 else f"about {fmt(diff)}"
        tail = (
            f"in every one of the {sims}" if noise == 0 else f"({sims}; give or take {fmt(noise)})"
        )
        coaching.headline = (
            f"Best: {labels[a]} — as the rules suggest; {margin} {more} than {labels[b]} {tail}."
        )
        return coaching
    if diff > 0 and noise == 0 and not small:  # every play-out alike: no give-or-take
        coaching.best = of(a)
        coaching.headline = (
            f"Best: {labels[a]} — {fmt(diff)} {more} than {labels[b]} in every one of the {sims}."
        )
        return coaching
    if diff > noise and not small:
        coaching.best = of(a)
        coaching.headline = (
            f"Best: {labels[a]} — about {fmt(diff)} {more} than {labels[b]} ({sims}; give or "
            f"take {fmt(noise)})."
        )
        return coaching
    tied = [a] + [
        k
        for k in order[1:]
        if po.gap(a, k)[0] <= po.gap(a, k)[1] or below_a_dollar(fmt, po.gap(a, k)[0])
    ]
    width = max(abs(po.gap(a, k)[0]) + po.gap(a, k)[1] for k in tied[1:])
    figures["tied"] = [of(k) for k in tied]
    sims = f"{min(po.paired(a, k) for k in tied)} simulated games"
    aside = _shared_aside(full[tied[0]], full[tied[1]])
    if aside and all(full[k].endswith(aside) for k in tied):  # a loan's cost, said once, last
        names = _and([full[k].removesuffix(aside) for k in tied]) + aside
    else:
        names = _and([full[k] for k in tied])
    if len(tied) > 2 or len(names) > TIE_NAMES_CHARS:
        # a short first line (issue 38: a ~90-word sentence listing five Money Run moves):
        # how many came out alike; which ones, behind Details
        coaching.lines.insert(0, f"Come out alike: {names}.")
        names = f"{len(tied)} choices"
    if all(po.samples[k] == po.samples[a] for k in tied):
        close = f"{names} come out the same in all {sims}."
    else:
        close = f"{names} come out within {fmt(width)} of each other on average ({sims})."
    coaching.headline = f"No clear best: {close}"
    if suggested is not None and suggested in po.moves:  # the rules' own choice among them
        coaching.headline = (
            f"{suggestion}; in these simulated games no choice did clearly better: {close}"
        )
    return coaching


def _against_suggestion(coaching, po, labels, a, s, of, fmt, more, rules):
    """:func:`rank`'s first line when the play-outs' best move ``a`` is not the game's own
    suggestion ``s``: better only when it beats ``s`` by more than the give-or-take of their
    paired difference, else "about as well" (no best). Returns ``coaching``."""
    diff, noise = po.gap(a, s)
    sims = f"{po.paired(a, s)} simulated games"
    coaching.numbers.update(against_suggested=diff, against_suggested_give_or_take=noise)
    small = below_a_dollar(fmt, diff)  # a lead under $1 is no reason to prefer (MIN_LEAD)
    if diff > 0 and noise == 0 and not small:
        coaching.best = of(a)
        coaching.headline = (
            f"{rules}, but in these simulated games {labels[a]} did better: {fmt(diff)} {more} "
            f"in every one of the {sims}."
        )
    elif diff > noise and not small:
        coaching.best = of(a)
        coaching.headline = (
            f"{rules}, but in these simulated games {labels[a]} did better: about {fmt(diff)} "
            f"{more} ({sims}; give or take {fmt(noise)})."
        )
    else:
        coaching.numbers["tied"] = [of(a), of(s)]
        coaching.headline = (
            f"{rules}; in these simulated games {labels[a]} did about as well (within "
            f"{fmt(abs(diff) + noise)} on average, {sims}): no choice did clearly better."
        )
    return coaching


def _shared_aside(first: str, second: str) -> str:
    """The closing aside ``" (...)"`` both labels end with (a loan's cost in each Borrow
    label), or ``""``."""
    i = first.rfind(" (")
    if i < 0 or not first.endswith(")"):
        return ""
    tail = first[i:]
    return tail if second.endswith(tail) and len(second) > len(tail) else ""


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
