"""The Coach at Easy Money's decisions (see :mod:`moneynb.coach`).

Source: reconstruction; issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.outcomes import (
    Valuation,
    chance_outcomes,
    what_if_copy,
    worth,
)
from ..core.words import counted
from .rollouts import deferred
from .valuation import Check, Coaching, valuation_of
from .wording import cents, chance, dollars, pct, top


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


def coach_decision(game, d) -> Coaching | None:
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
            coaching = Coaching(title, lines, numbers=nums,
                                headline=f"You cannot afford {sp['name']} with your cash now.")  # fmt: skip
            if len(d.options) > 1:  # e.g. buy by raising the money first: played out
                return coaching.defer(deferred(_em_each_ranked, game))
            return coaching
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
            f"{counted(len(look.next_throw), 'opponent')}"
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
        coaching = Coaching(title, lines, numbers=nums, checks=checks)
        take = d.low if tag == "bid" else "accept" if tag == "offer_reply" else "buy"
        leave = next(o for o in ("pass", "decline", "refuse") if o in d.options)
        labels = {take: f"Bid {dollars(take)}" if tag == "bid" else d.label(take),
                  leave: d.label(leave).capitalize()}  # fmt: skip
        likely = max(look.next_throw, key=lambda o: look.next_throw[o], default=None)
        why = [
            f"Each time an opponent stops there you collect {dollars(look.rent)}.",
            f"Chance {game.players[likely]} stops there on the next throw: "
            f"{chance(look.next_throw[likely])}."
            if likely is not None
            else "",
            f"It pays back {dollars(price)} in about {payback:.0f} rounds (a guess)."
            if payback
            else f"At the end it counts {dollars(look.holding_value)} for you.",
        ]
        coaching.recommend(
            {take: value, leave: Fraction(0)}, labels, why=why,
            more="more for you by the end of the game (a guess from the dice)",
            measure="dollars for you by the end of the game (estimate)",
        )  # fmt: skip
        if payback and payback > look.rounds_left:
            # issue 38, case 3: a payback longer than the game is said in the first line
            coaching.headline += (
                f" Its rent would take about {payback:.0f} rounds to pay back "
                f"{dollars(price)}, more than the {look.rounds_left} rounds left: by the end"
                f" it brings about {dollars(look.rent_ahead)} in rent"
                + (f" and the {dollars(look.holding_value)} it scores."
                   if look.holding_value else ".")
            )  # fmt: skip
            # (the tester of stop 48: "its worth is the $90 it scores at the end" beside "Best:
            # Bid $122" read as a contradiction: the rent the model counts was left out)
        return coaching
    if tag == "turn" and "roll" in d.options:
        land = game.next_landing(seat)
        val = Valuation("roll", dict(sorted(land.items())), Fraction(0), Fraction(0))
        c = Check("landing", (), "roll", seat, val, ("each",), (), _em_landing, _em_through_debts)
        coaching = Coaching(
            "Next roll",
            ["Where this throw can land: " + top(land, lambda s: game.board[s]["name"]) + "."],
            heatmap=land,
            numbers={"landing": land},
            checks=[c],
        )
        near = sorted(land, key=lambda s: (-land[s], s))
        coaching.headline = (
            f"Most likely stop: {game.board[near[0]]['name']} (chance {chance(land[near[0]])})."
        )
        if len(near) > 1:
            coaching.why = ["Next most likely: " + ", ".join(
                f"{game.board[s]['name']} ({chance(land[s])})" for s in near[1:3]) + "."]  # fmt: skip
        _em_holdings(game, d, coaching)
        return coaching
    if tag in ("offer_item", "offer_to", "offer_price") and game.offer:
        coaching = _em_selling(game, d)
        if coaching is None:
            coaching = Coaching("Selling: what you give up")
        return coaching.defer(deferred(_em_offer_ranked, game))
    if tag in ("post", "debt"):
        coaching = Coaching("Build, mortgage or lift?" if tag == "post" else "Raise the money")
        _em_holdings(game, d, coaching)
        if not coaching.lines and len(d.options) > 1:
            _em_sell_or_bankrupt(game, d, coaching)
        if coaching.lines and not coaching.headline:
            coaching.headline = "Each choice changes your cash now and your rent later (Details)."
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
                coaching.headline = coaching.headline or sub.headline
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
        line = ("Going bankrupt " + ("ends the game" if h.over else "puts you out of the game")
                + f" with a score of {dollars(score)}.")  # fmt: skip
        if coaching.headline:
            coaching.why.append(line)
        else:
            coaching.headline = line


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
    least = min(rows, key=lambda i: (rows[i]["per_round"], i))
    name = game.board[least]["name"]
    headline = (
        f"Gives up the least rent: {name} (about {cents(rows[least]['per_round'])} a round, a "
        "guess from the dice)."
        if len(rows) > 1
        else f"{name} brings you about {cents(rows[least]['per_round'])} a round in rent (a "
        "guess from the dice)."
    )
    why = [f"At the end {name} counts {dollars(rows[least]['score'])} for you."]
    return Coaching("Selling: what you give up", lines, numbers={"holdings": rows},
                    headline=headline, why=why)  # fmt: skip


def _credit_label(game, d, o) -> str:
    """An option's label for the Coach's first line; a mortgage (credit) says what it costs
    to pay back (issue 38, case 3: the Coach never names credit without its cost): "Mortgage
    Mill Street (+$50; $55 to lift it later)"."""
    label = d.label(o)
    if isinstance(o, str) and o.startswith("mortgage:"):
        cost = game.lift_cost(int(o.split(":")[1]))
        label = label.removesuffix(")") + f"; costs {dollars(cost)} to pay back)"
    return label


