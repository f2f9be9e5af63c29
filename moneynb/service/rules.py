"""What each request to the moneynb service may do: ONE table, :data:`METHODS` (issue 35).

Every request names a :class:`~moneynb.store.Store` method and its arguments; the caller is the
hub user its token names (``"hub:<name>"``, :class:`Caller`), never a value in the request.
:data:`METHODS` maps each method name to a :class:`Method`: its authorization rule (one of
:data:`RULES`) and the function that runs it on the service's own store. A method not in the
table does not exist for a kernel (``backup``, migrations, ``close``...).

The rules (each raises :class:`~moneynb.store.NotAllowed` or, for a game the caller may not
see, :class:`~moneynb.store.NoSuchGame`, exactly as a missing game reads):

============  =====================================================================================
rule          who may call
============  =====================================================================================
anyone        any hub user whose token has ``access:services!service=moneynb``
self          anyone, but an ``owner`` argument must be the caller (a teacher may name anyone)
member        the game's owner, a holder of one of its seats, or a teacher
decider       the owner of the seat that must decide, for each action (a solo game: its owner);
              a bot seat's move only if it is exactly that bot's move (:func:`table_bot`); each
              action replayed and accepted by the engine first
solo-owner    the owner of a solo game (no join code); a table cannot be taken back
host          the table's owner (its host) or a teacher
teacher       a teacher (hub users / a hub group named in the service's configuration)
============  =====================================================================================

Besides its rule, a method may bound a rate: a person stores at most :data:`NEW_PER_MINUTE`
new games (tables, imports) and :data:`RESULTS_PER_MINUTE` lesson results a minute; a table
seat is one per person (a second claim at the same table is :class:`SeatTaken`).

Adding a method (e.g. a class helper's ``create_class`` / ``join_class`` / ``roster``) is one
entry: ``METHODS["roster"] = Method("teacher", lambda call: call.store.roster(...),
args=("class_id",))``. Source: issue 35; DESIGN.md ("the store behind a service").
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..store import ConflictError, NoSuchGame, NotAllowed, SeatTaken
from ..store.store import ANY, GameInfo

#: the authorization rules a :class:`Method` may name (see the module docstring)
RULES = ("anyone", "self", "member", "decider", "solo-owner", "host", "teacher")
#: longest JSON text of a lesson result's data
MAX_RESULT = 10_000
#: longest game id / text argument accepted
MAX_ID = 40
#: new games (and tables, imports) one person may store per minute; lesson results per minute
NEW_PER_MINUTE = 30
RESULTS_PER_MINUTE = 30
#: wrong join codes one person may try a minute (a right code costs nothing)
CODE_TRIES_PER_MINUTE = 20
#: the largest magnitude of a lesson result's ``value`` (dollars, turns, percents fit)
MAX_VALUE = 1e12
#: longest ``source`` (where a game was imported from: a file's path) accepted
MAX_SOURCE = 4096
#: the largest list a list method returns
MAX_LIST = 1000


class Rate:
    """At most ``per_minute`` events per key in any 60 s (a sliding window)."""

    def __init__(self, per_minute: int):
        self.per_minute = per_minute
        self._seen: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str, what: str, *, count: bool = True) -> None:
        """Count one event of ``key`` (``count`` False: only check that one more is allowed).
        Raises NotAllowed over the bound (nothing stored)."""
        import time

        now = time.monotonic()
        with self._lock:
            times = [t for t in self._seen.get(key, ()) if now - t < 60.0]
            if len(times) >= self.per_minute:
                self._seen[key] = times
                raise NotAllowed(
                    f"at most {self.per_minute} {what} a minute per person: wait a minute"
                )
            if count:
                times.append(now)
            self._seen[key] = times


NEW_GAMES = Rate(NEW_PER_MINUTE)
NEW_RESULTS = Rate(RESULTS_PER_MINUTE)
WRONG_CODES = Rate(CODE_TRIES_PER_MINUTE)


@dataclass
class Caller:
    """Who sent the request, as the hub says: ``owner`` ``"hub:<name>"``, ``teacher``."""

    owner: str
    teacher: bool


@dataclass
class Call:
    """One request: the service's ``store``, the :class:`Caller`, the ``args`` (a dict)."""

    store: Any
    caller: Caller
    args: dict
    games: GameCache = field(default=None)  # type: ignore[assignment]

    def arg(self, name: str, default: Any = ...) -> Any:
        if name in self.args:
            return self.args[name]
        if default is ...:
            raise ValueError(f"the request needs the argument {name!r}")
        return default

    def game_id(self) -> str:
        gid = self.arg("game_id")
        if not isinstance(gid, str) or not gid or len(gid) > MAX_ID:
            raise NoSuchGame(f"no stored game {gid!r:.60}")
        return gid

    def whole(self, name: str, low: int = 0, high: int = 2**31 - 1, default: Any = ...) -> Any:
        """Argument ``name``, a whole number in ``low..high`` (``default`` when absent).
        Raises ValueError (text, a float, a bool, out of range)."""
        v = self.arg(name, default)
        if v is default and default is not ...:
            return v
        if type(v) is not int or not low <= v <= high:
            raise ValueError(f"{name} is a whole number from {low} to {high}, got {v!r:.40}")
        return v

    def text(self, name: str, limit: int = 100, default: Any = ...) -> Any:
        """Argument ``name``, text of 1 to ``limit`` characters (``default`` when absent).
        Raises ValueError."""
        v = self.arg(name, default)
        if v is default and default is not ...:
            return v
        if not isinstance(v, str) or not 0 < len(v) <= limit:
            raise ValueError(f"{name} is text of 1 to {limit} characters, got {v!r:.40}")
        return v

    def own(self, name: str = "owner", *, optional: bool = True) -> str:
        """The ``owner`` argument, which must be the caller (a teacher may name anyone)."""
        who = self.args.get(name)
        if who is None or who is ANY:
            if optional:
                return self.caller.owner
            raise ValueError(f"the request needs the argument {name!r}")
        if who != self.caller.owner and not self.caller.teacher:
            raise NotAllowed(
                f"you are {self.caller.owner} on this hub: you cannot act as {str(who)[:60]!r}"
            )
        return who


