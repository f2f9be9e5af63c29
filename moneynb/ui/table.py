"""``TableView``: one seat's screen at a shared table (issue 25; the table itself is
:mod:`moneynb.tables`).

A :class:`~moneynb.ui.view.GameView` whose game lives at a table in the store:

- it acts only for its owner's seats: another seat's decision shows "waiting for Ann" and one
  disabled button (class ``moneynb-waiting``), never that seat's panel (a Money Card hand, a
  bot's options), so no widget state sent to this browser carries what its seats may not see;
- bots' moves are made here as in every kernel at the table (:func:`moneynb.tables.table_bot`)
  and the store takes each once;
- a background thread waits on the store's watcher (:meth:`moneynb.store.Store.watch`: SQLite
  polling its data version, PostgreSQL LISTEN/NOTIFY) and applies the actions stored by other
  kernels to this board (:meth:`TableView.follow`);
- the table's join code and seats are shown on top (class ``moneynb-table``); the host gets
  "Give to a bot" / "Give back" for any other person's seat (class ``moneynb-table-bot``) and
  "Free the seat" (class ``moneynb-table-free``): the seat is nobody's, for a new person.

CSS classes (besides the GameView's): ``moneynb-table``, ``moneynb-table-code`` (data-code),
``moneynb-waiting``, ``moneynb-table-seat`` (the host's seat chooser), ``moneynb-table-bot``,
``moneynb-table-free``,
``moneynb-table-note``.
"""

from __future__ import annotations

import html
import logging
import threading
import time

import ipywidgets as widgets

from ..bots import make_bot
from ..store import ConflictError, SeatTaken, StoreError
from ..store.store import follow
from ..tables import TableSession, table_bot
from .a11y import ERROR_STYLE, NOTE_STYLE, seat_html
from .boards.base import player_color
from .panels import button
from .view import GameView, store_problem_text

log = logging.getLogger("moneynb")

__all__ = ["TableView", "host", "join"]

#: seconds a watcher waits before the view reads the store anyway (a missed notification)
RECHECK_S = 5.0


