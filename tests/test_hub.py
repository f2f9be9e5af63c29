"""A class on a real JupyterHub (issue 35): the moneynb service owns the store; students'
kernels reach it with their own hub tokens and can do nothing to anyone else's data.

Started once for the module (tests/hubserver.py): a real PostgreSQL (tests/pgserver.py), a
real JupyterHub configured by ``docs/jupyterhub_config.py`` (DummyAuthenticator with a password,
SimpleLocalProcessSpawner, configurable-http-proxy), the moneynb service as a hub-managed
service holding the database. Ann's single-user server is really spawned by the hub, and her
"kernel" is a Python process with exactly that server's environment (what every kernel it
starts inherits). Bob's and the teachers' kernels get tokens made through the hub's REST API
with the scopes a server's token has. Two students (ann, bob), a teacher named in the
service's configuration (mrs_lee) and one only in the teachers' hub group (mr_kim)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

import moneynb
from moneynb.store import ConflictError, NoSuchGame, NotAllowed, SeatTaken, StoreUnavailable
from moneynb.store.hub import HubStore
from moneynb.tables import TableSession, host_table, join_table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hubserver import jupyterhub  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
#: the scopes of a REST-made token standing for a user server's own token (the config's
#: c.Spawner.server_token_scopes, without the server-only access:servers!server)
KERNEL_SCOPES = ["users:activity!user", "access:services!service=moneynb"]


class Class:
    """The running hub and the class's data, as the test set it up."""


@pytest.fixture(scope="module")
def klass(postgres):
    url = postgres.new_database()
    with jupyterhub(url, ["ann", "bob", "mrs_lee", "mr_kim"]) as hub:
        k = Class()
        k.hub, k.db = hub, url
        # mr_kim is a teacher only through the hub group named in the service's config
        hub.request("POST", "/groups/teachers/users", {"users": ["mr_kim"]})
        # Ann's server starts while the other tests run (the attacks run in its environment)
        k.spawned = {}

        def spawn():
            try:
                k.spawned["env"] = hub.spawn("ann")
            except Exception as e:  # noqa: BLE001 - raised by the test that needs the server
                k.spawned["error"] = e

        k.spawning = threading.Thread(target=spawn)
        k.spawning.start()
        k.tokens = {u: hub.token(u, KERNEL_SCOPES) for u in ("ann", "bob", "mrs_lee", "mr_kim")}
        k.stores = {u: HubStore(hub.service_url, tok) for u, tok in k.tokens.items()}
        _class_data(k)
        try:
            yield k
        finally:
            k.spawning.join()


def _play(store, gid, n):
    """``n`` greedy moves on a solo game, through the store."""
    for _ in range(n):
        g = moneynb.load_game(store.read(gid))
        store.append(gid, len(g.actions), moneynb.make_bot("greedy", seed=1).choose(g))


def _class_data(k: Class) -> None:
    ann, bob = k.stores["ann"], k.stores["bob"]
    cfg = moneynb.new_game("moolah", ["Ann", "Bot"], seed=5).config()
    k.ann_game = ann.create(cfg, seats=["human", "bot:greedy"], owner="hub:ann", origin="lab")
    _play(ann, k.ann_game, 3)
    k.bob_game = bob.create(cfg, seats=["human", "bot:greedy"], owner="hub:bob", origin="lab")
    _play(bob, k.bob_game, 4)
    # a table Bob hosts; Ann sits at it
    h = host_table("money_run", ["Bob", "Ann", "bot:greedy"], owner="hub:bob", store=bob)
    join_table(h.code, "Ann", owner="hub:ann", store=ann)
    k.table, k.code = h.game_id, h.code
    bob.post_result("lesson-1", "hub:bob", {"value": 5.0})
    ann.post_result("lesson-1", None, {"value": 3.0})


