"""The app's start form as a class meets it (a newcomer's report after issues 25 and 30):
a double click starts one game, a reload after a game ended brings its final screen back,
the form shows the settings of the game under it, "Replay a saved game" follows the game,
and an amount box takes digits only.

Each test runs the real launcher on a real SQLite store (a temporary file) and clicks its
real ipywidgets buttons (``Button.click`` runs the same handlers as a click in the page).
"""

from __future__ import annotations

import pytest

import moneynb
from moneynb.store import open_store
from moneynb.ui.launcher import launcher

OWNER = "hub:ann"


@pytest.fixture
def store(tmp_path):
    return open_store(tmp_path / "games.sqlite3")


def _form(store, game="money_moves", restore=False):
    form = launcher(game, store=store, restore=restore)
    form._owner_known(OWNER)  # what the page's identity widget reports
    return form


def _play_out(view) -> None:
    bot = moneynb.make_bot("greedy", seed=0)
    for _ in range(5000):
        if view.game.over:
            return
        assert view.submit(bot.choose(view.game))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("button", ["start", "host_button"])
def test_a_double_click_on_start_or_host_makes_one_stored_game(store, button):
    form = _form(store)
    b = getattr(form, button)
    b.click()
    b.click()  # the second click of a double-click: the page sends both
    assert len(store.list_all()) == 1
    assert not form.start.disabled and not form.host_button.disabled  # usable again


def test_a_quick_start_after_choosing_another_game_starts_it(store):
    """A Start pressed within a double-click's time of the last game's start, after another
    game was chosen on the form, is a new request, not a double-click's second click (the
    keyboard accessibility test's Start for Moolah was dropped at idle, its Money Moves game
    having started a moment before)."""
    form = _form(store)
    form.count.value = 2
    form.start.click()
    assert form.view.game.name == "money_moves"
    form.chooser.value = next(v for _, v in form.chooser.options if v == "moolah")
    form.start.click()
    assert form.view.game.name == "moolah"
    assert len(store.list_all()) == 2


def test_a_reload_after_the_game_ended_shows_its_final_screen(store):
    first = _form(store)
    first.count.value = 2
    first.start.click()
    view = first.view
    _play_out(view)
    assert store.info(view.game_id).over
    again = _form(store, restore=True)  # the app after a reload: a new kernel, a new form
    assert again.view is not None and again.view.game_id == view.game_id
    assert again.view.game.over and "Game over" in again.view.header.value
    assert "has ended" in again.restored.value and "Welcome back" in again.restored.value
    assert again.replay_last.layout.display != "none"
    replay = again.replay_last.click() or again.replay_view
    assert replay is not None and again.game_box.children == (replay,)


def test_a_reload_still_continues_an_unfinished_game(store):
    first = _form(store)
    first.start.click()
    bot = moneynb.make_bot("greedy", seed=0)
    first.view.submit(bot.choose(first.view.game))
    again = _form(store, restore=True)
    assert again.view.game_id == first.view.game_id and not again.view.game.over
    assert "continues below" in again.restored.value


def test_the_form_shows_the_settings_of_the_game_brought_back(store):
    first = _form(store, game=None)
    first.chooser.value = "money_run"
    first.count.value = 2
    first.rows[0][0].value = "Ann"
    first.rows[1][1].value = "random bot"
    first.seed.value = "9"
    first.start.click()
    first.view.submit(moneynb.make_bot("greedy", seed=0).choose(first.view.game))
    again = _form(store, game=None, restore=True)  # defaults: Money Moves, 3 players, random
    assert again.view.game.name == "money_run"
    assert again.game_name == "money_run" and again.count.value == 2
    assert again.rows[0][0].value == "Ann" and again.rows[0][1].value == "person"
    assert again.rows[1][1].value == "random bot" and again.view.game.seed == 9
    assert again.seed.value == ""  # the next Start is a new random game, not this one again
    assert again.players() == ["Ann", "bot:random"]


def test_replay_list_follows_the_game_and_counts_in_words(store):
    form = _form(store)
    form.count.value = 2
    form.start.click()
    # a game still being played is not offered for replay (the tester's F1): once over it is
    assert form.view.game_id not in [v for _, v in form.replays.list.options]
    view = form.view
    view.submit(moneynb.make_bot("greedy", seed=0).choose(view.game))
    _play_out(view)
    label = form.replays.list.options[0][0]
    assert " · over · " in label and "unfinished" not in label, label
    from moneynb.ui.replay import saved_games

    one = moneynb.play("money_moves", players=["Bo", "bot:greedy"], seed=3, store=store,
                       owner=OWNER)  # fmt: skip
    one.submit(moneynb.make_bot("greedy", seed=0).choose(one.game))
    n = store.info(one.game_id).actions
    every = dict(finished_only=False)  # (the words of a game not over)
    text = dict((gid, t) for t, gid in saved_games(store, OWNER, **every))[one.game_id]
    assert f"· {n} action{'' if n == 1 else 's'} ·" in text
    store.truncate(one.game_id, n, 1, status={"over": False})
    text = dict((gid, t) for t, gid in saved_games(store, OWNER, **every))[one.game_id]
    assert "· 1 action ·" in text, text


