"""The board renderer every game's board extends.

A renderer owns ONE ``plotly.graph_objects.FigureWidget`` (:attr:`BoardRenderer.figure`) built
with ``data=`` and ``layout=`` in its constructor (a figure built step by step shows empty in
views opened later: BROWSER-TESTING.md), and changes it only inside ``figure.batch_update()``.

The :class:`~moneynb.ui.view.GameView` calls, in this order:

* ``Board(game)`` once (and again after an undo rebuilt the game object's state),
* ``update(game, events)`` after every person's action, and after each run of bot actions
  (with ``bot_delay`` 0 the bots' actions that follow one click are drawn in ONE update whose
  ``events`` are all of theirs, in order; with ``bot_delay`` > 0, after each bot action).
  After an undo, and when the view is built, ``events`` is the tail of ``game.log``, so draw
  from the game's state and use events only for cues (the dice just rolled, arrows),
* ``highlight(game.decision)`` after every update, to mark legal board targets,
* ``panels()`` once, for extra widgets (score sheet, dice, a hand of cards...),
* ``custom_panel(decision, submit)`` for each new decision; ``None`` means "use the generic
  panel for ``decision.kind``" (:mod:`moneynb.ui.panels`).

Board picks: the view sets :attr:`pick` to a callable taking an action. A renderer makes a
trace clickable with :meth:`clickable`; a click on a point whose ``customdata`` (a space id or
a seat index) is legal for the pending decision calls ``pick(action)``. The engine still
validates it, so a stray click cannot break the game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go

#: colours given to seats 0, 1, 2... (shared by boards, so a player keeps one colour)
PLAYER_COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#e377c2",
    "#8c564b",
)


def player_color(seat: int) -> str:
    """The display colour of ``seat`` (cycles after 8 seats)."""
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


class BoardFigure(go.FigureWidget):
    """A ``FigureWidget`` that opens its connection to the page only once its whole state is
    set (:meth:`release`, called by the view, or the first use of :attr:`model_id`).

    Why: a plain ``FigureWidget`` announces itself with EMPTY data and layout and sends the
    real ones in a second message; on a busy machine the page can draw the figure from the
    first (an empty plot with default axes: seen in the browser tests). Here the first message
    already holds the traces, the layout, the config and every update made before release.
    """

    def __init__(self, data=None, layout=None, config=None):
        self._moneynb_deferred = True
        super().__init__(data=data, layout=layout)
        if config:
            self._config = config

    def open(self):
        if getattr(self, "_moneynb_deferred", False):
            return
        super().open()

    def release(self) -> None:
        """Open the connection now, sending the figure's current data and layout in it."""
        if not getattr(self, "_moneynb_deferred", False):
            return
        self._widget_layout = copy.deepcopy(self._layout_obj._props)
        self._widget_data = copy.deepcopy(self._data)
        self._moneynb_deferred = False
        self.open()

    @property
    def model_id(self):
        self.release()
        return self.comm.comm_id

    def __repr__(self) -> str:
        return f"BoardFigure({len(self.data)} traces)"


def money(amount: int) -> str:
    """``1234`` -> ``"$1,234"``; negative amounts as ``"-$5"``."""
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


