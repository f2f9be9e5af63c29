"""Shared tables: one game played from several browsers (kernels) through the game store
(issue 25). No Jupyter here: the widget is :class:`moneynb.ui.table.TableView`.

A table is a stored game (:mod:`moneynb.store`) with a join code: six letters from
:data:`ALPHABET` (20 letters that are not read as digits or as each other: about 64 million
codes, so a code cannot be guessed by a class in practice). Each seat is a person's (held by one
owner: the hub user or a browser, :mod:`moneynb.store.identity`) or a bot's.

- :func:`host_table` stores a new table and gives the host a seat;
- :func:`join_table` finds a table by its code and claims a seat for an owner (a reloaded
  browser, the same owner, gets its own seat back);
- :class:`TableSession` is one kernel's copy of the table: it follows the stored actions
  (:meth:`TableSession.sync`), plays its owner's seats (:meth:`TableSession.act`) and the bots'
  (:meth:`TableSession.play_bots`).

**Bots.** Any kernel at a table may play a bot's seat: the bot is made afresh for each move,
seeded from the game's seed, the seat and the action count (:func:`table_bot`), so every kernel
computes the same move from the same state, and the store takes it once (an append names the
count it follows). A kernel whose append meets a :class:`~moneynb.store.ConflictError` reads
the stored actions and goes on.

Source: issue 25 ("Shared tables across browsers"); reconstruction (no rulebook covers it).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from .bots import bot_seed, name_seats
from .core.game import MAX_NAME, normalize_name
from .core.save import loads
from .store import (
    ConflictError,
    LiveTable,
    NoSuchGame,
    OneSeatEach,
    SeatTaken,
    StoreError,
    TooManyTries,
    open_store,
)
from .store import limits as _limits

__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "MAX_NAME",
    "new_code",
    "normal_code",
    "host_table",
    "join_table",
    "find_table",
    "new_seed",
    "free_seat",
    "LiveTable",
    "OneSeatEach",
    "TooManyTries",
    "table_bot",
    "TableSession",
    "Hosted",
]

#: letters of a join code: no I/L (1), O (0), S (5), Z (2), B (8)
ALPHABET = "ACDEFGHJKMNPQRTUVWXY"
#: letters in a join code
CODE_LENGTH = 6
#: the origin stored with a table's game
ORIGIN = "table"


def new_code() -> str:
    """A random join code: :data:`CODE_LENGTH` letters of :data:`ALPHABET` (``secrets``)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_seed() -> int:
    """A fresh random seed for a game people play (62 bits from ``secrets``): nobody can
    rebuild the game's coming dice and hidden cards from a seed they can guess (issue 35,
    case 3). Scripts and tests that want a game again pass their own seed."""
    return secrets.randbits(62)


def normal_code(code) -> str:
    """``code`` as stored: upper case, spaces and dashes dropped ("abc-def" -> "ABCDEF").

    Raises:
        ValueError: not :data:`CODE_LENGTH` letters of :data:`ALPHABET` (the message says
            what a code looks like).
    """
    text = re.sub(r"[\s-]+", "", code).upper() if isinstance(code, str) else ""
    if len(text) != CODE_LENGTH:
        raise ValueError(
            f"{str(code)[:20]!r} is not a join code: a join code is {CODE_LENGTH} letters, "
            "as the host's board shows it (e.g. 'KQMRTA')"
        )
    unused = sorted({c for c in text if c not in ALPHABET})
    if unused:  # letters that look like digits (or are not letters) are never in a code
        raise ValueError(
            f"{str(code)[:20]!r} is not a join code: join codes never use "
            f"{', '.join(repr(c) for c in unused)} (only the letters {ALPHABET}, so that no "
            "letter looks like a digit); check the code on the host's board"
        )
    return text


def _check_name(name) -> str:
    """A name typed at a table (surrounding spaces dropped), checked by the engine's own rule
    (:func:`moneynb.core.game.normalize_name`). Raises ValueError: the engine's message."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("a player's name is some text, e.g. 'Bob'")
    return normalize_name(name.strip())


def table_bot(spec: str, game, seat: int):
    """The bot (``spec``, e.g. ``"bot:greedy"``) that plays ``seat`` of ``game`` now: made
    afresh, seeded by :func:`bot_seed` from the game's seed, the seat and the action count, so
    every kernel at the table chooses the same move. Raises ``ValueError`` (unknown bot)."""
    from .bots import make_bot

    return make_bot(spec, seed=bot_seed(game.seed, seat, len(game.actions)))


@dataclass(frozen=True)
class Hosted:
    """What :func:`host_table` / :func:`join_table` give: the stored game's ``game_id``, the
    table's join ``code`` and the ``seat`` claimed (index; None: no seat)."""

    game_id: str
    code: str
    seat: int | None


