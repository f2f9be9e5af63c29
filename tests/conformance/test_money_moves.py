"""Money Moves played against its rulebook (rulebooks/money-moves.txt), section by section.

Each test is named after the rulebook section it plays (the numbered sections 1-10, the Task
Dice, the Task Cards, Winning The Game); the table in docs/money_moves.md maps every rule to its
test here or to a stated reconstruction. Every die and card is fixed with the public test rig
(:mod:`moneynb.testing`), and all play goes through ``g.apply`` like a player's. Seats go
clockwise in the order of the player list, so the player on your left is the next one.
"""

from __future__ import annotations

from importlib import resources

import pytest

import moneynb
from moneynb.core import IllegalAction
from moneynb.games.money_moves.rules import HOUSE_BANK, POT, load_cards
from moneynb.testing import rig


def table(*names: str, **options):
    """A game at a table of ``names`` (Ann, Bob, Cy by default); Ann opens with a 6 against
    1s, so it is Ann's turn to roll."""
    names = names or ("Ann", "Bob", "Cy")
    g = moneynb.new_game("money_moves", players=list(names), seed=1, **options)
    rig(g).face(g.money_die, 6, *[1] * (len(names) - 1))
    for _ in names:
        g.apply("roll")
    assert g.current == 0 and g.decision.tag == "roll"
    return g


def turn(g, money: int, task: str, *cards: str):
    """The current player rolls ``money`` on the money die and ``task`` on the task die, and
    draws ``cards`` (in order) if the task draws."""
    r = rig(g).face(g.money_die, money).face(g.task_die, task).top(*cards)
    events = g.apply("roll")
    r.check_used()
    return events


def cash(g) -> list[int]:
    return [g.cash(i) for i in range(len(g.players))]


def ann_holds_a_wild_card(g) -> None:
    """Ann rolls 11 and draws the Wild Card; the others roll SAFE: Ann's turn comes round."""
    turn(g, 1, "11", "wild")
    assert [g.cards[c]["effect"] for c in g.held[0]] == ["wild"]
    for _ in g.players[1:]:
        turn(g, 1, "SAFE")


def ann_broke_at_round_end(g) -> None:
    """Three players: Ann pays $6 then $1 into the pot; Bob draws Round Over; Ann has $0."""
    turn(g, 6, "7")
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    turn(g, 1, "7")
    assert g.cash(0) == 0
    turn(g, 1, "11", "round_over")
    assert g.decision.tag == "borrow" and g.decision.player == 0


# ----- 1-4: seats, the House Bank, $7 each, the pot --------------------------------------------
def test_1_seats_go_round_the_table_left_is_the_next_player():
    g = table("Ann", "Bob", "Cy", "Dee")
    assert [g.other_seat(0, k, "left") for k in (1, 2, 3)] == [1, 2, 3]
    assert [g.other_seat(0, k, "right") for k in (1, 2, 3)] == [3, 2, 1]


def test_2_the_house_bank_lends_and_keeps_the_score_sheet():
    g = table()
    assert HOUSE_BANK in g.money() and g.score_sheet == []


def test_3_seven_dollars_each_and_4_an_empty_pot():
    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=5)
    assert cash(g) == [7, 7, 7] and g.ledger[POT] == 0
    assert g.ledger[HOUSE_BANK] == -21


# ----- 5-8: the opening roll, a turn, the money die -----------------------------------------
def test_5_highest_opening_roll_starts_and_the_tied_highest_roll_again():
    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=5)
    rig(g).face(g.money_die, 5, 5, 3, 2, 6)  # Ann 5, Bob 5, Cy 3; Ann and Bob again: 2, 6
    for _ in range(3):
        g.apply("roll")
    assert [e.kind for e in g.log].count("tie") == 1 and g.decision.player == 0
    g.apply("roll")
    assert g.decision.player == 1 and g.decision.tag == "opening_roll"  # Cy is out of it
    g.apply("roll")
    assert g.current == 1 and g.decision.tag == "roll"


def test_6_the_highest_roller_rolls_both_dice_first():
    g = table()
    events = turn(g, 3, "SAFE")
    rolled = [e.data for e in events if e.kind == "rolled"][0]
    assert (rolled["seat"], rolled["money"], rolled["task"]) == (0, 3, "SAFE")


def test_7_each_player_does_the_task_then_play_passes_left():
    g = table()
    turn(g, 2, "7")
    assert g.current == 1 and g.decision.player == 1