class BoardRenderer:
    """Base renderer; the default draws each player's wallet as a bar (a generic board).

    Subclasses override :meth:`build_data` / :meth:`build_layout` (used by the constructor) and
    :meth:`update`, or override ``__init__`` entirely (calling ``super().__init__(game)``
    first is not required, but :attr:`figure`, :attr:`game` and :attr:`pick` must be set).

    Attributes:
        game: the :class:`~moneynb.core.Game` drawn.
        figure: the one ``FigureWidget``.
        pick: callable(action) set by the view; ``None`` until the view attaches.
    """

    #: figure height in pixels
    height = 420

    def __init__(self, game):
        self.game = game
        self.pick: Callable[[Any], None] | None = None
        self.figure = BoardFigure(
            data=self.build_data(game),
            layout=self.build_layout(game),
            config={"displayModeBar": False},
        )

    # ----- building ---------------------------------------------------------------------
    def build_data(self, game) -> list:
        """The traces of the figure (default: one bar per player, their wallet in dollars)."""
        names, values = self._wallets(game)
        return [
            go.Bar(
                x=names,
                y=values,
                marker_color=[player_color(i) for i in range(len(names))],
                text=[money(v) for v in values],
                textposition="auto",
                customdata=list(range(len(names))),
                hoverinfo="x+text",
                name="wallets",
            )
        ]

    def build_layout(self, game) -> dict:
        """The figure layout (default: a plain, compact layout titled with the game)."""
        return dict(
            height=self.height,
            margin=dict(l=30, r=10, t=40, b=30),
            title=dict(text=f"{game.title}: money in wallets", x=0.5),
            showlegend=False,
            plot_bgcolor="white",
            yaxis=dict(title="dollars", rangemode="tozero", gridcolor="#eee"),
        )

    @staticmethod
    def _wallets(game) -> tuple[list[str], list[int]]:
        m = game.money()
        names = list(game.players)
        return names, [m.get(f"wallet:{p}", 0) for p in names]

    # ----- updating ---------------------------------------------------------------------
    def update(self, game, events) -> None:
        """Redraw for the state of ``game`` after ``events`` (called after every action)."""
        self.game = game
        names, values = self._wallets(game)
        with self.figure.batch_update():
            bar = self.figure.data[0]
            bar.y = values
            bar.text = [money(v) for v in values]
            turn = game.decision.player if game.decision is not None else None
            bar.marker.line = dict(
                width=[4 if i == turn else 0 for i in range(len(names))], color="black"
            )

    def status(self, game) -> str:
        """A short status for the header, e.g. "Round 2 of 5" (default: the game's ``round``
        attribute if it has one)."""
        r = getattr(game, "round", None)
        return f"Round {r}" if isinstance(r, int) else ""

    def highlight(self, decision) -> None:
        """Mark the legal targets of ``decision`` on the board (default: nothing)."""

    #: radius (board units) of a heat-map disc; the track boards space their spaces 1 apart
    heat_radius = 0.45

    def heat_xy(self, space: Any) -> tuple[float, float] | None:
        """Board coordinates of ``space`` for the Coach's heat map: the renderer's own
        ``_xy(space)`` if it has one, else ``space`` itself when it is an ``(x, y)`` pair
        (Money Run squares), else ``None`` (not drawn)."""
        xy = getattr(self, "_xy", None)
        if xy is not None:
            try:
                return xy(space)
            except (KeyError, IndexError, TypeError):
                return None
        if isinstance(space, (tuple, list)) and len(space) == 2:
            return float(space[0]), float(space[1])
        return None

    def show_heatmap(self, probs: dict | None) -> None:
        """Draw the Coach's heat map ``{space id: probability}`` as translucent orange discs
        (layout shapes named ``moneynb-heat``; darker = likelier), or remove it (``None``).

        Boards whose spaces have no :meth:`heat_xy` draw nothing; a board may override this.
        """
        fig = self.figure
        keep = [sh for sh in fig.layout.shapes if (sh.name or "") != "moneynb-heat"]
        heat = []
        if probs:
            top = max(float(p) for p in probs.values()) or 1.0
            r = self.heat_radius
            for space, p in probs.items():
                xy = self.heat_xy(space)
                if xy is None or float(p) <= 0:
                    continue
                a = 0.15 + 0.55 * float(p) / top
                heat.append(
                    dict(
                        type="circle",
                        xref="x",
                        yref="y",
                        name="moneynb-heat",
                        x0=xy[0] - r,
                        x1=xy[0] + r,
                        y0=xy[1] - r,
                        y1=xy[1] + r,
                        fillcolor=f"rgba(255,140,0,{a:.2f})",
                        line=dict(width=0),
                        layer="above",
                    )  # fmt: skip
                )
        if not heat and len(keep) == len(fig.layout.shapes):
            return
        with fig.batch_update():
            fig.layout.shapes = keep + heat

    def panels(self) -> list:
        """Extra widgets shown under the board (score sheet, dice...); default none."""
        return []

    def custom_panel(self, decision, submit: Callable[[Any], None]):
        """A game-specific panel for ``decision`` (usually chosen by ``decision.tag``), or
        ``None`` for the generic panel of its kind. ``submit(action)`` applies an action and
        raises :class:`~moneynb.core.IllegalAction` when it is refused (the view shows it)."""
        return None

    # ----- board picks ------------------------------------------------------------------
    def clickable(self, trace_index: int) -> None:
        """Make trace ``trace_index`` clickable: a click on a point whose ``customdata`` is a
        legal action of the pending decision calls :attr:`pick` with it."""
        trace = self.figure.data[trace_index]
        trace.on_click(self._on_click)

    def action_for_point(self, customdata: Any):
        """The action a clicked point stands for (default: its ``customdata``, made hashable)."""
        if isinstance(customdata, list):
            return tuple(customdata)
        return customdata

    def _on_click(self, trace, points, selector=None) -> None:
        if self.pick is None or not points.point_inds:
            return
        cd = trace.customdata
        if cd is None:
            return
        action = self.action_for_point(cd[points.point_inds[0]])
        self.click(action)

    def click(self, action: Any) -> bool:
        """Act as if the board point standing for ``action`` was clicked; True if it was a
        legal pick and was passed on to :attr:`pick` (tests call this without a browser)."""
        d = self.game.decision
        if self.pick is None or d is None or d.kind not in ("space", "player", "choose"):
            return False
        if not d.allows(action):
            return False
        self.pick(action)
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.title})"
