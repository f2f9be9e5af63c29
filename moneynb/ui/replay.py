"""``ReplayView``: step through a saved or finished game in a notebook (issue 19).

``moneynb.replay(source)`` shows the game's own board (read-only: clicks on it do nothing),
its money table, the log with the lines of the move that led to the step highlighted, who decided at that step,
the options there were and the one taken, and the Coach's numbers for that decision
(:mod:`moneynb.coach`, engine-backed). A slider and buttons (first, back, forward, last,
and Play at a chosen speed) move through the steps; the slider takes the arrow keys once it
has the focus. A plotly chart of each player's score over the steps (dollars; rows of progress
for Money Run) shows where the game turned: a click on a point jumps there. "Continue from
here" branches a new live game from the step on screen (a new game in the store; the original
is untouched) and shows it under the replay.

The steps come from :class:`moneynb.core.replay.Replay` (snapshots every few actions, so any
step of a long game is quick: ``benchmarks/bench_replay.py``).

CSS classes (stable, for tests): ``moneynb-replay`` (the view, also ``moneynb-view``),
``moneynb-header``, ``moneynb-board``, ``moneynb-money``, ``moneynb-log`` (current lines:
``moneynb-log-current``), ``moneynb-replay-slider``, ``moneynb-replay-play``,
``moneynb-replay-speed``, ``moneynb-replay-first`` / ``-back`` / ``-forward`` / ``-last``,
``moneynb-replay-step`` (data-step), ``moneynb-replay-decision`` (the option taken:
``moneynb-replay-taken``), ``moneynb-coach-toggle``, ``moneynb-coach``,
``moneynb-replay-chart``, ``moneynb-board-row`` and ``moneynb-board-tools`` (the live
view's layout: :class:`~moneynb.ui.view.GameView`), ``moneynb-replay-branch`` (Continue
from here) and ``moneynb-replay-branch-box`` (where the new game appears).
"""

from __future__ import annotations

import html
import re
import time
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..core.replay import Replay
from ..core.words import counted
from ..figures.base import money, palette, player_color
from ..figures.replay import chart_colors, chart_parts
from .a11y import ERROR_STYLE, NOTE_STYLE, A11yHelper, seat_html
from .boards import board_for
from .boards.base import BoardFigure
from .panels import button
from .view import GameView, _css, capital_first, coaching_html

__all__ = ["ReplayView", "SPEEDS", "saved_games", "ReplayChooser"]

#: seconds after a "Continue from here" click has made its game in which a second click, for
#: the same step and seats, is the second click of a double-click and is ignored (the tester
#: of stop 49: a double-click stored two games, one hidden, both marked practice)
REPEAT_CLICK_S = 0.5
#: Play speeds: label -> milliseconds per step
SPEEDS = {"slow": 1500, "normal": 700, "fast": 300, "fastest": 120}
#: log lines shown before the current step's lines
LOG_BEFORE = 40
#: seconds the Coach waits, in a kernel, after the last step change before it works out the
#: numbers of the step shown: a slider drag or a held arrow key passes many steps, and a Coach
#: can take up to about 1 s (a Money Moves roll), which would hold up every step passed
COACH_DELAY = 0.3


