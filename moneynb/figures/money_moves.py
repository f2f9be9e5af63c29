"""The Money Moves table: seats around an oval, the pot in the middle, the two dice, the last
card drawn and the score sheet.

Draws from the public state of :class:`moneynb.games.money_moves.rules.MoneyMoves`
(``players``, ``money()``, ``loans``, ``held``, ``out``, ``current``, ``round``,
``score_sheet``, ``last_roll``, ``last_cards``); hidden information (the deck order) is never
read. Seats are clockwise seen from above, seat 0 at the bottom, so each player's left
neighbour (seat + 1) sits to their left as they face the table.

The latest money movements are drawn as arrows (payer -> payee) over the table.
"""

from __future__ import annotations

import math
import re

import plotly.graph_objects as go

from .base import BoardDrawing, fit_in_circle, ink_on, money, player_color, plot_text

POT, BANK = "Pot", "House Bank"
RX, RY = 1.55, 0.95  # seat ellipse radii (plot units)
BANK_XY = (1.95, -1.22)
#: a seat's disc (px across) and its text's size (px): each line is cut to fit inside
SEAT_PX, SEAT_FONT = 90, 12
#: the dark edge drawn under each white money arrow (seen on white paper and on the table)
ARROW_EDGE = "#263238"
#: the most arrows drawn for one update (the rest are in the log)
MAX_ARROWS = 10
TASK_COLORS = {"7": "#c62828", "11": "#6a1b9a", "PL": "#2e7d32", "SAFE": "#1565c0",
               "RE-L": "#b45309", "RE-R": "#b45309"}  # fmt: skip


def face_words(text: str) -> str:
    """``text`` (a card's, a log line's) with the task die's lettered faces said in the
    engine's words: "Rolled PL: win the whole pot" -> "Rolled PotLuck: win the whole pot"
    (issue 38: "PL" read as nothing). Numbers (7, 11) stay: they read as numbers."""
    from ..games.money_moves.rules import TASK_NAMES

    for face, words in TASK_NAMES.items():
        if not face.isdigit():
            text = re.sub(rf"(?<![\w-]){re.escape(face)}(?![\w-])", words, text)
    return text


