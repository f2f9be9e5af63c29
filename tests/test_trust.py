"""Trust boundaries (issue 15): house-rule data files and save files come from someone else.

* every field of every shipped data file, and of the save format, mutated (types, signs, huge
  values, fractions, long and empty strings, missing fields): the only errors are the
  documented ones (:class:`DataFileError` from ``new_game``, :class:`SaveFileError` from
  ``load_game``), and a file that is accepted gives a game that plays normally;
* the five failing inputs of the issue, as tests;
* the undo policy: in "safe" mode no sequence of undo and apply lets a person see a chance
  outcome and then change the decision it followed.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random
import re
import time
import tomllib
from fractions import Fraction
from importlib import resources

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import moneynb
from moneynb.bots import random_action
from moneynb.core import DataFileError, IllegalAction, SaveFileError

#: (game, option naming a house-rule file, the shipped file it replaces)
DATA_FILES = [
    ("money_moves", "data_file", "cards.toml"),
    ("money_run", "data_file", "setup.toml"),
    ("easy_money", "data_file", "board.toml"),
    ("easy_money", "cards_file", "cards.toml"),
    ("money_card", "map_file", "map.toml"),
    ("money_card", "spinner_file", "spinner.toml"),
    ("money_card", "cards_file", "cards.toml"),
    ("moolah", "board_file", "board.toml"),
    ("moolah", "cards_file", "cards.toml"),
]
PLAY_STEPS = 120  # random actions played with an accepted mutated file


def players(name: str) -> list[str]:
    return ["Ann", "Bob", "Cy"] if moneynb.game_class(name).max_players >= 3 else ["Ann", "Bob"]


def shipped(name: str, filename: str) -> dict:
    text = resources.files(f"moneynb.games.{name}").joinpath(filename).read_text("utf-8")
    return tomllib.loads(text)


def leaf_paths(doc, prefix=()):
    """Every path to a value in ``doc`` (containers included), parents first."""
    if prefix:
        yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from leaf_paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from leaf_paths(v, (*prefix, i))


def field_of(path: tuple) -> tuple:
    """The field a path belongs to: list positions become ``*`` (``card.*.count``)."""
    return tuple("*" if isinstance(p, int) else p for p in path)


def one_path_per_field(doc) -> list[tuple]:
    """The first path of every distinct field of ``doc`` (so each field is mutated)."""
    seen, out = set(), []
    for p in leaf_paths(doc):
        if field_of(p) not in seen:
            seen.add(field_of(p))
            out.append(p)
    return out


DELETE = object()


def mutations(value) -> list:
    """Replacement values for a field holding ``value``: wrong types, signs, huge values,
    fractions, long/empty/odd strings, containers; ``DELETE`` removes the field."""
    out = [DELETE, "x", 2.5, True, {"a": 1}, -1, 10**30]
    if type(value) is int:
        out += [-value, value + 0.5, 0]
    if type(value) is float:
        out += [-value, float("inf")]
    if isinstance(value, str):
        out += ["", "y" * 100_000, value + "?"]
    if isinstance(value, list):
        out += [[], value * 50]
    if isinstance(value, dict):
        out += [{}, {**value, "zzz": 1}]
    return out


def mutate(doc, path: tuple, new):
    out = copy.deepcopy(doc)
    parent = out
    for p in path[:-1]:
        parent = parent[p]
    if new is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return out


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


_counter = itertools.count()


def write_toml(tmp_path, doc) -> str:
    path = tmp_path / f"house{next(_counter)}.toml"
    path.write_bytes(tomli_w.dumps(doc).encode())
    return str(path)


def play_normally(g, steps: int = PLAY_STEPS, seed: int = 0) -> None:
    """Random legal actions: nothing but a normal game may happen (money is conserved)."""
    rng = random.Random(seed)
    total = sum(g.money().values())
    for _ in range(steps):
        if g.over:
            break
        g.apply(random_action(g.decision, rng))
        assert sum(g.money().values()) == total
    g.scores()


def try_data_file(name, option, path) -> str:
    """Start ``name`` with the house-rule file; returns "refused" or "played"."""
    try:
        g = moneynb.new_game(name, players=players(name), seed=5, **{option: path})
    except DataFileError as e:
        assert str(e)
        return "refused"
    play_normally(g)
    # the same file named by a save: only SaveFileError, or the same game
    doc = {**json.loads(g.to_json()), "actions": g.actions[:20]}
    moneynb.load_game(json.dumps(doc))
    return "played"


#: mutated cases run by the exhaustive test, per (game, file): the report's figure
COUNTS: dict = {}


@pytest.mark.parametrize(("name", "option", "filename"), DATA_FILES)
def test_every_field_of_every_data_file_mutated(name, option, filename, tmp_path):
    """Each field (the first place it occurs) of each shipped file, replaced by each value of
    :func:`mutations`: DataFileError or a normal game, nothing else."""
    doc = shipped(name, filename)
    outcomes = {"refused": 0, "played": 0}
    for path in one_path_per_field(doc):
        for new in mutations(get(doc, path)):
            bad = mutate(doc, path, new)
            try:
                outcomes[try_data_file(name, option, write_toml(tmp_path, bad))] += 1
            except Exception as e:  # noqa: BLE001 - the assertion names the case
                raise AssertionError(
                    f"{name}/{filename}: {'.'.join(map(str, path))} = {str(new)[:40]!r} "
                    f"raised {type(e).__name__}: {e}"
                ) from e
    COUNTS[(name, filename)] = outcomes
    print(f"{name}/{filename}: {sum(outcomes.values())} mutated cases {outcomes}")
    assert outcomes["refused"] > 0 and sum(outcomes.values()) > 10


@pytest.mark.parametrize(("name", "option", "filename"), DATA_FILES)
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_fields_of_data_files_mutated(name, option, filename, tmp_path_factory, data):
    """Hypothesis picks any place of any field (not only the first), one to three at once,
    and a mutation for each (or an arbitrary integer / text): the same contract."""
    doc = shipped(name, filename)
    paths = list(leaf_paths(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            old = get(doc, path)
            parent = get(doc, path[:-1])
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced its parent
        if not isinstance(parent, (dict, list)):
            continue  # its parent was replaced by text (indexing a string still "works")
        new = data.draw(
            st.one_of(
                st.sampled_from(mutations(old)),
                st.integers(-(10**40), 10**40),
                st.text(max_size=30),
            )
        )
        doc = mutate(doc, path, new)
    tmp = tmp_path_factory.mktemp("house")
    try_data_file(name, option, write_toml(tmp, doc))


def sample_save(name: str) -> dict:
    """A save of ``name`` after 25 random actions (a fresh copy each call)."""
    return json.loads(_sample_save_text(name))


@functools.cache
def _sample_save_text(name: str) -> str:
    g = moneynb.new_game(name, players=players(name), seed=3)
    rng = random.Random(3)
    for _ in range(25):
        if not g.over:
            g.apply(random_action(g.decision, rng))
    return g.to_json()


def try_save(text: str) -> str:
    try:
        g = moneynb.load_game(text)
    except SaveFileError as e:
        assert str(e)
        return "refused"
    play_normally(g, steps=40)
    return "played"


@pytest.mark.parametrize("name", moneynb.GAMES)
def test_every_field_of_the_save_format_mutated(name):
    doc = sample_save(name)
    outcomes = {"refused": 0, "played": 0}
    paths = one_path_per_field(doc)
    paths += [("options", k) for k in doc["options"] if ("options", k) not in paths]
    for path in paths:
        for new in mutations(get(doc, path)):
            try:
                outcomes[try_save(json.dumps(mutate(doc, path, new)))] += 1
            except Exception as e:  # noqa: BLE001
                raise AssertionError(
                    f"save of {name}: {'.'.join(map(str, path))} = {str(new)[:40]!r} "
                    f"raised {type(e).__name__}: {e}"
                ) from e
    COUNTS[(name, "save")] = outcomes
    print(f"{name} save: {sum(outcomes.values())} mutated cases {outcomes}")
    assert outcomes["refused"] > 0 and outcomes["played"] > 0


@pytest.mark.parametrize("name", moneynb.GAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_fields_of_save_files_mutated(name, data):
    """Hypothesis picks any place of a save (any action, any option), one to three at once:
    SaveFileError or a game that plays normally."""
    doc = sample_save(name)
    doc["options"] = {**moneynb.game_class(name).default_options, **doc["options"]}
    paths = list(leaf_paths(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        try:
            old = get(doc, path)
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(get(doc, path[:-1]), (dict, list)):
            continue  # an earlier draw turned the container into a string or a number
        new = data.draw(
            st.one_of(
                st.sampled_from(mutations(old)),
                st.integers(-(10**40), 10**40),
                st.text(max_size=30),
                st.lists(st.integers(-5, 50), max_size=3),
            )
        )
        doc = mutate(doc, path, new)
    try_save(json.dumps(doc))


# ----- the five failing inputs of the issue ------------------------------------------------------
def test_issue_1_player_names_are_bounded():
    with pytest.raises(ValueError, match="at most 40 characters"):
        moneynb.new_game("money_moves", players=["A" * 41, "Bob"])
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match="at most 40 characters"):
        moneynb.new_game("money_moves", players=["A" * 10_000_000, "Bob"])
    assert moneynb.new_game("money_moves", players=["A" * 40, "Bob"]).players[0] == "A" * 40
    doc = json.loads(moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1).to_json())
    doc["players"][0] = "N" * 10_000_000
    with pytest.raises(SaveFileError, match=r"players\[0\].*1 to 40 characters"):
        moneynb.load_game(json.dumps(doc))
    print(f"two 10 MB names refused in {time.perf_counter() - t0:.2f} s")


DECK_COUNTS = [  # (game, option, file, path of a deck count)
    ("easy_money", "cards_file", "cards.toml", ("card", 0, "count")),
    ("money_moves", "data_file", "cards.toml", ("card", 0, "count")),
    ("money_run", "data_file", "setup.toml", ("coins", 0, "count")),
    ("moolah", "cards_file", "cards.toml", ("casino", "14")),
]


@pytest.mark.parametrize(("name", "option", "filename", "path"), DECK_COUNTS)
def test_issue_2_deck_count_of_10_to_the_30_is_refused_at_once(
    name, option, filename, path, tmp_path
):
    bad = write_toml(tmp_path, mutate(shipped(name, filename), path, 10**30))
    field = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path)
    field = field.replace(".[", "[")
    with pytest.raises(
        DataFileError, match=rf"{re.escape(bad)}: {re.escape(field)} = .*from 1 to 300"
    ) as err:
        moneynb.new_game(name, players=players(name), **{option: bad})
    assert err.value.file == bad and err.value.field == field
    # named by a small save file: load_game returns at once with one SaveFileError
    g = moneynb.new_game(name, players=players(name), seed=1)
    doc = {**json.loads(g.to_json()), "options": {option: bad}}
    assert len(json.dumps(doc)) < 400
    with pytest.raises(SaveFileError, match=r"from 1 to 300"):
        moneynb.load_game(json.dumps(doc))


def test_issue_3_money_moves_negative_starting_money_is_a_save_file_error(tmp_path):
    bad = write_toml(
        tmp_path, mutate(shipped("money_moves", "cards.toml"), ("starting_money",), -7)
    )
    g = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=1)
    doc = {**json.loads(g.to_json()), "options": {"data_file": bad}}
    with pytest.raises(SaveFileError, match=r"starting_money = -7: .*from 0 to 1,000"):
        moneynb.load_game(json.dumps(doc))


@pytest.mark.parametrize(
    ("path", "value", "allowed"),
    [
        (("bonus",), -250, "from 0 to 10,000"),
        (("traffic_fine",), -10, "from 0 to 10,000"),
        (("space", 1, "B"), 2.5, "whole number of dollars from 1 to 100,000"),
        (("space", 2, "amount"), 2.5, "whole number of dollars from 0 to 100,000"),
    ],
)
def test_issue_3_easy_money_negative_or_fractional_amounts_are_refused(
    path, value, allowed, tmp_path
):
    bad = write_toml(tmp_path, mutate(shipped("easy_money", "board.toml"), path, value))
    with pytest.raises(DataFileError, match=allowed):
        moneynb.new_game("easy_money", players=["Ann", "Bob"], data_file=bad)


def casino_bet_pending(cards_file: str = "", seed: int = 1):
    """A Moolah game (random play) stopped where a Black Jack bet is asked."""
    g = moneynb.new_game(
        "moolah", players=["Ann", "Bob"], seed=seed, cards_file=cards_file, chance_streams=1
    )  # the seed's play as found before issue 39
    rng = random.Random(0)
    for _ in range(5000):
        if g.over or g.decision.tag == "casino_bet":
            break
        g.apply(random_action(g.decision, rng))
    assert g.decision is not None and g.decision.tag == "casino_bet"
    return g


def test_issue_4_black_jack_with_one_card_left_draws_the_house_card_from_the_discards(tmp_path):
    from moneynb.coach import coach
    from moneynb.games.moolah.rules import closer

    cards = shipped("moolah", "cards.toml")
    cards["casino"]["27"] = 1  # a 39-card house-rule pile
    assert sum(cards["casino"].values()) == 39
    g = casino_bet_pending(write_toml(tmp_path, cards))
    # one card left in the pile: the rest lies face up on the discard pile
    g.casino.discard_pile.extend(g.casino.draw_pile[1:])
    del g.casino.draw_pile[1:]
    last, discards = g.casino.draw_pile[0], list(g.casino.discard_pile)
    c = coach(g)  # was ValueError "the pile has no card left for the House"
    p_win = Fraction(sum(closer(last, h) for h in discards), len(discards))
    low = g.decision.low  # the coach values each bet with the raise the engine allows
    edge = 2 * p_win - 1
    raise_to = min(2 * low, g.cash(g.decision.player))
    assert c.numbers[low] == max(low * edge, raise_to * edge)
    # what the game then does: the player gets the last card, the House one of the discards
    g.apply(g.decision.low)
    assert g.ctx["card"] == last and not g.casino.draw_pile
    if g.decision is not None and g.decision.tag == "casino_raise":
        assert coach(g).numbers["p_win"] == p_win
        g.apply("stay")
    assert g.ctx["house"] in discards


# ----- undo -----------------------------------------------------------------------------
def test_issue_5_undo_cannot_peek_at_a_black_jack_card():
    """Moolah's Black Jack: bet, see your card, Undo, bet again knowing it: refused."""
    g = casino_bet_pending()
    n = len(g.actions)
    g.apply(g.decision.low)  # the smallest bet: a card is dealt
    with pytest.raises(IllegalAction, match="cannot undo past a die, spin or card"):
        g.undo()
    assert len(g.actions) == n + 1
    # in practice mode the same undo is allowed (and documented as exploring, not playing)
    p = moneynb.load_game(
        json.dumps({**json.loads(g.to_json()), "options": {**g.options, "undo": "practice"}})
    )
    p.undo()
    assert len(p.actions) == n


