"""Money Run board renderer in the kernel (no browser): clicks go through ``Board.click`` as a
plotly click would, and the view applies them."""

from __future__ import annotations

import html
import re

import moneynb
from moneynb.ui.boards import board_class
from moneynb.ui.boards.money_run import Board
from moneynb.ui.view import GameView


def view(seed: int = 1, bots: bool = True, undo: str = "safe") -> GameView:
    g = moneynb.new_game("money_run", players=["You", "Bot"], seed=seed, undo=undo)
    controllers = [None, moneynb.make_bot("greedy", seed=1) if bots else None]
    return GameView(g, controllers=controllers, autosave=None)


def test_board_is_registered_and_draws_the_state():
    assert board_class("money_run") is Board
    v = view()
    fig = v.board.figure
    assert len(fig.data[0].x) == 81  # squares
    assert len(fig.data[4].x) == 5  # table coins
    assert list(fig.data[3].customdata[0]) == [4, 0]  # your pawn
    assert len(fig.layout.shapes) == 2  # two goal edges


def test_place_by_clicks_then_pawn_move_by_clicks():
    v = view()
    g, b = v.game, v.board
    assert b.click(("table", 0))
    assert g.decision.tag == "place"
    assert len(b.figure.data[2].x) == 81  # every square highlighted for a fresh coin
    assert b.click((4, 1))
    assert g.height(g.sq(4, 1)) == 1 and g.actions_left == 1
    assert list(b.figure.data[1].customdata[0]) == [4, 1]
    # pawn: click it (targets light up), then the target
    assert b.click((4, 0)) and b.pawn_selected
    assert [tuple(c) for c in b.figure.data[2].customdata] == [(4, 1)]
    assert b.click((4, 1))
    assert g.xy(g.pawns[0]) == (4, 1)
    # in words, no coordinates (issue 38)
    assert "You moves the pawn 1 up, on 1 coin." in [e.text for e in g.log]
    assert g.decision.player == 0  # back to you after the bot's turn


def test_safe_undo_keeps_a_placement_once_the_new_table_coin_is_seen():
    v = view(bots=False)
    g, b = v.game, v.board
    b.click(("table", 1))
    b.click((2, 2))  # placed: a coin from the bag now lies face up on the table
    done = g.state()
    panel = v.board.custom_panel(g.decision, v.submit)
    undo = [
        w
        for r in panel.children
        for w in getattr(r, "children", ())
        if "moneynb-mr-undo" in w._dom_classes
    ][0]
    undo.click()  # refused (and the button's loop ends)
    assert g.state() == done and g.undo_refused.replace("'", "&#x27;") in v.error.value
    assert "undo=" not in v.error.value


def test_bad_clicks_do_nothing_and_undo_stays_within_the_turn():
    v = view(bots=False, undo="practice")
    g, b = v.game, v.board
    before = g.state()
    assert not b.click((3, 3))  # an empty square is no action at the start
    assert not b.click(("table", 9))
    assert g.state() == before
    b.click(("table", 1))
    b.click((2, 2))
    panel = v.board.custom_panel(g.decision, v.submit)
    undo = [
        w
        for r in panel.children
        for w in getattr(r, "children", ())
        if "moneynb-mr-undo" in w._dom_classes
    ][0]
    assert not undo.disabled
    undo.click()
    assert g.state() == before
    b.click(("table", 0))
    b.click((2, 2))
    g.apply("end_turn")
    v.refresh()
    panel = v.board.custom_panel(g.decision, v.submit)
    undo = [
        w
        for r in panel.children
        for w in getattr(r, "children", ())
        if "moneynb-mr-undo" in w._dom_classes
    ][0]
    assert undo.disabled  # Bob's turn: Ann's actions cannot be taken back


