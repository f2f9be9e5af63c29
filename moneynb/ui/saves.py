"""Unfinished autosaved games: find them, describe them, offer to continue one.

Every :class:`~moneynb.ui.view.GameView` with autosave on writes the game JSON (the engine's
save format) and, beside it, a ``<save>.seats.json`` sidecar. The sidecar holds the seats
(person or bot kind, read by ``play(resume=...)``) and a ``status`` the view rewrites after
every save::

    {"over": false, "actions": 34, "turn": "Round 2 of 5", "to_move": "You",
     "person_moved": true, "saved": "2026-11-30T20:31:05.250", "origin": "lab"}

so listing the unfinished games reads a few small files and replays nothing. ``origin`` says
where the game was started (``"lab"``: ``play``; ``"launcher:<game>"``: the form of that game's
page, ``"launcher:*"``: the game chooser), so the Voila app brings back only the games its
own page started (:mod:`moneynb.ui.launcher`).

A game no person has answered a decision in yet (``person_moved`` false) is not offered: it
is the fresh game a page starts on its own, not one a player would miss.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as widgets

from .a11y import ERROR_STYLE

#: the folder ``play`` autosaves into (under the notebook's folder)
SAVES = Path("moneynb-saves")
#: at most this many games are offered (newest first)
MAX_OFFERED = 12


@dataclass(frozen=True)
class SavedGame:
    """One unfinished autosaved game (from its save's seats sidecar).

    Attributes:
        path: the save file (``resume=`` it).
        game: registered game name ("moolah").
        title: the game's title ("Moolah").
        players: display names in seat order.
        actions: number of actions taken so far.
        turn: the board's status line when saved ("Round 2 of 5"), may be "".
        to_move: who must decide next.
        saved: when it was last saved (local time).
        origin: where it was started (see the module docstring).
    """

    path: Path
    game: str
    title: str
    players: tuple
    actions: int
    turn: str
    to_move: str
    saved: dt.datetime
    origin: str

    def describe(self) -> str:
        """One line for a list: "Moolah · You, Greedy bot 1 · Round 2, action 34, You to move
        · saved 30 Nov 20:31"."""
        where = ", ".join(p for p in (self.turn, f"action {self.actions}") if p)
        who = f", {self.to_move} to move" if self.to_move else ""
        return (
            f"{self.title} · {', '.join(self.players)} · {where}{who} · "
            f"saved {self.saved.strftime('%d %b %H:%M')}"
        )


def sidecar_path(save: str | Path) -> Path:
    """``x.json`` -> ``x.seats.json`` (the same rule as :func:`moneynb.ui.view.seats_path`)."""
    from .view import seats_path

    return seats_path(save)


def unfinished(
    folder: str | Path = SAVES,
    game: str | None = None,
    origin: str | None = None,
    exclude=(),
) -> list[SavedGame]:
    """The unfinished games saved in ``folder``, newest first (at most :data:`MAX_OFFERED`).

    Args:
        folder: where the saves are (default ``moneynb-saves`` under the current folder).
        game: only games of this name (None: every game).
        origin: only games started there (None: from anywhere).
        exclude: save paths to leave out (the game on screen).

    Games that are over, that no person has moved in yet, whose save file is gone, or whose
    sidecar is not a moneynb seats file with a status are left out; nothing is raised.
    """
    from ..core.registry import game_class

    folder = Path(folder)
    if not folder.is_dir():
        return []
    skip = {Path(p).resolve() for p in exclude if p}
    found = []
    for side in folder.glob("*.seats.json"):
        save = side.with_name(side.name[: -len(".seats.json")] + ".json")
        try:
            doc = json.loads(side.read_text())
            st = doc["status"]
            if st["over"] or not st.get("person_moved") or not save.is_file():
                continue
            if save.resolve() in skip:
                continue
            if game is not None and doc["game"] != game:
                continue
            if origin is not None and st.get("origin") != origin:
                continue
            found.append(
                SavedGame(
                    path=save,
                    game=doc["game"],
                    title=game_class(doc["game"]).title,
                    players=tuple(doc["seats"]),
                    actions=int(st["actions"]),
                    turn=str(st.get("turn", "")),
                    to_move=str(st.get("to_move", "")),
                    saved=dt.datetime.fromisoformat(st["saved"]),
                    origin=str(st.get("origin", "")),
                )
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    found.sort(key=lambda s: s.saved, reverse=True)
    return found[:MAX_OFFERED]


class ResumeOffer(widgets.VBox):
    """ "Continue an unfinished game": a list of :func:`unfinished` games (newest first) and a
    Continue button calling ``on_continue(path)``. Hidden when there is nothing to offer.

    CSS classes: ``moneynb-resume`` (the box), ``moneynb-resume-list`` (the dropdown),
    ``moneynb-resume-go`` (Continue).
    """

    def __init__(self, games: list[SavedGame], on_continue: Callable[[Path], None]):
        super().__init__()
        self.add_class("moneynb-resume")
        self.games = list(games)
        self.on_continue = on_continue
        # a visible label: a list without one has no accessible name (axe select-name)
        self.list = widgets.Dropdown(
            description="Unfinished game",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="auto", max_width="640px"),
        )
        self.list.add_class("moneynb-resume-list")
        self.go = widgets.Button(
            description="Continue",
            icon="play",
            tooltip="continue the chosen game where it was left",
        )
        # button_style="info" is #0097a7 under white text: 3.5:1; this teal gives 5.7:1
        self.go.style.button_color = "#00727d"
        self.go.style.text_color = "white"
        self.go.add_class("moneynb-resume-go")
        self.go.on_click(lambda _b: self._go())
        self.note = widgets.HTML()
        #: why the last Continue failed (a corrupt or unreadable save), shown at the control
        self.error = widgets.HTML()
        self.error.add_class("moneynb-resume-error")
        self.children = [self.note, widgets.HBox([self.list, self.go]), self.error]
        self.layout = widgets.Layout(
            border="1px solid #90caf9", padding="4px 8px", margin="0 0 6px"
        )
        self.set_games(self.games)

    def set_games(self, games: list[SavedGame]) -> None:
        """Offer ``games`` (hide the box when empty)."""
        self.games = list(games)
        self.list.options = [(g.describe(), str(g.path)) for g in self.games]
        self.list.value = str(self.games[0].path) if self.games else None  # the newest
        n = len(self.games)
        self.note.value = (
            f"<b>Unfinished game{'s' if n != 1 else ''}</b> (saved automatically, newest "
            "first): choose one and press Continue, or play the new game below."
        )
        self.layout.display = None if self.games else "none"

    def _go(self) -> None:
        """Continue the chosen game; a save that cannot be continued (corrupt, tampered,
        unreadable, gone) is said here, under the button, in plain words: nothing escapes the
        click and the game on screen stays."""
        if not self.list.value:
            return
        path = Path(self.list.value)
        try:
            self.on_continue(path)
        except (OSError, ValueError) as e:  # SaveFileError and DataFileError are ValueErrors
            why = str(e) if str(path) in str(e) else f"{path}: {e}"
            self.error.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ This game cannot be continued. "
                f"{html.escape(why)}</span>"
            )
        else:
            self.error.value = ""


