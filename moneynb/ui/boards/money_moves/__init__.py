"""The Money Moves board widget: :class:`moneynb.figures.money_moves.Board` (the table's
figure, see that module) in the view, with its panels (the dice, the last card, the score
sheet) and the clicks on the seats ("Pick a Pocket")."""

from __future__ import annotations

import ipywidgets as widgets

from ....figures.money_moves import *  # noqa: F403 - the drawing's names, kept importable here
from ....figures.money_moves import TASK_COLORS, face_words
from ....figures.money_moves import Board as Drawing
from ...a11y import seat_html
from ...cards import CardWidget
from ...dice import DiceWidget
from ..base import BoardRenderer, money, player_color


class Board(Drawing, BoardRenderer):
    """The Money Moves board widget (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        self.clickable(0)
        self.dice = DiceWidget([{"face": 1, "title": "money die"},
                                {"face": "SAFE", "title": "task die",
                                 "label": face_words("SAFE")}])  # fmt: skip
        self.card = CardWidget(kind="Task card")
        self.sheet = widgets.HTML()
        self.sheet.add_class("moneynb-score-sheet")
        self._seen_rolls = 0
        self._seen_cards = 0

    def update(self, game, events) -> None:
        super().update(game, events)
        self._update_dice(game, events)
        self._update_card(game, events)
        self.sheet.value = self._sheet_html(game)

    def _update_dice(self, game, events) -> None:
        rolls = [e for e in events if e.kind == "rolled"]
        if not rolls:
            return
        ev = rolls[-1]
        faces = [{"face": ev.data.get("money"), "title": "money die"}]
        if "task" in ev.data:
            t = ev.data["task"]
            # the face in the engine's words ("Receive from the right", not "RE-R": issue
            # 38); a number stays a number
            faces.append({"face": t, "title": "task die", "color": TASK_COLORS.get(t, "#fff"),
                          "ink": "white", "label": face_words(str(t))})  # fmt: skip
        self.dice.show(
            faces, caption=self.plain(self.event_text(game, ev)), owner=self.owner(game, ev)
        )

    def _update_card(self, game, events) -> None:
        m, shown = None, None
        for e in events:  # the money die of the roll that drew each card fills in its "$m"
            if e.kind == "rolled" and "task" in e.data:
                m = e.data["money"]
            elif e.kind == "drew":
                shown = (e.data.get("card"), m, self.owner(game, e))
        if shown is None:
            return
        card = game.cards.get(shown[0])
        if card is not None:
            amount = f"${shown[1]}" if shown[1] is not None else "$(money die)"
            self.card.show(
                card["title"], face_words(card["text"].replace("$m", amount)), owner=shown[2]
            )

    def _sheet_html(self, game) -> str:
        rounds = game.score_sheet
        head = "".join(f"<th>Round {r + 1}</th>" for r in range(len(rounds)))
        now = game.scores()  # the engine's score: the figure the sheet and the winner use
        rows = []
        for i, p in enumerate(game.players):
            cells = "".join(f"<td>{money(r.get(p, 0))}</td>" for r in rounds)
            loan = money(game.loans[i]) if game.loans[i] else ""
            rows.append(
                f"<tr><td>{seat_html(i, p, player_color(i))}</td>{cells}"
                f"<td><b>{money(now[p])}</b></td><td>{loan}</td></tr>"
            )
        return (
            "<div><b>Score sheet</b></div><table class='moneynb-score-table' "
            "style='border-collapse:collapse' cellpadding='3'>"
            f"<tr><th style='text-align:left'>Player</th>{head}<th>score now</th><th>owes</th></tr>"
            + "".join(rows)
            + "</table>"
        )

    def highlight(self, decision) -> None:
        targets = []
        if decision is not None and decision.kind == "player":
            targets = [s for s in decision.options if isinstance(s, int)]
        with self.figure.batch_update():
            t = self.figure.data[4]
            t.x = [self.positions[s][0] for s in targets]
            t.y = [self.positions[s][1] for s in targets]

    def panels(self) -> list:
        return [self.dice, self.card, self.sheet]
