"""Easy Money (Milton Bradley), a property-trading game, whole in one file.

Source: ``rulebooks/easy-money.txt`` and the facts in ``rulebooks/NOTES.md``; reconstructed
pieces (the board's order, names and amounts, the Give or Take cards, the Bank's supply) live in
``board.toml`` and ``cards.toml`` and are listed in ``docs/easy_money.md``.

The game, top to bottom as in the rulebook:

The board.   48 spaces, 12 a side: properties (B = price of the first house and of each more
             house, M = mortgage value, a rent column for 1-4 houses and the subdivision),
             utilities (auction only, no mortgage), public buildings (auction only, may be
             mortgaged), City Hospital (collects the Airplane Crash and Auto Accident money),
             legend spaces (win/take from or lose/pay/give to the Bank), the double Red Traffic
             Light (passing it costs a fine, stopping on it does not) and Bonus ($250 a lap).
Equipment.   Give or Take cards, drawn on doubles before the man moves: a moving card ends
             the turn after its landing is settled; a money card is settled, then the man moves
             by the dice. Special Exemption is kept (no taxes or traffic fines), can be sold,
             and never goes back into the pack.
Start.       $2,000 each in the rulebook's bills from a Bank with a finite supply; everyone
             throws, the highest starts (tied highest throw again); the first move counts the
             start space as one.
Buying.      An unowned property may be bought at B (a lander short of cash may first
             mortgage or sell in this turn); if refused it is auctioned to the others (the
             refuser may not bid); if the lander may not or cannot pay, it is auctioned to all
             (the lander bids what they have); a lone qualified bidder buys it at B. Utilities and public buildings are always auctioned, to everyone. Black Kat
             reached by a card before it is sold: no rent, auctioned at once.
Owning.      Rule of four sides: a second property on one side, or a second house anywhere,
             only once the player owns a property on each of the four sides (utilities and
             public buildings do not count). Dropped for 7+ players, or by option.
Houses.      Bought at B in the player's own turn (before or after throwing); the fifth makes a
             subdivision (four pieces go back to the player's stock of 16).
Rents.       Paid to the owner; nothing on your own or on mortgaged holdings.
Re-sales.    Any holding (and the Exemption card) may be offered to another player for a price;
             the other side accepts or refuses.
Mortgages.   In your turn (or when you owe money): the Bank lends M; lifting costs M + 10%; a
             mortgaged holding keeps its mortgage when sold.
End.         A player who cannot pay after mortgaging everything (and whose offers are
             refused) is bankrupt: the game ends. Or the Bank runs out of money. Or (option) the
             turn cap. Score = cash + B x houses per property + 3 x rent per utility/public
             building (Waldorf Hotel $150); mortgaged holdings score nothing.

Decided here (the rulebook is silent; see docs/easy_money.md): only the player whose turn it is
(or a player who owes money) may start a re-sale, at most ``max_offers_per_turn`` a turn; card
moves go forward (collecting the Bonus) but are never fined at the Traffic Light; a card naming
the man's own space moves him nowhere (no Bonus, the space not settled again); a lap is the whole
board since the last Bonus (a crossing that makes up a "Go back" card over Bonus pays nothing,
issue 39); a bankrupt player pays what cash is left to the creditor and cannot win; opening
bids start at ``min_bid`` and rise by at least $5.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ...core.chance import D6, Deck
from ...core.data import load_cached, load_toml, names_files, require
from ...core.game import Game
from ...core.turns import OpeningRoll
from .schema import BoardFile, CardsFile

BANK = "Bank"
HOSPITAL = "City Hospital"
SIDES = 4
ALL_SIDES = 0b1111  # the sides bitmask of a player with a property on each side

SPACE_KINDS = ("bonus", "property", "utility", "public", "hospital", "legend", "traffic_light")
LEGEND_EFFECTS = ("win", "take", "lose", "pay", "give", "hospital", "none")
CARD_EFFECTS = ("exemption", "move_to", "back", "take", "pay", "take_each", "give_each")
OWNABLE = ("property", "utility", "public")

#: greedy bot: dollars it keeps in hand when buying, bidding and building
RESERVE = 150
BUILD_RESERVE = 300


# ----- the board and the cards (data) -------------------------------------------------------------
@names_files({"board.toml": "path"})
def load_board(path: str | None = None) -> dict:
    """Read and check ``board.toml`` (or the house-rule file at ``path``).

    Returns the TOML as a dict: ``space`` is the list of spaces in board order (index 0 is the
    Bonus/start space), each a dict with ``name`` and ``kind`` plus that kind's fields (see the
    file's header); ``side`` (1-4) is added to each space.

    Raises:
        ValueError: a missing or ill-typed field, a number of spaces not a multiple of 4, no
            Bonus space at index 0, no City Hospital, Red Traffic Light spaces not in one
            adjacent pair, a rent column that is not 5 rising amounts, start bills that do not
            add up to ``start_cash``, or duplicate holding names.
    """
    data = load_toml(__package__, "board.toml", path, BoardFile)
    for key in ("start_cash", "start_bills", "bonus", "traffic_fine", "houses_per_player",
                "lift_interest_percent", "money_supply", "space"):  # fmt: skip
        require(key in data, f"board.toml: missing {key!r}")
    bills = sum(int(k) * v for k, v in data["start_bills"].items())
    require(
        bills == data["start_cash"],
        f"board.toml: start_bills add up to ${bills}, not start_cash ${data['start_cash']}",
    )
    spaces = data["space"]
    n = len(spaces)
    require(n >= 8 and n % SIDES == 0, f"board.toml: {n} spaces is not 4 equal sides")
    names = set()
    for i, sp in enumerate(spaces):
        require("name" in sp and "kind" in sp, f"board.toml: space {i} needs name and kind")
        kind = sp["kind"]
        require(kind in SPACE_KINDS, f"board.toml: space {i} has unknown kind {kind!r}")
        sp["side"] = i // (n // SIDES) + 1
        if kind in OWNABLE:
            require(sp["name"] not in names, f"board.toml: holding {sp['name']!r} repeated")
            names.add(sp["name"])
        if kind == "property":
            for key in ("B", "M", "rents"):
                require(key in sp, f"board.toml: property {sp['name']!r} needs {key!r}")
            r = sp["rents"]
            require(
                len(r) == 5 and all(type(x) is int and x > 0 for x in r)
                and all(a < b for a, b in zip(r, r[1:], strict=False)),
                f"board.toml: {sp['name']!r} needs 5 rising rents (1-4 houses, subdivision)",
            )  # fmt: skip
            require(sp["B"] > 0 and sp["M"] > 0, f"board.toml: {sp['name']!r} B and M > 0")
        elif kind in ("utility", "public"):
            require(
                type(sp.get("rent")) is int and sp["rent"] > 0,
                f"board.toml: {sp['name']!r} needs a positive rent",
            )
            if kind == "public":
                require(type(sp.get("M")) is int and sp["M"] > 0,
                        f"board.toml: public building {sp['name']!r} needs M")  # fmt: skip
        elif kind == "legend":
            require(
                sp.get("effect") in LEGEND_EFFECTS,
                f"board.toml: legend {sp['name']!r} effect must be one of {LEGEND_EFFECTS}",
            )
            require(
                type(sp.get("amount")) is int and sp["amount"] >= 0,
                f"board.toml: legend {sp['name']!r} needs an amount >= 0",
            )
    require(spaces[0]["kind"] == "bonus", "board.toml: space 0 must be the Bonus (start) space")
    require(sum(sp["kind"] == "hospital" for sp in spaces) == 1, "board.toml: one City Hospital")
    lights = [i for i, sp in enumerate(spaces) if sp["kind"] == "traffic_light"]
    require(
        len(lights) == 2 and lights[1] == lights[0] + 1,
        "board.toml: the Red Traffic Light is one pair of adjacent spaces",
    )
    return data


@names_files({"cards.toml": "path"})
def load_cards(path: str | None = None) -> dict:
    """Read and check ``cards.toml`` (or ``path``): ``card`` is a list of
    ``{id, title, text, effect, count, ...}`` (``amount``, ``target``, ``exempt`` by effect).

    Raises:
        ValueError: a missing field, an unknown effect, a non-positive count, a repeated id,
            or a Special Exemption card counted other than once.
    """
    data = load_toml(__package__, "cards.toml", path, CardsFile)
    require("card" in data, "cards.toml: no cards")
    ids = set()
    for c in data["card"]:
        for key in ("id", "title", "text", "effect", "count"):
            require(key in c, f"cards.toml: a card lacks {key!r}: {c}")
        require(c["effect"] in CARD_EFFECTS, f"cards.toml: unknown effect {c['effect']!r}")
        require(type(c["count"]) is int and c["count"] > 0, f"cards.toml: {c['id']} count")
        require(c["id"] not in ids, f"cards.toml: card id {c['id']!r} repeated")
        ids.add(c["id"])
        if c["effect"] == "move_to":
            require("target" in c, f"cards.toml: {c['id']} needs a target space")
        elif c["effect"] != "exemption":
            require(type(c.get("amount")) is int and c["amount"] > 0,
                    f"cards.toml: {c['id']} needs a positive amount")  # fmt: skip
        if c["effect"] == "exemption":
            require(c["count"] == 1, "cards.toml: there is one Special Exemption card")
    return data


def lift_cost(m_value: int, percent: int) -> int:
    """Dollars to lift a mortgage of ``m_value``: the value plus ``percent`` interest (the
    rulebook's 10%), the interest rounded up to a whole dollar. The one place this rule lives
    (:meth:`EasyMoney.lift_cost` and :func:`moneynb.analysis.ev.mortgage_cost` call it)."""
    return m_value + -(-m_value * percent // 100)


class EasyMoney(Game):
    """Easy Money for 2-8 players (rulebook: "two to six or more"; with 7 or more the rule of
    four sides is dropped, as the rulebook says).

    Options:
        max_rounds (int): turn cap: the game ends, scored as the rulebook scores it, after this
            many rounds (every player one turn); 0 = no cap (a game may then run very long).
            Default 50 rounds, a long evening's game (reconstruction).
        rule_of_four (bool): the rule of four sides (False = the rulebook's 7-or-more variant,
            "if all agree"); always off with 7 or more players.
        money_supply (int): all the script money in the box, Bank and players together; 0 =
            the board file's ``money_supply``. The Bank breaks when it cannot pay.
        min_bid (int): the lowest opening bid at an auction (reconstruction).
        max_offers_per_turn (int): re-sale offers one player may make in one turn.
        lone_bidder_must_buy (bool): when only one player may bid on a property, the rulebook
            "sells" it to him at B. False (default): he is asked and may decline (it stays
            unsold), as every other purchase is a choice; True: he buys it at once.
        card_move_ends_turn (bool): True (default, rulebook "Doubles": a card that moves the
            man "pays the rent and his turn is ended"): once the space the card sent him to is
            settled, the turn passes on. False: the older reading, only the throw is used up:
            he may still build, mortgage, lift and offer before ending the turn.
        bid_floor_mortgage (bool): house rule closing the auction-then-mortgage money machine:
            True makes the opening bid at an auction at least the holding's M (mortgage
            value), so nobody borrows more on a holding than it cost him. False (default):
            the rulebook's auction, any bid from ``min_bid`` up.
        data_file, cards_file (str): house-rule ``board.toml`` / ``cards.toml``; "" = shipped.

    Accounts: ``"Bank"`` (finite), ``"City Hospital"``, ``"wallet:<name>"``.
    Actions: ``"roll"``, ``"end"``, ``"buy"``, ``"decline"``, ``"build:<space>"``,
    ``"mortgage:<space>"``, ``"lift:<space>"``, ``"offer"``, ``"space:<i>"``/``"exemption"``
    (what to offer), a seat (to whom), an int (a bid or a price), ``"pass"``, ``"cancel"``,
    ``"accept"``, ``"refuse"``, ``"bankrupt"``.
    """

    name = "easy_money"
    title = "Easy Money"
    min_players = 2
    max_players = 8
    default_options = {
        "max_rounds": 50,
        "rule_of_four": True,
        "money_supply": 0,
        "min_bid": 10,
        "max_offers_per_turn": 3,
        "lone_bidder_must_buy": False,
        "card_move_ends_turn": True,
        "bid_floor_mortgage": False,
        "data_file": "",
        "cards_file": "",
    }
    rulebook = "rulebooks/easy-money.txt"
    #: what happened last, for views (no rule reads it): see Game.record_only
    record_only = ("last_card",)

    @classmethod
    def _validate_options(cls, options: dict) -> None:
        if options["max_rounds"] < 0:
            raise ValueError("max_rounds must be 0 (no cap) or more")
        if options["money_supply"] < 0:
            raise ValueError("money_supply must be 0 (the board file's) or more")
        if options["min_bid"] < 1:
            raise ValueError("min_bid must be at least $1")
        if options["max_offers_per_turn"] < 0:
            raise ValueError("max_offers_per_turn must be 0 or more")

    # ----- the board, the cards and the start ----------------------------------------------------
    def _setup(self) -> None:
        self.data = load_cached(load_board, self.options["data_file"] or None)
        self.board = self.data["space"]
        cards = load_cached(load_cards, self.options["cards_file"] or None)
        self.cards = {c["id"]: c for c in cards["card"]}
        n, size = len(self.players), len(self.board)
        self.side_len = size // SIDES
        self.names = {sp["name"]: i for i, sp in enumerate(self.board)}
        for c in self.cards.values():
            require(
                c["effect"] != "move_to" or c["target"] in self.names,
                f"cards.toml: {c['id']} targets unknown space {c.get('target')!r}",
            )
        self.is_prop = tuple(sp["kind"] == "property" for sp in self.board)
        self.side_bit = tuple(1 << (sp["side"] - 1) for sp in self.board)
        self.ownable = tuple(i for i, sp in enumerate(self.board) if sp["kind"] in OWNABLE)
        self.lights = tuple(i for i, sp in enumerate(self.board) if sp["kind"] == "traffic_light")
        self.four_sides_rule = self.options["rule_of_four"] and n < 7
        supply = self.options["money_supply"] or self.data["money_supply"]
        start = self.data["start_cash"]
        require(  # DataFileError when the board file's supply is short, else a bad option
            self.options["money_supply"] or supply >= start * n,
            f"board.toml: money_supply ${supply:,} cannot deal ${start:,} to {n} players",
        )
        if supply < start * n:
            raise ValueError(f"money_supply ${supply:,} cannot deal ${start:,} to {n} players")
        self.ledger.open(BANK, supply)
        self.ledger.open(HOSPITAL, 0)
        bills = ", ".join(f"{v} x ${k}" for k, v in self.data["start_bills"].items())
        for p in self.players:
            self.ledger.open(self.wallet(p), 0)
            self.transfer(BANK, self.wallet(p), start, f"starting money: {bills}")
        self.deck = Deck.from_counts(
            {c: v["count"] for c, v in self.cards.items()}, self.chance("give or take")
        )
        self.owner: list[int | None] = [None] * size
        self.houses = [0] * size  # properties: 1-4 houses, 5 = subdivision
        self.mortgaged = [False] * size
        self.pos = [0] * n
        self.started = [False] * n  # made the first move (which counts Start as one)
        # times each man went back over Bonus that a forward move has not yet made up (issue
        # 39: a lap needs the whole board travelled since the last Bonus; see _pay_laps)
        self.backed = [0] * n
        self.exemption: int | None = None  # seat holding the Special Exemption card
        self.current = 0
        self.first = 0
        self.round = 1
        self.turns = 0
        self.rolled = False
        self.dice: tuple[int, int] | None = None
        self.last_card: str | None = None
        self.card_moved = False  # a Give or Take card moved the man this turn
        self.offers_used = [0] * n
        self.resume: str | None = None  # what comes after the debts are settled
        self.debts: list[list] = []  # [debtor seat, creditor account, dollars, reason]
        self.auction: dict | None = None
        self.offer: dict | None = None
        self.bankrupt: int | None = None
        self.bank_broken = False
        self.end_reason = ""
        self.opening: OpeningRoll | None = OpeningRoll(list(range(n)))
        self._ask_opening()

    def wallet(self, player: str | int) -> str:
        """Account name of a player's wallet (by name or seat)."""
        return f"wallet:{self.players[player] if isinstance(player, int) else player}"

    def side(self, space: int) -> int:
        """The side (1-4) a space is on."""
        return space // self.side_len + 1

    def _ask_opening(self) -> None:
        seat = self.opening.next_roller
        self.ask(seat, "roll", "Throw to see who starts", ("roll",), tag="opening")

    def _opening_roll(self) -> None:
        seat = self.opening.next_roller
        dice = self.chance("dice")
        d = (D6.roll(dice), D6.roll(dice))
        self.emit("rolled", f"{self.players[seat]} threw {d[0]}+{d[1]} to start.", seat=seat,
                  dice=d)  # fmt: skip
        outcome, top, best = self.opening.record(sum(d))
        if outcome == "tie":
            names = ", ".join(self.players[s] for s in top)
            self.emit("tie", f"{names} tied with {best}: they throw again.", seats=top)
        if outcome != "start":
            self._ask_opening()
            return
        self.opening = None
        self.current = self.first = top[0]
        self.emit("starts", f"{self.players[top[0]]} plays first.", seat=top[0])
        self._start_turn()

    # ----- the decisions of a turn ---------------------------------------------------------------
    def _apply(self, action: Any) -> None:
        tag = self.pending.tag
        handler = getattr(self, "_on_" + tag)
        handler(action)
        if self.bank_broken and self.pending is not None:
            self._end_game("the Bank ran out of money")

    def _on_opening(self, action: Any) -> None:
        self._opening_roll()

    def _start_turn(self) -> None:
        self.rolled = False
        self.dice = None
        self.last_card = None
        self.card_moved = False
        self.offers_used = [0] * len(self.players)
        self._ask_turn()

    def _turn_actions(self, seat: int) -> list:
        """Before the throw: throw the dice, or first build, mortgage, lift or offer."""
        return ["roll", *self._side_actions(seat)]

    def _post_actions(self, seat: int) -> list:
        """After the throw: end the turn, or build, mortgage, lift or offer."""
        return ["end", *self._side_actions(seat)]

    def _side_actions(self, seat: int) -> list:
        """What ``seat`` may do in its own turn besides throwing or ending it, in this order: a
        build on each holding where :meth:`can_build`, then for each holding a mortgage where
        :meth:`can_mortgage` and a lift where :meth:`can_lift`, then an offer when
        :meth:`_offer_items` finds something to offer."""
        mine, prof = self.holdings(seat), self.profile(seat)
        actions = [f"build:{i}" for i in mine if self.can_build(seat, i, prof)]
        for i in mine:
            if self.can_mortgage(seat, i):
                actions.append(f"mortgage:{i}")
            if self.can_lift(seat, i):
                actions.append(f"lift:{i}")
        if self._offer_items(seat, first=True):
            actions.append("offer")
        return actions

    def _turn_labels(self, opts: tuple) -> dict:
        """Display text of the turn options ``opts``."""
        labels = {}
        for o in opts:
            verb, _, i = o.partition(":")
            sp = self.board[int(i)] if i else None
            if verb == "build":
                what = "a subdivision" if self.houses[int(i)] == 4 else "a house"
                labels[o] = f"Build {what} on {sp['name']} (${sp['B']:,})"
            elif verb == "mortgage":
                labels[o] = f"Mortgage {sp['name']} (+${sp['M']:,})"
            elif verb == "lift":
                labels[o] = f"Lift the mortgage on {sp['name']} (${self.lift_cost(int(i)):,})"
            elif verb == "offer":
                labels[o] = "Offer a holding for sale to a player"
            else:
                labels[o] = {"roll": "Throw the dice", "end": "End the turn"}[o]
        return labels

    def _ask_turn(self) -> None:
        self.ask(self.current, "choose", "Throw the dice, or build, mortgage or sell first",
                 self._turn_actions, tag="turn", labels=self._turn_labels)  # fmt: skip

    def _ask_post(self) -> None:
        self.ask(self.current, "choose", "End the turn, or build, mortgage or sell",
                 self._post_actions, tag="post", labels=self._turn_labels)  # fmt: skip

    def _on_turn(self, action: Any) -> None:
        if action == "roll":
            self._throw()
        else:
            self._turn_extra(action, "turn")

    def _on_post(self, action: Any) -> None:
        if action == "end":
            self._end_turn()
        else:
            self._turn_extra(action, "post")

    def _turn_extra(self, action: str, back: str) -> None:
        s = self.current
        if action == "offer":
            self._start_offer(s, back)
            return
        verb, i = action.split(":")
        i = int(i)
        {"build": self._build, "mortgage": self._mortgage, "lift": self._lift}[verb](s, i)
        self._back(back)

    def _back(self, back: str) -> None:
        """Return to the decision a side action (mortgage, offer) was taken from."""
        if back == "turn":
            self._ask_turn()
        elif back == "post":
            self._ask_post()
        elif back == "buy":  # raising money to buy the property landed on
            self._offer_to_lander(self.current, self.pos[self.current])
        else:  # "debt": try to settle again
            self._proceed()

    # ----- doubles, Give or Take cards, moving -------------------------------------------------------
    def _throw(self) -> None:
        s = self.current
        dice = self.chance("dice")
        d = (D6.roll(dice), D6.roll(dice))
        self.dice = d
        self.rolled = True
        self.emit("rolled", f"{self.players[s]} threw {d[0]}+{d[1]} = {sum(d)}.", seat=s, dice=d)
        if d[0] == d[1]:
            self._draw_card(s)
        else:
            self.resume = "move"
            self._proceed()

    def _draw_card(self, s: int) -> None:
        cid = self.deck.draw(self.chance("give or take"))
        card = self.cards[cid]
        self.last_card = cid
        self.emit("drew", f"Doubles: {self.players[s]} drew '{card['title']}': {card['text']}",
                  seat=s, card=cid)  # fmt: skip
        eff = card["effect"]
        if eff == "exemption":
            self.exemption = s  # kept: never discarded, so never reshuffled
            self.resume = "move"
            self._proceed()
            return
        self.deck.discard(cid)
        if eff == "move_to":
            self._card_move(s, self.names[card["target"]], forward=True)
        elif eff == "back":
            back = card["amount"]
            self.backed[s] += self.laps_back(self.pos[s], back)
            self._card_move(s, (self.pos[s] - back) % len(self.board), forward=False)
        else:
            amt = card["amount"]
            if eff == "take":
                self._bank_pays(s, amt, card["title"])
            elif eff == "pay":
                if card.get("exempt") and self.exemption == s:
                    self.emit("exempt", f"{self.players[s]} is exempt ({card['title']}).", seat=s)
                else:
                    self.debts.append([s, BANK, amt, card["title"]])
            elif eff == "take_each":
                for o in self._others(s):
                    self.debts.append([o, self.wallet(s), amt, card["title"]])
            elif eff == "give_each":
                for o in self._others(s):
                    self.debts.append([s, self.wallet(o), amt, card["title"]])
            self.resume = "move"
            self._proceed()

    def _others(self, s: int) -> list[int]:
        n = len(self.players)
        return [(s + k) % n for k in range(1, n)]

    def laps(self, start: int, steps: int) -> int:
        """Times a man moving ``steps`` spaces forward from space ``start`` crosses or stops on
        Bonus (space 0). Standing still (``steps`` 0) crosses nothing. Each is a completed lap
        unless it only makes up a backward crossing (:meth:`_pay_laps`)."""
        return (start + steps) // len(self.board) if steps > 0 else 0

    def laps_back(self, start: int, steps: int) -> int:
        """Times a man moving ``steps`` spaces back from space ``start`` leaves Bonus backwards
        (goes from space 0 to the last space): ``laps_back(2, 3) == 1``, ``laps_back(3, 3) ==
        0`` (he stops on Bonus without going over it)."""
        return max(0, -((start - steps) // len(self.board))) if steps > 0 else 0

    def _pay_laps(self, s: int, start: int, steps: int) -> None:
        """Pay ``s`` the Bonus for each lap completed by a forward move of ``steps`` from
        ``start``. Rulebook "Bonus": $250 each time a man "moves completely around the board,
        crossing or landing on the BONUS space". Reading (issue 39, docs/easy_money.md): a lap
        needs the whole board travelled since the last Bonus, so a crossing that only makes up
        a "Go back" card that took him back over Bonus (:attr:`backed`) pays nothing. The one
        place a lap is paid (dice and card moves)."""
        crossed = self.laps(start, steps)
        made_up = min(crossed, self.backed[s])
        if made_up:
            self.backed[s] -= made_up
            self.emit("no_bonus", f"{self.players[s]} crosses Bonus again after going back over "
                      "it: no Bonus, the lap is not complete.", seat=s)  # fmt: skip
        for _ in range(crossed - made_up):
            self._bank_pays(s, self.data["bonus"], "Bonus: once around the board")

    def _card_move(self, s: int, target: int, forward: bool) -> None:
        """A Give or Take card moves ``s`` to ``target`` (rulebook "Doubles"). Going forward,
        he collects the Bonus if the way round crosses or stops on it (:meth:`laps`). A card
        naming the space he already stands on does not move him: no lap, and he does not stop
        there anew, so the space is not settled again (the City Hospital paragraph: money paid
        there while a man rests there goes to the *next* player stopping there). Either way
        the card was a moving card and his turn ends (option ``card_move_ends_turn``)."""
        here = self.pos[s]
        self.started[s] = True
        self.card_moved = True
        if target == here:
            self.emit("stays", f"{self.players[s]} is already on {self.board[target]['name']}: "
                      "the card does not move him.", seat=s, space=target)  # fmt: skip
            self.resume = "post"
            self._proceed()
            return
        if forward:
            self._pay_laps(s, here, (target - here) % len(self.board))
        self.pos[s] = target
        self.emit("moved", f"{self.players[s]} goes to {self.board[target]['name']}.", seat=s,
                  space=target)  # fmt: skip
        self.resume = "card_land"
        self._proceed()

    def _dice_move(self) -> None:
        s = self.current
        size = len(self.board)
        steps = sum(self.dice)
        if not self.started[s]:
            steps -= 1  # the first move counts the start space as one
            self.started[s] = True
        start = self.pos[s]
        path = [(start + k) % size for k in range(1, steps + 1)]
        end = path[-1] if path else start
        self.pos[s] = end
        self.emit("moved", f"{self.players[s]} moves {steps} to {self.board[end]['name']}.",
                  seat=s, space=end, path=path)  # fmt: skip
        self._pay_laps(s, start, steps)
        a, b = self.lights
        if a in path[:-1] and b in path[:-1]:
            if self.exemption == s:
                self.emit("exempt", f"{self.players[s]} passes the Red Traffic Light, exempt.")
            else:
                self.debts.append(
                    [s, BANK, self.data["traffic_fine"], "passed the Red Traffic Light"]
                )
        self.resume = "land"
        self._proceed()

    # ----- landing: buying, auctions, rents, legends, the hospital -------------------------------
    def _land(self, by_card: bool) -> None:
        s = self.current
        i = self.pos[s]
        sp = self.board[i]
        kind = sp["kind"]
        self.resume = "post"
        if kind in OWNABLE:
            o = self.owner[i]
            if o is None:
                if kind == "property":
                    self._offer_to_lander(s, i)
                else:
                    if by_card:
                        self.emit(
                            "no_rent",
                            f"{sp['name']} is not sold yet: no rent; it is auctioned at once.",
                        )
                    self._start_auction(i, exclude=None)
                return
            if o == s:
                self.emit("own", f"{self.players[s]} is on their own {sp['name']}.")
            elif self.mortgaged[i]:
                self.emit("no_rent", f"{sp['name']} is mortgaged: no rent.")
            else:
                self.debts.append([s, self.wallet(o), self.rent(i), f"rent for {sp['name']}"])
        elif kind == "hospital":
            pot = self.ledger[HOSPITAL]
            self.transfer(HOSPITAL, self.wallet(s), pot, "collects the City Hospital money")
            if not pot:
                self.emit("hospital", "The City Hospital holds no money.")
        elif kind == "bonus" or kind == "traffic_light":
            pass  # the Bonus was paid when the lap was completed; no fine for stopping
        else:
            eff, amt = sp["effect"], sp["amount"]
            if eff in ("win", "take"):
                self._bank_pays(s, amt, sp["name"])
            elif eff in ("lose", "pay", "give"):
                if sp.get("exempt") and self.exemption == s:
                    self.emit("exempt", f"{self.players[s]} is exempt from {sp['name']}.")
                else:
                    self.debts.append([s, BANK, amt, sp["name"]])
            elif eff == "hospital":
                self.debts.append([s, HOSPITAL, amt, sp["name"]])
        self._proceed()

    def _offer_to_lander(self, s: int, i: int) -> None:
        """The lander on unowned property ``i`` may buy it at B (rulebook "Buying Property").

        Short of cash, the lander may first raise money in this turn (rulebook "Mortgages",
        "Re-sales": mortgage or offer holdings for sale), then buy, or refuse. A lander the
        rule of four forbids to buy, or who cannot find the money, did not refuse: the property
        is auctioned and that lander may bid (what they have). Only a refusal bars the lander
        from the auction.
        """
        sp = self.board[i]
        name = self.players[s]
        if not self.may_acquire(s, i):
            self.emit("cannot_buy", f"{name} may not buy {sp['name']} (rule of four sides).")
            self._start_auction(i, exclude=None)
            return
        price, cash = sp["B"], self.cash(s)
        opts: list = ["buy"] if cash >= price else []
        labels = {"buy": f"Buy for ${price:,}", "decline": "Refuse (auction without you)"}
        if cash < price:
            opts += [f"mortgage:{h}" for h in self.holdings(s) if self.can_mortgage(s, h)]
            labels.update(self._debt_labels(opts))
            if self._offer_items(s, first=True):
                opts.append("offer")
                labels["offer"] = "Offer a holding for sale to a player"
            if not opts:
                self.emit("cannot_buy", f"{name} cannot pay ${price:,} for {sp['name']}: it is "
                          f"auctioned and {name} may bid.", seat=s, space=i)  # fmt: skip
                self._start_auction(i, exclude=None)
                return
        prompt = f"Buy {sp['name']} for ${price:,}?"
        if cash < price:
            prompt += f" You hold ${cash:,}: mortgage or sell to raise the money, or refuse"
        self.ask(s, "choose", prompt, [*opts, "decline"], tag="buy", labels=labels)

    def _on_buy(self, action: Any) -> None:
        s = self.current
        i = self.pos[s]
        if action == "buy":
            self._acquire(s, i, self.board[i]["B"])
            self._proceed()
        elif action == "offer":
            self._start_offer(s, "buy")
        elif isinstance(action, str) and action.startswith("mortgage:"):
            self._mortgage(s, int(action[9:]))
            self._offer_to_lander(s, i)
        else:
            self.emit("declined", f"{self.players[s]} refuses {self.board[i]['name']}.")
            self._start_auction(i, exclude=s)

    def _acquire(self, s: int, i: int, price: int) -> None:
        self.transfer(self.wallet(s), BANK, price, f"buys {self.board[i]['name']}")
        self.owner[i] = s
        if self.board[i]["kind"] == "property":
            self.houses[i] = 1
        self.emit("bought", f"{self.players[s]} buys {self.board[i]['name']} for ${price:,}.",
                  seat=s, space=i, price=price)  # fmt: skip

    def _start_auction(self, i: int, exclude: int | None) -> None:
        sp = self.board[i]
        lo = self.opening_bid(i)
        n = len(self.players)
        # left of the lander first, the lander (if not barred) last
        order = [(self.current + k) % n for k in range(1, n + 1)]
        if exclude is not None:
            order = [p for p in order if p != exclude]
        qualified = [p for p in order if self.cash(p) >= lo and self.may_acquire(p, i)]
        if not qualified:
            self.emit("unsold", f"Nobody may bid: {sp['name']} stays unsold.", space=i)
            self._proceed()
            return
        if sp["kind"] == "property" and len(qualified) == 1:
            p = qualified[0]
            if self.cash(p) < sp["B"]:
                self.emit("unsold", f"{sp['name']} stays unsold.", space=i)
                self._proceed()
                return
            if self.options["lone_bidder_must_buy"]:
                self.emit("lone_bidder", f"{self.players[p]} is the only qualified bidder.")
                self._acquire(p, i, sp["B"])
                self._proceed()
                return
            self.auction = {"space": i, "order": [p], "bidders": [p], "high": 0, "leader": None,
                            "last": None, "to_bid": p}  # fmt: skip
            self.ask(p, "choose", f"Only bidder: buy {sp['name']} at ${sp['B']:,}?",
                     ("buy", "decline"), tag="lone_bidder",
                     labels={"buy": f"Buy for ${sp['B']:,}", "decline": "Decline"})  # fmt: skip
            return
        rents = "/".join(f"${r}" for r in sp["rents"]) if "rents" in sp else f"${sp['rent']}"
        self.emit("auction", f"Auction of {sp['name']} (rent {rents}).", space=i,
                  bidders=list(qualified))  # fmt: skip
        self.auction = {"space": i, "order": qualified, "bidders": list(qualified), "high": 0,
                        "leader": None, "last": None, "to_bid": None}  # fmt: skip
        self._ask_bid()

    def _on_lone_bidder(self, action: Any) -> None:
        i = self.auction["space"]
        p = self.auction["bidders"][0]
        self.auction = None
        if action == "buy":
            self._acquire(p, i, self.board[i]["B"])
        else:
            self.emit("unsold", f"{self.board[i]['name']} stays unsold.", space=i)
        self._proceed()

    def opening_bid(self, i: int) -> int:
        """The lowest opening bid at an auction of holding ``i`` (dollars): option ``min_bid``
        ($10, reconstruction); with the house rule ``bid_floor_mortgage``, at least the
        holding's M, so that buying at auction and mortgaging at once gains nothing."""
        lo = self.options["min_bid"]
        if self.options["bid_floor_mortgage"]:
            lo = max(lo, self.board[i].get("M", 0))
        return lo

    def next_bid(self) -> int:
        """The lowest bid the pending auction accepts (dollars)."""
        a = self.auction
        return self.opening_bid(a["space"]) if a["leader"] is None else a["high"] + 5

    def _ask_bid(self) -> None:
        a = self.auction
        low = self.next_bid()
        # bidders who cannot pay the next bid drop out (the leader stays)
        a["bidders"] = [p for p in a["bidders"] if p == a["leader"] or self.cash(p) >= low]
        others = [p for p in a["bidders"] if p != a["leader"]]
        i = a["space"]
        if not others:
            if a["leader"] is not None:
                self._acquire(a["leader"], i, a["high"])
            else:
                self.emit("unsold", f"No bids: {self.board[i]['name']} stays unsold.", space=i)
            self.auction = None
            self._proceed()
            return
        order = a["order"]
        start = 0 if a["last"] is None else order.index(a["last"]) + 1
        for k in range(len(order)):
            p = order[(start + k) % len(order)]
            if p in others:
                break
        a["to_bid"] = p
        high = (
            "no bid yet"
            if a["leader"] is None
            else f"${a['high']:,} by {self.players[a['leader']]}"
        )
        self.ask(p, "amount", f"Auction of {self.board[i]['name']} ({high}): bid ${low:,} or more, or pass",
                 ("pass",), low=low, high=self.cash(p), step=1, tag="bid")  # fmt: skip

    def _on_bid(self, action: Any) -> None:
        a = self.auction
        p = a["last"] = a["to_bid"]
        if action == "pass":
            self.emit("pass", f"{self.players[p]} passes.", seat=p)
            a["bidders"].remove(p)
        else:
            a["high"], a["leader"] = action, p
            self.emit("bid", f"{self.players[p]} bids ${action:,}.", seat=p, amount=action)
        self._ask_bid()

    # ----- houses, mortgages ----------------------------------------------------------------------
    def _build(self, s: int, i: int) -> None:
        sp = self.board[i]
        self.transfer(self.wallet(s), BANK, sp["B"], f"house on {sp['name']}")
        self.houses[i] += 1
        what = "a subdivision" if self.houses[i] == 5 else f"house {self.houses[i]}"
        self.emit("built", f"{self.players[s]} builds {what} on {sp['name']}.", seat=s, space=i)

    def _mortgage(self, s: int, i: int) -> None:
        self.mortgaged[i] = True
        self.emit("mortgaged", f"{self.players[s]} mortgages {self.board[i]['name']}.", space=i)
        self._bank_pays(s, self.board[i]["M"], f"mortgage on {self.board[i]['name']}")

    def _lift(self, s: int, i: int) -> None:
        self.transfer(
            self.wallet(s),
            BANK,
            self.lift_cost(i),
            f"lifts the mortgage on {self.board[i]['name']}",
        )
        self.mortgaged[i] = False
        self.emit(
            "lifted", f"{self.players[s]} lifts the mortgage on {self.board[i]['name']}.", space=i
        )

    # ----- re-sales between players -------------------------------------------------------------
    def _offer_items(
        self, seat: int, limit: bool = True, first: bool = False, profiles=None
    ) -> list:
        """What ``seat`` may offer now: ``"space:<i>"`` holdings and ``"exemption"``, each with
        at least one player allowed to buy it; empty once the turn's offers are used up
        (unless ``limit`` is False). ``first``: stop at the first item found."""
        if limit and self.offers_used[seat] >= self.options["max_offers_per_turn"]:
            return []
        profs = self._profiles(seat, profiles)
        if not profs:
            return []
        items = ["exemption"] if self.exemption == seat else []
        if first and items:
            return items
        held = profiles[2][seat] if profiles else self.holdings(seat)
        for i in held:
            if any(self.may_acquire(b, i, True, pr) for b, pr in profs.items()):
                items.append(f"space:{i}")
                if first:
                    return items
        return items

    def _all_profiles(self) -> tuple[list, list, list]:
        """One pass over the board: per seat, house pieces used (:meth:`_pieces`), the sides
        with a property (a bitmask, see :meth:`profile`) and the spaces held."""
        n = len(self.players)
        pieces, sides, held = [0] * n, [0] * n, [[] for _ in range(n)]
        for i in self.ownable:
            o = self.owner[i]
            if o is not None:
                held[o].append(i)
                pieces[o] += self._pieces(i)
                if self.is_prop[i]:
                    sides[o] |= self.side_bit[i]
        return pieces, sides, held

    def _profiles(self, seller: int, profiles=None) -> dict:
        """``{seat: (pieces, sides)}`` of the possible buyers from ``seller`` (others with
        cash)."""
        pieces, sides, _ = profiles or self._all_profiles()
        return {b: (pieces[b], sides[b]) for b in self._others(seller) if self.cash(b) >= 1}

    def _buyers(self, seller: int, item: str) -> list[int]:
        """Seats that may buy ``item`` from ``seller`` (rule of four, pieces, some cash)."""
        profs = self._profiles(seller)
        if item == "exemption":
            return list(profs)
        i = int(item[6:])
        return [b for b, pr in profs.items() if self.may_acquire(b, i, bought=True, prof=pr)]

    def item_name(self, item: str) -> str:
        """Display name of an offered item (``"space:<i>"`` or ``"exemption"``)."""
        return (
            "the Special Exemption card"
            if item == "exemption"
            else self.board[int(item[6:])]["name"]
        )

    def _start_offer(self, seller: int, back: str) -> None:
        self.offers_used[seller] += 1
        self.offer = {"seller": seller, "item": None, "buyer": None, "price": None, "back": back}
        items = self._offer_items(seller, limit=False)
        self.ask(seller, "choose", "Offer what for sale?", [*items, "cancel"], tag="offer_item",
                 labels={it: self.item_name(it) for it in items})  # fmt: skip

    def _on_offer_item(self, action: Any) -> None:
        o = self.offer
        if action == "cancel":
            self.offer = None
            self._back(o["back"])
            return
        o["item"] = action
        buyers = self._buyers(o["seller"], action)
        self.ask(o["seller"], "player", f"Offer {self.item_name(action)} to whom?", buyers,
                 tag="offer_to")  # fmt: skip

    def _on_offer_to(self, action: Any) -> None:
        o = self.offer
        o["buyer"] = action
        self.ask(o["seller"], "amount",
                 f"Price for {self.item_name(o['item'])} to {self.players[action]} "
                 f"($1-${self.cash(action):,}, their cash)", ("cancel",),
                 low=1, high=self.cash(action), tag="offer_price")  # fmt: skip

    def _on_offer_price(self, action: Any) -> None:
        o = self.offer
        if action == "cancel":
            self.offer = None
            self._back(o["back"])
            return
        o["price"] = action
        self.emit("offer", f"{self.players[o['seller']]} offers {self.item_name(o['item'])} to "
                  f"{self.players[o['buyer']]} for ${action:,}.", **{k: o[k] for k in ("seller", "buyer", "price", "item")})  # fmt: skip
        self.ask(o["buyer"], "choose",
                 f"{self.players[o['seller']]} offers you {self.item_name(o['item'])} for ${action:,}",
                 ("accept", "refuse"), tag="offer_reply")  # fmt: skip

    def _on_offer_reply(self, action: Any) -> None:
        o, self.offer = self.offer, None
        seller, buyer, item, price = o["seller"], o["buyer"], o["item"], o["price"]
        if action == "accept":
            self.transfer(self.wallet(buyer), self.wallet(seller), price,
                          f"buys {self.item_name(item)}")  # fmt: skip
            if item == "exemption":
                self.exemption = buyer
            else:
                self.owner[int(item[6:])] = buyer
            self.emit("sold", f"{self.players[buyer]} buys {self.item_name(item)} from "
                      f"{self.players[seller]} for ${price:,}.", seller=seller, buyer=buyer)  # fmt: skip
        else:
            self.emit("refused", f"{self.players[buyer]} refuses the offer.", seat=buyer)
        self._back(o["back"])

    # ----- money owed, raising money, bankruptcy, the Bank ---------------------------------------
    def _bank_pays(self, seat: int, amount: int, reason: str) -> None:
        """The Bank pays ``amount``; if it holds less, it pays what it has and is broken."""
        have = self.ledger[BANK]
        self.transfer(BANK, self.wallet(seat), min(have, amount), reason)
        if have < amount:
            self.bank_broken = True
            self.emit("bank_broken", f"The Bank cannot pay ${amount:,}: the Bank is broken.")

    def _proceed(self) -> None:
        """Settle the money owed, in order, then carry on with :attr:`resume`."""
        while self.debts:
            debtor, dst, amount, reason = self.debts[0]
            if self.cash(debtor) >= amount:
                self.transfer(self.wallet(debtor), dst, amount, reason)
                self.debts.pop(0)
                continue
            opts = self._debt_options(debtor)
            if opts:
                self.ask(debtor, "choose",
                         f"You owe ${amount:,} ({reason}) and hold ${self.cash(debtor):,}: "
                         "mortgage or sell", opts, tag="debt",
                         labels=self._debt_labels(opts))  # fmt: skip
                return
            self._go_bankrupt(debtor)
            return
        step, self.resume = self.resume, None
        if step == "move":
            self._dice_move()
        elif step in ("land", "card_land"):
            self._land(by_card=step == "card_land")
        elif step == "post":
            if self.card_moved and self.options["card_move_ends_turn"]:
                self.emit("turn_ended", f"{self.players[self.current]}'s turn is ended by the "
                          "card.", seat=self.current)  # fmt: skip
                self._end_turn()
            else:
                self._ask_post()

    def _debt_options(self, seat: int) -> list:
        opts = [f"mortgage:{i}" for i in self.holdings(seat) if self.can_mortgage(seat, i)]
        if self._offer_items(seat, first=True):
            opts.append("offer")
        if opts and not any(o.startswith("mortgage:") for o in opts):
            opts.append("bankrupt")  # everything mortgaged: offers are optional
        return opts

    def _debt_labels(self, opts: list) -> dict:
        out = {}
        for o in opts:
            if o.startswith("mortgage:"):
                i = int(o[9:])
                out[o] = f"Mortgage {self.board[i]['name']} (+${self.board[i]['M']:,})"
        out["offer"] = "Offer a holding for sale"
        out["bankrupt"] = "Give up: declare bankruptcy"
        return out

    def _on_debt(self, action: Any) -> None:
        seat = self.pending.player
        if action == "bankrupt":
            self._go_bankrupt(seat)
        elif action == "offer":
            self._start_offer(seat, "debt")
        else:
            self._mortgage(seat, int(action[9:]))
            self._proceed()

    def _go_bankrupt(self, seat: int) -> None:
        _, dst, amount, reason = self.debts[0]
        self.transfer(self.wallet(seat), dst, self.cash(seat), f"{reason}: all that is left")
        self.bankrupt = seat
        self.debts = []
        self.emit("bankrupt", f"{self.players[seat]} cannot pay ${amount:,} and is bankrupt.",
                  seat=seat)  # fmt: skip
        self._end_game(f"{self.players[seat]} is bankrupt")

    # ----- the end of a turn, of the game ----------------------------------------------------------
    def _end_turn(self) -> None:
        self.turns += 1
        n = len(self.players)
        self.current = (self.current + 1) % n
        if self.current == self.first:
            cap = self.options["max_rounds"]
            if cap and self.round >= cap:
                self._end_game(f"the turn cap ({cap} rounds) is reached")
                return
            self.round += 1
        self._start_turn()

    def _end_game(self, why: str) -> None:
        self.end_reason = why
        self.auction = self.offer = None
        self.emit("end", f"The game ends: {why}.")
        sc = self.scores()
        alive = [s for s in range(len(self.players)) if s != self.bankrupt]
        best = max(sc[self.players[s]] for s in alive)
        self.finish([s for s in alive if sc[self.players[s]] == best])

    # ----- rules as questions (used by the rules, the views and the bots) ---------------------------
    def holdings(self, seat: int) -> list[int]:
        """Spaces ``seat`` owns, in board order."""
        return [i for i, o in enumerate(self.owner) if o == seat]

    def profile(self, seat: int) -> tuple[int, int]:
        """``(house pieces on the board, sides with a property)`` of ``seat``; a subdivision
        uses one piece, a utility or public building one. Sides are a bitmask: bit ``k - 1``
        is set when ``seat`` owns a property on side ``k`` (all four: :data:`ALL_SIDES`)."""
        pieces = sides = 0
        for i in self.ownable:
            if self.owner[i] == seat:
                pieces += self._pieces(i)
                if self.is_prop[i]:
                    sides |= self.side_bit[i]
        return pieces, sides

    def pieces_used(self, seat: int) -> int:
        """House pieces of ``seat``'s colour on the board (a subdivision uses one)."""
        return self.profile(seat)[0]

    def _pieces(self, i: int) -> int:
        h = self.houses[i]
        return (1 if h == 5 else h) if self.is_prop[i] else 1

    def may_acquire(self, seat: int, i: int, bought: bool = False, prof=None) -> bool:
        """May ``seat`` become owner of space ``i`` (rule of four sides, house pieces left)?
        ``bought`` = by a re-sale, taking over the space's houses too. Money is not checked.
        ``prof`` = ``self.profile(seat)`` if already known."""
        pieces, sides = prof or self.profile(seat)
        kind = self.board[i]["kind"]
        need = self._pieces(i) if bought else 1
        if pieces + need > self.data["houses_per_player"]:
            return False
        if kind != "property" or not self.four_sides_rule or sides == ALL_SIDES:
            return True
        bit = self.side_bit[i]
        if sides & bit:
            return False
        if bought and self.houses[i] > 1:  # more than one house needs all four sides
            return sides | bit == ALL_SIDES
        return True

    def can_build(self, seat: int, i: int, prof=None) -> bool:
        """May ``seat`` build a house on ``i`` now (own unmortgaged property under 5 houses,
        four sides owned unless the rule is off, a piece left, cash for B)?"""
        sp = self.board[i]
        if not (sp["kind"] == "property" and self.owner[i] == seat and not self.mortgaged[i]
                and 1 <= self.houses[i] < 5 and self.cash(seat) >= sp["B"]):  # fmt: skip
            return False
        pieces, sides = prof or self.profile(seat)
        return self.sides_allow_building(sides) and (
            self.houses[i] == 4 or pieces < self.data["houses_per_player"]
        )

    def sides_allow_building(self, sides: int) -> bool:
        """Does the rule of four sides let a player with ``sides`` (a bitmask, see
        :meth:`profile`) build at all: a property on every side, or the rule off?"""
        return not self.four_sides_rule or sides == ALL_SIDES

    def can_mortgage(self, seat: int, i: int) -> bool:
        """Own, unmortgaged property or public building (utilities cannot be mortgaged)."""
        return self.owner[i] == seat and not self.mortgaged[i] and "M" in self.board[i]

    def can_lift(self, seat: int, i: int) -> bool:
        """May ``seat`` lift the mortgage on ``i`` now (owns it, mortgaged, cash for the cost)?"""
        return self.mortgaged[i] and self.owner[i] == seat and self.cash(seat) >= self.lift_cost(i)

    def lift_cost(self, i: int) -> int:
        """Dollars to lift the mortgage on ``i``: M plus 10% interest (rounded up)."""
        return lift_cost(self.board[i]["M"], self.data["lift_interest_percent"])

    def rent(self, i: int) -> int:
        """Rent of space ``i`` as it stands (dollars; 0 if unowned or mortgaged)."""
        sp = self.board[i]
        if self.owner[i] is None or self.mortgaged[i]:
            return 0
        return sp["rents"][self.houses[i] - 1] if sp["kind"] == "property" else sp["rent"]

    def holding_value(self, i: int) -> int:
        """Score value of holding ``i``: B x houses for a property, 3 x rent (or the board's
        ``value``) for a utility or public building, 0 if mortgaged (rulebook "Scoring")."""
        sp = self.board[i]
        if self.mortgaged[i]:
            return 0
        if sp["kind"] == "property":
            return sp["B"] * self.houses[i]
        return sp.get("value", 3 * sp["rent"])

    def scores(self) -> dict[str, int]:
        """``{name: dollars}``: cash plus the value of every unmortgaged holding."""
        vals = [self.cash(s) for s in range(len(self.players))]
        for i, o in enumerate(self.owner):
            if o is not None:
                vals[o] += self.holding_value(i)
        return dict(zip(self.players, vals, strict=True))

    def observation(self, seat: int) -> dict:
        """The whole table (everything is public) but not the order of the Give or Take pack."""
        obs = super().observation(seat)
        obs.update(
            round=self.round,
            current=self.current,
            positions=list(self.pos),
            backed=list(self.backed),  # backward crossings of Bonus still to make up
            owner=list(self.owner),
            houses=list(self.houses),
            mortgaged=list(self.mortgaged),
            hospital=self.ledger[HOSPITAL],
            bank=self.ledger[BANK],
            exemption=self.exemption,
            dice=self.dice,
            last_card=self.last_card,
            auction=None if self.auction is None else dict(self.auction),
            offer=None if self.offer is None else dict(self.offer),
            deck=self.deck.public_view(),
            scores=self.scores(),
        )
        return obs

    # ----- exact chances ------------------------------------------------------------------------------
    def pack_left(self) -> dict[str, int]:
        """``{card id: copies}`` still to be drawn before the next reshuffle, from public facts
        only (the whole pack minus the discards and the kept Special Exemption card); when the
        draw pile is empty, the discards that a reshuffle would bring back."""
        if not self.deck.draw_pile:
            left: dict[str, int] = {}
            for c in self.deck.discard_pile:
                left[c] = left.get(c, 0) + 1
            return left
        left = {c: v["count"] for c, v in self.cards.items()}
        for c in self.deck.discard_pile:
            left[c] -= 1
        if self.exemption is not None:
            left["exemption"] -= 1
        return {c: n for c, n in left.items() if n > 0}

    def next_landing(self, seat: int | None = None) -> dict[int, Fraction]:
        """Exact chance of each space being where ``seat``'s man stops on its next throw:
        ``{space: Fraction}`` summing to 1. Two fair dice; doubles draw a Give or Take card
        first (each card left in the pack equally likely: :meth:`pack_left`), a moving card
        replaces the dice move; the first move counts the start space as one."""
        seat = self.current if seat is None else seat
        size, pos = len(self.board), self.pos[seat]
        pack = self.pack_left()
        total = sum(pack.values())
        out: dict[int, Fraction] = {}

        def add(space: int, p: Fraction) -> None:
            out[space % size] = out.get(space % size, Fraction(0)) + p

        for d1 in range(1, 7):
            for d2 in range(1, 7):
                p = Fraction(1, 36)
                end = pos + d1 + d2 - (0 if self.started[seat] else 1)
                if d1 != d2 or not total:
                    add(end, p)
                    continue
                for cid, n in pack.items():
                    card, q = self.cards[cid], p * Fraction(n, total)
                    if card["effect"] == "move_to":
                        add(self.names[card["target"]], q)
                    elif card["effect"] == "back":
                        add(pos - card["amount"], q)
                    else:
                        add(end, q)
        return out

    # ----- the greedy bot ---------------------------------------------------------------------------
    def value_to(self, seat: int, i: int) -> int:
        """What holding ``i`` is worth to ``seat`` (greedy bot): its score value plus two
        landings' rent, or its mortgage value if higher; minus the lift cost if mortgaged."""
        sp = self.board[i]
        if sp["kind"] == "property":
            h = max(1, self.houses[i])
            v = sp["B"] * h + sp["rents"][h - 1] * 2
        else:
            v = sp.get("value", 3 * sp["rent"]) + 2 * sp["rent"]
        v = max(v, sp.get("M", 0))
        if self.mortgaged[i]:
            v -= self.lift_cost(i)
        return v

    def greedy_action(self, rng: random.Random) -> Any:
        """Heuristic using only public facts: buy what it can afford keeping $150; bid up to
        the holding's value (halving the gap each raise); build where rent rises most per dollar
        keeping $300; lift mortgages when rich; in debt mortgage the cheapest holding first;
        accept offers below value; never starts an offer except to pay a debt."""
        d = self.pending
        s = d.player
        tag = d.tag
        cash = self.cash(s)
        if tag in ("turn", "post") and cash < BUILD_RESERVE:  # it keeps $300: no build, lift
            return "roll" if tag == "turn" else "end"
        if tag in ("turn", "post"):  # asks can_build/can_lift, as the options do
            best, best_gain = None, 0.0
            mine, prof = self.holdings(s), self.profile(s)
            for i in mine if self.sides_allow_building(prof[1]) else ():
                sp = self.board[i]
                price = sp.get("B")  # properties only
                if (price is not None and cash - price >= BUILD_RESERVE
                        and self.can_build(s, i, prof)):  # fmt: skip
                    h = self.houses[i]
                    gain = (sp["rents"][h] - sp["rents"][h - 1]) / sp["B"]
                    if gain > best_gain:
                        best, best_gain = f"build:{i}", gain
            for i in mine if best is None else ():
                if (
                    self.mortgaged[i]
                    and self.can_lift(s, i)
                    and cash - self.lift_cost(i) >= BUILD_RESERVE
                ):
                    best = f"lift:{i}"
                    break
            if best is not None:
                return best
            return "roll" if tag == "turn" else "end"
        if tag in ("buy", "lone_bidder"):
            i = self.pos[self.current] if tag == "buy" else self.auction["space"]
            return "buy" if cash - self.board[i]["B"] >= RESERVE else "decline"
        if tag == "bid":
            i = self.auction["space"]
            limit = min(self.value_to(s, i), cash - RESERVE)
            if d.low > limit:
                return "pass"
            return max(d.low, min(limit, d.low + (limit - d.low) // 2))
        if tag == "debt":
            morts = [o for o in d.options if o.startswith("mortgage:")]
            if morts:
                return min(morts, key=lambda o: (self.holding_value(int(o[9:])), o))
            return "offer" if "offer" in d.options else "bankrupt"
        if tag == "offer_item":
            items = [o for o in d.options if o != "cancel"]
            return min(
                items, key=lambda it: 0 if it == "exemption" else self.holding_value(int(it[6:]))
            )
        if tag == "offer_to":
            return max(d.options, key=lambda p: (self.cash(p), -p))
        if tag == "offer_price":
            o = self.offer
            v = 50 if o["item"] == "exemption" else self.value_to(o["buyer"], int(o["item"][6:]))
            return max(d.low, min(d.high, v))
        if tag == "offer_reply":
            o = self.offer
            v = 50 if o["item"] == "exemption" else self.value_to(s, int(o["item"][6:]))
            return "accept" if o["price"] <= v and cash - o["price"] >= RESERVE else "refuse"
        return d.options[0]
