"""Limits on guessing and on flooding the class (issue 35, cases 6 and 7). No Jupyter here.

Two kinds of limit, both kept per **owner** (a hub user or a browser,
:mod:`moneynb.store.identity`) and per **server** (every kernel writing the same store on
this machine), in a small ledger shared by the server's kernels:

- **Wrong tries** (a join code that opens no table, or a right code with a name that is not at
  it; a wrong teacher passcode): the first :attr:`Limits.code_free_tries` wrong tries of an
  owner (:attr:`Limits.passcode_free_tries` for the passcode) within
  :attr:`Limits.window_s` cost nothing; after that each next try waits
  :attr:`Limits.first_delay_s`, then twice as long after each further wrong try, up to
  :attr:`Limits.max_delay_s`. The server as a whole gets :attr:`Limits.server_code_free_tries`
  (:attr:`Limits.server_passcode_free_tries`) free wrong tries, then the same doubling delay
  up to :attr:`Limits.server_max_delay_s` (short: while it runs nobody's try is looked at, so
  a guesser who changes browsers slows the class down for seconds, never locks it out).
  A try made too early is refused at once with :class:`~moneynb.store.TooManyTries`
  ("too many tries: wait 8 s"): nothing sleeps, so the page never freezes. A right code
  forgets the owner's wrong tries.
- **New games and tables** (:func:`new_game`): at most :attr:`Limits.games_per_minute` per
  owner and :attr:`Limits.server_games_per_minute` for the server in any 60 s; one more is
  refused with :class:`~moneynb.store.TooManyTries` saying when the next is possible, so one
  student cannot push the class off the teacher's view.

The limits are data an operator changes when the server starts: the environment variable
``MONEYNB_LIMITS`` (``"games_per_minute=30, code_free_tries=8"``: any :class:`Limits` field),
or :func:`set_limits` in Python (an app notebook's first cell). The ledger is an SQLite file
beside a SQLite store (``games.sqlite3-limits``) or, for a PostgreSQL or other store, in the
per-user data folder (``~/.local/share/moneynb/limits.sqlite3``); ``MONEYNB_LIMITS_FILE``
names another. A ledger that cannot be written falls back to one kept in this process (the
limits then hold per kernel only).

On a hub, the moneynb service applies its own limits to every request (the kernel's ledger is
then only a first check). Source: issue 35 (cases 6, 7); the figures are a reconstruction
(what a class of 30 never reaches by mistyping, a guesser always does).
"""

from __future__ import annotations

import dataclasses
import math
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import TooManyTries

__all__ = [
    "Limits",
    "limits",
    "set_limits",
    "check_try",
    "wrong_try",
    "right_try",
    "new_game",
    "ledger_path",
    "SERVER",
]

#: the ledger's key for the whole server (every owner's tries together)
SERVER = "*server*"


@dataclass(frozen=True)
class Limits:
    """The limits (see the module docstring); every field can be set in ``MONEYNB_LIMITS``.

    Attributes (counts are tries or games; times are seconds):
        code_free_tries: wrong join codes an owner may type before a delay.
        server_code_free_tries: wrong join codes on the whole server before a delay.
        passcode_free_tries: wrong teacher passcodes an owner may type before a delay.
        server_passcode_free_tries: wrong passcodes on the whole server before a delay.
        first_delay_s: the first delay; it doubles with each further wrong try.
        max_delay_s: the longest delay for one owner.
        server_max_delay_s: the longest delay for the whole server.
        window_s: wrong tries older than this are forgotten.
        games_per_minute: new games and tables one owner may start in any 60 s (0: no limit).
        server_games_per_minute: new games and tables on the whole server in any 60 s
            (0: no limit).
    """

    code_free_tries: int = 5
    server_code_free_tries: int = 50
    passcode_free_tries: int = 3
    server_passcode_free_tries: int = 20
    first_delay_s: float = 1.0
    max_delay_s: float = 60.0
    server_max_delay_s: float = 10.0
    window_s: float = 600.0
    games_per_minute: int = 20
    server_games_per_minute: int = 300


_override: dict = {}


def _parse(text: str) -> dict:
    """``"a=1, b=2.5"`` -> ``{"a": 1, "b": 2.5}`` for :class:`Limits` fields.

    Raises:
        ValueError: an unknown field or a value that is not a number (the message names it).
    """
    fields = {f.name: f.type for f in dataclasses.fields(Limits)}
    out: dict = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in fields:
            raise ValueError(
                f"MONEYNB_LIMITS: {part.strip()!r} is not 'name=number' with a name among "
                + ", ".join(fields)
            )
        try:
            number = float(value) if fields[name] == "float" else int(value)
        except ValueError:
            raise ValueError(
                f"MONEYNB_LIMITS: {name} takes a number, got {value.strip()!r}"
            ) from None
        if number < 0:
            raise ValueError(f"MONEYNB_LIMITS: {name} cannot be negative")
        out[name] = number
    return out


