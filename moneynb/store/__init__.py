"""The game store: the one place games are written and found (issue 25).

Every game played in a view, its seats, its status line and its owner live in a store. Two
back ends sit behind one small API (SQLAlchemy Core 2):

- **SQLite** (default): one file, WAL mode. Its path comes from the ``location`` argument, else
  the ``MONEYNB_STORE`` environment variable, else ``$XDG_DATA_HOME/moneynb/games.sqlite3``
  (``~/.local/share/moneynb/games.sqlite3``): per user, so two users sharing a working folder
  never share games. A new file is created readable by its owner only (0600) and a folder the
  store creates is 0700.
- **PostgreSQL**: a ``postgresql://user@host:port/db`` URL (driver psycopg 3, the ``hub``
  extra), held by the moneynb service of a JupyterHub (:mod:`moneynb.service`).
- **hub** (``MONEYNB_STORE=hub``): the same API in a student's kernel on a JupyterHub, spoken
  to the moneynb service with the user's own hub token (:mod:`moneynb.store.hub`); the kernel
  never holds the database. See docs/classroom.md.

::

    from moneynb.store import open_store
    s = open_store()                                   # or open_store("postgresql://...")
    gid = s.create(game.config(), seats=["human", "bot:greedy"], owner="hub:ann")
    s.append(gid, 0, "roll")                           # 0 = the stored action count it follows
    s.extend(gid, 1, ["buy", "end"], status={"turn": "Round 1 of 5", "to_move": "Ann"})
    game = moneynb.load_game(s.read(gid))             # today's to_json() format
    s.list_games(owner="hub:ann", over=False)          # GameInfo rows, newest move first

**Ordered, atomic writes.** :meth:`Store.append` / :meth:`Store.extend` name the action count
``n`` they follow; they succeed only when ``n`` equals the stored count (optimistic check, in
one transaction with the actions and the status), so two kernels can never interleave or lose
a move: the late one gets :class:`ConflictError` and nothing of its write is stored. A crash
mid-write leaves the previous state (the database's transaction).

**Watching.** :meth:`Store.watch` gives a :class:`Watcher` whose ``wait(timeout)`` returns when
the store may have changed (SQLite: polls ``PRAGMA data_version``; PostgreSQL: ``LISTEN
moneynb_actions``, every append sends ``NOTIFY``), for kernels at one table;
``Store.watch(game_id)`` wakes only for that game.

**Forks and backups.** :func:`open_store` keeps one store per process (a forked child opens its
own connections); :meth:`Store.backup` copies a SQLite store while it is in use (PostgreSQL:
``pg_dump``).

**Class sessions** (issue 36): a teacher opens a class, students join it by code and name,
and their games and lesson results belong to it: :mod:`moneynb.store.classes`.

**Where a game's chance came from.** :meth:`Store.create` traces every new game against the
games its owner already has or sat at (never against what the caller says): a branch of a
stored game and its step, and whether its dice from there on were already seen
(:attr:`GameInfo.practice`: "Continue from here" of a finished game, a seed typed again, a
save imported again) or are its own (a fresh ``reseed`` point). The teacher's view marks
practice games and leaves them out of its standings. See docs/classroom.md.

**Schema versions.** The store keeps its schema version in the table ``moneynb_schema``;
opening an older store runs the missing migrations (:data:`MIGRATIONS`, each in its own
transaction); a store written by a newer moneynb raises :class:`StoreVersionError`.

Source: DESIGN.md ("Added for classes: one store, an owner per person, tables across
browsers"); issue 25.
"""

from __future__ import annotations

from .classes import ClassInfo, Posted, RosterEntry
from .errors import (
    ClassEnded,
    ConflictError,
    GameClosed,
    LiveTable,
    NoSuchClass,
    NoSuchGame,
    NotAllowed,
    NotClassTeacher,
    NotInClass,
    OneSeatEach,
    SeatTaken,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
    TooManyTries,
)
from .identity import browser_owner, is_teacher, local_owner, teacher_passcode_ok
from .store import (
    ANY,
    MIGRATIONS,
    SCHEMA_VERSION,
    GameInfo,
    Seat,
    Store,
    Watcher,
    default_location,
    import_folder,
    open_store,
)

__all__ = [
    "ANY",
    "ClassInfo",
    "Posted",
    "RosterEntry",
    "ClassEnded",
    "GameClosed",
    "NoSuchClass",
    "NotClassTeacher",
    "NotInClass",
    "browser_owner",
    "Store",
    "open_store",
    "default_location",
    "import_folder",
    "GameInfo",
    "Seat",
    "Watcher",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "StoreError",
    "ConflictError",
    "NoSuchGame",
    "NotAllowed",
    "SeatTaken",
    "StoreUnavailable",
    "StoreVersionError",
    "LiveTable",
    "OneSeatEach",
    "TooManyTries",
    "is_teacher",
    "teacher_passcode_ok",
    "local_owner",
]
