"""The coach at every real choice (issue 18, section 7), its numbers from the engine (issue 12).

Each test drives seeded greedy-bot games to the decision, then checks the coach's numbers
against the engine measured another way: a brute-force enumeration of the engine's chance
outcomes, the money an option really moves through ``apply``, the rent the engine really
charges, or seeded Monte Carlo plays through ``Game.copy()`` + ``apply``. The model numbers
(Easy Money's stops in the next throws) are also measured by ``tests/test_harness.py``.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from test_coach import drive  # one seeded greedy-bot driver for the Coach tests

import moneynb
from moneynb.analysis import easy_money as aem
from moneynb.coach import MC_SHOWN, coach
from moneynb.core.outcomes import chance_outcomes, shuffle_hidden, what_if_copy, worth
from moneynb.testing import rig

#: decisions with a real choice that the coach must speak to with engine-checked numbers
COVERED = {
    "moolah": {"moolah", "take_pal", "advantage_target", "after", "fork", "casino_bet",
               "casino_raise", "wall_street", "wall_street_amount", "gamble"},
    "easy_money": {"buy", "bid", "lone_bidder"},
    "money_card": {"move", "express", "join", "bet", "color", "charge", "debt"},
    "money_moves": {"pick_player", "wild_card", "roll", "borrow"},
    "money_run": {"action"},
}  # fmt: skip


def brute_mean(g, action, follow=()):
    """Exact expected dollars gained by the decider, enumerated here from the engine's chance
    outcomes, the decider's follow-ups in ``follow`` taken by brute force over every option."""
    seat = g.decision.player
    base = worth(g, seat)
    total = Fraction(0)
    for o in chance_outcomes(g, action):
        h, d = o.game, o.game.decision
        if d is not None and not h.over and d.player == seat and d.tag in follow:
            best = max(brute_mean(h, a, follow) for a in d.options)
            total += o.probability * (worth(h, seat) - base + best)
        else:
            total += o.probability * (worth(h, seat) - base)
    return total


def monte_carlo(g, action, n, seed=0):
    """``(mean, standard error)`` of the decider's dollars gained over ``n`` real plays."""
    seat = g.decision.player
    xs = []
    for k in range(n):
        h = what_if_copy(g)  # a Game.copy() that shares the (immutable) event log: faster
        h.rng = random.Random(seed + k)
        shuffle_hidden(h, h.rng)
        base = worth(h, seat)
        h.apply(action)
        xs.append(worth(h, seat) - base)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


# ----- every real choice is coached ---------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(COVERED))
def test_coach_speaks_with_checked_numbers_at_every_covered_choice(name):
    seen = set()
    for seed in range(3):  # default games (a chance stream per kind, issue 39)
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
        for _ in range(400):
            if g.over:
                break
            tag = g.decision.tag
            if tag in COVERED[name] and tag not in seen:
                c = coach(g)
                assert c is not None and c.lines, f"{name} {tag}: the coach says nothing"
                assert c.checks, f"{name} {tag}: no engine-checked number"
                seen.add(tag)
            g.apply(bots[g.decision.player].choose(g))
    assert seen, f"{name}: no covered decision reached"


# ----- Easy Money: auctions, buying -------------------------------------------------------------------
def _next_thrower_in_reach(g):
    """At a buy: the next player is 3-11 spaces behind this space (a non-double can reach it)."""
    if "buy" not in g.decision.options:
        return False
    i, nxt = g.pos[g.current], (g.current + 1) % len(g.players)
    return g.started[nxt] and 3 <= (i - g.pos[nxt]) % len(g.board) <= 11 and g.bankrupt is None


