"""Moolah rules: every rulebook section, every worked example with its exact balances, every
space and every Temptation card (rulebooks/moolah.txt; reconstructions in docs/moolah.md)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

import moneynb
from moneynb.core import IllegalAction
from moneynb.games.moolah.rules import (
    BANK,
    LOAN_SHARK,
    blackjack_table,
    blackjack_value,
    blackjack_win_probability,
    closer,
    load_data,
    round_off,
)
from moneynb.testing import rig

DATA = Path(moneynb.__file__).parent / "games" / "moolah"


def fresh(players=("Ann", "Bob"), withdraw=50_000, seed=1, **options):
    """A game past the first withdrawals, waiting on the starting player's roll."""
    g = moneynb.new_game("moolah", players=list(players), seed=seed, **options)
    while g.decision.tag == "first_withdrawal":
        g.apply(withdraw)
    assert g.decision.tag == "turn"
    return g


def set_cash(g, seat, amount):
    have = g.cash(seat)
    if amount > have:
        g.ledger.transfer(BANK, g.wallet(seat), amount - have)
    else:
        g.ledger.transfer(g.wallet(seat), BANK, have - amount)


def set_balance(g, seat, amount):
    have = g.balance(seat)
    if amount > have:
        g.ledger.transfer(BANK, g.account(seat), amount - have)
    else:
        g.ledger.transfer(g.account(seat), BANK, have - amount)


def other(g):
    return 1 - g.current


def travel(g, target, dice=(1, 2)):
    """Put the current player ``sum(dice)`` spaces before ``target`` and roll ``dice``;
    Option Points on the way are answered along that path."""
    seat = g.current
    path = [target]
    for _ in range(sum(dice)):
        path.insert(0, g.data.prev[path[0]][0])
    g.pos[seat] = path[0]
    rig(g).dice(*dice).top(*CARDS.pop(id(g), ()))
    g.apply("roll")
    while g.decision is not None and g.decision.tag == "fork":
        g.apply(path[path.index(g.pos[seat]) + 1])
    return g


#: cards the next draws will show, per game, fixed with the rig after the next roll's dice
CARDS: dict[int, list] = {}


def top(g, *cards):
    """The next cards drawn, whatever pile they come from (Temptation, a stock, the Casino),
    are ``cards`` in order: fixed with the public rig right after the dice of the next
    :func:`travel` (the dice are thrown first)."""
    CARDS.setdefault(id(g), []).extend(cards)


def end_turn_if_asked(g):
    if g.decision is not None and g.decision.tag == "after":
        g.apply("end")


# ----- Preparation, start ----------------------------------------------------------------------
def test_setup_accounts_credit_and_first_withdrawal_on_the_score_pad():
    g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"], seed=3)
    assert g.decision.tag == "first_withdrawal"
    assert (g.decision.low, g.decision.high, g.decision.step) == (0, 450_000, 5_000)
    assert "$50,000 recommended" in g.decision.prompt
    for p in g.players:
        assert g.money()[f"account:{p}"] == 250_000
        assert g.money()[f"wallet:{p}"] == 0
    first = g.first
    g.apply(50_000)
    assert g.cash(first) == 50_000 and g.balance(first) == 200_000
    assert g.pad[first] == [{"old": 250_000, "new": 200_000, "what": "first withdrawal"}]
    g.apply(0)
    g.apply(100_000)
    assert g.decision.tag == "turn" and g.decision.player == first
    assert all(p == "bank" for p in g.pos)


def test_highest_opening_roll_starts():
    for seed in range(20):
        g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"], seed=seed)
        rolls = [e for e in g.log if e.kind == "rolled"]
        rollers = [0, 1, 2]  # a round: each roller throws once; the tied highest throw again
        while len(rollers) > 1:
            this, rolls = rolls[: len(rollers)], rolls[len(rollers) :]
            assert [e.data["seat"] for e in this] == rollers
            best = max(sum(e.data["dice"]) for e in this)
            rollers = [e.data["seat"] for e in this if sum(e.data["dice"]) == best]
        assert rolls == []
        starter = g.first
        assert rollers == [starter]
        assert g.decision.player == starter


# ----- The Bank: the rulebook's worked examples ------------------------------------------------
def bank_visit(g, mode, amount, dice=(1, 2)):
    travel(g, "bank", dice)
    assert g.decision.tag == "bank"
    g.apply(mode)
    g.apply(amount)


