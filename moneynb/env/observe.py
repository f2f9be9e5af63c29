"""Fixed-size observation vectors built from a game's ``observation(seat)`` (never hidden state).

Every vector is float32 and starts with the same **common block** for all five games, followed by
a **game block**. Seats are *relative*: entry ``[+0]`` is the observing seat itself, ``[+1]`` the
next seat in turn order, and so on, so one policy can play any seat. Dollars are divided by the
game's :attr:`GameSpec.scale` (see :data:`SPECS`). The names of all entries are in
``MoneynbEnv.feature_names`` (one per entry, e.g. ``"money:wallet[+0]"``); docs/env.md lists the
blocks.

Common block: players/8; whose decision it is (one-hot over relative seats) and whether it is
mine; the decision's kind (one-hot over :data:`~moneynb.core.decision.KINDS`) and tag (one-hot
over the game's :attr:`GameSpec.tags`, plus ``"other"`` for a tag the env does not know, so
rule changes do not break it); its option count / option_slots; its amount range (low, high,
step in scaled dollars); the amount being entered (digits left, lowest and highest reachable
amount); every account of :meth:`Game.money` (each player's accounts relative to me, then the
house accounts by name); every player's score (:meth:`Game.scores`, public in every game);
whether the game is over.

Static board data (space ids, card ids, key cities) is read from the game's data files to fix
the order of one-hot entries; nothing else is read from the game object.

Source: reconstruction (issue 17).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.decision import KINDS

#: observation entries are clipped to this magnitude (scaled dollars never come near it)
BOUND = 1e6


class Features:
    """A vector being built: ``add(name, value)`` appends one float entry.

    Args:
        with_names: keep the entries' names in :attr:`names` (the observer needs them once;
            later vectors skip them, which is faster).
    """

    def __init__(self, with_names: bool = True):
        self.values: list[float] = []
        self.names: list[str] = []
        self.with_names = with_names

    def add(self, name: str, value) -> None:
        """Append ``value`` (a number, bool or None = 0) under ``name``."""
        self.values.append(0.0 if value is None else float(value))
        if self.with_names:
            self.names.append(name)

    def extend(self, names, values) -> None:
        """Append many entries at once: ``values`` (floats) under ``names`` (a sequence of the
        same length, or a function returning it, called only when names are kept)."""
        self.values.extend(values)
        if self.with_names:
            self.names.extend(names() if callable(names) else names)

    def seats(self, name: str, values, seat: int, scale: float = 1.0) -> None:
        """Append one entry per seat, relative to ``seat`` (``[+0]`` is ``seat`` itself)."""
        n = len(values)
        for r in range(n):
            v = values[(seat + r) % n]
            self.add(f"{name}[+{r}]", 0.0 if v is None else float(v) / scale)

    def seat_onehot(self, name: str, who, seat: int, n: int) -> None:
        """One-hot of seat ``who`` (None: all zero) relative to ``seat``."""
        rel = None if who is None else (who - seat) % n
        for r in range(n):
            self.add(f"{name}[+{r}]", rel == r)

    def onehot(self, name: str, value, vocab) -> None:
        """One-hot of ``value`` over ``vocab`` (a value not in it: all zero)."""
        for v in vocab:
            self.add(f"{name}={v}", value == v)

    def array(self) -> np.ndarray:
        """The float32 vector, clipped to ``±BOUND``."""
        return np.clip(np.asarray(self.values, dtype=np.float32), -BOUND, BOUND)


@dataclass(frozen=True)
class GameSpec:
    """How one game is encoded.

    Attributes:
        scale: dollars per observation/reward unit (scores of Money Run are rows, scale 1).
        option_slots: default number of option slots (at least the most options a decision
            can have), or ``game -> int`` when that depends on the game's data, or None: the
            size of the token vocabulary plus :data:`OVERFLOW_SLOTS`.
        tags: the decision tags given their own one-hot entry (others share ``"other"``).
        vocab: ``game -> dict`` of static vocabularies (space ids ...) read once at reset.
        encode: ``(features, obs, seat, n, vocab, game_options) -> None`` adds the game block.
        slots: ``(game, decision) -> list[int]``, the fixed option slot of each option of
            ``decision`` (a square, a table coin: the same slot means the same thing in every
            state), or None.
        tokens: ``game -> list[str]``, the game's option vocabulary (words, space ids,
            ``"mortgage:13"`` ...): option ``o`` takes the slot of its token (a seat ``s``
            asked of seat ``p`` is the token ``"seat[+r]"``, ``r = (s - p) mod n``, so it is
            relative like the observation); an option outside the vocabulary (a new rule's
            word) takes the first free of :data:`OVERFLOW_SLOTS` slots after it, in the
            engine's order. None (and no ``slots``): option ``k`` of the engine's list in
            slot ``k``.
    """

    scale: float
    option_slots: int | Callable | None
    tags: tuple
    vocab: Callable = field(default=lambda game: {})
    encode: Callable = field(default=lambda f, obs, seat, n, vocab, options: None)
    slots: Callable | None = None
    tokens: Callable | None = None


#: slots after a game's vocabulary for options outside it (in the engine's order)
OVERFLOW_SLOTS = 16
#: relative-seat tokens (a seat as an option)
SEAT_TOKENS = tuple(f"seat[+{r}]" for r in range(8))


class TokenSlots:
    """The ``(game, decision) -> slots`` function of a game with a token vocabulary (see
    :attr:`GameSpec.tokens`); ``len(self)`` is the option slots it needs."""

    def __init__(self, tokens: list[str]):
        self.tokens = list(dict.fromkeys([*tokens, *SEAT_TOKENS]))
        self.index = {t: i for i, t in enumerate(self.tokens)}

    def __len__(self) -> int:
        return len(self.tokens) + OVERFLOW_SLOTS

    def __call__(self, game, decision) -> list[int]:
        n, out, spare = len(game.players), [], len(self.tokens)
        for o in decision.options:
            if type(o) is int:
                o = f"seat[+{(o - decision.player) % n}]"
            slot = self.index.get(o) if type(o) is str else None
            if slot is None:
                slot, spare = spare, spare + 1
            out.append(slot)
        return out


def _money_moves_tokens(game):
    return ["roll", "leave", "keep", "use"]


def _moolah_tokens(game):
    words = ["roll", "deposit", "withdraw", "done", "back", "pass", "stay", "end", "cancel",
             "accept", "decline", "nobody", "grain", "oil", "gold"]  # fmt: skip
    return words + list(game.data.order) + [f"advantage:{c}" for c in sorted(game.data.cards)]


def _easy_money_tokens(game):
    words = ["roll", "end", "offer", "pass", "buy", "decline", "accept", "refuse", "cancel",
             "bankrupt", "exemption"]  # fmt: skip
    spaces = range(len(game.owner))
    return words + [f"{k}:{i}" for k in ("build", "mortgage", "lift", "space") for i in spaces]


def _money_card_tokens(game):
    b = game.board
    words = ["spin", "bonus", "stop", "red", "black", "stay", "charge", "pay", "monte_carlo"]
    return (
        words
        + list(b.order)
        + [f"fly:{s}" for s in b.order]
        + [f"turn_in:{k}" for k in b.key_cities]
        + [f"phrase:{p}" for p in b.phrases]
    )


def _deck(f: Features, name: str, view: dict, full: int) -> None:
    """A deck's public view: cards left to draw and discarded, as fractions of ``full``."""
    full = max(full, 1)
    f.add(f"{name}:draw_pile", view.get("draw_pile", 0) / full)
    f.add(f"{name}:discards", len(view.get("discard_pile", ())) / full)