def _name_seats(name: str, seats) -> tuple[list[str], list[str]]:
    """Names and store kinds for ``seats`` entries (names or "bot:greedy")."""
    if isinstance(seats, str) or not isinstance(seats, (list, tuple)) or not seats:
        raise ValueError(f"seats is a list of names and 'bot:...' entries, got {seats!r:.60}")
    names, specs = name_seats(list(seats))
    kinds = [specs.get(i, "human") for i in range(len(seats))]
    names = [n if i in specs else _check_name(n) for i, n in enumerate(names)]
    return names, kinds


def host_table(
    name: str,
    seats,
    *,
    owner: str,
    store=None,
    seed: int | None = None,
    seat: str | int | None = None,
    **options,
) -> Hosted:
    """Open a table of game ``name`` in the store; the host (``owner``) holds one seat.

    Args:
        name: a registered game ("moolah").
        seats: seat order: people's names and ``"bot:greedy"`` (etc.) entries.
        owner: the host's owner string (hub user or browser).
        store: a store or its location (None: the default, ``MONEYNB_STORE``).
        seed: the game's seed (None: a fresh random one, :func:`new_seed`; a table's seed is
            never shown to its players).
        seat: the host's seat (a name or index; None: the first person's seat; ``-1``: none,
            the host only watches and manages the table).
        **options: the game's options.

    Returns:
        :class:`Hosted` (game id, join code, the host's seat).

    Raises:
        ValueError: unknown game or bot, bad names (empty, repeated, over :data:`MAX_NAME`
            characters), a player count or option the game refuses, an unknown ``seat``.
        TooManyTries: ``owner`` (or the server) started too many games and tables in the
            last minute (:func:`moneynb.store.limits.new_game`).
        StoreError: the store cannot be written (nothing stored).
    """
    from .core.registry import game_class

    names, kinds = _name_seats(name, seats)
    if len(set(names)) != len(names):
        raise ValueError("two seats have the same name")
    game = game_class(name)(names, new_seed() if seed is None else seed, **options)
    if seat is None:
        mine = next((i for i, k in enumerate(kinds) if k == "human"), None)
    elif isinstance(seat, int):
        mine = None if seat == -1 else seat
        if mine is not None and not 0 <= mine < len(names):
            raise ValueError(f"there is no seat {seat} (seats 0 to {len(names) - 1})")
    else:
        if seat not in names:
            raise ValueError(f"nobody called {seat!r} at this table: {', '.join(names)}")
        mine = names.index(seat)
    if mine is not None and kinds[mine] != "human":
        raise ValueError(f"seat {mine + 1} ({names[mine]}) is a bot's")
    st = open_store(store)
    _limits.new_game(owner, st, "table")
    rows = [{"kind": k, "owner": owner if i == mine else None} for i, k in enumerate(kinds)]
    for _attempt in range(8):
        code = new_code()
        try:
            gid = st.create(game.config(), seats=rows, owner=owner, origin=ORIGIN, table=code,
                            status={"to_move": game.players[game.decision.player]})  # fmt: skip
            return Hosted(gid, code, mine)
        except StoreError as e:
            if "already in use" not in str(e):
                raise
    raise StoreError("no free join code was found (the store is full of tables?)")


def _wrong(code: str, name: str | None) -> NoSuchGame:
    """The one refusal of every wrong code (and of a right code with a name not at its
    table): it never says whether the code exists, nor who sits there (issue 35, case 6)."""
    if name is None:
        return NoSuchGame(
            f"there is no table with join code {code}: check the code with the table's host"
        )
    return NoSuchGame(
        f"there is no table with join code {code} and a seat called {name!r}: check the code "
        "and your name with the table's host"
    )


def find_table(code, store=None, owner: str | None = None, name: str | None = None):
    """The stored game (:class:`~moneynb.store.GameInfo`) at the table ``code``; with
    ``name``, only if a seat of that name (case does not matter) is at it.

    Every lookup is rate-limited per ``owner`` and per server
    (:func:`moneynb.store.limits.check_try`): a wrong code (or a right code with a name not at
    the table) counts as a wrong try, and every wrong try gets the same message.

    Raises:
        ValueError: ``code`` is not shaped like a join code (nothing looked up).
        TooManyTries: too many wrong tries by ``owner`` or on this server: wait (nothing
            looked up).
        NoSuchGame: no table has this code (with this seat name): the message says to check
            it with the table's host.
        StoreError: the store cannot be read.
    """
    code = normal_code(code)
    st = open_store(store)
    _limits.check_try("code", owner, st)
    found = st.list_table(code)
    if not found or (
        name is not None and not any(s.name.casefold() == name.casefold() for s in found[0].seats)
    ):
        _limits.wrong_try("code", owner, st)
        raise _wrong(code, name)
    _limits.right_try("code", owner, st)
    return found[0]