def test_8_money_die_is_an_amount_and_a_seat_count():
    g = table("Ann", "Bob", "Cy", "Dee")
    turn(g, 2, "RE-L")  # $2 from the 2nd player on Ann's left: Cy
    assert cash(g) == [9, 7, 5, 7]
    turn(g, 3, "RE-R")  # $3 from the 3rd on Bob's right: Ann, Dee, then Cy
    assert cash(g) == [9, 10, 2, 7]


# ----- 9: the task die ----------------------------------------------------------------------
def test_task_dice_7_unlucky_seven_puts_the_amount_in_the_pot():
    g = table()
    turn(g, 4, "7")
    assert cash(g) == [3, 7, 7] and g.ledger[POT] == 4


def test_task_dice_11_chance_potluck_is_kept_for_a_second_chance():
    g = table()
    turn(g, 6, "7")  # Ann: pot $6
    turn(g, 2, "11", "potluck", "drink")  # Bob keeps PotLuck, draws again: Take a Drink
    assert g.held[1] == ["potluck"] and cash(g) == [1, 7, 7]
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    drawn = len(g.deck)
    turn(g, 4, "PL")  # Bob's second chance: the pot, no card drawn
    assert len(g.deck) == drawn and g.held[1] == []
    assert cash(g) == [1, 13, 7] and g.ledger[POT] == 0


def test_task_dice_11_a_kept_potluck_lasts_across_a_round_over():
    """The boundary of the kept card's life (default ``second_chance="until_pl"``): section 9
    says to hold the card for "a 2nd chance to roll the PL" and names no end; section 10
    reshuffles the cards for a new round. A card held in hand is not among them: Bob keeps his
    PotLuck card through Round Over and wins the pot with his PL roll in round 2. The pot,
    which nobody has won, carries over too (reconstruction: nothing in the rulebook empties it)."""
    g = table()
    turn(g, 6, "7")  # Ann: pot $6
    turn(g, 2, "11", "potluck", "drink")  # Bob keeps PotLuck
    turn(g, 1, "11", "round_over")  # Cy: Round Over, line 1 of the score sheet
    assert g.score_sheet == [{"Ann": 1, "Bob": 7, "Cy": 7}]
    assert g.held[1] == ["potluck"] and g.ledger[POT] == 6
    assert "potluck" in g.deck.draw_pile  # the other two PotLuck cards are back in the deck
    turn(g, 1, "SAFE")  # Ann, round 2
    drawn = len(g.deck)
    turn(g, 4, "PL")  # Bob's second chance, in round 2: the pot, no card drawn
    assert len(g.deck) == drawn and g.held[1] == [] and cash(g) == [1, 13, 7]


def test_task_dice_11_two_potluck_cards_from_one_11_are_two_second_chances():
    """Section 9: a PotLuck card pulled on 11 is held and "another card" pulled to complete the
    task. When that card is PotLuck too it is held the same way (reconstruction: the rule is
    applied again), so one 11 can give two second chances; each PL roll spends one."""
    g = table()
    turn(g, 6, "7")  # Ann: pot $6
    turn(g, 2, "11", "potluck", "potluck", "drink")  # Bob: two PotLuck cards, then a Drink
    assert g.held[1] == ["potluck", "potluck"] and cash(g) == [1, 7, 7]
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    turn(g, 4, "PL")  # the first second chance: the $6 pot
    assert g.held[1] == ["potluck"] and cash(g) == [1, 13, 7] and g.ledger[POT] == 0
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    events = turn(g, 4, "PL")  # the second: an empty pot, better luck next time
    assert g.held[1] == [] and "empty_pot" in [e.kind for e in events]


def test_task_dice_pl_potluck_card_wins_the_pot():
    g = table()
    turn(g, 5, "7")
    turn(g, 3, "PL", "potluck")
    assert cash(g) == [2, 12, 7] and g.ledger[POT] == 0


def test_task_dice_pl_with_an_empty_pot_better_luck_next_time():
    g = table()
    events = turn(g, 3, "PL", "potluck")
    assert cash(g) == [7, 7, 7] and "empty_pot" in [e.kind for e in events]


def test_task_dice_pl_another_card_is_done():
    g = table()
    turn(g, 3, "PL", "feed_pot")
    assert cash(g) == [4, 7, 7] and g.ledger[POT] == 3


def test_task_dice_safe_no_task_no_money_moves():
    g = table()
    turn(g, 6, "SAFE")
    assert cash(g) == [7, 7, 7] and g.ledger[POT] == 0


def test_task_dice_re_l_receive_from_the_player_on_your_left():
    g = table()
    turn(g, 1, "RE-L")  # Bob, Ann's left neighbour, gives $1
    assert cash(g) == [8, 6, 7]


