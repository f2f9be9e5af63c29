"""The store itself: schema, migrations, the :class:`Store` API and :class:`Watcher`.

See :mod:`moneynb.store` for the overview. Times are Unix seconds (float, UTC); counts are
actions; owner strings are described in :mod:`moneynb.store.identity`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..core.save import FORMAT, MAX_ACTIONS, VERSION
from .classes import ClassMethods
from .errors import (
    ConflictError,
    GameClosed,
    LiveTable,
    NoSuchGame,
    OneSeatEach,
    SeatTaken,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
)
from .identity import MAX_OWNER

#: the schema version this moneynb writes (the number of :data:`MIGRATIONS`)
SCHEMA_VERSION = 4
#: longest status text kept (turn, to move), origin, seat name and table code
MAX_TEXT = 200
#: the PostgreSQL channel every write notifies (payload ``"<game id> <action count>"``)
CHANNEL = "moneynb_actions"
#: seat kinds: a person, or a bot spec as ``moneynb.play`` takes it
HUMAN = "human"

metadata = sa.MetaData()

schema_table = sa.Table(
    "moneynb_schema", metadata, sa.Column("version", sa.Integer, nullable=False)
)


def _games_columns() -> list:
    return [
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Text, nullable=False),  # JSON list of names
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("options", sa.Text, nullable=False),  # JSON object
        sa.Column("owner", sa.String(MAX_OWNER), nullable=True, index=True),
        sa.Column("origin", sa.String(MAX_TEXT), nullable=False, default=""),
        sa.Column("table_code", sa.String(40), nullable=True, unique=True),
        sa.Column("source", sa.String(1000), nullable=True, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("n_actions", sa.Integer, nullable=False, default=0),
        sa.Column("over", sa.Boolean, nullable=False, default=False),
        sa.Column("turn", sa.String(MAX_TEXT), nullable=False, default=""),
        sa.Column("to_move", sa.String(MAX_TEXT), nullable=False, default=""),
        sa.Column("person_moved", sa.Boolean, nullable=False, default=False),
        sa.Column("extra", sa.Text, nullable=False, default="{}"),  # JSON object
    ]


#: the games table as migration 1 made it (later migrations ALTER it)
_games_v1 = sa.Table("moneynb_games", sa.MetaData(), *_games_columns())
games_table = sa.Table(
    "moneynb_games",
    metadata,
    *_games_columns(),
    # migration 3 (issue 36): the class the game belongs to, and when it was closed (a
    # teacher closed the table or ended the class: no more actions are stored)
    sa.Column("class_id", sa.String(40), nullable=True),  # indexed by migration 3
    sa.Column("closed", sa.Float, nullable=True),
    # migration 4: where the game's chance came from, derived by the store when it is created
    # (:func:`_provenance`): the stored game it continues and at which step, and whether its
    # chance after that point repeats an earlier game's (dice already seen) or is its own
    sa.Column("branch_of", sa.String(40), nullable=True),
    sa.Column("branch_at", sa.Integer, nullable=True),
    sa.Column("chance", sa.String(10), nullable=True),
    sa.Column("chance_from", sa.String(40), nullable=True),
    sa.Column("chance_shared_by", sa.String(40), nullable=True),
)
seats_table = sa.Table(
    "moneynb_seats",
    metadata,
    sa.Column(
        "game_id",
        sa.String(40),
        sa.ForeignKey("moneynb_games.id", ondelete="CASCADE"),
        primary_key=True,
    ),  # fmt: skip
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(MAX_TEXT), nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("owner", sa.String(MAX_OWNER), nullable=True, index=True),
)
actions_table = sa.Table(
    "moneynb_actions",
    metadata,
    sa.Column(
        "game_id",
        sa.String(40),
        sa.ForeignKey("moneynb_games.id", ondelete="CASCADE"),
        primary_key=True,
    ),  # fmt: skip
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("action", sa.Text, nullable=False),  # JSON
    sa.Column("at", sa.Float, nullable=False),
)


def _results_columns() -> list:
    return [
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("lesson", sa.String(100), nullable=False, index=True),
        sa.Column("owner", sa.String(MAX_OWNER), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("data", sa.Text, nullable=False),  # JSON object
    ]


#: the results table as migration 2 made it (migration 3 ALTERs it)
_results_v2 = sa.Table("moneynb_results", sa.MetaData(), *_results_columns())
results_table = sa.Table(
    "moneynb_results",
    metadata,
    *_results_columns(),
    # migration 3 (issue 36): typed results, one current one per student per run
    sa.Column("class_id", sa.String(40), nullable=True),
    sa.Column("run", sa.Integer, nullable=True),
    sa.Column("value", sa.Float, nullable=True),
    sa.Column("seed", sa.BigInteger, nullable=True),
)


def _migration_1(conn: sa.Connection) -> None:
    """Games, their seats and their actions."""
    _games_v1.create(conn)
    for t in (seats_table, actions_table):
        t.create(conn)


def _migration_2(conn: sa.Connection) -> None:
    """Lesson results (pooled class experiments: :meth:`Store.post_result`)."""
    _results_v2.create(conn)


def _add_column(conn: sa.Connection, table: sa.Table, name: str) -> None:
    col = table.c[name]
    kind = col.type.compile(dialect=conn.dialect)
    conn.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {name} {kind}"))


def _migration_3(conn: sa.Connection) -> None:
    """Class sessions (issue 36): classes, their roster and lesson runs; a class id (and a
    closed time) on games; typed results, one per student per run of a lesson."""
    from .classes import class_metadata

    class_metadata.create_all(conn)
    for name in ("class_id", "closed"):
        _add_column(conn, games_table, name)
    for name in ("class_id", "run", "value", "seed"):
        _add_column(conn, results_table, name)
    conn.execute(sa.text("CREATE INDEX ix_moneynb_games_class_id ON moneynb_games (class_id)"))
    conn.execute(sa.text(
        "CREATE UNIQUE INDEX ux_moneynb_results_one ON moneynb_results (class_id, lesson, run, owner)"
    ))  # fmt: skip


def _migration_4(conn: sa.Connection) -> None:
    """Where a game's chance came from (a branch of a stored game, dice already seen): the
    columns ``branch_of``, ``branch_at``, ``chance``, ``chance_from``, ``chance_shared_by``
    (:func:`_provenance`). Games stored before are left unmarked (NULL)."""
    for name in ("branch_of", "branch_at", "chance", "chance_from", "chance_shared_by"):
        _add_column(conn, games_table, name)


#: ``MIGRATIONS[i]`` takes a store from schema version ``i`` to ``i + 1`` (in one transaction).
#: Add new ones at the end; never change one already released. A migration that alters a
#: table must use ALTER TABLE (and migration 1 then keeps its own copy of the old table).
MIGRATIONS: list[Callable[[sa.Connection], None]] = [
    _migration_1,
    _migration_2,
    _migration_3,
    _migration_4,
]
assert len(MIGRATIONS) == SCHEMA_VERSION


class _Any:
    def __repr__(self) -> str:
        return "ANY"


#: ``owner=ANY``: no owner check (the teacher's and the tables' own calls)
ANY: Any = _Any()


@dataclass(frozen=True)
class Seat:
    """One seat of a stored game.

    Attributes:
        seat: its index (0-based, the game's player order).
        name: the player's display name.
        kind: ``"human"`` or a bot spec (``"bot:greedy"``).
        owner: who holds it (an owner string), or None while nobody has claimed it.
    """

    seat: int
    name: str
    kind: str
    owner: str | None

    @property
    def bot(self) -> bool:
        """True for a bot seat."""
        return self.kind.startswith("bot:")


@dataclass(frozen=True)
class GameInfo:
    """A stored game's header and status line (no actions; :meth:`Store.read` has them).

    Attributes:
        id: the game's id (unguessable).
        game: registered game name ("moolah").
        players: display names in seat order.
        seed: the game's seed.
        options: the game's options (as in its save).
        owner: the owner string, or None (not claimed yet).
        origin: where it was started ("lab", "launcher:moolah", "import", ...).
        table: the table's join code, or None for a solo game.
        source: where it was imported from ("file:/abs/path.json"), or None.
        created, updated: Unix seconds (UTC) of creation and of the last write (last move).
        actions: the stored action count.
        over, turn, to_move, person_moved: the status line (see :meth:`Store.set_status`).
        extra: more status (a dict, e.g. ``{"leader": "Ann"}``).
        seats: the :class:`Seat` list.
        class_id: the class session it belongs to (issue 36), or None.
        closed: Unix seconds when the teacher closed it or ended its class (no more moves
            are stored), or None.
        branch_of, branch_at: the stored game this one continues ("Continue from here", or
            the same config and first moves stored again, whatever the request said) and the
            step it was continued from; None for a game of its own. Derived by the store
            when the game is created (:func:`_provenance`), never taken from the request.
        chance: ``"known"``: its chance from its start (or branch point) on repeats that of
            an earlier game :attr:`chance_from` that was over when this one was made (a
            finished game's "what if", or its seed used again: the dice already seen);
            ``"ahead"``: the same, but that game was still being played (one can be played
            ahead of the other); ``"fresh"``: a branch whose chance after the branch point is
            its own (the ``reseed`` option); None: a game of its own.
        chance_from: the game whose chance it repeats (``"known"``, ``"ahead"``), or None.
        chance_shared_by: a later game that was given this game's chance while this one was
            being played (so this one may be played knowing its dice), or None.
    """

    id: str
    game: str
    players: tuple
    seed: int
    options: dict
    owner: str | None
    origin: str
    table: str | None
    source: str | None
    created: float
    updated: float
    actions: int
    over: bool
    turn: str
    to_move: str
    person_moved: bool
    extra: dict = field(default_factory=dict)
    seats: tuple = ()
    class_id: str | None = None
    closed: float | None = None
    branch_of: str | None = None
    branch_at: int | None = None
    chance: str | None = None
    chance_from: str | None = None
    chance_shared_by: str | None = None

    @property
    def practice(self) -> bool:
        """True when the game was (or may have been) played knowing its dice, cards and
        spins: its chance repeats another stored game's (:attr:`chance`, or
        :attr:`chance_shared_by`), or its undo policy takes back rolls and cards already seen
        (:meth:`~moneynb.core.game.Game.undo_takes_back_chance`: undo, then play the move
        again knowing the dice). A class's standings leave such games out."""
        from ..core.game import Game

        return (
            self.chance in ("known", "ahead")
            or self.chance_shared_by is not None
            or Game.undo_takes_back_chance(self.options)
        )

    @property
    def practice_note(self) -> str:
        """One plain line saying why the game is practice ("" when it is not): "practice:
        replayed from a finished game at step 12, dice already seen"."""
        step = f"at step {self.branch_at}" if self.branch_at is not None else ""
        same = self.branch_of is not None and self.branch_of == self.chance_from
        if self.chance == "known":
            if same:
                return f"practice: replayed from a finished game {step}, dice already seen"
            return "practice: the seed of a finished game used again, dice already seen"
        if self.chance == "ahead":
            if same and self.branch_at:
                return (
                    f"practice: continued from a game still being played {step} with its "
                    "dice (one can be played ahead of the other)"
                )
            return (
                "practice: the seed of a game still being played used again (one can be "
                "played ahead of the other)"
            )
        if self.chance_shared_by is not None:
            return (
                "practice: its seed was used again in a later game while it was being played "
                "(its dice could be seen there first)"
            )
        if self.practice:  # its undo policy alone
            return "practice: its undo takes back dice and cards already seen"
        return ""

    @property
    def branch_note(self) -> str:
        """One plain line for a branch whose chance is its own: "continued from another game
        at step 12, with fresh dice" ("" otherwise)."""
        if self.chance == "fresh" and self.branch_at is not None:
            return f"continued from another game at step {self.branch_at}, with fresh dice"
        return ""

    @property
    def house_rules(self) -> dict:
        """The options this game was played with that change how it is played or won
        (:meth:`moneynb.core.game.Game.house_rules`: a data file, ``max_turns``, a scoring
        rule... different from the game's defaults), ``{}`` for the rulebook's game. A game
        this moneynb no longer has: every option but the base ones. Read from the stored
        options (the engine checked them when the game was stored)."""
        from ..core.game import Game
        from ..core.registry import game_class

        try:
            cls = game_class(self.game)
        except Exception:  # noqa: BLE001 - a game this moneynb no longer has
            return {k: v for k, v in (self.options or {}).items() if k not in Game.base_options}
        return cls.house_rules(self.options or {})

    @property
    def house_rules_note(self) -> str:
        """One plain line naming the house rules ("" when none): "house rules: board file
        goal.toml, max turns 40 (the game's own: 300)"."""
        from ..core.registry import game_class

        rules = self.house_rules
        if not rules:
            return ""
        try:
            defaults = game_class(self.game).default_options
        except Exception:  # noqa: BLE001
            defaults = {}
        parts = []
        for k, v in rules.items():
            was = defaults.get(k)
            if isinstance(v, str) and k.endswith("_file"):
                shown = v.replace("\\", "/").rsplit("/", 1)[-1] or "(none)"
            else:
                shown = str(v)
            own = f" (the game's own: {was})" if was not in (None, "") else ""
            parts.append(f"{k.replace('_', ' ')} {shown}{own}"[:80])
        return "house rules: " + ", ".join(parts)

    def person_seats(self) -> list[tuple[str, str | None]]:
        """``[(seat name, holder)]`` for each person seat, in seat order: the seat's owner,
        or for a solo game (no table) the game's owner (a solo game's person seats are all
        its owner's: hot seat); None for a table seat nobody holds. The one rule of who holds
        a seat, asked by :attr:`shared_seats`, :attr:`unheld_seats` and the class standings."""
        solo = self.owner if self.table is None else None
        return [(s.name, s.owner or solo) for s in self.seats if not s.bot]

    @property
    def shared_seats(self) -> dict:
        """``{owner: (seat names)}`` for each owner holding more than one person seat (a
        hot-seat game of one student playing two people, or two seats given to one
        student): they hold the winner and a loser, so a win is no result. ``{}``
        otherwise (one person seat and bots is an ordinary game)."""
        held: dict = {}
        for name, holder in self.person_seats():
            if holder is not None:
                held.setdefault(holder, []).append(name)
        return {o: tuple(names) for o, names in held.items() if len(names) > 1}

    @property
    def shared_seats_note(self) -> str:
        """One plain line when one player holds several person seats ("" otherwise):
        "not counted: one player plays 2 person seats (You and Zed), so a win is over
        themself"."""
        shared = self.shared_seats
        if not shared:
            return ""
        seats = "; ".join(" and ".join(names) for names in shared.values())
        n = max(len(names) for names in shared.values())
        return (
            f"not counted: one player plays {n} person seats ({seats}), so a win is over themself"
        )

    @property
    def unheld_seats(self) -> tuple:
        """The person seats of a table nobody holds (their names): a finished table with such
        a seat was played by someone with the store in hand (a host playing both sides of a
        local table, the second tester of stop 49), so it is no result. ``()`` for a solo
        game (its person seats are its owner's) and a table whose every person seat is held."""
        return tuple(name for name, holder in self.person_seats() if holder is None)

    @property
    def counted(self) -> bool:
        """True when a class's standings count this game as a result: not practice
        (:attr:`practice`: dice already seen), no player holding several person seats
        (:attr:`shared_seats`), the rulebook's rules (no :attr:`house_rules`) and, once over,
        every person seat of a table held (no :attr:`unheld_seats`). The one rule the
        teacher's view and the class export ask."""
        return not (self.practice or self.shared_seats or self.house_rules
                    or (self.over and self.unheld_seats))  # fmt: skip

    @property
    def class_note(self) -> str:
        """Every plain line a teacher's row of this game shows, joined by " · " ("" for an
        ordinary game): :attr:`practice_note` (or :attr:`branch_note`),
        :attr:`shared_seats_note`, :attr:`house_rules_note` (marked "not counted" when it
        is the only reason)."""
        rules = self.house_rules_note
        if rules and not (self.practice or self.shared_seats):
            rules = f"not counted: {rules}"
        unheld = self.unheld_seats
        nobody = (
            f"not counted: a person seat nobody held ({' and '.join(unheld)})"
            if unheld and self.over and not (self.practice or self.shared_seats or rules)
            else ""
        )
        return " · ".join(
            n
            for n in (self.practice_note or self.branch_note, self.shared_seats_note, rules, nobody)
            if n
        )

    @property
    def title(self) -> str:
        """The game's title ("Moolah")."""
        from ..core.registry import game_class

        try:
            return game_class(self.game).title
        except Exception:  # noqa: BLE001 - a game this moneynb no longer has
            return self.game

    @property
    def updated_local(self) -> dt.datetime:
        """:attr:`updated` as a local (naive) datetime."""
        return dt.datetime.fromtimestamp(self.updated)

    def describe(self) -> str:
        """One line for a list: "Moolah · You, Greedy bot 1 · Round 2, action 34, You to move
        · saved 30 Nov 20:31" (local time)."""
        where = ", ".join(p for p in (self.turn, f"action {self.actions}") if p)
        who = ", game over" if self.over else (f", {self.to_move} to move" if self.to_move else "")
        return (
            f"{self.title} · {', '.join(self.players)} · {where}{who} · "
            f"saved {self.updated_local.strftime('%d %b %H:%M')}"
        )


def default_location() -> str:
    """Where the store is when none is given: ``MONEYNB_STORE`` (a path or a
    ``postgresql://`` URL), else ``$XDG_DATA_HOME/moneynb/games.sqlite3`` (default
    ``~/.local/share/moneynb/games.sqlite3``): per user."""
    env = os.environ.get("MONEYNB_STORE", "").strip()
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "moneynb" / "games.sqlite3")


