"""The Money Run board: a 9x9 grid of coin stacks, the pawns, the goal edges and the table.

Draws from the public state of :class:`moneynb.games.money_run.rules.MoneyRun` (``stacks``,
``pawns``, ``goals``, ``table``, ``bag`` counts, ``turn``, ``actions_left``, ``selected``);
the bag's next coin is never read (the engine does not even keep an order).

Clicks (all on the board):

* a table coin, then a highlighted square: place it;
* the top of a stack, then a highlighted square: move that coin;
* your own pawn (it gets a ring and its reachable squares light up), then one of them: move.

Below the board the panel has "End turn" and "Undo last action" (undo only within the current
turn: it never takes back another player's move).
"""

from __future__ import annotations

import plotly.graph_objects as go

from ..core.words import counted
from .base import BoardDrawing, player_color, player_ink, plot_text, token_letters

#: marker size (px) and colour of a coin by rank (1 puny .. 4 large)
COIN_SIZE = {1: 13, 2: 19, 3: 25, 4: 31}
COIN_COLOR = {1: "#b87333", 2: "#c9c9c9", 3: "#e0b84a", 4: "#8f6b2e"}
#: square colour by stack height (0, 1, 2, ... the last repeats)
HEIGHT_COLOR = ("#f7f3e8", "#efe2b8", "#e3cd86", "#d4b55a", "#bf9a36", "#a37d20", "#86630f")
TABLE_Y = -1.35
#: board units between two table coins: their names ("small", "medium") kept apart at the
#: largest text zoom (1 unit left "smallmedium" touching at zoom 1.5)
TABLE_DX = 1.4


def table_x(slot: int) -> float:
    """The board x (units) of table slot ``slot`` (0-based), the y being :data:`TABLE_Y`."""
    return slot * TABLE_DX


#: px a picked table coin's ring is larger than the coin (its 3 px line just outside the
#: coin's edge, clear of the name under the coin)
RING_GAP = 7


def stack_words(game, stack) -> str:
    """A square's coins in words, bottom to top: ``"1 coin: puny"``, ``"A stack of 2 coins,
    bottom to top: medium, puny"`` (``stack``: coin ranks, bottom first)."""
    names = [game.coin_names[c] for c in stack]
    if len(names) == 1:
        return f"1 coin: {names[0]}"
    return f"A stack of {len(names)} coins, bottom to top: {', '.join(names)}"


def table_slot_words(i: int, n: int) -> str:
    """Table coin ``i`` (0-based) of ``n`` as the action list says it: ``"Table slot 2 of 5"``
    (counted from the left, as drawn)."""
    return f"Table slot {i + 1} of {n}"


def _height_color(h: int) -> str:
    return HEIGHT_COLOR[min(h, len(HEIGHT_COLOR) - 1)]


#: a pawn stands in its square's upper left corner (board units): the number of coins in the
#: stack under it stays clear of it (at 0.24 its edge covered the number: issue 30, case 2)
PAWN_DX, PAWN_DY = -0.34, 0.34


