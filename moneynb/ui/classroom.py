"""The teacher's view of one class (issues 25 and 36), and a student's "join my class".

``moneynb.classroom()`` (or the app's "Teacher's view") shows the teacher's class session:

- **the class bar**: open a new class (a name such as "Year 10 B, 3 Dec"; the store makes a
  short code to write on the board) or open an earlier one; the class's name, code and state;
  "End the class" (nothing more can be joined, posted or moved; everything stays readable);
- **the roster**: each student's name, when they joined, and what they are doing now (their
  newest game and its turn, their table, their last lesson step);
- **the class's tables and games**, tables first, then the newest move first, a page at a time
  (:data:`PAGE`): the table's code or the student, the game, the players by name, the turn,
  who is to move (a finished game says "game over" and who won, from the engine), the leader
  (the engine's scores), the action count and the time of the last move; a **practice**
  game (:attr:`moneynb.store.GameInfo.practice`, as the store derived it when the game was
  made: "Continue from here" of a finished game, a seed used again, so its dice were already
  seen) is marked in plain words ("practice: replayed from a finished game at step 12, dice
  already seen"), and a branch with fresh dice says so.
  A game where one student plays several person seats (hot seat: they hold the winner and
  a loser, :attr:`~moneynb.store.GameInfo.shared_seats`) or played with house rules (a data
  file, ``max_turns``...: :attr:`~moneynb.store.GameInfo.house_rules`) says so on its row
  ("not counted: house rules: board file goal.toml");
- **standings**: each student's finished games and wins, counting only games played without
  foreknowledge, one person seat each, by the rulebook's rules
  (:attr:`~moneynb.store.GameInfo.counted`; the others are counted apart, never as results:
  :meth:`standings`);
- **actions**: remove a student, give a table's seat to another student, close a table, and
  "Watch live": a read-only board of the chosen game that follows its moves (for the
  projector: :class:`LiveGame`);
- **lessons**: each pooled lesson's current run, how many of the roster posted, the class
  mean, and "Clear the run" (a new, empty run; the old one stays in the exports);
- **exports**: the results and the roster as CSV, every game as JSON saves in a zip
  (download links; the same as :mod:`moneynb.classes` from Python).

A background thread follows the store and redraws at most every :data:`REDRAW_S` seconds.
Only a teacher may open it: the hub user named in ``MONEYNB_TEACHERS``, or whoever gives the
passcode ``MONEYNB_TEACHER_PASSCODE``. The class belongs to the owner who opened it (the hub
user, or this browser: :mod:`moneynb.ui.identity`).

A student joins with :func:`join_class` (``moneynb.join_class(code, name)`` in JupyterLab; the
app's form in Voila; on a hub the name defaults to the hub user's).

CSS classes (stable, for tests): ``moneynb-classroom``; ``moneynb-class-name`` /
``moneynb-class-open`` (new class), ``moneynb-class-earlier`` / ``moneynb-class-show``;
``moneynb-class-header`` (data-code, data-state); ``moneynb-class-end``;
``moneynb-class-roster`` (rows ``moneynb-class-student`` with data-name);
``moneynb-classroom-list`` (rows ``moneynb-classroom-row`` with data-id, data-actions,
data-leader, data-state, data-practice, data-counted; a practice game's row also
``moneynb-class-practice``, another game not counted ``moneynb-class-uncounted``),
``moneynb-class-standings`` (rows ``moneynb-class-standing`` with data-name, data-finished,
data-won, data-practice, data-uncounted), ``moneynb-class-prev`` / ``moneynb-class-next`` /
``moneynb-class-page``; ``moneynb-class-student-choice``, ``moneynb-class-remove``;
``moneynb-classroom-choice`` (a game), ``moneynb-class-seat``, ``moneynb-class-to``,
``moneynb-class-give``, ``moneynb-class-close``, ``moneynb-classroom-open`` (watch live);
``moneynb-class-lessons`` (rows data-lesson, data-posted), ``moneynb-class-lesson``,
``moneynb-class-clear``; ``moneynb-class-export-results``, ``moneynb-class-export-roster``,
``moneynb-class-export-games``, ``moneynb-class-downloads``; ``moneynb-classroom-note``,
``moneynb-classroom-shown``; a live view ``moneynb-live`` (status ``moneynb-live-status`` with
data-actions, data-leader).
"""

from __future__ import annotations

import base64
import html
import threading
import time

import ipywidgets as widgets

from ..classes import NotATeacher, check_teacher
from ..core.errors import SaveFileError
from ..core.save import loads
from ..store import StoreError, open_store
from ..store.store import follow
from .a11y import ERROR_STYLE

