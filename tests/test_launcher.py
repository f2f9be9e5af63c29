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
    form.seed.value = 7
    form.autosave = False
    view = form.launch()
    assert view is not None and form.game_box.children == (view,)
    g = view.game
    assert g.name == "money_moves" and g.seed == 7
    assert g.players[0] == "Ann" and g.players[2] == "Bo" and g.players[1] == "Random bot 1"
    assert view.is_human(0) and not view.is_human(1) and view.is_human(2)


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