def test_easy_money_buy_rent_is_what_the_engine_charges():
    g = drive("easy_money", "buy", when=_next_thrower_in_reach)
    c = coach(g)
    seat, i = g.decision.player, g.pos[g.current]
    nxt = (seat + 1) % len(g.players)
    steps = (i - g.pos[nxt]) % len(g.board)
    g.apply("buy")
    while g.decision.player == seat:  # end the buyer's turn
        g.apply("end")
    before = g.money()[g.wallet(seat)]
    pips = next((a, steps - a) for a in range(1, 7) if 1 <= steps - a <= 6 and 2 * a != steps)
    rig(g).dice(*pips)
    g.apply("roll")
    assert g.pos[nxt] == i
    while g.decision is not None and g.decision.tag == "debt":  # the rent is paid in full
        g.apply(g.decision.options[0])
    assert g.money()[g.wallet(seat)] - before == c.numbers["rent"] > 0
    assert c.numbers["holding_value"] == g.holding_value(i)


def test_easy_money_auction_numbers_and_model():
    g = drive("easy_money", "bid")
    c = coach(g)
    i, seat = g.auction["space"], g.decision.player
    assert c.title == f"Auction: {g.board[i]['name']}"
    for o, p in c.numbers["next_throw"].items():
        assert p == g.next_landing(o).get(i, 0)
        # the model's first throw is the engine's exact next throw
        assert aem.stops_ahead(g, o, i, 1)[0] == pytest.approx(float(p))
    assert seat not in c.numbers["next_throw"]
    assert c.numbers["price"] == g.decision.low
    assert any("Model" in ln for ln in c.lines) and any("pays back" in ln for ln in c.lines)
    assert {ch.horizon[0] for ch in c.checks} == set(c.numbers["next_throw"])


def test_easy_money_throw_matrix_rows_are_the_engines_throws():
    """Each row of the model's matrix is the engine's own throw, enumerated through ``apply``
    (two dice, and on doubles every Give or Take card left) from that space."""
    g = drive("easy_money", "turn", when=lambda g: "roll" in g.decision.options
              and g.started[g.decision.player] and not g.debts)  # fmt: skip
    m = aem.throw_matrix(g)
    assert m.shape == (len(g.board), len(g.board))
    assert np.allclose(m.sum(axis=1), 1)
    seat = g.decision.player
    for a in (0, 7, 23, 40):
        h = g.copy()
        h.pos[seat] = a
        row = np.zeros(len(g.board))
        for o in chance_outcomes(h, "roll", branch_draws=3):
            row[o.game.pos[seat]] += float(o.probability)
        assert np.allclose(row, m[a]), a
    pi = aem.long_run_stops(m)
    assert np.allclose(pi @ m, pi) and pi.sum() == pytest.approx(1)


# ----- Moolah: Moolah spaces, Take A Pal, Advantage cards --------------------------------------------
def test_moolah_jump_values_the_next_roll_from_each_moolah_space():
    g = drive("moolah", "moolah")
    c = coach(g)
    d, seat = g.decision, g.decision.player
    assert len(c.lines) == len(d.options) + 1 and "Model" in c.lines[-1]
    for m, line in zip(d.options, c.lines[:-1], strict=True):
        assert line.startswith(d.label(m))
        probe = g.copy()
        probe.apply(m)
        money = probe.money()
        probe.probe_roll(seat)
        assert probe.decision.player == seat and probe.decision.tag == "turn"
        assert probe.pos[seat] == m and probe.money() == money
        assert c.numbers[m]["next_roll"] == brute_mean(probe, "roll", follow=("fork",))
        assert c.numbers[m]["arrive"] == brute_mean(g, m)


def test_moolah_take_a_pal_matches_real_plays():
    g = drive("moolah", "take_pal")
    c = coach(g)
    for o in g.decision.options:
        mean, se = monte_carlo(g, o, 200, seed=11)
        exact = float(c.numbers[o])
        if o == "nobody":
            assert exact == 0 == mean
        else:
            assert abs(mean - exact) <= 4 * se + 1e-9, (o, mean, exact, se)


def test_moolah_advantage_card_targets_are_valued_by_the_engine():
    g = drive("moolah", "after")
    c = coach(g)
    for o in g.decision.options:
        assert c.numbers[o] == brute_mean(g, o, follow=("advantage_target",))
    g = drive("moolah", "advantage_target")
    c = coach(g)
    for o in g.decision.options:
        assert c.numbers[o] == brute_mean(g, o)


