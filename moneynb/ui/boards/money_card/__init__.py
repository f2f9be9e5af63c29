"""The Money Card board widget: :class:`moneynb.figures.money_card.Board` (the map's figures,
see that module) in the view, with its panels (the spinner, the last card, the keys table),
the custom decision panels and the clicks on the map's spaces."""

from __future__ import annotations

import ipywidgets as widgets

from ....core.words import counted
from ....figures.money_card import *  # noqa: F403 - the drawing's names, kept importable here
from ....figures.money_card import MC_BADGE, SPIN_COLORS
from ....figures.money_card import Board as Drawing
from ...a11y import seat_html
from ...cards import CardWidget
from ...panels import button, set_layout
from ...spinner import SpinnerWidget
from ..base import BoardRenderer, money, player_color, plot_text


class Board(Drawing, BoardRenderer):
    """The Money Card board widget (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        self.clickable(self.SPACES, self.backdrop)
        self.spinner = SpinnerWidget(
            [
                {
                    "label": "CARD" if s["money_card"] else s["label"],
                    "color": SPIN_COLORS[s["color"]],
                }
                for s in self.b.segments
            ]  # fmt: skip
        )
        self.card = CardWidget(kind="Travel card")
        self.keys_html = widgets.HTML()
        self.keys_html.add_class("moneynb-keys")
        self._update_panels(game, list(game.log))

    def update(self, game, events) -> None:
        super().update(game, events)
        self._update_panels(game, events)

    def highlight(self, decision) -> None:
        targets = []
        if decision is not None and decision.kind == "space":
            targets = [s for s in decision.options if s in self.b.spaces]
        self.set_targets(self.TARGETS, targets, [decision.label(s) for s in targets])

    def _update_panels(self, game, events) -> None:
        for e in events:
            if e.kind == "spun" and e.data.get("segment") is not None:
                self.spinner.spin(e.data["segment"], owner=self.owner(game, e))
            elif e.kind == "drew":
                card = game.board.cards[e.data["card"]]
                text = card["text"]
                # a Language card's words are its holder's secret: only the screen of the seat
                # that drew it shows them (issue 35, case 4); its effect text is public
                if "words" in card and self.shows_hidden(e.data.get("seat")):
                    text += f"\n\n{card['words']} ({card['say']}) = {card['means']}"
                self.card.show(e.data["deck"], text, kind=e.data["deck"], owner=self.owner(game, e))
        self.keys_html.value = self._keys_table(game)

    def _keys_table(self, game) -> str:
        """The players' Keys to the Cities: the cities named in full (issue 38: the table's
        heads were "Lon Cop Lis Par ...", city names cut short), one row per player."""
        b = game.board
        rows = []
        for i, p in enumerate(game.players):
            held = [plot_text(b.name(k)) for k in b.key_cities if k in game.keys[i]]
            pawned = [plot_text(b.name(k)) for k in b.key_cities if k in game.pawned[i]]
            keys = ", ".join(held) or "none yet"
            if pawned:
                keys += f" (turned in: {', '.join(pawned)})"
            card = f" {MC_BADGE}" if game.holder == i else ""
            state = " (out)" if game.out[i] else ""
            rows.append(
                f"<tr data-seat='{i}' data-keys='{len(game.keys[i])}'><td>"
                f"{seat_html(i, p, player_color(i))}{card}{state}</td>"
                f"<td>{len(game.keys[i])} of 8</td><td class='moneynb-keys-held'>{keys}</td>"
                f"<td>{money(game.cash(i))}</td><td>{counted(len(game.hand[i]), 'card')}</td></tr>"
            )
        return (
            f"<div><b>Keys to the Cities</b> ({MC_BADGE} Money Card)</div>"
            "<table class='moneynb-keys-table' cellpadding='3' style='border-collapse:collapse'>"
            "<tr><th>Player</th><th>keys</th><th>keys held</th><th>cheques</th><th>hand</th></tr>"
            + "".join(rows) + "</table>"
        )  # fmt: skip

    def panels(self) -> list:
        return [self.spinner, self.card, self.keys_html]

    # ----- decision panels --------------------------------------------------------------
    def _hand_html(self, seat: int) -> str:
        g = self.game
        if not g.hand[seat]:
            return "<i>No Language cards in hand.</i>"
        items = []
        for c in g.hand[seat]:
            card = g.board.cards[c]
            syms = " ".join(card["symbols"])
            items.append(
                f"<div class='moneynb-hand-card' data-card='{c}' style='display:inline-block;"
                "border:1px solid #90a4ae;border-radius:6px;padding:4px 8px;margin:2px;"
                f"background:#fffde7;color:#1a1a1a'><b>{plot_text(card['words'])}</b> "
                f"<i>({plot_text(card['say'])})</i><br>{plot_text(card['means'])} "
                f"<span style='color:#6a1b9a'>[{plot_text(syms)}]</span></div>"
            )
        whose = plot_text(self.plain(f"{g.players[seat]}'s Language cards"))
        return f"<div><b>{whose}</b></div>" + "".join(items)

    def custom_panel(self, decision, submit):
        tag = decision.tag
        out = None
        if tag == "turn":
            hand = widgets.HTML(self._hand_html(decision.player))
            hand.add_class("moneynb-hand")
            buttons = []
            for o in decision.options:
                if o == "spin":
                    b = button("Spin", ("moneynb-roll", "moneynb-spin"), lambda: submit("spin"),
                               style="primary")  # fmt: skip
                    set_layout(b, width="140px", height="44px")
                elif o == "bonus":
                    b = button(decision.label(o), ("moneynb-bonus",), lambda: submit("bonus"),
                               style="success")  # fmt: skip
                else:
                    b = button(decision.label(o), ("moneynb-phrase",), lambda o=o: submit(o),
                               style="info")  # fmt: skip
                buttons.append(b)
            phrases = widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap"))
            out = widgets.VBox([phrases, hand])
        elif tag == "bet":
            items = [widgets.HTML("<b>Monte Carlo</b> bet:")]
            for amount in range(decision.low, decision.high + 1, decision.step):
                items.append(button(f"${amount}", (f"moneynb-bet-{amount}",),
                                    lambda a=amount: submit(a), style="warning"))  # fmt: skip
            if "stop" in decision.options:
                items.append(button("Stop betting", ("moneynb-bet-stop",), lambda: submit("stop")))
            out = widgets.HBox(items)
        elif tag == "color":
            out = widgets.HBox([
                button("Spin on red", ("moneynb-color-red",), lambda: submit("red"), style="danger"),
                button("Spin on black", ("moneynb-color-black",), lambda: submit("black")),
            ])  # fmt: skip
        elif tag == "charge":  # "pay" only when the cheques cover it; debt options after
            items = [button("Charge It!", ("moneynb-charge-it",), lambda: submit("charge"),
                            style="success")]  # fmt: skip
            for o in decision.options[1:]:
                css = "moneynb-pay-cheques" if o == "pay" else f"moneynb-debt-{o.split(':')[-1]}"
                items.append(button(decision.label(o), (css,), lambda o=o: submit(o)))
            out = widgets.HBox(items)
        if out is not None:
            out.add_class("moneynb-panel")
            out.add_class(f"moneynb-panel-{tag}")
        return out
