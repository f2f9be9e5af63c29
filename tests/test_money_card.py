"""Money Card rules, one test (or more) per rule, with exact amounts.

Scenarios are built by placing planes and cards directly on a fresh game, fixing the spinner
with the public test rig (``moneynb.testing``), then applying actions as a player would.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import moneynb
from moneynb.core import IllegalAction
from moneynb.games.money_card.rules import (
    AGENT,
    AMEX,
    MAIL,
    MISC,
    Board,
    betting_ev,
    load_board,
    phrase_complete,
    single_bet_ev,
)
from moneynb.testing import rig

B = load_board()
SEG = {(s["color"], s["label"]): i for i, s in enumerate(B.segments)}


def seg(color: str, label) -> int:
    return SEG[(color, str(label))]


#: cards the next draws will show, per game, fixed with the rig after the next spins
CARDS: dict[int, list] = {}


def spin(g, *segments: int) -> None:
    """The next spins stop on ``segments`` (indices), then the next cards drawn are those
    given to :func:`_top` (the public test rig; the spin comes first)."""
    rig(g).spin(B.spinner, *segments).top(*CARDS.pop(id(g), ()))


def new(n=3, seed=1, **opts):
    return moneynb.new_game(
        "money_card", players=["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:n], seed=seed, **opts
    )


def board_game(positions: dict, n=3, turns=0, **opts):
    """A game at Ann's turn with planes placed (every seat on the board, no keys unless given)."""
    g = new(n, **opts)
    for s in range(n):
        g.pos[s] = positions.get(s, None)
        g.turns[s] = turns
    g.keys = [[] for _ in range(n)]
    if g.pos[0] is None:
        g.pos[0] = "london"
    return g


def cash(g):
    return [g.cash(s) for s in range(len(g.players))]


# ----- Preparation and first turns -----------------------------------------------------------
def test_setup_cheques_agent_and_first_turn_in_london():
    g = new(3)
    assert cash(g) == [300, 300, 300]
    assert g.money()[AGENT] == -900 and g.money()[AMEX] == 0
    assert sum(g.money().values()) == 0
    assert g.pos == ["london", None, None]  # the Agent (seat 0) is placed and plays first
    assert g.keys[0] == ["london"]
    assert g.decision.player == 0 and g.decision.kind == "roll" and g.decision.options == ("spin",)


def test_starts_by_seat_with_the_start_key():
    g = new(6, seed=5)
    bot = moneynb.make_bot("greedy", seed=1)
    seen = {}
    while len(seen) < 6:
        s = g.decision.player
        if g.decision.tag == "turn" and s not in seen:
            seen[s] = g.pos[s]
            assert B.starts[s] in g.keys[s]
        g.apply(bot.choose(g))
    assert seen == dict(
        enumerate(["london", "london", "copenhagen", "copenhagen", "lisbon", "lisbon"])
    )


# ----- moving -----------------------------------------------------------------------------
def test_move_is_exact_count_without_revisiting():
    g = new()
    spin(g, seg("red", 3))
    g.apply("spin")
    paths = g.ctx["paths"]
    assert g.decision.kind == "space" and set(g.decision.options) == set(paths)
    for dest, path in paths.items():
        assert len(path) == 4 and len(set(path)) == 4 and path[0] == "london" and path[-1] == dest
        assert all(b in B.out[a] for a, b in zip(path, path[1:], strict=False))
    assert "paris" not in paths  # four moves away
    assert "lon_par_3" in paths


def test_perimeter_is_one_way():
    g = board_game({0: "sea2"})
    assert set(g.walks(0, (1,), "spin")) == {"sea3", "sea2_lon_1"}  # never back to sea1
    assert set(g.walks(0, (2,), "spin")) == {"sea4", "london"}


def test_side_trip_returns_only_along_the_perimeter():
    g = board_game({0: "dublin"})
    assert list(g.walks(0, (4,), "spin")) == ["sea2"]  # dublin -> sea31 -> port -> sea1 -> sea2
    assert set(g.walks(0, (5,), "spin")) == {"sea3", "sea2_lon_1"}


def test_jumping_over_a_plane_collects_20_and_occupied_spaces_count():
    g = board_game({0: "london", 1: "lon_par_2"})
    spin(g, seg("red", 4))
    g.apply("spin")
    assert "paris" in g.decision.options  # Bob's space counts as one of the 4 moves
    g.apply("paris")
    assert cash(g) == [320, 280, 300]
    assert g.pos[1] == "lon_par_2"  # jumped, not displaced
    assert "paris" in g.keys[0]


