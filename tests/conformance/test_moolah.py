"""Moolah played against its rulebook (rulebooks/moolah.txt), section by section.

Each test is named after the rulebook section whose rule it plays; docs/moolah.md maps every
rule to its test (or to the reconstruction that replaces it). Chance is fixed with the public
rig (``moneynb.testing``): "Ann rolls 1 and 2 onto the Casino, draws 20, the House 23" is
``travel(g, "casino", (1, 2), cards=(20, 23))``. Where the tokens stand and what a wallet holds
is set on the table, as players set up a position on a real board.
"""

from __future__ import annotations

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.games.moolah.rules import BANK, LOAN_SHARK
from moneynb.testing import rig


def fresh(players=("Ann", "Bob"), withdraw=50_000, seed=1, **options):
    """A game past the first withdrawals (each player takes ``withdraw``), at the first roll."""
    g = moneynb.new_game("moolah", players=list(players), seed=seed, **options)
    while g.decision.tag == "first_withdrawal":
        g.apply(withdraw)
    return g


def set_cash(g, seat: int, dollars: int) -> None:
    g.transfer(g.wallet(seat), BANK, g.cash(seat))
    g.transfer(BANK, g.wallet(seat), dollars)


def set_balance(g, seat: int, dollars: int) -> None:
    have = g.balance(seat)
    if dollars > have:
        g.transfer(BANK, g.account(seat), dollars - have)
    else:
        g.transfer(g.account(seat), BANK, have - dollars)


def travel(g, target: str, dice=(1, 2), cards=()):
    """The player to move stands ``sum(dice)`` spaces before ``target`` and rolls ``dice``;
    ``cards`` are the next cards drawn (any pile); Option Points on the way follow the path."""
    seat = g.current
    path = [target]
    for _ in range(sum(dice)):
        path.insert(0, g.data.prev[path[0]][0])
    g.pos[seat] = path[0]
    rig(g).dice(*dice).top(*cards)
    g.apply("roll")
    while g.decision is not None and g.decision.tag == "fork":
        g.apply(path[path.index(g.pos[seat]) + 1])


def end_turn(g) -> None:
    if g.decision is not None and g.decision.tag == "after":
        g.apply("end")


# ----- Object of Game ----------------------------------------------------------------------------
def test_object_of_game_a_million_deposited_wins():
    g = fresh()
    me = g.current
    set_balance(g, me, 900_000)
    set_cash(g, me, 100_000)
    travel(g, "bank")
    g.apply("deposit")
    g.apply(100_000)
    assert g.over and g.winner == g.players[me] and g.balance(me) == 1_000_000


# ----- Preparation, How to Start Game ------------------------------------------------------------
def test_preparation_250000_account_200000_credit_first_withdrawal_50000_recommended():
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    d = g.decision
    assert d.tag == "first_withdrawal" and "$50,000 recommended" in d.prompt
    assert (d.low, d.high, d.step) == (0, 250_000 + 200_000, 5_000)
    assert all(g.balance(s) == 250_000 and g.cash(s) == 0 for s in range(2))


def test_how_to_start_game_highest_roll_begins_at_the_bank_turn_passes_left():
    g = fresh(players=("Ann", "Bob", "Cy"))
    opening = {}
    for e in g.log:
        if e.kind == "rolled":
            opening[e.data["seat"]] = sum(e.data["dice"])  # the last roll of each counts
    assert opening[g.current] == max(opening.values())
    assert all(p == "bank" for p in g.pos)
    me = g.current
    travel(g, "s04")  # not a double
    end_turn(g)
    assert g.decision.player == (me + 1) % 3


# ----- The Bank -------------------------------------------------------------------------------------
def test_the_bank_withdraw_then_deposit_on_the_score_pad():
    g = fresh(withdraw=0)
    me = g.current
    travel(g, "bank")
    g.apply("withdraw")
    g.apply(50_000)
    assert g.pad[me][-1] == {"old": 250_000, "new": 200_000, "what": "withdrawal"}
    assert g.decision.player != me  # one transaction per stop (reading): no deposit after it


def test_the_bank_credit_line_negative_balance_repaid_before_money_goes_in():
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, 10_000)
    travel(g, "bank")
    g.apply("withdraw")
    g.apply(50_000)
    assert (g.pad[me][-1]["old"], g.pad[me][-1]["new"]) == (10_000, -40_000)
    if g.decision.tag == "bank":
        g.apply("done")
    travel(g, "s04")  # the other player's turn
    end_turn(g)
    assert g.current == me
    set_balance(g, me, -140_000)
    set_cash(g, me, 200_000)
    travel(g, "bank")
    g.apply("deposit")
    g.apply(200_000)
    assert (g.pad[me][-1]["old"], g.pad[me][-1]["new"]) == (-140_000, 60_000)


