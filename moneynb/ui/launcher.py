"""App mode: a form that starts a game with no Python typed (for Voila and newcomers).

``launcher(game=None)`` returns a widget: a game chooser (when ``game`` is None), one row per
player (a name and "person / random bot / greedy bot / search bot"), a seed, and a Start
button (the seed box shows "random" when empty, the default: each game gets a fresh random
seed; a number typed plays that game again). Start builds the game with :func:`moneynb.ui.play` and shows its
:class:`~moneynb.ui.view.GameView` under the form (a second Start replaces it with a new game).

Serve a notebook holding a launcher cell as an app with ``voila notebooks/<game>.ipynb``.

A game is never lost: games are kept in the game store (:mod:`moneynb.store`), and the form
offers its owner's unfinished games (newest first, with game, players, turn and time; class
``moneynb-resume``, see :mod:`moneynb.ui.saves`); Continue shows the chosen one under the form.
The owner is the hub user, or this browser (:mod:`moneynb.ui.identity`): the form offers
nothing until the browser has said who it is (then the form gets the class
``moneynb-owner-known``), so a visitor is never offered another's game. In the app (Voila), a
reloaded page comes back with the last unfinished game that page's form started for this owner
(a note, class ``moneynb-launch-restored``, says so), or with the final screen of its newest
game when that one ended less than :data:`FINISHED_KEPT_S` ago ("Replay it",
``moneynb-launch-replay-last``, beside the note); in JupyterLab the offer waits for a click.
A game continued or brought back sets the form to its settings (game, seats, seed). Start and
"Host a table" ignore the second click of a double-click (:data:`REPEAT_CLICK_S`).

"Replay a saved game" (:class:`~moneynb.ui.replay.ReplayChooser`, class
``moneynb-replay-chooser``) lists the owner's finished stored games (a game still being
played is continued, not replayed: its replay's "Continue from here" would deal its coming
chance; the tester's F1) and shows the chosen one as a :class:`~moneynb.ui.replay.ReplayView`
where games appear.

CSS classes (stable, for tests): ``moneynb-launcher``, ``moneynb-launch-game`` (chooser),
``moneynb-launch-count`` (number of players), ``moneynb-launch-row`` (one per player) with
``moneynb-launch-name`` and ``moneynb-launch-kind``, ``moneynb-launch-seed``,
``moneynb-launch-start``, ``moneynb-launch-error`` and ``moneynb-launch-game-box`` (where the
game appears).

Shared tables (issue 25): "Host a table" (``moneynb-launch-host``) opens the form's game as a
table in the store (:func:`moneynb.ui.table.host`: the form's rows are its seats, this browser
takes the first person's seat) and shows its join code; "Join a table" takes a seat at a table
by its code and a name (``moneynb-launch-join-code``, ``moneynb-launch-join-name``,
``moneynb-launch-join``). "Teacher's view" (``moneynb-launch-teacher-code``,
``moneynb-launch-teacher``) opens :func:`moneynb.ui.classroom.classroom` for a teacher (the hub
user in ``MONEYNB_TEACHERS``, or the passcode ``MONEYNB_TEACHER_PASSCODE``). Every refusal
(no such code, seat taken, name too long, store down, wrong passcode) is one message in
``moneynb-launch-error``. "Join a class" (issue 36: ``moneynb-launch-class-code``,
``moneynb-launch-class-name``, ``moneynb-launch-class-join``; the class joined shows in
``moneynb-launch-class``) puts this browser on a class's roster: its games and lesson results
then belong to the class. Each refusal is one message in
``moneynb-launch-error``; the game on screen stays.
"""

from __future__ import annotations

import html
import logging
import time

import ipywidgets as widgets

from ..bots import is_bot_spec, person_name_problem
from ..core.registry import GAMES, game_class
from .a11y import ERROR_STYLE, A11yHelper
from .panels import set_layout

log = logging.getLogger("moneynb")

__all__ = ["launcher", "Launcher", "KINDS", "game_links", "links_open_here"]

