"""Class sessions from Python (issue 36): open a class, and export its results, roster and games.

The store keeps the class (:mod:`moneynb.store.classes`); the teacher's widget is
:func:`moneynb.classroom`, a student's is :func:`moneynb.join_class`. Without Jupyter::

    from moneynb import classes
    k = classes.open_class("Year 10 B, 3 Dec", owner="hub:teacher")   # a teacher only
    classes.results_frame(k.id, owner="hub:teacher")   # pandas: one row per result
    classes.roster_frame(k.id, owner="hub:teacher")    # pandas: one row per student
    classes.games_zip(k.id, owner="hub:teacher", path="class.zip")   # every game, JSON saves

CSV: ``results_frame(...).to_csv(index=False)`` (what the class view's buttons give). Times in
the frames are local date-times; values are the numbers the students posted; seeds are the
seeds their runs used. Source: issue 36.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile
from typing import Any

from .store import ANY, StoreError, open_store, teacher_passcode_ok

__all__ = [
    "NotATeacher",
    "open_class",
    "results_frame",
    "roster_frame",
    "games_zip",
    "results_csv",
    "roster_csv",
    "RESULT_COLUMNS",
    "ROSTER_COLUMNS",
]

#: the columns of :func:`results_frame`, in order
RESULT_COLUMNS = ["lesson", "run", "name", "value", "seed", "posted", "current", "owner"]
#: the columns of :func:`roster_frame`, in order
ROSTER_COLUMNS = ["name", "joined", "removed", "games", "tables", "last_lesson", "owner"]


class NotATeacher(PermissionError):
    """A teacher's action was asked for by someone who is not a teacher. Its message names the
    ways in for code (the ``passcode=`` argument, ``MONEYNB_TEACHERS``); :attr:`player_text`
    is what an app shows (issue 38: one sentence in the product's words)."""

    #: the refusal in the product's words (the app's form shows it; the message goes to the log)
    player_text = "Only a teacher can open this: that teacher passcode is not right."


def check_teacher(owner: str | None, passcode: str | None, store=None) -> None:
    """Raise :class:`NotATeacher` unless ``owner`` is a teacher or ``passcode`` is the teacher
    passcode (``MONEYNB_TEACHER_PASSCODE``, rate-limited per owner and server:
    :class:`moneynb.store.TooManyTries`). On a hub the store (the moneynb service) says who
    is a teacher and no passcode counts: nothing set in a student's kernel does (issue 35)."""
    st = open_store(store)
    hub = getattr(st, "dialect", "") == "hub"
    if not (
        st.is_teacher(owner)
        or (not hub and teacher_passcode_ok(passcode or "", owner=owner, store=st))
    ):
        raise NotATeacher(
            "this is for teachers: give the teacher passcode (passcode=...), or be a hub user "
            "named in MONEYNB_TEACHERS"
        )


def open_class(name: str, owner: str, passcode: str | None = None, store=None, code=None):
    """Open a class session taught by ``owner`` (see :meth:`moneynb.store.Store.open_class`);
    returns its :class:`~moneynb.store.ClassInfo` (``code`` is what students type).

    Raises:
        NotATeacher: ``owner`` is not a hub teacher and ``passcode`` is wrong.
        ValueError: an empty or over-long name. StoreError: the store cannot be written.
    """
    check_teacher(owner, passcode, store)
    return open_store(store).open_class(name, owner, code=code)


def _when(t: float | None):
    return None if t is None else dt.datetime.fromtimestamp(t).replace(microsecond=0)


def results_frame(class_id: str, owner: Any = ANY, store=None, all_runs: bool = True):
    """The class's lesson results as a pandas DataFrame (:data:`RESULT_COLUMNS`), oldest
    first: ``current`` is True for the lesson's current run (False: a run the teacher
    cleared). Teacher-only (``owner``: the class's teacher; ``ANY`` skips the check).
    Raises :class:`moneynb.store.NotClassTeacher`, :class:`moneynb.store.NoSuchClass`."""
    import pandas as pd

    st = open_store(store)
    rows = st.class_results(class_id, owner, all_runs=all_runs)
    runs = st.lessons(class_id, owner)
    out = [
        {"lesson": r["lesson"], "run": r["run"], "name": r["name"], "value": r["value"],
         "seed": r["seed"], "posted": _when(r["at"]), "current": r["run"] == runs.get(r["lesson"]),
         "owner": r["owner"]}
        for r in rows
    ]  # fmt: skip
    frame = pd.DataFrame(out, columns=RESULT_COLUMNS)
    return frame.astype({"run": "Int64", "seed": "Int64"})


def roster_frame(class_id: str, owner: Any = ANY, store=None):
    """The class's roster as a pandas DataFrame (:data:`ROSTER_COLUMNS`), in the order the
    students joined, removed students included (``removed`` True): ``games`` counts their
    solo games, ``tables`` the tables where they hold a seat. Teacher-only."""
    import pandas as pd

    st = open_store(store)
    roster = st.roster(class_id, owner, removed=True)
    games = st.class_games(class_id, owner, limit=None)
    out = []
    for e in roster:
        solo = sum(1 for g in games if g.table is None and g.owner == e.owner)
        tables = sum(1 for g in games if g.table is not None
                     and any(s.owner == e.owner for s in g.seats))  # fmt: skip
        out.append({"name": e.name, "joined": _when(e.joined), "removed": e.removed,
                    "games": solo, "tables": tables, "last_lesson": e.lesson,
                    "owner": e.owner})  # fmt: skip
    return pd.DataFrame(out, columns=ROSTER_COLUMNS)


def results_csv(class_id: str, owner: Any = ANY, store=None) -> str:
    """:func:`results_frame` as CSV text."""
    return results_frame(class_id, owner, store).to_csv(index=False)


def roster_csv(class_id: str, owner: Any = ANY, store=None) -> str:
    """:func:`roster_frame` as CSV text."""
    return roster_frame(class_id, owner, store).to_csv(index=False)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "game"


def games_zip(class_id: str, owner: Any = ANY, store=None, path=None) -> bytes:
    """Every game of the class as a zip of JSON saves (the format ``moneynb.load_game`` and
    ``moneynb.replay`` read): one file per game, named after its table code or its student,
    the game and its id, plus ``games.json`` (a list: file, id, game, table, student,
    players, actions, over, closed, and where its chance came from: practice (True: its dice
    were already seen, :attr:`moneynb.store.GameInfo.practice`), counted (False: practice,
    one student in several person seats or house rules, :attr:`moneynb.store.GameInfo.counted`),
    house_rules (the options that change the rules, ``{}`` for none), shared_seats (True: one
    student held several person seats), note (the teacher's row's plain words), branch_of,
    branch_at, chance). Returns the zip's bytes (also written to ``path`` when
    given). Teacher-only; the teacher's export includes tables still being played.

    Raises:
        StoreError: the store cannot be read (or the owner is not the class's teacher).
    """
    st = open_store(store)
    info = st.get_class(class_id=class_id)
    names = {e.owner: e.name for e in st.roster(class_id, owner, removed=True)}
    names.setdefault(info.teacher, "teacher")
    buf = io.BytesIO()
    index = []
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for g in st.class_games(class_id, owner, limit=None):
            who = f"table-{g.table}" if g.table else names.get(g.owner or "", "unknown")
            fname = f"{_slug(who)}-{g.game}-{g.id[:8]}.json"
            z.writestr(fname, st.read(g.id))
            index.append({"file": fname, "id": g.id, "game": g.game, "table": g.table,
                          "student": None if g.table else names.get(g.owner or ""),
                          "players": list(g.players), "actions": g.actions, "over": g.over,
                          "closed": g.closed is not None, "practice": g.practice,
                          "counted": g.counted, "house_rules": g.house_rules,
                          "shared_seats": bool(g.shared_seats), "note": g.class_note,
                          "branch_of": g.branch_of, "branch_at": g.branch_at,
                          "chance": g.chance})  # fmt: skip
        z.writestr("games.json", json.dumps({"class": info.name, "code": info.code,
                                              "games": index}, indent=1))  # fmt: skip
    data = buf.getvalue()
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return data


__all__ += ["check_teacher", "StoreError"]
