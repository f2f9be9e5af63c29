"""Money Run rules (rulebooks/money-run.txt), one test per rule, with exact squares and counts.

Positions are set up directly (``stacks``/``pawns``) and the pending decision refreshed with
``_ask_action()``; then actions go through ``g.apply`` like a player's would.
"""

from __future__ import annotations

import json

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.core import IllegalAction
from moneynb.games.money_run.rules import MoneyRun, load_setup

PUNY, SMALL, MEDIUM, LARGE = 1, 2, 3, 4


def new(n: int = 2, seed: int = 1, **options) -> MoneyRun:
    return moneynb.new_game(
        "money_run", players=["Ann", "Bob", "Cy", "Dee"][:n], seed=seed, **options
    )


def put(g: MoneyRun, x: int, y: int, *ranks: int) -> None:
    g.stacks[g.sq(x, y)] = tuple(ranks)


def pawn_at(g: MoneyRun, seat: int, x: int, y: int) -> None:
    g.pawns[seat] = g.sq(x, y)


def refresh(g: MoneyRun) -> None:
    g._ask_action()


def targets(g: MoneyRun) -> set:
    return {o[1:] for o in g.legal_actions() if isinstance(o, tuple) and o[0] == "pawn"}


# ----- Setup --------------------------------------------------------------------------------
def test_setup_coins_table_bag_and_counts():
    g = new()
    assert len(g.table) == 5 and len(g.bag) == 37
    assert g.coin_count() == 42
    everything = sorted(g.bag + g.table)
    assert everything.count(LARGE) == 5 and everything.count(MEDIUM) == 10
    assert everything.count(SMALL) == 12 and everything.count(PUNY) == 15
    assert all(s == () for s in g.stacks)
    assert g.money() == {} and g.ledger.total == 0  # coins are not dollars


@pytest.mark.parametrize(
    "n, starts",
    [
        (2, [(4, 0), (4, 8)]),
        (3, [(4, 0), (4, 8), (0, 4)]),
        (4, [(4, 0), (4, 8), (0, 4), (8, 4)]),
    ],
)
def test_start_squares_and_goal_edges(n, starts):
    g = new(n)
    assert [g.xy(p) for p in g.pawns] == starts
    # each goal is the opposite edge: distance 8 from the start
    assert [g.distance(s) for s in range(n)] == [8] * n
    assert g.on_goal(0, g.sq(0, 8)) and g.on_goal(0, g.sq(8, 8)) and not g.on_goal(0, g.sq(4, 7))
    if n >= 3:
        assert g.on_goal(2, g.sq(8, 0)) and not g.on_goal(2, g.sq(7, 4))
    if n == 4:
        assert g.on_goal(3, g.sq(0, 8))


def test_seeded_table_is_reproducible_and_observation_hides_the_bag_order():
    a, b = new(seed=5), new(seed=5)
    assert a.table == b.table
    assert any(new(seed=s).table != a.table for s in range(6, 12))
    obs = a.observation(0)
    assert obs["bag_total"] == 37 and sum(obs["bag"].values()) == 37
    assert obs["coin_count"] == 42
    text = json.dumps(obs)
    assert "rng" not in text
    counts = {name: a.bag.count(rank) for rank, name in a.coin_names.items()}
    assert obs["bag"] == counts


