"""The teacher's view (issue 25): every table and solo game on the store, live.

``moneynb.classroom()`` shows one row per stored game, newest move first: the table's join
code (or "solo"), the game, the players (and which seats are bots), the turn, who is to move,
the leader, the action count and the time of the last move. A background thread waits on the
store's watcher and redraws (at most once every :data:`REDRAW_S` seconds). "Show read-only"
opens the chosen game as a :class:`~moneynb.ui.replay.ReplayView` at its last step, to project.

Only a teacher may open it: the hub user named in ``MONEYNB_TEACHERS``, or whoever gives the
passcode set in ``MONEYNB_TEACHER_PASSCODE`` when the server started
(:mod:`moneynb.store.identity`).

CSS classes: ``moneynb-classroom``, ``moneynb-classroom-list`` (the table; each row
``moneynb-classroom-row`` with ``data-id``, ``data-actions``), ``moneynb-classroom-choice``,
``moneynb-classroom-open``, ``moneynb-classroom-shown``, ``moneynb-classroom-note``.
"""

from __future__ import annotations

import html
import threading
import time

import ipywidgets as widgets

from ..core.errors import SaveFileError
from ..core.save import loads
from ..store import StoreError, open_store, teacher_passcode_ok
from ..store.store import follow
from .a11y import ERROR_STYLE

__all__ = ["ClassroomView", "classroom", "NotATeacher"]

#: the least time between two redraws of the list (seconds)
REDRAW_S = 1.0


class NotATeacher(PermissionError):
    """The teacher's view was asked for by someone who is not a teacher."""


def leader_of(game) -> str:
    """The player(s) with the best score now (``game.scores()``, the engine's); "" when
    there are no scores or every player ties (no leader yet)."""
    scores = game.scores()
    if not scores:
        return ""
    best = max(scores.values())
    top = [p for p, v in scores.items() if v == best]
    return "" if len(top) == len(scores) > 1 else " and ".join(top)


