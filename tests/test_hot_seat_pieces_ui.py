"""Hot seat (Ann, Bob and Cy at one screen): every piece shown (dice, card, spinner) names the
player whose roll, card or spin it is, the same player the log line names (issue 30, case 3).
Kernel side: a seeded game of greedy bots is played through the engine and each action's
events drawn on the game's real board."""

from __future__ import annotations

import importlib

import pytest

import moneynb

PEOPLE = ["Ann", "Bob", "Cy"]
PIECES = {"rolled": "dice", "spun": "spinner", "drew": "card", "blackjack": "card", "stock": "card"}


@pytest.mark.parametrize("name", ["money_moves", "easy_money", "moolah", "money_card"])
def test_each_piece_names_the_player_the_log_names(name):
    g = moneynb.new_game(name, players=list(PEOPLE), seed=5)
    board = importlib.import_module(f"moneynb.ui.boards.{name}").Board(g)
    bots = [moneynb.make_bot("greedy", seed=s) for s in range(3)]
    seen = set()
    for _ in range(400):
        if g.over:
            break
        events = g.apply(bots[g.decision.player].choose(g))
        board.update(g, events)
        shown = {}  # piece -> (owner, log line) of the last event of its kind this action
        for e in events:
            piece = getattr(board, PIECES.get(e.kind, ""), None)
            if piece is not None and isinstance(e.data.get("seat"), int):
                shown[PIECES[e.kind]] = (g.players[e.data["seat"]], e.text)
        for attr, (who, line) in shown.items():
            piece = getattr(board, attr)
            if attr == "card" and not piece.title:
                continue  # an event this board does not show as a card
            assert piece.owner == who, (attr, piece, line)
            assert who in line  # ... the player the log line names
            seen.add(attr)
    assert "card" in seen and ("dice" in seen or "spinner" in seen), seen
