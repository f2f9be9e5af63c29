"""The Coach at Money Moves's decisions (see :mod:`moneynb.coach`).

Source: reconstruction; issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.outcomes import (
    best_action,
    chance_outcomes,
    what_if_copy,
    worth,
)
from .rollouts import deferred
from .valuation import Check, Coaching, each_option, valuation_of, value_check
from .wording import cents, chance, dollars, pct

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
    being at $0 again after it (needing the loan again), for the largest loan. When other
    players at $0 answer the House Bank before that roll, it is counted as if each borrows
    the most allowed, and the lines say so; when no roll can be counted from here (the game
    ends first), the lines say so and show no number (issue 38)."""
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
        # other players at $0 answer the House Bank before the next roll: counted as if each
        # borrows as much as allowed (what the game's own greedy play does), and said so
        pre, waiting = _others_borrow(h, seat)
        nd = h.decision
        if a == d.high and nd is not None and not h.over and nd.tag == "roll":
            base = worth(h, seat)
            money: dict = {}
            broke: dict = {}
            for p, after in _leaves(h, "roll", seat, _MM_FOLLOW):
                v, b = worth(after, seat) - base, int(after.cash(seat) == 0)
                money[v] = money.get(v, Fraction(0)) + p
                broke[b] = broke.get(b, Fraction(0)) + p
            c = Check(f"next roll after borrowing {dollars(a)}", (a, *pre), "roll", seat,
                      valuation_of("roll", money), ("mean", "p_loss"), _MM_FOLLOW)  # fmt: skip
            cb = Check(f"at $0 after the next roll, borrowing {dollars(a)}", (a, *pre), "roll",
                       seat, valuation_of("roll", broke), ("mean",), _MM_FOLLOW,
                       measure=lambda before, after, events, s=seat: int(after.cash(s) == 0))  # fmt: skip
            checks += [c, cb]
            row["p_loss_next_roll"] = c.valuation.probability(lambda v: v < 0)
            row["p_broke_after"] = cb.valuation.mean
            row["next_roll"] = c.valuation.mean
            row["if_others_borrow"] = waiting
            text += (
                f". The next roll ({game.players[nd.player]} rolls{_if_borrow(waiting)}): you "
                f"lose money {pct(row['p_loss_next_roll'])}, are back at $0 "
                f"{pct(row['p_broke_after'])}"
            )
        elif a == d.high:  # no engine-checked number can be given: said so, none shown
            text += (". The next roll cannot be counted from here: "
                     + ("the game ends first" if h.over or nd is None else
                        f"{game.players[nd.player]} decides something before it"))  # fmt: skip
        lines.append(text + ".")
    lines.append(
        "Counted as the game plays it (its loan, repayment and score rules, the cards not yet "
        "drawn); a loan keeps you in the game for the pot."
    )
    big = nums.get(d.high, {})
    why = [f"Leaving ends your game with a score of {dollars(nums['leave']['score'])}."]
    if "p_loss_next_roll" in big:
        why.append(f"Borrowing {dollars(d.high)}: chance you lose money on the next roll"
                   f"{_if_borrow(big['if_others_borrow'], ' (', ')')} "
                   f"{chance(big['p_loss_next_roll'])}, chance you are back at $0 "
                   f"{chance(big['p_broke_after'])}.")  # fmt: skip
    why.append("The House Bank takes its loan back from the money you receive next.")
    coaching = Coaching("House Bank: borrow or leave?", lines, numbers=nums, checks=checks)
    return coaching.defer(deferred(_borrow_ranked, game, why))