def _cash_words(game, o, cash) -> str:
    """What option ``o`` does to your cash (``cash``: the engine's change, in dollars), in
    words that do not read as contradicting the option's own "+$50": a mortgage whose loan
    goes straight to what you owe says so (issue 38, case 3: "Mortgage Summit Avenue (+$170):
    cash -$255")."""
    if isinstance(o, str) and o.startswith("mortgage:"):
        lent = game.board[int(o.split(":")[1])]["M"]
        if cash != lent:
            return (
                f"the Bank lends you {dollars(lent)}, then the {dollars(lent - cash)} you "
                f"owe is paid: your cash changes by {dollars(cash)}"
            )
        return f"the Bank lends you {dollars(lent)}"
    return f"your cash changes by {dollars(cash)}"


def _em_holdings(game, d, coaching: Coaching, limit: int = 8) -> None:
    """Easy Money, the build / mortgage / lift options of ``d``: what each moves from your cash
    (the engine's own move, on a copy: an exact, checked number), the rent it adds or takes
    away (the engine's rent before and after) and, as a model, the long-run rent a round that
    makes from the opponents (:func:`moneynb.analysis.easy_money.long_run_stops`) and the
    rounds a house or a lifted mortgage takes to pay back. Adds lines, numbers and checks to
    ``coaching``; at most ``limit`` options (builds first).

    It ranks them with ending the turn (or throwing the dice, worth $0 now): each option's
    worth to you by the end of the game, estimated as for a purchase
    (:func:`moneynb.analysis.easy_money.outlook`, read on the engine's game before and after the
    move): the cash it moves, plus the change in rent expected from the opponents over the
    rounds left, plus the change in the holding's score value. In a debt (no $0 option) the
    ranking is among the ways to raise money shown."""
    from ..analysis.easy_money import long_run_stops, outlook, throw_matrix

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
        c = Check(str(d.label(o)), (), o, seat, valuation_of(o, dist))
        cash = c.valuation.mean  # dollars your cash changes by (negative: you pay)
        extra = (after.rent(i) - game.rent(i)) * float(pi[i]) * len(opponents)
        payback = float(-cash) / extra if extra > 0 and cash < 0 else None
        now, then = outlook(game, seat, i, game), outlook(game, seat, i, after)
        by_end = (cash + Fraction(then.rent_ahead - now.rent_ahead)
                  + then.holding_value - now.holding_value)  # fmt: skip
        rows[o] = {"cash": cash, "rent_before": game.rent(i), "rent_after": after.rent(i),
                   "per_round": extra, "payback_rounds": payback, "by_end": by_end,
                   "rent_ahead_change": then.rent_ahead - now.rent_ahead,
                   "score_change": then.holding_value - now.holding_value,
                   "rounds_left": now.rounds_left}  # fmt: skip
        text = (
            f"{d.label(o)}: {_cash_words(game, o, cash)}, rent {dollars(game.rent(i))} -> "
            f"{dollars(after.rent(i))}, model {cents(extra)} a round"
        )
        coaching.lines.append(text + (f", pays back in {payback:.0f} rounds." if payback else "."))
        coaching.checks.append(c)
    coaching.numbers["holdings"] = rows
    zero = next((o for o in ("end", "roll") if o in d.options), None)
    values = {o: r["by_end"] for o, r in rows.items()}
    if zero is not None:
        values = {zero: Fraction(0), **values}
    labels = {o: _credit_label(game, d, o) for o in values}
    best = max(values, key=lambda o: values[o])
    why = list(coaching.why)  # what the coaching said first (a throw's likeliest stops) stays
    if coaching.headline:
        why.insert(0, coaching.headline)
    if best != zero:
        r = rows[best]
        why.append(f"{d.label(best)}: {_cash_words(game, best, r['cash'])} now, and the rent "
                   f"changes by {dollars(r['rent_ahead_change'])} over the {r['rounds_left']} "
                   "rounds left (a guess from the dice).")  # fmt: skip
    else:
        why.append("Nothing here pays for itself in the rounds left (a guess from the dice).")
    coaching.recommend(
        values, labels, why=why[-3:] if zero is None else why[:3],
        more="more for you by the end of the game (a guess from the dice)",
        measure="dollars for you by the end of the game (estimate)",
    )  # fmt: skip
    coaching.lines.append(
        "Model: the rent a round is the long-run share of the opponents' throws stopping there "
        "(the engine's one-throw chances chained, the pack as it is now) times the rent change."
    )