@pytest.mark.parametrize("typed", ["1e5", "1E5", "2e4", "1e+3", "$1e5"])
def test_an_amount_in_powers_of_ten_is_refused_asking_for_digits(typed):
    from moneynb.ui.panels import AMOUNT_HELP, parse_amount, read_dollars

    value, why = read_dollars(typed)
    assert value is None and AMOUNT_HELP in why and "type whole dollars as digits" in why
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=7)
    before = g.to_json()
    value, message = parse_amount(typed, g.decision)
    assert value is None and "type whole dollars as digits" in message
    assert g.to_json() == before


NOTEBOOKS = __import__("pathlib").Path(__file__).resolve().parents[1] / "notebooks"


def _links(text: str) -> list[str]:
    import re

    return re.findall(r"\]\(([^)]+)\)", text)


@pytest.mark.parametrize(
    ("voila_url", "served"),
    [
        (None, "lab"),  # JupyterLab: no Voila variables in the kernel
        ("http://127.0.0.1:8866/voila/render/start_here.ipynb", "folder"),  # voila notebooks/
        ("https://hub.example/user/ann/voila/render/notebooks/start_here.ipynb", "folder"),
        ("http://127.0.0.1:8866/", "one"),  # voila notebooks/start_here.ipynb
    ],
)
def test_the_choose_a_game_links_stay_on_this_server(monkeypatch, voila_url, served):
    from moneynb.ui.launcher import PLAY_NOTEBOOKS, game_links

    for var in ("VOILA_KERNEL_ID", "VOILA_REQUEST_URL"):
        monkeypatch.delenv(var, raising=False)
    if voila_url is not None:
        monkeypatch.setenv("VOILA_KERNEL_ID", "k")
        monkeypatch.setenv("VOILA_REQUEST_URL", voila_url)
    text = game_links(NOTEBOOKS)
    links = _links(text)
    assert "mybinder" not in text and "://" not in "".join(links)
    if served == "one":  # the app serves this page only: no link would open
        # every game named, and no shell command on a page a student reads (issue 38)
        assert links == [] and "voila" not in text and "`" not in text
    else:
        assert links == [f"{n}.ipynb" for n in PLAY_NOTEBOOKS]
        assert ("as an app" in text) == (served == "folder")


def test_start_here_keeps_binder_links_apart_from_the_local_ones():
    import json

    nb = json.loads((NOTEBOOKS / "start_here.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"]]
    choose = next(i for i, c in enumerate(cells) if c.startswith("### Choose a game"))
    assert "mybinder" not in cells[choose] and "game_links()" in cells[choose + 1]
    binder = [c for c in cells if "mybinder.org" in c]
    assert len(binder) == 1 and binder[0].startswith("#### On Binder (for readers on GitHub)")


def test_a_person_named_like_a_bot_is_refused_and_no_game_starts(store):
    """A newcomer's finding: seat 3 typed "bot:greedy" with "plays as: person" became a greedy
    bot. The form refuses the name, says why, and starts nothing."""
    form = _form(store)
    name, kind = form.rows[2]
    kind.value = "person"
    name.value = "bot:greedy"
    form.start.click()
    assert store.list_all() == []
    assert form.view is None
    assert "how a bot is asked for" in form.error.value and "plays as" in form.error.value
    name.value = "Cy"  # another name: the game starts (a click later than a double-click's)
    form._done_at = float("-inf")
    form.start.click()
    assert len(store.list_all()) == 1 and form.view.game.players[2] == "Cy"


def test_a_game_the_form_replaced_takes_no_more_moves(store):
    """After Start shows another game, a late click on the old game's controls (still drawn
    for a moment) plays nothing and stores nothing (the tester's finding of 2026-12-06: the
    old Moolah game gained a roll, 28 actions stored while the page had shown 27). Fails
    without ``GameView.retire``."""
    form = _form(store)
    form.count.value = 2
    form.start.click()
    old = form.view
    gid, n = old.game_id, len(old.game.actions)
    bot = moneynb.make_bot("greedy", seed=0)
    late = bot.choose(old.game)
    form.seed.value = "5"  # another request: not a double-click of the first Start
    form.start.click()
    assert form.view is not old
    assert old.submit(late) is False and old.undo() is False
    old.continue_bots()
    assert len(old.game.actions) == n and store.info(gid).actions == n
    # the new game plays on
    assert form.view.submit(bot.choose(form.view.game))