#: controller choices of a player row -> what :func:`moneynb.ui.play` takes
KINDS = {
    "person": None,
    "random bot": "bot:random",
    "greedy bot": "bot:greedy",
    "search bot": "bot:search",
}
#: games whose form offers the search bot. It looks ahead for up to 0.3 s per decision, which
#: suits Money Run (few decisions a turn); in the other games a click waits for every bot
#: decision in turn: a 2-search-bot Money Card game took 46 s to play out, against 2.7 s for
#: six greedy bots (measured 2026-11-30). ``play(..., players=[..., "bot:search"])`` still works.
SEARCH_BOT_GAMES = ("money_run",)
#: seconds after Start or "Host a table" was handled in which another click of either is taken
#: as the second click of a double-click and ignored (the page sends both clicks; the kernel
#: handles the second right after the first: before, that made a second stored game)
REPEAT_CLICK_S = 0.5
#: seconds after its end during which a finished game still comes back on a reload of the app
#: (its final screen: scores and who won), when it is the newest game the page's form started
FINISHED_KEPT_S = 3600


def kinds_for(game: str) -> list[str]:
    """The player kinds the form offers for ``game`` (see :data:`SEARCH_BOT_GAMES`)."""
    return [k for k in KINDS if k != "search bot" or game in SEARCH_BOT_GAMES]


def _titles() -> dict[str, str]:
    out = {}
    for name in GAMES:
        try:
            out[game_class(name).title] = name
        except Exception:  # noqa: BLE001 - a game that does not import is left out
            continue
    return out


def money_rows(game_name: str) -> list[str]:
    """The rows of ``game_name``'s money table that are not a player's: its house accounts
    ("Pot", "House Bank"), as the engine names them, and "Total". A person's name box refuses
    them (:func:`moneynb.bots.person_name_problem`). [] for an unknown game."""
    try:
        cls = game_class(game_name)
        g = cls([f"Seat {i + 1}" for i in range(cls.min_players)], seed=0)
    except (ValueError, KeyError):
        return []
    # a player's own account ("Seat 1's bank account") is named after the player
    return ["Total", *(a for a in g.account_labels() if not a.startswith("Seat "))]