#: Easy Money's offers: the seller's turns the play-outs run to
OFFER_TURNS = 3
#: Easy Money's offers: most engine actions the play-outs of one decision may take, spent in
#: full only while the verdict is open (:data:`~moneynb.coach.rollouts.SETTLED`; 5,000 until
#: issue 38 gave another verdict on another of the Coach's seeds at 1 of 6 offers;
#: ``benchmarks/bench_coach_verdicts.py`` prints the figures and the time)
OFFER_BUDGET = 20_000


def _em_offer_ranked(game, d, coaching: Coaching) -> Coaching:
    """Easy Money's offer, the seller's side, ranked: what to offer (or cancel), to whom, and
    at what price (the engine's own limits and steps: :func:`~moneynb.coach.rollouts.amounts`;
    or cancel), each played out to the seller's :data:`OFFER_TURNS`-th turn from now by seeded
    greedy bots on resampled copies (:func:`~moneynb.coach.rollouts.play_outs`: the buyer
    answers as the game's greedy bot would; your own later choices of this offer, whom and
    what price, too), measured in your score (the engine's ``scores()``: cash plus what your
    holdings count)."""
    from .rollouts import amounts

    if d.tag == "offer_price":
        picks = amounts(d, 4)
        moves = {a: (a,) for a in picks}
        labels = {a: f"Ask {dollars(a)}" for a in picks}
    else:
        moves = {o: (o,) for o in d.options}
        labels = {o: str(d.label(o)) for o in d.options}
        if d.tag == "offer_to":
            labels = {o: f"Offer to {game.players[o]}" for o in d.options}
        else:
            labels = {o: f"Offer {game.item_name(o)}" for o in d.options if o != "cancel"}
    if "cancel" in d.options:
        moves["cancel"] = ("cancel",)
        labels["cancel"] = "Cancel the offer"
    return _em_score_ranked(
        game, coaching, moves, labels,
        "the buyer answers as one would; so do you for the rest of this offer",
    )  # fmt: skip


def _em_score_ranked(game, coaching: Coaching, moves: dict, labels: dict, how: str) -> Coaching:
    """Easy Money's ranking by play-outs: ``moves`` (``{key: (action, ...)}``) played out to
    the decider's :data:`OFFER_TURNS`-th turn from now (:func:`~moneynb.coach.rollouts.play_outs`,
    at most :data:`OFFER_BUDGET` engine actions), measured in the decider's score (the
    engine's ``scores()``); a line per move, one saying how (``how``: who answers what), and
    the first line (:func:`~moneynb.coach.rollouts.rank`). Returns ``coaching``."""
    from .rollouts import describe, play_outs, rank, score_measure

    po = play_outs(game, moves, measure=score_measure, turns=OFFER_TURNS, budget=OFFER_BUDGET)
    why = list(coaching.summary())
    describe(coaching, po, labels, "{label}: your score changes by {value} on average by your "
             f"{OFFER_TURNS}rd turn from now.", f"your {OFFER_TURNS}rd turn from now",
             f" ({how}). Your score: cash plus what your holdings count at the end.",
             fmt=dollars)  # fmt: skip
    return rank(
        coaching, po, labels, fmt=dollars, why=why,
        more="more for your score on average", measure="dollars of score for you on average",
    )  # fmt: skip


def _em_each_ranked(game, d, coaching: Coaching) -> Coaching:
    """Each option of an Easy Money decision the engine gives no exact outcome for (buying a
    space with too little cash, so the money must be raised first), played out to the
    decider's :data:`OFFER_TURNS`-th turn from now by seeded greedy bots on resampled copies
    (:func:`~moneynb.coach.rollouts.play_outs`; what the engine asks next, e.g. how to raise
    the money, answered as the greedy bot would), measured in the decider's score (the
    engine's ``scores()``). Source: reconstruction (the rulebook has no coach)."""
    moves = {o: (o,) for o in d.options}
    labels = {o: str(d.label(o)) for o in d.options}
    return _em_score_ranked(game, coaching, moves, labels, "what the game asks you next too")