def _is_pg(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://", "postgresql+psycopg://"))


def _sqlite_path(location: str) -> Path:
    if location.startswith("sqlite:///"):
        location = location[len("sqlite:///") :]
    return Path(location).expanduser()


def _prepare_file(path: Path) -> None:
    """Create ``path``'s folder (0700) and an empty store file (0600) if missing."""
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)
            os.chmod(path.parent, 0o700)  # the umask may have cut it down
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
            os.chmod(path, 0o600)
    except FileExistsError:
        pass  # another process created it first
    except OSError as e:
        raise StoreUnavailable(
            f"the game store cannot be created at {path}: {e.strerror or e}. Set "
            "MONEYNB_STORE to a path you can write to"
        ) from None


#: stores opened by :func:`open_store`, keyed by (process id, location): a child made by
#: ``fork`` never gets its parent's store (its pooled connections are the parent's sockets)
_cache: dict[tuple[int, str], Any] = {}
_cache_lock = threading.Lock()
#: the ``MONEYNB_STORE`` value that selects the hub back end (:mod:`moneynb.store.hub`)
HUB = "hub"


def _after_fork_in_child() -> None:
    """In a forked child: forget the parent's connections without closing them (closing
    would end the parent's sessions), so that a store object the child inherited opens its
    own connections, and :func:`open_store` makes the child its own store."""
    with contextlib.suppress(Exception):
        for store in list(_cache.values()):
            forget = getattr(store, "_forget_connections", None)
            if forget is not None:
                forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def open_store(location: str | os.PathLike | Store | None = None, *, fresh: bool = False) -> Store:
    """The store at ``location`` (opened once per process and location; ``fresh=True`` opens
    a new one). Runs the missing migrations.

    Safe across ``fork``: the cache is per process id, so a child opening the same location
    gets its own store and connections (the parent's are left to the parent).

    Args:
        location: a :class:`Store` (returned as it is), a file path (SQLite), a
            ``sqlite:///path`` or ``postgresql://user@host:port/db`` URL, ``"hub"`` (the
            moneynb service of a JupyterHub: :class:`moneynb.store.hub.HubStore`, reached with
            the user's own ``JUPYTERHUB_API_TOKEN``), or None (:func:`default_location`).

    Raises:
        StoreUnavailable: the file cannot be created or is not a store; the database cannot
            be reached.
        StoreVersionError: the store was written by a newer moneynb.
    """
    if isinstance(location, Store) or getattr(location, "is_store", False):
        return location
    loc = str(location) if location is not None else default_location()
    if loc == HUB:
        from .hub import HubStore

        make = HubStore
    else:
        make = Store
        if not _is_pg(loc):
            loc = str(_sqlite_path(loc).resolve())
    key = (os.getpid(), loc)
    if not fresh:
        with _cache_lock:
            if key in _cache and not _cache[key].closed:
                return _cache[key]
    store = make() if loc == HUB else make(loc)
    if not fresh:
        with _cache_lock:
            _cache[key] = store
    return store


