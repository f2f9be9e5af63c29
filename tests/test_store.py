"""The game store (issue 25): one API, two real back ends (SQLite file, PostgreSQL server).

Every test runs on both; the PostgreSQL server is started by the ``postgres`` fixture
(tests/pgserver.py) and each test gets a database of its own."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time

import pytest
import sqlalchemy as sa

import moneynb
from moneynb.bots import make_bot
from moneynb.store import (
    SCHEMA_VERSION,
    ConflictError,
    NoSuchGame,
    SeatTaken,
    StoreError,
    StoreUnavailable,
    StoreVersionError,
    import_folder,
    open_store,
)
from moneynb.store.store import ANY, _migrate

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    """A fresh store location: a SQLite file path, or a new database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "st" / "games.sqlite3")
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def store(location):
    s = open_store(location, fresh=True)
    yield s
    s.close()


def played(name="moolah", n=12, seed=3):
    g = moneynb.new_game(name, players=["Ann", "Bob"], seed=seed)
    bot = make_bot("greedy", seed=1)
    for _ in range(n):
        g.apply(bot.choose(g))
    return g


def test_a_stored_game_reads_back_as_its_save_json(store):
    g = played(n=15)
    gid = store.create(g.config(), seats=["human", "bot:greedy"], owner="hub:ann", origin="lab")
    store.extend(gid, 0, g.actions[:10])
    for i in range(10, 15):
        assert store.append(gid, i, g.actions[i]) == i + 1
    assert store.read(gid) == g.to_json()
    again = moneynb.load_game(store.read(gid))
    assert again.money() == g.money() and again.actions == g.actions
    info = store.info(gid)
    assert (info.game, info.players, info.owner, info.actions) == ("moolah", ("Ann", "Bob"),
                                                                   "hub:ann", 15)  # fmt: skip
    assert [s.kind for s in info.seats] == ["human", "bot:greedy"]
    assert store.actions(gid, 13) == g.actions[13:]


def test_ids_are_random_not_times(store):
    cfg = played(n=0).config()
    ids = [store.create(cfg) for _ in range(20)]
    assert len(set(ids)) == 20
    assert all(len(i) >= 20 for i in ids)
    assert not any(time.strftime("%Y%m%d") in i for i in ids)


def test_an_append_that_does_not_follow_the_stored_count_conflicts_and_stores_nothing(store):
    g = played(n=6)
    gid = store.create(g.config())
    store.extend(gid, 0, g.actions[:5])
    before = store.read(gid)
    for stale in (0, 3, 4, 6):
        with pytest.raises(ConflictError, match="changed elsewhere") as e:
            store.append(gid, stale, g.actions[5])
        assert (e.value.expected, e.value.stored) == (stale, 5)
        assert store.read(gid) == before and store.count(gid) == 5
    with pytest.raises(NoSuchGame):
        store.append("no-such-game", 0, "roll")


def test_a_failing_write_stores_nothing_of_itself(store):
    g = played(n=4)
    gid = store.create(g.config())
    store.extend(gid, 0, g.actions[:2])
    with pytest.raises(ValueError, match="JSON"):
        store.extend(gid, 2, [g.actions[2], object()])
    with pytest.raises(ValueError, match="status"):
        store.extend(gid, 2, g.actions[2:], status={"colour": "red"})
    assert store.count(gid) == 2 and store.actions(gid) == g.actions[:2]


def test_undo_truncates_with_the_same_check(store):
    g = played(n=8)
    gid = store.create(g.config(), actions=g.actions)
    with pytest.raises(ConflictError):
        store.truncate(gid, 7, 5)
    assert store.truncate(gid, 8, 5) == 5
    assert store.actions(gid) == g.actions[:5]
    assert store.append(gid, 5, g.actions[5]) == 6


def test_owners_see_only_their_games_the_teacher_lists_all(store):
    cfg = played(n=0).config()
    a = store.create(cfg, owner="browser:" + "a" * 32, status={"person_moved": True})
    b = store.create(cfg, owner="browser:" + "b" * 32, status={"person_moved": True})
    assert [i.id for i in store.list_games("browser:" + "a" * 32)] == [a]
    assert [i.id for i in store.list_games("browser:" + "b" * 32)] == [b]
    assert {i.id for i in store.list_all()} == {a, b}
    with pytest.raises(NoSuchGame):
        store.read(a, owner="browser:" + "b" * 32)
    with pytest.raises(NoSuchGame):
        store.info(b, owner=None)
    assert store.read(a, owner="browser:" + "a" * 32) == store.read(a)
    with pytest.raises(ValueError):
        store.list_games(None)


