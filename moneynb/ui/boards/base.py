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
import html
import time
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go
import traitlets

#: colours given to seats 0, 1, 2... (shared by boards, so a player keeps one colour)
PLAYER_COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#e377c2",
    "#8c564b",
)


#: each seat's colour as TEXT on a board's light tiles (Easy Money's houses): a deep shade of
#: :data:`PLAYER_COLORS`, at 4.5:1 or more on the tiles (which keep their colours in both
#: themes; ``tests/test_palette.py``)
PLAYER_TEXT_COLORS = (
    "#0d47a1",
    "#9a0007",
    "#1b5e20",
    "#4a148c",
    "#7a3300",
    "#005a60",
    "#880e4f",
    "#4e342e",
)


def player_text_color(seat: int) -> str:
    """The colour of text in ``seat``'s colour on a light tile (see :data:`PLAYER_TEXT_COLORS`)."""
    return PLAYER_TEXT_COLORS[seat % len(PLAYER_TEXT_COLORS)]


#: seconds after a change of the game in which a click on the board from the page is taken as
#: the second click of a double-click and ignored (a browser's double-click interval is ~0.5 s)
REPEAT_CLICK_S = 0.4


#: the smallest text on a board, in px (issue 30, case 2: at the 1024 px layout a board is
#: drawn at its own size, so this is the size a player reads)
MIN_TEXT_PX = 11
#: a board's width in px when its layout gives none: it fits beside nothing in JupyterLab at
#: 1024 px with the file browser open (about 590 px for an output), and scales down below that
BOARD_WIDTH = 580


def readable(traces: list, min_px: int = MIN_TEXT_PX) -> list:
    """``traces`` (plotly traces or dicts) with every ``textfont.size`` (a number or a list
    of numbers, px) raised to at least ``min_px``; changed in place and returned."""
    for t in traces:
        font = t.get("textfont") if isinstance(t, dict) else getattr(t, "textfont", None)
        if font is None:
            continue
        size = font.get("size") if isinstance(font, dict) else font.size
        if size is None:
            continue
        if isinstance(size, (list, tuple)):
            new = [max(min_px, v) if isinstance(v, (int, float)) else v for v in size]
        else:
            new = max(min_px, size)
        if isinstance(font, dict):
            font["size"] = new
        else:
            font.size = new
    return traces


def readable_layout(layout: dict, min_px: float = MIN_TEXT_PX) -> dict:
    """``layout`` (a board's layout dict) with the title's and every annotation's font size
    raised to at least ``min_px`` (an annotation without a size counts as plotly's 12 px);
    changed in place and returned."""
    title = layout.get("title")
    if isinstance(title, dict) and title.get("text"):
        font = dict(title.get("font") or {})
        font["size"] = max(min_px, font.get("size") or 17)
        layout["title"] = {**title, "font": font}
    notes = []
    for a in layout.get("annotations") or ():
        if isinstance(a, dict):
            font = dict(a.get("font") or {})
            font["size"] = max(min_px, font.get("size") or 12)
            a = {**a, "font": font}
        notes.append(a)
    if notes:
        layout["annotations"] = notes
    return layout


#: the text zooms a board is drawn at (see :meth:`BoardRenderer.set_text_zoom`): a board the
#: page draws at ``scale`` of its size takes the first zoom at least ``1 / scale``
TEXT_ZOOMS = (1.0, 1.1, 1.2, 1.35, 1.5)


def zoom_for(scale: float) -> float:
    """The text zoom (one of :data:`TEXT_ZOOMS`) that keeps a board's smallest text at
    :data:`MIN_TEXT_PX` or more on screen when the page draws the board at ``scale`` (0..1]
    of its size; the largest zoom below ``1 / TEXT_ZOOMS[-1]``. Source: issue 38."""
    need = 1.0 / max(scale, 1e-6) - 0.005
    return next((z for z in TEXT_ZOOMS if z >= need), TEXT_ZOOMS[-1])


# ----- where a board's text goes (issue 30, case 2) ---------------------------------------
#: the font of every board's text: Arial's widths (Liberation Sans on Linux has the same), so
#: the room a label takes is known in the kernel (:func:`text_box`) and is the same on every
#: machine (plotly's default, "Open Sans, verdana, arial", is as wide as the first one installed)
BOARD_FONT = "Arial, 'Liberation Sans', Helvetica, sans-serif"
#: advance widths (em) of :data:`BOARD_FONT`'s characters, by group; any other character 0.6,
#: a symbol past U+2000 (arrows, stars, ticks) 1.0. Measured in Chromium (getComputedTextLength)
_EM = {
    **dict.fromkeys("fijlt.,'/:;!|I ", 0.278), **dict.fromkeys("r-()", 0.333),
    **dict.fromkeys("ckszvxyJ", 0.5), **dict.fromkeys("mM", 0.833), "w": 0.722, "W": 0.944,
    **dict.fromkeys("ABEKPSVXY&", 0.667), **dict.fromkeys("FTZ", 0.611),
    **dict.fromkeys("CDHNRUw", 0.722), **dict.fromkeys("GOQ", 0.778), "+": 0.584,
}  # fmt: skip
#: a line's height in a board's text, em (plotly spaces lines 1.3 em; the glyphs take 1.12)
LINE_EM, GLYPH_EM = 1.3, 1.12
#: the space (px) kept between a label and the marker or label beside it
LABEL_GAP = 3