@dataclass(frozen=True)
class Method:
    """One entry of :data:`METHODS`: the ``rule`` (a name in :data:`RULES`), the function
    ``run(call) -> JSON-able`` that checks the rule's details and calls the store, the ``args``
    it takes (any other argument is refused), and whether it ``writes`` (wakes watchers)."""

    rule: str
    run: Callable[[Call], Any]
    args: tuple = ()
    writes: bool = False

    def __post_init__(self):
        assert self.rule in RULES, self.rule


class GameCache:
    """The replayed game of recently written games (game id -> (count, game)), so that a move
    is checked without replaying the whole game each time. An entry is taken out while used."""

    def __init__(self, size: int = 256):
        self._d: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def take(self, gid: str, n: int):
        with self._lock:
            got = self._d.pop(gid, None)
        return got[1] if got is not None and got[0] == n else None

    def put(self, gid: str, game) -> None:
        with self._lock:
            self._d[gid] = (len(game.actions), game)
            while len(self._d) > self.size:
                self._d.popitem(last=False)

    def drop(self, gid: str) -> None:
        with self._lock:
            self._d.pop(gid, None)


# ----- helpers --------------------------------------------------------------------------------
def _member(call: Call, gid: str) -> GameInfo:
    """The game's info when the caller owns it, holds a seat or is a teacher; else NoSuchGame
    (another's game reads exactly as a missing one)."""
    info = call.store.info(gid)
    if call.caller.teacher or _is_member(info, call.caller.owner):
        return info
    raise NoSuchGame(f"no stored game {gid!r:.60}")


def _is_member(info: GameInfo, owner: str) -> bool:
    return info.owner == owner or any(s.owner == owner for s in info.seats)


def info_json(info: GameInfo, *, seed: bool = True) -> dict:
    """A :class:`GameInfo` as JSON (``seed`` False: the seed left out, as None)."""
    d = asdict(info)
    if not seed:
        d["seed"] = None
    return d


def _json_same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _status_arg(call: Call) -> dict | None:
    status = call.args.get("status")
    if status is not None and not isinstance(status, dict):
        raise ValueError("status must be a JSON object")
    if status and len(_strict_json(status, "a status line")) > MAX_RESULT:
        raise ValueError(f"a status line is at most {MAX_RESULT:,} characters of JSON")
    return status