def join_table(code, name: str | None = None, *, owner: str, store=None) -> Hosted:
    """Take a seat at the table ``code`` for ``owner``: one seat per person per table.

    Args:
        code: the join code the host's board shows (case, spaces and dashes do not matter).
        name: the seat to take, by its player's name (case does not matter); None: the seat
            ``owner`` already holds, else the first free person's seat.
        owner: who sits down (hub user or browser owner string).
        store: a store or its location.

    An owner who already holds the seat (a reloaded or restarted browser) gets it back. A
    person whose seat is held by another browser (their own earlier one) asks the host to
    free it (:func:`free_seat`, the table's "Free the seat"), then joins again.

    Raises:
        ValueError: a malformed code, a name that is empty or over :data:`MAX_NAME`
            characters.
        TooManyTries: too many wrong codes from ``owner`` or on this server (see
            :func:`find_table`): wait the seconds it says.
        NoSuchGame: no table has this code, or no seat of that name is at it (one message
            for both: it names no seat).
        OneSeatEach: (a SeatTaken) ``owner`` already holds another seat at this table.
        SeatTaken: the seat is held by another owner, is a bot's, or no seat is free.
        StoreError: the store cannot be read or written.
    """
    if name is not None:
        name = _check_name(name)
    st = open_store(store)
    info = find_table(code, st, owner=owner, name=name)
    seats = list(info.seats)
    held = [s for s in seats if s.owner == owner and not s.bot]
    if name is None:
        if held:
            return Hosted(info.id, info.table, held[0].seat)
        free = [s for s in seats if s.owner is None and not s.bot]
        if not free:
            raise SeatTaken(f"every person's seat at table {info.table} is taken")
        seat = free[0]
    else:
        seat = next(s for s in seats if s.name.casefold() == name.casefold())
        if seat.bot and seat.owner != owner:
            raise SeatTaken(f"{seat.name}'s seat at table {info.table} is played by a bot")
        if held and held[0].seat != seat.seat:
            raise OneSeatEach(
                f"you already sit at table {info.table} as {held[0].name}: one seat per "
                f"person. To play {seat.name}'s seat instead, ask the table's host to free it"
            )
        if seat.owner is not None and seat.owner != owner:
            raise SeatTaken(
                f"{seat.name}'s seat at table {info.table} is already taken by another "
                f"browser. If that was you (an earlier browser or window), ask the table's "
                "host to free the seat (Free the seat), then join again"
            )
    got = st.claim_seat(info.id, seat.seat, owner)
    return Hosted(info.id, info.table, got.seat)


def free_seat(game_id: str, seat: int, *, owner: str, store=None) -> None:
    """The host frees ``seat`` for a new person: nobody holds it any more and it is a
    person's seat again (a bot given the seat stops), so the next person who joins with its
    name (or the first free seat) takes it. This is how a person whose seat is held by an
    earlier browser of theirs gets it back (issue 35, case 5).

    Raises:
        PermissionError: ``owner`` did not open this table, or ``seat`` is the host's own.
        SeatTaken: no such seat. NoSuchGame, StoreError: as the store.
    """
    st = open_store(store)
    info = st.info(game_id)
    if not owner or info.owner != owner:
        raise PermissionError("only the table's host can free a seat")
    if not isinstance(seat, int) or not 0 <= seat < len(info.seats):
        raise SeatTaken(f"this table has no seat {seat!r}")
    if info.seats[seat].owner == owner:
        raise PermissionError("that is your own seat: free another one")
    if info.seats[seat].bot:
        st.set_seat_kind(game_id, seat, "human")
    st.release_seat(game_id, seat)


