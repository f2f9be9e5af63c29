"""Easy Money: every rule with exact amounts (rulebooks/easy-money.txt; board.toml / cards.toml).

Positions are set up directly on a started game, dice and cards are fixed with the public test
rig (``moneynb.testing``), then actions are applied. Board indices used below (board.toml): 0 Bonus, 2 Bingo Game (+$50), 3 Depot Street
(B60), 4 Airdale Bus Line (rent $20), 6 Real Estate Tax ($100), 8 Waldorf Hotel, 9 Church
Street (B100), 11 Maple Avenue (B110), 12 City Hospital, 13 Elm Street (B120), 14 Airplane
Crash ($150), 25 College Avenue (B180), 30 Black Kat Night Club (rent $75, M150), 32 Auto
Accident ($75), 37 Park Row (B250), 40/41 Red Traffic Light, 43 Majestic Theatre (M300).
"""

from __future__ import annotations

import pytest

import moneynb
from moneynb.bots import make_bot, play_out
from moneynb.core import IllegalAction
from moneynb.games.easy_money.rules import BANK, HOSPITAL, EasyMoney, load_board, load_cards
from moneynb.testing import rig

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
ANN, BOB, CY, DEE = range(4)


def started(seed=1, players=PLAYERS, **options) -> EasyMoney:
    """A game past the opening throw, with Ann to play and everyone already on the board."""
    g = moneynb.new_game("easy_money", players=list(players), seed=seed, **options)
    rig(g).dice(6, 6, *[1, 2] * (len(players) - 1))  # Ann throws 12, the others 3
    while g.decision.tag == "opening":
        g.apply("roll")
    assert g.current == g.first == ANN
    g.started = [True] * len(players)
    return g


def throw(g, d1, d2, card=None):
    """Ann throws ``d1`` and ``d2`` (the public test rig); on doubles she draws ``card``."""
    r = rig(g).dice(d1, d2)
    if card is not None:
        r.top(card)
    return g.apply("roll")


def texts(events):
    return " | ".join(e.text for e in events)


def give(g, seat, space, houses=1):
    g.owner[space] = seat
    if g.board[space]["kind"] == "property":
        g.houses[space] = houses


def set_cash(g, seat, dollars):
    g.ledger.transfer(g.wallet(seat), BANK, g.cash(seat))
    g.ledger.transfer(BANK, g.wallet(seat), dollars)


# ----- the board and the cards ------------------------------------------------------------------
def test_board_has_the_rulebooks_48_spaces():
    board = load_board()["space"]
    kinds = [sp["kind"] for sp in board]
    assert len(board) == 48
    assert kinds.count("property") == 22
    assert kinds.count("utility") == 5
    assert kinds.count("public") == 3
    assert kinds.count("hospital") == 1
    assert len(board) - 22 - 5 - 3 - 1 == 17  # legend spaces, Bonus and both lights included
    assert {sp["name"] for sp in board if sp["kind"] == "utility"} == {
        "Airdale Bus Line", "L.M. Navigation Co.", "L.M. Telephone Company",
        "Interurban Transit Company", "Associated Airways",
    }  # fmt: skip
    assert {sp["name"] for sp in board if sp["kind"] == "public"} == {
        "Waldorf Hotel", "Black Kat Night Club", "Majestic Theatre"}  # fmt: skip
    names = [sp["name"] for sp in board]
    for legend in ("Bingo Game", "United Trust Co.", "Real Estate Tax", "Airplane Crash",
                   "Auto Accident"):  # fmt: skip
        assert legend in names
    hospital = kinds.index("hospital")
    assert hospital % 12 == 0  # a corner
    assert board[0]["name"] == "Bonus"
    lights = [i for i, k in enumerate(kinds) if k == "traffic_light"]
    assert lights == [40, 41] and all(board[i]["side"] == 4 for i in lights)
    assert board[names.index("Black Kat Night Club")]["side"] == 3
    for i in range(48):
        assert board[i]["side"] == i // 12 + 1
    for sp in board:
        if sp["kind"] == "property":
            assert len(sp["rents"]) == 5 and sp["rents"] == sorted(sp["rents"])
    # the rulebook's own examples B110, M180, M300 exist
    assert any(sp.get("B") == 110 for sp in board)
    assert any(sp.get("M") == 180 for sp in board)
    assert any(sp.get("M") == 300 for sp in board if sp["kind"] == "public")


