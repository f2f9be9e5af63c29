"""The plotly figure of a board, below the views (issue 39, case 9).

:class:`BoardDrawing` builds a game's board as plotly figures from the game's state: the
traces, layout, labels and colours a player sees. It imports plotly only (no ipywidgets,
no anywidget), so the env's pictures (:func:`moneynb.figures.board_figure`), the handouts
and the service's status text draw boards without loading a view. The board widgets of
:mod:`moneynb.ui.boards` extend each game's drawing with the ``FigureWidget``, the panels
and the clicks (``BoardRenderer``); both draw through the same methods, so a picture and a
live board look the same.

This module also holds what every board shares: the seat colours, the palettes of the two
themes, the board font's text measure and the placing of labels.
"""

from __future__ import annotations

import copy
import html
import unicodedata
from collections.abc import Callable
from typing import Any

import plotly.graph_objects as go

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


#: the text zooms a board is drawn at (see :meth:`BoardDrawing.set_text_zoom`): a board the
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
    **dict.fromkeys("CDHNRUw", 0.722), **dict.fromkeys("GOQ", 0.778), "+": 0.584, "−": 0.584,
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


def _is_sign(word: str) -> bool:
    """True for a word made of signs only ("♣", "🃏", "★": Unicode's symbol classes), which
    means nothing without the words after it."""
    return bool(word) and all(unicodedata.category(c)[0] == "S" for c in word)


def fit_text(text: str, max_px: float, size: float, bold: bool = False,
             keep_last: bool = False) -> str:  # fmt: skip
    """``text`` (plain, one line) as it fits in ``max_px`` at ``size`` px: whole, else its
    first words that fit (never ending on a sign cut from its words: issue 38), else cut
    with a "." (the caller keeps the full text in the hover
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
        if _is_sign(words[k - 1]):
            continue  # a sign cut from the words it marks ("owes $2, ♣" of "♣ PotLuck")
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
            value = built
            for part in key.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if value is None or (isinstance(value, (list, tuple)) and not len(value)):
                continue
            delta[key] = list(value) if isinstance(value, tuple) else value
        if delta:
            trace.update(delta)


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


class BoardDrawing:
    """A board as plotly figures; the default draws each player's wallet as a bar (a generic
    board).

    Subclasses override :meth:`build_data` / :meth:`build_layout` / :meth:`build_backdrop`
    (used by the constructor) and :meth:`update`. The figures are made by :meth:`new_figure`:
    a ``plotly.graph_objects.Figure`` here, the board's ``FigureWidget`` in
    :class:`moneynb.ui.boards.base.BoardRenderer`.

    Attributes:
        game: the :class:`~moneynb.core.Game` drawn.
        figure: the figure of what moves (tokens, titles), or the whole board.
        backdrop: the figure of what never moves, drawn under :attr:`figure` (``None`` when
            the board has none).
    """

    #: figure height in pixels
    height = 420

    #: the view's plain-English function for texts shown to people (second person for a
    #: person seated as "You"); the identity until a view attaches
    plain: Callable[[str], str] = staticmethod(lambda text: text)

    #: called by :meth:`set_theme` after the colours changed (set by the view: it draws the
    #: game's state again, in the new palette); ``None``: nothing more is drawn
    on_retheme: Callable[[], None] | None = None
    #: called by :meth:`set_text_zoom` after the text changed (set by the view: it draws the
    #: game's state again: tokens, owners, targets); ``None``: :attr:`on_retheme`
    on_rezoom: Callable[[], None] | None = None

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
        #: the theme drawn ("light" or "dark") and its colours by role (:data:`PALETTES`)
        self.theme = current_theme()
        self.pal = PALETTES[self.theme]
        layout = self._full_layout(game)
        back = self.build_backdrop(game)
        if back is not None:
            readable(back, self.text_px)
        #: the figure drawn once behind :attr:`figure` (``None`` when the board has none)
        self.backdrop = None
        config = {"displayModeBar": False}
        if back is not None:
            self.backdrop = self.new_figure(
                data=back, layout=_backdrop_layout(layout), config=config, carry_code=False
            )
            layout = _overlay_layout(layout)
            config = {"staticPlot": True, "displayModeBar": False}
        data = readable(self.build_data(game), self.text_px)
        self.figure = self.new_figure(data=data, layout=layout, config=config)

    def set_text_zoom(self, zoom: float) -> None:
        """Draw the board's text ``zoom`` times its size (one of :data:`TEXT_ZOOMS`; see
        :attr:`text_zoom`): the board is built again at that zoom and every trace and the
        layout take its texts, sizes and places (a message per trace, as for a theme), then
        :attr:`on_rezoom` (else :attr:`on_retheme`) draws the game's state, in one update. The same zoom again changes
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
        redraw = self.on_rezoom or self.on_retheme
        if redraw is not None:
            with self.figure.batch_update():
                redraw()

    def new_figure(self, data: list, layout: dict, config: dict, carry_code: bool = True):
        """A figure of ``data`` and ``layout``: a ``go.Figure`` (``config``, plotly.js's
        display options, and ``carry_code`` serve the board widget's figure only)."""
        return go.Figure(data=data, layout=layout)

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

    def score_text(self, score: int) -> str:
        """A player's score as the game-over line shows it (default: dollars)."""
        return money(score)

    def prompt_room(self, game, decision) -> str:
        """The longest prompt ``decision`` may have while it comes back with new amounts (an
        auction's bids), for the page to keep the prompt's room from the first one (the
        view draws it hidden under the prompt); "" (the default): the prompt's own room."""
        return ""

    #: text-only traces drawn on the board's tiles (the markers of its ``"spaces"`` trace,
    #: which keep their game colours in both themes), not on its background: their ink is
    #: ``pal["tile_ink"]`` (checked against the tiles, not the background, by the tests)
    TILE_TEXT: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.title})"
