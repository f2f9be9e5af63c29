"""The Easy Money board: a square track of 48 spaces drawn from ``board.toml``.

Draws the public state of :class:`moneynb.games.easy_money.rules.EasyMoney` (``owner``,
``houses``, ``mortgaged``, ``pos``, the City Hospital and Bank accounts, ``exemption``,
``dice``, the last Give or Take card); the order of the pack is never read.

The track runs from the Bonus corner (bottom right) along the bottom (side 1), up the left
(side 2), along the top (side 3) and down the right (side 4). Figure traces (indices):
0 spaces (clickable: ``customdata`` is the space index), 1 owner frames (the owner's colour),
2 house counts / subdivision / mortgage text, 3 mortgaged marks (a cross), 4 highlighted
spaces (clickable), 5 the last move's path, 6 tokens. Colour bands are layout shapes on the
inner edge of each property.

The board widget (:mod:`moneynb.ui.boards.easy_money`) adds the panels under the board: the dice, the last Give or Take card and a holdings table
(``moneynb-em-holdings``). Custom decision panels (CSS classes): the turn (``moneynb-roll`` /
``moneynb-em-end``, ``moneynb-em-build``, ``moneynb-em-mortgage``, ``moneynb-em-lift``,
``moneynb-em-offer``), buying (``moneynb-em-buy``, ``moneynb-em-decline``), the auction
(``moneynb-em-auction``, the generic amount controls, ``moneynb-em-bid-min``), offers and their
answers (``moneynb-em-accept``, ``moneynb-em-refuse``) and debts (``moneynb-em-debt``).
Clicking a highlighted space buys it, builds on it, mortgages or lifts it, as the decision allows.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

from ..core.words import counted
from .base import (
    BoardDrawing,
    ink_on,
    money,
    player_color,
    player_text_color,
    plot_text,
    text_px,
    token_letters,
)

KIND_COLOR = {
    "bonus": "#ffd54f",
    "property": "#fffdf5",
    "utility": "#cfd8dc",
    "public": "#d1c4e9",
    "hospital": "#ffcdd2",
    "legend": "#f5f0e1",
    "traffic_light": "#ef5350",
}
SHORT = {  # short labels for the non-property spaces
    "Airdale Bus Line": "Bus", "L.M. Navigation Co.": "Ships", "L.M. Telephone Company": "Phone",
    "Interurban Transit Company": "Transit", "Associated Airways": "Air",
    "Waldorf Hotel": "Waldorf", "Black Kat Night Club": "Black Kat",
    "Majestic Theatre": "Majestic", "City Hospital": "Hospital", "Red Traffic Light": "STOP",
    "United Trust Co.": "Trust Co.", "Real Estate Tax": "R.E. Tax",
    "Stock Market Crash": "Crash", "Airplane Crash": "Plane", "Auto Accident": "Auto",
}  # fmt: skip
#: where a space's name (two lines) and its houses row sit, from its centre (board units)
LABEL_DY, HOUSES_DY = 0.12, -0.31
#: how far from a space's centre its colour band is drawn, towards the inside (board units;
#: the square's edge is at 0.49)
BAND_AT = 0.56
#: the widest a line of a space's name may be, px: inside its 40 px square and the owner's
#: 36 px frame
LABEL_PX = 34
#: the same on a space no owner's frame stands round (a legend space, a corner): its square
TILE_PX = 38
#: the mortgage cross stands in the houses row, right of the owner's mark
MORTGAGE_DX = 0.28
#: the signs on the spaces, in words (the key in the middle of the board; issue 38): every
#: sign drawn alone on a space (``_dynamic``'s house texts, the mortgage's cross), two lines
KEY_WORDS = (
    "⌂ a house · ★ a subdivision (5 houses)<br>● an owned utility or public building · ✕ mortgaged"
)
#: how far from a space's centre its tokens stand, towards the inside of the board
TOKEN_DEPTH = 0.9
#: board units between the centres of two tokens side by side: their 18 px discs (and
#: 1.5 px outlines) apart at the board's 41 px a unit
TOKEN_GAP = 0.46
#: how far (board units) the tokens of a space beside a corner stand away from that corner
CORNER_SHIFT = 0.25


def cell_xy(i: int, size: int = 48) -> tuple[float, float]:
    """Centre of space ``i`` on a square track of ``size`` spaces (board units, 0..n)."""
    n = size // 4
    side, k = divmod(i, n)
    return [(n - k, 0), (0, k), (k, n), (n, n - k)][side]


def inward(i: int, size: int = 48) -> tuple[float, float]:
    """Unit vector from space ``i`` towards the inside of the board (for colour bands)."""
    n = size // 4
    side, k = divmod(i, n)
    if k == 0:
        return (0.0, 0.0)
    return [(0, 1), (1, 0), (0, -1), (-1, 0)][side]


class Board(BoardDrawing):
    """The Easy Money board's figure (see the module docstring)."""

    #: the spaces' names and houses are written on the spaces (see :attr:`BoardDrawing.TILE_TEXT`)
    TILE_TEXT = ("labels", "houses")

    height = 600
    #: the Coach's heat map tints the spaces (trace 0): a disc would hide their text
    HEAT_TILES = 0

    def prompt_room(self, game, decision) -> str:
        """An auction's bid: its prompt with the best bid the auction could reach said in
        its place ("(no bid yet)" -> "($1,500 by Greedy bot 1)": the most cash anyone
        holds, the longest name; each amount that much), so the prompt keeps one height from its first bid to its
        last (issue 38: it grew a line with the first bid)."""
        if getattr(decision, "tag", None) != "bid":
            return ""
        most = max(game.cash(p) for p in range(len(game.players)))
        longest = max(game.players, key=len)
        room = re.sub(r"\([^()]*\)", f"({money(most)} by {longest})", decision.prompt, count=1)
        return re.sub(r"\$[\d,]+", money(most), room)  # the lowest bid grows too

    def __init__(self, game):
        self.size = len(game.board)
        super().__init__(game)

    # ----- building ---------------------------------------------------------------------
    @property
    def _label_dy(self) -> float:
        """Where a space's text is centred, above its centre (one line on a board drawn
        small: higher, clear of the larger houses row)."""
        z = self.text_zoom
        return LABEL_DY if z <= 1 else 0.2

    @property
    def _houses_dy(self) -> float:
        z = self.text_zoom
        return HOUSES_DY if z <= 1 else -0.22

    def _xy(self, i: int) -> tuple[float, float]:
        return cell_xy(i, self.size)

    def _token_xy(self, i: int, k: int, n: int = 1) -> tuple[float, float]:
        """Where the ``k``-th of the ``n`` tokens on space ``i`` stands: beside the space on the board's
        inner side (a token on the space would hide its name), ``k`` spread along the side."""
        x, y = self._xy(i)
        dx, dy = inward(i, self.size)
        if not (dx or dy):  # a corner: towards the middle of the board, diagonally
            n = self.size // 4
            # 1.5 in, rows further in: clear of the labels of the spaces beside the corner at
            # 11 px and of the tokens beside those spaces (1.0 in met them; issue 30, case 2)
            dx = 1.0 if x < n / 2 else -1.0
            dy = 1.0 if y < n / 2 else -1.0
            z = self.text_zoom
            gap = TOKEN_GAP * z
            return x + dx * (1.5 + (k % 3) * gap), y + dy * (1.5 + (k // 3) * gap)
        # up to 4 in a row, then a second row further in; TOKEN_GAP apart: a token's disc
        # clear of the next one's (0.4 kept only their 11 px letters apart, issue 30, case
        # 2: the discs were 1.6 px on one another, the tester's F10)
        z = self.text_zoom  # tokens drawn larger with the board's text stand further apart
        along = ((k % 4) - (min(n, 4) - 1) / 2) * TOKEN_GAP * z  # a row of the n, centred
        side_len = self.size // 4
        at = i % side_len
        if at in (1, side_len - 1):
            # beside a corner: the row moves away from it, else it meets the row of the space
            # on the corner's other side at the inner corner (the tester's F10: "Y" and "G2"
            # 0.14 units apart, at Easy Money's step 27 of seed 7)
            cx, cy = self._xy(i - 1 if at == 1 else (i + 1) % self.size)
            away = 1 if (x - cx if dy else y - cy) > 0 else -1
            along += away * CORNER_SHIFT * z
        depth = TOKEN_DEPTH * max(1.0, z * 0.9) + (k // 4) * 0.4 * z
        return x + dx * depth + (along if dy else 0), y + dy * depth + (along if dx else 0)

    def _label(self, sp: dict) -> str:
        """The text on a space: words that fit inside its square whole at the board's text
        size (:attr:`text_px`; :data:`LABEL_PX` wide inside an owner's frame, :data:`TILE_PX`
        on a space nobody owns), never a word cut short (issue 38: "Colle." read as nothing).
        A property: its name's first word over its price, or the price alone when the word
        does not fit ("Commonwealth"); another space: its short word (:data:`SHORT`) and its
        amount. A board drawn small (text zoom above 1) writes one line: a property's
        price, another space's amount or word. The full name is in the hover text, the deed
        and the board as text."""
        size = self.text_px
        one_line = self.text_zoom > 1

        def fits(text: str, room: float = LABEL_PX) -> bool:
            return text_px(text, size) <= room

        if sp["kind"] == "property":
            price, word = f"${sp['B']}", sp["name"].split()[0]
            # the price keeps its "$" (issue 38: "360" read as nothing): on a board drawn
            # small, one line, it may run 1.5 px into an owner's frame on each side
            if not fits(price, LABEL_PX + (3 if one_line else 0)):
                price = str(sp["B"])  # (never at the zooms drawn: $400 fits at 1.5)
            return price if one_line or not fits(word) else f"{plot_text(word)}<br>{price}"
        name = SHORT.get(sp["name"], sp["name"].split()[0])
        if one_line and name == "STOP":
            name = "Stop"  # narrower
        owned = sp["kind"] in ("utility", "public")  # an owner's frame may stand round it
        room = LABEL_PX if owned else TILE_PX
        if sp["kind"] == "legend" and sp.get("amount"):
            sign = "+" if sp["effect"] in ("win", "take") else "−"
            amount = f"{sign}${sp['amount']}"
            if not fits(amount, room):  # a board drawn small: "+100" (the hover says "$")
                amount = f"{sign}{sp['amount']}"
            lines = [w for w in (None if one_line else name, amount) if w and fits(w, room)]
            return "<br>".join(plot_text(w) for w in lines)
        # two short lines, not one wide one ("Black<br>Kat"); a word that does not fit whole
        # leaves the space to its colour and hover
        parts = name.split(" ", 1)
        if one_line and len(parts) > 1:
            parts = [name] if fits(name, room) else []
        if not all(fits(w, room) for w in parts):
            return ""
        return "<br>".join(plot_text(w) for w in parts)

    def _hover(self, g, i: int) -> str:
        sp = g.board[i]
        text = f"<b>{plot_text(sp['name'])}</b> (side {sp['side']})"
        if sp["kind"] == "property":
            rents = " / ".join(f"${r}" for r in sp["rents"])
            text += (f"<br>price ${sp['B']} · mortgage ${sp['M']}<br>rent with 1-4 houses, "
                     f"subdivision:<br>{rents}")  # fmt: skip
        elif sp["kind"] in ("utility", "public"):
            text += f"<br>rent ${sp['rent']}" + (f" · mortgage ${sp['M']}" if "M" in sp else "")
            text += " · always auctioned"
        elif sp["kind"] == "legend":
            text += f"<br>{plot_text(sp.get('text', ''))}"
        elif sp["kind"] == "hospital":
            text += f"<br>holds {money(g.money()['City Hospital'])}"
        elif sp["kind"] == "traffic_light":
            text += f"<br>passing both without stopping: ${g.data['traffic_fine']} fine"
        elif sp["kind"] == "bonus":
            text += f"<br>${g.data['bonus']} each time around"
        o = g.owner[i]
        if o is not None:
            text += f"<br>owner <b>{plot_text(g.players[o])}</b>"
            if sp["kind"] == "property":
                text += f", {'subdivision' if g.houses[i] == 5 else counted(g.houses[i], 'house')}"
            text += " · MORTGAGED" if g.mortgaged[i] else f" · rent now ${g.rent(i)}"
        return text

    def spaces_in_play(self, game) -> list[tuple]:
        """Rows ``(space, what it holds)`` of "Board as text" for every space someone owns, in
        the board's order: its owner, its houses (a subdivision: 5 houses) and whether it is
        mortgaged, else the rent it charges now ("Park Row | owned by Ann, 2 houses, rent now
        $90"): what the owner frames, the house signs and the crosses show."""
        rows = []
        for i, o in enumerate(game.owner):
            if o is None:
                continue
            sp = game.board[i]
            what = [f"owned by {game.players[o]}"]
            if sp["kind"] == "property":
                h = game.houses[i]
                what.append("a subdivision (5 houses)" if h == 5 else counted(h, "house"))
            what.append("mortgaged" if game.mortgaged[i] else f"rent now ${game.rent(i)}")
            rows.append((sp["name"], ", ".join(what)))
        return rows

    def build_data(self, game) -> list:
        xs = [self._xy(i)[0] for i in range(self.size)]
        ys = [self._xy(i)[1] for i in range(self.size)]
        colors = [KIND_COLOR[sp["kind"]] for sp in game.board]
        dyn = self._dynamic(game)
        ox, oy, oc = dyn["owners"]
        hx, hy, ht, hc = dyn["houses"]
        mx, my = dyn["mortgaged"]
        tx, ty, tc, tt, th = dyn["tokens"]
        return [
            go.Scatter(x=xs, y=ys, mode="markers", customdata=list(range(self.size)),
                       hovertext=dyn["hover"], hoverinfo="text", name="spaces",
                       marker=dict(symbol="square", size=40, color=colors,
                                   line=dict(width=1, color=self.pal["edge"]))),
            go.Scatter(x=ox, y=oy, mode="markers", hoverinfo="skip", name="owners",
                       marker=dict(symbol="square-open", size=36, color=oc,
                                   line=dict(width=4))),
            go.Scatter(x=hx, y=hy, mode="text", text=ht, hoverinfo="skip", name="houses",
                       textfont=dict(size=10, color=hc)),
            go.Scatter(x=mx, y=my, mode="markers", hoverinfo="skip", name="mortgaged",
                       marker=dict(symbol="x-thin-open", size=12, color="rgba(183,28,28,0.9)",
                                   line=dict(width=3, color="rgba(183,28,28,0.75)"))),
            go.Scatter(x=[], y=[], mode="markers", customdata=[], hovertext=[], hoverinfo="text",
                       name="targets",
                       # 42 px: the ring hugs its 40 px space; a wider one ran onto the
                       # name of the space beside it ("Waln." by a ring; issue 30, case 2)
                       marker=dict(symbol="square", size=42, color="rgba(0,229,255,0.25)",
                                   line=dict(width=3, color="#00b8d4"))),
            go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", name="last move",
                       line=dict(width=5, color="rgba(255,111,0,0.45)")),
            go.Scatter(x=tx, y=ty, mode="markers+text", text=tt, hovertext=th, hoverinfo="text",
                       name="tokens", textfont=dict(color="white", size=self.text_px),
                       marker=dict(symbol="circle", size=self.zoomed(18), color=tc,
                                   line=dict(width=1.5, color=self.pal["outline"]))),
            # the names, in the upper part of each space: clear of the colour band (at its
            # inner edge), the houses (below the name) and the tokens (beside the space)
            go.Scatter(x=xs, y=[y + self._label_dy for y in ys], mode="text", hoverinfo="skip",
                       text=[self._label(sp) for sp in game.board],
                       textfont=dict(size=8, color=self.pal["tile_ink"]),
                       name="labels"),
        ]  # fmt: skip

    def build_layout(self, game) -> dict:
        n = self.size // 4
        shapes = []
        for i, sp in enumerate(game.board):
            if sp["kind"] != "property":
                continue
            x, y = self._xy(i)
            dx, dy = inward(i, self.size)
            # just outside the square, on its inner side: the name inside keeps the whole
            # square (a band inside it ran through the name; issue 30, case 2)
            cx, cy = x + dx * BAND_AT, y + dy * BAND_AT
            w, h = (0.44, 0.05) if dy else (0.05, 0.44)
            shapes.append(dict(type="rect", x0=cx - w, x1=cx + w, y0=cy - h, y1=cy + h,
                               fillcolor=sp.get("colour", "#999"), line=dict(width=0),
                               layer="above"))  # fmt: skip
        notes = [
            dict(x=n / 2, y=n / 2 + 1.6, text="<b>EASY MONEY</b>", showarrow=False,
                 font=dict(size=34, color=self.pal["title"])),
            dict(x=n / 2, y=n / 2 + 0.7, text="buy · build · borrow · bank", showarrow=False,
                 font=dict(size=12, color=self.pal["subtitle"])),
            dict(x=n / 2, y=n / 2 - 0.6, text=self._centre(game), showarrow=False, name="centre",
                 font=dict(size=13, color=self.pal["text"])),
            dict(x=n / 2, y=n / 2 - 1.7, text=KEY_WORDS, showarrow=False, name="key",
                 font=dict(size=11, color=self.pal["text"])),
            dict(x=n - 0.5, y=-0.75, text="← start here", showarrow=False,
                 font=dict(size=11, color=self.pal["muted"])),
        ]  # fmt: skip
        axis = dict(visible=False, range=[-0.8, n + 0.8], fixedrange=True)
        return dict(
            height=self.height, width=self.height - 30, autosize=False, margin=dict(l=5, r=5, t=36, b=5), showlegend=False,
            title=dict(text=plot_text(self.status(game)), x=0.5, font=dict(size=14)),
            plot_bgcolor=self.pal["field_em"], paper_bgcolor=self.pal["paper"], xaxis=axis,
            yaxis=dict(axis, scaleanchor="x"), annotations=notes, shapes=shapes,
            clickmode="event", dragmode=False, hovermode="closest",
        )  # fmt: skip

    def event_text(self, game, event) -> str:
        """The engine's text, less a purchase's payment: the engine logs "Ann paid $80 to Bank
        (buys Canal Street)" and then "Ann buys Canal Street for $80." (or "... from Bob for
        $80."); the log and the "Last move" line show the second only (issue 38: the same
        purchase read twice). "" for a line not to show."""
        if event.kind == "paid" and "(buys " in (event.text or ""):
            return ""
        return event.text

    def status(self, game) -> str:
        if game.over:
            return f"Game over ({game.end_reason}): {' and '.join(game.winner_names)} won"
        cap = game.options["max_rounds"]
        of = f" of {cap}" if cap else ""
        # who is to play is the view's "... must decide" line: said once (issue 38, case 8)
        return f"Round {game.round}{of}"

    def _centre(self, g) -> str:
        m = g.money()
        ex = "nobody" if g.exemption is None else plot_text(g.players[g.exemption])
        return (
            f"City Hospital holds <b>{money(m['City Hospital'])}</b><br>"
            f"Bank {money(m['Bank'])} · Special Exemption: {ex}"
        )

    # ----- updating ---------------------------------------------------------------------
    def _dynamic(self, g) -> dict:
        """The state-dependent trace values: owner frames, house texts, mortgage marks, tokens."""
        ox, oy, oc, hx, hy, ht, hc, mx, my = [], [], [], [], [], [], [], [], []
        for i, o in enumerate(g.owner):
            if o is None:
                continue
            x, y = self._xy(i)
            ox.append(x)
            oy.append(y)
            oc.append(player_color(o))
            if g.mortgaged[i]:
                mx.append(x + MORTGAGE_DX)  # a small cross in the houses row: the name
                my.append(y + self._houses_dy)  # stays readable (a mortgaged space has no houses)
            if g.board[i]["kind"] == "property":
                h = g.houses[i]
                # a subdivision is a star, said in words in the key in the middle (issue 38:
                # "★SUB" read as nothing, and a mortgage's cross was drawn over its "SUB")
                label = "★" if h == 5 else "⌂" * h
                if self.text_zoom > 1 and h > 1:  # a board drawn small: "3⌂"
                    label = "★" if h == 5 else f"{h}⌂"
            else:
                label = "●"
            # beside the mortgage's cross, never under it
            hx.append(x - MORTGAGE_DX / 2 if g.mortgaged[i] and label != "●" else x)
            hy.append(y + self._houses_dy)
            ht.append(label)
            hc.append(player_text_color(o))  # text on the tile: a deep shade of the colour
        tx, ty, tc, tt, th = [], [], [], [], []
        count: dict[int, int] = {}
        here: dict[int, int] = {}
        for sid in g.pos:
            here[sid] = here.get(sid, 0) + 1
        for seat, sid in enumerate(g.pos):
            k = count.get(sid, 0)
            count[sid] = k + 1
            x, y = self._token_xy(sid, k, here[sid])
            tx.append(x)
            ty.append(y)
            tc.append(player_color(seat))
            tt.append(plot_text(token_letters(g.players)[seat]))
            th.append(f"<b>{plot_text(g.players[seat])}</b> on "
                      f"{plot_text(g.board[sid]['name'])}<br>cash {money(g.cash(seat))}")  # fmt: skip
        return dict(hover=[self._hover(g, i) for i in range(self.size)],
                    owners=(ox, oy, oc), houses=(hx, hy, ht, hc), mortgaged=(mx, my),
                    tokens=(tx, ty, tc, tt, th))  # fmt: skip

    def update(self, game, events) -> None:
        self.game = g = game
        dyn = self._dynamic(g)
        ox, oy, oc = dyn["owners"]
        hx, hy, ht, hc = dyn["houses"]
        mx, my = dyn["mortgaged"]
        tx, ty, tc, tt, th = dyn["tokens"]
        path = None
        for e in events:
            if e.kind == "moved" and e.data.get("path"):
                path = e.data["path"]
        with self.figure.batch_update():
            d = self.figure.data
            d[0].hovertext = dyn["hover"]
            d[1].x, d[1].y = ox, oy
            d[1].marker.color = oc
            d[2].x, d[2].y, d[2].text = hx, hy, ht
            d[2].textfont.color = hc
            d[3].x, d[3].y = mx, my
            if path is not None:
                d[5].x = [self._xy(s)[0] for s in path]
                d[5].y = [self._xy(s)[1] for s in path]
            d[6].x, d[6].y, d[6].text, d[6].hovertext = tx, ty, tt, th
            d[6].marker.color = tc
            d[6].textfont.color = [ink_on(c) for c in tc]
            self.figure.layout.title.text = plot_text(self.status(g))
            self.figure.layout.annotations[2].text = self._centre(g)