def _plain_lines(text: str) -> list[str]:
    import re

    lines = re.split(r"<br\s*/?>", str(text))
    return [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in lines]


def _em(c: str) -> float:
    if c in _EM:
        return _EM[c]
    if c.isdigit() or c.islower() or c in "$L":
        return 0.556
    if c.isupper():
        return 0.667
    return 1.0 if ord(c) >= 0x2000 else 0.6


def text_px(line: str, size: float, bold: bool = False) -> float:
    """The width (px) of one line of plain text in :data:`BOARD_FONT` at ``size`` px (bold
    about 8% wider); an estimate from per-character widths, a little generous."""
    em = sum(_em(c) for c in line)
    return em * size * (1.08 if bold else 1.0)


def text_box(text: str, size: float) -> tuple[float, float]:
    """``(width, height)`` in px of a plotly text (``<br>`` between lines, ``<b>`` bold) at
    ``size`` px: the widest line by :func:`text_px`, and the lines' height."""
    bold = "<b>" in str(text)
    lines = _plain_lines(text)
    w = max((text_px(line, size, bold) for line in lines), default=0.0)
    return w, size * (GLYPH_EM + LINE_EM * (len(lines) - 1))


def fit_text(text: str, max_px: float, size: float, bold: bool = False,
             keep_last: bool = False) -> str:  # fmt: skip
    """``text`` (plain, one line) as it fits in ``max_px`` at ``size`` px: whole, else its
    first words that fit, else cut with a "." (the caller keeps the full text in the hover
    and the board as text). ``keep_last``: a player's name, whose last word may be what
    tells two players apart ("Greedy bot 1", "Greedy bot 2"): its first words and its last
    word ("Greedy 2") are tried before its first words alone."""
    if text_px(text, size, bold) <= max_px:
        return text
    words = text.split()
    if keep_last and len(words) >= 3:
        for k in range(len(words) - 2, 0, -1):
            short = " ".join([*words[:k], words[-1]])
            if text_px(short, size, bold) <= max_px:
                return short
    for k in range(len(words) - 1, 0, -1):
        if text_px(" ".join(words[:k]), size, bold) <= max_px:
            return " ".join(words[:k]).rstrip(",;:")
    cut = text
    while len(cut) > 1 and text_px(cut + ".", size, bold) > max_px:
        cut = cut[:-1]
    return cut.rstrip() + "."


def fit_in_circle(lines: list[str], diameter: float, size: float, bold_first: bool = False,
                  margin: float = 4) -> list[str]:  # fmt: skip
    """Plain text ``lines`` written centred in a circle ``diameter`` px across at ``size`` px
    (the first line bold if ``bold_first``), each cut by :func:`fit_text` to the width of the
    circle at that line's top or bottom, less ``margin`` px (a name on a seat: issue 30,
    case 2; keep the full text in the hover). The first line is a player's name when
    ``bold_first``: cut keeping its last word (see ``keep_last``)."""
    step = size * LINE_EM
    r = diameter / 2 - margin
    out = []
    for k, line in enumerate(lines):
        mid = (k - (len(lines) - 1) / 2) * step
        edge = abs(mid) + size * GLYPH_EM / 2 * 0.6  # the glyphs, not the line's whole box
        room = 2 * (max(r * r - edge * edge, 0.0) ** 0.5)
        first = bold_first and k == 0
        out.append(fit_text(line, room, size, bold=first, keep_last=first))
    return out


def px_per_unit(layout: dict) -> float:
    """Pixels per board unit of a board figure's ``layout`` (a dict with ``width``,
    ``height``, ``margin`` and the axes' ``range``; the axes share one scale)."""
    m = {"l": 80, "r": 80, "t": 100, "b": 80, **(layout.get("margin") or {})}
    xr, yr = layout["xaxis"]["range"], layout["yaxis"]["range"]
    w = (layout.get("width") or BOARD_WIDTH) - m["l"] - m["r"]
    h = layout["height"] - m["t"] - m["b"]
    return min(w / (xr[1] - xr[0]), h / (yr[1] - yr[0]))


