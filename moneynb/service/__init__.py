"""The moneynb service of a JupyterHub: the only holder of the class's game store (issue 35).

Started by the hub (``c.JupyterHub.services``, see ``docs/jupyterhub_config.py``) as
``python -m moneynb.service``. Students' kernels speak to it with their own hub token through
the ``hub`` back end of the store (:class:`moneynb.store.hub.HubStore`); the database URL (or
SQLite file) is in the service's environment only, never in a user server's.

Configuration (the service's environment, set in the service's ``environment`` entry):

- ``MONEYNB_SERVICE_STORE``: the store, a ``postgresql://`` URL or a SQLite file path (a file
  only the service's system user can read);
- ``MONEYNB_TEACHERS``: teachers' hub user names (commas or spaces between them);
- ``MONEYNB_TEACHER_GROUP``: a hub group whose members are teachers (needs the service's role
  to have ``read:groups`` on it);
- set by JupyterHub: ``JUPYTERHUB_SERVICE_URL`` (where to listen), ``JUPYTERHUB_API_TOKEN``,
  ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_SERVICE_PREFIX``, ``JUPYTERHUB_SERVICE_NAME``.

HTTP API (JSON; every request carries ``Authorization: token <the user's hub token>``; the
caller is the hub user the token names, and the token must have
``access:services!service=<name>``), under the service prefix (``/services/moneynb/``):

- ``POST api/call/<method>`` body ``{"args": {...}}`` -> ``{"result": ...}``: a
  :class:`~moneynb.store.Store` method, authorized by :data:`moneynb.service.rules.METHODS`;
- ``GET api/whoami`` -> ``{"owner": "hub:ann", "teacher": false}``;
- ``GET api/watch?game=<id>&since=<v>&timeout=<s>`` -> ``{"version": v, "changed": bool}``:
  a long poll that returns when the game (or, without ``game``, anything) is written;
- errors: ``{"error": <class>, "message": <text>, ...}`` with 400 (ValueError: bad input,
  an action the engine refuses), 403 (NotAllowed, a wrong token), 404 (NoSuchGame), 409
  (ConflictError with ``expected``/``stored``, SeatTaken), 413 (a body over
  :data:`MAX_BODY` bytes), 503 (StoreUnavailable).

Source: issue 35; DESIGN.md ("the store behind a service"); JupyterHub's service-whoami example.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

from ..store import ConflictError, NoSuchGame, NotAllowed, SeatTaken, StoreError
from ..store import errors as _errors
from ..store.errors import StoreUnavailable, StoreVersionError
from .rules import METHODS, Call, Caller, GameCache, run

__all__ = ["MAX_BODY", "METHODS", "Service", "make_app", "main"]

log = logging.getLogger("moneynb.service")

#: the largest request body accepted, in bytes (a whole imported game fits)
MAX_BODY = 2_000_000
#: the longest long poll, in seconds
MAX_WAIT = 30.0
#: how long the members of the teachers' hub group are remembered, in seconds
GROUP_TTL = 30.0


def _names(raw: str) -> frozenset[str]:
    return frozenset(n for n in re.split(r"[,\s]+", raw or "") if n)


class Service:
    """The service's state: its ``store``, the hub authentication, the teachers, the watch
    versions. ``store``: a :class:`~moneynb.store.Store` (the service's own)."""

    def __init__(self, store, *, teachers=(), teacher_group: str = "", hub_auth=None,
                 name: str = "moneynb"):  # fmt: skip
        from jupyterhub.services.auth import HubAuth

        self.store = store
        self.name = name
        self.teachers = frozenset(teachers)
        self.teacher_group = teacher_group
        self.hub_auth = hub_auth or HubAuth(cache_max_age=60)
        self.scopes = {f"access:services!service={name}"}
        self.pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="moneynb-store")
        self.games = GameCache()
        self.versions: dict[str, int] = {}
        self.events: dict[str, asyncio.Event] = {}
        self._group: tuple[float, frozenset[str]] = (0.0, frozenset())

    # ----- who asks ---------------------------------------------------------------------------
    async def caller(self, token: str) -> Caller:
        """The :class:`Caller` a hub token names. Raises NotAllowed (an unknown token, a
        token without access to this service, a service's token)."""
        from jupyterhub.services.auth import check_scopes

        user = await self.hub_auth.user_for_token(token, sync=False) if token else None
        if not user:
            raise NotAllowed(
                "the hub does not know this token: the moneynb service needs the user's own "
                "JUPYTERHUB_API_TOKEN"
            )
        if user.get("kind", "user") != "user":
            raise NotAllowed("the moneynb service answers hub users only")
        if not check_scopes(self.scopes, set(user.get("scopes", []))):
            raise NotAllowed(
                f"this token may not use the {self.name} service (it needs the scope "
                f"access:services!service={self.name}: see docs/classroom.md)"
            )
        name = user["name"]
        return Caller(f"hub:{name}", await self.is_teacher(name))

    async def is_teacher(self, name: str) -> bool:
        if name in self.teachers:
            return True
        if not self.teacher_group:
            return False
        at, members = self._group
        if time.monotonic() - at > GROUP_TTL:
            members = await self._group_members()
            self._group = (time.monotonic(), members)
        return name in members

    async def _group_members(self) -> frozenset[str]:
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError

        url = f"{self.hub_auth.api_url.rstrip('/')}/groups/{self.teacher_group}"
        try:
            r = await AsyncHTTPClient().fetch(
                url, headers={"Authorization": f"token {self.hub_auth.api_token}"}
            )
        except (HTTPClientError, OSError) as e:
            log.warning("cannot read the hub group %s: %s", self.teacher_group, e)
            return frozenset()
        return frozenset(json.loads(r.body).get("users", []))

    # ----- calls ------------------------------------------------------------------------------
    async def call(self, name: str, caller: Caller, args: dict):
        """Run method ``name`` for ``caller`` in a worker thread; wake the watchers after a
        write. Returns the JSON-able result."""
        c = Call(self.store, caller, args, self.games)
        result = await asyncio.get_running_loop().run_in_executor(self.pool, run, name, c)
        method = METHODS[name]
        if method.writes:
            gid = args.get("game_id") if name not in ("create", "import_json") else result
            self.bump(gid if isinstance(gid, str) else None)
        return result

    def bump(self, game_id: str | None) -> None:
        """A write happened (to ``game_id``): wake its watchers and the store's."""
        for key in ("*", game_id) if game_id else ("*",):
            self.versions[key] = self.versions.get(key, 0) + 1
            ev = self.events.pop(key, None)
            if ev is not None:
                ev.set()

    async def watch(self, caller: Caller, game_id: str | None, since: int | None,
                    timeout: float) -> dict:  # fmt: skip
        """Wait until ``game_id`` (None: anything) has a version other than ``since``."""
        key = "*"
        if game_id:
            await self.call("count", caller, {"game_id": game_id})  # member or NoSuchGame
            key = game_id
        end = time.monotonic() + max(0.0, min(timeout, MAX_WAIT))
        while True:
            v = self.versions.get(key, 0)
            if since is not None and v != since:
                return {"version": v, "changed": True}
            left = end - time.monotonic()
            if since is None or left <= 0:
                return {"version": v, "changed": False}
            ev = self.events.setdefault(key, asyncio.Event())
            try:
                await asyncio.wait_for(ev.wait(), left)
            except TimeoutError:
                pass


