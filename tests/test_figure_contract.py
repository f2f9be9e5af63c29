"""The contract of each piece of plotly's private API that ``BoardFigure`` overrides (issue 41).

``moneynb/ui/boards/base.py`` overrides plotly's ``_send_*_msg``,
``_build_update_params_from_batch`` and ``_remove_overlapping_props`` (plotly's widget has no
public hook for "after a change was sent" or "how a batch becomes one message"). plotly is
pinned (``pyproject.toml``: ``plotly==7.1.0``, the build too; the lock: 7.1.0); these tests fail when a
plotly release moves what the overrides rely on:

* every overridden method still exists on plotly's ``FigureWidget`` with the parameters the
  override passes on;
* each public change reaches the page through the ``_send_*_msg`` the override wraps (the
  figure's message count ``_moneynb_seq`` moves once per change, and the synced state is the
  current figure);
* a batch is turned into its message by ``_build_update_params_from_batch`` (the override
  folds nested edits: no message sets ``marker`` and ``marker.line.color`` together);
* plotly calls ``_remove_overlapping_props(widget_state, defaults)`` when a page reports
  computed defaults, and the override keeps every property.
"""

from __future__ import annotations

import inspect

import plotly
import plotly.graph_objects as go
import pytest

from moneynb.ui.boards.base import BoardFigure

OVERRIDDEN = {
    "_send_restyle_msg": ["self", "restyle_data", "trace_indexes", "source_view_id"],
    "_send_relayout_msg": ["self", "layout_data", "source_view_id"],
    "_send_update_msg": ["self", "restyle_data", "relayout_data", "trace_indexes",
                         "source_view_id"],
    "_send_addTraces_msg": ["self", "new_traces_data"],
    "_send_deleteTraces_msg": ["self", "delete_inds"],
    "_send_moveTraces_msg": ["self", "current_inds", "new_inds"],
    "_build_update_params_from_batch": ["self"],
    "_remove_overlapping_props": ["input_data", "delta_data", "prop_path"],
}  # fmt: skip


def test_plotly_is_the_pinned_version():
    major, minor = (int(p) for p in plotly.__version__.split(".")[:2])
    assert (major, minor) == (7, 1), plotly.__version__


@pytest.mark.parametrize("name", sorted(OVERRIDDEN))
def test_each_overridden_method_exists_in_plotly_with_its_parameters(name):
    theirs = getattr(go.FigureWidget, name)
    assert list(inspect.signature(theirs).parameters) == OVERRIDDEN[name]
    assert getattr(BoardFigure, name) is not theirs  # ours is in front of it


def _figure():
    fig = BoardFigure(
        data=[go.Scatter(x=[0, 1], y=[0, 1], name="a"), go.Scatter(x=[1], y=[1], name="b")],
        layout=dict(height=200),
    )
    fig.release()
    return fig


@pytest.mark.parametrize(
    "change",
    ["restyle", "relayout", "update", "addTraces", "deleteTraces", "moveTraces"],
)
def test_each_public_change_goes_through_its_send_method(change, monkeypatch):
    fig = _figure()
    seen = []
    name = f"_send_{change}_msg"
    orig = getattr(go.FigureWidget, name)

    def spy(self, *a, **k):
        seen.append(change)
        return orig(self, *a, **k)

    monkeypatch.setattr(go.FigureWidget, name, spy)  # what the override passes on to
    before = fig._moneynb_seq
    if change == "restyle":
        fig.data[0].y = [5, 6]
    elif change == "relayout":
        fig.layout.title.text = "t"
    elif change == "update":
        with fig.batch_update():
            fig.data[0].y = [7, 8]
            fig.layout.height = 300
    elif change == "addTraces":
        fig.add_trace(go.Scatter(x=[2], y=[2], name="c"))
    elif change == "deleteTraces":
        fig.data = fig.data[:1]
    else:
        fig.data = fig.data[::-1]
    assert seen == [change] and fig._moneynb_seq == before + 1, (change, seen)
    assert fig._widget_data is fig._data and fig._widget_layout is fig._layout_obj._props


def test_a_batch_message_never_sets_an_attribute_and_one_inside_it():
    fig = _figure()
    sent = []
    orig = go.FigureWidget._send_update_msg

    def capture(restyle_data, relayout_data, trace_indexes=None, source_view_id=None):
        sent.append((restyle_data, relayout_data))
        return orig(fig, restyle_data, relayout_data, trace_indexes, source_view_id)

    # plotly calls self._send_update_msg(...) with the params the batch built
    fig._send_update_msg = capture
    with fig.batch_update():
        fig.data[0].marker = dict(size=9)
        fig.data[1].marker.line.color = "red"
    (restyle, _layout), *_ = sent
    assert "marker" in restyle and "marker.line.color" not in restyle, restyle
    assert restyle["marker"][1]["line"]["color"] == "red"
    assert fig.data[1].marker.line.color == "red" and fig.data[0].marker.size == 9


def test_plotly_asks_which_properties_to_drop_and_the_figure_keeps_them():
    fig = _figure()
    calls = []
    orig = BoardFigure._remove_overlapping_props

    def spy(input_data, delta_data, prop_path=()):
        calls.append((input_data, delta_data))
        return orig(input_data, delta_data, prop_path)

    fig._remove_overlapping_props = spy
    # the page reports its computed layout (height as drawn) for the last layout edit
    fig._handler_js2py_layoutDelta(
        {"new": {"layout_delta": {"height": 200}, "layout_edit_id": fig._last_layout_edit_id}}
    )
    assert calls and calls[0][0] is fig._widget_layout
    assert fig._widget_layout["height"] == 200  # kept, although equal to the page's default


def test_a_board_figure_gets_plotlys_default_template_for_its_trace_types_only():
    """Issue 41: a ``BoardFigure`` carries the layout part of plotly's default template and
    the trace defaults of its own trace types (not all 24 types, whose classes plotly would
    import and validate: 1-4 s of every new kernel's first board). What it draws with is the
    same as with plotly's whole template."""
    import plotly.io as pio

    from moneynb.ui.boards.base import BoardFigure, light_template

    whole = pio.templates[pio.templates.default]
    data = [go.Scatter(x=[1, 2], y=[3, 4]), {"type": "bar", "x": [1], "y": [2]}]
    fig = BoardFigure(data=data, layout={"width": 300})
    got = fig.layout.template
    assert got.layout.to_plotly_json() == whole.layout.to_plotly_json()
    for kind in ("scatter", "bar"):
        assert [t.to_plotly_json() for t in getattr(got.data, kind)] == [
            t.to_plotly_json() for t in getattr(whole.data, kind)
        ], kind
    assert not got.data.heatmap and not got.data.pie  # the other types' defaults left out
    # a template the figure names is kept; a merged default falls back to plotly's own
    own = BoardFigure(data=data, layout={"template": "simple_white"})
    assert own.layout.template.to_plotly_json() == pio.templates["simple_white"].to_plotly_json()
    old = pio.templates.default
    try:
        pio.templates.default = "plotly+presentation"
        assert light_template(data) is None
    finally:
        pio.templates.default = old
