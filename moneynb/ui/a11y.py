"""Accessibility helpers of the game views (WCAG 2.1 AA; checked by axe-core in the browser tests).

* :class:`A11yHelper`: one small, invisible anywidget per :class:`~moneynb.ui.view.GameView`.
  It holds the view's polite live region (``div.moneynb-live``, ``role="status"``): each
  :meth:`A11yHelper.announce` appends one paragraph to it (the new log lines and whose
  decision it is), which a screen reader reads out without moving the reader's place. It also
  moves the keyboard focus to the first control of a new decision that belongs to a person
  at the screen (:meth:`A11yHelper.focus_panel`), and puts the shared CSS in the page once: a
  visible focus ring on every control of a view or launcher, the ``moneynb-sr-only`` class
  (read by screen readers, not shown), and a name for every slider handle and Play button
  (ipywidgets gives them none). When the kernel behind the page's widgets is gone (restarted,
  shut down, died: the widget manager marks the models' comms dead, or the kernel reports
  ``restarting``/``autorestarting``/``dead``, or the server answers 404 for it: a kernel
  culled for idleness by Voila or Jupyter sends nothing, so every 5 s the page asks
  ``api/kernels/<id>``), it greys out and disables every control of its
  view or form (class ``moneynb-lost`` on it) and puts ``lost_text`` at its top
  (``div.moneynb-lost-note``, ``role="alert"``): otherwise the old board looks playable while
  clicks reach nothing. While the connection to the server is down for more than 4 s (a
  stopped server: the Voila app shows nothing of its own), the same with ``offline_text``
  (class ``moneynb-offline``, ``div.moneynb-offline-note``), taken away once it is back.
* :func:`seat_html`: a player's name as readable text in both themes (the seat colour goes to
  a dot beside it: a seat colour as text colour falls below 4.5:1 contrast in one theme or the
  other, e.g. ``#1f77b4`` on JupyterLab Dark's ``#212121`` is 3.3:1).

Colours: text either takes the theme's colour (inherit, or a ``--jp-...`` CSS variable) or a
fixed foreground on a fixed background (cards, dice, the Coach box, error lines), never a fixed
foreground on the theme's background.
"""

from __future__ import annotations

import html
import itertools

import anywidget
import traitlets

#: fixed foreground/background pairs used by the views (contrast >= 7:1 each)
ERROR_STYLE = "color:#8b0000;background:#fff0f0;padding:1px 4px;border-radius:3px"
NOTE_STYLE = "color:var(--jp-content-font-color2, #555)"
#: the hot-seat hand-off line: near-black on amber, 12:1
HANDOFF_STYLE = (
    "color:#1a1a1a;background:#ffe082;border-left:6px solid #ff8f00;padding:3px 8px;"
    "margin:4px 0;font-size:1.1em"
)
#: the same words ending the "Last move" line (a line 1.4 em high: no margin, little padding)
HANDOFF_INLINE_STYLE = (
    "color:#1a1a1a;background:#ffe082;border-left:4px solid #ff8f00;padding:0 6px;font-weight:bold"
)
#: a board's note to the player (what a second click will do): dark blue on light blue, 9.6:1
NOTICE_STYLE = "color:#0d3c61;background:#e3f2fd;padding:1px 4px;border-radius:3px"

_TOKENS = itertools.count(1)
#: the default note of a view whose kernel is gone (a game view and a form say more)
LOST_TEXT = (
    "These controls lost their kernel (it was restarted, stopped or shut down after being "
    "idle), so clicks no longer "
    "reach it. Run this cell again."
)
#: the note of a view or form while the connection to the server is down (a server stopped,
#: a network or a laptop asleep); taken away when it is back
OFFLINE_TEXT = (
    "The connection to the server is down, so clicks do not reach the game. It is tried "
    "again on its own, and this note goes once it is back. If it does not come back, the "
    "server has stopped: start it again and reload the page."
)

