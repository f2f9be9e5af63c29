"""Money Run played against its rulebook (rulebooks/money-run.txt), section by section.

Each test is named after the rulebook section it plays ("what you'll need", "setup",
"objective", "how to play" 1-6, "placing coins", "moving your pawn", "EFAQ" 1-3); the table in
docs/money_run.md maps every rule to its test here or to a stated reconstruction.

A scenario lays out a board position the way the rulebook's own examples do (coins on squares,
pawns on them: :func:`position`) and fixes every draw from the bag with the public test rig
(``rig(g).pick(g.bag, coin)``); the moves themselves go through ``g.apply`` like a player's.
Squares are ``(x, y)``: column from the left, row from the bottom.
"""

from __future__ import annotations

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.core import IllegalAction
from moneynb.games.money_run.rules import MoneyRun
from moneynb.testing import rig

PUNY, SMALL, MEDIUM, LARGE = 1, 2, 3, 4


def game(n: int = 2, seed: int = 1, **options) -> MoneyRun:
    """A fresh game of ``n`` players, Ann first (then Bob, Cy, Dee)."""
    return moneynb.new_game(
        "money_run", players=["Ann", "Bob", "Cy", "Dee"][:n], seed=seed, **options
    )


def position(g: MoneyRun, stacks=None, pawns=None, table=None) -> MoneyRun:
    """Lay out a position: ``stacks`` ``{(x, y): (coins bottom first)}``, ``pawns`` ``{seat:
    (x, y)}``, ``table`` (the coins face up). Coins for it come out of the bag, so 42 stay."""
    pool = g.bag + g.table
    for (x, y), coins in (stacks or {}).items():
        g.stacks[g.sq(x, y)] = tuple(coins)
        for c in coins:
            pool.remove(c)
    g.table = list(table) if table is not None else [pool.pop() for _ in range(len(g.table))]
    for c in g.table:
        if table is not None:
            pool.remove(c)
    g.bag = sorted(pool)
    for seat, (x, y) in (pawns or {}).items():
        g.pawns[seat] = g.sq(x, y)
    g._ask_action()  # the pending decision of the laid-out position
    assert g.coin_count() == 42
    return g


def pawn_moves(g: MoneyRun) -> set:
    return {o[1:] for o in g.legal_actions() if isinstance(o, tuple) and o[0] == "pawn"}


# ----- What you'll need --------------------------------------------------------------------
def test_what_youll_need_two_to_four_players_one_pawn_each():
    for n in (2, 3, 4):
        assert len(game(n).pawns) == n
    for names in (["Ann"], ["Ann", "Bob", "Cy", "Dee", "Eve"]):
        with pytest.raises(ValueError, match="2 to 4 players"):
            moneynb.new_game("money_run", players=names, seed=1)


def test_what_youll_need_a_9x9_board_and_42_coins_of_four_sizes():
    g = game()
    assert g.size == 9 and len(g.stacks) == 81
    coins = sorted(g.bag + g.table)
    counts = {name: coins.count(rank) for rank, name in g.coin_names.items()}
    assert counts == {"large": 5, "medium": 10, "small": 12, "puny": 15}
    assert g.coin_count() == 42


def test_what_youll_need_a_bag_nobody_can_see_into():
    g = game()
    obs = g.observation(0)
    assert obs["bag_total"] == 37 and sum(obs["bag"].values()) == 37
    assert "rng" not in str(obs)  # sizes left are on view, never the next coin


# ----- Setup ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_1_each_pawn_on_its_starting_square(n):
    g = game(n)
    assert [g.xy(p) for p in g.pawns] == [(4, 0), (4, 8), (0, 4), (8, 4)][:n]
    assert all(g.height(p) == 0 for p in g.pawns)


def test_setup_2_3_five_coins_drawn_at_random_from_the_bag_onto_the_table():
    g = game()
    assert len(g.table) == 5 and len(g.bag) == 37
    assert any(game(seed=s).table != g.table for s in range(2, 8))  # a random draw


def test_setup_4_the_first_listed_player_starts():
    g = game(3)
    assert g.decision.player == 0 and g.turn == 0


# ----- Objective -------------------------------------------------------------------------
def test_objective_1_races_to_2s_row_and_3_to_4s_column():
    g = game(4)
    start = [g.xy(p) for p in g.pawns]
    assert g.on_goal(0, g.sq(*start[1])) and g.on_goal(1, g.sq(*start[0]))
    assert g.on_goal(2, g.sq(*start[3])) and g.on_goal(3, g.sq(*start[2]))


