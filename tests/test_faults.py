"""Faults at a shared table (issue 25, "Bad input and faults"): the PostgreSQL server restarted
mid-game, a student's process killed (SIGKILL) while it plays, on real stores (a SQLite file
and the real PostgreSQL server of the ``postgres`` fixture, tests/pgserver.py). No mocks."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.store import StoreUnavailable, open_store
from moneynb.tables import TableSession, host_table, join_table

ANN, BOB = "hub:ann", "hub:bob"


def wait_for(cond, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def replayed(store, gid):
    """The stored game rebuilt from its config and stored actions, one by one."""
    first = moneynb.load_game(store.read(gid))
    g = type(first)(list(first.players), first.seed, **first.options)
    for a in store.actions(gid):
        g.apply(a)
    return g


def _play_one(view) -> bool:
    """One move of ``view``'s seat (a seeded greedy choice); False: not its turn."""
    if not view.human_turn:
        return False
    return view.submit(make_bot("greedy", seed=len(view.game.actions)).choose(view.game))


def test_a_postgresql_restart_mid_game_loses_no_move_and_every_view_catches_up(postgres):
    url = postgres.new_database()
    a = moneynb.host("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=url, seed=21)
    b = moneynb.join(a.session.code, "Bob", owner=BOB, store=url)
    watcher_only = TableSession(a.game_id, None, url)  # a third kernel, following only
    store = open_store(url)
    try:
        for _ in range(4):  # a few moves before the outage, both boards following
            assert wait_for(lambda: a.human_turn or b.human_turn)
            n = store.count(a.game_id)
            assert _play_one(a) or _play_one(b)
            assert wait_for(lambda n=n: len(a.game.actions) == len(b.game.actions)
                            == store.count(a.game_id) > n)  # fmt: skip
        assert wait_for(lambda: a.human_turn or b.human_turn)
        v = a if a.human_turn else b
        before, stored_before = list(v.game.actions), store.count(a.game_id)
        s = TableSession(a.game_id, v.session.owner, url)  # the same seat in another kernel
        postgres.stop()
        try:
            # the view that moves during the outage: one clear message, the move taken back
            assert not _play_one(v)
            assert v.game.actions == before
            assert v.error.value.count("⚠") == 1 and "could not be saved" in v.error.value
            assert "taken back" in v.error.value
            # a session's move: one StoreUnavailable, its game as stored
            with pytest.raises(StoreUnavailable, match="could not"):
                s.act(make_bot("greedy", seed=0).choose(s.game))
            assert list(s.game.actions) == before
            # the watcher threads say on the board that they cannot follow, in words
            assert wait_for(lambda: "cannot follow" in a.table_note.value
                            and "cannot follow" in b.table_note.value)  # fmt: skip
            with pytest.raises(StoreUnavailable, match="cannot be watched"):
                store.watch()  # what the threads retry every 2 s: the same plain message
        finally:
            postgres.start()
        assert store.count(a.game_id) == stored_before  # nothing of the outage stored
        # after the restart: play goes on, every board follows again
        t0 = time.monotonic()
        moves = 0
        while moves < 6 and not a.game.over:
            assert wait_for(lambda: a.human_turn or b.human_turn or a.game.over)
            if a.game.over:
                break
            n = store.count(a.game_id)
            assert _play_one(a) or _play_one(b)
            moves += 1
            assert wait_for(lambda n=n: len(a.game.actions) == len(b.game.actions)
                            == store.count(a.game_id) > n)  # fmt: skip
        caught_up = time.monotonic() - t0
        assert wait_for(lambda: a.table_note.value == "" and b.table_note.value == "")
        watcher_only.sync()
        final = store.actions(a.game_id)
        assert a.game.actions == b.game.actions == watcher_only.game.actions == final
        assert replayed(store, a.game_id).to_json() == store.read(a.game_id)
        print(f"\n[pg restart] stored {stored_before} before, {len(final)} after "
              f"({moves} person moves after the restart, {caught_up:.1f} s)")  # fmt: skip
    finally:
        a.stop()
        b.stop()


# ----- a student's process killed mid-game ----------------------------------------------------
def _player(location, gid, owner, until, q):
    """A separate process at a table: plays its seats (seeded greedy) and the bots until the
    stored count reaches ``until`` or the game ends; reports its start and end counts."""
    from moneynb.bots import make_bot
    from moneynb.tables import TableSession

    s = TableSession(gid, owner, location)
    q.put(("start", s.stored))
    w = s.store.watch()
    end = time.time() + 120
    while not s.game.over and s.stored < until and time.time() < end:
        s.sync()
        s.play_bots()
        if s.to_move in s.mine and s.stored < until:
            s.act(make_bot("greedy", seed=len(s.game.actions)).choose(s.game))
        elif not s.game.over:
            w.wait(0.2)
    s.sync()
    q.put(("end", s.stored))


def _bob_step(bob: TableSession) -> None:
    bob.sync()
    bob.play_bots()
    if bob.to_move in bob.mine:
        bob.act(make_bot("greedy", seed=len(bob.game.actions)).choose(bob.game))


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("postgres").new_database()


def test_a_killed_students_process_leaves_a_consistent_game_and_a_rejoin_plays_on(location):
    t0 = time.monotonic()
    h = host_table("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=location, seed=9)
    join_table(h.code, "Bob", owner=BOB, store=location)
    store = open_store(location)
    bob = TableSession(h.game_id, BOB, location)
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    ann = ctx.Process(target=_player, args=(location, h.game_id, ANN, 10**6, q))
    ann.start()
    assert q.get(timeout=120) == ("start", 0)
    kill_at = 12
    while store.count(h.game_id) < kill_at:  # Bob plays on while Ann's process plays
        _bob_step(bob)
        time.sleep(0.01)
        assert ann.is_alive()
    os.kill(ann.pid, signal.SIGKILL)  # while it plays (it never stops by itself)
    ann.join(30)
    assert ann.exitcode == -signal.SIGKILL
    # the store holds a consistent prefix: it loads, and equals a replay of its actions
    killed_at = store.count(h.game_id)
    text = store.read(h.game_id)
    assert len(moneynb.load_game(text).actions) == killed_at >= kill_at
    assert replayed(store, h.game_id).to_json() == text
    # Bob's session goes on: it follows the stored game and plays while it is his turn
    bob.sync()
    assert bob.game.actions == store.actions(h.game_id)
    for _ in range(50):
        if bob.game.over or bob.to_move == 0:
            break
        _bob_step(bob)
    # a new process takes Ann's seat back (the same owner) and continues from the stored count
    assert join_table(h.code, owner=ANN, store=location).seat == 0
    at_rejoin = store.count(h.game_id)
    until = at_rejoin + 12
    again = ctx.Process(target=_player, args=(location, h.game_id, ANN, until, q))
    again.start()
    assert q.get(timeout=120) == ("start", at_rejoin)
    while again.is_alive() and q.empty():
        _bob_step(bob)
        time.sleep(0.01)
    tag, ann_end = q.get(timeout=120)
    again.join(60)
    assert tag == "end" and again.exitcode == 0
    bob.sync()
    final = store.actions(h.game_id)
    assert ann_end >= min(until, len(final)) and len(final) >= ann_end
    assert bob.game.actions == final and len(final) > at_rejoin
    assert replayed(store, h.game_id).to_json() == store.read(h.game_id)
    print(
        f"\n[kill {'postgresql' if '://' in location else 'sqlite'}] killed at {killed_at} stored actions, "
        f"rejoined at {at_rejoin}, {len(final)} at the end, {time.monotonic() - t0:.1f} s"
    )
