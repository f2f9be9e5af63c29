"""Money Moves rules, one test per rule, with exact amounts (rulebooks/money-moves.txt)."""

from __future__ import annotations

import pytest

import moneynb
from moneynb.core import IllegalAction
from moneynb.games.money_moves.rules import HOUSE_BANK, POT, load_cards
from moneynb.testing import rig


def started(players=("Ann", "Bob", "Cy", "Dee"), **options):
    """A game past the opening roll with seat 0 (Ann) to roll: Ann opens with a 6, the others 1."""
    g = moneynb.new_game("money_moves", players=list(players), seed=1, **options)
    rig(g).face(g.money_die, 6, *[1] * (len(players) - 1))
    for _ in players:
        g.apply("roll")
    assert g.current == 0 and g.decision.tag == "roll"
    return g


def turn(g, money, task, cards=()):
    """The current player rolls ``money`` and ``task``, drawing ``cards`` (the test rig)."""
    r = rig(g).face(g.money_die, money).face(g.task_die, task).top(*cards)
    events = g.apply("roll")
    r.check_used()
    return events


def cash(g):
    return [g.cash(i) for i in range(len(g.players))]


def test_setup_seven_dollars_each_empty_pot():
    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=5)
    assert cash(g) == [7, 7, 7]
    assert g.ledger[POT] == 0 and g.ledger[HOUSE_BANK] == -21
    assert g.decision.tag == "opening_roll" and g.decision.player == 0


def test_opening_roll_highest_starts_and_ties_reroll():
    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=5)
    rig(g).face(g.money_die, 5, 5, 3, 2, 6)
    g.apply("roll"), g.apply("roll"), g.apply("roll")
    assert [e.kind for e in g.log if e.kind == "tie"] == ["tie"]
    assert g.decision.tag == "opening_roll" and g.decision.player == 0
    g.apply("roll")
    assert g.decision.player == 1  # only the tied players roll again
    g.apply("roll")
    assert g.current == 1 and g.decision.tag == "roll"


def test_unlucky_seven_puts_the_money_die_amount_in_the_pot():
    g = started()
    turn(g, 4, "7")
    assert cash(g) == [3, 7, 7, 7] and g.ledger[POT] == 4
    assert g.current == 1  # play passes to the left


def test_receive_from_left_and_right_counts_seats():
    g = started()
    turn(g, 2, "RE-L")  # Ann: 2nd player on her left is Cy
    assert cash(g) == [9, 7, 5, 7]
    turn(g, 1, "RE-R")  # Bob: 1st on his right is Ann
    assert cash(g) == [8, 8, 5, 7]


def test_seat_count_goes_on_around_the_table_skipping_the_roller():
    g = started(players=("Ann", "Bob", "Cy"))
    turn(g, 5, "RE-L")  # others on the left: Bob, Cy, Bob, Cy, Bob -> Bob pays $5
    assert cash(g) == [12, 2, 7]


def test_safe_changes_nothing():
    g = started()
    turn(g, 6, "SAFE")
    assert cash(g) == [7, 7, 7, 7] and g.ledger[POT] == 0


def test_potluck_roll_with_potluck_card_wins_the_pot():
    g = started()
    turn(g, 5, "7")  # Ann: pot 5
    turn(g, 3, "PL", ["potluck"])  # Bob
    assert g.ledger[POT] == 0 and cash(g) == [2, 12, 7, 7]


def test_potluck_with_an_empty_pot_wins_nothing():
    g = started()
    turn(g, 3, "PL", ["potluck"])
    assert cash(g) == [7, 7, 7, 7] and any(e.kind == "empty_pot" for e in g.log)


def test_potluck_roll_with_another_card_does_that_card():
    g = started()
    turn(g, 3, "PL", ["feed_pot"])  # Feed the Pot: $3 into the pot
    assert cash(g) == [4, 7, 7, 7] and g.ledger[POT] == 3