def test_bank_examples_withdraw_then_deposit():
    g = fresh(withdraw=0)
    me = g.current
    bank_visit(g, "withdraw", 50_000)  # $250,000 -> $200,000
    assert g.pad[me][-1] == {"old": 250_000, "new": 200_000, "what": "withdrawal"}
    end_turn_if_asked(g)
    g.current = me
    set_cash(g, me, 100_000)
    bank_visit(g, "deposit", 100_000)  # $200,000 -> $300,000
    assert g.pad[me][-1] == {"old": 200_000, "new": 300_000, "what": "deposit"}
    assert g.balance(me) == 300_000


def test_bank_examples_line_of_credit_negative_numbers_and_repayment():
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, 10_000)
    bank_visit(g, "withdraw", 50_000)  # $10,000 -> -$40,000
    assert g.pad[me][-1]["old"] == 10_000 and g.pad[me][-1]["new"] == -40_000
    g.current = me
    bank_visit(g, "withdraw", 100_000)  # -$40,000 -> -$140,000
    assert (g.pad[me][-1]["old"], g.pad[me][-1]["new"]) == (-40_000, -140_000)
    g.current = me
    set_cash(g, me, 200_000)
    bank_visit(g, "deposit", 200_000)  # debt repaid first: -$140,000 -> $60,000
    assert (g.pad[me][-1]["old"], g.pad[me][-1]["new"]) == (-140_000, 60_000)
    assert g.balance(me) == 60_000


def test_credit_is_limited_to_the_line_and_refused_amounts_change_nothing():
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, -150_000)
    travel(g, "bank")
    g.apply("withdraw")
    assert g.decision.high == 50_000  # only $50,000 of the $200,000 line is left
    before = g.state()
    with pytest.raises(IllegalAction, match=r"\$50,000"):
        g.apply(55_000)
    with pytest.raises(IllegalAction):
        g.apply(12_345)
    assert g.state() == before
    g.apply("back")
    assert g.decision.tag == "bank"
    g.apply("done")
    assert g.balance(me) == -150_000


def test_bank_cannot_be_passed_by_dice_and_doubles_still_roll_again():
    g = fresh()
    me = g.current
    g.pos[me] = "s37"
    rig(g).dice(3, 3)  # six steps would pass the Bank after three
    g.apply("roll")
    assert g.pos[me] == "bank"
    assert any(e.kind == "bank_stop" for e in g.log[-6:])
    assert g.decision.tag == "bank"
    g.apply("done")
    assert g.decision.tag == "turn" and g.decision.player == me  # doubles: roll again


def test_sent_elsewhere_does_not_stop_at_the_bank():
    g = fresh()
    me = g.current
    travel(g, "s38")  # Hot Tip: go to Wall Street, past the Bank
    assert g.pos[me] == "wall_street"
    assert g.decision.tag == "wall_street"


# ----- Loan Shark: the rulebook's worked examples ------------------------------------------------
def test_loan_shark_example_pay_50000_with_empty_wallet():
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, 100_000)
    travel(g, "a3")  # Lawsuit: pay $50,000
    assert g.cash(me) == 0
    assert g.balance(me) == 25_000
    assert g.pad[me][-1]["old"] == 100_000 and g.pad[me][-1]["new"] == 25_000
    assert g.money()[LOAN_SHARK] == 25_000


def test_loan_shark_example_pay_100000_with_50000_in_the_bank(tmp_path):
    board = (DATA / "board.toml").read_text().replace("amount = -50_000", "amount = -100_000")
    path = tmp_path / "board.toml"
    path.write_text(board)
    g = fresh(withdraw=0, board_file=str(path))
    me = g.current
    set_balance(g, me, 50_000)
    travel(g, "a3")  # Lawsuit (house rule): pay $100,000
    assert (g.pad[me][-1]["old"], g.pad[me][-1]["new"]) == (50_000, -100_000)


def test_loan_shark_lends_only_the_shortfall():
    g = fresh(withdraw=30_000)
    me = g.current
    travel(g, "s15")  # Income Tax: pay $40,000 with $30,000 in the wallet
    assert g.cash(me) == 0
    assert g.balance(me) == 220_000 - 15_000  # $10,000 borrowed + $5,000 interest
    ev = [e for e in g.log if e.kind == "loan_shark"][-1]
    assert (ev.data["loan"], ev.data["interest"]) == (10_000, 5_000)


def test_bankrupt_when_account_and_credit_cannot_cover_the_loan():
    g = fresh(withdraw=0)
    me, you = g.current, other(g)
    set_balance(g, me, -190_000)
    travel(g, "s15")  # needs $40,000 + $20,000 interest, only $10,000 of credit left
    assert g.out[me]
    assert g.over and g.winner == g.players[you]
    assert g.end_reason == "last player"