def test_status_line_and_filters(store):
    cfg = played(n=0).config()
    gid = store.create(cfg, owner="hub:ann", origin="lab")
    done = store.create(cfg, owner="hub:ann", origin="launcher:moolah")
    store.set_status(gid, {"turn": "Round 2 of 5", "to_move": "Bob", "person_moved": True,
                           "extra": {"leader": "Ann"}})  # fmt: skip
    store.set_status(done, {"over": True, "person_moved": True})
    info = store.info(gid)
    assert (info.turn, info.to_move, info.person_moved, info.extra) == (
        "Round 2 of 5", "Bob", True, {"leader": "Ann"})  # fmt: skip
    assert [i.id for i in store.list_games("hub:ann", over=False)] == [gid]
    assert [i.id for i in store.list_games("hub:ann", origin="launcher:moolah")] == [done]
    assert [i.id for i in store.list_games("hub:ann", exclude=[done])] == [gid]
    assert "Bob to move" in info.describe()
    with pytest.raises(NoSuchGame):
        store.set_status("nope", {"over": True})


def test_seats_are_claimed_once_and_owners_set_once(store):
    cfg = played(n=0).config()
    gid = store.create(cfg, seats=["human", {"kind": "human", "owner": "hub:bob"}],
                       table="ABC123")  # fmt: skip
    assert store.claim_seat(gid, 0, "hub:ann").owner == "hub:ann"
    assert store.claim_seat(gid, 0, "hub:ann").owner == "hub:ann"  # again: still Ann's
    with pytest.raises(SeatTaken, match="already taken"):
        store.claim_seat(gid, 1, "hub:ann")
    with pytest.raises(SeatTaken, match="no seat"):
        store.claim_seat(gid, 5, "hub:ann")
    # a seat holder may read the game; the table is found by its code
    assert store.read(gid, owner="hub:bob") == store.read(gid)
    assert [i.id for i in store.list_table("ABC123")] == [gid]
    with pytest.raises(StoreError, match="in use"):
        store.create(cfg, table="ABC123")
    store.set_seat_kind(gid, 1, "bot:greedy")
    store.release_seat(gid, 1)
    assert [(s.kind, s.owner) for s in store.seats(gid)] == [("human", "hub:ann"),
                                                            ("bot:greedy", None)]  # fmt: skip
    assert store.set_owner(gid, "hub:ann") and not store.set_owner(gid, "hub:cy")
    assert store.info(gid).owner == "hub:ann"
    with pytest.raises(ValueError):
        store.set_seat_kind(gid, 0, "bot:genius")


def test_a_watcher_sees_another_process_write(store, location):
    g = played(n=2)
    gid = store.create(g.config())
    with store.watch() as w:
        w.wait(0)
        assert not w.wait(0.2)
        code = textwrap.dedent(f"""
            from moneynb.store import open_store
            open_store({location!r}).append({gid!r}, 0, {g.actions[0]!r})
        """)
        subprocess.run([sys.executable, "-c", code], check=True, env=_env(), timeout=120)
        assert w.wait(20)
        if store.dialect == "postgresql":
            assert f"{gid} 1" in w.payloads


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [REPO, env.get("PYTHONPATH")]))
    return env


RACER = textwrap.dedent("""
    import sys
    from moneynb.store import ConflictError, open_store
    loc, gid, me, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    s = open_store(loc)
    done = conflicts = 0
    while done < k:
        n = s.count(gid)
        try:
            s.append(gid, n, [me, done])
            done += 1
        except ConflictError:
            conflicts += 1
    print(conflicts)
""")


def test_concurrent_appends_lose_nothing_and_duplicate_nothing(store, location):
    """Several processes append to one game at once, each re-reading the count on a
    conflict: every action is stored exactly once, in one unbroken sequence."""
    gid = store.create(played(n=0).config())
    procs, k = 4, 25
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, location, gid, str(i), str(k)],
            env=_env(),
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for i in range(procs)
    ]
    conflicts = [int(p.communicate(timeout=300)[0]) for p in runs]
    assert all(p.returncode == 0 for p in runs)
    acts = store.actions(gid)
    assert len(acts) == store.count(gid) == procs * k
    assert sorted(map(tuple, acts)) == sorted((i, j) for i in range(procs) for j in range(k))
    for i in range(procs):  # each process's actions in its own order
        assert [a[1] for a in acts if a[0] == i] == list(range(k))
    print(f"{store.dialect}: {procs} processes x {k} appends, {sum(conflicts)} conflicts retried")


