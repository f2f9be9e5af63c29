"""Class sessions in the store (issue 36): a class, its roster, lesson runs and typed results.

A teacher opens a class (:meth:`ClassMethods.open_class`: a name such as "Year 10 B, 3 Dec" and
a short code); students join it with the code and their name (:meth:`~ClassMethods.join_class`).
From then on every game a student (or the teacher) creates or takes a seat in belongs to that
class (``GameInfo.class_id``, set by the store itself), and their lesson results are posted to
it (:meth:`~ClassMethods.post_class_result`): one current result per student per run of a
lesson; a re-post replaces it (``Posted.replaced``). The teacher clears a run
(:meth:`~ClassMethods.clear_run`: a new run starts; the old one stays in the store and in the
exports), removes a student, gives a seat to another student, closes a table and ends the class
(nothing more can be added, everything stays readable).

Every method takes the ``owner`` who asks (an owner string, :mod:`moneynb.store.identity`), so a
service in front of the store can pass the authenticated user. Who may call what:

- **teacher-only** (the owner who opened the class; the store checks it and raises
  :class:`NotClassTeacher`): ``classes``, ``roster``, ``remove_student``, ``end_class``,
  ``class_games``, ``count_class_games``, ``give_seat``, ``close_table``, ``class_results``,
  ``clear_run``, ``lessons``. ``open_class`` is for a teacher too: the caller (the view, a
  service) checks :func:`moneynb.store.is_teacher` or the passcode first; the store does not
  know who is a teacher.
- **owner-only** (acts on the owner's own membership): ``class_of``, ``join_class``,
  ``post_class_result``, ``my_result``.
- **any member of the class** (or anyone holding the code): ``get_class``, ``current_run``.

Times are Unix seconds (UTC). Source: issue 36; DESIGN.md ("a class per lesson").
"""

from __future__ import annotations

import json
import math
import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .errors import ClassEnded, NoSuchClass, NotClassTeacher, NotInClass, SeatTaken, StoreError
from .identity import MAX_OWNER

#: characters of a class code (no 0/O, 1/I/L: read off a projector)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: length of a class code
CODE_LENGTH = 6
#: longest class name and student name
MAX_CLASS_NAME = 100
MAX_STUDENT_NAME = 40

