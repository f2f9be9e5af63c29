"""The plotly messages a board sends to the page (issue 30, case 3 follow-up): plotly.js
refuses a whole ``restyle``/``relayout``/``update`` message whose keys hold an attribute and
one inside it ("cannot set marker.line and a parent attribute simultaneously"), and the page
then asks for the full state after every move. Kernel-side: the messages are read from the
figure's ``_py2js_*`` traits, the ones ipywidgets sends to the page. Issue 39 ("board message
clash"): the games are the default (version-2 chance streams) ones, and the rule is checked
where every message leaves the figure, whatever made the change."""

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
    # MOVES moves over seed 5's game and the next seeds' (the default, version-2 chance
    # streams: a Money Moves game may end in 4 moves), so more boards' states are met
    sent: list = []
    ringed = []
    played = 0
    for seed in range(5, 5 + MOVES):
        if played >= MOVES:
            break
        view = GameView(moneynb.new_game(name, players=["Ann", "Bob"], seed=seed))
        figures = [view.board.figure, getattr(view.board, "backdrop", None)]
        for fig in {id(f): f for f in figures if f is not None}.values():
            record(fig, sent)
        while played < MOVES and not view.game.over:
            bot = make_bot("greedy", seed=played)
            assert view.submit(bot.choose(view.game)), view.error.value
            played += 1
            trace = next((t for t in view.board.figure.data
                          if t.name in BoardRenderer.TURN_TRACES), None)  # fmt: skip
            if trace is not None and not view.game.over:  # the ring is the pending player's
                cur = token_letters(view.game.players)[view.game.decision.player]
                ringed.append([x for x, w in zip(trace.text, trace.marker.line.width, strict=True)
                               if w == 5] == [cur])  # fmt: skip
    assert played == MOVES and len(sent) >= 10  # the moves did reach the page as messages
    clashes = []
    for trait, msg in sent:
        clashes += [
            (trait, part, *c) for part, keys in message_keys(msg) for c in nested_keys(keys)
        ]
    assert clashes == []
    assert all(ringed), ringed  # a whole marker set in the batch did not take the ring away


def message_keys(msg: dict) -> list[tuple[str, dict]]:
    """The attribute-path dicts of one ``_py2js_*`` message."""
    parts = ("style_data", "restyle_data", "layout_data", "relayout_data")
    return [(p, msg.get(p) or {}) for p in parts]


def test_every_way_of_changing_a_board_figure_sends_no_attribute_with_one_inside_it():
    """Not only a batch: ``plotly_relayout``/``plotly_restyle``/``plotly_update`` called with
    a parent and a child reach the page folded into the parent, at the figure's new value."""
    from moneynb.ui.boards.base import BoardFigure

    fig = BoardFigure(
        data=[{"type": "scatter", "x": [0, 1], "y": [0, 1], "marker": {"size": 9}},
              {"type": "scatter", "x": [2], "y": [2], "marker": {"size": 7}}],
        layout={"annotations": [{"text": "a", "x": 0, "y": 0}, {"text": "b", "x": 1, "y": 1}]},
    )  # fmt: skip
    sent: list = []
    record(fig, sent)
    fig.plotly_relayout({"annotations[1]": {"text": "c", "x": 2, "y": 2},
                         "annotations[1].text": "d"})  # fmt: skip
    fig.plotly_restyle({"marker": [{"size": 20}], "marker.line.width": [[5, 1]]}, [0])
    fig.plotly_update({"marker": [{"size": 3}, {"size": 4}], "marker.color": ["red", "blue"]},
                      {"annotations": [{"text": "z", "x": 1, "y": 1}], "annotations[0].x": 5},
                      [0, 1])  # fmt: skip
    assert len(sent) == 3
    for _trait, msg in sent:
        for _part, keys in message_keys(msg):
            assert nested_keys(keys) == []
    relayout, restyle, update = (msg for _t, msg in sent)
    # what was sent is what the kernel's figure holds after each change
    assert relayout["relayout_data"] == {"annotations[1]": {"text": "d", "x": 2, "y": 2}}
    assert restyle["restyle_data"] == {"marker": [{"size": 20, "line": {"width": [5, 1]}}]}
    assert update["style_data"] == {"marker": [fig.data[0].marker.to_plotly_json(),
                                               fig.data[1].marker.to_plotly_json()]}  # fmt: skip
    assert update["layout_data"] == {"annotations": fig.to_plotly_json()["layout"]["annotations"]}
    # the children were applied (after their parents), and went out inside them
    assert fig.data[1].marker.color == "blue" and fig.layout.annotations[0].x == 5


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