class Store(ClassMethods):
    """A game store (see :mod:`moneynb.store`). Build it with :func:`open_store`.

    Every method raises :class:`StoreUnavailable` when the database cannot be read or written
    (read-only file, full disk, server down), with nothing stored; the other errors are named
    per method. Methods are safe to call from several threads and processes.
    """

    #: True for every store implementation (:func:`open_store` returns such an object as is)
    is_store = True

    def __init__(self, location: str):
        self.location = location
        self.closed = False
        self._pid = os.getpid()
        self.dialect = "postgresql" if _is_pg(location) else "sqlite"
        if self.dialect == "sqlite":
            path = _sqlite_path(location)
            _prepare_file(path)
            self.path: Path | None = path
            self._engine = sa.create_engine(f"sqlite:///{path}")
            event.listen(self._engine, "connect", _sqlite_connect)
            event.listen(self._engine, "begin", _sqlite_begin)
        else:
            self.path = None
            try:
                url = sa.make_url(location).set(drivername="postgresql+psycopg")
                self._url = url
                self._engine = sa.create_engine(url, pool_pre_ping=True)
            except ImportError:
                raise StoreUnavailable(
                    "a PostgreSQL game store needs psycopg 3: pip install -e '.[hub]' in a clone of moneynb"
                ) from None
            except SQLAlchemyError as e:
                raise StoreUnavailable(f"not a PostgreSQL URL ({e})") from None
        self._guarded("open", lambda: _migrate(self._engine, self.dialect))

    # ----- plumbing ----------------------------------------------------------------------
    @property
    def shown(self) -> str:
        """The location as shown to people (a URL without its password)."""
        if self.dialect == "postgresql":
            return self._url.render_as_string(hide_password=True).replace("+psycopg", "")
        return str(self.path)

    def __repr__(self) -> str:
        return f"Store({self.shown!r})"

    def close(self) -> None:
        """Close every connection (the store can no longer be used)."""
        self.closed = True
        if os.getpid() == self._pid:
            self._engine.dispose()
        else:  # a forked child: never close the parent's connections
            self._engine.dispose(close=False)
        with _cache_lock:
            for key in [k for k, v in _cache.items() if v is self]:
                del _cache[key]

    def _forget_connections(self) -> None:
        """After ``fork`` in the child: drop the pool inherited from the parent without
        closing its connections (they are the parent's); new ones are opened on use."""
        self._engine.dispose(close=False)
        self._pid = os.getpid()

    def is_teacher(self, owner: str | None) -> bool:
        """True when ``owner`` may see every game: here, a hub user named in
        ``MONEYNB_TEACHERS`` (:func:`moneynb.store.identity.is_teacher`; on a Voila server
        the server's own configuration). The hub back end asks its service instead."""
        from .identity import is_teacher

        return is_teacher(owner)

    def backup(self, path: str | os.PathLike) -> Path:
        """Copy the store, while it is in use, to a new SQLite file ``path`` (SQLite's online
        backup API: a consistent snapshot, every committed game and none half-written, taken
        while kernels keep writing). The copy is readable by its owner only (0600) and is a
        store :func:`open_store` opens. Returns the path.

        PostgreSQL: back up with ``pg_dump`` (see docs/classroom.md); this raises there.

        Raises:
            StoreError: a PostgreSQL store; ``path`` already exists.
            StoreUnavailable: the store or ``path`` cannot be read or written.
        """
        if self.dialect != "sqlite":
            raise StoreError(
                "back up a PostgreSQL game store with pg_dump (docs/classroom.md, 'Backups')"
            )
        dest = Path(path).expanduser().resolve()
        if dest.exists():
            raise StoreError(f"the backup file {dest} already exists: give a new name")

        def go():
            fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
            src = sqlite3.connect(str(self.path), timeout=30)
            try:
                dst = sqlite3.connect(str(dest))
                try:
                    src.backup(dst, pages=256, sleep=0.005)
                    dst.execute("PRAGMA journal_mode = DELETE")
                finally:
                    dst.close()
            finally:
                src.close()
            return dest

        try:
            return self._guarded("be backed up", go)
        except StoreError:
            with contextlib.suppress(OSError):
                if dest.exists() and dest.stat().st_size == 0:
                    dest.unlink()
            raise

    def _guarded(self, what: str, fn: Callable[[], Any]) -> Any:
        if self.closed:
            raise StoreUnavailable(f"the game store {self.shown} was closed")
        try:
            return fn()
        except StoreError:
            raise
        except (SQLAlchemyError, OSError) as e:
            orig = getattr(e, "orig", None) or e
            text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
            if "readonly database" in text or "read-only file system" in text.lower():
                text += (
                    " (the store's file or folder is read-only: make it writable, or set "
                    "MONEYNB_STORE to a path you can write)"
                )
            raise StoreUnavailable(f"the game store {self.shown} could not {what}: {text}") from e

    @contextlib.contextmanager
    def _write(self):
        with self._engine.begin() as conn:
            yield conn

    @contextlib.contextmanager
    def _read(self):
        with self._engine.connect() as conn:
            if self.dialect == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            else:
                conn = conn.execution_options(moneynb_read=True)
            with conn.begin():
                yield conn

    def _notify(self, conn, game_id: str, n: int | None = None) -> None:
        if self.dialect == "postgresql":
            payload = game_id if n is None else f"{game_id} {n}"
            conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})

    # ----- creating -----------------------------------------------------------------------
    def create(
        self,
        config: dict,
        seats: Sequence[str | dict] | None = None,
        owner: str | None = None,
        origin: str = "",
        table: str | None = None,
        actions: Sequence = (),
        status: dict | None = None,
        source: str | None = None,
    ) -> str:
        """Store a new game; returns its id (random, unguessable: 128 bits, not a time).

        Args:
            config: ``game.config()``: ``{"game", "players", "seed", "options"}``.
            seats: one entry per player: a kind (``"human"``, ``"bot:greedy"``) or a dict
                ``{"kind": ..., "owner": ...}`` (default: every seat human, unclaimed).
            owner: the owner string (None: claimed later with :meth:`set_owner`).
            origin: where the game was started ("lab", "launcher:moolah", ...).
            table: a join code for a shared table (unique in the store), or None.
            actions: actions already taken (an import).
            status: the status line (see :meth:`set_status`).
            source: where it was imported from (:meth:`find_source` finds it again).

        The game belongs to the open class of its owner (or of its first seat's owner) when
        there is one (issue 36: :meth:`join_class`).

        Where its chance comes from is derived here from the games already stored, whatever
        the caller says (:func:`_provenance`): a game whose seed and first moves are those of
        an earlier game of its owner is a branch of it (:attr:`GameInfo.branch_of`, ``branch_at``),
        and a game whose dice from then on repeat an earlier game's is practice
        (:attr:`GameInfo.practice`: "Continue from here" of a finished game, a seed typed
        again); an unfinished earlier game whose dice are dealt again is marked too.

        Raises:
            ValueError: a config that is not a save's (checked with the save schema), a seats
                list of the wrong length, an unknown seat kind, text too long, an action that
                is not JSON.
            StoreError: the table code is in use.
        """
        from ..core.save import SaveFile

        acts = [_action_text(a) for a in actions]
        doc = {"format": FORMAT, "version": VERSION, **config,
               "actions": [json.loads(a) for a in acts]}  # fmt: skip
        try:
            SaveFile.model_validate(doc)
        except Exception as e:  # noqa: BLE001 - pydantic's ValidationError, said plainly
            raise ValueError(f"not a game config: {e}") from None
        players = list(config["players"])
        seat_rows = _seat_rows(players, seats)
        _check_text("origin", origin)
        _check_text("owner", owner, MAX_OWNER)
        if table is not None:
            _check_text("table", table, 40)
        now = time.time()
        gid = secrets.token_urlsafe(16)
        row = {
            "id": gid,
            "game": config["game"],
            "players": json.dumps(players),
            "seed": int(config["seed"]),
            "options": json.dumps(config.get("options", {})),
            "owner": owner,
            "origin": origin,
            "table_code": table,
            "source": source,
            "created": now,
            "updated": now,
            "n_actions": len(acts),
            **_status_values(status or {}),
        }

        def go():
            try:
                with self._write() as c:
                    owners = [owner] + [s["owner"] for s in seat_rows]
                    row["class_id"] = self._class_for_owners(c, owners)
                    prov, shared = _provenance(c, self.dialect, config, acts, owners)
                    row.update(prov)
                    c.execute(sa.insert(games_table), [row])
                    _mark_shared(c, shared, gid)
                    c.execute(sa.insert(seats_table), [{"game_id": gid, **s} for s in seat_rows])
                    if acts:
                        c.execute(
                            sa.insert(actions_table),
                            [{"game_id": gid, "n": i, "action": a, "at": now}
                             for i, a in enumerate(acts)],
                        )  # fmt: skip
                    self._notify(c, gid, len(acts))
            except IntegrityError as e:
                if table is not None and "table_code" in str(e.orig):
                    raise StoreError(f"the table code {table!r} is already in use") from None
                raise
            return gid

        return self._guarded("store a new game", go)

    def import_json(
        self,
        text: str | bytes,
        owner: str | None = None,
        origin: str = "import",
        seats: Sequence[str | dict] | None = None,
        source: str | None = None,
        status: dict | None = None,
    ) -> str:
        """Store a game from save-file JSON (``to_json()``, or a file's text); returns its id.
        The text is checked by replaying it (:func:`moneynb.load_game`) first. The status line
        (over, to move) is taken from the replay unless ``status`` gives it.

        Raises:
            moneynb.SaveFileError: the text is not a valid save.
            ValueError, StoreError: as :meth:`create`.
        """
        from ..core.save import loads

        game = loads(text)
        st = {
            "over": game.over,
            "to_move": "" if game.over else game.players[game.decision.player],
            "person_moved": bool(game.actions),
        }
        st.update(status or {})
        return self.create(
            game.config(), seats=seats, owner=owner, origin=origin,
            actions=game.actions, status=st, source=source,
        )  # fmt: skip

    def find_source(self, source: str) -> str | None:
        """The id of a game imported from ``source`` (see :meth:`create`), or None."""

        def go():
            with self._read() as c:
                return c.execute(
                    sa.select(games_table.c.id).where(games_table.c.source == source).limit(1)
                ).scalar()

        return self._guarded("look up an imported game", go)

    # ----- actions -----------------------------------------------------------------------
    def append(self, game_id: str, n: int, action: Any, status: dict | None = None) -> int:
        """Append ``action`` as action number ``n`` (0-based); returns the new count ``n + 1``.

        It is stored only when ``n`` equals the stored action count (optimistic check), in one
        transaction with ``status`` (see :meth:`set_status`).

        Raises:
            ConflictError: the stored count is not ``n`` (another kernel wrote first);
                nothing was stored.
            NoSuchGame: no game ``game_id``.
            ValueError: ``n`` not a count, an action that is not JSON.
        """
        return self.extend(game_id, n, [action], status=status)

    def extend(self, game_id: str, n: int, actions: Iterable, status: dict | None = None) -> int:
        """Append ``actions`` as numbers ``n, n+1, ...`` in one transaction, only if ``n`` is
        the stored count; returns the new count. Errors as :meth:`append`."""
        _check_count(n)
        acts = [_action_text(a) for a in actions]
        if n + len(acts) > MAX_ACTIONS:
            raise ValueError(f"a game holds at most {MAX_ACTIONS} actions")
        values = _status_values(status) if status else {}

        def go():
            now = time.time()
            with self._write() as c:
                self._bump(c, game_id, n, n + len(acts), {**values, "updated": now})
                if acts:
                    c.execute(
                        sa.insert(actions_table),
                        [{"game_id": game_id, "n": n + i, "action": a, "at": now}
                         for i, a in enumerate(acts)],
                    )  # fmt: skip
                self._notify(c, game_id, n + len(acts))
            return n + len(acts)

        return self._guarded("save the move", go)

    def truncate(self, game_id: str, n: int, to: int, status: dict | None = None) -> int:
        """Take back every action after the first ``to`` (an undo), only if ``n`` is the
        stored count; returns ``to``.

        Raises:
            ConflictError, NoSuchGame: as :meth:`append`.
            ValueError: ``to`` not in ``0..n``.
        """
        _check_count(n)
        _check_count(to)
        if to > n:
            raise ValueError(f"truncate goes back: to ({to}) must be at most n ({n})")
        values = _status_values(status) if status else {}

        def go():
            with self._write() as c:
                self._bump(c, game_id, n, to, {**values, "updated": time.time()})
                c.execute(
                    sa.delete(actions_table).where(
                        actions_table.c.game_id == game_id, actions_table.c.n >= to
                    )
                )
                self._notify(c, game_id, to)
            return to

        return self._guarded("save the undo", go)

    def _bump(self, c, game_id: str, n: int, new: int, values: dict) -> None:
        g = games_table
        r = c.execute(
            sa.update(g)
            .where(g.c.id == game_id, g.c.n_actions == n, g.c.closed.is_(None))
            .values(n_actions=new, **values)
        )
        if r.rowcount != 1:
            row = c.execute(sa.select(g.c.n_actions, g.c.closed).where(g.c.id == game_id)).first()
            if row is None:
                raise NoSuchGame(f"no stored game {game_id!r}")
            if row.closed is not None:
                raise GameClosed(
                    "this game was closed by the teacher (or its class ended): it can be "
                    "watched and exported, but no more moves are saved"
                )
            raise ConflictError(game_id, n, row.n_actions)

    def count(self, game_id: str) -> int:
        """The stored action count of ``game_id``. Raises :class:`NoSuchGame`."""

        def go():
            with self._read() as c:
                n = c.execute(
                    sa.select(games_table.c.n_actions).where(games_table.c.id == game_id)
                ).scalar()
            if n is None:
                raise NoSuchGame(f"no stored game {game_id!r}")
            return int(n)

        return self._guarded("read the game", go)

    def actions(self, game_id: str, start: int = 0) -> list:
        """The stored actions from number ``start`` on (a kernel at a table catching up).
        Raises :class:`NoSuchGame`."""

        def go():
            with self._read() as c:
                self._row(c, game_id, ANY)
                rows = c.execute(
                    sa.select(actions_table.c.action)
                    .where(actions_table.c.game_id == game_id, actions_table.c.n >= start)
                    .order_by(actions_table.c.n)
                ).scalars()
                return [json.loads(a) for a in rows]

        return self._guarded("read the game", go)

    # ----- reading -----------------------------------------------------------------------
    def read(self, game_id: str, owner: Any = ANY) -> str:
        """The game as save-file JSON text (``to_json()``'s format: ``moneynb.load_game``
        takes it). ``owner``: when given, only a game that owner owns or holds a seat in is
        read (another's reads exactly as a missing one).

        Raises:
            NoSuchGame: no such game (for that owner).
        """

        def go():
            with self._read() as c:
                row = self._row(c, game_id, owner)
                acts = c.execute(
                    sa.select(actions_table.c.action)
                    .where(actions_table.c.game_id == game_id)
                    .order_by(actions_table.c.n)
                ).scalars()
                doc = {
                    "format": FORMAT,
                    "version": VERSION,
                    "game": row.game,
                    "players": json.loads(row.players),
                    "seed": row.seed,
                    "options": json.loads(row.options),
                    "actions": [json.loads(a) for a in acts],
                }
            return json.dumps(doc)

        return self._guarded("read the game", go)

    def export_json(self, game_id: str, owner: Any = ANY) -> str:
        """The portable JSON export of ``game_id`` (the text of :meth:`read`), for a save
        file. A shared table still being played is refused (issue 35, case 2: its seed and
        every hand would leave with it); a finished table exports like any game.

        Raises:
            LiveTable: a table that is not over.
            NoSuchGame: no such game (for that owner).
        """
        LiveTable.check(self.info(game_id, owner), "exported")
        return self.read(game_id, owner)

    def info(self, game_id: str, owner: Any = ANY) -> GameInfo:
        """The header and status line of ``game_id`` (owner check as :meth:`read`).
        Raises :class:`NoSuchGame`."""

        def go():
            with self._read() as c:
                row = self._row(c, game_id, owner)
                return self._infos(c, [row])[0]

        return self._guarded("read the game", go)

    def _row(self, c, game_id: str, owner: Any):
        g = games_table
        row = (
            c.execute(sa.select(g).where(g.c.id == game_id)).first()
            if isinstance(game_id, str)
            else None
        )
        if row is not None and owner is not ANY and row.owner != owner:
            held = c.execute(
                sa.select(seats_table.c.seat).where(
                    seats_table.c.game_id == game_id, seats_table.c.owner == owner
                )
            ).first()
            if owner is None or held is None:
                row = None
        if row is None:
            raise NoSuchGame(f"no stored game {game_id!r:.60}")
        return row

    def _infos(self, c, rows) -> list[GameInfo]:
        ids = [r.id for r in rows]
        seats: dict[str, list[Seat]] = {i: [] for i in ids}
        if ids:
            for s in c.execute(
                sa.select(seats_table)
                .where(seats_table.c.game_id.in_(ids))
                .order_by(seats_table.c.game_id, seats_table.c.seat)
            ):
                seats[s.game_id].append(Seat(s.seat, s.name, s.kind, s.owner))
        return [
            GameInfo(
                id=r.id,
                game=r.game,
                players=tuple(json.loads(r.players)),
                seed=r.seed,
                options=json.loads(r.options),
                owner=r.owner,
                origin=r.origin,
                table=r.table_code,
                source=r.source,
                created=r.created,
                updated=r.updated,
                actions=r.n_actions,
                over=bool(r.over),
                turn=r.turn,
                to_move=r.to_move,
                person_moved=bool(r.person_moved),
                extra=json.loads(r.extra or "{}"),
                seats=tuple(seats[r.id]),
                class_id=r.class_id,
                closed=r.closed,
                branch_of=r.branch_of,
                branch_at=r.branch_at,
                chance=r.chance,
                chance_from=r.chance_from,
                chance_shared_by=r.chance_shared_by,
            )  # fmt: skip
            for r in rows
        ]

    def _list(self, where: list, limit: int | None) -> list[GameInfo]:
        def go():
            with self._read() as c:
                q = sa.select(games_table).where(*where)
                q = q.order_by(games_table.c.updated.desc(), games_table.c.id)
                if limit is not None:
                    q = q.limit(limit)
                return self._infos(c, list(c.execute(q)))

        return self._guarded("list the games", go)

    @staticmethod
    def _filters(game, over, origin, person_moved, exclude) -> list:
        g = games_table
        out = []
        if game is not None:
            out.append(g.c.game == game)
        if over is not None:
            out.append(g.c.over == bool(over))
        if origin is not None:
            out.append(g.c.origin == origin)
        if person_moved is not None:
            out.append(g.c.person_moved == bool(person_moved))
        ex = [e for e in exclude if e]
        if ex:
            out.append(g.c.id.not_in(ex))
        return out

    def list_games(
        self,
        owner: str,
        game: str | None = None,
        over: bool | None = None,
        origin: str | None = None,
        person_moved: bool | None = None,
        exclude: Iterable[str] = (),
        limit: int | None = 100,
    ) -> list[GameInfo]:
        """The games ``owner`` owns, newest write first. Filters (None: any): ``game`` name,
        ``over``, ``origin``, ``person_moved``; ``exclude``: ids left out; ``limit``: at most
        that many (None: all).

        Raises:
            ValueError: ``owner`` is not a string (use :meth:`list_all` for everyone's).
        """
        if not isinstance(owner, str) or not owner:
            raise ValueError(f"list_games needs an owner string, got {owner!r}")
        where = [games_table.c.owner == owner]
        where += self._filters(game, over, origin, person_moved, exclude)
        return self._list(where, limit)

    def list_seated(
        self, owner: str, over: bool | None = None, limit: int | None = 100
    ) -> list[GameInfo]:
        """The shared tables (games with a join code) where ``owner`` holds a seat, newest
        write first (``over``: None any, else only finished / unfinished ones). Used to bring
        a reloaded browser back to its table.

        Raises:
            ValueError: ``owner`` is not a string.
        """
        if not isinstance(owner, str) or not owner:
            raise ValueError(f"list_seated needs an owner string, got {owner!r}")
        held = sa.select(seats_table.c.game_id).where(seats_table.c.owner == owner)
        where = [games_table.c.table_code.is_not(None), games_table.c.id.in_(held)]
        where += self._filters(None, over, None, None, ())
        return self._list(where, limit)

    def list_table(self, table: str) -> list[GameInfo]:
        """The game(s) at the table with join code ``table`` (at most one today)."""
        return self._list([games_table.c.table_code == table], None)

    def list_all(
        self,
        game: str | None = None,
        over: bool | None = None,
        origin: str | None = None,
        person_moved: bool | None = None,
        limit: int | None = 1000,
    ) -> list[GameInfo]:
        """Every game in the store (the teacher's view: the caller checks
        :func:`moneynb.store.is_teacher` first), newest write first; filters as
        :meth:`list_games`."""
        return self._list(self._filters(game, over, origin, person_moved, ()), limit)

    # ----- status, owner, seats ------------------------------------------------------------
    def set_status(self, game_id: str, status: dict) -> None:
        """Set the status line: any of ``over`` (bool), ``turn`` (the board's status text,
        "Round 2 of 5"), ``to_move`` (who decides next), ``person_moved`` (bool: a person
        answered a decision), ``extra`` (a JSON-able dict: leader, scores...). The time of the
        last write (:attr:`GameInfo.updated`) is set too. Raises :class:`NoSuchGame`,
        ``ValueError`` for an unknown key or text too long."""
        values = _status_values(status)

        def go():
            with self._write() as c:
                r = c.execute(
                    sa.update(games_table)
                    .where(games_table.c.id == game_id)
                    .values(updated=time.time(), **values)
                )
                if r.rowcount != 1:
                    raise NoSuchGame(f"no stored game {game_id!r}")
                self._notify(c, game_id)

        self._guarded("save the game's status", go)

    def set_owner(self, game_id: str, owner: str, only_if_unowned: bool = True) -> bool:
        """Make ``owner`` the game's owner; with ``only_if_unowned`` (the default) only a
        game nobody owns yet is changed. Returns True when the owner is now ``owner``.
        Raises :class:`NoSuchGame`."""
        _check_text("owner", owner, MAX_OWNER)
        g = games_table

        def go():
            with self._write() as c:
                q = sa.update(g).where(g.c.id == game_id)
                if only_if_unowned:
                    q = q.where(sa.or_(g.c.owner.is_(None), g.c.owner == owner))
                was = c.execute(
                    sa.select(g.c.owner, g.c.game, g.c.seed, g.c.options, g.c.branch_of,
                              g.c.chance).where(g.c.id == game_id)
                ).first()  # fmt: skip
                if c.execute(q.values(owner=owner)).rowcount == 1:
                    self._adopt(c, game_id, owner)
                    if was.owner is None and was.branch_of is None and was.chance is None:
                        self._trace(c, game_id, was, owner)
                    return True
                if c.execute(sa.select(g.c.id).where(g.c.id == game_id)).first() is None:
                    raise NoSuchGame(f"no stored game {game_id!r}")
                return False

        return self._guarded("save the game's owner", go)

    def _trace(self, c, game_id: str, row, owner: str) -> None:
        """A game stored before its owner was known (a view started before the browser said
        who it is) gets its chance traced once it has an owner (:func:`_provenance`, with
        the actions stored by now)."""
        acts = list(
            c.execute(
                sa.select(actions_table.c.action)
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.n)
            ).scalars()
        )
        config = {"game": row.game, "seed": row.seed, "options": json.loads(row.options or "{}")}
        prov, shared = _provenance(c, self.dialect, config, acts, [owner], exclude=game_id)
        c.execute(sa.update(games_table).where(games_table.c.id == game_id).values(**prov))
        _mark_shared(c, shared, game_id)

    def seats(self, game_id: str) -> list[Seat]:
        """The seats of ``game_id`` in order. Raises :class:`NoSuchGame`."""
        return list(self.info(game_id).seats)

    def claim_seat(self, game_id: str, seat: int, owner: str) -> Seat:
        """Give ``seat`` to ``owner`` if nobody holds it (or ``owner`` already does). One
        seat per person: an owner who holds another seat of the game gets none (issue 35,
        case 5; checked in the same transaction, the game's row locked, so two claims of one
        owner racing for two seats get one seat).

        Raises:
            OneSeatEach: (a SeatTaken) ``owner`` holds another seat of this game.
            SeatTaken: another owner holds it, or the game has no such seat.
            NoSuchGame: no game ``game_id``.
        """
        _check_text("owner", owner, MAX_OWNER)
        s = seats_table

        def go():
            with self._write() as c:
                # lock the game's row (PostgreSQL; SQLite's write transaction is one at a time)
                c.execute(
                    sa.select(games_table.c.id).where(games_table.c.id == game_id).with_for_update()
                )
                target = c.execute(
                    sa.select(s.c.owner).where(s.c.game_id == game_id, s.c.seat == seat)
                ).first()
                other = c.execute(
                    sa.select(s.c.seat, s.c.name)
                    .where(s.c.game_id == game_id, s.c.owner == owner, s.c.seat != seat)
                    .limit(1)
                ).first()
                # a seat another holds says so first (below); else one seat per person
                if other is not None and target is not None and target.owner in (None, owner):
                    raise OneSeatEach(
                        f"you already hold seat {other.seat + 1} ({other.name}) at this table: "
                        "one seat per person. To play another seat, ask the table's host to "
                        f"free {other.name}'s seat first"
                    )
                r = c.execute(
                    sa.update(s)
                    .where(s.c.game_id == game_id, s.c.seat == seat)
                    .where(sa.or_(s.c.owner.is_(None), s.c.owner == owner))
                    .values(owner=owner)
                )
                row = c.execute(
                    sa.select(s).where(s.c.game_id == game_id, s.c.seat == seat)
                ).first()
                if r.rowcount != 1:
                    self._row(c, game_id, ANY)
                    if row is None:
                        raise SeatTaken(f"this game has no seat {seat!r}")
                    raise SeatTaken(f"seat {seat + 1} ({row.name}) is already taken")
                self._adopt(c, game_id, owner)
                self._notify(c, game_id)
                return Seat(row.seat, row.name, row.kind, row.owner)

        return self._guarded("claim the seat", go)

    def release_seat(self, game_id: str, seat: int, owner: Any = ANY) -> None:
        """Free ``seat`` (only if ``owner`` holds it, unless ``owner`` is ANY: the host)."""
        s = seats_table

        def go():
            with self._write() as c:
                q = sa.update(s).where(s.c.game_id == game_id, s.c.seat == seat)
                if owner is not ANY:
                    q = q.where(s.c.owner == owner)
                c.execute(q.values(owner=None))
                self._notify(c, game_id)

        self._guarded("free the seat", go)

    def set_seat_kind(self, game_id: str, seat: int, kind: str) -> None:
        """Make ``seat`` a person's (``"human"``) or a bot's (``"bot:greedy"``) seat (a host
        giving an absent player's seat to a bot and back). Raises ``ValueError`` (kind),
        :class:`SeatTaken` (no such seat)."""
        _check_kind(kind)
        s = seats_table

        def go():
            with self._write() as c:
                r = c.execute(
                    sa.update(s).where(s.c.game_id == game_id, s.c.seat == seat).values(kind=kind)
                )
                if r.rowcount != 1:
                    self._row(c, game_id, ANY)
                    raise SeatTaken(f"this game has no seat {seat!r}")
                self._notify(c, game_id)

        self._guarded("change the seat", go)

    # ----- lesson results (pooled class experiments) ---------------------------------------
    def post_result(self, lesson: str, owner: str | None, data: dict) -> int:
        """Store one student's result for ``lesson`` (a lesson code); returns its number.
        ``data``: a JSON-able dict. Raises ``ValueError`` (not JSON, lesson text too long)."""
        _check_text("lesson", lesson, 100)
        text = json.dumps(data)
        if not isinstance(data, dict) or len(text) > 100_000:
            raise ValueError("a lesson result is a JSON object of at most 100,000 characters")

        def go():
            with self._write() as c:
                r = c.execute(
                    sa.insert(results_table).values(
                        lesson=lesson, owner=owner, at=time.time(), data=text
                    )
                )
                self._notify(c, f"lesson:{lesson}")
                return int(r.inserted_primary_key[0])

        return self._guarded("save the result", go)

    def results(self, lesson: str) -> list[dict]:
        """Every result posted for ``lesson``, oldest first: ``{"id", "owner", "at", "data"}``."""

        def go():
            with self._read() as c:
                rows = c.execute(
                    sa.select(results_table)
                    .where(results_table.c.lesson == lesson)
                    .order_by(results_table.c.id)
                )
                return [
                    {"id": r.id, "owner": r.owner, "at": r.at, "data": json.loads(r.data)}
                    for r in rows
                ]

        return self._guarded("read the results", go)

    # ----- watching ----------------------------------------------------------------------
    def watch(self, game_id: str | None = None) -> Watcher:
        """A :class:`Watcher` on this store (close it when done); with ``game_id``, one that
        wakes only for writes to that game (its actions, status, owner or seats).

        Raises:
            StoreUnavailable: the store cannot be reached (a database that is down).
        """
        return Watcher(self, game_id)

    def schema_version(self) -> int:
        """The schema version stored (:data:`SCHEMA_VERSION` once opened)."""

        def go():
            with self._read() as c:
                return int(c.execute(sa.select(schema_table.c.version)).scalar())

        return self._guarded("read the schema version", go)