CRASH = textwrap.dedent("""
    import os, sys
    import sqlalchemy as sa
    from moneynb.store import open_store
    from moneynb.store.store import actions_table, games_table
    s = open_store(sys.argv[1])
    with s._engine.begin() as c:
        c.execute(sa.update(games_table).where(games_table.c.id == sys.argv[2])
                  .values(n_actions=games_table.c.n_actions + 1))
        c.execute(sa.insert(actions_table).values(game_id=sys.argv[2], n=3, action='"x"', at=0))
        os._exit(9)  # the process dies mid-write, before the commit
""")


def test_a_crash_mid_write_leaves_the_previous_state(store, location):
    g = played(n=5)
    gid = store.create(g.config(), actions=g.actions[:3])
    before = store.read(gid)
    r = subprocess.run([sys.executable, "-c", CRASH, location, gid], env=_env(), timeout=120)
    assert r.returncode == 9
    assert store.read(gid) == before and store.count(gid) == 3
    assert store.append(gid, 3, g.actions[3]) == 4  # the store works on


def test_migrations_bring_an_old_store_up_to_date(location):
    """A store at schema version 1 (before lesson results) is migrated on open, its games
    kept."""
    s = open_store(location, fresh=True)
    s.close()
    # rebuild it at version 1: a fresh store migrated only that far
    eng = s._engine
    with eng.begin() as c:
        for t in ("moneynb_roster", "moneynb_runs", "moneynb_classes", "moneynb_results",
                  "moneynb_actions", "moneynb_seats", "moneynb_games", "moneynb_schema"):  # fmt: skip
            c.execute(sa.text(f"DROP TABLE {t}"))
    _migrate(eng, s.dialect, upto=1)
    with eng.begin() as c:
        assert c.execute(sa.text("SELECT version FROM moneynb_schema")).scalar() == 1
        assert not sa.inspect(c).has_table("moneynb_results")
    eng.dispose()
    s1 = open_store(location, fresh=True)  # migrates 1 -> 4
    assert s1.schema_version() == SCHEMA_VERSION == 4
    assert s1.post_result("dice-1", "hub:ann", {"mean": 7}) >= 1
    assert s1.results("dice-1")[0]["data"] == {"mean": 7}
    s1.close()


def test_migrations_from_version_1_keep_games(location):
    s = open_store(location, fresh=True)
    g = played(n=4)
    eng = s._engine
    with eng.begin() as c:
        for t in ("moneynb_roster", "moneynb_runs", "moneynb_classes", "moneynb_results",
                  "moneynb_actions", "moneynb_seats", "moneynb_games", "moneynb_schema"):  # fmt: skip
            c.execute(sa.text(f"DROP TABLE {t}"))
    _migrate(eng, s.dialect, upto=1)
    with eng.begin() as c:  # a game as a version-1 moneynb stored it
        c.execute(sa.text(
            "INSERT INTO moneynb_games (id, game, players, seed, options, owner, origin, "
            "created, updated, n_actions, over, turn, to_move, person_moved, extra) VALUES "
            "('g1', :g, :p, :s, :o, 'hub:ann', 'lab', 1, 1, :n, false, '', '', true, '{}')"
        ), {"g": g.name, "p": json.dumps(g.players), "s": g.config()["seed"],
            "o": json.dumps(g.config()["options"]), "n": len(g.actions)})  # fmt: skip
        c.execute(sa.text("INSERT INTO moneynb_seats (game_id, seat, name, kind) VALUES "
                          "('g1', 0, 'Ann', 'human'), ('g1', 1, 'Bob', 'human')"))  # fmt: skip
        for i, a in enumerate(g.actions):
            c.execute(sa.text("INSERT INTO moneynb_actions (game_id, n, action, at) VALUES "
                              "('g1', :n, :a, 1)"), {"n": i, "a": json.dumps(a)})  # fmt: skip
    s.close()
    s2 = open_store(location, fresh=True)
    assert s2.read("g1") == g.to_json() and s2.schema_version() == SCHEMA_VERSION
    s2.close()