def test_give_or_take_cards():
    cards = load_cards()["card"]
    to_kat = [c for c in cards if c.get("target") == "Black Kat Night Club"]
    assert sum(c["count"] for c in to_kat) == 3
    assert [c["count"] for c in cards if c["effect"] == "exemption"] == [1]


def test_bad_data_files_are_refused(tmp_path):
    bad = tmp_path / "board.toml"
    src = (
        __import__("importlib.resources", fromlist=["files"])
        .files("moneynb.games.easy_money")
        .joinpath("board.toml")
        .read_text()
    )
    bad.write_text(src.replace("start_cash = 2000", "start_cash = 2500"))
    with pytest.raises(ValueError, match="start_bills add up to \\$2000"):
        load_board(str(bad))
    bad.write_text(src.replace("rents = [5, 20, 55, 95, 150]", "rents = [5, 20, 55]", 1))
    with pytest.raises(ValueError, match=r"space\[1\]\.rents = .*at least 5 items"):
        load_board(str(bad))  # the schema: 5 rents
    bad.write_text(src.replace("rents = [5, 20, 55, 95, 150]", "rents = [5, 20, 55, 95, 90]", 1))
    with pytest.raises(ValueError, match="5 rising rents"):
        load_board(str(bad))  # the rules' own check: rising


# ----- the start ----------------------------------------------------------------------------------
def test_start_2000_each_in_the_rulebooks_bills_from_a_finite_bank():
    board = load_board()
    bills = board["start_bills"]
    assert {int(k): v for k, v in bills.items()} == {
        1: 5,
        5: 7,
        10: 2,
        20: 7,
        50: 2,
        100: 7,
        500: 2,
    }
    g = moneynb.new_game("easy_money", players=PLAYERS, seed=1)
    assert [g.cash(s) for s in range(4)] == [2000] * 4
    assert g.money()[BANK] == 40000 - 8000
    assert sum(g.money().values()) == 40000
    g2 = moneynb.new_game("easy_money", players=PLAYERS, seed=1, money_supply=9000)
    assert g2.money()[BANK] == 1000
    with pytest.raises(ValueError, match="cannot deal"):
        moneynb.new_game("easy_money", players=PLAYERS, seed=1, money_supply=7999)


def test_highest_throw_starts_and_ties_throw_again():
    g = moneynb.new_game("easy_money", players=PLAYERS, seed=1)
    rig(g).dice(3, 3, 6, 5, 2, 1, 6, 5, 4, 4, 6, 6)  # Ann 6, Bob 11, Cy 3, Dee 11; 8 v 12
    for _ in range(4):
        g.apply("roll")
    assert g.decision.tag == "opening" and g.decision.player == BOB
    g.apply("roll")
    g.apply("roll")
    assert g.first == DEE and g.current == DEE and g.decision.tag == "turn"


def test_first_move_counts_the_start_space_as_one():
    g = started()
    g.started[ANN] = False
    throw(g, 3, 4)
    assert g.pos[ANN] == 6  # Start is 1, so 7 counts to index 6 (Real Estate Tax)
    assert g.cash(ANN) == 2000 - 100


def test_later_moves_count_from_the_next_space():
    g = started()
    g.pos[ANN] = 6
    throw(g, 3, 4)
    assert g.pos[ANN] == 13


# ----- doubles and Give or Take cards ------------------------------------------------------------
def test_doubles_take_card_is_paid_then_the_man_moves():
    g = started()
    g.pos[ANN] = 20
    ev = throw(g, 2, 2, card="raffle")  # Take $50
    assert "Raffle Prize" in texts(ev)
    assert g.pos[ANN] == 24  # then moved by the dice (Rest Park)
    assert g.cash(ANN) == 2050
    assert g.decision.tag == "post"


def test_doubles_pay_card_then_moves_and_first_throw_also_draws():
    g = started()
    g.started[ANN] = False
    throw(g, 1, 1, card="doctor")  # Pay $50
    assert g.cash(ANN) == 1950
    assert g.pos[ANN] == 1  # first move: 2 counting Start as one


def test_moving_card_ends_the_turn_after_paying_rent():
    g = started()
    give(g, BOB, 30)  # Black Kat owned by Bob: rent $75
    g.pos[ANN] = 20
    throw(g, 3, 3, card="black_kat")
    assert g.pos[ANN] == 30  # not moved on by the 6
    assert g.cash(ANN) == 2000 - 75 and g.cash(BOB) == 2075
    assert g.decision.tag == "turn" and g.decision.player == BOB  # "his turn is ended"


