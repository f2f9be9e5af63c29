"""Easy Money board renderer and panels, without a browser."""

from __future__ import annotations

import moneynb
from moneynb.ui.boards.easy_money import MORTGAGE_DX, Board, cell_xy


def human_game(seed=2):
    v = moneynb.play("easy_money", players=["You", "bot:greedy"], seed=seed, autosave=False)
    return v, v.game


def test_square_track_geometry():
    assert cell_xy(0) == (12, 0) and cell_xy(12) == (0, 0)
    assert cell_xy(24) == (0, 12) and cell_xy(36) == (12, 12)
    assert len({cell_xy(i) for i in range(48)}) == 48


def test_board_draws_owners_houses_mortgages_and_tokens():
    g = moneynb.new_game("easy_money", players=["A", "B"], seed=1)
    g.owner[11], g.houses[11] = 0, 3
    g.owner[30], g.mortgaged[30] = 1, True
    b = Board(g)
    assert isinstance(b, Board) and len(b.figure.data) == 8  # the names: a trace of their own
    assert b.figure.data[7].name == "labels" and len(b.figure.data[7].text) == 48
    assert list(b.figure.data[1].x) == [cell_xy(11)[0], cell_xy(30)[0]]
    assert list(b.figure.data[2].text) == ["⌂⌂⌂", "●"]
    assert list(b.figure.data[3].x) == [cell_xy(30)[0] + MORTGAGE_DX]
    assert len(b.figure.data[6].x) == 2
    assert "holds <b>$0</b>" in b.figure.layout.annotations[2].text
    shapes = [s for s in b.figure.layout.shapes]
    assert len(shapes) == 22  # one colour band per property


def first_buy(seed_from=2):
    """A view where the person (seat 0) is asked to buy on an early move."""
    for seed in range(seed_from, 200):
        v, g = human_game(seed)
        for _ in range(6):
            if g.over or not v.human_turn or g.decision.tag not in ("opening", "turn", "post"):
                break
            v.submit("end" if g.decision.tag == "post" else "roll")
        if not g.over and v.human_turn and g.decision.tag == "buy":
            return v, g
    raise AssertionError("no seed gives the person a purchase")


def test_buy_by_clicking_the_space():
    v, g = first_buy()
    i = g.pos[0]
    before = g.cash(0)
    assert i in list(v.board.figure.data[4].customdata)  # the space for sale is highlighted
    # a click that spends money asks first (issue 30, case 4): the first one says what the
    # second will do, with the amount, and changes nothing
    assert not v.board.click(i)
    assert g.owner[i] is None and g.cash(0) == before
    assert f"Buy for ${g.board[i]['B']}" in v.error.value and "again" in v.error.value
    assert v.board.click(i)
    assert g.owner[i] == 0 and g.cash(0) == before - g.board[i]["B"]


def test_a_mortgage_click_on_the_board_asks_first():
    """Issue 30, case 4: clicking your own highlighted property mortgaged it at once (and a
    second click lifted it, $5 lost per round trip, without a word). Now the first click says
    what the next will do, with the engine's amount, and changes nothing."""
    v, g = first_buy()
    i = g.pos[0]
    v.submit("buy")
    for _ in range(20):
        d = g.decision
        if d is not None and v.human_turn and f"mortgage:{i}" in d.options:
            break
        if g.over or not v.human_turn:
            raise AssertionError("no mortgage decision met")
        v.submit("end" if "end" in d.options else d.options[0])
    else:
        raise AssertionError("no mortgage decision met")
    hover = [h for h, c in zip(v.board.figure.data[4].hovertext, v.board.figure.data[4].customdata,
                               strict=True) if c == i]  # fmt: skip
    assert hover and f"(+${g.board[i]['M']})" in hover[0] and "click twice" in hover[0]
    cash, log = g.cash(0), len(g.log)
    assert not v.board.click(i)
    assert not g.mortgaged[i] and g.cash(0) == cash and len(g.log) == log
    assert f"Mortgage {g.board[i]['name']} (+${g.board[i]['M']})" in v.error.value
    assert v.board.click(i)
    assert g.mortgaged[i] and g.cash(0) == cash + g.board[i]["M"]


def test_decline_by_the_panel_starts_an_auction():
    v, g = first_buy()
    i = g.pos[0]
    panel = v.board.custom_panel(g.decision, v.submit)
    decline = [w for w in panel.children[-1].children if "moneynb-em-decline" in w._dom_classes]
    decline[0].click()
    assert g.owner[i] != 0


def test_custom_panels_for_every_tag_met_in_a_bot_game():
    g = moneynb.new_game("easy_money", players=["A", "B", "C"], seed=4)
    b = Board(g)
    from moneynb.bots import make_bot

    bots = [make_bot("random", seed=k) for k in range(3)]
    seen = set()
    while not g.over and len(g.actions) < 3000:
        d = g.decision
        if d.tag not in seen:
            seen.add(d.tag)
            p = b.custom_panel(d, lambda a: None)
            if d.tag != "opening":
                assert p is not None, d.tag
        b.update(g, g.apply(bots[d.player].choose(g)))
        b.highlight(g.decision)
    assert {"turn", "post", "bid"} <= seen


def test_a_lander_short_of_cash_sees_mortgage_buttons_and_no_buy_button():
    """Issue 13 item 5 in the view: the panel offers what the engine offers."""
    from moneynb.testing import rig

    g = moneynb.new_game("easy_money", players=["A", "B"], seed=1)
    r = rig(g).dice(6, 6, 1, 2)
    g.apply("roll")
    g.apply("roll")
    g.owner[13], g.houses[13] = 0, 1  # Elm Street (side 2), mortgage value $100
    g.transfer(g.wallet(0), "Bank", g.cash(0) - 62)
    g.pos[0], g.started[0] = 7, True
    r.dice(1, 3)  # to Maple Avenue, B $110
    g.apply("roll")
    assert g.decision.tag == "buy" and "buy" not in g.decision.options
    b = Board(g)
    panel = b.custom_panel(g.decision, g.apply)
    buttons = [w for box in panel.children if hasattr(box, "children") for w in box.children]
    classes = [c for w in buttons for c in w._dom_classes]
    assert "moneynb-em-buy" not in classes and "moneynb-em-mortgage" in classes
    assert 11 not in b._space_actions(g.decision)  # clicking the space cannot buy
    assert b._space_actions(g.decision).get(13) == "mortgage:13"
    next(w for w in buttons if "moneynb-em-mortgage" in w._dom_classes).click()
    assert g.mortgaged[13] and "buy" in g.decision.options