_ESM = r"""
const CSS_ID = "moneynb-a11y-css";
const CSS = `
.moneynb-view :focus-visible, .moneynb-launcher :focus-visible {
  outline: 3px solid var(--jp-brand-color1, #1565c0) !important; outline-offset: 2px; }
.moneynb-view .noUi-handle:focus { outline: 3px solid var(--jp-brand-color1, #1565c0); }
.moneynb-sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0;
  margin: -1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%);
  white-space: nowrap; border: 0; }
.moneynb-live p { margin: 0; }
/* a view's first board is shown once drawn for the scale the page shows it at (see sized) */
.moneynb-view:has(.moneynb-a11y[data-unsized]) .moneynb-board { visibility: hidden; }
/* ipywidgets' button colours under white text, darkened to at least 4.5:1 */
.moneynb-view .jupyter-button.mod-success, .moneynb-launcher .jupyter-button.mod-success {
  background-color: #2e7d32; }
.moneynb-view .jupyter-button.mod-info { background-color: #00727d; }
.moneynb-view .jupyter-button.mod-warning { background-color: #a65400; }
.moneynb-view .jupyter-button.mod-danger { background-color: #c62828; }
.moneynb-view .jupyter-button.mod-primary { background-color: #1565c0; }
.moneynb-view .jupyter-button.mod-success, .moneynb-view .jupyter-button.mod-info,
.moneynb-view .jupyter-button.mod-warning, .moneynb-view .jupyter-button.mod-danger,
.moneynb-view .jupyter-button.mod-primary { color: #fff; }
/* layout (issue 30, case 1): a control never shrinks below its text, rows of controls
   wrap instead, and nothing is wider than the view */
.moneynb-view .moneynb-decision .widget-hbox, .moneynb-view .moneynb-decision .jupyter-widgets.widget-hbox {
  flex-wrap: wrap; }
.moneynb-view .jupyter-button, .moneynb-view .widget-toggle-button { flex-shrink: 0;
  min-width: max-content; }
.moneynb-view .moneynb-decision .widget-dropdown, .moneynb-view .moneynb-decision .widget-text {
  max-width: calc(100% - 4px); }
/* board, decision and tools (issue 30, case 1; see GameView): a grid, stacked (the decision
   first, then the board, then the Coach and money) unless fitBoards finds room for the board
   at its own size and a column of SIDE_PX beside it (data-layout="side") */
.moneynb-view .moneynb-board-row { display: grid !important; grid-template-columns: minmax(0, 1fr);
  grid-template-areas: "side" "board" "tools"; column-gap: 10px; align-items: start; }
.moneynb-view .moneynb-board-row[data-layout="side"] {
  grid-template-columns: max-content minmax(0, 1fr); grid-template-rows: auto 1fr;
  grid-template-areas: "board side" "board tools"; }
.moneynb-view .moneynb-board-row > .moneynb-board { grid-area: board; }
.moneynb-view .moneynb-board-row > .moneynb-side { grid-area: side; }
/* a board drawn at its smallest readable size that still does not fit the window beside or
   under its decision (data-fit="scroll": the player scrolls a little to see all of it): the
   decision is pinned to the top of the part that can be seen, so its buttons stay in view
   (issue 38, round 2) */
.moneynb-view .moneynb-board-row[data-fit="scroll"] > .moneynb-side { position: relative;
  z-index: 3; align-self: start; background: var(--jp-layout-color0, #fff);
  box-shadow: 0 4px 6px -4px rgba(0, 0, 0, 0.35); }
.moneynb-view .moneynb-board-row > .moneynb-board-tools { grid-area: tools; }
/* a narrow column beside the board (data-side="narrow", see fitBoards): its buttons' words
   wrap, its lists, sliders and boxes take the column's width */
.moneynb-view .moneynb-board-row[data-side="narrow"] > .moneynb-side .jupyter-button {
  min-width: 0; max-width: calc(100% - 6px); white-space: normal; height: auto; min-height: 28px;
  line-height: 1.25; padding-top: 3px; padding-bottom: 3px; }
.moneynb-view .moneynb-board-row[data-side="narrow"] > .moneynb-side :is(.widget-dropdown,
  .widget-text, .widget-slider, .widget-inline-hbox, .widget-hbox, .widget-vbox) {
  max-width: 100% !important; min-width: 0 !important; }
.moneynb-view .moneynb-board-row[data-side="narrow"] > .moneynb-side :is(.widget-dropdown,
  .widget-text, .widget-slider) { width: auto !important; }
/* ... but a slider has no width of its own: "auto" left a lone knob with no track (Moolah's
   amounts and Easy Money's bids at 1024x700 with Lab's file browser open): it takes a line
   of the column's width, under its range */
.moneynb-view .moneynb-board-row[data-side="narrow"] > .moneynb-side .widget-slider {
  width: 100% !important; flex: 1 1 100% !important; }
/* the narrow column: a list and its button wrap onto two lines (the list gets the column's
   width, Money Run's action list was 97 px beside "Go"); the money table's names wrap onto
   two lines at most ("Greedy bot 1's bank account", "American Express (charges)" took three:
   the tester's F9), its amounts never */
.moneynb-view .moneynb-board-row[data-side="narrow"] > .moneynb-side .widget-hbox {
  flex-wrap: wrap; }
.moneynb-view .moneynb-board-row[data-side="narrow"] .moneynb-money-table { font-size: 12px; }
.moneynb-view .moneynb-board-row[data-side="narrow"] .moneynb-money-table td:first-child {
  padding-right: 6px !important; }
.moneynb-view .moneynb-money-table :is(.moneynb-dollars, .moneynb-total) { white-space: nowrap; }
/* a drop-down beside the board whose longest option does not fit beside its name (class
   moneynb-long-list, see longLists): its name above it, the list the column's whole width,
   its button under it (Money Run's "Place the small coin from table slot 1 of 5" read in a
   97 px list: the tester's F9) */
.moneynb-view .moneynb-side .widget-dropdown.moneynb-long-list { flex-wrap: wrap;
  width: 100% !important; max-width: 100% !important; }
.moneynb-view .moneynb-side .widget-dropdown.moneynb-long-list > select {
  flex: 1 1 100% !important; width: 100% !important; max-width: 100%; min-width: 0; }
.moneynb-view .moneynb-side .widget-hbox:has(> .moneynb-long-list) { flex-wrap: wrap; }
/* a drop-down's chosen option in full words under it (panels.chosen_words): needed only in
   the narrow column, where the closed list cuts it (issue 38); elsewhere it would cost the
   board a line */
.moneynb-view .moneynb-board-row:not([data-side="narrow"]) .moneynb-narrow-only,
.moneynb-view .moneynb-board-row[data-side="narrow"] .moneynb-wide-only {
  display: none !important; }
/* the "Last move" line, just above the board's row: after a move it is scrolled to the top
   with the row under it (issue 38: the line was out of sight after every move), so it keeps
   one height (one line) and the board is fitted under it without changing size from one
   move to the next (two lines cost the board the room a tall decision needs at 1024x700).
   A longer text is cut at its START ("..." on the left), so its end, the outcome, shows
   (issue 38: cut at its end, "...House card 19 against 20: G...", it hid it); the whole
   text is in its title, as a tooltip, and in the log */
.moneynb-view .moneynb-last-move { line-height: 1.4em; height: 1.4em; overflow: hidden;
  white-space: nowrap; text-overflow: ellipsis; direction: rtl; text-align: left;
  contain: inline-size; }
.moneynb-view .moneynb-last-move-text { direction: ltr; unicode-bidi: isolate; }
/* a prompt that comes back with new amounts (an auction's bids) takes the room of its longest
   form from the first (board.prompt_room, drawn hidden in the same place): one height */
.moneynb-view .moneynb-prompt-sized { display: grid; }
.moneynb-view .moneynb-prompt-sized > span { grid-area: 1 / 1; }
.moneynb-view .moneynb-prompt-room { visibility: hidden; }
.moneynb-view .moneynb-header > .widget-html-content { width: 100%; min-width: 0; }
/* the controls of any new decision (drawn in a view's panel box) take no click for their
   first 0.7 s (view.FRESH_S): the second click of a slower double-click would answer it
   too, the new control being drawn where the clicked one was; unmarked (a player reads
   first anyway). Before the hand-over rule: at a hand-over that one wins (same weight) */
.moneynb-view .moneynb-fresh :is(button, select, input, .noUi-handle, .noUi-target) {
  animation: moneynb-fresh 0.7s step-end; }
@keyframes moneynb-fresh { 0%, 100% { pointer-events: none; } }
/* why Undo is off, beside it on its row (issue 38): small and muted, one line */
.moneynb-view .moneynb-undo-why { font-size: 0.9em; color: var(--jp-ui-font-color2, #616161); }
/* the line beside Undo gives way in a narrow view (it wraps rather than push the row out) */
.moneynb-view .moneynb-undo-note { min-width: 0; flex: 0 1 auto; }
.moneynb-view .moneynb-undo-note .widget-html-content { white-space: normal; }
/* hot seat (issue 38, case 1): the controls of a decision drawn as the screen passes to
   another person take no click for their first 0.7 s in the page (view.HANDOVER_S: a slower
   double-click of the person before, its clicks up to ~0.6 s apart, lands on them), and look
   so. It was 1 s: the next person's double-click 1 s after the hand-over line appeared
   played nothing */
.moneynb-view .moneynb-handover :is(button, select, input, .noUi-handle, .noUi-target) {
  animation: moneynb-handover 0.7s step-end; }
@keyframes moneynb-handover { 0%, 100% { pointer-events: none; opacity: 0.5; } }
/* a view or form whose kernel is gone or out of reach (see watchKernel): controls look inert */
:is(.moneynb-lost, .moneynb-offline) :is(.moneynb-board, .widget-slider, button, select, input) {
  pointer-events: none; }
:is(.moneynb-lost, .moneynb-offline) :is(.moneynb-board, .widget-button, .widget-toggle-button,
  .widget-dropdown, .widget-text, .widget-slider) { opacity: 0.45; filter: grayscale(1); }
/* the widget manager's broken-chain icon on every widget: the note says it once */
.moneynb-lost .jupyter-widgets-disconnected::before,
.moneynb-lost.jupyter-widgets-disconnected::before { display: none !important; }
.moneynb-lost-note, .moneynb-offline-note { color: #5a1a00; background: #fff3e0; border: 2px solid #e65100;
  border-radius: 4px; padding: 6px 10px; margin: 0 0 6px; font-size: 1.05em; }
`;
const CONTROLS = 'button:not([disabled]), select:not([disabled]), ' +
  'input:not([disabled]):not([type=hidden]), textarea:not([disabled]), .noUi-handle';

// the Undo button is described by the line beside it (issue 38: its reason when it is off
// was only its tooltip, which a touch or keyboard user never sees and a screen reader may
// not read): aria-describedby names that line, given an id unique in the page (counted on
// the window: each view's helper may load its own copy of this module)
function describeUndo(root) {
  for (const b of root.querySelectorAll("button.moneynb-undo")) {
    const n = b.parentElement &&
      b.parentElement.querySelector(".moneynb-undo-note :is(.moneynb-undo-why, .moneynb-undo-refused)");
    if (n) {
      if (!n.id) n.id = `moneynb-undo-why-${window.__moneynbUndoWhy = (window.__moneynbUndoWhy || 0) + 1}`;
      if (b.getAttribute("aria-describedby") !== n.id) b.setAttribute("aria-describedby", n.id);
    } else if (b.hasAttribute("aria-describedby")) b.removeAttribute("aria-describedby");
  }
}

function nameSliders(root) {
  for (const h of root.querySelectorAll(".noUi-handle:not([aria-label])")) {
    const w = h.closest(".widget-slider, .jupyter-widget-slider, .widget-hslider") || h.parentElement;
    const lab = w && w.querySelector(".widget-label");
    const text = (lab && lab.textContent.trim()) || (w && w.getAttribute("title")) || "amount";
    h.setAttribute("aria-label", text);
  }
  // ipywidgets' Play shows icon-only buttons (play/pause, stop, repeat) with no name
  // (issue 38, case 6: a name for screen readers AND a tooltip for the mouse)
  for (const p of root.querySelectorAll(".widget-play")) {
    const names = ["Play or pause", "Stop (back to the start)", "Repeat"];
    p.querySelectorAll("button").forEach((b, i) => {
      const name = names[i] || "Play control";
      if (!b.getAttribute("aria-label")) b.setAttribute("aria-label", name);
      if (!b.getAttribute("title")) b.setAttribute("title", name);
    });
  }
}

// The kernel behind these widgets is gone when the widget manager marks the models' comms
// dead (ipywidgets' comm_live, on a kernel restart: the view element then carries
// "jupyter-widgets-disconnected") or the kernel's status turns dead / restarting (Kernel >
// Shut Down, a crash), or the server no longer has the kernel (a Voila or Jupyter kernel culled
// for idleness: see watchServerKernel). Old widgets never come back to life then, so
// `lost` is called once. A connection to the server down for OFFLINE_MS (the server stopped,
// the network or a laptop asleep) calls `offline(true)`, and `offline(false)` once it is back.
const GONE = ["dead", "restarting", "autorestarting"];
const OFFLINE_MS = 4000;
// A kernel shut down by the server (Voila or Jupyter culling it for idleness, an admin's
// shutdown) sends no status and may leave the websocket open: nothing reaches the page. So
// the server is asked every POLL_MS whether the kernel still exists (GET api/kernels/<id>,
// one request per kernel however many views share it); a 404 means it is gone ("culled").
const POLL_MS = 5000;
const polls = new Map();
function watchServerKernel(kernel, gone) {
  const id = kernel && kernel.id;
  const settings = kernel && kernel.serverSettings;
  if (!id || !settings || typeof fetch !== "function") return () => {};
  let p = polls.get(id);
  if (!p) {
    const url = String(settings.baseUrl || "/").replace(/\/?$/, "/") + "api/kernels/" +
      encodeURIComponent(id);
    const headers = settings.token ? { Authorization: "token " + settings.token } : {};
    p = { listeners: new Set(), timer: null };
    const ask = async () => {
      try {
        const r = await fetch(url, { credentials: "same-origin", cache: "no-store", headers });
        if (r.status === 404) {
          clearInterval(p.timer);
          polls.delete(id);
          for (const f of [...p.listeners]) f();
        }
      } catch (e) { /* the server is unreachable: the offline note says so */ }
    };
    p.timer = setInterval(ask, POLL_MS);
    polls.set(id, p);
  }
  p.listeners.add(gone);
  return () => {
    p.listeners.delete(gone);
    if (!p.listeners.size && polls.get(id) === p) {
      clearInterval(p.timer);
      polls.delete(id);
    }
  };
}
// Leaving a Voila page (closed, reloaded, navigated away) shuts its kernel down (issue 30
// follow-up): Voila's own call on unload is refused by the server (403, "'_xsrf' argument
// missing from POST": voila-dashboards/voila#1458: a Voila page gets no _xsrf cookie), which
// left one 150-180 MB kernel per page load. So the page asks for it itself, DELETE
// api/kernels/<id> as a keepalive request (it outlives the page), with the _xsrf cookie as
// X-XSRFToken: tornado's check is a double submit (header equal to the cookie, the cookie
// unsigned), so where the server set none the page sets a random one for its base path
// (SameSite=Strict: another site can neither read nor send it). Only where the kernel says it
// runs a Voila app (`leave_shuts_kernel`): in JupyterLab the notebook keeps its kernel.
const leaving = new Set();
function shutdownOnLeave(kernel) {
  const id = kernel && kernel.id;
  const settings = kernel && kernel.serverSettings;
  if (!id || !settings || leaving.has(id) || typeof fetch !== "function") return;
  leaving.add(id);
  const base = String(settings.baseUrl || "/").replace(/\/?$/, "/");
  const url = base + "api/kernels/" + encodeURIComponent(id);
  window.addEventListener("pagehide", (e) => {
    if (e.persisted) return;  // kept in the back-forward cache: the page may come back
    const m = document.cookie.match(/(?:^|;\s*)_xsrf=([^;]+)/);
    let xsrf = m && decodeURIComponent(m[1]);
    if (!xsrf && window.crypto && crypto.getRandomValues) {
      xsrf = Array.from(crypto.getRandomValues(new Uint8Array(16)),
        (b) => b.toString(16).padStart(2, "0")).join("");
      const path = new URL(base, location.href).pathname;
      document.cookie = `_xsrf=${xsrf}; path=${path}; SameSite=Strict`;
    }
    const headers = {};
    if (xsrf) headers["X-XSRFToken"] = xsrf;
    if (settings.token) headers.Authorization = "token " + settings.token;
    try {
      fetch(url, { method: "DELETE", keepalive: true, credentials: "same-origin", headers });
    } catch (err) { /* nothing more a closing page can do: the server culls it later */ }
  });
}
function watchKernel(model, el, lost, offline) {
  const cleanups = [];
  const check = () => {
    if (el.closest(".jupyter-widgets-disconnected")) lost("comm");
  };
  model.on("comm_live_update", check);
  cleanups.push(() => model.off("comm_live_update", check));
  const wm = model.widget_manager;
  let kernel = null;
  try { kernel = wm && wm.kernel; } catch (e) { kernel = null; }
  if (kernel && kernel.statusChanged && kernel.statusChanged.connect) {
    const onStatus = (_k, status) => { if (GONE.includes(status)) lost(status); };
    kernel.statusChanged.connect(onStatus);
    cleanups.push(() => kernel.statusChanged.disconnect(onStatus));
    if (GONE.includes(kernel.status)) setTimeout(() => lost(kernel.status), 0);
  }
  if (kernel && kernel.connectionStatusChanged && kernel.connectionStatusChanged.connect) {
    let timer = null;
    const onConnection = (_k, status) => {
      if (status === "connected") {
        clearTimeout(timer);
        timer = null;
        offline(false);
      } else if (timer === null) {
        timer = setTimeout(() => {
          timer = null;
          if (kernel.connectionStatus !== "connected") offline(true);
        }, OFFLINE_MS);
      }
    };
    kernel.connectionStatusChanged.connect(onConnection);
    cleanups.push(() => {
      clearTimeout(timer);
      kernel.connectionStatusChanged.disconnect(onConnection);
    });
  }
  if (kernel) cleanups.push(watchServerKernel(kernel, () => lost("culled")));
  if (kernel && model.get("leave_shuts_kernel")) shutdownOnLeave(kernel);
  if (kernel && kernel.disposed && kernel.disposed.connect) {
    const onDisposed = () => lost("disposed");
    kernel.disposed.connect(onDisposed);
    cleanups.push(() => kernel.disposed.disconnect(onDisposed));
  }
  setTimeout(check, 0);
  return () => cleanups.forEach((f) => { try { f(); } catch (e) { /* already gone */ } });
}

// the note of a form holding a game is left to the game's own note, next to the board
const noteHere = (r) => !(r.classList.contains("moneynb-launcher") && r.querySelector(".moneynb-view"));

function note(r, cls, text) {
  const n = document.createElement("div");
  n.className = cls;
  n.setAttribute("role", "alert");
  n.textContent = text;
  r.prepend(n);
}

function showOffline(model, root, on) {
  const r = root();
  if (r.classList.contains("moneynb-lost")) return;
  const old = r.querySelector(":scope > .moneynb-offline-note");
  r.classList.toggle("moneynb-offline", on);
  // no click or key reaches a control meanwhile (the kernel connection would queue it and
  // deliver it late); `inert` on the children, not on the root that holds the note
  for (const c of r.children) {
    // a game in a form has its own note and makes its own children inert
    if (c.classList.contains("moneynb-offline-note") || c.querySelector(".moneynb-view")) continue;
    if (on && !c.inert) {
      c.inert = true;
      c.dataset.moneynbInert = "1";
    } else if (!on && c.dataset.moneynbInert) {
      c.inert = false;
      delete c.dataset.moneynbInert;
    }
  }
  if (!on && old) old.remove();
  if (on && !old && noteHere(r) && model.get("offline_text"))
    note(r, "moneynb-offline-note", model.get("offline_text"));
}

function showLost(model, el, root, why) {
  const r = root();
  if (r.classList.contains("moneynb-lost")) return;
  showOffline(model, root, false);
  r.classList.add("moneynb-lost");
  r.dataset.lost = why;
  for (const c of r.querySelectorAll("button, select, input, textarea")) {
    c.disabled = true;
    c.setAttribute("aria-disabled", "true");
  }
  for (const h of r.querySelectorAll(".noUi-handle")) h.setAttribute("tabindex", "-1");
  if (noteHere(r) && model.get("lost_text")) note(r, "moneynb-lost-note", model.get("lost_text"));
}

// A board is drawn at the size that shows it WHOLE with the pending decision's controls
// (issue 38, case 2: in JupyterLab the decision and the board never fitted on screen
// together, so every move needed a scroll): scaled as a whole with a CSS transform (plotly
// maps the mouse through it), its box taking the scaled size. The row (see GameView) is laid
// out side by side (data-layout="side": the board, and a column of at least SIDE_PX for the
// decision) or stacked (the decision first, then the board), whichever shows the board larger
// with both inside the part of the window the row can be seen in (Lab scrolls the notebook
// inside its panel; Voila the window); never above its own size, never below MIN_SCALE.
// The scale is reported to the kernel (A11yHelper.board_scale), which draws the board's text
// larger by as much, with fewer or shorter labels (moneynb.figures' BoardDrawing.set_text_zoom,
// zooms up to 1.5 = 1 / MIN_SCALE): the text reads at 11 px or more on screen (issue 38). A board that
// does not fit whole at MIN_SCALE is drawn at MIN_SCALE (narrower only when the row is
// narrower than that: no sideways scroll) in the layout where it fits the row's width, side
// by side when it can, and the row is marked data-fit="scroll": its decision is pinned in
// view (pinSides) while the player scrolls the rest of the board into sight. A replay's chart
// is fitted to its width.
const SIDE_PX = 300, NARROW_SIDE_PX = 180, GAP_PX = 10, MIN_SCALE = 0.667;
function scaleBox(box, s, w, h, sized) {
  const inner = box.firstElementChild;
  if (Math.abs(s - Number(inner.dataset.moneynbScale || 1)) < 0.005 &&
      (!sized || box.dataset.moneynbSized === "1")) return;
  inner.dataset.moneynbScale = String(s);
  inner.style.transformOrigin = "0 0";
  inner.style.transform = s < 1 ? `scale(${s})` : "";
  box.style.height = s < 1 ? `${Math.ceil(h * s)}px` : "";
  if (sized) {  // the board's own box: as wide as the board drawn (the grid column follows)
    box.style.width = `${Math.ceil(w * s) + 4}px`;
    box.style.flex = "0 0 auto";
    box.dataset.moneynbSized = "1";
  }
}
// the height of the part of the window `el` can be seen in when scrolled to: its nearest
// scrolling box's (Lab's notebook panel), whether it scrolls now or not, else the window's
function room(el) {
  let h = innerHeight;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(p).overflowY) && p.clientHeight > 0)
      h = Math.min(h, p.clientHeight);
  }
  return h;
}
// what a move scrolls to the top: the view's "Last move" line (just above its board row) when
// it shows one, else the row; and how much of the window it takes above the row
function anchorOf(r, row) {
  const last = r.querySelector(".moneynb-header .moneynb-last-move");
  return last && last.closest(".moneynb-view") === r ? last : row;
}
function leadOf(r, row) {
  const a = anchorOf(r, row);
  if (a === row) return 0;
  const d = row.getBoundingClientRect().top - a.getBoundingClientRect().top;
  return d > 0 && d < 200 ? d : 0;
}
// the drop-downs of the view's decision whose longest option does not fit their list as it
// is laid out get the class moneynb-long-list (the CSS above): measured once per list of
// options
const measure = document.createElement("canvas").getContext("2d");
function longLists(r) {
  for (const s of r.querySelectorAll(".moneynb-side select")) {
    const w = s.closest(".widget-dropdown");
    if (!w || !s.offsetParent || w.closest(".moneynb-view") !== r) continue;
    const key = [...s.options].map((o) => o.text).join("\n");
    if (s._moneynbLong === key) continue;
    s._moneynbLong = key;
    const cs = getComputedStyle(s);
    measure.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const need = Math.max(0, ...[...s.options].map((o) => measure.measureText(o.text).width));
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    w.classList.toggle("moneynb-long-list", w.classList.contains("moneynb-long-list") || need > room + 0.5);
  }
}
function fitBoards(r) {
  longLists(r);
  let own = 0;  // the scale of the view's own board
  for (const row of r.querySelectorAll(".moneynb-board-row")) {
    if (row.closest(".moneynb-view") !== r) continue;
    const box = row.querySelector(":scope > .moneynb-board");
    const svg = box && box.querySelector("svg.main-svg");
    const w = svg && Number(svg.getAttribute("width")), h = svg && Number(svg.getAttribute("height"));
    if (!w || !h || !row.clientWidth) continue;
    const W = row.clientWidth;
    const side = row.querySelector(":scope > .moneynb-side");
    if (!side) {  // a replay's row (board and tools): side by side when both fit at full size
      const layout = W >= w + 4 + GAP_PX + SIDE_PX ? "side" : "stacked";
      if (row.dataset.layout !== layout) row.dataset.layout = layout;
      continue;
    }
    // the "Last move" line is seen with the row after a move (issue 38): room for it above
    const H = Math.max(200, room(row) - 8 - leadOf(r, row));
    const sideH = side.getBoundingClientRect().height;
    let sSide = Math.min(1, (W - 4 - GAP_PX - SIDE_PX) / w, H / h);
    const sStack = Math.min(1, (W - 4) / w, (H - sideH - GAP_PX) / h);
    const floor = Math.min(MIN_SCALE, (W - 4) / w);
    let narrow = false;
    // a decision too tall for the narrow column (a debt's many mortgage buttons) is stacked
    // over the board instead, until the next decision (its new controls)
    const controls = side.querySelector("button, select, input");
    if (row.dataset.side === "narrow" && sideH > H + 1) row._moneynbTooTall = controls;
    const tooTall = !!controls && row._moneynbTooTall === controls;
    if (sSide < floor - 0.001 && !tooTall) {
      // a narrow, short window (Lab at 1024x700 with its file browser open): a tall decision
      // (an auction, a deposit, Money Run's turn, a debt) pushed the board under it out of
      // sight (issue 38); a narrow column beside the board holds any decision, its buttons'
      // words wrapping. Taken whenever stacking gains little, so the board does not jump
      // from beside the decision to under it from one decision to the next.
      const sNarrow = Math.min(1, (W - 4 - GAP_PX - NARROW_SIDE_PX) / w, H / h);
      if (sNarrow >= floor - 0.001 && sNarrow >= sStack - 0.1) { sSide = sNarrow; narrow = true; }
    }
    let layout = sSide >= sStack ? "side" : "stacked";
    const side_ = layout === "side" && narrow ? "narrow" : "";
    if ((row.dataset.side || "") !== side_) row.dataset.side = side_;
    const best = Math.max(sSide, sStack);
    const fit = best >= floor - 0.001 ? "whole" : "scroll";
    // too small either way: side by side when the board fits beside the column at the floor
    if (fit === "scroll") layout = W - 4 - GAP_PX - SIDE_PX >= w * floor ? "side" : "stacked";
    if (row.dataset.layout !== layout) row.dataset.layout = layout;
    if (row.dataset.fit !== fit) row.dataset.fit = fit;
    const s = Math.max(floor, layout === "side" ? sSide : sStack);
    scaleBox(box, s, w, h, true);
    if (!own) own = s;
  }
  pinSides(r);
  for (const box of r.querySelectorAll(".moneynb-board, .moneynb-replay-chart")) {
    if (box.closest(".moneynb-view") !== r) continue;  // a view inside this one fits itself
    if (box.parentElement.classList.contains("moneynb-board-row") &&
        box.parentElement.querySelector(":scope > .moneynb-side")) continue;  // fitted above
    const inner = box.firstElementChild;
    const svg = inner && inner.querySelector("svg.main-svg");
    if (!svg) continue;
    const w = Number(svg.getAttribute("width")), h = Number(svg.getAttribute("height"));
    if (!w || !h || !box.clientWidth) continue;
    scaleBox(box, Math.min(1, box.clientWidth / w), w, h, false);
  }
  return own;
}

// The decision of a row marked data-fit="scroll" stays in sight while the player scrolls its
// board (issue 38, round 2): moved down (a transform) by as much as its top has gone above
// the part of the window that can be seen, never past the row's end. CSS position: sticky
// cannot do it here: Lab's output area (overflow-x: auto) is the sticky box, and it does not
// scroll vertically.
function pinSides(r) {
  for (const row of r.querySelectorAll(".moneynb-board-row")) {
    if (row.closest(".moneynb-view") !== r) continue;
    const side = row.querySelector(":scope > .moneynb-side");
    if (!side) continue;
    const prev = Number(side.dataset.moneynbPin || 0);
    let dy = 0;
    if (row.dataset.fit === "scroll") {
      const top = side.getBoundingClientRect().top - prev;  // where it is without the pin
      const room = row.getBoundingClientRect().bottom - top - side.offsetHeight;
      dy = Math.min(Math.max(0, sight(row).top - top), Math.max(0, room));
    }
    if (Math.abs(dy - prev) < 0.5) continue;
    side.style.transform = dy ? `translateY(${Math.round(dy)}px)` : "";
    side.dataset.moneynbPin = String(Math.round(dy));
  }
}

// the part of the window `el` can be seen in: the window cut by every scrolling box around
// it (Lab scrolls the notebook inside a panel: the window alone says nothing there)
function sight(el) {
  let top = 0, bottom = innerHeight;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p.scrollHeight > p.clientHeight && /auto|scroll/.test(getComputedStyle(p).overflowY)) {
      const q = p.getBoundingClientRect();
      top = Math.max(top, q.top);
      bottom = Math.min(bottom, q.bottom);
    }
  }
  return { top, bottom };
}
// whether all of `el` is in sight
function inSight(el) {
  const r = el.getBoundingClientRect(), s = sight(el);
  return r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
}

// What the user did last (JupyterLab, issue 38 F5), for bringOnShow: asked for a cell run
// (Shift/Ctrl/Alt+Enter, a "run" button of the toolbar or a menu), scrolled or moved on their
// own (a wheel, a touch, a scroll key or a cell cursor key outside an editor, a scroll bar
// dragged), typed in an editor, clicked anywhere (performance.now() ms; -1: not since the
// page loaded). Kept on the window: one record for every view of the page.
const USER = window.__moneynbUser || (window.__moneynbUser = (() => {
  const u = { ran: -1, scrolled: -1, typed: -1, acted: -1 };
  const editing = (t) => t && t.closest && (t.closest(".cm-editor") || t.isContentEditable ||
    /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  addEventListener("keydown", (e) => {
    const now = performance.now();
    u.acted = now;
    if (e.key === "Enter" && (e.shiftKey || e.ctrlKey || e.altKey || e.metaKey)) u.ran = now;
    else if (editing(e.target)) {
      if (!/^(Shift|Control|Alt|Meta|Escape)$/.test(e.key)) u.typed = now;
    } else if (/^(PageUp|PageDown|Home|End|ArrowUp|ArrowDown| |j|k)$/.test(e.key)) u.scrolled = now;
  }, true);
  const scrolled = () => { u.scrolled = u.acted = performance.now(); };
  addEventListener("wheel", scrolled, { capture: true, passive: true });
  addEventListener("touchmove", scrolled, { capture: true, passive: true });
  addEventListener("pointerdown", (e) => {
    const now = performance.now(), t = e.target;
    u.acted = now;
    if (t && t.closest && t.closest('[data-command^="notebook:run"], [data-command^="runmenu:run"]'))
      u.ran = now;
    // a press on a scroll bar: beside the box's content
    else if (t instanceof Element && (e.offsetX > t.clientWidth || e.offsetY > t.clientHeight) &&
             (t.scrollHeight > t.clientHeight || t.scrollWidth > t.clientWidth)) u.scrolled = now;
  }, true);
  return u;
})());

// whether a view showing for the first time (a new game's Start, a reload, its cell run) is
// scrolled to the top of the window, its "Last move" line and row with the buttons and the
// board under it (issue 38: after a new game's Start the board was below the window; in Lab
// after running the game's cell the view was above the window, after a reload 1-2 screens
// down): a game the start form shows (the app, or the form in a notebook), each time; in
// JupyterLab the first view of a cell's output, after that cell was run or the page
// reloaded, unless the user has scrolled on their own or typed in an editor since they last
// asked for a run (see USER); never while someone types in a cell, a box or a list outside
// the views (the focus stays, the page too)
function bringOnShow(r, a) {
  // a cell of a notebook being edited (JupyterLab, Notebook 7); not Voila's page of
  // outputs, where only the start form's game comes (the app's other views stay put)
  let cell = r.closest(".jp-Notebook .jp-Cell");
  if (cell && !cell.querySelector(":scope .jp-InputArea-editor")) cell = null;
  if (a && a !== document.body && !a.closest(".moneynb-view, .moneynb-launcher")) {
    if (a.closest(".cm-editor")) {
      // an editor: the game's own cell (run in place) or the empty cell Lab put under it
      // (Shift+Enter on the last cell) is fine until the user types in it; any other cell's
      // is someone typing (the keys may have come before this code was loaded: USER missed
      // them)
      const at = a.closest(".jp-Cell");
      const fresh = !!at && at.previousElementSibling === cell &&
        !(at.querySelector(".cm-content")?.textContent || "").trim();
      if (!cell || USER.typed >= Math.max(0, USER.ran) || (at !== cell && !fresh)) return false;
    } else if (a.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName)) return false;
  }
  if (r.closest(".moneynb-launch-game-box")) return true;
  if (!cell || r.parentElement?.closest(".moneynb-view")) return false;
  if (USER.scrolled > USER.ran) return false;
  // the cell's first view (a cell showing several views brings the first)
  const before = cell.__moneynbBrought;
  if (before && before !== r && before.isConnected) return false;
  cell.__moneynbBrought = r;
  return true;
}

// the anchor of a view brought into sight (see bringOnShow) stays at the top while the page
// settles: JupyterLab scrolls to the next cell once the run is over ("run and advance"),
// outputs above it are drawn after a reload, the board grows. Kept while the view's cell is
// running or its board is not drawn, and 2 s after the last change (of its place or its
// height), at most 60 s; dropped as soon as the user scrolls,
// clicks, types or a newer view is brought. Where the page cannot scroll further, it is left.
function keepInSight(r, anchor) {
  const t0 = performance.now();
  const mark = (window.__moneynbKept = {});
  let calm = t0, height = 0;
  const cell = r.closest(".jp-Cell");
  r.dataset.moneynbKept = "on";  // "done" once left to the user (the browser tests wait on it)
  const step = () => {
    const now = performance.now();
    const running = !!cell && /\*/.test(cell.querySelector(".jp-InputPrompt")?.textContent || "");
    // the view still growing (its board drawn late on a loaded machine: the browser's scroll
    // anchoring may then hold the next cell in place and push the view up)
    const h = r.getBoundingClientRect().height;
    if (Math.abs(h - height) > 1) { height = h; calm = now; }
    const drawn = !!r.querySelector(".moneynb-board svg.main-svg");
    if (window.__moneynbKept !== mark || !anchor.isConnected || USER.acted > t0 ||
        USER.scrolled > t0 || now - t0 > 60000 || (!running && drawn && now - calm > 2000)) {
      r.dataset.moneynbKept = "done";
      return;
    }
    const top = anchor.getBoundingClientRect().top, s = sight(anchor);
    if (Math.abs(top - s.top) > 2) {
      const before = top;
      anchor.scrollIntoView({ block: "start" });
      if (Math.abs(anchor.getBoundingClientRect().top - before) > 1) calm = now;
    }
    setTimeout(step, 100);
  };
  setTimeout(step, 100);
}
function bring(r, anchor) {
  anchor.scrollIntoView({ block: "start" });
  if (r.closest(".jp-Notebook")) keepInSight(r, anchor);
}

function render({ model, el }) {
  if (!document.getElementById(CSS_ID)) {
    const style = document.createElement("style");
    style.id = CSS_ID;
    style.textContent = CSS;
    document.head.appendChild(style);
  }
  const live = document.createElement("div");
  live.className = "moneynb-live moneynb-sr-only";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "false");
  el.appendChild(live);
  const root = () => el.closest(".moneynb-view") || el.closest(".moneynb-launcher") || document.body;
  const say = () => {
    const text = model.get("message");
    if (!text) return;
    const p = document.createElement("p");
    p.textContent = text;
    p.dataset.seq = String(model.get("seq"));
    live.appendChild(p);
    while (live.childNodes.length > 5) live.removeChild(live.firstChild);
  };
  say();
  let tries = 0, timer = null;
  const focus = (initial = false) => {
    const cls = model.get("focus");
    if (timer) clearTimeout(timer);
    tries = 0;
    if (!cls) return;
    const step = () => {
      const r = root();
      nameSliders(r);
      const panel = r.querySelector("." + cls);
      const target = panel && panel.querySelector(CONTROLS);
      if (target && target.isConnected) {
        const a = document.activeElement;
        // take the focus only from nowhere, from this view, from a view holding it (a
        // replay's "Continue from here") or from the start form: never from a notebook cell
        // or another output the user is working in
        const outer = r.parentElement && r.parentElement.closest(".moneynb-view");
        const free = !a || a === document.body || r.contains(a) ||
          !!(outer && outer.contains(a)) || !!a.closest(".moneynb-launcher");
        if (free && a !== target) {
          // no jump of the page under a mouse user's pointer: scroll only if the control
          // is out of sight, and then to show the controls WITH the board (issue 30, case
          // 1): the top of the board's row (the decision first when stacked) at the top
          target.focus({ preventScroll: true });
          // (issue 38: the row went to the top and left the "Last move" line above it out of
          // sight: now that line goes to the top, the row under it, fitted to the rest)
          const b = target.getBoundingClientRect();
          const row = target.closest(".moneynb-board-row");
          const anchor = row ? anchorOf(r, row) : target;
          if (initial && row && bringOnShow(r, a)) {
            bring(r, anchor);  // a new game, a reload, a cell run: see bringOnShow
          } else if (b.bottom > innerHeight || b.top < 0 || !inSight(target)) {
            anchor.scrollIntoView({ block: row ? "start" : "nearest" });
          } else if (!initial && row && (!inSight(row) || !inSight(anchor))) {
            // after a move (not when the view first shows): the controls are in sight but
            // the board runs out at the bottom, or the last move is above the window: the
            // last move up to the top, the board and controls under it
            anchor.scrollIntoView({ block: "start" });
          }
        }
        else if (initial && !free && bringOnShow(r, a)) {
          // a game the start form shows while the focus is elsewhere on the page (not
          // typing): the game's row in sight, the focus left where it is
          const row = target.closest(".moneynb-board-row");
          if (row) bring(r, anchorOf(r, row));
        }
        el.dataset.focused = model.get("focus_key");
        return;
      }
      // the new panel may come many seconds later on a loaded machine: look for it every
      // 100 ms for a minute, then every second for ten more; a newer request cancels this one
      ++tries;
      if (tries < 1200) timer = setTimeout(step, tries < 600 ? 100 : 1000);
    };
    step();
  };
  const zoomed = () => { el.dataset.zoomedFor = String(model.get("zoomed_for")); };
  zoomed();
  model.on("change:zoomed_for", zoomed);
  model.on("change:seq", say);
  model.on("change:focus_seq", () => focus(false));
  focus(true);
  // The view's first board is hidden (data-unsized: the CSS) until the kernel has drawn it
  // for the scale the page shows it at (issue 38: a new kernel's first board was drawn at
  // text zoom 1 for a round trip, its text 7.8 px on screen in Lab at 1024x700), or a board
  // that is not fitted (a replay's) is drawn; after 15 s it is shown whatever the kernel
  // says (a kernel gone or busy). Later redrawings (a resize) keep the board shown.
  el.dataset.unsized = "1";
  const sized = (s) => {
    if (!el.dataset.unsized) return;
    const r = root();
    const own = [...r.querySelectorAll(".moneynb-board svg.main-svg")]
      .filter((svg) => svg.closest(".moneynb-view") === r);
    const fitted = own.some((svg) => svg.closest(".moneynb-board-row > .moneynb-board")
      ?.parentElement.querySelector(":scope > .moneynb-side"));
    const ready = !r.classList.contains("moneynb-view") || (own.length && !fitted) ||
      (s && Math.abs(s - model.get("board_scale")) <= 0.02 &&
       Math.abs(model.get("zoomed_for") - model.get("board_scale")) < 1e-6);
    if (ready) {  // shown once plotly has drawn the kernel's last figure (two frames)
      requestAnimationFrame(() => requestAnimationFrame(() => { delete el.dataset.unsized; }));
    }
  };
  setTimeout(() => { delete el.dataset.unsized; }, 15000);
  let fitting = 0;
  const fit = () => {
    if (!fitting) fitting = requestAnimationFrame(() => {
      fitting = 0;
      const s = fitBoards(root());
      // the kernel draws the board's text larger by as much (issue 38); a little change is
      // not worth a new drawing
      if (s && Math.abs(s - model.get("board_scale")) > 0.02) {
        model.set("board_scale", s);
        model.save_changes();
      }
      el.dataset.scale = String(model.get("board_scale"));
      sized(s);
    });
  };
  model.on("change:zoomed_for", fit);
  const obs = new MutationObserver(() => { nameSliders(root()); describeUndo(root()); fit(); });
  const resized = new ResizeObserver(fit);
  // a window made taller or shorter changes what can be seen, not the view's width
  window.addEventListener("resize", fit);
  // a scroll of the notebook (or the window) moves a pinned decision along (see pinSides)
  let pinning = 0;
  const pin = () => {
    if (!pinning) pinning = requestAnimationFrame(() => { pinning = 0; pinSides(root()); });
  };
  document.addEventListener("scroll", pin, { capture: true, passive: true });
  // a click on a slider's track moves the knob there AND gives it the keyboard focus, so the
  // arrow keys go on from there (noUiSlider leaves the focus where it was: issue 30, case 7)
  const focusKnob = (e) => {
    const t = e.target.closest && e.target.closest(".noUi-target");
    if (!t || e.target.closest(".noUi-handle")) return;
    const h = t.querySelector(".noUi-handle");
    if (h) setTimeout(() => h.focus({ preventScroll: true }), 0);
  };
  let listening = null;
  setTimeout(() => {
    obs.observe(root(), { childList: true, subtree: true });
    describeUndo(root());  // a view drawn whole before this: no change to observe
    resized.observe(root());
    listening = root();
    listening.addEventListener("pointerup", focusKnob);
    fit();
  }, 0);
  let unwatch = () => {};
  const lost = (why) => {
    unwatch();
    // an element no longer in the page (a view replaced) has nothing to show
    if (el.isConnected) showLost(model, el, root, why);
  };
  const offline = (on) => { if (el.isConnected) showOffline(model, root, on); };
  unwatch = watchKernel(model, el, lost, offline);
  return () => {
    obs.disconnect();
    resized.disconnect();
    window.removeEventListener("resize", fit);
    document.removeEventListener("scroll", pin, { capture: true });
    listening?.removeEventListener("pointerup", focusKnob);
    unwatch();
  };
}
export default { render };
"""