def test_no_bet_with_loan_shark_money():
    g = fresh(withdraw=30_000)
    travel(g, "casino")
    assert g.decision.tag == "casino_bet" and g.decision.high == 30_000
    with pytest.raises(IllegalAction):
        g.apply(35_000)


# ----- Mugging and Safe Zones -------------------------------------------------------------------
def test_mugging_comes_first_then_the_space_acts():
    g = fresh(withdraw=50_000)
    me, you = g.current, other(g)
    g.pos[you] = "s04"
    set_cash(g, me, 0)
    travel(g, "s04")  # Doctor's Bill $20,000, paid out of the mugged cash
    assert g.cash(you) == 0
    assert g.cash(me) == 30_000
    assert g.balance(me) == 200_000  # no Loan Shark needed


@pytest.mark.parametrize("sid", ["s05", "s16", "s33", "a1", "exit", "parole", "bank"])
def test_no_mugging_at_protected_spaces(sid):
    g = fresh()
    me, you = g.current, other(g)
    g.pos[you] = sid
    if sid == "bank":
        g.pos[me] = "s37"
        rig(g).dice(1, 2)
        g.apply("roll")
    else:
        travel(g, sid)
    assert g.pos[me] == sid
    assert g.cash(you) == 50_000


# ----- Wall Street -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "stock,card,invest,cash_after",
    [
        ("gold", 50, 20_000, 60_000),  # +$10,000
        ("gold", -100, 20_000, 30_000),  # the whole investment lost
        ("grain", 10, 25_000, 55_000),  # +$2,500 rounds up to $5,000 (Round-Off Clause)
        ("grain", -10, 25_000, 50_000),  # -$2,500 rounds down to $0 (player's favour)
        ("oil", 80, 50_000, 90_000),
    ],
)
def test_wall_street_profit_and_loss(stock, card, invest, cash_after):
    g = fresh()
    me = g.current
    top(g, card)
    travel(g, "wall_street")
    assert g.decision.options == ("grain", "oil", "gold", "pass")
    g.apply(stock)
    assert g.decision.low == 10_000 and g.decision.high == 50_000
    g.apply(invest)
    assert g.cash(me) == cash_after
    assert g.stocks[stock].discard_pile[-1] == card
    assert g.decision.tag != "wall_street"  # once per landing


def test_wall_street_needs_10000_and_allows_pass():
    g = fresh(withdraw=5_000)
    travel(g, "wall_street")
    assert g.decision.tag != "wall_street"
    g = fresh()
    me = g.current
    n_grain = len(g.stocks["grain"].draw_pile)
    travel(g, "wall_street")
    g.apply("pass")
    assert g.cash(me) == 50_000 and g.decision.player != me
    assert len(g.stocks["grain"].draw_pile) == n_grain


# ----- Las Vegas Casino: Black Jack ---------------------------------------------------------------
def test_black_jack_raise_and_win_doubles_the_money():
    g = fresh(withdraw=100_000)
    me = g.current
    top(g, 20, 23)
    travel(g, "casino")
    g.apply(20_000)
    assert g.decision.tag == "casino_raise"
    assert (g.decision.low, g.decision.high) == (20_000, 40_000)
    g.apply(40_000)
    assert g.cash(me) == 140_000


def test_black_jack_tie_and_equal_closeness_go_to_the_house():
    for mine, house in ((18, 18), (20, 22)):
        g = fresh(withdraw=100_000)
        me = g.current
        top(g, mine, house)
        travel(g, "casino")
        g.apply(10_000)
        g.apply("stay")
        assert g.cash(me) == 90_000


def test_black_jack_raise_is_capped_by_the_wallet_and_all_in_skips_it():
    g = fresh(withdraw=50_000)
    top(g, 21, 14)
    travel(g, "casino")
    g.apply(30_000)
    assert g.decision.high == 50_000  # not $60,000: only wallet money is bet
    g = fresh(withdraw=50_000)
    me = g.current
    top(g, 21, 14)
    travel(g, "casino")
    g.apply(50_000)  # all in: nothing left to raise with
    assert g.cash(me) == 100_000