def test_landing_displaces_to_dublin():
    g = board_game({0: "london", 1: "lon_par_3"})
    spin(g, seg("black", 3))
    g.apply("spin")
    g.apply("lon_par_3")
    assert g.pos[0] == "lon_par_3" and g.pos[1] == "dublin"
    assert cash(g) == [300, 300, 300]  # a displaced player pays nothing


def test_displaced_from_dublin_goes_to_a_free_side_trip_then_a_key_city():
    g = board_game({0: "london", 1: "lon_par_3", 2: "dublin"})
    spin(g, seg("black", 3))
    g.apply("spin")
    g.apply("lon_par_3")
    # Bob is sent to Dublin; Cy, displaced from Dublin, chooses among the free side trips
    assert g.pos[1] == "dublin"
    assert g.decision.player == 2 and g.decision.tag == "from_dublin"
    assert set(g.decision.options) == {"majorca", "crete", "stockholm"}
    g.apply("crete")
    assert g.pos[2] == "crete"

    g = board_game(
        {0: "london", 1: "lon_par_3", 2: "dublin", 3: "majorca", 4: "crete", 5: "stockholm"}, n=6
    )
    spin(g, seg("black", 3))
    g.apply("spin")
    g.apply("lon_par_3")
    assert g.decision.player == 2
    assert set(g.decision.options) == set(B.key_cities)  # all three side trips are taken
    g.apply("rome")
    assert g.pos[2] == "rome" and "rome" in g.keys[2]


# ----- keys -----------------------------------------------------------------------------------
def test_key_only_by_exact_count_and_one_per_city():
    g = board_game({0: "london"})
    spin(g, seg("red", 5))
    g.apply("spin")
    g.apply("par_lyo_1")  # passes through Paris
    assert "paris" not in g.keys[0]
    g = board_game({0: "london"})
    g.keys[0] = ["paris"]
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("paris")
    assert g.keys[0] == ["paris"]


def test_all_eight_keys_win_at_once():
    g = board_game({0: "london"})
    g.keys[0] = [k for k in B.key_cities if k != "paris"]
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("paris")
    assert g.over and g.winner == "Ann"


# ----- Travel Cards -----------------------------------------------------------------------
def _top(g, deck, cid):
    """The next card drawn (from ``deck``) is ``cid``: fixed at the next :func:`spin`."""
    assert cid in g.decks[deck].draw_pile
    CARDS.setdefault(id(g), []).append(cid)


def test_no_card_on_the_first_turn_then_the_right_pile():
    g = board_game({0: "london"})  # first time round
    n_fr, n_misc = len(g.decks["France"]), len(g.decks[MISC])
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("paris")
    assert len(g.decks["France"]) == n_fr and len(g.decks[MISC]) == n_misc
    # second time round: white space in France draws from France
    g = board_game({0: "london"}, turns=1)
    _top(g, "France", "fr06")  # a Collect card
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("paris")
    assert cash(g)[0] == 300 + B.cards["fr06"]["amount"] and g.hand[0] == ["fr06"]
    assert len(g.decks["France"]) == n_fr - 1


def test_black_space_and_other_areas_draw_miscellaneous_returned_to_bottom():
    assert g_deck("bru_par_2") == MISC and g_deck("paris") == "France" and g_deck("london") == MISC
    g = board_game({0: "london"}, turns=1)
    _top(g, MISC, "mi13")  # a Collect card
    spin(g, seg("red", 3))
    g.apply("spin")
    g.apply("lon_bru_2" if "lon_bru_2" in g.decision.options else g.decision.options[0])
    assert g.deck_for(g.pos[0]) == MISC
    assert cash(g)[0] == 300 + B.cards["mi13"]["amount"]
    assert g.decks[MISC].draw_pile[-1] == "mi13" and g.hand[0] == []


def g_deck(space):
    return new().deck_for(space)


def test_leaving_a_language_country_returns_the_cards():
    g = board_game({0: "paris"})
    g.hand[0] = ["fr01", "fr02"]
    for c in g.hand[0]:
        g.decks["France"].draw_pile.remove(c)
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("london")
    assert g.hand[0] == [] and g.decks["France"].draw_pile[-2:] == ["fr01", "fr02"]


def test_empty_pile_take_a_card_from_a_holder():
    g = board_game({0: "london", 1: "lyon"}, turns=1)
    pile = g.decks["France"].draw_pile
    g.hand[1] = list(pile)
    pile.clear()
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("paris")
    assert g.decision.kind == "player" and g.decision.options == (1,)
    before = len(g.hand[1])
    g.apply(1)
    assert len(g.hand[1]) == before - 1
    assert len(g.hand[0]) + len(g.hand[1]) + len(pile) == 12