def test_a_store_written_by_a_newer_moneynb_is_refused_clearly(location):
    s = open_store(location, fresh=True)
    gid = s.create(played(n=0).config())
    with s._engine.begin() as c:
        c.execute(sa.text("UPDATE moneynb_schema SET version = 99"))
    s.close()
    with pytest.raises(StoreVersionError, match="newer moneynb.*schema version 99"):
        open_store(location, fresh=True)
    with s._engine.begin() as c:  # untouched: an older moneynb can still be used on it
        assert c.execute(sa.text("SELECT version FROM moneynb_schema")).scalar() == 99
        assert c.execute(sa.text("SELECT count(*) FROM moneynb_games")).scalar() == 1
    s._engine.dispose()
    assert gid


def test_a_store_file_is_private(tmp_path):
    path = tmp_path / "new" / "deeper" / "games.sqlite3"
    s = open_store(path, fresh=True)
    s.create(played(n=0).config())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    for side in ("-wal", "-shm"):
        p = path.with_name(path.name + side)
        assert not p.exists() or stat.S_IMODE(p.stat().st_mode) == 0o600
    s.close()


def test_a_store_that_cannot_be_created_or_is_not_a_store_says_so(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreUnavailable, match="cannot be created.*MONEYNB_STORE"):
        open_store(blocker / "games.sqlite3", fresh=True)
    notdb = tmp_path / "notes.sqlite3"
    notdb.write_text("these are my notes, not a database" * 100)
    with pytest.raises(StoreUnavailable, match="not a database"):
        open_store(notdb, fresh=True)
    assert notdb.read_text().startswith("these are my notes")


def test_a_database_that_is_down_gives_store_unavailable(postgres):
    url = postgres.new_database()
    s = open_store(url, fresh=True)
    gid = s.create(played(n=0).config())
    postgres.stop()
    try:
        with pytest.raises(StoreUnavailable, match="could not"):
            s.append(gid, 0, "roll")
    finally:
        postgres.start()
    g = played(n=1)
    assert s.append(gid, 0, g.actions[0]) == 1  # the store works again after the restart
    s.close()


