"""The Moolah board: the track, inner pathways and places drawn from ``board.toml``.

Draws from the public state of :class:`moneynb.games.moolah.rules.Moolah` (``pos``, ``missed``,
``out``, ``hand`` sizes, wallets and accounts, the score pad ``pad``, ``dice``, the public
``ctx`` of a Black Jack hand); the order of the piles is never read.

Two figures, one over the other (:meth:`BoardDrawing.build_backdrop`). The backdrop, drawn
once (``Board.TRACK``...``Board.SPACES``): 0 track and pathways, 1 the "hands" (arrows on the
one-way inner pathways), 2 the spaces' labels, 3 the spaces (hover text; clickable:
``customdata`` is the space id). The figure laid over it, which the mouse passes through
(``Board.TARGETS``...``Board.TOKENS``): 0 highlighted targets (a click on one lands on its
space), 1 the last move's path, 2 tokens (prisoners and bar guests sit on the Big House and
Bufe's markers). In the page, the first ``.js-plotly-plot`` of the view is that figure, the
second the backdrop; find a trace by its ``name`` ("targets", "last move", "tokens"; "track",
"hands", "labels", "spaces") in the plot's
``data`` and its group as ``g.trace<uid>`` (the widget sets the uids; plotly draws no group for
an empty trace, so counting groups does not give the index).

The board widget (:mod:`moneynb.ui.boards.moolah`) adds the panels under the board: the dice
(:class:`DiceWidget`), the last card (:class:`CardWidget`) and the Bank's score pad
(``moneynb-score-pad``). Custom decision panels (CSS classes): the turn (``moneynb-roll``,
``moneynb-advantage``), the Bank (``moneynb-bank-deposit``, ``moneynb-bank-withdraw``,
``moneynb-bank-done`` and the amount with ``moneynb-bank-all``),
Wall Street (``moneynb-stock-grain`` / ``-oil`` / ``-gold``, ``moneynb-stock-pass``), Black Jack
(the bet; then ``moneynb-bj-stay`` / ``moneynb-bj-double`` with the exact chance of winning),
Take A Pal (``moneynb-pal``), the Option Point, Moolah jump and Advantage card (a button per
target, ``moneynb-target``, or a click on the highlighted space).
"""

from __future__ import annotations

import math
import re

import plotly.graph_objects as go

from ..core.words import counted
from .base import (
    BOARD_WIDTH,
    SIDES,
    BoardDrawing,
    ink_on,
    label_trace,
    money,
    place_labels,
    player_color,
    plot_text,
    px_per_unit,
    text_box,
    token_letters,
)

KIND_STYLE = {  # symbol, size, colour
    "bank": ("square", 30, "#2e7d32"),
    "money": ("circle", 17, "#a5d6a7"),
    "temptation": ("diamond", 17, "#f48fb1"),
    "moolah": ("star", 22, "#ffd54f"),
    "safe": ("circle", 17, "#90caf9"),
    "option": ("hexagram", 21, "#ce93d8"),
    "wall_street": ("square", 24, "#5c6bc0"),
    "casino": ("square", 26, "#e53935"),
    "goto": ("triangle-right", 18, "#ffab91"),
    "fair_share": ("square", 22, "#26a69a"),
    "exit": ("circle", 18, "#bcaaa4"),
    "take_pal": ("square", 22, "#ff7043"),
    "parole": ("circle", 20, "#9e9e9e"),
    "prison_break": ("x", 20, "#616161"),
    "bufes": ("square", 28, "#8d6e63"),
    "max": ("square", 28, "#424242"),
    "min": ("square", 26, "#757575"),
}
LABELS = {  # short names written on the board
    "bank": "BANK", "wall_street": "Wall St", "casino": "Casino", "fair_share": "Fair Share",
    "exit": "Exit", "take_pal": "Take<br>A Pal", "parole": "Parole", "prison_break": "Prison Break",
    "bufes": "Bufe's", "max": "Max", "min": "Min", "moolah": "Moolah", "option": "Option",
}  # fmt: skip


