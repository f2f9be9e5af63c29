"""Faults at a shared table (issue 25, "Bad input and faults"): the PostgreSQL server restarted
mid-game, a student's process killed (SIGKILL) while it plays, on real stores (a SQLite file
and the real PostgreSQL server of the ``postgres`` fixture, tests/pgserver.py). No mocks."""

from __future__ import annotations

import multiprocessing as mp
import os
import shutil
import signal
import time

import pytest
from waiting import wait_for

import moneynb
from moneynb.bots import make_bot
from moneynb.store import StoreUnavailable, open_store
from moneynb.tables import TableSession, host_table, join_table

ANN, BOB = "hub:ann", "hub:bob"


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


# ----- a store written by a newer moneynb, a read-only store: one message in the form -----------
def _join_in_form(loc, code):
    from moneynb.ui.launcher import launcher

    form = launcher("moolah", store=loc, restore=False)
    form._owner_known(BOB)
    form.join_code.value, form.join_name.value = code, "Bob"
    assert form.join() is None
    return form.error.value.replace("&#x27;", "'")


def test_a_newer_store_is_one_message_in_the_forms_join_and_stays_untouched(tmp_path):
    import sqlalchemy as sa

    loc = str(tmp_path / "g.sqlite3")
    h = host_table("moolah", ["Ann", "Bob"], owner=ANN, store=loc, seed=1)
    s = open_store(loc)
    with s._engine.begin() as c:
        c.execute(sa.text("UPDATE moneynb_schema SET version = 99"))
    s.close()
    message = _join_in_form(loc, h.code)
    assert message.count("⚠") == 1
    assert "newer moneynb (schema version 99" in message and "upgrade moneynb" in message
    solo = moneynb.play("moolah", players=["Ann", "bot:greedy"], seed=1, store=loc)
    assert solo.game_id is None and "newer moneynb" in solo.save_label.value
    assert _play_one(solo)  # the game plays on, unsaved, and says so
    with sa.create_engine(f"sqlite:///{loc}").connect() as c:  # the store is untouched
        assert c.execute(sa.text("SELECT version FROM moneynb_schema")).scalar() == 99
        assert c.execute(sa.text("SELECT count(*) FROM moneynb_games")).scalar() == 1


def test_a_read_only_store_is_one_message_and_nothing_changes(tmp_path):
    """A store file and folder another user owns, readable but not writable: opened by a
    forked process that drops to the ``nobody`` user when the tests run as root (root writes
    any file), else by this user after ``chmod`` (read-only to its owner too)."""
    import json
    import tempfile

    import moneynb.ui.launcher  # noqa: F401 - imported before the fork (nobody cannot read it)

    folder = tempfile.mkdtemp(prefix="moneynb-ro-")
    loc = os.path.join(folder, "g.sqlite3")
    h = host_table("moolah", ["Ann", "Bob"], owner=ANN, store=loc, seed=1)
    open_store(loc).close()
    before = open(loc, "rb").read()
    open_store(str(tmp_path / "warm.sqlite3"))  # SQLAlchemy's SQLite dialect loaded before the fork
    for p in [loc, *(loc + x for x in ("-wal", "-shm") if os.path.exists(loc + x))]:
        os.chmod(p, 0o444)
    os.chmod(folder, 0o555)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: another user (as root), reports what it saw, never returns
        try:
            os.close(r)
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            got = {}
            try:
                open_store(loc, fresh=True).append(h.game_id, 0, "roll")
                got["store"] = "stored"
            except Exception as e:  # noqa: BLE001 - reported to the parent
                got["store"] = f"{type(e).__name__}: {e}"
            got["form"] = _join_in_form(loc, h.code)
            os.write(w, json.dumps(got).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        got = json.loads(f.read() or "{}")
    os.waitpid(pid, 0)
    os.chmod(folder, 0o755)
    assert got["store"].startswith("StoreUnavailable: the game store")
    assert "read-only" in got["store"] and "MONEYNB_STORE" in got["store"]
    assert got["form"].count("⚠") == 1 and "read-only" in got["form"]
    assert open(loc, "rb").read() == before  # nothing changed
    assert open_store(loc, fresh=True).count(h.game_id) == 0
    open_store(loc).close()
    shutil.rmtree(folder, ignore_errors=True)
