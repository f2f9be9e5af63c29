"""The ``hub`` back end of the game store: a kernel on a JupyterHub speaks to the moneynb
service (:mod:`moneynb.service`) instead of holding the database (issue 35).

Selected by ``MONEYNB_STORE=hub`` (or ``open_store("hub")``). The same methods, arguments,
results and errors as :class:`moneynb.store.Store` (``ConflictError``, ``NoSuchGame``,
``SeatTaken``, ``StoreUnavailable``, ``ValueError``...), plus :class:`~moneynb.store.NotAllowed`
when the service refuses a request that is not this user's to make. Views, tables, the
teacher's view and lessons run on it unchanged.

Where the service is: ``MONEYNB_SERVICE_URL`` (e.g. ``http://127.0.0.1:10101/services/moneynb/``,
set for user servers in ``c.Spawner.environment``), else the hub's record of the service
``moneynb`` (``GET $JUPYTERHUB_API_URL/services/moneynb``, when the server's token may read it).
Who asks: the user's own ``JUPYTERHUB_API_TOKEN`` (the service asks the hub whose it is; an
``owner`` argument naming anyone else is refused). ``JUPYTERHUB_USER`` is never trusted by the
service.

Source: issue 35; DESIGN.md ("the store behind a service").
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
from typing import Any
from urllib.parse import quote, urlencode, urlparse

from .classes import ClassInfo, Posted, RosterEntry
from .errors import (
    ConflictError,
    NoSuchGame,
    NotAllowed,
    SeatTaken,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
)
from .store import ANY, GameInfo, Seat

__all__ = ["HubStore", "HubWatcher", "hub_owner", "service_url"]

#: the largest request sent, in bytes (the service refuses larger ones: :data:`MAX_BODY`)
MAX_BODY = 2_000_000
#: seconds a call may take before the service is said to be unreachable
TIMEOUT = 60.0

_ERRORS = {
    "NoSuchGame": NoSuchGame,
    "SeatTaken": SeatTaken,
    "NotAllowed": NotAllowed,
    "StoreUnavailable": StoreUnavailable,
    "StoreVersionError": StoreVersionError,
    "StoreError": StoreError,
    "ValueError": ValueError,
    "TypeError": ValueError,
}


def _error(kind: str, category: str, msg: str, status: int) -> Exception:
    """The exception the service's answer names: the store's own class when it has one
    (``moneynb.store.errors``), else the category's."""
    from . import errors

    cls = getattr(errors, kind, None)
    if isinstance(cls, type) and issubclass(cls, StoreError):
        try:
            return cls(msg)
        except TypeError:  # a class whose constructor takes more than a message
            pass
    if status == 403 and category not in _ERRORS:
        return NotAllowed(msg)
    return _ERRORS.get(category, _ERRORS.get(kind, StoreError))(msg)


def hub_owner(store) -> str | None:
    """The owner (``"hub:<name>"``) the moneynb service says ``store``'s token belongs to, when
    ``store`` is a :class:`HubStore`; else None. On a hub this, not ``JUPYTERHUB_USER`` (which
    a student can set in their kernel), is who asks (issue 36)."""
    who = getattr(store, "whoami", None)
    return who()["owner"] if callable(who) else None


def service_url() -> str:
    """The service's base URL (ending in ``/``). Raises :class:`StoreUnavailable` (not on a
    hub, or the service not configured)."""
    url = os.environ.get("MONEYNB_SERVICE_URL", "").strip()
    if url:
        return url.rstrip("/") + "/"
    api, token = os.environ.get("JUPYTERHUB_API_URL"), os.environ.get("JUPYTERHUB_API_TOKEN")
    if api and token:
        try:
            doc = _get_json(api.rstrip("/") + "/services/moneynb", token)
            base = doc.get("url") or ""
            prefix = doc.get("prefix") or "/services/moneynb/"
            if base:
                return base.rstrip("/") + "/" + prefix.strip("/") + "/"
        except (OSError, ValueError, StoreError):
            pass
    raise StoreUnavailable(
        "MONEYNB_STORE=hub needs the moneynb service of this JupyterHub: set "
        "MONEYNB_SERVICE_URL (c.Spawner.environment in jupyterhub_config.py; see "
        "docs/classroom.md)"
    )


def _get_json(url: str, token: str) -> dict:
    u = urlparse(url)
    conn = _connection(u)
    try:
        conn.request("GET", u.path, headers={"Authorization": f"token {token}"})
        r = conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise StoreUnavailable(f"{url}: HTTP {r.status}")
        return json.loads(body)
    finally:
        conn.close()


