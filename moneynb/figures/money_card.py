"""The Money Card map: a stylised Europe drawn from ``map.toml`` coordinates (no map tiles).

Draws from the public state of :class:`moneynb.games.money_card.rules.MoneyCard` (``pos``,
``keys``, ``pawned``, ``holder``, ``out``, ``hand`` sizes, ``last_spin``) and the hand of the
player whose decision is pending (in a notebook that is a person: bots move on their own).
The order of the piles is never read.

Two figures, one over the other (:meth:`BoardDrawing.build_backdrop`). The backdrop, drawn
once (``Board.ROUTES``...``Board.SPACES``): 0 routes, 1 perimeter, 2 perimeter arrows, 3 names
of places and countries, 4 the spaces (hover text; clickable: ``customdata`` is the space id).
The figure laid over it, which the mouse passes through (``Board.TARGETS``...
``Board.PLANES``): 0 highlighted targets (a click on one lands on its space), 1 last move's
path, 2 planes. The board widget (:mod:`moneynb.ui.boards.money_card`) adds the panels: the
spinner (:class:`SpinnerWidget`), the last card (:class:`CardWidget`: a Language card's words
only on the screen of the seat that drew it), the keys table (``moneynb-keys``). Custom decision panels: the turn (Spin and "form phrase",
with the hand of Language cards, ``moneynb-hand``), Monte Carlo (``moneynb-bet-10``,
``moneynb-bet-20``, ``moneynb-bet-stop``, ``moneynb-color-red``, ``moneynb-color-black``),
Charge It (``moneynb-charge-it``, ``moneynb-pay-cheques``).
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from .base import (
    BoardDrawing,
    ink_on,
    label_trace,
    place_labels,
    player_color,
    plot_text,
    px_per_unit,
    token_letters,
)

#: the Language Countries, each with the palette role of its fill (``base.PALETTES``: a
#: pastel in the light theme, a deep tint in the dark one, under light text there)
AREA_FILL = {a: f"country_{a}" for a in ("France", "Italy", "Spain", "Germany-Austria")}
KIND_STYLE = {  # symbol, size, colour
    "key": ("star", 22, "#ffc107"),
    "town": ("circle", 13, "#90a4ae"),
    "route": ("circle", 9, "#b0bec5"),
    "perimeter": ("circle", 8, "#81d4fa"),
    "side_trip": ("hexagon", 15, "#26a69a"),
    "express": ("diamond", 15, "#7e57c2"),
}
SPIN_COLORS = {"red": "#d32f2f", "black": "#212121"}
MC_BADGE = (
    "<span class='moneynb-money-card-badge' style='background:#1565c0;color:white;"
    "border-radius:3px;padding:0 3px;font-size:0.85em'>MONEY CARD</span>"
)
#: where the 1st, 2nd... plane on one space stands (board units): never above it, where its name is
OFFSETS = [(0, 0), (2.2, -1.6), (-2.2, -1.6), (3.4, 0.2), (-3.4, 0.2), (0, -3.0)]


def _hull_path(points: list[tuple[float, float]], pad: float) -> str:
    """SVG path of the convex hull of ``points`` pushed ``pad`` map units out from its centre."""
    pts = sorted(set(points))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    cx = sum(p[0] for p in hull) / len(hull)
    cy = sum(p[1] for p in hull) / len(hull)
    out = []
    for x, y in hull:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + pad * (x - cx) / d, y + pad * (y - cy) / d))
    return "M " + " L ".join(f"{x:.1f},{y:.1f}" for x, y in out) + " Z"


class Board(BoardDrawing):
    """The Money Card map's figures (see the module docstring)."""

    height = 600
    width = 580
    #: trace indices in :attr:`figure` and in :attr:`backdrop`
    TARGETS, PATH, PLANES = range(3)
    ROUTES, PERIMETER, ARROWS, LABELS, SPACES = range(5)

    def __init__(self, game):
        self.b = game.board
        super().__init__(game)

    # ----- building ---------------------------------------------------------------------
    def _xy(self, space: str) -> tuple[float, float]:
        s = self.b.spaces[space]
        return s["x"], s["y"]

    def build_backdrop(self, game) -> list:
        """The fixed map, drawn once under the figure: routes, the perimeter and its arrows,
        the names, the spaces' markers (see :meth:`BoardDrawing.build_backdrop`)."""
        b = game.board
        per = {(p, b.perimeter[(i + 1) % len(b.perimeter)]) for i, p in enumerate(b.perimeter)}
        rx, ry, px, py, ax, ay, angles = [], [], [], [], [], [], []
        seen = set()
        for a, outs in b.out.items():
            for c in outs:
                (x0, y0), (x1, y1) = self._xy(a), self._xy(c)
                if (a, c) in per:
                    px += [x0, x1, None]
                    py += [y0, y1, None]
                    ax.append((x0 + x1) / 2)
                    ay.append((y0 + y1) / 2)
                    angles.append(90 - math.degrees(math.atan2(y1 - y0, x1 - x0)))
                elif (c, a) not in seen:
                    seen.add((a, c))
                    rx += [x0, x1, None]
                    ry += [y0, y1, None]
        ids = list(b.order)
        sx = [b.spaces[s]["x"] for s in ids]
        sy = [b.spaces[s]["y"] for s in ids]
        symbols, sizes, colors = [], [], []
        for s in ids:
            sym, size, col = self._style(s)
            symbols.append(sym)
            sizes.append(size)
            colors.append(col)
        return [
            go.Scatter(x=rx, y=ry, mode="lines", line=dict(color=self.pal["route"], width=2),
                       hoverinfo="skip", name="routes"),
            go.Scatter(x=px, y=py, mode="lines", line=dict(color="#0288d1", width=2, dash="dot"),
                       hoverinfo="skip", name="perimeter"),
            go.Scatter(x=ax, y=ay, mode="markers", hoverinfo="skip", name="arrows",
                       marker=dict(symbol="arrow", size=9, angle=angles, color="#0288d1")),
            label_trace(self._labels(b), ink=self.pal["text"]),
            go.Scatter(x=sx, y=sy, mode="markers", customdata=ids, hoverinfo="text",
                       hovertext=[self._hover(game, s) for s in ids], name="spaces",
                       marker=dict(symbol=symbols, size=sizes, color=colors,
                                   line=dict(width=1, color=self.pal["edge"]))),
        ]  # fmt: skip

    def build_data(self, game) -> list:
        """What changes, over the backdrop: highlighted targets, the last move, the planes."""
        return [
            go.Scatter(x=[], y=[], mode="markers", customdata=[], hoverinfo="text", hovertext=[],
                       name="targets",
                       marker=dict(size=20, color="rgba(0,229,255,0.35)",
                                   line=dict(width=3, color="#00b8d4"))),
            go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", name="last move",
                       line=dict(width=5, color="rgba(255,111,0,0.55)")),
            go.Scatter(x=[], y=[], mode="markers+text", hoverinfo="text", hovertext=[], text=[],
                       name="planes", textfont=dict(color="white", size=self.text_px),
                       marker=dict(symbol="circle", size=self.zoomed(19), color=[],
                                   line=dict(width=2, color=self.pal["outline"]))),
        ]  # fmt: skip

    def _hover(self, game, s: str) -> str:
        sp = self.b.spaces[s]
        kind = {"key": "Key City", "express": "Express Port", "side_trip": "side trip",
                "perimeter": "perimeter (one-way)"}.get(sp["kind"], sp["kind"])  # fmt: skip
        deck = game.deck_for(s)
        return f"{plot_text(self.b.name(s))}<br>{sp['area']} · {kind}<br>draws: {deck}"

    #: the room (px) a plane takes on the space it stands on: names keep clear of it
    PLANE_ROOM = 24

    def _style(self, s: str) -> tuple[str, int, str]:
        """``(symbol, size px, colour)`` of space ``s``'s marker."""
        sp = self.b.spaces[s]
        sym, size, col = KIND_STYLE[sp["kind"]]
        if sp["kind"] in ("route", "town") and sp["color"] in ("white", "black"):
            col = "#ffffff" if sp["color"] == "white" else "#263238"
        return sym, size, col

    def _labels(self, b) -> list[dict]:
        """Names of the Key Cities (bold), towns, side trips and Express Ports beside their
        spaces, and each Language Country's name by its top left corner, each put where it
        touches no space, arrow or other name (:func:`~.base.place_labels`, the rule every
        board follows; issue 30, case 2): above its space when that is free, else below,
        beside, or at a corner. A name keeps clear of a plane standing on its space too."""
        markers = [(*self._xy(s), self._style(s)[1]) for s in b.order]
        per = [(a, b.perimeter[(i + 1) % len(b.perimeter)]) for i, a in enumerate(b.perimeter)]
        markers += [((self._xy(a)[0] + self._xy(c)[0]) / 2, (self._xy(a)[1] + self._xy(c)[1]) / 2, 9)
                    for a, c in per if c in b.out.get(a, ())]  # fmt: skip
        names = []
        for s in b.order:
            sp = b.spaces[s]
            # a map drawn small names its Key Cities and Express Ports only (every name is in
            # its space's hover and the board as text)
            z = self.text_zoom
            kinds = ("key", "side_trip", "express", "town") if z <= 1 else ("key", "express") \
                if z <= 1.5 else ("key",)  # fmt: skip
            if sp["name"] and sp["kind"] in kinds:
                key = sp["kind"] == "key"
                room = max(self._style(s)[1], self.zoomed(self.PLANE_ROOM))
                names.append(dict(x=sp["x"], y=sp["y"], clear=room, size=self.text_px,
                                  text=f"<b>{plot_text(sp['name'])}</b>" if key else plot_text(sp["name"]),
                                  color=self.pal["text" if key else "muted"], key=key,
                                  steps=(0, 4, 8)))  # fmt: skip
        # the Key Cities first: they get the best places
        names.sort(key=lambda lab: not lab.pop("key"))
        for area in AREA_FILL:
            xs = [b.spaces[s]["x"] for s in b.order if b.spaces[s]["area"] == area]
            ys = [b.spaces[s]["y"] for s in b.order if b.spaces[s]["area"] == area]
            if xs:
                names.append(dict(x=min(xs) - 2, y=max(ys) + 2.5, text=area.upper().replace("-", "-<br>"), clear=0,
                                  size=self.text_px,
                                  steps=(0, 8, 16, 24, 32, 48, 64, 80),
                                  color=self.pal["muted"], sides=("right", "above right", "below right",
                                                          "above", "below", "left")))  # fmt: skip
        layout = self.build_layout_base()
        r = layout["xaxis"]["range"]
        return place_labels(names, markers, px_per_unit(layout), bounds=(r[0], r[0], r[1], r[1]))

    def build_layout_base(self) -> dict:
        """The size and axes of the map (what :meth:`_labels` needs to place the names)."""
        axis = dict(visible=False, range=[-5, 105], fixedrange=True)
        return dict(height=self.height, width=self.width, margin=dict(l=5, r=5, t=36, b=5),
                    xaxis=axis, yaxis=dict(axis, scaleanchor="x"))  # fmt: skip

    def build_layout(self, game) -> dict:
        b = game.board
        shapes = []
        for area, fill in AREA_FILL.items():  # a soft padded hull behind each Language Country
            pts = [self._xy(s) for s in b.order if b.spaces[s]["area"] == area]
            if len(pts) >= 3:
                shapes.append(dict(type="path", xref="x", yref="y", path=_hull_path(pts, 3.5),
                                   fillcolor=self.pal[fill], opacity=0.85, layer="below",
                                   line=dict(width=1, color=self.pal["border"])))  # fmt: skip
        return dict(
            **self.build_layout_base(), autosize=False, showlegend=False,
            title=dict(text=plot_text(self.status(game)), x=0.5, font=dict(size=14)),
            plot_bgcolor=self.pal["field"], paper_bgcolor=self.pal["paper"], shapes=shapes,
            clickmode="event", dragmode=False, hovermode="closest",
        )  # fmt: skip

    def status(self, game) -> str:
        holder = "nobody" if game.holder is None else game.players[game.holder]
        return f"Round {game.round} of at most {game.options['max_rounds']} · Money Card: {holder}"

    # ----- updating ---------------------------------------------------------------------
    def _planes(self, game):
        """The planes' markers: ``(xs, ys, colours, letters, hovers)``, board units. A
        space's planes stand at :data:`OFFSETS` round it (their discs partly on one another,
        their letters apart); each takes the first offset (from its own turn on the space)
        whose disc is clear of every plane already placed on another space (a route stop
        lies 3 units from its city: the replay tester's F10, "Y" on a stop over "G2" at
        Madrid), else its own offset."""
        xs, ys, colors, text, hover = [], [], [], [], []
        count: dict[str, int] = {}
        scale = px_per_unit(self.build_layout_base())
        apart = (self.zoomed(19) + 1) / scale  # two discs and their outlines, board units
        placed: list[tuple[str, float, float]] = []
        for seat, space in enumerate(game.pos):
            if space is None or game.out[seat]:
                continue
            k = count.get(space, 0)
            count[space] = k + 1
            x, y = self._xy(space)
            ring = OFFSETS[k % len(OFFSETS) :] + OFFSETS[: k % len(OFFSETS)]
            free = [(x + dx, y + dy) for dx, dy in ring]
            free = [p for p in free if all((p[0] - qx) ** 2 + (p[1] - qy) ** 2 >= apart**2
                                          for q, qx, qy in placed if q != space)]  # fmt: skip
            px, py = free[0] if free else (x + ring[0][0], y + ring[0][1])
            placed.append((space, px, py))
            xs.append(px)
            ys.append(py)
            colors.append(player_color(seat))
            text.append(plot_text(token_letters(game.players)[seat]))
            hover.append(f"{plot_text(game.players[seat])} ✈ {plot_text(self.b.name(space))}")
        return xs, ys, colors, text, hover

    def update(self, game, events) -> None:
        self.game = game
        xs, ys, colors, text, hover = self._planes(game)
        path = None
        for e in events:
            if e.kind == "moved" and e.data.get("path"):
                path = e.data["path"]
        with self.figure.batch_update():
            planes = self.figure.data[self.PLANES]
            planes.x, planes.y, planes.text, planes.hovertext = xs, ys, text, hover
            planes.marker.color = colors
            planes.textfont.color = [ink_on(c) for c in colors]
            if path is not None:
                self.figure.data[self.PATH].x = [self._xy(s)[0] for s in path]
                self.figure.data[self.PATH].y = [self._xy(s)[1] for s in path]
            self.figure.layout.title.text = plot_text(
                self.status(game)
                if not game.over
                else f"Game over: {' and '.join(game.winner_names)} won"
            )
