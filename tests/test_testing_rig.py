"""The public test rig (moneynb.testing) and the engine's exact chance outcomes."""

from fractions import Fraction

import pytest

import moneynb
from moneynb.testing import chance_outcomes, expected_money_change, rig


def test_dice_fix_the_next_roll():
    g = moneynb.new_game("easy_money", players=["Ann", "Bob"], seed=3)
    r = rig(g).dice(6, 5, 2, 1)  # the opening throws: Ann 11, Bob 3
    g.apply("roll")
    g.apply("roll")
    r.check_used()
    rolled = [e.data for e in g.log if e.kind == "rolled"]
    assert rolled, "the opening throws are logged"
    assert g.players[g.decision.player] == "Ann"


def test_face_of_a_labelled_die_and_wrong_size_is_refused():
    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=2)
    r = rig(g)
    with pytest.raises(ValueError, match="not a face"):
        r.face(g.task_die, "NOPE")
    r.draw_below(4, 1)  # the game draws below 6 next: the rig says so instead of going astray
    before = g.state()
    with pytest.raises(ValueError, match="below 4"):
        g.apply("roll")
    after = g.state()
    assert after["actions"] == before["actions"]


def test_top_card_and_pick_from_bag():
    g = moneynb.new_game("money_run", players=["Ann", "Bob"], seed=1)
    assert g.bag
    r = rig(g)
    with pytest.raises(ValueError):
        r.pick(g.bag, 99)
    g2 = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    r2 = rig(g2).top("no_such_card")
    with pytest.raises(ValueError, match="not in the draw pile"):
        g2.temptation.draw(g2.rng)
    assert r2.pending == []


@pytest.mark.parametrize("name", moneynb.available_games())
def test_chance_outcomes_sum_to_one_and_leave_the_game_alone(name):
    g = moneynb.new_game(name, players=["Ann", "Bob", "Cy"], seed=5)
    bot = moneynb.make_bot("greedy", seed=1)
    for _ in range(30):
        nxt = g.copy()
        nxt.apply(bot.choose(nxt))
        if nxt.over:  # stay on a pending decision
            break
        g = nxt
    before = g.state()
    action = bot.choose(g)
    outs = chance_outcomes(g, action)
    assert sum(o.probability for o in outs) == 1
    assert g.state() == before
    for o in outs:  # every outcome is a real, playable game with money conserved
        assert sum(o.game.money().values()) == sum(g.money().values())


def test_expected_value_of_two_dice_matches_the_engine_exactly():
    """Money Moves' opening roll: each of the six money-die faces is equally likely."""
    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=2)
    outs = chance_outcomes(g, "roll")
    assert len(outs) == len(g.money_die.faces)
    assert all(o.probability == Fraction(1, len(g.money_die.faces)) for o in outs)
    assert expected_money_change(g, "roll", "wallet:Ann") == 0  # an opening roll pays nothing
