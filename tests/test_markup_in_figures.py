"""Issue 26 item 1: no markup from a name, a house-rule file or a save reaches a plotly figure.

plotly draws a subset of HTML in titles, text labels, hover texts and legends: a player named
``<a href="https://e.vil/">Ann</a>`` became a real link in the board's title, and
``<span style="font-size:60px">Z</span>`` styled text. Here every player name and every text
field of every game's shipped data files that the game accepts holds markup; each board (and
its backdrop) over a game of random moves, and the replay chart, must hold no text in which
plotly would find a link or a styled span from that input. The escaping is one function,
:func:`moneynb.ui.boards.base.plot_text`.
"""

from __future__ import annotations

import random
import re
import tomllib
from importlib import resources

import pytest
import tomli_w

import moneynb
from moneynb.bots import random_action
from moneynb.core import DataFileError
from moneynb.ui.boards import board_for
from moneynb.ui.boards.base import plot_text
from moneynb.ui.replay import ReplayView

#: what plotly would turn into a link or styled text if it came through unescaped
LEAK = re.compile(r"<a[\s>]|<span[^>]*(60px|color:red)|<sup>evil", re.IGNORECASE)
NAMES = [
    '<a href="https://e.vil/">Ann</a>',
    '<span style="font-size:60px">Z</span>',
    "B&amp;<sup>evil</sup>",
    '<a href="//e.vil">C</a>',
]
#: appended to every text field of a data file
DATA_MARKUP = '<a href="//e">x</a><span style="color:red">y</span>'
#: (game, option naming a house-rule file, shipped file)
DATA_FILES = {
    "money_moves": [("data_file", "cards.toml")],
    "money_run": [("data_file", "setup.toml")],
    "easy_money": [("data_file", "board.toml"), ("cards_file", "cards.toml")],
    "money_card": [
        ("map_file", "map.toml"),
        ("spinner_file", "spinner.toml"),
        ("cards_file", "cards.toml"),
    ],  # fmt: skip
    "moolah": [("board_file", "board.toml"), ("cards_file", "cards.toml")],
}
GAMES = sorted(DATA_FILES)
STEPS = 50


def strings(x, path=""):
    """Every string in a plotly JSON tree, with where it is."""
    if isinstance(x, str):
        yield path, x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from strings(v, f"{path}.{k}")
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from strings(v, f"{path}[{i}]")


def leaks(fig) -> list[tuple[str, str]]:
    return [(p, s[:100]) for p, s in strings(fig.to_plotly_json()) if LEAK.search(s)]


def text_fields(doc, path=()):
    """Paths of every string value of a parsed TOML file, grouped by field (list positions
    as ``*``): ``{field: [paths]}``."""
    out: dict = {}

    def walk(x, p):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, (*p, k))
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, (*p, i))
        elif isinstance(x, str):
            out.setdefault(tuple("*" if type(q) is int else q for q in p), []).append(p)

    walk(doc, path)
    return out


def set_at(doc, path, value):
    for p in path[:-1]:
        doc = doc[p]
    doc[path[-1]] = value


def marked_files(name: str, tmp_path) -> tuple[dict, int]:
    """House-rule files for ``name`` with markup appended to every text field the game accepts
    so changed (an id, a kind or a colour it refuses stays as shipped): ``({option: path},
    number of fields marked)``."""
    options, marked = {}, 0
    for option, filename in DATA_FILES[name]:
        text = resources.files(f"moneynb.games.{name}").joinpath(filename).read_text("utf-8")
        doc = tomllib.loads(text)
        path = tmp_path / f"{name}-{option}.toml"
        for paths in text_fields(doc).values():
            trial = tomllib.loads(tomli_w.dumps(doc))
            for p in paths:
                old = trial
                for q in p:
                    old = old[q]
                set_at(trial, p, old + DATA_MARKUP)
            path.write_text(tomli_w.dumps(trial), encoding="utf-8")
            try:
                moneynb.new_game(
                    name, players=players(name), seed=1, **{**options, option: str(path)}
                )
            except DataFileError:
                continue  # an id or a kind: the game refuses it, so it never reaches a board
            doc, marked = trial, marked + 1
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
        options[option] = str(path)
    return options, marked


def players(name: str) -> list[str]:
    return NAMES[: min(moneynb.game_class(name).max_players, len(NAMES))]


def test_plot_text_escapes_what_plotly_reads():
    assert plot_text('<a href="x">A&B</a>') == "&lt;a href=&#34;x&#34;&gt;A&amp;B&lt;/a&gt;"
    assert plot_text("O'Neil") == "O&#39;Neil"  # plotly shows &quot; as typed: numeric only
    assert plot_text(7) == "7"


@pytest.mark.parametrize("name", GAMES)
def test_no_markup_from_names_or_data_reaches_a_board(name, tmp_path):
    options, marked = marked_files(name, tmp_path)
    assert marked > 0  # some text field of the game's data was marked up
    g = moneynb.new_game(name, players=players(name), seed=3, **options)
    board = board_for(g)
    rng = random.Random(1)
    found = set()
    for _ in range(STEPS):
        board.highlight(g.decision)
        for fig in (board.figure, board.backdrop):
            if fig is not None:
                found.update(leaks(fig))
        if g.over:
            break
        board.update(g, g.apply(random_action(g.decision, rng)))
    assert not found, f"{name}: {len(found)} texts with markup, e.g. {sorted(found)[:3]}"
    # the replay of that game: its board and its "where the game turned" chart (legend)
    view = ReplayView(g.to_json(), coach=False)
    for i in (0, view.replay.n // 2, view.replay.n):
        view.go(i)
        for fig in (view.chart_figure, view.board.figure, view.board.backdrop):
            if fig is not None:
                found.update(leaks(fig))
    assert not found, f"{name} replay: {sorted(found)[:3]}"