def test_objective_any_square_of_the_far_row_wins():
    g = position(game(), {(0, 7): [PUNY], (0, 8): [PUNY]}, pawns={0: (0, 7)})
    g.apply(("pawn", 0, 8))  # the corner, not the square facing Ann's start
    assert g.over and g.winner == "Ann"
    assert [e.kind for e in g.log][-2:] == ["reached_goal", "game_over"]


# ----- How to Play -----------------------------------------------------------------------
def test_how_to_play_1_none_of_the_actions_never_ends_the_game():
    """Issue 13, input 1: three players pass in turn; nobody has won and play goes on."""
    g = game(3, seed=1)
    for _ in range(3):
        assert g.legal_actions() != ["end_turn"]  # every player still has moves
        g.apply("end_turn")
    assert not g.over and g.winners == [] and g.turn == 0 and g.round == 2


def test_how_to_play_1_one_action_then_passes_do_not_win():
    """Issue 13, input 1 (two players, seed 6): Ann climbs one row with two actions, Bob
    passes, Ann passes: Ann is 7 rows from her goal and has not won."""
    g = game(2, seed=6)
    g.apply(("place", 0))
    g.apply((4, 1))
    g.apply(("pawn", 4, 1))
    assert g.distance(0) == 7 and g.turn == 1
    g.apply("end_turn")  # Bob uses none of his actions
    g.apply("end_turn")  # Ann uses none
    assert not g.over and g.winners == [] and g.decision.player == 1


def test_how_to_play_1_one_action_then_end_the_turn():
    g = game()
    g.apply(("place", 1))
    g.apply((2, 2))
    g.apply("end_turn")
    assert g.turn == 1 and g.actions_left == 2


def test_how_to_play_2_placing_a_coin_refills_the_table_from_the_bag():
    g = position(game(), table=[LARGE, MEDIUM, SMALL, PUNY, PUNY])
    r = rig(g).pick(g.bag, MEDIUM)  # the coin drawn out of the bag is a medium one
    g.apply(("place", 0))
    g.apply((3, 3))
    r.check_used()
    assert g.stacks[g.sq(3, 3)] == (LARGE,)
    assert g.table == [MEDIUM, MEDIUM, SMALL, PUNY, PUNY] and len(g.bag) == 36


def test_how_to_play_3_moving_a_board_coin_is_one_action():
    g = position(game(), {(2, 2): [LARGE]})
    g.apply(("coin", 2, 2))
    g.apply((6, 6))
    assert g.stacks[g.sq(6, 6)] == (LARGE,) and g.stacks[g.sq(2, 2)] == ()
    assert g.actions_left == 1


def test_how_to_play_4_a_pawn_steps_onto_a_coin():
    g = position(game(), {(4, 1): [PUNY]})
    g.apply(("pawn", 4, 1))
    assert g.xy(g.pawns[0]) == (4, 1) and g.actions_left == 1


def test_how_to_play_5_after_two_actions_the_next_player():
    g = game(3)
    for x in (0, 1):
        g.apply(("place", 0))
        g.apply((x, 1))
    assert g.turn == 1 and g.decision.player == 1 and g.actions_left == 2


def test_how_to_play_6_the_game_ends_when_a_pawn_reaches_its_goal():
    g = position(game(), {(4, 7): [PUNY], (4, 8): [SMALL]}, pawns={0: (4, 7), 1: (0, 8)})
    g.apply(("pawn", 4, 8))
    assert g.over and g.winner == "Ann"
    with pytest.raises(IllegalAction, match="over"):
        g.apply("end_turn")


def test_how_to_play_round_cap_ranks_by_efaq3():
    """Reconstruction: after max_rounds rounds the game stops; EFAQ 3's ranking decides."""
    g = position(game(max_rounds=1), {(4, 2): [PUNY]}, pawns={0: (4, 2)})
    g.apply("end_turn")
    g.apply("end_turn")
    assert g.over and g.winner == "Ann"  # 6 rows to go against Bob's 8
    assert "round limit" in [e for e in g.log if e.kind == "stalemate"][0].text


def test_how_to_play_every_game_ends_by_the_goal_or_the_cap():
    bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
    g = game(max_rounds=4)
    while not g.over:
        g.apply(bots[g.decision.player].choose(g))
    assert g.round <= 4 and g.winners