class Launcher(widgets.VBox):
    """The start form (see the module docstring). Attributes: ``view`` (the last started
    :class:`GameView`, or None), ``game_name`` (the chosen game)."""

    #: True while :meth:`_show_bot_names` fills the bots' name boxes (their change calls it)
    _naming = False

    def __init__(
        self, game: str | None = None, seed: int | None = None, autosave=True, restore=None,
        store=None,
    ):  # fmt: skip
        super().__init__()
        self.add_class("moneynb-launcher")
        self.view = None
        self.autosave = autosave is not False
        from ..store import StoreError, open_store
        from .identity import BrowserIdentity

        #: the store games go to (None: autosave off, or it could not be opened)
        self.store = None
        #: why the store could not be opened (None: it was, or autosave is off)
        self.store_problem = store_problem = None
        if self.autosave:
            try:
                self.store = open_store(store)
            except StoreError as e:
                self.store_problem = store_problem = str(e)
        #: who is at this browser (None until known: see moneynb.ui.identity)
        self.owner: str | None = None
        self.identity = BrowserIdentity(layout=widgets.Layout(width="0px", height="0px"))
        #: where this form's games come from, kept with their saves ("launcher:moolah")
        self.origin = f"launcher:{game or '*'}"
        titles = _titles()
        if game is not None and game not in GAMES:
            raise ValueError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")
        self.chooser = widgets.Dropdown(
            options=list(titles.items()),
            value=game or next(iter(titles.values())),
            description="Game",
        )
        self.chooser.add_class("moneynb-launch-game")
        self.chooser.layout.display = "none" if game is not None else None
        self.count = widgets.Dropdown(description="Players")
        self.count.add_class("moneynb-launch-count")
        self.rows_box = widgets.VBox()
        # empty: a fresh random seed for each game (issue 35, case 3); a typed number plays
        # that game again (the same dice and cards)
        self.seed = widgets.Text(value="" if seed is None else str(seed), placeholder="random",
                                 description="Seed", layout={"width": "180px"},
                                 tooltip="empty: a new random game; a number: that game again")  # fmt: skip
        self.seed.add_class("moneynb-launch-seed")
        # a darker green than button_style="success" (#388e3c: 4.1:1 under white text)
        self.start = widgets.Button(description="Start", icon="play", tooltip="start the game")
        self.start.style.button_color = "#2e7d32"
        self.start.style.text_color = "white"
        self.start.add_class("moneynb-launch-start")
        self.error = widgets.HTML()
        self.error.add_class("moneynb-launch-error")
        self.game_box = widgets.VBox()
        self.game_box.add_class("moneynb-launch-game-box")
        self.restored = widgets.HTML()
        self.restored.add_class("moneynb-launch-restored")
        #: "Replay it": shown with the final screen of a finished game brought back by a reload
        self.replay_last = widgets.Button(description="Replay it", icon="history",
                                          tooltip="step through the game that just ended",
                                          layout={"display": "none"})  # fmt: skip
        self.replay_last.add_class("moneynb-launch-replay-last")
        self.replay_last.on_click(lambda _b: self._replay_shown())
        from .saves import ResumeOffer

        self.offer = ResumeOffer([], self.resume)
        from .replay import ReplayChooser

        #: "Replay a saved game" (issue 19): the saves of this form's folder, shown under it
        self.replays = ReplayChooser(
            self.store, origin=self.origin, on_show=self._show_replay, owner=None
        )
        set_layout(self.replays, border="1px solid #ddd", padding="6px", margin="0 0 8px 0")
        #: the last replay shown (a :class:`~moneynb.ui.replay.ReplayView`), or None
        self.replay_view = None
        self.rows: list[tuple[widgets.Text, widgets.Dropdown]] = []
        self._quiet = False
        self.chooser.observe(lambda _c: self._game_changed(), "value")
        self.count.observe(lambda _c: self._set_rows(), "value")
        #: True while a Start / "Host a table" click is handled; when the last one ended
        self._busy, self._done_at, self._done_asked = False, float("-inf"), None
        self.start.on_click(lambda _b: self._once(self.launch))
        self.host_button = widgets.Button(
            description="Host a table", icon="users",
            tooltip="open this game as a table other browsers join with a code",
        )  # fmt: skip
        self.host_button.add_class("moneynb-launch-host")
        self.host_button.on_click(lambda _b: self._once(self.host))
        self.join_code = widgets.Text(placeholder="e.g. KQMRTA", description="Join code",
                                      layout={"width": "220px"})  # fmt: skip
        self.join_code.add_class("moneynb-launch-join-code")
        self.join_name = widgets.Text(placeholder="your name at the table", description="Name",
                                      layout={"width": "240px"})  # fmt: skip
        self.join_name.add_class("moneynb-launch-join-name")
        self.join_button = widgets.Button(description="Join a table", icon="sign-in")
        self.join_button.add_class("moneynb-launch-join")
        self.join_button.on_click(lambda _b: self.join())
        # a class (issue 36): the code on the board and the student's name
        self.class_code = widgets.Text(placeholder="e.g. K7PQ2M", description="Class code",
                                       style={"description_width": "initial"},
                                       layout={"width": "220px"})  # fmt: skip
        self.class_code.add_class("moneynb-launch-class-code")
        self.class_name = widgets.Text(placeholder="your name", description="Your name",
                                       style={"description_width": "initial"},
                                       layout={"width": "240px"})  # fmt: skip
        self.class_name.add_class("moneynb-launch-class-name")
        self.class_button = widgets.Button(description="Join a class", icon="graduation-cap")
        self.class_button.add_class("moneynb-launch-class-join")
        self.class_button.on_click(lambda _b: self.join_class())
        self.class_line = widgets.HTML()
        self.class_line.add_class("moneynb-launch-class")
        self.teacher_code = widgets.Password(description="Teacher passcode",
                                             style={"description_width": "initial"},
                                             layout={"width": "280px"})  # fmt: skip
        self.teacher_code.add_class("moneynb-launch-teacher-code")
        self.teacher_button = widgets.Button(description="Teacher's view", icon="eye")
        self.teacher_button.add_class("moneynb-launch-teacher")
        self.teacher_button.on_click(lambda _b: self.teacher())
        #: the last table view or teacher's view shown (or None)
        self.table_view = None
        form = widgets.VBox(
            [
                self.chooser,
                self.count,
                self.rows_box,
                widgets.HBox([self.seed, self.start, self.host_button]),
                widgets.HBox([self.join_code, self.join_name, self.join_button]),
                self.error,
            ],
            layout={"border": "1px solid #ddd", "padding": "6px", "margin": "0 0 8px 0"},
        )
        # hides this form's "cannot be drawn" note while the form is drawn
        self._fallback_id = f"moneynb-fallback-{id(self):x}"
        hide = widgets.HTML(
            f"<style>.{self._fallback_id} {{ display: none !important; }}</style>",
            layout=widgets.Layout(width="0px", height="0px"),
        )
        # the page's shared accessibility CSS (focus ring...) before any game is started
        from .saves import lost_text

        self.a11y = a11y = A11yHelper(
            layout=widgets.Layout(width="0px", height="0px"), lost_text=lost_text("form")
        )
        teacher = widgets.HBox([self.teacher_code, self.teacher_button],
                               layout={"margin": "0 0 8px 0"})  # fmt: skip
        klass = widgets.HBox([self.class_code, self.class_name, self.class_button,
                              self.class_line])  # fmt: skip
        self.children = [
            self.identity, a11y, self.offer, hide, klass, form, self.replays, teacher,
            widgets.HBox([self.restored, self.replay_last]), self.game_box,
        ]  # fmt: skip
        self._game_changed()
        if store_problem is not None:
            self.error.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(store_problem)}: "
                "games started here are not saved.</span>"
            )
        if restore is None:
            from . import app_mode

            restore = app_mode()
        self._restore = bool(restore)
        self.identity.on_owner(self._owner_known)

    def _owner_known(self, owner: str) -> None:
        """The hub user or browser is known: offer their unfinished games and, in the app,
        continue the last one this page started."""
        self.owner = owner
        self.replays.owner = owner
        if self.view is not None and self.view.owner is None:
            self.view._owner_known(owner)
        self._offer_games()
        self.replays.refresh()
        self._say_class()
        if self._restore and self.view is None:
            self._restore_last()
        if self._restore and self.view is None and self.table_view is None:
            self._restore_table()
        self.add_class("moneynb-owner-known")

    @property
    def game_name(self) -> str:
        return self.chooser.value

    def _game_changed(self) -> None:
        cls = game_class(self.game_name)
        lo, hi = cls.min_players, cls.max_players
        default = max(lo, min(3, hi))
        options = list(range(lo, hi + 1))
        if [v for _, v in self.count.options] == options:
            self._set_rows()
            return
        self._quiet = True  # one _set_rows below, not one per trait change
        try:
            self.count.options = [(str(i), i) for i in options]
            self.count.value = default
        finally:
            self._quiet = False
        self._set_rows()

    def _set_rows(self) -> None:
        if self._quiet:
            return
        n = self.count.value or 0
        while len(self.rows) < n:
            i = len(self.rows)
            name = widgets.Text(
                value="You" if i == 0 else f"Player {i + 1}",
                description=f"Seat {i + 1}",
                layout={"width": "260px"},
            )
            name.add_class("moneynb-launch-name")
            # a visible label: a dropdown without one has no accessible name (axe select-name)
            kind = widgets.Dropdown(
                options=kinds_for(self.game_name), value="person" if i == 0 else "greedy bot",
                description="plays as", style={"description_width": "initial"},
                layout={"width": "200px"},
            )  # fmt: skip
            kind.add_class("moneynb-launch-kind")
            kind.observe(lambda _c: self._show_bot_names(), "value")
            # a person's name typed may change a bot's number ("Greedy bot 2" while a person
            # was typed "Greedy bot 1"): the bots' boxes follow what is typed
            name.observe(lambda _c: self._show_bot_names(), "value")
            self.rows.append((name, kind))
        offered = kinds_for(self.game_name)
        for _name, kind in self.rows:
            if list(kind.options) != offered:
                value = kind.value if kind.value in offered else "greedy bot"
                kind.options = offered
                kind.value = value
        self._show_bot_names()
        boxes = []
        for name, kind in self.rows[:n]:
            row = widgets.HBox([name, kind])
            row.add_class("moneynb-launch-row")
            boxes.append(row)
        self.rows_box.children = boxes

    def _show_bot_names(self) -> None:
        """A bot seat's name box is greyed out and shows the name the game will give it
        ("Greedy bot 1"...); a person's box is editable (its last typed name comes back)."""
        from . import _name_players

        if self._naming:  # a bot's box set below calls back here
            return
        rows = self.rows[: self.count.value or 0]
        specs = []
        for i, (name, kind) in enumerate(rows):
            typed = getattr(name, "_person_name", name.value) if name.disabled else name.value
            specs.append(KINDS[kind.value] or typed.strip() or f"\0{i}")
        try:
            names, _bots = _name_players(specs)
        except ValueError:
            return
        self._naming = True
        try:
            for (name, kind), shown in zip(rows, names, strict=True):
                bot = KINDS[kind.value] is not None
                if bot and not name.disabled:
                    name._person_name = name.value
                if not bot and name.disabled:
                    name.value = getattr(name, "_person_name", name.value)
                name.disabled = bot
                if bot:
                    name.value = shown
        finally:
            self._naming = False

    def players(self) -> list[str]:
        """The ``players`` list for :func:`play`: person names and ``"bot:..."`` entries.

        Raises:
            ValueError: an empty or repeated person name (also when only capitals differ),
                a bot's request ("bot:greedy") or a bot's name ("Greedy bot 1") for a person.
        """
        out, seen = [], []
        for name, kind in self.rows[: self.count.value]:
            spec = KINDS[kind.value]
            if spec is not None:
                out.append(spec)
                continue
            n = name.value.strip()
            if not n:
                raise ValueError("every person needs a name")
            if is_bot_spec(n):  # else play() would seat a bot for this person
                raise ValueError(
                    f"{n!r} is how a bot is asked for, not a person's name: choose a bot under "
                    "'plays as', or give this person another name"
                )
            # "You" and "you"; "Greedy bot 1"; "Total", "Pot $500"
            problem = person_name_problem(n, seen, money_rows(self.game_name))
            if problem:
                raise ValueError(problem)
            seen.append(n)
            out.append(n)
        return out

    # ----- unfinished games -----------------------------------------------------------
    def _offer_games(self) -> None:
        from .saves import unfinished

        only = None if self.origin == "launcher:*" else self.origin.split(":", 1)[1]
        exclude = [self.view.game_id] if self.view is not None else []
        self.offer.set_games(unfinished(self.store, self.owner, game=only, exclude=exclude))

    def _restore_last(self) -> None:
        """Bring back the game this form's page last started (the app after a reload): the
        newest unfinished one continues; when the newest game a person played here ended less
        than :data:`FINISHED_KEPT_S` ago, its final screen (Game over, scores) comes back
        instead, with "Replay it" beside the note (Start makes a new game)."""
        from ..store import StoreError
        from .saves import unfinished

        try:
            last = self.store.list_games(self.owner, origin=self.origin, person_moved=True,
                                         limit=1) if self.store is not None else []  # fmt: skip
        except StoreError:
            last = []
        if last and last[0].over and time.time() - last[0].updated < FINISHED_KEPT_S:
            if self.resume(last[0].id) is not None:
                self.restored.value = (
                    "<div style='color:#1b5e20;background:#f1f8e9'>Welcome back: your last game "
                    f"({html.escape(last[0].describe())}) has ended; its final screen is below. "
                    "Press <b>Start</b> for a new game, or <b>Replay it</b>.</div>"
                )
                self.replay_last.layout.display = None
            return
        games = unfinished(self.store, self.owner, origin=self.origin)
        if games and self.resume(games[0].id) is not None:
            self.restored.value = (
                f"<div style='color:#1b5e20;background:#f1f8e9'>Welcome back: your unfinished game "
                f"({html.escape(games[0].describe())}) continues below. Press <b>Start</b> "
                "for a new game.</div>"
            )

    def _replay_shown(self):
        """ "Replay it": the game on screen as a replay where games appear (None: no game)."""
        if self.view is None or self.view.game_id is None:
            return None
        return self.replays.show(self.view.game_id)

    def _show_settings(self, info) -> None:
        """Set the form to a stored game's settings (game, players and their kinds, seed), so
        the form and the game under it agree (a game continued or brought back by a reload)."""
        by_spec = {spec: label for label, spec in KINDS.items() if spec is not None}
        if (
            self.chooser.layout.display != "none"
            and info.game in dict(self.chooser.options).values()
        ):
            self.chooser.value = info.game
        if info.game != self.game_name:
            return
        n = len(info.players)
        if n in [v for _, v in self.count.options]:
            self.count.value = n
        kinds = {seat.seat: seat.kind for seat in info.seats}
        offered = kinds_for(self.game_name)
        for i, (name, kind) in enumerate(self.rows[:n]):
            label = by_spec.get(kinds.get(i, "human"), "person")
            kind.value = label if label in offered else "greedy bot"
            if label == "person":
                name.value = info.players[i]
        self._show_bot_names()
        self.seed.value = ""  # the next Start is a new random game, not this one again

    def _restore_table(self) -> None:
        """Back at the newest unfinished table of this page's game where this owner holds a
        seat (a reloaded or restarted browser takes its seat back), if there is one."""
        from ..store import StoreError
        from .table import join

        only = None if self.origin == "launcher:*" else self.origin.split(":", 1)[1]
        try:
            tables = [t for t in self.store.list_seated(self.owner, over=False, limit=20)
                      if only is None or t.game == only]  # fmt: skip
            if not tables:
                return
            view = join(tables[0].table, store=self.store, owner=self.owner)
        except (ValueError, StoreError):
            return
        self._show_other(view)
        self.restored.value = (
            "<div style='color:#1b5e20;background:#f1f8e9'>Welcome back to table "
            f"{html.escape(tables[0].table or '')}: your seat is below.</div>"
        )

    def resume(self, game_id: str):
        """Continue this owner's stored game ``game_id`` under the form (Continue); returns the
        view, or None with the reason shown (a game of another owner reads as no game)."""
        from ..core.errors import SaveFileError
        from ..store import StoreError
        from . import play

        try:
            if self.store is None or self.owner is None:
                raise ValueError("there is no game store to continue a game from")
            info = self.store.info(game_id, owner=self.owner)
            view = play(info.game, resume=game_id, store=self.store, owner=self.owner)
        except (OSError, ValueError, SaveFileError, StoreError) as e:
            self.error.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return None
        self._show_settings(info)
        return self._show(view)

    def _show(self, view):
        self.error.value = ""
        self._clear_restored()
        view.offer.set_games([])  # the form offers them
        self._retire_view(view)
        self.view = view
        self.game_box.children = [view]
        self._offer_games()
        self.replays.refresh()
        # "Replay a saved game" lists the game as over once it ends (the save line is
        # redrawn after each save of a move)
        over = [view.game.over]

        def saved(_change):
            if view.game.over and not over[0] and self.view is view:
                self.replays.refresh()
            over[0] = view.game.over

        view.save_label.observe(saved, "value")
        return view

    def _clear_restored(self) -> None:
        self.restored.value = ""
        self.replay_last.layout.display = "none"

    def _show_replay(self, view) -> None:
        """Show a replay (from "Replay a saved game") where games appear."""
        self.error.value = ""
        self._clear_restored()
        self._retire_view(None)
        self.replay_view = view
        self.game_box.children = [view]

    def _ipython_display_(self, **kwargs) -> None:
        """The form and, as a second output, what to do if it cannot be drawn (hidden while
        it draws): see :func:`moneynb.ui.saves.fallback_html`."""
        from IPython.display import display

        from .saves import fallback_html

        display(self._repr_mimebundle_(**kwargs), raw=True)
        note = fallback_html("form").replace(
            "class='moneynb-fallback'", f"class='moneynb-fallback {self._fallback_id}'"
        )
        plain = "If the form does not show, run this cell again."
        display({"text/html": note, "text/plain": plain}, raw=True)

    def _refuse(self, e: Exception) -> None:
        """Show a refusal as one sentence in the product's words: an error's ``player_text``
        when it has one (e.g. :class:`~moneynb.classes.NotATeacher`), else its message; the
        full message goes to the log (logger ``moneynb``)."""
        text = getattr(e, "player_text", "") or str(e)
        if text != str(e):
            log.info("refused: %s", e)
        self.error.value = f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(text)}</span>"

    def _show_other(self, view):
        """Show a table or the teacher's view where games appear (the last one stops)."""
        old = self.table_view
        if old is not None and hasattr(old, "stop"):
            old.stop()
        self.error.value = ""
        self._clear_restored()
        self._retire_view(None)
        self.table_view = view
        self.game_box.children = [view]
        return view

    def _retire_view(self, new) -> None:
        """The game shown until now leaves the page: its view takes no more moves
        (:meth:`GameView.retire`)."""
        old = self.view
        if old is not None and old is not new:
            old.retire()

    def _once(self, handle):
        """Run ``handle`` (Start or "Host a table") for a click, unless another such click is
        being handled or was handled less than :data:`REPEAT_CLICK_S` ago for the same form
        (:meth:`_asked`: a double-click starts one game, not two); both buttons are disabled
        meanwhile. Returns what
        ``handle`` returned, or None for an ignored click."""
        asked = self._asked()
        if self._busy or (
            time.perf_counter() - self._done_at < REPEAT_CLICK_S and asked == self._done_asked
        ):
            return None
        self._busy = True
        buttons = (self.start, self.host_button)
        was = [b.disabled for b in buttons]
        for b in buttons:
            b.disabled = True
        try:
            return handle()
        finally:
            for b, d in zip(buttons, was, strict=True):
                b.disabled = d
            self._busy = False
            self._done_at, self._done_asked = time.perf_counter(), asked

    def _asked(self) -> tuple:
        """What the form asks for now (game, seats, seed, table fields): a click within
        :data:`REPEAT_CLICK_S` of the last one is its double-click's second only when the form
        asks for the same thing (a game chosen meanwhile is a new request, however quick:
        a keyboard user's Start after choosing another game was dropped)."""
        return (
            self.chooser.value,
            self.count.value,
            tuple((name.value, kind.value) for name, kind in self.rows),
            self.seed.value,
        )

    def seed_value(self) -> int | None:
        """The seed box: None when empty (a fresh random seed for the new game: the box
        shows "random"), else the whole number typed.

        Raises:
            ValueError: not a whole number, or below 0 (the message says to leave it empty).
        """
        text = str(self.seed.value).strip().replace(",", "").replace("_", "")
        if not text or text.lower() == "random":
            return None
        why = (
            f"the seed is a whole number, 0 or more (the same number plays the same game "
            f"again), or empty for a new random game; got {str(self.seed.value)[:20]!r}"
        )
        try:
            seed = int(text)
        except ValueError:
            raise ValueError(why) from None
        if seed < 0:  # -7 would deal what 7 deals (see moneynb.core.game.Game)
            raise ValueError(why)
        return seed

    def _need_owner(self) -> str:
        if self.store is None:
            why = f": {self.store_problem}" if self.store_problem else " (autosave is off)"
            raise ValueError(f"tables need the game store, and it could not be opened{why}")
        if self.owner is None:
            raise ValueError("this browser has not said who it is yet: try again in a moment")
        return self.owner

    def host(self):
        """ "Host a table": the form's game and seats as a shared table (this browser holds
        the first person's seat); returns the :class:`~moneynb.ui.table.TableView` (None with
        the reason shown)."""
        from ..store import StoreError
        from .table import host

        try:
            view = host(self.game_name, self.players(), seed=self.seed_value(),
                        store=self.store, owner=self._need_owner())  # fmt: skip
        except (ValueError, StoreError) as e:
            self._refuse(e)
            return None
        return self._show_other(view)

    def join(self):
        """ "Join a table": take the named seat at the table of the typed code; returns the
        :class:`~moneynb.ui.table.TableView` (None with the reason shown: no such table,
        seat taken, name too long, store down)."""
        from ..store import StoreError
        from .table import join

        try:
            name = self.join_name.value.strip() or None
            view = join(self.join_code.value, name, store=self.store, owner=self._need_owner())
        except (ValueError, StoreError) as e:
            self._refuse(e)
            return None
        return self._show_other(view)

    def _say_class(self) -> None:
        """The line beside "Join a class": the class this owner is in now (issue 36)."""
        from ..store import StoreError

        try:
            k = self.store.class_of(self.owner) if self.store is not None else None
        except StoreError:
            k = None
        self.class_line.value = (
            f"<span data-class='{html.escape(k.name)}'>✓ In class <b>{html.escape(k.name)}</b>"
            "</span>" if k is not None else ""
        )  # fmt: skip

    def join_class(self):
        """ "Join a class": put this browser on the roster of the class with the typed code,
        under the typed name (on a hub, the hub user's by default); returns the
        :class:`~moneynb.store.RosterEntry` (None with the reason shown)."""
        from ..store import StoreError
        from ..store.identity import local_owner

        try:
            name = self.class_name.value.strip() or (local_owner() or "")[4:]
            entry = self.store.join_class(self.class_code.value, self._need_owner(), name)
        except (ValueError, StoreError) as e:
            self._refuse(e)
            return None
        self.error.value = ""
        self._say_class()
        return entry

    def teacher(self):
        """ "Teacher's view": the class's games (for a teacher's hub user or with the
        passcode); returns the :class:`~moneynb.ui.classroom.ClassroomView` (None with the
        reason shown)."""
        from ..store import StoreError
        from .classroom import NotATeacher, classroom

        try:
            view = classroom(passcode=self.teacher_code.value, store=self.store,
                             owner=self.owner)  # fmt: skip
        except (NotATeacher, StoreError) as e:
            self._refuse(e)
            return None
        finally:
            self.teacher_code.value = ""
        return self._show_other(view)

    def launch(self):
        """The Start button: build the game and show it under the form; returns the view
        (None, with the reason shown, if the form is not valid)."""
        from ..store import StoreError
        from . import play

        try:
            view = play(
                self.game_name,
                players=self.players(),
                seed=self.seed_value(),
                autosave=self.autosave,
                origin=self.origin,
                store=self.store,
                owner=self.owner,
            )
        except (ValueError, StoreError) as e:  # a bad form; too many new games (TooManyTries)
            self.error.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ {html.escape(str(e))}</span>"
            )
            return None
        return self._show(view)


