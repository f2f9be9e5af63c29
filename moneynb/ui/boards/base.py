"""The board renderer every game's board extends.

A renderer owns ONE ``plotly.graph_objects.FigureWidget`` (:attr:`BoardRenderer.figure`) built
with ``data=`` and ``layout=`` in its constructor (a figure built step by step shows empty in
views opened later: BROWSER-TESTING.md), and changes it only inside ``figure.batch_update()``.
A board with many fixed markers may draw them once in a :attr:`backdrop` figure under it
(:meth:`BoardRenderer.build_backdrop`); the view shows :meth:`BoardRenderer.widget`.

The :class:`~moneynb.ui.view.GameView` calls, in this order:

* ``Board(game)`` once (and again after an undo rebuilt the game object's state),
* ``update(game, events)`` after every person's action, and after each run of bot actions
  (with ``bot_delay`` 0 the bots' actions that follow one click are drawn in ONE update whose
  ``events`` are all of theirs, in order; with ``bot_delay`` > 0, after each bot action).
  When the view is built, and after an undo (which first calls ``rewind(game)``), ``events``
  is the whole ``game.log``, so draw from the game's state and use events only for cues (the
  dice just rolled, the last card, arrows),
* ``highlight(game.decision)`` after every update, to mark legal board targets,
* ``panels()`` once, for extra widgets (score sheet, dice, a hand of cards...),
* ``custom_panel(decision, submit)`` for each new decision; ``None`` means "use the generic
  panel for ``decision.kind``" (:mod:`moneynb.ui.panels`).

Board picks: the view sets :attr:`pick` to a callable taking an action. A renderer makes a
trace clickable with :meth:`clickable`; a click on a point whose ``customdata`` (a space id or
a seat index) is legal for the pending decision calls ``pick(action)``. The engine still
validates it, so a stray click cannot break the game.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
import traitlets
from plotly.basedatatypes import Undefined

from ...figures.base import (  # noqa: F401 - the boards' shared names, kept importable here
    _EM,
    _THEME,
    BOARD_FONT,
    BOARD_WIDTH,
    GLYPH_EM,
    LABEL_GAP,
    LINE_EM,
    MIN_TEXT_PX,
    PALETTES,
    PLAYER_COLORS,
    PLAYER_TEXT_COLORS,
    SIDES,
    TEXT_ON,
    TEXT_ZOOMS,
    THEMES,
    BoardDrawing,
    _backdrop_layout,
    _colors_of,
    _luminance,
    _mix,
    _overlay_layout,
    _plain_text,
    _recolor,
    contrast,
    current_theme,
    fit_in_circle,
    fit_text,
    ink_on,
    label_trace,
    money,
    palette,
    place_labels,
    player_color,
    player_ink,
    player_text_color,
    plot_text,
    px_per_unit,
    readable,
    readable_layout,
    text_box,
    text_px,
    token_letters,
    zoom_for,
)

#: seconds after a change of the game in which a click on the board from the page is taken as
#: the second click of a double-click and ignored (a browser's double-click interval is ~0.5 s)
REPEAT_CLICK_S = 0.4

#: The ``_esm`` of every :class:`BoardFigure`: a small loader in front of plotly's own widget
#: module (``plotly/package_data/widgetbundle.js``, about 5 MB).
#:
#: Why: anywidget's page side (0.11) holds back every state update of a widget until the
#: widget's ESM is imported and ``initialize`` has returned, and gives up after TWO SECONDS:
#: past that, every later update message to that widget is dropped, silently, for the life of
#: the page. Importing plotly's 5 MB module takes longer than that on a busy machine, so the
#: figure then either stays empty (a plain ``FigureWidget``, whose data arrive in an update) or
#: stays exactly as first drawn (data in the opening message, changes in updates). This
#: loader is imported in milliseconds and returns from ``initialize`` at once; it loads
#: plotly's module in the background (once per page, shared by every figure) and draws when it
#: is there. The change messages that arrive meanwhile are kept in order and replayed through
#: plotly's own handlers once its code runs (they bring the model's ``_widget_data`` /
#: ``_widget_layout`` up to date before the first drawing).
_LOADER_ESM = """
// one entry per plotly build: {p: promise of its module, resolve, started, triedUrl, asked}
const CACHE = (globalThis.__moneynbPlotlyWidget ??= new Map());
// where the page's server serves files of the labextensions tree, where pip installed
// plotly's code (moneynb/ui/static.py): the page config's fullLabextensionsUrl (Lab:
// <base>lab/extensions, Voila: <base>voila/labextensions), or null outside Jupyter's pages
function staticBase() {
  try {
    const el = document.getElementById("jupyter-config-data");
    const url = el && JSON.parse(el.textContent || "{}").fullLabextensionsUrl;
    if (url) return new URL(url.replace(/\\/?$/, "/"), document.baseURI);
  } catch (e) { /* no page config */ }
  return null;
}
function fromSource(entry, src) {
  entry.started = true;
  const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
  import(url)
    .then(entry.resolve, (e) => {
      entry.started = false;
      console.error("[moneynb] plotly widget code failed to load", e);
    })
    .finally(() => URL.revokeObjectURL(url));
}
function plotlyModule(model) {
  const key = model.get("_moneynb_bundle_key");
  let entry = CACHE.get(key);
  if (!entry) {
    let resolve;
    entry = { p: new Promise((r) => (resolve = r)), resolve, started: false };
    CACHE.set(key, entry);
  }
  if (entry.started) return entry.p;
  const src = model.get("_moneynb_bundle");
  const path = model.get("_moneynb_bundle_url");
  const base = path && !entry.triedUrl ? staticBase() : null;
  if (src) {
    fromSource(entry, src);  // the code came through the kernel (the fallback below)
  } else if (base) {
    // the installed file: fetched once, cached by the browser (issue 41); "?v=" lets
    // JupyterLab's server mark it cacheable for good (Voila's: revalidated, a 304)
    entry.started = entry.triedUrl = true;
    const url = new URL(path, base);
    url.searchParams.set("v", key);
    import(url.href).then(entry.resolve, (e) => {
      entry.started = false;
      console.warn("[moneynb] plotly widget code not served, asking the kernel", e);
      askCode(model, entry);
    });
  } else {
    askCode(model, entry);
  }
  return entry.p;
}
// no static file: the kernel sends the code in _moneynb_bundle (a figure of a board's
// backdrop, without the code, waits for the one that carries it when inline)
function askCode(model, entry) {
  if (entry.asked || model.get("_moneynb_inline")) return;
  entry.asked = true;
  model.send({ moneynb: "code" });
}
// plotly's page-side messages: each changes the model's _widget_data/_widget_layout (when
// plotly's code is running) and the plot (a drawn view)
const MESSAGES = ["_py2js_addTraces", "_py2js_deleteTraces", "_py2js_moveTraces",
  "_py2js_restyle", "_py2js_relayout", "_py2js_update", "_py2js_animate",
  "_py2js_removeLayoutProps", "_py2js_removeTraceProps"];