class Watcher:
    """Tells a kernel that the store may have changed (a move at a table).

    ``wait(timeout)`` blocks up to ``timeout`` seconds and returns True when something was
    written since the last call (by any process; SQLite: ``PRAGMA data_version`` polled every
    :attr:`poll` seconds; PostgreSQL: a ``NOTIFY`` on :data:`CHANNEL`), else False.

    With ``game_id`` (``store.watch(game_id)``: a table's view) it returns True only for a
    write to that game: its action count, status, owner or seats changed (SQLite: on a new
    ``data_version`` the game's row and seats are compared with the last ones seen;
    PostgreSQL: the notification names the game). Without it, it may return True for a write
    to any game: check :meth:`Store.count`. :attr:`payloads` holds the PostgreSQL
    notifications' ``"<game id> <count>"`` texts of the last wait.
    """

    poll = 0.05

    def __init__(self, store: Store, game_id: str | None = None):
        self.store = store
        self.game_id = game_id
        self.payloads: list[str] = []
        self._conn = None
        try:
            if store.dialect == "sqlite":
                self._conn = sqlite3.connect(str(store.path), isolation_level=None, timeout=30)
                self._version = self._data_version()
                self._sig = self._signature() if game_id is not None else None
            else:
                import psycopg

                url = store._url.set(drivername="postgresql").render_as_string(hide_password=False)
                self._conn = psycopg.connect(url, autocommit=True)
                self._conn.execute(f"LISTEN {CHANNEL}")
        except Exception as e:  # noqa: BLE001 - sqlite3 / psycopg errors, said plainly
            self.close()
            raise StoreUnavailable(f"the game store {store.shown} cannot be watched: {e}") from e

    def _data_version(self) -> int:
        return self._conn.execute("PRAGMA data_version").fetchone()[0]

    def _signature(self) -> tuple:
        """What a table's view shows of :attr:`game_id`: its row and its seats (SQLite)."""
        c = self._conn
        row = c.execute(
            "SELECT n_actions, updated, owner, over FROM moneynb_games WHERE id = ?",
            (self.game_id,),
        ).fetchone()
        seats = c.execute(
            "SELECT seat, kind, owner FROM moneynb_seats WHERE game_id = ? ORDER BY seat",
            (self.game_id,),
        ).fetchall()
        return (row, tuple(seats))

    def wait(self, timeout: float = 1.0) -> bool:
        """See the class docstring. Raises :class:`StoreUnavailable` when the store is gone."""
        self.payloads = []
        try:
            if self.store.dialect == "sqlite":
                end = time.monotonic() + max(0.0, timeout)
                while True:
                    v = self._data_version()
                    if v != self._version:
                        self._version = v
                        if self.game_id is None:
                            return True
                        sig = self._signature()
                        if sig != self._sig:
                            self._sig = sig
                            return True
                    if time.monotonic() >= end:
                        return False
                    time.sleep(self.poll)
            end = time.monotonic() + max(0.0, timeout)
            while True:
                left = max(0.0, end - time.monotonic())
                for n in self._conn.notifies(timeout=left, stop_after=1):
                    self.payloads.append(n.payload)
                # take whatever else arrived at once
                for n in self._conn.notifies(timeout=0, stop_after=1000):
                    self.payloads.append(n.payload)
                if self.game_id is not None:
                    self.payloads = [p for p in self.payloads if p.split(" ")[0] == self.game_id]
                if self.payloads or time.monotonic() >= end:
                    return bool(self.payloads)
        except Exception as e:  # noqa: BLE001 - sqlite3 / psycopg errors, said plainly
            raise StoreUnavailable(
                f"the game store {self.store.shown} cannot be watched: {e}"
            ) from e

    def close(self) -> None:
        """Close the watcher's connection."""
        with contextlib.suppress(Exception):
            if self._conn is not None:
                self._conn.close()

    def __enter__(self) -> Watcher:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def follow(
    store: Store,
    stop,
    on_change: Callable[[], object],
    *,
    on_error: Callable[[Exception], object] | None = None,
    wait_s: float = 1.0,
    recheck_s: float = 5.0,
    min_interval_s: float = 0.0,
    game_id: str | None = None,
) -> None:
    """Follow the store until ``stop`` (a :class:`threading.Event`) is set: the loop of every
    view that shows what other kernels write (a table, the teacher's view, a class histogram).

    ``on_change()`` is called once when listening starts (what was written before), then when
    the store's :class:`Watcher` says something was written (with ``game_id``: the watcher is
    ``store.watch(game_id)``, which wakes only for that game), or when ``recheck_s`` seconds passed without a call (a missed
    notification), at most once per ``min_interval_s`` seconds. The watcher waits ``wait_s``
    seconds at a time, so ``stop`` is noticed within about that.

    Errors: a :class:`StoreError` (the store is down) goes to ``on_error`` and the loop retries
    with a new watcher every 2 s; any other exception goes to ``on_error`` too (the thread does
    not die silently), or is raised when there is no ``on_error``.
    """
    watcher, last = None, 0.0
    try:
        while not stop.is_set():
            try:
                if watcher is None:
                    watcher = store.watch(game_id) if game_id is not None else store.watch()
                    last = time.monotonic()
                    on_change()  # what was written before the watcher listened
                    continue
                changed = watcher.wait(wait_s)
                if stop.is_set():
                    break
                if changed and game_id is not None and watcher.payloads:
                    changed = any(p.split(" ")[0] == game_id for p in watcher.payloads)
                now = time.monotonic()
                if (changed or now - last > recheck_s) and now - last >= min_interval_s:
                    last = now
                    on_change()
            except StoreError as e:
                if on_error is not None:
                    on_error(e)
                if watcher is not None:
                    watcher.close()
                watcher = None
                stop.wait(2.0)
            except Exception as e:  # noqa: BLE001 - the following thread must not die silently
                if on_error is None:
                    raise
                on_error(e)
                stop.wait(2.0)
    finally:
        if watcher is not None:
            watcher.close()