def test_undo_last_action_in_the_views_own_panel_redraws_the_view_and_play_goes_on():
    """Issue 18 (found trying the product): the view's panel calls the function
    ``view.answer()`` made, not the bound method; its "Undo last action" took the action back
    in the game only, the view kept the undone decision's panel and every click was then
    ignored. Now the whole view redraws at the decision taken back, and its controls work."""
    v = view(seed=7, bots=False)
    g, b = v.game, v.board
    (go,) = v.find("moneynb-mr-go")
    go.click()  # pick the first table coin
    b.click((0, 0))  # ... and place it: a new coin is drawn (chance seen)
    (go,) = v.find("moneynb-mr-go")
    go.click()  # pick the next table coin (no chance: may be taken back)
    assert g.decision.tag == "place" and len(g.actions) == 3
    (undo,) = v.find("moneynb-mr-undo")
    undo.click()
    assert len(g.actions) == 2 and g.decision.tag == "action"
    assert "action 2" in v.header.value, "the header still shows the undone decision"
    assert v.error.value == ""
    (go,) = v.find("moneynb-mr-go")  # the panel of the decision now pending
    go.click()
    assert len(g.actions) == 3 and g.decision.tag == "place"


def test_a_picked_table_coin_ring_hugs_the_coin_clear_of_its_name():
    """Issue 38: the ring round a picked table coin (40 px) crossed the coin's name written
    just under it ("puny", a 19 px coin). The ring is the coin's size and a few px more."""
    from moneynb.figures.money_run import RING_GAP

    v = moneynb.play("money_run", players=["Ann", "bot:greedy"], seed=5, autosave=False)
    d = v.game.decision
    place = next(o for o in d.options if isinstance(o, tuple) and o[0] == "place")
    v.submit(place)  # Ann picks a table coin: its ring shows until she places it
    assert v.game.decision.tag == "place", v.game.decision
    ring, table = v.board.figure.data[5], v.board.figure.data[4]
    assert len(ring.x) == 1
    coin = table.marker.size[place[1]]
    assert ring.marker.size[0] <= coin + RING_GAP, (ring.marker.size, coin)


def test_another_coin_clicked_after_a_pick_is_picked_instead():
    """Issue 38 (a fresh tester): once a table coin was picked, a click on another table
    coin did nothing and said nothing. Now that coin is picked instead, as the game would
    offer it with the first pick taken back (one action in the list, not two); the picked
    coin clicked again stays picked and a sentence under the prompt says what to do; a stack's
    top coin clicked then is picked too; the coin then goes where the player clicks."""
    v = view(seed=7, bots=False)  # the table: small, puny, medium, puny, puny
    g, b = v.game, v.board
    assert b.click(("table", 0)) and g.selected == ("place", 0)
    assert b.click(("table", 1))
    assert g.selected == ("place", 1) and g.actions == [("place", 1)]
    assert [tuple(c) for c in b.figure.data[5].customdata] == [("table", 1)]  # the ring moved
    assert not b.click(("table", 1)) and g.actions == [("place", 1)]
    assert "is picked: click a highlighted square" in v.error.value
    assert b.click((4, 1)) and g.stacks[g.sq(4, 1)] == (1,)  # the puny coin, placed
    # a medium coin picked does not fit on the puny one: that stack's top coin is picked instead
    assert b.click(("table", 2)) and not g.decision.allows((4, 1))
    assert b.click((4, 1)) and g.selected == ("coin", 4, 1) and g.decision.tag == "move_coin"
    assert g.actions == [("place", 1), (4, 1), ("coin", 4, 1)]


def test_another_coin_clicked_at_a_shared_table_says_why_in_one_sentence():
    """Where nothing is taken back (a shared table's view), a second coin clicked after a
    pick changes nothing, and one sentence under the prompt says why and what to do."""
    v = view(seed=7)
    v.undo_allowed = False  # as a shared table's view (moneynb.ui.table.TableView)
    g, b = v.game, v.board
    assert b.click(("table", 0))
    before = g.state()
    assert not b.click(("table", 2))
    assert g.state() == before and g.selected == ("place", 0)
    said = re.sub(r"<[^>]+>", "", html.unescape(v.error.value))
    assert said.endswith("stays picked: click a highlighted square for it."), said
    assert said.count(".") == 1, said


def test_a_click_that_does_nothing_says_why():
    """A click on the board that picks nothing (an empty square with nothing picked, a square
    the picked pawn cannot reach) says in one sentence under the prompt what to click."""
    v = view(seed=7, bots=False)
    g, b = v.game, v.board
    assert not b.click((2, 6)) and "Nothing to pick there" in v.error.value
    assert b.click((4, 0)) and b.pawn_selected  # your pawn: nowhere to go yet
    assert not b.click((2, 6)) and "Your pawn can't go there" in html.unescape(v.error.value)
    assert g.actions == []