def test_default_location_is_per_user_and_env_overrides(monkeypatch, tmp_path):
    from moneynb.store import default_location

    monkeypatch.delenv("MONEYNB_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_location() == str(tmp_path / "xdg" / "moneynb" / "games.sqlite3")
    monkeypatch.setenv("MONEYNB_STORE", "postgresql://x@h/db")
    assert default_location() == "postgresql://x@h/db"


def test_export_import_and_an_old_saves_folder_imported_once(store, tmp_path):
    g = played(n=9)
    folder = tmp_path / "moneynb-saves"
    folder.mkdir()
    (folder / "moolah-1.json").write_text(g.to_json())
    (folder / "moolah-1.seats.json").write_text(json.dumps({
        "format": "moneynb-seats", "version": 1, "game": "moolah",
        "seats": {"Ann": "human", "Bob": "bot:greedy"},
        "status": {"over": False, "actions": 9, "turn": "Turn 3", "to_move": "Ann",
                   "person_moved": True, "saved": "2026-11-30T20:31:05", "origin": "lab"}}))  # fmt: skip
    (folder / "broken.json").write_text("{not json")
    first = import_folder(store, folder, "hub:ann")
    assert len(first) == 1 and import_folder(store, folder, "hub:ann") == []
    info = store.info(first[0])
    assert (info.owner, info.origin, info.turn, info.person_moved) == ("hub:ann", "lab",
                                                                      "Turn 3", True)  # fmt: skip
    assert [s.kind for s in info.seats] == ["human", "bot:greedy"]
    assert store.export_json(first[0]) == g.to_json()
    assert sorted(p.name for p in folder.iterdir()) == ["broken.json", "moolah-1.json",
                                                        "moolah-1.seats.json"]  # fmt: skip
    other = store.import_json(store.export_json(first[0]), owner="hub:bob")
    assert store.read(other) == g.to_json() and other != first[0]
    with pytest.raises(moneynb.SaveFileError):
        store.import_json('{"format": "moneynb-game"}')


def test_any_is_the_default_owner_check(store):
    gid = store.create(played(n=0).config(), owner="hub:ann")
    assert store.read(gid, owner=ANY) == store.read(gid)


# ----- where a game's chance comes from (a branch of a finished game: dice already seen) -----
def _to_the_end(name="money_moves", seed=5):
    g = moneynb.new_game(name, players=["Ann", "Bob"], seed=seed)
    bot = make_bot("greedy", seed=1)
    while not g.over:
        g.apply(bot.choose(g))
    return g


def test_a_seed_and_its_negative_would_deal_one_game_so_no_seed_is_negative(store):
    """Python's generator deals from ``abs(seed)``: a game of seed -5 would deal seed 5's dice
    and cards under another number, and the practice marks (which compare seeds) would not see
    a finished game of seed 5 started again as -5 (the tester of stop 48: word for word the same
    log, not marked, in all five games). A negative seed is refused by the engine, in a save
    file, in a reseed point and by the store, which then holds nothing new."""
    with pytest.raises(ValueError, match="from 0"):
        moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=-5)
    with pytest.raises(ValueError, match="from 0"):
        moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=5, reseed=[[0, -5]])
    done = _to_the_end()
    store.create(done.config(), owner="hub:ann", actions=done.actions, status={"over": True})
    before = [g.id for g in store.list_all()]
    bad = {**done.config(), "seed": -done.config()["seed"]}
    with pytest.raises(ValueError, match="seed"):
        store.create(bad, owner="hub:ann")
    assert [g.id for g in store.list_all()] == before
    doc = json.loads(done.to_json())
    doc["seed"] = -doc["seed"]
    with pytest.raises(ValueError, match="seed"):
        moneynb.load_game(json.dumps(doc))
    # 0 and the largest seed are whole seeds; Python's generator deals them apart
    moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=0)
    top = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=2**63 - 1)
    # ... and the largest is stored (a store's column is a signed 64-bit number): a seed of
    # 2**63 or more was dealt, then raised OverflowError in the store (the tester of stop 49:
    # Start did nothing in Voila); now the game refuses it in words a player reads
    gid = store.create(top.config(), owner="hub:ann")
    assert store.info(gid).seed == 2**63 - 1
    for seed in (2**63, 2**64 - 7):
        with pytest.raises(ValueError, match="from 0 to 9,223,372,036,854,775,807"):
            moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=seed)
        with pytest.raises(ValueError, match="seed"):
            store.create({**top.config(), "seed": seed}, owner="hub:ann")


def test_a_game_whose_undo_takes_back_seen_dice_is_practice(store):
    """A game of the "practice" undo policy lets its player take back a roll already seen and
    play the move again knowing it (the tester of stop 48: finished, taken back to action 1,
    played again, counted as a win). The store marks it practice from its options, whatever
    it was stored as; a "safe" game of the same seed by another owner is not."""
    g = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=11, undo="practice")
    bot = make_bot("greedy", seed=1)
    while not g.over:
        g.apply(bot.choose(g))
    i = store.info(store.create(g.config(), owner="hub:ann", origin="lab", actions=g.actions,
                                status={"over": True}))  # fmt: skip
    assert i.practice and i.practice_note == (
        "practice: its undo takes back dice and cards already seen"
    )
    safe = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=11)
    j = store.info(store.create(safe.config(), owner="hub:bob", origin="lab"))
    assert not j.practice and j.practice_note == ""