def test_black_kat_by_card_before_it_is_sold_no_rent_auction_at_once_to_all():
    g = started()
    g.pos[ANN] = 20
    ev = throw(g, 5, 5, card="black_kat")
    assert "no rent" in texts(ev)
    assert g.decision.tag == "bid" and g.auction["space"] == 30
    assert sorted(g.auction["bidders"]) == [ANN, BOB, CY, DEE]  # the lander may bid too
    assert g.cash(ANN) == 2000


def test_card_move_forward_past_bonus_collects_it():
    g = started()
    g.pos[ANN] = 40
    throw(g, 1, 1, card="black_kat")
    assert g.pos[ANN] == 30 and g.cash(ANN) == 2250


def test_special_exemption_is_kept_and_left_out_of_reshuffles():
    g = started()
    g.pos[ANN] = 3
    # doubles: draw it, keep it, then move 2 to Lost and Found (+$20)
    throw(g, 1, 1, card="exemption")
    assert g.exemption == ANN and g.pos[ANN] == 5 and g.cash(ANN) == 2000
    assert "exemption" not in g.deck.draw_pile + g.deck.discard_pile
    # when the pack runs out, the discards are reshuffled without it
    g.deck.discard_pile = g.deck.discard_pile + g.deck.draw_pile
    g.deck.draw_pile = []
    g.deck.draw(g.rng)
    assert len(g.deck.draw_pile) == 18 and "exemption" not in g.deck.draw_pile


def test_exemption_excuses_real_estate_tax_exactly():
    g = started()
    g.exemption = ANN
    g.pos[ANN] = 2
    throw(g, 1, 3)
    assert g.pos[ANN] == 6 and g.cash(ANN) == 2000
    g.exemption = None
    g.apply("end")
    g.pos[BOB] = 2
    throw(g, 1, 3)
    assert g.cash(BOB) == 1900


# ----- bonus, traffic light, legends, hospital --------------------------------------------------
def test_bonus_250_for_crossing_and_for_landing():
    g = started()
    g.pos[ANN] = 44
    throw(g, 1, 4)  # 44 + 5 = 49 -> 1 (Mill Street, unowned)
    assert g.pos[ANN] == 1 and g.cash(ANN) == 2250
    g = started()
    g.pos[ANN] = 42
    throw(g, 2, 4)  # exactly onto Bonus
    assert g.pos[ANN] == 0 and g.cash(ANN) == 2250


def test_red_traffic_light_fine_for_passing_none_for_stopping():
    g = started()
    g.pos[ANN] = 38
    throw(g, 1, 4)  # 39..43: passes both lights
    assert g.cash(ANN) == 2000 - 10
    for start, d, land in ((38, (1, 1), 40), (38, (1, 2), 41), (39, (1, 1), 41)):
        g = started()
        g.pos[ANN] = start
        throw(g, *d, card="raffle")
        assert g.pos[ANN] == land
        assert g.cash(ANN) == 2000 + (50 if d[0] == d[1] else 0)  # no fine
    g = started()
    g.exemption = ANN
    g.pos[ANN] = 38
    throw(g, 1, 4)
    assert g.cash(ANN) == 2000


def test_legend_spaces_pay_and_take_from_the_bank():
    g = started()
    g.pos[ANN] = 47
    bank = g.money()[BANK]
    throw(g, 1, 2)  # lands on Bingo Game (2) via Bonus: +250 +50
    assert g.cash(ANN) == 2300 and g.money()[BANK] == bank - 300


def test_hospital_collects_crash_and_accident_money_and_lander_takes_all():
    g = started()
    g.pos[ANN] = 11
    throw(g, 1, 2)  # Airplane Crash
    assert g.money()[HOSPITAL] == 150 and g.cash(ANN) == 1850
    g.apply("end")
    g.pos[BOB] = 29
    throw(g, 1, 2)  # Auto Accident
    assert g.money()[HOSPITAL] == 225
    g.apply("end")
    g.pos[CY] = 9
    throw(g, 1, 2)  # City Hospital
    assert g.cash(CY) == 2225 and g.money()[HOSPITAL] == 0
    g.apply("end")
    g.pos[DEE] = 9
    ev = throw(g, 1, 2)
    assert g.cash(DEE) == 2000 and "no money" in texts(ev)


