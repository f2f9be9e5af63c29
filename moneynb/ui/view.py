"""``GameView``: one game in a notebook (header, board, decision panel, money, log, autosave).

Flow: a person answers the pending decision through its panel; the view applies the action,
then lets every bot seat answer in turn (synchronously, at most ``max_bot_steps`` actions per
click so a game can never hang the kernel), redraws the board once, and stores the new actions
in the game store (:mod:`moneynb.store`), each append naming the action count it follows: when
another kernel played the same game on first, the view says so and shows the stored game;
when the store cannot be written, the move is taken back and the view says why. Several people at one screen play "hot seat": the panel always names whose decision it
is, and whoever that is answers.
"""

from __future__ import annotations

import html
import json
import logging
import re
import time
from typing import Any

import ipywidgets as widgets

from ..core.errors import IllegalAction, SaveFileError
from ..store import ConflictError, StoreError, open_store
from .a11y import (
    ERROR_STYLE,
    HANDOFF_INLINE_STYLE,
    HANDOFF_STYLE,
    NOTE_STYLE,
    NOTICE_STYLE,
    A11yHelper,
    seat_html,
    token_html,
)
from .boards import board_for
from .boards.base import money, player_color, plot_text, zoom_for
from .pace import pace
from .panels import button, from_page, make_panel, set_disabled

log = logging.getLogger("moneynb")
#: the Undo button's tooltip while it can take something back
UNDO_TOOLTIP = "take back your last decision (and the bots' moves after it)"
#: how many log lines the page shows (the full log stays in ``game.log``)
LOG_LINES = 300
#: seconds in which a second Undo click is taken as part of a double-click (a browser's
#: double-click interval is about 0.5 s); the board uses its own ``REPEAT_CLICK_S`` likewise
REPEAT_CLICK_S = 0.4
#: the scale (0..1] the page last drew each game's board at (``A11yHelper.board_scale``), by
#: the game's class name: a new view of that game in this kernel (a new game, a game brought
#: back) draws its first board with its text sized for it, as the window is most likely the
#: same; the page corrects a wrong guess as before. Issue 38: a new board's text was 7.5-10.2
#: px on screen until the page had reported its scale and the kernel had drawn it again.
_LAST_SCALE: dict[str, float] = {}
#: hot seat (issue 38, case 1): seconds after the screen passes to another person in which a
#: person's click on the new decision is not taken (a slower double-click of the person
#: before, its clicks up to ~0.6 s apart, lands on the next person's control, drawn in the
#: same place); the hand-over line says whose turn it is, and a click after this is taken.
#: The page holds the new controls' clicks back for as long from when it shows them (class
#: ``moneynb-handover``, the CSS in :mod:`moneynb.ui.a11y`), the kernel from when it drew
#: them (earlier: the kernel's hold is over first, so a click the page lets through is
#: taken). It was 1.0 s: the next person's double-click about 1 s after the hand-over line
#: appeared played nothing (5 of 6 tries, Voila, load 6-10: both clicks fell in the page's
#: hold, which began 40-113 ms after the line); now its first click plays (hotseat48)
HANDOVER_S = 0.7
#: seconds for which the controls of a person's new decision take no click in the page,
#: counted from when the page shows them (class ``moneynb-fresh`` of the view's panel box,
#: the CSS in :mod:`moneynb.ui.a11y`): a slower double-click (its clicks up to ~0.6 s apart) would
#: otherwise answer the person's next decision too when its control is drawn where the
#: clicked one was (Moolah's Black Jack bet, then "stay"; Easy Money's "Mortgage", then "Lift
#: the mortgage"; a Roll after the bots' turns). Found by a new user's try (issue 38, case 1)
FRESH_S = 0.7
#: what a click on a decision's control says when that decision was already answered (the
#: page still showed its panel for 80-275 ms after the header changed: the tester's F4, issue
#: 38): the click plays nothing, and says so beside the new decision
STALE_CLICK = "That choice was already made — this is the next one."
#: seconds after a person's click answered a decision in which a second click on the same
#: control of that decision's panel is the rest of a double-click (a slow one: up to ~0.6 s
#: apart, and the page may take as long again to send it): it plays nothing and, unlike a
#: click on another control of the old panel (:data:`STALE_CLICK`), says nothing (issue 18,
#: case 3: a double-click is one move and shows nothing more)
DOUBLE_CLICK_S = 1.5
#: the same, for a control of a decision since taken back (an undo)
UNDONE_CLICK = "That button was for a move since taken back — this is the decision now."


_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
#: words ending in "s" that are not third-person verbs
_NOT_VERBS = frozenset({"his", "its", "this", "thus", "plus", "less", "yes", "always", "perhaps"})