def _strict_json(data, what: str) -> str:
    """``data`` as JSON text; NaN and infinities refused (ValueError): other clients than
    Python's cannot read them back."""
    try:
        return json.dumps(data, allow_nan=False)
    except ValueError:
        raise ValueError(f"{what} has a number that is not finite (NaN, infinity)") from None


def _table_status(game, sent: dict | None) -> dict:
    """A table's status line from the engine (issue 35): who moves, over, the leader, the
    board's status text; only ``person_moved`` is the kernel's. A player at a table cannot
    end it, crown themselves or name who moves in the teacher's view and the lists."""
    from ..ui.classroom import leader_of

    st = {"over": game.over, "to_move": "" if game.over else game.players[game.decision.player],
          "turn": _turn_text(game), "extra": {"leader": leader_of(game)}}  # fmt: skip
    if sent and "person_moved" in sent:
        st["person_moved"] = bool(sent["person_moved"])
    return st


_BOARDS: dict[str, Any] = {}
_BOARDS_LOCK = threading.Lock()


def _turn_text(game) -> str:
    """The board's status text of ``game`` (``BoardDrawing.status``, one board per game name,
    made once); "" when the board cannot say."""
    try:
        with _BOARDS_LOCK:
            board = _BOARDS.get(game.name)
            if board is None:
                from ..figures import drawing_for

                board = _BOARDS[game.name] = drawing_for(game)
            return str(board.status(game))[:200]
    except Exception:  # noqa: BLE001 - the status text is a courtesy, never an error
        return ""


# ----- the methods ----------------------------------------------------------------------------
def _create(call: Call) -> str:
    owner = call.own()
    NEW_GAMES.take(call.caller.owner, "new games")
    seats = call.args.get("seats")
    if seats is not None:
        if not isinstance(seats, list):
            raise ValueError("seats must be a list")
        for s in seats:
            if isinstance(s, dict) and s.get("owner") not in (None, owner):
                raise NotAllowed("a new game's seats can be given to you or to nobody")
    actions = call.args.get("actions") or []
    if not isinstance(actions, list):
        raise ValueError("actions must be a list")
    # the engine must accept the config (and every action of an import)
    from ..core.save import FORMAT, VERSION, loads

    config = call.arg("config")
    if not isinstance(config, dict):
        raise ValueError("config must be a JSON object")
    game = loads(json.dumps({"format": FORMAT, "version": VERSION, **config, "actions": actions}))
    status = _engine_over(game, _status_arg(call))
    table = call.args.get("table")
    if table is not None:  # a table's status line is the engine's, from its first write
        status = _table_status(game, status)
    return call.store.create(
        config,
        seats=seats,
        owner=owner,
        origin=call.args.get("origin", ""),
        table=table,
        actions=actions,
        status=status,
        source=call.text("source", MAX_SOURCE, default=None),
    )


def _import_json(call: Call) -> str:
    seats = call.args.get("seats")
    if isinstance(seats, list) and any(
        isinstance(s, dict) and s.get("owner") not in (None, call.caller.owner) for s in seats
    ):
        raise NotAllowed("an imported game's seats can be given to you or to nobody")
    text = call.arg("text")
    if not isinstance(text, str):
        raise ValueError("text must be a save file's JSON text")
    from ..core.save import loads

    status = _status_arg(call)
    game = loads(text)  # SaveFileError (a ValueError): the engine refuses the file
    NEW_GAMES.take(call.caller.owner, "new games")
    return call.store.import_json(
        text,
        owner=call.own(),
        origin=call.args.get("origin", "import"),
        seats=seats,
        source=call.text("source", MAX_SOURCE, default=None),
        status=_engine_over(game, status),
    )


def _engine_over(game, sent: dict | None) -> dict:
    """The status line a kernel sent, with ``over`` the engine's (the teacher's view and the
    lists read it: a student's kernel cannot store a game as ended that the engine says is
    not, nor the other way round)."""
    return {**(sent or {}), "over": game.over}


def _find_source(call: Call):
    gid = call.store.find_source(call.text("source", MAX_SOURCE))
    if gid is None:
        return None
    info = call.store.info(gid)
    return gid if info.owner == call.caller.owner else None


