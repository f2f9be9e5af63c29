"""Money Moves, a dice-and-pot party game, whole in one file.

Source: ``rulebooks/money-moves.txt`` (numbered sections 1-10 and "Winning The Game");
reconstructed pieces are in ``cards.toml`` and listed in ``docs/money_moves.md``.

The game, top to bottom as in the rulebook:

1-4. Setup: each player gets $7 from the House Bank; the pot starts empty.
5.   Opening roll: everyone rolls the money die; the highest starts; tied highest re-roll.
6-8. A turn: the player rolls the money die (1-6) and the task die. The money die is both an
     amount ($1-$6) and a seat distance (the 1st-6th other player to the left or right,
     counting on around the table).
9.   Tasks: 7 (pay the amount into the pot), 11 (draw a card; a PotLuck card drawn this way is
     kept as a second chance and another card is drawn), PL (draw a card: PotLuck wins the pot,
     anything else is done; a player already holding PotLuck wins the pot at once), SAFE
     (nothing), RE-L / RE-R (the player the die points to on the left / right pays you).
     A kept PotLuck card lasts until its holder rolls PL (option ``second_chance``).
     Wild Card: kept; whenever a roll or card task (anyone's) would make its holder pay, the
     holder is asked first and may play it to be spared that payment.
10.  Rounds end when Round Over is drawn: every score goes on the score sheet; a player with
     $0 must borrow $1-$7 from the House Bank (at most $7 owed) or leave; a loan is repaid out
     of the money the borrower wins afterwards, as it comes in, always leaving them $1 (option
     ``loan_repayment``). At most 5 rounds; Game Over ends the game at once; so does one player
     holding all the money.
Win. The best score on the last line of the score sheet (option ``winner_by``) wins what is left
     in the pot. The score is the same figure on the sheet and for the winner: money minus
     what is owed to the House Bank (option ``score``).

Decided here (the rulebook is silent; see docs/money_moves.md): a player who owes more than
they hold pays what they have and stays in the round; counting seats skips the roller; tied
winners share the pot and any odd dollars stay in it.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.chance import Deck, Die
from ...core.data import load_cached, load_toml, names_files, require
from ...core.errors import IllegalAction
from ...core.game import Game
from ...core.turns import OpeningRoll
from .schema import CardsFile

HOUSE_BANK = "House Bank"
POT = "Pot"

#: every card effect the rules below know; cards.toml may use only these
EFFECTS = (
    "potluck", "give_left", "give_right", "nothing", "wild", "lucky7", "ching", "whomp",
    "round_over", "game_over", "feed_pot", "double_trouble", "half_pot", "chip_in",
    "take_richest", "share_poorest", "pick_pocket",
)  # fmt: skip

TASK_NAMES = {
    "7": "Unlucky Seven",
    "11": "Chance",
    "PL": "PotLuck",
    "SAFE": "Safe",
    "RE-L": "Receive from the left",
    "RE-R": "Receive from the right",
}


@names_files({"cards.toml": "path"})
def load_cards(path: str | None = None) -> dict:
    """Read and check ``cards.toml`` (or the house-rule file at ``path``).

    Returns the TOML as a dict with ``card`` a list of ``{id, title, text, effect, count}``.

    Raises:
        ValueError: a missing field, an unknown effect, a non-positive count, 18 kinds not
            present when the default file is used, or bad dice.
    """
    data = load_toml(__package__, "cards.toml", path, CardsFile)
    for key in ("starting_money", "max_loan", "rounds", "money_die", "task_die", "card"):
        require(key in data, f"cards.toml: missing {key!r}")
    require(data["money_die"] == [1, 2, 3, 4, 5, 6], "cards.toml: the money die must be 1-6")
    require(
        sorted(data["task_die"]) == sorted(TASK_NAMES),
        f"cards.toml: the task die faces must be {sorted(TASK_NAMES)}",
    )
    ids = set()
    for card in data["card"]:
        for key in ("id", "title", "text", "effect", "count"):
            require(key in card, f"cards.toml: a card lacks {key!r}: {card}")
        require(card["effect"] in EFFECTS, f"cards.toml: unknown effect {card['effect']!r}")
        require(
            type(card["count"]) is int and card["count"] > 0,
            f"cards.toml: card {card['id']!r} needs a positive count",
        )
        require(card["id"] not in ids, f"cards.toml: card id {card['id']!r} repeated")
        ids.add(card["id"])
    effects = {c["effect"] for c in data["card"]}
    require("round_over" in effects, "cards.toml: the deck needs a Round Over card")
    return data


class MoneyMoves(Game):
    """Money Moves for 2-8 players (the rulebook sets no limit; a 6-sided money die points at
    up to six others, so 2-8 players keeps every seat reachable).

    Options:
        rounds (int): most rounds in a game, 1-5 (rulebook: up to 5).
        max_turns (int): safety cap on turns; reaching it ends the game as Game Over
            (reconstruction; a real game is far shorter).
        loan_repayment (str): how a House Bank loan is paid back (section 10, "paid back as
            additional money is won"): ``"winnings"`` (default) — each sum the borrower receives
            goes to the House Bank first, up to what is owed, but never so much that their
            wallet drops below $1; ``"wallet"`` — at each receipt, everything in the wallet
            above $1 goes to the House Bank (the unspent loan included).
        score (str): the figure on the score sheet and for the winner: ``"net"`` (default,
            wallet minus what is owed to the House Bank: borrowed dollars were not won) or
            ``"gross"`` (wallet only, the money "left" in front of the player).
        winner_by (str): ``"last"`` (default): the best score of the last line of the score
            sheet wins; ``"total"``: the best sum of all its lines (section "Winning").
        second_chance (str): how long a PotLuck card kept on an 11 lasts (section 9):
            ``"until_pl"`` (default) until its holder next rolls PL, however many turns later;
            ``"next_turn"``: for the holder's next roll only (not PL: the card is discarded).
        data_file (str): path of a house-rule ``cards.toml``; "" uses the shipped one.

    Accounts: ``"House Bank"`` (may go negative: it lends), ``"Pot"``, ``"wallet:<name>"``.
    """

    name = "money_moves"
    title = "Money Moves"
    min_players = 2
    max_players = 8
    default_options = {
        "rounds": 5,
        "max_turns": 5000,
        "data_file": "",
        "loan_repayment": "winnings",
        "score": "net",
        "winner_by": "last",
        "second_chance": "until_pl",
    }
    rulebook = "rulebooks/money-moves.txt"
    #: what happened last, for views (no rule reads it): see Game.record_only
    record_only = ("last_roll", "last_cards")

    @classmethod
    def _validate_options(cls, options: dict) -> None:
        if not 1 <= options["rounds"] <= 5:
            raise ValueError(
                f"rounds must be 1 to 5 (the rulebook's most), got {options['rounds']}"
            )
        if options["max_turns"] < 1:
            raise ValueError("max_turns must be at least 1")
        if options["loan_repayment"] not in ("winnings", "wallet"):
            raise ValueError(
                f"loan_repayment must be 'winnings' or 'wallet', got {options['loan_repayment']!r}"
            )
        for key, allowed in (
            ("score", ("net", "gross")),
            ("winner_by", ("last", "total")),
            ("second_chance", ("until_pl", "next_turn")),
        ):
            if options[key] not in allowed:
                raise ValueError(f"{key} must be one of {allowed}, got {options[key]!r}")

    # ----- 1-5: setup and the opening roll ----------------------------------------------------
    def _setup(self) -> None:
        self.data = load_cached(load_cards, self.options["data_file"] or None)
        self.cards = {c["id"]: c for c in self.data["card"]}
        self.money_die = Die(tuple(self.data["money_die"]))
        self.task_die = Die(tuple(self.data["task_die"]))
        self.deck = Deck.from_counts(
            {c["id"]: c["count"] for c in self.data["card"]}, self.chance("cards")
        )
        self.ledger.open(HOUSE_BANK, 0, may_go_negative=True)
        self.ledger.open(POT, 0)
        for p in self.players:
            self.ledger.open(self.wallet(p), 0)
            self.transfer(HOUSE_BANK, self.wallet(p), self.data["starting_money"], "starting money")
        n = len(self.players)
        self.loans = [0] * n  # dollars owed to the House Bank
        self.held: list[list[str]] = [[] for _ in range(n)]  # kept cards (PotLuck, Wild Card)
        self.out = [False] * n  # left the game (broke and did not borrow)
        self.round = 1
        self.turns = 0
        self.score_sheet: list[dict[str, int]] = []
        self.last_roll: tuple[int, str] | None = None
        self.last_cards: list[str] = []
        self.current = 0
        # a task waiting on a decision: "payments" (payer seat, to seat or POT, dollars, why)
        # not made yet and "asked" (Wild Card holders already asked), or "task" (Pick a Pocket)
        self.stash: dict[str, Any] = {}
        # opening roll: every player rolls once; tied highest roll again
        self.opening: OpeningRoll | None = OpeningRoll(list(range(n)))
        self._ask_opening()

    def wallet(self, player: str | int) -> str:
        """Account name of a player's wallet (by name or seat)."""
        name = self.players[player] if isinstance(player, int) else player
        return f"wallet:{name}"

    def _ask_opening(self) -> None:
        seat = self.opening.next_roller
        self.ask(seat, "roll", "Opening roll: roll the money die", ("roll",), tag="opening_roll")

    def _opening_roll(self) -> None:
        seat = self.opening.next_roller
        value = self.money_die.roll(self.chance("money die"))
        self.emit("rolled", f"{self.players[seat]} rolled {value} to open.", seat=seat, money=value)
        outcome, top, best = self.opening.record(value)
        if outcome == "tie":
            names = ", ".join(self.players[s] for s in top)
            self.emit("tie", f"{names} tied with {best}: they roll again.", seats=top)
        if outcome != "start":
            self._ask_opening()
            return
        self.opening = None
        self.current = top[0]
        self.emit("starts", f"{self.players[top[0]]} starts.", seat=top[0])
        self._ask_roll()

    # ----- 6-9: a turn --------------------------------------------------------------------------
    def _ask_roll(self) -> None:
        self.ask(self.current, "roll", "Roll both dice", ("roll",), tag="roll")

    def _apply(self, action: Any) -> None:
        tag = self.pending.tag
        if tag == "opening_roll":
            self._opening_roll()
        elif tag == "roll":
            self._turn_roll()
        elif tag == "wild_card":
            self._wild_answer(action)
        elif tag == "pick_player":
            task = self.stash.pop("task")
            if not self._payments([(action, self.current, task["m"], "Pick a Pocket")]):
                self._end_turn()
        elif tag == "borrow":
            self._borrow_answer(action)
        else:  # pragma: no cover - every tag set above is handled
            raise IllegalAction(f"unknown decision {tag!r}")

    def other_seat(self, seat: int, distance: int, direction: str) -> int | None:
        """The ``distance``-th other player still in the game to ``direction`` of ``seat``.

        Counting goes on around the table and skips ``seat`` itself (decided here: the
        rulebook does not say what happens when the count passes the roller). Seats are
        clockwise, the left neighbour being ``seat + 1``. None if no one else is in.
        """
        n = len(self.players)
        step = 1 if direction == "left" else -1
        others = [(seat + step * k) % n for k in range(1, n)]
        others = [s for s in others if not self.out[s]]
        if not others:
            return None
        return others[(distance - 1) % len(others)]

    def _turn_roll(self) -> None:
        seat = self.current
        m = self.money_die.roll(self.chance("money die"))
        task = self.task_die.roll(self.chance("task die"))
        self.last_roll = (m, task)
        self.last_cards = []
        self.turns += 1
        self.emit(
            "rolled",
            f"{self.players[seat]} rolled {m} and {task} ({TASK_NAMES[task]}).",
            seat=seat,
            money=m,
            task=task,
        )
        kept = self.held_card(seat, "potluck")
        if kept is not None and task != "PL" and self.options["second_chance"] == "next_turn":
            self.held[seat].remove(kept)
            self.deck.discard(kept)
            self.emit("second_chance_lost", f"{self.players[seat]} did not roll PL: the kept "
                      "PotLuck card is spent.", seat=seat)  # fmt: skip
        if task == "SAFE":
            self.emit("safe", f"{self.players[seat]} is safe: no task.", seat=seat)
        elif task == "7":
            if self._payments([(seat, POT, m, "Unlucky Seven")]):
                return
        elif task in ("RE-L", "RE-R"):
            direction = "left" if task == "RE-L" else "right"
            giver = self.other_seat(seat, m, direction)
            if giver is not None and self._payments([(giver, seat, m, TASK_NAMES[task])]):
                return
        elif task == "PL":
            kept = self.held_card(seat, "potluck")
            if kept is not None:
                self.held[seat].remove(kept)
                self.deck.discard(kept)
                self.emit("second_chance", f"{self.players[seat]} plays the kept PotLuck card.")
                self._win_pot(seat)
            else:
                card = self._draw(m)
                if self.cards[card]["effect"] == "potluck":
                    self.deck.discard(card)
                    self._win_pot(seat)
                else:
                    if self._do_card(card, m):
                        return
        elif task == "11":
            card = self._draw(m)
            while self.cards[card]["effect"] == "potluck":
                self.held[seat].append(card)
                self.emit("kept", f"{self.players[seat]} keeps PotLuck for a second chance.")
                card = self._draw(m)
            if self._do_card(card, m):
                return
        self._end_turn()

    def _draw(self, m: int) -> str:
        card = self.deck.draw(self.chance("cards"))
        self.last_cards.append(card)
        c = self.cards[card]
        text = c["text"].replace("$m", f"${m}")  # the money die gives the card's amount
        self.emit("drew", f"{self.players[self.current]} drew {c['title']}: {text}",
                  seat=self.current, card=card)  # fmt: skip
        return card

    def _do_card(self, card: str, m: int) -> bool:
        """Carry out ``card`` for the current player with money die ``m``.

        Returns True when the turn now waits on a decision (Wild Card, pick a player, borrow)
        or the game ended, so the caller must not end the turn.
        """
        effect = self.cards[card]["effect"]
        seat = self.current
        if effect == "wild":
            self.held[seat].append(card)
            self.emit("kept", f"{self.players[seat]} keeps the Wild Card.")
            return False
        self.deck.discard(card)
        return self._card_effect(effect, seat, m, card)

    def _card_effect(self, effect: str, seat: int, m: int, card: str) -> bool:
        """Carry out a drawn card's ``effect`` (never its id: a house-rule deck may name its
        cards freely). Returns True when the turn waits on a decision or the game ended."""
        title = self.cards[card]["title"]
        left = self._left_order(seat)
        pay: list[tuple] = []  # (payer seat, to seat or POT, dollars, why)
        if effect in ("give_left", "give_right"):
            target = self.other_seat(seat, m, "left" if effect == "give_left" else "right")
            if target is not None:
                pay = [(seat, target, m, title)]
        elif effect == "lucky7":
            self._take_from_pot(seat, min(7, self.ledger[POT]), title)
        elif effect == "half_pot":
            self._take_from_pot(seat, self.ledger[POT] // 2, title)
        elif effect == "ching":
            pay = [(s, seat, 1, title) for s in left]
        elif effect == "whomp":
            pay = [(seat, s, 1, title) for s in left]
        elif effect == "feed_pot":
            pay = [(seat, POT, m, title)]
        elif effect == "double_trouble":
            pay = [(seat, POT, 2 * m, title)]
        elif effect == "chip_in":
            pay = [(s, POT, 1, title) for s in [seat] + left]
        elif effect in ("take_richest", "share_poorest") and left:
            cash = [self.cash(s) for s in left]  # ties go to the nearest on the left
            want = max(cash) if effect == "take_richest" else min(cash)
            target = left[cash.index(want)]
            if effect == "take_richest":
                pay = [(target, seat, m, title)]
            else:
                pay = [(seat, target, m, title)]
        elif effect == "pick_pocket":
            targets = [s for s in self._left_order(seat) if self.cash(s) > 0]
            if targets:
                self.stash["task"] = {"m": m}
                self.ask(
                    seat,
                    "player",
                    f"Pick a Pocket: choose who gives you ${m}",
                    targets,
                    labels={s: f"{self.players[s]} (${self.cash(s)})" for s in targets},
                    tag="pick_player",
                )
                return True
            self.emit("nothing", "Nobody has money to pick.")
        elif effect == "round_over":
            return self._round_over()
        elif effect == "game_over":
            self.emit("game_over_card", "Game Over was drawn.")
            self._game_over()
            return True
        return self._payments(pay)

    def _left_order(self, seat: int) -> list[int]:
        n = len(self.players)
        return [(seat + k) % n for k in range(1, n) if not self.out[(seat + k) % n]]

    # ----- money moving ---------------------------------------------------------------------
    def _pay_capped(self, src_seat: int, dst: int | str, amount: int, reason: str) -> int:
        """``src_seat`` pays ``amount`` to a seat or the pot; a player who holds less pays all
        they have (decided here; see module docstring). Receipts repay loans."""
        paid = min(amount, self.cash(src_seat))
        dst_account = dst if isinstance(dst, str) else self.wallet(dst)
        if paid < amount:
            self.emit(
                "short",
                f"{self.players[src_seat]} owes ${amount} but has only ${paid}.",
                seat=src_seat,
                owed=amount,
                paid=paid,
            )
        self.transfer(self.wallet(src_seat), dst_account, paid, reason)
        if not isinstance(dst, str):
            self._repay(dst, paid)
        return paid

    def _take_from_pot(self, seat: int, amount: int, reason: str) -> None:
        self.transfer(POT, self.wallet(seat), amount, reason)
        self._repay(seat, amount)

    def _win_pot(self, seat: int) -> None:
        pot = self.ledger[POT]
        if pot == 0:
            self.emit("empty_pot", "The pot is empty: better luck next time.")
            return
        self.emit("won_pot", f"{self.players[seat]} wins the pot of ${pot}!", seat=seat, amount=pot)
        self._take_from_pot(seat, pot, "PotLuck")

    def _repay(self, seat: int, received: int) -> None:
        """``seat`` just received ``received`` dollars: pay their House Bank loan back as the
        option ``loan_repayment`` says (section 10: paid back as money is won, keeping $1)."""
        if not self.loans[seat] or received <= 0:
            return
        room = self.cash(seat) - 1  # the borrower always keeps $1
        if self.options["loan_repayment"] == "winnings":
            room = min(room, received)
        amount = min(self.loans[seat], room)
        if amount > 0:
            self.loans[seat] -= amount
            self.transfer(self.wallet(seat), HOUSE_BANK, amount, "loan repayment")

    def held_card(self, seat: int, effect: str) -> str | None:
        """Id of a kept card of ``seat`` whose effect is ``effect`` ("potluck", "wild"), or
        None. Behaviour follows a card's effect, never its id (house-rule decks name cards)."""
        for card in self.held[seat]:
            if self.cards[card]["effect"] == effect:
                return card
        return None

    # ----- paying, and the Wild Card ------------------------------------------------------------
    def _payments(self, payments: list[tuple]) -> bool:
        """Make a task's ``payments`` (``(payer seat, to seat or POT, dollars, why)``, in
        order), first asking each payer who keeps a Wild Card and has money whether to play
        it (on anyone's turn: the card spares its holder any task they do not like).

        Returns True when the game now waits on a Wild Card question; the payments are then
        made after the last answer (:meth:`_wild_answer`), and the turn ends.
        """
        self.stash["payments"] = list(payments)
        self.stash["asked"] = []
        return self._settle()

    def _settle(self) -> bool:
        pays, asked = self.stash["payments"], self.stash["asked"]
        for payer in dict.fromkeys(p[0] for p in pays):
            if payer in asked or self.held_card(payer, "wild") is None or not self.cash(payer):
                continue
            asked.append(payer)
            why = " and ".join(dict.fromkeys(p[3] for p in pays if p[0] == payer))
            self.ask(
                payer,
                "choose",
                f"{why} would cost you ${self.wild_cost(payer)}. Play your Wild Card to be spared?",
                ("use", "keep"),
                labels={"use": "Play Wild Card", "keep": "Keep it, pay"},
                tag="wild_card",
            )
            return True
        del self.stash["payments"], self.stash["asked"]
        for payer, dst, amount, why in pays:
            self._pay_capped(payer, dst, amount, why)
        return False

    def wild_cost(self, seat: int) -> int:
        """Dollars ``seat`` would pay in the task waiting on their Wild Card answer (what they
        owe, capped at what they hold)."""
        owed = sum(p[2] for p in self.stash["payments"] if p[0] == seat)
        return min(owed, self.cash(seat))

    def _wild_answer(self, action: str) -> None:
        seat = self.pending.player
        if action == "use":
            card = self.held_card(seat, "wild")
            self.held[seat].remove(card)
            self.deck.discard(card)
            self.emit("wild", f"{self.players[seat]} plays the Wild Card and pays nothing.",
                      seat=seat)  # fmt: skip
            self.stash["payments"] = [p for p in self.stash["payments"] if p[0] != seat]
        if not self._settle():
            self._end_turn()

    # ----- turn, round and game end ------------------------------------------------------------
    def _end_turn(self) -> None:
        holders = [s for s in range(len(self.players)) if not self.out[s] and self.cash(s) > 0]
        if len(holders) == 1 and self.ledger[POT] == 0:
            s = holders[0]
            self.emit("all_money", f"{self.players[s]} holds all the money.", seat=s)
            self._game_over()
            return
        if self.turns >= self.options["max_turns"]:
            self.emit("turn_cap", f"The turn cap ({self.options['max_turns']}) is reached.")
            self._game_over()
            return
        n = len(self.players)
        nxt = (self.current + 1) % n
        while self.out[nxt]:
            nxt = (nxt + 1) % n
        self.current = nxt
        self._ask_roll()

    def _record_scores(self) -> None:
        self.score_sheet.append(self.scores())

    def _round_over(self) -> bool:
        self._record_scores()
        self.emit("round_over", f"Round {self.round} is over; scores recorded.", round=self.round)
        if self.round >= self.options["rounds"]:
            self._game_over(record=False)
            return True
        self.stash["broke"] = [s for s in range(len(self.players)) if not self.out[s]
                               and self.cash(s) == 0]  # fmt: skip
        return self._next_borrower()

    def _next_borrower(self) -> bool:
        limit = self.data["max_loan"]
        while self.stash["broke"]:
            s = self.stash["broke"][0]
            room = limit - self.loans[s]
            if room > 0:
                self.ask(
                    s,
                    "amount",
                    f"You have $0: borrow $1-${room} from the House Bank, or leave",
                    ("leave",),
                    low=1,
                    high=room,
                    tag="borrow",
                )
                return True
            self.stash["broke"].pop(0)
            self._leave(s, f"owes the House Bank ${self.loans[s]} already")
            if self._one_left():
                return True
        del self.stash["broke"]
        self._new_round()
        return True

    def _borrow_answer(self, action: Any) -> None:
        s = self.stash["broke"].pop(0)
        if action == "leave":
            self._leave(s, "chose not to borrow")
            if self._one_left():
                return
        else:
            self.loans[s] += action
            self.transfer(HOUSE_BANK, self.wallet(s), action, "House Bank loan")
        self._next_borrower()

    def _leave(self, seat: int, why: str) -> None:
        self.out[seat] = True
        for card in self.held[seat]:
            self.deck.discard(card)
        self.held[seat] = []
        self.emit("left", f"{self.players[seat]} leaves the game ({why}).", seat=seat)

    def _one_left(self) -> bool:
        still = [s for s in range(len(self.players)) if not self.out[s]]
        if len(still) == 1:
            self.emit("last_standing", f"{self.players[still[0]]} is the last player standing.")
            self._game_over(record=False)
            return True
        return False

    def _new_round(self) -> None:
        self.round += 1
        held = [c for h in self.held for c in h]
        self.deck.draw_pile.extend(self.deck.discard_pile)
        self.deck.discard_pile = []
        self.deck.shuffle(self.chance("cards"))
        self.emit("new_round", f"Round {self.round} begins; the deck is reshuffled.",
                  round=self.round, held=held)  # fmt: skip
        self._end_turn()

    def _game_over(self, record: bool = True) -> None:
        if record:
            self._record_scores()
        scores = self.scores()
        if self.options["winner_by"] == "total":
            scores = {p: sum(line.get(p, 0) for line in self.score_sheet) for p in self.players}
        active = [s for s in range(len(self.players)) if not self.out[s]]
        best = max(scores[self.players[s]] for s in active)
        winners = [s for s in active if scores[self.players[s]] == best]
        pot = self.ledger[POT]
        share = pot // len(winners)
        for s in winners:
            self.transfer(POT, self.wallet(s), share, "the pot goes to the winner")
        self.stash = {}
        self.finish(winners)

    # ----- reading the state --------------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        """``{name: dollars}``: the figure the score sheet records and the winner is chosen by:
        wallet minus what is owed to the House Bank (option ``score="net"``, the default) or
        the wallet alone (``"gross"``)."""
        net = self.options["score"] == "net"
        return {p: self.cash(i) - (self.loans[i] if net else 0) for i, p in enumerate(self.players)}

    def observation(self, seat: int) -> dict:
        """Everything on the table (all of it is public), but not the deck's order."""
        obs = super().observation(seat)
        obs.update(
            round=self.round,
            current=self.current,
            pot=self.ledger[POT],
            loans=list(self.loans),
            held=[list(h) for h in self.held],
            out=list(self.out),
            score_sheet=list(self.score_sheet),
            last_roll=self.last_roll,
            last_cards=list(self.last_cards),
            deck=self.deck.public_view(),
        )
        return obs

    def greedy_action(self, rng: random.Random) -> Any:
        """Heuristic: always roll; play the Wild Card on a task costing $3 or more or all your
        money; pick the richest pocket; borrow as much as allowed."""
        d = self.pending
        if d.tag == "wild_card":
            cost = self.wild_cost(d.player)
            return "use" if cost >= 3 or cost >= self.cash(d.player) else "keep"
        if d.tag == "pick_player":
            return max(d.options, key=lambda s: self.cash(s))
        if d.tag == "borrow":
            return d.high
        return d.options[0]
