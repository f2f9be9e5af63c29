"""Money Card board and panels in the kernel (no browser): spin by button, move by a board click,
Monte Carlo, Charge It and form-phrase panels, keys table."""

from __future__ import annotations

import random

import moneynb
from moneynb.games.money_card.rules import AGENT
from moneynb.ui.boards.money_card import Board
from moneynb.ui.view import GameView


def _find(widget, css):
    out = []

    def walk(w):
        if css in getattr(w, "_dom_classes", ()):
            out.append(w)
        for c in getattr(w, "children", ()):
            walk(c)

    walk(widget)
    return out


def _view(seed=3):
    g = moneynb.new_game("money_card", players=["You", "B", "C"], seed=seed)
    bots = [None, moneynb.make_bot("greedy", seed=1), moneynb.make_bot("greedy", seed=2)]
    return g, GameView(g, controllers=bots)


def test_spin_button_then_click_a_highlighted_space():
    g, v = _view()
    spin = _find(v, "moneynb-spin")
    assert len(spin) == 1
    spin[0].click()
    d = g.decision
    assert d.tag == "move" and d.player == 0
    targets = v.board.figure.data[Board.TARGETS]
    assert set(targets.customdata) == set(d.options)  # every legal landing space is highlighted
    dest = targets.customdata[0]
    assert not v.board.click("no-such-space")
    assert v.board.click(dest)
    assert any(
        e.kind == "moved" and e.data.get("space") == dest and e.data["seat"] == 0 for e in g.log
    )
    assert v.board.spinner.result == g.last_spin >= 0  # the wheel shows the last spin
    planes = v.board.figure.data[Board.PLANES]
    assert len(planes.x) == 3  # the bots took their first turns too
    assert "moneynb-keys-table" in v.board.keys_html.value


def test_monte_carlo_and_charge_it_panels():
    g = moneynb.new_game("money_card", players=["You", "B"], seed=4)
    b = Board(g)
    g.stack += [("spin_prompt",), ("monte", 0, "card")]
    g.pending = None
    g._run()
    got = []
    panel = b.custom_panel(g.decision, got.append)
    assert _find(panel, "moneynb-bet-10") and _find(panel, "moneynb-bet-20")
    _find(panel, "moneynb-bet-20")[0].click()
    assert got == [20]
    g.apply(20)
    panel = b.custom_panel(g.decision, got.append)
    _find(panel, "moneynb-color-red")[0].click()
    assert got[-1] == "red"
    g2 = moneynb.new_game("money_card", players=["You", "B"], seed=4)
    g2.holder = 0
    g2.stack += [("spin_prompt",), ("pay", 0, AGENT, 25, "bill", True)]
    g2.pending = None
    g2._run()
    panel = Board(g2).custom_panel(g2.decision, got.append)
    _find(panel, "moneynb-charge-it")[0].click()
    assert got[-1] == "charge"
    assert _find(panel, "moneynb-pay-cheques")


def test_form_phrase_panel_shows_the_hand():
    g = moneynb.new_game("money_card", players=["You", "B"], seed=4)
    g.pos[0] = "madrid"
    g.hand[0] = list(g.board.phrases["es_a"])
    for c in g.hand[0]:
        g.decks["Spain"].draw_pile.remove(c)
    g.ctx = {"phrases": []}
    g._ask_turn()
    b = Board(g)
    got = []
    panel = b.custom_panel(g.decision, got.append)
    hand = _find(panel, "moneynb-hand")[0].value
    assert "Quiero" in hand and "kee-AIR-oh" in hand and "I want" in hand
    _find(panel, "moneynb-phrase")[0].click()
    assert got == ["phrase:es_a"]


def test_bots_play_a_whole_game_in_the_view_quickly():
    g = moneynb.new_game("money_card", players=["A", "B", "C"], seed=9)
    rng = random.Random(0)
    bots = [moneynb.make_bot("greedy", seed=rng.randrange(99)) for _ in range(3)]
    v = GameView(g, controllers=bots, max_bot_steps=100_000)
    assert g.over and v.board.figure.layout.title.text.startswith("Game over")


def test_map_is_a_backdrop_with_names_in_a_text_trace():
    g = moneynb.new_game("money_card", players=["A", "B"], seed=1)
    b = Board(g)
    assert [t.name for t in b.backdrop.data] == ["routes", "perimeter", "arrows", "labels",
                                                "spaces"]  # fmt: skip
    assert [t.name for t in b.figure.data] == ["targets", "last move", "planes"]
    assert list(b.backdrop.data[Board.SPACES].customdata) == list(g.board.order)
    assert b.figure._config["staticPlot"]  # the mouse goes through to the backdrop's spaces
    assert len(b.backdrop.layout.shapes) == 4 and len(b.figure.layout.shapes) == 0  # countries
    labels = b.backdrop.data[Board.LABELS]
    assert labels.mode == "text" and len(b.backdrop.layout.annotations) == 0
    named = [s for s in g.board.order if g.board.spaces[s]["name"]
             and g.board.spaces[s]["kind"] in ("key", "side_trip", "express", "town")]  # fmt: skip
    assert len(labels.text) == len(named) + 4  # plus the four Language Countries
    # each name beside its space, never on it (issue 30, case 2): London, a Key City, above
    london = g.board.spaces["london"]
    i = [t.replace("<b>", "").replace("</b>", "") for t in labels.text].index("London")
    assert labels.x[i] == london["x"] and labels.y[i] > london["y"] + 2
    assert "FRANCE" in labels.text