class A11yHelper(anywidget.AnyWidget):
    """The view's live region and focus mover (see the module docstring); shows nothing.

    Attributes (synced): ``message`` (the last announcement), ``seq`` (one more per
    announcement, so the same text twice is read twice), ``focus`` (CSS class of the panel
    whose first control gets the focus), ``focus_seq`` (one more per request), ``lost_text``
    (the note shown once the kernel is gone; :func:`moneynb.ui.saves.lost_text` for views and
    forms), ``offline_text`` (the note shown while the server cannot be reached).
    """

    _esm = _ESM
    message = traitlets.Unicode("").tag(sync=True)
    seq = traitlets.Int(0).tag(sync=True)
    focus = traitlets.Unicode("").tag(sync=True)
    focus_seq = traitlets.Int(0).tag(sync=True)
    focus_key = traitlets.Unicode("").tag(sync=True)
    #: shown at the top of the view or form when its kernel is gone (restarted or stopped)
    lost_text = traitlets.Unicode(LOST_TEXT).tag(sync=True)
    #: shown at the top while the connection to the server is down (removed once it is back)
    offline_text = traitlets.Unicode(OFFLINE_TEXT).tag(sync=True)
    #: the page shuts its kernel down when it is left (closed, reloaded): True in the Voila
    #: app (:func:`moneynb.ui.app_mode`), where each page load has a kernel of its own
    leave_shuts_kernel = traitlets.Bool(False).tag(sync=True)
    #: the scale (0..1] the page draws the view's board at (its fit to the window, see
    #: ``fitBoards``), reported by the page; the view draws the board's text larger by as
    #: much (issue 38: text at 11 px or more on screen)
    board_scale = traitlets.Float(1.0).tag(sync=True)
    #: the scale the kernel last drew the board's text for (set by the view once drawn;
    #: the page marks it on its element as ``data-zoomed-for``, which tests wait on)
    zoomed_for = traitlets.Float(1.0).tag(sync=True)

    def __init__(self, **kwargs):
        kwargs.setdefault("_dom_classes", ("moneynb-a11y",))
        if "leave_shuts_kernel" not in kwargs:
            from . import app_mode

            kwargs["leave_shuts_kernel"] = app_mode()
        super().__init__(**kwargs)

    def announce(self, text: str) -> None:
        """Have screen readers read ``text`` (politely: after what they are reading)."""
        with self.hold_sync():
            self.message = text
            self.seq += 1

    def focus_panel(self, widget, key: str = "") -> None:
        """Move the focus to the first enabled control inside ``widget`` once it is in the
        page (it gets a unique CSS class ``moneynb-focus-<n>`` for this, kept on reuse).
        ``key`` names the request: once served, the page shows it as the helper element's
        ``data-focused`` (the view passes the number of actions played, so a test can wait
        for the focus of THIS decision)."""
        cls = next((c for c in widget._dom_classes if c.startswith("moneynb-focus-")), None)
        if cls is None:
            cls = f"moneynb-focus-{next(_TOKENS)}-{id(self) % 100000}"
            widget.add_class(cls)
        with self.hold_sync():
            self.focus = cls
            self.focus_key = key
            self.focus_seq += 1

    def __repr__(self) -> str:
        return f"A11yHelper(seq={self.seq})"