def _kernel_loop():
    """The running asyncio loop of the Jupyter kernel this runs in (where a page draws the
    widgets and sends steps), or None outside a kernel: plain Python, or a test process in
    which another library left a loop running (Playwright's sync API does)."""
    import asyncio

    try:
        from IPython import get_ipython
    except ImportError:
        return None
    ip = get_ipython()
    if ip is None or getattr(ip, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class ReplayView(GameView):
    """A game replayed step by step (see the module docstring): a read-only
    :class:`GameView` (it shares the live view's money table and board text, and has no
    decision panel, undo or autosave of its own).

    Args:
        source: a save file's path, its JSON text, a game, a row of
            ``simulate(..., keep_games=True)``, or a :class:`~moneynb.core.replay.Replay`.
        step: the step shown first (default: 0, the start).
        title: header text (default: "Replay: <game title>").
        coach: whether the Coach panel starts on (it is computed once per step shown, and
            not while Play runs).
        store: the store games branched with "Continue from here" go to (a
            :class:`moneynb.store.Store` or its location; None: the default store).
        origin: kept with a branched game (see :mod:`moneynb.ui.saves`).
        owner: the owner of a branched game (None: the hub user or this browser).
        seats: ``{seat: "bot:greedy"}``, the bot seats (a stored game's); None: from the save
            file's old ``.seats.json`` sidecar, or players named like a bot.
        game_id: the stored game replayed (in ``store``), or None. A shared table that is
            still being played is refused (issue 35, case 2: the replay would show every
            seat's hidden cards, and "Continue from here" the table's coming chance).

    Attributes:
        replay: the :class:`~moneynb.core.replay.Replay`.
        index: the step shown (``0..replay.n``).
        game: the game at that step (read it only; the replay's working copy).
        branched: the :class:`GameView` made by the last "Continue from here", or None.
        on_branch: ``on_branch(view)`` called after each "Continue from here", or None.
        last_update_ms: kernel time of the last step change (board, tables, chart).

    Raises:
        SaveFileError, FileNotFoundError, TypeError: as :class:`Replay`; IndexError: a bad
        ``step``; moneynb.store.LiveTable: ``game_id`` is a table still being played.
    """

    def __init__(
        self,
        source: Any,
        step: int = 0,
        title: str | None = None,
        coach: bool = True,
        store=None,
        origin: str = "replay",
        owner: str | None = None,
        seats: dict | None = None,
        game_id: str | None = None,
    ):
        #: the stored game replayed (None: a file, a text, a game)
        self.source_id = game_id
        if game_id is not None:
            from ..store import LiveTable, open_store

            LiveTable.check(open_store(store).info(game_id))
        widgets.VBox.__init__(self)
        self.add_class("moneynb-view")
        self.add_class("moneynb-replay")
        r = self.replay = source if isinstance(source, Replay) else Replay(source)
        self.index = r._index(step)
        self.game = r.state(self.index)
        n_seats = len(r.players)
        self.controllers = [None] * n_seats  # texts as the view shows them to people
        if seats is None and isinstance(getattr(source, "bot_specs", None), dict):
            seats = source.bot_specs  # a game view: its own seats
        self.bot_specs = dict(seats) if seats is not None else self._seats()
        self.title = title or f"Replay: {r.title}"
        self.start_total = sum(self.game.money().values())
        self.store = store
        self.owner = owner
        self.origin = origin
        self.branched: GameView | None = None
        #: ``on_branch(view)``, called after each "Continue from here" (the app's list of
        #: saves refreshes itself with it), or None
        self.on_branch = None
        self.last_update_ms: float | None = None
        self.engine_errors: list[str] = []
        self._coaching: dict[int, Any] = {}
        self._coach_heat = False
        self._coach_later = None  # the pending delayed Coach (an asyncio TimerHandle)

        #: True while the replayed game is not over: its hidden information (a bot's
        #: Advantage card, a Language card's words, another seat's options) is shown only as
        #: the live view of its seats shows it (the tester's F2, 2026-12-06); once the game
        #: is over every card is public and the replay shows everything
        self.secret = not r.final.over
        self.board = board_for(self.game)
        self.board.pick = None  # read-only: a click on the board answers nothing
        self.board.plain = self.plain
        # the board asks whose hidden information this screen may show; the rule of what is
        # hidden stays the board's and the engine's (BoardRenderer.shows_hidden, event_text)
        self.board.shows_hidden = self._shows_hidden if self.secret else (lambda seat: True)
        self.a11y = A11yHelper(layout=widgets.Layout(width="0px", height="0px"))
        self.header = widgets.HTML()
        self.header.add_class("moneynb-header")
        self.step_html = widgets.HTML()
        self.step_html.add_class("moneynb-replay-step")
        self.decision_html = widgets.HTML()
        self.decision_html.add_class("moneynb-replay-decision")
        self.money_html = widgets.HTML()
        self.money_html.add_class("moneynb-money")
        # "auto": stretched to the view's width less its margin (100% stuck out 2 px)
        self.log_html = widgets.HTML(layout=widgets.Layout(width="auto"))
        self.log_html.add_class("moneynb-log")
        self.board_text = widgets.HTML()
        self.board_text.add_class("moneynb-board-text")
        self.board_text.add_class("moneynb-sr-only")
        self.coach_toggle = widgets.ToggleButton(
            value=bool(coach),
            description="Coach",
            icon="graduation-cap",
            tooltip="the odds and expected values behind the decision at this step",
        )
        self.coach_toggle.add_class("moneynb-coach-toggle")
        self.coach_html = widgets.HTML()
        self.coach_html.add_class("moneynb-coach")
        self.coach_toggle.observe(lambda _c: self._refresh_coach(), "value")

        # ----- the scrubber -----
        self.slider = widgets.IntSlider(
            value=self.index,
            min=0,
            max=r.n,
            description="Step",
            continuous_update=True,
            layout=widgets.Layout(width="420px"),
            _dom_classes=("moneynb-replay-slider",),
        )
        self.play = widgets.Play(
            value=self.index,
            min=0,
            max=r.n,
            interval=SPEEDS["normal"],
            description="Play",
            tooltip="play the game step by step",
            _dom_classes=("moneynb-replay-play",),
        )
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.speed = widgets.Dropdown(
            options=list(SPEEDS.items()),
            value=SPEEDS["normal"],
            description="speed",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="150px"),
            _dom_classes=("moneynb-replay-speed",),
        )
        self.speed.observe(lambda c: setattr(self.play, "interval", c["new"]), "value")
        self.first_button = button("First", ("moneynb-replay-first",), lambda: self.go(0),
                                   tooltip="go to the start")  # fmt: skip
        self.back_button = button("Back", ("moneynb-replay-back",), lambda: self.move(-1),
                                  tooltip="one step back")  # fmt: skip
        self.forward_button = button("Forward", ("moneynb-replay-forward",),
                                     lambda: self.move(1), tooltip="one step forward")  # fmt: skip
        self.last_button = button("Last", ("moneynb-replay-last",), lambda: self.go(r.n),
                                  tooltip="go to the end")  # fmt: skip
        for b, icon in ((self.first_button, "fast-backward"), (self.back_button, "step-backward"),
                        (self.forward_button, "step-forward"),
                        (self.last_button, "fast-forward")):  # fmt: skip
            b.icon = icon
        self.slider.observe(self._slider_moved, "value")
        self.play.observe(self._playing_changed, "playing")
        keys = widgets.HTML(
            f"<span style='{NOTE_STYLE};font-size:0.85em'>Click the slider (or Tab to it), "
            "then use the &larr; &rarr; keys to step.</span>"
        )
        self.branch_button = button(
            "Continue from here",
            ("moneynb-replay-branch",),
            self._branch_clicked,
            tooltip="start a new game from this step (a new game; this replay stays as it is)",
        )
        # who plays each seat of the new game: bot seats stay bots unless changed here
        self.seat_choices = [self._seat_choice(i, p) for i, p in enumerate(r.players)]
        # a game every seat of which is a bot (a simulated game: issue 38, case 4) would
        # continue with bots only, straight to "Game over": the seat deciding at the step
        # shown starts as "a person" instead (kept in step with the step until a seat is
        # chosen by hand)
        self._seats_by_hand = not all(d.value != "human" for d in self.seat_choices)
        self._setting_seats = False
        for d in self.seat_choices:
            d.observe(self._seat_chosen, "value")
        # the name of each seat a person plays in the new game (issue 38: a seat taken over
        # from a bot kept the bot's name, "Greedy bot 3 must decide"): a box beside its
        # drop-down, filled with a suggestion until typed in
        self.seat_names = [self._name_box(i) for i in range(len(r.players))]
        self._named_by_hand: set[int] = set()
        for d in self.seat_choices:
            d.observe(self._refresh_names, "value")
        self._refresh_names()
        self.seats_box = widgets.HBox(
            [widgets.HTML("Seats of the new game:"),
             *(widgets.HBox([d, t]) for d, t in zip(self.seat_choices, self.seat_names,
                                                    strict=True))],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )  # fmt: skip
        self.seats_box.add_class("moneynb-replay-seats")
        self.branch_box = widgets.VBox()
        self.branch_box.add_class("moneynb-replay-branch-box")
        self.branch_button.disabled = self.game.over

        self.chart = self._make_chart()
        self._show(self.index, first=True)
        self.board.release()
        # the live view's grid (issue 30, case 1; the CSS and a11y.fitBoards choose): the
        # board and, beside it when the view has room (else under it), the step, its
        # decision, the Coach and the money table; the board drawn smaller when the view is
        # narrower than it, never wider than the view
        width = int(self.board.figure.layout.width or 0) or 580
        board_box = widgets.Box(
            [self.board.widget()],
            layout=widgets.Layout(
                flex=f"0 1 {width + 4}px", min_width="0", max_width="100%", overflow="visible"
            ),
        )
        board_box.add_class("moneynb-board")
        side = widgets.VBox(
            [self.step_html, self.decision_html, self.coach_toggle, self.coach_html,
             self.money_html],
            layout=widgets.Layout(min_width="0"),
        )  # fmt: skip
        side.add_class("moneynb-board-tools")
        board_row = widgets.Box([board_box, side], layout=widgets.Layout(flex_flow="row wrap"))
        board_row.add_class("moneynb-board-row")
        panels = widgets.HBox(
            self.board.panels(),
            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"),
        )
        panels.add_class("moneynb-board-panels")
        controls = widgets.HBox(
            [self.first_button, self.back_button, self.slider, self.forward_button,
             self.last_button, self.play, self.speed],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )  # fmt: skip
        self.children = [
            self.header,
            self.a11y,
            controls,
            keys,
            board_row,
            panels,
            self.board_text,
            widgets.HTML("<b>Log</b> (the move that led to this step highlighted)"),
            self.log_html,
            self.chart,
            self.seats_box,  # who plays, chosen before continuing (issue 38, case 4)
            widgets.HBox([self.branch_button]),
            self.branch_box,
        ]

    # ----- seats ----------------------------------------------------------------------
    def _seats(self) -> dict[int, str]:
        """Bot seats of the replayed game, as ``play(name, resume=path)`` reads them: from the
        save's ``.seats.json`` sidecar when the replay was read from a file that has one,
        else players named like a bot ("Greedy bot 1") and a simulated game's seats
        ("greedy1", named by ``simulate``) are bots; every other seat is a person (the
        "Seats of the new game" drop-downs change any seat before continuing)."""
        from ..bots import BOTS
        from . import _BOT_NAME, _read_seats

        simulated = re.compile(r"^(" + "|".join(map(re.escape, BOTS)) + r")\d+$")

        players = self.replay.players
        if self.replay.path is not None:
            try:
                return _read_seats(Path(self.replay.path), players)
            except ValueError:  # a bad sidecar: the names decide, as below
                pass
        return {
            i: f"bot:{m.group(1).lower()}"
            for i, p in enumerate(players)
            if (m := _BOT_NAME.match(p) or simulated.match(p)) is not None
        }

    def _seat_choice(self, seat: int, player: str):
        """The drop-down choosing who plays ``seat`` after "Continue from here": a person or
        one of the bots (:data:`moneynb.bots.BOTS`), first the seat's kind in the replayed game."""
        from ..bots import BOTS

        options = [("a person", "human")] + [(f"{k} bot", f"bot:{k}") for k in BOTS]
        kind = self.bot_specs.get(seat, "human")
        kind = kind if kind == "human" or kind.startswith("bot:") else f"bot:{kind}"
        if kind not in [v for _, v in options]:
            options.append((kind[4:] + " bot", kind))
        d = widgets.Dropdown(
            options=options,
            value=kind,
            description=player,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto"),
        )
        d.add_class("moneynb-replay-seat")
        return d

    def _name_box(self, seat: int):
        """The box naming the person who plays ``seat`` in the new game (shown while the
        seat's drop-down says "a person")."""
        box = widgets.Text(
            description="named",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="13em"),
            tooltip=f"the name of the person who plays {self.replay.players[seat]}'s seat",
        )
        box.add_class("moneynb-replay-seat-name")

        def typed(change, seat=seat):
            if not self._setting_names:
                self._named_by_hand.add(seat)

        box.observe(typed, "value")
        return box

    _setting_names = False

    def _suggested_name(self, seat: int) -> str:
        """The name a person playing ``seat`` gets unless one is typed: a seat a person played
        in the replayed game keeps its player's name; a bot's seat is "You" when it is the
        one person's seat of the new game (and nobody is named "You"), else "Player 3" (its
        seat's number), never a name another seat has."""
        players = self.replay.players
        if seat not in self.bot_specs:
            return players[seat]
        people = [i for i, d in enumerate(self.seat_choices) if d.value == "human"]
        # the names other seats keep (a person's seat handed to a bot is renamed a bot's:
        # :meth:`chosen_names`, so its "You" is free again)
        taken = {p for i, p in enumerate(players) if i != seat
                 and (self.seat_choices[i].value == "human" or i in self.bot_specs)}  # fmt: skip
        if people == [seat] and "You" not in taken:
            return "You"
        for name in (f"Player {seat + 1}", f"Person {seat + 1}", f"Player {seat + 1} (person)"):
            if name not in taken:
                return name
        return f"Seat {seat + 1}"

    def _refresh_names(self, _change=None) -> None:
        """Show the name box of each seat a person plays (filled with
        :meth:`_suggested_name` unless typed in), hide the others."""
        self._setting_names = True
        try:
            for i, (d, box) in enumerate(zip(self.seat_choices, self.seat_names, strict=True)):
                person = d.value == "human"
                box.layout.display = None if person else "none"
                if person and i not in self._named_by_hand:
                    box.value = self._suggested_name(i)
        finally:
            self._setting_names = False

    def chosen_names(self) -> list[str]:
        """The players' names of the new game, seat by seat: a person's seat as its name box
        says (:meth:`_suggested_name` when left empty), a bot's seat as in the replayed game,
        a person's seat handed to a bot a bot's name no seat had ("Greedy bot 2").
        Names are checked by the game when it is made (distinct, not a bot's request, not an
        account's name)."""
        # a seat a person played, handed to a bot, takes a bot's name ("Greedy bot 2"), not
        # the person's ("You" played by a bot: the tester of stop 48); a bot's seat kept by a
        # bot keeps its name
        entries = [
            (box.value.strip() or self._suggested_name(i)) if d.value == "human"
            else self.replay.players[i] if i in self.bot_specs
            else d.value
            for i, (d, box) in enumerate(zip(self.seat_choices, self.seat_names, strict=True))
        ]  # fmt: skip
        # a new bot name is none of the replayed game's names either (its log's "Greedy bot 1"
        # stays that seat's)
        new_bots = [i for i, d in enumerate(self.seat_choices)
                    if d.value != "human" and i not in self.bot_specs]  # fmt: skip
        taken = set(self.replay.players) | {e for i, e in enumerate(entries) if i not in new_bots}
        for i in new_bots:
            if entries[i].startswith("bot:"):
                kind, n = entries[i][4:], 1
                while f"{kind.capitalize()} bot {n}" in taken:
                    n += 1
                entries[i] = f"{kind.capitalize()} bot {n}"
                taken.add(entries[i])
        return entries

    def _seat_chosen(self, _change) -> None:
        if not self._setting_seats:
            self._seats_by_hand = True

    def _person_at(self, g) -> None:
        """Every seat a bot and none chosen by hand: the seat deciding in ``g`` (else seat 0)
        is "a person" in the drop-downs, the others keep their bots."""
        if self._seats_by_hand:
            return
        seat = g.decision.player if g.decision is not None else 0
        self._setting_seats = True
        try:
            for i, d in enumerate(self.seat_choices):
                if i == seat:
                    d.value = "human"
                elif d.value == "human":
                    d.value = self._bot_kind(i)
        finally:
            self._setting_seats = False

    @property
    def screen_seats(self) -> set[int]:
        """The seats of the replayed game's people (its seats that are not bots): the screen
        its live view was; :meth:`GameView._shows_hidden` reads it (a game still being played
        shows one person's hidden cards to them alone, none on a hot-seat screen)."""
        return {s for s in range(len(self.replay.players)) if s not in self.bot_specs}

    def _hides_options(self, seat: int | None) -> bool:
        """True when the decision of ``seat`` at a step is not this screen's to read in full:
        the game is still being played and ``seat`` is none of its people (a bot's options,
        e.g. "Play Advantage card (2)", name its hidden cards, and the live view never shows
        a bot's panel). The option it took is shown: what a player does is public."""
        return self.secret and seat is not None and seat not in self.screen_seats

    def _bot_kind(self, seat: int) -> str:
        kind = self.bot_specs.get(seat, "bot:greedy")
        return kind if kind.startswith("bot:") else f"bot:{kind}"

    def chosen_seats(self) -> dict[int, str]:
        """``{seat: bot kind}`` for the seats the "Seats of the new game" drop-downs give to a
        bot (the others are people); at first the replayed game's own (:attr:`bot_specs`)."""
        return {i: d.value for i, d in enumerate(self.seat_choices) if d.value != "human"}

    # ----- moving ---------------------------------------------------------------------
    def go(self, i: int) -> None:
        """Show step ``i`` (``0..replay.n``); moves the slider too.

        Raises:
            IndexError, TypeError: as :meth:`Replay.state`; nothing changes then.
        """
        i = self.replay._index(i)
        if self.slider.value != i:
            self.slider.value = i  # _slider_moved shows it
        elif i != self.index:
            self._show(i)

    def move(self, delta: int) -> None:
        """Step ``delta`` steps forward (negative: back), stopping at both ends."""
        self.go(min(self.replay.n, max(0, self.index + int(delta))))

    def _playing_changed(self, change) -> None:
        """Play started or stopped: the Coach pauses or comes back; a stop announces the step
        reached (steps are not announced while Play runs)."""
        self._refresh_coach()
        if not change["new"]:
            self.a11y.announce(self._announcement())

    def _slider_moved(self, change) -> None:
        i = change["new"]
        if i != self.index:
            self._show(i)

    def _show(self, i: int, first: bool = False) -> None:
        import time

        from .pace import pace

        pace()  # stepping in a loop must not outrun the server's IOPub limit
        t0 = time.perf_counter()
        r = self.replay
        self.index = i
        g = self.game = r.state(i)
        events = list(g.log) if i == 0 else r.events(i - 1)
        with self.board.figure.batch_update():
            if not first:
                self.board.rewind(g)
                # a step shows the move of its own last action only, whichever step came
                # before it (the boards keep the "last move" trace until a new move)
                for t in self.board.figure.data:
                    if t.name == "last move" and t.x:
                        t.x, t.y = [], []
            self.board.update(g, events)
            self.board.highlight(g.decision)
        self.header.value = self._header_html()
        self.decision_html.value = self._decision_html()
        self.money_html.value = self._money_html()
        self.log_html.value = self._log_html()
        self.board_text.value = self._board_text_html()
        self._mark_chart()
        self._refresh_coach()
        # the end of a finished game: nothing to continue
        self.branch_button.disabled = g.over
        if hasattr(self, "_seats_by_hand"):
            self._person_at(g)
        if not self.play.playing:  # Play would queue a stale step per 0.1-1.5 s for readers
            self.a11y.announce(self._announcement())
        # last: the page has every other part of this step once it shows the step's number
        self.step_html.value = self._step_html()
        self.last_update_ms = (time.perf_counter() - t0) * 1000

    # ----- texts ----------------------------------------------------------------------
    def _header_html(self) -> str:
        g, r = self.game, self.replay
        status = self.board.status(g) if hasattr(self.board, "status") else ""
        parts = [f"<span style='font-size:1.4em;font-weight:bold'>{html.escape(self.title)}</span>"]
        if status:
            parts.append(html.escape(status))
        parts.append(f"step {self.index} of {r.n}")
        head = " &middot; ".join(parts)
        players = html.escape(", ".join(r.players))
        return f"<div>{head}</div><div style='{NOTE_STYLE}'>{players}</div>"

    def _step_html(self) -> str:
        r = self.replay
        where = (
            "the start, before the first action"
            if self.index == 0
            else "the end of the saved game"
            if self.index == r.n
            # the tester of stop 49: "Step 12 of 384: before action 13 of 384" read as off by
            # one (a step and an action counted apart)
            else f"{counted(self.index, 'action')} played, {r.n - self.index} to come"
        )
        return (
            f"<div class='moneynb-replay-step-text' data-step='{self.index}' "
            f"data-steps='{r.n}'><b>Step {self.index}</b> of {r.n}: {where}</div>"
        )

    def _decision_html(self) -> str:
        s = self.replay.step(self.index)
        g = self.game
        if s.seat is None:
            names = " and ".join(g.winner_names) or "nobody"
            return f"<b>Game over</b>: {html.escape(names)} won."
        who = seat_html(s.seat, s.player, player_color(s.seat))
        head = f"{who} had to decide: {html.escape(self.plain(s.prompt, s.seat))}"
        if self._hides_options(s.seat):
            taken = (
                f"<li class='moneynb-replay-taken' style='font-weight:bold'>"
                f"{html.escape(self.plain(s.taken_label, s.seat))} &#10004; chosen</li>"
                if s.taken is not None
                else "<li><i>not decided yet (the save ends here)</i></li>"
            )
            return (
                f"<div>{head}</div><ul style='margin:2px 0;padding-left:18px'>{taken}</ul>"
                f"<div class='moneynb-replay-hidden-note' style='{NOTE_STYLE}'>The other "
                f"choices {html.escape(s.player)} had stay hidden until the game is over.</div>"
            )
        items = []
        taken_shown = False
        for o, label in s.options:
            taken = s.taken is not None and o == s.taken and type(o) is type(s.taken)
            taken_shown |= taken
            text = html.escape(self.plain(label, s.seat))
            if taken:
                items.append(
                    f"<li class='moneynb-replay-taken' style='font-weight:bold'>{text} "
                    "&#10004; chosen</li>"
                )
            else:
                items.append(f"<li class='moneynb-replay-option'>{text}</li>")
        if s.low is not None and s.high is not None:
            step = f" in steps of {money(s.step_size)}" if (s.step_size or 1) != 1 else ""
            items.insert(0, f"<li>an amount from {money(s.low)} to {money(s.high)}{step}</li>")
        if s.taken is not None and not taken_shown:
            items.append(
                f"<li class='moneynb-replay-taken' style='font-weight:bold'>"
                f"{html.escape(self.plain(s.taken_label, s.seat))} &#10004; chosen</li>"
            )
        if len(items) > 24:  # a long list (every square of a board): the taken one and a count
            keep = [x for x in items if "moneynb-replay-taken" in x]
            items = keep + [f"<li>... and {len(items) - len(keep)} other options</li>"]
        body = "".join(items)
        pending = (
            "" if s.taken is not None else "<div><i>not decided yet (the save ends here)</i></div>"
        )
        return f"<div>{head}</div><ul style='margin:2px 0;padding-left:18px'>{body}</ul>{pending}"

    def _refresh_coach(self, now: bool = False) -> None:
        """The Coach for the decision at this step (cached per step); off while Play runs.
        In a Jupyter kernel (:func:`_kernel_loop`) a step not seen yet gets its Coach
        :data:`COACH_DELAY` seconds after the last step change (``now``: at once)."""
        c = None
        if self._coach_later is not None:
            self._coach_later.cancel()
            self._coach_later = None
        loop = None
        if not now and self.index not in self._coaching:
            loop = _kernel_loop()  # None: plain Python (tests, scripts): work it out at once
        if not self.coach_toggle.value:
            self.coach_html.layout.display = "none"
        elif self.play.playing:
            self.coach_html.layout.display = None
            self.coach_html.value = (
                f"<div style='{NOTE_STYLE}'><i>Coach: paused while playing.</i></div>"
            )
        elif loop is not None:
            self.coach_html.layout.display = None
            self.coach_html.value = (
                f"<div style='{NOTE_STYLE}'><i>Coach: working out the numbers...</i></div>"
            )
            i = self.index
            self._coach_later = loop.call_later(
                COACH_DELAY, lambda: self.index == i and self._refresh_coach(now=True)
            )
        else:
            self.coach_html.layout.display = None
            if self.index not in self._coaching:
                try:
                    self._coaching[self.index] = self._coach_step(self.index)
                except Exception as e:  # noqa: BLE001 - the coach must never break a replay
                    self._coaching[self.index] = f"Coach unavailable: {e}"
            c = self._coaching[self.index]
            if isinstance(c, str):
                self.coach_html.value = f"<i>{html.escape(c)}</i>"
                c = None
            else:
                self.coach_html.value = coaching_html(c)
        self._show_coach_heat(c)

    def _coach_step(self, i: int):
        """The Coach of step ``i`` (:func:`moneynb.coach.coach_step`; the replay view asks the
        Coach package, the engine's replay knows none)."""
        from ..coach import coach_step

        seat = self.replay.deciders[i]
        if self._hides_options(seat):  # its numbers would name the bot's hidden cards
            return (
                f"The Coach shows {self.replay.players[seat]}'s decisions once the game is "
                "over (until then they may hold hidden cards)."
            )
        return coach_step(self.replay, i)

    def _log_html(self) -> str:
        r = self.replay
        # the lines of the move that led to this step (at step 0: the setup's), the same events
        # the board, dice, card and spinner show (issue 30, case 7); the step's own choice
        # is the decision panel's, and its lines come with the next step
        end = r.log_len[self.index]
        start = r.log_len[self.index - 1] if self.index > 0 else 0
        now = r.log[start:end]
        before = r.log[max(0, start - LOG_BEFORE) : start]

        def line(e, cls: str, style: str) -> str:
            text = self.board.event_text(self.game, e)  # the board's plain words (issue 38)
            if not text:
                return ""  # a line the next one says
            text = self.plain(text)
            return (
                f"<div class='moneynb-log-line moneynb-log-{_css(e.kind)} {cls}' "
                f"style='margin:0;{style}'>{html.escape(capital_first(text, r.players))}</div>"
            )

        lines = "".join(line(e, "", "") for e in before)
        lines += "".join(
            line(e, "moneynb-log-current", "background:#fff3c4;color:#1a1a1a;font-weight:bold")
            for e in now
        )
        more = (
            f"<div style='{NOTE_STYLE}'>({start - len(before)} earlier events not shown)</div>"
            if start > len(before)
            else ""
        )
        return (
            f"<div class='moneynb-log-box' data-count='{end}' role='region' "
            f"aria-label='Game log' tabindex='0' style='max-height:220px;"
            f"overflow-y:auto;display:flex;flex-direction:column-reverse;"
            f"border:1px solid #ddd;padding:4px;font-size:0.9em;line-height:1.35'>"
            f"<div>{more}{lines}</div></div>"
        )

    def _announcement(self) -> str:
        s = self.replay.step(self.index)
        if s.seat is None:
            return f"Step {self.index}: game over."
        taken = f", chose {s.taken_label}" if s.taken is not None else ""
        return f"Step {self.index} of {self.replay.n}: {s.player}: {s.prompt}{taken}."

    # ----- the "where the game turned" chart ------------------------------------------
    def _make_chart(self):
        traces, layout = chart_parts(self.replay, self.index)
        fig = BoardFigure(data=traces, layout=layout, config={"displayModeBar": False})
        fig.layout.update(chart_colors(palette()))  # before it reaches the page
        fig.on_theme(lambda theme: self._chart_theme(fig, theme))
        for t in fig.data:
            t.on_click(self._chart_clicked)
        box = widgets.Box([fig], layout=widgets.Layout(width="100%"))
        box.add_class("moneynb-replay-chart")
        self.chart_figure = fig
        return box

    @staticmethod
    def _chart_theme(fig, theme: str) -> None:
        """The page switched theme: the chart's colours from that theme's palette."""
        with fig.batch_update():
            fig.layout.update(chart_colors(palette(theme)))

    def _mark_chart(self) -> None:
        fig = getattr(self, "chart_figure", None)
        if fig is not None:
            # the one shape's x only: plotly.js redraws that shape (replacing the whole shapes
            # list replots the chart: about 120 ms a step in the page, 587 steps x 4 players)
            with fig.batch_update():
                line = fig.layout.shapes[0]
                line.x0 = line.x1 = self.index

    def _chart_clicked(self, trace, points, selector=None) -> None:
        """A click on a point of the chart: go to its step."""
        if points.xs:
            self.go(int(points.xs[0]))

    # ----- continuing -----------------------------------------------------------------
    _branched_at: tuple = (0.0, None)

    def _branch_clicked(self) -> GameView | None:
        """A click of "Continue from here": :meth:`branch`, unless it is the second click of
        a double-click: the same step and seats asked within :data:`REPEAT_CLICK_S` of the
        end of the last click's (the kernel handles the second click once the first one's
        game is made). A second game from the same step takes a second click later."""
        asked = (self.index, tuple(d.value for d in self.seat_choices),
                 tuple(b.value for b in self.seat_names))  # fmt: skip
        done, before = self._branched_at
        if before == asked and time.perf_counter() - done < REPEAT_CLICK_S:
            return None
        try:
            return self.branch()
        finally:
            self._branched_at = (time.perf_counter(), asked)

    def branch(self, i: int | None = None) -> GameView:
        """ "Continue from here": a new live game from step ``i`` (default: the step shown),
        kept in the store as a new game (the replayed game is untouched), shown under the
        replay as a :class:`GameView` (seats as the "Seats of the new game" drop-downs say,
        :meth:`chosen_seats`: at first the replayed game's bot seats stay bots, the others
        are people). Returns that view (also :attr:`branched`).

        A store that cannot be written gives a game that is not saved, and a note saying so
        (nothing is raised). A stored table that is still being played (checked again now)
        is refused with a plain note and None is returned (issue 35, case 2); so are too many
        new games in a minute (:mod:`moneynb.store.limits`).

        Raises:
            IndexError, TypeError: a bad step.
        """
        from ..bots import make_bot, person_name_problem
        from ..store import LiveTable, StoreError, TooManyTries, open_store
        from . import _bot_seed, _count_new_game
        from .launcher import money_rows

        i = self.index if i is None else self.replay._index(i)
        names = self.chosen_names()
        try:
            type(self.replay.final)._check_players(names)
        except ValueError as e:  # a name typed twice, or a bot's request ("bot:greedy")
            self._refuse_branch(f"The seats' names: {e}.")
            return None
        for seat in sorted(self._named_by_hand):  # "you" beside "You"; "Greedy bot 1"
            if self.seat_choices[seat].value != "human":
                continue
            problem = person_name_problem(
                names[seat], names[:seat] + names[seat + 1 :], money_rows(self.replay.name)
            )
            if problem:
                self._refuse_branch(f"The seats' names: {problem}.")
                return None
        try:
            if self.source_id is not None:
                LiveTable.check(open_store(self.store).info(self.source_id),
                                "continued from a step")  # fmt: skip
            _count_new_game(self.store, self.owner)
        except (LiveTable, TooManyTries) as e:
            self._refuse_branch(str(e))
            return None
        except StoreError:
            pass  # the store is down: the new game says it is not saved, as below
        self.play.playing = False  # the replay stops moving under the new game
        try:
            g = self.replay.branch(i, players=names)
        except ValueError as e:  # a name the game refuses (a house account's, "Bank")
            self._refuse_branch(f"The seats' names: {e}.")
            return None
        controllers = [None] * len(g.players)
        specs = self.chosen_seats()  # bot seats stay bots unless the player changed them
        for seat, spec in specs.items():
            controllers[seat] = make_bot(spec, seed=_bot_seed(g.seed, seat, len(g.actions)))
        # no "Unfinished games" box: the new game is the one asked for (issue 30, case 7)
        view = GameView(g, controllers, autosave=True, bot_specs=specs,
                        origin=self.origin, store=self.store, owner=self.owner,
                        offer_saves=False)  # fmt: skip
        chance = (
            " Its dice and cards from here on are its own: the replayed game is not over."
            if self.secret
            else " The same dice and cards come as in the replayed game for the same moves."
        )
        if not self.secret and self._stored_as_practice(view.game_id):
            # said only when the store marked it (a replayed game the store does not hold,
            # a simulated one, cannot be traced: the tester of stop 48)
            chance += " So it is practice: a class's teacher sees it marked, and it is not counted."
        # a seat renamed is said once, so the log's earlier moves under the new name do
        # not confuse
        renamed = [(old, new) for old, new in zip(self.replay.players, g.players, strict=True)
                   if old != new]  # fmt: skip
        chance += "".join(
            f" {html.escape(new)} now {'play' if new.lower() == 'you' else 'plays'} the seat that was "
            f"{html.escape(old)}'s; the log calls that seat {html.escape(new)} from the start."
            for old, new in renamed
        )
        if view.game_id is not None and view.save_problem is None:
            note = widgets.HTML(
                f"<div class='moneynb-replay-branch-note' style='background:#f1f8e9;"
                f"color:#1b5e20;padding:4px 8px'>A new game from step {i} of the replay, saved "
                f"as a game of its own (the replayed game is unchanged).{chance}</div>"
            )
        else:
            problem = view.save_problem or "no store"
            note = widgets.HTML(
                f"<div class='moneynb-replay-branch-note' role='alert' style='{ERROR_STYLE}'>"
                f"A new game from step {i} of the replay. It could not be saved "
                f"({html.escape(problem)}), so it is not saved: set MONEYNB_STORE to a store "
                "you can write to.</div>"
            )
        self.branch_box.children = [note, view]
        self.branched = view
        if self.on_branch is not None:
            self.on_branch(view)
        return view

    def _stored_as_practice(self, game_id) -> bool:
        """True when the store holds ``game_id`` (a new branch) and marked it practice
        (:attr:`moneynb.store.GameInfo.practice`); False when it did not, the game is not
        saved or the store cannot be read."""
        from ..store import StoreError, open_store

        if game_id is None:
            return False
        try:
            return bool(open_store(self.store).info(game_id).practice)
        except (StoreError, KeyError, ValueError):
            return False

    def _refuse_branch(self, why: str) -> None:
        """ "Continue from here" refused: one plain note where the new game would be."""
        self.branch_box.children = [
            widgets.HTML(
                f"<div class='moneynb-replay-branch-note' role='alert' style='{ERROR_STYLE}'>"
                f"⚠ {html.escape(why)}</div>"
            )
        ]

    def _ipython_display_(self, **kwargs) -> None:
        from IPython.display import display

        display(self._repr_mimebundle_(**kwargs), raw=True)

    def __repr__(self) -> str:
        return f"ReplayView({self.replay!r}; step {self.index})"