def import_folder(store: Store, folder: str | os.PathLike, owner: str | None) -> list[str]:
    """Import the save files of an old autosave folder (``moneynb-saves/``: ``*.json`` and
    their ``.seats.json`` sidecars) once; returns the ids of the games imported now.

    Each file is imported at most once (its resolved path is the game's ``source``); files
    are only read, never changed or removed; a file that is not a valid save is left out.
    The games get ``owner``; their seats, origin and status come from the sidecar.
    """
    from ..core.errors import SaveFileError

    folder = Path(folder)
    if not folder.is_dir():
        return []
    done = []
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".seats.json"):
            continue
        source = f"file:{path.resolve()}"
        if store.find_source(source) is not None:
            continue
        try:
            text = path.read_text()
            side = _read_sidecar(path)
            seats, status = None, {}
            if side is not None:
                from ..core.save import loads

                players = loads(text).players
                kinds = side.get("seats", {})
                seats = [
                    kinds.get(p) if str(kinds.get(p, "")).startswith("bot:") else HUMAN
                    for p in players
                ]
                st = side.get("status", {})
                status = {k: st[k] for k in ("turn", "to_move", "person_moved", "over") if k in st}
                origin = str(st.get("origin", "import"))
            else:
                origin = "import"
            gid = store.import_json(
                text, owner=owner, origin=origin, seats=seats, source=source, status=status
            )
        except (OSError, ValueError, SaveFileError, TypeError, KeyError):
            continue
        done.append(gid)
    return done