#: the places :func:`place_labels` tries for a label, around its point, in this order unless
#: a label names its own (``sides``): (dx, dy) directions, y up
SIDES = {
    "above": (0, 1), "below": (0, -1), "right": (1, 0), "left": (-1, 0),
    "above right": (1, 1), "above left": (-1, 1), "below right": (1, -1), "below left": (-1, -1),
}  # fmt: skip


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(labels: list[dict], markers: list[tuple], scale: float,
                 bounds: tuple | None = None) -> list[dict]:  # fmt: skip
    """Put each label beside the marker it names, clear of every marker and of the labels
    placed before it: the one rule every board's names follow (issue 30, case 2).

    ``labels``: dicts with ``x``, ``y`` (board units: the point named), ``text``, ``size``
    (px, default :data:`MIN_TEXT_PX`), ``clear`` (px: the size of the marker at the point, and
    of a token that may stand on it), optional ``sides`` (names of :data:`SIDES` to try, in
    order; default all), optional ``steps`` (px further out to try, after the sides at
    0 px; default none) and any keys of :func:`label_trace`. ``markers``: ``(x, y, size px)``
    of everything drawn on the board that a label must not touch. ``scale``: px per board
    unit (:func:`px_per_unit`). ``bounds``: ``(x0, y0, x1, y1)`` board units a label must
    stay inside. Each label's box is estimated with :func:`text_box`; of the sides tried the
    first that touches nothing wins, else the one that touches least.

    Returns the labels as :func:`label_trace` takes them, each moved to the centre of its box
    (``position`` "middle center")."""
    gap = LABEL_GAP / scale
    boxes = [(x - s / 2 / scale, y - s / 2 / scale, x + s / 2 / scale, y + s / 2 / scale)
             for x, y, s in markers]  # fmt: skip
    out = []
    for lab in labels:
        size = max(MIN_TEXT_PX, lab.get("size", MIN_TEXT_PX))
        w, h = (v / scale for v in text_box(lab["text"], size))
        r = lab.get("clear", 0) / 2 / scale
        best = None
        tries = [
            (side, step) for step in lab.get("steps", (0,)) for side in lab.get("sides") or SIDES
        ]
        for side, step in tries:
            dx, dy = SIDES[side]
            cx = lab["x"] + dx * (r + gap + step / scale + w / 2)
            cy = lab["y"] + dy * (r + gap + step / scale + h / 2)
            box = (cx - w / 2 - gap / 2, cy - h / 2 - gap / 2,
                   cx + w / 2 + gap / 2, cy + h / 2 + gap / 2)  # fmt: skip
            cost = sum(_overlap(box, b) for b in boxes)
            if bounds is not None:
                x0, y0, x1, y1 = bounds
                inside = (max(x0, box[0]), max(y0, box[1]), min(x1, box[2]), min(y1, box[3]))
                cost += (box[2] - box[0]) * (box[3] - box[1]) - _overlap(box, inside) * 1.0
            if best is None or cost < best[0] - 1e-9:
                best = (cost, cx, cy, box)
            if cost <= 1e-9:
                break
        _cost, cx, cy, box = best
        boxes.append(box)
        placed = {k: v for k, v in lab.items() if k not in ("clear", "sides", "steps")}
        out.append({**placed, "x": cx, "y": cy, "size": size, "position": "middle center"})
    return out


def _mix(color: str, rgb: tuple, share: float) -> str:
    """``color`` (``#rrggbb``) mixed with ``rgb`` in ``share`` (0..1); other colours as given."""
    if not share or not (isinstance(color, str) and color.startswith("#") and len(color) == 7):
        return color
    own = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (t - c) * share):02x}" for c, t in zip(own, rgb, strict=True))


def player_color(seat: int) -> str:
    """The display colour of ``seat`` (cycles after 8 seats): a token's fill, the same in
    both themes (its letters take :func:`ink_on` it)."""
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


#: The colours of the boards in each theme (issue 30, case 6), the ONE place they are kept:
#: every board (and the replay chart) asks :attr:`BoardRenderer.pal` / :func:`palette` for a
#: role, never writes a colour of its own for these roles. Roles:
#:
#: * backgrounds: ``paper`` (around the plot), ``plot`` (a plain plot area: Money Moves,
#:   Money Run, charts), ``field`` (the green field of Moolah and Money Card), ``field_em``
#:   (Easy Money's field), ``country_<name>`` (Money Card's countries, drawn under labels);
#: * text drawn on those backgrounds: ``text`` (labels, titles), ``muted`` (secondary
#:   labels), ``title`` (a game's big name), ``subtitle`` (the line under it);
#: * ``tile_ink``: text on a board's light tiles (Easy Money's spaces, Money Run's cells):
#:   the tiles keep their game colours in both themes, so their ink does too;
#: * lines and outlines: ``grid``, ``track`` (Moolah's track), ``route`` (Money Card's routes),
#:   ``edge`` (outlines of spaces), ``outline`` (outline of a token, ringed with
#:   :data:`BoardRenderer.TURN_RING` for the player to move), ``border`` (country borders),
#:   ``hands`` (Moolah's pathway arrows), ``step`` (the replay chart's step line).
#:
#: Text roles reach 4.5:1 on every background role of their theme (WCAG 2.1 contrast;
#: :data:`TEXT_ON` lists the pairs, ``tests/test_palette.py`` checks them). Dark: close to
#: JupyterLab Dark (``--jp-layout-color1`` is ``#212121``).
PALETTES: dict[str, dict[str, str]] = {
    "light": {
        "paper": "#ffffff",
        "plot": "#ffffff",
        "field": "#f1f8e9",
        "field_em": "#e8f5e9",
        "country_France": "#e3f2fd",
        "country_Italy": "#e8f5e9",
        "country_Spain": "#fff8e1",
        "country_Germany-Austria": "#fce4ec",
        "text": "#3e2723",
        "muted": "#455a64",
        "title": "#2e7d32",
        "subtitle": "#33691e",
        "tile_ink": "#1a1a1a",
        "grid": "#eeeeee",
        "track": "#8d6e63",
        "route": "#78909c",
        "edge": "#3e2723",
        "outline": "#ffffff",
        "border": "#cfd8dc",
        "hands": "#6a1b9a",
        "step": "#444444",
    },
    "dark": {
        "paper": "#212121",
        "plot": "#212121",
        "field": "#1b2a1e",
        "field_em": "#1a2c20",
        "country_France": "#1c2c3d",
        "country_Italy": "#1d3322",
        "country_Spain": "#352e17",
        "country_Germany-Austria": "#3a2029",
        "text": "#eeeeee",
        "muted": "#b0bec5",
        "title": "#81c784",
        "subtitle": "#c5e1a5",
        "tile_ink": "#1a1a1a",
        "grid": "#3d3d3d",
        "track": "#a1887f",
        "route": "#90a4ae",
        "edge": "#d7ccc8",
        "outline": "#ffffff",
        "border": "#607d8b",
        "hands": "#ce93d8",
        "step": "#bdbdbd",
    },
}
#: the themes, by the name the page reports (see :data:`_LOADER_ESM`)
THEMES = tuple(PALETTES)
#: ``(text role, background role)``: every text a board draws on a background, per theme
TEXT_ON = tuple(
    (t, b)
    for t in ("text", "muted", "title", "subtitle")
    for b in ("paper", "plot", "field", "field_em")
) + tuple(
    (t, f"country_{c}")
    for t in ("text", "muted")
    for c in ("France", "Italy", "Spain", "Germany-Austria")
)