def test_the_bank_cannot_be_passed_by_the_dice():
    g = fresh()
    me = g.current
    g.pos[me] = "s37"
    rig(g).dice(2, 4)  # six steps; the Bank is three away
    g.apply("roll")
    assert g.pos[me] == "bank" and g.decision.tag == "bank"


def test_the_bank_a_space_or_card_sending_a_token_elsewhere_does_not_stop_there():
    g = fresh()
    me = g.current
    travel(g, "s38")  # go to Wall Street, past the Bank
    assert g.pos[me] == "wall_street"


def test_the_bank_bankrupt_when_account_credit_and_wallet_cannot_pay():
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, -190_000)
    travel(g, "s15")  # Income Tax $40,000 + $20,000 interest, $10,000 of credit left
    assert g.out[me] and g.over and g.end_reason == "last player"


def test_the_bank_bankrupt_with_credit_left_that_cannot_cover_the_loan_shark():
    """The boundary of "bankrupt with unused credit" (Loan Shark: "When a player does not have
    sufficient money in his Personal Bank Account or Line of Credit, he CANNOT borrow from the
    Loan Shark"): Income Tax $40,000 with an empty wallet costs $60,000 with the interest.
    $60,000 of credit left covers it exactly; $55,000 left does not, and the player is out with
    that credit unused."""
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, -140_000)
    travel(g, "s15")
    assert not g.out[me] and g.balance(me) == -200_000
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, -145_000)
    travel(g, "s15")
    assert g.out[me] and g.over


# ----- Loan Shark --------------------------------------------------------------------------------
def test_loan_shark_the_rulebooks_example_pay_50000_with_an_empty_wallet():
    g = fresh(withdraw=0)
    me = g.current
    set_balance(g, me, 100_000)
    travel(g, "a3")  # pay $50,000
    assert (g.pad[me][-1]["old"], g.pad[me][-1]["new"]) == (100_000, 25_000)
    assert g.money()[LOAN_SHARK] == 25_000


def test_loan_shark_money_cannot_be_bet():
    g = fresh(withdraw=30_000)
    travel(g, "casino")
    assert g.decision.tag == "casino_bet" and g.decision.high == 30_000


# ----- Getting Mugged, Safe Zone ------------------------------------------------------------------
def test_getting_mugged_all_cash_first_then_the_space_acts():
    g = fresh()
    me, you = g.current, 1 - g.current
    g.pos[you] = "s04"
    set_cash(g, me, 0)
    travel(g, "s04")  # Doctor's bill $20,000, paid from the mugged cash
    assert g.cash(you) == 0 and g.cash(me) == 50_000 - 20_000


@pytest.mark.parametrize("sid", ["bufes", "exit", "parole", "s05"])
def test_getting_mugged_never_at_bufes_its_exit_parole_or_a_safe_zone(sid):
    g = fresh()
    you = 1 - g.current
    g.pos[you] = sid
    if sid == "bufes":  # reached only by being sent: Ann is sent there too
        travel(g, "s12")
    else:
        travel(g, sid)
    assert g.cash(you) == 50_000


# ----- Wall Street, Las Vegas Casino ------------------------------------------------------------
def test_wall_street_at_least_10000_from_the_wallet_once_per_landing():
    g = fresh()
    me = g.current
    travel(g, "wall_street")
    assert set(g.decision.options) == {"grain", "oil", "gold", "pass"}
    rig(g).top(50)  # the Gold card: +50%
    g.apply("gold")
    assert g.decision.low == 10_000 and g.decision.high == 50_000
    g.apply(20_000)
    assert g.cash(me) == 60_000 and g.decision.tag != "wall_street"


def test_las_vegas_casino_raise_up_to_double_closest_to_21_wins_double():
    g = fresh(withdraw=100_000)
    me = g.current
    travel(g, "casino", cards=(20,))
    g.apply(20_000)
    assert (g.decision.low, g.decision.high) == (20_000, 40_000)
    rig(g).top(23)  # the House card
    g.apply(40_000)
    assert g.cash(me) == 100_000 + 40_000


def test_las_vegas_casino_equal_scores_go_to_the_house():
    g = fresh(withdraw=100_000)
    me = g.current
    travel(g, "casino", cards=(18,))
    g.apply(10_000)
    rig(g).top(18)
    g.apply("stay")
    assert g.cash(me) == 90_000


@pytest.mark.parametrize(
    "mine, house, won",
    [(22, 19, True), (19, 22, False), (23, 19, False), (20, 21, False), (27, 14, True)],
)
def test_las_vegas_casino_a_score_over_21_counts_by_its_distance_from_21(mine, house, won):
    """Reading of "The closest score to 21 wins the bet": over and under alike, no bust. A
    22 beats a 19 (1 from 21 against 2); 23 against 19 is equally close and goes to the House
    ("When both draw the same score, the House wins", read as the same closeness)."""
    g = fresh(withdraw=100_000)
    me = g.current
    travel(g, "casino", cards=(mine,))
    g.apply(10_000)
    rig(g).top(house)
    g.apply("stay")
    assert g.cash(me) == 100_000 + (10_000 if won else -10_000)