# ----- buying and auctions -------------------------------------------------------------------------
def test_buy_unowned_property_at_its_B_price():
    g = started()
    g.pos[ANN] = 7
    throw(g, 1, 3)  # Maple Avenue (11), B110
    assert g.decision.tag == "buy"
    g.apply("buy")
    assert g.owner[11] == ANN and g.houses[11] == 1 and g.cash(ANN) == 1890
    assert g.money()[BANK] == 32110


def test_refused_property_is_auctioned_without_the_refuser():
    g = started()
    g.pos[ANN] = 7
    throw(g, 1, 3)
    g.apply("decline")
    assert g.decision.tag == "bid"
    assert g.auction["bidders"] == [BOB, CY, DEE]
    assert g.decision.player == BOB and g.decision.low == 10
    g.apply(50)  # Bob
    assert g.decision.player == CY and g.decision.low == 55
    with pytest.raises(IllegalAction, match=r"\$55"):
        g.apply(54)
    g.apply(80)  # Cy
    g.apply("pass")  # Dee
    assert g.decision.player == BOB
    g.apply("pass")  # Bob: Cy wins at $80
    assert g.owner[11] == CY and g.cash(CY) == 1920 and g.houses[11] == 1
    assert g.decision.tag == "post" and g.decision.player == ANN


def test_single_qualified_bidder_buys_at_B():
    g = started()
    # Bob and Cy already own a property on side 1 -> they may not bid on Maple Avenue
    give(g, BOB, 1)
    give(g, CY, 3)
    g.pos[ANN] = 7
    throw(g, 1, 3)
    g.apply("decline")
    assert g.decision.tag == "lone_bidder" and g.decision.player == DEE
    g.apply("buy")
    assert g.owner[11] == DEE and g.cash(DEE) == 2000 - 110


def test_nobody_qualified_leaves_it_unsold():
    g = started()
    for s, i in ((BOB, 1), (CY, 3), (DEE, 5)):
        give(g, s, i)
    g.pos[ANN] = 7
    throw(g, 1, 3)
    ev = g.apply("decline")
    assert "unsold" in texts(ev) and g.owner[11] is None and g.decision.tag == "post"


def test_utilities_and_public_buildings_always_auctioned_to_everyone():
    g = started()
    g.pos[ANN] = 1
    throw(g, 1, 2)  # Airdale Bus Line (4)
    assert g.decision.tag == "bid"
    assert g.auction["bidders"] == [BOB, CY, DEE, ANN]
    g.apply(10)
    g.apply("pass")
    g.apply("pass")
    g.apply(40)  # Ann outbids
    g.apply("pass")  # Bob
    assert g.owner[4] == ANN and g.cash(ANN) == 1960


def test_auction_bidder_who_cannot_cover_the_next_bid_drops_out():
    g = started()
    set_cash(g, CY, 60)
    g.pos[ANN] = 7
    throw(g, 1, 3)
    g.apply("decline")
    g.apply(100)  # Bob: Cy holds $60 < $105 and is skipped
    assert g.decision.player == DEE
    g.apply("pass")
    assert g.owner[11] == BOB


# ----- the rule of four sides -----------------------------------------------------------------------
def test_rule_of_four_no_second_property_on_a_side():
    g = started()
    give(g, ANN, 1)
    g.pos[ANN] = 7
    ev = throw(g, 1, 3)  # Maple Avenue, side 1 again
    assert "may not buy" in texts(ev)
    assert g.decision.tag == "bid" and ANN not in g.auction["bidders"]


def test_rule_of_four_no_second_house_until_four_sides_then_free():
    g = started()
    give(g, ANN, 11)
    give(g, ANN, 13)
    give(g, ANN, 25)
    assert "build:11" not in g.decision.options
    give(g, ANN, 37)
    g._ask_turn()
    assert "build:11" in g.decision.options
    # with four sides Ann may buy a second property on side 1
    assert g.may_acquire(ANN, 9)
    g.apply("build:11")
    assert g.houses[11] == 2 and g.cash(ANN) == 1890


def test_utilities_are_outside_the_rule_of_four():
    g = started()
    give(g, ANN, 1)
    assert g.may_acquire(ANN, 4) and g.may_acquire(ANN, 8)
    assert not g.may_acquire(ANN, 3)


