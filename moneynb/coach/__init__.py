"""The Coach (``moneynb.coach``): the numbers behind the pending decision, every one from the engine itself.

:func:`coach` takes a game and returns a :class:`Coaching` for its pending decision (or
``None`` when there is nothing to say). Every chance number is an exact value of the engine's
own outcomes (:func:`moneynb.core.outcomes.value_option`: the option is played on copies of the
game for every way the dice, spinners and unseen cards can fall, the deciding player's own
follow-up choices taken by best expected value), so the game's rounding, caps and limits are
counted as the game applies them; the cards already drawn are out of the unseen cards. Each
such number comes with a :class:`Check` saying how to measure it in a real play of the
decision, so ``tests/test_harness.py`` compares it with a seeded Monte Carlo of that decision
played through ``Game.copy()`` + ``apply``. The other numbers are the engine's own functions
(a price, a rent, the Loan Shark's price, a deterministic reach). No formula is restated here.

What it covers (issues 8, 12, 18 section 7; the table in ``docs/app.md``):

* Moolah: Black Jack bet (value of the smallest and the largest bet, raising when it pays
  within the engine's raise cap) and Stay vs Raise with the card in hand; Wall Street (value
  and chance of a loss of investing in each stock, after the Round-Off Clause); a Temptation
  gamble; the Loan Shark's price of a bill bigger than the wallet; the next roll's landing
  chances (heat map, outer path at Option Points); at an Option Point, where each path ends
  and its expected result; at a Moolah space, the next roll from each Moolah space (what-if
  probe :meth:`Moolah.probe_roll`); Take A Pal and the Advantage cards, option by option.
* Easy Money: the next throw's landing chances (:meth:`EasyMoney.next_landing`); at a buy, an
  auction bid, a lone bidder's buy or an offer received, what the holding would earn you (the
  engine's rent and score once yours; each opponent's exact next-throw chance; as a labelled
  model, their stops in the next 10 throws, the long-run rent a round, the payback and the
  rest-of-game value: :mod:`moneynb.analysis.easy_money`); build / mortgage / lift options and
  what a holding for sale earns you.
* Money Card: value and chance of a win of a Monte Carlo bet on each colour; for each
  destination (a spin's landing, an Express Port flight, Join Another Tourist), the cheques and
  keys on arrival and the chance that the next spin from there can reach a missing key (what-if
  probe :meth:`MoneyCard.probe_spin`); Charge It or pay; a debt (each key turned in, the
  engine's move; Monte Carlo first, one spin at each bet and colour, exact); spin or form a
  phrase (the spin's exact chance to reach a key you lack; the bonus moves and the keys they
  bring, the engine's moves on copies).
* Money Moves: the roller's expected gain this turn and its chance of losing money; Pick a
  Pocket and the Wild Card, option by option; a House Bank loan (your score after, the
  engine's repayment of each money-die amount, and for the largest loan the exact chances of
  the next roll: losing money, being at $0 again).
* Money Run: where each pawn can reach this turn (heat map, 1.0 = reachable) and the chances of
  the size of the coin that refills the table after the first table coin is placed; where a
  coin goes: how close each pawn can then get.

What a player reads first (issue 30, section 5): :attr:`Coaching.headline`, one line naming
the best option by the engine's numbers and by how much where the options can be ranked
(:meth:`Coaching.recommend`; :attr:`Coaching.best`, :attr:`Coaching.ranking`,
:attr:`Coaching.measure`), then at most three lines why (:attr:`Coaching.why`) with none of
:data:`moneynb.coach.wording.JARGON`; :attr:`Coaching.lines` are the details behind them.

Where the engine states no exact outcomes to count over (Moolah's Bank, Easy Money's offers
to sell, Money Moves' House Bank loan, Money Run's actions), the options are ranked by seeded
play-outs on resampled copies (:mod:`.rollouts`): every option on the same simulated games, a
margin only when the paired play-outs back it, else "No clear best" and how close the options
come out; the play-outs go on, within a budget, while the verdict is open (issue 38: the same
verdict whatever the Coach's own draw).

The package (issue 30, section 9): one module per game (:mod:`.moolah`, :mod:`.easy_money`,
:mod:`.money_card`, :mod:`.money_moves`, :mod:`.money_run`, each a ``coach_decision(game,
decision)``), the shared valuation (:mod:`.valuation`), play-outs (:mod:`.rollouts`) and wording
(:mod:`.wording`). It sits
below the views: it imports no widget or plotting library and nothing of ``moneynb.ui``, and the
engine imports none of it (``tests/test_layering.py``).

A number that needs more than one step of the game is a model: the text says "Model" and how
it was computed, and its :class:`Check` says how ``tests/test_harness.py`` measures it (a
what-if ``base`` game, or a ``horizon`` of real play by seeded greedy bots).

The heat map is ``{space id: probability}`` in the game's own space ids (Moolah: the string
ids of ``board.toml``; Easy Money: the space index; Money Run: ``(x, y)`` squares).
"""

from __future__ import annotations

from collections import OrderedDict

from ..core.outcomes import clear_cache as outcomes_clear_cache
from ..core.outcomes import state_key
from . import easy_money, money_card, money_moves, money_run, moolah
from .money_card import MC_SHOWN
from .money_run import money_run_reach
from .valuation import Check, Coaching
from .wording import cents, dollars, pct

__all__ = [
    "Check",
    "Coaching",
    "MC_SHOWN",
    "coach",
    "coach_step",
    "clear_cache",
    "dollars",
    "cents",
    "pct",
    "money_run_reach",
]

_COACHES = {
    "moolah": moolah.coach_decision,
    "easy_money": easy_money.coach_decision,
    "money_card": money_card.coach_decision,
    "money_moves": money_moves.coach_decision,
    "money_run": money_run.coach_decision,
}


#: the last coachings, by the full state they were worked out for (``state_key(full=True)``):
#: a view drawing the same decision again (the Coach toggled, a redraw) gets them at once
_CACHE: OrderedDict = OrderedDict()
#: most coachings remembered
CACHE_SIZE = 32


def clear_cache() -> None:
    """Forget every remembered coaching and valuation (benchmarks time the work with it)."""
    _CACHE.clear()
    outcomes_clear_cache()


def coach(game) -> Coaching | None:
    """The coaching for ``game``'s pending decision, or ``None`` (game over, or nothing risky
    or numeric to say about this decision). Never raises for a game it does not know. The same
    state (decision, generator and all) asked again gets the same :class:`Coaching` object
    back without working it out again (the last :data:`CACHE_SIZE` are remembered)."""
    d = game.decision
    if d is None:
        return None
    fn = _COACHES.get(game.name)
    if fn is None:
        return None
    key = state_key(game, full=True)
    if key is not None and key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    c = fn(game, d)
    if key is not None:
        _CACHE[key] = c
        if len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return c


def coach_step(replay, i: int) -> Coaching | None:
    """The coaching for the decision at step ``i`` of a :class:`moneynb.core.replay.Replay`
    (:func:`coach` of ``replay.state(i)``), or ``None`` (game over there, or nothing to weigh
    up). The replay view asks this; the replay itself (the engine) knows no Coach.

    Raises:
        IndexError, TypeError: as :meth:`Replay.state <moneynb.core.replay.Replay.state>`.
    """
    return coach(replay.state(i))
