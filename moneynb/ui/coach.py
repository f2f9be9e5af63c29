"""The Coach: the numbers behind the pending decision, every one from the engine itself.

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

A number that needs more than one step of the game is a model: the text says "Model" and how
it was computed, and its :class:`Check` says how ``tests/test_harness.py`` measures it (a
what-if ``base`` game, or a ``horizon`` of real play by seeded greedy bots).

The heat map is ``{space id: probability}`` in the game's own space ids (Moolah: the string
ids of ``board.toml``; Easy Money: the space index; Money Run: ``(x, y)`` squares).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.errors import IllegalAction
from ..core.outcomes import (
    Valuation,
    best_action,
    chance_outcomes,
    shuffle_hidden,
    state_key,
    value_option,
    what_if_copy,
    worth,
)
from ..core.outcomes import clear_cache as outcomes_clear_cache

__all__ = [
    "Check",
    "Coaching",
    "coach",
    "clear_cache",
    "dollars",
    "cents",
    "pct",
    "money_run_reach",
]


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
        (:func:`_play_on_stops`)."""
        if self.base is not None:
            game = self.base
        if self.horizon is not None:
            return _play_on_stops(game, *self.horizon, seed)
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
    """What the coach says about one decision.

    Attributes:
        title: one short heading ("Black Jack: stay or raise?").
        lines: plain-text lines with the numbers (dollars as ``$1,234``, chances as ``45.5%``).
        heatmap: ``{space id: probability}`` to draw on the board, or ``None``.
        numbers: the exact values behind the lines (Fractions / ints), by name.
        checks: one :class:`Check` per chance number shown (how to measure it in real play).
    """

    title: str
    lines: list[str] = field(default_factory=list)
    heatmap: dict | None = None
    numbers: dict = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)

    def text(self) -> str:
        """Title and lines as one plain-text block."""
        return "\n".join([self.title, *self.lines])


def dollars(x) -> str:
    """Dollars rounded to $1: ``-1234.5`` -> ``"-$1,235"`` (half away from zero)."""
    v = Fraction(x)
    n = int(abs(v) + Fraction(1, 2))
    return f"-${n:,}" if v < 0 and n else f"${n:,}"


def cents(x) -> str:
    """Dollars with cents, for small expected values: ``Fraction(1, 3)`` -> ``"$0.33"``."""
    v = float(x)
    return f"-${-v:,.2f}" if v < 0 else f"${v:,.2f}"


def pct(p) -> str:
    """A probability as a percentage with one decimal: ``Fraction(1, 3)`` -> ``"33.3%"``."""
    return f"{float(p) * 100:.1f}%"


def _value(game, name, action, *, pre=(), follow=(), shows=("mean",), **kw) -> Check:
    """Value ``action`` (after ``pre``) for the decider with the engine's outcomes."""
    g = game
    if pre:
        g = what_if_copy(game)
        for a in pre:
            g.apply(a)
    seat = game.decision.player
    v = value_option(g, action, seat, follow_tags=follow, **kw)
    return Check(name, tuple(pre), action, seat, v, shows, tuple(follow))


def _valuation(action, dist: dict) -> Valuation:
    """A :class:`Valuation` of ``action`` from an exact distribution ``{value: Fraction}``."""
    from ..core.outcomes import _dist_stats

    mean, var = _dist_stats(dist)
    return Valuation(action, dict(sorted(dist.items(), key=lambda kv: repr(kv[0]))), mean, var)


def _top(heat: dict, names, k: int = 3) -> str:
    best = sorted(heat.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k]
    return ", ".join(f"{names(s)} {pct(p)}" for s, p in best)


def _landing_check(game, play_on, measure, branch_draws) -> Check:
    """The heat map of a roll: exact chances of ``measure`` over the engine's outcomes."""
    seat = game.decision.player
    dist: dict = {}
    for o in chance_outcomes(game, "roll", play_on=play_on, branch_draws=branch_draws):
        v = measure(game, o.game, o.events)
        dist[v] = dist.get(v, Fraction(0)) + o.probability
    mean = Fraction(0)
    val = Valuation("roll", dict(sorted(dist.items(), key=lambda kv: repr(kv[0]))), mean, mean)
    return Check("landing", (), "roll", seat, val, ("each",), (), measure, play_on)


def _play_on_stops(game, seat: int, space: int, throws: int, seed: int) -> int:
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


