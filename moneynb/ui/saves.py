"""Unfinished games in the store: find them, describe them, offer to continue one.

Every :class:`~moneynb.ui.view.GameView` with autosave on keeps its game in the game store
(:mod:`moneynb.store`): the actions after every click, and the status line (turn, who is to
move, over, whether a person moved, the time of the last move), so listing the unfinished games
reads a few rows and replays nothing. A game's ``origin`` says where it was started (``"lab"``:
``play``; ``"launcher:<game>"``: the form of that game's page, ``"launcher:*"``: the game
chooser), so the Voila app brings back only the games its own page started
(:mod:`moneynb.ui.launcher`).

Only the owner's games are offered (the hub user, or the browser: :mod:`moneynb.ui.identity`).
A game no person has answered a decision in yet (``person_moved`` false) is not offered: it is
the fresh game a page starts on its own, not one a player would miss.

An old autosave folder (``moneynb-saves/`` under the current folder, from before the store) is
imported once, for the first owner who lists games there (:func:`import_legacy`); its files
are read, never changed.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets

from ..store import GameInfo, StoreError, import_folder
from .a11y import ERROR_STYLE
from .panels import set_layout

#: the old autosave folder (under the notebook's folder), imported once into the store
SAVES = Path("moneynb-saves")
#: at most this many games are offered (newest first)
MAX_OFFERED = 12

#: kept for code that named the old type: an unfinished game is a store's GameInfo
SavedGame = GameInfo


def import_legacy(store, owner: str | None, folder: str | Path = SAVES) -> list[str]:
    """Import the save files of ``folder`` (default ``moneynb-saves`` under the current
    folder) into ``store`` for ``owner``, each file once (:func:`moneynb.store.import_folder`);
    returns the new ids. Store failures are left to the caller's next store call (nothing is
    raised here)."""
    try:
        return import_folder(store, folder, owner)
    except StoreError:
        return []


def unfinished(
    store,
    owner: str | None,
    game: str | None = None,
    origin: str | None = None,
    exclude=(),
) -> list[GameInfo]:
    """The unfinished games of ``owner`` in ``store``, newest first (at most
    :data:`MAX_OFFERED`): not over, a person moved in them.

    Args:
        store: a :class:`moneynb.store.Store` (None: nothing).
        owner: the owner string (None, not known yet: nothing).
        game: only games of this name (None: every game).
        origin: only games started there (None: from anywhere).
        exclude: ids to leave out (the game on screen).

    The old ``moneynb-saves`` folder is imported first (:func:`import_legacy`). A store that
    cannot be read gives an empty list (the view's own saving reports store failures).
    """
    if store is None or not owner:
        return []
    import_legacy(store, owner)
    try:
        games = store.list_games(owner, game=game, over=False, origin=origin,
                                 person_moved=True, exclude=exclude, limit=MAX_OFFERED)  # fmt: skip
    except StoreError:
        return []
    # a shared table is played at the table (join), never continued as a game of one screen
    # that would show every seat's cards (issue 35, case 2)
    return [g for g in games if not g.table]


class ResumeOffer(widgets.VBox):
    """ "Continue an unfinished game": a list of :func:`unfinished` games (newest first) and a
    Continue button calling ``on_continue(game_id)``. Hidden when there is nothing to offer.

    CSS classes: ``moneynb-resume`` (the box), ``moneynb-resume-list`` (the dropdown),
    ``moneynb-resume-go`` (Continue).
    """

    def __init__(self, games: list[GameInfo], on_continue: Callable[[str], None]):
        super().__init__()
        self.add_class("moneynb-resume")
        self.games = list(games)
        self.on_continue = on_continue
        # a visible label: a list without one has no accessible name (axe select-name)
        self.list = widgets.Dropdown(
            description="Unfinished game",
            style={"description_width": "initial"},
            # never wider than the view (issue 38, case 5: it ran off a 1024 px window with
            # Lab's file browser open): the list shrinks, its texts cut inside the list
            layout=widgets.Layout(width="640px", max_width="100%", min_width="0"),
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
        # the button goes under the list when the row has no room for both
        row = widgets.HBox(
            [self.list, self.go],
            layout=widgets.Layout(flex_flow="row wrap", max_width="100%", align_items="center"),
        )
        self.children = [self.note, row, self.error]
        set_layout(
            self, border="1px solid #90caf9", padding="4px 8px", margin="0 0 6px", max_width="100%"
        )
        self.set_games(self.games)

    def set_games(self, games: list[GameInfo]) -> None:
        """Offer ``games`` (hide the box when empty)."""
        self.games = list(games)
        self.list.options = [(g.describe(), g.id) for g in self.games]
        self.list.value = self.games[0].id if self.games else None  # the newest
        n = len(self.games)
        self.note.value = (
            f"<b>Unfinished game{'s' if n != 1 else ''}</b> (saved automatically, newest "
            "first): choose one and press Continue, or play the new game below."
        )
        self.layout.display = None if self.games else "none"

    def _go(self) -> None:
        """Continue the chosen game; a game that cannot be continued (corrupt, tampered,
        unreadable, gone, the store down) is said here, under the button, in plain words:
        nothing escapes the click and the game on screen stays."""
        if not self.list.value:
            return
        try:
            self.on_continue(self.list.value)
        except (OSError, ValueError, StoreError) as e:  # SaveFileError is a ValueError
            self.error.value = (
                f"<span role='alert' style='{ERROR_STYLE}'>⚠ This game cannot be continued. "
                f"{html.escape(str(e))}</span>"
            )
        else:
            self.error.value = ""


#: What Voila's widget manager writes in an output whose widget is not drawn (yet, or ever)
WIDGET_LOADING = "Loading widget..."
WIDGET_NOT_FOUND = "Error displaying widget: model not found"

#: The app page's own watch for Voila's stalls (voila-dashboards/voila#1428 and #920): every
#: 3 s it reads the page's outputs; an output reading only :data:`WIDGET_NOT_FOUND` (the front
#: end asked for the widgets while the kernel was still making them: final) makes it load the
#: page again by itself, once in a row (a count in ``sessionStorage``, read when the page
#: loads, so a page never reloads itself twice; a page whose outputs are all drawn and settled
#: for 20 s clears it), and shows the notice below when that did not help; outputs reading
#: only :data:`WIDGET_LOADING` with nothing on the page changing for 90 s show the notice (a
#: reload is offered, not forced: the page may only be slow). The notice is an alert at the
#: top of the page with a "Reload the page" button; it goes when every output is drawn. One
#: watch a page (``window`` flag). JupyterLab runs it too (issue 41: a view that did not come
#: back after a reload under load, "model not found" for good): there the note under a game
#: carries it as well (a saved notebook's outputs are trusted, so its script runs after a
#: reload); there it never reloads by itself (an IDE; a restarted kernel's widgets are gone
#: for good): its notice, right under the output that did not draw, says to save and reload,
#: or to run the cell again after a kernel restart, and offers the "Reload the page" button.
STALL_WATCH_JS = """
(function () {
  if (window.moneynbStallWatch) return;
  var KEY = 'moneynb-stall-reloads', LOADING = @LOADING@, MISSING = @MISSING@;
  var PATIENCE = window.moneynbStallPatience || 90000;  // (ms; a test may shorten it,
  var SETTLED = window.moneynbStallSettled || 20000;    // and these two: the time a drawn
  var EVERY = window.moneynbStallEvery || 3000;         // page must hold still, the check's)
  function stored(value) {  // the tab's count; null where storage is refused (then the
    try {                    // page never reloads itself: no count, no loop)
      if (value === undefined) return +(sessionStorage.getItem(KEY) || 0);
      if (value === 0) sessionStorage.removeItem(KEY); else sessionStorage.setItem(KEY, value);
      return value;
    } catch (e) { return null; }
  }
  var watch = window.moneynbStallWatch = {reloads: stored(), shown: null, last: null,
                                          since: Date.now()};
  // in Lab (anchor: the first output that did not draw) the notice goes right under that
  // output, in the notebook, covering none of Lab's menus or buttons
  function say(text, anchor) {
    if (watch.shown === text) return;
    var old = document.getElementById('moneynb-stall');
    if (old) old.remove();
    var bar = document.createElement('div');  // filled before it is added: read out whole
    bar.id = 'moneynb-stall';
    bar.className = 'moneynb-stall';
    bar.setAttribute('role', 'alert');
    bar.style.cssText = (anchor ? '' : 'position:sticky;top:0;z-index:1000;') +
      'margin:4px;padding:8px 12px;' +
      'background:#fff4ce;color:#3b2f00;border:2px solid #8a6d00;font-size:14px';
    var words = document.createElement('span');
    words.className = 'moneynb-stall-text';
    words.textContent = text;
    var button = document.createElement('button');
    button.className = 'moneynb-stall-reload';
    button.textContent = 'Reload the page';
    button.style.cssText = 'margin-left:8px;padding:4px 10px;font-size:14px';
    button.onclick = function () { location.reload(); };
    bar.appendChild(words);
    bar.appendChild(button);
    if (anchor) anchor.insertAdjacentElement('afterend', bar);
    else document.body.insertBefore(bar, document.body.firstChild);
    watch.shown = text;
  }
  function check() {
    var outs = Array.prototype.slice.call(document.querySelectorAll('.jp-OutputArea-output'));
    var texts = outs.map(function (o) { return o.textContent.trim(); });
    var missing = texts.filter(function (t) { return t === MISSING; }).length;
    var loading = texts.filter(function (t) { return t === LOADING; }).length;
    var state = [missing, loading, outs.length, document.body.innerText.length].join();
    if (state !== watch.last) { watch.last = state; watch.since = Date.now(); }
    if (outs.length && !missing && !loading) {
      if (watch.shown) {  // a slow page drew after all: the alert goes
        var bar = document.getElementById('moneynb-stall');
        if (bar) bar.remove();
        watch.shown = null;
      }
      // drawn and settled for 20 s: a later stall of this tab may reload by itself again
      // (this page itself never does twice: its count was read when it loaded)
      if (Date.now() - watch.since > SETTLED) stored(0);
      return;
    }
    var lab = !!document.querySelector('.jp-NotebookPanel');
    var anchor = lab ? outs[texts.indexOf(missing ? MISSING : LOADING)] : null;
    if (missing && lab) {  // an IDE: offered, never forced (a restarted kernel is common)
      say('This game did not load after the page was loaded again (a busy server can do ' +
          'this): save, then reload the page. If the kernel was restarted, run its cell ' +
          'again instead (Run \u2192 Run All Cells).', anchor);
    } else if (missing) {
      if (watch.reloads !== null && watch.reloads < 1 && stored(watch.reloads + 1) !== null) {
        location.reload();
        return;
      }
      say('Part of this page did not load (a busy server can do this), and loading it ' +
          'again did not help yet.');
    } else if (loading && Date.now() - watch.since > PATIENCE) {
      say('Part of this page is still loading after a minute and a half (a busy server ' +
          'can do this).', anchor);
    }
  }
  watch.timer = setInterval(check, EVERY);
})();
""".replace("@LOADING@", json.dumps(WIDGET_LOADING)).replace(
    "@MISSING@", json.dumps(WIDGET_NOT_FOUND)
)


#: JupyterLab's mend for a widget view that gave up while its page was busy (issue 41 case 1:
#: after a reload under load, EVERY widget output read "Error displaying widget: model not
#: found" although the kernel had answered ipywidgets' ``request_states`` and the manager held
#: every model). The cause, in ipywidgets 8.1 (``@jupyter-widgets/base-manager``
#: ``ManagerBase.get_model`` and ``jupyterlab-manager``'s ``WidgetRenderer.renderModel``): a view
#: asks for its model while the kernel restore runs; ``get_model`` looks every 100 ms for 2 s
#: and does not look again after its last sleep; the restore builds every model in one long
#: run of the page's thread, so a sleep that began before it ends after it, past the 2 s: the
#: poll gives up although the model now exists, and as the manager now reads "restored" the
#: view writes "model not found" for good (it waits for the next restore only while the
#: manager is not restored). Reproduced deterministically by stretching those sleeps
#: (``benchmarks/lab_reload_repro.py`` ``STARVE=8000``; test
#: ``tests/browser/test_lab_reload_mend_browser.py``). The mend, carried by the trusted note
#: under each game: it takes ``LabWidgetManager`` from Lab's own copy of the module (the
#: extension's module federation container, ``window._JUPYTERLAB``; no installed file is
#: changed) and wraps its ``restoredStatus`` getter, which only such a view reads: the first
#: time(s) it answers "not restored yet", so the view waits for the manager's ``restored``
#: signal as the library intends, and the mend emits it (each round: the model came
#: meanwhile). It never runs the kernel restore again: the kernel answers it from another
#: thread while a click plays on, and its older states could be set over newer updates.
#: After five rounds a
#: missing model is reported as before (a restarted kernel's widgets are gone for good; the
#: stall watch then offers the reload).
LAB_WIDGET_MEND_JS = """
(function () {
  var lab = window._JUPYTERLAB && window._JUPYTERLAB['@jupyter-widgets/jupyterlab-manager'];
  if (window.moneynbWidgetMend || !lab || !document.querySelector('.jp-NotebookPanel')) return;
  var mend = window.moneynbWidgetMend = {installed: false, rounds: 0}, ROUNDS = 5;
  // each round only says "restored" again: the views waiting for it look for their models
  // once more. Never the kernel restore again: its states, taken while the kernel plays on,
  // could be set over newer updates
  function rescue(manager) {
    var r = manager.moneynbRescue;
    r.pending = false;
    r.round += 1;
    mend.rounds += 1;
    manager.restored.emit(undefined);
  }
  Promise.resolve(lab.get('./index')).then(function (factory) {
    var proto = factory().LabWidgetManager.prototype;
    var own = Object.getOwnPropertyDescriptor(proto, 'restoredStatus');
    if (!own || !own.get || proto.moneynbMended) return;
    proto.moneynbMended = true;
    Object.defineProperty(proto, 'restoredStatus', {configurable: true, get: function () {
      if (!own.get.call(this)) return false;
      var r = this.moneynbRescue || (this.moneynbRescue = {round: 0, pending: false});
      if (r.round >= ROUNDS) return true;
      if (!r.pending) {
        r.pending = true;
        setTimeout(rescue, 50, this);
      }
      return false;
    }});
    mend.installed = true;
  }).catch(function (e) { console.warn('moneynb: widget mend not installed', e); });
})();
"""


def fallback_html(what: str, saved: bool = False) -> str:
    """The note shown under a game or form in the notebook, hidden by the widget's own CSS
    while the widget draws (see :func:`hide_fallback_css`): what to do when it cannot (a
    restarted kernel makes JupyterLab show "Error displaying widget: model not found").
    ``saved``: the game is kept in the store. In the Voila app (:func:`moneynb.ui.app_mode`:
    no cell to run) the note says to reload the page instead: a page whose widgets never
    start on a loaded server (voila-dashboards/voila#1428) comes back on a reload, and the
    note carries :data:`STALL_WATCH_JS`, which reloads such a page by itself or offers to.
    In JupyterLab the note carries the same watch (issue 41: a view that never came back
    after a reload)."""
    from . import app_mode

    if app_mode():  # the page watches for Voila's stalls itself (STALL_WATCH_JS)
        return (
            "<div class='moneynb-fallback' style='color:var(--jp-content-font-color2, #555);"
            "font-size:0.9em'>"
            f'If no {html.escape(what)} shows here (it still says "Loading widget..." after a '
            "minute, or the server was restarted), reload this page: a game you have moved in "
            f"comes back.</div><script>{STALL_WATCH_JS}</script>"
        )
    again = (
        " The game is saved automatically; the <b>Continue</b> button that re-running the "
        "cell offers brings it back."
        if saved
        else " Unfinished games are offered again (<b>Continue</b>) when you re-run it."
    )
    return (
        "<div class='moneynb-fallback' style='color:var(--jp-content-font-color2, #555);"
        "font-size:0.9em'>"
        f'If no {html.escape(what)} shows here (for example "Error displaying widget: model '
        'not found" after the kernel stopped), run this cell again: <i>Run</i> &rarr; '
        f"<i>Run All Cells</i>.{again}</div>"
        f"<script>{LAB_WIDGET_MEND_JS}{STALL_WATCH_JS}</script>"
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