# ----- HTTP -------------------------------------------------------------------------------------
_STATUS = [
    (ConflictError, 409),
    (SeatTaken, 409),
    (NoSuchGame, 404),
    (NotAllowed, 403),
    (StoreVersionError, 503),
    (StoreUnavailable, 503),
    (StoreError, 400),
    (ValueError, 400),
    (TypeError, 400),
]


def error_body(e: Exception, hide: str = "") -> tuple[int, dict]:
    """The HTTP status and JSON body for an error raised by a call. ``hide``: the store's
    location (its URL without password), replaced in messages by "of the class": a
    student never learns where the database is (a store error's text names it)."""
    if hide and hide in str(e):
        e = _rewrap(e, str(e).replace(hide, "of the class"))
    for cls, code in _STATUS:
        if isinstance(e, cls):
            # the exact class when it is the store's (the kernel raises the same one), else
            # its category
            exact = type(e).__name__
            name = exact if isinstance(e, StoreError) and hasattr(_errors, exact) else cls.__name__
            body = {"error": name, "category": cls.__name__, "message": str(e)[:2000]}
            if isinstance(e, ConflictError):
                body.update(game_id=e.game_id, expected=e.expected, stored=e.stored)
            return code, body
    log.exception("moneynb service: unexpected error", exc_info=e)
    return 500, {"error": "StoreError", "message": f"the moneynb service failed: {e!r:.300}"}


def _rewrap(e: Exception, message: str) -> Exception:
    """``e``'s class with ``message`` (a plain StoreError when the class needs more)."""
    try:
        return type(e)(message)
    except TypeError:
        return StoreUnavailable(message) if isinstance(e, StoreUnavailable) else StoreError(message)