def _each_option(
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
    checks = [_value(game, str(d.label(o)), o, follow=follow, shows=shows, **kw)
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
    return Coaching(title, lines, numbers={c.action: c.valuation.mean for c in checks},
                    checks=checks)  # fmt: skip


# ===== Moolah ==================================================================================
def _outer_path(g) -> Any:
    """Moolah: take the outer path at an Option Point (its first option); else stop."""
    d = g.decision
    return d.options[0] if d is not None and d.tag == "fork" else None


def _moolah_landing(before, after, events) -> Any:
    """Where the dice move ended: the first ``moved`` event of the roll that is not a send."""
    for e in events:
        if e.kind == "moved" and not e.data.get("sent"):
            return e.data["to"]
    return None


def _moolah(game, d) -> Coaching | None:
    from ..analysis.moolah import loan_shark_cost

    seat, tag, data = d.player, d.tag, game.data
    cash = game.cash(seat)
    rules = data.rules
    if tag == "casino_raise":
        bet, high = game.ctx["bet"], d.high
        stay = _value(game, "stay", "stay")
        up = _value(game, f"raise to {dollars(high)}", high)
        p = stay.valuation.probability(lambda v: v > 0)
        best = "raise" if up.valuation.mean > stay.valuation.mean else "stay"
        return Coaching(
            "Black Jack: stay or raise?",
            [
                f"Your card {game.ctx['card']}: P(win) = {pct(p)} against the House card from "
                "the cards not yet seen.",
                f"Stay at {dollars(bet)}: expected result {dollars(stay.valuation.mean)}.",
                f"Raise to {dollars(high)}: expected result {dollars(up.valuation.mean)}.",
                f"Better: {best}.",
            ],
            numbers={"p_win": p, "ev_stay": stay.valuation.mean, "ev_raise": up.valuation.mean},
            checks=[
                Check(stay.name, (), "stay", seat, stay.valuation, ("mean", "p_gain")),
                up,
            ],
        )
    if tag == "casino_bet":
        checks = [
            _value(game, f"bet {dollars(b)}", b, follow=("casino_raise",))
            for b in dict.fromkeys((d.low, d.high))
        ]
        lines = [
            f"A {dollars(c.action)} bet is worth {dollars(c.valuation.mean)} on average "
            f"({float(c.valuation.mean / c.action):+.3f} per $1)"
            for c in checks
        ]
        lines = [ln + "." for ln in lines]
        lines.append(
            "Counted as the game plays it: you raise when that pays, up to twice the bet but "
            "never more than your wallet; passing is worth $0."
        )
        return Coaching("Black Jack: bet or pass?", lines,
                        numbers={c.action: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
    if tag in ("wall_street", "wall_street_amount"):
        checks, lines = [], []
        if tag == "wall_street":
            for s in (o for o in d.options if o != "pass"):
                nxt = game.copy()
                nxt.apply(s)  # the engine's own amount decision gives the smallest investment
                low = nxt.decision.low if nxt.decision is not None else None
                if nxt.decision is None or nxt.decision.tag != "wall_street_amount":
                    return None
                try:
                    c = _value(game, f"{s} {dollars(low)}", low, pre=(s,), shows=("mean", "p_loss"))
                except IllegalAction:  # the wallet cannot cover the smallest investment
                    return None
                checks.append(c)
        else:
            s = game.ctx["stock"]
            for a in dict.fromkeys((d.low, d.high)):
                checks.append(_value(game, f"{s} {dollars(a)}", a, shows=("mean", "p_loss")))
        for c in checks:
            stock = c.pre[0] if c.pre else game.ctx["stock"]
            lines.append(
                f"{stock.capitalize()}, {dollars(c.action)}: expected result "
                f"{dollars(c.valuation.mean)}, P(loss) "
                f"{pct(c.valuation.probability(lambda v: v < 0))} (cards not yet seen; "
                "gains rounded up and losses down to the bill)."
            )
        return Coaching("Wall Street: which stock, how much?", lines,
                        numbers={c.name: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
    if tag == "gamble":
        c = _value(game, "accept", "accept", shows=("mean", "p_gain"))
        p = c.valuation.probability(lambda v: v > 0)
        card = data.cards[game.ctx["card_id"]]
        shark = loan_shark_cost(card["amount"], cash, rules["loan_shark_percent"])
        lines = [f"P(win) = {pct(p)}: expected result {dollars(c.valuation.mean)}; declining: $0."]
        if shark:
            lines.append(
                f"Your wallet holds {dollars(cash)}: losing would cost {dollars(shark)} off your "
                f"account via the Loan Shark."
            )
        return Coaching("Temptation: take the chance?", lines,
                        numbers={"p_win": p, "ev": c.valuation.mean, "loan_shark": shark},
                        checks=[c])  # fmt: skip
    if tag == "fork":  # issue 18, section 7: where each path ends and what it does to you
        checks, lines = [], []
        for o in d.options:
            probe = what_if_copy(game)
            probe.rng = random.Random(0)  # only the deterministic move is read from this copy
            end = _moolah_landing(game, probe, probe.apply(o))
            c = _value(game, f"path {o}", o, follow=("fork",))
            checks.append(c)
            where = data.spaces[end]["name"] if end is not None else "further on"
            lines.append(
                f"{d.label(o)}: ends on {where}; expected result {dollars(c.valuation.mean)} "
                "(before any choice you make there)."
            )
        return Coaching("Option Point: which path?", lines,
                        numbers={c.action: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
    if tag == "moolah":  # issue 18, section 7: which Moolah space to roll on from
        return _moolah_jump(game, d)
    if tag == "take_pal":  # issue 18, section 7
        return _each_option(
            game, d, "Take A Pal: who comes to the Casino?",
            note="Counted as the game plays it: the mugging at the Casino shared, then you and "
            "your pal each bet all your cash on one Black Jack card from the cards not yet seen.",
            branch_draws=2,  # your card and the House's: exact for you (your pal's draws follow)
        )  # fmt: skip
    if tag == "advantage_target":
        return _each_option(game, d, "Advantage card: where to?",
                            note="Each: the space's result for you (before any choice you make "
                            "there).")  # fmt: skip
    if tag == "after":
        return _each_option(game, d, "Play an Advantage card?", follow=("advantage_target",),
                            note="A card is valued at its best target (before any choice you "
                            "make there).")  # fmt: skip
    if tag in ("bank", "bank_amount", "first_withdrawal"):
        bill = 50_000
        shark = loan_shark_cost(cash + bill, cash, rules["loan_shark_percent"])
        return Coaching(
            "Bank: how much cash to carry?",
            [
                f"Wallet {dollars(cash)}, account {dollars(game.balance(seat))}.",
                f"A bill {dollars(bill)} bigger than your wallet costs {dollars(shark)} via the "
                f"Loan Shark ({rules['loan_shark_percent']}% at once); borrowing on the Line of "
                "Credit at the Bank costs no interest.",
                "Cash in the wallet can be mugged.",
            ],
            numbers={"loan_shark": shark, "bill": bill},
        )
    if tag == "turn" and not game.missed[seat]:
        c = _landing_check(game, _outer_path, _moolah_landing, 2)
        heat = {s: p for s, p in c.valuation.distribution.items() if s is not None}
        lines = [
            "Where this roll can land (outer path at Option Points): "
            + _top(heat, lambda s: data.spaces[s]["name"])
            + "."
        ]
        nums: dict[str, Any] = {"landing": heat}
        bills = [
            s for s in heat if data.spaces[s]["kind"] == "money" and data.spaces[s]["amount"] < 0
        ]
        for s in sorted(bills, key=lambda s: data.spaces[s]["amount"]):
            amount = -data.spaces[s]["amount"]
            shark = loan_shark_cost(amount, cash, rules["loan_shark_percent"])
            nums.setdefault("bills", {})[s] = {"p": heat[s], "amount": amount, "loan_shark": shark}
            lines.append(
                f"{data.spaces[s]['name']} ({pct(heat[s])}): pay {dollars(amount)}"
                + (
                    f"; the Loan Shark would take {dollars(shark)} off your account."
                    if shark
                    else " from your wallet."
                )  # fmt: skip
            )
        return Coaching("Next roll", lines, heatmap=heat, numbers=nums, checks=[c])
    return None


def _moolah_next_roll_real(dest, seat: int) -> Callable:
    """Moolah, measured in real play: jump to ``dest``, let seeded greedy bots play on until
    the player is to roll again, then roll, taking Option Points by best exact mean as the
    coach values them; the dollars the player gains over that roll (0 if the game ends
    first)."""
    from ..bots import make_bot

    def play(game, seed: int) -> int:
        g = game.copy()
        g.rng = random.Random(seed)
        shuffle_hidden(g, g.rng)
        bots = [make_bot("greedy", seed=seed * 7 + k) for k in range(len(g.players))]
        g.apply(dest)
        for _ in range(500):
            d = g.decision
            if g.over or d is None:
                return 0
            if d.player == seat and d.tag == "turn" and "roll" in d.options:
                break
            g.apply(bots[d.player].choose(g))
        else:
            return 0
        base = worth(g, seat)
        g.apply("roll")
        while not g.over and g.decision.player == seat and g.decision.tag == "fork":
            g.apply(best_action(g, seat, follow_tags=("fork",)).action)
        return worth(g, seat) - base

    return play


def _moolah_jump(game, d) -> Coaching:
    """Moolah space: for each Moolah space, what arriving does (the engine's move, muggings
    included) and the exact expected result of a roll from there (what-if probe: the engine's
    :meth:`Moolah.probe_roll` on a copy, the outer or inner path taken by best mean)."""
    seat = d.player
    checks, lines, nums = [], [], {}
    model = ("as if you rolled now from there (the other players do not move first; cards "
             "not yet seen as they are now)")  # fmt: skip
    for m in d.options:
        arrive = _value(game, f"arrive {m}", m)
        checks.append(arrive)
        probe = what_if_copy(game)
        probe.apply(m)
        name = d.label(m)
        if probe.over:
            lines.append(f"{name}: arriving {dollars(arrive.valuation.mean)}; the game ends.")
            nums[m] = {"arrive": arrive.valuation.mean, "next_roll": None}
            continue
        probe.probe_roll(seat)
        v = value_option(probe, "roll", seat, follow_tags=("fork",))
        checks.append(Check(f"roll from {m}", (), "roll", seat, v, ("mean", "p_loss"), ("fork",),
                            base=probe, model=model))  # fmt: skip
        if m == d.options[0]:  # the model itself, measured in real play (one place a state)
            checks.append(Check(f"real roll from {m}", (), m, seat, v, ("model_mean",),
                                model=model, real_play=_moolah_next_roll_real(m, seat)))  # fmt: skip
        nums[m] = {"arrive": arrive.valuation.mean, "next_roll": v.mean}
        lines.append(
            f"{name}: arriving {dollars(arrive.valuation.mean)}; a roll from there "
            f"{dollars(v.mean)} on average, P(loss) {pct(v.probability(lambda x: x < 0))}."
        )
    lines.append(f"Model: the roll is valued {model}; before any choice you make where it lands.")
    return Coaching("Moolah: which Moolah space?", lines, numbers=nums, checks=checks)


# ===== Easy Money ==============================================================================
def _em_landing(before, after, events) -> Any:
    """Where the man stopped on this throw: his space after the throw."""
    return after.pos[before.decision.player]


def _em_through_debts(g) -> Any:
    """Easy Money, measuring a throw: a card's bill owed before the man moves is settled (the
    first way offered) so that the move is made; any other decision stops."""
    d = g.decision
    return d.options[0] if d is not None and d.tag == "debt" and g.resume == "move" else None


def _em_owned(game, seat: int, i: int):
    """A copy of ``game`` in which the engine has made ``seat`` the holder of space ``i`` by
    the pending decision (buy; the lowest bid with every other bidder passing; accept an
    offer), or ``None`` when the decision cannot lead there now (e.g. too little cash)."""
    g = what_if_copy(game)
    d = g.decision
    if d.tag == "bid":
        g.apply(d.low)
        for _ in range(4 * len(g.players)):
            if g.decision is None or g.decision.tag != "bid":
                break
            g.apply("pass" if g.decision.player != seat else g.decision.low)
    elif "buy" in d.options:
        g.apply("buy")
    elif "accept" in d.options:
        g.apply("accept")
    return g if g.owner[i] == seat else None


def _em_soon_check(game, seat: int, o: int, i: int, value: float, soon: int, model: str) -> Check:
    """A model number: expected stops of ``o`` on ``i`` in his next ``soon`` throws."""
    val = Valuation(("stops", o, i), {}, Fraction(value), Fraction(0))
    return Check(f"stops of {game.players[o]} in {soon} throws", (), None, seat, val,
                 ("model_mean",), model=model, horizon=(o, i, soon))  # fmt: skip


def _easy_money(game, d) -> Coaching | None:
    from ..analysis.easy_money import outlook

    seat, tag = d.player, d.tag
    item = game.offer.get("item") if tag == "offer_reply" and game.offer else None
    if tag in ("buy", "lone_bidder", "bid") or (item or "").startswith("space:"):
        # issue 18, section 7: what the holding would earn you (auctions, buying, offers)
        if tag == "buy":
            i = game.pos[game.current]
        elif tag == "offer_reply":
            i = int(item.split(":")[1])
        else:
            i = game.auction["space"]
        sp = game.board[i]
        owned = _em_owned(game, seat, i)
        title = {"bid": f"Auction: {sp['name']}", "offer_reply": f"Offer: {sp['name']}"}.get(
            tag, f"Buy {sp['name']}?"
        )
        if owned is None:  # the decision cannot make it yours now (cash): the odds only
            lines = [f"{sp['name']}: you cannot take it with your cash as it is."]
            nums: dict[str, Any] = {"next_throw": {}}
            for o in range(len(game.players)):
                if o != seat and o != game.bankrupt:
                    p = game.next_landing(o).get(i, Fraction(0))
                    nums["next_throw"][o] = p
                    lines.append(f"{game.players[o]} stops here on their next throw: {pct(p)}.")
            return Coaching(title, lines, numbers=nums)
        look = outlook(game, seat, i, owned)
        if tag == "bid":
            price, what = d.low, f"the lowest bid {dollars(d.low)}"
        elif tag == "offer_reply":
            price, what = game.offer["price"], f"the asking price {dollars(game.offer['price'])}"
        else:
            price, what = sp["B"], f"the price {dollars(sp['B'])}"
        model = (
            "the engine's exact one-throw landing chances from every space (two dice, the Give "
            "or Take cards left in the pack), chained throw after throw, the pack kept as it is "
            "now"
        )
        lines = [
            f"{sp['name']}{' (mortgaged)' if owned.mortgaged[i] else ''}: once yours it charges "
            f"{dollars(look.rent)} a stop and scores "
            f"{dollars(look.holding_value)} at the end (the engine's rent and score now; houses "
            "you add later not counted)."
        ]
        if tag == "bid" and game.auction["leader"] is not None:
            lines.append(f"Highest bid so far: {dollars(game.auction['high'])}.")
        checks = []
        for o, p in look.next_throw.items():
            soon = look.stops_soon[o]
            lines.append(
                f"{game.players[o]}: stops here on the next throw {pct(p)}; expected "
                f"{soon:.2f} stops in the next {look.soon} throws (model), rent "
                f"{cents(soon * look.rent)}."
            )
            checks.append(_em_soon_check(game, seat, o, i, soon, look.soon, model))
        value = look.rent_ahead + look.holding_value - price
        payback = look.payback_rounds(price)
        lines.append(
            f"Model, long run: {cents(look.per_round)} rent a round from "
            f"{len(look.next_throw)} opponent(s)"
            + (f"; {what} pays back in {payback:.0f} rounds." if payback else ".")
        )
        lines.append(
            f"Model, the rest of the game ({look.rounds_left} rounds if it runs to the turn "
            f"cap): rent {dollars(look.rent_ahead)} + score {dollars(look.holding_value)} - "
            f"{dollars(price)} = {dollars(value)} for you."
        )
        lines.append(f"Model: {model}. Games often end sooner (a bankruptcy).")
        nums = {
            "price": price, "rent": look.rent, "holding_value": look.holding_value,
            "next_throw": look.next_throw, "stops_soon": look.stops_soon,
            "per_round": look.per_round, "payback_rounds": payback,
            "rent_ahead": look.rent_ahead, "rounds_left": look.rounds_left, "value": value,
        }  # fmt: skip
        return Coaching(title, lines, numbers=nums, checks=checks)
    if tag == "turn" and "roll" in d.options:
        land = game.next_landing(seat)
        val = Valuation("roll", dict(sorted(land.items())), Fraction(0), Fraction(0))
        c = Check("landing", (), "roll", seat, val, ("each",), (), _em_landing, _em_through_debts)
        coaching = Coaching(
            "Next roll",
            ["Where this throw can land: " + _top(land, lambda s: game.board[s]["name"]) + "."],
            heatmap=land,
            numbers={"landing": land},
            checks=[c],
        )
        _em_holdings(game, d, coaching)
        return coaching
    if tag in ("offer_item", "offer_to", "offer_price") and game.offer:
        return _em_selling(game, d)
    if tag in ("post", "debt"):
        coaching = Coaching("Build, mortgage or lift?" if tag == "post" else "Raise the money")
        _em_holdings(game, d, coaching)
        if not coaching.lines and len(d.options) > 1:
            _em_sell_or_bankrupt(game, d, coaching)
        return coaching if coaching.lines else None
    return None


def _em_sell_or_bankrupt(game, d, coaching: Coaching) -> None:
    """Easy Money, when selling to another player (or going bankrupt, in a debt) is all there
    is to choose: what each holding you could offer earns you now (:func:`_em_selling` on a
    copy where you chose to offer) and, for bankruptcy, what the engine does on a copy (the
    game's end and your score, or that you leave it)."""
    seat = d.player
    if "offer" in d.options:
        h = what_if_copy(game)
        h.apply("offer")
        if h.decision is not None and h.decision.tag == "offer_item":
            sub = _em_selling(h, h.decision)
            if sub is not None:
                if d.tag == "post":
                    coaching.title = "Sell a holding?"
                coaching.lines.append("Offer a holding to another player; what each earns you:")
                coaching.lines += sub.lines
                coaching.numbers["holdings"] = sub.numbers["holdings"]
    if "bankrupt" in d.options:
        h = what_if_copy(game)
        h.apply("bankrupt")
        score = h.scores()[game.players[seat]]
        coaching.numbers["bankrupt"] = {"over": h.over, "score": score}
        coaching.lines.append(
            "Declare bankruptcy: "
            + ("the game ends, " if h.over else "you leave the game, ")
            + f"your score {dollars(score)} (the engine's, on a copy)."
        )


def _em_selling(game, d) -> Coaching | None:
    """Easy Money re-sale, the seller's side: for each holding offered (or the one chosen),
    what it earns its holder now: the engine's rent a stop and score value, and (model) the
    long-run rent a round from the holder's opponents. The engine's own numbers; the model
    is the landing chain of :mod:`moneynb.analysis.easy_money`."""
    from ..analysis.easy_money import long_run_stops, throw_matrix

    seat = d.player
    items = list(d.options) if d.tag == "offer_item" else [game.offer["item"]]
    spaces = [int(it[6:]) for it in items if isinstance(it, str) and it.startswith("space:")]
    if not spaces:
        return None
    pi = long_run_stops(throw_matrix(game))
    others = [o for o in range(len(game.players)) if o != seat and o != game.bankrupt]
    lines, rows = [], {}
    for i in spaces:
        rent, score = game.rent(i), game.holding_value(i)
        per_round = rent * float(pi[i]) * len(others)
        rows[i] = {"rent": rent, "score": score, "per_round": per_round}
        lines.append(
            f"{game.board[i]['name']}{' (mortgaged)' if game.mortgaged[i] else ''}: rent "
            f"{dollars(rent)} a stop, model {cents(per_round)} a round from your opponents; "
            f"scores {dollars(score)} at the end."
        )
    if d.tag == "offer_price":
        buyer = game.offer["buyer"]
        lines.append(
            f"{game.players[buyer]} holds {dollars(game.cash(buyer))} (the highest price)."
        )
    lines.append(
        "Model: the long-run share of your opponents' throws stopping there (the engine's "
        "one-throw chances chained, the pack as it is now) times the rent."
    )
    return Coaching("Selling: what you give up", lines, numbers={"holdings": rows})


def _em_holdings(game, d, coaching: Coaching, limit: int = 8) -> None:
    """Easy Money, the build / mortgage / lift options of ``d``: what each moves from your cash
    (the engine's own move, on a copy: an exact, checked number), the rent it adds or takes
    away (the engine's rent before and after) and, as a model, the long-run rent a round that
    makes from the opponents (:func:`moneynb.analysis.easy_money.long_run_stops`) and the
    rounds a house or a lifted mortgage takes to pay back. Adds lines, numbers and checks to
    ``coaching``; at most ``limit`` options (builds first)."""
    from ..analysis.easy_money import long_run_stops, throw_matrix

    opts = [o for o in d.options if isinstance(o, str) and o.split(":")[0] in
            ("build", "lift", "mortgage")]  # fmt: skip
    opts.sort(key=lambda o: ("build", "lift", "mortgage").index(o.split(":")[0]))
    if not opts:
        return
    seat = d.player
    pi = long_run_stops(throw_matrix(game))
    opponents = [o for o in range(len(game.players)) if o != seat and o != game.bankrupt]
    rows = {}
    for o in opts[:limit]:
        i = int(o.split(":")[1])
        outs = chance_outcomes(game, o)  # no chance in it: one outcome, the engine's own move
        after = outs[0].game
        base = worth(game, seat)
        dist: dict = {}
        for out in outs:
            v = worth(out.game, seat) - base
            dist[v] = dist.get(v, Fraction(0)) + out.probability
        c = Check(str(d.label(o)), (), o, seat, _valuation(o, dist))
        cash = c.valuation.mean  # dollars your cash changes by (negative: you pay)
        extra = (after.rent(i) - game.rent(i)) * float(pi[i]) * len(opponents)
        payback = float(-cash) / extra if extra > 0 and cash < 0 else None
        rows[o] = {"cash": cash, "rent_before": game.rent(i), "rent_after": after.rent(i),
                   "per_round": extra, "payback_rounds": payback}  # fmt: skip
        text = (
            f"{d.label(o)}: cash {dollars(cash)}, rent {dollars(game.rent(i))} -> "
            f"{dollars(after.rent(i))}, model {cents(extra)} a round"
        )
        coaching.lines.append(text + (f", pays back in {payback:.0f} rounds." if payback else "."))
        coaching.checks.append(c)
    coaching.numbers["holdings"] = rows
    coaching.lines.append(
        "Model: the rent a round is the long-run share of the opponents' throws stopping there "
        "(the engine's one-throw chances chained, the pack as it is now) times the rent change."
    )


# ===== Money Card ==============================================================================
def _mc_keys(seat: int) -> Callable:
    """Measure: keys ``seat`` gained (``(before, after, events) -> int``)."""
    return lambda before, after, events: len(after.keys[seat]) - len(before.keys[seat])


def _mc_key_in_reach(seat: int, wanted: frozenset) -> Callable:
    """Measure after a spin: 1 if the move it offers can land on a Key City in ``wanted``."""

    def measure(before, after, events) -> int:
        d = after.decision
        return int(d is not None and d.tag == "move" and bool(wanted & set(d.options)))

    return measure


def _mc_next_spin_real(dest, seat: int, wanted: frozenset) -> Callable:
    """Money Card, measured in real play: go to ``dest``, let seeded greedy bots play on
    (the player included) until the player's next spin asks where to land; 1 if that move can
    land on a Key City in ``wanted``, else 0 (also when the game ends first or the next move
    does not come from a spin)."""
    from ..bots import make_bot

    def play(game, seed: int) -> int:
        g = game.copy()
        g.rng = random.Random(seed)
        shuffle_hidden(g, g.rng)
        bots = [make_bot("greedy", seed=seed * 7 + k) for k in range(len(g.players))]
        spun = False
        events = g.apply(dest)
        for _ in range(500):
            spun = spun or any(
                e.kind == "spun" and e.data.get("seat") == seat and "bet" not in e.data
                for e in events
            )  # not Monte Carlo's
            d = g.decision
            if g.over or d is None:
                return 0
            if spun and d.player == seat and d.tag == "move":
                return int(bool(wanted & set(d.options)))
            events = g.apply(bots[d.player].choose(g))
        return 0

    return play


#: Money Card: destinations whose next spin the Coach looks at (the best on arrival first)
MC_SHOWN = 8


def _mc_destinations(game, d, title: str) -> Coaching:
    """Money Card, where to go (a spin's landing, an Express Port flight, Join Another
    Tourist): for each option, from the engine's outcomes of the move itself, the cheques and
    keys it brings on arrival (exact); and, for the best :data:`MC_SHOWN` of them (most keys,
    then most cheques), from a what-if probe (:meth:`MoneyCard.probe_spin`: your plane there,
    spinning now), the chance that the next spin can land on a Key City whose key you lack
    (model: the other planes do not move first)."""
    seat = d.player
    base_money = worth(game, seat)
    keys = _mc_keys(seat)
    wanted = frozenset(game.keys_wanted(seat))
    model = "as if your plane stood there and you spun now (the other planes do not move first)"
    checks, nums = [], {}
    for o in d.options:
        money: dict = {}
        got: dict = {}
        for out in chance_outcomes(game, o):
            v = worth(out.game, seat) - base_money
            money[v] = money.get(v, Fraction(0)) + out.probability
            k = keys(game, out.game, out.events)
            got[k] = got.get(k, Fraction(0)) + out.probability
        vm, vk = _valuation(o, money), _valuation(o, got)
        checks.append(Check(f"to {o}", (), o, seat, vm))
        checks.append(Check(f"keys at {o}", (), o, seat, vk, ("mean",), measure=keys))
        nums[o] = {"money": vm.mean, "keys": vk.mean, "next_spin_key": None}
    ranked = sorted(d.options, key=lambda o: (-nums[o]["keys"], -nums[o]["money"]))
    lines = []
    for o in ranked[:MC_SHOWN]:
        row = nums[o]
        space = o[4:] if o.startswith("fly:") else game.pos[seat] if o == "stay" else o
        if space in game.board.spaces and not game.over:
            probe = what_if_copy(game)
            probe.probe_spin(seat, space)
            reach = _mc_key_in_reach(seat, wanted)
            dist: dict = {}
            for out in chance_outcomes(probe, "spin", branch_draws=1):
                r = reach(probe, out.game, out.events)
                dist[r] = dist.get(r, Fraction(0)) + out.probability
            vr = _valuation("spin", dist)
            checks.append(Check(f"next spin from {o}", (), "spin", seat, vr, ("mean",),
                                measure=reach, base=probe, model=model))  # fmt: skip
            if o == ranked[0]:  # the model itself, measured in real play (the best place)
                checks.append(Check(f"real next spin from {o}", (), o, seat, vr,
                                    ("model_mean",), model=model,
                                    real_play=_mc_next_spin_real(o, seat, wanted)))  # fmt: skip
            row["next_spin_key"] = vr.mean
        text = f"{d.label(o)}: on arrival {cents(row['money'])}"
        if row["keys"]:
            text += f", keys {float(row['keys']):.2f}"
        if row["next_spin_key"] is not None:
            text += f"; next spin reaches a key you lack {pct(row['next_spin_key'])}"
        lines.append(text + ".")
    rest = ranked[MC_SHOWN:]
    if rest:
        lo = min(nums[o]["money"] for o in rest)
        hi = max(nums[o]["money"] for o in rest)
        lines.append(f"{len(rest)} more places: no key on arrival, {cents(lo)} to {cents(hi)}."
                     if not any(nums[o]["keys"] for o in rest) else
                     f"{len(rest)} more places: on arrival {cents(lo)} to {cents(hi)}.")  # fmt: skip
    lines.append(f"Before any choice you make there. Model for the next spin: {model}.")
    return Coaching(title, lines, numbers=nums, checks=checks)


def _mc_net(seat: int) -> Callable:
    """Measure: ``seat``'s cheques less what it still owes in an open debt, change against
    before (``(before, after, events) -> int``; dollars)."""

    def net(g) -> int:
        owed = sum(o[1] for o in g.debt["owed"]) if g.debt and g.debt["payer"] == seat else 0
        return g.cash(seat) - owed

    return lambda before, after, events: net(after) - net(before)


def _mc_one_spin(bet: int, color: str) -> Callable:
    """Money Card, Monte Carlo in a debt played once: bet ``bet`` on ``color`` (``play_on``
    for :func:`chance_outcomes`); the play ends at the next decision after the spin (bet
    again or stop, after a win)."""

    def play_on(g) -> Any:
        d = g.decision
        if d is None or g.monte is None or g.monte["wins"]:
            return None
        if d.tag == "bet":
            return bet
        return color if d.tag == "color" else None

    return play_on


def _mc_debt(game, d) -> Coaching:
    """Money Card, raising the money for a debt (rulebook: Payment of Debts): each way, played
    by the engine on copies. A key turned in: the cheques it brings and what you still owe
    after (exact: no chance in it) and the keys you keep. Monte Carlo first: one spin at the
    smallest and the largest bet on each colour: the chance of a win and the expected change
    of your cheques less what you owe when the game next waits on a decision (exact over the
    spinner and any card after it); a loss adds the bet to the debt."""
    seat = d.player
    net = _mc_net(seat)
    owed = sum(o[1] for o in game.debt["owed"])
    lines = [f"You owe {dollars(owed)} and hold {dollars(game.cash(seat))} in cheques."]
    checks, nums = [], {}
    for o in d.options:
        if o == "monte_carlo":
            h = what_if_copy(game)
            h.apply(o)
            bd = h.decision
            if bd is None or bd.tag != "bet":
                continue
            for bet in dict.fromkeys((bd.low, bd.high)):
                for color in ("red", "black"):
                    play = _mc_one_spin(bet, color)
                    dist: dict = {}
                    for out in chance_outcomes(game, o, play_on=play):
                        v = net(game, out.game, out.events)
                        dist[v] = dist.get(v, Fraction(0)) + out.probability
                    c = Check(f"Monte Carlo ${bet} on {color}", (), o, seat,
                              _valuation(o, dist), ("mean", "p_gain"), measure=net,
                              play_on=play)  # fmt: skip
                    checks.append(c)
                    nums[("monte_carlo", bet, color)] = c.valuation.mean
                    lines.append(
                        f"Monte Carlo, one ${bet} spin on {color}: P(win) "
                        f"{pct(c.valuation.probability(lambda v: v > 0))}, expected "
                        f"{cents(c.valuation.mean)} on what you can pay right after it (a loss "
                        f"adds ${bet} to the debt)."
                    )
            continue
        h = what_if_copy(game)
        h.apply(o)  # the key and what is still owed come before any chance
        still = sum(x[1] for x in h.debt["owed"]) if h.debt and h.debt["payer"] == seat else 0
        dist = {}
        for out in chance_outcomes(game, o):  # a card drawn after the debt is paid, if any
            v = net(game, out.game, out.events)
            dist[v] = dist.get(v, Fraction(0)) + out.probability
        c = Check(str(d.label(o)), (), o, seat, _valuation(o, dist), ("mean",), measure=net)
        checks.append(c)
        gain = c.valuation.mean
        nums[o] = {"net": gain, "still_owed": still, "keys_after": len(h.keys[seat])}
        lines.append(
            f"{d.label(o)}: {cents(gain)} on what you can pay when the game next waits; "
            + (f"you still owe {dollars(still)}" if still else "the debt is paid")
            + f"; you keep {len(h.keys[seat])} key(s)."
        )
    lines.append("Counted as the game plays it: a key turned in goes back to its city.")
    return Coaching("Raise the money", lines, numbers=nums, checks=checks)


def _mc_keys_by_move(game, seat: int) -> tuple[int, list]:
    """Money Card, at a pending move of ``seat``: the most keys one destination brings on
    arrival (the engine's own move to each, on copies; keys passed on bonus moves count), and
    the cities of those keys."""
    best, cities = 0, []
    for dest in game.decision.options:
        h = what_if_copy(game)
        h.apply(dest)
        got = [k for k in h.keys[seat] if k not in game.keys[seat]]
        if len(got) > best:
            best, cities = len(got), got
    return best, cities


def _mc_phrases(game, d) -> Coaching:
    """Money Card, Bonus Moves: spin now or form a phrase (and take its bonus moves first).
    Spin: the exact chance (the engine's spinner) that the spin can land on a Key City whose
    key you lack. A phrase or the bonus: the bonus moves the engine gives (the phrases formed
    so far) and the most keys one destination of them brings (the engine's own moves on
    copies); your spin follows as usual and the phrase cards go back."""
    seat = d.player
    wanted = frozenset(game.keys_wanted(seat))
    reach = _mc_key_in_reach(seat, wanted)
    lines, checks, nums = [], [], {}
    for o in d.options:
        if o == "spin":
            dist: dict = {}
            for out in chance_outcomes(game, "spin", branch_draws=1):
                r = reach(game, out.game, out.events)
                dist[r] = dist.get(r, Fraction(0)) + out.probability
            c = Check("spin reaches a key", (), "spin", seat, _valuation("spin", dist),
                      ("mean",), measure=reach)  # fmt: skip
            checks.append(c)
            nums["spin"] = {"key_in_reach": c.valuation.mean}
            lines.append(
                f"Spin now (keep your phrase cards): it can land on a key you lack "
                f"{pct(c.valuation.mean)}."
            )
            continue
        h = what_if_copy(game)
        pre = () if o == "bonus" else (o,)
        for a in pre:
            h.apply(a)
        moves = next(e.data["moves"] for e in h.apply("bonus") if e.kind == "bonus")
        if h.decision is None or h.decision.tag != "move":
            nums[o] = {"moves": moves, "keys": 0}
            lines.append(f"{d.label(o)}: {moves} bonus moves now.")
            continue
        keys, cities = _mc_keys_by_move(h, seat)
        nums[o] = {"moves": moves, "keys": keys, "cities": cities}
        lines.append(
            f"{d.label(o)}: {moves} bonus moves now, then your spin; "
            + (
                f"they can bring {keys} key(s) ({', '.join(game.board.name(k) for k in cities)})"
                if keys
                else "they bring no key on arrival"
            )  # fmt: skip
            + "; the phrase cards go back."
        )
    return Coaching("Spin or form a phrase?", lines, numbers=nums, checks=checks)


def _money_card(game, d) -> Coaching | None:
    if d.tag == "debt":  # issue 18, section 7
        return _mc_debt(game, d)
    if d.tag == "turn" and len(d.options) > 1:  # a phrase to form, or bonus moves to take
        return _mc_phrases(game, d)
    if d.tag == "move":  # issue 18, section 7: where to land, and where the next spin can land
        return _mc_destinations(game, d, "Where to land?")
    if d.tag in ("express", "join"):
        return _mc_destinations(game, d, "Where to go?")
    if d.tag == "charge":
        return _each_option(game, d, "Charge It or pay?", fmt=cents,
                            note="Counted as the game plays it: what leaves your cheques now.")  # fmt: skip
    if d.tag == "color":
        checks = [_value(game, f"{c} ${game.monte['bet']}", c, shows=("mean", "p_gain"))
                  for c in ("red", "black")]  # fmt: skip
    elif d.tag == "bet":
        checks = [
            _value(game, f"bet ${b}", b, follow=("color",)) for b in dict.fromkeys((d.low, d.high))
        ]
    else:
        return None
    lines = []
    for c in checks:
        p = c.valuation.probability(lambda v: v > 0)
        what = f"${game.monte['bet']} on {c.action}" if d.tag == "color" else f"${c.action}"
        extra = "" if d.tag == "color" else " (on the better colour)"
        lines.append(f"{what}{extra}: P(win) {pct(p)}, expected result {cents(c.valuation.mean)}.")
    if game.monte and game.monte.get("wins"):
        lines.append("Spins do not remember: the next one is worth the same as the first.")
    return Coaching("Monte Carlo", lines, numbers={c.name: c.valuation.mean for c in checks},
                    checks=checks)  # fmt: skip


# ===== Money Moves =============================================================================
_MM_FOLLOW = ("pick_player", "wild_card")


def _leaves(game, action, seat: int, follow: tuple):
    """``(probability, game after)`` for every way ``action`` can turn out (the engine's
    :func:`chance_outcomes`), ``seat``'s follow-up decisions in ``follow`` taken as
    :func:`value_option` takes them (the best mean of dollars gained, :func:`best_action`), so
    any measure of the leaves matches the valuation's."""
    for o in chance_outcomes(game, action):
        g, d = o.game, o.game.decision
        if d is not None and not g.over and d.player == seat and d.tag in follow:
            best = best_action(g, seat, follow_tags=follow).action
            for p, after in _leaves(g, best, seat, follow):
                yield o.probability * p, after
        else:
            yield o.probability, g


def _mm_borrow(game, d) -> Coaching:
    """Money Moves, a House Bank loan (section 10): for leaving and for the smallest and the
    largest loan, the engine's own numbers on a copy: your score after (``scores()``: the
    loan counts against it when ``score="net"``), what the engine's repayment (``_repay``)
    takes back from each amount the money die can bring you, and, exactly over the engine's
    outcomes of the next roll (whoever rolls it), your chance of losing money on it and of
    being at $0 again after it (needing the loan again), for the largest loan."""
    from ..games.money_moves.rules import HOUSE_BANK

    seat = d.player
    name = game.players[seat]
    faces = sorted(set(game.money_die.faces))
    lines = [
        f"You hold $0 and owe the House Bank {dollars(game.loans[seat])}; your score now "
        f"{dollars(game.scores()[name])}."
    ]
    nums: dict[str, Any] = {"score_now": game.scores()[name]}
    checks = []
    for a in ("leave", *dict.fromkeys((d.low, d.high))):
        h = what_if_copy(game)
        h.apply(a)
        row: dict[str, Any] = {"score": h.scores()[name]}
        nums[a] = row
        if a == "leave":
            lines.append(f"Leave: you are out of the game from now; score {dollars(row['score'])}.")
            continue
        repay = {}
        for m in faces:  # the engine's repayment of a receipt of $m, on a what-if copy
            r = what_if_copy(h)
            before = r.loans[seat]
            r.transfer(HOUSE_BANK, r.wallet(seat), m, "what-if receipt")
            r._repay(seat, m)
            repay[m] = before - r.loans[seat]
        row["repay"] = repay
        text = (
            f"Borrow {dollars(a)}: you owe {dollars(h.loans[seat])}, score "
            f"{dollars(row['score'])}; from money you receive next the House Bank takes back "
            + ", ".join(f"{dollars(repay[m])} of {dollars(m)}" for m in faces)
        )
        nd = h.decision
        if a == d.high and nd is not None and not h.over and nd.tag == "roll":
            base = worth(h, seat)
            money: dict = {}
            broke: dict = {}
            for p, after in _leaves(h, "roll", seat, _MM_FOLLOW):
                v, b = worth(after, seat) - base, int(after.cash(seat) == 0)
                money[v] = money.get(v, Fraction(0)) + p
                broke[b] = broke.get(b, Fraction(0)) + p
            c = Check(f"next roll after borrowing {dollars(a)}", (a,), "roll", seat,
                      _valuation("roll", money), ("mean", "p_loss"), _MM_FOLLOW)  # fmt: skip
            cb = Check(f"at $0 after the next roll, borrowing {dollars(a)}", (a,), "roll", seat,
                       _valuation("roll", broke), ("mean",), _MM_FOLLOW,
                       measure=lambda before, after, events, s=seat: int(after.cash(s) == 0))  # fmt: skip
            checks += [c, cb]
            row["p_loss_next_roll"] = c.valuation.probability(lambda v: v < 0)
            row["p_broke_after"] = cb.valuation.mean
            row["next_roll"] = c.valuation.mean
            text += (
                f". The next roll ({game.players[nd.player]} rolls): you lose money "
                f"{pct(row['p_loss_next_roll'])}, are back at $0 {pct(row['p_broke_after'])}"
            )
        lines.append(text + ".")
    lines.append(
        "Counted as the game plays it (its loan, repayment and score rules, the cards not yet "
        "drawn); a loan keeps you in the game for the pot."
    )
    return Coaching("House Bank: borrow or leave?", lines, numbers=nums, checks=checks)


def _money_moves(game, d) -> Coaching | None:
    from ..games.money_moves.rules import POT

    if d.tag == "borrow":  # issue 18, section 7
        return _mm_borrow(game, d)
    if d.tag == "pick_player":  # issue 18, section 7
        return _each_option(game, d, "Pick a Pocket: from whom?", fmt=cents,
                            note="Counted as the game plays it: what each player can pay.")  # fmt: skip
    if d.tag == "wild_card":
        return _each_option(game, d, "Wild Card: play it now?", fmt=cents,
                            note="This turn only: a card kept may spare you a bigger loss later.")  # fmt: skip
    if d.tag != "roll":
        return None
    c = _value(game, "roll", "roll", follow=_MM_FOLLOW, shows=("mean", "p_loss"))
    return Coaching(
        "This roll",
        [
            f"Pot {dollars(game.ledger[POT])}, {len(game.players)} players.",
            f"Your expected gain this turn: {cents(c.valuation.mean)} "
            f"(P(you lose money) {pct(c.valuation.probability(lambda v: v < 0))}), counting "
            "the cards not yet drawn and what everyone can pay.",
        ],
        numbers={"roller": c.valuation.mean},
        checks=[c],
    )


# ===== Money Run ===============================================================================
def money_run_reach(game, seat: int, moves: int) -> set[tuple[int, int]]:
    """Squares ``seat``'s pawn can reach with ``moves`` pawn actions on the board as it is now
    (coins not moved): repeated :meth:`MoneyRun.pawn_paths` from each square reached."""
    g = game.copy()  # Money Run copies fast: its log is short
    start = g.pawns[seat]
    frontier, seen = {start}, set()
    for _ in range(moves):
        nxt = set()
        for sq in frontier:
            g.pawns[seat] = sq
            for dest in g.pawn_paths(seat):
                if dest not in seen and dest != start:
                    seen.add(dest)
                    nxt.add(dest)
        frontier = {s for s in nxt if not g.on_goal(seat, s)}
    return {g.xy(s) for s in seen}


def _mr_drawn(before, after, events) -> Any:
    """The rank of the coin drawn from the bag onto the table (None: the bag was empty)."""
    return next((e.data["rank"] for e in events if e.kind == "drew"), None)


def _mr_best(game, seat: int, moves: int) -> int:
    """Fewest squares from the goal ``seat``'s pawn can get to with ``moves`` pawn actions on
    the board as it is (its own square included): the engine's ``distance`` over
    :func:`money_run_reach`."""
    reach = money_run_reach(game, seat, moves) if moves else set()
    return min([game.distance(seat)] + [game.distance(seat, game.sq(*xy)) for xy in reach])


def _mr_place(game, d) -> Coaching:
    """Money Run, where the picked coin goes: for each square, the engine's board after the
    coin is put there (``apply`` on a copy): how close to your goal your pawn can then get with
    the actions left this turn, and how close each opponent can get with a two-action turn on
    that board (coins as they then stand). Best three squares for you, and the numbers of every
    square in ``numbers``."""
    seat = d.player
    others = [s for s in range(len(game.players)) if s != seat]
    rows = {}
    for o in d.options:
        h = game.copy()  # Money Run copies fast: its log is short
        h.apply(o)
        left = h.actions_left if h.decision is not None and h.decision.player == seat else 0
        rows[o] = {
            "you": _mr_best(h, seat, left) if not h.over else 0,
            "opponents": {s: _mr_best(h, s, 2) for s in others} if not h.over else {},
        }
    now = game.distance(seat)

    def rank(o):
        r = rows[o]
        return (r["you"], -min(r["opponents"].values(), default=0), str(o))

    best = sorted(rows, key=rank)[:3]
    lines = [f"Your pawn is {now} from the goal now."]
    for o in best:
        r = rows[o]
        opp = ", ".join(f"{game.players[s]} {v}" for s, v in r["opponents"].items())
        lines.append(f"Square {o}: you can get to {r['you']} from the goal this turn; "
                     f"next turn best of {opp}.")  # fmt: skip
    lines.append("Counted on the engine's board after the coin is placed (coins as they then "
                 "stand; the others' coin moves before yours are not foreseen).")  # fmt: skip
    return Coaching("Where does the coin go?", lines, numbers={"squares": rows})


def _money_run(game, d) -> Coaching | None:
    if d.tag in ("place", "move_coin"):  # issue 18, section 7
        return _mr_place(game, d)
    if d.tag != "action":
        return None
    moves = game.actions_left
    heat: dict = {}
    lines, nums, checks = [], {}, []
    for seat, name in enumerate(game.players):
        n_moves = moves if seat == d.player else 2
        reach = money_run_reach(game, seat, n_moves)
        nums[name] = reach
        best = min((game.distance(seat, game.sq(*xy)) for xy in reach), default=None)
        lines.append(
            f"{name}: {len(reach)} squares within {n_moves} pawn move(s)"
            + (f", best {best} from the goal (now {game.distance(seat)})." if reach else ".")
        )
        if seat == d.player:
            heat.update({xy: 1.0 for xy in reach})
    if game.bag and ("place", 0) in d.options:
        g = game.copy()
        g.apply(("place", 0))
        target = g.decision.options[0]
        c = _value(game, "refill", target, pre=(("place", 0),), shows=("each",),
                   measure=lambda g2, ev: _mr_drawn(None, g2, ev))  # fmt: skip
        c.measure = _mr_drawn
        dist = c.valuation.distribution
        nums["refill"] = dist
        checks.append(c)
        lines.append(
            "Placing a table coin refills the table from the bag: "
            + ", ".join(f"{game.coin_names[r]} {pct(p)}" for r, p in dist.items() if r is not None)
            + "."
        )
    return Coaching("Where the pawns can reach this turn", lines, heatmap=heat, numbers=nums,
                    checks=checks)  # fmt: skip


_COACHES = {
    "moolah": _moolah,
    "easy_money": _easy_money,
    "money_card": _money_card,
    "money_moves": _money_moves,
    "money_run": _money_run,
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