class Board(BoardDrawing):
    """The Money Moves table's figure (see the module docstring).

    Figure traces: 0 = table seats (clickable for "Pick a Pocket"), 1 = the pot, 2 = the
    House Bank, 3 = the ring round whose turn it is, 4 = rings round the players that may be
    picked. The board widget (:mod:`moneynb.ui.boards.money_moves`) adds the panels: the dice (:class:`DiceWidget`), the last card (:class:`CardWidget`) and
    the score sheet (HTML table, class ``moneynb-score-sheet``).
    """

    height = 430

    def __init__(self, game):
        n = len(game.players)
        self.positions = [self._seat_xy(i, n) for i in range(n)]
        super().__init__(game)

    @staticmethod
    def _seat_xy(seat: int, n: int) -> tuple[float, float]:
        a = math.radians(-90 - seat * 360 / n)
        return RX * math.cos(a), RY * math.sin(a)

    def _where(self, account: str, arrow: bool = False) -> tuple[float, float]:
        """An account's point on the table; ``arrow``: where its money arrows start or end
        (the House Bank's above its square and its label, so no arrow crosses them)."""
        if account == POT:
            return (0.0, 0.0)
        if account == BANK:
            return (BANK_XY[0], BANK_XY[1] + 0.2) if arrow else BANK_XY
        name = account.split(":", 1)[1]
        return self.positions[self.game.players.index(name)]

    @staticmethod
    def _rim(account: str) -> int:
        """How far (px) from an account's point a money arrow stops: past its disc or square."""
        return {POT: 37, BANK: 0}.get(account, SEAT_PX // 2 + 2)

    # ----- building ---------------------------------------------------------------------
    def _seat_lines(self, game) -> list[list[str]]:
        """Per seat, its lines as plain text: the name, the wallet, then debts, held cards
        and "out" in one line."""
        m = game.money()
        out = []
        for i, p in enumerate(game.players):
            lines = [p, money(m[f"wallet:{p}"])]
            extra = []
            if game.loans[i]:
                extra.append(f"owes {money(game.loans[i])}")
            for c in game.held[i]:  # by the card's effect: a house-rule deck names cards freely
                effect = game.cards[c]["effect"]
                extra.append(
                    {"potluck": "♣ ", "wild": "🃏 "}.get(effect, "") + game.cards[c]["title"]
                )
            if game.out[i]:
                extra.append("out")
            if extra:
                lines.append(", ".join(extra))
            out.append(lines)
        return out

    def _seat_text(self, game) -> list[str]:
        """What each seat's disc says, every line cut to fit inside it ("Greedy bot 1" ran
        out of its disc: issue 30, case 2); the whole text is its hover (:meth:`_seat_hover`)."""
        out = []
        for lines in self._seat_lines(game):
            size = max(SEAT_FONT, self.text_px)  # larger on a board drawn small
            fit = [plot_text(t) for t in fit_in_circle(lines, SEAT_PX, size, bold_first=True)]
            out.append("<br>".join([f"<b>{fit[0]}</b>", *fit[1:]]))
        return out

    def _seat_hover(self, game) -> list[str]:
        """Each seat's lines with their words (the hover, and the "Tokens" of "Board as text"):
        "Ann", "wallet $6", "holds ♣ PotLuck" (issue 38: "Ann; $6; ♣ PotLuck" said what the
        disc shows, not what it means)."""
        m = game.money()
        out = []
        for i, p in enumerate(game.players):
            lines = [p, f"wallet {money(m[f'wallet:{p}'])}"]
            if game.loans[i]:
                lines.append(f"owes the House Bank {money(game.loans[i])}")
            cards = [game.cards[c]["title"] for c in game.held[i]]
            if cards:
                lines.append("holds " + ", ".join(cards))
            if game.out[i]:
                lines.append("out of the game")
            out.append("<br>".join(plot_text(t) for t in lines))
        return out

    def _seat_colors(self, game) -> list[str]:
        return ["#bbbbbb" if game.out[i] else player_color(i) for i in range(len(game.players))]

    def build_data(self, game) -> list:
        xs = [p[0] for p in self.positions]
        ys = [p[1] for p in self.positions]
        m = game.money()
        turn = game.decision.player if game.decision is not None else None
        tx, ty = ([self.positions[turn][0]], [self.positions[turn][1]]) if turn is not None \
            else ([], [])  # fmt: skip
        return [
            go.Scatter(
                x=xs, y=ys, mode="markers+text", text=self._seat_text(game),
                textposition="middle center", customdata=list(range(len(xs))),
                marker=dict(size=SEAT_PX, color=self._seat_colors(game), opacity=0.9,
                            line=dict(width=2, color=self.pal["outline"])),
                textfont=dict(color=[ink_on(c) for c in self._seat_colors(game)], size=SEAT_FONT),
                hoverinfo="text", cliponaxis=False,
                hovertext=self._seat_hover(game), name="seats",
            ),
            go.Scatter(
                x=[0], y=[0], mode="markers+text", text=[f"<b>Pot</b><br>{money(m[POT])}"],
                marker=dict(size=70, color="#f9a825", line=dict(width=3, color="#8d6e00")),
                textfont=dict(size=15, color="black"), hoverinfo="skip", name="pot",
            ),
            # its name and balance are a note (see _bank_note), drawn over the money arrows
            go.Scatter(
                x=[BANK_XY[0]], y=[BANK_XY[1]], mode="markers",
                marker=dict(size=22, symbol="square", color="#546e7a"),
                hoverinfo="skip", name="bank",
            ),
            go.Scatter(
                x=tx, y=ty, mode="markers", hoverinfo="skip", name="turn",
                marker=dict(size=SEAT_PX + 18, symbol="circle-open", color="#ffd600",
                            line=dict(width=5, color="#ffd600")),
            ),
            go.Scatter(
                x=[], y=[], mode="markers", hoverinfo="skip", name="targets",
                marker=dict(size=SEAT_PX + 26, symbol="circle-open-dot",
                            line=dict(width=3, color="#00e5ff")),
            ),
        ]  # fmt: skip

    def build_layout(self, game) -> dict:
        axis = dict(visible=False, range=[-2.3, 2.3], fixedrange=True)
        return dict(
            height=self.height,
            margin=dict(l=5, r=5, t=36, b=5),
            title=dict(text=plot_text(self.status(game)), x=0.5, font=dict(size=14)),
            showlegend=False,
            plot_bgcolor=self.pal["plot"],
            paper_bgcolor=self.pal["paper"],
            xaxis=axis,
            yaxis=dict(axis, range=[-1.45, 1.45], scaleanchor="x"),
            shapes=[
                dict(
                    type="circle",
                    xref="x",
                    yref="y",
                    x0=-1.25,
                    x1=1.25,
                    y0=-0.7,
                    y1=0.7,
                    fillcolor="#2e7d32",
                    opacity=0.85,
                    layer="below",
                    line=dict(color="#5d4037", width=8),
                )
            ],  # fmt: skip
            annotations=[self._bank_note(game)],
            clickmode="event",
            dragmode=False,
        )

    def _bank_note(self, game) -> dict:
        """The House Bank's name and balance left of its square, as a note on the paper's
        colour drawn after the money arrows: an arrow from the bank passes under it (a white
        arrow drawn over the text made it look written twice; issue 38)."""
        return dict(
            x=BANK_XY[0] - 0.12, y=BANK_XY[1], xref="x", yref="y", xanchor="right",
            text=f"House Bank<br>{money(game.money()[BANK])}", showarrow=False, align="right",
            bgcolor=self.pal["paper"], borderpad=1, name="bank",
            font=dict(size=max(11, self.text_px), color=self.pal["muted"]),
        )  # fmt: skip

    def event_text(self, game, event) -> str:
        """The engine's text, with a roll's task die said in words only ("Ann rolled 4 on the
        money die and Receive from the right on the task die." rather than "Ann rolled 4 and
        RE-R (Receive from the right)."; issue 38: the face codes read as nothing). The
        words are the engine's (``TASK_NAMES``); the face stays on the die drawn. A pocket
        picked is said from the player who picked it."""
        from ..games.money_moves.rules import TASK_NAMES

        d = event.data
        seat, task = d.get("seat"), d.get("task")
        if event.kind == "rolled" and task in TASK_NAMES and isinstance(seat, int):
            return (
                f"{game.players[seat]} rolled {d.get('money')} on the money die and "
                f"{TASK_NAMES[task]} on the task die."
            )
        # a pocket picked: said from the picker, who made the move ("Greedy bot 2 picked a
        # pocket: took $1 from Greedy bot 1." where the ledger says "Greedy bot 1 paid $1 to
        # Greedy bot 2 (Pick a Pocket)", read after "Greedy bot 2's move:"; issue 38)
        src, dst = str(d.get("src", "")), str(d.get("dst", ""))
        if (event.kind == "paid" and re.search(r"\(Pick a Pocket\)\.?\s*$", event.text or "")
                and src.startswith("wallet:") and dst.startswith("wallet:")):  # fmt: skip
            return (f"{dst.split(':', 1)[1]} picked a pocket: took ${d.get('amount')} from "
                    f"{src.split(':', 1)[1]}.")  # fmt: skip
        return face_words(event.text)

    def status(self, game) -> str:
        text = f"Round {game.round} of {game.options['rounds']}"
        if game.opening is not None:
            text += " · opening roll"
        return text + f" · {len(game.deck)} cards in the deck"

    # ----- updating ---------------------------------------------------------------------
    def update(self, game, events) -> None:
        self.game = game
        m = game.money()
        turn = game.decision.player if game.decision is not None else None
        arrows = []
        for ev in [e for e in events if e.kind == "paid"][-MAX_ARROWS:]:
            try:
                (x0, y0), (x1, y1) = (self._where(ev.data[k], arrow=True) for k in ("src", "dst"))
            except (KeyError, ValueError):
                continue
            # from rim to rim, not over any disc's text; a line that would cross the pot's
            # amount passes beside it (issue 30, case 2)
            dx, dy = x1 - x0, y1 - y0
            length = math.hypot(dx, dy) or 1.0
            if (
                POT not in (ev.data["src"], ev.data["dst"])
                and abs(x0 * dy - y0 * dx) / length < 0.25
            ):
                nx, ny = -dy / length * 0.3, dx / length * 0.3
                x0, y0, x1, y1 = x0 + nx, y0 + ny, x1 + nx, y1 + ny
            # white on the green table, with a dark edge under it: a white arrow alone
            # vanished on the white paper round the table (the House Bank's; issue 38)
            for color, width, size in (
                (ARROW_EDGE, 5.5, 1.0),
                ("rgba(255,255,255,0.95)", 2.5, 1.3),
            ):
                arrows.append(dict(
                    x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y",
                    axref="x", ayref="y", showarrow=True, arrowhead=3,
                    arrowsize=size, arrowwidth=width, arrowcolor=color, text="",
                    standoff=self._rim(ev.data["dst"]), startstandoff=self._rim(ev.data["src"]),
                ))  # fmt: skip
        with self.figure.batch_update():
            seats = self.figure.data[0]
            seats.text = self._seat_text(game)
            seats.hovertext = self._seat_hover(game)
            seats.marker.color = self._seat_colors(game)
            # dark text on a light seat (a grey seat that is out, an orange one...)
            seats.textfont.color = [ink_on(c) for c in self._seat_colors(game)]
            self.figure.data[1].text = [f"<b>Pot</b><br>{money(m[POT])}"]
            arrows.append(self._bank_note(game))  # last: over the arrows
            ring = self.figure.data[3]
            if turn is None:
                ring.x, ring.y = [], []
            else:
                ring.x, ring.y = [self.positions[turn][0]], [self.positions[turn][1]]
            self.figure.layout.title.text = plot_text(
                self.status(game)
                if not game.over
                else f"Game over: {' and '.join(game.winner_names)} won"  # fmt: skip
            )
            self.figure.layout.annotations = arrows
