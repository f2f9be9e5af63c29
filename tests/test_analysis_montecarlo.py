"""Tests of moneynb.analysis.montecarlo: seeded whole-game simulation, workers and Dask."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

import moneynb
from moneynb.analysis.markov import TrackModel
from moneynb.analysis.montecarlo import _cpus as montecarlo_cpus
from moneynb.analysis.montecarlo import game_seeds, play_one, simulate, simulate_tokens

PLAYERS = ["greedy", "random", "greedy"]


def test_simulate_table_shape_and_contents():
    df = simulate("money_moves", PLAYERS, n_games=20, seed=5, progress=False)
    assert list(df.index) == list(range(20))
    names = ["greedy1", "random2", "greedy3"]
    for col in ["seed", "winner", "winners", "actions", "turns"]:
        assert col in df.columns
    for n in names:
        assert f"money_{n}" in df.columns and f"score_{n}" in df.columns
    assert (df["actions"] > 0).all() and (df["turns"] >= 1).all()
    assert set(df["winner"].dropna()) <= set(names)
    # each row replays: the same seeds give the same game
    seeds = game_seeds(5, 20, 3)
    again = play_one("money_moves", PLAYERS, *seeds[7])["row"]
    assert again["seed"] == df.loc[7, "seed"]
    assert again["actions"] == df.loc[7, "actions"]
    assert again["winners"] == df.loc[7, "winners"]


def test_simulate_is_seeded():
    a = simulate("money_moves", PLAYERS, n_games=10, seed=1, progress=False)
    b = simulate("money_moves", PLAYERS, n_games=10, seed=1, progress=False)
    c = simulate("money_moves", PLAYERS, n_games=10, seed=2, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert not a["seed"].equals(c["seed"])


def test_simulate_same_table_for_one_and_two_workers():

    one = simulate("money_moves", PLAYERS, n_games=40, seed=11, workers=1, progress=False)
    two = simulate("money_moves", PLAYERS, n_games=40, seed=11, workers=2, progress=False)
    pd.testing.assert_frame_equal(one, two)


def test_simulate_per_turn_rows():
    games, turns = simulate("money_moves", PLAYERS, n_games=3, seed=4, per_turn=True,
                            progress=False)  # fmt: skip
    assert set(turns["game"]) == {0, 1, 2}
    last = turns.groupby("game").tail(1).set_index("game")
    for n in ["greedy1", "random2", "greedy3"]:
        assert (last[f"money_{n}"] == games[f"money_{n}"]).all()


def test_simulate_on_a_dask_local_cluster_matches_local_run():
    distributed = pytest.importorskip("dask.distributed")
    local = simulate("money_moves", PLAYERS, n_games=12, seed=21, progress=False)
    with (
        distributed.LocalCluster(
            n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = simulate("money_moves", PLAYERS, n_games=12, seed=21, client=client,
                          progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(local, remote)


def test_simulate_bad_arguments():
    with pytest.raises(ValueError, match="unknown game"):
        simulate("chess", PLAYERS, n_games=1, progress=False)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate("money_moves", ["greedy", "genius"], n_games=1, progress=False)
    with pytest.raises(ValueError, match="workers"):
        simulate("money_moves", PLAYERS, n_games=1, workers=0, progress=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"chunk_size": -1}, "chunk_size"),  # used to return an empty table silently
        ({"chunk_size": 0}, "chunk_size"),
        ({"n_games": 2.5}, "n_games"),
        ({"n_games": "3"}, "n_games"),
        ({"n_games": True}, "n_games"),
        ({"workers": 1.5}, "workers"),
        ({"seed": 1.5}, "seed"),
        ({"seed": -1}, "seed"),
        ({"options": [1]}, "options"),
        ({"players": "greedy"}, "players"),
        ({"players": [1, 2]}, "players"),
    ],
)
def test_simulate_ill_typed_arguments_raise_value_error(kwargs, message):
    args = {"players": PLAYERS, "n_games": 2, "progress": False, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate("money_moves", **args)


def test_simulate_takes_numpy_ints():
    table = simulate("money_moves", PLAYERS, n_games=np.int64(2), seed=np.int64(3), progress=False)
    assert len(table) == 2


def test_top_level_simulate_forwards():
    df = moneynb.simulate("money_moves", PLAYERS, n_games=3, seed=5, progress=False)
    pd.testing.assert_frame_equal(df, simulate("money_moves", PLAYERS, n_games=3, seed=5,
                                               progress=False))  # fmt: skip


def test_simulate_tokens_records():
    chain = TrackModel(12, dice=(moneynb.core.chance.D6,)).compile()
    path = simulate_tokens(chain, 1000, 5, seed=1, record="path")
    assert path.shape == (6, 1000)
    steps = (path[1:] - path[:-1]) % 12
    assert steps.min() >= 1 and steps.max() <= 6
    spaces = simulate_tokens(chain, 1000, 5, seed=1, record="spaces")
    assert spaces.sum() == 5000
    np.testing.assert_array_equal(np.bincount(path[1:].ravel(), minlength=12), spaces)
    with pytest.raises(ValueError):
        simulate_tokens(chain, 10, 1, record="everything")


def test_per_turn_rows_carry_every_account_and_conserve_money():
    games, turns = simulate("money_moves", PLAYERS, n_games=4, seed=9, per_turn=True,
                            progress=False)  # fmt: skip
    money = [c for c in turns.columns if c.startswith(("money_", "account_"))]
    assert "account_Pot" in turns.columns and "game_turn" in turns.columns
    totals = turns[money].sum(axis=1)
    assert (totals == 0).all()  # the House Bank's negative balance is what the players hold


class _FirstOptionBot(moneynb.bots.Bot):
    """Always the first listed option (a bot a student might register in a notebook)."""

    kind = "first"

    def choose(self, game):
        d = game.decision
        return d.options[0] if d.options else d.low


@pytest.mark.skipif(
    montecarlo_cpus() < 2, reason="one core: simulate plays every game in this process"
)
def test_warm_workers_see_a_bot_registered_after_they_started(monkeypatch):
    from moneynb.analysis import montecarlo
    from moneynb.bots import BOTS

    simulate("money_run", ["greedy", "greedy"], n_games=4, seed=1, workers=2, progress=False)
    pool = montecarlo._POOLS[2][1]
    BOTS["first_option"] = _FirstOptionBot
    try:
        players = ["first_option", "greedy"]
        one = simulate("money_run", players, n_games=6, seed=3, workers=1, progress=False)
        two = simulate("money_run", players, n_games=6, seed=3, workers=2, progress=False)
        pd.testing.assert_frame_equal(one, two)
        assert montecarlo._POOLS[2][1] is not pool  # a new pool that knows the new bot
        again = simulate("money_run", players, n_games=6, seed=3, workers=2, progress=False)
        pd.testing.assert_frame_equal(one, again)
    finally:
        del BOTS["first_option"]
        montecarlo.shutdown_workers()
    assert not montecarlo._POOLS


def test_simulate_plays_with_fewer_gc_passes_and_restores_the_thresholds():
    import gc

    from moneynb.analysis import montecarlo as mc

    before = gc.get_threshold()
    seen = []

    class Peek(moneynb.bots.GreedyBot):
        def choose(self, game):
            seen.append(gc.get_threshold()[0])
            return super().choose(game)

    moneynb.bots.BOTS["peek_gc"] = Peek
    try:
        mc.simulate("money_run", ["peek_gc", "greedy"], n_games=2, progress=False)
    finally:
        del moneynb.bots.BOTS["peek_gc"]
    assert seen and min(seen) >= mc.GC_THRESHOLD_WHILE_PLAYING
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), mc._fewer_gc_passes():
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before


def test_simulate_keep_games_saves_each_game_for_replay(monkeypatch):

    plain = simulate("moolah", ["greedy", "random"], n_games=4, seed=3, progress=False)
    kept = simulate("moolah", ["greedy", "random"], n_games=4, seed=3, progress=False,
                    keep_games=True)  # fmt: skip
    # the table is the same, with one more column
    pd.testing.assert_frame_equal(kept.drop(columns="save"), plain)
    for i in kept.index:
        g = moneynb.load_game(kept.loc[i, "save"])
        assert g.over and g.seed == kept.loc[i, "seed"]
        assert len(g.actions) == kept.loc[i, "actions"]
        assert g.winner_names == kept.loc[i, "winners"].split(",")
        assert all(g.scores()[n] == kept.loc[i, f"score_{n}"] for n in g.players)
    # a row replays, and its last step is the game's end
    r = moneynb.Replay(kept.loc[2])
    assert r.n == kept.loc[2, "actions"]
    assert r.state(r.n).to_json() == kept.loc[2, "save"]
    # workers give the same saves
    two = simulate("moolah", ["greedy", "random"], n_games=4, seed=3, progress=False,
                   keep_games=True, workers=2)  # fmt: skip
    pd.testing.assert_frame_equal(two, kept)


def test_simulate_keep_games_must_be_a_bool():
    with pytest.raises(ValueError, match="keep_games must be True or False"):
        simulate("moolah", ["greedy", "random"], n_games=1, keep_games="yes", progress=False)


class _WhereBot(moneynb.bots.GreedyBot):
    """Greedy; writes the id of the process that plays each of its games to a file."""

    kind = "where"
    path = None

    def choose(self, game):
        if not game.actions:
            with open(_WhereBot.path, "a") as f:
                f.write(f"{os.getpid()}\n")
        return super().choose(game)


@pytest.mark.skipif(
    montecarlo_cpus() < 2, reason="one core: simulate plays every game in this process"
)
def test_with_workers_this_process_keeps_playing(monkeypatch, tmp_path):
    """workers=2: one worker process and this one play (this one does not wait idle)."""
    from moneynb.analysis import montecarlo as mc
    from moneynb.bots import BOTS

    mc.shutdown_workers()
    monkeypatch.setattr(_WhereBot, "path", str(tmp_path / "pids.txt"))
    BOTS["where"] = _WhereBot
    try:
        players = ["where", "greedy"]  # the bot moves first, so each game writes one line
        two = simulate("money_run", players, n_games=40, seed=5, workers=2, progress=False)
        assert len(mc._POOLS[2][1]._processes) == 1  # workers - 1 processes
        monkeypatch.setattr(_WhereBot, "path", str(tmp_path / "one.txt"))
        one = simulate("money_run", players, n_games=40, seed=5, workers=1, progress=False)
    finally:
        del BOTS["where"]
        mc.shutdown_workers()
    pd.testing.assert_frame_equal(one, two)
    pids = (tmp_path / "pids.txt").read_text().split()
    assert len(pids) == 40
    here = pids.count(str(os.getpid()))
    assert 1 <= here < 40  # this process plays beside the worker
    assert len(set(pids)) == 2
    assert two.attrs["workers"] == {"asked": 2, "used": 2, "why": None}
    assert one.attrs["workers"] == {"asked": 1, "used": 1, "why": None}


def test_per_turn_rows_carry_net_worth_that_ends_at_the_final_score():
    """Issue 28: teach_inequality measures net worth (the engine's score: the wallet minus
    House Bank loans), not wallets, which hold borrowed dollars."""
    import moneynb

    games, turns = moneynb.simulate(
        "money_moves", ["greedy"] * 4, n_games=30, seed=7, per_turn=True, progress=False
    )
    names = [c[len("score_") :] for c in games.columns if c.startswith("score_")]
    last = turns.groupby("game").last()
    for n in names:
        assert (last[f"score_{n}"] == games[f"score_{n}"]).all()
    borrowed = (turns[[f"money_{n}" for n in names]].to_numpy()
                - turns[[f"score_{n}" for n in names]].to_numpy())  # fmt: skip
    assert (borrowed >= 0).all() and borrowed.max() > 0  # some wallet held a loan


def test_top_level_simulate_shows_its_real_signature_and_documents_every_argument():
    """Issue 39, case 8: ``moneynb.simulate`` was ``(*args, **kwargs)`` with a one-line
    docstring, so Shift-Tab in Jupyter showed nothing useful."""
    import inspect

    face = inspect.signature(moneynb.simulate)
    assert face == inspect.signature(simulate)
    doc = inspect.getdoc(moneynb.simulate)
    assert len(doc.splitlines()) > 20
    for name in face.parameters:
        assert f"{name}:" in doc, name


def test_fewer_workers_than_asked_are_said_in_the_table_and_the_progress_bar(monkeypatch, capsys):
    """Issue 39, case 8: ``workers=2`` played in one process without a word. Workers now
    start whatever the load (issue 40); fewer play only when the process may use fewer
    cores, and the table's ``attrs["workers"]`` and the progress bar say how many and why."""
    from moneynb.analysis import montecarlo as mc

    mc.shutdown_workers()
    monkeypatch.setattr(mc, "_cpus", lambda: 1)
    why = "this machine has 1 core"
    table = simulate("money_moves", PLAYERS, n_games=4, seed=2, workers=2)
    assert not mc._POOLS
    assert table.attrs["workers"] == {"asked": 2, "used": 1, "why": why}
    assert f"1 of 2 workers: {why}" in capsys.readouterr().err
    one = simulate("money_moves", PLAYERS, n_games=4, seed=2, progress=False)
    assert one.attrs["workers"] == {"asked": 1, "used": 1, "why": None}
    pd.testing.assert_frame_equal(one, table, check_flags=False)