__all__ = ["ClassroomView", "LiveGame", "classroom", "join_class", "NotATeacher", "leader_of"]

#: the least time between two redraws of the view (seconds)
REDRAW_S = 1.0
#: games listed per page
PAGE = 12


def leader_of(game) -> str:
    """The player(s) with the best score now (``game.scores()``, the engine's); "" when
    there are no scores or every player ties (no leader yet)."""
    scores = game.scores()
    if not scores:
        return ""
    best = max(scores.values())
    top = [p for p, v in scores.items() if v == best]
    return "" if len(top) == len(scores) > 1 else " and ".join(top)


def default_class_name() -> str:
    """A name for today's class: "Class, 3 Dec"."""
    return "Class, " + time.strftime("%-d %b")


def _alert(text: str) -> str:
    return f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(text)}</span>"


def _cell(v) -> str:
    return f"<td style='padding:1px 8px'>{html.escape(str(v))}</td>"


def _head(*names) -> str:
    return "<tr>" + "".join(
        f"<th style='text-align:left;padding:1px 8px'>{h}</th>" for h in names) + "</tr>"  # fmt: skip


def _download(label: str, name: str, data: bytes, mime: str, css: str) -> str:
    b64 = base64.b64encode(data).decode()
    return (f"<a class='{css}' download='{html.escape(name)}' href='data:{mime};base64,{b64}' "
            f"style='margin-right:1em'>⬇ {html.escape(label)}</a>")  # fmt: skip


def _set_options(dropdown, options: list) -> None:
    """Set a dropdown's options, keeping its choice when it is still offered, else the first
    (a dropdown left on nothing would make its button do nothing)."""
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    if list(dropdown.options) == list(options):
        return
    keep = dropdown.value
    dropdown.options = options
    if values:
        dropdown.value = keep if keep in values else values[0]


def _named(players: str, info, names: dict) -> str:
    """``players`` ("You", "Ann and You") with each person's seat called "You" read as the
    roster name of the student holding it (a solo game's seats are its owner's)."""
    out = []
    for p in players.split(" and ") if players else []:
        seat = next((s for s in info.seats if s.name == p and not s.bot), None)
        holder = (
            None if seat is None else seat.owner or (info.owner if info.table is None else None)
        )
        out.append(names[holder] if p == "You" and holder in names else p)
    return " and ".join(out)


def _you(info, student: str):
    """``info`` with "You" (a solo game's person) in its status line read as ``student``."""
    import dataclasses

    if info.to_move == "You":
        return dataclasses.replace(info, to_move=student)
    return info