# ----- Money Moves, Money Card ----------------------------------------------------------------------------
@pytest.mark.parametrize("tag", ["pick_player", "wild_card"])
def test_money_moves_choices_are_the_money_they_move(tag):
    g = drive("money_moves", tag)
    c = coach(g)
    seat = g.decision.player
    for o in g.decision.options:
        assert c.numbers[o] == brute_mean(g, o)
        h = g.copy()
        h.apply(o)
        if not any(k[0] == "int" for k in chance_outcomes(g, o)[0].draws):
            assert c.numbers[o] == worth(h, seat) - worth(g, seat)


def test_money_card_charge_it_is_what_leaves_the_cheques():
    g = drive("money_card", "charge")
    c = coach(g)
    seat = g.decision.player
    for o in g.decision.options:
        h = g.copy()
        h.apply(o)
        assert c.numbers[o] == brute_mean(g, o)
        if all(len(x.draws) == 0 for x in chance_outcomes(g, o)):
            assert c.numbers[o] == worth(h, seat) - worth(g, seat)


def _brute_keys(g, o):
    seat = g.decision.player
    return sum(
        (x.probability * (len(x.game.keys[seat]) - len(g.keys[seat])) for x in
         chance_outcomes(g, o)), Fraction(0)
    )  # fmt: skip


@pytest.mark.parametrize("tag", ["move", "express", "join"])
def test_money_card_destinations(tag):
    """Each destination: cheques and keys on arrival (engine enumeration), and the chance that a
    spin from there can land on a Key City the player lacks, measured spin by spin with the rig."""
    g = drive("money_card", tag, when=lambda g: len(g.decision.options) > 1)
    c = coach(g)
    seat = g.decision.player
    wanted = set(g.keys_wanted(seat))
    n_opts = len(g.decision.options)
    assert "Model" in c.lines[-1]
    assert len(c.lines) == min(n_opts, MC_SHOWN) + 1 + (n_opts > MC_SHOWN)
    for o in g.decision.options:
        row = c.numbers[o]
        assert row["money"] == brute_mean(g, o)
        assert row["keys"] == _brute_keys(g, o)
        if row["next_spin_key"] is None:
            continue
        space = o[4:] if o.startswith("fly:") else g.pos[seat] if o == "stay" else o
        n = len(g.board.segments)
        hits = 0
        for i in range(n):
            h = g.copy()
            h.probe_spin(seat, space)
            rig(h).draw_below(n, i)
            h.apply("spin")
            hits += h.decision.tag == "move" and bool(wanted & set(h.decision.options))
        assert row["next_spin_key"] == Fraction(hits, n)


def test_money_card_probe_spin_refuses_bad_input():
    h = drive("money_card", "move").copy()
    before = h.to_json()
    with pytest.raises(ValueError, match="not a space"):
        h.probe_spin(0, "atlantis")
    assert h.to_json() == before


def test_easy_money_build_and_mortgage_options_are_the_engines_moves():
    def has_build(g):
        return any(str(o).startswith("build:") for o in g.decision.options)

    g = drive("easy_money", "post", when=has_build)
    c = coach(g)
    seat = g.decision.player
    rows = c.numbers["holdings"]
    assert any(o.startswith("build:") for o in rows) and any(
        o.startswith("mortgage:") for o in rows
    )
    pi = aem.long_run_stops(aem.throw_matrix(g))
    for o, row in rows.items():
        i = int(o.split(":")[1])
        h = g.copy()
        h.apply(o)
        assert row["cash"] == worth(h, seat) - worth(g, seat)
        assert (row["rent_before"], row["rent_after"]) == (g.rent(i), h.rent(i))
        if o.startswith("build:"):
            assert row["cash"] < 0 and row["rent_after"] > row["rent_before"]
            assert row["payback_rounds"] == pytest.approx(-row["cash"] / row["per_round"])
        else:
            assert row["cash"] > 0 and row["rent_after"] == 0
        assert row["per_round"] == pytest.approx(
            (h.rent(i) - g.rent(i)) * pi[i] * (len(g.players) - 1)
        )