def _extend(call: Call, actions: list) -> int:
    """Check every action with the engine and the seat rule, then store them."""
    from ..core.save import loads
    from ..tables import table_bot

    gid = call.game_id()
    n = call.arg("n")
    if type(n) is not int or n < 0:
        raise ValueError(f"an action count is a whole number >= 0, got {n!r:.40}")
    if not isinstance(actions, list):
        raise ValueError("actions must be a list")
    info = _member(call, gid)
    if info.actions != n:
        raise ConflictError(gid, n, info.actions)
    game = call.games.take(gid, n)
    if game is None:
        game = loads(call.store.read(gid))
        if len(game.actions) != n:  # written in between
            raise ConflictError(gid, n, len(game.actions))
    me = call.caller.owner
    for i, action in enumerate(actions):
        d = game.decision
        if d is None:
            raise ValueError(f"action {n + i}: the game is over")
        seat = info.seats[d.player]
        if info.table is None:  # a solo game: its owner plays every seat (hot seat, bots)
            if info.owner != me:
                raise NotAllowed(f"this game is {info.owner}'s, not yours ({me})")
        elif seat.bot:
            want = table_bot(seat.kind, game, d.player).choose(game)
            if not _json_same(want, action):
                raise NotAllowed(
                    f"action {n + i}: {seat.name}'s seat is a bot's ({seat.kind}) and this is "
                    "not its move"
                )
        elif seat.owner != me:
            raise NotAllowed(
                f"action {n + i}: it is {seat.name}'s decision, and that seat is not yours ({me})"
            )
        game.apply(action)  # IllegalAction (a ValueError): the engine refuses it
    status = dict(_status_arg(call) or {})
    status["over"] = game.over  # the engine's, not the kernel's
    if game.decision is not None:
        status["to_move"] = game.players[game.decision.player]
    if info.table is not None:  # a table's whole status line is the engine's
        status = _table_status(game, status)
    new = call.store.extend(gid, n, actions, status=status)
    call.games.put(gid, game)
    return new


def _truncate(call: Call) -> int:
    gid = call.game_id()
    info = _member(call, gid)
    if info.table is not None:
        raise NotAllowed("a table's moves cannot be taken back")
    if info.owner != call.caller.owner:
        raise NotAllowed(f"this game is {info.owner}'s, not yours ({call.caller.owner})")
    from ..core.errors import IllegalAction
    from ..core.save import loads

    n, to = call.arg("n"), call.arg("to")
    if type(n) is not int or n < 0:
        raise ValueError(f"an action count is a whole number >= 0, got {n!r:.40}")
    status = _status_arg(call)
    if info.actions != n:
        raise ConflictError(gid, n, info.actions)
    game = call.games.take(gid, n)
    if game is None:
        game = loads(call.store.read(gid))
    if type(to) is int and 0 <= to < len(game.actions):
        # the stored game's undo policy, checked by the engine: under "safe" (the default) no
        # move is taken back past a die, spin or card already seen (a kernel's own options
        # could say "practice")
        try:
            game.undo_to(to)
        except IllegalAction as e:
            raise NotAllowed(str(e)) from None
        status = _engine_over(game, status)
    call.games.drop(gid)
    return call.store.truncate(gid, n, to, status=status)


def _set_status(call: Call) -> None:
    from ..core.save import loads

    gid = call.game_id()
    info = _member(call, gid)
    status = dict(_status_arg(call) or {})
    status.pop("over", None)  # only a move (checked by the engine) ends a game
    if status and info.table is not None:
        game = call.games.take(gid, info.actions)
        if game is None:
            game = loads(call.store.read(gid))
        status = _table_status(game, status)
        if len(game.actions) == info.actions:
            call.games.put(gid, game)
    if status:
        call.store.set_status(gid, status)


def _set_owner(call: Call) -> bool:
    gid = call.game_id()
    owner = call.own(optional=False)
    if call.args.get("only_if_unowned", True) is not True:
        raise NotAllowed("a game's owner is only set when it has none")
    return call.store.set_owner(gid, owner, only_if_unowned=True)


