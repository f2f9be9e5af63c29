"""App mode: the launcher form (moneynb.ui.launcher) builds games without Python typed."""

from __future__ import annotations

import pytest

from moneynb.core.registry import GAMES
from moneynb.ui.launcher import KINDS, launcher


def test_launcher_starts_each_game_with_the_chosen_players():
    form = launcher()
    names = [v for _, v in form.chooser.options]
    assert sorted(names) == sorted(GAMES)
    form.chooser.value = "money_moves"
    assert form.count.value == 3 and len(form.rows_box.children) == 3
    form.rows[0][0].value = "Ann"
    form.rows[1][1].value = "random bot"
    form.rows[2][1].value = "person"
    form.rows[2][0].value = "Bo"
    assert form.seed.value == "" and form.seed.placeholder == "random"  # issue 35, case 3
    form.seed.value = "7"  # a typed seed plays that game
    form.autosave = False
    view = form.launch()
    assert view is not None and form.game_box.children == (view,)
    g = view.game
    assert g.name == "money_moves" and g.seed == 7
    assert g.players[0] == "Ann" and g.players[2] == "Bo" and g.players[1] == "Random bot 1"
    assert view.is_human(0) and not view.is_human(1) and view.is_human(2)
    # a negative seed is refused in the form's words, with no game started (-7 would deal
    # seed 7's game under another number: the tester of stop 48)
    form.seed.value = "-7"
    assert form.launch() is None and "0 or more" in form.error.value
    assert form.game_box.children == (view,)
    # a seed too large for the store: refused in words, not a silent Start (the tester of
    # stop 49: 9223372036854775813 did nothing, and "below 2**64" read as code)
    form.seed.value = "9223372036854775813"
    assert form.launch() is None and "9,223,372,036,854,775,807" in form.error.value
    assert "**" not in form.error.value and form.game_box.children == (view,)


def test_launcher_fixed_game_hides_the_chooser_and_checks_names():
    form = launcher("moolah", autosave=False)
    assert form.chooser.layout.display == "none" and form.game_name == "moolah"
    form.count.value = 2
    assert len(form.rows_box.children) == 2
    form.rows[1][1].value = "person"
    form.rows[1][0].value = "You"
    assert form.launch() is None and "two people" in form.error.value
    form.rows[1][0].value = ""
    assert form.launch() is None and "needs a name" in form.error.value
    form.rows[1][1].value = "greedy bot"
    assert form.launch().game.players == ["You", "Greedy bot 1"]


@pytest.mark.parametrize(
    ("typed", "said"),
    [("you", "differ only in capitals"), ("  YOU ", "differ only in capitals"),
     ("Greedy bot 1", "what the game calls a bot"), ("random BOT 3", "what the game calls a bot"),
     ("Total", "a row of the money table"), ("LOAN SHARK", "a row of the money table"),
     ("Pot $500", "dollar sign"), ("\uff34\uff4f\uff54\uff41\uff4c", "a row of the money table"),
     ("\uff04500", "dollar sign"), ("Bot:Greedy", "how a bot is asked for")],
)  # fmt: skip
def test_a_name_that_reads_as_another_person_or_a_bot_is_refused(typed, said):
    """The tester of stop 48: "You" and "you" were seated as two people (the log's "you paid
    you" reads as one), and a person could be called "Greedy bot 1" (beside a real greedy
    bot renamed "Greedy bot 2"); the tester of stop 49: people called "Total" and "Pot $500"
    put a second Total row and a "Pot $500 $7" beside "Pot $0" in the money table. The form
    refuses each in one sentence, with no game started; a name that only contains such words
    is fine."""
    form = launcher("moolah", autosave=False)
    form.count.value = 3
    form.rows[1][1].value = "person"
    form.rows[1][0].value = typed
    form.rows[2][1].value = "greedy bot"
    assert form.launch() is None and said in form.error.value, form.error.value
    assert form.game_box.children == ()
    form.rows[1][0].value = "Greedy Bob 1"
    assert form.launch().game.players == ["You", "Greedy Bob 1", "Greedy bot 1"]


def test_launcher_rejects_unknown_game_and_offers_every_bot():
    with pytest.raises(ValueError, match="unknown game"):
        launcher("chess")
    assert list(KINDS) == ["person", "random bot", "greedy bot", "search bot"]


@pytest.mark.parametrize("name", [*sorted(GAMES), "start_here"])
def test_every_play_notebook_has_a_launcher_cell(name):
    """The app mode (``voila notebooks/<game>.ipynb``) needs the launcher cell in each notebook."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[1] / "notebooks" / f"{name}.ipynb").read_text())
    call = "launcher()" if name == "start_here" else f'launcher("{name}")'
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert any(call in src and "from moneynb.ui.launcher import launcher" in src for src in code)


def test_app_mode_follows_voilas_kernel_environment(monkeypatch):
    from moneynb.ui import app_mode

    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    monkeypatch.delenv("VOILA_REQUEST_URL", raising=False)
    assert app_mode() is False
    monkeypatch.setenv("VOILA_REQUEST_URL", "http://127.0.0.1:8866/voila/render/moolah.ipynb")
    assert app_mode() is True
    monkeypatch.delenv("VOILA_REQUEST_URL")
    monkeypatch.setenv("VOILA_KERNEL_ID", "abc")
    assert app_mode() is True


def test_search_bot_is_offered_only_where_it_is_quick():
    from moneynb.ui.launcher import SEARCH_BOT_GAMES, launcher

    form = launcher()
    for game in ("money_moves", "moolah", "easy_money", "money_card", "money_run"):
        form.chooser.value = game
        offered = list(form.rows[1][1].options)
        assert ("search bot" in offered) == (game in SEARCH_BOT_GAMES), game
    form.chooser.value = "money_run"
    form.rows[1][1].value = "search bot"
    form.chooser.value = "moolah"  # no search bot here: the seat falls back to a greedy bot
    assert form.rows[1][1].value == "greedy bot"


def test_bot_seats_show_the_names_the_game_gives_them():
    from moneynb.ui.launcher import launcher

    form = launcher("money_moves", autosave=False)
    (you, k0), (p2, k1), (p3, k2) = form.rows[:3]
    assert (p2.value, p2.disabled, p3.value, p3.disabled) == (
        "Greedy bot 1",
        True,
        "Greedy bot 2",
        True,
    )
    k1.value = "person"  # a person again: the box is editable with its own name back
    assert (p2.value, p2.disabled, p3.value) == ("Player 2", False, "Greedy bot 1")
    p2.value = "Greedy bot 1"  # a person named like a bot: the bot takes the next number
    k2.value = "random bot"
    assert p3.value == "Random bot 1"
    k2.value = "greedy bot"
    assert p3.value == "Greedy bot 2"
    # ... but the person is not seated under a bot's name (the tester of stop 48)
    assert form.launch() is None and "calls a bot" in form.error.value
    p2.value = "Greta"
    assert p3.value == "Greedy bot 1"
    view = form.launch()
    assert view.game.players == ["You", "Greta", "Greedy bot 1"]