def test_easy_money_selling_shows_what_the_holding_earns():
    g = drive("easy_money", "offer_item")
    c = coach(g)
    assert c is not None and c.title.startswith("Selling")
    pi = aem.long_run_stops(aem.throw_matrix(g))
    offered = [int(o[6:]) for o in g.decision.options if str(o).startswith("space:")]
    assert sorted(c.numbers["holdings"]) == sorted(offered)
    for i, row in c.numbers["holdings"].items():
        assert (row["rent"], row["score"]) == (g.rent(i), g.holding_value(i))
        assert row["per_round"] == pytest.approx(g.rent(i) * pi[i] * (len(g.players) - 1))


def test_money_run_place_reach_is_what_the_engine_lets_the_pawn_do():
    """Where a coin goes: "you can get to N from the goal" is reached by a real pawn action
    through ``apply`` on the engine's board after the coin is placed."""
    g = drive("money_run", "place", when=lambda g: g.actions_left == 2)
    c = coach(g)
    seat = g.decision.player
    rows = c.numbers["squares"]
    assert set(rows) == set(g.decision.options)
    checked = 0
    for o, row in rows.items():
        assert row["you"] <= g.distance(seat)
        h = g.copy()
        h.apply(o)
        pawns = [a for a in h.decision.options if isinstance(a, tuple) and a[0] == "pawn"]
        best = g.distance(seat)
        for a in pawns:
            k = h.copy()
            k.apply(a)
            best = min(best, k.distance(seat))
        assert row["you"] == best, o
        checked += 1
    assert checked == len(rows)


def test_money_card_many_destinations_shows_the_best_few():
    g = drive("money_card", "move", when=lambda g: len(g.decision.options) > MC_SHOWN)
    c = coach(g)
    rows = c.numbers
    probed = [o for o, r in rows.items() if r["next_spin_key"] is not None]
    assert len(probed) == MC_SHOWN and "more places" in c.lines[-2]
    worst_shown = min((rows[o]["keys"], rows[o]["money"]) for o in probed)
    for o, r in rows.items():  # every place left out ranks no better than those shown
        if o not in probed:
            assert (r["keys"], r["money"]) <= worst_shown


def test_probes_refuse_a_finished_game():
    for name, probe in (("moolah", "probe_roll"), ("money_card", "probe_spin")):
        g = moneynb.new_game(name, players=["A", "B"], seed=2)
        moneynb.bots.play_out(g, [moneynb.make_bot("greedy", seed=i) for i in range(2)])
        assert g.over
        before = g.to_json()
        with pytest.raises(ValueError, match="over"):
            getattr(g, probe)(0)
        assert g.to_json() == before


@pytest.mark.parametrize("name", ["moolah", "easy_money", "money_card"])
def test_what_if_copy_is_an_independent_copy_with_the_same_future(name):
    g = drive(name, "turn", when=lambda g: len(g.log) > 100)
    before = g.to_json()
    a, b = what_if_copy(g), g.copy()
    bots = [moneynb.make_bot("greedy", seed=3) for _ in g.players]
    for _ in range(30):
        if a.over:
            break
        act = bots[a.decision.player].choose(a)
        assert [e.text for e in a.apply(act)] == [e.text for e in b.apply(act)]
    assert a.to_json() == b.to_json() and g.to_json() == before