def test_variant_without_the_rule_of_four():
    g = started(rule_of_four=False)
    give(g, ANN, 1)
    assert g.may_acquire(ANN, 3)
    g._ask_turn()
    assert "build:1" in g.decision.options
    seven = started(players=[f"P{i}" for i in range(7)])
    assert not seven.four_sides_rule
    six = started(players=[f"P{i}" for i in range(6)])
    assert six.four_sides_rule


# ----- houses and subdivisions ------------------------------------------------------------------------
def test_houses_cost_B_and_the_fifth_makes_a_subdivision():
    g = started()
    for i in (11, 13, 25, 37):
        give(g, ANN, i)
    assert g.pieces_used(ANN) == 4
    g._ask_turn()
    for h in range(2, 6):
        g.apply("build:11")
        assert g.houses[11] == h
    assert g.cash(ANN) == 2000 - 4 * 110
    assert g.pieces_used(ANN) == 4  # the subdivision uses one piece; four went back
    assert g.rent(11) == g.board[11]["rents"][4] == 275
    g._ask_turn()
    assert "build:11" not in g.decision.options
    # houses may also be built after throwing
    g.pos[ANN] = 21
    throw(g, 1, 2)  # Rest Park
    assert g.decision.tag == "post" and "build:13" in g.decision.options


def test_sixteen_house_pieces_per_player():
    g = started(rule_of_four=False)
    for i in (1, 3, 5, 7):
        give(g, ANN, i, houses=4)
    assert g.pieces_used(ANN) == 16
    give(g, ANN, 9, houses=1)
    give(g, ANN, 13, houses=1)  # 18 pieces: more than the 16 (set up directly)
    g._ask_turn()
    assert "build:9" not in g.decision.options
    g.owner[9] = g.owner[13] = None
    g.houses[9] = g.houses[13] = 0
    assert not g.may_acquire(ANN, 9)  # no piece left to mark a new property
    assert g.can_build(ANN, 1)  # the fifth house: net three pieces back
    g.apply("build:1")
    assert g.pieces_used(ANN) == 13 and g.may_acquire(ANN, 9)


def test_no_building_on_mortgaged_property_or_out_of_turn():
    g = started(rule_of_four=False)
    give(g, ANN, 11)
    g.mortgaged[11] = True
    g._ask_turn()
    assert "build:11" not in g.decision.options
    with pytest.raises(IllegalAction):
        g.apply("build:11")


# ----- rents ------------------------------------------------------------------------------------
@pytest.mark.parametrize("houses,rent", [(1, 10), (2, 40), (3, 100), (4, 175), (5, 275)])
def test_rent_by_houses(houses, rent):
    g = started()
    give(g, BOB, 11, houses)
    g.pos[ANN] = 7
    throw(g, 1, 3)
    assert g.cash(ANN) == 2000 - rent and g.cash(BOB) == 2000 + rent


def test_no_rent_on_own_or_mortgaged_holdings_and_utility_rent():
    g = started()
    give(g, ANN, 11)
    g.pos[ANN] = 7
    throw(g, 1, 3)
    assert g.cash(ANN) == 2000
    g = started()
    give(g, BOB, 11)
    g.mortgaged[11] = True
    g.pos[ANN] = 7
    throw(g, 1, 3)
    assert g.cash(ANN) == 2000 and g.cash(BOB) == 2000
    g = started()
    give(g, BOB, 4)
    g.pos[ANN] = 1
    throw(g, 1, 2)
    assert g.cash(ANN) == 1980 and g.cash(BOB) == 2020


# ----- mortgages -------------------------------------------------------------------------------------
def test_mortgage_pays_M_regardless_of_houses_and_lift_costs_ten_percent_more():
    g = started()
    give(g, ANN, 11, houses=3)
    give(g, ANN, 43)  # Majestic Theatre M300
    give(g, ANN, 4)  # utility: no mortgage
    g._ask_turn()
    assert "mortgage:4" not in g.decision.options
    g.apply("mortgage:11")
    assert g.cash(ANN) == 2090 and g.mortgaged[11]
    g.apply("mortgage:43")
    assert g.cash(ANN) == 2390
    assert g.lift_cost(43) == 330 and g.lift_cost(11) == 99
    g.apply("lift:43")
    assert g.cash(ANN) == 2060 and not g.mortgaged[43]
    assert sum(g.money().values()) == 40000


