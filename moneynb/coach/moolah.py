"""The Coach at Moolah's decisions (see :mod:`moneynb.coach`).

Source: reconstruction; issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..core.errors import IllegalAction
from ..core.outcomes import (
    best_action,
    shuffle_hidden,
    value_option,
    what_if_copy,
    worth,
)
from .rollouts import deferred
from .valuation import Check, Coaching, each_option, landing_check, risk_line, value_check
from .wording import cents, chance, dollars, pct, top


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


def coach_decision(game, d) -> Coaching | None:
    from ..analysis.moolah import loan_shark_cost

    seat, tag, data = d.player, d.tag, game.data
    cash = game.cash(seat)
    rules = data.rules
    if tag == "casino_raise":
        bet, high = game.ctx["bet"], d.high
        stay = value_check(game, "stay", "stay")
        up = value_check(game, f"raise to {dollars(high)}", high)
        p = stay.valuation.probability(lambda v: v > 0)
        best = "raise" if up.valuation.mean > stay.valuation.mean else "stay"
        coaching = Coaching(
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
        return coaching.recommend(
            {"stay": stay.valuation.mean, high: up.valuation.mean},
            {"stay": d.label("stay"), high: f"Raise to {dollars(high)}"},
            why=[
                f"Your card {game.ctx['card']} beats the House card: {chance(p)} "
                "(from the cards not yet seen).",
                f"Raising puts {dollars(high)} at stake instead of {dollars(bet)}.",
            ],
        )
    if tag == "casino_bet":
        checks = [
            value_check(game, f"bet {dollars(b)}", b, follow=("casino_raise",))
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
        coaching = Coaching("Black Jack: bet or pass?", lines,
                            numbers={c.action: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
        values = {c.action: c.valuation.mean for c in checks}
        labels = {c.action: f"Bet {dollars(c.action)}" for c in checks}
        if "pass" in d.options:
            values["pass"], labels["pass"] = Fraction(0), "Pass"
        per = checks[0].valuation.mean * 1000 / checks[0].action
        top_bet = max(checks, key=lambda c: c.valuation.mean)
        why = [
            f"On average each $1,000 you bet {'wins' if per > 0 else 'loses'} about "
            f"{cents(abs(per))}.",
            risk_line(labels[top_bet.action], top_bet.valuation),
            "Passing costs nothing.",
        ]
        return coaching.recommend(values, labels, why=why)
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
                    c = value_check(
                        game, f"{s} {dollars(low)}", low, pre=(s,), shows=("mean", "p_loss")
                    )
                except IllegalAction:  # the wallet cannot cover the smallest investment
                    return None
                checks.append(c)
        else:
            s = game.ctx["stock"]
            for a in dict.fromkeys((d.low, d.high)):
                checks.append(value_check(game, f"{s} {dollars(a)}", a, shows=("mean", "p_loss")))
        for c in checks:
            stock = c.pre[0] if c.pre else game.ctx["stock"]
            lines.append(
                f"{stock.capitalize()}, {dollars(c.action)}: expected result "
                f"{dollars(c.valuation.mean)}, P(loss) "
                f"{pct(c.valuation.probability(lambda v: v < 0))} (cards not yet seen; "
                "gains rounded up and losses down to the bill)."
            )
        coaching = Coaching("Wall Street: which stock, how much?", lines,
                            numbers={c.name: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
        if tag == "wall_street":
            values = {c.pre[0]: c.valuation.mean for c in checks}
            labels = {c.pre[0]: f"{d.label(c.pre[0])} ({dollars(c.action)} at least)"
                      for c in checks}  # fmt: skip
            risky = {c.pre[0]: c for c in checks}
        else:
            values = {c.action: c.valuation.mean for c in checks}
            labels = {c.action: f"Invest {dollars(c.action)}" for c in checks}
            risky = {c.action: c for c in checks}
        if "pass" in d.options:
            values["pass"], labels["pass"] = Fraction(0), "Pass"
        why = [risk_line(labels[o], c.valuation) for o, c in risky.items()]
        if all(v < 0 for o, v in values.items() if o != "pass"):
            why.insert(0, "Every choice here loses money on average with the cards not yet seen.")
        return coaching.recommend(values, labels, why=why)
    if tag == "gamble":
        c = value_check(game, "accept", "accept", shows=("mean", "p_gain"))
        p = c.valuation.probability(lambda v: v > 0)
        card = data.cards[game.ctx["card_id"]]
        shark = loan_shark_cost(card["amount"], cash, rules["loan_shark_percent"])
        lines = [f"P(win) = {pct(p)}: expected result {dollars(c.valuation.mean)}; declining: $0."]
        if shark:
            lines.append(
                f"Your wallet holds {dollars(cash)}: losing would cost {dollars(shark)} off your "
                f"account via the Loan Shark."
            )
        coaching = Coaching("Temptation: take the chance?", lines,
                            numbers={"p_win": p, "ev": c.valuation.mean, "loan_shark": shark},
                            checks=[c])  # fmt: skip
        why = [f"Chance of winning: {chance(p)}."]
        if shark:
            why.append(f"Losing with {dollars(cash)} in your wallet costs {dollars(shark)} extra "
                       "to the Loan Shark.")  # fmt: skip
        values = {"accept": c.valuation.mean, "decline": Fraction(0)}
        return coaching.recommend(values, {o: d.label(o) for o in values}, why=why)
    if tag == "fork":  # issue 18, section 7: where each path ends and what it does to you
        checks, lines, why = [], [], []
        for o in d.options:
            probe = what_if_copy(game)
            probe.rng = random.Random(0)  # only the deterministic move is read from this copy
            end = _moolah_landing(game, probe, probe.apply(o))
            c = value_check(game, f"path {o}", o, follow=("fork",))
            checks.append(c)
            where = data.spaces[end]["name"] if end is not None else "further on"
            lines.append(
                f"{d.label(o)}: ends on {where}; expected result {dollars(c.valuation.mean)} "
                "(before any choice you make there)."
            )
            why.append(f"{d.label(o)} ends on {where}.")
        coaching = Coaching("Option Point: which path?", lines,
                            numbers={c.action: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
        return coaching.recommend(coaching.numbers, {o: d.label(o) for o in d.options}, why=why)
    if tag == "moolah":  # issue 18, section 7: which Moolah space to roll on from
        return _moolah_jump(game, d)
    if tag == "take_pal":  # issue 18, section 7
        return each_option(
            game, d, "Take A Pal: who comes to the Casino?",
            note="Counted as the game plays it: the mugging at the Casino shared, then you and "
            "your pal each bet all your cash on one Black Jack card from the cards not yet seen.",
            branch_draws=2,  # your card and the House's: exact for you (your pal's draws follow)
        )  # fmt: skip
    if tag == "advantage_target":
        return each_option(game, d, "Advantage card: where to?",
                            note="Each: the space's result for you (before any choice you make "
                            "there).")  # fmt: skip
    if tag == "after":
        return each_option(game, d, "Play an Advantage card?", follow=("advantage_target",),
                            note="A card is valued at its best target (before any choice you "
                            "make there).")  # fmt: skip
    if tag in ("bank", "bank_amount", "first_withdrawal"):
        bill = 50_000
        shark = loan_shark_cost(cash + bill, cash, rules["loan_shark_percent"])
        coaching = Coaching(
            "Bank: how much cash to carry?",
            lines=[
                f"Wallet {dollars(cash)}, account {dollars(game.balance(seat))}.",
                f"A bill {dollars(bill)} bigger than your wallet costs {dollars(shark)} via the "
                f"Loan Shark ({rules['loan_shark_percent']}% at once); borrowing on the Line of "
                "Credit at the Bank costs no interest.",
                "Cash in the wallet can be mugged.",
            ],
            numbers={"loan_shark": shark, "bill": bill},
        )
        return coaching.defer(deferred(_bank_ranked, game, shark))
    if tag == "turn" and not game.missed[seat]:
        c = landing_check(game, _outer_path, _moolah_landing, 2)
        heat = {s: p for s, p in c.valuation.distribution.items() if s is not None}
        lines = [
            "Where this roll can land (outer path at Option Points): "
            + top(heat, lambda s: data.spaces[s]["name"])
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
        likely = max(heat, key=lambda s: (heat[s], s))
        why = [
            f"{data.spaces[s]['name']}: pay {dollars(b['amount'])} (chance {chance(b['p'])})"
            + (f", {dollars(b['loan_shark'])} more to the Loan Shark." if b["loan_shark"] else ".")
            for s, b in nums.get("bills", {}).items()
        ]
        coaching = Coaching(
            "Next roll", lines, heatmap=heat, numbers=nums, checks=[c],
            headline=f"Most likely stop: {data.spaces[likely]['name']} "
            f"(chance {chance(heat[likely])}).", why=why[:3],
        )  # fmt: skip
        if len(d.options) > 1:  # roll, or play an Advantage card first: ranked by play-outs
            return coaching.defer(deferred(_turn_ranked, game))
        return coaching
    return None


def _played_out(game, coaching: Coaching, moves: dict, labels: dict, turns: int, how: str):
    """Moolah's play-outs: ``moves`` (``{key: (action, ...)}``) played out to the decider's
    ``turns``-th turn from now (:func:`~moneynb.coach.rollouts.play_outs`, at most
    :data:`BANK_BUDGET` engine actions), measured in dollars held; a line per move (best
    first) and one saying how (``how`` ends it). Returns the
    :class:`~moneynb.coach.rollouts.PlayOuts`."""
    from .rollouts import describe, play_outs

    po = play_outs(game, moves, turns=turns, budget=BANK_BUDGET)
    describe(coaching, po, labels, "{label}: {value} for you on average by your "
             f"{turns}rd turn from now.", f"your {turns}rd turn from now", how, fmt=dollars)  # fmt: skip
    return po


#: Moolah's turn with an Advantage card in hand: the deciding player's turns the play-outs run
#: to (a card kept for later is worth what it does on a later turn)
TURN_TURNS = 3


def _turn_ranked(game, d, coaching: Coaching) -> Coaching:
    """Moolah's turn when an Advantage card may be played before the roll: roll now, or play
    each card (its target then chosen as the game's greedy bot would), each played out to the
    player's :data:`TURN_TURNS`-th turn from now by seeded greedy bots on resampled copies
    (:func:`~moneynb.coach.rollouts.play_outs`), measured in dollars held (wallet and
    account). Source: reconstruction (the rulebook has no coach)."""
    from .rollouts import rank

    moves = {o: (o,) for o in d.options}
    labels = {o: d.label(o) for o in d.options}
    po = _played_out(game, coaching, moves, labels, TURN_TURNS,
                     " (a card kept is played when they would).")  # fmt: skip
    why = ["An Advantage card takes you to a space you choose instead of where the dice send "
           "you; once played it is gone.",
           *coaching.why[:2]]  # fmt: skip
    return rank(coaching, po, labels, fmt=dollars, why=why)


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
        arrive = value_check(game, f"arrive {m}", m)
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
    coaching = Coaching("Moolah: which Moolah space?", lines, numbers=nums, checks=checks)
    values = {m: r["arrive"] + (r["next_roll"] or 0) for m, r in nums.items()}
    best = max(values, key=lambda m: values[m])
    row = nums[best]
    why = [f"Arriving there: {dollars(row['arrive'])} for you."]
    if row["next_roll"] is not None:
        why.append(f"Your next roll from there: about {dollars(row['next_roll'])} on average "
                   "(if the others did not move first).")  # fmt: skip
    return coaching.recommend(
        values, {m: d.label(m) for m in d.options}, why=why,
        more="more for you on average (arriving and your next roll)",
        measure="dollars for you on average, arriving and your next roll",
    )  # fmt: skip


#: Moolah's Bank: the deciding player's turns the play-outs run to (what cash in the wallet
#: risks, muggings and Loan Shark bills, comes on their own turns)
BANK_TURNS = 3
#: Moolah's Bank: most engine actions the play-outs of one decision may take. Spent in full
#: only while the verdict is open (:data:`~moneynb.coach.rollouts.SETTLED`): 4,000 left the
#: first withdrawal's verdict to the draw (two players: "did better" on 8 of 20 of the Coach's
#: seeds, 10 of 20 with settling alone); 16,000 gives one verdict on 20 of 20 for two and three
#: players, 0.12-0.25 s CPU median, 0.5 s at most on a loaded 2-core machine
#: (``benchmarks/bench_coach_verdicts.py`` prints the figures; docs/speed.md)
BANK_BUDGET = 16_000


def _bank_ranked(game, d, coaching: Coaching, shark: int) -> Coaching:
    """Moolah's Bank (the first withdrawal, deposit / withdraw / done, and the amount): each
    choice, at the engine's own limits and steps (:func:`~moneynb.coach.rollouts.amounts`),
    played out to the player's :data:`BANK_TURNS`-th turn from now by seeded greedy bots on
    resampled copies (:func:`~moneynb.coach.rollouts.play_outs`), measured in dollars held
    (wallet and account: muggings and Loan Shark bills counted as the engine plays them)."""
    from .rollouts import amounts, rank

    if d.tag == "bank":
        moves, labels = {("done",): ("done",)}, {("done",): "Done"}
        for mode in (o for o in d.options if o != "done"):
            h = what_if_copy(game)
            h.apply(mode)  # the engine's own amount decision: its limits and step
            for a in amounts(h.decision):
                moves[(mode, a)] = (mode, a)
                labels[(mode, a)] = f"{d.label(mode)} {dollars(a)}"
        of = lambda key: key[0]  # noqa: E731 - a move's first action is the option
    else:
        verb = {"deposit": "Deposit", "withdraw": "Withdraw"}.get(game.ctx.get("bank_mode"), "")
        verb = verb or "Withdraw"  # the first withdrawal
        picks = amounts(d, 4 if d.tag == "first_withdrawal" else 3)
        if d.tag == "first_withdrawal" and d.suggested is not None and d.suggested not in picks:
            # the game's own recommendation is always one of the amounts weighed (issue 38)
            picks = sorted([*picks, d.suggested])
        moves = {a: (a,) for a in picks}
        labels = {a: f"{verb} {dollars(a)}" for a in picks}
        of = lambda key: key  # noqa: E731
    po = _played_out(game, coaching, moves, labels, BANK_TURNS,
                     "; amounts at the Bank's own limits and steps.")  # fmt: skip
    why = ["Cash in your wallet can be stolen; money in the bank cannot.",
           f"Paying a bill with too little cash costs extra to the Loan Shark ({dollars(shark)} "
           f"on a bill {dollars(coaching.numbers['bill'])} over your cash).",
           "Borrowing at the Bank costs no interest."]  # fmt: skip
    # the game's own recommendation (the prompt shows it): the first line starts from it, so
    # the Coach agrees with the game or says why not (issue 38)
    suggested = d.suggested if d.tag == "first_withdrawal" and d.suggested in moves else None
    coaching = rank(coaching, po, labels, of=of, fmt=dollars, why=why, suggested=suggested,
                    suggestion=f"The rules suggest withdrawing {dollars(d.suggested or 0)}")  # fmt: skip
    if suggested is not None and coaching.best is not None and coaching.best != suggested:
        # why the simulated games differ from the rules' suggestion
        line = ("Less cash did better here: less for others to steal."
                if coaching.best < suggested
                else "More cash did better here: fewer bills paid through the Loan Shark.")  # fmt: skip
        coaching.why = [line, *coaching.why[:2]]
    return coaching