def _read_sidecar(save: Path) -> dict | None:
    name = save.name[:-5] + ".seats.json"
    side = save.with_name(name)
    if not side.is_file():
        return None
    try:
        doc = json.loads(side.read_text())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("seats"), dict) else None


# ----- helpers ----------------------------------------------------------------------------
def _sqlite_connect(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (see _sqlite_begin)
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA busy_timeout = 30000")
    cur.execute("PRAGMA journal_mode = WAL")
    cur.execute("PRAGMA synchronous = FULL")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.close()


def _sqlite_begin(conn) -> None:
    # a write transaction takes the write lock at once: two writers queue (busy_timeout)
    # instead of failing when the reader in them tries to write
    if conn.get_execution_options().get("moneynb_read"):
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _migrate(engine: sa.Engine, dialect: str, upto: int | None = None) -> None:
    """Bring the schema to ``upto`` (default :data:`SCHEMA_VERSION`), one migration per
    transaction. Raises :class:`StoreVersionError` for a newer store."""
    target = SCHEMA_VERSION if upto is None else upto
    while True:
        with engine.begin() as c:
            if dialect == "postgresql":  # one migrating process at a time
                c.execute(sa.text("SELECT pg_advisory_xact_lock(2512025)"))
            if not sa.inspect(c).has_table(schema_table.name):
                schema_table.create(c)
                c.execute(sa.insert(schema_table).values(version=0))
            version = c.execute(sa.select(schema_table.c.version)).scalar()
            if version is None:
                c.execute(sa.insert(schema_table).values(version=0))
                version = 0
            if version > SCHEMA_VERSION:
                url = engine.url.render_as_string(hide_password=True)
                raise StoreVersionError(
                    f"the game store {url.replace('+psycopg', '')} was written by a newer "
                    f"moneynb (schema version {version}; this moneynb knows up to "
                    f"{SCHEMA_VERSION}): upgrade moneynb, or set MONEYNB_STORE to another store"
                )
            if version >= target:
                return
            MIGRATIONS[version](c)
            c.execute(sa.update(schema_table).values(version=version + 1))


def _check_count(n) -> None:
    if type(n) is not int or n < 0:
        raise ValueError(f"an action count is a whole number >= 0, got {n!r}")


def _check_text(what: str, value, limit: int = MAX_TEXT) -> None:
    if value is None:
        return
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{what} must be text of at most {limit} characters, got {value!r:.60}")


def _check_kind(kind) -> None:
    from ..bots import BOTS

    if kind != HUMAN and not (isinstance(kind, str) and kind[4:] in BOTS and kind[:4] == "bot:"):
        raise ValueError(
            f"a seat is 'human' or a bot ({', '.join('bot:' + b for b in BOTS)}), got {kind!r}"
        )


def _seat_rows(players: list[str], seats) -> list[dict]:
    if seats is None:
        seats = [HUMAN] * len(players)
    seats = list(seats)
    if len(seats) != len(players):
        raise ValueError(f"seats must have one entry per player ({len(players)}), got {len(seats)}")
    rows = []
    for i, (name, s) in enumerate(zip(players, seats, strict=True)):
        d = {"kind": s, "owner": None} if not isinstance(s, dict) else dict(s)
        kind = d.get("kind") or HUMAN
        _check_kind(kind)
        _check_text("seat owner", d.get("owner"), MAX_OWNER)
        rows.append({"seat": i, "name": name, "kind": kind, "owner": d.get("owner")})
    return rows


def _action_text(action) -> str:
    try:
        return json.dumps(action)
    except (TypeError, ValueError) as e:
        raise ValueError(f"an action must be JSON (text, number, bool, list): {e}") from None


_STATUS_KEYS = {"over", "turn", "to_move", "person_moved", "extra"}


def _status_values(status: dict) -> dict:
    bad = set(status) - _STATUS_KEYS
    if bad:
        raise ValueError(f"unknown status keys {sorted(bad)}; status has {sorted(_STATUS_KEYS)}")
    out: dict[str, Any] = {}
    for k in ("over", "person_moved"):
        if k in status:
            out[k] = bool(status[k])
    for k in ("turn", "to_move"):
        if k in status:
            out[k] = str(status[k] or "")[:MAX_TEXT]
    if "extra" in status:
        if not isinstance(status["extra"], dict):
            raise ValueError("status extra must be a dict")
        out["extra"] = json.dumps(status["extra"])
    return out


#: most earlier games :func:`_provenance` compares a new game with (newest first)
PROVENANCE_CANDIDATES = 500


def _reseed_points(options) -> list:
    """The ``reseed`` option's ``[n, seed]`` pairs of a stored options object (``[]`` when
    absent or not a list of pairs: the engine checked it when the game was stored)."""
    pts = options.get("reseed") if isinstance(options, dict) else None
    if not isinstance(pts, list):
        return []
    return [p for p in pts if isinstance(p, list) and len(p) == 2 and type(p[1]) is int]


def _mark_shared(c, shared: str | None, by: str) -> None:
    """Mark ``shared`` (an unfinished game whose chance the new game ``by`` was dealt again:
    :func:`_provenance`) with :attr:`GameInfo.chance_shared_by` (the first such game only);
    nothing when ``shared`` is None."""
    if shared is not None:
        c.execute(
            sa.update(games_table)
            .where(games_table.c.id == shared, games_table.c.chance_shared_by.is_(None))
            .values(chance_shared_by=by)
        )


def _provenance(
    c, dialect: str, config: dict, acts: list[str], owners, exclude: str | None = None
) -> tuple[dict, Any]:
    """Where a new game's chance comes from, derived from the stored games (never from the
    request that creates it): ``({branch_of, branch_at, chance, chance_from}, shared)``.

    The earlier games compared are those of the same game that an owner of the new game
    (its owner, its seats' owners) owns or held a seat at: chance they may have seen
    (``exclude``: the game itself, when it is already stored: :meth:`Store.set_owner`).

    - **A branch**: the earliest such game with the same seed whose first ``n`` actions are
      the new game's ``n`` actions (``n``: the actions it is created with; ``n = 0``: a
      game started again from its seed) is its parent (``branch_of``, ``branch_at = n``).
      Of the newest :data:`PROVENANCE_CANDIDATES`, games dealt from the new game's seed in
      force to their end come first.
    - **Its chance**: the seed drawn from after its first ``n`` actions is the last
      ``reseed`` point at or before ``n``, else its seed (:meth:`Game.seed_in_force`). When that
      seed, or the seed of a ``reseed`` point still to come, is one of an earlier game's
      seeds (its seed or any of its ``reseed`` points), the dice after the branch point are
      that game's: ``chance_from`` is it (a finished one first, then the parent), ``chance`` is
      ``"known"`` when it was over, ``"ahead"`` when it was still being played; and then
      ``shared`` is that unfinished game's id (the caller marks it:
      :attr:`GameInfo.chance_shared_by`). A branch whose seeds to come are all new (a fresh
      ``reseed`` point at ``n``: "Continue from here" of an unfinished game) is
      ``"fresh"``.

    Two creates racing with one seed on PostgreSQL are serialized by a transaction-level
    advisory lock on each seed, so neither misses the other (SQLite's writes are one at a
    time already).
    """
    from ..core.game import Game

    out = {"branch_of": None, "branch_at": None, "chance": None, "chance_from": None}
    who = sorted({o for o in owners if o})
    if not who:
        return out, None
    g, s = games_table, seats_table
    seed = int(config["seed"])
    n = len(acts)
    points = _reseed_points(config.get("options") or {})
    inforce = Game.seed_in_force(seed, points, n)
    # every seed its chance is drawn from after its first n actions: the one in force, and
    # those of reseed points still to come (a point after n naming a seen game's seed)
    coming = {inforce} | {p[1] for p in points if type(p[0]) is int and p[0] > n}
    if dialect == "postgresql":
        for key in sorted(coming | {seed}):
            c.execute(
                sa.text("SELECT pg_advisory_xact_lock(2512026, hashtext(:k))"), {"k": str(key)}
            )
    held = sa.select(s.c.game_id).where(s.c.owner.in_(who))
    rows = c.execute(
        sa.select(g.c.id, g.c.seed, g.c.options, g.c.over, g.c.n_actions)
        .where(
            g.c.game == config["game"],
            g.c.id != (exclude or ""),
            sa.or_(g.c.owner.in_(who), g.c.id.in_(held)),
            sa.or_(g.c.seed.in_(sorted(coming | {seed})), g.c.options.like('%"reseed": [[%')),
        )
        .order_by(g.c.created.desc(), g.c.id)
        .limit(PROVENANCE_CANDIDATES)
    ).all()

    def ends_on_ours(r) -> bool:  # its chance after n is drawn from our seed to its end
        return Game.seed_in_force(r.seed, _reseed_points(json.loads(r.options or "{}")),
                              r.n_actions) == inforce  # fmt: skip

    # games dealt from our seed to their end first, then the others; oldest first in each
    # (the game those dice were first dealt in, rather than a copy of it)
    rows = sorted(reversed(rows), key=lambda r: not ends_on_ours(r))
    parent = None
    mine = [json.loads(a) for a in acts]
    for r in rows:
        if r.seed != seed or r.n_actions < n:
            continue
        theirs = c.execute(
            sa.select(actions_table.c.action)
            .where(actions_table.c.game_id == r.id, actions_table.c.n < n)
            .order_by(actions_table.c.n)
        ).scalars()
        if [json.loads(a) for a in theirs] == mine:
            parent = r
            break
    if parent is not None:
        out["branch_of"], out["branch_at"] = parent.id, n
    # the game whose dice these are: a finished one first (its dice were all seen), then the
    # parent, then the earliest
    source = None
    for r in sorted(([parent] if parent is not None else []) + list(rows),
                    key=lambda r: (not r.over, r is not parent)):  # fmt: skip
        theirs = {r.seed} | {p[1] for p in _reseed_points(json.loads(r.options or "{}"))}
        if coming & theirs:
            source = r
            break
    if source is not None:
        out["chance_from"] = source.id
        out["chance"] = "known" if source.over else "ahead"
        return out, None if source.over else source.id
    if parent is not None:
        out["chance"] = "fresh"
    return out, None