# ----- Bonus moves ---------------------------------------------------------------------------
def test_rulebook_phrase_is_ten_moves():
    assert B.bonus["es_a"] == 10  # Quiero comer con usted: 4 Spanish + 6 English words
    syms = [B.cards[c]["symbols"] for c in B.phrases["es_a"]]
    assert phrase_complete(syms) and not phrase_complete(syms[:2])


def phrase_turn():
    """Ann in Madrid holding two whole Spanish phrases, at her turn (spin or a phrase)."""
    g = board_game({0: "madrid"})
    g.keys[0] = []
    g.hand[0] = B.phrases["es_a"] + B.phrases["es_d"]
    for card in g.hand[0]:
        g.decks["Spain"].draw_pile.remove(card)
    g.ctx = {"phrases": []}
    g._ask_turn()
    assert set(g.decision.options) == {"spin", "phrase:es_a", "phrase:es_d"}
    return g


def test_phrase_bonus_moves_add_up_take_keys_in_passing_and_cards_go_back():
    g = phrase_turn()
    g.apply("phrase:es_a")
    assert set(g.decision.options) == {"phrase:es_d", "bonus"}  # no spin until the moves are taken
    g.apply("phrase:es_d")
    g.apply("bonus")
    paths = g.ctx["paths"]
    assert all(len(p) == 21 for p in paths.values())  # 10 + 10 moves
    dest = next(d for d, p in paths.items() if "lisbon" in p[1:-1])
    g.apply(dest)
    assert "lisbon" in g.keys[0]  # bonus moves through a Key City take its key
    assert g.hand[0] == []
    assert len(g.decks["Spain"]) == 12
    if g.decision.tag == "express":
        g.apply("stay")
    assert g.decision.tag == "turn" and g.decision.options == ("spin",)


# ----- Money Card ----------------------------------------------------------------------------
def test_money_card_segment_changes_hands_and_allows_1_to_5_moves():
    g = board_game({0: "london"})
    g.holder = 1
    spin(g, seg("red", "MONEY CARD"))
    g.apply("spin")
    assert g.holder == 0
    lengths = {len(p) - 1 for p in g.ctx["paths"].values()}
    assert lengths == {1, 2, 3, 4, 5}


def test_charge_it_is_offered_and_both_answers_work():
    bill = B.cards["mi11"]["amount"]  # a Pay card
    for answer, expect_cash, expect_amex in (("charge", 300, -bill), ("pay", 300 - bill, 0)):
        g = board_game({0: "london"}, turns=1)
        g.holder = 0
        _top(g, MISC, "mi11")
        spin(g, seg("red", 2))
        g.apply("spin")
        g.apply("lon_bru_2")
        assert g.decision.tag == "charge" and g.decision.player == 0
        assert set(g.decision.options) == {"charge", "pay"}
        g.apply(answer)
        assert cash(g)[0] == expect_cash and g.money()[AMEX] == expect_amex


def test_no_charge_for_payments_to_players():
    g = board_game({0: "paris"}, turns=1)
    g.holder = 0
    _top(g, "France", "fr10")  # give $10 to the player on the left
    spin(g, seg("red", 3))
    g.apply("spin")
    g.apply("lyon")
    assert cash(g) == [290, 310, 300]


# ----- Monte Carlo ---------------------------------------------------------------------------
def _monte(g):
    g.stack += [("spin_prompt",), ("monte", 0, "card")]
    g.pending = None
    g._run()


def test_monte_carlo_win_pays_the_odds_and_player_may_continue_or_stop():
    g = board_game({0: "london"})
    _monte(g)
    assert g.decision.kind == "amount" and (g.decision.low, g.decision.high, g.decision.step) == (
        10,
        20,
        10,
    )
    assert g.decision.options == ()  # must bet
    g.apply(20)
    spin(g, seg("red", 3))
    g.apply("red")
    assert cash(g)[0] == 360
    assert g.decision.options == ("stop",)  # keep betting while winning
    g.apply("stop")
    assert g.decision.tag == "turn"


def test_monte_carlo_loss_stops_and_costs_the_bet():
    g = board_game({0: "london"})
    _monte(g)
    g.apply(20)
    spin(g, seg("red", 4), seg("black", 6))
    g.apply("red")
    assert cash(g)[0] == 380
    g.apply(10)
    g.apply("red")
    assert cash(g)[0] == 370 and g.decision.tag == "turn"