def test_black_jack_exact_probabilities():
    pile = {20: 1, 21: 1, 25: 2}
    assert blackjack_win_probability(pile, 21) == 1  # 21 beats everything else
    assert blackjack_win_probability(pile, 20) == Fraction(2, 3)  # beats the two 25s
    assert blackjack_win_probability(pile, 25) == 0  # 25 vs 25 is a tie: House
    assert closer(21, 20) and not closer(20, 22) and not closer(22, 20)
    rows = {r["card"]: r for r in blackjack_table(pile)}
    assert rows[20]["best"] == "double" and rows[20]["double"] == Fraction(2, 3)
    assert (
        blackjack_value(pile)
        == Fraction(1, 4) * 1 * 2 + Fraction(1, 4) * Fraction(2, 3) + Fraction(1, 2) * -1
    )
    with pytest.raises(ValueError):
        blackjack_win_probability(pile, 19)


def test_black_jack_value_of_the_shipped_pile_matches_a_seeded_simulation():
    counts = load_data().casino
    exact = blackjack_value(counts)
    stay = blackjack_value(counts, can_double=False)
    assert stay < 0 < exact  # the option to double turns a losing game into a winning one
    rng = random.Random(5)
    pile = [c for c, n in counts.items() for _ in range(n)]
    table = {r["card"]: r["best"] for r in blackjack_table(counts)}
    total, n = 0, 40_000
    for _ in range(n):
        mine, house = rng.sample(pile, 2)
        stake = 2 if table[mine] == "double" else 1
        total += stake if closer(mine, house) else -stake
    assert abs(total / n - float(exact)) < 0.03


# ----- Take A Pal --------------------------------------------------------------------------------
def test_take_a_pal_mugs_the_casino_splits_and_both_bet_all():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = g.current
    pal, victim = (me + 1) % 3, (me + 2) % 3
    g.pos[victim] = "casino"
    set_cash(g, victim, 30_000)
    set_cash(g, pal, 20_000)
    set_cash(g, me, 10_000)
    top(g, 21, 14, 14, 21)  # taker: 21 vs 14 wins; pal: 14 vs 21 loses
    travel(g, "take_pal")
    assert g.decision.kind == "player"
    assert victim not in g.decision.options  # already at the Casino
    g.apply(pal)
    assert g.pos[me] == g.pos[pal] == "casino"
    assert g.cash(victim) == 0
    assert g.cash(me) == 2 * (10_000 + 15_000)
    assert g.cash(pal) == 0


def test_take_a_pal_split_rounds_up_and_nobody_is_allowed():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = g.current
    pal, victim = (me + 1) % 3, (me + 2) % 3
    g.pos[victim] = "casino"
    set_cash(g, victim, 25_000)
    set_cash(g, pal, 0)
    set_cash(g, me, 0)
    top(g, 21, 14, 21, 14)
    travel(g, "take_pal")
    g.apply(pal)
    assert g.cash(me) == 30_000 and g.cash(pal) == 30_000  # $12,500 rounds up to $15,000, won
    g = fresh()
    me = g.current
    travel(g, "take_pal")
    g.apply("nobody")
    assert g.pos == ["take_pal" if s == me else "bank" for s in range(2)]


def test_take_a_pal_excludes_held_players():
    g = fresh()
    you = other(g)
    g.pos[you], g.missed[you] = "bufes", 1
    travel(g, "take_pal")
    assert g.decision is None or g.decision.tag != "take_pal"
    assert any(e.kind == "no_pal" for e in g.log[-5:])


# ----- Bufe's Bar & Grill, The Big House, Prison Break ---------------------------------------------
def test_bufes_misses_one_turn_then_exit():
    g = fresh()
    me, you = g.current, other(g)
    travel(g, "s12")
    assert g.pos[me] == "bufes" and g.missed[me] == 1
    assert g.cash(me) == 50_000  # Bufe's keeps your cash
    assert g.decision.player == you
    rig(g).dice(1, 2)
    g.apply("roll")
    while g.decision.player == you:
        g.apply(g.greedy_action(random.Random(0)))
    # my turn was missed: moved to the Exit, and it is your turn again
    assert g.pos[me] == "exit" and g.missed[me] == 0


def test_big_house_maximum_loses_cash_and_misses_two_turns():
    g = fresh()
    me, you = g.current, other(g)
    travel(g, "s28")
    assert g.pos[me] == "max" and g.missed[me] == 2 and g.cash(me) == 0
    assert g.decision.player == you
    stages = []
    for _ in range(3):
        g.current = you
        g._end_turn()
        stages.append(g.pos[me])
    assert stages == ["min", "parole", "parole"]
    assert g.decision.player == me


def test_big_house_minimum_misses_one_turn():
    g = fresh()
    me, you = g.current, other(g)
    travel(g, "s36")
    assert g.pos[me] == "min" and g.missed[me] == 1 and g.cash(me) == 0
    g.current = you
    g._end_turn()
    assert g.pos[me] == "parole"
    assert g.decision.player == you