# ----- Money Moves -------------------------------------------------------------------------------
def _money_moves(f, obs, seat, n, vocab, options):
    f.add("round", obs["round"] / max(options.get("rounds", 5), 1))
    f.seat_onehot("current", obs["current"], seat, n)
    f.add("pot", obs["pot"])
    f.seats("loan", obs["loans"], seat)
    f.seats("held_cards", [len(h) for h in obs["held"]], seat)
    f.seats("out", obs["out"], seat)
    roll = obs.get("last_roll")
    f.add("last_roll:number", (roll[0] if roll else 0) / 6)
    deck = obs["deck"]
    _deck(f, "deck", deck, deck["draw_pile"] + len(deck["discard_pile"]))
    f.add("last_cards", len(obs["last_cards"]))


# ----- Moolah ------------------------------------------------------------------------------------
def _moolah_vocab(game):
    return {"spaces": list(game.data.spaces), "cards": sorted(game.data.cards)}


def _moolah(f, obs, seat, n, vocab, options):
    scale = SPECS["moolah"].scale
    index = {s: i for i, s in enumerate(vocab["spaces"])}
    f.seats("position", [index.get(p, -1) + 1 for p in obs["positions"]], seat, len(index))
    f.seats("missed_turns", obs["missed"], seat)
    f.seats("out", obs["out"], seat)
    hand = obs["hand"]
    for c in vocab["cards"]:
        f.add(f"hand:{c}", hand.count(c))
    f.seats("hand_size", obs["hand_sizes"], seat)
    f.add("turn", obs["turn"] / max(options.get("max_turns", 300), 1))
    f.seat_onehot("current", obs["current"], seat, n)
    dice = obs["dice"] or (0, 0)
    f.add("dice:first", dice[0] / 6)
    f.add("dice:second", dice[1] / 6)
    for name in ("temptation", "casino"):
        view = obs[name]
        _deck(f, name, view, view["draw_pile"] + len(view["discard_pile"]))
    for s in sorted(obs["stocks"]):
        view = obs["stocks"][s]
        _deck(f, f"stock:{s}", view, view["draw_pile"] + len(view["discard_pile"]))
    play = obs["play"]  # the Black Jack hand being played, or just settled (issue 39)
    bet = play.get("bet")
    f.add("play:bet", bet / scale if isinstance(bet, (int, float)) else 0.0)
    f.add("play:settled", "won" in play)  # the House's card is out: the hand is settled
    f.add("play:won", play.get("won") is True)  # 1 if that settled hand was won
    for k in ("card", "house"):
        v = play.get(k)
        f.add(f"play:{k}", v / 21 if isinstance(v, (int, float)) else 0.0)
    f.onehot("play:stock", play.get("stock"), sorted(obs["stocks"]))