class Board(BoardDrawing):
    """The Money Run board's figure (see the module docstring; the clicks and the panel are
    the board widget's, :mod:`moneynb.ui.boards.money_run`).

    Figure traces (all clickable, ``customdata`` ``[x, y]`` or ``["table", i]``):
    0 = squares (coloured by stack height), 1 = top coins (size/colour by coin, text = stack
    height), 2 = highlighted legal targets, 3 = pawns, 4 = table coins, 5 = ring round the
    picked coin or pawn. Traces are named (squares, coins, targets, pawns, table, picked): in
    the page, find a trace's group through ``gd.data[i].name`` and ``.trace<uid>`` (plotly leaves
    empty traces out of the page, so the groups' order there is not fixed).
    """

    height = 600
    #: the Coach's heat map tints the spaces (trace 0): a disc would hide their text
    HEAT_TILES = 0

    def __init__(self, game):
        self.pawn_selected = False
        super().__init__(game)

    # ----- building ---------------------------------------------------------------------
    def _squares(self, game) -> dict:
        n = game.size
        xs = [i % n for i in range(n * n)]
        ys = [i // n for i in range(n * n)]
        heights = [len(s) for s in game.stacks]
        return dict(
            x=xs,
            y=ys,
            customdata=[[x, y] for x, y in zip(xs, ys, strict=True)],
            marker=dict(
                symbol="square",
                size=44,
                color=[_height_color(h) for h in heights],
                line=dict(color="#9a8f70", width=1),
            ),
            # words, never grid coordinates (issue 38): what stands on the square
            hovertext=[
                plot_text(stack_words(game, game.stacks[i])) if h else "An empty square"
                for i, h in enumerate(heights)
            ],
        )

    def _coins(self, game) -> dict:
        n = game.size
        idx = [i for i, s in enumerate(game.stacks) if s]
        return dict(
            x=[i % n for i in idx],
            y=[i // n for i in idx],
            customdata=[[i % n, i // n] for i in idx],
            # the stack's height; a board drawn small leaves out the 1s (the hover says it)
            text=[
                "" if self.text_zoom > 1 and len(game.stacks[i]) == 1 else str(len(game.stacks[i]))
                for i in idx
            ],
            marker=dict(
                # a coin holds its stack's height: larger with the board's text, inside its square
                size=[min(42, self.zoomed(COIN_SIZE.get(game.stacks[i][-1], 31))) for i in idx],
                color=[COIN_COLOR.get(game.stacks[i][-1], "#777") for i in idx],
                line=dict(color="#5a4a20", width=1.5),
            ),
            hovertext=[plot_text(stack_words(game, game.stacks[i])) for i in idx],
        )

    def _pawns(self, game) -> dict:
        xy = [game.xy(p) for p in game.pawns]
        return dict(
            x=[x + PAWN_DX for x, _ in xy],
            y=[y + PAWN_DY for _, y in xy],
            customdata=[[x, y] for x, y in xy],
            text=[plot_text(t) for t in token_letters(game.players)],
            marker=dict(
                symbol="diamond",
                size=min(26, self.zoomed(22)),
                color=[player_color(s) for s in range(len(game.players))],
                line=dict(color="black", width=2),
            ),
            # the pawn table's words (issue 38: "8 to go, height 0")
            hovertext=[
                f"{plot_text(p)}'s pawn: {counted(game.distance(s), 'square')} to go, "
                f"{game.standing_words(game.height(game.pawns[s]))}"
                for s, p in enumerate(game.players)
            ],
        )

    def table_coin_px(self, coin: int) -> float:
        """The size (px) of a table coin of rank ``coin`` as drawn (larger with the text)."""
        return min(44, self.zoomed(COIN_SIZE.get(coin, 31) + 6))

    def _table(self, game) -> dict:
        k = len(game.table)
        return dict(
            x=[table_x(i) for i in range(k)],
            y=[TABLE_Y] * k,
            customdata=[["table", i] for i in range(k)],
            text=[plot_text(game.coin_names[c]) for c in game.table],
            marker=dict(
                size=[self.table_coin_px(c) for c in game.table],
                color=[COIN_COLOR.get(c, "#777") for c in game.table],
                line=dict(color="#5a4a20", width=1.5),
            ),
            hovertext=[
                f"{table_slot_words(i, k)}: a {plot_text(game.coin_names[c])} coin"
                for i, c in enumerate(game.table)
            ],
        )

    def build_data(self, game) -> list:
        common = dict(mode="markers", hoverinfo="text")
        return [
            go.Scatter(name="squares", **common, **self._squares(game)),
            go.Scatter(
                name="coins",
                mode="markers+text",
                hoverinfo="text",
                textfont=dict(size=11, color="black"),
                **self._coins(game),
            ),
            go.Scatter(
                name="targets",
                **common,
                x=[],
                y=[],
                customdata=[],
                marker=dict(symbol="square-open", size=42, color="#1b9e3a", line=dict(width=3)),
            ),
            go.Scatter(
                name="pawns",
                mode="markers+text",
                hoverinfo="text",
                # white or near-black, whichever reads on the pawn's colour
                textfont=dict(size=10, color=[player_ink(s) for s in range(len(game.players))]),
                **self._pawns(game),
            ),
            go.Scatter(
                name="table",
                mode="markers+text",
                hoverinfo="text",
                textposition="bottom center",
                textfont=dict(size=10),
                # a coin's name under it may reach past the plot's bottom into the margin: at
                # text zoom 1.35 and 1.5 "large" and "medium" lost their lowest pixels (their
                # "g") where the plot clips its traces (Lab at 1024x700, file browser open)
                cliponaxis=False,
                **self._table(game),
            ),
            go.Scatter(
                name="picked",
                **common,
                x=[],
                y=[],
                customdata=[],
                marker=dict(symbol="circle-open", size=40, color="black", line=dict(width=3)),
            ),
        ]

    def build_layout(self, game) -> dict:
        n = game.size
        shapes = []
        for s, (axis, line) in enumerate(game.goals):
            off = 0.58 if line == n - 1 else -0.58
            if axis == "y":
                x0, x1, y0, y1 = -0.5, n - 0.5, line + off, line + off
            else:
                x0, x1, y0, y1 = line + off, line + off, -0.5, n - 0.5
            shapes.append(
                dict(type="line", x0=x0, x1=x1, y0=y0, y1=y1,
                     line=dict(color=player_color(s), width=6))
            )  # fmt: skip
        return dict(
            height=self.height,
            margin=dict(l=10, r=10, t=40, b=10),
            title=dict(text="Money Run: each pawn races to the edge of its colour", x=0.5),
            showlegend=False,
            plot_bgcolor=self.pal["plot"],
            paper_bgcolor=self.pal["paper"],
            hovermode="closest",
            clickmode="event",
            xaxis=dict(range=[-0.8, n - 0.2], visible=False, fixedrange=True),
            yaxis=dict(range=[TABLE_Y - 0.8, n - 0.2], visible=False, fixedrange=True,
                       scaleanchor="x", scaleratio=1),
            shapes=shapes,
            annotations=[
                dict(x=table_x(len(game.table) - 1) + 0.7, y=TABLE_Y, text="← the table", showarrow=False,
                     xanchor="left", font=dict(size=12))
            ],
        )  # fmt: skip

    # ----- updating ---------------------------------------------------------------------
    def update(self, game, events) -> None:
        """Redraw squares, coins, pawns and the table for ``game``."""
        self.game = game
        if game.decision is None or game.decision.tag != "action":
            self.pawn_selected = False
        with self.figure.batch_update():
            for i, part in (
                (0, self._squares),
                (1, self._coins),
                (3, self._pawns),
                (4, self._table),
            ):
                tr = self.figure.data[i]
                for key, value in part(game).items():
                    tr[key] = value

    def score_text(self, score: int) -> str:
        """Money Run's score is progress, not dollars: rows advanced toward the goal."""
        return f"{score} of {self.game.size - 1} rows to the goal"

    def status(self, game) -> str:
        if game.over:
            return f"Round {game.round}"
        return (
            f"Round {game.round} of at most {game.options['max_rounds']} · "
            f"{game.players[game.turn]}: {counted(game.actions_left, 'action')} left · "
            f"{len(game.bag)} coins in the bag"
        )

    def spaces_in_play(self, game) -> list[tuple]:
        """Rows ``(where, what)``: every square holding coins, said from the pawn of the player
        deciding (the first player's once the game is over) as the log and the action list
        say squares ("the square 1 above Ann's pawn": :meth:`MoneyRun.square_said`), with its
        coins bottom to top; then the coins on the table by slot ("table slot 2 of 5"), as
        the action list counts them. Words, never grid coordinates (issue 38: "square 4,6")."""
        d = game.decision
        seat = d.player if d is not None else 0
        rows = []
        for sq, stack in enumerate(game.stacks):
            if stack:
                where = game.square_said(seat, *game.xy(sq))  # a name keeps its spelling
                where = "The" + where[3:] if where.startswith("the ") else where
                rows.append((where, stack_words(game, stack)))
        for i, c in enumerate(game.table):
            rows.append((table_slot_words(i, len(game.table)), f"a {game.coin_names[c]} coin"))
        return rows

    def _targets(self, decision) -> tuple[list, list]:
        """Squares to highlight and the square/table coin to ring for ``decision``."""
        g = self.game
        if decision is None:
            return [], []
        if decision.tag in ("place", "move_coin"):
            sel = g.selected
            ring = [(sel[1], TABLE_Y)] if sel[0] == "place" else [(sel[1], sel[2])]
            return list(decision.options), ring
        if self.pawn_selected:
            x, y = g.xy(g.pawns[decision.player])
            tg = [o[1:] for o in decision.options if isinstance(o, tuple) and o[0] == "pawn"]
            return tg, [(x + PAWN_DX, y + PAWN_DY)]
        return [], []