# ----- Placing Coins ---------------------------------------------------------------------
def test_placing_coins_never_a_larger_coin_on_a_smaller_one():
    g = position(game(), {(2, 2): [SMALL]}, table=[LARGE, PUNY, SMALL, PUNY, PUNY])
    g.apply(("place", 0))  # the large coin
    assert (2, 2) not in g.legal_actions()
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply((2, 2))
    assert g.state() == before
    g = position(game(), {(2, 2): [SMALL]}, table=[LARGE, PUNY, SMALL, PUNY, PUNY])
    g.apply(("place", 1))  # a puny coin sits on the small one
    g.apply((2, 2))
    assert g.stacks[g.sq(2, 2)] == (SMALL, PUNY)


def test_placing_coins_always_on_top_never_inserted():
    g = position(game(), {(2, 2): [LARGE, PUNY]}, table=[SMALL, PUNY, PUNY, PUNY, PUNY])
    g.apply(("place", 0))  # a small coin would fit between large and puny: not allowed
    assert (2, 2) not in g.legal_actions()
    g = position(game(), {(2, 2): [LARGE, PUNY]}, table=[SMALL, PUNY, PUNY, PUNY, PUNY])
    g.apply(("place", 1))
    g.apply((2, 2))
    assert g.stacks[g.sq(2, 2)] == (LARGE, PUNY, PUNY)  # on top


def test_placing_coins_a_moved_coin_may_always_go_to_an_empty_square():
    g = position(game(), {(2, 2): [LARGE]})
    g.apply(("coin", 2, 2))
    empty = {g.xy(i) for i, s in enumerate(g.stacks) if not s} - {(2, 2)}
    bob = g.xy(g.pawns[1])  # an empty square, but under an opponent's pawn (EFAQ 1, row 26)
    assert empty - {bob} <= set(g.legal_actions()) and bob not in g.legal_actions()


def test_placing_coins_a_moved_coin_follows_the_stacking_rules():
    g = position(game(), {(2, 2): [MEDIUM], (5, 5): [SMALL], (6, 6): [LARGE]})
    g.apply(("coin", 2, 2))
    assert (5, 5) not in g.legal_actions() and (6, 6) in g.legal_actions()
    g.apply((6, 6))
    assert g.stacks[g.sq(6, 6)] == (LARGE, MEDIUM)


def test_placing_coins_only_the_top_coin_of_a_stack_moves():
    g = position(game(), {(2, 2): [LARGE, SMALL]})
    g.apply(("coin", 2, 2))
    g.apply((7, 7))
    assert g.stacks[g.sq(7, 7)] == (SMALL,) and g.stacks[g.sq(2, 2)] == (LARGE,)


# ----- Moving your Pawn ------------------------------------------------------------------
def test_moving_your_pawn_only_onto_squares_with_coins():
    g = position(game(), {(5, 0): [PUNY]})
    assert pawn_moves(g) == {(5, 0)}  # (4, 1) and (3, 0) are bare
    with pytest.raises(IllegalAction):
        g.apply(("pawn", 4, 1))


def test_moving_your_pawn_diagonal_only_from_a_stack_of_two_or_more():
    stacks = {(4, 3): [LARGE], (5, 4): [LARGE]}
    assert pawn_moves(position(game(), stacks, pawns={0: (4, 3)})) == set()
    stacks = {(4, 3): [LARGE, MEDIUM], (5, 4): [LARGE, MEDIUM]}
    assert pawn_moves(position(game(), stacks, pawns={0: (4, 3)})) == {(5, 4)}


def test_moving_your_pawn_climbs_one_level_per_action():
    stacks = {(4, 3): [MEDIUM], (4, 4): [MEDIUM] * 2, (3, 3): [MEDIUM] * 3}
    g = position(game(), stacks, pawns={0: (4, 3)})
    assert pawn_moves(g) == {(4, 4)}  # 1 -> 2 yes, 1 -> 3 no


def test_moving_your_pawn_going_down_keeps_going_4_2_1_in_one_action():
    stacks = {(4, 3): [LARGE, MEDIUM, SMALL, PUNY], (5, 4): [MEDIUM, SMALL], (6, 5): [PUNY]}
    g = position(game(), stacks, pawns={0: (4, 3)})
    events = g.apply(("pawn", 6, 5))
    assert events[0].data["path"] == [[4, 3], [5, 4], [6, 5]]  # diagonals, down each time
    assert g.actions_left == 1  # one action