def limits() -> Limits:
    """The limits in force: :class:`Limits`' defaults, then ``MONEYNB_LIMITS``, then
    :func:`set_limits`.

    Raises:
        ValueError: ``MONEYNB_LIMITS`` cannot be read (an unknown name, not a number).
    """
    return Limits(**{**_parse(os.environ.get("MONEYNB_LIMITS", "")), **_override})


def set_limits(**values) -> Limits:
    """Change limits for this process (``set_limits(games_per_minute=40)``); no argument:
    back to the defaults and ``MONEYNB_LIMITS``. Returns the limits in force.

    Raises:
        ValueError: an unknown field or a negative value.
    """
    if not values:
        _override.clear()
        return limits()
    text = ", ".join(f"{k}={v}" for k, v in values.items())
    _override.update(_parse(text))
    return limits()


# ----- the ledger ------------------------------------------------------------------------------
_lock = threading.Lock()
_conns: dict[tuple[int, str], sqlite3.Connection] = {}


def ledger_path(store=None) -> Path:
    """Where the ledger of ``store`` (a :class:`~moneynb.store.Store`, its location, or None:
    the default store) is kept: ``MONEYNB_LIMITS_FILE``, else beside a SQLite store's file,
    else ``limits.sqlite3`` in the per-user moneynb data folder."""
    env = os.environ.get("MONEYNB_LIMITS_FILE", "").strip()
    if env:
        return Path(env).expanduser()
    path = getattr(store, "path", None)
    if isinstance(store, (str, os.PathLike)):  # a location, not a store object
        loc = str(store)
        if "://" not in loc or loc.startswith("sqlite:///"):
            path = Path(loc.removeprefix("sqlite:///")).expanduser()
    if path is None and store is None:
        from .store import _is_pg, _sqlite_path, default_location

        loc = default_location()
        if not _is_pg(loc):
            path = _sqlite_path(loc)
    if path is not None:
        path = Path(path).resolve()
        return path.with_name(path.name + "-limits")
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "moneynb" / "limits.sqlite3"


def _scope(store) -> str:
    """Which store the ledger's rows are about (two stores may share a ledger file)."""
    if store is None:
        from .store import default_location

        return default_location()
    return str(getattr(store, "location", store))


def _connect(path: Path) -> sqlite3.Connection:
    key = (os.getpid(), str(path))  # a forked child opens its own connection
    conn = _conns.get(key)
    if conn is not None:
        return conn
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        conn = sqlite3.connect(str(path), timeout=10, check_same_thread=False,
                               isolation_level=None)  # fmt: skip
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS tries (scope TEXT NOT NULL, kind TEXT NOT NULL, "
            "who TEXT NOT NULL, at REAL NOT NULL)"
        )
        conn.execute("CREATE INDEX IF NOT EXISTS tries_who ON tries (scope, kind, who, at)")
    except (OSError, sqlite3.Error):  # a folder that cannot be written: this process only
        conn = _memory()
    _conns[key] = conn
    return conn


def _run(store, fn):
    """``fn(conn, scope)`` in one write transaction of the ledger (a ledger file that cannot
    be written: the same in a ledger kept in this process)."""
    path = ledger_path(store)
    scope = _scope(store)
    with _lock:
        for attempt in range(2):
            conn = _connect(path)
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error:
                if attempt:
                    raise
                _conns[(os.getpid(), str(path))] = _memory()  # read-only or gone: this process
                continue
            try:
                out = fn(conn, scope)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return out
    raise AssertionError("unreachable")


def _memory() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    conn.execute(
        "CREATE TABLE tries (scope TEXT NOT NULL, kind TEXT NOT NULL, who TEXT NOT NULL, "
        "at REAL NOT NULL)"
    )
    return conn


def _who(owner) -> str:
    return owner if isinstance(owner, str) and owner else "(unknown)"


def _count(conn, scope: str, kind: str, who: str, lim: Limits, now: float) -> int:
    """Wrong tries of ``who`` within the window."""
    return conn.execute(
        "SELECT COUNT(*) FROM tries WHERE scope=? AND kind=? AND who=? AND at>?",
        (scope, kind, who, now - lim.window_s),
    ).fetchone()[0]


def _wait(conn, scope: str, kind: str, who: str, free: int, cap: float, lim: Limits,
          now: float) -> float:  # fmt: skip
    """Seconds ``who`` must still wait before a try of ``kind`` is looked at (0: none)."""
    rows = conn.execute(
        "SELECT COUNT(*), MAX(at) FROM tries WHERE scope=? AND kind=? AND who=? AND at>?",
        (scope, kind, who, now - lim.window_s),
    ).fetchone()
    n, last = rows[0], rows[1]
    if n < free or last is None:
        return 0.0
    delay = min(cap, lim.first_delay_s * 2 ** min(n - free, 30))
    return max(0.0, last + delay - now)