def test_bad_setup_file_and_options(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("board_size = 2\ntable_size = 5\ncoins = []\nseats = []\n")
    with pytest.raises(ValueError, match="board_size"):
        new(data_file=str(bad))
    with pytest.raises(ValueError, match="max_rounds"):
        new(max_rounds=0)
    assert load_setup()["board_size"] == 9


# ----- Placing coins ------------------------------------------------------------------------
def test_place_a_table_coin_refills_the_table_from_the_bag():
    g = new(seed=2)
    i, rank = 0, g.table[0]
    g.apply(("place", i))
    assert g.decision.tag == "place" and len(g.legal_actions()) == 81
    events = g.apply((3, 3))
    assert g.stacks[g.sq(3, 3)] == (rank,)
    assert len(g.table) == 5 and len(g.bag) == 36 and g.coin_count() == 42
    assert [e.kind for e in events] == ["placed", "drew"]
    assert g.actions_left == 1 and g.turn == 0


def test_stacking_never_a_larger_coin_on_a_smaller_one():
    g = new()
    put(g, 2, 2, MEDIUM)
    g.table = [LARGE, MEDIUM, PUNY, PUNY, PUNY]
    refresh(g)
    g.apply(("place", 0))  # a large coin
    assert (2, 2) not in g.legal_actions()
    before = g.state()
    with pytest.raises(IllegalAction, match="Where does"):
        g.apply((2, 2))
    assert g.state() == before
    g.undo()
    g.table = [LARGE, MEDIUM, PUNY, PUNY, PUNY]
    put(g, 2, 2, MEDIUM)
    refresh(g)
    g.apply(("place", 1))  # medium on medium: same size is fine
    g.apply((2, 2))
    assert g.stacks[g.sq(2, 2)] == (MEDIUM, MEDIUM)


def test_only_the_top_coin_moves_and_follows_stacking():
    g = new()
    put(g, 2, 2, LARGE, SMALL)
    put(g, 5, 5, PUNY)
    put(g, 6, 6, LARGE)
    refresh(g)
    assert ("coin", 2, 2) in g.legal_actions()
    g.apply(("coin", 2, 2))
    opts = set(g.legal_actions())
    assert (5, 5) not in opts  # small on puny: no
    assert (6, 6) in opts and (0, 0) in opts and (2, 2) not in opts
    g.apply((6, 6))
    assert g.stacks[g.sq(2, 2)] == (LARGE,)
    assert g.stacks[g.sq(6, 6)] == (LARGE, SMALL)


def test_efaq1_no_coin_taken_from_under_any_pawn():
    g = new()
    put(g, 4, 0, LARGE)  # under Ann's own pawn
    put(g, 4, 8, LARGE)  # under Bob's pawn
    put(g, 3, 3, SMALL)
    refresh(g)
    coins = {o for o in g.legal_actions() if isinstance(o, tuple) and o[0] == "coin"}
    assert coins == {("coin", 3, 3)}
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply(("coin", 4, 8))
    assert g.state() == before


def test_efaq2_a_coin_may_go_under_a_pawn_if_it_fits():
    g = new()
    g.table = [MEDIUM, LARGE, PUNY, PUNY, PUNY]
    put(g, 4, 8, SMALL)  # Bob stands on a small coin
    refresh(g)
    g.apply(("place", 0))  # medium
    assert (4, 0) in g.legal_actions()  # under Ann's own pawn (empty square)
    assert (4, 8) not in g.legal_actions()  # medium on small: no
    g.apply((4, 0))
    assert g.height(g.pawns[0]) == 1
    g.apply(("place", 2))  # puny onto Bob's small coin, under Bob
    g.apply((4, 8))
    assert g.stacks[g.pawns[1]] == (SMALL, PUNY)


def test_empty_bag_table_shrinks_and_play_goes_on():
    g = new()
    g.bag = []
    refresh(g)
    g.apply(("place", 2))
    events = g.apply((1, 1))
    assert len(g.table) == 4 and "bag_empty" in [e.kind for e in events]
    assert [o for o in g.legal_actions() if isinstance(o, tuple) and o[0] == "place"] == [
        ("place", i) for i in range(4)
    ]


# ----- Moving your pawn ---------------------------------------------------------------------
def test_pawn_only_onto_coins_orthogonally_from_the_floor():
    g = new()
    put(g, 3, 1, PUNY)  # diagonal from (4, 0)
    put(g, 4, 1, PUNY)  # straight ahead
    put(g, 5, 0, PUNY)  # beside
    refresh(g)
    assert targets(g) == {(4, 1), (5, 0)}  # no diagonal from height 0, no empty squares
    g.apply(("pawn", 4, 1))
    assert g.xy(g.pawns[0]) == (4, 1)


def test_climb_at_most_one_level_per_step():
    g = new()
    pawn_at(g, 0, 4, 3)
    put(g, 4, 3, LARGE)  # height 1
    put(g, 4, 4, LARGE, LARGE)  # height 2: one up, allowed
    put(g, 3, 3, LARGE, LARGE, LARGE)  # height 3: two up, not allowed
    put(g, 5, 3, SMALL)  # same height
    refresh(g)
    assert targets(g) == {(4, 4), (5, 3)}


def test_diagonal_only_from_a_stack_of_two_or_more():
    g = new()
    pawn_at(g, 0, 4, 3)
    put(g, 4, 3, LARGE)
    put(g, 5, 4, LARGE)  # diagonal, same height
    refresh(g)
    assert targets(g) == set()
    put(g, 4, 3, LARGE, MEDIUM)  # now on a stack of two
    put(g, 5, 4, LARGE, MEDIUM)
    refresh(g)
    assert targets(g) == {(5, 4)}


def test_rulebook_example_descending_chain_4_2_1_in_one_action():
    g = new()
    pawn_at(g, 0, 4, 3)
    put(g, 4, 3, LARGE, MEDIUM, SMALL, PUNY)  # 4 high
    put(g, 5, 4, MEDIUM, SMALL)  # 2 high, diagonal
    put(g, 6, 5, PUNY)  # 1 high, diagonal again
    refresh(g)
    assert (6, 5) in targets(g)
    assert g.pawn_paths(0)[g.sq(6, 5)] == (g.sq(4, 3), g.sq(5, 4), g.sq(6, 5))
    events = g.apply(("pawn", 6, 5))
    assert events[0].data["path"] == [[4, 3], [5, 4], [6, 5]]
    assert g.xy(g.pawns[0]) == (6, 5) and g.actions_left == 1


def test_jump_down_any_height():
    g = new()
    pawn_at(g, 0, 4, 3)
    put(g, 4, 3, LARGE, MEDIUM, SMALL, PUNY)
    put(g, 4, 4, PUNY)
    refresh(g)
    assert targets(g) == {(4, 4)}


def test_chain_continues_only_while_every_step_goes_down():
    g = new()
    pawn_at(g, 0, 4, 3)
    put(g, 4, 3, LARGE)  # height 1
    put(g, 4, 4, LARGE)  # flat step to height 1
    put(g, 4, 5, LARGE, LARGE)  # would be a second step (a climb)
    refresh(g)
    assert targets(g) == {(4, 4)}
    g2 = new()
    pawn_at(g2, 0, 4, 3)
    put(g2, 4, 3, LARGE, LARGE, LARGE)  # 3
    put(g2, 4, 4, LARGE, LARGE)  # 2 (down)
    put(g2, 4, 5, LARGE, LARGE)  # 2 again: not lower, chain stops before it
    put(g2, 3, 5, LARGE)  # 1: lower, diagonal, reachable
    refresh(g2)
    assert targets(g2) == {(4, 4), (3, 5)}


def test_pawns_never_share_a_square():
    g = new()
    pawn_at(g, 0, 4, 3)
    pawn_at(g, 1, 4, 4)
    put(g, 4, 3, LARGE)
    put(g, 4, 4, LARGE)
    refresh(g)
    assert targets(g) == set()
    with pytest.raises(IllegalAction):
        g.apply(("pawn", 4, 4))


# ----- Turns --------------------------------------------------------------------------------
def test_two_actions_then_the_next_player():
    g = new()
    g.apply(("place", 0))
    g.apply((0, 0))
    assert g.turn == 0 and g.actions_left == 1
    g.apply(("place", 0))
    g.apply((8, 8))
    assert g.turn == 1 and g.actions_left == 2 and g.decision.player == 1


def test_one_or_no_action_then_end_turn():
    g = new()
    g.apply(("place", 1))
    g.apply((2, 2))
    g.apply("end_turn")
    assert g.turn == 1 and g.round == 1
    g.apply("end_turn")  # Bob uses none
    assert g.turn == 0 and g.round == 2 and not g.over


# ----- Winning and the stalemate rule (EFAQ 3) ----------------------------------------------
def test_reaching_any_square_of_the_goal_row_wins():
    g = new()
    pawn_at(g, 0, 1, 7)
    put(g, 1, 7, PUNY)
    put(g, 1, 8, PUNY)
    refresh(g)
    g.apply(("pawn", 1, 8))
    assert g.over and g.winner == "Ann" and g.scores() == {"Ann": 8, "Bob": 0}
    with pytest.raises(IllegalAction, match="over"):
        g.apply("end_turn")


def test_a_descending_chain_can_win_and_stops_on_the_goal_edge():
    g = new()
    pawn_at(g, 0, 2, 6)
    put(g, 2, 6, LARGE, LARGE, LARGE, LARGE)  # 4
    put(g, 2, 7, LARGE, LARGE, LARGE)  # 3
    put(g, 2, 8, LARGE, LARGE)  # 2, on the goal row
    put(g, 1, 7, LARGE)  # 1
    put(g, 3, 8, LARGE)  # 1, on the goal row
    refresh(g)
    paths = g.pawn_paths(0)
    for path in paths.values():  # no path runs on past a goal square
        assert not any(g.on_goal(0, sq) for sq in path[:-1])
    assert paths[g.sq(1, 7)] == (g.sq(2, 6), g.sq(1, 7))  # a jump down from 4 to 1
    assert paths[g.sq(2, 8)] == (g.sq(2, 6), g.sq(2, 7), g.sq(2, 8))  # 4 -> 3 -> 2 (goal)
    assert set(paths) == {g.sq(x, y) for x, y in [(2, 7), (1, 7), (2, 8), (3, 8)]}
    g.apply(("pawn", 2, 8))
    assert g.over and g.winner == "Ann"


def test_stalemate_closest_pawn_wins_then_higher_stack():
    g = new(max_rounds=1)
    pawn_at(g, 0, 4, 5)  # 3 from row 8
    pawn_at(g, 1, 4, 3)  # 3 from row 0
    put(g, 4, 5, PUNY)
    put(g, 4, 3, LARGE, SMALL)  # Bob stands higher
    refresh(g)
    g.apply("end_turn")
    events = g.apply("end_turn")  # round 1 over: the cap ends it
    assert g.over and g.winner == "Bob"
    stalemate = [e for e in events if e.kind == "stalemate"][0]
    assert stalemate.data["distances"] == {"Ann": 3, "Bob": 3}


def test_stalemate_smaller_distance_beats_height_and_full_ties_share():
    g = new(max_rounds=1)
    pawn_at(g, 0, 4, 6)  # 2 away
    pawn_at(g, 1, 4, 3)  # 3 away, higher
    put(g, 4, 3, LARGE, LARGE)
    refresh(g)
    g.apply("end_turn")
    g.apply("end_turn")
    assert g.winner_names == ["Ann"]
    g = new(max_rounds=1)
    refresh(g)
    g.apply("end_turn")
    g.apply("end_turn")
    assert g.winner_names == ["Ann", "Bob"]


def test_passing_rounds_never_end_the_game_while_a_move_exists():
    g = new(max_rounds=60)
    for _ in range(10):  # ten whole rounds of passes
        g.apply("end_turn")
        g.apply("end_turn")
    assert not g.over and g.round == 11
    assert not [e for e in g.log if e.kind == "stalemate"]


def test_no_possible_move_for_anyone_ends_the_game():
    g = new()
    g.bag, g.table = [], []
    pawn_at(g, 1, 4, 1)
    put(g, 4, 0, LARGE)  # every coin on the board sits under a pawn
    put(g, 4, 1, LARGE, LARGE)
    refresh(g)
    assert g.legal_actions() == ["end_turn"]
    g.apply("end_turn")
    assert g.over and g.winner == "Bob"  # 1 away beats 8 away
    assert "no player can make any move" in g.log[-2].text


def test_round_cap_ends_every_game():
    g = new(max_rounds=3)
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    n = 0
    while not g.over:
        g.apply(bots[g.decision.player].choose(g))
        n += 1
        assert g.round <= 3
    assert n < 3 * 2 * 2 * 2 + 1  # at most 3 rounds x 2 players x 2 actions x 2 decisions


# ----- Invariants, save/load, bad inputs ----------------------------------------------------
def test_coin_count_conserved_in_bot_games():
    for seed in range(30):
        g = new(n=2 + seed % 3, seed=seed)
        bots = [make_bot("random" if i % 2 else "greedy", seed=seed + i) for i in range(4)]
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
            assert g.coin_count() == 42
            assert len(g.table) + len(g.bag) + sum(map(len, g.stacks)) == 42


def test_every_option_label_is_distinct_at_every_decision():
    """Issue 28: at the first decision three table coins were all "Place the puny coin"."""
    first = new(seed=1)
    labels = [first.decision.label(o) for o in first.decision.options]
    assert sum("puny" in label for label in labels) >= 2  # the case the issue met
    for seed in range(6):
        g = new(n=2 + seed % 3, seed=seed, max_rounds=8)
        bots = [make_bot("random", seed=seed + i) for i in range(4)]
        while not g.over:
            d = g.decision
            labels = [d.label(o) for o in d.options]
            assert len(set(labels)) == len(labels), (seed, labels)
            g.apply(bots[d.player].choose(g))


def test_save_load_and_copy_keep_the_same_future():
    g = new(n=3, seed=9)
    bot = make_bot("random", seed=4)
    for _ in range(30):
        g.apply(bot.choose(g))
    g2 = moneynb.load_game(g.to_json())
    c = g.copy()
    assert g2.state() == g.state() == c.state()
    for _ in range(20):
        if g.over:
            break
        a = bot.choose(g)
        for x in (g, g2, c):
            x.apply(a)
    assert g2.state() == g.state() == c.state()


@pytest.mark.parametrize(
    "bad",
    [("place", 5), ("place", -1), ("coin", 0, 0), ("pawn", 4, 1), "pass", (4, 4), None, ("place",)],
)
def test_bad_inputs_raise_and_change_nothing(bad):
    g = new()
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply(bad)
    assert g.state() == before


def test_greedy_beats_random():
    wins = 0
    for seed in range(40):
        g = new(seed=seed)
        s = seed % 2
        bots = [make_bot("random", seed=seed), make_bot("random", seed=seed)]
        bots[s] = make_bot("greedy", seed=seed)
        while not g.over:
            g.apply(bots[g.decision.player].choose(g))
        wins += g.winners == [s]
    assert wins >= 38


def test_undo_within_the_turn_only():
    g = new()
    assert not g.can_undo_in_turn()
    g.apply(("place", 0))
    assert g.can_undo_in_turn()
    g.apply((1, 1))
    g.apply("end_turn")
    assert g.turn == 1 and not g.can_undo_in_turn() and g.turn_start == 3
    g.apply(("place", 0))
    g.undo()
    assert g.turn == 1 and not g.can_undo_in_turn()
