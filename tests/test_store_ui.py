"""Views on the store (issue 25, cases 1-2, and store failures): two kernels resuming one game
never lose a move; a store that fails leaves the game on screen equal to the stored one, with
one clear message. Real SQLite and PostgreSQL (tests/pgserver.py), no mocks."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("ipywidgets")

import moneynb  # noqa: E402
from moneynb.store import open_store  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [REPO, env.get("PYTHONPATH")]))
    return env


def _move(view):
    """Answer the pending person's decision the way the greedy bot would."""
    bot = moneynb.make_bot("greedy", seed=len(view.game.actions))
    return view.submit(bot.choose(view.game))


def test_two_kernels_resuming_one_game_never_lose_a_move(tmp_path):
    """Issue 25, case 2: two kernels resumed one save and the last writer won (3 moves lost).
    Here a second process plays the stored game on; this kernel's next move conflicts, is
    not stored, and the view says so and shows the stored game."""
    loc = str(tmp_path / "s.sqlite3")
    store = open_store(loc)
    a = moneynb.play("moolah", players=["Ann", "Bob"], seed=4, store=store, owner="hub:ann")
    for _ in range(4):
        assert _move(a)
    gid = a.game_id
    # another kernel (a process of its own) resumes the same game and makes 3 moves
    code = textwrap.dedent(f"""
        import moneynb
        b = moneynb.play("moolah", resume={gid!r}, store={loc!r}, owner="hub:ann")
        for _ in range(3):
            bot = moneynb.make_bot("greedy", seed=len(b.game.actions))
            assert b.submit(bot.choose(b.game)), b.error.value
        print(len(b.game.actions))
    """)
    out = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True,
                         text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    theirs = int(out.stdout.split()[-1])
    stored_before = store.read(gid)
    assert store.count(gid) == theirs == len(a.game.actions) + 3
    # this kernel, behind, moves: the store refuses it; nothing of it is written
    assert _move(a) is False
    assert "played on in another window or kernel" in a.error.value
    assert store.read(gid) == stored_before  # their 3 moves are all there
    assert a.game.to_json() == stored_before  # the view shows the stored game
    assert "showing the saved game" in a.save_label.value
    # and plays on from there
    assert _move(a) and store.read(gid) == a.game.to_json()
    assert store.count(gid) > theirs


def test_a_store_that_goes_down_takes_the_move_back_and_says_so(postgres):
    """A database that is down: one clear message at the control, the game on screen equal
    to the stored game, and the save label telling the truth about the last save; when the
    database is back, the game plays on."""
    store = open_store(postgres.new_database(), fresh=True)
    v = moneynb.play("money_moves", players=["Ann", "bot:greedy"], seed=2, store=store,
                     owner="hub:ann")  # fmt: skip
    assert _move(v)
    saved = store.read(v.game_id)
    n = len(v.game.actions)
    postgres.stop()
    try:
        assert _move(v) is False
        assert "could not be saved" in v.error.value and "taken back" in v.error.value
        assert v.game.to_json() == saved and len(v.game.actions) == n
        label = v.save_label.value
        assert "not saved" in label and f"last saved: action {n}" in label
    finally:
        postgres.start()
    assert _move(v)
    assert store.read(v.game_id) == v.game.to_json() and len(v.game.actions) > n
    assert "saved automatically" in v.save_label.value
    store.close()


def test_a_store_that_cannot_be_created_leaves_the_game_playable_and_says_so(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    v = moneynb.play("moolah", players=["Ann", "bot:greedy"], seed=1,
                     store=blocked / "games.sqlite3")  # fmt: skip
    assert v.game_id is None and "not saved" in v.save_label.value
    assert "a-file" in v.save_label.value and "this game is not saved" in v.save_label.value
    assert _move(v)  # the game goes on, unsaved, and says so
    assert "not saved" in v.save_label.value