def test_chance_keeps_potluck_for_a_second_chance_then_draws_again():
    g = started()
    turn(g, 6, "7")  # Ann puts $6 in the pot
    turn(g, 2, "11", ["potluck", "safe"])  # Bob keeps PotLuck, then draws Safe
    assert g.held[1] == ["potluck"] and cash(g) == [1, 7, 7, 7]
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    size = len(g.deck)
    turn(g, 4, "PL")  # Bob's second chance: wins the pot without drawing
    assert len(g.deck) == size
    assert g.held[1] == [] and cash(g) == [1, 13, 7, 7] and g.ledger[POT] == 0


def test_wild_card_cancels_a_costly_task_when_played():
    g = started()
    turn(g, 1, "11", ["wild"])
    assert g.held[0] == ["wild"]
    for _ in range(3):
        turn(g, 1, "SAFE")
    turn(g, 5, "7")
    assert g.decision.tag == "wild_card" and g.decision.player == 0
    g.apply("use")
    assert cash(g) == [7, 7, 7, 7] and g.held[0] == [] and "wild" in g.deck.discard_pile
    assert g.current == 1


def test_wild_card_kept_means_the_task_is_done():
    g = started()
    turn(g, 1, "11", ["wild"])
    for _ in range(3):
        turn(g, 1, "SAFE")
    turn(g, 2, "PL", ["double_trouble"])
    g.apply("keep")
    assert cash(g) == [3, 7, 7, 7] and g.ledger[POT] == 4 and g.held[0] == ["wild"]


def test_money_moves_left_and_right_cards():
    g = started()
    turn(g, 3, "11", ["give_left"])  # Ann gives $3 to the 3rd on her left: Dee
    assert cash(g) == [4, 7, 7, 10]
    turn(g, 1, "11", ["give_right"])  # Bob gives $1 to the 1st on his right: Ann
    assert cash(g) == [5, 6, 7, 10]


def test_lucky_seven_takes_seven_or_what_the_pot_holds():
    g = started()
    turn(g, 3, "7")  # pot 3
    turn(g, 2, "11", ["lucky7"])  # Bob takes all $3
    assert cash(g) == [4, 10, 7, 7] and g.ledger[POT] == 0
    turn(g, 6, "7"), turn(g, 5, "7")  # Cy 6, Dee 5: pot 11
    turn(g, 1, "11", ["lucky7"])  # Ann takes $7
    assert g.ledger[POT] == 4 and cash(g)[0] == 11


def test_ching_ching_collects_one_from_each_player_who_has_money():
    g = started()
    g.transfer("wallet:Cy", POT, 7, "test: Cy broke")
    turn(g, 1, "11", ["ching"])
    assert cash(g) == [9, 6, 0, 6]


def test_whomp_whomp_gives_one_to_each_and_a_short_payer_pays_what_they_have():
    g = started()
    g.transfer("wallet:Ann", POT, 5, "test: Ann has $2")
    turn(g, 1, "11", ["whomp"])  # Ann owes $3 but has $2: Bob and Cy get $1, Dee nothing
    assert cash(g) == [0, 8, 8, 7]
    assert any(e.kind == "short" for e in g.log)


def test_unlucky_seven_with_too_little_money_pays_all_and_stays_in():
    g = started()
    g.transfer("wallet:Ann", POT, 5, "test")
    turn(g, 6, "7")
    assert cash(g)[0] == 0 and g.ledger[POT] == 7 and not g.out[0]


def test_reconstructed_cards():
    g = started()
    turn(g, 4, "7")  # Ann: pot 4
    turn(g, 2, "11", ["half_pot"])  # Bob takes $2
    assert cash(g) == [3, 9, 7, 7] and g.ledger[POT] == 2
    turn(g, 1, "11", ["chip_in"])  # Cy: everyone puts $1 in
    assert cash(g) == [2, 8, 6, 6] and g.ledger[POT] == 6
    turn(g, 3, "11", ["take_richest"])  # Dee: Bob is richest, gives $3
    assert cash(g) == [2, 5, 6, 9]
    turn(g, 2, "11", ["share_poorest"])  # Ann gives $2 to the poorest other: Bob (5)
    assert cash(g) == [0, 7, 6, 9]


def test_ties_for_richest_go_to_the_nearest_on_the_left():
    g = started()
    turn(g, 2, "11", ["take_richest"])  # all have $7: Bob (1st on the left) pays
    assert cash(g) == [9, 5, 7, 7]


