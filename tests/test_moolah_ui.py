"""The Moolah board renderer without a browser: figure contents, custom panels, board clicks."""

from __future__ import annotations

from plotly.callbacks import Points

import moneynb
from moneynb.games.moolah.rules import blackjack_win_probability
from moneynb.ui.boards import board_class
from moneynb.ui.boards.moolah import Board

CUSTOM = {
    "turn", "bank", "bank_amount", "wall_street", "wall_street_amount", "casino_bet",
    "casino_raise", "take_pal", "fork", "moolah", "advantage_target",
}  # fmt: skip


def classes(widget) -> set:
    out = set(getattr(widget, "_dom_classes", ()))
    for child in getattr(widget, "children", ()):
        out |= classes(child)
    return out


def test_board_is_registered_and_drawn_from_the_data():
    assert board_class("moolah") is Board
    g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"], seed=1)
    b = Board(g)
    # the fixed board is a backdrop drawn once; the figure over it holds only what moves and
    # lets the mouse through to the backdrop's spaces
    assert [t.name for t in b.backdrop.data] == ["track", "hands", "labels", "spaces"]
    assert [t.name for t in b.figure.data] == ["targets", "last move", "tokens"]
    assert b.figure._config["staticPlot"] and b.figure.layout.hovermode is False
    assert (
        not b.backdrop._config.get("staticPlot")
        and b.backdrop._moneynb_bundle == b.figure._moneynb_bundle == ""
    )
    assert b.figure.layout.paper_bgcolor == b.figure.layout.plot_bgcolor == "rgba(0,0,0,0)"
    assert b.figure.layout.height == b.backdrop.layout.height
    assert b.figure.layout.xaxis.range == b.backdrop.layout.xaxis.range
    spaces = b.backdrop.data[Board.SPACES]
    assert list(spaces.customdata) == g.data.order
    assert len(spaces.x) == 51 and "Bank" in spaces.hovertext[0]
    # the hands: one arrow per step of the two inner pathways (5 + 5)
    assert len(b.backdrop.data[Board.HANDS].x) == 10
    # space names are a text trace, not layout annotations (a data update redraws annotations
    # one by one); only the two lines of the centre title stay annotations
    labels = b.backdrop.data[Board.LABELS]
    assert labels.mode == "text" and "BANK" in labels.text and "Casino" in labels.text
    # the name, the goal and the line of words under the board (issue 38: "$75k", "Min")
    assert len(b.backdrop.layout.annotations) == 3 and len(b.figure.layout.annotations) == 0
    bank = g.data.spaces["bank"]
    i = list(labels.text).index("BANK")
    # below the Bank's square (top row), near it and clear of it (30 px, some 40 px a unit)
    assert bank["y"] - 1.0 < labels.y[i] < bank["y"] - (15 + 6) / 42
    assert abs(labels.x[i] - bank["x"]) < 1.0
    b.update(g, list(g.log))  # the view calls this right away
    assert len(b.figure.data[Board.TOKENS].x) == 3  # three tokens on the Bank
    assert "score pad" in b.pad_html.value


def test_panels_and_board_clicks_through_a_bot_game():
    g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"], seed=4)
    b = Board(g)
    applied = []

    def submit(action):
        applied.append(action)

    b.pick = submit
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(3)]
    seen = set()
    clicked = 0
    for _ in range(400):
        if g.over:
            break
        d = g.decision
        b.highlight(d)
        panel = b.custom_panel(d, submit)
        if d.tag in CUSTOM:
            assert panel is not None, d.tag
            assert f"moneynb-panel-{d.tag}" in classes(panel)
            seen.add(d.tag)
        else:
            assert panel is None
        action = bots[d.player].choose(g)
        if d.kind == "space" and action in g.data.spaces:
            targets = b.figure.data[Board.TARGETS]
            assert action in list(targets.customdata)  # highlighted on the board
            # a click on the board: plotly reports the point of the backdrop's spaces trace
            spaces = b.backdrop.data[Board.SPACES]
            i = list(spaces.customdata).index(action)
            spaces._dispatch_on_click(Points([i], [spaces.x[i]], [spaces.y[i]], "spaces", 3), None)
            assert applied[-1] == action
            clicked += 1
        events = g.apply(action)
        b.update(g, events)
        tokens = b.figure.data[Board.TOKENS]
        assert len(tokens.x) == sum(not o for o in g.out)
    assert {"turn", "bank", "bank_amount", "fork", "moolah"} <= seen
    assert clicked > 0
    assert not b.click("no-such-space")