def page_data_after(start: list, sent: list) -> list:
    """The page's own copy of a figure's data (plotly's widget model, ``_widget_data``) after
    the ``_py2js_restyle`` / ``_py2js_update`` messages ``sent``, from ``start`` (the data in
    the figure's opening message), applied as plotly's page-side model applies them
    (``performRestyleLike`` in ``plotly/package_data/widgetbundle.js``): each message in the
    JSON form it travels in (:func:`plotly.serializers._py_to_js`: a trace's ``Undefined``,
    "leave it as it is", is the string ``"_undefined_"``), its value for each trace set at
    its path (``null`` unsets it). The model keeps what it received: a view drawn later (a
    second view, a view drawn after changes that came before plotly's code ran) reads it
    with ``"_undefined_"`` turned into ``undefined``."""
    import copy

    from plotly.serializers import _py_to_js

    from moneynb.ui.boards.base import _path_parts, _set_in

    data = copy.deepcopy(start)
    for trait, msg in sent:
        if trait not in ("_py2js_restyle", "_py2js_update"):
            continue
        msg = _py_to_js(msg, None)
        style = msg.get("restyle_data" if trait == "_py2js_restyle" else "style_data") or {}
        traces = msg.get("restyle_traces" if trait == "_py2js_restyle" else "style_traces")
        traces = list(range(len(data))) if traces is None else traces
        traces = traces if isinstance(traces, list) else [traces]
        for key, value in style.items():
            values = value if isinstance(value, list) else [value]
            for j, t in enumerate(traces):
                v = values[j % len(values)]
                parts = _path_parts(key)
                if v is None:
                    holder = data[t]
                    for p in parts[:-1]:
                        holder = holder.get(p, {}) if isinstance(holder, dict) else {}
                    if isinstance(holder, dict):
                        holder.pop(parts[-1], None)
                else:
                    data[t] = _set_in(data[t], parts, copy.deepcopy(v))
    return data


def _undefined_in(value, path="") -> list[str]:
    if value == "_undefined_":
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _undefined_in(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _undefined_in(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("name", GAMES)
def test_the_pages_copy_of_a_board_stays_the_kernels(name):
    """Issue 38 (the reverted Money Run ring): a batch that set a trace's whole ``marker``
    (a per-point size list folded into it by ``merge_nested_edits``) went out as one value
    per trace, ``Undefined`` for the traces it did not change. plotly's page-side model
    stores a message's values as they came (``"_undefined_"``), so a view drawn later read
    ``marker: undefined``: plotly.js's ``cleanData`` threw in ``newPlot`` ("Cannot use 'in'
    operator to search for 'line' in undefined") and a Money Run table's board never drew
    in Lab. Every message now names each trace's value as the kernel holds it: after any
    moves, the page's copy of the data is the kernel's, every ``marker`` a dict."""
    from plotly.serializers import _py_to_js

    view = GameView(moneynb.new_game(name, players=["Ann", "Bob"], seed=5))
    fig = view.board.figure
    start = _py_to_js(fig._data, None)
    sent: list = []
    record(fig, sent)
    for k in range(12):
        if view.game.over:
            break
        d = view.game.decision
        # Money Run: a table coin picked (its ring drawn round the coin), then the bot's move
        pick = next((o for o in d.options if isinstance(o, tuple) and o[0] == "place"), None)
        view.submit(
            pick if pick is not None and k % 2 == 0 else make_bot("greedy").choose(view.game)
        )
    page = page_data_after(start, sent)
    assert [p for t in page for p in _undefined_in(t)] == []
    assert all(isinstance(t.get("marker", {}), dict) for t in page)
    assert page == _py_to_js(fig._data, None)