// The page's theme (issue 30, case 6): JupyterLab and Voila mark <body> with
// data-jp-theme-light; else the luminance of --jp-layout-color0 decides. The figure reports
// it in _moneynb_theme, and again whenever the page switches theme (Lab's theme menu): the
// kernel then redraws the board in that theme's palette.
function pageTheme() {
  const b = document.body;
  const flag = b?.dataset?.jpThemeLight;
  if (flag === "false") return "dark";
  if (flag === "true" || !b) return "light";
  const c = getComputedStyle(b).getPropertyValue("--jp-layout-color0").trim();
  const m = c.match(/^#([0-9a-f]{6})$/i);
  if (!m) return "light";
  const n = parseInt(m[1], 16);
  return 0.2126 * (n >> 16) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255) < 128
    ? "dark" : "light";
}
function followTheme(model) {
  const report = () => {
    const t = pageTheme();
    if (model.get("_moneynb_theme") !== t) {
      model.set("_moneynb_theme", t);
      model.save_changes();
    }
  };
  report();
  if (document.body) {
    new MutationObserver(report).observe(document.body, {
      attributes: true, attributeFilter: ["data-jp-theme-light", "data-jp-theme-name"],
    });
  }
}
// The drawn points' checksum, the same as trace_digest in the kernel (base.py): x and y of
// every trace, numbers to 1/100, a string by its length, anything else as "none".
const MOD = 1000000007;
function digestCell(v) {
  let n = -1;
  if (typeof v === "string") n = v.length + 17;
  else if (typeof v === "number" || typeof v === "boolean") {
    const f = Number(v);
    n = Number.isFinite(f) ? Math.floor(f * 100 + 0.5) : -1;
  }
  return ((n % MOD) + MOD) % MOD;
}
function digestOf(traces) {
  let h = 7;
  for (const t of traces ?? []) {
    for (const key of ["x", "y"]) {
      const a = t && t[key] != null && typeof t[key] !== "string" ? Array.from(t[key]) : [];
      h = (h * 31 + a.length + 1) % MOD;
      for (const v of a) h = (h * 31 + digestCell(v)) % MOD;
    }
  }
  return h;
}
// the plot a view drew (plotly's graph div), or null before it is drawn
const plotOf = (el) =>
  el?.classList?.contains("js-plotly-plot") ? el : el?.querySelector?.(".js-plotly-plot");
