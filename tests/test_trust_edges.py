"""Issue 26: trust boundaries, second pass (items 2-9 and 11; item 1 is
``test_markup_in_figures.py``, the bounded fuzz is ``test_trust_fuzz.py``).

Each failing input named in the issue is a test here.
"""

from __future__ import annotations

import pytest

import moneynb
from moneynb.core import IllegalAction
from moneynb.ui.boards.base import token_letters

GAMES = ["easy_money", "money_card", "money_moves", "money_run", "moolah"]


# ----- item 2: names made of invisible or look-alike characters ----------------------------
@pytest.mark.parametrize(
    "names",
    [
        ["\u200b", "Bob"],  # a zero-width space alone
        ["Ann", "Ann\u200b"],  # two names that look alike
        ["\u202eboB", "Ann"],  # a right-to-left override
        ["A\x00n", "Bob"],  # NUL
        ["A\x1b[31mn", "Bob"],  # ESC
        ["Ann\nBob", "Cy"],  # a newline
        ["\ufeffAnn", "Bob"],  # a BOM (format character)
        ["Ann", "Ann"],
        ["Zoe\u0301", "Zo\u00e9"],  # equal after NFC
    ],
)
@pytest.mark.parametrize("game", GAMES)
def test_invisible_control_and_lookalike_names_are_refused(game, names):
    with pytest.raises(ValueError, match="player name|distinct|non-empty"):
        moneynb.new_game(game, players=names, seed=1)


def test_names_are_kept_in_nfc():
    g = moneynb.new_game("money_moves", players=["Zoe\u0301", "Bob"], seed=1)
    assert g.players == ["Zo\u00e9", "Bob"] and "wallet:Zo\u00e9" in g.money()


def test_token_letters_differ_for_every_seat():
    for names in (["Bob 2", "Bo", "Bea"], ["B2", "B", "B"], ["Ann 1", "Al", "A1", "Abe"]):
        tokens = token_letters(names)
        assert len(set(tokens)) == len(names), (names, tokens)
    assert token_letters(["You", "Greedy bot 1", "Greedy bot 2"]) == ["Y", "G1", "G2"]


# ----- item 11: an action's type is checked before it is compared ---------------------------
class _RaisingEq:
    def __eq__(self, other):
        raise RuntimeError("boom")

    __hash__ = object.__hash__


class _RaisingStr(str):
    def __eq__(self, other):
        raise RuntimeError("boom")

    def __hash__(self):
        raise RuntimeError("boom")


class _LyingStr(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("make", [_RaisingEq, lambda: _RaisingStr("zzz"), lambda: _LyingStr("zzz"),
                                  lambda: {"a": 1}, lambda: {1, 2}, lambda: b"roll"])  # fmt: skip
def test_hostile_action_objects_are_illegal_and_change_nothing(game, make):
    g = moneynb.new_game(game, players=["Ann", "Bob"], seed=2)
    before = g.state()
    with pytest.raises(IllegalAction):
        g.apply(make())
    assert g.state() == before


def test_a_str_subclass_equal_to_an_option_is_read_as_plain_text():
    import numpy as np

    g = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=2)
    option = g.legal_actions()[0]
    if type(option) is str:
        g.apply(np.str_(option))
        assert type(g.actions[-1]) is str