def test_task_dice_re_r_receive_from_the_player_on_your_right():
    g = table()
    turn(g, 1, "RE-R")  # Cy, Ann's right neighbour, gives $1
    assert cash(g) == [8, 7, 6]


# ----- Task Cards ---------------------------------------------------------------------------
def test_task_cards_eighteen_kinds_with_the_named_ones():
    cards = load_cards()["card"]
    assert len(cards) == 18
    titles = {c["title"] for c in cards}
    assert {"PotLuck", "Take a Drink", "Safe", "Wild Card", "Lucky 7", "Ching Ching",
            "Whomp Whomp", "Round Over", "Game Over"} <= titles  # fmt: skip


def test_task_cards_money_moves_to_your_left_and_right():
    g = table("Ann", "Bob", "Cy", "Dee")
    turn(g, 3, "11", "give_left")  # Ann gives $3 to the 3rd on her left: Dee
    assert cash(g) == [4, 7, 7, 10]
    turn(g, 1, "11", "give_right")  # Bob gives $1 to the 1st on his right: Ann
    assert cash(g) == [5, 6, 7, 10]


def test_task_cards_take_a_drink_and_safe_move_no_money():
    g = table()
    turn(g, 5, "11", "drink")
    turn(g, 5, "11", "safe")
    assert cash(g) == [7, 7, 7] and g.ledger[POT] == 0


def test_task_cards_lucky_7_grabs_seven_from_the_pot():
    g = table()
    turn(g, 6, "7"), turn(g, 5, "7")  # pot $11
    turn(g, 1, "11", "lucky7")
    assert cash(g) == [1, 2, 14] and g.ledger[POT] == 4


def test_task_cards_ching_ching_one_dollar_from_each_player():
    g = table()
    turn(g, 1, "11", "ching")
    assert cash(g) == [9, 6, 6]


def test_task_cards_whomp_whomp_one_dollar_to_each_player():
    g = table()
    turn(g, 1, "11", "whomp")
    assert cash(g) == [5, 8, 8]


def test_task_cards_wild_card_on_your_own_roll():
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 5, "7")
    assert g.decision.tag == "wild_card" and g.decision.player == 0
    g.apply("use")
    assert cash(g) == [7, 7, 7] and g.held[0] == [] and "wild" in g.deck.discard_pile
    assert g.current == 1


def test_task_cards_wild_card_kept_means_the_task_is_done():
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 2, "PL", "double_trouble")
    g.apply("keep")
    assert cash(g) == [3, 7, 7] and g.ledger[POT] == 4 and g.held[0] == ["wild"]


@pytest.mark.parametrize("answer, expected", [("use", [7, 7, 7]), ("keep", [6, 8, 7])])
def test_task_cards_wild_card_against_another_players_re_r(answer, expected):
    """Issue 13, input 2: Bob rolls RE-R with a 1 against Ann, who holds the Wild Card."""
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 1, "SAFE")  # Ann
    turn(g, 1, "RE-R")  # Bob: the 1st on his right is Ann
    assert g.decision.tag == "wild_card" and g.decision.player == 0  # Ann is asked
    assert cash(g) == [7, 7, 7]  # nothing paid before she answers
    g.apply(answer)
    assert cash(g) == expected and g.current == 2


def test_task_cards_wild_card_against_ching_ching():
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 1, "SAFE")
    turn(g, 1, "11", "ching")  # Bob collects $1 from each player
    assert g.decision.player == 0 and g.decision.tag == "wild_card"
    g.apply("use")
    assert cash(g) == [7, 8, 6]  # Cy pays, Ann does not


def test_task_cards_wild_card_against_tax_the_rich():
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 1, "SAFE")
    turn(g, 1, "7")  # Bob $6
    turn(g, 2, "11", "take_richest")  # Cy: the richest other player is Ann ($7)
    assert g.decision.player == 0 and g.decision.tag == "wild_card"
    g.apply("use")
    assert cash(g) == [7, 6, 7]


def test_task_cards_wild_card_against_pick_a_pocket():
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 1, "SAFE")
    turn(g, 4, "11", "pick_pocket")
    assert g.decision.kind == "player" and g.decision.player == 1
    g.apply("Ann")  # Bob picks Ann by name (issue 13, input 10)
    assert g.decision.player == 0 and g.decision.tag == "wild_card"
    g.apply("use")
    assert cash(g) == [7, 7, 7]