def test_moving_your_pawn_jump_from_four_coins_to_one():
    stacks = {(4, 3): [LARGE, MEDIUM, SMALL, PUNY], (4, 4): [PUNY]}
    g = position(game(), stacks, pawns={0: (4, 3)})
    assert pawn_moves(g) == {(4, 4)}


# ----- EFAQ ------------------------------------------------------------------------------
def test_efaq_1_no_coin_moves_from_under_a_pawn():
    """Reading: the pawn stands on the top coin of its stack, so that coin is not "the top
    coin" free to move ("Placing Coins"); kept from the first pass (see docs)."""
    g = position(game(), {(4, 0): [LARGE], (4, 8): [LARGE], (3, 3): [SMALL]})
    coins = {o for o in g.legal_actions() if isinstance(o, tuple) and o[0] == "coin"}
    assert coins == {("coin", 3, 3)}
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply(("coin", 4, 8))  # Bob's
    assert g.state() == before


def test_efaq_1_no_board_coin_is_moved_under_an_opponents_pawn():
    """Issue 27 item 3, EFAQ 1 ("May I move a coin under an opponent's pawn? No"): a coin
    already on the board could be moved onto ``(4, 8)``, Bob's square, lifting his pawn. A
    moved coin may still go under Ann's own pawn (EFAQ 1 names the opponent's only)."""
    g = position(game(), {(3, 3): [LARGE], (4, 8): [LARGE]}, pawns={0: (4, 1)})
    g.apply(("coin", 3, 3))
    assert g.decision.tag == "move_coin"
    assert (4, 8) not in g.decision.options  # Bob's pawn
    assert (4, 1) in g.decision.options  # Ann's own pawn, on no coin: allowed
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply((4, 8))
    assert g.state() == before and g.height(g.pawns[1]) == 1
    g.apply((4, 1))  # under Ann's own pawn
    assert g.stacks[g.pawns[0]] == (LARGE,)


def test_efaq_1_the_reported_game_seed_1_place_then_move_the_coin():
    """Seed 1, two players, from the start: Ann's table coin may be placed under Bob's pawn
    (EFAQ 2), but once on the board it may not be moved there (EFAQ 1)."""
    g = game()
    g.apply(("place", 0))
    assert (4, 8) in g.decision.options  # placing: Bob's square is allowed
    g.apply((3, 3))  # Ann's first action: the table coin onto (3, 3)
    g.apply(("coin", 3, 3))  # second action: move that coin
    assert (4, 8) not in g.decision.options and (4, 0) in g.decision.options


def test_efaq_2_a_coin_may_go_under_your_own_or_another_pawn_if_it_fits():
    g = position(game(), {(4, 8): [SMALL]}, table=[MEDIUM, PUNY, PUNY, PUNY, PUNY])
    g.apply(("place", 0))
    assert (4, 8) not in g.legal_actions()  # medium on Bob's small coin does not fit
    g.apply((4, 0))  # under Ann's own pawn
    g.apply(("place", 1))
    g.apply((4, 8))  # a puny coin under Bob
    assert g.height(g.pawns[0]) == 1 and g.stacks[g.pawns[1]] == (SMALL, PUNY)


def test_efaq_3_no_possible_move_closest_pawn_wins_then_higher_stack():
    """All 42 coins stand under the two pawns, side by side: no coin to place or move, and no
    free square to step to."""
    under_ann = [LARGE] * 5 + [MEDIUM] * 10 + [SMALL] * 6
    under_bob = [SMALL] * 6 + [PUNY] * 15
    g = position(game(), {(4, 0): under_ann, (4, 1): under_bob}, pawns={1: (4, 1)}, table=[])
    assert g.bag == [] and g.legal_actions() == ["end_turn"]
    g.apply("end_turn")
    assert g.over and g.winner == "Bob"  # 1 row from his goal against Ann's 8
    assert "no player can make any move" in [e for e in g.log if e.kind == "stalemate"][0].text


def test_efaq_3_equal_distance_goes_to_the_higher_stack():
    g = position(
        game(max_rounds=1),
        {(4, 5): [PUNY], (4, 3): [LARGE, SMALL]},
        pawns={0: (4, 5), 1: (4, 3)},
    )
    g.apply("end_turn")
    g.apply("end_turn")
    assert g.over and g.winner == "Bob"  # both 3 away; Bob stands 2 high
