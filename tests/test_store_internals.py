"""The store's internals (issue 35): ``open_store`` across ``fork``, watchers that wake only
for their own game, and the online backup. Real SQLite files and a real PostgreSQL server
(tests/pgserver.py)."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

import moneynb
from moneynb.store import StoreError, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "st" / "games.sqlite3")
    return request.getfixturevalue("postgres").new_database()


def _config(seed=1):
    return moneynb.new_game("moolah", ["Ann", "Bob"], seed=seed).config()


def _legal(gid, store):
    g = moneynb.load_game(store.read(gid))
    return moneynb.make_bot("greedy", seed=1).choose(g)


def test_a_forked_child_gets_its_own_store_and_both_keep_working(location):
    """Before: the child got the parent's cached Store (one pool of connections shared by two
    processes), and a PostgreSQL child that used it broke the parent's connection."""
    parent = open_store(location)
    gid = parent.create(_config(), owner="hub:ann")
    parent.count(gid)  # a pooled connection now exists in the parent
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: must not share the parent's store or its connections
        code = 1
        try:
            child = open_store(location)
            ok = child is not parent and child.count(gid) == 0
            # the inherited object also works, on connections of its own
            ok = ok and parent.count(gid) == 0
            child.append(gid, 0, _legal(gid, child))
            code = 0 if ok else 2
        except BaseException:  # noqa: BLE001 - reported by the exit code
            code = 3
        finally:
            os.write(w, bytes([code]))
            os._exit(code)
    os.close(w)
    got = os.read(r, 1)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    assert got == b"\x00" and os.WEXITSTATUS(status) == 0
    # the parent's pooled connection still works after the child's writes and exit
    assert parent.count(gid) == 1
    assert open_store(location) is parent
    parent.append(gid, 1, _legal(gid, parent))
    assert parent.count(gid) == 2
    parent.close()


def test_a_table_watcher_wakes_only_for_its_own_game(location):
    """Before: any write anywhere woke every table's view (SQLite's data_version)."""
    store = open_store(location, fresh=True)
    mine = store.create(_config(), owner="hub:ann", table="AAAAAA")
    other = store.create(_config(2), owner="hub:bob")
    with store.watch(mine) as w:
        w.wait(0)
        for i in range(3):
            store.set_status(other, {"turn": f"t{i}"})
            store.append(other, i, _legal(other, store))
        assert not w.wait(0.5)  # six writes elsewhere: no wake-up
        store.claim_seat(mine, 1, "hub:bob")  # a seat change is this table's news
        assert w.wait(10)
        store.append(mine, 0, _legal(mine, store))
        assert w.wait(10)
        if store.dialect == "postgresql":
            assert all(p.split(" ")[0] == mine for p in w.payloads)
    with store.watch() as every:  # without a game: any write
        every.wait(0)
        store.set_status(other, {"turn": "x"})
        assert every.wait(10)
    store.close()


def test_an_online_backup_holds_every_committed_game_while_writers_go_on(tmp_path):
    """Before: no backup; copying the file of a running server lost games (issue 35)."""
    store = open_store(tmp_path / "live.sqlite3", fresh=True)
    stop = threading.Event()
    made: list[str] = []

    def writer():
        while not stop.is_set():
            made.append(store.create(_config(len(made) + 1), owner="hub:ann"))

    t = threading.Thread(target=writer)
    t.start()
    try:
        while len(made) < 50:
            stop.wait(0.01)
        before = set(made)
        copy = store.backup(tmp_path / "copy.sqlite3")
    finally:
        stop.set()
        t.join()
    assert oct(copy.stat().st_mode & 0o777) == "0o600"
    with sqlite3.connect(copy) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    back = open_store(copy, fresh=True)
    ids = {g.id for g in back.list_all(limit=None)}
    assert before <= ids <= set(made)  # every game committed before the backup, none half
    assert back.read(made[0]) == store.read(made[0])
    with pytest.raises(StoreError, match="already exists"):
        store.backup(copy)  # one clear error, the first copy unchanged
    assert {g.id for g in open_store(copy, fresh=True).list_all(limit=None)} == ids
    back.close()
    store.close()


def test_a_postgresql_store_says_to_use_pg_dump(postgres, tmp_path):
    store = open_store(postgres.new_database(), fresh=True)
    with pytest.raises(StoreError, match="pg_dump"):
        store.backup(tmp_path / "x.sqlite3")
    assert not (tmp_path / "x.sqlite3").exists()
    store.close()
