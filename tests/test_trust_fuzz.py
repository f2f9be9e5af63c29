"""Issue 26: the fuzzing that found the trust-boundary bugs, run at a bounded size in CI.

Hypothesis with a fixed seed (``derandomize=True``, no example database) and a fixed number of
examples, over all five games, save files and house-rule board files:

* actions: random legal actions mixed with junk (wrong types, hostile objects, huge numbers,
  strings, nested lists): every junk action is an ``IllegalAction`` and changes nothing;
* names: arbitrary Unicode text as player names: a clear ``ValueError`` or a game whose names
  hold no control or format character and are distinct after NFC;
* saves: a real save cut, spliced, re-typed and BOM-prefixed: a ``SaveFileError`` or a game;
* rewired boards: Moolah's ``next`` and ``to`` and Money Card's routes pointed at random
  spaces: a ``DataFileError`` naming the file, or a game that plays on without an engine
  error (before issue 26: IndexError for a path into a dead end, RecursionError for a goto
  loop).

``COUNTS`` gathers how many cases each part tried; ``-s`` prints them.
"""

from __future__ import annotations

import json
import random
import tomllib
import unicodedata
from importlib import resources

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import moneynb
from moneynb.bots import random_action
from moneynb.core import DataFileError, IllegalAction, SaveFileError

GAMES = ["easy_money", "money_card", "money_moves", "money_run", "moolah"]
#: fixed seed and size: the same cases on every run
FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    max_examples=12,
)
COUNTS: dict[str, int] = {}


def count(what: str, n: int = 1) -> None:
    COUNTS[what] = COUNTS.get(what, 0) + n


class _Hostile:
    def __eq__(self, other):
        raise RuntimeError("hostile __eq__")

    __hash__ = object.__hash__


class _HostileStr(str):
    def __eq__(self, other):
        raise RuntimeError("hostile __eq__")

    def __hash__(self):
        raise RuntimeError("hostile __hash__")


JUNK = st.one_of(
    st.integers(-(10**20), 10**20),
    st.text(max_size=12),
    st.floats(allow_nan=True),
    st.none(),
    st.booleans(),
    st.lists(st.one_of(st.integers(-5, 20), st.text(max_size=4)), max_size=4),
    st.builds(_Hostile),
    st.builds(_HostileStr, st.just("roll")),
    st.just({"roll": 1}),
    st.just(b"roll"),
    st.recursive(st.integers(0, 9), lambda c: st.lists(c, max_size=3), max_leaves=20),
)


def players(name: str) -> list[str]:
    return ["Ann", "Bob", "Cy"] if moneynb.game_class(name).max_players >= 3 else ["Ann", "Bob"]


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(seed=st.integers(0, 10**6), junk=st.lists(JUNK, min_size=20, max_size=20))
def test_junk_actions_between_legal_ones_are_refused_and_change_nothing(name, seed, junk):
    g = moneynb.new_game(name, players=players(name), seed=seed)
    rng = random.Random(seed)
    for i, bad in enumerate(junk):
        if g.over:
            break
        before = g.state() if i % 5 == 0 else None  # a full comparison every fifth step
        n = len(g.actions)
        try:
            g.apply(bad)
        except IllegalAction:
            count("junk actions refused")
            assert len(g.actions) == n
            if before is not None:
                assert g.state() == before
        else:
            count("junk actions that were legal")  # e.g. an int that is a legal amount
        for _ in range(3):
            if not g.over:
                g.apply(random_action(g.decision, rng))
                count("legal actions")


@FUZZ
@given(names=st.lists(st.text(min_size=0, max_size=8), min_size=2, max_size=2))
def test_any_text_as_names_is_refused_clearly_or_kept_clean(names):
    count("name pairs")
    try:
        g = moneynb.new_game("money_moves", players=names, seed=1)
    except ValueError as e:
        assert str(e)
        return
    for p in g.players:
        assert unicodedata.is_normalized("NFC", p) and p.strip() == p and p
        assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in p)
    assert len(set(g.players)) == 2


