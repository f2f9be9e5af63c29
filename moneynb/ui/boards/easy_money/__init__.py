"""The Easy Money board widget: :class:`moneynb.figures.easy_money.Board` (the board's figure,
see that module) in the view, with its panels (the dice, the last Give or Take card, the
holdings table), the custom decision panels and the clicks on the board's spaces."""

from __future__ import annotations

import ipywidgets as widgets

from ....core.words import counted
from ....figures.easy_money import *  # noqa: F403 - the drawing's names, kept importable here
from ....figures.easy_money import Board as Drawing
from ...a11y import seat_html
from ...cards import CardWidget
from ...dice import DiceWidget
from ...panels import button, chosen_words, make_panel, set_layout
from ..base import BoardRenderer, money, player_color, plot_text

#: the most ways to raise money shown as buttons; more go in one list (issue 38)
MAX_RAISE_BUTTONS = 3
#: the verbs of the options that raise money in a debt (the engine's)
RAISE_VERBS = ("mortgage", "sell", "offer")


class Board(Drawing, BoardRenderer):
    """The Easy Money board widget (see the module docstring)."""

    def __init__(self, game):
        super().__init__(game)
        self.clickable(0)
        self.clickable(4)
        self.dice = DiceWidget(faces=[1, 1])
        self.card = CardWidget(kind="Give or Take")
        self.table = widgets.HTML()
        self.table.add_class("moneynb-em-holdings")
        self._panels(game, list(game.log))  # the figure was built from this state already

    def update(self, game, events) -> None:
        super().update(game, events)
        self._panels(game, events)

    def _panels(self, g, events) -> None:
        for e in events:
            if e.kind == "rolled" and e.data.get("dice") and e.data.get("seat") is not None:
                faces = list(e.data["dice"])
                who = self.owner(g, e)
                self.dice.show(faces, self.plain(f"{who} threw {sum(faces)}"), owner=who)
            elif e.kind == "drew":
                card = g.cards[e.data["card"]]
                self.card.show(card["title"], card["text"], kind="Give or Take", color="#fff8e1",
                               owner=self.owner(g, e))  # fmt: skip
        self.table.value = self._table(g)

    def _table(self, g) -> str:
        sc = g.scores()
        rows = []
        for s, p in enumerate(g.players):
            held = []
            for i in g.holdings(s):
                sp = g.board[i]
                tag = (
                    f" ({'subdivision' if g.houses[i] == 5 else counted(g.houses[i], 'house')})"
                    if sp["kind"] == "property"
                    else ""
                )
                mort = " <i>mortgaged</i>" if g.mortgaged[i] else ""
                held.append(f"{plot_text(sp['name'])}{tag}{mort}")
            if g.exemption == s:
                held.append("<i>Special Exemption</i>")
            rows.append(
                f"<tr data-seat='{s}' data-cash='{g.cash(s)}' data-holdings='{len(g.holdings(s))}'>"
                f"<td>{seat_html(s, p, player_color(s))}</td>"
                f"<td style='text-align:right'>{money(g.cash(s))}</td>"
                f"<td style='text-align:right'><b>{money(sc[p])}</b></td>"
                f"<td>{g.pieces_used(s)} of {g.data['houses_per_player']}</td>"
                f"<td>{', '.join(held) or '—'}</td></tr>"
            )
        return (
            "<table class='moneynb-em-table' cellpadding='3' style='border-collapse:collapse'>"
            "<tr><th>Player</th><th>cash</th><th>score</th><th>houses built</th><th>holdings</th>"
            "</tr>" + "".join(rows) + "</table>"
        )

    def panels(self) -> list:
        return [widgets.HBox([self.dice, self.card]), self.table]

    # ----- board picks ------------------------------------------------------------------
    def _space_actions(self, decision) -> dict:
        """``{space: action}`` for the board spaces a click may answer ``decision`` with."""
        g = self.game
        out: dict = {}
        if decision is None:
            return out
        if decision.tag in ("buy", "lone_bidder") and "buy" in decision.options:
            i = g.pos[g.current] if decision.tag == "buy" else g.auction["space"]
            out[i] = "buy"
        if decision.tag in ("turn", "post", "debt", "buy"):
            for o in decision.options:
                if isinstance(o, str) and ":" in o:
                    verb, i = o.split(":")
                    out.setdefault(int(i), o)
        elif decision.tag == "offer_item":
            for o in decision.options:
                if isinstance(o, str) and o.startswith("space:"):
                    out[int(o[6:])] = o
        return out

    def action_for_point(self, customdata):
        return self._space_actions(self.game.decision).get(customdata, customdata)

    def click(self, action) -> bool:
        """A click on space ``action`` (an index) answers the decision with what that space
        stands for now (buy it, build on it, mortgage or lift it, offer it); other actions
        pass through. True if it was legal and passed on."""
        if type(action) is int:
            action = self._space_actions(self.game.decision).get(action, action)
        return super().click(action)

    def highlight(self, decision) -> None:
        acts = self._space_actions(decision)
        spaces = list(acts)
        self.set_targets(4, spaces, [decision.label(acts[i]) for i in spaces])

    # ----- decision panels --------------------------------------------------------------
    def _wrap(self, tag: str, children: list) -> widgets.Box:
        box = widgets.VBox(children)
        box.add_class("moneynb-panel")
        box.add_class(f"moneynb-panel-{tag}")
        return box

    def _deed(self, i: int) -> str:
        g = self.game
        sp = g.board[i]
        if sp["kind"] == "property":
            # words that wrap (a table did not: it ran out of a narrow column; issue 38)
            rents = " · ".join(f"{k} <b>${r}</b>" for k, r in zip(
                ("1 house", "2", "3", "4", "subdivision"), sp["rents"], strict=True))  # fmt: skip
            body = (f"price <b>${sp['B']}</b> · mortgage ${sp['M']} · side {sp['side']}<br>"
                    f"rent with {rents}")  # fmt: skip
        else:
            body = f"rent <b>${sp['rent']}</b>" + (f" · mortgage ${sp['M']}" if "M" in sp else "")
        return (
            f"<div class='moneynb-em-deed' style='border-left:10px solid "
            f"{sp.get('colour', '#9e9e9e')};padding-left:6px'><b>{plot_text(sp['name'])}</b>"
            f"<br>{body}</div>"
        )

    def _raise_row(self, decision, options: list, submit) -> widgets.Box:
        """The ways to raise money (mortgage a holding, sell, offer a sale): a button each
        when there are a few (:data:`MAX_RAISE_BUTTONS`), else ONE line, a list and a button
        saying the chosen verb (issue 38: six mortgage buttons made the decision too tall to
        show with the board in a short window; a holding on the board can be clicked too)."""
        row = lambda items: widgets.HBox(items, layout=widgets.Layout(flex_flow="row wrap"))  # noqa: E731
        if len(options) <= MAX_RAISE_BUTTONS:
            return row([
                button(decision.label(o), (f"moneynb-em-{o.split(':')[0]}", "moneynb-option"),
                       lambda o=o: submit(o), style="warning")
                for o in options
            ])  # fmt: skip
        dd = widgets.Dropdown(options=[(decision.label(o), o) for o in options],
                              value=options[0], layout=widgets.Layout(width="auto"))  # fmt: skip
        dd.add_class("moneynb-em-raise")
        go = button("", ("moneynb-em-raise-go", "moneynb-option"), lambda: submit(dd.value),
                    style="warning")  # fmt: skip

        def verb(_change=None):
            go.description = decision.label(dd.value).split(" ")[0]  # Mortgage, Sell, Offer

        dd.observe(verb, "value")
        verb()
        note = widgets.HTML("To raise money (or click a holding on the board):")
        # in the narrow column the closed list cuts the holding's name: the note's place
        # takes the chosen option in full words instead (no line more: issue 38)
        note.add_class("moneynb-wide-only")
        chosen = chosen_words(dd, ", or click a holding on the board", narrow_only=True)
        return widgets.VBox([note, chosen, row([dd, go])])

    def custom_panel(self, decision, submit):
        g, tag, seat = self.game, decision.tag, decision.player
        row = lambda items: widgets.HBox(items, layout=widgets.Layout(flex_flow="row wrap"))  # noqa: E731
        cash = widgets.HTML(plot_text(self.plain(f"{g.players[seat]} holds {money(g.cash(seat))}")))
        if tag in ("turn", "post"):
            first = decision.options[0]
            if first == "roll":
                main = button("Throw the dice", ("moneynb-roll",), lambda: submit("roll"),
                              style="primary")  # fmt: skip
            else:
                main = button("End the turn", ("moneynb-em-end",), lambda: submit("end"),
                              style="primary")  # fmt: skip
            set_layout(main, width="160px", height="44px")
            groups = {"build": [], "mortgage": [], "lift": [], "offer": []}
            styles = {"build": "success", "mortgage": "warning", "lift": "info", "offer": ""}
            for o in decision.options[1:]:
                verb = o.split(":")[0]
                groups[verb].append(button(decision.label(o), (f"moneynb-em-{verb}", "moneynb-option"),
                                           lambda o=o: submit(o), style=styles[verb]))  # fmt: skip
            # one wrapping row, the money line last: the decision stays short, so the board
            # beside or under it is drawn larger in a short window (issue 38)
            options = [b for items in groups.values() for b in items]
            set_layout(cash, margin="0 0 0 6px", align_self="center")
            return self._wrap(tag, [row([main, *options, cash])])
        if tag in ("buy", "lone_bidder"):
            i = g.pos[g.current] if tag == "buy" else g.auction["space"]
            price = g.board[i]["B"]
            items = []
            if "buy" in decision.options:  # short of cash: raise money first (engine's options)
                items.append(button(f"Buy for {money(price)}", ("moneynb-em-buy",),
                                    lambda: submit("buy"), style="success"))  # fmt: skip
            no = "Decline (it goes to auction)" if tag == "buy" else "Decline"
            items.append(button(no, ("moneynb-em-decline",), lambda: submit("decline")))
            raise_money = [o for o in decision.options if o not in ("buy", "decline")]
            parts = [widgets.HTML(self._deed(i)), cash, row(items)]
            if raise_money:
                parts.append(self._raise_row(decision, raise_money, submit))
            return self._wrap(tag, parts)
        if tag == "bid":
            a = g.auction
            # the best bid is the prompt's, just above: said once, and the panel keeps its
            # height from one bid to the next (issue 38: it grew a line with the first bid)
            names = ", ".join(plot_text(g.players[p]) for p in a["bidders"])
            head = widgets.HTML(f"<b>Auction</b> · still bidding: {names}")
            head.add_class("moneynb-em-auction")
            quick = button(f"Bid the lowest: {money(decision.low)}", ("moneynb-em-bid-min",),
                           lambda: submit(decision.low), style="info")  # fmt: skip
            return self._wrap(tag, [widgets.HTML(self._deed(a["space"])), head, cash, quick,
                                    make_panel(decision, g, submit)])  # fmt: skip
        if tag == "offer_reply":
            o = g.offer
            info = widgets.HTML(
                f"{plot_text(g.players[o['seller']])} offers you <b>"
                f"{plot_text(g.item_name(o['item']))}</b> for <b>{money(o['price'])}</b>"
            )
            extra = (
                [widgets.HTML(self._deed(int(o["item"][6:])))] if o["item"] != "exemption" else []
            )
            yes = button(
                "Accept", ("moneynb-em-accept",), lambda: submit("accept"), style="success"
            )
            no = button("Refuse", ("moneynb-em-refuse",), lambda: submit("refuse"), style="danger")
            return self._wrap(tag, [info, *extra, cash, row([yes, no])])
        if tag == "debt":
            d = g.debts[0]
            owes = self.plain(f"{g.players[seat]} owes {money(d[2])}")
            holds = self.plain(f"{g.players[seat]} holds {money(g.cash(seat))}").split(" ", 1)[1]
            info = widgets.HTML(
                f"<b>{plot_text(owes)}</b> ({plot_text(d[3])}) "
                f"and {plot_text(holds)}: mortgage or sell to raise the money"
            )
            info.add_class("moneynb-em-debt")
            raise_money = [o for o in decision.options if str(o).split(":")[0] in RAISE_VERBS]
            if len(raise_money) > MAX_RAISE_BUTTONS:  # a long list: one line (issue 38)
                rest = [o for o in decision.options if o not in raise_money]
                parts = [info, self._raise_row(decision, raise_money, submit)]
                if rest:
                    parts.append(row([button(decision.label(o), ("moneynb-option",),
                                             lambda o=o: submit(o))
                                      for o in rest]))  # fmt: skip
                return self._wrap(tag, parts)
            return self._wrap(tag, [info, make_panel(decision, g, submit)])
        if tag in ("offer_item", "offer_to", "offer_price"):
            heads = {"offer_item": "<b>Offer a sale</b>: what do you sell?",
                     "offer_to": "<b>Offer a sale</b>: to whom?",
                     "offer_price": "<b>Offer a sale</b>: at what price?"}  # fmt: skip
            return self._wrap(tag, [widgets.HTML(heads[tag]), make_panel(decision, g, submit)])
        return None