def test_doubles_cancel_one_missed_turn():
    g = fresh()
    me = g.current
    travel(g, "s28", dice=(2, 2))
    assert g.pos[me] == "min" and g.missed[me] == 1  # two turns less one
    assert g.decision.player != me  # and no extra roll


def test_prison_break_frees_prisoners_who_mug_the_player_and_split():
    g = fresh(players=("Ann", "Bob", "Cy", "Dee"))
    me = g.current
    p1, p2, parolee = (me + 1) % 4, (me + 2) % 4, (me + 3) % 4
    g.pos[p1], g.missed[p1] = "max", 2
    g.pos[p2], g.missed[p2] = "min", 1
    g.pos[parolee] = "parole"
    for s in (p1, p2):
        set_cash(g, s, 0)
    set_cash(g, me, 25_000)
    travel(g, "prison_break")
    assert g.pos[p1] == g.pos[p2] == "prison_break"
    assert g.missed[p1] == g.missed[p2] == 0
    assert g.cash(me) == 0
    assert g.cash(p1) == g.cash(p2) == 15_000  # $12,500 each, rounded up
    assert g.pos[parolee] == "parole"  # Parole is not affected


def test_prison_break_with_no_prisoners_does_nothing():
    g = fresh()
    me = g.current
    travel(g, "prison_break")
    assert g.cash(me) == 50_000


# ----- Moolah, Option Points, Fair Share Square -------------------------------------------------------
def test_moolah_stay_or_jump_and_mug_at_the_new_space():
    g = fresh()
    me, you = g.current, other(g)
    g.pos[you] = "moolah3"
    travel(g, "moolah2")
    d = g.decision
    assert d.tag == "moolah" and d.kind == "space"
    assert set(d.options) == {"moolah1", "moolah2", "moolah3", "moolah4"}
    g.apply("moolah3")
    assert g.pos[me] == "moolah3"
    assert g.cash(me) == 100_000 and g.cash(you) == 0
    g = fresh()
    me = g.current
    travel(g, "moolah1")
    g.apply("moolah1")
    assert g.pos[me] == "moolah1" and g.decision.player != me


def test_option_point_passing_and_landing_choose_the_path():
    g = fresh()
    me = g.current
    g.pos[me] = "s04"
    rig(g).dice(2, 3)
    g.apply("roll")  # passes the Option Point after two steps
    d = g.decision
    assert d.tag == "fork" and d.options == ("wall_street", "a1")
    assert "3 to move" in d.prompt
    g.apply("a1")
    assert g.pos[me] == "a3"  # a1, a2, a3 on the inner path
    g = fresh()
    me = g.current
    travel(g, "opt1")  # landing: the choice comes when leaving
    end_turn_if_asked(g)
    g.current = me
    rig(g).dice(1, 2)
    g.apply("roll")
    assert g.decision.tag == "fork"
    with pytest.raises(IllegalAction):
        g.apply("s05")  # never against the hands
    g.apply("wall_street")
    assert g.pos[me] == "s09"


def test_fair_share_square_pools_and_shares_but_not_at_the_exit():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = g.current
    rich, at_exit = (me + 1) % 3, (me + 2) % 3
    set_cash(g, me, 0)
    set_cash(g, rich, 25_000)
    g.pos[rich] = "s21"
    g.pos[at_exit] = "exit"
    set_cash(g, at_exit, 80_000)
    travel(g, "fair_share")
    assert g.cash(me) == 15_000 and g.cash(rich) == 15_000  # $12,500 rounded up
    assert g.cash(at_exit) == 80_000


def test_round_off_is_always_in_the_players_favour():
    assert round_off(12_500, 5_000, True) == 15_000
    assert round_off(12_500, 5_000, False) == 10_000
    assert round_off(15_000, 5_000, True) == 15_000


# ----- Temptation cards ----------------------------------------------------------------------------
def draw(g, cid, cash=50_000):
    me = g.current
    set_cash(g, me, cash)
    top(g, cid)
    travel(g, "s35")
    return me


@pytest.mark.parametrize("cid", [c for c, v in load_data().cards.items() if v["kind"] == "collect"])
def test_collect_cards(cid):
    g = fresh()
    me = draw(g, cid)
    assert g.cash(me) == 50_000 + g.data.cards[cid]["amount"]
    assert g.temptation.discard_pile[-1] == cid


@pytest.mark.parametrize("cid", [c for c, v in load_data().cards.items() if v["kind"] == "pay"])
def test_pay_cards_with_the_loan_shark(cid):
    g = fresh()
    me = draw(g, cid, cash=0)
    amount = g.data.cards[cid]["amount"]
    assert g.balance(me) == 200_000 - amount - amount // 2


