"""Money Card, the American Express travel game (1972), whole in one file.

Source: ``rulebooks/money-card.txt`` and the facts in ``rulebooks/NOTES.md``. The map, the spinner
and every card text are reconstructions kept as data (``map.toml``, ``spinner.toml``,
``cards.toml``) and listed in ``docs/money_card.md``.

The game, top to bottom in rulebook order:

Object.      Collect the keys of the 8 Key Cities; the first to hold all 8 wins at once.
Preparation. Each player gets $300 in travelers cheques from the Travel Agent (an account that
             never runs dry); the Agent is also a player (seat 0).
Play.        Seats 0-1 start in London, 2-3 in Copenhagen, 4-5 in Lisbon: on a first turn the
             plane is placed there and takes that key, then spins and moves. A move is a walk of
             exactly the spun count along the routes, never visiting a space twice ("one
             direction"); perimeter links are one-way. Occupied spaces count; each occupant
             jumped over pays the mover $20; the occupant of the landing space is displaced to
             Dublin (Displaced From Dublin rule below). MONEY CARD on the spinner hands over the
             Money Card and allows 1-5 moves.
Travel cards. From a player's second turn on, after moving: a white space of a Language Country
             draws that country's card, any other space a Miscellaneous card. Miscellaneous
             cards go back under their pile; Language cards are kept while the plane stays in
             that country. An empty country pile lets the drawer take a card from a holder.
Bonus moves. Cards whose symbols all pair up form a phrase: one move per word in both languages,
             several phrases add up, keys are taken in passing, the cards go back afterwards.
Money Card.  Its holder may "Charge It" for any payment to the Agent (not Monte Carlo losses,
             not payments to players). The choice is always offered, never made for a player.
Monte Carlo. Bet $10 or $20 on red or black; a win pays the bet times the number shown (MONEY
             CARD counts 5 and hands over the card); keep betting while winning. Keys let a player
             bet without funds.
Debts.       A player who cannot pay may first try Monte Carlo, then turns in keys for $50 each
             (not a key of the area the plane is in); a turned-in key comes back when the plane
             reaches that city again. A player who still cannot pay is out.
Express Ports, Side Trips, Perimeter, Mail From Home, Join Another Tourist, GO!, Displaced From
             Dublin: see the sections below.

Decided here (see docs/money_card.md): movement is one decision, the destination space among all
spaces reachable by exactly the count (when several walks reach it, the walk best for the mover is
used: most new keys in passing for bonus moves, then most players jumped); a game ends after
``max_rounds`` rounds (most keys, then most cheques, wins).

Engine shape: the turn is a stack of small tasks (``self.stack``); each task either does its work
or asks one decision and stops. This keeps every interruption (a debt in the middle of a jump, a
Charge It question inside a card) a plain data value that saves, loads and replays.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from fractions import Fraction
from typing import Any

from ...core.chance import Deck, Spinner
from ...core.data import load_toml, names_files, require
from ...core.game import Game
from ...core.words import counted
from .schema import CardsFile, MapFile, SpinnerFile

AGENT = "Travel Agent"
AMEX = "American Express (charges)"
MISC = "Miscellaneous"
MAIL = "Mail From Home"

KINDS = ("key", "town", "route", "perimeter", "side_trip", "express")
COLORS = ("white", "black", "plain")
EFFECTS = (
    "pay", "collect", "pay_each", "collect_each", "give_left", "go", "move", "monte_carlo",
    "mail", "money_card", "join", "nothing",
)  # fmt: skip
AMOUNT_EFFECTS = ("pay", "collect", "pay_each", "collect_each", "give_left", "move")


# ----- data: map, spinner, cards --------------------------------------------------------------
class Board:
    """The map, spinner and decks of one game, loaded and checked once per set of data files.

    Attributes:
        spaces: ``{id: {id, name, x, y, area, kind, color}}`` in file order (x, y on a 100 x 100
            grid, x east, y north).
        order: space ids in file order.
        out: ``{id: [ids]}`` the spaces one move away (perimeter links one-way).
        near: ``{id: set(ids)}`` spaces linked either way (used for "alongside").
        dist: ``{id: {id: moves}}`` shortest walk lengths (used by the greedy bot).
        key_cities, starts, side_trips, displaced_to, languages, perimeter: from ``map.toml``.
        segments: list of ``{label, color, value, money_card}``; ``spinner`` a core Spinner of
            their indices.
        cards: ``{id: card dict}``; ``decks`` ``{deck name: [ids]}``; ``phrases``
            ``{phrase id: [card ids]}``; ``bonus`` ``{phrase id: moves}``.

    Raises:
        ValueError: any inconsistency in the data files (the message names the file and item).
    """

    @names_files(
        {"map.toml": "map_file", "spinner.toml": "spinner_file", "cards.toml": "cards_file"}
    )
    def __init__(self, map_file: str = "", spinner_file: str = "", cards_file: str = ""):
        self._load_map(load_toml(__package__, "map.toml", map_file or None, MapFile))
        self._load_spinner(
            load_toml(__package__, "spinner.toml", spinner_file or None, SpinnerFile)
        )
        self._load_cards(load_toml(__package__, "cards.toml", cards_file or None, CardsFile))

    def _load_map(self, m: dict) -> None:
        for key in ("space", "routes", "perimeter", "key_cities", "language_countries", "starts",
                    "side_trips", "displaced_to"):  # fmt: skip
            require(key in m, f"map.toml: missing {key!r}")
        self.spaces: dict[str, dict] = {}
        for s in m["space"]:
            for key in ("id", "name", "x", "y", "area", "kind", "color"):
                require(key in s, f"map.toml: a space lacks {key!r}: {s}")
            require(s["id"] not in self.spaces, f"map.toml: space id {s['id']!r} repeated")
            require(
                s["kind"] in KINDS, f"map.toml: space {s['id']!r} has unknown kind {s['kind']!r}"
            )
            require(s["color"] in COLORS, f"map.toml: space {s['id']!r} has unknown color")
            self.spaces[s["id"]] = dict(s)
        self.order = list(self.spaces)
        self.index = {s: i for i, s in enumerate(self.order)}
        self.languages = list(m["language_countries"])
        self.key_cities = list(m["key_cities"])
        require(len(self.key_cities) >= 2, "map.toml: at least 2 key cities are needed")
        for k in self.key_cities:
            require(
                self.spaces.get(k, {}).get("kind") == "key", f"map.toml: {k!r} is not a key space"
            )
        require(len(m["starts"]) == 6, "map.toml: starts must give 6 seats' start cities")
        for k in m["starts"]:
            require(k in self.key_cities, f"map.toml: start {k!r} is not a key city")
        self.starts = list(m["starts"])
        self.out: dict[str, list[str]] = {s: [] for s in self.order}
        for link in m["routes"]:
            require(len(link) == 2 and all(x in self.spaces for x in link),
                    f"map.toml: bad route {link}")  # fmt: skip
            a, b = link
            self.out[a].append(b)
            self.out[b].append(a)
        self.perimeter = list(m["perimeter"])
        for i, p in enumerate(self.perimeter):
            require(p in self.spaces, f"map.toml: perimeter space {p!r} unknown")
            self.out[p].append(self.perimeter[(i + 1) % len(self.perimeter)])
        self.side_trips = list(m["side_trips"])
        for p in self.side_trips:
            require(p in self.perimeter, f"map.toml: side trip {p!r} is not on the perimeter")
        self.displaced_to = m["displaced_to"]
        require(self.displaced_to in self.side_trips, "map.toml: displaced_to must be a side trip")
        self.ports = [s for s in self.order if self.spaces[s]["kind"] == "express"]
        require(len(self.ports) >= 2, "map.toml: at least 2 Express Ports are needed")
        self.near = {s: set(self.out[s]) for s in self.order}
        for a, outs in self.out.items():
            for b in outs:
                self.near[b].add(a)
        self.dist = {s: self._bfs(s) for s in self.order}
        for s in self.order:
            require(
                len(self.dist[s]) == len(self.order),
                f"map.toml: cannot reach everything from {s!r}",
            )
        #: ``{space: display name}`` (see :meth:`name`)
        self.names = {
            s: self.spaces[s]["name"] or self._stretch_name(s, self.spaces[s]) for s in self.order
        }

    def _bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        todo = deque([start])
        while todo:
            a = todo.popleft()
            for b in self.out[a]:
                if b not in dist:
                    dist[b] = dist[a] + 1
                    todo.append(b)
        return dist

    def _load_spinner(self, sp: dict) -> None:
        require("segment" in sp and sp["segment"], "spinner.toml: missing segments")
        self.segments = []
        for seg in sp["segment"]:
            require(seg.get("color") in ("red", "black"), f"spinner.toml: bad color in {seg}")
            require(
                type(seg.get("value")) is int and seg["value"] >= 1,
                f"spinner.toml: bad value {seg}",
            )
            self.segments.append({"label": str(seg.get("label", seg["value"])), "color": seg["color"],
                                  "value": seg["value"], "money_card": bool(seg.get("money_card"))})  # fmt: skip
        require(any(s["money_card"] for s in self.segments), "spinner.toml: no MONEY CARD segment")
        self.spinner = Spinner(tuple(range(len(self.segments))))

    def _load_cards(self, c: dict) -> None:
        require("card" in c, "cards.toml: no cards")
        decks = [*self.languages, MISC, MAIL]
        self.cards: dict[str, dict] = {}
        self.decks: dict[str, list[str]] = {d: [] for d in decks}
        self.phrases: dict[str, list[str]] = {}
        for card in c["card"]:
            for key in ("id", "deck", "text", "effect"):
                require(key in card, f"cards.toml: a card lacks {key!r}: {card}")
            cid = card["id"]
            require(cid not in self.cards, f"cards.toml: card id {cid!r} repeated")
            require(
                card["deck"] in self.decks,
                f"cards.toml: card {cid!r} has unknown deck {card['deck']!r}",
            )
            require(card["effect"] in EFFECTS, f"cards.toml: card {cid!r} has unknown effect")
            if card["effect"] in AMOUNT_EFFECTS:
                a = card.get("amount")
                require(
                    type(a) is int and a > 0, f"cards.toml: card {cid!r} needs a positive amount"
                )
            if card["effect"] == "go":
                require(card.get("target") in self.spaces, f"cards.toml: card {cid!r} goes nowhere")
            if card["deck"] in self.languages:
                for key in ("phrase", "words", "say", "means", "symbols"):
                    require(key in card, f"cards.toml: language card {cid!r} lacks {key!r}")
                self.phrases.setdefault(card["phrase"], []).append(cid)
            self.cards[cid] = dict(card)
            self.decks[card["deck"]].append(cid)
        for d in decks:
            require(self.decks[d], f"cards.toml: the {d} deck is empty")
        symbol_owner: dict[tuple, str] = {}
        self.bonus: dict[str, int] = {}
        for pid, ids in self.phrases.items():
            deck = {self.cards[i]["deck"] for i in ids}
            require(len(deck) == 1, f"cards.toml: phrase {pid!r} mixes decks")
            syms = [s for i in ids for s in self.cards[i]["symbols"]]
            for s in set(syms):
                require(
                    syms.count(s) == 2,
                    f"cards.toml: symbol {s!r} of phrase {pid!r} must appear twice",
                )
                owner = symbol_owner.setdefault((next(iter(deck)), s), pid)
                require(
                    owner == pid, f"cards.toml: symbol {s!r} used by phrases {owner!r} and {pid!r}"
                )
            self.bonus[pid] = sum(
                len(self.cards[i]["words"].split()) + len(self.cards[i]["means"].split())
                for i in ids
            )

    def area(self, space: str) -> str:
        """Area (country or region) of ``space``."""
        return self.spaces[space]["area"]

    def name(self, space: str) -> str:
        """Display name of ``space``: its place name; for an unnamed space, where it is and
        the named places at the two ends of its stretch, e.g. ``"Germany-Austria, between
        Copenhagen and Hamburg"`` or ``"the perimeter, between Gibraltar Port and Dublin"``
        (behind, then ahead on the one-way perimeter). Never the internal id, unless the map
        gives a stretch no named end. Raises ``KeyError`` for an unknown space."""
        return self.names[space]

    def _stretch_name(self, space: str, s: dict) -> str:
        """:meth:`name` of the unnamed space ``space`` (``s`` its map entry)."""
        ends = self._named_ends(space)
        if space in self.perimeter:
            where = "the perimeter"
        else:  # a route space; routes out to the perimeter cross the sea
            where = "at sea" if s["area"] == "Perimeter" else s["area"]
        if len(ends) >= 2:
            return f"{where}, between {ends[0]} and {ends[1]}"
        if ends:
            return f"{where}, near {ends[0]}"
        return f"{where} ({space})"

    def _named_ends(self, space: str) -> list[str]:
        """The named ends of the stretch of unnamed spaces holding ``space``: on the perimeter
        the nearest named space behind it and ahead of it; on a route, the places its run of
        unnamed route spaces joins ("the perimeter" for a link to an unnamed sea space), in
        map order."""
        if space in self.perimeter:
            n, i = len(self.perimeter), self.perimeter.index(space)
            ends = []
            for step in (-1, 1):
                for k in range(1, n):
                    name = self.spaces[self.perimeter[(i + step * k) % n]]["name"]
                    if name:
                        ends.append(name)
                        break
            return ends
        seen, todo, found = {space}, [space], {}
        while todo:
            a = todo.pop()
            for b in self.near[a]:
                if b in seen:
                    continue
                seen.add(b)
                if self.spaces[b]["name"]:
                    found[self.spaces[b]["name"]] = self.order.index(b)
                elif b in self.perimeter:
                    found.setdefault("the perimeter", len(self.order))
                else:
                    todo.append(b)
        return sorted(found, key=found.get)


_BOARDS: dict[tuple, Board] = {}


def load_board(map_file: str = "", spinner_file: str = "", cards_file: str = "") -> Board:
    """The :class:`Board` for these data files (cached: the files are read once per process)."""
    key = (map_file, spinner_file, cards_file)
    if key not in _BOARDS:
        _BOARDS[key] = Board(*key)
    return _BOARDS[key]


def phrase_complete(symbol_lists: list[list[str]]) -> bool:
    """True when every symbol on these cards is matched by exactly one other (rulebook: "no
    single symbol remains to be matched"). ``symbol_lists`` holds each card's symbols."""
    syms = [s for lst in symbol_lists for s in lst]
    return bool(syms) and all(syms.count(s) == 2 for s in syms)


def single_bet_ev(segments: list[dict], color: str, bet: int) -> Fraction:
    """Exact expected gain in dollars of one Monte Carlo bet of ``bet`` on ``color``.

    ``segments`` are :attr:`Board.segments` (equal sizes). A win pays ``bet * value``; a loss
    costs ``bet``. Source: rulebook "Try Your Luck at Monte Carlo"; spinner: spinner.toml.
    """
    n = len(segments)
    return sum(
        (Fraction(bet * s["value"], n) if s["color"] == color else Fraction(-bet, n))
        for s in segments
    )


def betting_ev(segments: list[dict], color: str, bet: int) -> Fraction:
    """Exact expected gain in dollars of betting ``bet`` on ``color`` again after every win until
    the first loss (the rulebook's longest Monte Carlo run).

    With ``p`` the chance of a loss, the run is one bet followed, with chance ``1 - p``, by the
    same run again: ``E = e + (1 - p) E``, so ``E = e / p``.

    Raises:
        ValueError: ``color`` never loses (the run would never end).
    """
    p_lose = Fraction(sum(s["color"] != color for s in segments), len(segments))
    if p_lose == 0:
        raise ValueError(f"a bet on {color} never loses: the run has no end")
    return single_bet_ev(segments, color, bet) / p_lose


def _walks(b: Board, start: str, steps: tuple, occ: dict, wanted: frozenset) -> dict[str, tuple]:
    """The search behind :meth:`MoneyCard.walks` (pure: board, start, counts, occupied spaces
    ``{space: planes}``, keys wanted in passing)."""
    maxn = max(steps)
    found: dict[int, dict[str, tuple]] = {}
    deepest = 0
    # depth-first over simple walks; score = (new keys passed, planes jumped)
    todo = [(start, (start,), 0, 0)]
    while todo:
        node, path, keys, jumps = todo.pop()
        depth = len(path) - 1
        if depth:
            deepest = max(deepest, depth)
            best = found.setdefault(depth, {})
            score = (keys + (node in wanted), jumps)
            if node not in best or score > best[node][0]:
                best[node] = (score, path)
        if depth == maxn:
            continue
        k2 = keys + (depth > 0 and node in wanted)
        j2 = jumps + (occ.get(node, 0) if depth > 0 else 0)
        for nxt in reversed(b.out[node]):
            if nxt not in path:
                todo.append((nxt, path + (nxt,), k2, j2))
    depths = [d for d in steps if d in found] or ([deepest] if deepest else [])
    result: dict[str, tuple] = {}
    for d in depths:
        for node, (score, path) in found[d].items():
            if node not in result or score > result[node][0]:
                result[node] = (score, path)
    return {n: result[n][1] for n in sorted(result, key=b.index.__getitem__)}


# ----- the game ---------------------------------------------------------------------------------
class MoneyCard(Game):
    """Money Card for 2-6 players (six airplanes in the box).

    Options:
        cheques (int): travelers cheques each player starts with, dollars (rulebook: 300).
        jump_fee (int): paid by each occupant jumped over, dollars (rulebook: 20).
        key_value (int): paid by the Agent for a key turned in, dollars (rulebook: 50).
        reclaim_price (int): dollars to reclaim a turned-in key on returning to its city; 0
            (default): free, the rulebook names no price; e.g. 50: the player may buy it back
            (a payment to the Agent, so Charge It applies) or leave it.
        max_rounds (int): the game ends after this many rounds; most keys, then most cheques,
            wins (reconstruction: a safety cap so every game ends).
        map_file, spinner_file, cards_file (str): house-rule data files; "" uses the shipped ones.

    Accounts: ``"Travel Agent"`` (the bank; may go negative), ``"American Express (charges)"``
    (what the Money Card paid for; may go negative), ``"wallet:<name>"`` (travelers cheques).
    """

    name = "money_card"
    title = "Money Card"
    min_players = 2
    max_players = 6
    default_options = {
        "cheques": 300, "jump_fee": 20, "key_value": 50, "reclaim_price": 0, "max_rounds": 60,
        "map_file": "", "spinner_file": "", "cards_file": "",
    }  # fmt: skip
    rulebook = "rulebooks/money-card.txt"
    #: what happened last, for views (no rule reads it): see Game.record_only
    record_only = ("last_spin",)

    def below_zero_words(self, account: str) -> str:
        """American Express below $0: what was charged on the card (never billed in this game);
        the Travel Agent (the bank) as :meth:`Game.below_zero_words`."""
        if account == AMEX:
            return "below $0: all that was charged on the card so far"
        return super().below_zero_words(account)

    @classmethod
    def _validate_options(cls, options: dict) -> None:
        for key in ("cheques", "jump_fee", "key_value", "reclaim_price"):
            if options[key] < 0:
                raise ValueError(f"{key} must be at least $0, got {options[key]}")
        if options["max_rounds"] < 1:
            raise ValueError(f"max_rounds must be at least 1, got {options['max_rounds']}")

    @property
    def board(self) -> Board:
        """The shared, read-only :class:`Board` (not part of the saved state: it is data)."""
        try:
            return _BOARDS[self._files]
        except (KeyError, AttributeError):
            o = self.options
            self._files = (o["map_file"], o["spinner_file"], o["cards_file"])
            return load_board(*self._files)

    # ----- Preparation ------------------------------------------------------------------------
    def _setup(self) -> None:
        b = self.board
        n = len(self.players)
        self.ledger.open(AGENT, 0, may_go_negative=True)
        self.ledger.open(AMEX, 0, may_go_negative=True)
        for p in self.players:
            self.ledger.open(self.wallet(p), 0)
            self.transfer(AGENT, self.wallet(p), self.options["cheques"], "travelers cheques")
        self.decks = {}
        for name, ids in b.decks.items():
            deck = Deck(draw_pile=list(ids), reshuffle_when_empty=False)
            deck.shuffle(self.chance(f"deck:{name}"))
            self.decks[name] = deck
        self.pos: list[str | None] = [None] * n  # plane's space; None before the first turn
        self.keys: list[list[str]] = [[] for _ in range(n)]
        self.pawned: list[list[str]] = [[] for _ in range(n)]  # keys turned in, reclaimable
        self.hand: list[list[str]] = [[] for _ in range(n)]  # Language cards held
        self.turns = [0] * n  # turns completed
        self.out = [False] * n
        self.holder: int | None = None  # seat holding the Money Card
        self.current = 0
        self.round = 1
        self.ended = False
        self.last_spin: int | None = None  # segment index of the last spin (views)
        self.stack: list[tuple] = [("turn",)]
        self.ctx: dict[str, Any] = {}  # what the pending decision is about
        self.debt: dict | None = None
        self.monte: dict | None = None
        self.emit("start", f"{self.players[0]} is the Travel Agent and plays first.")
        self._run()

    def wallet(self, player: str | int) -> str:
        """Account name of a player's travelers cheques (by name or seat)."""
        return f"wallet:{self.players[player] if isinstance(player, int) else player}"

    def active(self) -> list[int]:
        """Seats still in the game."""
        return [s for s, gone in enumerate(self.out) if not gone]

    def occupants(self, space: str, but: int | None = None) -> list[int]:
        """Seats whose plane is on ``space`` (excluding ``but``)."""
        return [s for s in self.active() if self.pos[s] == space and s != but]

    # ----- the task machine ---------------------------------------------------------------
    def _run(self) -> None:
        """Carry out tasks until one asks a decision or the game ends."""
        while not self.ended and self.pending is None:
            task = self.stack.pop()
            getattr(self, "_t_" + task[0])(*task[1:])

    def _push(self, *tasks: tuple) -> None:
        """Schedule ``tasks`` to run in the order given, before anything already scheduled."""
        self.stack.extend(reversed(tasks))

    def _ask(self, seat: int, kind: str, prompt: str, options=(), tag: str = "", **kw) -> None:
        self.ask(seat, kind, prompt, options, tag=tag, **kw)

    def _apply(self, action: Any) -> None:
        tag = self.pending.tag
        self.pending = None
        getattr(self, "_on_" + tag)(action)
        self._run()

    def _end(self, winners: list[int]) -> None:
        self.ended = True
        self.stack = []
        self.finish(winners)

    # ----- Play: a turn -------------------------------------------------------------------
    def _t_turn(self) -> None:
        seat = self.current
        if self.out[seat]:
            self._push(("next",))
            return
        if self.pos[seat] is None:  # first turn: place the plane in the start city
            start = self.board.starts[seat]
            self.pos[seat] = start
            self.emit("placed", f"{self.players[seat]} starts in {self.board.name(start)}.",
                      seat=seat, space=start)  # fmt: skip
            self._arrive(seat, start)
            if self.ended:
                return
        self.ctx = {"phrases": []}
        self._ask_turn()

    def complete_phrases(self, seat: int) -> list[str]:
        """Phrase ids whose every card ``seat`` holds (Bonus Moves)."""
        b = self.board
        held = set(self.hand[seat])
        return [p for p, ids in b.phrases.items() if held.issuperset(ids)]

    def _ask_turn(self) -> None:
        seat = self.current
        chosen = self.ctx.get("phrases", [])
        phrases = [p for p in self.complete_phrases(seat) if p not in chosen]
        opts = [f"phrase:{p}" for p in phrases]
        labels = {f"phrase:{p}": f"Form phrase: {self.phrase_text(p)} (+{self.board.bonus[p]} moves)"
                  for p in phrases}  # fmt: skip
        if chosen:
            total = sum(self.board.bonus[p] for p in chosen)
            opts.append("bonus")
            labels["bonus"] = f"Take {total} bonus moves"
        else:
            opts.insert(0, "spin")
            labels["spin"] = "Spin"
        kind = "roll" if opts == ["spin"] else "choose"
        self._ask(seat, kind, "Spin" + (" or form a phrase" if phrases else ""),
                  opts, tag="turn", labels=labels)  # fmt: skip

    def phrase_text(self, pid: str) -> str:
        """``"Quiero comer con usted = I want to eat with you"`` for a phrase id."""
        ids = self.board.phrases[pid]
        cards = [self.board.cards[i] for i in ids]
        return " ".join(c["words"] for c in cards) + " = " + " ".join(c["means"] for c in cards)

    def _on_turn(self, action: str) -> None:
        seat = self.current
        if action == "spin":
            self._spin(seat)
        elif action == "bonus":
            chosen = self.ctx["phrases"]
            total = sum(self.board.bonus[p] for p in chosen)
            cards = [c for p in chosen for c in self.board.phrases[p]]
            self.emit(
                "bonus", f"{self.players[seat]} takes {total} bonus moves.", seat=seat, moves=total
            )
            self._push(("move", seat, (total,), "bonus"), ("return_cards", seat, tuple(cards)),
                       ("spin_prompt",))  # fmt: skip
        else:
            pid = action.split(":", 1)[1]
            self.ctx["phrases"].append(pid)
            self.emit("phrase", f"{self.players[seat]} reads: {self.phrase_text(pid)} "
                      f"({self.board.bonus[pid]} words).", seat=seat, phrase=pid)  # fmt: skip
            self._ask_turn()

    def _t_spin_prompt(self) -> None:
        seat = self.current
        if self.out[seat]:
            self._push(("end_turn",))
            return
        self.ctx = {"phrases": []}
        self._ask(
            seat,
            "roll",
            "Spin",
            ("spin",),
            tag="turn",
            labels={"spin": "Spin"},
        )

    def spin_segment(self) -> dict:
        """Spin the spinner with the game's generator; returns the segment dict."""
        i = self.board.spinner.roll(self.chance("spinner"))
        self.last_spin = i
        return self.board.segments[i]

    def _spin(self, seat: int) -> None:
        seg = self.spin_segment()
        self.emit("spun", f"{self.players[seat]} spun {seg['color']} {seg['label']}.", seat=seat,
                  segment=self.last_spin, value=seg["value"], color=seg["color"])  # fmt: skip
        if seg["money_card"]:
            self._give_money_card(seat)
            steps = tuple(range(1, seg["value"] + 1))
        else:
            steps = (seg["value"],)
        tasks = [("move", seat, steps, "spin")]
        if self.turns[seat] >= 1:  # Travel Cards from the second time round
            tasks.append(("draw", seat))
        tasks.append(("end_turn",))
        self._push(*tasks)

    def _give_money_card(self, seat: int) -> None:
        if self.holder != seat:
            was = self.holder
            self.holder = seat
            text = f"{self.players[seat]} takes the Money Card" + (
                f" from {self.players[was]}." if was is not None else "."
            )
            self.emit("money_card", text, seat=seat, previous=was)

    def _t_end_turn(self) -> None:
        self.turns[self.current] += 1
        self._push(("next",))

    def _t_next(self) -> None:
        active = self.active()
        later = [s for s in active if s > self.current]
        if later:
            self.current = later[0]
        else:
            self.current = active[0]
            self.round += 1
            if self.round > self.options["max_rounds"]:
                self._end(self.leaders())
                return
        self._push(("turn",))

    def leaders(self) -> list[int]:
        """Active seats with the most keys, then the most cheques (turn-cap result)."""
        active = self.active()
        best = max((len(self.keys[s]), self.cash(s)) for s in active)
        return [s for s in active if (len(self.keys[s]), self.cash(s)) == best]

    # ----- movement --------------------------------------------------------------------------
    def walks(self, seat: int, steps: tuple, mode: str) -> dict[str, list[str]]:
        """Every destination ``seat`` can reach with a walk of exactly one of ``steps`` moves.

        A walk never visits a space twice (one direction) and follows perimeter links only the
        way of their arrows. Where several walks reach a destination, the best for the mover
        is kept: most new keys in passing (bonus moves only), then most planes jumped, then
        the first found. If no walk is as long as asked (a dead end), the longest walks are
        used. Returns ``{destination: [start, ..., destination]}`` in map order.
        """
        start = self.pos[seat]
        occ: dict[str, int] = {}
        for s in self.active():
            if s != seat and self.pos[s] is not None:
                occ[self.pos[s]] = occ.get(self.pos[s], 0) + 1
        wanted = frozenset(self.keys_wanted(seat)) if mode == "bonus" else frozenset()
        found = _walks(self.board, start, tuple(steps), occ, wanted)
        return {d: list(p) for d, p in found.items()}

    def probe_spin(self, seat: int, space: str | None = None) -> None:
        """What-if probe, not a rule: make ``seat`` the player to spin now, its plane on
        ``space`` (default: where it stands) with nothing done there (no key, no card), nothing
        else changed. The coach uses it to show where a next spin could land. Use it on a copy
        only: it breaks the turn order. Raises ValueError if the game is over or ``space`` is
        not on the map."""
        if self.over:
            raise ValueError("the game is over")
        if space is not None:
            if space not in self.board.spaces:
                raise ValueError(f"{space!r} is not a space of the map")
            self.pos[seat] = space
        self.current, self.pending, self.ctx, self.stack = seat, None, {}, []
        self._push(("spin_prompt",))
        self._run()

    def keys_wanted(self, seat: int) -> list[str]:
        """Key cities whose key ``seat`` lacks (including keys turned in)."""
        return [k for k in self.board.key_cities if k not in self.keys[seat]]

    def _t_move(self, seat: int, steps: tuple, mode: str) -> None:
        if self.out[seat]:
            return
        paths = self.walks(seat, tuple(steps), mode)
        if not paths:
            self.emit("stuck", f"{self.players[seat]} has nowhere to move.", seat=seat)
            return
        self.ctx = {"paths": paths, "mode": mode, "seat": seat}
        count = f"{steps[0]}" if len(steps) == 1 else f"{steps[0]}-{steps[-1]}"
        self._ask(seat, "space", f"Move {count} - choose where to land",
                  tuple(paths), tag="move", labels=self._move_labels)  # fmt: skip

    def _move_labels(self, dests: tuple) -> dict:
        """Each place the pawn may land, with the moves of its path."""
        paths = self.ctx["paths"]
        return {
            d: f"{self.board.name(d)} ({len(paths[d]) - 1} move{'s' * (len(paths[d]) != 2)})"
            for d in dests
        }

    def _on_move(self, dest: str) -> None:
        seat, mode, path = self.ctx["seat"], self.ctx["mode"], self.ctx["paths"][dest]
        self.ctx = {}
        b = self.board
        self.pos[seat] = dest
        self.emit("moved", f"{self.players[seat]} moves {len(path) - 1} to {b.name(dest)}.",
                  seat=seat, path=list(path), space=dest, mode=mode)  # fmt: skip
        tasks: list[tuple] = []
        for space in path[1:-1]:
            for occ in self.occupants(space, but=seat):
                tasks.append(("pay", occ, self.wallet(seat), self.options["jump_fee"],
                              f"jumped over by {self.players[seat]}", False))  # fmt: skip
            if mode == "bonus" and b.spaces[space]["kind"] == "key":
                tasks.append(("key", seat, space))
        tasks.append(("land", seat, dest, mode))
        self._push(*tasks)

    def _t_key(self, seat: int, city: str) -> None:
        """Bonus moves through a Key City take its key."""
        if not self.out[seat]:
            self._take_key(seat, city)

    def _t_land(self, seat: int, space: str, how: str) -> None:
        """Landing by count: displace occupants, take the key, offer an Express Port flight."""
        if self.out[seat] or self.pos[seat] != space:
            return
        tasks = [("displaced", occ) for occ in self.occupants(space, but=seat)]
        tasks.append(("arrive", seat, space))
        if self.board.spaces[space]["kind"] == "express" and how in ("spin", "bonus", "card"):
            tasks.append(("express", seat))
        self._push(*tasks)

    def _t_arrive(self, seat: int, space: str) -> None:
        if not self.out[seat] and self.pos[seat] == space:
            self._arrive(seat, space)

    def _arrive(self, seat: int, space: str) -> None:
        """A plane comes to rest on ``space`` by any means: a Key City gives its key, and Language
        cards of another country go back (a player holds cards only inside their country)."""
        if self.board.spaces[space]["kind"] == "key":
            self._take_key(seat, space)
        if self.hand[seat]:
            area = self.board.area(space)
            back = [c for c in self.hand[seat] if self.board.cards[c]["deck"] != area]
            if back:
                self.emit("returned", f"{self.players[seat]} left the country and returns "
                          f"{counted(len(back), 'card')}.", seat=seat, cards=back)  # fmt: skip
                self._return_cards(seat, back)

    def _take_key(self, seat: int, city: str, paid: bool = False) -> None:
        """``seat`` takes the key to ``city`` (none if already held). A key ``seat`` turned in
        comes back free, or (option ``reclaim_price``) for that price if ``seat`` chooses to
        pay it (rulebook: Payment of Debts, "reclaim his Key")."""
        name = self.board.name(city)
        if city in self.keys[seat]:
            return
        price = self.options["reclaim_price"]
        if city in self.pawned[seat] and price and not paid:
            if self.cash(seat) >= price or self.holder == seat:
                self._push(("reclaim", seat, city))
            else:
                self.emit("no_reclaim", f"{self.players[seat]} cannot pay ${price} to reclaim "
                          f"the key to {name}.", seat=seat, city=city)  # fmt: skip
            return
        self.keys[seat].append(city)
        if city in self.pawned[seat]:
            self.pawned[seat].remove(city)
            self.emit(
                "key", f"{self.players[seat]} reclaims the key to {name}.", seat=seat, city=city
            )
        else:
            self.emit("key", f"{self.players[seat]} takes the key to {name}.", seat=seat, city=city)
        if len(self.keys[seat]) == len(self.board.key_cities):
            self._end([seat])

    def _t_reclaim(self, seat: int, city: str) -> None:
        if self.out[seat] or city in self.keys[seat]:
            return
        price, name = self.options["reclaim_price"], self.board.name(city)
        self.ctx = {"seat": seat, "city": city}
        self._ask(seat, "choose", f"Reclaim the key to {name} for ${price}?", ("reclaim", "leave"),
                  tag="reclaim", labels={"reclaim": f"Reclaim it (${price})",
                                         "leave": "Leave it with the Agent"})  # fmt: skip

    def _on_reclaim(self, action: str) -> None:
        seat, city = self.ctx["seat"], self.ctx["city"]
        self.ctx = {}
        if action == "reclaim":
            why = f"reclaims the key to {self.board.name(city)}"
            self._push(("pay", seat, AGENT, self.options["reclaim_price"], why, True),
                       ("key_back", seat, city))  # fmt: skip

    def _t_key_back(self, seat: int, city: str) -> None:
        if not self.out[seat]:
            self._take_key(seat, city, paid=True)

    def _return_cards(self, seat: int, cards) -> None:
        for c in cards:
            if c in self.hand[seat]:
                self.hand[seat].remove(c)
                self.decks[self.board.cards[c]["deck"]].put_bottom(c)

    def _t_return_cards(self, seat: int, cards: tuple) -> None:
        """Cards of a phrase used for bonus moves go back under their pile."""
        self._return_cards(seat, cards)

    # ----- Displaced From Dublin -----------------------------------------------------------
    def _t_displaced(self, seat: int) -> None:
        if self.out[seat]:
            return
        dublin = self.board.displaced_to
        if self.pos[seat] == dublin:
            self._push(("from_dublin", seat))
            return
        others = self.occupants(dublin, but=seat)
        self.pos[seat] = dublin
        self.emit("displaced", f"{self.players[seat]} is displaced on a side trip to "
                  f"{self.board.name(dublin)}.", seat=seat, space=dublin)  # fmt: skip
        self._push(*[("from_dublin", o) for o in others], ("arrive", seat, dublin))

    def _t_from_dublin(self, seat: int) -> None:
        """A player displaced from Dublin displaces nobody: an empty side trip, else an empty
        Key City, the player's choice."""
        if self.out[seat]:
            return
        b = self.board
        free = [s for s in b.side_trips if s != b.displaced_to and not self.occupants(s, but=seat)]
        if not free:
            free = [k for k in b.key_cities if not self.occupants(k, but=seat)]
        if len(free) == 1:
            self._relocate(seat, free[0], "displaced from Dublin")
            return
        self.ctx = {"seat": seat}
        self._ask(seat, "space", "Displaced from Dublin - choose where to go",
                  tuple(free), tag="from_dublin", labels={s: b.name(s) for s in free})  # fmt: skip

    def _on_from_dublin(self, space: str) -> None:
        seat = self.ctx["seat"]
        self._relocate(seat, space, "displaced from Dublin")

    def _relocate(self, seat: int, space: str, why: str) -> None:
        """Put the plane on an empty ``space`` without counting moves."""
        self.pos[seat] = space
        self.emit("moved", f"{self.players[seat]} goes to {self.board.name(space)} ({why}).",
                  seat=seat, space=space, mode="relocate")  # fmt: skip
        self._push(("arrive", seat, space))

    # ----- Express Ports -----------------------------------------------------------------------
    def _t_express(self, seat: int) -> None:
        if self.out[seat]:
            return
        b = self.board
        here = self.pos[seat]
        opts = ["stay"] + [f"fly:{p}" for p in b.ports if p != here]
        labels = {"stay": "Stay here", **{f"fly:{p}": f"Fly to {b.name(p)}" for p in b.ports}}
        self.ctx = {"seat": seat}
        self._ask(seat, "choose", "Express Port - fly to another port?",
                  opts, tag="express", labels=labels)  # fmt: skip

    def _on_express(self, action: str) -> None:
        seat = self.ctx["seat"]
        if action == "stay":
            return
        port = action.split(":", 1)[1]
        self.pos[seat] = port
        self.emit("moved", f"{self.players[seat]} flies to {self.board.name(port)}.", seat=seat,
                  space=port, mode="fly")  # fmt: skip
        self._push(("land", seat, port, "fly"))

    # ----- Travel Cards ------------------------------------------------------------------------
    def deck_for(self, space: str) -> str:
        """The pile drawn from at ``space``: a Language Country's on its white spaces, else
        Miscellaneous (NOTES.md: black spaces draw Miscellaneous)."""
        s = self.board.spaces[space]
        if s["area"] in self.board.languages and s["color"] == "white":
            return s["area"]
        return MISC

    def _t_draw(self, seat: int) -> None:
        if self.out[seat]:
            return
        name = self.deck_for(self.pos[seat])
        deck = self.decks[name]
        if deck.draw_pile:
            self._push(("card", seat, deck.draw(self.chance(f"deck:{name}")), name))
            return
        holders = [s for s in self.active() if s != seat and any(
            self.board.cards[c]["deck"] == name for c in self.hand[s])]  # fmt: skip
        if not holders:
            self.emit("no_card", f"The {name} pile is empty: {self.players[seat]} draws nothing.")
            return
        self.ctx = {"seat": seat, "deck": name}
        self._ask(seat, "player", f"The {name} pile is empty - take a card "
                  "from which player?", tuple(holders), tag="pick_holder",
                  labels={s: self.players[s] for s in holders})  # fmt: skip

    def _on_pick_holder(self, holder: int) -> None:
        seat, name = self.ctx["seat"], self.ctx["deck"]
        theirs = [c for c in self.hand[holder] if self.board.cards[c]["deck"] == name]
        # a hidden hand: the card is a blind pick
        card = theirs[self.chance("blind pick").randrange(len(theirs))]
        self.hand[holder].remove(card)
        self.emit("took_card", f"{self.players[seat]} takes a {name} card from "
                  f"{self.players[holder]}.", seat=seat, holder=holder)  # fmt: skip
        self._push(("card", seat, card, name))

    def _t_card(self, seat: int, cid: str, deck: str) -> None:
        card = self.board.cards[cid]
        self.emit("drew", f"{self.players[seat]} draws ({deck}): {card['text']}", seat=seat,
                  card=cid, deck=deck)  # fmt: skip
        self._push(*self._effect(seat, card), ("after_card", seat, cid))

    def _t_after_card(self, seat: int, cid: str) -> None:
        """Miscellaneous and Mail cards go under their pile; a Language card is kept if the
        plane is still in that country."""
        deck = self.board.cards[cid]["deck"]
        keep = (deck in self.board.languages and not self.out[seat] and self.pos[seat] is not None
                and self.board.area(self.pos[seat]) == deck)  # fmt: skip
        if keep:
            self.hand[seat].append(cid)
        else:
            self.decks[deck].put_bottom(cid)

    def _effect(self, seat: int, card: dict) -> list[tuple]:
        """The tasks that carry out ``card`` for ``seat``."""
        e, amt, why = card["effect"], card.get("amount", 0), card["text"]
        others = [s for s in self.active() if s != seat]
        if e == "pay":
            return [("pay", seat, AGENT, amt, why, True)]
        if e == "collect":
            return [("collect", seat, amt, why)]
        if e == "pay_each":
            return [("pay", seat, self.wallet(o), amt, why, False) for o in others]
        if e == "collect_each":
            return [("pay", o, self.wallet(seat), amt, why, False) for o in others]
        if e == "give_left":
            left = self.left_of(seat)
            return [] if left is None else [("pay", seat, self.wallet(left), amt, why, False)]
        if e == "go":
            return [("go", seat, card["target"])]
        if e == "move":
            return [("move", seat, (amt,), "card")]
        if e == "monte_carlo":
            return [("monte", seat, "card")]
        if e == "mail":
            return [("mail", seat)]
        if e == "money_card":
            return [("money_card", seat)]
        if e == "join":
            return [("join", seat)]
        return []

    def left_of(self, seat: int) -> int | None:
        """The next active player clockwise (seat + 1, ...), or None."""
        n = len(self.players)
        for k in range(1, n):
            s = (seat + k) % n
            if not self.out[s]:
                return s
        return None

    def _t_collect(self, seat: int, amount: int, why: str) -> None:
        if not self.out[seat]:
            self.transfer(AGENT, self.wallet(seat), amount, why)

    def _t_money_card(self, seat: int) -> None:
        if not self.out[seat]:
            self._give_money_card(seat)

    # ----- GO! and Join Another Tourist ---------------------------------------------------------
    def _t_go(self, seat: int, target: str) -> None:
        """GO!: the plane must go to ``target`` (no counting, no jumps; landing displaces)."""
        if self.out[seat]:
            return
        self.pos[seat] = target
        self.emit("moved", f"{self.players[seat]} goes to {self.board.name(target)} (GO!).",
                  seat=seat, space=target, mode="go")  # fmt: skip
        self._push(("land", seat, target, "go"))

    def _t_join(self, seat: int) -> None:
        """Join Another Tourist: move to an empty space alongside another player's plane."""
        if self.out[seat]:
            return
        b = self.board
        spots = set()
        for o in self.active():
            if o != seat and self.pos[o] is not None:
                spots.update(s for s in b.near[self.pos[o]] if not self.occupants(s))
        spots.discard(self.pos[seat])
        if not spots:
            self.emit("join", f"No space beside another tourist is free for {self.players[seat]}.")
            return
        opts = tuple(sorted(spots, key=b.index.__getitem__))
        self.ctx = {"seat": seat}
        self._ask(seat, "space", "Join Another Tourist - choose a space "
                  "beside another plane", opts, tag="join",
                  labels={s: b.name(s) for s in opts})  # fmt: skip

    def _on_join(self, space: str) -> None:
        self._relocate(self.ctx["seat"], space, "joins another tourist")

    # ----- Mail From Home -------------------------------------------------------------------------
    def _t_mail(self, seat: int) -> None:
        if self.out[seat]:
            return
        deck = self.decks[MAIL]
        if not deck.draw_pile:  # every Mail card is in play (cannot happen with one reader)
            return
        self._push(("card", seat, deck.draw(self.chance(f"deck:{MAIL}")), MAIL))

    # ----- paying, Charge It and debts --------------------------------------------------------------
    def _t_pay(
        self, payer: int, dst: str, amount: int, why: str, chargeable: bool, tried: bool = False
    ) -> None:
        """``payer`` owes ``amount`` to account ``dst``. A payment to the Agent that the Money
        Card may pay (``chargeable``: not a Monte Carlo loss, not a payment to a player) asks
        its holder "Charge It or pay in cheques?"; paying in cheques is offered only when the
        cheques cover it (rulebook: Money Card). Otherwise it is paid, or becomes a debt
        (``tried``: its Monte Carlo is already used, as for the loss of a Monte Carlo spin)."""
        if self.out[payer] or amount <= 0:
            return
        if dst.startswith("wallet:") and self.out[self.players.index(dst[7:])]:
            return  # nobody to pay
        self._owe(payer, dst, amount, why, chargeable and dst == AGENT, tried)

    def _ask_charge(self, seat: int, amount: int, why: str, extra=(), labels=None) -> None:
        """Ask the Money Card holder ``seat`` about ``amount`` dollars chargeable to the card:
        "charge", "pay" (only if the cheques cover all that is owed) and ``extra`` options."""
        d = self.debt
        total = sum(o[1] for o in d["owed"])
        opts = ["charge"] + (["pay"] if self.cash(seat) >= total else []) + list(extra)
        owe = f"${amount} ({why})" if total == amount else f"${total}, ${amount} of it chargeable"
        self._ask(seat, "choose", f"You owe {owe} and hold ${self.cash(seat)} in cheques: "
                  "Charge It" + (" or pay in travelers cheques?" if "pay" in opts else "!"),
                  opts, tag="charge", labels={"charge": f"Charge It! (${amount})",
                  "pay": f"Pay ${total} in cheques", **(labels or {})})  # fmt: skip

    def _on_charge(self, action: str) -> None:
        d = self.debt
        seat = d["payer"]
        if action == "charge":
            for item in [o for o in d["owed"] if o[3]]:
                d["owed"].remove(item)
                self.emit("charged", f"{self.players[seat]} says Charge It for ${item[1]}.",
                          seat=seat, amount=item[1])  # fmt: skip
                self.transfer(AMEX, AGENT, item[1], f"charged by {self.players[seat]}")
            self._push(("debt",))
        elif action == "pay":
            for item in d["owed"]:
                item[3] = False  # paid in cheques, as the holder chose
            self._push(("debt",))
        else:
            self._on_debt(action)

    def _owe(
        self,
        payer: int,
        dst: str,
        amount: int,
        why: str,
        chargeable: bool = False,
        tried: bool = False,
    ) -> None:
        """Pay ``amount`` from ``payer``'s cheques, or open a debt (``chargeable``: a payment
        to the Agent the Money Card may pay; ``tried``: the debt offers no Monte Carlo, being
        the loss of one: a player stops on the first losing spin, issue 39)."""
        if self.cash(payer) >= amount and not (chargeable and self.holder == payer):
            self.transfer(self.wallet(payer), dst, amount, why)
            return
        self.debt = {"payer": payer, "owed": [[dst, amount, why, chargeable]], "tried": tried}
        if self.cash(payer) < amount:
            self.emit("debt", f"{self.players[payer]} owes ${amount} but holds "
                      f"${self.cash(payer)}.", seat=payer, amount=amount)  # fmt: skip
        self._push(("debt",))

    def eligible_keys(self, seat: int) -> list[str]:
        """Keys ``seat`` may turn in: any key except one of the area the plane is in."""
        here = self.board.area(self.pos[seat]) if self.pos[seat] else None
        return [k for k in self.keys[seat] if self.board.area(k) != here]

    def _t_debt(self) -> None:
        """Settle :attr:`debt`: Charge It for what the card may pay (while the debtor holds
        the card, also one won at the debt's Monte Carlo), pay when the cheques cover the
        rest, else Monte Carlo (once, with a key), key turn-ins, or out (rulebook: Payment of
        Debts)."""
        d = self.debt
        seat = d["payer"]
        total = sum(o[1] for o in d["owed"])
        opts = []
        if not d["tried"] and self.keys[seat]:
            opts.append("monte_carlo")
        opts += [f"turn_in:{k}" for k in self.eligible_keys(seat)]
        b = self.board
        labels = {"monte_carlo": "Try your luck at Monte Carlo first",
                  **{f"turn_in:{k}": f"Turn in the key to {b.name(k)} for ${self.options['key_value']}"
                     for k in self.keys[seat]}}  # fmt: skip
        charge = [o for o in d["owed"] if o[3]]
        if charge and self.holder == seat:
            amount = sum(o[1] for o in charge)
            extra = opts if self.cash(seat) < total else []
            self._ask_charge(seat, amount, charge[0][2], extra, labels)
            return
        if self.cash(seat) >= total:
            for dst, amount, why, _ in d["owed"]:
                self.transfer(self.wallet(seat), dst, amount, why)
            self.debt = None
            return
        if not opts:
            self._go_out(seat)
            return
        self._ask(seat, "choose", f"You owe ${total} and hold ${self.cash(seat)}: "
                  "raise the money", opts, tag="debt", labels=labels)  # fmt: skip

    def _on_debt(self, action: str) -> None:
        seat = self.debt["payer"]
        if action == "monte_carlo":
            self.debt["tried"] = True
            self._push(("monte", seat, "debt"), ("debt",))
            return
        city = action.split(":", 1)[1]
        self.keys[seat].remove(city)
        self.pawned[seat].append(city)
        self.emit("turned_in", f"{self.players[seat]} turns in the key to {self.board.name(city)}.",
                  seat=seat, city=city)  # fmt: skip
        self.transfer(AGENT, self.wallet(seat), self.options["key_value"], "key turned in")
        self._push(("debt",))

    def _go_out(self, seat: int) -> None:
        """``seat`` cannot pay: what they hold goes to the creditors in order, and they are out."""
        for dst, amount, why, _ in self.debt["owed"]:
            part = min(amount, self.cash(seat))
            self.transfer(self.wallet(seat), dst, part, why + " (all they had)")
        self.debt = None
        self.out[seat] = True
        self._return_cards(seat, list(self.hand[seat]))
        self.keys[seat] = []
        self.pawned[seat] = []
        if self.holder == seat:
            self.holder = None
        self.pos[seat] = None
        self.emit("out", f"{self.players[seat]} cannot pay and is out of the game.", seat=seat)
        if len(self.active()) == 1:
            self._end(self.active())

    # ----- Try Your Luck at Monte Carlo -------------------------------------------------------------
    def _t_monte(self, seat: int, mode: str) -> None:
        if self.out[seat]:
            return
        self.monte = {"seat": seat, "mode": mode, "wins": 0, "bet": 0}
        self._ask_bet()

    def bet_range(self, seat: int) -> tuple[int, int] | None:
        """(lowest, highest) bet in dollars ``seat`` may place, or None: $10 or $20, either
        affordable from the cheques or backed by holding any key."""
        if self.keys[seat] or self.cash(seat) >= 20:
            return (10, 20)
        if self.cash(seat) >= 10:
            return (10, 10)
        return None

    def _ask_bet(self) -> None:
        m = self.monte
        seat = m["seat"]
        rng = self.bet_range(seat)
        if rng is None:
            self.emit("monte_carlo", f"{self.players[seat]} has nothing to bet with.", seat=seat)
            self.monte = None
            return
        opts = ("stop",) if m["wins"] else ()
        self._ask(seat, "amount", "Monte Carlo - bet $10 or $20"
                  + (" again, or stop" if m["wins"] else ""), opts, low=rng[0], high=rng[1],
                  step=10, tag="bet", labels={"stop": "Stop betting"})  # fmt: skip

    def _on_bet(self, action: Any) -> None:
        if action == "stop":
            self.monte = None
            return
        self.monte["bet"] = action
        seat = self.monte["seat"]
        self._ask(seat, "choose", f"${action} on red or black? (then spin)",
                  ("red", "black"), tag="color", labels={"red": "Red", "black": "Black"})  # fmt: skip

    def _on_color(self, color: str) -> None:
        m = self.monte
        seat, bet = m["seat"], m["bet"]
        seg = self.spin_segment()
        self.emit("spun", f"Monte Carlo: {self.players[seat]} bet ${bet} on {color}; the spinner "
                  f"shows {seg['color']} {seg['label']}.", seat=seat, segment=self.last_spin,
                  bet=bet, color=color, value=seg["value"])  # fmt: skip
        if seg["money_card"]:
            self._give_money_card(seat)
        if seg["color"] == color:
            m["wins"] += 1
            self.transfer(AGENT, self.wallet(seat), bet * seg["value"],
                          f"Monte Carlo win at {seg['value']} to 1")  # fmt: skip
            self._ask_bet()
            return
        self.monte = None
        why = "Monte Carlo loss"
        if m["mode"] == "debt":
            self.debt["owed"].append([AGENT, bet, why, False])
        else:  # a debt this loss opens offers no Monte Carlo: betting stops at the first loss
            self._push(("pay", seat, AGENT, bet, why, False, True))

    # ----- scores, observation, bot --------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        """``{name: travelers cheques in dollars}`` (the winner is decided by keys)."""
        return {p: self.cash(i) for i, p in enumerate(self.players)}

    def observation(self, seat: int) -> dict:
        """What ``seat`` sees: every plane, key, wallet and hand size; its own cards; pile sizes
        (never their order)."""
        obs = super().observation(seat)
        obs.update(
            positions=list(self.pos),
            keys=[sorted(k) for k in self.keys],
            turned_in=[sorted(k) for k in self.pawned],
            hand=list(self.hand[seat]),
            hand_sizes=[len(h) for h in self.hand],
            money_card=self.holder,
            out=list(self.out),
            current=self.current,
            round=self.round,
            piles={n: len(d.draw_pile) for n, d in self.decks.items()},
            last_spin=self.last_spin,
        )
        return obs

    def _key_distance(self, seat: int, space: str, wanted: list | None = None) -> int:
        """Moves from ``space`` to the nearest key ``seat`` still needs (0 when none);
        ``wanted``: :meth:`keys_wanted` of ``seat``, if already known."""
        b = self.board
        wanted = self.keys_wanted(seat) if wanted is None else wanted
        if not wanted:
            return 0
        d = min(b.dist[space][k] for k in wanted)
        if b.spaces[space]["kind"] == "express":  # could fly on from here
            d = min(d, 1 + min(b.dist[p][k] for p in b.ports for k in wanted))
        return d

    def greedy_action(self, rng: random.Random) -> Any:
        """Head for the nearest missing key, take keys and jumps, always Charge It, bet $20 on
        black (the colour with the better odds) while winning, try Monte Carlo before turning in
        a key. Uses only public information and the bot's own hand."""
        d = self.pending
        seat = d.player
        tag = d.tag
        b = self.board
        if tag == "turn":
            phrases = [o for o in d.options if o.startswith("phrase:")]
            return phrases[0] if phrases else ("bonus" if "bonus" in d.options else "spin")
        if tag == "move":
            paths = self.ctx["paths"]
            wanted_list = self.keys_wanted(seat)
            wanted = set(wanted_list)

            planes = Counter(self.pos[s] for s in self.active() if s != seat)  # occupants

            def value(dest: str) -> float:
                path = paths[dest]
                v = 1000.0 * (dest in wanted)
                if self.ctx["mode"] == "bonus":
                    v += 1000.0 * len(wanted.intersection(path[1:-1]))
                v += 20 * sum(planes[s] for s in path[1:-1])
                return v - 10 * self._key_distance(seat, dest, wanted_list) + rng.random()

            return max(d.options, key=value)
        if tag in ("from_dublin", "join"):
            wanted = self.keys_wanted(seat)
            return min(d.options, key=lambda s: (self._key_distance(seat, s, wanted), rng.random()))
        if tag == "express":
            wanted = self.keys_wanted(seat)

            def far(opt: str) -> int:
                where = self.pos[seat] if opt == "stay" else opt.split(":", 1)[1]
                return min((b.dist[where][k] for k in wanted), default=0)

            return min(d.options, key=far)
        if tag == "charge":
            return "charge"
        if tag == "reclaim":
            return "reclaim"
        if tag == "bet":
            return d.high
        if tag == "color":
            red = sum(s["value"] for s in b.segments if s["color"] == "red")
            black = sum(s["value"] for s in b.segments if s["color"] == "black")
            return "black" if black >= red else "red"
        if tag == "debt":
            if "monte_carlo" in d.options:
                return "monte_carlo"
            here = self.pos[seat]
            return min(d.options, key=lambda o: b.dist[here][o.split(":", 1)[1]])
        if tag == "pick_holder":
            return max(d.options, key=lambda s: len(self.hand[s]))
        return d.options[0]  # pragma: no cover - every tag is handled above