def _save(name: str) -> str:
    g = moneynb.new_game(name, players=players(name), seed=4)
    rng = random.Random(4)
    for _ in range(30):
        if not g.over:
            g.apply(random_action(g.decision, rng))
    return g.to_json()


SAVES = {name: _save(name) for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.data())
def test_cut_spliced_and_retyped_saves(name, data):
    doc = json.loads(SAVES[name])
    acts = doc["actions"]
    how = data.draw(st.sampled_from(["cut", "splice", "junk", "swap", "bom"]))
    if how == "cut":
        doc["actions"] = acts[: data.draw(st.integers(0, len(acts)))]
    elif how == "splice":
        i = data.draw(st.integers(0, len(acts)))
        doc["actions"] = acts[:i] + acts[i:][::-1]
    elif how == "junk":
        i = data.draw(st.integers(0, max(0, len(acts) - 1)))
        doc["actions"][i:i] = [data.draw(JUNK.filter(lambda v: isinstance(v, (int, str, list))))]
    elif how == "swap":
        doc["players"] = doc["players"][::-1]
    text = json.dumps(doc)
    if how == "bom" or data.draw(st.booleans()):
        text = "\ufeff" + text
    raw = text.encode() if data.draw(st.booleans()) else text
    count(f"saves ({how})")
    try:
        g = moneynb.load_game(raw)
    except SaveFileError as e:
        assert str(e)
        return
    rng = random.Random(0)
    for _ in range(20):
        if not g.over:
            g.apply(random_action(g.decision, rng))


def _doc(name: str, filename: str) -> dict:
    return tomllib.loads(resources.files(f"moneynb.games.{name}").joinpath(filename).read_text())


MOOLAH_BOARD = _doc("moolah", "board.toml")
MONEY_CARD_MAP = _doc("money_card", "map.toml")


def _play_house_board(name: str, option: str, doc: dict, tmp_path_factory, what: str) -> None:
    path = tmp_path_factory.mktemp("house") / f"{name}.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    try:
        g = moneynb.new_game(name, players=players(name), seed=2, **{option: str(path)})
    except DataFileError as e:
        assert str(path) in str(e)  # the file is named
        count(f"{what} refused")
        return
    count(f"{what} played")
    rng = random.Random(2)
    for _ in range(150):
        if g.over:
            break
        g.apply(random_action(g.decision, rng))


@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_rewired_moolah_boards_are_refused_or_play(data, tmp_path_factory):
    doc = tomllib.loads(tomli_w.dumps(MOOLAH_BOARD))
    spaces = doc["space"]
    ids = [s["id"] for s in spaces]
    for _ in range(data.draw(st.integers(1, 3))):
        s = data.draw(st.sampled_from(spaces))
        if s["kind"] == "goto" and data.draw(st.booleans()):
            s["to"] = data.draw(st.sampled_from(ids))
        elif s["next"]:
            i = data.draw(st.integers(0, len(s["next"]) - 1))
            s["next"][i] = data.draw(st.sampled_from(ids))
    _play_house_board("moolah", "board_file", doc, tmp_path_factory, "moolah boards")


@settings(FUZZ, max_examples=20)
@given(data=st.data())
def test_rewired_money_card_maps_are_refused_or_play(data, tmp_path_factory):
    doc = tomllib.loads(tomli_w.dumps(MONEY_CARD_MAP))
    ids = [s["id"] for s in doc["space"]]
    routes = doc["routes"]
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(routes) - 1))
        if data.draw(st.booleans()):
            del routes[i]
        else:
            routes[i] = [routes[i][0], data.draw(st.sampled_from(ids))]
    _play_house_board("money_card", "map_file", doc, tmp_path_factory, "money card maps")


def test_zz_report_counts():
    """Prints what the fuzz tried (run with ``-s``); at least something of every kind."""
    print("\nissue 26 fuzz counts:", json.dumps(COUNTS, sort_keys=True))
    if len(COUNTS) >= 5:  # the whole module ran
        assert COUNTS.get("legal actions", 0) > 0 and COUNTS.get("junk actions refused", 0) > 0