def test_task_cards_wild_card_against_another_players_everybody_chips_in():
    g = table()
    ann_holds_a_wild_card(g)
    turn(g, 1, "SAFE")
    turn(g, 1, "11", "chip_in")  # Bob's card: everybody puts $1 in the pot
    assert g.decision.player == 0 and g.decision.tag == "wild_card"
    g.apply("use")
    assert cash(g) == [7, 6, 6] and g.ledger[POT] == 2


def test_task_cards_a_player_choice_names_the_players():
    """Issue 13, input 10: a refused player choice lists each seat with its name."""
    g = table()
    turn(g, 4, "11", "pick_pocket")
    before = g.state()
    with pytest.raises(IllegalAction, match=r"one of 1 = Bob, 2 = Cy"):
        g.apply("Dee")
    assert g.state() == before
    g.apply("Cy")
    assert cash(g) == [11, 7, 3]


def test_task_cards_follow_their_effect_not_their_id(tmp_path):
    """Issue 13, input 9: a house-rule deck renames PotLuck and the Wild Card; they still work."""
    shipped = resources.files("moneynb.games.money_moves").joinpath("cards.toml").read_text()
    house = tmp_path / "house.toml"
    house.write_text(
        shipped.replace('id = "potluck"', 'id = "jackpot"').replace('id = "wild"', 'id = "joker"')
    )
    g = table(data_file=str(house))
    turn(g, 1, "11", "joker")  # Ann keeps the renamed Wild Card
    turn(g, 5, "7")  # Bob: pot $5
    turn(g, 2, "11", "jackpot", "drink")  # Cy keeps the renamed PotLuck
    assert g.held == [["joker"], [], ["jackpot"]]
    turn(g, 3, "7")  # Ann is asked about her Wild Card
    assert g.decision.tag == "wild_card"
    g.apply("use")
    turn(g, 1, "SAFE")
    turn(g, 1, "PL")  # Cy's second chance wins the pot
    assert cash(g) == [7, 2, 12] and g.ledger[POT] == 0


# ----- 10: rounds, the score sheet, the House Bank ------------------------------------------
def test_10_a_round_ends_on_round_over_and_scores_go_on_the_sheet():
    g = table()
    turn(g, 3, "7")
    turn(g, 1, "11", "round_over")
    assert g.score_sheet == [{"Ann": 4, "Bob": 7, "Cy": 7}] and g.round == 2
    assert g.current == 2  # play goes on with the next player


def test_10_at_most_five_rounds():
    g = table()
    for _ in range(5):
        assert not g.over
        turn(g, 1, "11", "round_over")
    assert g.over and len(g.score_sheet) == 5
    with pytest.raises(ValueError, match="rounds must be 1 to 5"):
        moneynb.new_game("money_moves", players=["Ann", "Bob"], rounds=6)


def test_10_a_broke_player_borrows_up_to_seven_or_leaves():
    g = table()
    ann_broke_at_round_end(g)
    d = g.decision
    assert (d.low, d.high, d.options) == (1, 7, ("leave",))
    before = g.state()
    with pytest.raises(IllegalAction, match=r"\$1 to \$7"):
        g.apply(8)
    assert g.state() == before
    g.apply(7)
    assert cash(g) == [7, 7, 7] and g.loans == [7, 0, 0]


def test_10_the_loan_is_paid_back_from_winnings():
    """Issue 13, input 3: Ann borrows $7 and then wins $1: she pays back that $1 only."""
    g = table()
    ann_broke_at_round_end(g)
    g.apply(7)
    turn(g, 1, "11", "give_left")  # Cy gives $1 to the 1st on his left: Ann
    assert cash(g)[0] == 7 and g.loans[0] == 6
    assert g.ledger[HOUSE_BANK] == -21 - 7 + 1


def test_10_repaying_always_leaves_the_borrower_one_dollar():
    g = table()
    ann_broke_at_round_end(g)
    g.apply(2)  # owes $2
    turn(g, 2, "11", "feed_pot")  # Cy pays $2 into the pot
    turn(g, 2, "7")  # Ann spends her loan: $0, still owes $2
    assert cash(g)[0] == 0 and g.loans[0] == 2
    turn(g, 1, "SAFE")  # Bob
    turn(g, 1, "11", "give_left")  # Cy gives Ann $1: she keeps it, to stay in the game
    assert cash(g)[0] == 1 and g.loans[0] == 2
    turn(g, 3, "RE-L")  # Ann wins $3 from Bob: $2 repay the loan, $1 more stays
    assert cash(g)[0] == 2 and g.loans[0] == 0