# ----- Easy Money --------------------------------------------------------------------------------
def _easy_money(f, obs, seat, n, vocab, options):
    scale = SPECS["easy_money"].scale
    spaces = len(obs["owner"])
    f.add("round", obs["round"] / max(options.get("max_rounds", 50), 1))
    f.seat_onehot("current", obs["current"], seat, n)
    f.seats("position", [p + 1 for p in obs["positions"]], seat, spaces)
    # a Bonus crossing that only makes up a "Go back" card pays nothing (issue 39)
    f.seats("backed", obs.get("backed", [0] * n), seat)
    per_space = []  # per space: mine, someone else's, houses / 4, mortgaged
    for o, h, m in zip(obs["owner"], obs["houses"], obs["mortgaged"], strict=True):
        per_space += (o == seat, o is not None and o != seat, h / 4, m)
    f.extend(
        lambda: [
            f"space{i}:{k}"
            for i in range(spaces)
            for k in ("mine", "others", "houses", "mortgaged")
        ],
        map(float, per_space),
    )
    f.add("hospital", obs["hospital"] / scale)
    f.add("bank", obs["bank"] / scale)
    f.seat_onehot("exemption", obs["exemption"], seat, n)
    dice = obs["dice"]
    f.add("dice", (sum(dice) if isinstance(dice, (list, tuple)) else (dice or 0)) / 12)
    a = obs["auction"] or {}
    f.add("auction", bool(a))
    f.add("auction:space", (a.get("space", -1) + 1) / spaces)
    f.add("auction:high", (a.get("high") or 0) / scale)
    f.seat_onehot("auction:leader", a.get("leader"), seat, n)
    o = obs["offer"] or {}
    f.add("offer", bool(o))
    f.add("offer:price", (o.get("price") or 0) / scale)
    f.seat_onehot("offer:seller", o.get("seller"), seat, n)
    f.seat_onehot("offer:buyer", o.get("buyer"), seat, n)
    deck = obs["deck"]
    _deck(f, "deck", deck, deck["draw_pile"] + len(deck["discard_pile"]))


# ----- Money Card --------------------------------------------------------------------------------
def _money_card_vocab(game):
    b = game.board
    return {
        "spaces": list(b.spaces),
        "keys": list(b.key_cities),
        # the cards a hand can hold: every Language card, in deck order (issue 39)
        "hand_cards": [c for deck in b.languages for c in b.decks[deck]],
    }


def _money_card(f, obs, seat, n, vocab, options):
    index = {s: i for i, s in enumerate(vocab["spaces"])}
    f.seats("position", [index.get(p, -1) + 1 for p in obs["positions"]], seat, len(index))
    for r in range(n):
        s = (seat + r) % n
        for k in vocab["keys"]:
            f.add(f"key[+{r}]:{k}", k in obs["keys"][s])
        f.add(f"turned_in[+{r}]", len(obs["turned_in"][s]))
    f.add("hand", len(obs["hand"]))
    mine = set(obs["hand"])  # my own cards, each by name: phrases need specific cards
    f.extend(lambda: [f"hand:{c}" for c in vocab["hand_cards"]],
             [float(c in mine) for c in vocab["hand_cards"]])  # fmt: skip
    f.seats("hand_size", obs["hand_sizes"], seat)
    f.seat_onehot("money_card", obs["money_card"], seat, n)
    f.seats("out", obs["out"], seat)
    f.seat_onehot("current", obs["current"], seat, n)
    f.add("round", obs["round"] / max(options.get("max_rounds", 60), 1))
    for name in sorted(obs["piles"]):
        f.add(f"pile:{name}", obs["piles"][name] / 20)
    f.add("last_spin", (obs["last_spin"] or 0) / 10)