# ----- Take A Pal -------------------------------------------------------------------------------------
def test_take_a_pal_both_bet_all_the_taker_first_a_pal_at_the_casino_cannot_be_taken():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = g.current
    pal, victim = (me + 1) % 3, (me + 2) % 3
    g.pos[victim] = "casino"
    set_cash(g, victim, 30_000)
    set_cash(g, pal, 20_000)
    set_cash(g, me, 10_000)
    travel(g, "take_pal")
    assert victim not in g.decision.options
    rig(g).top(21, 14, 14, 21)  # taker: 21 v 14 wins; pal: 14 v 21 loses
    g.apply(pal)
    assert g.pos[me] == g.pos[pal] == "casino" and g.cash(victim) == 0
    assert g.cash(me) == 2 * (10_000 + 15_000) and g.cash(pal) == 0


def test_take_a_pal_on_doubles_the_taker_rolls_again_from_the_casino():
    """Rolling Doubles: "he MUST take another turn", also after Take A Pal: the taker, now at
    the Las Vegas Casino with his pal, rolls again from there (reconstruction of where: the
    rulebook moves him to the Casino and says nothing of returning)."""
    g = fresh(chance_streams=1)  # its unscripted Temptation card: the one stream's (issue 39)
    me, pal = g.current, 1 - g.current
    travel(g, "take_pal", dice=(2, 2))
    rig(g).top(20, 18, 18, 20)
    g.apply(pal)
    assert g.pos[me] == g.pos[pal] == "casino"
    assert g.decision.player == me and g.decision.tag == "turn"
    nxt = g.data.spaces["casino"]["next"][0]
    rig(g).dice(1, 2)
    g.apply("roll")
    path = next(e for e in reversed(g.log) if e.kind == "moved").data["path"]
    assert path[0] == "casino" and path[1] == nxt


# ----- Bufe's Bar & Grill, The Big House, Prison Break --------------------------------------------
def test_bufes_bar_and_grill_one_turn_missed_then_the_exit():
    g = fresh()
    me, you = g.current, 1 - g.current
    travel(g, "s12")
    assert g.pos[me] == "bufes" and g.missed[me] == 1
    travel(g, "s04")  # the other player's turn; then mine is missed
    end_turn(g)
    assert g.pos[me] == "exit" and g.decision.player == you


def test_the_big_house_all_cash_lost_maximum_two_turns_minimum_one():
    g = fresh()
    me = g.current
    travel(g, "s28")
    assert g.pos[me] == "max" and g.missed[me] == 2 and g.cash(me) == 0
    g2 = fresh()
    me2 = g2.current
    travel(g2, "s36")
    assert g2.pos[me2] == "min" and g2.missed[me2] == 1 and g2.cash(me2) == 0


def test_prison_break_frees_the_prisoners_who_mug_the_player_and_split():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = g.current
    a, b = (me + 1) % 3, (me + 2) % 3
    g.pos[a], g.missed[a] = "max", 2
    g.pos[b], g.missed[b] = "min", 1
    set_cash(g, a, 0)
    set_cash(g, b, 0)
    set_cash(g, me, 25_000)
    travel(g, "prison_break")
    assert g.pos[a] == g.pos[b] == "prison_break" and g.cash(me) == 0
    assert g.cash(a) == g.cash(b) == 15_000  # $12,500 each, rounded up


def test_prison_break_escaped_prisoners_miss_no_more_turns():
    """Reconstruction: an escaped prisoner is back on the track at Prison Break and his
    remaining missed turns are wiped (the rulebook has him escape; missing turns in the Big
    House belongs to being held there). Bob, with two turns to miss, plays his next turn."""
    g = fresh()
    you = 1 - g.current
    g.pos[you], g.missed[you] = "max", 2
    travel(g, "prison_break")
    assert g.pos[you] == "prison_break" and g.missed[you] == 0
    end_turn(g)
    assert g.decision.player == you and g.decision.tag == "turn"


# ----- Moolah, Option Point -------------------------------------------------------------------------
def test_moolah_stay_or_go_to_any_other_moolah_space():
    g = fresh()
    me = g.current
    travel(g, "moolah2")
    assert set(g.decision.options) == {"moolah1", "moolah2", "moolah3", "moolah4"}
    g.apply("moolah4")
    assert g.pos[me] == "moolah4"