def _claim_seat(call: Call) -> dict:
    gid = call.game_id()
    info = call.store.info(gid)
    owner = call.own(optional=False)
    if info.table is None and not _is_member(info, call.caller.owner):
        raise NoSuchGame(f"no stored game {gid!r:.60}")
    seat = call.arg("seat")
    if type(seat) is not int or not 0 <= seat < len(info.seats):
        raise SeatTaken(f"this game has no seat {seat!r:.20}")
    if info.seats[seat].bot:
        raise SeatTaken(f"{info.seats[seat].name}'s seat is played by a bot")
    held = [s for s in info.seats if s.owner == owner and s.seat != seat and not s.bot]
    if held and info.table is not None:  # one seat per person at a table (issue 35, case 5)
        raise SeatTaken(
            f"you already hold {held[0].name}'s seat at this table: one seat per person"
        )
    return asdict(call.store.claim_seat(gid, seat, owner))


def _release_seat(call: Call) -> None:
    gid = call.game_id()
    info = _member(call, gid)
    seat = call.arg("seat")
    host = call.caller.teacher or info.owner == call.caller.owner
    if type(seat) is not int or not 0 <= seat < len(info.seats):
        raise SeatTaken(f"this game has no seat {seat!r:.20}")
    if call.args.get("owner") is None:  # the host's "free this seat"
        if not host:
            raise NotAllowed("only the table's host frees another's seat")
        call.store.release_seat(gid, seat)
    else:
        call.store.release_seat(gid, seat, owner=call.own())


def _set_seat_kind(call: Call) -> None:
    gid = call.game_id()
    info = _member(call, gid)
    if not (call.caller.teacher or info.owner == call.caller.owner):
        raise NotAllowed("only the table's host gives a seat to a bot or back")
    call.store.set_seat_kind(gid, call.whole("seat", 0, len(info.seats) - 1), call.arg("kind"))


def _read(call: Call) -> str:
    gid = call.game_id()
    if call.args.get("owner") is not None:
        call.own()
    _member(call, gid)
    return call.store.read(gid)


def _info(call: Call) -> dict:
    gid = call.game_id()
    if call.args.get("owner") is not None:
        call.own()
    return info_json(_member(call, gid))


def _list_args(call: Call, names: tuple) -> dict:
    """The filters of a list method, checked: ``game``/``origin`` text, ``over``/
    ``person_moved`` None or a bool, ``exclude`` a list of ids, ``limit`` 0..MAX_LIST."""
    kw = {k: call.args[k] for k in names if k in call.args}
    for k in ("game", "origin"):
        if kw.get(k) is not None:
            call.text(k, MAX_ID)
    for k in ("over", "person_moved"):
        if kw.get(k) is not None and not isinstance(kw[k], bool):
            raise ValueError(f"{k} is true, false or null, got {kw[k]!r:.40}")
    if "exclude" in kw and not (isinstance(kw["exclude"], list) and len(kw["exclude"]) <= MAX_LIST
                                and all(isinstance(e, str) for e in kw["exclude"])):  # fmt: skip
        raise ValueError("exclude is a list of game ids")
    limit = call.whole("limit", 0, MAX_LIST, default=None)
    kw["limit"] = MAX_LIST if limit is None else limit
    return kw


def _list_games(call: Call) -> list:
    kw = _list_args(call, ("game", "over", "origin", "person_moved", "exclude", "limit"))
    rows = call.store.list_games(call.own(optional=False), **kw)
    return [info_json(i) for i in rows]


def _list_seated(call: Call) -> list:
    kw = _list_args(call, ("over", "limit"))
    return [info_json(i) for i in call.store.list_seated(call.own(optional=False), **kw)]


def _list_table(call: Call) -> list:
    """Anyone with the join code sees the table's seats; its seed only a member."""
    table = call.arg("table")
    if not isinstance(table, str) or len(table) > MAX_ID:
        WRONG_CODES.take(call.caller.owner, "wrong join codes")
        return []
    me = call.caller.owner
    WRONG_CODES.take(me, "wrong join codes", count=False)  # a guesser waits, right or wrong
    rows = call.store.list_table(table)
    if not rows:
        WRONG_CODES.take(me, "wrong join codes")
    return [info_json(i, seed=call.caller.teacher or _is_member(i, me)) for i in rows]


def _list_all(call: Call) -> list:
    kw = _list_args(call, ("game", "over", "origin", "person_moved", "limit"))
    return [info_json(i) for i in call.store.list_all(**kw)]