class TableView(GameView):
    """One browser's view of a shared table.

    Args:
        session: the :class:`moneynb.tables.TableSession` (its owner is this browser's; None:
            not known yet, then ``claim`` is claimed once the browser says who it is).
        claim: the seat index to claim when the owner becomes known (see above), or None.
        watch: follow other kernels' moves in a background thread (True; tests may call
            :meth:`follow` themselves).
        title, bot_delay: as :class:`GameView`.

    Raises:
        StoreError: the store cannot be read.
    """

    def __init__(self, session: TableSession, claim: int | None = None, watch: bool = True,
                 title: str | None = None, bot_delay: float = 0.0):  # fmt: skip
        self.session = session
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = None
        self._claim = claim
        self._in_save = False
        specs = {s.seat: s.kind for s in session.info.seats if s.bot}
        controllers = [make_bot(specs[i]) if i in specs else None
                       for i in range(len(session.game.players))]  # fmt: skip
        self.table_html = widgets.HTML()
        self.table_html.add_class("moneynb-table")
        self.table_note = widgets.HTML()
        self.table_note.add_class("moneynb-table-note")
        self.seat_choice = widgets.Dropdown(description="Seat", layout={"width": "240px"})
        self.seat_choice.add_class("moneynb-table-seat")
        self.bot_button = button("Give to a bot", ("moneynb-table-bot",), self._toggle_bot,
                                 tooltip="a bot plays this seat until you give it back")  # fmt: skip
        self.free_button = button("Free the seat", ("moneynb-table-free",), self._free_seat,
                                  tooltip="nobody holds this seat any more: a new person (or "
                                  "the same person in another browser) joins with its name")  # fmt: skip
        self.host_box = widgets.HBox([self.seat_choice, self.bot_button, self.free_button])
        self.host_box.layout.display = "none"
        self.seat_choice.observe(lambda _c: self._bot_label(), "value")
        with self._lock:
            super().__init__(session.game, controllers, autosave=True, title=title,
                             bot_delay=bot_delay, bot_specs=specs, origin="table",
                             store=session.store, game_id=session.game_id,
                             owner=session.owner)  # fmt: skip
        self.undo_button.layout.display = "none"  # no undo at a shared table
        self.children = [self.table_html, self.host_box, self.table_note, *self.children]
        self._draw_table()
        if watch:
            self._thread = threading.Thread(target=self._watch_loop, daemon=True,
                                            name=f"moneynb-table-{session.code}")  # fmt: skip
            self._thread.start()

    # ----- who may act -----------------------------------------------------------------
    @property
    def mine(self) -> set[int]:
        """The seats this browser plays."""
        return self.session.mine

    @property
    def screen_seats(self) -> set[int]:
        """This browser's seats: a screen at a table has its own person, so no hand-over
        line (the others' turns read "waiting for Ann")."""
        return set(self.mine)

    @property
    def human_turn(self) -> bool:
        """True when the pending decision is one of this browser's seats'."""
        d = self.game.decision
        return d is not None and d.player in self.mine

    def submit(self, action, step=None) -> bool:
        """As :meth:`GameView.submit`, for this browser's seats only (another seat's decision:
        a message, nothing applied)."""
        with self._lock:
            d = self.game.decision
            if d is not None and d.player not in self.mine:
                self._show_error(f"waiting for {self.game.players[d.player]}: it is not your turn")
                return False
            return super().submit(action, step=step)

    #: no undo at a shared table (the others have seen the move): undo controls are hidden
    undo_allowed = False

    def undo(self) -> bool:
        """No undo at a shared table (the others have seen the move): says so."""
        self._show_error("There is no undo at a shared table.")
        return False

    def run_bots(self, refresh: bool = True, limit: int | None = None) -> int:
        """Let the bot seats move (each made afresh: :func:`moneynb.tables.table_bot`, so every
        kernel at the table computes the same move) until a person must decide."""
        limit = self.max_bot_steps if limit is None else limit
        taken, pending = 0, []
        g = self.game
        while taken < limit and g.decision is not None and g.decision.player in self.bot_specs:
            seat = g.decision.player
            try:
                pending.extend(self._play_move(table_bot(self.bot_specs[seat], g, seat).choose(g)))
            except Exception as e:  # noqa: BLE001 - a bot or engine bug must not stop the table
                self._engine_failed(e, None)
                break
            taken += 1
        if pending:
            self._update_board(pending)
        if refresh:
            self.refresh()
        return taken

    offers_new_game = False  # the host starts the next table

    def _refresh_panel(self) -> None:
        g = self.game
        d = g.decision
        if d is None or d.player in self.mine:
            return super()._refresh_panel()
        key = (self.step, "waiting", d.player)
        if key == self._decision_key:
            return
        self._decision_key = key
        who = g.players[d.player]
        bot = " (bot)" if d.player in self.bot_specs else ""
        self.prompt.value = (
            f"<i>waiting for {seat_html(d.player, who, player_color(d.player))}{bot}...</i>"
        )
        wait = widgets.Button(description=f"waiting for {who}", disabled=True,
                              layout=widgets.Layout(width="auto"))  # fmt: skip
        wait.add_class("moneynb-waiting")
        self.panel_box.children = [wait]

    # ----- the store ---------------------------------------------------------------------
    def _status(self) -> dict:
        st = super()._status()
        from .classroom import leader_of

        st["extra"] = {"leader": leader_of(self.game)}
        return st

    def save(self) -> str | None:
        """Store this kernel's new actions (its seats' and the bots'); when another kernel
        stored first, follow the stored game (bots' moves equal to ours count as stored) and
        store what is left. Never raises: a store failure takes the unsaved moves back and
        says why."""
        s = self.session
        if self._in_save:
            return self.game_id
        self._in_save = True
        try:
            for _ in range(50):
                if len(self.game.actions) <= s.stored:
                    if self._status() != self._status_saved:
                        s.store.set_status(self.game_id, self._status())
                    break
                try:
                    s.store.extend(self.game_id, s.stored, self.game.actions[s.stored :],
                                   status=self._status())  # fmt: skip
                    s.stored = len(self.game.actions)
                except ConflictError:
                    mine_lost = self._take_stored()
                    if mine_lost:
                        self._show_error(
                            "Someone at the table moved first, so your last move was not "
                            "kept; the board shows the table's game now."
                        )
                    self.run_bots(refresh=False)
            self._status_saved = self._status()
        except StoreError as e:
            self._synced = list(self.game.actions[: s.stored])
            self._save_ok = False
            self._save_failed(e)
            return self.game_id
        finally:
            self._in_save = False
        self._synced = list(self.game.actions[: s.stored])
        self.save_problem = None
        self._saved_at = time.time()
        when = time.strftime("%H:%M:%S", time.localtime(self._saved_at))
        self.save_label.value = (
            f"<span class='moneynb-saved' data-actions='{s.stored}'>stored (action {s.stored}, "
            f"{when}): every board at table {html.escape(s.code or '')} follows</span>"
        )
        return self.game_id

    def _save_failed(self, error) -> None:
        super()._save_failed(error)
        self.session.game = self.game

    def _take_stored(self) -> bool:
        """Bring the game to the stored one (:meth:`TableSession.sync`); True when an action
        of this browser's seats that was not stored had to go."""
        s = self.session
        before = list(self.game.actions)
        s.game = self.game
        events = s.sync(apply=self._play_move)
        if events is None:
            lost = any(
                i >= len(s.game.actions) or s.game.actions[i] != a for i, a in enumerate(before)
            )
            self._replace_game(s.game)
            return lost
        if events:
            self._update_board(events)
        return False

    def follow(self) -> bool:
        """Apply what other kernels stored (moves, seat changes) to this view, let the bots
        move, and redraw; returns True when something changed. Called by the watcher thread.

        Raises:
            StoreError: the store cannot be read (nothing changed here).
        """
        with self._lock:
            if self._busy:
                return False
            s = self.session
            seats_before = s.info.seats
            n_before = len(self.game.actions)
            s.game = self.game
            events = s.sync(apply=self._play_move)
            seats_changed = s.info.seats != seats_before
            if seats_changed:
                self.bot_specs = {x.seat: x.kind for x in s.info.seats if x.bot}
                self.controllers = [make_bot(self.bot_specs[i]) if i in self.bot_specs else None
                                    for i in range(len(self.game.players))]  # fmt: skip
                self._decision_key = object()
            if events is None:
                self._replace_game(s.game)
            elif events:
                self._update_board(events)
            changed = seats_changed or events is None or len(self.game.actions) != n_before
            if changed or (
                self.game.decision is not None and self.game.decision.player in self.bot_specs
            ):
                self.run_bots(refresh=False)
                self.refresh()
                self._draw_table()
            return changed

    def catch_up(self) -> None:
        """What the watcher thread runs when the store wakes it (or every few seconds):
        follow the table; the outage note goes; after a store failure, store again, so the
        red "not saved" line goes once the store is back (issue 38, case 7).

        Raises:
            StoreError: the store cannot be read (the watcher says so and tries again)."""
        self.follow()
        if self.table_note.value:  # following again: the outage note goes
            self.table_note.value = ""
        if self.save_problem is not None:
            with self._lock:
                self.save()

    def _watch_loop(self) -> None:
        catch_up = self.catch_up

        def say(e: Exception) -> None:
            if isinstance(e, StoreError):
                problem = store_problem_text(e)  # the store's own text goes to the log
                text = (f"⚠ cannot follow the table now: {problem}. It is tried again every "
                        "few seconds; your board is as last stored.")  # fmt: skip
            else:
                log.error("moneynb: following the table failed: %r", e)
                text = ("⚠ cannot follow the table now (an error inside moneynb: see the "
                        "log). Your board is as last stored.")  # fmt: skip
            self.table_note.value = f"<span style='{ERROR_STYLE}'>{html.escape(text)}</span>"

        follow(self.store, self._stop, catch_up, on_error=say, wait_s=0.5,
               recheck_s=RECHECK_S, game_id=self.game_id)  # fmt: skip

    def stop(self) -> None:
        """Stop following the table (the watcher thread ends within a second)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def close(self) -> None:
        self.stop()
        super().close()

    # ----- seats -----------------------------------------------------------------------
    def _owner_known(self, owner: str) -> None:
        """The browser said who it is: claim the seat asked for (see ``claim``); no offers of
        other games at a table."""
        s = self.session
        if s.owner is not None or self._claim is None:
            return
        try:
            s.store.claim_seat(self.game_id, self._claim, owner)
        except SeatTaken as e:
            self.table_note.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return
        except StoreError as e:
            self.table_note.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return
        s.owner = self.owner = owner
        with self._lock:
            s.refresh_info()
            self._decision_key = object()
            self.refresh(save=False)
            self._draw_table()

    def _draw_table(self) -> None:
        s = self.session
        rows = []
        for seat in s.info.seats:
            if seat.bot:
                who = f"bot ({seat.kind[4:]})"
            elif seat.seat in self.mine:
                who = "you"
            elif seat.owner:
                who = "taken"
            else:
                who = "free: waiting for this player to join"
            rows.append(
                f"{seat_html(seat.seat, seat.name, player_color(seat.seat), bold=False)}: {who}"
            )
        code = html.escape(s.code or "")
        self.table_html.value = (
            f"<div style='{NOTE_STYLE}'>Table <b class='moneynb-table-code' data-code='{code}' "
            f"style='font-size:1.3em;letter-spacing:2px'>{code}</b> (others join with this code: "
            f'<code>moneynb.join("{code}", name=...)</code> or the app\'s <i>Join a table</i>)'
            f"<br>{' · '.join(rows)}</div>"
        )
        if s.is_host:
            others = [(f"{x.name}{' (bot)' if x.bot else ''}", x.seat) for x in s.info.seats
                      if x.seat not in self.mine and (x.bot or x.kind == "human")]  # fmt: skip
            value = self.seat_choice.value
            self.seat_choice.options = others
            seats = [v for _, v in others]
            if seats:  # a seat is always chosen (new options leave the dropdown unset)
                self.seat_choice.value = value if value in seats else seats[0]
            self.host_box.layout.display = None if others else "none"
            self._bot_label()

    def _bot_label(self) -> None:
        seat = self.seat_choice.value
        if seat is None:
            return
        self.bot_button.description = (
            "Give back to a person" if seat in self.bot_specs else "Give to a bot"
        )

    def _toggle_bot(self) -> None:
        """The host's button: the chosen seat becomes a greedy bot's, or a person's again."""
        seat = self.seat_choice.value
        if seat is None or not self.session.is_host:
            return
        kind = "human" if seat in self.bot_specs else "bot:greedy"
        try:
            self.store.set_seat_kind(self.game_id, seat, kind)
            self.follow()
        except StoreError as e:
            self.table_note.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )

    def _free_seat(self) -> None:
        """The host's "Free the seat": the chosen seat is nobody's and a person's again
        (:func:`moneynb.tables.free_seat`), for a new person or the same person's new
        browser."""
        from ..tables import free_seat

        seat = self.seat_choice.value
        if seat is None or not self.session.is_host:
            return
        try:
            free_seat(self.game_id, seat, owner=self.session.owner, store=self.store)
            self.follow()
        except (StoreError, PermissionError) as e:
            self.table_note.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return
        name = self.game.players[seat]
        self.table_note.value = (
            f"<span style='{NOTE_STYLE}'>{html.escape(name)}'s seat is free: the next person "
            f"who joins as {html.escape(name)} takes it.</span>"
        )