def _connection(u, timeout: float = TIMEOUT) -> http.client.HTTPConnection:
    cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
    return cls(u.hostname, u.port, timeout=timeout)


def _info(d: dict) -> GameInfo:
    d = dict(d)
    d["players"] = tuple(d["players"])
    d["seats"] = tuple(Seat(**s) for s in d.get("seats", ()))
    return GameInfo(**d)


class HubStore:
    """The game store of a JupyterHub, through its moneynb service (see the module).

    Args:
        url: the service's base URL (default :func:`service_url`).
        token: the hub token (default ``JUPYTERHUB_API_TOKEN``).

    Raises:
        StoreUnavailable: no token, no service URL.
    """

    is_store = True
    dialect = "hub"
    path = None

    def __init__(self, url: str | None = None, token: str | None = None):
        self.token = token if token is not None else os.environ.get("JUPYTERHUB_API_TOKEN", "")
        if not self.token:
            raise StoreUnavailable(
                "MONEYNB_STORE=hub runs in a JupyterHub user server: JUPYTERHUB_API_TOKEN is "
                "not set here"
            )
        self.url = (url.rstrip("/") + "/") if url else service_url()
        self._u = urlparse(self.url)
        self.location = "hub"
        self.closed = False
        self._local = threading.local()
        self._pid = os.getpid()

    # ----- plumbing ----------------------------------------------------------------------------
    @property
    def shown(self) -> str:
        """Where the store is, as shown to people."""
        return f"the moneynb service at {self.url}"

    def __repr__(self) -> str:
        return f"HubStore({self.url!r})"

    def close(self) -> None:
        """Stop using the service (the object can no longer be used)."""
        self.closed = True
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()

    def _forget_connections(self) -> None:
        self._local = threading.local()
        self._pid = os.getpid()

    def _request(self, method: str, path: str, body: bytes | None = None,
                 timeout: float = TIMEOUT) -> dict:  # fmt: skip
        if self.closed:
            raise StoreUnavailable(f"{self.shown} was closed")
        if body is not None and len(body) > MAX_BODY:
            raise ValueError(
                f"a request to the moneynb service is at most {MAX_BODY:,} bytes (this one is "
                f"{len(body):,}); nothing was sent"
            )
        headers = {"Authorization": f"token {self.token}", "Content-Type": "application/json"}
        url = self._u.path.rstrip("/") + "/" + path
        for attempt in (0, 1):
            conn = getattr(self._local, "conn", None)
            if conn is None or self._pid != os.getpid():
                conn = self._local.conn = _connection(self._u, timeout)
                self._pid = os.getpid()
            conn.timeout = timeout
            if conn.sock is not None:
                conn.sock.settimeout(timeout)
            try:
                conn.request(method, url, body=body, headers=headers)
                r = conn.getresponse()
                raw = r.read()
                status = r.status
                break
            except (OSError, http.client.HTTPException) as e:
                conn.close()
                self._local.conn = None
                if attempt:
                    raise StoreUnavailable(
                        f"{self.shown} cannot be reached: {e or type(e).__name__}"
                    ) from e
        try:
            doc = json.loads(raw)
        except ValueError:
            raise StoreUnavailable(
                f"{self.shown} answered HTTP {status} without JSON (is it the moneynb service?)"
            ) from None
        if status == 200:
            return doc
        kind, msg = doc.get("error", ""), doc.get("message") or f"HTTP {status}"
        if kind == "ConflictError":
            raise ConflictError(doc.get("game_id", ""), doc.get("expected", -1),
                                doc.get("stored", -1))  # fmt: skip
        raise _error(kind, doc.get("category", ""), msg, status)

    def _call(self, name: str, /, **args) -> Any:
        args = {k: v for k, v in args.items() if v is not ANY}
        try:
            body = json.dumps({"args": args}).encode()
        except (TypeError, ValueError) as e:
            raise ValueError(f"{name}: the arguments are not JSON ({e})") from None
        return self._request("POST", f"api/call/{name}", body)["result"]

    # ----- who ---------------------------------------------------------------------------------
    def whoami(self) -> dict:
        """``{"owner": "hub:<name>", "teacher": bool}`` as the service sees this token."""
        return self._request("GET", "api/whoami")

    def is_teacher(self, owner: str | None) -> bool:
        """True when the service says this token's user is a teacher (and ``owner``, when
        given, is that user). ``JUPYTERHUB_USER`` and ``MONEYNB_TEACHERS`` in this kernel do
        not count."""
        me = self.whoami()
        return bool(me["teacher"]) and (owner is None or owner == me["owner"])

    # ----- the Store API -----------------------------------------------------------------------
    def create(self, config, seats=None, owner=None, origin="", table=None, actions=(),
               status=None, source=None) -> str:  # fmt: skip
        """As :meth:`moneynb.store.Store.create` (the owner is always this hub user)."""
        return self._call("create", config=config, seats=seats, owner=owner, origin=origin,
                          table=table, actions=list(actions), status=status,
                          source=source)  # fmt: skip

    def import_json(self, text, owner=None, origin="import", seats=None, source=None,
                    status=None) -> str:  # fmt: skip
        """As :meth:`moneynb.store.Store.import_json` (checked again by the service)."""
        from ..core.save import loads

        loads(text)  # the same SaveFileError here as on a local store
        if isinstance(text, bytes):
            text = text.decode()
        return self._call("import_json", text=text, owner=owner, origin=origin, seats=seats,
                          source=source, status=status)  # fmt: skip

    def find_source(self, source: str):
        """As :meth:`moneynb.store.Store.find_source` (this user's imports only)."""
        return self._call("find_source", source=source)

    def append(self, game_id, n, action, status=None) -> int:
        """As :meth:`moneynb.store.Store.append`; the service replays the game and checks that
        the seat to decide is this user's (or the bot's own move)."""
        return self._call("append", game_id=game_id, n=n, action=action, status=status)

    def extend(self, game_id, n, actions, status=None) -> int:
        """As :meth:`moneynb.store.Store.extend` (checked as :meth:`append`)."""
        return self._call("extend", game_id=game_id, n=n, actions=list(actions), status=status)

    def truncate(self, game_id, n, to, status=None) -> int:
        """As :meth:`moneynb.store.Store.truncate` (this user's solo games only)."""
        return self._call("truncate", game_id=game_id, n=n, to=to, status=status)

    def count(self, game_id) -> int:
        """As :meth:`moneynb.store.Store.count`."""
        return self._call("count", game_id=game_id)

    def actions(self, game_id, start=0) -> list:
        """As :meth:`moneynb.store.Store.actions`."""
        return self._call("actions", game_id=game_id, start=start)

    def read(self, game_id, owner=ANY) -> str:
        """As :meth:`moneynb.store.Store.read` (games this user owns or sits at)."""
        return self._call("read", game_id=game_id, owner=owner)

    def export_json(self, game_id, owner=ANY) -> str:
        """As :meth:`moneynb.store.Store.export_json` (the store's own rule for a live table
        applies)."""
        return self._call("export_json", game_id=game_id, owner=owner)

    def info(self, game_id, owner=ANY) -> GameInfo:
        """As :meth:`moneynb.store.Store.info`."""
        return _info(self._call("info", game_id=game_id, owner=owner))

    def list_games(self, owner, game=None, over=None, origin=None, person_moved=None,
                   exclude=(), limit=100) -> list[GameInfo]:  # fmt: skip
        """As :meth:`moneynb.store.Store.list_games` (``owner`` must be this user)."""
        if not isinstance(owner, str) or not owner:
            raise ValueError(f"list_games needs an owner string, got {owner!r}")
        rows = self._call("list_games", owner=owner, game=game, over=over, origin=origin,
                          person_moved=person_moved, exclude=list(exclude),
                          limit=limit)  # fmt: skip
        return [_info(r) for r in rows]

    def list_seated(self, owner, over=None, limit=100) -> list[GameInfo]:
        """As :meth:`moneynb.store.Store.list_seated`."""
        if not isinstance(owner, str) or not owner:
            raise ValueError(f"list_seated needs an owner string, got {owner!r}")
        return [_info(r) for r in self._call("list_seated", owner=owner, over=over, limit=limit)]

    def list_table(self, table) -> list[GameInfo]:
        """As :meth:`moneynb.store.Store.list_table` (the seed only for those at the table)."""
        return [_info(r) for r in self._call("list_table", table=table)]

    def list_all(self, game=None, over=None, origin=None, person_moved=None,
                 limit=1000) -> list[GameInfo]:  # fmt: skip
        """As :meth:`moneynb.store.Store.list_all` (teachers only: NotAllowed else)."""
        rows = self._call("list_all", game=game, over=over, origin=origin,
                          person_moved=person_moved, limit=limit)  # fmt: skip
        return [_info(r) for r in rows]

    def set_status(self, game_id, status) -> None:
        """As :meth:`moneynb.store.Store.set_status` (``over`` is set by moves only)."""
        self._call("set_status", game_id=game_id, status=status)

    def set_owner(self, game_id, owner, only_if_unowned=True) -> bool:
        """As :meth:`moneynb.store.Store.set_owner` (only an unowned game, only to this user)."""
        return self._call("set_owner", game_id=game_id, owner=owner,
                          only_if_unowned=only_if_unowned)  # fmt: skip

    def seats(self, game_id) -> list[Seat]:
        """As :meth:`moneynb.store.Store.seats`."""
        return list(self.info(game_id).seats)

    def claim_seat(self, game_id, seat, owner) -> Seat:
        """As :meth:`moneynb.store.Store.claim_seat` (for this user only)."""
        return Seat(**self._call("claim_seat", game_id=game_id, seat=seat, owner=owner))

    def release_seat(self, game_id, seat, owner=ANY) -> None:
        """As :meth:`moneynb.store.Store.release_seat` (``ANY``: the table's host only)."""
        self._call("release_seat", game_id=game_id, seat=seat, owner=owner)

    def set_seat_kind(self, game_id, seat, kind) -> None:
        """As :meth:`moneynb.store.Store.set_seat_kind` (the table's host only)."""
        self._call("set_seat_kind", game_id=game_id, seat=seat, kind=kind)

    def post_result(self, lesson, owner, data) -> int:
        """As :meth:`moneynb.store.Store.post_result` (under this user's name only)."""
        return self._call("post_result", lesson=lesson, owner=owner, data=data)

    def results(self, lesson) -> list[dict]:
        """As :meth:`moneynb.store.Store.results` (other students' names hidden unless this
        user is a teacher)."""
        return self._call("results", lesson=lesson)

    # ----- class sessions (issue 36): the service fills ``owner`` with this hub user ----------
    def open_class(self, name, owner=None, code=None) -> ClassInfo:
        """As :meth:`moneynb.store.Store.open_class` (teachers of the service's configuration
        only: NotAllowed else)."""
        return ClassInfo(**self._call("open_class", name=name, owner=owner, code=code))

    def get_class(self, class_id=None, code=None) -> ClassInfo:
        """As :meth:`moneynb.store.Store.get_class` (by code: anyone; by id: its teacher and
        students; anyone else gets NoSuchClass)."""
        return ClassInfo(**self._call("get_class", class_id=class_id, code=code))

    def classes(self, owner=None, limit=50) -> list[ClassInfo]:
        """As :meth:`moneynb.store.Store.classes` (this teacher's classes)."""
        return [ClassInfo(**k) for k in self._call("classes", owner=owner, limit=limit)]

    def class_of(self, owner=None) -> ClassInfo | None:
        """As :meth:`moneynb.store.Store.class_of` (this hub user's class)."""
        k = self._call("class_of", owner=owner)
        return ClassInfo(**k) if k else None

    def join_class(self, code, owner=None, name=None) -> RosterEntry:
        """As :meth:`moneynb.store.Store.join_class` (this hub user joins)."""
        return RosterEntry(**self._call("join_class", code=code, owner=owner, name=name))

    def roster(self, class_id, owner=None, removed=False) -> list[RosterEntry]:
        """As :meth:`moneynb.store.Store.roster` (the class's teacher only)."""
        rows = self._call("roster", class_id=class_id, owner=owner, removed=removed)
        return [RosterEntry(**e) for e in rows]

    def remove_student(self, class_id, student, owner=None) -> None:
        """As :meth:`moneynb.store.Store.remove_student` (the class's teacher only)."""
        self._call("remove_student", class_id=class_id, student=student, owner=owner)

    def end_class(self, class_id, owner=None) -> ClassInfo:
        """As :meth:`moneynb.store.Store.end_class` (the class's teacher only)."""
        return ClassInfo(**self._call("end_class", class_id=class_id, owner=owner))

    def class_games(self, class_id, owner=None, tables=None, offset=0, limit=50) -> list:
        """As :meth:`moneynb.store.Store.class_games` (the class's teacher only)."""
        rows = self._call("class_games", class_id=class_id, owner=owner, tables=tables,
                          offset=offset, limit=limit)  # fmt: skip
        return [_info(r) for r in rows]

    def count_class_games(self, class_id, owner=None, tables=None) -> int:
        """As :meth:`moneynb.store.Store.count_class_games` (the class's teacher only)."""
        return self._call("count_class_games", class_id=class_id, owner=owner, tables=tables)

    def give_seat(self, game_id, seat, student, owner=None) -> None:
        """As :meth:`moneynb.store.Store.give_seat` (the class's teacher only)."""
        self._call("give_seat", game_id=game_id, seat=seat, student=student, owner=owner)

    def close_table(self, game_id, owner=None) -> None:
        """As :meth:`moneynb.store.Store.close_table` (the class's teacher only)."""
        self._call("close_table", game_id=game_id, owner=owner)

    def current_run(self, class_id, lesson) -> int:
        """As :meth:`moneynb.store.Store.current_run` (the class's teacher and students)."""
        return self._call("current_run", class_id=class_id, lesson=lesson)

    def post_class_result(self, lesson, owner=None, value=None, seed=None, data=None) -> Posted:
        """As :meth:`moneynb.store.Store.post_class_result` (this hub user's result, to their
        class: one per run, a re-post replaces)."""
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"a result is a number, got {value!r:.40}") from None
        return Posted(**self._call("post_class_result", lesson=lesson, owner=owner,
                                   value=value, seed=seed, data=data))  # fmt: skip

    def class_results(self, class_id, owner=None, lesson=None, all_runs=False) -> list[dict]:
        """As :meth:`moneynb.store.Store.class_results` (the class's teacher only)."""
        return self._call("class_results", class_id=class_id, owner=owner, lesson=lesson,
                          all_runs=all_runs)  # fmt: skip

    def lessons(self, class_id, owner=None) -> dict[str, int]:
        """As :meth:`moneynb.store.Store.lessons` (the class's teacher only)."""
        return self._call("lessons", class_id=class_id, owner=owner)

    def clear_run(self, class_id, lesson, owner=None) -> int:
        """As :meth:`moneynb.store.Store.clear_run` (the class's teacher only)."""
        return self._call("clear_run", class_id=class_id, lesson=lesson, owner=owner)

    def my_result(self, lesson, owner=None) -> dict | None:
        """As :meth:`moneynb.store.Store.my_result` (this hub user's)."""
        return self._call("my_result", lesson=lesson, owner=owner)

    def schema_version(self) -> int:
        """The service's store schema version."""
        return self._call("schema_version")

    def backup(self, path):
        """Not from a kernel: the service's store is backed up where it runs (docs)."""
        raise NotAllowed("the class's store is backed up on the hub (docs/classroom.md)")

    def watch(self, game_id: str | None = None) -> HubWatcher:
        """A :class:`HubWatcher` (a long poll on the service) for ``game_id`` (None: any
        write this user may hear of)."""
        return HubWatcher(self, game_id)