class_metadata = sa.MetaData()
classes_table = sa.Table(
    "moneynb_classes",
    class_metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(MAX_CLASS_NAME), nullable=False),
    sa.Column("code", sa.String(20), nullable=False, unique=True),
    sa.Column("teacher", sa.String(MAX_OWNER), nullable=False, index=True),
    sa.Column("opened", sa.Float, nullable=False),
    sa.Column("ended", sa.Float, nullable=True),
)
roster_table = sa.Table(
    "moneynb_roster",
    class_metadata,
    sa.Column(
        "class_id",
        sa.String(40),
        sa.ForeignKey("moneynb_classes.id", ondelete="CASCADE"),
        primary_key=True,
    ),  # fmt: skip
    sa.Column("owner", sa.String(MAX_OWNER), primary_key=True, index=True),
    sa.Column("name", sa.String(MAX_STUDENT_NAME), nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Column("removed", sa.Boolean, nullable=False, default=False),
    sa.Column("lesson", sa.String(200), nullable=False, default=""),  # the last lesson step
    sa.Column("lesson_at", sa.Float, nullable=True),
)
runs_table = sa.Table(
    "moneynb_runs",
    class_metadata,
    sa.Column(
        "class_id",
        sa.String(40),
        sa.ForeignKey("moneynb_classes.id", ondelete="CASCADE"),
        primary_key=True,
    ),  # fmt: skip
    sa.Column("lesson", sa.String(100), primary_key=True),
    sa.Column("run", sa.Integer, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
)


@dataclass(frozen=True)
class ClassInfo:
    """A class session.

    Attributes:
        id: its id (unguessable). name: "Year 10 B, 3 Dec". code: what students type to join
        (:data:`CODE_LENGTH` characters). teacher: the owner who opened it. opened, ended:
        Unix seconds (``ended`` None while it is open).
    """

    id: str
    name: str
    code: str
    teacher: str
    opened: float
    ended: float | None

    @property
    def open(self) -> bool:
        """True until the class is ended."""
        return self.ended is None


@dataclass(frozen=True)
class RosterEntry:
    """A student of a class: ``owner`` (owner string), ``name`` (display name), ``joined``
    (Unix seconds), ``removed`` (the teacher removed them), ``lesson`` (their last lesson step,
    "dice-10: posted 3.4") and ``lesson_at``."""

    class_id: str
    owner: str
    name: str
    joined: float
    removed: bool
    lesson: str = ""
    lesson_at: float | None = None


@dataclass(frozen=True)
class Posted:
    """What :meth:`ClassMethods.post_class_result` stored: the result's ``id``, its
    ``class_id``, ``lesson``, ``run``, ``value``, ``seed``, and ``replaced`` (True when it
    replaced this student's earlier result of the same run)."""

    id: int
    class_id: str
    lesson: str
    run: int
    value: float
    seed: int | None
    replaced: bool


def result_value(value) -> float:
    """A lesson result as the store keeps it: a finite number (an ``int`` or ``float``; a
    ``bool`` or text that reads as a number is taken as that number).

    Raises:
        ValueError: not a number, or not finite (NaN, infinity). Source: issue 36."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"a result is a number, got {value!r:.40}") from None
    if not math.isfinite(v):
        raise ValueError(f"a result is a finite number, got {value!r}")
    return v


def _tables():
    from . import store

    return store


def _class(row) -> ClassInfo:
    return ClassInfo(row.id, row.name, row.code, row.teacher, row.opened, row.ended)


def _entry(row) -> RosterEntry:
    return RosterEntry(row.class_id, row.owner, row.name, row.joined, bool(row.removed),
                       row.lesson or "", row.lesson_at)  # fmt: skip


def _text(what: str, value, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > limit:
        raise ValueError(f"{what} is some text of at most {limit} characters, got {value!r:.60}")
    return " ".join(value.split())


def _owner(owner) -> str:
    if not isinstance(owner, str) or not owner or len(owner) > MAX_OWNER:
        raise ValueError(f"an owner string is needed (who asks), got {owner!r:.60}")
    return owner


class ClassMethods:
    """The class-session methods of :class:`moneynb.store.Store` (see the module docstring)."""

    # ----- helpers used inside the store's own transactions --------------------------------
    def _class_for_owners(self, c, owners) -> str | None:
        """The id of the newest open class any of ``owners`` (in that order) teaches or is on
        the roster of (not removed), or None."""
        for owner in owners:
            if owner:
                info = self._class_of(c, owner)
                if info is not None:
                    return info.id
        return None

    def _adopt(self, c, game_id: str, owner: str) -> None:
        """A game with no class joins ``owner``'s open class (a seat claimed, an owner set)."""
        g = _tables().games_table
        cid = self._class_of(c, owner)
        if cid is not None:
            c.execute(
                sa.update(g).where(g.c.id == game_id, g.c.class_id.is_(None))
                .values(class_id=cid.id)
            )  # fmt: skip

    def _class_of(self, c, owner: str) -> ClassInfo | None:
        k, r = classes_table, roster_table
        on_roster = sa.select(r.c.class_id).where(r.c.owner == owner, r.c.removed.is_(False))
        row = c.execute(
            sa.select(k).where(k.c.ended.is_(None))
            .where(sa.or_(k.c.teacher == owner, k.c.id.in_(on_roster)))
            .order_by(k.c.opened.desc(), k.c.id).limit(1)
        ).first()  # fmt: skip
        return _class(row) if row is not None else None

    def _get_class(self, c, class_id: str) -> ClassInfo:
        row = c.execute(sa.select(classes_table).where(classes_table.c.id == class_id)).first()
        if row is None:
            raise NoSuchClass(f"no class {class_id!r:.60}")
        return _class(row)

    def _teacher_of(self, c, class_id: str, owner: Any, open_only: bool = False) -> ClassInfo:
        info = self._get_class(c, class_id)
        if owner is not _tables().ANY and info.teacher != owner:
            raise NotClassTeacher(
                f"only the teacher who opened the class {info.name!r} may do that"
            )
        if open_only and not info.open:
            raise ClassEnded(f"the class {info.name!r} has ended: nothing more can be changed")
        return info

    # ----- opening, joining, ending ---------------------------------------------------------
    def open_class(self, name: str, owner: str, code: str | None = None) -> ClassInfo:
        """Open a class session taught by ``owner`` (teacher-only: the caller checks that
        ``owner`` is a teacher). ``name``: e.g. "Year 10 B, 3 Dec" (at most
        :data:`MAX_CLASS_NAME` characters); ``code``: the join code (default: random,
        :data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET`).

        Raises:
            ValueError: an empty or over-long name, a code that is not 4-20 letters/digits.
            StoreError: the code is in use.
        """
        name = _text("a class name", name, MAX_CLASS_NAME)
        owner = _owner(owner)
        if code is not None:
            if not isinstance(code, str) or not code.isalnum() or not 4 <= len(code) <= 20:
                raise ValueError(f"a class code is 4-20 letters and digits, got {code!r:.40}")
            code = code.upper()

        def go():
            for _ in range(5):
                k = code or "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                row = {"id": secrets.token_urlsafe(16), "name": name, "code": k,
                       "teacher": owner, "opened": time.time(), "ended": None}  # fmt: skip
                try:
                    with self._write() as c:
                        c.execute(sa.insert(classes_table), [row])
                        self._notify(c, f"class:{row['id']}")
                    return ClassInfo(**row)
                except IntegrityError:
                    if code is not None:
                        raise StoreError(f"the class code {code!r} is already in use") from None
            raise StoreError("no free class code was found; try again")  # pragma: no cover

        return self._guarded("open the class", go)

    def get_class(self, class_id: str | None = None, code: str | None = None) -> ClassInfo:
        """The class with id ``class_id`` or join code ``code`` (any case). Raises
        :class:`NoSuchClass`."""

        def go():
            with self._read() as c:
                if class_id is not None:
                    return self._get_class(c, class_id)
                k = classes_table
                want = code.strip().upper() if isinstance(code, str) else None
                row = c.execute(sa.select(k).where(k.c.code == want)).first() if want else None
                if row is None:
                    raise NoSuchClass(
                        f"no class has the code {code!r:.30}: check the code on the board"
                    )
                return _class(row)

        return self._guarded("find the class", go)

    def classes(self, owner: Any, limit: int = 50) -> list[ClassInfo]:
        """The classes ``owner`` opened (``ANY``: everyone's), newest first."""

        def go():
            with self._read() as c:
                q = sa.select(classes_table)
                if owner is not _tables().ANY:
                    q = q.where(classes_table.c.teacher == owner)
                q = q.order_by(classes_table.c.opened.desc(), classes_table.c.id).limit(limit)
                return [_class(r) for r in c.execute(q)]

        return self._guarded("list the classes", go)

    def class_of(self, owner: str | None) -> ClassInfo | None:
        """The newest open class ``owner`` teaches or is on the roster of (not removed), or
        None (also for a None owner)."""
        if not owner:
            return None

        def go():
            with self._read() as c:
                return self._class_of(c, owner)

        return self._guarded("find your class", go)

    def join_class(self, code: str, owner: str, name: str) -> RosterEntry:
        """Put ``owner`` on the roster of the open class with join ``code`` as ``name``
        (joining again changes the name). Returns the roster entry.

        Raises:
            NoSuchClass: no class has that code. ClassEnded: the class has ended.
            StoreError: another student of the class has that name; the teacher removed this
                student; the owner is the class's teacher.
            ValueError: an empty or over-long name (at most :data:`MAX_STUDENT_NAME`).
        """
        name = _text("your name", name, MAX_STUDENT_NAME)
        owner = _owner(owner)
        info = self.get_class(code=code)
        r = roster_table

        def go():
            with self._write() as c:
                info2 = self._get_class(c, info.id)
                if not info2.open:
                    raise ClassEnded(f"the class {info.name!r} has ended: it cannot be joined")
                if info.teacher == owner:
                    raise StoreError("you teach this class: students join it, not its teacher")
                rows = {x.owner: x for x in c.execute(sa.select(r).where(r.c.class_id == info.id))}
                mine = rows.get(owner)
                if mine is not None and mine.removed:
                    raise StoreError(
                        f"the teacher removed you from {info.name!r}: ask them to add you again"
                    )
                for o, x in rows.items():
                    if o != owner and not x.removed and x.name.lower() == name.lower():
                        raise StoreError(
                            f"{name!r} is already in {info.name!r}: add your surname or initial"
                        )
                now = time.time()
                if mine is None:
                    c.execute(sa.insert(r).values(class_id=info.id, owner=owner, name=name,
                                                  joined=now, removed=False, lesson=""))  # fmt: skip
                else:
                    c.execute(sa.update(r).where(r.c.class_id == info.id, r.c.owner == owner)
                              .values(name=name))  # fmt: skip
                self._notify(c, f"class:{info.id}")
                row = c.execute(
                    sa.select(r).where(r.c.class_id == info.id, r.c.owner == owner)
                ).first()
                return _entry(row)

        return self._guarded("join the class", go)

    def roster(self, class_id: str, owner: Any, removed: bool = False) -> list[RosterEntry]:
        """The students of the class in the order they joined (``removed=True``: the removed
        ones too). Teacher-only."""

        def go():
            with self._read() as c:
                self._teacher_of(c, class_id, owner)
                q = sa.select(roster_table).where(roster_table.c.class_id == class_id)
                if not removed:
                    q = q.where(roster_table.c.removed.is_(False))
                q = q.order_by(roster_table.c.joined, roster_table.c.owner)
                return [_entry(x) for x in c.execute(q)]

        return self._guarded("read the roster", go)

    def remove_student(self, class_id: str, student: str, owner: Any) -> None:
        """Take ``student`` (an owner string) off the class's roster (their games and results
        stay, marked as theirs; they cannot join again). Teacher-only.
        Raises :class:`NotInClass` (no such student), :class:`ClassEnded`."""

        def go():
            with self._write() as c:
                self._teacher_of(c, class_id, owner, open_only=True)
                r = roster_table
                n = c.execute(
                    sa.update(r).where(r.c.class_id == class_id, r.c.owner == student)
                    .values(removed=True)
                ).rowcount  # fmt: skip
                if n != 1:
                    raise NotInClass(f"{student!r:.60} is not on this class's roster")
                self._notify(c, f"class:{class_id}")

        self._guarded("remove the student", go)

    def end_class(self, class_id: str, owner: Any) -> ClassInfo:
        """End the class: nothing more can be joined, posted or moved in its games (they are
        closed); everything stays readable and exportable. Teacher-only. Ending an ended class
        changes nothing."""

        def go():
            with self._write() as c:
                info = self._teacher_of(c, class_id, owner)
                if not info.open:
                    return info
                now = time.time()
                k, g = classes_table, _tables().games_table
                c.execute(sa.update(k).where(k.c.id == class_id).values(ended=now))
                c.execute(sa.update(g).where(g.c.class_id == class_id, g.c.closed.is_(None))
                          .values(closed=now))  # fmt: skip
                self._notify(c, f"class:{class_id}")
                return self._get_class(c, class_id)

        return self._guarded("end the class", go)

    # ----- the class's games ---------------------------------------------------------------
    def class_games(self, class_id: str, owner: Any, tables: bool | None = None,
                    offset: int = 0, limit: int | None = 50) -> list:  # fmt: skip
        """The class's games (``GameInfo``), tables first when ``tables`` is None, then newest
        write first; ``tables``: True only tables, False only solo games; ``offset`` /
        ``limit`` page through them. Teacher-only."""
        g = _tables().games_table

        def go():
            with self._read() as c:
                self._teacher_of(c, class_id, owner)
                q = sa.select(g).where(g.c.class_id == class_id)
                if tables is not None:
                    q = q.where(g.c.table_code.is_not(None) if tables else g.c.table_code.is_(None))
                q = q.order_by(g.c.table_code.is_(None), g.c.updated.desc(), g.c.id)
                q = q.offset(max(0, int(offset)))
                if limit is not None:
                    q = q.limit(int(limit))
                return self._infos(c, list(c.execute(q)))

        return self._guarded("list the class's games", go)

    def count_class_games(self, class_id: str, owner: Any, tables: bool | None = None) -> int:
        """How many games :meth:`class_games` pages through. Teacher-only."""
        g = _tables().games_table

        def go():
            with self._read() as c:
                self._teacher_of(c, class_id, owner)
                q = sa.select(sa.func.count()).select_from(g).where(g.c.class_id == class_id)
                if tables is not None:
                    q = q.where(g.c.table_code.is_not(None) if tables else g.c.table_code.is_(None))
                return int(c.execute(q).scalar())

        return self._guarded("count the class's games", go)

    def _class_game(self, c, game_id: str, owner: Any):
        g = _tables().games_table
        row = c.execute(sa.select(g).where(g.c.id == game_id)).first()
        if row is None or row.class_id is None:
            from .errors import NoSuchGame

            raise NoSuchGame(f"no game {game_id!r:.60} in a class")
        self._teacher_of(c, row.class_id, owner, open_only=True)
        return row

    def give_seat(self, game_id: str, seat: int, student: str, owner: Any) -> None:
        """Give ``seat`` of a class's game to ``student`` (a student on the roster, or the
        teacher), whoever held it (a student on another laptop, a bot's seat made a person's
        again). Teacher-only.

        Raises:
            SeatTaken: no such seat, or ``student`` already holds another seat there.
            NotInClass: ``student`` is not on the roster. ClassEnded, NoSuchGame.
        """
        s, r = _tables().seats_table, roster_table

        def go():
            with self._write() as c:
                row = self._class_game(c, game_id, owner)
                on = c.execute(sa.select(r.c.owner).where(
                    r.c.class_id == row.class_id, r.c.owner == student, r.c.removed.is_(False)
                )).first()  # fmt: skip
                if on is None and student != self._get_class(c, row.class_id).teacher:
                    raise NotInClass(f"{student!r:.60} is not on this class's roster")
                other = c.execute(sa.select(s.c.seat).where(
                    s.c.game_id == game_id, s.c.owner == student, s.c.seat != seat)).first()  # fmt: skip
                if other is not None:
                    raise SeatTaken(f"that student already holds seat {other.seat + 1} here")
                n = c.execute(sa.update(s).where(s.c.game_id == game_id, s.c.seat == seat)
                              .values(owner=student, kind="human")).rowcount  # fmt: skip
                if n != 1:
                    raise SeatTaken(f"this game has no seat {seat!r}")
                self._notify(c, game_id)

        self._guarded("give the seat", go)

    def close_table(self, game_id: str, owner: Any) -> None:
        """Close a class's game: no more moves are stored (it stays readable). Teacher-only.
        Raises NoSuchGame, NotClassTeacher, ClassEnded."""
        g = _tables().games_table

        def go():
            with self._write() as c:
                self._class_game(c, game_id, owner)
                c.execute(sa.update(g).where(g.c.id == game_id, g.c.closed.is_(None))
                          .values(closed=time.time()))  # fmt: skip
                self._notify(c, game_id)

        self._guarded("close the table", go)

    # ----- lesson results ------------------------------------------------------------------
    def _run(self, c, class_id: str, lesson: str) -> int:
        row = c.execute(sa.select(runs_table.c.run).where(
            runs_table.c.class_id == class_id, runs_table.c.lesson == lesson)).first()  # fmt: skip
        return int(row.run) if row is not None else 1

    def current_run(self, class_id: str, lesson: str) -> int:
        """The current run of ``lesson`` in the class (1 until the teacher clears it)."""

        def go():
            with self._read() as c:
                return self._run(c, class_id, lesson)

        return self._guarded("read the run", go)

    def post_class_result(self, lesson: str, owner: str, value: float, seed: int | None = None,
                          data: dict | None = None) -> Posted:  # fmt: skip
        """Post ``owner``'s result ``value`` (a finite number) for ``lesson`` to their open
        class (:meth:`class_of`), in the lesson's current run: one current result per student
        per run, so a second post replaces the first (``Posted.replaced``). ``seed``: the seed
        the student's run used; ``data``: more JSON (at most 10,000 characters). Owner-only.

        Raises:
            NotInClass: ``owner`` is in no open class, or teaches it (the teacher does not
                post). ValueError: a bad lesson, value, seed or data.
        """
        from .store import _check_text

        _check_text("lesson", lesson, 100)
        if not isinstance(lesson, str) or not lesson.strip():
            raise ValueError("a lesson code is some text of at most 100 characters")
        owner = _owner(owner)
        v = result_value(value)
        if seed is not None and (type(seed) is not int or not -(2**63) <= seed < 2**63):
            raise ValueError(f"a seed is a whole number (64 bits), got {seed!r:.40}")
        text = json.dumps(data or {})
        if not isinstance(data or {}, dict) or len(text) > 10_000:
            raise ValueError("a result's data is a JSON object of at most 10,000 characters")
        res, r = _tables().results_table, roster_table

        def go():
            with self._write() as c:
                info = self._class_of(c, owner)
                if info is None:
                    raise NotInClass(
                        "you are in no open class: join your class first "
                        "(moneynb.join_class(code, name), or the app's form)"
                    )
                if info.teacher == owner:
                    raise NotInClass("the teacher's own results are not pooled with the class")
                run = self._run(c, info.id, lesson)
                where = (res.c.class_id == info.id, res.c.lesson == lesson, res.c.run == run,
                         res.c.owner == owner)  # fmt: skip
                old = c.execute(sa.select(res.c.id).where(*where)).first()
                values = {"at": time.time(), "data": text, "value": v, "seed": seed}
                if old is not None:
                    c.execute(sa.update(res).where(res.c.id == old.id).values(**values))
                    rid = int(old.id)
                else:
                    rid = int(c.execute(sa.insert(res).values(
                        class_id=info.id, lesson=lesson, run=run, owner=owner, **values
                    )).inserted_primary_key[0])  # fmt: skip
                c.execute(sa.update(r).where(r.c.class_id == info.id, r.c.owner == owner)
                          .values(lesson=f"{lesson}: posted {v:g}"[:200], lesson_at=values["at"]))  # fmt: skip
                self._notify(c, f"lesson:{info.id}:{lesson}")
                return Posted(rid, info.id, lesson, run, v, seed, old is not None)

        for attempt in (1, 2):  # two first posts of one student at once: the second updates
            try:
                return self._guarded("save the result", go)
            except StoreError as e:
                if attempt == 2 or not isinstance(e.__cause__, IntegrityError):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def class_results(self, class_id: str, owner: Any, lesson: str | None = None,
                      all_runs: bool = False) -> list[dict]:  # fmt: skip
        """The class's results (teacher-only), oldest first: ``{"id", "lesson", "run",
        "owner", "name", "value", "seed", "at", "data"}`` (``name``: the roster name). Only
        ``lesson``'s when given; only each lesson's current run unless ``all_runs``."""
        res, r = _tables().results_table, roster_table

        def go():
            with self._read() as c:
                self._teacher_of(c, class_id, owner)
                q = (
                    sa.select(res, r.c.name)
                    .select_from(res.outerjoin(r, sa.and_(r.c.class_id == res.c.class_id,
                                                          r.c.owner == res.c.owner)))
                    .where(res.c.class_id == class_id)
                    .order_by(res.c.id)
                )  # fmt: skip
                if lesson is not None:
                    q = q.where(res.c.lesson == lesson)
                runs = {x.lesson: x.run for x in c.execute(
                    sa.select(runs_table).where(runs_table.c.class_id == class_id))}  # fmt: skip
                out = []
                for x in c.execute(q):
                    if not all_runs and x.run != runs.get(x.lesson, 1):
                        continue
                    out.append({"id": x.id, "lesson": x.lesson, "run": x.run, "owner": x.owner,
                                "name": x.name or "", "value": x.value, "seed": x.seed,
                                "at": x.at, "data": json.loads(x.data)})  # fmt: skip
                return out

        return self._guarded("read the class's results", go)

    def lessons(self, class_id: str, owner: Any) -> dict[str, int]:
        """``{lesson: current run}`` of every lesson the class posted to. Teacher-only."""
        res = _tables().results_table

        def go():
            with self._read() as c:
                self._teacher_of(c, class_id, owner)
                names = c.execute(sa.select(res.c.lesson).where(res.c.class_id == class_id)
                                  .distinct()).scalars()  # fmt: skip
                return {n: self._run(c, class_id, n) for n in sorted(names)}

        return self._guarded("read the class's lessons", go)

    def clear_run(self, class_id: str, lesson: str, owner: Any) -> int:
        """Start a new run of ``lesson`` in the class: the histogram starts empty and every
        student may post again (the old run's results stay in the store and in the exports
        with their run number). Returns the new run. Teacher-only; raises ClassEnded."""
        from .store import _check_text

        _check_text("lesson", lesson, 100)

        def go():
            with self._write() as c:
                self._teacher_of(c, class_id, owner, open_only=True)
                run = self._run(c, class_id, lesson) + 1
                t = runs_table
                n = c.execute(sa.update(t).where(t.c.class_id == class_id, t.c.lesson == lesson)
                              .values(run=run, started=time.time())).rowcount  # fmt: skip
                if n == 0:
                    c.execute(sa.insert(t).values(class_id=class_id, lesson=lesson, run=run,
                                                  started=time.time()))  # fmt: skip
                self._notify(c, f"lesson:{class_id}:{lesson}")
                return run

        return self._guarded("clear the run", go)

    def my_result(self, lesson: str, owner: str) -> dict | None:
        """``owner``'s current result for ``lesson`` in their open class (``{"value", "seed",
        "run", "at"}``), or None. Owner-only."""
        res = _tables().results_table

        def go():
            with self._read() as c:
                info = self._class_of(c, owner)
                if info is None:
                    return None
                run = self._run(c, info.id, lesson)
                x = c.execute(sa.select(res).where(
                    res.c.class_id == info.id, res.c.lesson == lesson, res.c.run == run,
                    res.c.owner == owner)).first()  # fmt: skip
                return None if x is None else {"value": x.value, "seed": x.seed, "run": x.run,
                                               "at": x.at}  # fmt: skip

        return self._guarded("read your result", go)