def _others_borrow(h, seat: int) -> tuple[tuple, list[str]]:
    """Other players at $0 who answer the House Bank before the next roll (the engine asks
    each in turn, ``_next_borrower``): each answered on ``h`` in place with the most the
    engine allows (``decision.high``, the game's own greedy play). Returns the answers (for a
    :class:`Check`'s ``pre``: no chance in them) and those players' names. Source: issue 38
    (the Coach's number for a loan whose next decision is not a roll), reconstruction."""
    pre, names = [], []
    while not h.over and h.decision is not None and h.decision.tag == "borrow":
        nd = h.decision
        if nd.player == seat or nd.high is None:
            break
        pre.append(nd.high)
        names.append(h.players[nd.player])
        h.apply(nd.high)
    return tuple(pre), names


def _if_borrow(names: list[str], open_: str = ", ", close: str = "") -> str:
    """``", if Bob borrows the most too"``: the assumption behind a next-roll number when other
    players answer the House Bank first; ``""`` when nobody does."""
    if not names:
        return ""
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    verb = "borrows" if len(names) == 1 else "borrow"
    return f"{open_}if {who} {verb} the most allowed too{close}"


#: Money Moves' loan: most engine actions the play-outs of one decision may take, spent in
#: full only while the verdict is open (:data:`~moneynb.coach.rollouts.SETTLED`; 8,000 until
#: issue 38 gave another verdict on another of the Coach's seeds at 3 of 6 loans;
#: ``benchmarks/bench_coach_verdicts.py`` prints the figures and the time)
BORROW_BUDGET = 32_000


def _borrow_ranked(game, d, coaching: Coaching, why: list) -> Coaching:
    """Money Moves' loan, ranked: leaving and borrowing at the engine's own limits and steps
    (:func:`~moneynb.coach.rollouts.amounts`), each played out to the end of the game by
    seeded greedy bots on resampled copies (:func:`~moneynb.coach.rollouts.play_outs`),
    measured in dollars held less the loan (:func:`~moneynb.core.outcomes.worth`), the pot
    won at the end included."""
    from .rollouts import amounts, describe, play_outs, rank

    picks = [a for a in amounts(d, 4)]
    moves = {"leave": ("leave",), **{a: (a,) for a in picks}}
    # a loan's cost in its name (issue 38, case 3: credit never without its cost)
    labels = {"leave": "Leave the game",
              **{a: f"Borrow {dollars(a)} (paid back from what you win next)" for a in picks}}  # fmt: skip
    po = play_outs(game, moves, budget=BORROW_BUDGET)
    describe(coaching, po, labels, "{label}: {value} for you on average by the end of the game.",
             "the end of the game", "; the pot won at the end counted.", fmt=cents)  # fmt: skip
    return rank(coaching, po, labels, fmt=cents, why=why)


def coach_decision(game, d) -> Coaching | None:
    from ..games.money_moves.rules import POT

    if d.tag == "borrow":  # issue 18, section 7
        return _mm_borrow(game, d)
    if d.tag == "pick_player":  # issue 18, section 7
        return each_option(game, d, "Pick a Pocket: from whom?", fmt=cents,
                            note="Counted as the game plays it: what each player can pay.")  # fmt: skip
    if d.tag == "wild_card":
        return each_option(game, d, "Wild Card: play it now?", fmt=cents,
                            note="This turn only: a card kept may spare you a bigger loss later.")  # fmt: skip
    if d.tag != "roll":
        return None
    c = value_check(game, "roll", "roll", follow=_MM_FOLLOW, shows=("mean", "p_loss"))
    return Coaching(
        "This roll",
        [
            f"Pot {dollars(game.ledger[POT])}, {len(game.players)} players.",
            f"Your expected gain this turn: {cents(c.valuation.mean)} "
            f"(chance of losing money: {pct(c.valuation.probability(lambda v: v < 0))}), counting "
            "the cards not yet drawn and what everyone can pay.",
        ],
        numbers={"roller": c.valuation.mean},
        checks=[c],
        headline=f"This roll: you {'gain' if c.valuation.mean >= 0 else 'lose'} "
        f"{cents(abs(c.valuation.mean))} on average.",
        why=[f"Chance of losing money this turn: "
             f"{chance(c.valuation.probability(lambda v: v < 0))}."],
    )  # fmt: skip