def _post_result(call: Call) -> int:
    owner = call.own()
    data = call.arg("data")
    if not isinstance(data, dict):
        raise ValueError("a lesson result is a JSON object")
    lesson = call.text("lesson")
    if "value" in data:
        v = data["value"]
        if type(v) not in (int, float) or not abs(v) <= MAX_VALUE:  # NaN, inf: False
            raise ValueError(
                f"a result's value is a finite number of at most {MAX_VALUE:,.0f} either side "
                f"of 0, got {str(v)[:40]}"
            )
    if len(_strict_json(data, "a lesson result")) > MAX_RESULT:
        raise ValueError(f"a lesson result is at most {MAX_RESULT:,} characters of JSON")
    NEW_RESULTS.take(call.caller.owner, "lesson results")
    return call.store.post_result(lesson, owner, data)


def _results(call: Call) -> list:
    rows = call.store.results(call.text("lesson"))
    if not call.caller.teacher:  # a student sees the pooled values, and only their own name
        for r in rows:
            if r["owner"] != call.caller.owner:
                r["owner"] = None
    return rows


#: method name -> :class:`Method`: the service's whole API (see the module docstring)
METHODS: dict[str, Method] = {
    # creating (the owner is always the caller)
    "create": Method(
        "self",
        _create,
        ("config", "seats", "owner", "origin", "table", "actions", "status", "source"),
        writes=True,
    ),  # fmt: skip
    "import_json": Method(
        "self", _import_json, ("text", "owner", "origin", "seats", "source", "status"), writes=True
    ),  # fmt: skip
    "find_source": Method("self", _find_source, ("source",)),
    # moves
    "extend": Method(
        "decider",
        lambda c: _extend(c, c.arg("actions")),
        ("game_id", "n", "actions", "status"),
        writes=True,
    ),  # fmt: skip
    "append": Method(
        "decider",
        lambda c: _extend(c, [c.arg("action")]),
        ("game_id", "n", "action", "status"),
        writes=True,
    ),  # fmt: skip
    "truncate": Method("solo-owner", _truncate, ("game_id", "n", "to", "status"), writes=True),
    # reading one game
    "count": Method("member", lambda c: _member(c, c.game_id()).actions, ("game_id",)),
    "actions": Method(
        "member",
        lambda c: (
            _member(c, c.game_id()),
            c.store.actions(c.game_id(), c.whole("start", default=0)),
        )[1],
        ("game_id", "start"),
    ),  # fmt: skip
    "read": Method("member", _read, ("game_id", "owner")),
    "export_json": Method(
        "member", lambda c: (_read(c), c.store.export_json(c.game_id()))[1], ("game_id", "owner")
    ),  # fmt: skip
    "info": Method("member", _info, ("game_id", "owner")),
    # lists
    "list_games": Method(
        "self", _list_games, ("owner", "game", "over", "origin", "person_moved", "exclude", "limit")
    ),  # fmt: skip
    "list_seated": Method("self", _list_seated, ("owner", "over", "limit")),
    "list_table": Method("anyone", _list_table, ("table",)),
    "list_all": Method("teacher", _list_all, ("game", "over", "origin", "person_moved", "limit")),
    # status, owner, seats
    "set_status": Method("member", _set_status, ("game_id", "status"), writes=True),
    "set_owner": Method("self", _set_owner, ("game_id", "owner", "only_if_unowned"), writes=True),
    "claim_seat": Method("self", _claim_seat, ("game_id", "seat", "owner"), writes=True),
    "release_seat": Method("host", _release_seat, ("game_id", "seat", "owner"), writes=True),
    "set_seat_kind": Method("host", _set_seat_kind, ("game_id", "seat", "kind"), writes=True),
    # lesson results
    "post_result": Method("self", _post_result, ("lesson", "owner", "data"), writes=True),
    "results": Method("anyone", _results, ("lesson",)),
    # the store itself
    "schema_version": Method("anyone", lambda c: c.store.schema_version()),
}


# ----- class sessions (issue 36) ------------------------------------------------------------
def _me(call: Call) -> str:
    """The caller, for a method acting on the caller's own class membership or the classes
    they teach: an ``owner`` argument must be absent or the caller (a teacher too: nobody
    joins, posts or teaches for someone else)."""
    who = call.args.get("owner")
    if who is not None and who != call.caller.owner:
        raise NotAllowed(
            f"you are {call.caller.owner} on this hub: you cannot act as {str(who)[:60]!r}"
        )
    return call.caller.owner