# ----- Money Run ---------------------------------------------------------------------------------
def _money_run_vocab(game):
    size = game.size
    cells = [f"{x},{y}" for y in range(size) for x in range(size)]  # the stacks' keys
    return {"size": size, "cells": cells}


def _money_run(f, obs, seat, n, vocab, options):
    size, cells = vocab["size"], vocab["cells"]
    names = list(obs["bag"])  # coin sizes, smallest first
    rank = {c: i + 1 for i, c in enumerate(names)}
    top = max(len(names), 1)
    stacks = obs["stacks"]
    # per square: height / 4, top coin's size rank / sizes, then the coins of each size in the
    # stack / 4 (a coin goes only on one of its size or larger, so these counts give the whole
    # stack, the coins under the top included: issue 39)
    width = 2 + len(names)
    grid = [0.0] * (width * len(cells))
    for i, key in enumerate(cells):
        s = stacks.get(key)
        if s:
            at = width * i
            grid[at] = len(s) / 4
            grid[at + 1] = rank.get(s[-1], 0) / top
            for coin in s:
                if coin in rank:
                    grid[at + 1 + rank[coin]] += 0.25
    f.extend(
        lambda: [f"cell{c}:{k}" for c in cells for k in ("height", "top", *names)],
        grid,
    )
    players = obs["players"]
    for r in range(n):
        p = players[(seat + r) % n]
        x, y = obs["pawns"][p]
        axis, value = obs["goals"][p]
        f.add(f"pawn[+{r}]:x", x / (size - 1))
        f.add(f"pawn[+{r}]:y", y / (size - 1))
        f.add(f"goal[+{r}]:axis_y", axis == "y")
        f.add(f"goal[+{r}]:value", value / (size - 1))
    for c in names:
        f.add(f"table:{c}", obs["table"].count(c))
        f.add(f"bag:{c}", obs["bag"][c])
    f.add("bag_total", obs["bag_total"])
    f.add("coin_count", obs["coin_count"])
    f.seat_onehot("turn", obs["turn"], seat, n)
    f.add("actions_left", obs["actions_left"])
    f.add("round", obs["round"] / max(options.get("max_rounds", 60), 1))
    # the coin picked for this action, whose square is asked now (issue 29)
    sel = obs.get("selected")
    kind = sel[0] if sel else None
    f.add("selected:table_coin", kind == "place")
    f.add("selected:board_coin", kind == "coin")
    table_size = MONEY_RUN_TABLE_SLOTS
    for i in range(table_size):
        f.add(f"selected:table[{i}]", kind == "place" and sel[1] == i)
    f.add("selected:x", (sel[1] + 1) / size if kind == "coin" else 0.0)
    f.add("selected:y", (sel[2] + 1) / size if kind == "coin" else 0.0)
    f.add("selected:rank", rank.get(obs["selected_coin"], 0) / top if sel else 0.0)


#: option slots of Money Run's table coins (the data file allows at most 20; the rulebook 4)
MONEY_RUN_TABLE_SLOTS = 20


def _money_run_slots(game, decision) -> list[int]:
    """Fixed slots of Money Run's options: table coin ``i`` -> ``i``; a square ``(x, y)``
    (a board coin to move at an action, or where a picked coin goes) -> ``T + y*size + x``;
    a pawn destination -> ``T + size² + y*size + x``; ``end_turn`` -> ``T + 2*size²``, with
    ``T`` = :data:`MONEY_RUN_TABLE_SLOTS`."""
    size, t = game.size, MONEY_RUN_TABLE_SLOTS
    n2 = size * size
    out = []
    for o in decision.options:
        if o == "end_turn":
            out.append(t + 2 * n2)
        elif type(o[0]) is int:  # a target square (x, y)
            out.append(t + o[1] * size + o[0])
        elif o[0] == "place":
            out.append(o[1])
        elif o[0] == "coin":
            out.append(t + o[2] * size + o[1])
        else:  # ("pawn", x, y)
            out.append(t + n2 + o[2] * size + o[1])
    return out