class ClassroomView(widgets.VBox):
    """The live list of every game on ``store`` (see the module docstring).

    Args:
        store: a store or its location (None: the default).
        watch: redraw when the store changes (a background thread); False: call
            :meth:`redraw`.
        limit: most games listed (newest first).

    Raises:
        StoreError: the store cannot be opened.
    """

    def __init__(self, store=None, watch: bool = True, limit: int = 200):
        self._stop = threading.Event()
        self._thread = None
        super().__init__()
        self.add_class("moneynb-classroom")
        self.store = open_store(store)
        self.limit = limit
        self._leaders: dict[tuple[str, int], str] = {}
        self.infos: list = []
        self.list_html = widgets.HTML()
        self.list_html.add_class("moneynb-classroom-list")
        self.choice = widgets.Dropdown(description="Game", layout={"width": "auto"},
                                       style={"description_width": "initial"})  # fmt: skip
        self.choice.add_class("moneynb-classroom-choice")
        self.open_button = widgets.Button(description="Show read-only", icon="eye")
        self.open_button.add_class("moneynb-classroom-open")
        self.open_button.on_click(lambda _b: self.show_game(self.choice.value))
        self.note = widgets.HTML()
        self.note.add_class("moneynb-classroom-note")
        self.shown = widgets.VBox()
        self.shown.add_class("moneynb-classroom-shown")
        self.children = [
            widgets.HTML(
                "<b style='font-size:1.3em'>The class</b> (every table and game, "
                "newest move first; updates by itself)"
            ),  # fmt: skip
            self.list_html,
            widgets.HBox([self.choice, self.open_button]),
            self.note,
            self.shown,
        ]
        self.redraw()
        if watch:
            self._thread = threading.Thread(target=self._loop, daemon=True, name="moneynb-class")
            self._thread.start()

    def leader(self, info) -> str:
        """The leader of a stored game: its status (a table stores it), else by replay
        (remembered per game and action count)."""
        if "leader" in info.extra:
            return str(info.extra["leader"])
        key = (info.id, info.actions)
        if key not in self._leaders:
            try:
                self._leaders[key] = leader_of(loads(self.store.read(info.id)))
            except (StoreError, SaveFileError):
                self._leaders[key] = "?"
        return self._leaders[key]

    def rows(self) -> list[dict]:
        """One dict per listed game: ``id, code, game, players, turn, to_move, leader,
        actions, over, updated`` (Unix seconds)."""
        self.infos = self.store.list_all(limit=self.limit)
        out = []
        for i in self.infos:
            players = [s.name + (" (bot)" if s.bot else "") for s in i.seats] or list(i.players)
            out.append({
                "id": i.id, "code": i.table or "", "game": i.title, "players": players,
                "turn": i.turn, "to_move": "" if i.over else i.to_move,
                "leader": self.leader(i), "actions": i.actions, "over": i.over,
                "updated": i.updated,
            })  # fmt: skip
        return out

    def redraw(self) -> None:
        """Read the store and draw the list (a store failure: a note, the last list kept)."""
        try:
            rows = self.rows()
        except StoreError as e:
            self.note.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return
        self.note.value = ""
        cells = []
        for r in rows:
            when = time.strftime("%H:%M:%S", time.localtime(r["updated"]))
            state = "game over" if r["over"] else f"{r['to_move']} to move"
            cells.append(
                f"<tr class='moneynb-classroom-row' data-id='{html.escape(r['id'])}' "
                f"data-actions='{r['actions']}'>"
                + "".join(
                    f"<td style='padding:1px 8px'>{html.escape(str(v))}</td>"
                    for v in (
                        r["code"] or "solo",
                        r["game"],
                        ", ".join(r["players"]),
                        r["turn"],
                        state,
                        r["leader"],
                        r["actions"],
                        when,
                    )
                )  # fmt: skip
                + "</tr>"
            )
        head = "".join(f"<th style='text-align:left;padding:1px 8px'>{h}</th>" for h in (
            "Table", "Game", "Players", "Turn", "Now", "Leader", "Actions", "Last move"))  # fmt: skip
        self.list_html.value = (
            f"<table data-games='{len(rows)}'><tr>{head}</tr>{''.join(cells)}</table>"
            if rows else "<i>No games on the store yet.</i>"
        )  # fmt: skip
        options = [
            (f"{r['code'] or 'solo'} · {r['game']} · {', '.join(r['players'])}", r["id"])
            for r in rows
        ]
        if [v for _, v in options] != [v for _, v in self.choice.options]:
            keep = self.choice.value
            self.choice.options = options
            ids = [v for _, v in options]
            self.choice.value = keep if keep in ids else (ids[0] if ids else None)

    def show_game(self, game_id: str | None):
        """Show game ``game_id`` read-only (a replay at its last step) under the list; returns
        the :class:`~moneynb.ui.replay.ReplayView` (None with a note when it cannot be read)."""
        from .replay import ReplayView

        if not game_id:
            return None
        try:
            text = self.store.read(game_id)
            # a table still being played is refused (LiveTable): projected, its replay
            # would show every seat's hidden cards (issue 35, case 2)
            view = ReplayView(text, step=len(loads(text).actions), coach=False,
                              store=self.store, game_id=game_id)  # fmt: skip
        except (StoreError, SaveFileError, ValueError) as e:
            self.note.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return None
        self.shown.children = [view]
        return view

    def _loop(self) -> None:
        def say(e: Exception) -> None:
            self.note.value = f"<span style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"

        follow(self.store, self._stop, self.redraw, on_error=say, wait_s=REDRAW_S,
               min_interval_s=REDRAW_S)  # fmt: skip

    def stop(self) -> None:
        """Stop following the store."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def close(self) -> None:
        self.stop()
        super().close()


def classroom(passcode: str | None = None, store=None, owner: str | None = None,
              watch: bool = True) -> ClassroomView:  # fmt: skip
    """The teacher's view of every game on the store (:class:`ClassroomView`).

    Args:
        passcode: the teacher passcode (``MONEYNB_TEACHER_PASSCODE``), unless the hub user is
            a teacher (``MONEYNB_TEACHERS``).
        store: the store (None: the default).
        owner: who asks (None: the hub user or this browser).

    Raises:
        NotATeacher: (a PermissionError) neither a teacher's hub user nor the right passcode.
        TooManyTries: (a StoreError) too many wrong passcodes: wait (not compared).
        StoreError: the store cannot be opened.
    """
    from .identity import current_owner

    who = owner or current_owner()
    st = open_store(store)
    # on a hub the service says who is a teacher (nothing set in this kernel counts)
    hub = getattr(st, "dialect", "") == "hub"
    if not (
        st.is_teacher(who)
        or (not hub and teacher_passcode_ok(passcode or "", owner=who, store=store))
    ):
        raise NotATeacher(
            "The teacher's view is for teachers: give the teacher passcode "
            "(moneynb.classroom(passcode=...)), or be a hub user named in MONEYNB_TEACHERS"
        )
    return ClassroomView(st, watch=watch)