# ===== choosing a saved game ==================================================================
def saved_games(
    store, owner: str | None, limit: int = 50, finished_only: bool = True
) -> list[tuple[str, str]]:
    """The finished games of ``owner`` in ``store`` (``finished_only`` False: finished or
    not), newest first: ``[(description, game id)]`` with game, players, actions, whether it
    is over and when it was last saved, among the ``limit`` games saved last. A game still
    being played is not offered for replay in the app (the tester's F1, 2026-12-06: its
    replay's "Continue from here" dealt its coming dice and cards; it is offered under
    "Continue an unfinished game"), and a shared table still being played never is (issue
    35, case 2). No store or no owner (not known yet): nothing; a store that cannot be read:
    nothing (nothing is raised)."""
    from ..store import StoreError

    if store is None or not owner:
        return []
    try:
        games = store.list_games(owner, limit=limit)
    except StoreError:
        return []
    out = []
    for g in games:
        if g.table and not g.over:  # a live table: its replay would show the hidden cards
            continue
        if finished_only and not g.over:  # a game still being played: see the docstring
            continue
        state = "over" if g.over else "unfinished"
        out.append(
            (
                f"{g.title} · {', '.join(g.players)} · {g.actions} "
                f"action{'' if g.actions == 1 else 's'} · {state} · "
                f"{g.updated_local.strftime('%d %b %H:%M')}",
                g.id,
            )
        )
    return out