#: the play notebooks ``notebooks/start_here.ipynb`` links to, in its order
PLAY_NOTEBOOKS = ("money_moves", "moolah", "easy_money", "money_card", "money_run")


def links_open_here() -> bool:
    """True when a relative link to another notebook opens on this server: in JupyterLab (not
    :func:`moneynb.ui.app_mode`), and in a Voila app whose page is ``.../voila/render/<nb>``
    (Voila served on a folder, or Binder); False in a Voila app started on one notebook,
    which serves that page only (its address is the server's root)."""
    import os
    from urllib.parse import urlparse

    from . import app_mode

    if not app_mode():
        return True
    url = os.environ.get("VOILA_REQUEST_URL")
    if url is None and os.environ.get("VOILA_PREHEAT") == "True":
        # a preheated kernel (voila.json) runs the notebook before any page asks for it: the
        # page's address comes when a page takes this kernel (Voila's wait_for_request, which
        # puts the request's path in SCRIPT_NAME). Voila gives a pool's later kernels the
        # address of the page that took the kernel before them (same server, same notebook,
        # same answer), so only the pool's first kernel waits here.
        from voila.utils import wait_for_request

        wait_for_request()
        url = os.environ.get("SCRIPT_NAME", "")
    return "/voila/render/" in urlparse(url or "").path