@pytest.mark.parametrize("cid", [c for c, v in load_data().cards.items() if v["kind"] == "deposit"])
def test_deposit_cards_go_to_the_account(cid):
    g = fresh()
    me = draw(g, cid)
    assert g.balance(me) == 200_000 + g.data.cards[cid]["amount"]
    assert g.cash(me) == 50_000
    assert g.pad[me][-1]["new"] == g.balance(me)


def test_deposit_card_can_win_the_game():
    g = fresh()
    me = g.current
    set_balance(g, me, 960_000)
    draw(g, "bond")
    assert g.over and g.winner == g.players[me] and g.end_reason == "goal"


def test_birthday_and_lunch_cards():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = draw(g, "birthday", cash=0)
    assert g.cash(me) == 20_000
    assert all(g.cash(s) == 40_000 for s in range(3) if s != me)
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = draw(g, "lunch", cash=50_000)
    assert g.cash(me) == 30_000
    assert all(g.cash(s) == 60_000 for s in range(3) if s != me)


def test_pickpocket_takes_half_rounded_in_the_players_favour():
    g = fresh()
    me = draw(g, "pickpocket", cash=35_000)
    assert g.cash(me) == 20_000  # half of $35,000 is $17,500: $15,000 taken


@pytest.mark.parametrize(
    "cid,where,tag",
    [
        ("night_out", "bufes", None),
        ("embezzler", "max", None),
        ("tickets", "min", None),
        ("vegas_trip", "casino", "casino_bet"),
        ("broker", "wall_street", "wall_street"),
        ("moolah", "moolah3", "moolah"),
        ("go_bank", "bank", "bank"),
    ],
)
def test_goto_cards(cid, where, tag):
    g = fresh()
    me = draw(g, cid)
    assert g.pos[me] == where
    if tag:
        assert g.decision.tag == tag and g.decision.player == me
    else:
        assert g.missed[me] > 0 and g.decision.player != me
    if where in ("max", "min"):
        assert g.cash(me) == 0


@pytest.mark.parametrize(
    "cid,roll,cash_after",
    [("horse", 6, 150_000), ("horse", 5, 30_000), ("poker", 4, 75_000), ("poker", 3, 20_000)],
)
def test_gamble_cards(cid, roll, cash_after):
    g = fresh()
    me = draw(g, cid)
    assert g.decision.tag == "gamble"
    rig(g).dice(roll)
    g.apply("accept")
    assert g.cash(me) == cash_after


@pytest.mark.parametrize(
    "cid", [c for c, v in load_data().cards.items() if v["kind"] == "advantage"]
)
def test_every_advantage_card_moves_exactly_its_steps(cid):
    g = fresh()
    me = draw(g, cid)
    steps = g.data.cards[cid]["steps"]
    assert [c for c, _ in g.hand[me]] == [cid]
    assert f"advantage:{cid}" not in str(g.decision.options)  # not in the turn it was drawn
    g._end_turn()  # the other player's turn passes; the card is usable now
    assert g.decision.player == me and f"advantage:{cid}" in g.decision.options
    g.pos[me] = "s21"
    g.apply(f"advantage:{cid}")
    ahead, behind = "s21", "s21"
    for _ in range(steps):
        ahead = g.data.spaces[ahead]["next"][0]
        behind = g.data.prev[behind][0]
    assert set(g.decision.options) == {ahead, behind, "cancel"}
    assert g.decision.labels[ahead].startswith(f"forward {steps}")
    assert g.decision.labels[behind].startswith(f"back {steps}")


def test_gamble_card_decline_and_too_poor():
    g = fresh()
    me = draw(g, "poker")
    g.apply("decline")
    assert g.cash(me) == 50_000
    g = fresh()
    me = draw(g, "poker", cash=20_000)
    assert g.decision.tag != "gamble"
    assert g.cash(me) == 20_000


def test_every_card_kind_is_tested():
    kinds = {v["kind"] for v in load_data().cards.values()}
    assert kinds == {"collect", "pay", "deposit", "collect_each", "pay_each", "lose_half", "goto",
                     "gamble", "advantage"}  # fmt: skip


# ----- Advantage cards -------------------------------------------------------------------------------
def test_advantage_is_held_and_not_usable_the_turn_it_is_drawn():
    g = fresh()
    me = draw(g, "advantage3")
    assert [c for c, _ in g.hand[me]] == ["advantage3"]
    assert "advantage3" not in g.temptation.discard_pile
    assert g.decision.player != me  # no "after" offer: drawn this turn
    g._end_turn()  # the other player's turn passes
    assert g.decision.player == me and g.decision.tag == "turn"
    assert g.decision.options == ("roll", "advantage:advantage3")