def test_mortgaged_holding_resold_stays_mortgaged_until_the_buyer_lifts_it():
    g = started()
    give(g, ANN, 30)
    g.mortgaged[30] = True
    g._ask_turn()
    g.apply("offer")
    g.apply("space:30")
    g.apply(BOB)
    g.apply(40)
    assert g.decision.player == BOB and g.decision.tag == "offer_reply"
    g.apply("accept")
    assert g.owner[30] == BOB and g.mortgaged[30]
    assert g.cash(ANN) == 2040 and g.cash(BOB) == 1960
    assert g.rent(30) == 0  # no rent until lifted
    g.pos[ANN] = 21
    throw(g, 1, 2)  # to Rest Park
    g.apply("end")
    assert g.current == BOB and "lift:30" in g.decision.options
    g.apply("lift:30")
    assert g.cash(BOB) == 1960 - 165 and g.rent(30) == 75


# ----- re-sales ------------------------------------------------------------------------------------
def test_offer_refused_changes_nothing_and_offers_are_limited():
    g = started()
    give(g, ANN, 11)
    g._ask_turn()
    for _ in range(3):
        g.apply("offer")
        g.apply("space:11")
        assert set(g.decision.options) == {BOB, CY, DEE}
        g.apply(CY)
        g.apply(500)
        g.apply("refuse")
        assert g.owner[11] == ANN and g.cash(ANN) == 2000 and g.cash(CY) == 2000
    assert "offer" not in g.decision.options  # max_offers_per_turn = 3


def test_special_exemption_can_be_sold():
    g = started()
    g.exemption = ANN
    g._ask_turn()
    g.apply("offer")
    g.apply("exemption")
    g.apply(DEE)
    g.apply(60)
    g.apply("accept")
    assert g.exemption == DEE and g.cash(ANN) == 2060 and g.cash(DEE) == 1940


def test_resale_respects_the_rule_of_four_for_the_buyer():
    g = started()
    give(g, ANN, 11)
    give(g, BOB, 9)  # Bob has side 1 already
    g._ask_turn()
    g.apply("offer")
    g.apply("space:11")
    assert BOB not in g.decision.options


def test_greedy_bot_answers_offers():
    g = started()
    give(g, ANN, 11)
    g._ask_turn()
    g.apply("offer")
    g.apply("space:11")
    g.apply(BOB)
    g.apply(100)  # below value (110 + 2 x 10) -> accepted
    assert make_bot("greedy", seed=1).choose(g) == "accept"
    g.apply("refuse")
    g.apply("offer")
    g.apply("space:11")
    g.apply(BOB)
    g.apply(900)
    assert make_bot("greedy", seed=1).choose(g) == "refuse"


# ----- debts, bankruptcy, the bank ------------------------------------------------------------------
def test_debtor_must_mortgage_then_pays():
    g = started()
    give(g, BOB, 37, houses=5)  # Park Row subdivision: rent $625
    give(g, ANN, 11)
    set_cash(g, ANN, 600)
    g.pos[ANN] = 33
    throw(g, 1, 3)
    assert g.decision.tag == "debt" and g.decision.player == ANN
    assert "mortgage:11" in g.decision.options and "bankrupt" not in g.decision.options
    g.apply("mortgage:11")
    assert g.cash(ANN) == 600 + 90 - 625 and g.cash(BOB) == 2625
    assert g.decision.tag == "post"


def test_bankrupt_ends_the_game_and_cannot_win():
    g = started()
    give(g, BOB, 37, houses=5)
    set_cash(g, ANN, 600)
    g.pos[ANN] = 33
    ev = throw(g, 1, 3)  # Ann holds nothing: bankrupt at once
    assert g.over and g.bankrupt == ANN
    assert "bankrupt" in texts(ev)
    assert g.cash(ANN) == 0 and g.cash(BOB) == 2600
    assert ANN not in g.winners and g.winners == [BOB]


def test_bank_running_out_ends_the_game():
    g = started(money_supply=8100)
    g.pos[ANN] = 42
    throw(g, 2, 4)  # Bonus $250, the Bank holds $100
    assert g.over and "Bank" in g.end_reason
    assert g.cash(ANN) == 2100 and g.money()[BANK] == 0


def test_turn_cap_ends_with_the_rulebook_scoring():
    g = started(max_rounds=1)
    for _ in range(4):
        assert not g.over
        throw(g, 1, 2)
        while g.decision is not None and g.decision.tag != "post":
            g.apply(g.decision.options[-1] if g.decision.kind != "amount" else "pass")
        g.apply("end")
    assert g.over and "turn cap" in g.end_reason
    best = max(g.scores().values())
    assert all(g.scores()[g.players[w]] == best for w in g.winners)