@pytest.mark.parametrize("name", ["moolah", "easy_money", "money_card", "money_moves", "money_run"])
def test_fast_copy_is_the_deep_copy_at_every_state(name):
    """The enumeration's copier (outcomes._copy, faster than copy.deepcopy) gives the state
    Game.copy() gives, at every decision of a seeded game, and changes to it never reach the
    original (every mutable part is new, shared parts stay shared within the copy)."""
    g = moneynb.new_game(name, players=["A", "B", "C"], seed=5)
    bots = [moneynb.make_bot("greedy", seed=50 + i) for i in range(3)]
    for _ in range(150):
        if g.over:
            break
        a, b = what_if_copy(g), g.copy()
        assert a.state() == b.state()
        act = bots[g.decision.player].choose(g)
        before = g.state()
        a.apply(act)  # play the copy first: the original must not move
        assert g.state() == before
        g.apply(act)
        assert a.state() == g.state()


@pytest.mark.parametrize("name", ["moolah", "easy_money", "money_card", "money_moves"])
def test_record_only_attributes_change_nothing_that_follows(name):
    """Game.record_only (what the enumeration's state_key leaves out) holds only records: set
    back to their values at the start of a game, the game plays on exactly alike (same events,
    same state apart from them) for the next 40 actions, at states all through a game."""
    fresh = moneynb.new_game(name, players=["A", "B", "C"], seed=12)
    attrs = type(fresh).record_only
    assert attrs
    bots = [moneynb.make_bot("greedy", seed=70 + i) for i in range(3)]
    changed = step = 0
    for seed in range(11, 31):  # games until 400 actions in all (a Money Moves game is short)
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed)
        while not g.over and step < 400:
            step += 1
            if step % 7 == 3:
                a, b = g.copy(), g.copy()
                changed += any(getattr(b, k) != getattr(fresh, k) for k in attrs)
                for k in attrs:
                    setattr(b, k, copy.deepcopy(getattr(fresh, k)))
                for _ in range(40):
                    if a.over:
                        break
                    act = bots[a.decision.player].choose(a)
                    ea, eb = a.apply(act), b.apply(act)
                    assert [(e.kind, e.data) for e in ea] == [(e.kind, e.data) for e in eb]
                sa, sb = a.state(), b.state()
                for k in attrs:
                    sa.pop(k), sb.pop(k)
                assert sa == sb
            g.apply(bots[g.decision.player].choose(g))
    assert changed  # the records did hold something else than at the start


def test_state_key_recognises_one_state_reached_two_ways():
    """Moolah: two dice throws with the same total to the same place give one state_key (the
    dice are a record); another total, another key; the key never changes the game."""
    from moneynb.core.outcomes import state_key

    g = drive("moolah", "turn", when=lambda g: "roll" in g.decision.options)
    before = g.to_json()
    keys = {}
    for a, b in ((1, 4), (4, 1), (2, 3), (3, 3)):
        h = g.copy()
        rig(h).dice(a, b)
        h.apply("roll")
        keys[(a, b)] = state_key(h)
    assert keys[(1, 4)] == keys[(4, 1)] == keys[(2, 3)]
    assert keys[(3, 3)] != keys[(1, 4)]
    assert g.to_json() == before


def test_coach_is_remembered_per_state_and_worked_out_again_for_another():
    """The same decision drawn again gets the same Coaching back (no recomputation); a copy
    in the same state too; once an action is applied, or the next draw is rigged (another
    generator state), it is worked out afresh."""
    from moneynb.coach import clear_cache

    g = drive("moolah", "turn", when=lambda g: "roll" in g.decision.options)
    clear_cache()
    c = coach(g)
    assert coach(g) is c and coach(g.copy()) is c
    h = g.copy()
    rig(h).dice(1, 2)
    assert coach(h) is not c
    clear_cache()
    assert coach(g) is not c and coach(g).text() == c.text()


# ----- the last three real choices: Money Moves borrow, Money Card debt and phrases -----------
def _brute_leaves(g, action, seat, follow):
    """``(probability, game after)`` of ``action``, the decider's follow-ups in ``follow`` taken
    by brute force (the option of highest :func:`brute_mean`, the first on ties)."""
    for o in chance_outcomes(g, action):
        h, d = o.game, o.game.decision
        if d is not None and not h.over and d.player == seat and d.tag in follow:
            best = max(d.options, key=lambda a: brute_mean(h, a, follow))
            for p, after in _brute_leaves(h, best, seat, follow):
                yield o.probability * p, after
        else:
            yield o.probability, h