def test_pick_a_pocket_offers_only_players_with_money():
    g = started()
    g.transfer("wallet:Cy", POT, 7, "test")
    turn(g, 4, "11", ["pick_pocket"])
    assert g.decision.kind == "player" and g.decision.options == (1, 3)
    with pytest.raises(IllegalAction, match="allowed"):
        g.apply(2)
    g.apply(3)
    assert cash(g) == [11, 7, 0, 3]


def test_round_over_records_scores_and_reshuffles():
    g = started()
    turn(g, 3, "7")
    turn(g, 1, "11", ["wild"])  # Bob keeps a Wild Card
    turn(g, 1, "11", ["round_over"])  # Cy ends round 1
    assert g.score_sheet == [{"Ann": 4, "Bob": 7, "Cy": 7, "Dee": 7}]
    assert g.round == 2 and g.current == 3
    assert len(g.deck) == 36 and g.deck.discard_pile == []  # 37 cards less Bob's Wild Card


def test_broke_player_borrows_up_to_seven_and_repays_keeping_one():
    g = started()
    g.transfer("wallet:Ann", POT, 7, "test")
    turn(g, 1, "11", ["round_over"])
    d = g.decision
    assert d.tag == "borrow" and d.player == 0 and (d.low, d.high) == (1, 7)
    with pytest.raises(IllegalAction, match=r"\$1 to \$7"):
        g.apply(8)
    g.apply(3)
    assert cash(g)[0] == 3 and g.loans[0] == 3 and g.scores()["Ann"] == 0
    assert g.current == 1
    turn(g, 3, "RE-R")  # Bob: 3rd on his right is Cy... Ann receives nothing yet
    turn(g, 2, "RE-R")  # Cy: 2nd on his right is Ann, she pays $2
    assert cash(g)[0] == 1
    turn(g, 3, "RE-L")  # Dee: 3rd on her left is Cy
    turn(g, 4, "RE-L")  # Ann receives $4 from the 4th on her left (Ann skipped): Dee
    assert cash(g)[0] == 1 + 4 - 3 and g.loans[0] == 0  # repaid $3, kept the rest
    assert g.ledger[HOUSE_BANK] == -28


def test_broke_player_who_will_not_borrow_leaves_and_is_skipped():
    g = started()
    g.transfer("wallet:Bob", POT, 7, "test")
    turn(g, 1, "11", ["round_over"])
    g.apply("leave")
    assert g.out[1] and g.current == 2  # Ann drew Round Over; Bob is out, Cy plays
    turn(g, 1, "SAFE"), turn(g, 1, "SAFE")
    assert g.current == 0
    turn(g, 1, "RE-L")  # Ann's 1st on the left is now Cy
    assert cash(g) == [8, 0, 6, 7]


def test_a_player_owing_seven_cannot_borrow_more_and_leaves():
    g = started()
    g.loans[0] = 7
    g.transfer("wallet:Ann", POT, 7, "test")
    turn(g, 1, "11", ["round_over"])
    assert g.out[0] and g.decision.tag == "roll"


def test_game_over_card_ends_the_game_and_the_best_score_takes_the_pot():
    g = started()
    turn(g, 5, "7")  # pot 5
    turn(g, 2, "RE-L")  # Bob gets $2 from Dee
    turn(g, 1, "11", ["game_over"])
    assert g.over and g.winner == "Bob"
    assert cash(g) == [2, 14, 7, 5] and g.ledger[POT] == 0
    assert g.score_sheet[-1] == {"Ann": 2, "Bob": 9, "Cy": 7, "Dee": 5}


def test_tied_winners_share_the_pot_and_an_odd_dollar_stays():
    g = started(players=("Ann", "Bob", "Cy"))
    turn(g, 3, "7")  # Ann 4, pot 3
    turn(g, 1, "11", ["game_over"])  # Bob and Cy tie on 7
    assert g.winner is None and g.winner_names == ["Bob", "Cy"]
    assert cash(g) == [4, 8, 8] and g.ledger[POT] == 1


