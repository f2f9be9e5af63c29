"""The replay's chart "Where the game turned" as plotly data (issue 39, case 9): each seat's
score (or progress) at every step of a :class:`~moneynb.core.replay.Replay`, and the dotted
line at the step shown. The replay view (:mod:`moneynb.ui.replay`) draws it in a
``BoardFigure`` and makes it clickable; a handout or a script can draw it as a ``go.Figure``
(:func:`replay_chart`)."""

from __future__ import annotations

import plotly.graph_objects as go

from .base import palette, player_color, plot_text


def chart_colors(pal: dict) -> dict:
    """The replay chart's colours (a plotly layout update) from a board palette
    (:data:`moneynb.figures.base.PALETTES`): backgrounds, text, grid, the step line."""
    return dict(
        paper_bgcolor=pal["paper"],
        plot_bgcolor=pal["plot"],
        font=dict(color=pal["text"]),
        xaxis=dict(gridcolor=pal["grid"], zerolinecolor=pal["grid"]),
        yaxis=dict(gridcolor=pal["grid"], zerolinecolor=pal["grid"]),
        shapes=[dict(line=dict(color=pal["step"]))],
    )


def step_line(i: int) -> dict:
    """The chart's dotted vertical line at step ``i`` (a layout shape named ``moneynb-step``)."""
    return dict(type="line", xref="x", yref="paper", x0=i, x1=i, y0=0, y1=1,
                line=dict(color=palette()["step"], width=1.5, dash="dot"), name="moneynb-step")  # fmt: skip


def chart_parts(replay, index: int) -> tuple[list, dict]:
    """``(traces, layout)`` of the chart of ``replay`` (a
    :class:`~moneynb.core.replay.Replay`) with the step line at step ``index``: a line per
    seat, ``replay.series()`` (dollars, or rows toward the goal) against the step 0..n."""
    r = replay
    series = r.series()
    steps = list(range(r.n + 1))
    unit = r.unit
    traces = []
    for seat, p in enumerate(r.players):
        traces.append(
            go.Scatter(
                x=steps,
                y=series[p],
                # lines only: 600 steps x 4 players as SVG markers made each step's
                # marker move cost about 0.2 s of redraw in the page (bench_replay.py)
                mode="lines",
                line=dict(color=player_color(seat), width=2),
                name=plot_text(p),
                hovertemplate=f"{plot_text(p).replace('%', '&#37;')}: %{{y:,}}<br>step %{{x}}<extra></extra>",
            )
        )
    label = "score (dollars)" if unit == "dollars" else "progress (rows toward the goal)"
    layout = dict(
        height=280,
        margin=dict(l=60, r=10, t=36, b=40),
        title=dict(text="Where the game turned: click the chart to go to that step", x=0.5),
        xaxis=dict(title="step", rangemode="tozero"),
        yaxis=dict(title=label),
        hovermode="x",  # a click anywhere above a step goes to it
        legend=dict(orientation="h", y=-0.25),
        shapes=[step_line(index)],
    )
    return traces, layout


def replay_chart(replay, index: int = 0, theme: str = "light") -> go.Figure:
    """The chart of ``replay`` at step ``index`` as a static ``go.Figure`` in ``theme``'s
    colours ("light" or "dark").

    Raises:
        ValueError: an unknown theme."""
    traces, layout = chart_parts(replay, index)
    fig = go.Figure(data=traces, layout=layout)
    fig.layout.update(chart_colors(palette(theme)))
    return fig