def test_10_game_over_card_ends_the_game_early():
    g = table()
    turn(g, 5, "7")  # Ann $2, pot $5
    turn(g, 2, "RE-L")  # Bob wins $2 from the 2nd on his left: Ann
    turn(g, 1, "11", "game_over")
    assert g.over and g.winner == "Bob" and g.score_sheet[-1] == {"Ann": 0, "Bob": 9, "Cy": 7}
    assert cash(g) == [0, 14, 7] and g.ledger[POT] == 0


def test_10_one_player_winning_all_the_money_ends_the_game():
    g = table("Ann", "Bob")
    turn(g, 6, "RE-L")
    turn(g, 1, "RE-R")
    assert not g.over
    turn(g, 2, "RE-R")
    assert g.over and g.winner == "Ann" and cash(g) == [14, 0]


# ----- Winning The Game ---------------------------------------------------------------------
def test_winning_the_best_score_on_the_sheet_wins_the_pot_net_of_loans():
    """Issue 13, input 4: the score sheet and the winner use one figure (money less loans)."""
    g = table()
    ann_broke_at_round_end(g)
    g.apply(7)
    turn(g, 1, "11", "give_left")  # Cy gives Ann $1, which repays $1: Ann $7, owes $6
    turn(g, 1, "11", "game_over")
    assert g.score_sheet[-1] == {"Ann": 1, "Bob": 7, "Cy": 6}
    assert g.winner == "Bob" and cash(g) == [7, 14, 6]  # Bob takes the $7 pot


def test_winning_gross_scores_are_a_house_rule():
    g = table(score="gross")
    ann_broke_at_round_end(g)
    g.apply(7)
    turn(g, 1, "11", "give_left")
    turn(g, 1, "11", "game_over")
    assert g.score_sheet[-1] == {"Ann": 7, "Bob": 7, "Cy": 6}
    assert g.winner_names == ["Ann", "Bob"]  # they share the pot: $3 each, $1 stays


def test_winning_last_player_standing():
    g = table("Ann", "Bob")
    turn(g, 6, "RE-L")  # Bob $1
    turn(g, 1, "7")  # Bob $0
    turn(g, 1, "11", "round_over")
    assert g.decision.tag == "borrow" and g.decision.player == 1
    g.apply("leave")
    assert g.over and g.winner == "Ann"


def test_10_repaying_from_the_whole_wallet_is_a_house_rule():
    """The other reading (option loan_repayment="wallet"): each receipt sends everything above
    $1 in the wallet to the House Bank, the unspent loan included."""
    g = table(loan_repayment="wallet")
    ann_broke_at_round_end(g)
    g.apply(7)
    turn(g, 1, "11", "give_left")
    assert cash(g)[0] == 1 and g.loans[0] == 0
    with pytest.raises(ValueError, match="loan_repayment"):
        table(loan_repayment="never")
    with pytest.raises(ValueError, match="score must be"):
        table(score="best")


def test_task_dice_11_second_chance_for_the_next_roll_only_is_a_house_rule():
    """The other reading of section 9 (option second_chance="next_turn"): the kept PotLuck
    card is good for its holder's next roll only."""
    g = table(second_chance="next_turn")
    turn(g, 6, "7")  # Ann: pot $6
    turn(g, 2, "11", "potluck", "drink")  # Bob keeps PotLuck
    turn(g, 1, "SAFE")  # Cy
    turn(g, 1, "SAFE")  # Ann
    turn(g, 1, "SAFE")  # Bob's next roll is not PL: the card is spent
    assert g.held[1] == [] and "potluck" in g.deck.discard_pile
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    turn(g, 4, "PL", "drink")  # Bob draws a card as anyone would
    assert cash(g) == [1, 7, 7] and g.ledger[POT] == 6


def test_winning_by_the_total_of_the_score_sheet_is_a_house_rule():
    """Option winner_by: "last" (default) reads the last line of the sheet, "total" sums it."""
    results = {}
    for reading in ("last", "total"):
        g = table(winner_by=reading)
        turn(g, 6, "7")  # Ann $1, pot $6
        turn(g, 1, "11", "round_over")  # line 1: Ann 1, Bob 7, Cy 7
        turn(g, 1, "7")  # Cy $6, pot $7
        turn(g, 1, "11", "lucky7")  # Ann takes $7: $8
        turn(g, 1, "11", "game_over")  # line 2: Ann 8, Bob 7, Cy 6
        assert g.score_sheet == [{"Ann": 1, "Bob": 7, "Cy": 7}, {"Ann": 8, "Bob": 7, "Cy": 6}]
        results[reading] = g.winner
    assert results == {"last": "Ann", "total": "Bob"}  # totals: Ann 9, Bob 14, Cy 13