def make_app(service: Service, prefix: str = "/services/moneynb/"):
    """The tornado application of ``service`` under URL ``prefix``."""
    from tornado import web

    class Base(web.RequestHandler):
        def set_default_headers(self):
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "no-store")

        def reply(self, code: int, body: dict) -> None:
            self.set_status(code)
            self.finish(json.dumps(body))

        async def who(self) -> Caller | None:
            token = service.hub_auth.get_token(self, in_cookie=False)
            try:
                return await service.caller(token)
            except NotAllowed as e:
                self.reply(*error_body(e))
                return None

        def write_error(self, status_code, **kwargs):
            self.finish(json.dumps({"error": "HTTPError", "message": self._reason}))

    @web.stream_request_body
    class CallHandler(Base):
        def prepare(self):
            self.chunks: list[bytes] = []
            self.got = 0
            self.too_big = int(self.request.headers.get("Content-Length") or 0) > MAX_BODY

        def data_received(self, chunk: bytes):
            # an oversized body is read and dropped (so the client gets the answer, not a
            # reset connection), never kept
            self.got += len(chunk)
            self.too_big = self.too_big or self.got > MAX_BODY
            if self.too_big:
                self.chunks = []
            else:
                self.chunks.append(chunk)

        async def post(self, name: str):
            if self.too_big:
                return self.reply(413, {"error": "ValueError", "message": (
                    f"a request to the moneynb service is at most {MAX_BODY:,} bytes; nothing "
                    "was stored")})  # fmt: skip
            caller = await self.who()
            if caller is None:
                return
            try:
                try:
                    body = json.loads(b"".join(self.chunks) or b"{}")
                except RecursionError:
                    raise ValueError("the request's JSON is nested too deeply") from None
                args = body.get("args", {}) if isinstance(body, dict) else None
                if not isinstance(args, dict):
                    raise ValueError('the request body is {"args": {...}}')
                result = await service.call(name, caller, args)
            except Exception as e:  # noqa: BLE001 - every error becomes one JSON answer
                return self.reply(*error_body(e, service.store.shown))
            self.reply(200, {"result": result})

    class WhoAmI(Base):
        async def get(self):
            caller = await self.who()
            if caller is not None:
                self.reply(200, {"owner": caller.owner, "teacher": caller.teacher})

    class Watch(Base):
        async def get(self):
            caller = await self.who()
            if caller is None:
                return
            try:
                since = self.get_argument("since", None)
                result = await service.watch(
                    caller,
                    self.get_argument("game", None) or None,
                    None if since in (None, "") else int(since),
                    float(self.get_argument("timeout", "0")),
                )
            except Exception as e:  # noqa: BLE001 - one JSON answer
                return self.reply(*error_body(e, service.store.shown))
            self.reply(200, result)

    class Methods(Base):
        def get(self):
            self.reply(200, {"methods": {n: m.rule for n, m in METHODS.items()}})

    p = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    return web.Application(
        [
            (p + r"api/call/([a-z_]{1,40})", CallHandler),
            (p + "api/whoami", WhoAmI),
            (p + "api/watch", Watch),
            (p + "api/methods", Methods),
            (p + "?", Methods),  # the hub's "is it up" check
        ]
    )


def main() -> None:
    """``python -m moneynb.service``: serve at ``JUPYTERHUB_SERVICE_URL`` (see the module
    docstring for the configuration). Exits with a message when the store is not configured
    or cannot be opened."""
    from tornado.httpserver import HTTPServer
    from tornado.ioloop import IOLoop

    from ..store import open_store

    logging.basicConfig(level=logging.INFO, format="[moneynb service %(asctime)s] %(message)s")
    location = os.environ.get("MONEYNB_SERVICE_STORE", "").strip()
    if not location or location == "hub":
        raise SystemExit(
            "moneynb service: set MONEYNB_SERVICE_STORE (a postgresql:// URL or a SQLite file "
            "path) in the service's environment (docs/classroom.md)"
        )
    try:
        store = open_store(location)
    except StoreError as e:
        raise SystemExit(f"moneynb service: {e}") from None
    name = os.environ.get("JUPYTERHUB_SERVICE_NAME", "moneynb")
    service = Service(
        store,
        teachers=_names(os.environ.get("MONEYNB_TEACHERS", "")),
        teacher_group=os.environ.get("MONEYNB_TEACHER_GROUP", "").strip(),
        name=name,
    )
    url = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101"))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{name}/")
    # the body limit is the handler's (one clear JSON error); tornado's own is a safety net
    server = HTTPServer(make_app(service, prefix), max_body_size=64 * MAX_BODY, xheaders=True)
    server.listen(url.port or 80, url.hostname or "127.0.0.1")
    log.info("serving the game store %s at %s%s (teachers: %s%s)", store.shown,
             url.geturl().rstrip("/"), prefix, ", ".join(sorted(service.teachers)) or "none",
             f"; hub group {service.teacher_group}" if service.teacher_group else "")  # fmt: skip
    IOLoop.current().start()