def seat_html(seat: int, name: str, color: str, bold: bool = True) -> str:
    """``name`` as HTML readable in light and dark themes: a dot in the seat's ``color``
    (hidden from screen readers) and the name in the theme's text colour."""
    n = html.escape(name)
    text = f"<b>{n}</b>" if bold else n
    return (
        f"<span class='moneynb-seat' data-seat='{seat}'><span aria-hidden='true' "
        f"style='color:{color}'>●</span>&nbsp;{text}</span>"
    )


def token_html(seat: int, players: list[str]) -> str:
    """The letters on ``seat``'s token as the boards draw them (a small disc in the seat's
    colour; :func:`~moneynb.figures.base.token_letters`), with a tooltip that says so: a
    player table beside the board is the key to the tokens (issue 38: "G1", "Y", "S1" on the
    pawns read as nothing). Hidden from screen readers (the name is read)."""
    from ..figures.base import player_color, player_ink, token_letters

    letters = token_letters(players)[seat]
    whose = "Your" if players[seat] == "You" else f"{players[seat]}'s"
    return (
        f"&nbsp;<span class='moneynb-token' aria-hidden='true' "
        f"title='{html.escape(whose, quote=True)} token on the board' "
        f"style='background:{player_color(seat)};color:{player_ink(seat)};border-radius:8px;"
        f"padding:0 4px;font-size:11px;font-weight:bold'>{html.escape(letters)}</span>"
    )