#: the spaces a board drawn small (a short window: text zoom above 1) does not name: its
#: key says which shape is which (issue 38)
KEYED = {"temptation": "Temptation", "safe": "Safe", "moolah": "Moolah", "option": "Option"}
#: between the parts of the line of words under the board
SEP = " · "
#: the key's sign of each, in the colour of its space
KEY_SIGN = {"temptation": "◆", "safe": "●", "moolah": "★", "option": "✶"}


def _short(amount: int) -> str:
    sign = "+" if amount > 0 else "-"
    return f"{sign}${abs(amount) // 1000}k"


def _reason(text: str) -> str:
    """What a transfer was for: the last brackets of the engine's log line ("" if none)."""
    m = re.search(r"\(([^()]*)\)\.?\s*$", text or "")
    return m.group(1) if m else ""


def paid_words(data: dict, reason: str = "") -> str:
    """One transfer of Moolah's ledger (a ``"paid"`` event's ``data``: ``src``, ``dst``,
    ``amount`` in dollars; accounts ``"bank"``, ``"loan shark"``, ``"wallet:<name>"``,
    ``"account:<name>"``) in a player's words: "Ann takes $50,000 out of the bank account
    (withdrawal)." where the ledger says "Ann's bank account paid $50,000 to Ann
    (withdrawal)". Source: issue 38, case 8."""
    src, dst, amount = str(data.get("src", "")), str(data.get("dst", "")), data.get("amount", 0)
    why = f" ({reason})" if reason else ""
    cash = money(amount)

    def owner(acct: str, kind: str) -> str | None:
        return acct.split(":", 1)[1] if acct.startswith(kind + ":") else None

    def name(acct: str) -> str:
        if owner(acct, "wallet"):
            return owner(acct, "wallet")
        if owner(acct, "account"):
            return f"{owner(acct, 'account')}'s bank account"
        return {"bank": "the Bank", "loan shark": "the Loan Shark"}.get(acct, acct)

    w_src, w_dst = owner(src, "wallet"), owner(dst, "wallet")
    a_src, a_dst = owner(src, "account"), owner(dst, "account")
    if a_src and a_src == w_dst:
        return f"{w_dst} takes {cash} out of the bank account{why}."
    if w_src and w_src == a_dst:
        return f"{w_src} puts {cash} into the bank account{why}."
    if w_dst and src in ("bank", "loan shark"):
        return f"{w_dst} gets {cash} from {name(src)}{why}."
    if a_dst and src in ("bank", "loan shark"):
        return f"{a_dst}'s bank account gets {cash} from {name(src)}{why}."
    if w_src and dst == "bank":
        return f"{w_src} pays {cash}{why}."
    if a_src:
        return f"{cash} is taken from {a_src}'s bank account by {name(dst)}{why}."
    text = f"{name(src)} pays {cash} to {name(dst)}{why}."
    return text[:1].upper() + text[1:]


