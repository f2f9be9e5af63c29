"""Moolah (LCJ Games, 1983/84), whole in one file.

Source: ``rulebooks/moolah.txt``. Reconstructed pieces (the board, the decks, what Fair Share
Square does, a few readings of unclear sentences) are in ``board.toml`` / ``cards.toml`` and
listed in ``docs/moolah.md``.

The game, top to bottom as in the rulebook:

* Preparation: every player has a Personal Bank Account of $250,000 and a Line of Credit of
  $200,000, and chooses a first withdrawal into the wallet ($50,000 recommended).
* Start: everyone rolls two dice; the highest total starts (tied highest roll again); play
  passes to the left (seat + 1). Tokens start on the Bank and move clockwise.
* The Bank: on stopping there a player may make one deposit or one withdrawal. Balances below
  zero are borrowing on the Line of Credit; a deposit first pays back what is owed. The score
  pad records the old and new balance of every change. Dice movement can never pass the Bank
  (the token stops there); a player sent somewhere by a space or card does not stop there.
* Loan Shark: a payment larger than the wallet borrows the rest; the loan plus 50% is taken off
  the bank account at once. If account and credit cannot cover it, the player is bankrupt
  and out. Bets come from the wallet only, so no bet is ever made with Loan Shark money.
* Mugging: arriving on a space where other players stand takes all their cash, before the
  space acts; never at the Bank, Bufe's, its Exit, Parole, the Big House or a Safe Zone.
* Wall Street (invest >= $10,000 in Grain, Oil or Gold; the stock's top card gives the profit
  or loss), Las Vegas Casino (Black Jack: bet, see your card, stay or raise up to double, the
  House card, closest to 21 wins, ties to the House), Take A Pal, Bufe's Bar & Grill, Moolah,
  The Big House, Prison Break, Option Points, Temptation cards and Advantage cards.
* Doubles roll again (also at the Bank); a player sent away on a doubles roll uses the extra
  roll to cancel one missed turn. Round-Off Clause: money that cannot be paid exactly in $5,000
  bills is rounded to the player's favour. The first Personal Bank Account to reach $1,000,000
  wins.

Every action is a plain JSON value: ``"roll"``, a space id, a seat, an ``int`` amount, or an
option string such as ``"deposit"``, ``"stay"``, ``"advantage:advantage3"``.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

from ...core.chance import Deck
from ...core.data import load_cached, load_toml, names_files, require
from ...core.game import Game
from ...core.words import counted
from .schema import BoardFile, CardsFile

BANK = "bank"  #: the cashier's account (unlimited money: may go negative)
LOAN_SHARK = "loan shark"  #: where Loan Shark interest goes

#: what a board space can do (the ``kind`` field of board.toml)
SPACE_KINDS = (
    "bank", "money", "temptation", "moolah", "safe", "option", "wall_street", "casino", "goto",
    "fair_share", "exit", "take_pal", "parole", "prison_break", "bufes", "max", "min",
)  # fmt: skip
#: kinds that appear exactly once on a board
UNIQUE_KINDS = (
    "bank", "wall_street", "casino", "fair_share", "exit", "take_pal", "parole",
    "prison_break", "bufes", "max", "min",
)  # fmt: skip
#: where nobody can be mugged (rulebook: Getting Mugged, Safe Zone; the Big House: reconstruction)
NO_MUGGING = ("bank", "bufes", "exit", "parole", "safe", "max", "min")
#: turns missed on being sent to these places (rulebook: Bufe's, The Big House)
PENALTY = {"bufes": 1, "max": 2, "min": 1}
#: what a Temptation card can do (the ``kind`` field of cards.toml)
CARD_KINDS = (
    "collect", "pay", "deposit", "collect_each", "pay_each", "lose_half", "goto", "gamble",
    "advantage",
)  # fmt: skip
STOCKS = ("grain", "oil", "gold")
#: how many times a player may answer "Back" (a Bank or Wall Street amount) or "Cancel" (an
#: Advantage card's target) in one turn; after that those answers are not offered and the
#: choice that led there is final. Reconstruction (the rulebook has no Back): without a bound a
#: player could go back and forth for ever at no cost, so a game would not end for every way
#: of playing (issue 29). House rules may set ``max_backs`` in board.toml's ``[rules]``.
MAX_BACKS = 4


# ----- data files ------------------------------------------------------------------------------
class BoardData:
    """The board, rules amounts and decks of one game, read once and shared (read only).

    Attributes: ``rules`` (dict of dollars), ``spaces`` (id -> space dict), ``order`` (ids in
    file order), ``prev`` (id -> ids whose ``next`` holds it), ``unique`` (kind -> id for
    :data:`UNIQUE_KINDS`), ``moolahs`` (ids), ``cards`` (Temptation id -> card dict),
    ``stocks`` (stock -> list of percents), ``casino`` (Black Jack score -> count).
    """

    __slots__ = ("rules", "spaces", "order", "prev", "unique", "moolahs", "cards", "stocks",
                 "casino", "_ends")  # fmt: skip

    def __init__(self, board: dict, cards: dict):
        self.rules = board["rules"]
        self.spaces = {s["id"]: s for s in board["space"]}
        self.order = [s["id"] for s in board["space"]]
        self.prev = {sid: [] for sid in self.order}
        for s in board["space"]:
            for n in s["next"]:
                self.prev[n].append(s["id"])
        self.unique = {s["kind"]: s["id"] for s in board["space"] if s["kind"] in UNIQUE_KINDS}
        self.moolahs = [s["id"] for s in board["space"] if s["kind"] == "moolah"]
        self.cards = {c["id"]: c for c in cards["temptation"]}
        self.stocks = {k: list(cards["stocks"][k]) for k in STOCKS}
        self.casino = {int(k): v for k, v in cards["casino"].items()}
        self._ends: dict = {}

    def __deepcopy__(self, memo: dict) -> BoardData:
        return self  # read only: copies of a game share it

    def ends(self, sid: str, k: int, first: bool = True) -> tuple:
        """Spaces a token on ``sid`` can end on after ``k`` dice steps (one per choice of path
        at Option Points; a token stops at the Bank). ``first``: ``sid`` is where it starts."""
        key = (sid, k, first)
        got = self._ends.get(key)
        if got is None:
            if k == 0 or (not first and self.spaces[sid]["kind"] == "bank"):
                got = (sid,)
            else:
                got = tuple(e for n in self.spaces[sid]["next"] for e in self.ends(n, k - 1, False))
            self._ends[key] = got
        return got


def check_board(data: dict) -> dict:
    """Validate a parsed ``board.toml``; returns it.

    Raises:
        ValueError: a missing rule amount, an unknown kind, a repeated id, a ``next`` or ``to``
            naming no space, an Option Point without two ways on, a unique space missing or
            repeated, fewer than two Moolah spaces, an amount not in whole bills, a loop of
            the track that avoids the Bank (dice could then never be stopped there), or a
            graph that traps a game (see :func:`check_track`).
    """
    require("rules" in data and "space" in data, "board.toml needs [rules] and space = [...]")
    r = data["rules"]
    for key in ("start_account", "credit_line", "suggested_withdrawal", "goal", "denomination",
                "loan_shark_percent", "wall_street_min", "casino_min"):  # fmt: skip
        require(type(r.get(key)) is int and r[key] > 0, f"board.toml: rules.{key} must be > 0")
    r.setdefault("max_backs", MAX_BACKS)
    den = r["denomination"]
    ids = set()
    for s in data["space"]:
        for key in ("id", "name", "kind", "x", "y", "next"):
            require(key in s, f"board.toml: a space lacks {key!r}: {s}")
        require(s["id"] not in ids, f"board.toml: space id {s['id']!r} repeated")
        ids.add(s["id"])
        require(s["kind"] in SPACE_KINDS, f"board.toml: unknown kind {s['kind']!r}")
        require(s.get("amount", 0) % den == 0, f"board.toml: {s['id']} amount not in ${den} bills")
    kinds = Counter(s["kind"] for s in data["space"])
    for k in UNIQUE_KINDS:
        require(kinds[k] == 1, f"board.toml: needs exactly one {k!r} space, has {kinds[k]}")
    require(kinds["moolah"] >= 2, "board.toml: needs at least two Moolah spaces")
    for s in data["space"]:
        for n in s["next"]:
            require(n in ids, f"board.toml: {s['id']}.next names unknown space {n!r}")
        want = {"option": 2, "bufes": 0, "max": 0, "min": 0}.get(s["kind"], 1)
        require(len(s["next"]) == want, f"board.toml: {s['id']} needs {want} next space(s)")
        if s["kind"] == "goto":
            require(s.get("to") in ids, f"board.toml: {s['id']} sends to unknown {s.get('to')!r}")
        if s["kind"] == "money":
            require(s.get("amount", 0) != 0, f"board.toml: money space {s['id']} needs an amount")
    # every loop of the track must pass the Bank: without it the graph has no cycle
    nxt = {s["id"]: [n for n in s["next"]] for s in data["space"] if s["kind"] != "bank"}
    state: dict[str, int] = {}

    def visit(sid: str) -> None:
        state[sid] = 1
        for n in nxt.get(sid, []):
            require(state.get(n) != 1, f"board.toml: a loop through {n!r} avoids the Bank")
            if n in nxt and n not in state:
                visit(n)
        state[sid] = 2

    for sid in nxt:
        if sid not in state:
            visit(sid)
    check_track(data)
    return data


def check_track(data: dict) -> None:
    """The graph of a board whose ids, kinds and counts of ``next`` are checked: a game on it
    can never be trapped (reconstruction of what the rulebook's board guarantees; issue 26).

    * every path leads on: a space a token can step onto (named in some ``next``) has a way
      on itself. Bufe's and the Big House have none: a token is only sent there (a Go To space
      or card) and leaves when its time is served;
    * every goto ends: following Go To spaces from one (``to``, then that space's ``to`` if
      it is a Go To too...) reaches a space that is not a Go To, never itself again;
    * the Bank is reachable as the rules need: from every space on the track, stepping on
      reaches the Bank (a roll is stopped there; the turn's money moves there). The loop check
      of :func:`check_board` then also holds: no loop avoids it.

    Raises:
        DataFileError: naming the space and why ("board.toml: s01.next leads to 'max' ...").
    """
    spaces = {s["id"]: s for s in data["space"]}
    for s in data["space"]:
        for n in s["next"]:
            if not spaces[n]["next"]:
                require(
                    False,
                    f"board.toml: {s['id']}.next leads to {n!r} ({spaces[n]['name']}), which has "
                    "no way on: a token moving past it could never finish its move (a "
                    f"{spaces[n]['kind']!r} space is only reached by being sent there)",
                )
    for s in data["space"]:
        if s["kind"] != "goto":
            continue
        chain = [s["id"]]
        at = s.get("to")
        while spaces[at]["kind"] == "goto":
            chain.append(at)
            require(
                at not in chain[:-1],
                f"board.toml: {s['id']} sends a token round Go To spaces for ever "
                f"({' -> '.join(chain)}): a Go To must end on another kind of space",
            )
            at = spaces[at].get("to")
            require(at in spaces, f"board.toml: {chain[-1]} sends to unknown {at!r}")
    bank = next((s["id"] for s in data["space"] if s["kind"] == "bank"), None)
    reaches = {bank}
    changed = True
    while changed:  # spaces from which stepping on reaches the Bank (a fixed point)
        changed = False
        for s in data["space"]:
            if s["id"] not in reaches and any(n in reaches for n in s["next"]):
                reaches.add(s["id"])
                changed = True
    for s in data["space"]:
        if s["next"] and s["id"] not in reaches:
            require(
                False,
                f"board.toml: from {s['id']} ({s['name']}) no way along the track reaches the "
                "Bank: every path must lead back to it (a roll stops there)",
            )


def check_cards(data: dict, space_ids: set) -> dict:
    """Validate a parsed ``cards.toml`` against the board's space ids; returns it.

    Raises:
        ValueError: a missing or repeated card, an unknown kind, an amount that is not a
            positive whole number of dollars, Advantage steps outside 1-5, a ``goto`` to an
            unknown space, a stock deck missing or with a loss over 100%, or a Black Jack pile
            with fewer than two cards.
    """
    for key in ("temptation", "stocks", "casino"):
        require(key in data, f"cards.toml: missing {key!r}")
    ids = set()
    for c in data["temptation"]:
        require(
            "id" in c and "kind" in c and "text" in c, f"cards.toml: card lacks id/kind/text: {c}"
        )
        require(c["id"] not in ids, f"cards.toml: card id {c['id']!r} repeated")
        ids.add(c["id"])
        k = c["kind"]
        require(k in CARD_KINDS, f"cards.toml: unknown card kind {k!r}")
        if k in ("collect", "pay", "deposit", "collect_each", "pay_each", "gamble"):
            require(
                type(c.get("amount")) is int and c["amount"] > 0, f"cards.toml: {c['id']} amount"
            )
        if k == "gamble":
            require(c.get("target") in range(1, 7), f"cards.toml: {c['id']} target must be 1-6")
            require(
                type(c.get("payout")) is int and c["payout"] > 0, f"cards.toml: {c['id']} payout"
            )
        if k == "advantage":
            require(c.get("steps") in range(1, 6), f"cards.toml: {c['id']} steps must be 1-5")
        if k == "goto":
            require(
                c.get("to") in space_ids, f"cards.toml: {c['id']} goes to unknown {c.get('to')!r}"
            )
    require(len(data["temptation"]) >= 2, "cards.toml: the Temptation pile needs cards")
    for s in STOCKS:
        deck = data["stocks"].get(s)
        require(isinstance(deck, list) and deck, f"cards.toml: stocks.{s} needs cards")
        require(
            all(type(p) is int and p >= -100 for p in deck),
            f"cards.toml: stocks.{s}: percents >= -100",
        )
    casino = data["casino"]
    require(all(k.isdigit() and type(v) is int and v > 0 for k, v in casino.items()),
            "cards.toml: casino maps a score to a positive count")  # fmt: skip
    require(sum(casino.values()) >= 2, "cards.toml: the Black Jack pile needs 2 cards or more")
    return data


@names_files({"board.toml": "board_file", "cards.toml": "cards_file"})
def load_data(board_file: str = "", cards_file: str = "") -> BoardData:
    """Read and check ``board.toml`` and ``cards.toml`` (or house-rule files at those paths).

    Cached: every game with the same files (same paths, unchanged since) shares one read-only
    :class:`BoardData`; an edited house-rule file is read again.

    Raises:
        ValueError: see :func:`check_board` and :func:`check_cards`.
    """
    return load_cached(_read_data, board_file, cards_file)


def _read_data(board_file: str, cards_file: str) -> BoardData:
    board = check_board(load_toml(__package__, "board.toml", board_file or None, BoardFile))
    cards = check_cards(load_toml(__package__, "cards.toml", cards_file or None, CardsFile),
                        {s["id"] for s in board["space"]})  # fmt: skip
    return BoardData(board, cards)


# ----- Black Jack arithmetic (exact; the notebook and the greedy bot use it) --------------------
def closer(a: int, b: int) -> bool:
    """True if score ``a`` is strictly closer to 21 than ``b`` (over or under counts the same).

    Rulebook: "closest score to 21 wins"; equal scores go to the House, and so (reconstruction)
    do different scores equally close to 21.
    """
    return abs(a - 21) < abs(b - 21)


def blackjack_win_probability(
    counts: dict[int, int], card: int, refill: dict[int, int] | None = None
) -> Fraction:
    """P(the player's ``card`` beats the House card), the House card being drawn from the pile
    ``counts`` ({score: cards}) with the player's card already taken out of it; when that
    leaves no card, from ``refill`` (the discard pile, reshuffled: see
    :meth:`Moolah.casino_piles`).

    Raises:
        ValueError: ``card`` is not in the pile, or nothing would be left for the House.
    """
    if counts.get(card, 0) < 1:
        raise ValueError(f"no {card} in the pile {counts}")
    left = sum(counts.values()) - 1
    if left < 1 and refill and sum(refill.values()) > 0:  # the House draws from the discards
        wins = sum(n for h, n in refill.items() if closer(card, h))
        return Fraction(wins, sum(refill.values()))
    if left < 1:
        raise ValueError("the pile has no card left for the House")
    wins = sum(n - (h == card) for h, n in counts.items() if closer(card, h))
    return Fraction(wins, left)


def blackjack_table(counts: dict[int, int], refill: dict[int, int] | None = None) -> list[dict]:
    """For each possible player card of the pile ``counts``: its chance, P(win), and the
    expected result per $1 bet of staying (``2p - 1``) and of doubling (``2(2p - 1)``).
    ``refill``: what the House draws from if the player takes the pile's last card.

    Returns a list of ``{"card", "chance", "p_win", "stay", "double", "best"}`` (Fractions;
    ``best`` is "double" when doubling is worth more, else "stay"), sorted by card.
    """
    total = sum(counts.values())
    rows = []
    for card in sorted(counts):
        p = blackjack_win_probability(counts, card, refill)
        stay, double = 2 * p - 1, 2 * (2 * p - 1)
        rows.append({"card": card, "chance": Fraction(counts[card], total), "p_win": p,
                     "stay": stay, "double": double, "best": "double" if double > stay else "stay"})  # fmt: skip
    return rows


def blackjack_value(
    counts: dict[int, int], can_double: bool = True, refill: dict[int, int] | None = None
) -> Fraction:
    """Expected result per $1 bet at Black Jack from the pile ``counts``, before seeing the
    card, for a player who doubles exactly when it pays (``can_double``) or always stays;
    ``refill`` as in :func:`blackjack_table` (used when the pile holds a single card).

    The sum over :func:`blackjack_table`'s rows of chance x best result, computed in whole
    numbers over the common denominator ``cards x (cards - 1)`` (the bots ask this often).

    Raises:
        ValueError: a card with no copies in ``counts``, or fewer than 2 cards and no refill.
    """
    total = sum(counts.values())
    left = total - 1
    if left < 1 and refill and sum(refill.values()) > 0:  # the House draws from the discards
        rows = blackjack_table(counts, refill)
        return sum(
            r["chance"] * (max(r["stay"], r["double"]) if can_double else r["stay"]) for r in rows
        )
    acc = 0
    for card, n in counts.items():
        if n < 1:
            raise ValueError(f"no {card} in the pile {counts}")
        if left < 1:
            raise ValueError("the pile has no card left for the House")
        wins = sum(m - (h == card) for h, m in counts.items() if closer(card, h))
        stay = 2 * wins - left  # (2 P(win) - 1) x (cards left for the House)
        acc += n * (max(stay, 2 * stay) if can_double else stay)
    return Fraction(acc, total * left)


def loan_shark_cost(amount: int, wallet: int, percent: int) -> int:
    """Dollars a payment of ``amount`` takes off the Personal Bank Account when the wallet holds
    ``wallet``: the shortfall plus ``percent`` interest on it at once, in whole dollars rounded
    down (rulebook, Loan Shark: $50,000 short costs $75,000 at 50%). 0 when the wallet covers
    the payment. The one place this rule lives: :meth:`Moolah._pay` charges it.

    Raises:
        ValueError: a negative amount, wallet or percent.
    """
    if amount < 0 or wallet < 0 or percent < 0:
        raise ValueError("amount, wallet and percent must be >= 0")
    short = max(0, amount - wallet)
    return short + short * percent // 100


def round_off(amount: int, denomination: int, up: bool) -> int:
    """Round-Off Clause: ``amount`` dollars to a multiple of ``denomination``, ``up`` when the
    player receives and down when the player pays (so always in the player's favour)."""
    if up:
        return -(-amount // denomination) * denomination
    return amount // denomination * denomination


# ----- the game -------------------------------------------------------------------------------
class Moolah(Game):
    """Moolah for 2-8 players (the box holds 8 wallets and 8 tokens).

    Options:
        max_turns (int): ends the game after this many player turns (the first player's first
            turn is turn 1; a roll again after doubles is the same turn; missed turns count),
            0 for no limit. At the limit the player with the most money (bank account plus
            wallet) wins. The rulebook has no limit; the cap keeps bot games finite.
        board_file, cards_file (str): paths of house-rule ``board.toml`` / ``cards.toml``;
            "" uses the shipped ones.

    Accounts: ``"bank"`` (the cashier, may go negative), ``"loan shark"`` (interest),
    ``"wallet:<name>"`` (cash) and ``"account:<name>"`` (the Personal Bank Account; it may go
    down to minus the Line of Credit).
    """

    name = "moolah"
    title = "Moolah"
    min_players = 2
    max_players = 8
    default_options = {"max_turns": 300, "board_file": "", "cards_file": ""}
    rulebook = "rulebooks/moolah.txt"
    #: the last dice and the score pad, for views (no rule reads them): see Game.record_only
    record_only = ("dice", "pad")

    @classmethod
    def _validate_options(cls, options: dict) -> None:
        if options["max_turns"] < 0:
            raise ValueError("max_turns must be 0 (no limit) or more")

    # ----- Preparation and How to Start ------------------------------------------------------
    def _setup(self) -> None:
        #: the shared, read-only board and decks (see :func:`load_data`)
        self.data = d = load_data(self.options["board_file"], self.options["cards_file"])
        r = d.rules
        self.temptation = Deck.from_counts({cid: 1 for cid in d.cards}, self.chance("temptation"))
        self.stocks = {s: Deck(draw_pile=list(d.stocks[s])) for s in STOCKS}
        for s, deck in self.stocks.items():
            deck.shuffle(self.chance(f"stock:{s}"))
        self.casino = Deck(draw_pile=[c for c, n in sorted(d.casino.items()) for _ in range(n)])
        self.casino.shuffle(self.chance("casino"))
        self.ledger.open(BANK, 0, may_go_negative=True)
        self.ledger.open(LOAN_SHARK, 0)
        for p in self.players:
            self.ledger.open(f"wallet:{p}", 0)
            self.ledger.open(f"account:{p}", r["start_account"], may_go_negative=True)
        n = len(self.players)
        self.pos = [d.unique["bank"]] * n  #: space id of each token
        self.missed = [0] * n  #: turns still to miss (Bufe's, the Big House)
        self.out = [False] * n  #: bankrupt and out of the game
        self.hand: list[list[list]] = [
            [] for _ in range(n)
        ]  #: held Advantage [card id, turn drawn]
        self.pad: list[list[dict]] = [[] for _ in range(n)]  #: score pad {"old","new","what"}
        self.turn_no = 0  #: player turns begun (missed ones count)
        self.current = 0
        self.dice: tuple[int, int] | None = None
        self.doubles = False
        self.adv_used = False
        self.steps_left = 0
        self.backs = 0  #: "Back"/"Cancel" answers given this turn (see MAX_BACKS)
        self.ctx: dict[str, Any] = {}  #: the part-done play a decision waits on (public)
        self.end_reason = ""
        # opening roll: the highest total starts, tied highest roll again
        rollers = list(range(n))
        while True:
            rolls = {}
            for s in rollers:
                dice = self.chance("dice")
                a, b = dice.randint(1, 6), dice.randint(1, 6)
                rolls[s] = a + b
                self.emit(
                    "rolled", f"{self.players[s]} rolled {a} and {b} to open.", seat=s, dice=[a, b]
                )
            best = max(rolls.values())
            rollers = [s for s in rollers if rolls[s] == best]
            if len(rollers) == 1:
                break
            self.emit("tie", "Tied for the highest: they roll again.", seats=list(rollers))
        self.first = rollers[0]
        self.emit("starts", f"{self.players[self.first]} starts.", seat=self.first)
        self.current = self.first
        self._ask_first_withdrawal(self.first)

    def wallet(self, seat: int) -> str:
        """Account name of ``seat``'s wallet."""
        return f"wallet:{self.players[seat]}"

    def account(self, seat: int) -> str:
        """Account name of ``seat``'s Personal Bank Account."""
        return f"account:{self.players[seat]}"

    def below_zero_words(self, account: str) -> str:
        """A Personal Bank Account below $0 is money borrowed on the credit line; the Bank's
        cashier (unlimited money) as :meth:`Game.below_zero_words`."""
        if account.startswith("account:"):
            return "below $0: money borrowed from the Bank on the line of credit"
        return super().below_zero_words(account)

    def account_label(self, account: str) -> str:
        """Display name of an account: "account:Ann" -> "Ann's bank account" (log, money table)."""
        if account.startswith("account:"):
            return f"{account.split(':', 1)[1]}'s bank account"
        return super().account_label(account)

    def balance(self, seat: int) -> int:
        """``seat``'s Personal Bank Account balance in dollars (below 0 = borrowed on credit)."""
        return self.ledger[self.account(seat)]

    def can_withdraw(self, seat: int) -> int:
        """Most dollars ``seat`` may withdraw now, in whole bills (account plus unused credit)."""
        r = self.data.rules
        return round_off(max(0, self.balance(seat) + r["credit_line"]), r["denomination"], False)

    def active(self) -> list[int]:
        """Seats still in the game."""
        return [s for s in range(len(self.players)) if not self.out[s]]

    def kind(self, sid: str) -> str:
        """The kind of space ``sid``."""
        return self.data.spaces[sid]["kind"]

    def probe_roll(self, seat: int) -> None:
        """What-if probe, not a rule: make ``seat`` the player to roll now, from where its token
        stands, nothing else changed (the coach values "the next roll from there" with it). Use
        it on a copy only: it breaks the turn order. Raises ValueError if the game is over."""
        if self.over:
            raise ValueError("the game is over")
        self.current, self.doubles, self.adv_used = seat, False, False
        self._ask_turn()

    def _ask_first_withdrawal(self, seat: int) -> None:
        r = self.data.rules
        self.ask(seat, "amount",
                 "First withdrawal from your bank account "
                 f"(${r['suggested_withdrawal']:,} recommended)",
                 (), low=0, high=self.can_withdraw(seat), step=r["denomination"],
                 tag="first_withdrawal",
                 suggested=min(self.can_withdraw(seat), r["suggested_withdrawal"]))  # fmt: skip

    def _first_withdrawal(self, amount: int) -> None:
        seat = self.pending.player
        if amount:
            self._withdraw(seat, amount, "first withdrawal")
        nxt = (seat + 1) % len(self.players)
        if nxt != self.first:
            self._ask_first_withdrawal(nxt)
        else:
            self.turn_no = 1  # the first player turn begins: it counts towards max_turns
            self._begin_turn(self.first)

    # ----- The Bank and its score pad ---------------------------------------------------------
    def _record(self, seat: int, old: int, what: str) -> None:
        new = self.balance(seat)
        self.pad[seat].append({"old": old, "new": new, "what": what})
        self.emit("score_pad", f"Score pad, {self.players[seat]}: ${old:,} -> ${new:,} ({what}).",
                  seat=seat, old=old, new=new)  # fmt: skip

    def _withdraw(self, seat: int, amount: int, what: str = "withdrawal") -> None:
        old = self.balance(seat)
        self.transfer(self.account(seat), self.wallet(seat), amount, what)
        self._record(seat, old, what)

    def _deposit(
        self, seat: int, amount: int, src: str | None = None, what: str = "deposit"
    ) -> None:
        old = self.balance(seat)
        self.transfer(src or self.wallet(seat), self.account(seat), amount, what)
        self._record(seat, old, what)
        self._check_goal(seat)

    def _check_goal(self, seat: int) -> None:
        if not self.over and self.balance(seat) >= self.data.rules["goal"]:
            self.end_reason = "goal"
            self.emit("won", f"{self.players[seat]}'s bank account reached "
                      f"${self.balance(seat):,}: a millionaire!", seat=seat)  # fmt: skip
            self.finish([seat])

    def _may_go_back(self) -> bool:
        """True while the current player may still answer "Back"/"Cancel" this turn (at most
        ``rules.max_backs`` times a turn, :data:`MAX_BACKS` by default; reconstruction)."""
        return self.backs < self.data.rules["max_backs"]

    def _ask_bank(self) -> bool:
        seat, den = self.current, self.data.rules["denomination"]
        opts = []
        if self.cash(seat) >= den:
            opts.append("deposit")
        if self.can_withdraw(seat) >= den:
            opts.append("withdraw")
        if not opts:
            return False
        self.ask(seat, "choose", f"At the Bank (account ${self.balance(seat):,}): deposit or "
                 "withdraw?", opts + ["done"], tag="bank",
                 labels={"deposit": "Deposit", "withdraw": "Withdraw", "done": "Done"})  # fmt: skip
        return True

    def _bank_choice(self, action: str) -> None:
        seat, den = self.current, self.data.rules["denomination"]
        if action == "done":
            return self._after_space()
        self.ctx["bank_mode"] = action
        high = (
            round_off(self.cash(seat), den, False)
            if action == "deposit"
            else self.can_withdraw(seat)
        )
        self.ask(seat, "amount", f"{action.capitalize()} how much (${den:,} to ${high:,})?",
                 ("back",) if self._may_go_back() else (), low=den, high=high, step=den,
                 tag="bank_amount",
                 labels={"back": "Back"})  # fmt: skip

    def _bank_amount(self, action: Any) -> None:
        mode = self.ctx.pop("bank_mode")
        if action == "back":
            self.backs += 1
            self._ask_bank()
            return
        if mode == "deposit":
            self._deposit(self.current, action)
        else:
            self._withdraw(self.current, action)
        self._after_space()

    # ----- Loan Shark, bankruptcy, Round-Off ---------------------------------------------------
    def _pay(self, seat: int, amount: int, dst: str, reason: str) -> bool:
        """``seat`` pays ``amount`` to account ``dst``; the Loan Shark lends what the wallet
        lacks (taken off the bank account with 50% interest). Returns False if ``seat`` went
        bankrupt instead (then the wallet went to ``dst`` and the player is out)."""
        cash = self.cash(seat)
        if amount <= cash:
            self.transfer(self.wallet(seat), dst, amount, reason)
            return True
        short = amount - cash
        interest = loan_shark_cost(amount, cash, self.data.rules["loan_shark_percent"]) - short
        if short + interest > self.balance(seat) + self.data.rules["credit_line"]:
            self.transfer(self.wallet(seat), dst, cash, reason)
            self._bankrupt(seat, f"cannot pay ${amount:,} ({reason})")
            return False
        old = self.balance(seat)
        self.transfer(self.wallet(seat), dst, cash, reason)
        self.transfer(self.account(seat), dst, short, f"Loan Shark loan for {reason}")
        self.transfer(self.account(seat), LOAN_SHARK, interest, "Loan Shark interest")
        self.emit("loan_shark", f"{self.players[seat]} borrowed ${short:,} from the Loan Shark: "
                  f"${short + interest:,} comes off the bank account.", seat=seat,
                  loan=short, interest=interest)  # fmt: skip
        self._record(seat, old, f"Loan Shark ${short:,} + ${interest:,}")
        return True

    def _bankrupt(self, seat: int, why: str) -> None:
        self.out[seat] = True
        self.missed[seat] = 0
        for cid, _ in self.hand[seat]:
            self.temptation.discard(cid)
        self.hand[seat] = []
        self.emit(
            "bankrupt", f"{self.players[seat]} is bankrupt and out of the game: {why}.", seat=seat
        )
        left = self.active()
        if len(left) == 1 and not self.over:
            self.end_reason = "last player"
            self.finish(left)

    def _split(self, total: int, seats: list[int], reason: str) -> None:
        """The Bank pays ``total`` (already paid in to it) out in equal shares to ``seats``,
        each share rounded up to a whole bill (Round-Off Clause: the Bank gives the change)."""
        if not total or not seats:
            return
        share = round_off(-(-total // len(seats)), self.data.rules["denomination"], True)
        for s in seats:
            self.transfer(BANK, self.wallet(s), share, reason)

    # ----- a turn: roll or play an Advantage card, move, obey the space ------------------------
    def _begin_turn(self, seat: int) -> None:
        self.current = seat
        self.doubles = False
        self.adv_used = False
        self.backs = 0
        self.ctx = {}
        self._ask_turn()

    def usable_advantage(self, seat: int) -> list[str]:
        """Ids of ``seat``'s Advantage cards that may be played now (not the turn they were
        drawn; rulebook: Advantage Card)."""
        return [cid for cid, t in self.hand[seat] if t != self.turn_no]

    def _advantage_options(self, seat: int) -> tuple[list, dict]:
        opts, labels = [], {}
        for cid in self.usable_advantage(seat):
            opts.append(f"advantage:{cid}")
            labels[f"advantage:{cid}"] = f"Play Advantage card ({self.data.cards[cid]['steps']})"
        return opts, labels

    def _ask_turn(self) -> None:
        seat = self.current
        adv, labels = self._advantage_options(seat)
        prompt = "Doubles: roll again" if self.doubles else "Roll the dice"
        self.doubles = False
        labels["roll"] = "Roll"
        self.ask(
            seat, "choose" if adv else "roll", prompt, ["roll"] + adv, tag="turn", labels=labels
        )

    def _turn(self, action: str) -> None:
        if action == "roll":
            return self._roll()
        self._ask_advantage_target(action.split(":", 1)[1], "turn")

    def _roll(self) -> None:
        seat = self.current
        dice = self.chance("dice")
        a, b = dice.randint(1, 6), dice.randint(1, 6)
        self.dice, self.doubles = (a, b), a == b
        self.emit("rolled", f"{self.players[seat]} rolled {a} and {b}" + (" (doubles)" if a == b else "")
                  + ".", seat=seat, dice=[a, b])  # fmt: skip
        self.steps_left = a + b
        self.ctx["path"] = [self.pos[seat]]
        self._continue_move()

    def _continue_move(self) -> None:
        """Step the token on; ask at an Option Point; stop at the Bank (rulebook: The Bank)."""
        seat, spaces = self.current, self.data.spaces
        while self.steps_left > 0:
            nxt = spaces[self.pos[seat]]["next"]
            if len(nxt) > 1:
                left = self.steps_left
                self.ask(seat, "space", f"Option Point: outer or inner path? ({left} to move)", nxt,
                         labels={nxt[0]: "Outer path", nxt[1]: "Inner path"}, tag="fork")  # fmt: skip
                return
            self._step(nxt[0])
        path = self.ctx.pop("path", [])
        self.emit("moved", f"{self.players[seat]} moved to {spaces[self.pos[seat]]['name']}.",
                  seat=seat, path=path, to=self.pos[seat])  # fmt: skip
        self._land(seat, self.pos[seat])

    def _step(self, to: str) -> None:
        self.pos[self.current] = to
        self.steps_left -= 1
        self.ctx.setdefault("path", []).append(to)
        if self.kind(to) == "bank" and self.steps_left > 0:
            self.emit("bank_stop", f"{self.players[self.current]} cannot pass the Bank and stops.",
                      seat=self.current)  # fmt: skip
            self.steps_left = 0

    def _fork(self, action: str) -> None:
        self._step(action)
        self._continue_move()

    def _arrive(self, seat: int, sid: str) -> None:
        """Put ``seat``'s token on ``sid`` and mug everyone else there (unless it is protected)."""
        self.pos[seat] = sid
        if self.kind(sid) in NO_MUGGING:
            return
        for v in self.active():
            if v != seat and self.pos[v] == sid and self.cash(v):
                self.emit("mugged", f"{self.players[seat]} mugged {self.players[v]} for "
                          f"${self.cash(v):,}.", seat=seat, victim=v, amount=self.cash(v))  # fmt: skip
                self.transfer(self.wallet(v), self.wallet(seat), self.cash(v), "mugging")

    def _land(self, seat: int, sid: str) -> None:
        """Mug, then obey the space; continue the turn unless a decision is now pending."""
        self._arrive(seat, sid)
        if not self._obey(seat, sid):
            self._after_space()

    def _obey(self, seat: int, sid: str) -> bool:
        """Do what space ``sid`` says for the current player; True if a decision was asked."""
        space, r = self.data.spaces[sid], self.data.rules
        k = space["kind"]
        if k == "money":
            amount = space["amount"]
            if amount > 0:
                self.transfer(BANK, self.wallet(seat), amount, space["name"])
            else:
                self._pay(seat, -amount, BANK, space["name"])
        elif k == "bank":
            return self._ask_bank()
        elif k == "temptation":
            return self._draw_temptation(seat)
        elif k == "moolah":
            self.ask(seat, "space", "Moolah: stay, or go to another Moolah space", self.data.moolahs,
                     labels={m: ("Stay here" if m == sid else self._moolah_label(m))
                             for m in self.data.moolahs}, tag="moolah")  # fmt: skip
            return True
        elif k == "wall_street":
            if self.cash(seat) >= r["wall_street_min"]:
                self._ask_wall_street()
                return True
        elif k == "casino":
            if self.cash(seat) >= r["casino_min"]:
                self._ask_casino_bet()
                return True
        elif k == "goto":
            return self._send(seat, space["to"])
        elif k == "fair_share":
            self._fair_share()
        elif k == "take_pal":
            return self._ask_take_pal()
        elif k == "prison_break":
            self._prison_break(seat)
        elif k in PENALTY:
            self._imprison(seat, sid)
        return False  # safe, option, exit, parole: nothing happens

    def _send(self, seat: int, to: str) -> bool:
        """Send ``seat`` straight to ``to`` (not stopping at the Bank) and obey it there."""
        self.emit("moved", f"{self.players[seat]} is sent to {self.data.spaces[to]['name']}.",
                  seat=seat, path=[self.pos[seat], to], to=to, sent=True)  # fmt: skip
        self._arrive(seat, to)
        return self._obey(seat, to)

    def _after_space(self) -> None:
        """The space is obeyed: roll again on doubles, offer an Advantage card, or end the turn."""
        if self.over:
            return
        seat = self.current
        if self.out[seat]:
            return self._end_turn()
        if self.missed[seat]:
            if self.doubles:  # Rolling Doubles: the extra roll cancels one missed turn
                self.emit("doubles_cancel", f"{self.players[seat]} uses the doubles to cancel a "
                          "missed turn.", seat=seat)  # fmt: skip
                self._serve(seat)
            return self._end_turn()
        if self.adv_used:
            return self._end_turn()
        if self.doubles:
            return self._ask_turn()
        adv, labels = self._advantage_options(seat)
        if adv:
            labels["end"] = "End turn"
            self.ask(seat, "choose", "Play an Advantage card, or end your turn", ["end"] + adv,
                     labels=labels, tag="after")  # fmt: skip
            return
        self._end_turn()

    def _after(self, action: str) -> None:
        if action == "end":
            return self._end_turn()
        self._ask_advantage_target(action.split(":", 1)[1], "after")

    def _end_turn(self) -> None:
        """Pass the dice to the left, serving missed turns of players held at Bufe's or the Big
        House, and stop at the turn cap."""
        if self.over:
            return
        n, s = len(self.players), self.current
        self.doubles = self.adv_used = False
        self.ctx = {}
        cap = self.options["max_turns"]
        while True:
            s = (s + 1) % n
            if self.out[s]:
                continue
            if cap and self.turn_no >= cap:
                return self._end_by_cap()
            self.turn_no += 1
            if self.missed[s]:
                self.emit("missed_turn", f"{self.players[s]} misses a turn.", seat=s)
                self._serve(s)
                continue
            return self._begin_turn(s)

    def _end_by_cap(self) -> None:
        worth = {s: self.balance(s) + self.cash(s) for s in self.active()}
        best = max(worth.values())
        self.end_reason = "turn limit"
        self.emit("turn_limit", f"The {self.options['max_turns']}-turn limit is reached: the most "
                  "money (bank account plus wallet) wins.", worth=worth)  # fmt: skip
        self.finish([s for s in sorted(worth) if worth[s] == best])

    # ----- Bufe's Bar & Grill, The Big House, Prison Break ------------------------------------
    def _imprison(self, seat: int, sid: str) -> None:
        k = self.kind(sid)
        if k in ("max", "min") and self.cash(seat):
            self.transfer(self.wallet(seat), BANK, self.cash(seat), "the Big House takes all cash")
        self.missed[seat] = PENALTY[k]
        self.emit("held", f"{self.players[seat]} is held at {self.data.spaces[sid]['name']} for "
                  f"{counted(PENALTY[k], 'turn')}.", seat=seat, where=sid)  # fmt: skip

    def _serve(self, seat: int) -> None:
        """One missed turn is over: Bufe's -> Exit, Maximum -> Minimum Security -> Parole."""
        u = self.data.unique
        self.missed[seat] -= 1
        k = self.kind(self.pos[seat])
        to = {"bufes": u["exit"], "max": u["min"], "min": u["parole"]}[k]
        self.pos[seat] = to
        self.emit("moved", f"{self.players[seat]} moves to {self.data.spaces[to]['name']}.",
                  seat=seat, path=[to], to=to, sent=True)  # fmt: skip

    def _prison_break(self, seat: int) -> None:
        prisoners = [s for s in self.active() if self.kind(self.pos[s]) in ("max", "min")]
        if not prisoners:
            return
        for s in prisoners:
            self.pos[s] = self.pos[seat]
            self.missed[s] = 0
        names = " and ".join(self.players[s] for s in prisoners)
        loot = self.cash(seat)
        self.emit("prison_break", f"{names} escaped to the Prison Break and mugged "
                  f"{self.players[seat]} for ${loot:,}.", seats=prisoners, victim=seat, amount=loot)  # fmt: skip
        self.transfer(self.wallet(seat), BANK, loot, "mugged by escaped prisoners")
        self._split(loot, prisoners, "share of the Prison Break mugging")

    # ----- Fair Share Square (reconstruction) --------------------------------------------------
    def _fair_share(self) -> None:
        """All cash of every player on the track is pooled and shared out equally (each share
        rounded up to a whole bill). Players at Bufe's, its Exit or in the Big House keep
        theirs (reconstruction; the rulebook only says the Exit is not affected)."""
        seats = [
            s
            for s in self.active()
            if self.kind(self.pos[s]) not in ("bufes", "exit", "max", "min")
        ]
        pool = sum(self.cash(s) for s in seats)
        self.emit("fair_share", f"Fair Share Square: ${pool:,} is shared among {len(seats)} players.",
                  seats=seats, pool=pool)  # fmt: skip
        for s in seats:
            self.transfer(self.wallet(s), BANK, self.cash(s), "Fair Share Square pool")
        self._split(pool, seats, "Fair Share Square share")

    # ----- Wall Street -------------------------------------------------------------------------
    def _ask_wall_street(self) -> None:
        self.ask(self.current, "choose", "Wall Street: invest in a stock?", STOCKS + ("pass",),
                 labels={"grain": "Grain", "oil": "Oil", "gold": "Gold", "pass": "Pass"},
                 tag="wall_street")  # fmt: skip

    def _wall_street(self, action: str) -> None:
        if action == "pass":
            return self._after_space()
        r, seat = self.data.rules, self.current
        self.ctx["stock"] = action
        high = round_off(self.cash(seat), r["denomination"], False)
        self.ask(seat, "amount", f"Invest in {action} (${r['wall_street_min']:,} to ${high:,})",
                 ("back",) if self._may_go_back() else (), low=r["wall_street_min"], high=high,
                 step=r["denomination"],
                 tag="wall_street_amount", labels={"back": "Back"})  # fmt: skip

    def _wall_street_amount(self, action: Any) -> None:
        stock = self.ctx.pop("stock")
        if action == "back":
            self.backs += 1
            return self._ask_wall_street()
        seat, den = self.current, self.data.rules["denomination"]
        pct = self.stocks[stock].draw(self.chance(f"stock:{stock}"))
        self.stocks[stock].discard(pct)
        if pct >= 0:
            gain = round_off(
                action * pct // 100 if action * pct % 100 == 0 else action * pct // 100 + 1,
                den,
                True,
            )
            self.emit("stock", f"{stock.capitalize()} card: {pct:+d}%: {self.players[seat]} gains "
                      f"${gain:,}.", seat=seat, stock=stock, percent=pct, result=gain)  # fmt: skip
            self.transfer(BANK, self.wallet(seat), gain, f"{stock} profit")
        else:
            loss = min(action, round_off(action * -pct // 100, den, False))
            self.emit("stock", f"{stock.capitalize()} card: {pct:+d}%: {self.players[seat]} loses "
                      f"${loss:,}.", seat=seat, stock=stock, percent=pct, result=-loss)  # fmt: skip
            self.transfer(self.wallet(seat), BANK, loss, f"{stock} loss")
        self._after_space()

    # ----- Las Vegas Casino: Black Jack --------------------------------------------------------
    def _ask_casino_bet(self) -> None:
        r, seat = self.data.rules, self.current
        high = round_off(self.cash(seat), r["denomination"], False)
        self.ask(seat, "amount", f"Las Vegas Casino: bet on Black Jack (${r['casino_min']:,} to "
                 f"${high:,}) or pass", ("pass",), low=r["casino_min"], high=high,
                 step=r["denomination"], tag="casino_bet", labels={"pass": "Pass"})  # fmt: skip

    def _moolah_label(self, sid: str) -> str:
        """The button text of a jump to Moolah space ``sid``: every Moolah space has the same
        name, so it is told apart by the space after it ("Go to the Moolah before Income
        Tax")."""
        after = self.data.spaces[self.data.spaces[sid]["next"][0]]["name"]
        return f"Go to the Moolah before {after}"

    def _casino_bet(self, action: Any) -> None:
        if action == "pass":
            return self._after_space()
        seat, den = self.current, self.data.rules["denomination"]
        card = self.casino.draw(self.chance("casino"))
        for done in ("house", "won"):  # a second hand this turn: the last one is over
            self.ctx.pop(done, None)
        self.ctx.update(bet=action, card=card)
        self.emit("drew", f"{self.players[seat]} bet ${action:,} and drew {card}.", seat=seat,
                  card=card, bet=action, deck="casino")  # fmt: skip
        high = min(2 * action, round_off(self.cash(seat), den, False))
        if high > action:
            self.ask(seat, "amount", f"Your card is {card}: stay at ${action:,} or raise the bet "
                     f"(up to ${high:,})", ("stay",), low=action, high=high, step=den,
                     tag="casino_raise", labels={"stay": f"Stay at ${action:,}"})  # fmt: skip
            return
        self._casino_settle(seat, action, card)
        self._after_space()

    def _casino_raise(self, action: Any) -> None:
        bet = self.ctx["bet"] if action == "stay" else action
        if bet != self.ctx["bet"]:
            self.emit("raised", f"{self.players[self.current]} raised the bet to ${bet:,}.",
                      seat=self.current, bet=bet)  # fmt: skip
        self._casino_settle(self.current, bet, self.ctx["card"])
        self._after_space()

    def _casino_settle(self, seat: int, bet: int, card: int) -> None:
        house = self.casino.draw(self.chance("casino"))
        won = closer(card, house)
        self.casino.discard(card)
        self.casino.discard(house)
        self.ctx.update(bet=bet, card=card, house=house, won=won)
        self.emit("blackjack", f"House card {house} against {card}: {self.players[seat]} "
                  f"{'wins' if won else 'loses'} ${bet:,}.", seat=seat, card=card, house=house,
                  bet=bet, won=won)  # fmt: skip
        if won:
            self.transfer(BANK, self.wallet(seat), bet, "Black Jack win")
        else:
            self.transfer(self.wallet(seat), BANK, bet, "Black Jack loss")

    # ----- Take A Pal --------------------------------------------------------------------------
    def pal_choices(self, seat: int) -> list[int]:
        """Seats ``seat`` may take to the Casino: in the game, not already there, and not held at
        Bufe's or the Big House (the last: reconstruction)."""
        casino = self.data.unique["casino"]
        return [
            s for s in self.active() if s != seat and self.pos[s] != casino and not self.missed[s]
        ]

    def _ask_take_pal(self) -> bool:
        seat = self.current
        pals = self.pal_choices(seat)
        if not pals:
            self.emit(
                "no_pal", "Nobody can be taken along, so nobody goes to the Casino.", seat=seat
            )
            return False
        labels = {s: self.players[s] for s in pals}
        labels["nobody"] = "Nobody"
        self.ask(seat, "player", "Take A Pal to the Las Vegas Casino (both bet all their cash)?",
                 pals + ["nobody"], labels=labels, tag="take_pal")  # fmt: skip
        return True

    def _take_pal(self, action: Any) -> None:
        seat = self.current
        if action == "nobody":
            return self._after_space()
        pal, casino = action, self.data.unique["casino"]
        self.emit("take_pal", f"{self.players[seat]} takes {self.players[pal]} to the Las Vegas "
                  "Casino.", seat=seat, pal=pal)  # fmt: skip
        victims = [s for s in self.active() if self.pos[s] == casino and s not in (seat, pal)]
        for s in (seat, pal):
            self.emit("moved", f"{self.players[s]} goes to the Las Vegas Casino.", seat=s,
                      path=[self.pos[s], casino], to=casino, sent=True)  # fmt: skip
            self.pos[s] = casino
        loot = 0
        for v in victims:
            if self.cash(v):
                self.emit("mugged", f"{self.players[seat]} and {self.players[pal]} mugged "
                          f"{self.players[v]} for ${self.cash(v):,}.", seat=seat, victim=v,
                          amount=self.cash(v))  # fmt: skip
                loot += self.cash(v)
                self.transfer(self.wallet(v), BANK, self.cash(v), "mugging at the Casino")
        self._split(loot, [seat, pal], "share of the Casino mugging")
        for s in (seat, pal):  # the taker plays first, then the pal; all cash is bet
            if self.cash(s):
                card = self.casino.draw(self.chance("casino"))
                self.emit("drew", f"{self.players[s]} bets all ${self.cash(s):,} and draws {card}.",
                          seat=s, card=card, bet=self.cash(s), deck="casino")  # fmt: skip
                self._casino_settle(s, self.cash(s), card)
        self._after_space()

    # ----- Moolah --------------------------------------------------------------------------------
    def _moolah(self, action: str) -> None:
        seat = self.current
        if action != self.pos[seat]:
            self.emit("moved", f"{self.players[seat]} jumps to another Moolah space.", seat=seat,
                      path=[self.pos[seat], action], to=action, sent=True)  # fmt: skip
            self._arrive(seat, action)
        self._after_space()

    # ----- Temptation cards ------------------------------------------------------------------------
    def _draw_temptation(self, seat: int) -> bool:
        cid = self.temptation.draw(self.chance("temptation"))
        card = self.data.cards[cid]
        self.ctx["card_id"] = cid
        self.emit(
            "drew",
            f"{self.players[seat]} drew: {card['text']}",
            seat=seat,
            card=cid,
            deck="temptation",
        )
        k = card["kind"]
        if k == "advantage":
            self.hand[seat].append([cid, self.turn_no])
            return False
        self.temptation.discard(cid)
        amount = card.get("amount", 0)
        if k == "collect":
            self.transfer(BANK, self.wallet(seat), amount, "Temptation card")
        elif k == "pay":
            self._pay(seat, amount, BANK, "Temptation card")
        elif k == "deposit":
            self._deposit(seat, amount, BANK, "Temptation card deposit")
        elif k == "collect_each":
            for s in self.active():
                if s != seat and not self.over:
                    self._pay(s, amount, self.wallet(seat), "Temptation card")
        elif k == "pay_each":
            for s in self.active():
                if s != seat and not self.out[seat]:
                    self._pay(seat, amount, self.wallet(s), "Temptation card")
        elif k == "lose_half":
            self.transfer(
                self.wallet(seat),
                BANK,
                round_off(self.cash(seat) // 2, self.data.rules["denomination"], False),
                "pickpocket",
            )
        elif k == "goto":
            return self._send(seat, card["to"])
        elif k == "gamble":
            if self.cash(seat) < amount:
                self.emit(
                    "no_stake",
                    f"{self.players[seat]} has too little cash to take the chance.",
                    seat=seat,
                )
                return False
            self.ask(seat, "choose", f"{card['text']} Take the chance?", ("accept", "decline"),
                     labels={"accept": f"Stake ${amount:,}", "decline": "Decline"}, tag="gamble")  # fmt: skip
            return True
        return False

    def _gamble(self, action: str) -> None:
        seat, card = self.current, self.data.cards[self.ctx["card_id"]]
        if action == "accept":
            die = self.chance("gamble die").randint(1, 6)
            won = die >= card["target"]
            self.emit("rolled", f"{self.players[seat]} rolled {die}: {'won' if won else 'lost'}.",
                      seat=seat, dice=[die])  # fmt: skip
            if won:
                self.transfer(BANK, self.wallet(seat), card["payout"], "Temptation winnings")
            else:
                self.transfer(self.wallet(seat), BANK, card["amount"], "Temptation stake")
        self._after_space()

    # ----- Advantage cards -------------------------------------------------------------------------
    def advantage_targets(self, start: str, steps: int) -> dict[str, str]:
        """Spaces an Advantage card of ``steps`` moves a token to from ``start``:
        ``{space id: "forward" | "back"}``.

        Forward follows the track and either path at an Option Point, and stops at the Bank
        like dice do; back goes against the track (and against the hands of inner paths, which
        the card allows), may end exactly on the Bank but never passes it.
        """
        sp, prev = self.data.spaces, self.data.prev
        out: dict[str, str] = {}

        def fwd(sid: str, k: int, first: bool) -> None:
            if k == 0 or (not first and sp[sid]["kind"] == "bank"):
                out.setdefault(sid, "forward")
                return
            for n in sp[sid]["next"]:
                fwd(n, k - 1, False)

        def back(sid: str, k: int, first: bool) -> None:
            if k == 0:
                out.setdefault(sid, "back")
                return
            if not first and sp[sid]["kind"] == "bank":
                return
            for p in prev[sid]:
                back(p, k - 1, False)

        fwd(start, steps, True)
        back(start, steps, True)
        out.pop(start, None)
        return out

    def _ask_advantage_target(self, cid: str, came_from: str) -> None:
        seat, steps = self.current, self.data.cards[cid]["steps"]
        targets = self.advantage_targets(self.pos[seat], steps)
        self.ctx.update(adv_card=cid, adv_from=came_from)
        labels = {t: f"{d} {steps} to {self.data.spaces[t]['name']}" for t, d in targets.items()}
        cancel = ["cancel"] if self._may_go_back() or not targets else []
        labels["cancel"] = "Cancel"
        self.ask(seat, "space", f"Advantage card: move exactly {counted(steps, 'space')} forward or back",
                 list(targets) + cancel, labels=labels, tag="advantage_target")  # fmt: skip

    def _advantage_target(self, action: str) -> None:
        seat, cid, came_from = self.current, self.ctx.pop("adv_card"), self.ctx.pop("adv_from")
        if action == "cancel":
            self.backs += 1
            return self._ask_turn() if came_from == "turn" else self._after_space()
        self.hand[seat] = [h for h in self.hand[seat] if h[0] != cid]
        self.temptation.discard(cid)
        self.adv_used, self.doubles = True, False  # playing the card ends the turn
        self.emit(
            "advantage", f"{self.players[seat]} plays an Advantage card.", seat=seat, card=cid
        )
        self.emit("moved", f"{self.players[seat]} moves to {self.data.spaces[action]['name']}.",
                  seat=seat, path=[self.pos[seat], action], to=action)  # fmt: skip
        self._land(seat, action)

    # ----- dispatch, scores, what a seat sees ---------------------------------------------------
    HANDLERS = {
        "first_withdrawal": "_first_withdrawal", "turn": "_turn", "fork": "_fork",
        "bank": "_bank_choice", "bank_amount": "_bank_amount", "wall_street": "_wall_street",
        "wall_street_amount": "_wall_street_amount", "casino_bet": "_casino_bet",
        "casino_raise": "_casino_raise", "take_pal": "_take_pal", "moolah": "_moolah",
        "gamble": "_gamble", "after": "_after", "advantage_target": "_advantage_target",
    }  # fmt: skip

    def _apply(self, action: Any) -> None:
        getattr(self, self.HANDLERS[self.pending.tag])(action)

    def scores(self) -> dict[str, int]:
        """``{name: Personal Bank Account balance}`` in dollars: the rulebook's goal ($1,000,000).

        At the turn cap (a reconstruction) the winner is judged on account plus wallet instead;
        the ``turn_limit`` event carries those figures as ``worth``.
        """
        return {p: self.balance(s) for s, p in enumerate(self.players)}

    def observation(self, seat: int) -> dict:
        """What ``seat`` sees: everything but the order of the piles (others' Advantage cards are
        counted, not named)."""
        obs = super().observation(seat)
        obs.update(
            positions=list(self.pos), missed=list(self.missed), out=list(self.out),
            wallets=[self.cash(s) for s in range(len(self.players))],
            accounts=[self.balance(s) for s in range(len(self.players))],
            score_pad=[list(p) for p in self.pad], hand=[c for c, _ in self.hand[seat]],
            hand_sizes=[len(h) for h in self.hand], turn=self.turn_no, current=self.current,
            dice=self.dice, temptation=self.temptation.public_view(), casino=self.casino.public_view(),
            stocks={s: d.public_view() for s, d in self.stocks.items()},
            play={k: v for k, v in self.ctx.items() if k in ("bet", "card", "house", "won", "stock")},
        )  # fmt: skip
        return obs

    def casino_piles(self) -> tuple[dict, dict]:
        """What a player knows of the next Black Jack draws: ``(left, refill)``, each
        ``{score: cards}``. ``left``: the cards still in the draw pile (the whole pile minus
        the face-up discards; the player's own card, once drawn, still counts in it). The
        House's card comes from ``left`` while it holds a card other than the player's, else
        from ``refill``: the discard pile, reshuffled when the draw pile runs out."""
        left = self._left_in(self.data.casino, self.casino)
        return left, dict(Counter(self.casino.discard_pile))

    # ----- the greedy bot ----------------------------------------------------------------------
    def _left_in(self, full: list | dict, deck: Deck, extra: tuple = ()) -> dict:
        """The cards a player may know are still in ``deck``'s draw pile: the full deck minus
        the public discard pile and ``extra`` cards in view (all of it after a reshuffle)."""
        counts = Counter(full if isinstance(full, list) else {k: v for k, v in full.items()})
        if deck.draw_pile:
            counts.subtract(deck.discard_pile)
        counts.subtract(extra)
        return {k: v for k, v in counts.items() if v > 0}

    def _loot(self, seat: int) -> dict[str, int]:
        """``{space: dollars}`` the other players still in carry on each space (mugging)."""
        loot: dict[str, int] = {}
        for s in self.active():
            if s != seat:
                loot[self.pos[s]] = loot.get(self.pos[s], 0) + self.cash(s)
        return loot

    def _value(self, seat: int, sid: str, loot: dict | None = None) -> float:
        """Rough dollars landing on ``sid`` is worth to ``seat`` (the greedy bot's guess);
        ``loot`` = :meth:`_loot` of ``seat`` if already known."""
        sp, cash = self.data.spaces[sid], self.cash(seat)
        k = sp["kind"]
        v = 0.0
        if k not in NO_MUGGING:
            v += (self._loot(seat) if loot is None else loot).get(sid, 0)
            v -= 0.1 * cash
        if k == "goto":
            k = self.kind(sp["to"])
        if k == "money":
            a = sp["amount"]
            v += a if a > 0 or -a <= cash else a - 0.5 * (-a - cash)
        elif k == "temptation":
            v += 8000
        elif k == "moolah":
            v += 15000
        elif k in ("wall_street", "casino"):
            v += 0.1 * cash
        elif k == "bufes":
            v -= 40000
        elif k in ("max", "min"):
            v -= cash + (80000 if k == "max" else 40000)
        elif k == "bank":
            v += 10000 + 0.5 * max(0, cash - 50000)
        elif k == "prison_break":
            if any(self.kind(self.pos[s]) in ("max", "min") for s in self.active()):
                v -= cash
        elif k == "fair_share":
            seats = [
                s
                for s in self.active()
                if self.kind(self.pos[s]) not in ("bufes", "exit", "max", "min")
            ]
            v += sum(self.cash(s) for s in seats) / (len(seats) + (seat not in seats)) - cash
        elif k == "safe":
            v += 0.1 * cash
        return v

    def _roll_value(self, seat: int, sid: str) -> float:
        """Expected greedy value of the next roll from ``sid``."""
        total = 0.0
        values: dict[str, float] = {}  # forks share landing spaces: value each once
        loot = self._loot(seat)
        for t, ways in (
            (2, 1),
            (3, 2),
            (4, 3),
            (5, 4),
            (6, 5),
            (7, 6),
            (8, 5),
            (9, 4),
            (10, 3),
            (11, 2),
            (12, 1),
        ):
            ends = self.data.ends(sid, t)
            for e in ends:
                if e not in values:
                    values[e] = self._value(seat, e, loot)
            total += ways / 36 * max(values[e] for e in ends)
        return total

    def greedy_action(self, rng: random.Random) -> Any:
        """The heuristic: $50,000 first; keep about $50,000 cash and bank the rest; invest or
        bet only when the known cards give a positive expected result; double at Black Jack
        when the chance of winning is over 1/2; pick paths, jumps and Advantage moves by the
        rough value of where they land. Uses only what the deciding seat may see."""
        d = self.pending
        seat, tag, r = d.player, d.tag, self.data.rules
        cash, den = self.cash(seat), r["denomination"]
        if tag == "first_withdrawal":
            return min(d.high, r["suggested_withdrawal"])
        if tag in ("turn", "after"):
            adv = [o for o in d.options if o.startswith("advantage:")]
            if adv:
                base = self._roll_value(seat, self.pos[seat]) if tag == "turn" else 0.0
                cid = adv[0].split(":", 1)[1]
                targets = self.advantage_targets(self.pos[seat], self.data.cards[cid]["steps"])
                loot = self._loot(seat)
                if targets and max(self._value(seat, t, loot) for t in targets) > base + 25000:
                    return adv[0]
            return d.options[0]
        if tag == "advantage_target":
            opts = [o for o in d.options if o != "cancel"]
            loot = self._loot(seat)
            return max(opts, key=lambda t: self._value(seat, t, loot)) if opts else "cancel"
        if tag == "fork":
            loot = self._loot(seat)
            return max(
                d.options,
                key=lambda o: max(
                    self._value(seat, e, loot)
                    for e in self.data.ends(o, self.steps_left - 1, False)
                ),
            )
        if tag == "moolah":
            loot = self._loot(seat)
            return max(
                d.options,
                key=lambda m: (
                    self._roll_value(seat, m)
                    + (self._value(seat, m, loot) if m != self.pos[seat] else 0)
                ),
            )
        if tag in ("bank", "bank_amount"):
            reserve = 50000
            if self.balance(seat) + cash >= r["goal"] and cash >= den:
                plan = ("deposit", cash)
            elif cash > reserve:
                plan = ("deposit", cash - reserve)
            elif cash < reserve and self.can_withdraw(seat) >= den:
                plan = ("withdraw", reserve - cash)
            else:
                plan = ("done", 0)
            if tag == "bank":
                return plan[0] if plan[0] in d.options else "done"
            return max(d.low, min(d.high, round_off(plan[1], den, False)))
        if tag == "wall_street":
            best, ev = "pass", 0.0
            for s in STOCKS:
                left = self._left_in(self.data.stocks[s], self.stocks[s])
                mean = sum(p * n for p, n in left.items()) / max(1, sum(left.values()))
                if mean > ev:
                    best, ev = s, mean
            return best
        if tag == "wall_street_amount":
            return max(d.low, min(d.high, round_off(cash // 2, den, False)))
        if tag == "casino_bet":
            left = self._left_in(self.data.casino, self.casino)
            if sum(left.values()) >= 3 and blackjack_value(left) > 0:
                return max(d.low, min(d.high, round_off(cash // 3, den, False)))
            return "pass"
        if tag == "casino_raise":
            left = self._left_in(self.data.casino, self.casino)  # still counts the player's card
            card = self.ctx["card"]
            try:
                p = blackjack_win_probability(left, card)
            except ValueError:
                return "stay"
            return d.high if p > Fraction(1, 2) else "stay"
        if tag == "take_pal":
            casino = self.data.unique["casino"]
            loot = sum(self.cash(s) for s in self.active() if self.pos[s] == casino)
            left = self._left_in(self.data.casino, self.casino)
            stay = (
                float(blackjack_value(left, can_double=False)) if sum(left.values()) >= 2 else -0.2
            )
            pals = [o for o in d.options if o != "nobody"]
            if pals and loot / 2 + cash * stay > 0:
                return max(pals, key=lambda s: self.cash(s))
            return "nobody"
        if tag == "gamble":
            card = self.data.cards[self.ctx["card_id"]]
            p = (7 - card["target"]) / 6
            return "accept" if p * card["payout"] - (1 - p) * card["amount"] > 0 else "decline"
        return super().greedy_action(rng)  # pragma: no cover - every tag is handled above