def test_advantage_before_rolling_moves_exactly_and_ends_the_turn():
    g = fresh()
    me = g.current
    g.hand[me] = [["advantage3", -1]]
    g.pos[me] = "s09"
    g._begin_turn(me)
    g.apply("advantage:advantage3")
    d = g.decision
    assert d.tag == "advantage_target"
    assert set(d.options) == {"s12", "opt1", "cancel"}  # forward 3 or back 3
    g.apply("s12")  # forward 3: Go to Bufe's, obeyed
    assert g.pos[me] == "bufes"
    assert g.hand[me] == [] and g.temptation.discard_pile[-1] == "advantage3"
    assert g.decision.player != me


def test_advantage_cancel_returns_to_the_roll():
    g = fresh()
    me = g.current
    g.hand[me] = [["advantage1", -1]]
    g._begin_turn(me)
    g.apply("advantage:advantage1")
    g.apply("cancel")
    assert g.decision.tag == "turn" and g.hand[me]


def test_advantage_backwards_into_but_not_past_the_bank():
    g = fresh()
    me = g.current
    g.pos[me] = "s02"
    assert g.advantage_targets("s02", 2) == {"s04": "forward", "bank": "back"}
    assert "s39" not in g.advantage_targets("s02", 3)  # would pass the Bank going back
    assert g.advantage_targets("s38", 3)["bank"] == "forward"  # forward stops at the Bank
    # against the hands of an inner path is allowed for the card
    assert g.advantage_targets("a2", 2) == {"a4": "forward", "opt1": "back"}
    assert set(g.advantage_targets("moolah2", 1)) == {"s15", "s13", "a4"}


def test_advantage_after_rolling_after_obeying_the_space_even_on_doubles():
    g = fresh()
    me = g.current
    g.hand[me] = [["advantage2", -1]]
    g.pos[me] = "opt1"
    rig(g).dice(2, 2)
    g.apply("roll")
    g.apply("wall_street")  # fork: outer; four steps: wall_street, s08, s09, casino
    assert g.pos[me] == "casino"
    g.apply("pass")  # Casino obeyed first
    assert g.decision.tag == "turn"  # doubles: the card may be played instead of rolling
    g.apply("advantage:advantage2")
    g.apply("s12")  # two forward
    assert g.decision.player != me  # the card ended the turn despite the doubles


def test_advantage_cards_are_not_combined():
    g = fresh()
    me = g.current
    g.hand[me] = [["advantage1", -1], ["advantage2", -1]]
    g.pos[me] = "s31"
    g._begin_turn(me)
    g.apply("advantage:advantage1")
    g.apply("prison_break")  # nobody in the Big House: nothing happens
    assert g.decision.player != me  # no second card in the same turn
    assert [c for c, _ in g.hand[me]] == ["advantage2"]


# ----- every space, win, turn cap, bad inputs ------------------------------------------------------------
SPACE_EXPECT = {
    "safe": None, "option": None, "exit": None, "parole": None, "fair_share": None,
    "prison_break": None, "bank": "bank", "temptation": None, "moolah": "moolah",
    "wall_street": "wall_street", "casino": "casino_bet", "take_pal": "take_pal",
}  # fmt: skip


@pytest.mark.parametrize("sid", [s for s in load_data().order if load_data().spaces[s]["next"]])
def test_every_space(sid):
    g = fresh(players=("Ann", "Bob"))
    me = g.current
    data = g.data
    space = data.spaces[sid]
    if space["kind"] == "temptation":
        top(g, "tax_refund")
    if space["kind"] == "bank":
        g.pos[me] = "s37"
        rig(g).dice(1, 2)
        g.apply("roll")
    elif sid in ("s01", "s02"):  # no roll reaches them without stopping at the Bank first
        rig(g).top(*CARDS.pop(id(g), ()))
        g._land(me, sid)
    else:
        travel(g, sid)
    kind = space["kind"]
    if kind == "goto":
        to = space["to"]
        assert g.pos[me] == to
        if data.spaces[to]["kind"] in ("bufes", "max", "min"):
            assert g.missed[me] > 0
        return
    assert g.pos[me] == sid
    if kind == "money":
        assert g.cash(me) == max(0, 50_000 + space["amount"])
    elif kind == "temptation":
        assert g.cash(me) == 75_000
    elif SPACE_EXPECT.get(kind):
        assert g.decision.tag == SPACE_EXPECT[kind]
    else:
        assert g.cash(me) == 50_000 and g.decision.player != me