# ----- scoring --------------------------------------------------------------------------------------
def test_scoring_example():
    """Cash + B x houses + 3 x rent (Waldorf Hotel $150); mortgaged holdings count nothing."""
    g = started()
    set_cash(g, ANN, 1234)
    give(g, ANN, 11, houses=3)  # Maple Avenue B110 x 3 = 330
    give(g, ANN, 37, houses=5)  # Park Row subdivision B250 x 5 = 1,250
    give(g, ANN, 8)  # Waldorf Hotel: $150
    give(g, ANN, 4)  # Airdale Bus Line: 3 x $20 = 60
    give(g, ANN, 43)  # Majestic Theatre, mortgaged: 0
    g.mortgaged[43] = True
    give(g, ANN, 13, houses=2)  # Elm Street mortgaged: 0
    g.mortgaged[13] = True
    assert g.scores()["Ann"] == 1234 + 330 + 1250 + 150 + 60 == 3024
    assert g.holding_value(8) == 150
    assert g.scores()["Bob"] == 2000


# ----- bad actions, whole games -----------------------------------------------------------------------
def test_illegal_actions_change_nothing():
    g = started()
    before = g.state()
    for bad in ("buy", "build:11", "mortgage:11", 50, "end", None, ["roll"]):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.state() == before


def test_bad_options():
    with pytest.raises(ValueError, match="max_rounds"):
        moneynb.new_game("easy_money", players=PLAYERS, max_rounds=-1)
    with pytest.raises(ValueError, match="min_bid"):
        moneynb.new_game("easy_money", players=PLAYERS, min_bid=0)
    with pytest.raises(ValueError, match="cannot read"):
        moneynb.new_game("easy_money", players=PLAYERS, data_file="/no/such.toml")


def test_greedy_games_end_conserve_money_and_replay():
    for seed in range(20):
        g = moneynb.new_game("easy_money", players=PLAYERS, seed=seed)
        n = play_out(g, [make_bot("greedy", seed=seed + k) for k in range(4)], max_actions=20000)
        assert g.over and n > 50
        assert sum(g.money().values()) == 40000
        if seed < 3:
            assert moneynb.load_game(g.to_json()).state() == g.state()


def test_observation_hides_the_card_order():
    g = started()
    obs = g.observation(BOB)
    assert obs["deck"]["draw_pile"] == len(g.deck.draw_pile)
    assert "draw_pile" not in str(obs["deck"]["discard_pile"])
    assert obs["owner"] == g.owner and obs["hospital"] == 0


def test_exact_next_landing_chance_matches_hand_count_and_simulation():
    from fractions import Fraction

    g = started()
    g.pos[ANN] = 24  # Rest Park; Black Kat is 6 ahead
    dist = g.next_landing(ANN)
    # 4 non-double sixes + (3,3) without a moving card (14 of 20) + any double drawing one of
    # the 3 Black Kat cards: 4/36 + 1/36 x 17/20 + 5/36 x 3/20
    assert dist[30] == Fraction(4, 36) + Fraction(17, 720) + Fraction(15, 720) == Fraction(7, 45)
    assert sum(dist.values()) == 1
    hits, n = 0, 1500
    for seed in range(n):
        h = moneynb.new_game("easy_money", players=["A", "B"], seed=seed)
        while h.decision.tag == "opening":
            h.apply("roll")
        s = h.current
        h.pos[s], h.started[s] = 24, True
        h.apply("roll")
        hits += h.pos[s] == 30
    assert abs(hits / n - 7 / 45) < 4 * (7 / 45 * 38 / 45 / n) ** 0.5


def test_pack_left_uses_only_public_facts():
    g = started()
    g.deck.discard_pile = ["black_kat", "raffle"]
    g.deck.draw_pile = [c for c in g.deck.draw_pile if c not in ("black_kat", "raffle")][:0] + ["x"]
    left = g.pack_left()
    assert left["black_kat"] == 2 and "raffle" not in left and left["exemption"] == 1
    g.exemption = BOB
    assert "exemption" not in g.pack_left()
    g.deck.draw_pile = []
    assert g.pack_left() == {"black_kat": 1, "raffle": 1}