def _base_verb(word: str) -> str:
    """``"moves"`` -> ``"move"``, ``"passes"`` -> ``"pass"``, ``"flies"`` -> ``"fly"``,
    ``"is"`` -> ``"are"``; a word not ending in a third-person ``s`` comes back as it is."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word in _NOT_VERBS:
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


def undo_why_html(why: str) -> str:
    """The line beside a disabled Undo button (class ``moneynb-undo-note``): ``why`` (one
    plain sentence, :meth:`GameView.undo_refusal`) as a small muted span of class
    ``moneynb-undo-why``, which the page names as the button's description
    (``aria-describedby``, :mod:`moneynb.ui.a11y`); ``""`` for no reason (Undo is on).
    Issue 38: the reason was only the button's tooltip, which a touch or keyboard user never
    sees (hotseat48)."""
    if not why:
        return ""
    return f"<span class='moneynb-undo-why'>{html.escape(why)}</span>"


def second_person(text: str) -> str:
    """A log line about a player named "You" in grammatical English: the engines write every
    player in the third person ("You moves 3", "You's bank account", "You cannot pass the
    Bank and stops"); this gives "You move 3", "Your bank account", "... and stop". Used by
    the view for a person seated as "You" (the play notebooks' default name)."""
    text = re.sub(r"^You's\b", "Your", text)
    text = re.sub(r"\bYou's\b", "your", text)  # "... above You's pawn" -> "... above your pawn"
    text = re.sub(r"\bYou ([a-z]+)\b", lambda m: "You " + _base_verb(m.group(1)), text)
    if text.startswith("You "):  # verbs joined to that subject: "... and stops", "but has",
        head, sep, tail = text.partition(": ")  # in its first clause only (not card texts)
        head = re.sub(
            r" (and|but) ([a-z]+)\b", lambda m: f" {m.group(1)} {_base_verb(m.group(2))}", head
        )
        text = head + sep + tail
    return text


def coaching_html(c) -> str:
    """The Coach box for a ``moneynb.coach.Coaching`` (or None: nothing to weigh up), as
    HTML; one drawing for the live view and the replay: the recommendation first (class
    ``moneynb-coach-best``), the lines why (``moneynb-coach-why``), the numbers behind them in
    a "Details" toggle (``moneynb-coach-details``, closed). A fixed foreground on a fixed
    background, readable in both themes."""
    if c is None:
        return f"<div style='{NOTE_STYLE}'><i>Coach: nothing to weigh up here.</i></div>"
    first = c.summary()  # the recommendation, then the lines why
    ul = "<ul style='margin:2px 0;padding-left:18px'>{}</ul>"
    items = lambda lines: "".join(f"<li>{html.escape(t)}</li>" for t in lines)  # noqa: E731
    head = f"<div class='moneynb-coach-best'><b>{html.escape(first[0])}</b></div>" if first else ""
    why = ul.replace("<ul ", "<ul class='moneynb-coach-why' ").format(items(first[1:]))
    why = why if first[1:] else ""
    body = ul.format(items(c.lines))
    if first and c.lines:  # the numbers behind the advice, on request
        body = (
            "<details class='moneynb-coach-details'><summary style='cursor:pointer'>Details"
            f"</summary>{body}</details>"
        )
    return (
        "<div style='border:1px solid #e0b040;background:#fffaf0;color:#1a1a1a;"
        f"padding:4px 8px;margin:4px 0'><b>Coach: {html.escape(c.title)}</b>{head}{why}{body}</div>"
    )


#: what a player reads when the game store cannot be written (issue 38, case 7): one
#: sentence in the product's words; the store's own message (a driver's text) goes to the
#: kernel's log (logger ``moneynb``)
STORE_DOWN = "the game store cannot be reached just now"


def store_problem_text(error: Exception) -> str:
    """``error`` (a :class:`~moneynb.store.StoreError`) as a player reads it: a few words
    without the driver's text (logged at WARNING on logger ``moneynb``). A store that is not
    writable at all (a read-only or missing folder) reads as such."""
    log.warning("moneynb: the game store failed: %s", error)
    text = str(error).lower()
    if any(w in text for w in ("read-only", "readonly", "permission", "not a directory",
                               "no such file", "unable to open")):  # fmt: skip
        return "the game store cannot be written here"
    return STORE_DOWN


def _choice_text(decision, action) -> str:
    """What ``action`` chose at ``decision``, in the engine's words (its label; an amount
    in dollars), or "" when there is nothing to say (a roll, a decision unknown)."""
    if decision is None:
        return ""
    try:
        if decision.kind == "amount" and isinstance(action, int) and action not in decision.options:
            return f"${action:,}"
        text = decision.label(action)
    except (KeyError, TypeError, ValueError):
        return ""
    return "" if text == str(action) and not isinstance(action, str) else text


def _same(a, b) -> bool:
    """Two actions are the same once stored (a tuple and a list of the same items are)."""
    try:
        return json.dumps(a) == json.dumps(b)
    except (TypeError, ValueError):
        return False


def widget_tree(roots) -> dict:
    """Every widget reachable from ``roots`` (widgets), by model id: through each trait that
    holds a widget or a list/tuple of widgets (``children``, ``layout``, ``style``, ...).

    Source: issue 41 (a reload rebuilds every widget the kernel holds: see
    :meth:`GameView._close_replaced_panel`).
    """
    seen: dict = {}
    stack = list(roots)
    while stack:
        w = stack.pop()
        if not isinstance(w, widgets.Widget) or w.model_id is None or w.model_id in seen:
            continue
        seen[w.model_id] = w
        for name in w.keys:
            value = getattr(w, name, None)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
    return seen


def _css(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in str(text).lower())


def capital_first(text: str, names=()) -> str:
    """``text`` with a capital first letter ("bank paid..." -> "Bank paid..."), unless it
    starts with one of ``names`` (players' names), which are written as their players spelled
    them: a simulated game's "greedy2" stays "greedy2" in the log, as in the results table
    (issue 38, case 8: "greedy1" in the table, "Greedy2" in the log)."""
    if any(n and text.startswith(n) for n in names):
        return text
    return text[:1].upper() + text[1:]


class GameView(widgets.VBox):
    """The widget that plays ``game`` in a notebook.

    Args:
        game: a :class:`~moneynb.core.Game` (new or loaded).
        controllers: one entry per seat, a list or ``{seat: bot}``: a bot object (with
            ``choose(game)``) for a bot seat, ``None`` for a person. Default: all people.
        autosave: True: keep the game in the store after every click (``play`` passes it);
            False or None (the default): no saving.
        title: header text (default: the game's title).
        bot_delay: seconds to pause after each bot action so people can follow (0 in tests;
            the kernel is busy during the pause).
        max_bot_steps: most bot actions run after one click; when reached, a "Let the bots
            move" button continues (0 means bots move only when that button is pressed).
        bot_specs: ``{seat: "bot:greedy"}`` stored as the seats' kinds (for resuming).
        origin: where the game was started, kept with it in the store (``"lab"`` for
            ``play``, ``"launcher:<game>"`` for a form; see :mod:`moneynb.ui.saves`).
        store: a :class:`moneynb.store.Store` or its location (None: the default store,
            ``MONEYNB_STORE``).
        game_id: the id of ``game`` in the store when it is a stored game resumed (its
            actions are all stored), None for a game to store now.
        owner: the owner of a new game (None: the hub user or this browser, once known:
            :mod:`moneynb.ui.identity`).
        offer_saves: False: no "Unfinished games" offer above the board (a replay's
            "Continue from here" shows the game it made, not others saved beside it).

    Raises:
        ValueError: ``controllers`` of the wrong length; ``autosave`` not True/False/None.

    With autosave on, the view offers its owner's unfinished games (newest first, class
    ``moneynb-resume``; :meth:`continue_game` switches to one), and its notebook output
    carries a note saying what to do when the widget cannot be drawn (class
    ``moneynb-fallback``, hidden while the view draws).

    CSS classes (stable, for tests): ``moneynb-view``, ``moneynb-header``, ``moneynb-board``,
    ``moneynb-board-row`` (board, decision and tools; ``data-layout`` "side" or "stacked", set
    by the page), ``moneynb-side`` (holds the decision), ``moneynb-board-tools`` (Coach, money),
    ``moneynb-decision``, ``moneynb-prompt``, ``moneynb-error``, ``moneynb-money``,
    ``moneynb-log`` (the last move's lines: ``moneynb-log-last``), ``moneynb-undo``, ``moneynb-continue``, ``moneynb-save-path``,
    ``moneynb-coach-toggle`` (the Coach on/off), ``moneynb-coach`` (its panel), and the
    panel classes of :mod:`moneynb.ui.panels`.
    """

    #: whether this view takes a move back (a shared table's does not: issue 38, case 7)
    undo_allowed = True

    def __init__(
        self,
        game,
        controllers=None,
        autosave=None,
        title: str | None = None,
        bot_delay: float = 0.0,
        max_bot_steps: int = 1000,
        bot_specs=None,
        origin: str = "lab",
        store=None,
        game_id: str | None = None,
        owner: str | None = None,
        offer_saves: bool = True,
    ):
        super().__init__()
        self.add_class("moneynb-view")
        self.game = game
        n = len(game.players)
        if controllers is None:
            controllers = [None] * n
        if isinstance(controllers, dict):
            controllers = [controllers.get(i) for i in range(n)]
        if len(controllers) != n:
            raise ValueError(
                f"controllers must have one entry per seat ({n}), got {len(controllers)}"
            )
        self.controllers = list(controllers)
        self.bot_specs = dict(bot_specs or {})
        self.title = title or game.title
        self.bot_delay = float(bot_delay)
        self.max_bot_steps = int(max_bot_steps)
        if autosave not in (None, True, False):
            raise ValueError(
                "autosave is True or False: games are kept in the game store (pass store= a "
                f"store path or URL to choose it), got {autosave!r}"
            )
        from .identity import BrowserIdentity, current_owner

        #: the store the game is kept in (None: autosave off, or it could not be opened)
        self.store = None
        #: the game's id in the store (None: not stored yet)
        self.game_id = game_id
        self.owner = owner or current_owner()
        #: the actions known to be stored (the store's copy, as far as this view knows)
        self._synced: list = list(game.actions) if game_id is not None else []
        self._status_saved: dict | None = None
        #: the last store failure, or None when the last save worked
        self.save_problem: str | None = None
        self._saved_at: float | None = None
        #: texts of bug reports (engine failures met during clicks), newest last
        self.bug_reports: list[str] = []
        if autosave:
            try:
                self.store = open_store(store)
            except StoreError as e:  # a store that cannot be opened: its message names
                self.save_problem = str(e)  # where, for whoever set it up
        self.autosave = self.store is not None or self.save_problem is not None
        self.identity = BrowserIdentity(layout=widgets.Layout(width="0px", height="0px"))
        self.start_total = sum(game.money().values())
        self.last_latency_ms: float | None = None
        self._busy = False
        #: True once another game took this view's place under the form (:meth:`retire`)
        self._retired = False
        #: events of a click not drawn yet (see submit), or None
        self._held_events = None
        self._save_ok = True
        self._decision_key = object()
        #: messages about engine failures met during clicks (shown at the end of the log)
        self.engine_errors: list[str] = []
        #: bumped by every undo: a control drawn before an undo answers nothing after it
        self._epoch = 0
        #: perf_counter() of the last Undo button click (see _undo_clicked)
        self._undo_clicked_at = float("-inf")
        #: hot seat: ``(step, perf_counter())`` of a decision drawn when the screen passed to
        #: another person (see HANDOVER_S), or None
        self._handed_over: tuple | None = None
        #: ``(step, action, perf_counter())`` of the last decision a click from the page
        #: answered (:data:`DOUBLE_CLICK_S`)
        self._answered_by_click: tuple | None = None

        #: ``(seat, events)`` of the last action applied to the game, whoever took it (the
        #: "last move" line; see _play_move), and where its events start in ``game.log``
        self._last_move: tuple | None = None
        self._last_move_at: int | None = None
        self._last_choice = ""
        self._recall_last_move()  # a game brought back shows its last move at once
        #: the seat of the person who acted last at this screen (hot seat: the hand-off note)
        self._last_person: int | None = None
        self.board = board_for(game)
        self.board.pick = self._board_pick
        self.board.plain = self.plain
        self.board.shows_hidden = self._shows_hidden
        self.board.notice = self._board_notice
        self.board.on_retheme = self._retheme
        self.board.on_rezoom = self._rezoom
        # screen readers: the live region and the focus mover (moneynb.ui.a11y)
        from .saves import lost_text

        self.a11y = A11yHelper(
            layout=widgets.Layout(width="0px", height="0px"),
            lost_text=lost_text("game", saved=self.store is not None),
        )
        # the page draws the board smaller in a short window: its text larger by as much
        self.a11y.observe(self._board_scaled, "board_scale")
        self._announced = len(game.log)
        self._focused_at: int | None = None
        self.board_text_toggle = widgets.ToggleButton(
            value=False,
            description="Board as text",
            tooltip="show the board as a table: tokens, spaces in play, the choices on the board",
        )
        self.board_text_toggle.add_class("moneynb-board-text-toggle")
        # always in the page for screen readers; shown on screen when the toggle is on
        self.board_text = widgets.HTML()
        self.board_text.add_class("moneynb-board-text")
        self.board_text.add_class("moneynb-sr-only")
        self.board_text_toggle.observe(self._board_text_shown, "value")

        self.header = widgets.HTML()
        self.header.add_class("moneynb-header")
        self.prompt = widgets.HTML()
        self.prompt.add_class("moneynb-prompt")
        self.panel_box = widgets.Box()
        # every control drawn in it takes no click for its first FRESH_S (the page's CSS: a
        # newly drawn control starts the animation), so no message per new panel
        self.panel_box.add_class("moneynb-fresh")
        #: the widgets of the panel last replaced (closed when the next one is replaced)
        self._replaced_panel: list = []
        self.panel_box.observe(self._close_replaced_panel, names="children")
        self.error = widgets.HTML()
        self.error.add_class("moneynb-error")
        self.decision_box = widgets.VBox([self.prompt, self.panel_box, self.error])
        self.decision_box.add_class("moneynb-decision")
        self.money_html = widgets.HTML()
        self.money_html.add_class("moneynb-money")
        # "auto": stretched by the view to its width less its margin (100% stuck out 2 px)
        self.log_html = widgets.HTML(layout=widgets.Layout(width="auto"))
        self.log_html.add_class("moneynb-log")
        self.undo_button = button(
            "Undo",
            ("moneynb-undo",),
            self._undo_clicked,
            tooltip=UNDO_TOOLTIP,
        )
        #: the Undo button's own line: why an undo was refused, beside the button (issue 38)
        self.undo_note = widgets.HTML()
        self.undo_note.add_class("moneynb-undo-note")
        self._undo_note_at: int | None = None
        #: ``(game object id, undo epoch, len(actions)) -> indices of people's actions``
        #: (see _human_action_indices): kept up to date move by move, found by replay after
        #: an undo or a load only
        self._human_idx: tuple | None = None
        self.continue_button = button(
            "Let the bots move", ("moneynb-continue",), self.continue_bots
        )
        self.save_label = widgets.HTML()
        self.save_label.add_class("moneynb-save-path")
        # the Coach (moneynb.coach): numbers behind the pending person's decision
        self.coach_toggle = widgets.ToggleButton(
            value=False,
            description="Coach",
            icon="graduation-cap",
            tooltip="show the odds and expected values behind this decision",
        )
        self.coach_toggle.add_class("moneynb-coach-toggle")
        self.coach_html = widgets.HTML(layout=widgets.Layout(display="none"))
        self.coach_html.add_class("moneynb-coach")
        self._coach_heat = False
        self.coach_toggle.observe(lambda _change: self._refresh_coach(), "value")

        self.origin = origin
        # a resumed game was answered by a person before (only such games are offered)
        self._person_moved = bool(game.actions) and bool(self._human_action_indices())
        self._fallback_id = f"moneynb-fallback-{id(self):x}"
        # the scale the page drew this game's last board at: the first drawing's text is
        # already sized for it (see _LAST_SCALE)
        known = _LAST_SCALE.get(type(game).__name__)
        if known is not None:
            self.a11y.board_scale = known
        # draw the start and the bots' first moves BEFORE the figure goes to the page, so its
        # first message already holds them (see BoardFigure)
        self._update_board(list(game.log))
        self.run_bots(refresh=False)
        self.board.release()
        # Board, pending decision and the tools (Coach, money table) in one grid (issue 30,
        # case 1; the CSS and a11y.fitBoards choose): side by side when the view has room for
        # the board at its own size and a column for the decision (at the top right, the
        # tools under it); otherwise stacked: the decision FIRST, then the board (drawn
        # smaller when the view is narrower than it), then the tools, so that a player sees
        # the controls and the board together. Never a box that scrolls (a scrollable region
        # a keyboard cannot reach: axe scrollable-region-focusable).
        width = int(self.board.figure.layout.width or 0) or 580
        self._board_box = board_box = widgets.Box(
            [self.board.widget()],
            layout=widgets.Layout(
                flex=f"0 1 {width + 4}px", min_width="0", max_width="100%", overflow="visible"
            ),
        )
        board_box.add_class("moneynb-board")
        side = widgets.VBox([self.decision_box], layout=widgets.Layout(min_width="0"))
        side.add_class("moneynb-side")
        tools = widgets.VBox(
            [
                widgets.HBox(
                    [self.coach_toggle, self.board_text_toggle],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.coach_html,
                self.money_html,
            ],
            layout=widgets.Layout(min_width="0"),
        )
        tools.add_class("moneynb-board-tools")
        # (without the page's CSS, e.g. a static export: a row that wraps)
        self._board_row = widgets.Box(
            [board_box, side, tools], layout=widgets.Layout(flex_flow="row wrap")
        )
        self._board_row.add_class("moneynb-board-row")
        extra = self.board.panels()
        from .saves import ResumeOffer

        self.offer = ResumeOffer([], self.continue_game)
        self.offer_saves = offer_saves
        # hides this view's own "cannot be drawn" note while the view is drawn
        hide = widgets.HTML(
            f"<style>.{self._fallback_id} {{ display: none !important; }}</style>",
            layout=widgets.Layout(width="0px", height="0px"),
        )
        self._panels_box = widgets.HBox(
            extra, layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")
        )
        self._panels_box.add_class("moneynb-board-panels")
        self.children = [
            self.identity,
            self.offer,
            hide,
            self.header,
            self.a11y,
            self._board_row,
            self._panels_box,
            self.board_text,
            widgets.HTML("<b>Log</b> (newest last)"),
            self.log_html,
            widgets.HBox(
                [self.undo_button, self.undo_note, self.continue_button, self.save_label],
                layout=widgets.Layout(align_items="center"),
            ),
        ]
        self.refresh()
        # the owner's other unfinished games, once the owner is known (the browser tells)
        if self.owner:
            self._owner_known(self.owner)
        else:
            self.identity.on_owner(self._owner_known)

    def _owner_known(self, owner: str) -> None:
        """The hub user or browser is known: own this game if nobody does yet, and offer the
        owner's other unfinished games."""
        from .saves import unfinished

        if self.owner is None:
            self.owner = owner
            if self.store is not None and self.game_id is not None:
                try:
                    self.store.set_owner(self.game_id, owner)
                except StoreError as e:
                    self._save_failed(e)
        if self.store is not None and self.owner == owner and self.offer_saves:
            self.offer.set_games(
                unfinished(self.store, owner, game=self.game.name, exclude=[self.game_id])
            )

    # ----- who is who -----------------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        """True when ``seat`` is played by a person (no bot controller)."""
        return self.controllers[seat] is None

    @property
    def _you(self) -> bool:
        players = self.game.players
        return "You" in players and self.is_human(players.index("You"))

    def plain(self, text: str, decider: int | None = None) -> str:
        """``text`` (an engine's prompt, label, account name or event) as the people at this
        screen read it: when a person is seated as "You", in the second person
        (:func:`second_person`: "You have $0", "Your bank account"). ``decider``: the seat
        the text is shown to; when that is not "You", a "you" in it means the decider, so
        it becomes their name ("You offers you Park Row" -> "You offer Ann Park Row")."""
        if not self._you:
            return text
        if decider is not None and self.game.players[decider] != "You":
            if re.match(r"You [a-z]+\b", text) and re.search(r"\byou\b", text):
                name = self.game.players[decider]
                text = re.sub(r"\byou\b", name, text)
        return second_person(text)

    def _shows_hidden(self, seat: int) -> bool:
        """Whether this screen may show ``seat``'s hidden information (a Language card's
        words, which Advantage card it drew: :meth:`BoardRenderer.shows_hidden`): only when
        ``seat`` is the one person at this screen (issue 35, case 4)."""
        return self.screen_seats == {seat}

    @property
    def screen_seats(self) -> set[int]:
        """The seats played by the people at this screen: every person's seat (hot seat);
        a shared table's view has only its own (:class:`moneynb.ui.table.TableView`), so it
        never asks to hand the screen over."""
        return {s for s in range(len(self.game.players)) if self.is_human(s)}

    @property
    def human_turn(self) -> bool:
        """True when the pending decision belongs to a person."""
        d = self.game.decision
        return d is not None and self.is_human(d.player)

    # ----- acting ---------------------------------------------------------------------
    @property
    def step(self) -> tuple[int, int]:
        """Which decision is pending: ``(undo epoch, index in game.actions its answer will
        take)``. Every control of the panel is drawn for one step (see :meth:`answer`)."""
        return (self._epoch, len(self.game.actions))

    def answer(self, step: tuple[int, int] | None = None):
        """``submit`` bound to the decision pending at ``step`` (default: now): the callable
        every panel control calls. Once that decision is answered (or undone) it does nothing,
        so the second click of a double-click, or a click on a panel the page has not yet
        replaced, cannot answer the next decision."""
        step = self.step if step is None else step
        d = self.game.decision
        drawn_for = d.player if d is not None else None

        def answer_step(action):
            if from_page() and self._just_handed_over(step):
                return False
            if step != self.step and from_page() and not (self._retired or self._busy):
                # a person's click on a panel the page had not replaced yet: nothing is
                # played (one click, one move), and the click is not dropped without a word,
                # unless it is the second click of a double-click on the control that answered
                last = self._answered_by_click
                if not (last and last[0] == step and last[1] == action
                        and time.perf_counter() - last[2] < DOUBLE_CLICK_S):  # fmt: skip
                    self._board_notice(self._stale_text(step, drawn_for))
                return False
            done = self.submit(action, step=step)
            if done and from_page():
                self._answered_by_click = (step, action, time.perf_counter())
            return done

        answer_step.view = self  # a board's own panel reaches the view (its undo) through it
        return answer_step

    def _stale_text(self, step: tuple[int, int], drawn_for: int | None) -> str:
        """What a person's click on a control of an answered (or undone) decision says, beside
        the decision now pending: :data:`STALE_CLICK` (:data:`UNDONE_CLICK`); in hot seat,
        when that control was another person's than the one who decides now, whose choice
        it was and whose turn it is (issue 38, case 1: the next person, clicking the
        person before's panel the page still showed, read "That choice was already made",
        though they had chosen nothing)."""
        if step[0] != self._epoch:
            return UNDONE_CLICK
        d, people = self.game.decision, self.screen_seats
        if (d is None or drawn_for is None or drawn_for == d.player or len(people) < 2
                or d.player not in people or drawn_for not in people):  # fmt: skip
            return STALE_CLICK
        before, now = self.game.players[drawn_for], self.game.players[d.player]
        return (
            f"That button was for {before}'s choice, already made. "
            f"{now}, it is your turn: your buttons are here now."
        )

    def _just_handed_over(self, step: tuple[int, int] | None = None) -> bool:
        """Hot seat (issue 38, case 1): True when the pending decision (drawn for ``step``,
        default now) was drawn as the screen passed to another person less than
        :data:`HANDOVER_S` ago: a person's click then is taken as the person before's
        (a slower double-click landing on the next person's control) and not used; the
        panel says so, and the next click is taken. (The page holds such a click back first:
        :data:`HANDOVER_S`.)"""
        h = self._handed_over
        step = self.step if step is None else step
        if h is None or h[0] != step or time.perf_counter() - h[1] >= HANDOVER_S:
            return False
        d = self.game.decision
        who = self.game.players[d.player] if d is not None else ""
        self._board_notice(
            f"That click came as the turn passed to {who}, so it was not used: {who}, click again."
        )
        self._handed_over = None  # a second try is the new person's
        return True

    def _board_pick(self, action: Any) -> bool:
        """A pick on the board: as :meth:`submit`, except a person's click from the page just
        after the screen passed to another person (:meth:`_just_handed_over`)."""
        at_action, at = getattr(self.board, "_last_page_click", (None, float("-inf")))
        page = at_action == action and time.perf_counter() - at < 1.0
        if page and self._just_handed_over():
            return False
        return self.submit(action)

    def submit(self, action: Any, step: tuple[int, int] | None = None) -> bool:
        """Apply a person's ``action`` to the pending decision, then let the bots move.

        ``step``: the :attr:`step` the control was drawn for; when given and that decision is
        no longer pending, nothing happens and nothing is shown (returns False).

        Returns True if the action was applied (and, with autosave, stored). An illegal action
        changes nothing: its message is shown in the panel's error line (class
        ``moneynb-error``), never raised. A move the store did not take (another kernel played
        on first, or the store failed) is taken back, with a note, and gives False.
        """
        if self._busy or self._retired or (step is not None and step != self.step):
            return False
        d = self.game.decision
        if d is None:
            self._show_error("The game is over.")
            return False
        if not self.is_human(d.player):
            self._show_error(f"It is {self.game.players[d.player]}'s turn, not a person's.")
            return False
        t0 = time.perf_counter()
        self._busy = True
        # the board is drawn once per click, in one plotly update, right after the header:
        # the page handles messages in order, so the board then waits neither for the log,
        # the new panel's widgets and the rest, nor for the Coach's sums
        # (benchmarks/bench_browser.py)
        self._held_events = []
        step_before = self.step
        seat = self.game.decision.player if self.game.decision is not None else None
        try:
            try:
                events = self._play_move(action)
            except IllegalAction as e:
                self._show_error(str(e))
                return False
            except Exception as e:  # noqa: BLE001 - an engine bug must not reach the notebook
                self._engine_failed(e, action)
                return False
            self.error.value = ""
            self._person_moved = True
            self._last_person = seat
            self._update_board(events)
            self.run_bots(refresh=False)
            self.header.value = self._header_html()
            held, self._held_events = self._held_events, None
            self._update_board(held)
            self._save_ok = True
            self.refresh()
            kept = self._save_ok
        finally:
            held, self._held_events = self._held_events, None
            if held is not None and self.step != step_before:  # applied, not yet drawn
                self._update_board(held)
            self._busy = False
            # a board click from the page carries no decision: the board ignores one that
            # arrives within REPEAT_CLICK_S of this change (the second click of a double-click)
            self.board.changed_at = time.perf_counter()
        self.last_latency_ms = (time.perf_counter() - t0) * 1000
        return kept

    def run_bots(self, refresh: bool = True, limit: int | None = None) -> int:
        """Let bot seats answer until a person must decide, the game ends, or ``limit``
        (default ``max_bot_steps``) actions were taken; returns how many were taken."""
        limit = self.max_bot_steps if limit is None else limit
        taken, pending = 0, []
        while taken < limit and not self.game.over and not self.human_turn:
            seat = self.game.decision.player
            bot = self.controllers[seat]
            action = None
            try:
                action = bot.choose(self.game)
                events = self._play_move(action)
            except IllegalAction as e:  # a bot bug must not crash the notebook
                self._show_error(
                    f"{self.game.players[self.game.decision.player]} (bot) "
                    f"tried an illegal move: {e}"
                )
                break
            except Exception as e:  # noqa: BLE001 - nor an engine bug
                self._engine_failed(e, action)
                break
            taken += 1
            pending.extend(events)
            if self.bot_delay > 0:
                self._update_board(pending)
                pending = []
                self.refresh(save=False)
                time.sleep(self.bot_delay)
        if pending:
            self._update_board(pending)
        if refresh:
            self.refresh()
        return taken

    def _play_move(self, action: Any) -> list:
        """Apply ``action`` to the pending decision and keep it as the last move (its seat
        and events, for the "Last move" line and the log's mark): every action this view
        shows passes here, whoever took it (a person at this screen, a bot, another screen
        at a shared table: :meth:`moneynb.ui.table.TableView.follow`), so every screen names
        the same last move. Returns the events.

        Raises:
            IllegalAction, or an engine error: as ``Game.apply`` (nothing changed).
        """
        d = self.game.decision
        choice = _choice_text(d, action) if d is not None and d.allows(action) else ""
        known = self._human_idx
        key = (id(self.game), self._epoch, len(self.game.actions))
        events = self.game.apply(action)
        if known is not None and known[0] == key and d is not None:  # one more action known
            idx = known[1] + [key[2]] * self.is_human(d.player)
            self._human_idx = ((key[0], key[1], len(self.game.actions)), idx)
        self._last_move = (None if d is None else d.player, list(events))
        self._last_choice = choice  # read while pending (a lazy label after: a replay)
        self._last_move_at = len(self.game.log) - len(events)
        return events

    def _recall_last_move(self) -> None:
        """The "Last move" line of a game this view did not see played (brought back by a
        reload or a restart, continued, or after an undo): the game's own last action, its
        seat and its log lines, found by replaying the actions before it (the engine says
        who decided and what it logged; nothing is guessed). None before any action."""
        g = self.game
        self._last_move = self._last_move_at = None
        if not g.actions:
            return
        before = self._replayed(g.actions[:-1])
        d, n = before.decision, len(before.log)
        self._last_move = (None if d is None else d.player, list(g.log[n:]))
        self._last_choice = _choice_text(d, g.actions[-1])
        self._last_move_at = n

    def _replayed(self, actions) -> Any:
        """A new game of the shown game's config (players, seed, options) with ``actions``
        applied (the engine's own replay; the shown game is not touched).

        Raises:
            IllegalAction, or an engine error: an action the replay refuses."""
        g = self.game
        fresh = type(g)(list(g.players), g.seed, **g.options)
        for a in actions:
            fresh.apply(a)
        return fresh

    def continue_bots(self) -> None:
        """The "Let the bots move" button: run up to ``max_bot_steps`` (at least 1) bot actions."""
        if not self._retired:
            self.run_bots(limit=max(1, self.max_bot_steps))

    #: whether a finished game offers "New game" (a shared table's view does not: its host
    #: starts the next table)
    offers_new_game = True

    def _new_game_button(self):
        """The "New game" button a finished game shows where its decisions were
        (``moneynb-new-game``): :meth:`new_game`."""
        b = button(
            "New game",
            ("moneynb-new-game",),
            self.new_game,
            tooltip="play again here: the same players, new dice and cards",
        )
        b.icon = "redo"
        b.button_style = "success"
        return b

    def new_game(self) -> bool:
        """A finished game's "New game" (the tester's F7, 2026-12-06: in Lab a finished game
        offered nothing, and running the notebook's cell again replayed the same seeded
        dice): a new game in this view, in place of the finished one: the same players,
        seats (bots seeded afresh) and options, a fresh random seed
        (:func:`moneynb.tables.new_seed`), kept in the store as a new game (the finished one
        stays there, to replay). Returns True when a new game started; False (nothing
        changes) while the game is not over, once the view is retired, or past the number of
        new games a minute (the reason shown, :mod:`moneynb.store.limits`)."""
        from ..store import TooManyTries
        from ..tables import new_seed
        from . import _count_new_game

        old = self.game
        if self._retired or not old.over:
            return False
        if self.store is not None:
            try:
                _count_new_game(self.store, self.owner)
            except TooManyTries as e:
                self._show_error(str(e))
                return False
        options = {k: v for k, v in old.options.items() if k != "reseed"}  # (a branch's)
        game = type(old)(list(old.players), new_seed(), **options)
        self.game_id, self._synced, self._status_saved = None, [], None
        self._person_moved = False
        self._last_person = None
        self._replace_game(game)  # bots seeded afresh from their specs; no save yet
        self.run_bots(refresh=False)
        self.refresh()  # and saved as a new game
        return True

    def retire(self) -> None:
        """This view's game left the page (the form showed another in its place): a click on
        its controls, still drawn for a moment or in another tab, plays nothing (the tester's
        finding of 2026-12-06: a quick click on the old game's Roll button rolled for it after
        Start). :meth:`submit`, :meth:`undo` and the bots' button then do nothing."""
        self._retired = True

    def _human_action_indices(self) -> list[int]:
        """Indices into ``game.actions`` of the actions people took (found by replay once,
        then kept move by move: :meth:`_play_move`)."""
        g = self.game
        key = (id(g), self._epoch, len(g.actions))
        if self._human_idx is not None and self._human_idx[0] == key:
            return list(self._human_idx[1])
        fresh = self._replayed(())
        out = []
        for i, a in enumerate(g.actions):
            if self.is_human(fresh.decision.player):
                out.append(i)
            fresh.apply(a)
        self._human_idx = (key, out)
        return list(out)

    def undo_refusal(self) -> str:
        """Why the Undo button can take nothing back now, in one plain sentence (the engine's
        :meth:`Game.undo_refusal <moneynb.core.game.Game.undo_refusal>` for the last
        person's decision), or ``""`` when it can (issue 38: the button is then disabled,
        this its tooltip)."""
        if self._retired or not self.game.actions:
            return "There is nothing to take back yet."
        idx = self._human_action_indices()
        if not idx:
            return "There is nothing to take back yet: no person has decided."
        return self.game.undo_refusal(idx[-1])

    def undo(self, near_panel: bool = False) -> bool:
        """Take back the last person's decision and every bot move after it (by replay).
        Returns False when no person has decided yet, or when the game's undo policy (option
        ``undo``, "safe" by default: see ``Game.undo``) forbids going back past a die, spin
        or card already seen. The refusal is one plain sentence (:meth:`undo_refusal`, the
        engine's) beside the Undo button (``moneynb-undo-note``; ``near_panel``: in the
        decision's error line, for an undo button of the panel); the engine's technical
        message goes to the log (logger ``moneynb``)."""
        if self._retired:
            return False
        idx = self._human_action_indices()
        why = self.undo_refusal()
        if not why:
            try:
                self.game.undo_to(idx[-1])
            except IllegalAction as e:  # the engine refused after all: its words to the log
                log.info("undo refused: %s", e)
                why = self.game.undo_refusal(idx[-1]) or "That can't be taken back now."
        if why:
            if idx:
                log.info("undo to action %d refused (undo policy %r)", idx[-1],
                         self.game.options.get("undo"))  # fmt: skip
            self._undo_refused(why, near_panel)
            return False
        self._epoch += 1
        self._recall_last_move()
        self.board.changed_at = time.perf_counter()
        self.error.value = ""
        self.board.game = self.game
        self.board.rewind(self.game)
        self._update_board(list(self.game.log))
        self.refresh()
        return True

    def _engine_failed(self, error: Exception, action: Any) -> None:
        """An unexpected engine error during a click: ``Game.apply`` has already put the game
        back at its last good state; say so in the panel's error line and the log, and keep
        a bug report (traceback, action, save JSON) in :attr:`bug_reports` and the kernel's
        log (logger ``moneynb``)."""
        import traceback

        report = (
            f"moneynb bug report: {type(error).__name__} while applying {action!r}\n\n"
            + "".join(traceback.format_exception(error))
            + f"\nThe game before that action (moneynb.load_game):\n{self.game.to_json()}\n"
        )
        self.bug_reports.append(report)
        log.error("%s", report)
        text = (
            f"Something went wrong inside the game ({type(error).__name__}: {error}). "
            "The game is back where it was before this move (a bug report is in the "
            "view's bug_reports)."
        )
        self._show_error(text)
        self.engine_errors.append(text)
        self.log_html.value = self._log_html()

    def _undo_refused(self, text: str, near_panel: bool = False) -> None:
        """Say why an undo took nothing back: beside the Undo button (or in the decision's
        error line, ``near_panel``), until the game moves on."""
        if near_panel:
            self._show_error(text)
            return
        self._undo_note_at = len(self.game.actions)
        self.undo_note.value = (
            f"<span role='status' class='moneynb-undo-refused' style='{NOTICE_STYLE}'>"
            f"{html.escape(text)}</span>"
        )

    def _undo_clicked(self) -> None:
        """The Undo button: a second click within :data:`REPEAT_CLICK_S` of the last (a
        double-click) takes back one decision, not two."""
        now = time.perf_counter()
        if now - self._undo_clicked_at >= REPEAT_CLICK_S:
            self._undo_clicked_at = now
            self.undo()

    # ----- drawing --------------------------------------------------------------------
    def _update_board(self, events) -> None:
        if self._held_events is not None:  # inside submit(): drawn once at its end
            self._held_events.extend(events)
            return
        # one plotly update (one redraw in the page) for the board and its highlights
        with self.board.figure.batch_update():
            self.board.update(self.game, events)
            self.board.mark_turn(self.game)
            self.board.highlight(self.game.decision)

    def _board_scaled(self, change=None) -> None:
        """The page reported the scale it draws the board at (``A11yHelper.board_scale``):
        the board's text is drawn larger by as much, so it reads at 11 px or more on screen
        (issue 38; :meth:`moneynb.figures.base.BoardDrawing.set_text_zoom`)."""
        try:
            self.board.set_text_zoom(zoom_for(float(self.a11y.board_scale)))
        except ValueError:  # a scale the page should never send (0, negative): keep the text
            return
        self.a11y.zoomed_for = float(self.a11y.board_scale)
        _LAST_SCALE[type(self.game).__name__] = float(self.a11y.board_scale)

    def _rezoom(self) -> None:
        """The board's text was drawn at another zoom: draw the game's state (tokens,
        owners, the player to move, targets) again, and the Coach's last heat map as it was
        (not weighed up again: a resize never waits on the Coach).
        Called by the board inside its update."""
        self.board.update(self.game, [])
        self.board.mark_turn(self.game)
        self.board.highlight(self.game.decision)
        if self._coach_heat and getattr(self, "_heat_shown", None):
            self.board.show_heatmap(self._heat_shown)  # a tile board's tint (update reset it)

    def _retheme(self) -> None:
        """The page switched theme and the board took the new palette: draw the game's state
        (tokens, owners, the player to move, targets, the Coach's heat map) in it. Called by
        the board inside its update, so the page gets one message."""
        self.board.update(self.game, [])
        self.board.mark_turn(self.game)
        self.board.highlight(self.game.decision)
        if self._coach_heat:
            self._refresh_coach()

    def _board_notice(self, text: str) -> None:
        """A note from the board under the prompt (e.g. what a second click will do);
        cleared with the next decision, like an error line."""
        self.error.value = (
            f"<span role='status' class='moneynb-board-notice' style='{NOTICE_STYLE}'>"
            f"{html.escape(text)}</span>"
        )

    def _show_error(self, text: str) -> None:
        self.error.value = (
            f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(self.plain(text))}</span>"
        )

    def _board_text_shown(self, _change=None) -> None:
        if self.board_text_toggle.value:
            self.board_text.remove_class("moneynb-sr-only")
        else:
            self.board_text.add_class("moneynb-sr-only")

    def _board_text_html(self) -> str:
        """The board's text alternative: a table per section of ``board.describe`` (tokens,
        spaces in play, the legal targets of the pending decision), in plain English."""
        parts = ["<div role='region' aria-label='Board as text'><b>Board as text</b>"]
        for title, rows in self.board.describe(self.game).items():
            if not rows:
                continue
            body = "".join(
                "<tr>" + "".join(f"<td>{html.escape(self.plain(str(c)))}</td>" for c in r) + "</tr>"
                for r in rows
            )
            parts.append(
                f"<table class='moneynb-board-text-table' data-section='{_css(title)}' "
                f"style='border-collapse:collapse;margin:2px 0 6px'><caption style='text-align:"
                f"left;font-weight:bold'>{html.escape(title)}</caption>{body}</table>"
            )
        return "".join(parts) + "</div>"

    def _announce(self) -> None:
        """Put the log lines added since the last announcement, and whose decision it is
        now, in the live region (``moneynb-live``)."""
        g = self.game
        new = g.log[self._announced :] if self._announced <= len(g.log) else list(g.log)
        self._announced = len(g.log)
        texts = (self.board.event_text(g, e) for e in new[-12:])
        lines = [self.plain(t) for t in texts if t]  # "": a line said by the next one
        if len(new) > 12:
            lines.insert(0, f"({len(new) - 12} earlier events in the log)")
        if g.over:
            lines.append("Game over.")
        else:
            d = g.decision
            who = g.players[d.player]
            if not self.is_human(d.player):
                lines.append(f"{who} (bot) to decide.")
            elif who == "You":
                lines.append(f"Your decision: {self.plain(d.prompt, d.player)}")
            else:
                lines.append(f"{who} to decide: {self.plain(d.prompt, d.player)}")
        text = " ".join(capital_first(t, g.players) for t in lines if t)
        if text and text != self.a11y.message or new:
            self.a11y.announce(text)

    def refresh(self, save: bool = True) -> None:
        """Redraw the header, panel, money table and log (and autosave unless ``save=False``).

        Waits first if this kernel has been sending messages faster than the Jupyter server
        lets through (:func:`moneynb.ui.pace.pace`: code that plays moves in a loop)."""
        pace()
        g = self.game
        self.header.value = self._header_html()
        # the new decision's panel before the log: once the log shows a move, the controls
        # on screen are the ones for the decision now pending
        self._refresh_panel()
        self.money_html.value = self._money_html()
        self.log_html.value = self._log_html()
        self._refresh_coach()
        self.board_text.value = self._board_text_html()
        self._announce()
        if self.human_turn and self._focused_at != len(g.actions) and self.panel_box.children:
            self._focused_at = len(g.actions)
            self.a11y.focus_panel(self.panel_box.children[0], str(len(g.actions)))
        # the Undo button: off, with the engine's reason as its tooltip AND in words beside
        # it, when it can take nothing back (issue 38: a touch or keyboard user never sees a
        # tooltip); a refusal's note beside it lasts until the game moves on
        why = self.undo_refusal() if self.undo_allowed else ""
        self.undo_button.disabled = bool(why)
        self.undo_button.tooltip = why or UNDO_TOOLTIP
        if self._undo_note_at != len(g.actions):
            self._undo_note_at = None
            self.undo_note.value = undo_why_html(why)
        # only when a bot is to move (issue 38, case 7: not while another person is)
        d = g.decision
        bot_to_move = d is not None and self.controllers[d.player] is not None
        self.continue_button.layout.display = None if bot_to_move else "none"
        if save:
            self.save()

    def _header_html(self) -> str:
        g = self.game
        status = self.board.status(g) if hasattr(self.board, "status") else ""
        parts = [f"<span style='font-size:1.4em;font-weight:bold'>{html.escape(self.title)}</span>"]
        if status and not self._status_in_title(status):
            parts.append(html.escape(status))
        parts.append(f"action {len(g.actions)}")
        head = " &middot; ".join(parts)
        if g.over:
            names = " and ".join(g.winner_names) or "nobody"
            turn = f"<b>Game over</b>: {html.escape(names)} won."
        else:
            d = g.decision
            who = g.players[d.player]
            kind = "" if self.is_human(d.player) else " (bot)"
            turn = (
                f"{seat_html(d.player, who, player_color(d.player))}{kind} must decide: "
                f"{html.escape(self.plain(d.prompt, d.player))}"
            )
        # hot seat: the hand-over words END the "Last move" line, which a move scrolls to
        # the top and which is cut at its start (the tester of stop 49: a line of its own
        # above it was scrolled out of sight after every move, in Lab and in Voila); with no
        # last move to show, a line of its own
        last = self._last_move_html(after=self._handoff_html(inline=True))
        handoff = "" if last else self._handoff_html()
        return f"<div>{head}</div>{handoff}<div class='moneynb-turn'>{turn}</div>{last}"

    def _status_in_title(self, status: str) -> bool:
        """True when the board's figure has ``status`` as its title (drawn just above the
        board): the header then does not say it again (issue 38, case 8: the status was said
        in the board's title, the header and the panel)."""
        fig = getattr(self.board, "figure", None)
        try:
            title = fig.layout.title.text or ""
        except AttributeError:
            return False
        return bool(title) and title == plot_text(status)

    def _last_move_html(self, after: str = "") -> str:
        """One line naming whose the last move was and what it did (its log lines), so the
        dice, card and log read as one player's move (issue 30, case 3); empty before any.
        ``after``: HTML that ends the line (hot seat's hand-over words: the end of the line
        is what shows when it is cut)."""
        if not self._last_move:
            return ""
        seat, events = self._last_move
        if seat is None or not (0 <= seat < len(self.game.players)):
            return ""
        texts = [self.board.event_text(self.game, e) for e in events if e.text]
        texts = [self.plain(t) for t in texts if t]  # "": a line said by the next one
        name = self.game.players[seat]
        shown = self.plain(name)  # "You" stays "You"
        # a choice that logs nothing yet (a bet's colour still to come, a Money Run coin
        # picked up): what was chosen, in the engine's words (issue 38, case 8)
        chose = getattr(self, "_last_choice", "")
        body = (
            " ".join(texts)  # all of it: the page shows its end, the outcome (a11y's CSS)
            if texts
            else f"{shown} chose {self.plain(chose)}"
            if chose
            else f"{shown} made a choice with no result yet"
        )
        # the name once (issue 38: "Last move, Ann: Ann rolled 3" said it twice): a line
        # that starts with the player's name gets the seat's dot on that name; any other
        # line ("Bank paid ...", "Round 2 is over") says whose move it was first
        for start in dict.fromkeys((name, shown)):
            if body.startswith(start) and not body[len(start) : len(start) + 1].isalnum():
                rest = html.escape(body[len(start) :])
                line = f"{seat_html(seat, start, player_color(seat))}{rest}"
                break
        else:
            whose = "Your" if shown == "You" else f"{name}'s"
            line = f"{seat_html(seat, whose, player_color(seat))} move: {html.escape(body)}"
        # the whole line in its title: the page shows its end, cut at the start (a11y's CSS)
        text = f"Last move: {line}" + (f" {after}" if after else "")
        full = html.escape(html.unescape(re.sub(r"<[^>]+>", "", text)), quote=True)
        return (
            f"<div class='moneynb-last-move' data-seat='{seat}' title=\"{full}\">"
            f"<span class='moneynb-last-move-text'>{text}</span></div>"
        )

    def _handoff_html(self, inline: bool = False) -> str:
        """Hot seat: when the person who must decide now is not the person who acted last at
        this screen, a marked line saying so (issue 30, case 3); empty otherwise.
        ``inline``: a marked span, to end the "Last move" line (:meth:`_header_html`)."""
        g, d = self.game, self.game.decision
        people = self.screen_seats
        if d is None or len(people) < 2 or d.player not in people:
            return ""
        if self._last_person not in people or self._last_person == d.player:
            return ""
        now, before = g.players[d.player], g.players[self._last_person]
        if inline:
            return (
                f"<span class='moneynb-handoff' role='status' style='{HANDOFF_INLINE_STYLE}'>"
                f"Hand over the screen: <b>{html.escape(now)}</b>, it is your turn.</span>"
            )
        return (
            f"<div class='moneynb-handoff' role='status' style='{HANDOFF_STYLE}'>"
            f"Hand over the screen: <b>{html.escape(now)}</b>, it is your turn "
            f"({html.escape(before)} played last).</div>"
        )

    def _close_replaced_panel(self, change) -> None:
        """Close the widgets of the decision panel before the one just replaced (the view
        shows neither).

        Each decision gets a new panel (:meth:`_refresh_panel`); without this the kernel kept
        every old panel's buttons, boxes, layouts and styles, and a JupyterLab reload sends and
        rebuilds every widget the kernel holds (Easy Money: 102 widgets at the start, 410 after
        19 moves, 49 of them still shown; a bigger restore is a slower one under load). A
        widget still reachable from the view (shared with the new panel) stays open.
        Source: issue 41 (found by the Lab reload investigation).
        """
        gone = [w for w in change["old"] if w not in change["new"]]
        # the panel just replaced stays open until the next one is: the page may show it a
        # moment longer (80-275 ms), and a click on it then reaches its controls, which play
        # nothing and say so (:data:`STALE_CLICK`); a closed widget's click was dropped
        # without a word (the tester's F4, issue 38)
        older, self._replaced_panel = self._replaced_panel, gone
        if not older:
            return
        keep = widget_tree([self, *gone])
        for model_id, w in widget_tree(older).items():
            if model_id not in keep:
                w.close()

    def _refresh_panel(self) -> None:
        g = self.game
        d = g.decision
        # each decision gets new controls, bound to it (see answer()): a click the page sent
        # for the last one reaches that one's controls, which do nothing
        key = None if d is None else (self.step, self.is_human(d.player))
        if key is not None and key == self._decision_key:
            return
        self._decision_key = key
        if d is None:
            self.prompt.value = "<b>Game over.</b> " + html.escape(
                ", ".join(f"{p}: {self.board.score_text(v)}" for p, v in g.scores().items())
            )
            self.panel_box.children = [self._new_game_button()] if self.offers_new_game else []
            return
        who = seat_html(d.player, g.players[d.player], player_color(d.player))
        if not self.is_human(d.player):
            self.prompt.value = f"<i>waiting for {who}...</i>"
            panel = make_panel(d, g, self.answer())
            set_disabled(panel, True)
            self.panel_box.children = [panel]
            return
        text = f"{who}: {html.escape(self.plain(d.prompt, d.player))}"
        room = self.board.prompt_room(g, d)
        if room:  # its longest form, hidden under it: one height from first to last (a11y's CSS)
            room = f"{who}: {html.escape(self.plain(room, d.player))}"
            text = (
                f"<span class='moneynb-prompt-sized'><span>{text}</span>"
                f"<span class='moneynb-prompt-room' aria-hidden='true'>{room}</span></span>"
            )
        self.prompt.value = text
        people = self.screen_seats
        handed = len(people) >= 2 and self._last_person in people and self._last_person != d.player
        self._handed_over = (self.step, time.perf_counter()) if handed else None
        submit = self.answer()
        panel = self.board.custom_panel(d, submit)
        if panel is None:
            panel = make_panel(d, g, submit)
        # the page holds the new controls' clicks back (the CSS of a11y): FRESH_S for any
        # new decision (the panel box's class), HANDOVER_S after a hand-over (the kernel too)
        if handed:
            panel.add_class("moneynb-handover")
        self.panel_box.children = [panel]

    def _refresh_coach(self) -> None:
        """Show the Coach (class ``moneynb-coach``) for a person's pending decision while the
        "Coach" toggle (``moneynb-coach-toggle``) is on, and its heat map on the board."""
        c = None
        if self.coach_toggle.value and self.human_turn:
            from ..coach import coach

            try:
                c = coach(self.game)
            except Exception as e:  # noqa: BLE001 - the coach must never break a game
                self.coach_html.value = f"<i>Coach unavailable: {html.escape(str(e))}</i>"
                self.coach_html.layout.display = None
                return
        if not self.coach_toggle.value:
            self.coach_html.layout.display = "none"
        else:
            self.coach_html.layout.display = None
            self.coach_html.value = coaching_html(c)
        self._show_coach_heat(c)

    def _show_coach_heat(self, c) -> None:
        """Lay the Coach's heat map (if any) over the board, or take the last one away."""
        heat = c.heatmap if c is not None else None
        self._heat_shown = heat or None  # drawn again as it is after a text zoom
        if heat or self._coach_heat:
            self.board.show_heatmap(heat or None)
            self._coach_heat = bool(heat)

    def _money_html(self) -> str:
        g = self.game
        m = g.money()
        rows, seen = [], set()
        for i, p in enumerate(g.players):
            acct = f"wallet:{p}"
            if acct in m:
                seen.add(acct)
                rows.append((acct, p, m[acct], player_color(i)))
        for acct, v in m.items():
            if acct not in seen:
                rows.append((acct, g.account_label(acct), v, None))
        if not rows:  # a game without money (Money Run): no table, its score is elsewhere
            self.money_html.layout.display = "none"
            return ""

        def name(i, label, c):
            label = self.plain(label)
            if c is None:
                return html.escape(label)
            # the letters on the seat's token, as the board draws it (issue 38: "G1", "Y"
            # on the pawns read as nothing): this table is the board's key to them
            return seat_html(i, label, c, bold=False) + token_html(i, g.players)

        def below_zero(acct, label, v):
            """A balance below $0 said in words (the engine's: what that account's minus
            means; issue 38: "House Bank -$21" unexplained), as the cell's tooltip and a
            line under the table."""
            words = g.below_zero_words(acct) if v < 0 else ""
            return words and capital_first(f"{self.plain(label)} {words}", g.players)

        notes = [(acct, below_zero(acct, label, v)) for acct, label, v, _c in rows]
        body = "".join(
            f"<tr><td style='padding-right:12px'>{name(i, label, c)}</td>"
            f"<td class='moneynb-dollars' data-account='{html.escape(acct)}' "
            f"data-dollars='{v}' style='text-align:right'"
            + (f" title='{html.escape(note, quote=True)}'>{money(v)}*" if note else f">{money(v)}")
            + "</td></tr>"
            for i, ((acct, label, v, c), (_a, note)) in enumerate(zip(rows, notes, strict=True))
        )
        total = sum(m.values())
        # under the table, not in it: a long line in a cell of its own widened nothing but
        # took 4 lines in the narrow column, and squeezed the names' column
        under = "".join(
            f"<div class='moneynb-below-zero' style='font-size:12px'>* {html.escape(note)}</div>"
            for _a, note in notes
            if note
        )
        return (
            f"<table class='moneynb-money-table' data-start-total='{self.start_total}'>"
            f"<tr><th style='text-align:left'>Account</th><th>Money</th></tr>{body}"
            f"<tr style='border-top:1px solid #888'><td><b>Total</b></td>"
            f"<td class='moneynb-total' data-dollars='{total}' style='text-align:right'>"
            f"<b>{money(total)}</b></td></tr></table>{under}"
        )

    def _log_html(self) -> str:
        log = self.game.log
        shown = log[-LOG_LINES:]
        players = self.game.players
        you = "You" in players and self.is_human(players.index("You"))

        def line(text: str) -> str:
            text = second_person(text) if you else text
            return html.escape(capital_first(text, players))  # "bank paid..." -> "Bank paid..."

        # the last move's lines (the "Last move" line's) are marked: class moneynb-log-last
        last = len(log) if self._last_move_at is None else self._last_move_at
        first = len(log) - len(shown)
        texts = [self.board.event_text(self.game, e) for e in shown]
        lines = "".join(
            f"<div class='moneynb-log-line moneynb-log-{_css(e.kind)}"
            + (
                " moneynb-log-last' style='margin:0;border-left:3px solid #e0b040;"
                "padding-left:3px'>"
                if first + i >= last
                else "' style='margin:0'>"
            )
            + f"{line(text)}</div>"
            for i, (e, text) in enumerate(zip(shown, texts, strict=True))
            if text  # "": a line the next one says (an Easy Money purchase's payment)
        ) + "".join(
            "<div class='moneynb-log-line moneynb-log-engine-error' style='margin:0'>"
            f"<span style='{ERROR_STYLE}'>{html.escape(t)}</span></div>"
            for t in self.engine_errors
        )
        more = (
            f"<div style='{NOTE_STYLE}'>({len(log) - len(shown)} earlier events not shown)</div>"
            if len(log) > len(shown)
            else ""
        )
        # column-reverse keeps the box scrolled to its newest (last) line
        return (
            f"<div class='moneynb-log-box' data-count='{len(log)}' role='region' "
            f"aria-label='Game log' tabindex='0' style='max-height:220px;"
            f"overflow-y:auto;display:flex;flex-direction:column-reverse;"
            f"border:1px solid #ddd;padding:4px;font-size:0.9em;line-height:1.35'>"
            f"<div>{more}{lines}</div></div>"
        )

    # ----- saving ---------------------------------------------------------------------
    def _seat_kinds(self) -> list[str]:
        """Each seat's kind for the store: "human" or a bot spec ("bot:greedy")."""
        kinds = []
        for i in range(len(self.game.players)):
            spec = self.bot_specs.get(i)
            if spec is None and self.controllers[i] is not None:
                spec = f"bot:{getattr(self.controllers[i], 'kind', 'greedy')}"
            kinds.append(spec or "human")
        return kinds

    def _status(self) -> dict:
        g = self.game
        return {
            "over": g.over,
            "turn": self.board.status(g) if hasattr(self.board, "status") else "",
            "to_move": "" if g.over else g.players[g.decision.player],
            "person_moved": self._person_moved,
        }

    def save(self) -> str | None:
        """Store the game's new actions (or an undo) and its status line; returns the game's
        id in the store (None: not stored). Never raises: a conflict (another kernel played
        this game on first) shows the stored game with a note; a store failure takes the
        unsaved moves back and says why (:attr:`save_problem`)."""
        if self.store is None:
            if self.save_problem is None:
                self.save_label.value = "autosave off"
            else:
                self._show_save_problem()
            return None
        g = self.game
        status = self._status()
        try:
            if self.game_id is None:
                self.game_id = self.store.create(
                    g.config(), seats=self._seat_kinds(), owner=self.owner, origin=self.origin,
                    actions=g.actions, status=status,
                )  # fmt: skip
            else:
                acts, synced = g.actions, self._synced
                k, lim = 0, min(len(acts), len(synced))
                while k < lim and (acts[k] == synced[k] or _same(acts[k], synced[k])):
                    k += 1
                n = len(synced)
                if k < n:  # an undo: take the stored actions back first
                    self.store.truncate(self.game_id, n, k, status=status)
                    n = k
                if len(acts) > n:
                    self.store.extend(self.game_id, n, acts[n:], status=status)
                elif k < len(synced) or status != self._status_saved:
                    self.store.set_status(self.game_id, status)
            self._synced = list(g.actions)
        except ConflictError as e:
            self._save_ok = False
            self._conflict(e)
            return self.game_id
        except StoreError as e:
            self._save_ok = False
            self._save_failed(e)
            return self.game_id
        self._status_saved = status
        self.save_problem = None
        self._saved_at = time.time()
        self._show_saved()
        from .saves import lost_text

        self.a11y.lost_text = lost_text("game", saved=True, moved=self._person_moved)
        return self.game_id

    def _show_saved(self, reloaded: bool = False) -> None:
        from . import app_mode

        how = (
            "a reloaded page continues it"
            if self.origin.startswith("launcher") and app_mode()
            else "offered to continue when the cell runs again"
        )
        when = time.strftime("%H:%M:%S", time.localtime(self._saved_at or time.time()))
        text = (
            f"showing the saved game (action {len(self._synced)}, {when}): it was played on "
            "elsewhere"
            if reloaded
            else f"saved automatically (action {len(self._synced)}, {when}; {how})"
        )
        self.save_label.value = (
            f"<span class='moneynb-saved' data-actions='{len(self._synced)}'>{text}</span>"
        )

    def _show_save_problem(self) -> None:
        last = (
            f"last saved: action {len(self._synced)} at "
            + time.strftime("%H:%M:%S", time.localtime(self._saved_at))
            if self._saved_at is not None and self.game_id is not None
            else ("last saved: action " + str(len(self._synced)))
            if self.game_id is not None
            else "this game is not saved"
        )
        self.save_label.value = (
            f"<span class='moneynb-save-failed' data-actions='{len(self._synced)}' "
            f"style='{ERROR_STYLE}'>⚠ not saved ({html.escape(str(self.save_problem))}); "
            f"{last}. It is saved again once the store is back.</span>"
        )

    def _save_failed(self, error: StoreError) -> None:
        """The store could not be written: take the moves not stored back (the game on
        screen is the stored one), and say so at the control and in the save label, in one
        plain sentence each (:func:`store_problem_text`; the store's own message is logged)."""
        self.save_problem = problem = store_problem_text(error)
        if self.game_id is None:
            self._show_error(
                f"This game could not be saved: {problem}. You can play on, but it is not saved."
            )
        elif list(self.game.actions) != self._synced:
            try:
                back = self._replayed(self._synced)
            except Exception as e:  # noqa: BLE001 - replaying stored actions must work
                log.error("moneynb: replaying the stored actions failed: %r", e)
            else:
                self._replace_game(back)
            self._show_error(
                f"Your move could not be saved: {problem}. It was taken back; try it again "
                "in a moment."
            )
        else:
            self._show_error(f"The game could not be saved: {problem}.")
        self._show_save_problem()

    def _conflict(self, error: ConflictError) -> None:
        """Another kernel (window, browser) played this game on first: nothing of this
        view's last moves was stored; show the stored game and say so."""
        try:
            from ..core.save import loads

            stored = loads(self.store.read(self.game_id))
        except (StoreError, SaveFileError) as e:
            self._save_failed(StoreError(str(e)))
            return
        self._synced = list(stored.actions)
        self._status_saved = None
        self._replace_game(stored)
        self._person_moved = bool(stored.actions) and bool(self._human_action_indices())
        self._saved_at = time.time()
        self.save_problem = None
        self._show_error(
            f"This game was played on in another window or kernel: the saved game has "
            f"{error.stored} actions, so your last move was not saved. The board now shows "
            "the saved game; look, then move again if it is your turn."
        )
        self._show_saved(reloaded=True)

    def _replace_game(self, game, controllers=None) -> None:
        """Show ``game`` in this view in place of the one on screen (a new board; the old
        game's controls answer nothing after this). Bots are seeded afresh from their specs
        (as ``play`` does) unless ``controllers`` are given."""
        from ..bots import make_bot
        from . import _bot_seed

        if controllers is None:
            controllers = list(self.controllers)
            for seat, spec in self.bot_specs.items():
                controllers[seat] = make_bot(
                    spec, seed=_bot_seed(game.seed, seat, len(game.actions))
                )
        self.game, self.controllers = game, list(controllers)
        self.start_total = sum(game.money().values())
        self._epoch += 1  # the old game's controls answer nothing now
        self._recall_last_move()
        self._decision_key = object()
        self._announced = len(game.log)
        self.board = board_for(game)
        self.board.pick = self._board_pick
        self.board.plain = self.plain
        self.board.shows_hidden = self._shows_hidden
        self.board.on_retheme = self._retheme
        self.board.on_rezoom = self._rezoom
        self._board_scaled()
        self._update_board(list(game.log))
        self.board.release()
        self._board_box.children = [self.board.widget()]
        self._panels_box.children = self.board.panels()
        self.error.value = ""
        self.refresh(save=False)

    # ----- continuing a saved game -----------------------------------------------------
    def continue_game(self, game_id: str) -> None:
        """Replace the game on screen by the stored game ``game_id`` (its players, bots and
        seed from the store, as ``play(name, resume=game_id)``), in this view. The game left
        stays in the store.

        Raises:
            ValueError, moneynb.SaveFileError, moneynb.store.StoreError: as
                ``play(resume=game_id)`` (NoSuchGame for a game this owner may not open).
        """
        from . import play

        other = play(self.game.name, resume=game_id, bot_delay=self.bot_delay,
                     max_bot_steps=self.max_bot_steps, title=self.title,
                     store=self.store, owner=self.owner)  # fmt: skip
        self.save()
        self.bot_specs, self.game_id = other.bot_specs, other.game_id
        self._synced, self._status_saved = list(other._synced), None
        self.origin = other.origin
        self._replace_game(other.game, other.controllers)
        self._person_moved = True
        from .saves import unfinished

        self.offer.set_games(
            unfinished(self.store, self.owner, game=self.game.name, exclude=[self.game_id])
        )
        self.refresh()

    def _ipython_display_(self, **kwargs) -> None:
        """Show the view and, as a second output, what to do if it cannot be drawn (hidden by
        the view's CSS while it draws; see :func:`moneynb.ui.saves.fallback_html`)."""
        from IPython.display import display

        from .saves import fallback_html

        display(self._repr_mimebundle_(**kwargs), raw=True)
        note = fallback_html("game", saved=self.store is not None)
        note = note.replace(
            "class='moneynb-fallback'", f"class='moneynb-fallback {self._fallback_id}'"
        )
        plain = f"{self.title}: if the game does not show, run this cell again" + (
            "; it is saved automatically" if self.store is not None else ""
        )
        display({"text/html": note, "text/plain": plain}, raw=True)

    # ----- tests and display ----------------------------------------------------------
    def find(self, css_class: str) -> list:
        """Every widget inside this view carrying ``css_class`` (depth first, page order)."""
        out = []

        def walk(w):
            if css_class in getattr(w, "_dom_classes", ()):
                out.append(w)
            for c in getattr(w, "children", ()) or ():
                walk(c)

        walk(self)
        return out

    def __repr__(self) -> str:
        g = self.game
        state = "over" if g.over else f"{g.players[g.decision.player]} to decide"
        return f"GameView({self.title}: {', '.join(g.players)}; {state})"