export default () => {
  let model0 = null, widget = null, live = false;
  // Sequence check (issue 30, case 8): the kernel counts the plotly messages it sends in
  // _moneynb_seq (a separate message right after each). The page counts those it received
  // since its last full state (seq0 + received). A seq ahead of that count means a message
  // was lost on the way (or a handler failed): the page asks the kernel for the full state
  // and draws every view again from it.
  let seq0 = 0, received = 0, resyncing = false;
  const views = [];  // {el, cleanup, dead} of each drawn view
  let rendering = null;  // the view record whose handlers are being registered
  const resync = (why) => {
    if (resyncing || !model0) return;
    resyncing = true;
    console.warn("[moneynb] board update missed (" + why + "): asking for the full state");
    (globalThis.__moneynbResyncWhy ??= []).push(why);
    model0.send({ moneynb: "resync" });
  };
  // Frozen-board watch (issue 41, case 2): after the changes stop for a moment, every drawn
  // view's points must have the kernel's digest (_moneynb_digest, sent with each count). A
  // view that still differs 2 s later (its updates were received but never drawn) is drawn
  // again from the kernel's full state; at most twice in a row for the same mismatch.
  let checkTimer = null, redraws = 0;
  const check = (late) => {
    // (a test turning the watch off: globalThis.__moneynbTestNoWatch)
    if (!live || resyncing || !model0 || globalThis.__moneynbTestNoWatch) return;
    const want = model0.get("_moneynb_digest");
    if (typeof want !== "number") return;
    const drawn = views.filter((v) => !v.dead).map((v) => plotOf(v.el))
      .filter((gd) => gd && Array.isArray(gd.data));
    if (drawn.every((gd) => digestOf(gd.data) === want)) {
      redraws = 0;
      return;
    }
    if (!late) return schedule(true, 2000);  // a slow plot gets its time
    if (redraws >= 2) return;
    redraws += 1;
    resync("the drawn board differs from the kernel's");
  };
  const schedule = (late = false, ms = 400) => {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(() => check(late), ms);
  };
  // messages that arrive before plotly's code runs, replayed in order through its handlers
  const early = [];
  const ready = () => (widget ??= plotlyModule(model0).then(async (mod) => {
    // after each change plotly's view diffs its whole computed figure against the data and
    // sends the difference to the kernel (about 8 kB, echoed back), where nothing reads it:
    // 15-20% of a board update's time in the page (benchmarks/bench_browser.py)
    const view = mod.FigureView?.prototype;
    if (view) view._sendTraceDeltas = view._sendLayoutDelta = () => {};
    const w = typeof mod.default === "function" ? await mod.default() : mod.default;
    // plotly's handlers act on live messages only; the early ones are replayed below, with
    // model.get answering each one's value
    const handlers = new Map(), replaying = {};
    const model = new Proxy(model0, {
      get(target, prop) {
        if (prop === "on") {
          return (event, fn, ctx) => {
            const name = event.startsWith("change:") ? event.slice(7) : null;
            if (name && MESSAGES.includes(name)) {
              if (!handlers.has(name)) handlers.set(name, []);
              handlers.get(name).push(fn);
              const owner = rendering;
              return target.on(event, (...a) => {
                if (!live || owner?.dead) return;
                // (a test forcing a frozen board: updates received and counted, not drawn)
                if (globalThis.__moneynbTestDropUpdates > 0) {
                  globalThis.__moneynbTestDropUpdates -= 1;
                  return;
                }
                try {
                  fn.apply(ctx, a);
                } catch (e) {
                  console.error("[moneynb] board update failed", e);
                  resync("an update failed");
                }
              }, ctx);
            }
            return target.on(event, fn, ctx);
          };
        }
        if (prop === "get") {
          return (key) => (key in replaying ? replaying[key] : target.get(key));
        }
        const v = target[prop];
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    await w.initialize?.({ model });
    const hadEarly = early.length > 0;
    for (const [name, value] of early.splice(0)) {
      replaying[name] = value;
      try {
        for (const fn of handlers.get(name) ?? []) fn();
      } finally {
        delete replaying[name];
      }
    }
    live = true;
    // changes that came before plotly's code ran bring the model up to date, but a view
    // drawn from them could miss most of the board (Easy Money: 9 of 57 points drawn after 23
    // early changes, until the watch's redraw 2.4 s later): draw from the full state at once
    if (hadEarly) resync("changes arrived before plotly's code ran");
    return w;
  }));
  // draw one view in el (plotly's render), remembering it and the handlers it registers
  const drawView = (w, model, el) => {
    const v = { el, cleanup: null, dead: false };
    rendering = v;
    try {
      v.cleanup = w.render({ model, el });
    } finally {
      rendering = null;
    }
    views.push(v);
    return v;
  };
  return {
    initialize({ model }) {
      model0 = model;
      model.on("change:_moneynb_bundle", () => { if (model.get("_moneynb_bundle")) plotlyModule(model); });
      seq0 = model.get("_moneynb_seq") ?? 0;
      for (const name of MESSAGES) {
        model.on("change:" + name, () => {
          const value = model.get(name);
          if (value === null || value === undefined) return;
          received += 1;
          if (!live) early.push([name, value]);
        });
      }
      model.on("change:_moneynb_seq", () => {
        if (!resyncing && model.get("_moneynb_seq") > seq0 + received) resync("sequence gap");
        else schedule();
      });
      // the full state the kernel sent on request: draw every view again from it
      model.on("change:_moneynb_sync", async () => {
        seq0 = model.get("_moneynb_seq") ?? 0;
        received = 0;
        early.length = 0;
        resyncing = false;
        const w = await ready();
        for (const v of views.splice(0)) {
          v.dead = true;
          try { v.cleanup?.(); } catch (e) { /* a view already gone */ }
          v.el.replaceChildren();
          drawView(w, model, v.el);
        }
        globalThis.__moneynbResyncs = (globalThis.__moneynbResyncs ?? 0) + 1;
        schedule();
      });
      ready().catch((e) => console.error("[moneynb] plotly widget failed to load", e));
      followTheme(model);
    },
    async render({ model, el }) {
      const w = await ready();
      const v = drawView(w, model, el);
      schedule(false, 1000);
      return () => {
        v.dead = true;
        views.splice(views.indexOf(v) >>> 0, 1);
        return v.cleanup?.();
      };
    },
  };
};
"""


#: the modulus of :func:`trace_digest` (and of ``digestOf`` in :data:`_LOADER_ESM`)
DIGEST_MOD = 1_000_000_007


def _digest_cell(value: Any) -> int:
    if isinstance(value, str):  # its length in UTF-16 units, as JavaScript counts it
        n = len(value.encode("utf-16-le")) // 2 + 17
    else:
        try:
            f = float(value)
        except (TypeError, ValueError):
            f = math.nan
        n = math.floor(f * 100 + 0.5) if math.isfinite(f) else -1
    return n % DIGEST_MOD


def trace_digest(traces) -> int:
    """A checksum of the points a figure draws: every trace's ``x`` and ``y`` (their lengths,
    numbers to 1/100, a string by its length, anything else as "none"), an int in
    ``[0, DIGEST_MOD)``. The page computes the same from its drawn plot (``digestOf`` in
    :data:`_LOADER_ESM`) after each change: a drawn board that differs from the kernel's
    (a frozen board, issue 41 case 2) is drawn again from the kernel's full state.

    ``traces``: plotly trace dicts (a figure's ``_data``) or trace objects."""
    h = 7
    for t in traces:
        for key in ("x", "y"):
            a = t.get(key) if isinstance(t, dict) else getattr(t, key, None)
            a = [] if a is None else list(a)
            h = (h * 31 + len(a) + 1) % DIGEST_MOD
            for v in a:
                h = (h * 31 + _digest_cell(v)) % DIGEST_MOD
    return h


_TEMPLATES: dict[str, dict] = {}


def light_template(traces) -> dict | None:
    """Plotly's default template (``plotly.io.templates.default``, one of plotly's own
    named templates) as a plain dict holding its layout part and the trace defaults of the
    trace types in ``traces`` only; None for a merged ("a+b"), "none" or non-plotly default.

    Why: a figure without a template gets the whole default template, whose trace defaults
    for all 24 trace types make plotly import and validate every trace type's classes: 1-4 s
    of each new kernel's first figure on a busy 2-core machine (a Voila page's kernel is new
    on every load and reload: issue 41). The figure looks the same: its traces get the same
    defaults (a trace of another type added later gets none)."""
    import json
    import pkgutil

    import plotly.io as pio

    name = pio.templates.default
    if not isinstance(name, str) or "+" in name or name == "none":
        return None
    if name not in _TEMPLATES:
        try:
            raw = pkgutil.get_data("plotly", f"package_data/templates/{name}.json")
        except OSError:
            raw = None
        _TEMPLATES[name] = json.loads(raw.decode("utf-8")) if raw else {}
    whole = _TEMPLATES[name]
    if not whole:
        return None
    types = set()
    for t in traces or []:
        kind = t.get("type") if isinstance(t, dict) else getattr(t, "type", None)
        types.add(kind or "scatter")
    data = {k: copy.deepcopy(v) for k, v in whole.get("data", {}).items() if k in types}
    return {"layout": copy.deepcopy(whole.get("layout", {})), "data": data}


def _plotly_bundle() -> tuple[str, str]:
    """``(source, key)`` of plotly's widget ESM (see :func:`moneynb.ui.static.plotly_code`)."""
    from ..static import plotly_code

    return plotly_code()


class BoardFigure(go.FigureWidget):
    """The board's ``FigureWidget``: it reaches the page with its whole state and keeps
    updating there even when the page is slow.

    * Its connection to the page opens only once its state is set (:meth:`release`, called by
      the view, or the first use of :attr:`model_id` / display): a plain ``FigureWidget``
      announces itself with EMPTY data and layout and sends the real ones in a second message.
    * Its page-side code is a small loader (:data:`_LOADER_ESM`) in front of plotly's 5 MB
      module, so anywidget's two-second limit for a widget's code to start cannot be missed
      (missing it makes the page drop every later update: the board freezes, see
      ``docs/ui.md``); plotly's module is then imported once per page, not once per figure,
      from a file installed with moneynb that the server serves and the browser caches
      (:mod:`moneynb.ui.static`, issue 41), or, where that file is not served, sent by the
      kernel once the page asks for it.
    * Its synced ``_widget_data`` / ``_widget_layout`` always ARE the figure's current data and
      layout (the same objects, re-pointed after every change, without a message): a view
      drawn later (a page reload, a second view) asks the kernel for the state and starts
      from the current one; a change reaches an open page as plotly's small update message
      only (re-sending the full state after every change cost the kernel a deep copy and the
      page 10-30 kB per click: ``benchmarks/bench_browser.py``). The first view after a slow
      load gets the changes it missed from the loader (:data:`_LOADER_ESM`). It never drops
      a property the page reports back as equal to plotly.js's computed default (see
      :meth:`_remove_overlapping_props`).
    """

    _esm = _LOADER_ESM
    #: plotly's code when it goes through the kernel (inline mode, or the page asked)
    _moneynb_bundle = traitlets.Unicode("").tag(sync=True)
    _moneynb_bundle_key = traitlets.Unicode("").tag(sync=True)
    #: plotly's code under the server's labextensions URL (:func:`moneynb.ui.static.bundle_path`;
    #: installed with moneynb, never written by the kernel)
    _moneynb_bundle_url = traitlets.Unicode("").tag(sync=True)
    #: the code goes through the kernel only (``MONEYNB_INLINE_WIDGET_CODE=1``)
    _moneynb_inline = traitlets.Bool(False).tag(sync=True)
    #: how many plotly change messages the kernel has sent (each is followed by this count, in
    #: its own message); a page that received fewer asks for the full state (issue 30, case 8)
    _moneynb_seq = traitlets.Int(0).tag(sync=True)
    #: how many times the full state was sent on a page's request (its change tells the page
    #: to draw its views again)
    _moneynb_sync = traitlets.Int(0).tag(sync=True)
    #: :func:`trace_digest` of the figure's data, sent with each ``_moneynb_seq`` (same
    #: message): the page compares its drawn points with it (a frozen board, issue 41)
    _moneynb_digest = traitlets.Int(0).tag(sync=True)
    #: the theme of the page ("light" or "dark"), reported by the page (see
    #: :data:`_LOADER_ESM`); a change calls the functions given to :meth:`on_theme`
    _moneynb_theme = traitlets.Unicode("light").tag(sync=True)

    def __init__(self, data=None, layout=None, config=None, carry_code: bool = True):
        """``carry_code=False``: with ``MONEYNB_INLINE_WIDGET_CODE=1``, the figure does not
        carry plotly's 5 MB module and draws once another figure in the page (with
        ``carry_code=True``) has loaded it (a backdrop). Otherwise no figure carries it: the
        page imports it from the installed file (:mod:`moneynb.ui.static`)."""
        from ..static import bundle_path, inline_only

        self._moneynb_deferred = True
        if isinstance(layout, dict) and "template" not in layout:
            template = light_template(data)
            if template is not None:
                layout = {**layout, "template": template}
        super().__init__(data=data, layout=layout)
        src, key = _plotly_bundle()
        self._moneynb_bundle_key = key
        if inline_only():
            self._moneynb_inline = True
            self._moneynb_bundle = src if carry_code else ""
        else:
            self._moneynb_bundle_url = bundle_path()
        # never typeset "$...$" as maths: JupyterLab's MathJax made a label with two dollar
        # amounts vanish (issue 30, case 2); Voila has no MathJax, so both now agree
        self._config = {**(config or {}), "typesetMath": False}
        self.on_msg(self._moneynb_on_msg)
        self._moneynb_theme = current_theme()
        self._moneynb_theme_callbacks: list[Callable[[str], None]] = []
        self.observe(self._moneynb_theme_reported, "_moneynb_theme")

    def on_theme(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(theme)`` ("light" or "dark") when the page reports a new theme."""
        self._moneynb_theme_callbacks.append(callback)

    def _moneynb_theme_reported(self, change) -> None:
        theme = change["new"]
        if theme not in PALETTES:
            return
        _THEME["now"] = theme
        for callback in self._moneynb_theme_callbacks:
            callback(theme)

    def _moneynb_on_msg(self, _widget, content, _buffers) -> None:
        """A page that missed a change message asks ``{"moneynb": "resync"}``: send it the
        figure's whole current state (data, layout, counts) in one message. A page that
        could not import plotly's code from the installed file asks ``{"moneynb": "code"}``:
        send it the code (once per figure)."""
        if not isinstance(content, dict):
            return
        if content.get("moneynb") == "code":
            if not self._moneynb_bundle:
                self._moneynb_bundle = _plotly_bundle()[0]
            return
        if content.get("moneynb") != "resync":
            return
        self._sync_full_state()
        self._trait_values["_moneynb_sync"] = self._moneynb_sync + 1
        self._trait_values["_moneynb_digest"] = trace_digest(self._data)
        self.send_state(
            ["_widget_data", "_widget_layout", "_moneynb_seq", "_moneynb_sync", "_moneynb_digest"]
        )

    def _moneynb_sent(self) -> None:
        """After each change message: the synced state is the current one, and the count of
        messages goes out (its own message, after the change) with the digest of the points
        the page must now draw (:func:`trace_digest`)."""
        self._sync_full_state()
        with self.hold_sync():
            self._moneynb_digest = trace_digest(self._data)
            self._moneynb_seq += 1

    def open(self):
        if getattr(self, "_moneynb_deferred", False):
            return
        super().open()

    def release(self) -> None:
        """Open the connection now, sending the figure's current data and layout in it."""
        if not getattr(self, "_moneynb_deferred", False):
            return
        self._sync_full_state()
        self._moneynb_digest = trace_digest(self._data)
        self._moneynb_deferred = False
        self.open()

    def _sync_full_state(self) -> None:
        """Point the synced ``_widget_layout`` / ``_widget_data`` at the figure's own layout and
        data: before the connection opens, by assignment (they go out in its opening
        message); after, silently (the page already has the change; a view opened later
        asks for the state and reads them then)."""
        layout, data = self._layout_obj._props, self._data
        if getattr(self, "_moneynb_deferred", False) or self.comm is None:
            self._widget_layout, self._widget_data = layout, data
        else:
            self._trait_values["_widget_layout"] = layout
            self._trait_values["_widget_data"] = data

    def _build_update_params_from_batch(self):
        """Plotly's batch, with no trace and no layout setting an attribute and one inside
        it in one message (:func:`merge_nested_edits`): plotly.js refuses such a message whole
        ("cannot set marker.line and a parent attribute simultaneously"), so the page asked
        for the full state after every such move (Money Run: ``update`` set the pawns'
        ``marker``, ``mark_turn`` their ``marker.line``)."""
        # the figure's own state is still the one before the batch (plotly applies it next)
        merge_nested_edits([(e, self._data[i]) for i, e in self._batch_trace_edits.items()])
        merge_nested_edits([(self._batch_layout_edits, self._layout)])
        return super()._build_update_params_from_batch()

    # every restyle/relayout/update message leaves through these three: none holds an
    # attribute and one inside it (fold_nested_keys); after each, the synced state is current
    def _send_restyle_msg(self, restyle_data, trace_indexes=None, source_view_id=None):
        restyle_data = self._fold_trace_keys(restyle_data, trace_indexes)
        super()._send_restyle_msg(restyle_data, trace_indexes, source_view_id)
        self._moneynb_sent()

    def _send_relayout_msg(self, layout_data, source_view_id=None):
        layout_data = fold_nested_keys(layout_data, lambda parts: _get_in(self._layout, parts))
        super()._send_relayout_msg(layout_data, source_view_id)
        self._moneynb_sent()

    def _send_update_msg(
        self, restyle_data, relayout_data, trace_indexes=None, source_view_id=None
    ):
        restyle_data = self._fold_trace_keys(restyle_data, trace_indexes)
        relayout_data = fold_nested_keys(relayout_data, lambda parts: _get_in(self._layout, parts))
        super()._send_update_msg(restyle_data, relayout_data, trace_indexes, source_view_id)
        self._moneynb_sent()

    def _fold_trace_keys(self, restyle_data: dict, trace_indexes) -> dict:
        """``restyle_data`` with no attribute and one inside it (:func:`fold_nested_keys`),
        and no trace's value left ``Undefined`` (:func:`fill_undefined`): the outer
        attribute's value, and a value a trace was not given, is one per trace of
        ``trace_indexes`` (all traces when None), each that trace's value now."""
        indexes = self._normalize_trace_indexes(trace_indexes)

        def current(parts):
            return [_get_in(self._data[i], parts) for i in indexes]

        return fill_undefined(fold_nested_keys(restyle_data, current), current)

    def _send_addTraces_msg(self, *args, **kwargs):
        super()._send_addTraces_msg(*args, **kwargs)
        self._moneynb_sent()

    def _send_deleteTraces_msg(self, *args, **kwargs):
        super()._send_deleteTraces_msg(*args, **kwargs)
        self._moneynb_sent()

    def _send_moveTraces_msg(self, *args, **kwargs):
        super()._send_moveTraces_msg(*args, **kwargs)
        self._moneynb_sent()

    @staticmethod
    def _remove_overlapping_props(input_data, delta_data, prop_path=()):
        """Keep every property the kernel set (plotly's own removes the ones the page's
        plotly.js computed to the same value, e.g. a trace's ``x``/``y`` after a restyle of its
        text, and the layout's ``height``): a view opened later (a page reload, Voila after a
        reload, a second view) draws only from :attr:`_widget_data` / ``_widget_layout``, and
        came back without the board's seats, spaces and labels. Issue 18, case 1; tested by
        ``tests/browser/test_reload_browser.py`` and ``tests/test_ui.py``."""
        return []

    @property
    def model_id(self):
        self.release()
        return self.comm.comm_id

    def _repr_mimebundle_(self, *args, **kwargs):
        self.release()
        return super()._repr_mimebundle_(*args, **kwargs)

    def __repr__(self) -> str:
        return f"BoardFigure({len(self.data)} traces)"


def _path_parts(key: str) -> list:
    """``"marker.line.color"`` -> ``["marker", "line", "color"]``; ``"x[2]"`` -> ``["x", 2]``."""
    out: list = []
    for part in key.split("."):
        name, *idx = part.replace("]", "").split("[")
        out.append(name)
        out.extend(int(i) for i in idx)
    return out


def _parent_keys(key: str) -> list[str]:
    """Every attribute path ``key`` lies inside: ``"marker.line.color"`` -> ``["marker",
    "marker.line"]`` (cut before each ``.`` or ``[``, as plotly.js's ``hasParent``)."""
    return [key[:i] for i, c in enumerate(key) if c in ".[" and i > 0]


def _get_in(value: Any, parts: list) -> Any:
    """``value[parts[0]][parts[1]]...``, or None when a part is missing."""
    for part in parts:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _set_in(value: Any, parts: list, new: Any) -> Any:
    """``value`` (a dict or list, or None: a new dict) with ``new`` put at ``parts`` inside
    it (dicts and lists made on the way); returns it."""
    if not parts:
        return new
    head, rest = parts[0], parts[1:]
    if isinstance(head, int):
        value = list(value) if isinstance(value, (list, tuple)) else []
        value.extend([None] * (head + 1 - len(value)))
    elif not isinstance(value, dict):
        value = {}
    value[head] = _set_in(value[head] if isinstance(head, int) else value.get(head), rest, new)
    return value


def fold_nested_keys(data: dict | None, current: Callable[[list], Any]) -> dict | None:
    """One outgoing plotly message's ``{attribute path: value}`` (``restyle_data`` or
    ``relayout_data``) with no path and a path inside it (plotly.js's ``hasParent`` rule:
    ``"annotations[3]"`` and ``"annotations[3].text"``, ``"marker"`` and
    ``"marker.line.width"``), which plotly.js refuses whole, so the board went stale. Each
    inner path is dropped and its outermost parent in the message is sent as ``current(parts
    of that parent's path)``: the figure's value after the change (plotly.py applies a change
    to the kernel's figure before it sends it), so the page ends with what the kernel holds.
    ``data`` itself is not changed; returned as is when nothing clashes (or when None).
    Every restyle, relayout and update message of a :class:`BoardFigure` passes here, however
    the change was made (a batch, ``plotly_update``, ``update_layout``). Source: plotly.js's
    rule (issue 30, case 3; issue 39, board message clash); reconstruction for the fold."""
    if not data:
        return data
    keys = set(data)
    inner = {k for k in keys if any(p in keys for p in _parent_keys(k))}
    if not inner:
        return data
    out = {k: v for k, v in data.items() if k not in inner}
    for k in keys - inner:
        if any(k2.startswith(k) and k in _parent_keys(k2) for k2 in inner):
            out[k] = copy.deepcopy(current(_path_parts(k)))
    return out


def fill_undefined(data: dict | None, current: Callable[[list], list]) -> dict | None:
    """One outgoing restyle message's ``{attribute path: one value per trace}`` with every
    ``Undefined`` (plotly's "this trace keeps its value": a batch that changed an attribute
    of some of its traces) replaced by that trace's value now, ``current(parts of the
    path)[i]`` (the figure's value after the change; None, which unsets it, when the trace
    has none). Why: plotly's page-side model applies a message to its own copy of the data
    (``_widget_data``) as it came over the wire, where ``Undefined`` is the string
    ``"_undefined_"``; a view drawn later from that copy (a second view, a view drawn after
    changes that came before plotly's code ran) then read ``undefined`` for the trace's
    ``x``, ``y`` or ``marker``, and a ``marker: undefined`` made plotly.js's ``cleanData``
    throw in ``newPlot``: the board never drew (issue 38, Money Run's table ring). ``data``
    itself is not changed; returned as is when it holds no ``Undefined`` (or is None).
    Source: plotly's ``performRestyleLike`` and serializers (widgetbundle.js), read."""
    if not data:
        return data
    holes = [k for k, v in data.items() if isinstance(v, list) and any(x is Undefined for x in v)]
    if not holes:
        return data
    out = dict(data)
    for k in holes:
        now = current(_path_parts(k))
        v = data[k]
        out[k] = [
            copy.deepcopy(now[i]) if v[i % len(v)] is Undefined else v[i % len(v)]
            for i in range(len(now))
        ]
    return out


def merge_nested_edits(batch: list[tuple[dict, dict]]) -> None:
    """Make one plotly message's edits safe for plotly.js, in place. ``batch``: one
    ``(edits, props)`` per trace (or the layout alone): ``edits`` its batched ``{attribute
    path: value}``, ``props`` its state before the batch.

    plotly.js's ``restyle``/``relayout`` refuse a whole message whose keys hold an attribute
    (``"marker"``) and one inside it (``"marker.line"``, ``"marker.line.color"``), even when
    they are for different traces ("cannot set marker.line and a parent attribute
    simultaneously"). Each such inner edit is folded into an edit of the outermost attribute
    the message sets, for its trace: that attribute's value in the batch (or in ``props``),
    with the inner edits put in it in the order plotly applies a batch to the figure
    (sorted by path). The page then ends with what the kernel's figure holds. Source:
    plotly.js's rule; reconstruction for the merge."""
    keys = {k for edits, _ in batch for k in edits}
    outer = {k: next(p for p in _parent_keys(k) if p in keys) for k in keys
             if any(p in keys for p in _parent_keys(k))}  # fmt: skip
    if not outer:
        return
    for edits, props in batch:
        merged: dict = {}
        for k in sorted(k for k in edits if k in outer):
            p = outer[k]
            if p not in merged:
                base = edits[p] if p in edits else _get_in(props, _path_parts(p))
                merged[p] = copy.deepcopy(base)
            merged[p] = _set_in(merged[p], _path_parts(k)[len(_path_parts(p)) :], edits.pop(k))
        edits.update(merged)


class BoardRenderer(BoardDrawing):
    """A board's widget: its :class:`~moneynb.figures.base.BoardDrawing` (the default draws
    each player's wallet as a bar) drawn in :class:`BoardFigure` widgets, with the panels and
    the clicks of the view.

    A game's board extends its drawing (``moneynb.figures.<game>.Board``) and this class, in
    that order; it adds ``__init__`` (calling ``super().__init__(game)`` first: then
    :attr:`figure`, :attr:`game` and :attr:`pick` are set), the panels and the clicks.

    Attributes:
        game: the :class:`~moneynb.core.Game` drawn.
        figure: the one ``FigureWidget``.
        pick: callable(action) set by the view; ``None`` until the view attaches.
    """

    #: ``time.perf_counter()`` of the last change of the game, set by the view; a click on the
    #: board from the page that arrives within :data:`REPEAT_CLICK_S` of it is ignored
    changed_at = float("-inf")
    #: ``(action, time.perf_counter())`` of the last click on the board from the page
    _last_page_click: tuple = (None, float("-inf"))

    def __init__(self, game):
        super().__init__(game)
        self.pick: Callable[[Any], None] | None = None
        self.figure.on_theme(self.set_theme)

    def new_figure(self, data: list, layout: dict, config: dict, carry_code: bool = True):
        """The board's :class:`BoardFigure` of ``data``, ``layout`` and ``config``."""
        return BoardFigure(data=data, layout=layout, config=config, carry_code=carry_code)

    def widget(self):
        """The widget the view shows (the same one on every call): :attr:`figure`, or
        :attr:`figure` laid over :attr:`backdrop` in one grid cell (``moneynb-board-stack``;
        :attr:`figure` comes first in the page, so ``.js-plotly-plot`` finds it, and is
        painted on top)."""
        if self.backdrop is None:
            return self.figure
        if getattr(self, "_stack", None) is not None:
            return self._stack
        import ipywidgets as widgets

        # the figure on top lets the mouse through to the backdrop's spaces
        deaf = widgets.HTML(
            "<style>.moneynb-board-top, .moneynb-board-top * { pointer-events: none !important; }"
            "</style>",
            layout=widgets.Layout(width="0px", height="0px"),
        )
        top = widgets.Box(
            [self.figure, deaf],
            layout=widgets.Layout(grid_area="1 / 1", order="2", overflow="visible"),
        )
        top.add_class("moneynb-board-top")
        back = widgets.Box(
            [self.backdrop], layout=widgets.Layout(grid_area="1 / 1", order="1", overflow="visible")
        )
        back.add_class("moneynb-board-backdrop")
        stack = widgets.GridBox(
            [top, back],
            layout=widgets.Layout(grid_template_columns="100%", width="100%", overflow="visible"),
        )
        stack.add_class("moneynb-board-stack")
        self._stack = stack
        return stack

    def release(self) -> None:
        """Send the board's figures to the page now, with their current state (see
        :meth:`BoardFigure.release`)."""
        for fig in (self.backdrop, self.figure):
            if fig is not None and hasattr(fig, "release"):
                fig.release()

    def rewind(self, game) -> None:
        """Called by the view after an undo, just before ``update(game, game.log)`` replays the
        whole remaining log: forget cues of the undone actions. Default: every
        :class:`~moneynb.ui.cards.CardWidget` among :meth:`panels` goes blank, so it shows the
        last card the remaining log draws, or none."""
        from ..cards import CardWidget

        for w in self.panels():
            if isinstance(w, CardWidget):
                w.show("", "", animate=False)

    #: traces whose hover texts say where each token is (one point per token)
    TOKEN_TRACES = ("tokens", "planes", "pawns", "seats", "wallets")

    def describe(self, game) -> dict[str, list[tuple]]:
        """The board as text, for screen readers and for a teacher to show (the view's
        "Board as text"): ``{section title: [row tuples of str]}`` with

        * ``"Tokens"``: where each token is (read from the board's own token trace, so the
          text says what the picture shows),
        * ``"Spaces in play"``: what each space in play holds (:meth:`spaces_in_play`),
        * ``"Choices on the board"``: the legal targets of the pending decision, the same the
          board highlights (recorded by :meth:`set_targets`).

        Updated by the view after every update of the board."""
        tokens = []
        for fig in (self.figure, self.backdrop):
            for t in fig.data if fig is not None else ():
                if t.name in self.TOKEN_TRACES and t.hovertext is not None:
                    hov = t.hovertext if not isinstance(t.hovertext, str) else [t.hovertext]
                    tokens += [(_plain_text(h),) for h in hov if h]
            if tokens:
                break
        for p in game.players:  # a player with no token drawn (not started, or out)
            if not any(row[0].startswith(p) for row in tokens):
                tokens.append((f"{p}: no token on the board",))
        d = game.decision
        targets = [(label,) for label in getattr(self, "_target_labels", [])]
        if not targets and d is not None and d.kind in ("space", "player"):
            targets = [(d.label(o),) for o in d.options]
        return {
            "Tokens": tokens,
            "Spaces in play": self.spaces_in_play(game),
            "Choices on the board": targets,
        }

    def spaces_in_play(self, game) -> list[tuple]:
        """Rows ``(space, what it holds)`` for the spaces that hold something now (owned
        properties, coins, the pot...); default none."""
        return []

    #: traces whose points are the players' tokens, one per seat, each labelled with
    #: :func:`token_letters` (Money Moves rings its seats itself)
    TURN_TRACES = ("tokens", "planes", "pawns")
    #: the ring round the token of the player whose decision is pending (Money Moves' yellow)
    TURN_RING = "#ffd600"

    def mark_turn(self, game) -> None:
        """Ring the token of the player whose decision is pending, as Money Moves does (issue
        30, case 3): a thick yellow outline on that token, a thin white one on the others.
        Reads the seat of each point from its text (:func:`token_letters`, one per seat);
        called by the view after every update, inside its batch."""
        d = game.decision
        letters = token_letters(list(game.players))
        cur = letters[d.player] if d is not None and isinstance(d.player, int) else None
        # inside a batch (the view's), a trace's text set in it is read from plotly's
        # pending edits: the trace itself answers the value from before the batch
        pending = getattr(self.figure, "_batch_trace_edits", {}) or {}
        for i, t in enumerate(self.figure.data):
            text = pending.get(i, {}).get("text", t.text)
            if t.name not in self.TURN_TRACES or text is None or isinstance(text, str):
                continue
            texts = list(text)
            line = dict(
                width=[5 if x == cur else 1.5 for x in texts],
                color=[self.TURN_RING if x == cur else self.pal["outline"] for x in texts],
            )
            edits = pending.get(i, {})
            if any(k == "marker" or k.startswith("marker.") for k in edits):
                # the batch already changes this marker (Money Run's update sets it whole):
                # plotly would drop a ring equal to the one from before the batch, and the
                # batch's marker would then take it away; the ring goes in the batch itself
                # (applied after "marker"; BoardFigure folds the two into one edit)
                edits["marker.line"] = line
            else:
                t.marker.line = line

    def highlight(self, decision) -> None:
        """Mark the legal targets of ``decision`` on the board (default: nothing)."""

    def set_targets(self, trace_index: int, spaces: list, labels: list[str]) -> None:
        """Show ``spaces`` (ids placed by the renderer's ``_xy``) as the clickable markers of
        trace ``trace_index``: each point's customdata is its space id, its hover text the
        matching entry of ``labels`` (HTML-escaped). An empty list clears the markers."""
        self._target_labels = [_plain_text(label) for label in labels]
        ask = [
            "$" in str(label) and getattr(self.game.decision, "kind", None) == "choose"
            for label in labels
        ]
        with self.figure.batch_update():
            t = self.figure.data[trace_index]
            t.x = [self._xy(s)[0] for s in spaces]
            t.y = [self._xy(s)[1] for s in spaces]
            t.customdata = list(spaces)
            t.hovertext = [
                plot_text(label) + ("<br>(click twice: the first click only asks)" if a else "")
                for label, a in zip(labels, ask, strict=True)
            ]

    #: radius (board units) of a heat-map disc; the track boards space their spaces 1 apart
    heat_radius = 0.45

    def heat_xy(self, space: Any) -> tuple[float, float] | None:
        """Board coordinates of ``space`` for the Coach's heat map: the renderer's own
        ``_xy(space)`` if it has one, else ``space`` itself when it is an ``(x, y)`` pair
        (Money Run squares), else ``None`` (not drawn)."""
        xy = getattr(self, "_xy", None)
        if xy is not None:
            try:
                return xy(space)
            except (KeyError, IndexError, TypeError):
                return None
        if isinstance(space, (tuple, list)) and len(space) == 2:
            return float(space[0]), float(space[1])
        return None

    #: index in :attr:`figure` of the trace whose markers are the spaces as tiles that fill
    #: the board (Easy Money's squares, Money Run's): the heat map tints them instead of
    #: drawing discs, which those tiles would hide (``None``: discs)
    HEAT_TILES: int | None = None
    #: the Coach's colour, mixed into a tile or filling a disc
    HEAT_RGB = (255, 140, 0)

    def show_heatmap(self, probs: dict | None) -> None:
        """Draw the Coach's heat map ``{space id: probability}`` (darker = likelier), or
        remove it (``None``), without covering any label (issue 30, case 2): a tile board
        (:attr:`HEAT_TILES`) tints its tiles towards orange; any other board draws
        translucent orange discs (layout shapes named ``moneynb-heat``) BELOW its markers and
        labels, in its :attr:`backdrop` when it has one, so they show as a halo round each
        space and every name stays on top.

        Boards whose spaces have no :meth:`heat_xy` draw nothing; a board may override this.
        """
        weights = {}
        if probs:
            top = max(float(p) for p in probs.values()) or 1.0
            for space, p in probs.items():
                xy = self.heat_xy(space)
                if xy is not None and float(p) > 0:
                    weights[(float(xy[0]), float(xy[1]))] = 0.15 + 0.55 * float(p) / top
        if self.HEAT_TILES is not None:
            self._tint_tiles(weights)
            return
        fig = self.backdrop if self.backdrop is not None else self.figure
        keep = [sh for sh in fig.layout.shapes if (sh.name or "") != "moneynb-heat"]
        r = self.heat_radius
        rgb = ",".join(map(str, self.HEAT_RGB))
        heat = [
            dict(type="circle", xref="x", yref="y", name="moneynb-heat",
                 x0=x - r, x1=x + r, y0=y - r, y1=y + r, fillcolor=f"rgba({rgb},{a:.2f})",
                 line=dict(width=0), layer="below")
            for (x, y), a in weights.items()
        ]  # fmt: skip
        if not heat and len(keep) == len(fig.layout.shapes):
            return
        with fig.batch_update():
            fig.layout.shapes = keep + heat

    def _tint_tiles(self, weights: dict) -> None:
        """Tint the :attr:`HEAT_TILES` markers at the points of ``weights`` (``{(x, y):
        share of orange}``); the others get back their own colours."""
        t = self.figure.data[self.HEAT_TILES]
        colors = list(t.marker.color) if not isinstance(t.marker.color, str) else None
        if colors is None:
            return
        base, tinted = getattr(self, "_heat_tiles", ((), ()))
        if tuple(colors) != tuple(tinted):  # redrawn since the last tint: these are its own
            base = tuple(colors)
        new = [
            _mix(c, self.HEAT_RGB, weights.get((float(x), float(y)), 0.0))
            for c, x, y in zip(base, t.x, t.y, strict=True)
        ]
        self._heat_tiles = (base, tuple(new))
        if new != colors:
            with self.figure.batch_update():
                t.marker.color = new

    def panels(self) -> list:
        """Extra widgets shown under the board (score sheet, dice...); default none."""
        return []

    def custom_panel(self, decision, submit: Callable[[Any], None]):
        """A game-specific panel for ``decision`` (usually chosen by ``decision.tag``), or
        ``None`` for the generic panel of its kind. ``submit(action)`` applies an action and
        raises :class:`~moneynb.core.IllegalAction` when it is refused (the view shows it)."""
        return None

    # ----- board picks ------------------------------------------------------------------
    def clickable(self, trace_index: int, figure=None) -> None:
        """Make trace ``trace_index`` of ``figure`` (default :attr:`figure`; a board with a
        backdrop passes :attr:`backdrop`) clickable: a click on a point whose ``customdata`` is
        a legal action of the pending decision calls :attr:`pick` with it."""
        trace = (self.figure if figure is None else figure).data[trace_index]
        trace.on_click(self._on_click)

    def action_for_point(self, customdata: Any):
        """The action a clicked point stands for (default: its ``customdata``, made hashable)."""
        if isinstance(customdata, list):
            return tuple(customdata)
        return customdata

    def _on_click(self, trace, points, selector=None) -> None:
        if self.pick is None or not points.point_inds:
            return
        # a click from the page names a point, not the decision it was drawn for: the same
        # point again within REPEAT_CLICK_S is the second click of a double-click (ignored);
        # another point is a new choice, however quickly it follows
        cd = trace.customdata
        if cd is None:
            return
        action = self.action_for_point(cd[points.point_inds[0]])
        now = time.perf_counter()
        last_action, last_at = self._last_page_click
        if action == last_action and now - last_at < REPEAT_CLICK_S:
            return
        self._last_page_click = (action, now)
        self.click(action)

    #: shows a short note to the people at the screen (set by the view; ``None``: not shown)
    notice: Callable[[str], None] | None = None
    #: ``(number of actions so far, action)`` armed by a first click that costs or brings money
    _armed: tuple = (None, None)

    @staticmethod
    def moves_money(decision, action) -> bool:
        """True when choosing ``action`` for ``decision`` spends, borrows or raises money as
        the engine words it: a pick among options ("choose") whose engine label names a dollar
        amount (Easy Money's "Mortgage Mill (+$60)", "Lift the mortgage on Mill ($66)", "Buy
        for $60"...). Such a click on the board asks first (issue 30, case 4)."""
        if decision is None or decision.kind != "choose":
            return False
        try:
            return "$" in str(decision.label(action))
        except (KeyError, ValueError, TypeError):
            return False

    def click(self, action: Any) -> bool:
        """Act as if the board point standing for ``action`` was clicked; True if it was a
        legal pick and was passed on to :attr:`pick` (tests call this without a browser).

        A click whose action moves money (:meth:`moves_money`) asks first: the first click
        only says, through :attr:`notice`, exactly what a second click on the same point will
        do, with the amount, and returns False; the second click (same decision) picks it."""
        d = self.game.decision
        if self.pick is None or d is None or d.kind not in ("space", "player", "choose"):
            return False
        if not d.allows(action):
            return False
        if self.moves_money(d, action):
            key = (len(getattr(self.game, "actions", ())), action)
            if self._armed != key:
                self._armed = key
                if self.notice is not None:
                    label = self.plain(str(d.label(action)))
                    self.notice(f"Click it again to: {label}. (Nothing has happened yet.)")
                return False
        self._armed = (None, None)
        self.pick(action)
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.title})"