class TableSession:
    """One kernel's copy of a table's game (no widgets).

    Args:
        game_id: the stored game.
        owner: who is at this kernel (their seats are :attr:`mine`); None: watch only.
        store: a store or its location.

    Attributes: ``game`` (the game as stored, replayed here), ``info`` (the last
    :class:`~moneynb.store.GameInfo` read), ``stored`` (the stored action count this copy
    follows).

    Raises:
        NoSuchGame, StoreError, moneynb.SaveFileError: the game cannot be read.
    """

    def __init__(self, game_id: str, owner: str | None, store=None):
        self.store = open_store(store)
        self.game_id = game_id
        self.owner = owner
        self.info = self.store.info(game_id)
        self.game = loads(self.store.read(game_id))
        self.stored = len(self.game.actions)

    # ----- seats -----------------------------------------------------------------------
    @property
    def code(self) -> str | None:
        """The table's join code."""
        return self.info.table

    @property
    def mine(self) -> set[int]:
        """The person seats :attr:`owner` holds (bot seats are nobody's to click)."""
        return {
            s.seat for s in self.info.seats if self.owner and s.owner == self.owner and not s.bot
        }

    def kind(self, seat: int) -> str:
        """``"human"`` or the bot spec of ``seat``."""
        return self.info.seats[seat].kind

    @property
    def is_host(self) -> bool:
        """True when :attr:`owner` opened the table."""
        return self.owner is not None and self.info.owner == self.owner

    # ----- following the store -----------------------------------------------------------
    def refresh_info(self) -> None:
        """Read the table's header and seats again (a claim, a seat given to a bot)."""
        self.info = self.store.info(self.game_id)

    def sync(self, apply=None) -> list:
        """Bring :attr:`game` to the stored actions; returns the new events (``[]``: nothing
        new). When the stored game is not a continuation of this copy (it cannot be, short of
        an undo elsewhere), the game is read again in full and ``None`` is returned.
        ``apply``: what applies one stored action to :attr:`game` and returns its events
        (default ``game.apply``; a view passes its own, to see each action and its seat).

        Raises:
            StoreError: the store cannot be read (the game here is unchanged).
        """
        self.refresh_info()
        n = self.info.actions
        have = len(self.game.actions)
        if n == have and have == self.stored:
            return []
        if n >= self.stored and have >= self.stored:
            new = self.store.actions(self.game_id, self.stored)
            local = self.game.actions[self.stored :]
            if new[: len(local)] == local:  # our unsaved actions are the stored ones
                events = []
                for a in new[len(local) :]:
                    events.extend((apply or self.game.apply)(a))
                self.stored = len(self.game.actions)
                return events
        self.game = loads(self.store.read(self.game_id))
        self.stored = len(self.game.actions)
        return None

    def push(self, status: dict | None = None) -> bool:
        """Store the actions this copy took beyond :attr:`stored`. Returns True when they are
        all stored; False when another kernel stored first: the stored game is then taken
        (actions that equal ours count as ours: bots choose alike), and any action of ours
        that was not stored is dropped.

        Raises:
            StoreError: the store cannot be written (the unsaved actions are kept here).
        """
        while len(self.game.actions) > self.stored:
            try:
                self.store.extend(self.game_id, self.stored, self.game.actions[self.stored :],
                                  status=status)  # fmt: skip
                self.stored = len(self.game.actions)
                return True
            except ConflictError:
                if self.sync() is None:
                    return False
                if len(self.game.actions) == self.stored:  # ours were the stored ones
                    return True
        return True

    # ----- acting ----------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat whose decision is pending (None: game over)."""
        d = self.game.decision
        return None if d is None else d.player

    def bot_to_move(self) -> bool:
        """True when a bot's seat has the pending decision."""
        s = self.to_move
        return s is not None and self.kind(s).startswith("bot:")

    def act(self, action) -> bool:
        """Play ``action`` for this owner's seat and store it; returns True when stored,
        False when another kernel stored a different action first (the game is then the
        stored one).

        Raises:
            PermissionError: the pending decision is not this owner's seat's.
            moneynb.IllegalAction: the engine refuses it (nothing changed).
            StoreError: the store cannot be written (the action is taken back).
        """
        s = self.to_move
        if s is None or s not in self.mine:
            who = "nobody" if s is None else self.game.players[s]
            raise PermissionError(f"it is {who}'s decision, not one of your seats'")
        self.game.apply(action)
        try:
            return self.push()
        except StoreError:
            self.game = self._stored_game()
            raise

    def _stored_game(self):
        """The game at the stored count (the unsaved tail taken back), by replay."""
        g = self.game
        back = type(g)(list(g.players), g.seed, **g.options)
        for a in g.actions[: self.stored]:
            back.apply(a)
        return back

    def play_bots(self, limit: int = 1000) -> int:
        """Let the bot seats move (each move stored once, by whichever kernel is first) until a
        person must decide or the game ends; returns the moves this kernel stored."""
        done = tries = 0
        while done < limit and tries < 2 * limit and self.bot_to_move():
            tries += 1
            s = self.to_move
            self.game.apply(table_bot(self.kind(s), self.game, s).choose(self.game))
            before = self.stored
            if self.push():
                done += self.stored - before
        return done

    def close(self) -> None:
        """Nothing to close (the store is shared per process)."""

    def __repr__(self) -> str:
        return f"TableSession({self.code}, {self.game_id}, owner={self.owner}, mine={sorted(self.mine)})"
