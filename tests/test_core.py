"""The engine core on its own: ledger, dice, decks, seats, decisions, the opening roll."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from moneynb.core import (
    D6,
    Decision,
    Deck,
    Die,
    IllegalAction,
    Ledger,
    LedgerError,
    seat_at,
    sum_distribution,
)
from moneynb.core.turns import OpeningRoll


def test_ledger_transfers_conserve_and_refuse_overdrafts():
    led = Ledger()
    led.open("bank", 0, may_go_negative=True)
    led.open("wallet:Ann", 0)
    led.transfer("bank", "wallet:Ann", 7, "start")
    assert led.balances == {"bank": -7, "wallet:Ann": 7} and led.total == 0
    with pytest.raises(LedgerError, match="cannot pay"):
        led.transfer("wallet:Ann", "bank", 8)
    assert led["wallet:Ann"] == 7
    for bad in (-1, 2.5, True):
        with pytest.raises(LedgerError, match="non-negative int"):
            led.transfer("bank", "wallet:Ann", bad)
    with pytest.raises(LedgerError, match="unknown account"):
        led.transfer("bank", "pot", 1)
    led.balances["wallet:Ann"] += 1  # money from nowhere is caught
    with pytest.raises(LedgerError, match="not conserved"):
        led.check()


def test_dice_distributions_are_exact():
    assert D6.distribution()[3] == Fraction(1, 6)
    two = sum_distribution([D6, D6])
    assert two[7] == Fraction(6, 36) and two[2] == Fraction(1, 36) and sum(two.values()) == 1
    task = Die(("7", "11", "PL", "SAFE", "RE-L", "RE-R"))
    assert task.roll(random.Random(1)) in task.faces


def test_deck_draw_discard_reshuffle_and_hidden_order():
    rng = random.Random(2)
    deck = Deck.from_counts({"a": 2, "b": 1}, rng)
    assert sorted(deck.draw_pile) == ["a", "a", "b"]
    cards = [deck.draw(rng) for _ in range(3)]
    for c in cards:
        deck.discard(c)
    assert len(deck) == 0 and deck.public_view() == {"draw_pile": 0, "discard_pile": cards}
    assert deck.draw(rng) in ("a", "b")  # an empty pile is refilled from the discards
    deck.reshuffle(rng, keep_out=("b",))
    assert "b" not in deck.draw_pile or deck.discard_pile == []
    empty = Deck()
    with pytest.raises(IndexError, match="empty"):
        empty.draw(rng)


def test_seats_count_left_and_right_around_the_table():
    assert seat_at(0, 1, 4, "left") == 1 and seat_at(0, 1, 4, "right") == 3
    assert seat_at(3, 6, 4, "left") == 1
    with pytest.raises(ValueError, match="direction"):
        seat_at(0, 1, 4, "up")


def test_decision_matches_actions_strictly():
    d = Decision(0, "player", "Pick", (1, 2))
    assert d.allows(1) and not d.allows(True) and not d.allows(1.0) and not d.allows("1")
    a = Decision(0, "amount", "Bet", ("pass",), low=10, high=40, step=10)
    assert a.allows(20) and a.allows("pass") and not a.allows(25) and not a.allows(50)
    assert "$10 to $40 in steps of $10" in a.describe()
    with pytest.raises(ValueError, match="kind"):
        Decision(0, "dance", "?", ("x",))


def test_opening_roll_highest_starts_ties_roll_again():
    o = OpeningRoll([0, 1, 2])
    assert o.record(5) == ("roll", [], None) and o.next_roller == 1
    o.record(5)
    assert o.record(3) == ("tie", [0, 1], 5) and o.next_roller == 0
    o.record(2)
    assert o.record(6) == ("start", [1], 6)


def test_numpy_values_as_actions_are_read_exactly_or_refused_cleanly():
    import numpy as np

    import moneynb

    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply(np.array([0, 1]))  # no truth value: refused, not a NumPy error
    with pytest.raises(IllegalAction):
        g.apply(np.bool_(True))
    assert g.state() == before
    g.apply(np.int64(50_000))  # an exact integer is an amount like any int
    assert g.actions == [50_000] and type(g.actions[0]) is int


def test_refusal_messages_stay_short_for_huge_actions():
    import moneynb

    g = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=1)
    with pytest.raises(IllegalAction) as e:
        g.apply(10**4000 // 3)
    assert len(str(e.value)) < 400 and "..." in str(e.value)


def test_player_names_with_outer_spaces_are_refused():
    import moneynb

    with pytest.raises(ValueError, match="spaces"):
        moneynb.new_game("moolah", players=[" A", "A "], seed=1)
    assert moneynb.new_game("moolah", players=["Ann Lee", "Bob"], seed=1).players[0] == "Ann Lee"


class _PickGame:
    """A one-decision game: seat 0 picks a player (seats 1, 2) or "nobody" (issue 13, input 10)."""

    @staticmethod
    def make(players):
        from moneynb.core.game import Game

        class Pick(Game):
            name, title, min_players, max_players = "pick", "Pick", 2, 4

            def _setup(self):
                self.ask(0, "player", "Take a pal?", (1, 2, "nobody"), tag="pal")

            def _apply(self, action):
                self.picked = action
                self.finish([0])

            def scores(self):
                return {p: 0 for p in self.players}

        return Pick(players, seed=1)


def test_player_choice_refusal_names_the_players():
    g = _PickGame.make(["Ann", "Bob", "Cy"])
    with pytest.raises(IllegalAction, match=r"allowed is one of 1 = Bob, 2 = Cy, 'nobody'"):
        g.apply("Dee")
    with pytest.raises(IllegalAction, match=r"1 = Bob, 2 = Cy"):
        g.apply("Ann")  # a player, but not one to choose here
    assert g.actions == [] and not g.over


@pytest.mark.parametrize("said, seat", [("Bob", 1), ("Cy", 2), (" bob ", 1), ("CY", 2)])
def test_player_choice_accepts_the_name_on_the_board(said, seat):
    g = _PickGame.make(["Ann", "Bob", "Cy"])
    g.apply(said)
    assert g.picked == seat and g.actions == [seat]  # the seat is what is saved


def test_player_choice_by_name_refuses_ambiguous_names_and_keeps_options():
    g = _PickGame.make(["Ann", "bob", "Bob"])
    g.apply("Bob")  # the exact spelling is one player
    assert g.picked == 2
    g = _PickGame.make(["Ann", "bob", "Bob"])
    with pytest.raises(IllegalAction, match="could mean bob or Bob"):
        g.apply("BOB")
    g = _PickGame.make(["Ann", "nobody", "Cy"])
    with pytest.raises(IllegalAction, match="both an option and a player's name"):
        g.apply("nobody")
    assert g.actions == []
    g = _PickGame.make(["Ann", "Bob", "Cy"])
    g.apply("nobody")
    assert g.picked == "nobody"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda led: led.balances.__setitem__("wallet:Ann", 9),
        lambda led: led.balances.update({"wallet:Ann": 9}),
        lambda led: led.balances.setdefault("wallet:Zed", -1),
        lambda led: led.balances.pop("wallet:Ann"),
        lambda led: led.balances.popitem(),
        lambda led: led.balances.__delitem__("bank"),
        lambda led: led.balances.clear() or led.balances.__setitem__("x", 1),
        lambda led: led.balances.__ior__({"wallet:Ann": -3}),
        lambda led: setattr(led, "total", 5),
        lambda led: led.may_go_negative.discard("bank"),
        lambda led: setattr(led, "balances", {"bank": -7, "wallet:Ann": 8}),
    ],
)
def test_ledger_check_after_transfers_still_catches_every_other_change(tamper):
    """check() takes a short cut when only transfers moved money since it last found all
    well; any other change to the balances, the total or the overdraft list is checked in
    full (and here breaks a rule)."""
    led = Ledger()
    led.open("bank", 0, may_go_negative=True)
    led.open("wallet:Ann", 0)
    led.check()
    led.transfer("bank", "wallet:Ann", 7)
    led.check()  # the short cut: transfers only
    led.transfer("wallet:Ann", "bank", 2)
    tamper(led)
    with pytest.raises(LedgerError):
        led.check()


def test_ledger_copies_are_checked_in_full():
    import copy
    import pickle

    led = Ledger()
    led.open("bank", 0, may_go_negative=True)
    led.open("wallet:Ann", 0)
    led.transfer("bank", "wallet:Ann", 7)
    led.check()
    for twin in (copy.deepcopy(led), pickle.loads(pickle.dumps(led))):
        assert twin == led and twin.balances.changed
        dict.__setitem__(twin.balances, "wallet:Ann", 8)  # past the notice: still caught
        with pytest.raises(LedgerError, match="not conserved"):
            twin.check()