def test_option_point_passing_over_it_chooses_the_path_never_against_the_hands():
    g = fresh()
    me = g.current
    g.pos[me] = "s04"
    rig(g).dice(2, 3)
    g.apply("roll")
    assert g.decision.tag == "fork" and set(g.decision.options) == {"wall_street", "a1"}
    g.apply("a1")
    assert g.pos[me] == "a3"


# ----- Temptation Cards, Advantage Card ----------------------------------------------------------
def test_temptation_cards_do_exactly_as_directed_then_discard():
    g = fresh()
    me = g.current
    travel(g, "s35", cards=("inheritance",))
    assert g.cash(me) == 50_000 + 75_000 and g.temptation.discard_pile[-1] == "inheritance"


def test_advantage_card_held_not_used_the_turn_it_is_drawn_then_before_rolling_ends_the_turn():
    g = fresh()
    me, you = g.current, 1 - g.current
    travel(g, "s35", cards=("advantage3",))
    assert [c for c, _ in g.hand[me]] == ["advantage3"] and g.decision.player == you
    travel(g, "s04")
    end_turn(g)
    assert g.decision.player == me and "advantage:advantage3" in g.decision.options
    g.apply("advantage:advantage3")
    target = next(o for o in g.decision.options if o != "cancel")
    g.apply(target)
    assert g.hand[me] == [] and g.temptation.discard_pile[-1] == "advantage3"
    bot = make_bot("greedy", seed=1)
    while g.decision.tag != "turn":  # the space moved to is obeyed; then the turn ends
        g.apply(bot.choose(g))
    assert g.decision.player == you


def test_advantage_card_drawn_on_a_doubles_roll_is_not_usable_on_the_re_roll():
    """Issue 27 item 5. "This card CANNOT be used on the same turn as picked up"; the roll again
    after doubles is part of that turn (the card's own paragraph: "the player's turn ENDS (this
    also applies to player rolling doubles)"). So a card drawn on a doubles roll is not offered
    before or after the re-roll, and is on the next turn."""
    g = fresh()
    me, you = g.current, 1 - g.current
    travel(g, "s35", dice=(2, 2), cards=("advantage3",))
    assert [c for c, _ in g.hand[me]] == ["advantage3"]
    assert g.decision.player == me and g.decision.tag == "turn"
    assert list(g.decision.options) == ["roll"]  # no Advantage card before the re-roll
    travel(g, "s04")  # the re-roll: Doctor's bill; no Advantage offer after it either
    assert g.decision.player == you
    travel(g, "s04")
    end_turn(g)
    assert g.decision.player == me and "advantage:advantage3" in g.decision.options


# ----- Rolling Doubles, Round-Off Clause ------------------------------------------------------------
def test_rolling_doubles_roll_again_also_when_stopped_at_the_bank():
    g = fresh()
    me = g.current
    g.pos[me] = "s37"
    rig(g).dice(3, 3)
    g.apply("roll")
    assert g.pos[me] == "bank"
    g.apply("done")
    assert g.decision.tag == "turn" and g.decision.player == me


def test_rolling_doubles_cancel_one_missed_turn():
    g = fresh()
    me = g.current
    travel(g, "s28", dice=(2, 2))  # Maximum Security, two turns: one cancelled
    assert g.pos[me] == "min" and g.missed[me] == 1 and g.decision.player != me


def test_round_off_clause_a_split_mugging_rounds_up_for_the_players():
    g = fresh(players=("Ann", "Bob", "Cy"))
    me = g.current
    rich, at_exit = (me + 1) % 3, (me + 2) % 3
    set_cash(g, me, 0)
    set_cash(g, rich, 25_000)
    g.pos[rich] = "s21"
    g.pos[at_exit] = "exit"  # Bufe's Exit is not affected by Fair Share Square
    travel(g, "fair_share")
    assert g.cash(me) == 15_000 and g.cash(rich) == 15_000  # $12,500 each, rounded up
    assert g.cash(at_exit) == 50_000


# ----- Options: the turn cap (reconstruction) ---------------------------------------------------
@pytest.mark.parametrize("players, cap", [(2, 1), (2, 2), (5, 1), (5, 3)])
def test_turn_cap_max_turns_is_the_number_of_player_turns_played(players, cap):
    """Issue 13 item 8: ``max_turns=1`` plays one player turn (it played 2 with 2 players)."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
    g = moneynb.new_game("moolah", players=names, seed=3, max_turns=cap)
    bots = [make_bot("greedy", seed=i) for i in range(players)]
    begun = []  # the player of each turn begun (a doubles roll again is the same turn)
    while not g.over:
        if g.decision.tag == "turn" and (not begun or begun[-1] != g.current):
            begun.append(g.current)
        g.apply(bots[g.decision.player].choose(g))
    assert g.end_reason == "turn limit"
    assert len(begun) == cap
