"""The game base class every moneynb game extends.

Source: DESIGN.md. A game is config (players + options) + seed + the list of actions taken.
At every moment it is either over or waits on exactly one :class:`Decision`
(:attr:`Game.decision`). :meth:`Game.apply` validates an action fully before anything changes,
then returns the :class:`Event` list describing what happened.

A subclass (one file per game, in the style of OpenSpiel's ``python/games``) declares::

    name = "money_moves"          # registry key
    title = "Money Moves"
    min_players, max_players = 2, 8
    default_options = {"rounds": 5}   # every option a user may set, with its default

and implements ``_setup()`` (deal, open accounts, set the first decision with
:meth:`Game.ask`), ``_apply(action)`` (carry out a legal action; call :meth:`ask` for the next
decision or :meth:`finish` at the end) and ``scores()``. Optional hooks: ``_check(action)``
(extra validation, raise :class:`IllegalAction`), ``observation(seat)`` (what that seat may
see) and ``greedy_action(rng)`` (the heuristic bot's choice).
"""

from __future__ import annotations

import copy
import operator
import random
import unicodedata
from dataclasses import fields, is_dataclass
from functools import partial
from numbers import Integral
from typing import Any

from .chance import (
    CHANCE_STREAMS,
    ChanceStreams,
    Deck,
    GameRandom,
    ScriptedRandom,
    check_streams_message,
    copy_generator,
    generator_state,
    new_generator,
)
from .decision import Decision, Event
from .errors import IllegalAction
from .ledger import Ledger
from .limits import MAX_ACTION_DEPTH, MAX_NAME, MAX_SEED, MAX_SEED_WORDS  # noqa: F401
from .outcomes import _fork

#: the undo policies (see :meth:`Game.undo`): "safe" never takes back a decision whose
#: chance outcome (a die, spin or card) has been seen; "practice" takes back anything
UNDO_POLICIES = ("safe", "practice")
#: what a player reads when the undo policy refuses (one sentence; :meth:`Game.undo_refusal`)
UNDO_REFUSED = "A roll, spin or card already seen can't be taken back in this game."


def normalize_action(action: Any, _depth: int = 0) -> Any:
    """Turn JSON forms into engine forms: lists become tuples (recursively); bools stay bools;
    other exact integer types (NumPy's ``int64``...) become ``int`` and a ``str`` subclass
    (NumPy's ``str_``) a plain ``str``, read through the base types, never through the value's
    own methods.

    An action is a plain JSON value: ``str``, ``int``, ``bool``, ``float``, ``None`` or a
    list/tuple of those. Anything else is refused here, before it is compared with any option
    (an object whose ``__eq__`` raises, or lies, never reaches the decision).

    Raises:
        IllegalAction: a value of another type, or lists nested deeper than
            :data:`MAX_ACTION_DEPTH` (no game has such actions; refusing them keeps a hostile
            action from exhausting the stack).
    """
    t = type(action)
    if t is str or t is int or t is bool:  # the common actions, as they are
        return action
    if (t is tuple or t is list) and all(type(a) is int or type(a) is str for a in action):
        return action if t is tuple else tuple(action)  # a flat one (a square, a path)
    if t is tuple or t is list:
        if _depth >= MAX_ACTION_DEPTH:
            raise IllegalAction(f"an action may nest lists at most {MAX_ACTION_DEPTH} deep")
        return tuple(normalize_action(a, _depth + 1) for a in action)
    if t is float or action is None:
        return action
    if isinstance(action, str):  # a str subclass: its characters as a plain str
        return str.__str__(action)
    if isinstance(action, int):  # an int subclass (not bool, handled above)
        return int.__int__(action)
    if isinstance(action, Integral):  # NumPy's int64 and the like
        try:
            value = operator.index(action)
        except Exception as e:  # noqa: BLE001 - a hostile __index__: refused, never raised
            raise IllegalAction(f"an action must be a plain whole number, got {t.__name__}") from e
        if type(value) is int:
            return value
    raise IllegalAction(
        "an action must be a plain value (text, a whole number, true/false, or a list of "
        f"those), got a {_short_repr(t.__name__, 60)}"
    )