def chance_revealed(g, action) -> bool:
    """Independent oracle: does ``action`` show chance? Apply it to two copies whose hidden
    chance differs (another generator state, every deck's draw pile re-ordered): if what
    happens differs, the action revealed something the player did not know."""
    from moneynb.core.chance import Deck

    def shake(game, seed):
        game.rng.seed(seed)
        for v in vars(game).values():
            for d in v.values() if isinstance(v, dict) else [v]:
                if isinstance(d, Deck):
                    random.Random(seed).shuffle(d.draw_pile)

    outs = []
    for seed in (101, 202, 303):
        c = g.copy()
        shake(c, seed)
        outs.append([e.text for e in c.apply(action)])
    return any(o != outs[0] for o in outs)


@pytest.mark.parametrize("name", moneynb.GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(ops=st.lists(st.integers(0, 9), min_size=10, max_size=80), seed=st.integers(0, 30))
def test_safe_undo_never_changes_a_decision_after_its_chance_was_seen(name, ops, seed):
    """Random interleavings of apply and undo (0-2 = undo, else apply a random legal action):
    once an action's outcome showed chance (by the independent oracle), the actions up to it
    never change again."""
    g = moneynb.new_game(name, players=players(name), seed=seed)
    rng = random.Random(seed)
    frozen: list = []  # the prefix of actions that chance already followed
    for op in ops:
        if op <= 2:
            try:
                g.undo()
            except IllegalAction:
                pass
        elif not g.over:
            action = random_action(g.decision, rng)
            seen = chance_revealed(g, action)
            g.apply(action)
            if seen:
                frozen = list(g.actions)
        assert g.actions[: len(frozen)] == frozen


def test_undo_policy_option_is_checked_and_saved():
    with pytest.raises(ValueError, match="'safe' or 'practice'"):
        moneynb.new_game("money_moves", players=["A", "B"], undo="peek")
    g = moneynb.new_game("money_moves", players=["A", "B"], seed=1, undo="practice")
    assert moneynb.load_game(g.to_json()).options["undo"] == "practice"
    assert moneynb.new_game("money_moves", players=["A", "B"]).options["undo"] == "safe"


# ----- the view never shows a traceback -------------------------------------------------------
def test_view_turns_an_engine_error_into_a_message_and_a_bug_report(tmp_path):
    pytest.importorskip("ipywidgets")
    view = moneynb.play("money_moves", players=["Ann", "Bob"], seed=1, store=tmp_path / "s.db")
    g = view.game
    before, n = g.state(), len(g.log)

    def broken(action):  # an engine bug half-way through an action: money already moved
        g.ledger.transfer("House Bank", f"wallet:{g.players[0]}", 5, "bug")
        raise RuntimeError("engine bug")

    g._apply = broken
    action = g.legal_actions()[0]
    assert view.submit(action) is False  # no traceback reaches the notebook
    assert view.game.state() == before and len(view.game.log) == n  # the last good state
    assert "Something went wrong" in view.error.value and "engine bug" in view.error.value
    assert "moneynb-log-engine-error" in view.log_html.value
    assert len(view.bug_reports) == 1 and list(tmp_path.glob("bug-*")) == []  # no files
    text = view.bug_reports[0]
    assert "RuntimeError: engine bug" in text and "Traceback" in text
    assert moneynb.load_game(text.split("(moneynb.load_game):\n", 1)[1]).state() == before
    assert view.submit(action) is True  # the game goes on (the bug was on that instance only)


@pytest.mark.parametrize(
    ("name", "option", "filename", "path", "value", "message"),
    [
        ("moolah", "cards_file", "cards.toml", ("temptation", 16, "to"), "nowhere", "unknown"),
        ("money_card", "map_file", "map.toml", ("starts", 0), "paris2", "not a key city"),
        ("money_run", "data_file", "setup.toml", ("seats", 0, "goal_line"), 0, "on its goal"),
    ],
)
def test_consistency_errors_name_the_house_rule_file(
    name, option, filename, path, value, message, tmp_path
):
    """Beyond the schema, the rules' own checks (cross-references) also name the file given."""
    bad = write_toml(tmp_path, mutate(shipped(name, filename), path, value))
    with pytest.raises(DataFileError, match=rf"^data file {re.escape(bad)} \({filename}\): ") as e:
        moneynb.new_game(name, players=players(name), **{option: bad})
    assert message in str(e.value) and e.value.file == bad