def _class_id(call: Call) -> str:
    from ..store import NoSuchClass

    cid = call.arg("class_id")
    if not isinstance(cid, str) or not cid or len(cid) > MAX_ID:
        raise NoSuchClass(f"no class {cid!r:.60}")
    return cid


def _class_member(call: Call, cid: str):
    """The class's :class:`ClassInfo` when the caller teaches it or is on its roster (not
    removed); else NoSuchClass, exactly as a missing class reads."""
    from ..store import NoSuchClass

    info = call.store.get_class(class_id=cid)
    me = call.caller.owner
    if info.teacher == me or any(e.owner == me for e in call.store.roster(cid, ANY)):
        return info
    raise NoSuchClass(f"no class {cid!r:.60}")


def _by_code(call: Call, fn: Callable[[str], Any]) -> Any:
    """``fn(code)`` for a class code, wrong codes limited per person as a table's join codes
    (:data:`WRONG_CODES`: a guesser waits, right or wrong)."""
    from ..store import NoSuchClass

    me = call.caller.owner
    code = call.arg("code")
    if not isinstance(code, str) or not 0 < len(code) <= MAX_ID:
        WRONG_CODES.take(me, "wrong join codes")
        raise NoSuchClass(f"no class has the code {str(code)[:30]!r}: check the code on the board")
    WRONG_CODES.take(me, "wrong join codes", count=False)
    try:
        return fn(code)
    except NoSuchClass:
        WRONG_CODES.take(me, "wrong join codes")
        raise


def _get_class(call: Call) -> dict:
    if call.args.get("class_id") is not None:
        return asdict(_class_member(call, _class_id(call)))
    return asdict(_by_code(call, lambda code: call.store.get_class(code=code)))


def _current_run(call: Call) -> int:
    cid = _class_id(call)
    _class_member(call, cid)
    return call.store.current_run(cid, call.text("lesson"))


def _join_class(call: Call) -> dict:
    me, name = _me(call), call.text("name", 40)
    return asdict(_by_code(call, lambda code: call.store.join_class(code, me, name)))


def _post_class_result(call: Call) -> dict:
    owner = _me(call)
    lesson = call.text("lesson")
    v = call.arg("value")
    if type(v) not in (int, float) or not abs(v) <= MAX_VALUE:  # NaN, inf: False
        raise ValueError(
            f"a result is a finite number of at most {MAX_VALUE:,.0f} either side of 0, "
            f"got {str(v)[:40]}"
        )
    seed = call.args.get("seed")
    if seed is not None and (type(seed) is not int or not -(2**63) <= seed < 2**63):
        raise ValueError(f"a seed is a whole number (64 bits), got {str(seed)[:40]}")
    data = call.args.get("data")
    if data is not None:
        if not isinstance(data, dict):
            raise ValueError("a result's data is a JSON object")
        if len(_strict_json(data, "a lesson result")) > MAX_RESULT:
            raise ValueError(f"a lesson result is at most {MAX_RESULT:,} characters of JSON")
    NEW_RESULTS.take(call.caller.owner, "lesson results")
    return asdict(call.store.post_class_result(lesson, owner, v, seed=seed, data=data))


def _flag(call: Call, name: str) -> bool | None:
    v = call.args.get(name)
    if v is not None and not isinstance(v, bool):
        raise ValueError(f"{name} is true, false or null, got {str(v)[:40]}")
    return v


def _checked(call: Call) -> dict:
    """The optional arguments of a teacher's class method, each checked for its type."""
    kw = {}
    for name in ("removed", "all_runs", "tables"):
        if name in call.args:
            kw[name] = _flag(call, name)
            if name != "tables" and kw[name] is None:
                kw[name] = False
    if "limit" in call.args:  # None: all (a class's games, its teacher's classes)
        kw["limit"] = call.whole("limit", 0, 10**6, default=None)
    if "offset" in call.args:
        kw["offset"] = call.whole("offset", 0, 10**9)
    for name, limit in (("lesson", 100), ("student", 100), ("name", 100), ("code", 20)):
        if name in call.args:
            kw[name] = None if call.args[name] is None else call.text(name, limit)
    if "seat" in call.args:
        kw["seat"] = call.whole("seat", 0, 99)
    return kw