def test_a_branch_and_a_seed_used_again_are_recorded_by_the_store_whatever_the_caller_says(
    store,
):
    """ "Continue from here" of a finished game keeps its dice (a "what if" lesson), so the
    new game's chance outcomes are known before they are played. The store records it from
    the games it holds, not from anything the caller sends: the game it branched from and at
    which step, and whether its chance from there on is the earlier game's (practice) or its
    own. Stored with the origin "lab", imported, or started again from the seed alone: the
    same marks. Before, nothing told such a game from one played without foreknowledge."""
    from moneynb.core.replay import Replay

    ann = "hub:ann"
    done = _to_the_end()
    p = store.create(done.config(), owner=ann, origin="lab", actions=done.actions,
                     status={"over": True})  # fmt: skip
    assert not store.info(p).practice and store.info(p).branch_of is None
    # "Continue from here" at step 4 of the finished game: its seed, its first 4 moves
    b = Replay(done).branch(4)
    assert b.options["reseed"] == [] and b.config()["seed"] == done.config()["seed"]
    for origin in ("replay", "lab"):  # what the caller calls it changes nothing
        i = store.info(store.create(b.config(), owner=ann, origin=origin, actions=b.actions))
        assert (i.branch_of, i.branch_at, i.chance, i.chance_from) == (p, 4, "known", p)
        assert i.practice
        assert (
            i.practice_note
            == "practice: replayed from a finished game at step 4, dice already seen"
        )
    i = store.info(store.import_json(b.to_json(), owner=ann))  # an imported save: the same
    assert (i.branch_of, i.branch_at, i.chance) == (p, 4, "known")
    # the seed typed again: a new game of the same seed, no moves
    again = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=5)
    i = store.info(store.create(again.config(), owner=ann, origin="launcher:money_moves"))
    assert i.practice and i.chance == "known" and i.branch_at == 0
    # a reseed point at the branch step drawing from a seed already seen: still known
    known = {**b.config(), "options": {**b.config()["options"], "reseed": [[4, 5]]}}
    i = store.info(store.create(known, owner=ann, actions=b.actions))
    assert i.chance == "known" and i.practice
    # a new seed now, and a reseed point to come naming the seed already seen: known too
    later = {**again.config(), "seed": 77, "options": {**again.config()["options"],
                                                       "reseed": [[6, 5]]}}  # fmt: skip
    i = store.info(store.create(later, owner=ann))
    assert i.chance == "known" and i.chance_from == p and i.branch_of is None
    assert i.practice_note == "practice: the seed of a finished game used again, dice already seen"
    # the finished game itself stays as it was: it was played before any of these
    assert not store.info(p).practice
    # another person's game of the same seed: not theirs to have seen
    i = store.info(store.create(again.config(), owner="hub:bob"))
    assert i.chance is None and not i.practice
    # stored before its owner was known (a view started before the browser said who it
    # is): traced when it gets its owner
    gid = store.create(b.config(), actions=b.actions + [b.legal_actions()[0]])
    assert not store.info(gid).practice
    assert store.set_owner(gid, ann)
    i = store.info(gid)
    assert i.practice and i.chance == "known" and i.chance_from == p


def test_a_branch_of_an_unfinished_game_is_fresh_and_a_second_game_of_its_seed_marks_both(
    store,
):
    """A branch of a game still being played draws its own chance (``reseed``): recorded as
    a branch with fresh chance, not practice. A second game dealt the same dice while the
    first is unfinished (the seed typed again, or a branch keeping the seed through Python)
    can be played ahead of the first: both are marked."""
    from moneynb.core.replay import Replay

    ann = "hub:ann"
    live = played(name="money_moves", n=5, seed=9)
    assert not live.over
    u = store.create(live.config(), owner=ann, actions=live.actions)
    fresh = Replay(live).branch(2)
    i = store.info(store.create(fresh.config(), owner=ann, actions=fresh.actions))
    assert (i.branch_of, i.branch_at, i.chance) == (u, 2, "fresh")
    assert not i.practice and i.branch_note.startswith("continued from another game at step 2")
    assert not store.info(u).practice
    same = Replay(live).branch(3, fresh_chance=False)
    ahead = store.create(same.config(), owner=ann, actions=same.actions)
    i = store.info(ahead)
    assert (i.branch_of, i.branch_at, i.chance, i.chance_from) == (u, 3, "ahead", u)
    assert i.practice and "still being played" in i.practice_note
    first = store.info(u)
    assert first.practice and first.chance_shared_by == ahead and first.chance is None
    assert "used again in a later game" in first.practice_note


def test_a_seed_seen_at_a_table_is_known_to_its_players(store):
    """A student who sat at a finished table knows its dice: their own game of its seed is
    practice; a game of that seed by someone who never sat there is not."""
    from moneynb.tables import host_table, join_table

    h = host_table("money_moves", ["Bob", "Ann"], owner="hub:bob", store=store, seed=11)
    join_table(h.code, "Ann", owner="hub:ann", store=store)
    g = moneynb.new_game("money_moves", players=["Ann", "Bot"], seed=11)
    i = store.info(store.create(g.config(), owner="hub:ann", seats=["human", "bot:greedy"]))
    assert i.practice and i.chance_from == h.game_id and i.chance == "ahead"
    assert store.info(h.game_id).chance_shared_by == i.id
    i = store.info(store.create(g.config(), owner="hub:cy"))
    assert not i.practice
