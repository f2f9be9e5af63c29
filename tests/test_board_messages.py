"""The plotly messages a board sends to the page (issue 30, case 3 follow-up): plotly.js
refuses a whole ``restyle``/``relayout``/``update`` message whose keys hold an attribute and
one inside it ("cannot set marker.line and a parent attribute simultaneously"), and the page
then asks for the full state after every move. Kernel-side: the messages are read from the
figure's ``_py2js_*`` traits, the ones ipywidgets sends to the page."""

from __future__ import annotations

import re

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.ui.boards.base import BoardRenderer, token_letters
from moneynb.ui.view import GameView

GAMES = ["money_run", "moolah", "easy_money", "money_card", "money_moves"]
#: moves played per game (Money Run's clash came on the first move)
MOVES = 40


def nested_keys(keys) -> list[tuple[str, str]]:
    """``(parent, child)`` pairs among a message's attribute paths, by plotly.js's
    ``hasParent`` rule: a child's path cut before one of its ``.`` or ``[`` is also a key."""
    keys = set(keys)
    return [(k[: m.start()], k) for k in keys for m in re.finditer(r"[.\[]", k)
            if k[: m.start()] in keys]  # fmt: skip


def record(figure, out: list) -> None:
    for trait in ("_py2js_update", "_py2js_restyle", "_py2js_relayout"):
        figure.observe(lambda c, t=trait: c["new"] and out.append((t, c["new"])), trait)


@pytest.mark.parametrize("name", GAMES)
def test_no_board_message_sets_an_attribute_and_one_inside_it(name):
    # (one random stream: seed 5's game as written on; the version-2 game of seed 5 meets a
    # Money Moves board message that sets an attribute and one inside it: issue 39 streams note)
    view = GameView(moneynb.new_game(name, players=["Ann", "Bob"], seed=5, chance_streams=1))
    sent: list = []
    figures = [view.board.figure, getattr(view.board, "backdrop", None)]
    for fig in {id(f): f for f in figures if f is not None}.values():
        record(fig, sent)
    ringed = []
    for k in range(MOVES):
        if view.game.over:
            break
        assert view.submit(make_bot("greedy", seed=k).choose(view.game)), view.error.value
        trace = next((t for t in view.board.figure.data if t.name in BoardRenderer.TURN_TRACES),
                     None)  # fmt: skip
        if trace is not None and not view.game.over:  # the ring is the pending player's
            cur = token_letters(view.game.players)[view.game.decision.player]
            ringed.append([x for x, w in zip(trace.text, trace.marker.line.width, strict=True)
                           if w == 5] == [cur])  # fmt: skip
    assert len(sent) >= 10  # the moves did reach the page as messages
    clashes = []
    for trait, msg in sent:
        for part in ("style_data", "restyle_data", "layout_data", "relayout_data"):
            clashes += [(trait, part, *c) for c in nested_keys(msg.get(part) or {})]
    assert clashes == []
    assert all(ringed), ringed  # a whole marker set in the batch did not take the ring away


def test_nested_edits_fold_into_the_outer_one_as_plotly_applies_them():
    from moneynb.ui.boards.base import merge_nested_edits

    # trace 0 sets the marker and its line; trace 1 only the line: both become "marker"
    t0 = {"marker": {"size": 22, "line": {"color": "black"}}, "marker.line": {"width": [5, 1]}}
    t1 = {"marker.line.color": "red", "x": [1]}
    before1 = {"marker": {"size": 9, "line": {"color": "blue", "width": 2}}}
    merge_nested_edits([(t0, {}), (t1, before1)])
    assert t0 == {"marker": {"size": 22, "line": {"width": [5, 1]}}}
    assert t1 == {"x": [1], "marker": {"size": 9, "line": {"color": "red", "width": 2}}}
    assert before1["marker"]["line"]["color"] == "blue"  # the figure's state is not touched
    plain = {"marker.color": "red", "x": [1]}
    merge_nested_edits([(plain, {})])
    assert plain == {"marker.color": "red", "x": [1]}