class Board(BoardDrawing):
    """The Moolah board's figures (see the module docstring)."""

    height = 620
    #: trace indices in :attr:`figure` and in :attr:`backdrop`
    TARGETS, PATH, TOKENS = range(3)
    TRACK, HANDS, LABELS, SPACES = range(4)
    #: a label's distance from its space's centre, board units (about 17 px across, 19 px
    #: sideways at the board's scale of some 42 px per unit)
    LABEL_DY, LABEL_DX = 0.42, 0.45
    #: the range of both axes drawn, board units (wide enough for "Prison Break" left of the
    #: track at 11 px: issue 30, case 2)
    AXIS_RANGE = (-2.5, 12.3)

    def __init__(self, game):
        self.d = game.data
        super().__init__(game)

    # ----- building ---------------------------------------------------------------------
    def _xy(self, sid: str) -> tuple[float, float]:
        s = self.d.spaces[sid]
        return s["x"], s["y"]

    def build_backdrop(self, game) -> list:
        """The fixed board, drawn once under the figure: track and pathways, the hands, the
        spaces' labels and markers (see :meth:`BoardDrawing.build_backdrop`)."""
        d = game.data
        lx, ly, ax, ay, angles = [], [], [], [], []
        for sid in d.order:
            for n in d.spaces[sid]["next"]:
                (x0, y0), (x1, y1) = self._xy(sid), self._xy(n)
                lx += [x0, x1, None]
                ly += [y0, y1, None]
        for a, b in self.inner_edges(d):  # the hands: arrows along each one-way pathway
            (x0, y0), (x1, y1) = self._xy(a), self._xy(b)
            ax.append((x0 + x1) / 2)
            ay.append((y0 + y1) / 2)
            angles.append(90 - math.degrees(math.atan2(y1 - y0, x1 - x0)))
        ids = list(d.order)
        sym, size, color = zip(*(KIND_STYLE[d.spaces[s]["kind"]] for s in ids), strict=True)
        return [
            go.Scatter(x=lx, y=ly, mode="lines", line=dict(color=self.pal["track"], width=3),
                       hoverinfo="skip", name="track"),
            go.Scatter(x=ax, y=ay, mode="markers", hoverinfo="skip", name="hands",
                       marker=dict(symbol="arrow", size=12, angle=angles, color=self.pal["hands"])),
            label_trace(self._labels(d, game), ink=self.pal["text"]),
            go.Scatter(x=[self._xy(s)[0] for s in ids], y=[self._xy(s)[1] for s in ids],
                       mode="markers", customdata=ids, hovertext=[self._hover(s) for s in ids],
                       hoverinfo="text", name="spaces",
                       marker=dict(symbol=list(sym), size=list(size), color=list(color),
                                   line=dict(width=1.5, color=self.pal["edge"]))),
        ]  # fmt: skip

    def build_data(self, game) -> list:
        """What changes, over the backdrop: highlighted targets, the last move, the tokens."""
        return [
            go.Scatter(x=[], y=[], mode="markers", customdata=[], hovertext=[], hoverinfo="text",
                       name="targets",
                       marker=dict(size=30, color="rgba(0,229,255,0.35)",
                                   line=dict(width=3, color="#00b8d4"))),
            go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", name="last move",
                       line=dict(width=6, color="rgba(255,111,0,0.5)")),
            go.Scatter(x=[], y=[], mode="markers+text", hovertext=[], hoverinfo="text", text=[],
                       name="tokens", textfont=dict(color="white", size=self.text_px),
                       marker=dict(symbol="circle", size=self.zoomed(18), color=[],
                                   line=dict(width=2, color=self.pal["outline"]))),
        ]  # fmt: skip

    @staticmethod
    def inner_edges(d) -> list[tuple[str, str]]:
        """The steps of every inner pathway: from each Option Point's second way on to the
        space where the pathway meets the track again."""
        out = []
        for sid in d.order:
            nxt = d.spaces[sid]["next"]
            if len(nxt) < 2:
                continue
            a, b = sid, nxt[1]
            while True:
                out.append((a, b))
                if len(d.prev[b]) > 1 or not d.spaces[b]["next"]:
                    break
                a, b = b, d.spaces[b]["next"][0]
        return out

    def _hover(self, sid: str) -> str:
        s = self.d.spaces[sid]
        text = f"<b>{plot_text(s['name'])}</b>"
        if s["kind"] == "money":
            text += f"<br>{'collect' if s['amount'] > 0 else 'pay'} {money(abs(s['amount']))}"
        if s["kind"] == "goto":
            text += f"<br>to {plot_text(self.d.spaces[s['to']]['name'])}"
        if s["kind"] in ("safe", "bank", "exit", "parole", "bufes", "max", "min"):
            text += "<br>no mugging here"
        if s["kind"] == "option":
            text += "<br>outer track or inner pathway"
        return text

    def _label_sides(self, sid: str, xy) -> tuple[str, ...]:
        """Where the label of space ``sid`` at ``xy`` may go, best first: outside the side
        columns, below the top row and the inside spaces, above the bottom row (Min: above
        its box, below it is the "→ Max" of the bottom row): away from where
        :meth:`_token_offset` puts the tokens; the other sides only when those are taken."""
        x, y = xy
        if 0 < y < 10 and (x <= 0 or x >= 10):
            side = "left" if x <= 0 else "right"
            first = (side, f"above {side}", f"below {side}")
        elif self.text_zoom > 1 and (y <= 0 or self.d.spaces[sid]["kind"] == "min"):
            # a board drawn small: the bottom row's names under it (above the row, under
            # Min's box and the inner pathway's end, its tokens stand), Min's above its box
            # (its tokens to its right)
            first = ("below", "below right", "below left") if y <= 0 else ("above",)
        elif self.d.spaces[sid]["kind"] == "min" or y <= 0:
            first = ("above", "above right", "above left")
        else:
            first = ("below", "below right", "below left")
        return first + tuple(s for s in SIDES if s not in first)

    def _labels(self, d, game) -> list[dict]:
        """The short names written next to the spaces, each clear of the spaces, the hands
        and the other names (:func:`~.base.place_labels`, the rule every board follows), on
        the side :meth:`_label_sides` gives (see :func:`label_trace`)."""
        labels = []
        # the Big House's and Bufe's boxes first: the inside corner round them is crowded
        boxes = [sid for sid in d.order if d.spaces[sid]["kind"] in ("bufes", "max", "min")]
        for sid in boxes + [sid for sid in d.order if sid not in boxes]:
            s = d.spaces[sid]
            k = s["kind"]
            if k in KEYED and self.text_zoom > 1:
                continue  # a board drawn small: its shape says it (the key in the middle)
            text = LABELS.get(k) or (_short(s["amount"]) if k == "money" else "")
            if k == "goto":
                text = "Go to " + LABELS.get(d.spaces[s["to"]]["kind"], "Wall St")
                if self.text_zoom > 1 and s["x"] not in (0, 10) and s["y"] not in (0, 10):
                    continue  # a board drawn small: the inner pathway's sign has no room
                if self.text_zoom > 1.2 and s["x"] in (0, 10) and len(text) > 10:
                    text = text.replace("Go to ", "Go to<br>")  # outside a side column
            if k == "temptation":
                text = "Temp-<br>tation"
            if k == "safe":
                text = "Safe"
            if k == "prison_break" and self.text_zoom > 1.35:
                text = "Prison<br>Break"
            if k == "wall_street" and self.text_zoom > 1:  # room for the next amount
                text = "Wall<br>St"
            if not text:
                continue
            x, y = s["x"], s["y"]
            labels.append(dict(x=x, y=y, text=text, clear=KIND_STYLE[k][1], size=self.text_px,
                               steps=(0, 3, 6, 10, 14),
                               sides=self._label_sides(sid, (x, y))))  # fmt: skip
        layout = {"width": BOARD_WIDTH, **self.build_layout(game)}
        r = layout["xaxis"]["range"]
        markers = [(*self._xy(s), KIND_STYLE[d.spaces[s]["kind"]][1]) for s in d.order]
        for a, b in self.inner_edges(d):  # the hands
            (x0, y0), (x1, y1) = self._xy(a), self._xy(b)
            # more room round them on a board drawn small (the page's own geometry found a
            # name on one at 1024x700 that this estimate let pass)
            markers.append(((x0 + x1) / 2, (y0 + y1) / 2, 12 if self.text_zoom == 1 else 18))
        # the game's name and goal in the middle (a note, drawn under the labels)
        small = self.text_zoom > 1
        for dx in (-1.8, -1.2, -0.6, 0, 0.6, 1.2, 1.8):
            markers.append((5 + dx, 5.4, 30))
        for dx in (-1.6, -0.8, 0, 0.8, 1.6) if small else (-3, -2, -1, 0, 1, 2, 3):
            for dy in (0.25, -0.25) if small else (0,):
                markers.append((5 + dx, 4.2 + dy if small else 4.4, 14 * self.text_zoom))
        # where the tokens stand on the spaces where they gather (every player at the Bank at
        # the start; guests at Bufe's, prisoners in the Big House): no name under a token
        n = len(game.players)
        for sid in d.order:
            at = self._xy(sid)
            for k in range(min(n, 3)):
                dx, dy = self._token_offset(at, k, min(n, 3), self._token_side(at))
                markers.append((at[0] + dx, at[1] + dy, self.zoomed(18)))
        scale = px_per_unit(layout)
        labels = place_labels(labels, markers, scale, bounds=(r[0], r[0], r[1], r[1]))
        # where the names are, for the tokens to keep clear of them (:meth:`_free_layout`)
        self._label_scale, self._name_boxes, self._free_sides = scale, [], {}
        for lab in labels:
            w, h = (v / scale for v in text_box(lab["text"], lab["size"]))
            self._name_boxes.append((lab["x"] - w / 2, lab["y"] - h / 2,
                                     lab["x"] + w / 2, lab["y"] + h / 2))  # fmt: skip
        return labels

    def build_layout(self, game) -> dict:
        notes = []
        notes.append(dict(x=5, y=5.4, text="<b>MOOLAH</b>", showarrow=False,
                          font=dict(size=34, color=self.pal["title"])))  # fmt: skip
        small = self.text_zoom > 1  # a board drawn small: larger text, fewer names
        goal = "first to $1,000,000<br>in the bank wins" if small else \
            "first to $1,000,000 in the bank wins"  # fmt: skip
        notes.append(dict(x=5, y=4.2 if small else 4.4, text=goal, showarrow=False,
                          font=dict(size=11, color=self.pal["subtitle"])))  # fmt: skip
        # the short forms the board writes, said in full under it (issue 38: "$75k", "Min",
        # "Max" read as nothing to a newcomer; docs/board-words.md keeps the list)
        words = f"$75k = $75,000{SEP}Min, Max: the Big House (Minimum, Maximum Security)"
        if small:  # the spaces whose names are left off: a key under the board
            key = [f"<span style='color:{KIND_STYLE[k][2]}'>{KEY_SIGN[k]}</span> {name}"
                   for k, name in KEYED.items()]  # fmt: skip
            if self.text_zoom > 1:
                key.append(f"<span style='color:{KIND_STYLE['goto'][2]}'>▶</span> Go to")
            words = "   ".join(key) + "<br>" + words
        # its first line where a one-line key stood (centred at y -1.75), the words under it
        notes.append(dict(x=5, y=-1.52 if small else -1.75, yanchor="top" if small else "middle",
                          text=words, showarrow=False, name="key",
                          font=dict(size=11, color=self.pal["text"])))  # fmt: skip
        shapes = [
            dict(type="rect", x0=0.6, y0=0.6, x1=2.6, y1=2.6, line=dict(color=self.pal["muted"], dash="dot"),
                 fillcolor="rgba(66,66,66,0.07)", layer="below"),
            dict(type="rect", x0=7.9, y0=0.6, x1=9.5, y1=2.0, line=dict(color=self.pal["track"], dash="dot"),
                 fillcolor="rgba(141,110,99,0.1)", layer="below"),
        ]  # fmt: skip
        # wide enough for "Prison Break" left of the track at 11 px (issue 30, case 2)
        axis = dict(visible=False, range=list(self.AXIS_RANGE), fixedrange=True)
        return dict(
            height=self.height, margin=dict(l=5, r=5, t=36, b=5), showlegend=False,
            title=dict(text=plot_text(self.status(game)), x=0.5, font=dict(size=14)),
            plot_bgcolor=self.pal["field"], paper_bgcolor=self.pal["paper"], xaxis=axis,
            yaxis=dict(axis, scaleanchor="x"), annotations=notes, shapes=shapes,
            clickmode="event", dragmode=False, hovermode="closest",
        )  # fmt: skip

    def status(self, game) -> str:
        cur = game.players[game.current]
        goal = money(game.data.rules["goal"])
        d = game.decision
        if d is not None and d.tag == "first_withdrawal":  # before anyone moves
            return f"First withdrawals · {cur} will play first · goal {goal}"
        # the engine's turn_no counts the player turns begun, this one included
        # who is to play is the view's "... must decide" line: said once (issue 38, case 8)
        return f"Turn {game.turn_no} · goal {goal}"

    # ----- updating ---------------------------------------------------------------------
    #: where a space's tokens may stand, as the direction from its centre: the first is
    #: the side away from its label (:meth:`_token_side`), the others when a name is there
    TOKEN_SIDES = {"up": (0, 1), "down": (0, -1), "right": (1, 0), "left": (-1, 0)}
    #: the side opposite each (tried second)
    OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}

    #: board units between the centres of two tokens side by side: their 18 px discs and
    #: 2 px outlines apart at the board's 38.5 px a unit (0.42 drew them 1.8 px on one
    #: another: the tester's F10, three pawns at the Bank at the start)
    TOKEN_GAP = 0.52
    #: board units between a row of 4 tokens and the row behind it (5-8 on a space) before
    #: the names are placed; after, a disc and 1 px at the scale they were placed at
    #: (:meth:`_row_gap`; 0.36 drew them 4 px on one another: the second tester, 8 players
    #: at the Bank at the start)
    ROW_GAP = 0.48

    def _row_gap(self) -> float:
        """Board units from a row of tokens to the row behind it: a disc and 1 px apart."""
        scale = getattr(self, "_label_scale", None)
        return (self.zoomed(18) + 1) / scale if scale else self.ROW_GAP * self.text_zoom

    def _token_side(self, xy) -> str:
        """The side of the space at ``xy`` its tokens take first: away from its label
        (labels go outside the side columns, below the top row and the inside spaces, above
        the bottom row: :meth:`_label_sides`)."""
        x, y = xy
        if 0 < y < 10 and (x <= 0 or x >= 10):  # side column: tokens inwards
            return "right" if x <= 0 else "left"
        if self.text_zoom > 1 and xy == self._xy("min"):
            return "row right"  # its name above it, the bottom row's tokens under it
        return "down" if y <= 0 and self.text_zoom == 1 else "up"

    #: the shapes a space's tokens may stand in (:meth:`_token_offset`), tried in this order:
    #: a row along the side (up to 4, then a second row), a column going away from the
    #: space (two side by side from 5 tokens: narrower than the gap to the next space), a
    #: block of two rows
    SHAPES = ("row", "column", "block")
    #: how much further out (times the text zoom, board units) a shape may stand, tried in
    #: this order, when it covers a name where it stands first
    FURTHER = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25)

    def _token_offset(self, xy, k: int, n: int, side: str | None = None, shape: str = "row",
                      further: float = 0.0, squeeze: bool = False) -> tuple[float, float]:  # fmt: skip
        """Offset (board units) of the ``k``-th of ``n`` tokens on the space at ``xy``:
        :data:`TOKEN_GAP` apart (discs side by side, not on one another; 0.42, their discs
        touching by under 2 px but their letters clear, from 5 tokens or when ``squeeze``), on ``side`` of the space (one of
        :data:`TOKEN_SIDES`, or ``"row right"``: a row going right from its right side), in
        ``shape`` (:data:`SHAPES`: "row", a row of up to 4 along the side, then a second row;
        "column", going away from the space, two columns from 5 tokens; "block", two rows),
        ``further`` times the text zoom further out. By default (``side`` None) the first
        layout whose ``n`` tokens touch no name on the board (:meth:`_free_layout`: issue
        38, a token letter over a name at a late position)."""
        if side is None:
            side, shape, further, squeeze = self._free_layout(xy, n)
        z = self.text_zoom  # tokens drawn larger with the board's text
        near = 0.42 * z + further * z
        gap = (0.42 if squeeze or n > 4 else self.TOKEN_GAP) * z
        if side == "row right":
            if shape == "row":
                return near + gap * (k % 4), (k // 4) * self._row_gap()
            cols = 2 if n > 4 else 1
            return near + gap * (k // cols), ((k % cols) - (cols - 1) / 2) * gap
        if shape == "column":
            cols = 2 if n > 4 else 1
            along = ((k % cols) - (cols - 1) / 2) * gap
            away = near + (k // cols) * gap
        elif shape == "block":
            per = (n + 1) // 2
            along = ((k % per) - (per - 1) / 2) * gap
            away = near + (k // per) * gap
        else:
            along = ((k % 4) - (min(n, 4) - 1) / 2) * gap
            if side == "left" and xy[1] in (1, 9) and xy[0] == 10:
                # next to a corner: the column goes away from it (the corner's names have room)
                along = (k % 4 + 0.5) * gap * (1 if xy[1] == 1 else -1)
            away = near + (k // 4) * self._row_gap()
        ux, uy = self.TOKEN_SIDES[side]
        return ux * away + abs(uy) * along, uy * away + abs(ux) * along

    def _layouts(self, xy):
        """Every ``(side, shape, further)`` the tokens of the space at ``xy`` may stand in,
        best first: :meth:`_token_side` first, then the opposite side, then the other two;
        on each, the shapes of :data:`SHAPES` at each step of :data:`FURTHER`; all of these
        with the tokens a disc apart first, then squeezed (``squeeze``: the fourth item)."""
        first = self._token_side(xy)
        opposite = self.OPPOSITE.get(first, "left")
        sides = [first, opposite] + [s for s in self.TOKEN_SIDES if s not in (first, opposite)]
        return [(side, shape, f, sq) for sq in (False, True) for f in self.FURTHER
                for side in sides for shape in self.SHAPES]  # fmt: skip

    def _free_layout(self, xy, n: int, taken=(), squeezed=False) -> tuple[str, str, float, bool]:
        """The first of :meth:`_layouts` (``squeezed``: of its squeezed ones only) where ``n``
        tokens on the space at ``xy`` touch no name written on the board (the labels as
        placed at this zoom, their boxes by :func:`~.base.text_box`) and no token in
        ``taken`` (the centres of the tokens already placed on other spaces, board units);
        when none is clear, the one that covers least (names first)."""
        key = (xy, n, self.text_zoom)
        cache = self.__dict__.setdefault("_free_sides", {})
        if key not in cache:
            cache[key] = [(self._on_names(xy, n, *lay), lay) for lay in self._layouts(xy)]
        scored = cache[key]
        best = None
        for names, lay in scored:
            if squeezed and not lay[3]:
                continue
            score = (names, self._on_tokens(xy, n, lay, taken) if taken else 0)
            if score == (0, 0):
                return lay
            if best is None or score < best[0]:
                best = (score, lay)
        return best[1]

    def _on_tokens(self, xy, n: int, layout, taken) -> int:
        """How many of ``n`` tokens on the space at ``xy`` in ``layout`` touch a token of
        ``taken`` (centres, board units): closer than a disc's width less 2 px."""
        d = (self.zoomed(18) - 2) / self._label_scale
        hits = 0
        for k in range(n):
            dx, dy = self._token_offset(xy, k, n, *layout)
            tx, ty = xy[0] + dx, xy[1] + dy
            hits += any((tx - x) ** 2 + (ty - y) ** 2 < d * d for x, y in taken)
        return hits

    def _on_names(self, xy, n: int, side: str, shape: str = "row", further: float = 0.0,
                  squeeze: bool = False):  # fmt: skip
        """How much (board units squared) ``n`` tokens on ``side`` of the space at ``xy``, in
        ``shape`` and ``further`` out (:meth:`_token_offset`), cover the names placed by
        :meth:`_labels` (0: none)."""
        r = self.zoomed(18) / 2 / self._label_scale
        lo, hi = self.AXIS_RANGE
        # (only the names near the space: no token stands 4 units from it)
        near = [b for b in self._name_boxes
                if b[0] - 4 < xy[0] < b[2] + 4 and b[1] - 4 < xy[1] < b[3] + 4]  # fmt: skip
        covered = 0.0
        for k in range(n):
            dx, dy = self._token_offset(xy, k, n, side, shape, further, squeeze)
            tx, ty = xy[0] + dx, xy[1] + dy
            if not (lo + r <= tx <= hi - r and lo + r <= ty <= hi - r):
                covered += 1.0  # off the board's drawn range: not seen at all
            for x0, y0, x1, y1 in near:
                w, h = min(tx + r, x1) - max(tx - r, x0), min(ty + r, y1) - max(ty - r, y0)
                covered += w * h if w > 0 and h > 0 else 0.0
        return covered

    def _tokens(self, game):
        xs, ys, colors, text, hover = [], [], [], [], []
        here: dict[str, list[int]] = {}
        for seat, sid in enumerate(game.pos):
            if not game.out[seat]:
                here.setdefault(sid, []).append(seat)
        # the fullest spaces first (they need the most room), each clear of the names and of
        # the tokens already placed on the spaces next to it (issue 38: 4-8 players); if the
        # discs a disc apart leave a later space no clear room, every space squeezed
        for squeezed in (False, True):
            taken: list[tuple[float, float]] = []
            at: dict[int, tuple[float, float]] = {}
            clear = True
            for sid in sorted(here, key=lambda s: (-len(here[s]), self.d.order.index(s))):
                xy, seats = self._xy(sid), here[sid]
                layout = self._free_layout(xy, len(seats), taken, squeezed)
                clear = clear and not (taken and self._on_tokens(xy, len(seats), layout, taken))
                for k, seat in enumerate(seats):
                    dx, dy = self._token_offset(xy, k, len(seats), *layout)
                    at[seat] = (xy[0] + dx, xy[1] + dy)
                taken += [at[seat] for seat in seats]
            if clear:
                break
        for seat, sid in enumerate(game.pos):
            if game.out[seat]:
                continue
            xs.append(at[seat][0])
            ys.append(at[seat][1])
            colors.append(player_color(seat))
            text.append(plot_text(token_letters(game.players)[seat]))
            where = plot_text(self.d.spaces[sid]["name"])
            held = (
                f"<br>misses {counted(game.missed[seat], 'more turn')}" if game.missed[seat] else ""
            )
            hover.append(f"<b>{plot_text(game.players[seat])}</b> at {where}<br>cash "
                         f"{money(game.cash(seat))}{held}")  # fmt: skip
        return xs, ys, colors, text, hover

    def update(self, game, events) -> None:
        self.game = game
        self.d = game.data
        xs, ys, colors, text, hover = self._tokens(game)
        path = None
        for e in events:
            if e.kind == "moved" and e.data.get("path"):
                path = e.data["path"]
        with self.figure.batch_update():
            tokens = self.figure.data[self.TOKENS]
            tokens.x, tokens.y, tokens.text, tokens.hovertext = xs, ys, text, hover
            tokens.marker.color = colors
            tokens.textfont.color = [ink_on(c) for c in colors]
            if path is not None:
                self.figure.data[self.PATH].x = [self._xy(s)[0] for s in path]
                self.figure.data[self.PATH].y = [self._xy(s)[1] for s in path]
            self.figure.layout.title.text = plot_text(
                self.status(game)
                if not game.over
                else f"Game over: {' and '.join(game.winner_names) or 'nobody'} won"
            )

    def _hidden_advantage(self, game, event) -> bool:
        """True when ``event`` draws an Advantage card that this screen may not name: the
        others' Advantage cards are counted, not named (the engine's observation; issue 35,
        case 4)."""
        if event.kind != "drew" or event.data.get("deck") != "temptation":
            return False
        card = game.data.cards.get(event.data.get("card"), {})
        return card.get("kind") == "advantage" and not self.shows_hidden(event.data.get("seat"))

    def event_text(self, game, event) -> str:
        """The engine's text, in plain words: an Advantage card another seat drew is not
        named; a transfer (``"paid"``) and a score-pad entry (``"score_pad"``) are said from
        their event data as a player says them ("Ann gets $150,000 (Oil Gusher)." rather than
        the ledger's "bank paid $150,000 to Ann (Oil Gusher)"; issue 38, case 8). What the
        money was for is the engine's own words (the last brackets of its text)."""
        if self._hidden_advantage(game, event):
            seat = event.data["seat"]
            return f"{game.players[seat]} drew an Advantage card (kept hidden until played)."
        if event.kind == "paid":
            return paid_words(event.data, _reason(event.text))
        if event.kind == "score_pad" and isinstance(event.data.get("seat"), int):
            d = event.data
            return (f"{game.players[d['seat']]}'s bank account now holds {money(d['new'])} "
                    f"(was {money(d['old'])}).")  # fmt: skip
        return event.text