def test_monte_carlo_money_card_counts_five_and_takes_the_card_win_or_lose():
    g = board_game({0: "london"})
    g.holder = 2
    _monte(g)
    g.apply(20)
    spin(g, seg("red", "MONEY CARD"))
    g.apply("red")
    assert cash(g)[0] == 400 and g.holder == 0
    g = board_game({0: "london"})
    g.holder = 2
    _monte(g)
    g.apply(10)
    spin(g, seg("red", "MONEY CARD"))
    g.apply("black")
    assert cash(g)[0] == 290 and g.holder == 0


def test_monte_carlo_loss_cannot_be_charged():
    g = board_game({0: "london"})
    g.holder = 0
    _monte(g)
    g.apply(20)
    spin(g, seg("black", 1))
    g.apply("red")
    assert cash(g)[0] == 280 and g.money()[AMEX] == 0


def test_keys_allow_betting_without_funds():
    g = board_game({0: "london"})
    g.transfer(g.wallet(0), AGENT, 295)
    g.keys[0] = []
    _monte(g)  # $5 and no key: no bet
    assert g.decision.tag == "turn"
    g.keys[0] = ["rome"]
    _monte(g)
    assert (g.decision.low, g.decision.high) == (10, 20)


def test_exact_monte_carlo_expected_values():
    assert single_bet_ev(B.segments, "red", 20) == Fraction(70, 3)
    assert single_bet_ev(B.segments, "black", 20) == Fraction(25)
    assert betting_ev(B.segments, "red", 20) == Fraction(140, 3)
    assert betting_ev(B.segments, "black", 20) == Fraction(50)


# ----- debts ----------------------------------------------------------------------------------
def _owe(g, seat, amount):
    g.stack += [("spin_prompt",), ("pay", seat, AGENT, amount, "test bill", True)]
    g.pending = None
    g._run()


def test_debt_turn_in_keys_for_50_not_of_the_country_occupied():
    g = board_game({0: "paris"})
    g.keys[0] = ["paris", "rome"]
    _owe(g, 0, 340)
    assert g.decision.tag == "debt"
    assert set(g.decision.options) == {"monte_carlo", "turn_in:rome"}  # Paris key: in France
    g.apply("turn_in:rome")
    assert cash(g)[0] == 10 and g.keys[0] == ["paris"] and g.pawned[0] == ["rome"]
    assert g.decision.tag == "turn" and g.money()[AGENT] == -900 + 340 - 50


def test_debt_still_unpaid_is_out_and_money_goes_to_the_creditor():
    g = board_game({0: "paris"})
    g.keys[0] = ["paris"]
    g.holder = 1  # Bob holds the Money Card: Ann cannot Charge It
    _owe(g, 0, 400)
    assert set(g.decision.options) == {"monte_carlo"}
    g.apply("monte_carlo")
    g.apply(20)
    spin(g, seg("black", 2))
    g.apply("red")  # lose: now owes 420, no key may be turned in (Paris key in France)
    assert g.out[0] and g.pos[0] is None and g.keys[0] == [] and g.holder == 1
    assert cash(g)[0] == 0 and g.money()[AGENT] == -600


def test_monte_carlo_win_can_cover_the_debt():
    g = board_game({0: "paris"})
    g.keys[0] = ["london"]
    _owe(g, 0, 320)
    g.apply("monte_carlo")
    g.apply(20)
    spin(g, seg("black", 2))
    g.apply("black")  # +40 -> 340
    g.apply("stop")
    assert cash(g)[0] == 20 and g.keys[0] == ["london"] and not g.out[0]


def test_turned_in_key_is_reclaimed_on_returning_to_the_city():
    g = board_game({0: "london"})
    g.keys[0] = []
    g.pawned[0] = ["paris"]
    spin(g, seg("red", 4))
    g.apply("spin")
    g.apply("paris")
    assert g.keys[0] == ["paris"] and g.pawned[0] == []


def test_last_player_standing_wins():
    g = board_game({0: "paris"}, n=2)
    g.keys[0] = []
    g.transfer(g.wallet(0), AGENT, 300)
    _owe(g, 0, 10)
    assert g.over and g.winner == "Bob"


# ----- Express Ports, GO!, Join, Mail --------------------------------------------------------
def test_express_port_flight():
    g = board_game({0: "sea31"})
    spin(g, seg("red", 1))
    g.apply("spin")
    g.apply("port_nw")
    assert g.decision.tag == "express"
    assert set(g.decision.options) == {"stay"} | {f"fly:{p}" for p in B.ports if p != "port_nw"}
    g.apply("fly:frankfurt")
    assert g.pos[0] == "frankfurt"


def test_go_card_moves_and_takes_the_key():
    g = board_game({0: "london"}, turns=1)
    _top(g, "France", "fr02")  # GO! to Paris, drawn on a white space of France
    spin(g, seg("red", 3))
    g.apply("spin")
    g.apply("lon_par_3")
    assert g.pos[0] == "paris" and "paris" in g.keys[0] and g.hand[0] == ["fr02"]