def _teaching(fn: Callable) -> Callable[[Call], Any]:
    """A teacher-only class method: its checked arguments, and ``owner`` always the caller,
    so the store checks the caller is the teacher who opened the class
    (:class:`~moneynb.store.NotClassTeacher` otherwise)."""

    def go(call: Call):
        return fn(call, owner=_me(call), **_checked(call))

    return go


def _class_games(call: Call, **kw) -> list:
    return [info_json(i) for i in call.store.class_games(_class_id(call), **kw)]


def _close_table(call: Call, **kw) -> None:
    call.games.drop(call.game_id())
    call.store.close_table(call.game_id(), **kw)


_CLASS_TEACHER = {
    "open_class": (lambda c, **kw: asdict(c.store.open_class(**kw)), ("name", "owner", "code"),
                   True),
    "classes": (lambda c, **kw: [asdict(k) for k in c.store.classes(**kw)], ("owner", "limit"),
                False),
    "roster": (lambda c, **kw: [asdict(e) for e in c.store.roster(_class_id(c), **kw)],
               ("class_id", "owner", "removed"), False),
    "remove_student": (lambda c, **kw: c.store.remove_student(_class_id(c), **kw),
                       ("class_id", "student", "owner"), True),
    "end_class": (lambda c, **kw: asdict(c.store.end_class(_class_id(c), **kw)),
                  ("class_id", "owner"), True),
    "class_games": (_class_games, ("class_id", "owner", "tables", "offset", "limit"), False),
    "count_class_games": (lambda c, **kw: c.store.count_class_games(_class_id(c), **kw),
                          ("class_id", "owner", "tables"), False),
    "give_seat": (lambda c, **kw: c.store.give_seat(c.game_id(), **kw),
                  ("game_id", "seat", "student", "owner"), True),
    "close_table": (_close_table, ("game_id", "owner"), True),
    "class_results": (lambda c, **kw: c.store.class_results(_class_id(c), **kw),
                      ("class_id", "owner", "lesson", "all_runs"), False),
    "lessons": (lambda c, **kw: c.store.lessons(_class_id(c), **kw), ("class_id", "owner"),
                False),
    "clear_run": (lambda c, **kw: c.store.clear_run(_class_id(c), **kw),
                  ("class_id", "lesson", "owner"), True),
}  # fmt: skip

#: the class-session methods (issue 36), merged into :data:`METHODS`: teacher-only ones (the
#: service's teachers; the store checks the caller opened that class), the caller's own
#: membership ("self": ``owner`` is always the caller), a class by code (anyone) or by id
#: (its teacher and students)
CLASS_METHODS: dict[str, Method] = {
    name: Method("teacher", _teaching(fn), args, writes=writes)
    for name, (fn, args, writes) in _CLASS_TEACHER.items()
}
CLASS_METHODS.update(
    {
        "get_class": Method("anyone", _get_class, ("class_id", "code")),
        "current_run": Method("anyone", _current_run, ("class_id", "lesson")),
        "class_of": Method(
            "self", lambda c: (lambda k: k and asdict(k))(c.store.class_of(_me(c))), ("owner",)
        ),  # fmt: skip
        "join_class": Method("self", _join_class, ("code", "owner", "name"), writes=True),
        "post_class_result": Method(
            "self", _post_class_result, ("lesson", "owner", "value", "seed", "data"), writes=True
        ),  # fmt: skip
        "my_result": Method(
            "self", lambda c: c.store.my_result(c.text("lesson"), _me(c)), ("lesson", "owner")
        ),  # fmt: skip
    }
)
METHODS.update(CLASS_METHODS)


def run(name: str, call: Call) -> Any:
    """Run method ``name`` of :data:`METHODS` for ``call``.

    Raises:
        NotAllowed: an unknown method, an argument it does not take, a teacher's method for a
            student, or its rule refuses.
        the store's errors (ConflictError, NoSuchGame, SeatTaken, ValueError...).
    """
    method = METHODS.get(name)
    if method is None:
        raise NotAllowed(f"the moneynb service has no method {name[:60]!r}")
    extra = set(call.args) - set(method.args)
    if extra:
        raise ValueError(f"{name} takes no argument {sorted(extra)[0][:60]!r}")
    if method.rule == "teacher" and not call.caller.teacher:
        raise NotAllowed(f"{name} is for teachers ({call.caller.owner} is not one on this hub)")
    return method.run(call)