def test_money_moves_borrow_coach_is_the_engines_loan():
    from moneynb.games.money_moves.rules import HOUSE_BANK

    g = drive("money_moves", "borrow")
    d, seat = g.decision, g.decision.player
    name, wallet = g.players[seat], g.wallet(seat)
    c = coach(g)
    assert c is not None and c.checks, "the coach says nothing at a House Bank loan"
    for a in ("leave", d.low, d.high):
        h = g.copy()
        h.apply(a)
        assert c.numbers[a]["score"] == h.scores()[name]
    h = g.copy()
    h.apply(d.high)
    while h.decision.tag == "borrow" and h.decision.player != seat:  # others at $0 answer first:
        h.apply(h.decision.high)  # counted as the Coach says, each borrowing the most allowed
    row = c.numbers[d.high]
    # the repayment the coach states is what the engine takes from real receipts of the roll
    found = 0
    for o in chance_outcomes(h, "roll"):
        paid = [e.data for e in o.events if e.kind == "paid"]
        got = [p["amount"] for p in paid if p["dst"] == wallet and p["src"] != HOUSE_BANK]
        back = [p["amount"] for p in paid if p["src"] == wallet and p["dst"] == HOUSE_BANK]
        if len(got) == 1 and got[0] in row["repay"]:  # a receipt of a money-die amount
            assert sum(back) == row["repay"][got[0]], (got, back)
            found += 1
    assert found
    # the next roll's chances, by brute force over the engine's outcomes
    base = worth(h, seat)
    leaves = list(_brute_leaves(h, "roll", seat, ("pick_player", "wild_card")))
    assert sum(p for p, _ in leaves) == 1
    assert row["p_loss_next_roll"] == sum(p for p, a in leaves if worth(a, seat) < base)
    assert row["p_broke_after"] == sum(p for p, a in leaves if a.cash(seat) == 0)


def _another_borrows_first(g):
    """At a loan: after the most allowed, the next decision is another player's loan."""
    h = what_if_copy(g)
    h.apply(g.decision.high)
    nd = h.decision
    return nd is not None and nd.tag == "borrow" and nd.player != g.decision.player


def test_money_moves_loan_before_another_loan_has_the_engines_next_roll():
    """Issue 38 / 39 (a gap met in version-2 games): two players at $0 answer the House Bank
    one after the other, so the next decision after a loan is the other's loan, not a roll.
    The Coach still gives the next roll's numbers, counted as if the other borrows the most
    allowed (says so), and they are the engine's, by brute force over its outcomes."""
    g = drive("money_moves", "borrow", when=_another_borrows_first)
    d, seat = g.decision, g.decision.player
    c = coach(g)
    h = g.copy()
    h.apply(d.high)
    other = h.players[h.decision.player]
    pre = [d.high]
    while h.decision.tag == "borrow" and h.decision.player != seat:
        pre.append(h.decision.high)
        h.apply(h.decision.high)
    assert h.decision.tag == "roll"
    checks = [k for k in c.checks if k.action == "roll"]
    assert checks and all(list(k.pre) == pre for k in checks), [k.pre for k in checks]
    row = c.numbers[d.high]
    base = worth(h, seat)
    leaves = list(_brute_leaves(h, "roll", seat, ("pick_player", "wild_card")))
    assert row["p_loss_next_roll"] == sum(p for p, a in leaves if worth(a, seat) < base)
    assert row["p_broke_after"] == sum(p for p, a in leaves if a.cash(seat) == 0)
    assert row["next_roll"] == sum(p * (worth(a, seat) - base) for p, a in leaves)
    said = [line for line in c.summary() + c.lines if "next roll" in line]
    assert said and all(f"if {other} borrows the most allowed too" in x for x in said), said