#: the theme the page last reported (the kernel's boards start in it); "light" until one does
_THEME = {"now": "light"}


def current_theme() -> str:
    """The theme of the page that last reported one ("light" or "dark"; "light" before any
    board was shown)."""
    return _THEME["now"]


def palette(theme: str | None = None) -> dict[str, str]:
    """The colours of ``theme`` by role (see :data:`PALETTES`; default: :func:`current_theme`).

    Raises:
        ValueError: an unknown theme.
    """
    theme = current_theme() if theme is None else theme
    if theme not in PALETTES:
        raise ValueError(f"theme must be one of {THEMES}, got {theme!r}")
    return PALETTES[theme]


def _luminance(color: str) -> float:
    rgb = [int(color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """The WCAG 2.1 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(color: str) -> str:
    """The text colour on a ``color`` (``#rrggbb``) token: white or near-black, whichever has
    the higher contrast (WCAG relative luminance), e.g. black on the orange of seat 4."""
    lum = _luminance(color)
    return "#ffffff" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) else "#111111"


def player_ink(seat: int) -> str:
    """The text colour on a token of ``seat``'s colour (see :func:`ink_on`)."""
    return ink_on(player_color(seat))


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
// where the page's server serves files of the labextensions tree (moneynb/ui/static.py):
// the page config's fullLabextensionsUrl (Lab: <base>lab/extensions, Voila:
// <base>voila/labextensions), or null outside Jupyter's pages
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
    // the static file: fetched once, cached by the browser (issue 41)
    entry.started = entry.triedUrl = true;
    import(new URL(path, base).href).then(entry.resolve, (e) => {
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
    model0.send({ moneynb: "resync" });
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
    for (const [name, value] of early.splice(0)) {
      replaying[name] = value;
      try {
        for (const fn of handlers.get(name) ?? []) fn();
      } finally {
        delete replaying[name];
      }
    }
    live = true;
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
      });
      ready().catch((e) => console.error("[moneynb] plotly widget failed to load", e));
      followTheme(model);
    },
    async render({ model, el }) {
      const w = await ready();
      const v = drawView(w, model, el);
      return () => {
        v.dead = true;
        views.splice(views.indexOf(v) >>> 0, 1);
        return v.cleanup?.();
      };
    },
  };
};
"""


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
      from a static file the server serves and the browser caches
      (:mod:`moneynb.ui.static`, issue 41), or, where that file is missing, sent by the
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
    #: plotly's code under the server's labextensions URL (:func:`moneynb.ui.static.bundle_path`)
    _moneynb_bundle_url = traitlets.Unicode("").tag(sync=True)
    #: the code goes through the kernel only (``MONEYNB_INLINE_WIDGET_CODE=1``)
    _moneynb_inline = traitlets.Bool(False).tag(sync=True)
    #: how many plotly change messages the kernel has sent (each is followed by this count, in
    #: its own message); a page that received fewer asks for the full state (issue 30, case 8)
    _moneynb_seq = traitlets.Int(0).tag(sync=True)
    #: how many times the full state was sent on a page's request (its change tells the page
    #: to draw its views again)
    _moneynb_sync = traitlets.Int(0).tag(sync=True)
    #: the theme of the page ("light" or "dark"), reported by the page (see
    #: :data:`_LOADER_ESM`); a change calls the functions given to :meth:`on_theme`
    _moneynb_theme = traitlets.Unicode("light").tag(sync=True)

    def __init__(self, data=None, layout=None, config=None, carry_code: bool = True):
        """``carry_code=False``: with ``MONEYNB_INLINE_WIDGET_CODE=1``, the figure does not
        carry plotly's 5 MB module and draws once another figure in the page (with
        ``carry_code=True``) has loaded it (a backdrop). Otherwise no figure carries it: the
        page imports it from the static file (:mod:`moneynb.ui.static`)."""
        from ..static import bundle_path, inline_only

        self._moneynb_deferred = True
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
        could not import plotly's code from the static file asks ``{"moneynb": "code"}``:
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
        self.send_state(["_widget_data", "_widget_layout", "_moneynb_seq", "_moneynb_sync"])

    def _moneynb_sent(self) -> None:
        """After each change message: the synced state is the current one, and the count of
        messages goes out (its own message, after the change)."""
        self._sync_full_state()
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

    # after every change the figure sends to the page, its synced state is its current one
    def _send_restyle_msg(self, *args, **kwargs):
        super()._send_restyle_msg(*args, **kwargs)
        self._moneynb_sent()

    def _send_relayout_msg(self, *args, **kwargs):
        super()._send_relayout_msg(*args, **kwargs)
        self._moneynb_sent()

    def _send_update_msg(self, *args, **kwargs):
        super()._send_update_msg(*args, **kwargs)
        self._moneynb_sent()

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


def _colors_of(new: Any, old: Any) -> Any:
    """The colour properties of plotly JSON ``new`` (a dict), nested, as an update of
    ``old`` (the figure's current JSON of the same object): strings whose key names a colour,
    lists of colours as long as the current one (a per-point list the board's ``update``
    fills, still empty in ``new``, is left to ``update``), lists of objects (annotations,
    shapes) element by element. ``None`` when nothing is a colour."""
    if not isinstance(new, dict):
        return None
    old = old if isinstance(old, dict) else {}
    out = {}
    for k, v in new.items():
        cur = old.get(k)
        if isinstance(v, dict):
            sub = _colors_of(v, cur)
            if sub:
                out[k] = sub
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, dict) for x in v):
            cur = cur if isinstance(cur, (list, tuple)) else []
            subs = [_colors_of(x, cur[i] if i < len(cur) else None) or {} for i, x in enumerate(v)]
            if any(subs):
                out[k] = subs
        elif "color" in k.lower():
            if isinstance(v, str):
                out[k] = v
            elif (isinstance(v, (list, tuple)) and v and isinstance(cur, (list, tuple))
                  and len(cur) == len(v)):  # fmt: skip
                out[k] = list(v)
    return out or None


def _recolor(fig, traces: list, layout: dict) -> None:
    """Set the colours of ``fig`` (a figure) to those of ``traces`` and ``layout`` (the board
    built again, in a new palette): only colour properties change, the layout's in one
    message and each trace's in one message of its own.

    Not one batch for all traces: plotly's batch writes a key one trace changes as a list
    over every trace of the message, the others "undefined", and in the page a trace's
    per-point colours came out unset from such a message (Moolah's spaces all drawn in
    plotly's default purple in a dark page: a newcomer's finding)."""
    new_layout = go.Layout(layout).to_plotly_json()
    delta = _colors_of(new_layout, fig.layout.to_plotly_json())
    if delta:
        fig.layout.update(delta)
    for trace, built in zip(fig.data, traces, strict=False):
        built = built.to_plotly_json() if hasattr(built, "to_plotly_json") else dict(built)
        delta = _colors_of(built, trace.to_plotly_json())
        if delta:
            trace.update(delta)


#: trace properties a text zoom changes (:func:`_rebuild`)
_ZOOMED = ("x", "y", "text", "textfont", "textposition", "marker.size")


def _rebuild(fig, traces: list, layout: dict) -> None:
    """Set the texts, their sizes and places, and the markers' sizes of ``fig`` to those of
    ``traces`` and ``layout`` (the board built again at another text zoom), as
    :func:`_recolor` does for colours: the layout's annotations and title in one message,
    each trace's in one of its own. A per-point list still empty in ``traces`` (filled by
    the board's ``update``) is left as it is."""
    with fig.batch_update():  # whole: a zoom may add or leave out a note (Moolah's key)
        if "annotations" in layout:
            fig.layout.annotations = layout["annotations"]
        if "title" in layout:
            fig.layout.title = layout["title"]
    for trace, built in zip(fig.data, traces, strict=False):
        built = built.to_plotly_json() if hasattr(built, "to_plotly_json") else dict(built)
        delta = {}
        for key in _ZOOMED:
            value = _get_in(built, _path_parts(key))
            if value is None or (isinstance(value, (list, tuple)) and not len(value)):
                continue
            delta[key] = list(value) if isinstance(value, tuple) else value
        if delta:
            trace.update(delta)


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


def _backdrop_layout(layout: dict) -> dict:
    """The backdrop's layout: the board's, without a title (the figure above writes it)."""
    out = copy.deepcopy(layout)
    title = dict(out.get("title") or {})
    title["text"] = ""
    out["title"] = title
    return out


def _overlay_layout(layout: dict) -> dict:
    """The layout of a figure drawn over a backdrop: the board's, see-through, without hover,
    with its shapes and annotations left to the backdrop."""
    out = copy.deepcopy(layout)
    out.update(paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor="rgba(0,0,0,0)", shapes=[],
               annotations=[], hovermode=False)  # fmt: skip
    return out


def money(amount: int) -> str:
    """``1234`` -> ``"$1,234"``; negative amounts as ``"-$5"``."""
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def _plain_text(text: str) -> str:
    """A hover text as plain text: ``<br>`` becomes ``"; "``, tags go, entities are read."""
    import re

    text = re.sub(r"<br\s*/?>", "; ", str(text))
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def token_letters(players: list[str]) -> list[str]:
    """The short text on each seat's token (plain text: escape it with :func:`plot_text`),
    different for every seat: the first letter of the name, with the name's number when it
    ends in one ("Greedy bot 2" -> "G2"), and the seat number added if two would still be
    equal ("Bob 2", "Bo", "Bea" -> "B2", "B2'", "B3"; a mark is added until no two match)."""
    import re

    base = []
    for p in players:
        m = re.search(r"(\d+)$", p.strip())
        base.append((p.strip()[:1].upper() or "?") + (m.group(1) if m else ""))
    out: list[str] = []
    for i, t in enumerate(base):
        tok = f"{t}{i + 1}" if base.count(t) > 1 else t
        while tok in out or (tok != t and tok in base):
            tok += "'"
        out.append(tok)
    return out


def plot_text(text: Any) -> str:
    """``text`` (a name, a space or card title from a data file, anything a person typed)
    made safe for a plotly text field: plotly draws a subset of HTML in titles, text labels,
    hover texts and legends (``<a href>`` becomes a link, ``<span style>`` styled text), so
    ``&``, ``<``, ``>`` and quotes are written as entities plotly reads (quotes as
    ``&#34;``/``&#39;``) and show as themselves; the result is also safe in HTML text and
    in a quoted HTML attribute. The one
    escaping function of every board and the replay chart; markup a board adds itself
    (``<b>``, ``<br>``) goes around the escaped text."""
    # plotly reads &amp; &lt; &gt; and numeric entities, not &quot; / &#x27; (it showed
    # "&quot;" as typed), so quotes are numeric: read alike by plotly and by a browser
    text = html.escape(str(text), quote=False)
    return text.replace('"', "&#34;").replace("'", "&#39;")


def label_trace(labels: list[dict], name: str = "labels", ink: str | None = None) -> go.Scatter:
    """One text-only, unclickable scatter trace holding a board's fixed labels.

    ``labels``: dicts with ``x``, ``y`` (board units; shift a label off its space in board
    units, not pixels), ``text`` (HTML allowed) and optional ``size`` (px, default :data:`MIN_TEXT_PX`),
    ``color`` (default ``ink``: the board's ``pal["text"]``, else the current palette's) and ``position`` (plotly's ``textposition`` of the text
    around its point, default ``"middle center"``).

    Why not layout annotations: every board update that moves a token makes plotly redraw the
    whole plot, and it lays out and measures each annotation one by one. Measured with
    ``benchmarks/bench_board_render.py`` (Moolah's board updates replayed in Chromium): 53
    annotations made an update take about 80 ms, the same labels in this trace about 35 ms.
    """
    return go.Scatter(
        x=[lab["x"] for lab in labels],
        y=[lab["y"] for lab in labels],
        text=[lab["text"] for lab in labels],
        mode="text",
        textposition=[lab.get("position", "middle center") for lab in labels],
        textfont=dict(
            size=[max(MIN_TEXT_PX, lab.get("size", MIN_TEXT_PX)) for lab in labels],
            color=[lab.get("color", ink or palette()["text"]) for lab in labels],
        ),
        hoverinfo="skip",
        name=name,
    )


class BoardRenderer:
    """Base renderer; the default draws each player's wallet as a bar (a generic board).

    Subclasses override :meth:`build_data` / :meth:`build_layout` (used by the constructor) and
    :meth:`update`, or override ``__init__`` entirely (calling ``super().__init__(game)``
    first is not required, but :attr:`figure`, :attr:`game` and :attr:`pick` must be set).

    Attributes:
        game: the :class:`~moneynb.core.Game` drawn.
        figure: the one ``FigureWidget``.
        pick: callable(action) set by the view; ``None`` until the view attaches.
    """

    #: figure height in pixels
    height = 420
    #: ``time.perf_counter()`` of the last change of the game, set by the view; a click on the
    #: board from the page that arrives within :data:`REPEAT_CLICK_S` of it is ignored
    changed_at = float("-inf")
    #: ``(action, time.perf_counter())`` of the last click on the board from the page
    _last_page_click: tuple = (None, float("-inf"))

    #: the view's plain-English function for texts shown to people (second person for a
    #: person seated as "You"); the identity until a view attaches
    plain: Callable[[str], str] = staticmethod(lambda text: text)

    #: called by :meth:`set_theme` after the colours changed (set by the view: it draws the
    #: game's state again, in the new palette); ``None``: nothing more is drawn
    on_retheme: Callable[[], None] | None = None

    #: how many times its own size the board's text is drawn (issue 38): the page draws a
    #: board smaller than its size in a short window (``moneynb.ui.a11y``'s fit) and reports
    #: the scale; the text is then drawn larger in the board (:meth:`set_text_zoom`), so it
    #: stays at :data:`MIN_TEXT_PX` or more on screen. Build methods size text with
    #: :attr:`text_px` and write fewer or shorter labels when it is larger.
    text_zoom = 1.0

    @property
    def text_px(self) -> float:
        """The size (px in the board's own units) of the board's smallest text: 11 px times
        :attr:`text_zoom`."""
        return MIN_TEXT_PX * self.text_zoom

    def zoomed(self, px: float) -> float:
        """``px`` (a marker that holds text: a token) grown with the text zoom (and 2 px
        more at any zoom: the letters' corners stay inside a circle as drawn)."""
        z = self.text_zoom
        return round(px * z + (2 if z > 1 else 0), 1)

    def __init__(self, game):
        self.game = game
        self.pick: Callable[[Any], None] | None = None
        #: the theme drawn ("light" or "dark") and its colours by role (:data:`PALETTES`)
        self.theme = current_theme()
        self.pal = PALETTES[self.theme]
        layout = self._full_layout(game)
        back = self.build_backdrop(game)
        if back is not None:
            readable(back, self.text_px)
        #: the figure drawn once behind :attr:`figure` (``None`` when the board has none)
        self.backdrop: BoardFigure | None = None
        config = {"displayModeBar": False}
        if back is not None:
            self.backdrop = BoardFigure(
                data=back, layout=_backdrop_layout(layout), config=config, carry_code=False
            )
            layout = _overlay_layout(layout)
            config = {"staticPlot": True, "displayModeBar": False}
        data = readable(self.build_data(game), self.text_px)
        self.figure = BoardFigure(data=data, layout=layout, config=config)
        self.figure.on_theme(self.set_theme)

    def set_text_zoom(self, zoom: float) -> None:
        """Draw the board's text ``zoom`` times its size (one of :data:`TEXT_ZOOMS`; see
        :attr:`text_zoom`): the board is built again at that zoom and every trace and the
        layout take its texts, sizes and places (a message per trace, as for a theme), then
        :attr:`on_retheme` draws the game's state, in one update. The same zoom again changes
        nothing.

        Raises:
            ValueError: ``zoom`` is not one of :data:`TEXT_ZOOMS`."""
        if zoom not in TEXT_ZOOMS:
            raise ValueError(f"text zoom must be one of {TEXT_ZOOMS}, got {zoom!r}")
        if zoom == self.text_zoom:
            return
        self.text_zoom = zoom
        game = self.game
        layout = self._full_layout(game)
        back = self.build_backdrop(game)
        if self.backdrop is not None and back is not None:
            _rebuild(self.backdrop, readable(back, self.text_px), _backdrop_layout(layout))
            layout = _overlay_layout(layout)
        _rebuild(self.figure, readable(self.build_data(game), self.text_px), layout)
        if self.on_retheme is not None:
            with self.figure.batch_update():
                self.on_retheme()

    def _full_layout(self, game) -> dict:
        """:meth:`build_layout` with the defaults every board shares: a width, the board font
        (:data:`BOARD_FONT`), and the palette's paper, plot and text colours where the board
        names none."""
        layout = dict(self.build_layout(game))
        if not layout.get("width"):
            layout.update(width=BOARD_WIDTH, autosize=False)
        layout.setdefault("paper_bgcolor", self.pal["paper"])
        layout.setdefault("plot_bgcolor", self.pal["plot"])
        font = dict(layout.get("font") or {})
        # one known font: the room each label takes is known here (see text_box)
        font.setdefault("family", BOARD_FONT)
        font.setdefault("color", self.pal["text"])
        layout["font"] = font
        title = layout.get("title")
        if isinstance(title, dict) and isinstance(title.get("font"), dict):
            title = {**title, "font": {"color": self.pal["text"], **title["font"]}}
            layout["title"] = title
        return readable_layout(layout, self.text_px)

    def set_theme(self, theme: str) -> None:
        """Draw the board in ``theme``'s palette ("light" or "dark"; called when the page
        reports its theme): every colour the board's build methods give (layout, fixed
        traces) is set again from :attr:`pal` (:func:`_recolor`: a message per trace whose
        colours change), then :attr:`on_retheme` draws the game's state (tokens, owners...)
        in it, in one update. The same theme again, or an unknown one, changes nothing."""
        if theme == self.theme or theme not in PALETTES:
            return
        self.theme, self.pal = theme, PALETTES[theme]
        game = self.game
        layout = self._full_layout(game)
        back = self.build_backdrop(game)
        if self.backdrop is not None and back is not None:
            _recolor(self.backdrop, readable(back, self.text_px), _backdrop_layout(layout))
            layout = _overlay_layout(layout)
        _recolor(self.figure, readable(self.build_data(game), self.text_px), layout)
        if self.on_retheme is not None:
            with self.figure.batch_update():
                self.on_retheme()

    # ----- building ---------------------------------------------------------------------
    def build_data(self, game) -> list:
        """The traces of the figure (default: one bar per player, their wallet in dollars)."""
        names, values = self._wallets(game)
        return [
            go.Bar(
                x=names,
                y=values,
                marker_color=[player_color(i) for i in range(len(names))],
                text=[money(v) for v in values],
                textposition="auto",
                customdata=list(range(len(names))),
                hoverinfo="x+text",
                name="wallets",
            )
        ]

    def build_backdrop(self, game) -> list | None:
        """Traces that never change (the track, its labels, the spaces), or ``None`` (the
        default) to draw everything in :attr:`figure`.

        When given, they go into :attr:`backdrop`, a second figure drawn once, with the
        layout's shapes and annotations; it answers hovers and clicks (make its traces
        clickable with ``self.clickable(i, self.backdrop)``). :attr:`figure` is then laid over
        it, see-through and deaf to the mouse (plotly's ``staticPlot``, and CSS
        ``pointer-events: none``): it holds only :meth:`build_data`'s traces, what moves, and
        a click on a highlighted target lands on the space under it. Why: plotly redraws every
        trace of a figure when one trace's points change, so a board that moves a token over
        100+ fixed markers and labels paid for all of them on every move. Measured with
        ``benchmarks/bench_board_render.py`` (Chromium, plotly.js only, ms per update): Moolah
        about 45 as one figure, 9 over a backdrop; Money Card 54 -> 8. Both figures share
        :meth:`build_layout`, so their axes line up exactly.
        """
        return None

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

    def build_layout(self, game) -> dict:
        """The figure layout (default: a plain, compact layout titled with the game)."""
        return dict(
            height=self.height,
            margin=dict(l=30, r=10, t=40, b=30),
            title=dict(text=f"{game.title}: money in wallets", x=0.5),
            showlegend=False,
            yaxis=dict(title="dollars", rangemode="tozero", gridcolor=self.pal["grid"]),
        )

    @staticmethod
    def _wallets(game) -> tuple[list[str], list[int]]:
        m = game.money()
        names = list(game.players)
        return names, [m.get(f"wallet:{p}", 0) for p in names]

    # ----- updating ---------------------------------------------------------------------
    def update(self, game, events) -> None:
        """Redraw for the state of ``game`` after ``events`` (called after every action)."""
        self.game = game
        names, values = self._wallets(game)
        with self.figure.batch_update():
            bar = self.figure.data[0]
            bar.y = values
            bar.text = [money(v) for v in values]
            turn = game.decision.player if game.decision is not None else None
            bar.marker.line = dict(
                width=[4 if i == turn else 0 for i in range(len(names))], color=self.pal["text"]
            )

    @staticmethod
    def shows_hidden(seat: int) -> bool:
        """True when this screen may show ``seat``'s hidden information: the words of a
        Language card it drew (Money Card), which Advantage card it drew (Moolah). The view
        sets it (issue 35, case 4): a live view only for the one person at its screen
        (a table seat's own browser, a game against bots), a replay for every seat. Default:
        no seat's (a board drawn before its view says whose screen it is)."""
        return False

    def event_text(self, game, event) -> str:
        """``event``'s log text as this screen may show it (see :meth:`shows_hidden`); the
        default is the engine's text (a board whose events carry hidden information
        overrides it)."""
        return event.text

    @staticmethod
    def owner(game, event) -> str:
        """The name of the player an event (a roll, a spin, a card drawn) belongs to, from the
        event's own ``seat``; "" when it names none. The dice, card and spinner show it, so
        they name the same player as the log line (issue 30, case 3)."""
        seat = event.data.get("seat")
        players = list(game.players)
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else ""

    def status(self, game) -> str:
        """A short status for the header, e.g. "Round 2 of 5" (default: the game's ``round``
        attribute if it has one)."""
        r = getattr(game, "round", None)
        return f"Round {r}" if isinstance(r, int) else ""

    def rewind(self, game) -> None:
        """Called by the view after an undo, just before ``update(game, game.log)`` replays the
        whole remaining log: forget cues of the undone actions. Default: every
        :class:`~moneynb.ui.cards.CardWidget` among :meth:`panels` goes blank, so it shows the
        last card the remaining log draws, or none."""
        from ..cards import CardWidget

        for w in self.panels():
            if isinstance(w, CardWidget):
                w.show("", "", animate=False)

    def score_text(self, score: int) -> str:
        """A player's score as the game-over line shows it (default: dollars)."""
        return money(score)

    #: text-only traces drawn on the board's tiles (the markers of its ``"spaces"`` trace,
    #: which keep their game colours in both themes), not on its background: their ink is
    #: ``pal["tile_ink"]`` (checked against the tiles, not the background, by the tests)
    TILE_TEXT: tuple[str, ...] = ()

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