def test_the_game_ends_after_the_last_round():
    g = started(rounds=2)
    turn(g, 1, "11", ["round_over"])
    assert not g.over
    turn(g, 1, "11", ["round_over"])
    assert g.over and len(g.score_sheet) == 2


def test_last_player_standing_wins():
    g = started(players=("Ann", "Bob"))
    g.transfer("wallet:Bob", POT, 7, "test")
    turn(g, 1, "11", ["round_over"])
    g.apply("leave")
    assert g.over and g.winner == "Ann" and cash(g) == [14, 0]


def test_one_player_holding_all_the_money_ends_the_game():
    g = started(players=("Ann", "Bob"))
    turn(g, 6, "RE-L")  # Ann takes $6 of Bob's $7
    turn(g, 1, "RE-R")  # Bob... receives $1 from Ann -> not yet
    assert not g.over
    turn(g, 2, "RE-R")  # Ann takes Bob's last $2
    assert g.over and g.winner == "Ann" and cash(g) == [14, 0]


def test_score_is_money_minus_the_loan():
    g = started()
    g.transfer("wallet:Ann", POT, 7, "test")
    turn(g, 1, "11", ["round_over"])
    g.apply(7)
    assert g.scores()["Ann"] == 0 and g.cash(0) == 7


def test_deck_has_eighteen_kinds_with_the_rulebook_names():
    data = load_cards()
    assert len(data["card"]) == 18
    named = {c["title"] for c in data["card"] if c["source"] == "rulebook"}
    assert named == {
        "PotLuck", "Money Moves to Your Left", "Money Moves to Your Right", "Take a Drink",
        "Safe", "Wild Card", "Lucky 7", "Ching Ching", "Whomp Whomp", "Round Over", "Game Over",
    }  # fmt: skip


def test_options_and_house_rule_data_file(tmp_path):
    with pytest.raises(ValueError, match="rounds must be 1 to 5"):
        moneynb.new_game("money_moves", players=["A", "B"], rounds=6)
    with pytest.raises(ValueError, match="must be int"):
        moneynb.new_game("money_moves", players=["A", "B"], rounds="3")
    text = (load_cards.__globals__["load_toml"].__module__, None)
    from importlib import resources

    shipped = resources.files("moneynb.games.money_moves").joinpath("cards.toml").read_text()
    house = tmp_path / "house.toml"
    house.write_text(shipped.replace("starting_money = 7", "starting_money = 10"))
    g = moneynb.new_game("money_moves", players=["A", "B"], seed=1, data_file=str(house))
    assert cash(g) == [10, 10]
    assert text[1] is None
    bad = tmp_path / "bad.toml"
    bad.write_text(shipped.replace('effect = "lucky7"', 'effect = "teleport"'))
    with pytest.raises(ValueError, match="unknown effect 'teleport'"):
        moneynb.new_game("money_moves", players=["A", "B"], data_file=str(bad))
    with pytest.raises(ValueError, match="cannot read"):
        moneynb.new_game("money_moves", players=["A", "B"], data_file=str(tmp_path / "no.toml"))


def test_roll_when_it_is_a_choice_is_refused_and_nothing_changes():
    g = started()
    turn(g, 1, "11", ["wild"])
    for _ in range(3):
        turn(g, 1, "SAFE")
    turn(g, 5, "7")
    before = g.state()
    with pytest.raises(IllegalAction, match="'use', 'keep'"):
        g.apply("roll")
    assert g.state() == before


def test_turn_cap_ends_the_game_as_game_over():
    g = started(players=("Ann", "Bob", "Cy"), max_turns=2)
    turn(g, 3, "7")  # Ann $4
    turn(g, 1, "SAFE")
    assert g.over and any(e.kind == "turn_cap" for e in g.log)
    assert g.winner_names == ["Bob", "Cy"]  # $7 each beat Ann's $4; they share the $3 pot


def test_two_to_eight_players():
    for names in (["Ann"], [f"P{i}" for i in range(9)]):
        with pytest.raises(ValueError, match="2 to 8 players"):
            moneynb.new_game("money_moves", players=names, seed=1)
    assert len(moneynb.new_game("money_moves", players=[f"P{i}" for i in range(8)]).players) == 8
