"""The Moolah board widget: :class:`moneynb.figures.moolah.Board` (the board's figures, see
that module) in the view, with its panels (the dice, the last card, the Bank's score pad), the
custom decision panels and the clicks on the board's spaces."""

from __future__ import annotations

import ipywidgets as widgets

from ....core.words import counted
from ....figures.moolah import *  # noqa: F403 - the drawing's names, kept importable here
from ....figures.moolah import Board as Drawing
from ....games.moolah.rules import blackjack_win_probability
from ...a11y import seat_html
from ...cards import CardWidget
from ...dice import DiceWidget
from ...panels import button, make_panel, set_layout
from ..base import BoardRenderer, money, player_color, plot_text


class Board(Drawing, BoardRenderer):
    """The Moolah board widget (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        self.clickable(self.SPACES, self.backdrop)
        self.dice = DiceWidget(faces=[1, 1])
        self.card = CardWidget(kind="Temptation")
        self.pad_html = widgets.HTML()
        self.pad_html.add_class("moneynb-score-pad")
        self._update_panels(game, list(game.log))

    def update(self, game, events) -> None:
        super().update(game, events)
        self._update_panels(game, events)

    def highlight(self, decision) -> None:
        targets = []
        if decision is not None and decision.kind == "space":
            targets = [s for s in decision.options if s in self.d.spaces]
        self.set_targets(self.TARGETS, targets, [decision.label(s) for s in targets])

    def _update_panels(self, game, events) -> None:
        for e in events:
            who = self.owner(game, e)
            if e.kind == "rolled" and e.data.get("dice") and e.data.get("seat") is not None:
                faces = e.data["dice"]
                self.dice.show(faces, self.plain(f"{who} rolled {sum(faces)}"), owner=who)
            elif e.kind == "drew":
                deck = e.data.get("deck")
                if deck == "temptation":
                    card = game.data.cards[e.data["card"]]
                    title = "Advantage card" if card["kind"] == "advantage" else "Temptation"
                    text = card["text"]
                    if self._hidden_advantage(game, e):  # its steps are its holder's secret
                        text = f"{who} keeps an Advantage card, hidden until it is played."
                    self.card.show(title, text, kind="Temptation", color="#fce4ec",
                                   owner=who)  # fmt: skip
                else:
                    self.card.show(f"Black Jack: {e.data['card']}", self.plain(e.text),
                                   kind="Las Vegas Casino", color="#ffebee", owner=who)  # fmt: skip
            elif e.kind == "blackjack":
                self.card.show(f"House: {e.data['house']}", self.plain(e.text),
                               kind="Las Vegas Casino", color="#ffebee", owner=who)  # fmt: skip
            elif e.kind == "stock":
                self.card.show(f"{e.data['stock'].capitalize()} {e.data['percent']:+d}%",
                               self.plain(e.text), kind="Wall Street", color="#e8eaf6",
                               owner=who)  # fmt: skip
        self.pad_html.value = self._pad_table(game)

    def _pad_table(self, game) -> str:
        rows = []
        for i, p in enumerate(game.players):
            entries = game.pad[i][-4:]
            hist = "<br>".join(f"{money(e['old'])} → <b>{money(e['new'])}</b>" for e in entries)
            state = " (bankrupt)" if game.out[i] else ""
            if game.missed[i]:  # in the Big House
                state += f" (misses {counted(game.missed[i], 'more turn')})"
            credit = game.data.rules["credit_line"] + min(0, game.balance(i))
            rows.append(
                f"<tr data-seat='{i}' data-balance='{game.balance(i)}' data-cash='{game.cash(i)}'>"
                f"<td>{seat_html(i, p, player_color(i))}{state}</td>"
                f"<td style='text-align:right'>{money(game.cash(i))}</td>"
                f"<td style='text-align:right'><b>{money(game.balance(i))}</b></td>"
                f"<td style='text-align:right'>{money(credit)}</td>"
                f"<td>{len(game.hand[i])}</td><td>{hist}</td></tr>"
            )
        return (
            "<div><b>Personal Bank Account score pad</b> (last entries: old → new)</div>"
            "<table class='moneynb-pad-table' cellpadding='3' style='border-collapse:collapse'>"
            "<tr><th>Player</th><th>wallet</th><th>account</th><th>credit left</th>"
            "<th>Advantage cards</th><th>score pad</th></tr>" + "".join(rows) + "</table>"
        )

    def panels(self) -> list:
        return [self.dice, self.card, self.pad_html]

    # ----- decision panels --------------------------------------------------------------
    def _wrap(self, tag: str, children: list) -> widgets.Box:
        box = widgets.VBox(children)
        box.add_class("moneynb-panel")
        box.add_class(f"moneynb-panel-{tag}")
        return box

    def _summary(self, seat: int) -> widgets.HTML:
        g = self.game
        return widgets.HTML(
            f"Wallet <b>{money(g.cash(seat))}</b> · account <b>{money(g.balance(seat))}</b> · "
            f"can withdraw {money(g.can_withdraw(seat))}"
        )

    def custom_panel(self, decision, submit):
        g, tag, seat = self.game, decision.tag, decision.player
        row = lambda items: widgets.HBox(items, layout=widgets.Layout(flex_flow="row wrap"))  # noqa: E731
        if tag == "turn":
            roll = button("Roll", ("moneynb-roll",), lambda: submit("roll"), style="primary")
            set_layout(roll, width="140px", height="44px")
            items = [roll]
            for o in decision.options[1:]:
                items.append(button(decision.label(o), ("moneynb-advantage", "moneynb-option"),
                                    lambda o=o: submit(o), style="info"))  # fmt: skip
            note = "An Advantage card moves you exactly its number of spaces and ends your turn."
            return self._wrap(
                tag, [row(items)] + ([widgets.HTML(f"<i>{note}</i>")] if len(items) > 1 else [])
            )
        if tag == "bank":
            pad = "".join(f"<tr><td>{money(e['old'])}</td><td><b>{money(e['new'])}</b></td>"
                          f"<td>{plot_text(e['what'])}</td></tr>" for e in g.pad[seat][-6:])  # fmt: skip
            table = widgets.HTML(
                "<table class='moneynb-bank-pad' cellpadding='2'><tr><th>old balance</th>"
                f"<th>new balance</th><th>for</th></tr>{pad}</table>"
            )
            # in the narrow column beside the board (Lab at 1024x700) the table grew a row a
            # visit, the decision grew too tall for the column and was stacked over the board,
            # out of sight (issue 38, the Lab playthrough's Moolah moves 26 and 40): there the
            # last entry only (the score pad under the board keeps the last four)
            table.add_class("moneynb-wide-only")
            last = g.pad[seat][-1:]
            brief = widgets.HTML(
                "".join(
                    f"Last entry: {money(e['old'])} → <b>{money(e['new'])}</b> "
                    f"({plot_text(e['what'])})"
                    for e in last
                )  # fmt: skip
            )
            brief.add_class("moneynb-narrow-only")
            items = [button(decision.label(o), (f"moneynb-bank-{o}", "moneynb-option"),
                            lambda o=o: submit(o), style="success" if o == "deposit" else "")
                     for o in decision.options]  # fmt: skip
            return self._wrap(
                tag,
                [widgets.HTML("<b>The Bank</b>"), self._summary(seat), table, brief, row(items)],
            )
        if tag == "bank_amount":
            quick = button(f"All ({money(decision.high)})", ("moneynb-bank-all",),
                           lambda: submit(decision.high), style="warning")  # fmt: skip
            return self._wrap(tag, [self._summary(seat), make_panel(decision, g, submit), quick])
        if tag == "wall_street":
            items = []
            for o in decision.options:
                if o == "pass":
                    items.append(
                        button(
                            "Pass", ("moneynb-stock-pass", "moneynb-option"), lambda: submit("pass")
                        )
                    )
                    continue
                cards = g.data.stocks[o]
                # the whole deck of the stock (the Coach gives the figures of the unseen cards)
                tip = (f"full deck {min(cards):+d}% to {max(cards):+d}%, "
                       f"mean {sum(cards) / len(cards):+.0f}%")  # fmt: skip
                items.append(button(f"{o.capitalize()} ({tip})", (f"moneynb-stock-{o}", "moneynb-option"),
                                    lambda o=o: submit(o), style="info"))  # fmt: skip
            head = widgets.HTML("<b>Wall Street</b>: invest at least $10,000 of wallet cash")
            return self._wrap(tag, [head, self._summary(seat), row(items)])
        if tag in ("wall_street_amount", "casino_bet"):
            head = ("<b>🃏 Black Jack</b>: closest to 21 wins, ties go to the House"
                    if tag == "casino_bet" else f"<b>Wall Street: {g.ctx.get('stock', '').capitalize()}</b>")  # fmt: skip
            return self._wrap(
                tag, [widgets.HTML(head), self._summary(seat), make_panel(decision, g, submit)]
            )
        if tag == "casino_raise":
            card, bet = g.ctx["card"], g.ctx["bet"]
            counts = dict(g.data.casino)
            if g.casino.draw_pile:
                for c in g.casino.discard_pile:
                    counts[c] -= 1
            try:
                p = blackjack_win_probability({k: v for k, v in counts.items() if v > 0}, card)
                chance = f"P(win) = {p.numerator}/{p.denominator} ≈ {float(p):.0%}"
            except ValueError:
                chance = ""
            info = widgets.HTML(f"<b>🃏 Your card: <span class='moneynb-bj-card'>{card}</span></b> · bet "
                                f"{money(bet)} · {chance}")  # fmt: skip
            # one button per distinct choice: Stay (the panel's own option button, named with
            # the bet), Raise to the most, or raise to an amount typed in the panel
            dbl = button(f"Raise to {money(decision.high)}", ("moneynb-bj-double",),
                         lambda: submit(decision.high), style="danger")  # fmt: skip
            panel = make_panel(decision, g, submit)
            for w in panel.children:
                if "moneynb-option-stay" in w._dom_classes:
                    w.add_class("moneynb-bj-stay")
            return self._wrap(tag, [info, row([dbl]), panel])
        if tag == "take_pal":
            items = []
            for o in decision.options:
                if o == "nobody":
                    items.append(
                        button(
                            "Nobody",
                            ("moneynb-pal", "moneynb-pal-nobody"),
                            lambda: submit("nobody"),
                        )
                    )
                else:
                    items.append(button(f"{g.players[o]} ({money(g.cash(o))})", ("moneynb-pal", "moneynb-player"),
                                        lambda o=o: submit(o), style="warning"))  # fmt: skip
            head = widgets.HTML(
                "<b>Take A Pal</b> to the Las Vegas Casino: you both bet all your cash"
            )
            return self._wrap(tag, [head, row(items)])
        if tag in ("fork", "moolah", "advantage_target"):
            head = {"fork": "<b>Option Point</b>: outer track or inner pathway?",
                    "moolah": "<b>Moolah</b>: stay or jump to another Moolah space",
                    "advantage_target": "<b>Advantage card</b>: where to?"}[tag]  # fmt: skip
            items = [button(decision.label(o), ("moneynb-target", "moneynb-option"),
                            lambda o=o: submit(o)) for o in decision.options]  # fmt: skip
            hint = widgets.HTML("<i>or click a highlighted space on the board</i>")
            return self._wrap(tag, [widgets.HTML(head), row(items), hint])
        return None