def dump(url: str) -> dict:
    """Every row of every moneynb table, in a fixed order (byte-for-byte comparable)."""
    import psycopg

    with psycopg.connect(url) as c:
        names = [r[0] for r in c.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_name LIKE 'moneynb%' ORDER BY table_name")]  # fmt: skip
        return {n: sorted(repr(r) for r in c.execute(f'SELECT * FROM "{n}"')) for n in names}


def run_kernel(env: dict, code: str, *args) -> dict:
    """Run ``code`` in a Python process with ``env`` (a kernel of that user's server);
    it prints one JSON line, returned."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(json.dumps, args)],
                       env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


ATTACKS = r"""
import json, os, sys, urllib.request, urllib.error
import moneynb
from moneynb.store import open_store
info = json.loads(sys.argv[1])
out = {}

def attempt(name, fn):
    try:
        fn()
        out[name] = "DONE"
    except Exception as e:
        out[name] = type(e).__name__ + ": " + str(e)[:200]

st = open_store()  # MONEYNB_STORE=hub: the service, with this server's own token
out["store"] = repr(st)
bob_game, table = info["bob_game"], info["table"]
cfg = moneynb.new_game("moolah", ["Ann", "Bot"], seed=9).config()
# read another's game (and everything about it)
attempt("read another's game", lambda: st.read(bob_game))
attempt("read another's game's actions", lambda: st.actions(bob_game))
attempt("info of another's game", lambda: st.info(bob_game))
attempt("watch another's game (LISTEN)", lambda: st.watch(bob_game))
attempt("list another's games", lambda: st.list_games("hub:bob"))
# wipe another's game
attempt("truncate another's game", lambda: st.truncate(bob_game, 4, 0))
attempt("append to another's game", lambda: st.append(bob_game, 4, "x"))
attempt("take over another's game", lambda: st.set_owner(bob_game, "hub:ann", False))
# another's seat at a table
attempt("claim another's seat", lambda: st.claim_seat(table, 0, "hub:ann"))
attempt("claim a seat for another", lambda: st.claim_seat(table, 0, "hub:bob"))
attempt("free another's seat", lambda: st.release_seat(table, 0))
attempt("give another's seat to a bot", lambda: st.set_seat_kind(table, 0, "bot:greedy"))
g = moneynb.load_game(st.read(table))
attempt("move for another's seat", lambda: st.append(table, len(g.actions),
        moneynb.make_bot("greedy", seed=1).choose(g)))
attempt("end a table by its status", lambda: st.set_status(table, {"over": True}))
out["table over"] = st.info(table).over
# results
attempt("post under another's name", lambda: st.post_result("lesson-1", "hub:bob", {"value": 9}))
attempt("post a non-number", lambda: st.post_result("lesson-1", None, {"value": "not a number"}))
attempt("post NaN", lambda: st.post_result("lesson-1", None, {"value": float("nan")}))
attempt("post 100 KB", lambda: st.post_result("lesson-1", None, {"value": 1, "x": "y" * 100_000}))
out["others' names in results"] = [r["owner"] for r in st.results("lesson-1")]
# forged owner, stale count, 10 MB action, wrong token
attempt("create as another", lambda: st.create(cfg, owner="hub:bob"))
attempt("create a game with another's seat", lambda: st.create(cfg, seats=[
    {"kind": "human", "owner": "hub:bob"}, "bot:greedy"], owner="hub:ann"))
mine = info["ann_game"]
n = st.count(mine)
attempt("stale action count", lambda: st.append(mine, n - 1, "x"))
attempt("10 MB action (client)", lambda: st.append(mine, n, "x" * 10_000_000))
from moneynb.store.hub import HubStore
attempt("wrong token", lambda: HubStore(st.url, "0" * 32).count(mine))
def raw(path, body, token=os.environ["JUPYTERHUB_API_TOKEN"]):
    req = urllib.request.Request(st.url + path, data=body, method="POST")
    req.add_header("Authorization", "token " + token)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return [r.status, json.loads(r.read())]
    except urllib.error.HTTPError as e:
        return [e.code, json.loads(e.read())]
big = json.dumps({"args": {"game_id": mine, "n": n, "action": "x" * 10_000_000}}).encode()
out["10 MB action (raw HTTP)"] = raw("api/call/append", big)
out["schema: a method that is not in the table"] = raw("api/call/drop_table", b"{}")
out["backup from a kernel"] = raw("api/call/backup", b'{"args": {"path": "/tmp/x"}}')
out["an argument the method does not take"] = raw(
    "api/call/read", json.dumps({"args": {"game_id": mine, "sql": "DROP TABLE x"}}).encode())
out["no token"] = raw("api/call/count", json.dumps({"args": {"game_id": mine}}).encode(), "")
# be the teacher by environment
os.environ["JUPYTERHUB_USER"] = "mrs_lee"
os.environ["MONEYNB_TEACHERS"] = "mrs_lee ann"
os.environ["MONEYNB_TEACHER_PASSCODE"] = "owl42"
attempt("teacher's list", lambda: st.list_all())
attempt("read as the teacher", lambda: st.read(bob_game, owner="hub:mrs_lee"))
attempt("classroom() as mrs_lee", lambda: moneynb.classroom(passcode="owl42", watch=False))
out["is_teacher"] = st.is_teacher("hub:mrs_lee")
# the database: nowhere in this kernel's reach
out["env"] = dict(os.environ)
out["whoami"] = st.whoami()
print(json.dumps(out))
"""


def test_a_table_played_by_two_students_across_the_service(klass):
    k = klass
    ann, bob = k.stores["ann"], k.stores["bob"]
    h = host_table("money_run", ["Bob", "Ann", "bot:greedy"], owner="hub:bob", store=bob)
    # a student not (yet) at the table sees its seats by the code, never its seed
    assert ann.list_table(h.code)[0].seed is None
    assert join_table(h.code, owner="hub:ann", store=ann).seat == 1
    assert ann.list_table(h.code)[0].seed is not None  # at the table: as today
    assert k.stores["mr_kim"].list_table(h.code)[0].seed is not None  # a teacher
    sessions = {"hub:bob": TableSession(h.game_id, "hub:bob", bob),
                "hub:ann": TableSession(h.game_id, "hub:ann", ann)}  # fmt: skip
    watcher = ann.watch(h.game_id)
    woke = 0
    for _ in range(500):
        s0 = sessions["hub:bob"]
        s0.sync()
        if s0.game.over:
            break
        for who, s in sessions.items():
            s.sync()
            if s.bot_to_move():
                s.play_bots()
            elif s.to_move in s.mine:
                s.act(moneynb.make_bot("greedy", seed=2).choose(s.game))
                if who == "hub:bob":
                    woke += watcher.wait(10)  # Ann's watcher sees Bob's move
    final = moneynb.load_game(bob.read(h.game_id))
    assert final.over and ann.info(h.game_id).over
    assert woke >= 1
    assert moneynb.load_game(ann.read(h.game_id)).actions == final.actions
    watcher.close()


def test_the_teachers_list_and_view_work(klass):
    from moneynb.ui.classroom import ClassroomView, classroom

    k = klass
    for teacher in ("mrs_lee", "mr_kim"):  # named in the config; in the hub group only
        st = k.stores[teacher]
        assert st.whoami() == {"owner": f"hub:{teacher}", "teacher": True}
        ids = {g.id for g in st.list_all()}
        assert {k.ann_game, k.bob_game, k.table} <= ids
        assert moneynb.load_game(st.read(k.bob_game)).actions
        names = {r["owner"] for r in st.results("lesson-1")}
        assert {"hub:ann", "hub:bob"} <= names
    view = classroom(store=k.stores["mrs_lee"], owner="hub:mrs_lee", watch=False)
    assert isinstance(view, ClassroomView) and view.owner == "hub:mrs_lee"
    view.close()
    with pytest.raises(PermissionError):
        classroom(store=k.stores["bob"], owner="hub:bob", watch=False)


def test_views_and_lessons_work_unchanged_on_the_hub_store(klass):
    from moneynb import teach

    k = klass
    ann = k.stores["ann"]
    v = moneynb.play("moolah", players=["Ann", "bot:greedy"], seed=4, store=ann, owner="hub:ann")
    for i in range(3):
        assert v.submit(moneynb.make_bot("greedy", seed=i).choose(v.game)), v.error.value
    assert ann.read(v.game_id) == v.game.to_json()
    assert v.game_id in {g.id for g in ann.list_games("hub:ann")}
    v.close()
    # no class yet: a lesson result says how to join, and nothing is posted
    note = teach.post_result("lesson-2", 4.5, store=ann, owner="hub:ann")
    assert note.posted is None and "join" in note.text
    # one seat per person at a table, even asked of the service directly
    h = host_table("money_run", ["Bob", "Ann", "Cy"], owner="hub:bob", store=k.stores["bob"])
    join_table(h.code, "Ann", owner="hub:ann", store=ann)
    with pytest.raises(SeatTaken, match="one seat per person"):
        ann.claim_seat(h.game_id, 2, "hub:ann")


def test_a_class_through_the_service_teacher_two_students_results_and_exports(klass, monkeypatch):
    """Issue 36 through the hub service: the teacher (by the service's config) opens a class,
    Ann and Bob join by code, play, post one result per run; the class view, roster, results
    and exports come through the service; a student's every teacher's move is refused with the
    class's data unchanged; the ended class refuses posts and moves."""
    import io
    import zipfile

    from moneynb import classes, teach
    from moneynb.store import (
        ClassEnded,
        GameClosed,
        NoSuchClass,
        NotClassTeacher,
        NotInClass,
    )
    from moneynb.ui.classroom import classroom, join_class

    k = klass
    lee, kim, ann, bob = (k.stores[u] for u in ("mrs_lee", "mr_kim", "ann", "bob"))
    with pytest.raises(NotAllowed, match="for teachers"):  # a student cannot open a class
        ann.open_class("Ann's class")
    with pytest.raises(NotAllowed, match="you are hub:mrs_lee"):  # nor a teacher for another
        lee.open_class("Kim's class", "hub:mr_kim")
    view = classroom(store=lee, watch=False)  # the owner: the service's whoami
    assert view.owner == "hub:mrs_lee"
    c = view.open_class("Year 10 B, hub")
    assert c.teacher == "hub:mrs_lee" and lee.get_class(code=c.code.lower()).id == c.id

    # two students join by code; on a hub the name and owner are the service's hub user, not
    # JUPYTERHUB_USER of the kernel (a student can set it)
    e = ann.join_class(c.code, name="Ann")
    assert (e.owner, e.name, e.class_id) == ("hub:ann", "Ann", c.id)
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    j = join_class(c.code.lower(), store=bob)
    assert (j.entry.owner, j.entry.name) == ("hub:bob", "bob"), j.error
    monkeypatch.delenv("JUPYTERHUB_USER")
    with pytest.raises(NotAllowed, match="you are hub:bob"):  # joining for another is refused
        bob.join_class(c.code, "hub:ann", "Ann again")
    with pytest.raises(NoSuchClass):
        bob.join_class("ZZZZZ9", name="Bob")
    assert bob.class_of().id == c.id and bob.get_class(class_id=c.id).name == "Year 10 B, hub"
    with pytest.raises(NoSuchClass):  # a class by id: its teacher and students only
        kim.get_class(class_id=c.id)

    # each plays a solo game (in the class) and posts a lesson result: one per run
    cfg = moneynb.new_game("moolah", ["You", "Bot"], seed=7).config()
    games = {}
    for who, st in (("ann", ann), ("bob", bob)):
        games[who] = st.create(cfg, seats=["human", "bot:greedy"], owner=f"hub:{who}",
                               origin="lab")  # fmt: skip
        _play(st, games[who], 2)
        assert st.info(games[who]).class_id == c.id
    p1 = teach.post_result("dice-hub", 3.5, seed=11, store=ann)
    assert p1.posted is not None and not p1.posted.replaced and p1.posted.class_id == c.id
    p2 = teach.post_result("dice-hub", 4.0, seed=12, store=ann)
    assert p2.posted.replaced and p2.posted.id == p1.posted.id and "Replaced" in p2.text
    posted = bob.post_class_result("dice-hub", value=2.5, seed=13)
    assert (posted.run, posted.value, posted.seed, posted.replaced) == (1, 2.5, 13, False)
    assert ann.my_result("dice-hub")["value"] == 4.0 and bob.current_run(c.id, "dice-hub") == 1
    with pytest.raises(NotAllowed, match="you are hub:bob"):  # not under another's name
        bob.post_class_result("dice-hub", "hub:ann", 9.0)
    with pytest.raises(ValueError):
        bob.post_class_result("dice-hub", value=float("nan"))

    # the teacher's view, roster and results come through the service, with names
    view.redraw()
    rows = {r["id"]: r for r in view.rows()}
    assert rows[games["ann"]]["student"] == "Ann" and rows[games["bob"]]["student"] == "bob"
    assert "data-students='2'" in view.roster_html.value
    assert "data-lesson='dice-hub' data-posted='2'" in view.lessons_html.value
    assert [(x.name, x.owner) for x in lee.roster(c.id)] == [("Ann", "hub:ann"), ("bob", "hub:bob")]
    res = lee.class_results(c.id, lesson="dice-hub")
    assert sorted((r["name"], r["value"], r["seed"], r["run"]) for r in res) == [
        ("Ann", 4.0, 12, 1), ("bob", 2.5, 13, 1)]  # fmt: skip
    assert lee.count_class_games(c.id) == 2 and lee.lessons(c.id) == {"dice-hub": 1}
    hist = teach.class_results("dice-hub", {2.5: 0.5, 4.0: 0.5}, store=lee, watch=False)
    assert sorted(hist.values) == [2.5, 4.0] and hist.roster == 2  # the teacher's, by whoami
    hist.stop()

    # a student's (and another teacher's) attempts at the teacher's methods: refused, unchanged
    before = dump(k.db)
    for st, student in ((ann, "hub:bob"), (bob, "hub:ann")):
        for name, *args in (
            ("clear_run", c.id, "dice-hub"),
            ("end_class", c.id),
            ("remove_student", c.id, student),
            ("give_seat", games["ann"], 0, "hub:bob"),
            ("close_table", games["ann"]),
            ("class_results", c.id),
            ("roster", c.id),
            ("lessons", c.id),
            ("class_games", c.id),
            ("classes",),
            ("end_class", c.id, "hub:mrs_lee"),
        ):
            with pytest.raises(NotAllowed, match="for teachers"):
                getattr(st, name)(*args)
    for call in (  # a teacher of the hub, but not this class's
        lambda: kim.end_class(c.id),
        lambda: kim.clear_run(c.id, "dice-hub"),
        lambda: kim.roster(c.id),
        lambda: kim.class_results(c.id),
        lambda: kim.remove_student(c.id, "hub:ann"),
    ):
        with pytest.raises(NotClassTeacher):
            call()
    with pytest.raises(NotAllowed, match="you are hub:mr_kim"):
        kim.end_class(c.id, "hub:mrs_lee")
    # odd-typed arguments: one clear error each
    with pytest.raises(ValueError, match="seed"):
        bob.post_class_result("dice-hub", value=1.0, seed="12")
    with pytest.raises(ValueError, match="limit"):
        lee.class_games(c.id, limit="5")
    with pytest.raises(ValueError, match="seat"):
        lee.give_seat(games["ann"], 10**20, "hub:bob")
    with pytest.raises(NoSuchClass):
        bob.get_class(code=["ABC"])
    assert dump(k.db) == before

    # exports through the service
    frame = classes.results_frame(c.id, store=lee)
    assert sorted(zip(frame["name"], frame["value"], strict=True)) == [("Ann", 4.0), ("bob", 2.5)]
    assert "Ann" in classes.results_csv(c.id, store=lee)
    roster = classes.roster_frame(c.id, store=lee)
    assert list(roster["name"]) == ["Ann", "bob"] and list(roster["games"]) == [1, 1]
    z = zipfile.ZipFile(io.BytesIO(classes.games_zip(c.id, store=lee)))
    index = json.loads(z.read("games.json"))
    assert {g["id"] for g in index["games"]} == set(games.values())
    for g in index["games"]:
        assert z.read(g["file"]).decode() == lee.read(g["id"])
        moneynb.load_game(z.read(g["file"]).decode())
    with pytest.raises(NotAllowed):
        classes.games_zip(c.id, store=bob)

    # the teacher clears the run and ends the class: further posts and moves are refused
    assert view.clear_run("dice-hub") == 2
    assert lee.class_results(c.id, lesson="dice-hub") == []
    w = lee.watch()  # the class view's and histogram's watcher wakes on a student's post
    assert bob.post_class_result("dice-hub", value=1.5).run == 2
    assert w.wait(30)
    view.end_class()
    assert lee.get_class(class_id=c.id).ended is not None
    with pytest.raises(NotInClass):
        ann.post_class_result("dice-hub", value=1.0)
    g = moneynb.load_game(ann.read(games["ann"]))
    with pytest.raises(GameClosed):
        ann.append(games["ann"], len(g.actions), moneynb.make_bot("greedy", seed=1).choose(g))
    with pytest.raises(ClassEnded):
        lee.clear_run(c.id, "dice-hub")
    with pytest.raises(ClassEnded):
        bob.join_class(c.code, name="Bob")
    assert len(lee.class_results(c.id, all_runs=True)) == 3
    view.close()


def test_bad_input_gets_one_clear_error_and_changes_nothing(klass):
    k = klass
    ann = k.stores["ann"]
    before = dump(k.db)
    n = ann.count(k.ann_game)
    with pytest.raises(ConflictError, match="changed elsewhere"):
        ann.append(k.ann_game, n + 3, "x")
    with pytest.raises(ValueError, match="Unknown|not|illegal|allow"):
        g = moneynb.load_game(ann.read(k.ann_game))
        ann.append(k.ann_game, len(g.actions), "no such action")
    with pytest.raises(NotAllowed, match="you are hub:ann"):
        ann.post_result("lesson-1", "hub:bob", {"value": 1.0})
    with pytest.raises(NotAllowed, match="does not know this token"):
        HubStore(k.hub.service_url, "f" * 32).list_games("hub:ann")
    with pytest.raises(NotAllowed, match="no method"):
        ann._call("close")
    with pytest.raises(NoSuchGame):
        ann.read("no-such-game")
    with pytest.raises(SeatTaken):
        ann.claim_seat(k.table, 2, "hub:ann")  # the bot's seat
    with pytest.raises(StoreUnavailable, match="cannot be reached"):
        HubStore("http://127.0.0.1:9/services/moneynb/", "x").count(k.ann_game)
    assert dump(k.db) == before


def test_one_student_cannot_flood_the_store(klass):
    """At most NEW_PER_MINUTE new games a minute per person, counted by the service."""
    from moneynb.service.rules import NEW_PER_MINUTE

    mr_kim = klass.stores["mr_kim"]
    cfg = moneynb.new_game("money_run", ["A", "B"], seed=1).config()
    made = 0
    with pytest.raises(NotAllowed, match=f"at most {NEW_PER_MINUTE} new games a minute"):
        for _ in range(NEW_PER_MINUTE + 1):
            mr_kim.create(cfg, owner="hub:mr_kim")
            made += 1
    assert made == NEW_PER_MINUTE
    assert len(mr_kim.list_games("hub:mr_kim")) == NEW_PER_MINUTE


def test_a_kernel_without_a_hub_token_or_service_gets_a_plain_error(monkeypatch):
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with pytest.raises(StoreUnavailable, match="JUPYTERHUB_API_TOKEN"):
        HubStore()
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "x")
    monkeypatch.delenv("MONEYNB_SERVICE_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_API_URL", raising=False)
    with pytest.raises(StoreUnavailable, match="MONEYNB_SERVICE_URL"):
        HubStore()


def test_the_service_refuses_to_start_without_its_store():
    env = {k: v for k, v in os.environ.items() if not k.startswith("MONEYNB_")}
    r = subprocess.run([sys.executable, "-m", "moneynb.service"], env=env, capture_output=True,
                       text=True, timeout=120, cwd=REPO)  # fmt: skip
    assert r.returncode != 0 and "MONEYNB_SERVICE_STORE" in r.stderr


def _settings(text: str) -> dict:
    """The settings a jupyterhub_config.py text makes: {section: {name: value}}."""
    ns: dict = {"get_config": lambda: _Config()}
    exec(compile(text, "jupyterhub_config.py", "exec"), ns)
    return {name: vars(section) for name, section in vars(ns["c"]).items()}


def test_the_example_config_never_gives_kernels_the_database():
    settings = _settings((REPO / "docs" / "jupyterhub_config.py").read_text())
    env = settings["Spawner"]["environment"]
    assert env["MONEYNB_STORE"] == "hub"
    assert not any("postgres" in str(v) for v in env.values())
    svc = settings["JupyterHub"]["services"][0]
    assert svc["name"] == "moneynb" and "postgres" in svc["environment"]["MONEYNB_SERVICE_STORE"]
    assert "access:services!service=moneynb" in settings["Spawner"]["server_token_scopes"]
    # docs/classroom.md shows the same settings as the file the hub test starts with
    doc = (REPO / "docs" / "classroom.md").read_text()
    block = doc.split("### Setup", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert _settings(block) == settings


class _Config:
    """A stand-in for traitlets' config object: attribute sections made on first use."""

    def __getattr__(self, name):
        section = type("Section", (), {})()
        object.__setattr__(self, name, section)
        return section


def test_every_attack_of_a_student_kernel_is_refused_and_the_class_data_is_unchanged(klass):
    k = klass
    k.spawning.join()
    if "error" in k.spawned:
        raise k.spawned["error"]
    env = k.spawned["env"]  # Ann's real server's environment: what her kernels inherit
    before = dump(k.db)
    info = {"bob_game": k.bob_game, "table": k.table, "ann_game": k.ann_game}
    out = run_kernel(env, ATTACKS, info)
    after = dump(k.db)
    assert out["store"].startswith("HubStore(")
    expect = {
        "read another's game": "NoSuchGame",
        "read another's game's actions": "NoSuchGame",
        "info of another's game": "NoSuchGame",
        "watch another's game (LISTEN)": "NoSuchGame",
        "list another's games": "NotAllowed",
        "truncate another's game": "NoSuchGame",
        "append to another's game": "NoSuchGame",
        "take over another's game": "NotAllowed",
        "claim another's seat": "SeatTaken",
        "claim a seat for another": "NotAllowed",
        "free another's seat": "NotAllowed",
        "give another's seat to a bot": "NotAllowed",
        "move for another's seat": "NotAllowed",
        "post under another's name": "NotAllowed",
        "post a non-number": "ValueError",
        "post NaN": "ValueError",
        "post 100 KB": "ValueError",
        "create as another": "NotAllowed",
        "create a game with another's seat": "NotAllowed",
        "stale action count": "ConflictError",
        "10 MB action (client)": "ValueError",
        "wrong token": "NotAllowed",
        "teacher's list": "NotAllowed",
        "read as the teacher": "NotAllowed",
        "classroom() as mrs_lee": "NotATeacher",
    }
    for attack, error in expect.items():
        assert out[attack].split(":")[0] == error, (attack, out[attack])
    assert "end a table by its status" in out and out["table over"] is False
    assert "bob" not in json.dumps(out["others' names in results"])
    assert out["others' names in results"].count("hub:ann") == 1
    status, body = out["10 MB action (raw HTTP)"]
    assert status == 413 and "at most 2,000,000 bytes" in body["message"]
    assert out["schema: a method that is not in the table"][0] == 403
    assert out["backup from a kernel"][0] == 403
    assert out["an argument the method does not take"][0] == 400
    assert out["no token"][0] == 403 and "token" in out["no token"][1]["message"]
    assert out["is_teacher"] is False and out["whoami"] == {"owner": "hub:ann", "teacher": False}
    # the database is nowhere in the kernel's reach: not in its environment, not in an answer
    port = k.db.rsplit(":", 1)[1].split("/")[0]
    assert out["env"]["MONEYNB_STORE"] == "hub"
    for key, value in out["env"].items():
        assert "postgres" not in value and f":{port}/" not in value, key
    assert "postgres" not in json.dumps(out)
    assert before == after  # byte-for-byte: nothing of the class changed