def test_money_card_debt_coach_is_the_engines():
    g = drive("money_card", "debt")
    d, seat = g.decision, g.decision.player
    c = coach(g)
    assert c is not None and c.checks, "the coach says nothing at a Money Card debt"

    def net(h):
        owed = sum(o[1] for o in h.debt["owed"]) if h.debt and h.debt["payer"] == seat else 0
        return h.cash(seat) - owed

    turn_ins = [o for o in d.options if o.startswith("turn_in:")]
    assert turn_ins
    for o in turn_ins:  # by brute force over the engine's outcomes (a card after, if any)
        outs = chance_outcomes(g, o)
        assert c.numbers[o]["net"] == sum(x.probability * (net(x.game) - net(g)) for x in outs)
        assert c.numbers[o]["keys_after"] == len(g.keys[seat]) - 1
    # Monte Carlo: P(win) is the spinner's chance of the colour (its segments, from the board)
    segs = g.board.segments
    for check in (k for k in c.checks if k.action == "monte_carlo"):
        color = check.name.split()[-1]
        p_color = Fraction(sum(s["color"] == color for s in segs), len(segs))
        assert check.valuation.probability(lambda v: v > 0) == p_color
    # and the expected result, by seeded real plays of the same policy
    check = next(k for k in c.checks if k.action == "monte_carlo")
    xs = [check.sample(g, seed) for seed in range(300)]
    mean = sum(xs) / len(xs)
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    assert abs(mean - float(check.valuation.mean)) < 4 * se + 1e-9


def _phrase_turn():
    """Money Card: Ann in Madrid holding two whole phrases, at her turn (spin or a phrase)."""
    from test_money_card import phrase_turn

    return phrase_turn()


def test_money_card_phrase_coach_is_the_engines():
    from test_money_card import B

    g = _phrase_turn()
    wanted = set(g.keys_wanted(0))
    c = coach(g)
    assert c is not None and c.checks, "the coach says nothing at a phrase choice"
    # spin: every spinner segment rigged in turn (each equally likely)
    hits = 0
    for i in range(len(B.segments)):
        h = g.copy()
        rig(h).spin(B.spinner, i)
        h.apply("spin")
        hits += h.decision.tag == "move" and bool(wanted & set(h.decision.options))
    assert c.numbers["spin"]["key_in_reach"] == Fraction(hits, len(B.segments))
    for o in ("phrase:es_a", "phrase:es_d"):
        h = g.copy()
        h.apply(o)
        h.apply("bonus")
        assert {len(p) - 1 for p in h.ctx["paths"].values()} == {c.numbers[o]["moves"]}
        most = 0
        for dest in h.decision.options:
            k = h.copy()
            k.apply(dest)
            most = max(most, len(k.keys[0]))
        assert c.numbers[o]["keys"] == most
    g.apply("phrase:es_a")  # then: another phrase, or the bonus of the one formed
    c2 = coach(g)
    assert c2 is not None and c2.numbers["bonus"]["moves"] == 10
    assert c2.numbers["phrase:es_d"]["moves"] == 20


@pytest.mark.parametrize("tag", ["post", "debt"])
def test_easy_money_sell_or_bankrupt_coach_is_the_engines(tag):
    """Easy Money, when offering a holding (or bankruptcy, in a debt) is the only choice: the
    coach names each holding's rent and score as the engine charges them, and bankruptcy's
    result as the engine plays it."""
    g = drive("easy_money", tag, when=lambda g: len(g.decision.options) > 1
              and set(g.decision.options) <= {"end", "offer", "bankrupt"})  # fmt: skip
    c = coach(g)
    assert c is not None and c.lines, f"the coach says nothing at {tag} {g.decision.options}"
    rows = c.numbers["holdings"]
    assert rows and all(r["rent"] == g.rent(i) and r["score"] == g.holding_value(i)
                        for i, r in rows.items())  # fmt: skip
    if "bankrupt" in g.decision.options:
        h = g.copy()
        h.apply("bankrupt")
        assert c.numbers["bankrupt"]["score"] == h.scores()[g.players[g.decision.player]]
