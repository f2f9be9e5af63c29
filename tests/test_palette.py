"""The boards' colours in a light and a dark theme (issue 30, case 6).

* every text role of a palette reaches 4.5:1 (WCAG 2.1 AA) on every background role it is
  drawn on (``base.TEXT_ON``), in both themes; a dark palette's backgrounds are dark;
* a board told by the page that the theme is dark (its figure's ``_moneynb_theme``, as the
  page's code sets it) draws every background from the dark palette and every text on it at
  4.5:1 or more, for all five games, and goes back to light; a board made while the page is
  dark starts dark.
"""

from __future__ import annotations

import pytest

import moneynb
from moneynb.ui.boards import base
from moneynb.ui.boards.base import PALETTES, TEXT_ON, contrast

GAMES = ("moolah", "easy_money", "money_card", "money_moves", "money_run")


def test_contrast_formula_gives_the_known_ratios():
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#1f77b4", "#212121") == pytest.approx(3.3, abs=0.05)


@pytest.mark.parametrize("theme", sorted(PALETTES))
def test_every_text_role_reads_on_every_background_it_is_drawn_on(theme):
    pal = PALETTES[theme]
    low = {
        f"{t} on {b}": round(contrast(pal[t], pal[b]), 2)
        for t, b in TEXT_ON
        if contrast(pal[t], pal[b]) < 4.5
    }
    assert not low, f"{theme}: text below 4.5:1: {low}"


def test_the_palettes_name_the_same_roles_and_dark_backgrounds_are_dark():
    assert set(PALETTES["light"]) == set(PALETTES["dark"])
    for role in ("paper", "plot", "field", "field_em"):
        assert base._luminance(PALETTES["dark"][role]) < 0.05, role
        assert base._luminance(PALETTES["light"][role]) > 0.8, role


def _fig_colors(board) -> dict:
    """The backgrounds (the backdrop's, if the board has one: the figure over it is
    see-through) and the texts drawn on them, ``(what, colour, background or None for the
    plot area)``: titles, annotations, text-only traces (a board's ``TILE_TEXT`` on the tile
    of the nearest space)."""
    figs = [f for f in (board.backdrop, board.figure) if f is not None]
    under = figs[0].layout
    spaces = [t for f in figs for t in f.data if t.name == "spaces"]
    texts = []
    for fig in figs:
        lay = fig.layout
        if lay.title.text:
            texts.append(("title", lay.title.font.color or lay.font.color, under.paper_bgcolor))
        for a in lay.annotations:
            texts.append((a.text, a.font.color or lay.font.color, None))
        for t in fig.data:
            if t.mode != "text" or not t.x:
                continue
            col = t.textfont.color or lay.font.color
            cols = [col] * len(t.x) if isinstance(col, str) else list(col)
            for x, y, c in zip(t.x, t.y, cols, strict=True):
                bg = None
                if t.name in board.TILE_TEXT:  # on the tile of the nearest space
                    sp = spaces[0]
                    i = min(range(len(sp.x)), key=lambda k: (sp.x[k] - x) ** 2 + (sp.y[k] - y) ** 2)
                    mc = sp.marker.color
                    bg = mc if isinstance(mc, str) else mc[i]
                texts.append((t.name, c, bg))
    return {"paper": under.paper_bgcolor, "plot": under.plot_bgcolor, "texts": texts}


def _check(board, theme: str) -> list[str]:
    c = _fig_colors(board)
    pal = PALETTES[theme]
    out = []
    if c["paper"] != pal["paper"]:
        out.append(f"paper {c['paper']} is not {theme}'s {pal['paper']}")
    lum = base._luminance(c["plot"])
    if (lum >= 0.2) if theme == "dark" else (lum <= 0.8):
        out.append(f"plot area {c['plot']} is not a {theme} background")
    for what, col, bg in c["texts"]:
        # titles on the paper, tile text on its tile, the rest on the plot area
        bg = bg or c["plot"]
        if col is None or contrast(col, bg) < 4.5:
            out.append(f"text {what!r} in {col} on {bg}")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_board_follows_the_theme_the_page_reports(game):
    v = moneynb.play(game, players=["Ann", "bot:greedy"], seed=5, autosave=False)
    b = v.board
    try:
        assert _check(b, "light") == []
        tokens_before = [list(t.x or ()) for t in b.figure.data]
        b.figure._moneynb_theme = "dark"  # what the page's code does in a dark page
        assert b.theme == "dark"
        assert _check(b, "dark") == []
        # the game's state is still drawn (tokens where they were)
        assert [list(t.x or ()) for t in b.figure.data] == tokens_before
        # a board made while the page is dark starts dark
        v2 = moneynb.play(game, players=["Ann", "bot:greedy"], seed=5, autosave=False)
        assert v2.board.theme == "dark" and _check(v2.board, "dark") == []
        b.figure._moneynb_theme = "light"
        assert _check(b, "light") == []
    finally:
        base._THEME["now"] = "light"


def test_an_unknown_theme_changes_nothing():
    v = moneynb.play("moolah", players=["Ann", "bot:greedy"], seed=5, autosave=False)
    v.board.figure._moneynb_theme = "sepia"
    assert v.board.theme == "light" and base.current_theme() == "light"
    with pytest.raises(ValueError, match="theme must be one of"):
        base.palette("sepia")


def test_seat_colours_as_text_read_on_every_tile_a_player_owns():
    from moneynb.games.easy_money.rules import OWNABLE
    from moneynb.ui.boards.base import PLAYER_TEXT_COLORS
    from moneynb.ui.boards.easy_money import KIND_COLOR

    low = [
        (c, kind, round(contrast(c, KIND_COLOR[kind]), 2))
        for c in PLAYER_TEXT_COLORS
        for kind in OWNABLE
        if contrast(c, KIND_COLOR[kind]) < 4.5
    ]
    assert not low


@pytest.mark.parametrize("game", GAMES)
def test_a_theme_switch_reaches_the_page_as_messages_plotly_accepts(game):
    """The switch's messages (colours, then the game's state drawn again, in one batch)
    never set an attribute and one inside it, which plotly.js refuses as a whole."""
    from test_board_messages import nested_keys, record

    from moneynb.ui.view import GameView

    view = GameView(moneynb.new_game(game, players=["Ann", "Bob"], seed=5))
    sent: list = []
    for fig in (f for f in (view.board.figure, view.board.backdrop) if f is not None):
        record(fig, sent)
    try:
        view.board.figure._moneynb_theme = "dark"
        view.board.figure._moneynb_theme = "light"
    finally:
        base._THEME["now"] = "light"
    assert len(sent) >= 2
    clashes = [
        (trait, *c)
        for trait, msg in sent
        for part in ("style_data", "restyle_data", "layout_data", "relayout_data")
        for c in nested_keys(msg.get(part) or {})
    ]
    assert clashes == []