def fallback_html(what: str, save: Path | None, resume_code: str | None) -> str:
    """The note shown under a game or form in the notebook, hidden by the widget's own CSS
    while the widget draws (see :func:`hide_fallback_css`): what to do when it cannot (a
    restarted kernel makes JupyterLab show "Error displaying widget: model not found")."""
    saved = (
        f" The game is saved automatically at <code>{html.escape(str(save))}</code>; "
        f"continue it with <code>{html.escape(resume_code)}</code> or the "
        "<b>Continue</b> button that re-running the cell offers."
        if save is not None and resume_code
        else " Unfinished games are offered again (<b>Continue</b>) when you re-run it."
    )
    return (
        "<div class='moneynb-fallback' style='color:var(--jp-content-font-color2, #555);"
        "font-size:0.9em'>"
        f'If no {html.escape(what)} shows here (for example "Error displaying widget: model '
        'not found" after the kernel stopped), run this cell again: <i>Run</i> &rarr; '
        f"<i>Run All Cells</i>.{saved}</div>"
    )


def lost_text(kind: str = "game", saved: bool = True, moved: bool = True) -> str:
    """The note a game view (``kind="game"``) or start form (``"form"``) shows at its top once
    its kernel is gone (restarted or stopped: its widgets never answer again; see
    :class:`moneynb.ui.a11y.A11yHelper`), saying what to do: in JupyterLab run the cell again
    (and choose Continue), in the Voila app reload the page (the form restores the game).
    ``saved``: whether the game is autosaved; ``moved``: whether a person answered a
    decision in it (only such games are offered to continue, see :func:`unfinished`)."""
    from . import app_mode

    app = app_mode()
    if kind == "form":
        return (
            "This form lost its kernel (it was restarted, stopped or shut down after being idle), so its buttons no longer "
            "work. " + ("Reload the page to start again." if app else "Run this cell again.")
        )
    head = (
        "This board lost its kernel (it was restarted, stopped or shut down after being idle), so clicks no longer reach "
        "the game. "
    )
    again = "reload the page" if app else "run this cell again"
    if not saved:
        return head + f"It was not saved (autosave off): {again} for a new game."
    if not moved:
        return head + f"You had not moved in it yet: {again} for a new game."
    if app:
        return head + "Your game is saved: reload the page and it continues."
    return head + "Your game is saved: run this cell again and choose Continue."