def _owner(owner):
    from .identity import current_owner

    return owner or current_owner()


def host(name: str, seats, *, seed: int | None = None, seat=None, store=None, owner=None,
         watch: bool = True, **options) -> TableView:  # fmt: skip
    """Open a shared table of game ``name`` (see :func:`moneynb.tables.host_table`) and show
    it: the board shows the join code. The host (the hub user, this browser, or ``owner``)
    holds ``seat`` (default: the first person's seat).

    Raises:
        ValueError: a bad game, seats or option; no owner known yet (run the cell again once a
            moneynb widget has been shown, or pass ``owner=``).
        StoreError: the store cannot be written.
    """
    from ..tables import host_table

    who = _owner(owner)
    if who is None:
        raise ValueError(
            "this browser has not said who it is yet: show any moneynb widget first "
            "(e.g. moneynb.play) and run this cell again, or pass owner="
        )
    h = host_table(name, seats, owner=who, store=store, seed=seed, seat=seat, **options)
    return TableView(TableSession(h.game_id, who, store), watch=watch)


def join(code: str, name: str | None = None, *, store=None, owner=None,
         watch: bool = True) -> TableView:  # fmt: skip
    """Take a seat at the table with join ``code`` (see :func:`moneynb.tables.join_table`) and
    show it. A reloaded or restarted browser gets its own seat back.

    Raises:
        ValueError: a malformed code or a bad name. NoSuchGame: no such table.
        SeatTaken: the seat is another's, or a bot's. StoreError: the store is down.
    """
    from ..tables import find_table, join_table

    who = _owner(owner)
    if who is None:  # JupyterLab before the page said who it is: claim once it does
        info = find_table(code, store, name=name)
        match = [s for s in info.seats if name is None or s.name.casefold() == str(name).casefold()]
        free = [s for s in match if not s.bot]
        if not free:
            raise ValueError(f"no person's seat called {name!r} at table {info.table}")
        return TableView(TableSession(info.id, None, store), claim=free[0].seat, watch=watch)
    h = join_table(code, name, owner=who, store=store)
    return TableView(TableSession(h.game_id, who, store), watch=watch)