def test_join_another_tourist():
    g = board_game({0: "london", 1: "rome"}, turns=1)
    _top(g, MISC, "mi06")
    spin(g, seg("red", 1))
    g.apply("spin")
    g.apply("lon_bru_1")
    assert g.decision.tag == "join"
    assert set(g.decision.options) >= set(B.near["rome"])
    g.apply("rom_ath_1")
    assert g.pos[0] == "rom_ath_1"


def test_mail_from_home_12_cards_and_back_to_the_bottom():
    assert len(B.decks[MAIL]) == 12
    g = board_game({0: "london"}, turns=1)
    _top(g, MISC, "mi04")
    _top(g, MAIL, "ma01")  # a birthday cheque
    spin(g, seg("red", 1))
    g.apply("spin")
    g.apply("lon_bru_1")
    assert cash(g)[0] == 300 + B.cards["ma01"]["amount"] and g.decks[MAIL].draw_pile[-1] == "ma01"


def test_collect_from_each_player():
    g = board_game({0: "london", 1: "rome"}, turns=1)
    _top(g, MISC, "mi14")
    spin(g, seg("red", 1))
    g.apply("spin")
    g.apply("lon_bru_1")
    assert cash(g) == [320, 290, 290]


# ----- ending, bad input, data ------------------------------------------------------------
def test_turn_cap_ends_with_most_keys():
    g = new(3, max_rounds=1)
    bot = moneynb.make_bot("greedy", seed=2)
    while not g.over:
        g.apply(bot.choose(g))
    assert g.round == 2
    best = max(len(k) for k in g.keys)
    assert all(len(g.keys[s]) == best for s in g.winners)


def test_illegal_actions_change_nothing():
    g = new()
    before = g.state()
    for bad in ("paris", 20, "fly:frankfurt", None):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert g.state() == before
    g.apply("spin")
    before = g.state()
    with pytest.raises(IllegalAction, match="allowed"):
        g.apply("athens")
    assert g.state() == before


def test_bad_options_and_data_files(tmp_path):
    with pytest.raises(ValueError, match="max_rounds"):
        new(max_rounds=0)
    bad = tmp_path / "map.toml"
    bad.write_text(
        'space = []\nroutes = []\nperimeter = []\nkey_cities = ["x"]\n'
        'language_countries = []\nstarts = []\nside_trips = []\ndisplaced_to = "x"\n'
    )
    with pytest.raises(ValueError, match="key"):
        Board(map_file=str(bad))
    cards = tmp_path / "cards.toml"
    cards.write_text('[[card]]\nid = "a"\ndeck = "France"\ntext = "t"\neffect = "fly"\n')
    with pytest.raises(ValueError, match="effect"):
        Board(cards_file=str(cards))


def test_observation_hides_deck_order_and_other_hands():
    g = board_game({0: "paris"})
    g.hand[1] = ["fr01"]
    obs = g.observation(0)
    assert obs["hand_sizes"][1] == 1 and obs["hand"] == []
    assert all(isinstance(v, int) for v in obs["piles"].values())


def test_whole_games_are_fast_and_end():
    import time

    t = time.perf_counter()
    for seed in range(10):
        g = new(4, seed=seed)
        bots = [moneynb.make_bot("greedy", seed=seed + i) for i in range(4)]
        moneynb.bots.play_out(g, bots, max_actions=20_000)
        assert g.over and g.winners
    assert time.perf_counter() - t < 10


def test_place_names_never_show_internal_ids():
    g = moneynb.new_game("money_card", players=["Ann", "Bob", "Cy"], seed=3)
    b = g.board
    assert b.name("ham_cop_1") == "Germany-Austria, between Copenhagen and Hamburg"
    # perimeter spaces: the named space behind, then the one ahead on the one-way loop
    assert b.name("sea27") == "the perimeter, between Gibraltar Port and Dublin"
    assert b.name("sea10_pra_1") == "at sea, between Prague and the perimeter"
    assert b.name("paris") == "Paris"
    ids = set(b.order)
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(3)]
    for _ in range(400):
        if g.over:
            break
        d = g.decision
        assert not any(i in str(label) for label in d.labels.values() for i in ids if "_" in i)
        g.apply(bots[d.player].choose(g))
    texts = " ".join(e.text for e in g.log)
    assert "between" in texts  # planes did stop on unnamed route spaces
    leaked = sorted(i for i in ids if f"({i})" in texts or f" {i}." in texts)
    assert leaked == [], leaked