_WHAT = {"code": "join codes", "passcode": "teacher passcodes"}


def check_try(kind: str, owner, store=None) -> None:
    """Refuse a try of ``kind`` (``"code"``: a join code; ``"passcode"``: the teacher
    passcode) made too soon after wrong ones, by ``owner`` or on the whole server; a try that
    may be looked at passes.

    Raises:
        TooManyTries: "too many wrong join codes: wait 8 s and try again" (its ``wait_s``).
    """
    lim = limits()
    if kind == "code":
        free, server_free = lim.code_free_tries, lim.server_code_free_tries
    else:
        free, server_free = lim.passcode_free_tries, lim.server_passcode_free_tries
    now = time.time()

    def go(conn, scope):
        mine = _wait(conn, scope, kind, _who(owner), free, lim.max_delay_s, lim, now)
        everyone = _wait(conn, scope, kind, SERVER, server_free, lim.server_max_delay_s, lim, now)
        if not mine and not everyone and _count(conn, scope, kind, SERVER, lim, now) >= server_free:
            # past the server's free tries, a try that is looked at counts for the server at
            # once (in this transaction): pages (forgeable browser ids) trying at the same
            # instant get one try, not one each (the "break" pass of issue 35)
            conn.execute("INSERT INTO tries (scope, kind, who, at) VALUES (?, ?, ?, ?)",
                         (scope, kind, SERVER, now))  # fmt: skip
        return mine, everyone

    mine, everyone = _run(store, go)
    wait = max(mine, everyone)
    if wait > 0:
        s = max(1, math.ceil(wait))
        whose = "" if mine >= everyone else " on this server"
        raise TooManyTries(
            f"too many wrong {_WHAT.get(kind, kind)}{whose}: wait {s} s and try again "
            "(check it with the table's host or the teacher)"
            if kind == "code"
            else f"too many wrong {_WHAT.get(kind, kind)}{whose}: wait {s} s and try again",
            s,
        )


def wrong_try(kind: str, owner, store=None) -> None:
    """Count a wrong try of ``kind`` by ``owner`` (and for the server); old rows go."""
    now = time.time()
    lim = limits()

    def go(conn, scope):
        conn.executemany(
            "INSERT INTO tries (scope, kind, who, at) VALUES (?, ?, ?, ?)",
            [(scope, kind, _who(owner), now), (scope, kind, SERVER, now)],
        )
        conn.execute("DELETE FROM tries WHERE at < ?", (now - max(lim.window_s, 60.0) - 60,))

    _run(store, go)


def right_try(kind: str, owner, store=None) -> None:
    """A right try of ``kind`` by ``owner``: their wrong tries are forgotten (the server's
    count stays)."""

    def go(conn, scope):
        conn.execute(
            "DELETE FROM tries WHERE scope=? AND kind=? AND who=?", (scope, kind, _who(owner))
        )

    _run(store, go)


def new_game(owner, store=None, what: str = "game") -> None:
    """Count a new game or table (``what``) of ``owner``, or refuse it when the owner (or the
    server) started :attr:`Limits.games_per_minute` (:attr:`Limits.server_games_per_minute`)
    in the last 60 s. Call it before the game is stored: a refused one is not counted. An
    owner not known yet (None: JupyterLab before the page said who it is) counts for the
    server only.

    Raises:
        TooManyTries: "you started 20 games and tables in the last minute: wait 12 s ...".
    """
    lim = limits()
    now = time.time()
    who = _who(owner)

    def go(conn, scope):
        for key, cap, whose in ((who, lim.games_per_minute, "you"),
                                (SERVER, lim.server_games_per_minute, "this server")):  # fmt: skip
            if not cap or (key == who and owner is None):
                continue  # an owner not known yet (Lab before the page said): the server's
            rows = conn.execute(
                "SELECT at FROM tries WHERE scope=? AND kind='new' AND who=? AND at>? "
                "ORDER BY at DESC LIMIT ?",
                (scope, key, now - 60.0, cap),
            ).fetchall()
            if len(rows) >= cap:
                return whose, cap, rows[-1][0] + 60.0 - now
        conn.executemany(
            "INSERT INTO tries (scope, kind, who, at) VALUES (?, 'new', ?, ?)",
            [(scope, who, now), (scope, SERVER, now)],
        )
        return None

    refused = _run(store, go)
    if refused is not None:
        whose, cap, wait = refused
        s = max(1, math.ceil(wait))
        started = "you started" if whose == "you" else "this server's players started"
        raise TooManyTries(
            f"{started} {cap} new games and tables in the last minute (the most allowed): "
            f"wait {s} s before starting the new {what}",
            s,
        )