#: game name -> how it is encoded (scales, default option slots, known decision tags)
SPECS: dict[str, GameSpec] = {
    "money_moves": GameSpec(
        scale=1.0,
        option_slots=None,
        tags=("opening_roll", "roll", "pick_player", "borrow", "wild_card"),
        encode=_money_moves,
        tokens=_money_moves_tokens,
    ),
    "moolah": GameSpec(
        scale=100_000.0,
        option_slots=None,
        tags=(
            "first_withdrawal",
            "turn",
            "fork",
            "casino_bet",
            "casino_raise",
            "bank",
            "bank_amount",
            "moolah",
            "take_pal",
            "advantage_target",
            "after",
            "wall_street",
            "wall_street_amount",
            "gamble",
        ),  # fmt: skip
        vocab=_moolah_vocab,
        encode=_moolah,
        tokens=_moolah_tokens,
    ),
    "easy_money": GameSpec(
        scale=1_000.0,
        option_slots=None,
        tags=(
            "opening",
            "turn",
            "post",
            "bid",
            "buy",
            "lone_bidder",
            "offer_item",
            "offer_to",
            "offer_price",
            "offer_reply",
            "debt",
        ),  # fmt: skip
        encode=_easy_money,
        tokens=_easy_money_tokens,
    ),
    "money_card": GameSpec(
        scale=100.0,
        option_slots=None,
        tags=("turn", "move", "express", "bet", "color", "join", "charge", "from_dublin", "debt"),
        vocab=_money_card_vocab,
        encode=_money_card,
        tokens=_money_card_tokens,
    ),
    "money_run": GameSpec(
        scale=1.0,
        # fixed slots (_money_run_slots): a table coin, a square (a top coin to move, or
        # where a picked coin goes), a pawn destination per square, end the turn
        option_slots=lambda game: 2 * game.size**2 + MONEY_RUN_TABLE_SLOTS + 1,
        tags=("action", "place", "move_coin"),
        vocab=_money_run_vocab,
        encode=_money_run,
        slots=_money_run_slots,
    ),
}


class Observer:
    """Builds one game's observation vectors.

    Args:
        game: a :class:`~moneynb.core.Game` of the layout to encode (read once for static
            vocabularies and account names); :meth:`encode` then reads any game of the same
            name and player count (players may be named differently), only through
            ``observation(seat)`` and ``scores()``.
        spec: its :class:`GameSpec`.
        option_slots: the env's option slot count (scales the option count entry).
    """

    def __init__(self, game, spec: GameSpec, option_slots: int):
        self.spec = spec
        self.option_slots = option_slots
        self.vocab = spec.vocab(game)
        players = set(game.players)
        owned, house = set(), []
        for acc in game.money():
            prefix, _, who = acc.partition(":")
            if who in players:
                owned.add(prefix)  # "wallet" of "wallet:Ann": one per player
            else:
                house.append(acc)
        self.owned = sorted(owned)
        self.house = sorted(house)
        self.names: list[str] = []

    def encode(self, game, seat: int, entry=None) -> np.ndarray:
        """The float32 vector ``seat`` observes now; ``entry`` is ``(digits_left, low, high)``
        of an amount being entered by ``seat`` (or None)."""
        spec, scale = self.spec, self.spec.scale
        obs = game.observation(seat)
        players = obs["players"]
        n = len(players)
        f = Features(with_names=not self.names)
        f.add("players", n / 8)
        d = obs["decision"]
        f.seat_onehot("to_decide", None if d is None else d["player"], seat, n)
        f.add("my_decision", d is not None and d["player"] == seat)
        f.onehot("kind", None if d is None else d["kind"], KINDS)
        tag = None if d is None else (d["tag"] if d["tag"] in spec.tags else "other")
        f.onehot("tag", tag, (*spec.tags, "other"))
        f.add("options", 0 if d is None else len(d["options"]) / self.option_slots)
        ranged = d is not None and d["kind"] == "amount" and d["low"] is not None
        f.add("amount:low", d["low"] / scale if ranged else 0.0)
        f.add("amount:high", d["high"] / scale if ranged else 0.0)
        f.add("amount:step", d["step"] / scale if ranged else 0.0)
        left, low, high = entry if entry is not None else (0, 0, 0)
        f.add("entry:digits_left", left)
        f.add("entry:low", low / scale)
        f.add("entry:high", high / scale)
        money = obs["money"]
        for prefix in self.owned:
            f.seats(
                f"money:{prefix}", [money.get(f"{prefix}:{p}", 0) for p in players], seat, scale
            )
        for acc in self.house:
            f.add(f"money:{acc}", money.get(acc, 0) / scale)
        scores = game.scores()
        f.seats("score", [scores[p] for p in players], seat, scale)
        f.add("over", d is None)
        spec.encode(f, obs, seat, n, self.vocab, game.options)
        if not self.names:
            self.names = f.names
        return f.array()