def normalize_name(name: Any) -> str:
    """A player name as the game keeps it: Unicode NFC form, checked.

    Refused: a non-string; a control character (category Cc: NUL, ESC, a newline, a tab) or
    a format character (category Cf: a zero-width space, a right-to-left override, a BOM),
    which are invisible or reorder what is shown, so "Ann" and "Ann\\u200b" would look like one
    player; a name that is empty or blank, longer than :data:`MAX_NAME` characters, or that
    begins or ends with spaces. Two names are the same player when they are equal after NFC
    (see :meth:`Game._check_players`). Case counts: "bob" and "Bob" are two players (saves
    made before kept them apart; the board's token letters tell them apart, and a player
    typed by name must then be spelt exactly, see :meth:`Game._seat_named`). Source:
    reconstruction (issue 26).

    Raises:
        ValueError: the name is refused; the message says why.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"every player needs a non-empty name, got {_short_repr(name)}")
    if len(name) > 4 * MAX_NAME:  # before normalising a huge string
        raise ValueError(
            f"a player name may have at most {MAX_NAME} characters, got {len(name):,} "
            f"({_short_repr(name, 50)})"
        )
    name = unicodedata.normalize("NFC", str.__str__(name))
    bad = [c for c in name if unicodedata.category(c) in ("Cc", "Cf")]
    if bad:
        shown = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'control')}" for c in bad[:3])
        raise ValueError(
            f"a player name may not hold invisible or control characters ({shown}) in "
            f"{name!r}: use letters, digits, spaces and punctuation"
        )
    if not name.strip():
        raise ValueError(f"every player needs a non-empty name, got {name!r}")
    if len(name) > MAX_NAME:
        raise ValueError(
            f"a player name may have at most {MAX_NAME} characters, got {len(name):,} "
            f"({_short_repr(name, 50)})"
        )
    if name != name.strip():  # " A" and "A " would look like one player on the board
        raise ValueError(f"a player name may not begin or end with spaces: {name!r}")
    return name


def _short_repr(value: Any, limit: int = 120) -> str:
    """``repr(value)`` cut to ``limit`` characters (error messages stay readable)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _NoEvents(list):
    """The events list of an action carried out by :meth:`Game.advance`: it keeps nothing."""

    __slots__ = ()

    def append(self, event: Event) -> None:
        pass


_NO_EVENTS = _NoEvents()

_ATOMS = frozenset({int, str, bool, float, type(None)})