class ReplayChooser(widgets.VBox):
    """ "Replay a saved game": a list of the owner's finished stored games (newest first,
    :func:`saved_games`) and a Replay button showing the chosen one as a :class:`ReplayView`
    in :attr:`box`; a game still being played is refused (:meth:`show`). The list is empty
    until :attr:`owner` is set (the launcher sets it once the browser has said who it is).

    CSS classes: ``moneynb-replay-chooser``, ``moneynb-replay-list``, ``moneynb-replay-go``,
    ``moneynb-replay-refresh``, ``moneynb-replay-error``, ``moneynb-replay-box``.
    """

    def __init__(self, store=None, origin: str = "replay", on_show=None, owner=None):
        super().__init__()
        self.add_class("moneynb-replay-chooser")
        self.store = store
        self.owner = owner
        self.origin = origin
        #: ``on_show(view)`` puts a new :class:`ReplayView` on the page (default: :attr:`box`)
        self.on_show = on_show
        self.view: ReplayView | None = None
        self.list = widgets.Dropdown(
            description="Saved game",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto", max_width="640px"),
            _dom_classes=("moneynb-replay-list",),
        )
        self.go = button("Replay", ("moneynb-replay-go",), self.show,
                         tooltip="step through the chosen game")  # fmt: skip
        self.refresh_button = button("Refresh list", ("moneynb-replay-refresh",), self.refresh,
                                     tooltip="list the saved games again")  # fmt: skip
        self.error = widgets.HTML()
        self.error.add_class("moneynb-replay-error")
        self.box = widgets.VBox()
        self.box.add_class("moneynb-replay-box")
        self.children = [
            widgets.HTML("<b>Replay a saved game</b>"),
            widgets.HBox([self.list, self.go, self.refresh_button]),
            self.error,
            self.box,
        ]
        self.refresh()

    def refresh(self) -> None:
        """List the saved games again."""
        games = saved_games(self.store, self.owner)
        self.list.options = games
        self.list.value = games[0][1] if games else None
        self.go.disabled = not games
        self.error.value = (
            ""
            if games
            else f"<span style='{NOTE_STYLE}'>No finished games yet (a game can be replayed "
            "once it is over).</span>"
        )

    def _branched(self, game_view) -> None:
        """A game continued from the replay: listed as soon as it is over (its save line is
        redrawn after each save of a move)."""
        self.refresh()
        done = [game_view.game.over]

        def saved(_change) -> None:
            if game_view.game.over and not done[0]:
                done[0] = True
                self.refresh()

        game_view.save_label.observe(saved, "value")

    def show(self, game_id=None) -> ReplayView | None:
        """Replay the chosen stored game (or ``game_id``, one of the owner's, once it is
        over); returns the view, or None with the reason shown (a game still being played:
        "...can be replayed once it is over", see :func:`saved_games`)."""
        from ..core.errors import SaveFileError
        from ..store import StoreError

        game_id = game_id or self.list.value
        if not game_id or self.store is None:
            return None
        try:
            info = self.store.info(game_id, owner=self.owner)
            if not info.over and not info.table:  # (a live table: LiveTable's own words)
                raise ValueError(
                    "this game is still being played: it can be replayed once it is over "
                    "(to play on, continue it)"
                )
            text = self.store.read(game_id, owner=self.owner)
            seats = {s.seat: s.kind for s in info.seats if s.bot}
            view = ReplayView(text, store=self.store, origin=self.origin, owner=self.owner,
                              seats=seats, game_id=game_id)  # fmt: skip
        except (OSError, ValueError, SaveFileError, StoreError) as e:
            self.error.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return None
        self.error.value = ""
        self.view = view
        view.on_branch = self._branched  # a new game, listed once it is over
        if self.on_show is not None:
            self.on_show(view)
        else:
            self.box.children = [view]
        return view