class HubWatcher:
    """The :class:`moneynb.store.Watcher` of a :class:`HubStore`: ``wait(timeout)`` long-polls
    the service and returns True when the game (or, without one, anything) was written since
    the last call. :attr:`payloads` names the game (``"<game id>"``) when one is watched.

    Raises:
        NoSuchGame: a game this user may not read (when made).
        StoreUnavailable: the service cannot be reached.
    """

    def __init__(self, store: HubStore, game_id: str | None = None):
        self.store = store
        self.game_id = game_id
        self.payloads: list[str] = []
        self._since = self._poll(None, 0)["version"]

    def _poll(self, since, timeout: float) -> dict:
        q = {"timeout": f"{timeout:.3f}"}
        if since is not None:
            q["since"] = str(since)
        if self.game_id is not None:
            q["game"] = self.game_id
        return self.store._request("GET", "api/watch?" + urlencode(q, quote_via=quote),
                                   timeout=timeout + TIMEOUT)  # fmt: skip

    def wait(self, timeout: float = 1.0) -> bool:
        """See the class docstring."""
        self.payloads = []
        end = time.monotonic() + max(0.0, timeout)
        r = self._poll(self._since, max(0.0, timeout))
        changed = r["version"] != self._since
        self._since = r["version"]
        if changed and self.game_id is not None:
            self.payloads = [self.game_id]
        if not changed and time.monotonic() < end - 0.05:  # an early empty answer
            time.sleep(min(0.05, max(0.0, end - time.monotonic())))
        return changed

    def close(self) -> None:
        """Nothing to close (the store's connection is shared)."""

    def __enter__(self) -> HubWatcher:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