def game_links(folder=".") -> str:
    """Markdown: a table of the play notebooks in ``folder`` (the notebook's own: a kernel runs
    in it), each a RELATIVE link that opens on the server showing this page: in JupyterLab
    the notebook itself; in the Voila app served on a folder (``voila notebooks/``, or Binder's
    ``.../voila/render/notebooks/start_here.ipynb``) the notebook as an app (a page at
    ``.../voila/render/start_here.ipynb`` resolves ``moolah.ipynb`` to
    ``.../voila/render/moolah.ipynb``). A Voila app started on one notebook
    (``voila notebooks/start_here.ipynb``) serves that page only, so there the table names the
    games without links and says how to serve them all. Never a link to another server: the
    Binder links are a section of their own in the notebook, for readers on GitHub.

    The mode comes from the kernel's environment (:func:`moneynb.ui.app_mode`, and Voila's
    ``VOILA_REQUEST_URL``, the page's address)."""
    from pathlib import Path

    from . import app_mode

    here = Path(folder)
    games = [(game_class(n).title, f"{n}.ipynb") for n in PLAY_NOTEBOOKS
             if (here / f"{n}.ipynb").exists()]  # fmt: skip
    if not app_mode():
        rows = [f"| {t} | [open {t} here]({nb}) |" for t, nb in games]
        return "\n".join(["| Game | Its notebook, on this server |", "|---|---|", *rows])
    if links_open_here():
        rows = [f"| {t} | [play {t} as an app]({nb}) |" for t, nb in games]
        return "\n".join(["| Game | Its own app page, on this server |", "|---|---|", *rows])
    names = ", ".join(t for t, _ in games)
    # no shell command on a page a student reads (issue 38): how to serve every page is in the
    # app guide (docs/app.md: ``voila notebooks/``)
    return f"The form below plays every game: {names}."


def launcher(
    game: str | None = None, seed: int | None = None, autosave=True, restore=None, store=None
) -> Launcher:
    """A start form for ``game`` (or a game chooser when ``game`` is None): players (name and
    person / random bot / greedy bot / search bot), seed, Start. See :class:`Launcher`.

    Args:
        game: a registered game name, or None to choose on the form.
        seed: the seed shown at first (None, the default: the box is empty and shows
            "random", so every game gets a fresh random seed; a number replays that game).
        autosave: passed to :func:`play` (True: keep games in the store; False: off).
        restore: continue the last unfinished game this form started for this owner (None:
            only in the Voila app, where a reload starts a new kernel).
        store: the store (see :func:`moneynb.store.open_store`; None: the default).

    Raises:
        ValueError: unknown game.
    """
    return Launcher(game, seed=seed, autosave=autosave, restore=restore, store=store)
