"""The Money Run board widget: :class:`moneynb.figures.money_run.Board` (the board's figure,
see that module) in the view, with the clicks on the board, the bag's panel and the turn's
panel ("End turn", "Undo last action")."""

from __future__ import annotations

import ipywidgets as widgets

from ....core.words import counted
from ....figures.money_run import *  # noqa: F403 - the drawing's names, kept importable here
from ....figures.money_run import RING_GAP, TABLE_Y, table_x
from ....figures.money_run import Board as Drawing
from ...a11y import token_html
from ...panels import button, chosen_words, space_panel
from ..base import BoardRenderer, player_color, plot_text


class Board(Drawing, BoardRenderer):
    """The Money Run board widget (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        for i in range(6):
            self.clickable(i)
        self.info = widgets.HTML()
        self.info.add_class("moneynb-mr-info")
        self._refresh_info(game)

    def update(self, game, events) -> None:
        super().update(game, events)
        self._refresh_info(game)

    def describe(self, game) -> dict[str, list[tuple]]:
        """The base's text, with the squares the board highlights said as the action list
        says them ("the square 1 above your pawn", "Move your pawn 1 up"), never as grid
        coordinates (issue 38: "square 4,6")."""
        out = super().describe(game)
        d = game.decision
        targets, _ring = self._targets(d)
        if d is not None and d.tag == "action":  # the picked pawn's squares: its moves
            out["Choices on the board"] = [(d.label(("pawn", x, y)),) for x, y in targets]
        else:
            out["Choices on the board"] = [(d.label(t),) for t in targets]
        return out

    def highlight(self, decision) -> None:
        """Ring legal target squares (after a pick), and ring the picked coin or pawn."""
        targets, ring = self._targets(decision)
        with self.figure.batch_update():
            t = self.figure.data[2]
            t.x = [p[0] for p in targets]
            t.y = [p[1] for p in targets]
            t.customdata = [list(p) for p in targets]
            r = self.figure.data[5]
            r.x = [table_x(p[0]) if p[1] == TABLE_Y else p[0] for p in ring]  # a slot's x
            r.y = [p[1] for p in ring]
            # a table coin's ring hugs the coin: its name is written just under it (issue 38:
            # the 40 px ring crossed "puny")
            table = self.game.table
            r.marker.size = [
                self.table_coin_px(table[p[0]]) + RING_GAP
                if p[1] == TABLE_Y and p[0] < len(table)
                else 40
                for p in ring
            ]
            r.customdata = [
                [p[0], round(p[1])] if p[1] != TABLE_Y else ["table", p[0]] for p in ring
            ]

    # ----- clicks -----------------------------------------------------------------------
    def click(self, point) -> bool:
        """Handle a click on board point ``point`` (``(x, y)`` or ``("table", i)``): pick a
        table coin, a stack top or your pawn, or the target of the picked one. Returns True
        if the click did something."""
        g, d = self.game, self.game.decision
        if self.pick is None or d is None:
            return False
        if isinstance(point, tuple) and len(point) == 2 and point[0] == "table":
            action = ("place", point[1])
            if d.tag == "action" and d.allows(action):
                self.pawn_selected = False
                self.pick(action)
                return True
            if d.tag in ("place", "move_coin") and type(point[1]) is int:
                return self._change_pick(action)
            return False
        if not (isinstance(point, tuple) and len(point) == 2):
            return False
        x, y = point
        if d.tag in ("place", "move_coin"):
            if d.allows((x, y)):
                self.pick((x, y))
                return True
            if type(x) is int and type(y) is int and 0 <= x < g.size and 0 <= y < g.size:
                if g.stacks[g.sq(x, y)] and g.pawns[d.player] != g.sq(x, y):
                    return self._change_pick(("coin", x, y))  # another stack's top coin
                if self._mine(d):
                    self._say(f"The {g.selected_coin()} coin can't go there: click a "
                              "highlighted square.")  # fmt: skip
            return False
        if (0 <= x < g.size and 0 <= y < g.size) and g.pawns[d.player] == g.sq(x, y):
            self.pawn_selected = not self.pawn_selected
            self.highlight(d)
            return True
        if self.pawn_selected and d.allows(("pawn", x, y)):
            self.pawn_selected = False
            self.pick(("pawn", x, y))
            return True
        if d.allows(("coin", x, y)):
            self.pawn_selected = False
            self.pick(("coin", x, y))
            return True
        on_board = type(x) is int and type(y) is int and 0 <= x < g.size and 0 <= y < g.size
        if d.tag == "action" and self._mine(d):  # a click that does nothing says why
            self._say(
                "Your pawn can't go there: click a highlighted square, or your pawn again to "
                "let it go."
                if self.pawn_selected
                else "That coin can't be moved now: click another coin, or your pawn."
                if on_board and g.stacks[g.sq(x, y)]
                else "Nothing to pick there: click a coin (on the table or a stack's top), "
                "or your pawn."
            )
        return False

    def _mine(self, decision) -> bool:
        """True when ``decision`` is for a person at this screen (not another person's at a
        shared table): only they are told why a click did nothing."""
        view = getattr(self.pick, "__self__", None)
        return view is None or decision.player in getattr(view, "screen_seats", {decision.player})

    def _say(self, text: str) -> None:
        if self.notice is not None:
            self.notice(text)

    def _change_pick(self, action) -> bool:
        """A coin clicked while another is picked (the decision asks where the picked one
        goes): ``action`` (``("place", i)`` a table coin, ``("coin", x, y)`` a stack's top)
        becomes the pick instead, when the game would offer it once the pick is taken back
        and the pick may be taken back (the engine's undo policy, and the view's: a shared
        table takes nothing back); otherwise one sentence says why, under the prompt
        (:attr:`notice`). The coin already picked, clicked again, stays picked, and the
        sentence says what to do. Returns True when the new coin was picked (issue 38: a
        second table coin clicked did nothing and said nothing)."""
        g, d = self.game, self.game.decision
        view = getattr(self.pick, "__self__", None)  # the view whose pick this is
        if not self._mine(d):
            return False  # another person's pick (a shared table): not this screen's to change
        picked = g.selected_coin()
        if g.selected is not None and action == tuple(g.selected):
            self._say(f"The {picked} coin is picked: click a highlighted square for it.")
            return False
        last = len(g.actions) - 1  # the pick, the last action
        if view is not None and not getattr(view, "undo_allowed", True):
            why = "A move at a shared table can't be taken back"
        else:
            why = g.undo_refusal(last).rstrip(".")
        if not why:
            before = g.copy()
            before.undo_to(last)
            if not before.decision.allows(action):  # the engine would not offer that coin
                self._say(f"That coin can't be picked now: click a highlighted square for the "
                          f"{picked} coin.")  # fmt: skip
                return False
            taken = view.undo(near_panel=True) if view is not None else (g.undo_to(last) or True)
            if taken:
                self.pawn_selected = False
                self.pick(action)
                return True
            return False
        self._say(f"{why}, so the {picked} coin stays picked: click a highlighted square for it.")
        return False

    # ----- panels -----------------------------------------------------------------------
    def _refresh_info(self, game) -> None:
        bag = {name: game.bag.count(rank) for rank, name in game.coin_names.items()}
        rows = "".join(
            f"<tr><td>{plot_text(p)}{token_html(s, game.players)}</td>"
            f"<td style='color:{player_color(s)}'>&#9670;</td>"
            f"<td>{counted(game.distance(s), 'square')} to go,</td>"
            f"<td>on {counted(game.height(game.pawns[s]), 'coin')}</td></tr>"
            for s, p in enumerate(game.players)
        )
        self.info.value = (
            "<div class='moneynb-mr-bag'><b>Bag</b>: "
            + ", ".join(f"{v} {k}" for k, v in bag.items())
            + f" ({len(game.bag)} coins) · coins in play: {game.coin_count()}</div>"
            + f"<table>{rows}</table>"
        )

    def panels(self) -> list:
        return [self.info]

    def custom_panel(self, decision, submit):
        """End turn / Undo buttons and a hint (the board does the picking); every board pick
        is also in an "Action" list (``moneynb-mr-actions``) with its Go button
        (``moneynb-mr-go``), first in the panel, for the keyboard."""
        g = self.game
        # the view's submit: ``view.answer()``'s function names its view; a bound method too
        view = getattr(submit, "view", None) or getattr(submit, "__self__", None)

        def undo_action():
            # take back the last turn action (a picked coin and its square are one action)
            while g.can_undo_in_turn():
                if view is not None and hasattr(view, "undo"):
                    if not view.undo(near_panel=True):  # refused: the view says why
                        break
                else:  # a board drawn without a view (tests, a custom front end)
                    g.undo()
                if g.decision.tag == "action" and g.selected is None:
                    break

        undo = button("Undo last action", ("moneynb-mr-undo",), undo_action,
                      tooltip="take back your last action of this turn")  # fmt: skip
        # issue 38, case 7: never a button that is always refused: hidden where the view
        # takes nothing back (a shared table), off when the game's undo policy refuses it
        # (a coin already drawn from the bag) or nothing was done this turn
        if view is not None and not getattr(view, "undo_allowed", True):
            undo.layout.display = "none"
        undo.disabled = not (g.can_undo_in_turn() and g.can_undo_to(len(g.actions) - 1))
        if undo.disabled and g.can_undo_in_turn():  # the engine says why
            undo.tooltip = g.undo_refusal(len(g.actions) - 1)
        if decision.tag == "action":
            hint = widgets.HTML(
                "Click a coin (on the table or a stack's top), then a square; or your pawn (◆), "
                "then a highlighted square."
            )
            end = button("End turn", ("moneynb-mr-end",), lambda: submit("end_turn"))
            pawn_moves = [o for o in decision.options if isinstance(o, tuple) and o[0] == "pawn"]
            k = len(pawn_moves)
            hint.value += (
                f" <i>{k} pawn move{'s' * (k != 1)} possible.</i>"
                if k
                else " <i>Your pawn cannot move yet: lay coins first.</i>"
            )
            # every board pick from the keyboard too: the same actions in a list
            moves = [(decision.label(o), o) for o in decision.options if o != "end_turn"]
            texts = [t for t, _ in moves]
            moves = [
                (f"{t} ({o[1] + 1})" if o[0] == "place" and texts.count(t) > 1 else t, o)
                for t, o in moves
            ]
            rows = [widgets.HBox([end, undo])]
            if moves:
                dd = widgets.Dropdown(options=moves, value=moves[0][1], description="Action",
                                      style={"description_width": "initial"},
                                      layout=widgets.Layout(width="340px"))  # fmt: skip
                dd.add_class("moneynb-mr-actions")
                go_ = button("Go", ("moneynb-mr-go",), lambda: submit(dd.value), style="primary")
                # first: where the focus lands; the chosen action in full words under it
                rows[:0] = [widgets.HBox([dd, go_]), chosen_words(dd, narrow_only=True)]
            box = widgets.VBox([hint, *rows])
        else:
            hint = widgets.HTML("Click a highlighted square for the coin (or pick it below).")
            box = widgets.VBox([hint, widgets.HBox(space_panel(decision, g, submit)), undo])
        box.add_class("moneynb-panel")
        box.add_class("moneynb-mr-panel")
        return box
