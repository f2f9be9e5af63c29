"""The Coach at Money Card's decisions (see :mod:`moneynb.coach`).

Source: reconstruction; issues 12, 18 (section 7) and 30.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..core.outcomes import (
    chance_outcomes,
    shuffle_hidden,
    what_if_copy,
    worth,
)
from ..core.words import counted
from .valuation import Check, Coaching, each_option, valuation_of, value_check
from .wording import MIN_LEAD, cents, chance, dollars, pct
from .wording import money as money_words


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
        vm, vk = valuation_of(o, money), valuation_of(o, got)
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
            vr = valuation_of("spin", dist)
            checks.append(Check(f"next spin from {o}", (), "spin", seat, vr, ("mean",),
                                measure=reach, base=probe, model=model))  # fmt: skip
            if o == ranked[0]:  # the model itself, measured in real play (the best place)
                checks.append(Check(f"real next spin from {o}", (), o, seat, vr,
                                    ("model_mean",), model=model,
                                    real_play=_mc_next_spin_real(o, seat, wanted)))  # fmt: skip
            row["next_spin_key"] = vr.mean
        text = f"{d.label(o)}: on arrival {cents(row['money'])}"
        if row["keys"]:
            text += f", {_keys_words(row['keys'])}"
        if row["next_spin_key"] is not None:
            text += f"; next spin reaches a key you lack: {chance(row['next_spin_key'])}"
        lines.append(text + ".")
    rest = ranked[MC_SHOWN:]
    if rest:
        lo = min(nums[o]["money"] for o in rest)
        hi = max(nums[o]["money"] for o in rest)
        lines.append(f"{len(rest)} more places: no key on arrival, {cents(lo)} to {cents(hi)}."
                     if not any(nums[o]["keys"] for o in rest) else
                     f"{len(rest)} more places: on arrival {cents(lo)} to {cents(hi)}.")  # fmt: skip
    lines.append(f"Before any choice you make there. Model for the next spin: {model}.")
    coaching = Coaching(title, lines, numbers=nums, checks=checks)
    # keys first, then cheques within $1 of the most (a lead of cents is no reason to prefer a place:
    # wording.MIN_LEAD; the tester of stop 49 met "$0.05 more on arrival"), then the next
    # spin's chance of a key, then the cents
    top = {}  # the most cheques on arrival among the places of each number of keys
    for o in ranked:
        top[nums[o]["keys"]] = max(top.get(nums[o]["keys"], nums[o]["money"]), nums[o]["money"])

    def band(o):  # within $1 of the most: as much, to the dollar
        k, m = nums[o]["keys"], nums[o]["money"]
        return top[k] if top[k] - m < MIN_LEAD else m

    values = {o: (nums[o]["keys"], band(o), _or(nums[o]["next_spin_key"], -1), nums[o]["money"])
              for o in ranked}  # fmt: skip
    ranked = sorted(ranked, key=lambda o: values[o], reverse=True)
    best = ranked[0]
    row, label = nums[best], d.label(best)
    # the runner-up is the best place of another name: two squares of one stretch share a
    # label (the tester of stop 49: "Best: Italy, between Rome and Milan — the same on
    # arrival as Italy, between Rome and Milan")
    second = next((o for o in ranked[1:] if d.label(o) != label), None)
    if second is not None:
        same = "the same" if row["money"] == nums[second]["money"] else "the same, to the dollar,"
    if second is None:
        headline = f"Best: {label}."
    elif row["keys"] > nums[second]["keys"]:
        headline = f"Best: {label} — {_keys_words(row['keys'])} on arrival."
    elif values[best][1] == values[second][1] and values[best][2] > values[second][2]:
        headline = (f"Best: {label} — on arrival {same} as {d.label(second)}, and your next "
                    f"spin from there can reach a key you lack: {chance(row['next_spin_key'])} "
                    f"(against {chance(nums[second]['next_spin_key'] or 0)}).")  # fmt: skip
    elif values[best][1] == values[second][1]:  # a tie, every tied place named once
        tied = list(dict.fromkeys(d.label(o) for o in ranked if values[o][:3] == values[best][:3]))
        sep = "; " if len(tied) > 2 else " "  # labels hold commas ("France, between ...")
        names = sep.join(tied[:-1]) + sep.rstrip(" ") + " and " + tied[-1]
        exact = "" if row["money"] == nums[second]["money"] else ", to the dollar"
        headline = f"A tie: {names} come out the same on arrival{exact}"
        headline += f"; each {_keys_words(row['keys'])}." if row["keys"] else "."
    else:
        headline = (f"Best: {label} — {dollars(row['money'] - nums[second]['money'])} more on "
                    f"arrival than {d.label(second)}.")  # fmt: skip
    why = []
    if row["money"]:
        why.append(f"On arrival your cheques change by {money_words(row['money'])} on average.")
    if row["next_spin_key"] is not None and not row["keys"]:
        why.append(f"From there your next spin can reach a key you lack: "
                   f"{chance(row['next_spin_key'])} (if the other planes did not move first).")  # fmt: skip
    return coaching.recommend(
        values, {o: d.label(o) for o in d.options}, why=why, headline=headline,
        measure="keys on arrival, then dollars on arrival, then the next spin's chance of a key",
    )  # fmt: skip


def _or(x, default):
    return default if x is None else x


def _keys_words(k) -> str:
    """Keys gained in words: ``1`` -> ``"gives you a key"``, ``2`` -> ``"gives you 2 keys"``,
    a fraction (a card may bring one) -> ``"gives you a key 50% of the time"``."""
    k = Fraction(k)
    if k == 1:
        return "gives you a key"
    if k.denominator == 1:
        return f"gives you {k} keys"
    if k < 1:
        return f"gives you a key {chance(k)} of the time"
    return f"gives you about {float(k):.1f} keys"


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
                              valuation_of(o, dist), ("mean", "p_gain"), measure=net,
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
        c = Check(str(d.label(o)), (), o, seat, valuation_of(o, dist), ("mean",), measure=net)
        checks.append(c)
        gain = c.valuation.mean
        nums[o] = {"net": gain, "still_owed": still, "keys_after": len(h.keys[seat])}
        lines.append(
            f"{d.label(o)}: {cents(gain)} on what you can pay when the game next waits; "
            + (f"you still owe {dollars(still)}" if still else "the debt is paid")
            + f"; you keep {counted(len(h.keys[seat]), 'key')}."
        )
    lines.append("Counted as the game plays it: a key turned in goes back to its city.")
    coaching = Coaching("Raise the money", lines, numbers=nums, checks=checks)
    values = {}
    for o in d.options:
        if o == "monte_carlo":
            spins = [v for k, v in nums.items() if isinstance(k, tuple)]
            if spins:
                values[o] = max(spins)
        elif o in nums:
            values[o] = nums[o]["net"]
    if not values:
        return coaching
    best = max(values, key=lambda o: values[o])
    why = []
    if best == "monte_carlo":
        c = max((c for c in checks if c.action == "monte_carlo"), key=lambda c: c.valuation.mean)
        why.append(f"Chance of winning one spin: {chance(c.valuation.probability(lambda v: v > 0))}"
                   "; a loss adds the bet to what you owe.")  # fmt: skip
    else:
        row = nums[best]
        why.append(f"You keep {counted(row['keys_after'], 'key')}"
                   + (f" and still owe {dollars(row['still_owed'])}." if row["still_owed"]
                      else " and the debt is paid."))  # fmt: skip
    return coaching.recommend(
        values, {o: d.label(o) for o in values}, why=why,
        more="more on what you can pay (on average)",
        measure="dollars you can pay right after, on average",
    )  # fmt: skip


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
            c = Check("spin reaches a key", (), "spin", seat, valuation_of("spin", dist),
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
                f"they can bring {counted(keys, 'key')} ({', '.join(game.board.name(k) for k in cities)})"
                if keys
                else "they bring no key on arrival"
            )  # fmt: skip
            + "; the phrase cards go back."
        )
    coaching = Coaching("Spin or form a phrase?", lines, numbers=nums, checks=checks)
    values = {o: nums[o]["key_in_reach"] if o == "spin" else Fraction(nums[o]["keys"])
              for o in d.options}  # fmt: skip
    best = max(values, key=lambda o: values[o])
    if best == "spin":
        headline = (f"Best: Spin — chance it can reach a key you lack: {chance(values[best])}; "
                    "no phrase brings a key now.")  # fmt: skip
    elif not values[best]:
        headline = (f"Best: {d.label(best)} — {nums[best]['moves']} bonus moves now; no choice "
                    "here brings a key now.")  # fmt: skip
    else:
        cities = ", ".join(game.board.name(k) for k in nums[best]["cities"])
        headline = (f"Best: {d.label(best)} — its bonus moves can bring you "
                    f"{_keys_words(values[best]).removeprefix('gives you ')} ({cities}).")  # fmt: skip
    why = ["A phrase's cards go back once you use it."]
    if "spin" in nums and best != "spin":
        why.append(f"Spinning now reaches a key you lack: {chance(nums['spin']['key_in_reach'])}.")
    return coaching.recommend(values, {o: d.label(o) for o in d.options}, why=why,
                              headline=headline, measure="keys you can get now")  # fmt: skip


def _mc_charge(game, d) -> Coaching:
    """Charge It or pay in cheques (issue 38, case 3): the first line names the engine's best
    option and its margin (what leaves your cheques now), then, in the same line, what credit
    costs, in the game and in real life: in the game's
    rules a charge is recorded and never billed (rulebook "Money Card"), so charging keeps
    your cheques; a real card's bill comes, with interest when it is not paid in full. The
    Coach never calls credit free without saying so."""
    c = each_option(game, d, "Charge It or pay?", fmt=cents,
                    note="Counted as the game plays it: what leaves your cheques now.")  # fmt: skip
    amount = next((c2.action for c2 in c.checks if c2.action == "charge"), None)
    label = d.label("charge")
    owed = re.search(r"\$[\d,]+", label)
    owed = owed.group(0) if owed else "the amount"
    if amount is None:
        return c
    # the engine's best option and margin first (issue 38: one plain line first), then in the
    # same line what credit costs, so the line never names credit without its cost
    c.headline = (f"{c.headline.rstrip('.')}. In this game a charge is only recorded, never "
                  f"billed; a real card's bill for {owed} comes next month, with interest if you "
                  "do not pay it all.")  # fmt: skip
    c.lines = [
        line.replace(f"{label}: ", f"{label} (the game never bills it; a real card does): ", 1)
        for line in c.lines
    ]
    c.why = [
        f"In the game: paying in cheques costs you {owed} now; charging costs you nothing.",
        f"In real life: paid in full when the bill comes, the {owed} costs nothing extra; "
        "left unpaid, the card adds interest (often about 20% a year) every month.",
    ]
    return c


def coach_decision(game, d) -> Coaching | None:
    if d.tag == "debt":  # issue 18, section 7
        return _mc_debt(game, d)
    if d.tag == "turn" and len(d.options) > 1:  # a phrase to form, or bonus moves to take
        return _mc_phrases(game, d)
    if d.tag == "move":  # issue 18, section 7: where to land, and where the next spin can land
        return _mc_destinations(game, d, "Where to land?")
    if d.tag in ("express", "join"):
        return _mc_destinations(game, d, "Where to go?")
    if d.tag == "charge":
        return _mc_charge(game, d)
    if d.tag == "color":
        checks = [value_check(game, f"{c} ${game.monte['bet']}", c, shows=("mean", "p_gain"))
                  for c in ("red", "black")]  # fmt: skip
    elif d.tag == "bet":
        checks = [
            value_check(game, f"bet ${b}", b, follow=("color",))
            for b in dict.fromkeys((d.low, d.high))
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
    coaching = Coaching("Monte Carlo", lines,
                        numbers={c.name: c.valuation.mean for c in checks}, checks=checks)  # fmt: skip
    values = {c.action: c.valuation.mean for c in checks}
    labels = {c.action: d.label(c.action) if d.tag == "color" else f"Bet ${c.action}"
              for c in checks}  # fmt: skip
    best = max(checks, key=lambda c: c.valuation.mean)
    why = [f"Chance of winning with {labels[best.action]}: "
           f"{chance(best.valuation.probability(lambda v: v > 0))}."]  # fmt: skip
    if game.monte and game.monte.get("wins"):
        why.append("Spins do not remember: the next one is worth the same as the first.")
    return coaching.recommend(values, labels, fmt=cents, why=why)