def _plain(value: Any) -> Any:
    """A comparable, JSON-like copy of engine state (for equality checks in tests)."""
    if type(value) in _ATOMS:
        return value
    if isinstance(value, random.Random):
        return generator_state(value)
    if isinstance(value, Decision):
        return {**value.to_dict(), "labels": {repr(k): v for k, v in value.labels.items()}}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {repr(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(v) for v in value)
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return {k: _plain(v) for k, v in vars(value).items()}
    return value


#: most points a ``reseed`` option may name (a branch of a branch of ... a game)
MAX_RESEEDS = 64


def _check_reseed(value: Any) -> list:
    """The ``reseed`` option checked: ``[[n, seed], ...]`` with whole ``n`` strictly rising
    from 0 and seeds from 0 to below :data:`MAX_SEED` (a list of lists, as JSON gives it; no
    negative seed: a generator dealt from -7 deals what 7 does, see :meth:`Game.__init__`).

    Raises:
        ValueError: anything else (the message says what a reseed list looks like).
    """
    why = (
        "option 'reseed' is a list of [action count, seed] pairs, the counts rising from 0, "
        f"at most {MAX_RESEEDS}, each seed a whole number from 0 to {MAX_SEED_WORDS}"
    )
    if type(value) is not list or len(value) > MAX_RESEEDS:
        raise ValueError(f"{why}; got {_short_repr(value)}")
    out, last = [], -1
    for pair in value:
        if (
            type(pair) not in (list, tuple)
            or len(pair) != 2
            or type(pair[0]) is not int
            or type(pair[1]) is not int
            or not last < pair[0] <= 10**9
            or not 0 <= pair[1] < MAX_SEED
        ):
            raise ValueError(f"{why}; got {_short_repr(value)}")
        last = pair[0]
        out.append([pair[0], pair[1]])
    return out


#: option values that cannot be changed in place (an option's default copied as it is)
_PLAIN = (int, str, float, bool, type(None))


class Game:
    """Base class of a moneynb game (see the module docstring for what a subclass provides).

    Args:
        players: list of distinct, non-empty player names, in seat order (seat 0 first).
        seed: int seed of the game's generator; ``None`` picks one (kept in the save file).
        **options: game options (house rules); each must be a key of ``default_options``
            and of the same type as its default. Every game also takes ``undo`` ("safe",
            the default, or "practice"; see :meth:`undo`) and ``chance_streams`` (how its
            chance is drawn: 1, the default, one stream for all, as every game before issue 39;
            2, a stream per kind of chance, so duplicate deals stay paired when play differs;
            see :meth:`chance`), kept in ``options`` and saved, and ``reseed`` (``[[n,
            seed], ...]``, default ``[]``: after the first ``n`` actions the game's hidden
            chance is drawn afresh from ``seed``, :meth:`resample_chance`; a branch of a game
            still being played, :meth:`moneynb.core.replay.Replay.branch`, so the branch does
            not deal the original's coming dice and cards; see :meth:`_reseed_due`).

    Raises:
        ValueError: unknown option, wrong option type, bad player names (empty, longer than
            :data:`MAX_NAME` characters, repeated), a negative seed, a seed of :data:`MAX_SEED` or
            more, or a player count outside ``min_players..max_players`` (the rulebook's
            range), a ``chance_streams`` that is not 1 or 2.
            :class:`~moneynb.core.errors.DataFileError` (a ``ValueError``): a
            house-rule data file option names a file that breaks its schema.
    """

    name = "game"
    title = "Game"
    min_players = 1
    max_players = 8
    default_options: dict[str, Any] = {}
    #: options every game takes (handled here, not by the rules)
    base_options: dict[str, Any] = {"undo": "safe", "chance_streams": 1, "reseed": []}
    #: the "safe" undo policy's refusal in a player's words (:meth:`undo_refusal`): the
    #: game's own kinds of chance
    undo_refused: str = UNDO_REFUSED
    #: the value a base option has when a save file leaves it out (:meth:`config` leaves it out
    #: then): a save made before ``chance_streams`` existed is version 1
    saved_defaults: dict[str, Any] = {"undo": "safe", "chance_streams": 1, "reseed": []}
    #: account-name prefix for player wallets; views show ``money()`` by account
    rulebook = ""
    #: attributes that only record what happened, for views and ``observation`` (the last
    #: dice, a score pad): no rule reads them, so two states that differ only in them play on
    #: alike, and a row once written is never changed (rows are only added). The chance-outcome
    #: enumeration uses this to recognise one state reached two ways
    #: (``moneynb.core.outcomes.state_key``) and shares the written rows between its copies;
    #: ``tests/test_coach_choices.py`` checks that changing them changes nothing that follows.
    record_only: tuple[str, ...] = ()
    #: options of ``default_options`` that only change what is shown, never how the game is
    #: played or won (:meth:`house_rules` leaves them out); none so far: every game option is
    #: read by the rules (a data file, a cap on rounds or turns, a scoring rule)
    presentation_options: tuple[str, ...] = ()

    def __init__(self, players: list[str], seed: int | None = None, **options: Any):
        self.players = self._check_players(players)
        self._cache_wallets = ["wallet:" + p for p in self.players]  # names, made once
        self.options = self._check_options(options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        # no negative seed: Python's generator deals from abs(seed), so -7 would deal seed 7's
        # dice and cards under another number (the store's practice marks compare seeds: a
        # student typed -7 after a finished game of seed 7, the tester of stop 48)
        if type(seed) is not int or not 0 <= seed < MAX_SEED:
            raise ValueError(
                f"seed must be a whole number from 0 to {MAX_SEED_WORDS}, got {str(seed)[:30]!r}"
            )
        self.seed = seed
        self.rng = new_generator(seed, self.options["chance_streams"])
        self.ledger = Ledger()
        self.actions: list = []
        self.log: list[Event] = []
        self.pending: Decision | None = None
        self.winners: list[int] = []
        #: how many of ``actions`` a "safe" undo may never take back: the last one of them
        #: revealed chance (a die, a spin, a card) to the players
        self.chance_seen = 0
        self._events: list[Event] = []
        self._setup()
        self._check_names_against_accounts()
        self.log.extend(self._events)
        self._events = []
        self.ledger.check()
        if self.options["reseed"]:
            self._reseed_due()

    # ----- configuration -------------------------------------------------------------------
    @classmethod
    def _check_players(cls, players: Any) -> list[str]:
        if isinstance(players, str) or not isinstance(players, (list, tuple)):
            raise ValueError(f"players must be a list of names, got {players!r}")
        players = [normalize_name(p) for p in players]
        specs = [p for p in players if p.startswith("bot:")]
        if specs:  # a bot is seated by whoever runs the game (play, the launcher, the env)
            raise ValueError(
                f"{specs[0]!r} is how a bot is asked for, not a player's name: the engine "
                "seats named players; ask for bots where a game is played, e.g. "
                "moneynb.play('moolah', players=['Ann', 'bot:greedy']), or pick another name"
            )
        if len(set(players)) != len(players):  # equal once normalised ("Ann" and NFD "Ann")
            dup = sorted({p for p in players if players.count(p) > 1})
            raise ValueError(f"player names must be distinct; repeated: {', '.join(dup)}")
        if not cls.min_players <= len(players) <= cls.max_players:
            raise ValueError(
                f"{cls.title} is for {cls.min_players} to {cls.max_players} players "
                f"(its rulebook), got {len(players)}"
            )
        return players

    def account_labels(self) -> list[str]:
        """The names of every account but the players' wallets, as the log and the money
        table write them ("House Bank", "Pot", "Ann's bank account"), in the ledger's order."""
        wallets = {f"wallet:{p}" for p in self.players}
        return [self.account_label(a) for a in self.ledger.balances if a not in wallets]

    def _check_names_against_accounts(self) -> None:
        """A player may not be named like a house account ("Pot", "Bank"): the log would read
        "House Bank paid $7 to House Bank"."""
        clash = sorted(set(self.players) & set(self.account_labels()))
        if clash:
            raise ValueError(
                f"{', '.join(clash)} is the name of an account in {self.title}; "
                "please choose another player name"
            )

    @classmethod
    def _check_options(cls, options: dict) -> dict:
        defaults = {**cls.default_options, **cls.base_options}
        # a copy of the defaults, deep where a value could be changed in place (a list)
        out = {k: v if type(v) in _PLAIN else copy.deepcopy(v) for k, v in defaults.items()}
        for key, value in options.items():
            if key not in defaults:
                known = ", ".join(sorted(defaults)) or "none"
                raise ValueError(
                    f"unknown option {_short_repr(key)} for {cls.title}; options: {known}"
                )
            default = defaults[key]
            if default is not None and type(value) is not type(default):
                if key == "chance_streams":  # its allowed values, whatever the wrong type
                    raise ValueError(check_streams_message(value))
                if key == "undo":
                    raise ValueError(
                        f"option 'undo' must be 'safe' or 'practice', got {_short_repr(value)}"
                    )
                if not (isinstance(default, float) and type(value) is int):
                    raise ValueError(
                        f"option {key!r} must be {type(default).__name__}, got {_short_repr(value)}"
                    )
            out[key] = value
        if out["undo"] not in UNDO_POLICIES:
            raise ValueError(f"option 'undo' must be 'safe' or 'practice', got {out['undo']!r}")
        if out["chance_streams"] not in CHANCE_STREAMS:
            raise ValueError(check_streams_message(out["chance_streams"]))
        out["reseed"] = _check_reseed(out["reseed"])
        cls._validate_options(out)
        return out

    @classmethod
    def _validate_options(cls, options: dict) -> None:
        """Hook: raise ValueError for option values out of range."""

    # ----- the decision interface -----------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """The pending :class:`Decision`, or ``None`` when the game is over. Its options and
        labels are complete (those the rules give as a function are computed now, from the
        game as it stands), so a decision read here stays what it was after the game moves on.
        """
        d = self.pending
        if d is not None and d.lazy:
            d._fill()
        return d

    @property
    def to_move(self) -> int | None:
        """The seat the pending decision waits on (``None`` when the game is over), read without
        computing the decision's options."""
        d = self.pending
        return None if d is None else d.player

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.pending is None

    @property
    def winner(self) -> str | None:
        """Name of the single winner, or ``None`` (game not over, or shared win: see winners)."""
        return self.players[self.winners[0]] if len(self.winners) == 1 else None

    @property
    def winner_names(self) -> list[str]:
        """Names of every winner (several when the rulebook lets them share)."""
        return [self.players[i] for i in self.winners]

    def legal_actions(self) -> list:
        """The discrete legal actions of the pending decision (amount ranges are described by
        ``decision.low``/``decision.high``, not listed). Empty when the game is over."""
        return [] if self.pending is None else list(self.pending.options)

    def apply(self, action: Any) -> list[Event]:
        """Carry out ``action`` for the pending decision and return the events it caused.

        At a ``"player"`` decision a player's name (as the board shows it) stands for their
        seat where that is unambiguous (see :meth:`_seat_named`); the seat is what is recorded.

        Raises:
            IllegalAction: the game is over, the action does not answer the decision, or the
                game's own checks refuse it. Nothing has changed when this is raised.
        """
        if type(action) is not str and type(action) is not int:  # those need no normalizing
            action = normalize_action(action)
        d = self.pending
        if d is None:
            raise IllegalAction("the game is over: no action is allowed")
        if d.kind == "player" and type(action) is str:
            action = self._seat_named(d, action)
        if not d.allows(action):
            raise IllegalAction(
                f"{_short_repr(action)} does not answer '{d.prompt}' for {self.players[d.player]}: "
                f"allowed is {d.describe(self.players)}"
            )
        self._check(action)
        if d.lazy:  # answered: a part nobody read can no longer be computed
            d._answered()
        events = self._events = []
        before = self._chance_fingerprint()
        try:
            self._apply(action)
            self.ledger.check()
        except BaseException:
            self._rebuild(self.actions)  # leave the state exactly as it was
            raise
        self.actions.append(action)
        if self._chance_fingerprint() != before:  # a die, a spin, a shuffle or a card
            self.chance_seen = len(self.actions)
        if self.options["reseed"]:
            self._reseed_due()
        self._events = []
        self.log.extend(events)
        return events

    def advance(self, action: Any) -> None:
        """Carry out ``action``, an answer the engine's own bot chose for the pending decision,
        without checking it against the decision and keeping no events: the path of the
        runners (:func:`moneynb.analysis.simulate`, :func:`moneynb.bots.play_out`), whose games
        no person watches. The built-in bots (``Bot.trusted``: random, greedy) answer only
        with a legal action, by construction. A wrong action here is not refused, so
        everything else (a person, an agent, a bot from elsewhere) goes through :meth:`apply`.

        What is left out, against :meth:`apply`: the action is not normalized or validated
        (no ``_check``); no event is built or logged (the log stays as it was: a view shows
        a game played by :meth:`apply`); chance is not tracked, so an action carried out
        here counts as having revealed chance (the "safe" undo never goes back past it).
        Kept: the rules, the ledger's check, and a state left exactly as it was when the
        rules raise (the error is raised again).

        Raises:
            IllegalAction: the game is over, or the rules refuse the action.
        """
        d = self.pending
        if d is None:
            raise IllegalAction("the game is over: no action is allowed")
        d._answered()  # (a part nobody read can no longer be computed; else nothing)
        self._events = _NO_EVENTS
        try:
            self._apply(action)
            self.ledger.check()
        except BaseException:
            self._events = []
            self._rebuild(self.actions)
            raise
        self._events = []
        self.actions.append(action)
        self.chance_seen = len(self.actions)
        if self.options["reseed"]:
            self._reseed_due()

    @staticmethod
    def seed_in_force(seed: int, reseed: list, n: int) -> int:
        """The seed a game's chance is drawn from right after its first ``n`` actions: that
        of the last ``reseed`` point (``[[at, seed], ...]``) at or before ``n``
        (:meth:`_reseed_due` draws afresh there), else the game's ``seed``. The store compares
        games by it (:func:`moneynb.store.store._provenance`)."""
        out = seed
        for at, s in reseed:
            if type(at) is int and at <= n:
                out = s
        return out

    def _reseed_due(self) -> None:
        """Where the ``reseed`` option names the action count reached (``[n, seed]`` with
        ``n == len(actions)``), draw the hidden chance afresh from ``seed``
        (:meth:`resample_chance`: a new generator, every face-down pile shuffled with it), and
        make the first ``n`` actions final for a "safe" undo (:attr:`chance_seen`): an undo
        to before the branch point, then play on, would otherwise draw the original game's
        coming chance again. Source: reconstruction (the tester's F1, 2026-12-06: a branch
        of an unfinished game with the same seed dealt the original's coming dice and cards).
        """
        n = len(self.actions)
        for at, seed in self.options["reseed"]:
            if at == n:
                self.resample_chance(seed)
                self.chance_seen = max(self.chance_seen, n)

    def _seat_named(self, d: Decision, name: str) -> Any:
        """At a ``"player"`` decision, the seat of the player called ``name`` (exactly, else
        ignoring case and outer spaces) among the decision's seats; ``name`` itself when it is
        one of the options (e.g. "nobody") or names no such seat (the caller then refuses it).

        Raises:
            IllegalAction: ``name`` is ambiguous: it is an option and also a player to choose,
                or it matches two choosable players when case is ignored.
        """
        seats = [o for o in d.options if type(o) is int and 0 <= o < len(self.players)]
        exact = [s for s in seats if self.players[s] == name]
        loose = [s for s in seats if self.players[s].casefold() == name.strip().casefold()]
        found = exact or loose
        if d.allows(name):
            if found:
                raise IllegalAction(
                    f"{name!r} is both an option and a player's name here: answer with "
                    f"{d.describe(self.players)}"
                )
            return name
        if len(found) > 1:
            raise IllegalAction(
                f"{name!r} could mean {' or '.join(self.players[s] for s in found)}: answer "
                f"with {d.describe(self.players)}"
            )
        return found[0] if found else name

    def _chance_fingerprint(self) -> tuple:
        """Changes whenever chance is used: the generator's state, the count of deck draws,
        and (a test rig's :class:`~moneynb.core.chance.ScriptedRandom`) its forced draws. A
        stream set (``chance_streams`` 2) counts every stream :meth:`chance` hands out (a rules
        file asks for a stream only to draw from it), so its count alone tells."""
        rng = self.rng
        if type(rng) is GameRandom or type(rng) is ChanceStreams:  # it counts its draws (a
            return (rng.draws, Deck.draws)  # stream set: and each stream asked for by chance())
        if type(rng) is ScriptedRandom:  # so does it (a forced or chosen draw included)
            return (rng.all_draws(), Deck.draws, len(rng.script))
        return (rng.getstate(), Deck.draws, len(getattr(rng, "script", ())))

    def _check(self, action: Any) -> None:
        """Hook: extra validation beyond the decision's options; raise IllegalAction."""

    def _setup(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _apply(self, action: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # ----- helpers for rules files ----------------------------------------------------------
    def chance(self, kind: str) -> random.Random:
        """The generator a draw of ``kind`` of chance comes from: a rules file names the kind
        and draws, e.g. ``D6.roll(self.chance("dice"))`` or
        ``deck.draw(self.chance("deck:Mail"))``. A kind is a short fixed name: one per die
        (or pair of dice thrown together), deck, spinner or bag of the game.

        With ``chance_streams`` 2 each kind has its own stream (seeded from the game's seed
        and the kind's name, :func:`~moneynb.core.chance.stream_seed`), so the k-th roll of
        the dice or the k-th card of a deck does not depend on what other chance the game used
        before (a duplicate deal stays paired when play differs); with 1, or while a generator
        without streams replaces the game's (a resample drawn from one ``random.Random``), the
        one generator serves every kind. Source: issue 39, case 7.
        """
        rng = self.rng
        streams = getattr(rng, "streams", None)
        if streams is None:
            return rng
        rng.draws += 1  # chance is used: the set's own count says so (see _chance_fingerprint)
        s = streams.get(kind)
        return s if s is not None else rng.stream(kind)

    def ask(
        self,
        player: int,
        kind: str,
        prompt: str,
        options: Any = (),
        low: int | None = None,
        high: int | None = None,
        step: int = 1,
        labels: Any = None,
        tag: str = "",
        suggested: int | None = None,
    ) -> None:
        """Set the pending decision (see :class:`Decision` for the arguments). ``options``
        may be a method ``f(player)`` returning them and ``labels`` a method ``f(options)``
        returning the dict: they are computed when first read, which a bot answering by the
        game's heuristic need never do. (The arguments are spelled out and handed on by
        position: no dict of keywords is made at every action.)"""
        self.pending = Decision(
            player, kind, prompt, options, low, high, step, labels, tag, suggested
        )

    def finish(self, winners: list[int]) -> None:
        """End the game with the given winning seats."""
        self.pending = None
        self.winners = list(winners)
        names = " and ".join(self.players[i] for i in winners) or "nobody"
        self.emit("game_over", f"Game over: {names} won.", winners=list(winners))

    def emit(self, kind: str, text: str, **data: Any) -> Event | None:
        """Record an event of this action and return it; ``text`` may be a function returning
        the text (built when the log is read). Under :meth:`advance` no event is made (None)."""
        events = self._events
        if events is _NO_EVENTS:  # an action carried out by advance: no event is made
            return None
        ev = Event(kind, text, data)
        events.append(ev)
        return ev

    def transfer(self, src: str, dst: str, amount: int, reason: str = "") -> int:
        """Move money between accounts and record a ``"paid"`` event; returns ``amount``.

        A zero amount moves nothing and records nothing.
        """
        if amount:
            self.ledger.move(src, dst, amount, reason)
            events = self._events
            if events is not _NO_EVENTS:  # (advance: no event is made)
                text = partial(self._paid_text, src, dst, amount, reason)  # built when read
                events.append(Event("paid", text, {"src": src, "dst": dst, "amount": amount}))
        return amount

    def _paid_text(self, src: str, dst: str, amount: int, reason: str) -> str:
        """The log line of a transfer."""
        return f"{self.account_label(src)} paid ${amount:,} to {self.account_label(dst)}" + (
            f" ({reason})" if reason else ""
        )

    def below_zero_words(self, account: str) -> str:
        """What a balance below $0 of ``account`` means, in a player's words ("" for an account
        the ledger never lets go below zero). Default: a bank with unlimited money, which has
        paid out more than it took in; a game names its own other kinds (an overdrawn bank
        account, a card's charges)."""
        if account not in self.ledger.may_go_negative:
            return ""
        return "below $0: it has paid out more than it took in (it never runs out of money)"

    def account_label(self, account: str) -> str:
        """Display name of an account ("wallet:Ann" -> "Ann")."""
        return account.split(":", 1)[1] if account.startswith("wallet:") else account

    # ----- reading the state ----------------------------------------------------------------
    def cash(self, seat: int) -> int:
        """Dollars in ``seat``'s wallet (the account ``"wallet:<name>"``; Money Card: the
        travelers cheques).

        Raises:
            KeyError: the game keeps no wallet for that player.
        """
        return self.ledger.balances[self._cache_wallets[seat]]

    def money(self) -> dict[str, int]:
        """``{account: dollars}`` for every account, the bank's included; the sum is constant."""
        return dict(self.ledger.balances)

    def scores(self) -> dict[str, int]:  # pragma: no cover - abstract
        """``{player name: score}`` (dollars for every moneynb game)."""
        raise NotImplementedError

    def observation(self, seat: int) -> dict:
        """What ``seat`` may see (never a deck's order). Games extend this (calling this first).

        Raises:
            ValueError: ``seat`` is not an int seat index ``0..len(players)-1``.
        """
        if type(seat) is not int or not 0 <= seat < len(self.players):
            raise ValueError(f"seat must be 0 to {len(self.players) - 1}, got {seat!r}")
        return {
            "game": self.name,
            "players": list(self.players),
            "seat": seat,
            "money": self.money(),
            "decision": None if self.pending is None else self.pending.to_dict(),
        }

    def greedy_action(self, rng: random.Random) -> Any:
        """The heuristic bot's answer to the pending decision; games override this.

        The default picks a random legal action, so every game has a working greedy bot.
        """
        from ..bots import random_action

        return random_action(self.pending, rng)

    def state(self) -> dict:
        """A comparable snapshot of the whole state (tests: save/load gives an equal state).

        Everything but the event log, which is the replay of the actions, counts, and but
        attributes named ``_cache_*`` (remembered results a rules file may keep for speed).
        """
        d = self.pending
        if d is not None:  # its options and labels, as a view would read them
            d._fill()
        out = {
            k: _plain(v)
            for k, v in list(vars(self).items())  # reading a lazy part may fill a _cache_
            if k not in ("_events", "log") and not k.startswith("_cache_")
        }
        out["log"] = len(self.log)  # the log follows from the actions; its length is checked
        return out

    # ----- replay, undo, save ---------------------------------------------------------------
    def config(self) -> dict:
        """The config that, with the action list, fully gives this game. A base option at the
        value a save file without it reads as (:attr:`saved_defaults`: ``undo="safe"``,
        ``chance_streams=1``) is left out, so the save files of such games are as before; a
        game started with ``chance_streams=2`` writes ``"chance_streams": 2``."""
        saved = self.saved_defaults
        options = {k: v for k, v in self.options.items() if not (k in saved and v == saved[k])}
        return {
            "game": self.name,
            "players": list(self.players),
            "seed": self.seed,
            "options": copy.deepcopy(options),
        }

    def _rebuild(self, actions: list) -> None:
        fresh = type(self)(list(self.players), self.seed, **self.options)
        for a in actions:
            fresh.apply(a)
        self.__dict__ = fresh.__dict__

    @staticmethod
    def undo_takes_back_chance(options: dict) -> bool:
        """True when a game of these ``options`` lets an undo go back past a roll, spin or card
        already seen (the "practice" undo policy, see :meth:`undo`): its player may play a
        move again knowing what chance brings (the store marks such a game practice). A save's
        options without ``undo`` read as "safe" (False)."""
        return (options or {}).get("undo", "safe") == "practice"

    @classmethod
    def house_rules(cls, options: dict) -> dict:
        """The options of a game of these ``options`` (as stored or saved) that change how it
        is played or won: each ``default_options`` key (a data file, ``max_turns``,
        ``rounds``, a scoring rule...) whose value differs from the game's default, in the
        order of ``default_options`` (``{}`` for the game as the rulebook has it). The base
        options are not house rules: ``undo`` is the store's practice mark
        (:meth:`undo_takes_back_chance`), ``chance_streams`` only changes how the same fair
        dice are drawn, and ``reseed`` is a branch's fresh chance (the store's branch note).
        :attr:`presentation_options` are left out. A data file counts whatever it holds (the
        store keeps its name, not its contents). A class's standings count such a game apart
        (:attr:`moneynb.store.GameInfo.counted`)."""
        options = options if isinstance(options, dict) else {}
        return {
            k: options[k]
            for k, default in cls.default_options.items()
            if k in options
            and k not in cls.presentation_options
            and (options[k] != default or type(options[k]) is not type(default))
        }

    def can_undo_to(self, n: int) -> bool:
        """True if :meth:`undo_to` ``(n)`` is allowed by the undo policy (see :meth:`undo`)."""
        if type(n) is not int or not 0 <= n < len(self.actions):
            return False
        return self.undo_takes_back_chance(self.options) or n >= self.chance_seen

    def undo_refusal(self, n: int) -> str:
        """Why :meth:`undo_to` ``(n)`` is refused, as one sentence in a player's words (a view
        shows it; the :class:`IllegalAction` of :meth:`undo_to` keeps the technical words for
        code), or ``""`` when it is allowed (:meth:`can_undo_to`)."""
        if self.can_undo_to(n):
            return ""
        if type(n) is not int or not 0 <= n < len(self.actions):
            return "There is nothing to take back yet."
        return self.undo_refused

    def undo_to(self, n: int) -> None:
        """Take back every action after the first ``n`` (by replaying those ``n``).

        Raises:
            IllegalAction: ``n`` is not ``0..len(actions)-1``, or the undo policy forbids it
                (see :meth:`undo`). Nothing has changed when this is raised.
        """
        if type(n) is not int or not 0 <= n < len(self.actions):
            raise IllegalAction(
                f"undo goes back to an earlier action: 0 to {len(self.actions) - 1}, got {n!r}"
                if self.actions
                else "there is no action to undo"
            )
        if not self.can_undo_to(n):
            raise IllegalAction(
                "cannot undo past a die, spin or card already seen"
                + (" (or the step this game was continued from)" if self.options["reseed"] else "")
                + ": the game was started with undo='safe' (start it with undo='practice' to "
                "explore freely)"
            )
        self._rebuild(self.actions[:n])

    def undo(self) -> None:
        """Take back the last action (by replaying all the others).

        Undo policy (the ``undo`` option every game takes; reconstruction, no rulebook has
        undo). ``"safe"`` (the default): an action may be taken back only while no chance
        outcome came after it; once a die is rolled, the spinner spun, a deck shuffled or a
        card drawn (by anyone), every action up to that one is final, so nobody can see a
        card or a roll, undo, and decide again knowing it (replay from the seed would deal
        the same card). ``"practice"``: anything may be taken back (for exploring alone; the
        save file records the policy).

        Raises:
            IllegalAction: no action has been taken yet, or the last action revealed chance
                and the policy is "safe". Nothing has changed when this is raised.
        """
        self.undo_to(len(self.actions) - 1)

    def copy(self, resample_chance: bool | int | random.Random = False) -> Game:
        """An independent deep copy (search bots use it): the same state as
        ``copy.deepcopy(game)``, made faster by the engine's copier (the event log and the
        action list, whose items are immutable, copied shallowly; the loaded rule data shared;
        the pending decision's options and labels read first).

        Args:
            resample_chance: False (default): an exact copy, which knows hidden state: the
                generator's future draws (dice, spins, Money Run's bag) and every deck's order.
                True, an int seed or a ``random.Random``: the copy's hidden chance is drawn
                afresh (see :meth:`resample_chance`), so play on it does not foresee this
                game's next die, spin, coin or card. True seeds from the system.

        Raises:
            ValueError: ``resample_chance`` is none of those.
        """
        rng = self.rng
        if type(rng) is GameRandom or type(rng) is ChanceStreams:  # the engine's fast copier
            new = _fork(self, copy_generator(rng))  # (moneynb.core.outcomes), every stream
        elif resample_chance is not False:  # a rig's generator, replaced next: not copied
            new = _fork(self, new_generator(0, self.options["chance_streams"]))
        else:  # a test rig's scripted generator, a search bot's own: copied as it is
            new = copy.deepcopy(self)
        if resample_chance is not False:
            new.resample_chance(resample_chance)
        return new

    def resample_chance(self, source: bool | int | random.Random = True) -> None:
        """Draw this game's hidden chance afresh, in place (use it on a copy): a new generator
        (so future dice, spins and bag draws differ from the original's) and every face-down
        pile (each :class:`~moneynb.core.chance.Deck` held by the game, alone or in a list or
        dict) shuffled with it. What players have seen (discards, hands, the table, the board)
        is unchanged; a card known to lie at the bottom of a pile (Money Card puts some back
        there) is shuffled in with the rest. Source: the determinization of information-set search (OpenSpiel's
        ``resample_from_infostate`` idea), applied to the game's whole hidden state.

        Args:
            source: True (seed from the system), an int seed, or a ``random.Random`` to draw
                the new generator's seed from.

        Raises:
            ValueError: ``source`` is not True, an int or a ``random.Random``.
        """
        if source is True:
            seed = random.SystemRandom().randrange(2**64)
        elif isinstance(source, random.Random):
            seed = source.getrandbits(64)
        elif type(source) is int:
            seed = source
        else:
            raise ValueError(
                f"resample_chance takes True, an int seed or a random.Random, got {source!r}"
            )
        self.rng = new_generator(seed, self.options["chance_streams"])
        for value in list(vars(self).values()):
            decks = (
                value.values()
                if isinstance(value, dict)
                else value
                if isinstance(value, (list, tuple))
                else (value,)
            )
            for deck in decks:
                if isinstance(deck, Deck):
                    deck.shuffle(self.rng)

    def __deepcopy__(self, memo: dict) -> Game:
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    def to_json(self) -> str:
        """The save file: JSON text of config + seed + actions (see :func:`moneynb.load_game`)."""
        from .save import dumps

        return dumps(self)