def test_reaching_one_million_at_the_bank_wins():
    g = fresh()
    me = g.current
    set_balance(g, me, 900_000)
    set_cash(g, me, 100_000)
    bank_visit(g, "deposit", 100_000)
    assert g.over and g.winner == g.players[me] and g.scores()[g.players[me]] == 1_000_000


def test_turn_cap_ends_with_the_most_money():
    g = fresh(max_turns=4)
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(2)]
    while not g.over:
        g.apply(bots[g.decision.player].choose(g))
    assert g.end_reason in ("turn limit", "goal", "last player")
    assert g.turn_no <= 4
    if g.end_reason == "turn limit":
        worth = {s: g.balance(s) + g.cash(s) for s in range(2)}
        assert [g.players.index(w) for w in g.winner_names] == [
            s for s in range(2) if worth[s] == max(worth.values())
        ]
    with pytest.raises(ValueError, match="max_turns"):
        moneynb.new_game("moolah", players=["A", "B"], max_turns=-1)


def test_bad_actions_change_nothing():
    g = fresh()
    before = g.state()
    for bad in ("fly", 5, None, "advantage:advantage1", ["roll"]):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.state() == before


def test_bad_data_files_are_refused(tmp_path):
    text = (DATA / "board.toml").read_text()
    bad = tmp_path / "b.toml"
    bad.write_text(text.replace('next = ["s01"]', 'next = ["nowhere"]'))
    with pytest.raises(ValueError, match="unknown space"):
        moneynb.new_game("moolah", players=["A", "B"], board_file=str(bad))
    bad.write_text(text.replace('kind = "casino"', 'kind = "safe"'))
    with pytest.raises(ValueError, match="casino"):
        moneynb.new_game("moolah", players=["A", "B"], board_file=str(bad))
    bad.write_text(text.replace('next = ["bank"]', 'next = ["s01"]'))
    with pytest.raises(ValueError, match="avoids the Bank"):
        moneynb.new_game("moolah", players=["A", "B"], board_file=str(bad))
    cards = (DATA / "cards.toml").read_text()
    badc = tmp_path / "c.toml"
    badc.write_text(cards.replace("steps = 5", "steps = 9"))
    with pytest.raises(ValueError, match="steps = 9: .*from 1 to 5"):
        moneynb.new_game("moolah", players=["A", "B"], cards_file=str(badc))


def test_observation_hides_the_piles():
    g = fresh()
    you = other(g)
    me = draw(g, "advantage2")
    obs = g.observation(you)
    assert obs["hand"] == [] and obs["hand_sizes"][me] == 1
    assert isinstance(obs["temptation"]["draw_pile"], int)
    assert "draw_pile" not in str(obs["stocks"]).replace("'draw_pile': ", "")


def test_greedy_bots_reach_the_million():
    wins = 0
    for seed in range(20):
        g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=seed * 3 + i) for i in range(3)]
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        wins += g.end_reason == "goal"
        assert sum(g.money().values()) == g.ledger.total
    assert wins >= 15


def test_an_edited_house_rule_file_is_read_again(tmp_path):
    path = tmp_path / "board.toml"
    text = (DATA / "board.toml").read_text()
    path.write_text(text)
    g1 = moneynb.new_game("moolah", players=["A", "B"], seed=1, board_file=str(path))
    assert g1.data.spaces["s04"]["amount"] == -20_000
    path.write_text(text.replace("amount = -20_000", "amount = -35_000"))
    import os

    os.utime(path, ns=(1, 1))  # a different modification time, however fast the edit
    g2 = moneynb.new_game("moolah", players=["A", "B"], seed=1, board_file=str(path))
    assert g2.data.spaces["s04"]["amount"] == -35_000


def test_log_names_the_bank_account_readably():
    # the first withdrawal's "paid" line read "account:Ann paid $50,000 to Ann"
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=3)
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(2)]
    while not g.over and not any("first withdrawal" in e.text for e in g.log):
        g.apply(bots[g.decision.player].choose(g))
    paid = [e for e in g.log if e.kind == "paid" and "first withdrawal" in e.text]
    assert paid, "no first withdrawal in this seeded game"
    e = paid[0]
    name = e.data["dst"].split(":", 1)[1]
    assert e.data["src"] == f"account:{name}"
    assert e.text.startswith(f"{name}'s bank account paid $")
    assert "account:" not in e.text