def test_black_jack_panel_shows_the_exact_chance():
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    while g.decision.tag == "first_withdrawal":
        g.apply(50_000)
    me = g.current
    pile = g.casino.draw_pile
    pile.remove(20)
    pile.insert(0, 20)
    g.pos[me] = "s08"
    import random

    class Two(random.Random):
        def randint(self, a, b):
            return 1

    g.rng = Two(0)
    g.apply("roll")  # 1 + 1: s09, casino
    assert g.decision.tag == "casino_bet"
    g.apply(10_000)
    b = Board(g)
    panel = b.custom_panel(g.decision, lambda a: None)
    text = " ".join(getattr(w, "value", "") for w in panel.children if hasattr(w, "value"))
    p = blackjack_win_probability(dict(g.data.casino), 20)
    assert f"P(win) = {p.numerator}/{p.denominator}" in text
    assert {"moneynb-bj-stay", "moneynb-bj-double"} <= classes(panel)


def test_view_stacks_the_figure_over_its_backdrop():
    from moneynb.ui.view import GameView

    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=2)
    v = GameView(g)
    stack = v.board.widget()
    assert v.find("moneynb-board-stack") == [stack]  # the one the view shows
    assert "moneynb-board-stack" in stack._dom_classes
    top, back = stack.children  # the figure first in the page (tests find it), painted last
    assert top.children[0] is v.board.figure and back.children == (v.board.backdrop,)
    assert "pointer-events: none" in top.children[1].value  # clicks fall through to spaces
    assert (top.layout.grid_area, back.layout.grid_area) == ("1 / 1", "1 / 1")
    assert int(top.layout.order) > int(back.layout.order)
    # both figures were sent to the page with their state when the view was built
    assert not v.board.figure._moneynb_deferred and not v.board.backdrop._moneynb_deferred


def test_status_names_who_plays_first_and_counts_turns_from_one():
    g = moneynb.new_game("moolah", players=["Ann", "Bob", "Cy"], seed=99999999999)
    b = Board(g)
    first = g.players[g.current]
    assert g.decision.tag == "first_withdrawal"
    assert b.status(g).startswith(f"First withdrawals · {first} will play first")
    g.apply(50_000)  # the next seat withdraws: the status still names who moves first
    assert g.decision.player != g.current
    assert b.status(g).startswith(f"First withdrawals · {first} will play first")
    while g.decision.tag == "first_withdrawal":
        g.apply(50_000)
    assert b.status(g).startswith("Turn 1 · goal")  # who plays: the view's turn line


def test_the_bank_decision_keeps_to_its_last_entry_in_the_narrow_column():
    """Issue 38 (the Lab playthrough at 1024x700, moves 26 and 40): the Bank's decision drew
    its score pad as a table that grew a row a visit; in the narrow column beside the board
    it grew too tall, and the decision was stacked over the board, out of sight. The table
    is for the wide column only; the narrow column shows the last entry in one line (the
    score pad under the board keeps the last four)."""
    v = moneynb.play("moolah", players=["Ann", "bot:greedy"], seed=3, autosave=False)
    bot = moneynb.make_bot("greedy", seed=1)
    for _ in range(400):
        d = v.game.decision
        if d is None or (d.tag == "bank" and len(v.game.pad[d.player]) >= 3):
            break
        v.answer()(bot.choose(v.game))
    d = v.game.decision
    assert d is not None and d.tag == "bank", "no Bank visit with a pad of 3 entries"
    (panel,) = v.find("moneynb-panel-bank")
    tables = [w for w in panel.children if "moneynb-bank-pad" in getattr(w, "value", "")]
    assert tables and "moneynb-wide-only" in tables[0]._dom_classes
    (brief,) = [w for w in panel.children if "moneynb-narrow-only" in w._dom_classes]
    e = v.game.pad[d.player][-1]
    assert brief.value.startswith("Last entry: ") and f"{e['new']:,}" in brief.value