class LiveGame(widgets.VBox):
    """A read-only board of a stored game that follows its moves (the projector's view of a
    table): the game's own board (:func:`moneynb.ui.boards.board_for`, the boards' robust
    figure path) and a status line (turn, who is to move, leader). Never writes to the store.

    Args:
        store: the store. game_id: the game. watch: follow the store in a thread (False:
            call :meth:`catch_up`).

    Raises:
        StoreError, SaveFileError: the game cannot be read.
    """

    def __init__(self, store, game_id: str, watch: bool = True):
        from .boards import board_for

        self._stop = threading.Event()
        self._thread = None
        super().__init__()
        self.add_class("moneynb-live")
        self.store, self.game_id = store, game_id
        self.game = loads(store.read(game_id))
        self.board = board_for(self.game)
        self.board.update(self.game, list(self.game.log))
        self.status = widgets.HTML()
        self.status.add_class("moneynb-live-status")
        self.children = [self.status, self.board.widget()]
        self.board.release()
        self._lock = threading.Lock()
        self._say()
        if watch:
            self._thread = threading.Thread(target=self._loop, daemon=True, name="moneynb-live")
            self._thread.start()

    def catch_up(self) -> bool:
        """Apply the moves stored since the last call; True when the board changed."""
        with self._lock:
            n = self.store.count(self.game_id)
            have = len(self.game.actions)
            if n == have:
                self._say()
                return False
            if n < have:  # an undo: draw it again from the store
                self.game = loads(self.store.read(self.game_id))
                self.board.rewind(self.game)
                self.board.update(self.game, list(self.game.log))
            else:
                events = []
                for a in self.store.actions(self.game_id, start=have):
                    events += self.game.apply(a)
                self.board.update(self.game, events)
            self._say()
            return True

    def _say(self) -> None:
        g = self.game
        info = self.store.info(self.game_id)
        lead = leader_of(g)
        if g.over:
            now = f"game over · {g.winner} won" if getattr(g, "winner", None) else "game over"
        elif info.closed is not None:
            now = "closed by the teacher"
        else:
            now = f"{g.players[g.decision.player]} to move"
        turn = self.board.status(g)
        self.status.value = (
            f"<div data-actions='{len(g.actions)}' data-leader='{html.escape(lead)}' "
            f"style='font-size:1.2em'><b>LIVE</b> · {html.escape(info.table or 'solo game')} · "
            f"{html.escape(g.title)} · {html.escape(turn)}{' · ' if turn else ''}"
            f"{html.escape(now)} · leader: {html.escape(lead or 'none yet')} · "
            f"{len(g.actions)} actions</div>"
        )

    def _loop(self) -> None:
        def say(e: Exception) -> None:
            self.status.value = _alert(str(e))

        follow(self.store, self._stop, self.catch_up, on_error=say, wait_s=0.5,
               recheck_s=3.0, game_id=self.game_id)  # fmt: skip

    def stop(self) -> None:
        """Stop following the store."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def close(self) -> None:
        self.stop()
        super().close()


class ClassroomView(widgets.VBox):
    """The teacher's view of one class (see the module docstring).

    Args:
        store: a store or its location (None: the default).
        owner: the teacher's owner string (None: the hub user or this browser, once known).
        class_id: the class to show (None: the teacher's newest open class, if any).
        watch: redraw when the store changes (a background thread); False: call :meth:`redraw`.
        page_size: games per page.

    Raises:
        StoreError: the store cannot be opened.
    """

    def __init__(self, store=None, owner: str | None = None, class_id: str | None = None,
                 watch: bool = True, page_size: int = PAGE):  # fmt: skip
        from .identity import BrowserIdentity

        self._stop = threading.Event()
        self._thread = None
        self._watch = watch
        super().__init__()
        self.add_class("moneynb-classroom")
        self.store = open_store(store)
        self.owner = owner
        self.class_id = class_id
        self.page_size = page_size
        self.page = 0
        self.live: LiveGame | None = None
        self._replays: dict[tuple[str, int], tuple[str, str]] = {}
        self.infos: list = []
        self.identity = BrowserIdentity()
        W = widgets

        def btn(text, css, fn, icon=""):
            b = W.Button(description=text, icon=icon, layout={"width": "auto"})
            b.add_class(css)
            b.on_click(lambda _b: self._do(fn))
            return b

        def dd(text, css):
            d = W.Dropdown(description=text, layout={"width": "auto"},
                           style={"description_width": "initial"})  # fmt: skip
            d.add_class(css)
            return d

        self.class_name = W.Text(value=default_class_name(), description="New class",
                                 style={"description_width": "initial"})  # fmt: skip
        self.class_name.add_class("moneynb-class-name")
        self.open_button = btn("Open a new class", "moneynb-class-open", self.open_class, "plus")
        self.earlier = dd("Earlier classes", "moneynb-class-earlier")
        self.show_button = btn(
            "Open", "moneynb-class-show", lambda: self.show_class(self.earlier.value)
        )
        self.header = W.HTML()
        self.header.add_class("moneynb-class-header")
        self.end_button = btn("End the class", "moneynb-class-end", self.end_class, "stop")
        self.export_results = btn("Results (CSV)", "moneynb-class-export-results",
                                  lambda: self.export("results"), "download")  # fmt: skip
        self.export_roster = btn("Roster (CSV)", "moneynb-class-export-roster",
                                 lambda: self.export("roster"), "download")  # fmt: skip
        self.export_games = btn("Games (zip of saves)", "moneynb-class-export-games",
                                lambda: self.export("games"), "download")  # fmt: skip
        self.downloads = W.HTML()
        self.downloads.add_class("moneynb-class-downloads")
        self.roster_html = W.HTML()
        self.roster_html.add_class("moneynb-class-roster")
        self.student = dd("Student", "moneynb-class-student-choice")
        self.remove_button = btn("Remove from the class", "moneynb-class-remove", self.remove)
        self.list_html = W.HTML()
        self.list_html.add_class("moneynb-classroom-list")
        self.standings_html = W.HTML()
        self.standings_html.add_class("moneynb-class-standings")
        self.prev_button = btn("◀ Newer", "moneynb-class-prev", lambda: self.turn_page(-1))
        self.next_button = btn("Older ▶", "moneynb-class-next", lambda: self.turn_page(1))
        self.page_label = W.HTML()
        self.page_label.add_class("moneynb-class-page")
        self.choice = dd("Game", "moneynb-classroom-choice")
        self.choice.observe(lambda _c: self._seats(), "value")
        self.watch_button = btn("Watch live", "moneynb-classroom-open",
                                lambda: self.show_game(self.choice.value), "eye")  # fmt: skip
        self.close_button = btn("Close the table", "moneynb-class-close", self.close_table)
        self.seat = dd("Seat", "moneynb-class-seat")
        self.to = dd("to", "moneynb-class-to")
        self.give_button = btn("Give the seat", "moneynb-class-give", self.give_seat)
        self.lessons_html = W.HTML()
        self.lessons_html.add_class("moneynb-class-lessons")
        self.lesson = dd("Lesson", "moneynb-class-lesson")
        self.clear_button = btn("Clear the run", "moneynb-class-clear", self.clear_run)
        self.note = W.HTML()
        self.note.add_class("moneynb-classroom-note")
        self.shown = W.VBox()
        self.shown.add_class("moneynb-classroom-shown")
        self.class_box = W.VBox([
            self.header,
            W.HBox([self.end_button, self.export_results, self.export_roster, self.export_games]),
            self.downloads,
            W.HTML("<b>Roster</b>"), self.roster_html,
            W.HBox([self.student, self.remove_button]),
            W.HTML("<b>Tables and games</b>"), self.list_html,
            W.HBox([self.prev_button, self.page_label, self.next_button]),
            W.HBox([self.choice, self.watch_button, self.close_button]),
            W.HBox([self.seat, self.to, self.give_button]),
            W.HTML("<b>Standings</b>"), self.standings_html,
            W.HTML("<b>Lessons</b>"), self.lessons_html,
            W.HBox([self.lesson, self.clear_button]),
        ])  # fmt: skip
        self.children = [
            self.identity,
            W.HTML("<b style='font-size:1.3em'>The class</b> (updates by itself)"),
            W.HBox([self.class_name, self.open_button]),
            W.HBox([self.earlier, self.show_button]),
            self.note,
            self.class_box,
            self.shown,
        ]
        if self.owner:
            self._owner_known(self.owner)
        else:
            self.class_box.layout.display = "none"
            self.identity.on_owner(self._owner_known)

    # ----- owner, class --------------------------------------------------------------------
    def _owner_known(self, owner: str) -> None:
        self.owner = owner
        if self.class_id is None:
            try:
                mine = [k for k in self.store.classes(owner) if k.open]
            except StoreError as e:
                self.note.value = _alert(str(e))
                mine = []
            self.class_id = mine[0].id if mine else None
        self.redraw()
        if self._watch and self._thread is None:
            self._thread = threading.Thread(target=self._loop, daemon=True, name="moneynb-class")
            self._thread.start()

    def _do(self, fn) -> None:
        """Run a button's action: a refusal is one message, nothing else changes."""
        self.note.value = ""
        try:
            fn()
        except (StoreError, ValueError, SaveFileError) as e:
            self.note.value = _alert(str(e))

    def open_class(self, name: str | None = None):
        """Open a new class named ``name`` (default: the name box) taught by this view's owner
        and show it; returns its :class:`~moneynb.store.ClassInfo`."""
        if not self.owner:
            raise ValueError("this browser has not said who it is yet: try again in a moment")
        info = self.store.open_class(name if name is not None else self.class_name.value,
                                     self.owner)  # fmt: skip
        self.show_class(info.id)
        return info

    def show_class(self, class_id: str | None) -> None:
        """Show the class ``class_id`` (one of this teacher's)."""
        if not class_id:
            return
        self.class_id = class_id
        self.page = 0
        self.downloads.value = ""
        self.redraw()

    def end_class(self) -> None:
        """End the shown class (see :meth:`moneynb.store.Store.end_class`)."""
        if self.class_id:
            self.store.end_class(self.class_id, self.owner)
            self.redraw()

    # ----- reading -------------------------------------------------------------------------
    def _replayed(self, info) -> tuple[str, str]:
        """(leader, winner) of a stored game from the engine (remembered per game and count)."""
        key = (info.id, info.actions)
        if key not in self._replays:
            try:
                g = loads(self.store.read(info.id))
                self._replays[key] = (leader_of(g), str(g.winner or "") if g.over else "")
            except (StoreError, SaveFileError):
                self._replays[key] = ("?", "")
        return self._replays[key]

    def leader(self, info) -> str:
        """The leader of a stored game: the engine's scores after a replay (remembered per
        game and action count)."""
        return self._replayed(info)[0]

    def rows(self) -> list[dict]:
        """One dict per game of the class (all pages): ``id, code, student, game, players,
        turn, state, leader, actions, over, closed, updated, seats, practice, note, winner,
        solo, counted, house_rules, shared_seats`` (``counted``, ``house_rules`` and
        ``shared_seats`` as :attr:`GameInfo.counted` and its parts: the store's rule)."""
        if not self.class_id:
            self.infos = []
            return []
        names = {e.owner: e.name for e in self.store.roster(self.class_id, self.owner, True)}
        self.infos = self.store.class_games(self.class_id, self.owner, limit=None)
        out = []
        for i in self.infos:
            players = []
            for s in i.seats or ():
                holder = s.owner or (i.owner if i.table is None else None)  # solo: the owner's
                if s.bot:
                    players.append(f"{s.name} (bot)")
                elif holder in names and names[holder] != s.name:
                    players.append(
                        names[holder] if s.name == "You" else f"{s.name} ({names[holder]})"
                    )
                else:
                    players.append(s.name)
            leader = _named(self.leader(i), i, names)
            student = names.get(i.owner or "", "")
            if i.table is None and student:  # a solo game's "You" is the student
                i = _you(i, student)
            winner = ""
            if i.over:
                winner = self._replayed(i)[1]
                state, turn = (f"game over · {winner} won" if winner else "game over"), "finished"
            elif i.closed is not None:
                state, turn = "closed", i.turn
            else:
                state, turn = (f"{i.to_move} to move" if i.to_move else ""), i.turn
            note = i.class_note
            if note:  # the store's plain words: practice (dice already seen), a branch, one
                # player in several seats, house rules
                state = f"{state} · {note}" if state else note
            out.append({
                "id": i.id, "code": i.table or "", "student": names.get(i.owner or "", ""),
                "owner": i.owner, "game": i.title, "players": players or list(i.players),
                "turn": turn, "state": state, "leader": leader, "actions": i.actions,
                "over": i.over, "closed": i.closed is not None, "updated": i.updated,
                "seats": i.seats, "practice": i.practice, "note": note, "winner": winner,
                "solo": i.table is None, "person_seats": i.person_seats(), "counted": i.counted, "house_rules": i.house_rules,
                "shared_seats": bool(i.shared_seats),
            })  # fmt: skip
        return out

    def standings(self, rows: list[dict], roster) -> list[dict]:
        """Each student's finished games and wins, counting only the games the store counts
        as results (:attr:`GameInfo.counted`): a practice game (:attr:`GameInfo.practice`:
        replayed from a finished game, a seed used again, whose dice were already seen) is
        counted apart as ``practice``; a game where one student holds several person seats
        (hot seat: they hold the winner and a loser) or played with house rules (a data
        file, ``max_turns``...: :attr:`GameInfo.house_rules`) is counted apart as
        ``uncounted``, finished or not, never as a result. One dict per roster entry:
        ``name, owner, finished, won, practice, uncounted``."""
        out = []
        for e in roster:
            finished = won = practice = uncounted = 0
            for r in rows:
                held = [name for name, holder in r["person_seats"] if holder == e.owner]
                if not held:
                    continue
                if r["practice"]:
                    practice += 1
                elif not r["counted"]:
                    uncounted += 1
                elif r["over"]:
                    finished += 1
                    won += bool(r["winner"]) and r["winner"] in held
            out.append({"name": e.name, "owner": e.owner, "finished": finished, "won": won,
                        "practice": practice, "uncounted": uncounted})  # fmt: skip
        return out

    def doing(self, rows: list[dict], roster) -> dict[str, str]:
        """What each student (owner) is doing now: their newest unfinished game (game and
        turn) or table, and their last lesson step."""
        out: dict[str, str] = {}
        for e in roster:
            mine = [r for r in rows if not r["over"] and not r["closed"]
                    and (r["owner"] == e.owner and not r["code"]
                         or any(s.owner == e.owner for s in r["seats"]))]  # fmt: skip
            parts = []
            if mine:
                r = mine[0]  # newest move first
                where = f"table {r['code']}" if r["code"] else "solo"
                parts.append(f"{r['game']} ({where}){', ' + r['turn'] if r['turn'] else ''}")
            if e.lesson and (not mine or (e.lesson_at or 0) >= mine[0]["updated"]):
                parts.insert(0, f"lesson {e.lesson}")
            out[e.owner] = "; ".join(parts) or "—"
        return out

    # ----- drawing -------------------------------------------------------------------------
    def redraw(self) -> None:
        """Read the store and draw the view (a store failure: a note, the last drawing kept)."""
        try:
            self._redraw()
        except StoreError as e:
            self.note.value = _alert(str(e))

    def _redraw(self) -> None:
        if not self.owner:
            return
        mine = self.store.classes(self.owner)
        opts = [(f"{k.name} · {k.code}{'' if k.open else ' (ended)'}", k.id) for k in mine]
        if [v for _, v in opts] != [v for _, v in self.earlier.options]:
            _set_options(self.earlier, opts)
        if not self.class_id:
            self.class_box.layout.display = "none"
            self.header.value = ""
            return
        self.class_box.layout.display = None
        info = self.store.get_class(class_id=self.class_id)
        when = time.strftime("%H:%M", time.localtime(info.opened))
        state = (
            "open" if info.open else "ended " + time.strftime("%H:%M", time.localtime(info.ended))
        )
        self.header.value = (
            f"<div data-code='{info.code}' data-state='{'open' if info.open else 'ended'}' "
            f"data-class='{html.escape(info.id)}'>"
            f"<span style='font-size:1.4em'><b>{html.escape(info.name)}</b></span> · opened "
            f"{when} · {state}<br>Class code: <b style='font-size:2em;letter-spacing:0.15em'>"
            f"{info.code}</b></div>"
        )
        for b in (self.end_button, self.remove_button, self.give_button, self.close_button,
                  self.clear_button):  # fmt: skip
            b.disabled = not info.open
        roster = self.store.roster(self.class_id, self.owner)
        rows = self.rows()
        doing = self.doing(rows, roster)
        body = "".join(
            f"<tr class='moneynb-class-student' data-name='{html.escape(e.name)}'>"
            + _cell(e.name) + _cell(time.strftime("%H:%M", time.localtime(e.joined)))
            + _cell(doing[e.owner]) + "</tr>"
            for e in roster
        )  # fmt: skip
        self.roster_html.value = (
            f"<table data-students='{len(roster)}'>{_head('Name', 'Joined', 'Doing now')}"
            f"{body}</table>" if roster else
            f"<i>No students yet: they join with the code {info.code} and their name.</i>"
        )  # fmt: skip
        _set_options(self.student, [(e.name, e.owner) for e in roster])
        _set_options(
            self.to, [(e.name, e.owner) for e in roster] + [("me (the teacher)", self.owner)]
        )
        # the page of games
        pages = max(1, -(-len(rows) // self.page_size))
        self.page = min(self.page, pages - 1)
        shown = rows[self.page * self.page_size : (self.page + 1) * self.page_size]
        cells = []
        for r in shown:
            tds = (r["code"] or f"solo: {r['student'] or '?'}", r["game"], ", ".join(r["players"]),
                   r["turn"], r["state"], r["leader"], r["actions"],
                   time.strftime("%H:%M:%S", time.localtime(r["updated"])))  # fmt: skip
            practice = " moneynb-class-practice" if r["practice"] else ""
            if not r["counted"] and not r["practice"]:
                practice = " moneynb-class-uncounted"
            cells.append(
                f"<tr class='moneynb-classroom-row{practice}' data-id='{html.escape(r['id'])}' "
                f"data-actions='{r['actions']}' data-leader='{html.escape(r['leader'])}' "
                f"data-practice='{int(r['practice'])}' data-counted='{int(r['counted'])}' "
                f"data-state='{html.escape(r['state'])}'"
                + (" style='color:#6d4c41;font-style:italic'" if not r["counted"] else "") + ">"
                + "".join(_cell(v) for v in tds) + "</tr>"
            )  # fmt: skip
        self.list_html.value = (
            f"<table data-games='{len(rows)}'>"
            + _head("Table / student", "Game", "Players", "Turn", "Now", "Leader", "Actions",
                    "Last move") + "".join(cells) + "</table>"
            if rows else "<i>No games in this class yet.</i>"
        )  # fmt: skip
        table = self.standings(rows, roster)
        n_practice = sum(r["practice"] for r in rows)
        body = "".join(
            f"<tr class='moneynb-class-standing' data-name='{html.escape(t['name'])}' "
            f"data-finished='{t['finished']}' data-won='{t['won']}' "
            f"data-practice='{t['practice']}' data-uncounted='{t['uncounted']}'>"
            + _cell(t["name"]) + _cell(t["finished"]) + _cell(t["won"]) + _cell(t["practice"])
            + _cell(t["uncounted"]) + "</tr>"
            for t in table
        )  # fmt: skip
        self.standings_html.value = (
            f"<table data-practice='{n_practice}'>"
            + _head("Name", "Finished games", "Won", "Practice (not counted)",
                    "Hot seat or house rules (not counted)") + body
            + "</table><div style='font-size:0.9em'>Counted: games played without knowing "
            "their dice, by the rulebook's rules, one person seat each. Practice games "
            "(replayed from a finished game, or a seed used again: dice already seen), games "
            "where one student plays several people (hot seat: they hold the winner and a "
            "loser) and games with house rules (another board or cards file, fewer turns...) "
            "are listed above, marked, and not counted.</div>"
            if roster else ""
        )  # fmt: skip
        a = self.page * self.page_size
        self.page_label.value = f"games {a + 1}–{a + len(shown)} of {len(rows)}" if rows else ""
        self.prev_button.disabled = self.page == 0
        self.next_button.disabled = self.page >= pages - 1
        options = [(f"{r['code'] or 'solo: ' + (r['student'] or '?')} · {r['game']} · "
                    f"{', '.join(r['players'])}", r["id"]) for r in rows]  # fmt: skip
        if [v for _, v in options] != [v for _, v in self.choice.options]:
            keep = self.choice.value
            self.choice.options = options
            ids = [v for _, v in options]
            self.choice.value = keep if keep in ids else (ids[0] if ids else None)
        self._seats()
        # lessons
        lessons = self.store.lessons(self.class_id, self.owner)
        results = self.store.class_results(self.class_id, self.owner)
        lrows = []
        for name, run in lessons.items():
            vals = [x["value"] for x in results if x["lesson"] == name]
            mean = f"{sum(vals) / len(vals):.3g}" if vals else "—"
            lrows.append(
                f"<tr data-lesson='{html.escape(name)}' data-posted='{len(vals)}'>"
                + _cell(name) + _cell(run) + _cell(f"{len(vals)} of {len(roster)}") + _cell(mean)
                + "</tr>"
            )  # fmt: skip
        self.lessons_html.value = (
            "<table>" + _head("Lesson", "Run", "Posted", "Class mean") + "".join(lrows) + "</table>"
            if lrows else "<i>No lesson results yet.</i>"
        )  # fmt: skip
        if list(lessons) != [v for v in self.lesson.options]:
            _set_options(self.lesson, list(lessons))

    def _seats(self) -> None:
        info = next((i for i in self.infos if i.id == self.choice.value), None)
        opts = [] if info is None or info.table is None else [
            (f"seat {s.seat + 1}: {s.name}", s.seat) for s in info.seats]  # fmt: skip
        if opts != list(self.seat.options):
            _set_options(self.seat, opts)

    def turn_page(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) page of games."""
        self.page = max(0, self.page + step)
        self.redraw()

    # ----- actions -------------------------------------------------------------------------
    def remove(self, student: str | None = None) -> None:
        """Remove ``student`` (default: the chosen one) from the class."""
        student = student or self.student.value
        if student:
            self.store.remove_student(self.class_id, student, self.owner)
            self.redraw()

    def give_seat(self, game_id: str | None = None, seat: int | None = None,
                  student: str | None = None) -> None:  # fmt: skip
        """Give a table's seat to a student (defaults: the chosen game, seat and student)."""
        game_id = game_id or self.choice.value
        seat = self.seat.value if seat is None else seat
        student = student or self.to.value
        if game_id is None or seat is None or not student:
            raise ValueError("choose a table, a seat and a student first")
        self.store.give_seat(game_id, seat, student, self.owner)
        self.redraw()

    def close_table(self, game_id: str | None = None) -> None:
        """Close a game of the class (no more moves)."""
        game_id = game_id or self.choice.value
        if game_id:
            self.store.close_table(game_id, self.owner)
            self.redraw()

    def clear_run(self, lesson: str | None = None) -> int | None:
        """Start a new run of ``lesson`` (default: the chosen one); returns its number."""
        lesson = lesson or self.lesson.value
        if not lesson:
            return None
        run = self.store.clear_run(self.class_id, lesson, self.owner)
        self.redraw()
        return run

    def export(self, what: str) -> bytes:
        """Make the download link of ``what`` ("results", "roster" or "games") under the
        buttons; returns the file's bytes."""
        from .. import classes

        info = self.store.get_class(class_id=self.class_id)
        stem = "".join(c if c.isalnum() else "-" for c in info.name).strip("-") or info.code
        if what == "results":
            data = classes.results_csv(self.class_id, self.owner, self.store).encode()
            link = _download("results.csv", f"{stem}-results.csv", data, "text/csv",
                             "moneynb-class-download-results")  # fmt: skip
        elif what == "roster":
            data = classes.roster_csv(self.class_id, self.owner, self.store).encode()
            link = _download("roster.csv", f"{stem}-roster.csv", data, "text/csv",
                             "moneynb-class-download-roster")  # fmt: skip
        elif what == "games":
            data = classes.games_zip(self.class_id, self.owner, self.store)
            link = _download("games.zip", f"{stem}-games.zip", data, "application/zip",
                             "moneynb-class-download-games")  # fmt: skip
        else:
            raise ValueError(f"export what: 'results', 'roster' or 'games', not {what!r}")
        self.downloads.value = link
        return data

    def show_game(self, game_id: str | None):
        """Show game ``game_id`` live and read-only under the view (it follows the moves);
        returns the :class:`LiveGame` (None with a note when it cannot be read)."""
        if not game_id:
            return None
        if self.live is not None:
            self.live.stop()
        try:
            self.live = LiveGame(self.store, game_id, watch=self._watch)
        except (StoreError, SaveFileError, ValueError) as e:
            self.note.value = _alert(str(e))
            self.live = None
            return None
        self.shown.children = [self.live]
        return self.live

    def _loop(self) -> None:
        def say(e: Exception) -> None:
            self.note.value = _alert(str(e))

        follow(self.store, self._stop, self.redraw, on_error=say, wait_s=REDRAW_S,
               min_interval_s=REDRAW_S)  # fmt: skip

    def stop(self) -> None:
        """Stop following the store (and the live board)."""
        self._stop.set()
        if self.live is not None:
            self.live.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def close(self) -> None:
        self.stop()
        super().close()


def classroom(passcode: str | None = None, store=None, owner: str | None = None,
              watch: bool = True, class_id: str | None = None) -> ClassroomView:  # fmt: skip
    """The teacher's view of their class (:class:`ClassroomView`): open a class, see its
    roster, tables and games live, end and export it.

    Args:
        passcode: the teacher passcode (``MONEYNB_TEACHER_PASSCODE``), unless the hub user is
            a teacher (``MONEYNB_TEACHERS``).
        store: the store (None: the default).
        owner: who asks (None: the hub user or this browser, once it has said who it is).
        class_id: a class to show (None: the teacher's newest open class).

    Raises:
        NotATeacher: (a PermissionError) neither a teacher's hub user nor the right passcode.
        TooManyTries: (a StoreError) too many wrong passcodes: wait (not compared).
        StoreError: the store cannot be opened.
    """
    from ..store.hub import hub_owner
    from .identity import current_owner

    store = open_store(store)
    who = owner or hub_owner(store) or current_owner()
    check_teacher(who, passcode, store)
    return ClassroomView(store, owner=who, class_id=class_id, watch=watch)


class ClassJoin(widgets.VBox):
    """What :func:`join_class` shows: a line saying which class this student joined (class
    ``moneynb-class-joined``, data-class holding the class's name) or why not (an alert).
    ``entry`` is the :class:`~moneynb.store.RosterEntry` once joined."""

    def __init__(self, code: str, name: str | None, store=None, owner: str | None = None):
        from .identity import BrowserIdentity

        super().__init__()
        self.add_class("moneynb-class-join")
        self.store = open_store(store)
        self.code, self.name = code, name
        self.entry = None
        self.error: Exception | None = None
        self.line = widgets.HTML("<i>Joining the class…</i>")
        self.line.add_class("moneynb-class-joined")
        identity = BrowserIdentity()
        self.children = [identity, self.line]
        if owner:
            self._join(owner)
        else:
            identity.on_owner(self._join)

    def _join(self, owner: str) -> None:
        try:
            self.entry = self.store.join_class(self.code, owner, self.name or "")
            info = self.store.get_class(class_id=self.entry.class_id)
        except (StoreError, ValueError) as e:
            self.error = e
            self.line.value = _alert(str(e))
            return
        self.line.value = (
            f"<span data-class='{html.escape(info.name)}' data-name='{html.escape(self.entry.name)}'>"
            f"✓ You are in <b>{html.escape(info.name)}</b> as <b>{html.escape(self.entry.name)}</b>: "
            "your games and lesson results now belong to this class.</span>"
        )

    def __repr__(self) -> str:
        return f"ClassJoin({self.code!r}, {self.name!r})"


def join_class(
    code: str, name: str | None = None, store=None, owner: str | None = None
) -> ClassJoin:
    """Join the class with ``code`` as ``name`` (a student's first cell in JupyterLab). On a
    hub ``name`` defaults to the hub user's name. From then on this student's games and lesson
    results belong to the class. Returns a :class:`ClassJoin` (display it: in JupyterLab
    without a hub the browser says who it is once it is drawn, then the student joins).

    Raises:
        ValueError: an empty code, or no name (and no hub user).
        StoreError: (at once when the owner is known) no class with that code, the class
            ended, the name is taken by another student, the store is down.
    """
    from ..store.hub import hub_owner
    from ..store.identity import local_owner

    if not isinstance(code, str) or not code.strip():
        raise ValueError("a class code is the short code on the board, e.g. 'K7PQ2M'")
    store = open_store(store)
    # on a hub store the service says who this is (JUPYTERHUB_USER can be set by anyone)
    hub = hub_owner(store) or local_owner()
    if name is None:
        if not hub:
            raise ValueError("give your name: moneynb.join_class(code, 'Your name')")
        name = hub[4:]
    view = ClassJoin(code, name, store=store, owner=owner or hub)
    if view.error is not None:
        raise view.error
    return view
