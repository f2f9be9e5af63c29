"""A curious student against the moneynb service's HTTP API (issue 35, the "break" pass).

One real hub for the module (tests/hubserver.py: real PostgreSQL, JupyterHub,
configurable-http-proxy, the moneynb service), no user server spawned: the students' "kernels"
are hub tokens made through the hub's REST API with a user server's scopes, and the attacks
are raw HTTP requests to the service (not only through :class:`HubStore`), so forged, extra,
odd-typed and oversized arguments reach it exactly as a student would send them.
Users: ann, bob, cy, dee (students), mrs_lee (a teacher named in the service's configuration)."""

from __future__ import annotations

import json
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import moneynb
from moneynb.store import ConflictError, NotAllowed, SeatTaken
from moneynb.store.hub import HubStore
from moneynb.tables import host_table, join_table, table_bot

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hubserver import jupyterhub  # noqa: E402

KERNEL_SCOPES = ["users:activity!user", "access:services!service=moneynb"]
USERS = ("ann", "bob", "cy", "dee", "mrs_lee")


class Class:
    """The running hub, the students' tokens and stores, the database URL."""

    def call(self, user: str, method: str, body) -> tuple[int, dict]:
        """POST ``body`` (a dict: sent as JSON; bytes: as is) to ``api/call/<method>`` as
        ``user``; returns (HTTP status, JSON answer)."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        req = urllib.request.Request(self.url + "api/call/" + method, data=data, method="POST")
        req.add_header("Authorization", "token " + self.tokens[user])
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def klass(postgres):
    url = postgres.new_database()
    with jupyterhub(url, list(USERS)) as hub:
        k = Class()
        k.hub, k.db, k.url = hub, url, hub.service_url
        k.port = url.rsplit(":", 1)[1].split("/")[0]
        k.tokens = {u: hub.token(u, KERNEL_SCOPES) for u in USERS}
        k.stores = {u: HubStore(hub.service_url, t) for u, t in k.tokens.items()}
        yield k


def dump(url: str) -> dict:
    import psycopg

    with psycopg.connect(url) as c:
        names = [r[0] for r in c.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_name LIKE 'moneynb%' ORDER BY table_name")]  # fmt: skip
        return {n: sorted(repr(r) for r in c.execute(f'SELECT * FROM "{n}"')) for n in names}


def _table(k: Class, seats=("Bob", "Ann", "bot:greedy")):
    """A Money Run table Bob hosts, Ann seated at seat 1."""
    h = host_table("money_run", list(seats), owner="hub:bob", store=k.stores["bob"])
    join_table(h.code, "Ann", owner="hub:ann", store=k.stores["ann"])
    return h


def _choices(g) -> list:
    """Legal answers to ``g``'s decision (an amount decision: a few amounts in its range)."""
    d = g.decision
    return list(g.legal_actions()) or list(range(d.low, d.high + 1, d.step or 1))[:5]


def _leaks(k: Class, body: dict) -> bool:
    text = json.dumps(body)
    return "postgres" in text or f":{k.port}/" in text or "127.0.0.1" in text


def test_odd_typed_and_forged_arguments_get_one_clear_error_and_change_nothing(klass):
    k = klass
    h = _table(k)
    mine = k.stores["ann"].create(
        moneynb.new_game("moolah", ["Ann", "Bot"], seed=3).config(),
        seats=["human", "bot:greedy"], owner="hub:ann", origin="lab",
    )  # fmt: skip
    before = dump(k.db)
    attacks = {
        "count as a list": ("count", {"args": {"game_id": [h.game_id]}}),
        "count, unicode id": ("count", {"args": {"game_id": "ünï💥" * 5}}),
        "append, n as text": ("append", {"args": {"game_id": mine, "n": "0", "action": "x"}}),
        "append, n negative": ("append", {"args": {"game_id": mine, "n": -1, "action": "x"}}),
        "append, n true": ("append", {"args": {"game_id": mine, "n": True, "action": "x"}}),
        "extend, actions a dict": (
            "extend",
            {"args": {"game_id": mine, "n": 0, "actions": {"a": 1}}},
        ),
        "claim seat as text": ("claim_seat", {"args": {"game_id": h.game_id, "seat": "2"}}),
        "claim seat 10**20": ("claim_seat", {"args": {"game_id": h.game_id, "seat": 10**20}}),
        "claim seat -1": ("claim_seat", {"args": {"game_id": h.game_id, "seat": -1}}),
        "free a seat 10**20": (
            "release_seat",
            {"args": {"game_id": h.game_id, "seat": 10**20, "owner": "hub:ann"}},
        ),
        "actions from text": ("actions", {"args": {"game_id": mine, "start": "x"}}),
        "actions from 10**30": ("actions", {"args": {"game_id": mine, "start": 10**30}}),
        "list, limit -1": ("list_games", {"args": {"limit": -1}}),
        "list, limit text": ("list_games", {"args": {"limit": "all"}}),
        "list, limit 10**30": ("list_games", {"args": {"limit": 10**30}}),
        "list, exclude a number": ("list_games", {"args": {"exclude": 5}}),
        "list, game a list": ("list_games", {"args": {"game": ["moolah"]}}),
        "seated, limit -1": ("list_seated", {"args": {"limit": -1}}),
        "create, seed 10**30": (
            "create",
            {
                "args": {
                    "config": {
                        "game": "moolah",
                        "players": ["Ann", "Bot"],
                        "seed": 10**30,
                        "options": {},
                    }
                }
            },
        ),
        "create, config a list": ("create", {"args": {"config": [1, 2]}}),
        "results, lesson a list": ("results", {"args": {"lesson": ["a"]}}),
        "results, lesson 10 KB": ("results", {"args": {"lesson": "x" * 10_000}}),
        "post, lesson a dict": ("post_result", {"args": {"lesson": {}, "data": {"value": 1}}}),
        "body a list": ("count", b"[1, 2]"),
        "body not JSON": ("count", b"{'args': "),
        "body deeply nested": (
            "count",
            b'{"args": {"game_id": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}",
        ),
        "args a list": ("count", {"args": [h.game_id]}),
        "find_source, a list": ("find_source", {"args": {"source": ["x"]}}),
        "truncate, to as text": ("truncate", {"args": {"game_id": mine, "n": 0, "to": "0"}}),
        "truncate, to 10**30": ("truncate", {"args": {"game_id": mine, "n": 0, "to": 10**30}}),
        "set_owner, a list": ("set_owner", {"args": {"game_id": mine, "owner": ["hub:ann"]}}),
        "post, data a list": ("post_result", {"args": {"lesson": "l", "data": [1]}}),
        "create, seats a dict": (
            "create",
            {
                "args": {
                    "config": {
                        "game": "moolah",
                        "players": ["Ann", "Bot"],
                        "seed": 1,
                        "options": {},
                    },
                    "seats": {"0": "human"},
                }
            },
        ),
        "create, origin a list": (
            "create",
            {
                "args": {
                    "config": {
                        "game": "moolah",
                        "players": ["Ann", "Bot"],
                        "seed": 1,
                        "options": {},
                    },
                    "origin": ["lab"],
                }
            },
        ),
        "create, source a dict": (
            "create",
            {
                "args": {
                    "config": {
                        "game": "moolah",
                        "players": ["Ann", "Bot"],
                        "seed": 1,
                        "options": {},
                    },
                    "source": {"a": 1},
                }
            },
        ),
        "import, not a save": ("import_json", {"args": {"text": "{}"}}),
        "set_status, over only": ("set_status", {"args": {"game_id": mine, "status": [1]}}),
    }
    bad = {}
    for name, (method, body) in attacks.items():
        status, answer = k.call("ann", method, body)
        if status not in (400, 403, 404, 409, 413) or "message" not in answer or _leaks(k, answer):
            bad[name] = (status, answer)
    for query in ("since=x", "since=1&timeout=nan", "game=" + "x" * 5000, "timeout=-5"):
        req = urllib.request.Request(k.url + "api/watch?" + query)
        req.add_header("Authorization", "token " + k.tokens["ann"])
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status, answer = r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            status, answer = e.code, json.loads(e.read())
        if status not in (200, 400, 404) or _leaks(k, answer):
            bad["watch " + query[:20]] = (status, answer)
    assert not bad, "\n".join(f"{n}: {s} {str(a)[:300]}" for n, (s, a) in bad.items())
    assert dump(k.db) == before


def test_a_bot_seat_plays_only_its_own_move_and_a_human_seat_only_its_owners(klass):
    k = klass
    ann, bob = k.stores["ann"], k.stores["bob"]
    h = _table(k, ("Bob", "Ann", "bot:greedy"))
    g = moneynb.load_game(bob.read(h.game_id))
    for _ in range(200):  # play greedy moves (as their seats' owners) until the bot decides
        d = g.decision
        if d.player == 2:
            break
        who = bob if d.player == 0 else ann
        who.append(h.game_id, len(g.actions), moneynb.make_bot("greedy", seed=1).choose(g))
        g = moneynb.load_game(bob.read(h.game_id))
    assert g.decision.player == 2
    want = table_bot("bot:greedy", g, 2).choose(g)
    others = [a for a in _choices(g) if json.dumps(a) != json.dumps(want)]
    before = dump(k.db)
    n = len(g.actions)
    for a in others[:3]:
        with pytest.raises(NotAllowed, match="bot"):
            ann.append(h.game_id, n, a)
    # a human seat that is not yours (Bob's), even for the host of another table
    assert dump(k.db) == before
    ann.append(h.game_id, n, want)  # the bot's own move: anyone at the table may store it
    g = moneynb.load_game(bob.read(h.game_id))
    if g.decision is not None and g.decision.player == 0:
        with pytest.raises(NotAllowed, match="not yours"):
            ann.append(h.game_id, len(g.actions), moneynb.make_bot("greedy", seed=1).choose(g))


def test_two_appends_at_once_store_one_and_a_claim_race_gives_one_seat(klass):
    k = klass
    bob = k.stores["bob"]
    cfg = moneynb.new_game("moolah", ["Bob", "Bot"], seed=11).config()
    gid = bob.create(cfg, seats=["human", "bot:greedy"], owner="hub:bob", origin="lab")
    g = moneynb.load_game(bob.read(gid))
    moves = _choices(g)[:2]
    twins = [HubStore(k.url, k.tokens["bob"]) for _ in range(2)]  # two of Bob's kernels
    got: list = [None, None]

    def go(i):
        try:
            got[i] = twins[i].append(gid, 0, moves[i])
        except Exception as e:  # noqa: BLE001 - the loser's error is checked below
            got[i] = e

    threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(type(x).__name__ for x in got) == ["ConflictError", "int"], got
    assert bob.count(gid) == 1
    # two students race for the one free seat of a table: one gets it
    h = host_table("money_run", ["Bob", "Ann", "bot:greedy"], owner="hub:bob", store=bob)
    res: dict = {}

    def claim(user):
        try:
            res[user] = k.stores[user].claim_seat(h.game_id, 1, f"hub:{user}").owner
        except SeatTaken as e:
            res[user] = e

    threads = [threading.Thread(target=claim, args=(u,)) for u in ("ann", "cy")]
    [t.start() for t in threads]
    [t.join() for t in threads]
    owners = [v for v in res.values() if isinstance(v, str)]
    assert len(owners) == 1 and bob.info(h.game_id).seats[1].owner == owners[0], res
    with pytest.raises(ConflictError):  # a replayed request (the same n) is stale
        bob.append(gid, 0, moves[0])


def test_a_seated_student_cannot_forge_a_tables_status(klass):
    """The status line of a table (shown in the teacher's view and the lists) is the engine's:
    a student at the table cannot crown themselves leader, end it, or name who moves."""
    k = klass
    ann = k.stores["ann"]
    h = _table(k)
    true = ann.info(h.game_id)
    forged = {"extra": {"leader": "Ann", "scores": {"Ann": 10**9}}, "to_move": "Nobody",
              "turn": "Ann won the game", "over": True}  # fmt: skip
    status, _ = k.call("ann", "set_status", {"args": {"game_id": h.game_id, "status": forged}})
    status2, _ = k.call(
        "ann",
        "extend",
        {"args": {"game_id": h.game_id, "n": true.actions, "actions": [], "status": forged}},
    )
    now = ann.info(h.game_id)
    assert (now.over, now.to_move) == (true.over, true.to_move), (status, status2)
    assert now.extra.get("leader") != "Ann" and "scores" not in now.extra
    assert "won" not in now.turn
    # nor by hosting one: a new table's status line is the engine's too
    cfg = moneynb.new_game("money_run", ["Ann", "Dee"], seed=4).config()
    gid = k.stores["ann"].create(cfg, owner="hub:ann", origin="table", table="ANNFAKE",
                                 status=forged)  # fmt: skip
    made = ann.info(gid)
    assert (made.over, made.to_move, made.extra.get("leader")) == (False, "Ann", "")
    # a config the engine refuses is not stored
    bad = dict(cfg, options={"rounds": -3, "no such option": 1})
    status, answer = k.call("ann", "create", {"args": {"config": bad, "origin": "lab"}})
    assert status == 400, (status, answer)


def test_a_solo_game_ends_and_is_taken_back_only_as_the_engine_says(klass):
    """A student's kernel cannot store its own game as ended (the teacher's view reads
    ``over``) by creating or importing it with a forged status, nor take back moves past a
    die already seen when the stored game's undo policy is "safe" (the tester's findings of
    2026-12-06: both were stored). Each refusal changes nothing."""
    k = klass
    ann = k.stores["ann"]
    g = moneynb.new_game("money_moves", ["Ann", "Bot"], seed=3)
    forged = {"over": True, "to_move": ""}
    gid = ann.create(g.config(), owner="hub:ann", origin="lab", status=forged)
    assert ann.info(gid).over is False
    gid2 = ann.import_json(g.to_json(), owner="hub:ann", status=forged)
    assert ann.info(gid2).over is False
    # two moves: Ann rolls (a die is seen), then the next decision; "safe" is the default
    played = moneynb.new_game("money_moves", ["Ann", "Bot"], seed=3)
    for _ in range(3):
        played.apply(_choices(played)[0])
    assert played.options["undo"] == "safe" and played.chance_seen > 0
    gid3 = ann.import_json(played.to_json(), owner="hub:ann")
    before = dump(k.db)
    n = len(played.actions)
    status, answer = k.call("ann", "truncate", {"args": {"game_id": gid3, "n": n, "to": 0}})
    assert status == 403 and "already seen" in answer["message"], answer
    assert dump(k.db) == before
    # a take-back the policy allows is stored (nothing seen after the last action)
    if played.can_undo_to(n - 1):
        assert ann.truncate(gid3, n, n - 1) == n - 1


def test_a_branch_of_a_game_being_played_keeps_its_branch_point_through_the_service(klass):
    """The tester's F1 (2026-12-06) through the service's door: a branch of a game still
    being played ("Continue from here") draws its own chance after the branch point (the
    engine's ``reseed`` option, in its save). The service stores and replays it (a move is
    appended as the engine says), and its ``truncate`` refuses to take it back to before the
    branch point (there it would draw the original's chance again), while the same moves
    without the branch could be."""
    from moneynb.core.replay import Replay

    k = klass
    ann = k.stores["ann"]
    played = moneynb.new_game("moolah", ["Ann", "Bob"], seed=3)
    played.apply(50_000)  # the two first withdrawals: choices, no chance seen
    played.apply(50_000)
    assert played.can_undo_to(1)
    branch = Replay(played).branch(2)
    assert branch.options["reseed"][0][0] == 2
    gid = ann.import_json(branch.to_json(), owner="hub:ann")
    branch.apply("roll")
    assert ann.extend(gid, 2, ["roll"]) == 3
    assert moneynb.load_game(ann.read(gid)).state() == branch.state()
    before = dump(k.db)
    status, answer = k.call("ann", "truncate", {"args": {"game_id": gid, "n": 3, "to": 1}})
    assert status == 403 and "continued from" in answer["message"], answer
    assert dump(k.db) == before
    plain = ann.import_json(played.to_json(), owner="hub:ann")
    assert ann.truncate(plain, 2, 1) == 1  # the same moves, not a branch: allowed


def test_a_status_line_is_bounded(klass):
    k = klass
    ann = k.stores["ann"]
    gid = ann.create(moneynb.new_game("moolah", ["Ann", "Bot"], seed=3).config(),
                     seats=["human", "bot:greedy"], owner="hub:ann", origin="lab")  # fmt: skip
    big = {"extra": {"x": "y" * 1_500_000}}
    status, answer = k.call("ann", "set_status", {"args": {"game_id": gid, "status": big}})
    assert status == 400, (status, str(answer)[:200])
    assert len(json.dumps(ann.info(gid).extra)) < 20_000


def test_results_are_finite_bounded_numbers(klass):
    k = klass
    lesson = "attack-lesson"
    before = dump(k.db)
    for data in (b'{"value": 1e400}', b'{"value": NaN}', b'{"value": 1, "other": NaN}',
                 b'{"value": 1, "other": [Infinity]}', b'{"value": ' + b"9" * 4000 + b"}",
                 b'{"value": 1e300}', b'{"value": -1e300}', b'{"value": "3"}',
                 b'{"value": [3]}', b'{"value": true}'):  # fmt: skip
        body = b'{"args": {"lesson": "' + lesson.encode() + b'", "data": ' + data + b"}}"
        status, answer = k.call("cy", "post_result", body)
        assert status == 400 and "message" in answer, (data[:40], status, answer)
    assert dump(k.db) == before


def test_join_codes_cannot_be_guessed_through_the_service(klass):
    """A kernel asks the service directly (no kernel-side ledger): wrong codes are limited per
    person by the service, and the right code still works for someone else."""
    from moneynb.store.errors import TooManyTries
    from moneynb.tables import ALPHABET, CODE_LENGTH

    k = klass
    cy = k.stores["cy"]
    h = host_table("money_run", ["Bob", "Dee"], owner="hub:bob", store=k.stores["bob"])
    refused = None
    for i in range(200):
        code = "".join(ALPHABET[(i * 7 + j) % len(ALPHABET)] for j in range(CODE_LENGTH))
        if code == h.code:
            continue
        try:
            cy.list_table(code)
        except (NotAllowed, TooManyTries) as e:
            refused = (i, e)
            break
    assert refused is not None and refused[0] <= 50, "200 wrong join codes were all answered"
    assert "wait" in str(refused[1])
    assert k.stores["ann"].list_table(h.code)  # another student's right code still works


def test_lists_and_watch_tell_a_student_nothing_of_others_games(klass):
    k = klass
    dee = k.stores["dee"]
    h = _table(k)
    for method, args in [("list_games", {"owner": "hub:bob"}), ("list_seated", {"owner":
                         "hub:ann"}), ("list_all", {}), ("read", {"game_id": h.game_id}),
                         ("info", {"game_id": h.game_id}), ("export_json", {"game_id":
                         h.game_id}), ("actions", {"game_id": h.game_id})]:  # fmt: skip
        status, answer = k.call("dee", method, {"args": args})
        assert status in (403, 404), (method, status, str(answer)[:300])
        assert h.code not in json.dumps(answer) and "seed" not in json.dumps(answer)
    # by the join code: the seats, never the seed
    assert all(i.seed is None for i in dee.list_table(h.code))
    # a watch of another's game reads as a missing game
    req = urllib.request.Request(k.url + f"api/watch?game={h.game_id}&timeout=0")
    req.add_header("Authorization", "token " + k.tokens["dee"])
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=60)
    assert e.value.code == 404


def test_a_branch_with_dice_already_seen_is_marked_by_the_service_whatever_the_kernel_says(
    klass,
):
    """ "Continue from here" of a finished game keeps its dice, so a student could store a
    "won" game whose every roll they knew. The service's store derives it from the games it
    holds, never from the request: a student's kernel that stores the branch calling it a
    new game ("lab"), that renames the players or moves the seed into a ``reseed`` point to
    hide the parent, that imports the finished save again, or that sends a flag saying it
    is not a branch (refused, nothing changed) still gets a game marked as practice, and
    the teacher's view of the class through the service shows it marked and leaves it out
    of the standings. A branch of an unfinished game (fresh dice) is not practice."""
    from moneynb.bots import make_bot
    from moneynb.core.replay import Replay
    from moneynb.ui.classroom import ClassroomView

    k = klass
    dee, teacher = k.stores["dee"], k.stores["mrs_lee"]
    kl = teacher.open_class("The branch door", "hub:mrs_lee")
    dee.join_class(kl.code, "hub:dee", "Dee")
    done = moneynb.new_game("money_moves", ["You", "Greedy bot 1"], seed=2)
    bot = make_bot("greedy", seed=1)
    while not done.over:
        done.apply(bot.choose(done))
    assert done.winner == "You"
    won = dee.create(done.config(), seats=["human", "bot:greedy"], owner="hub:dee", origin="lab")
    assert dee.extend(won, 0, done.actions) == len(done.actions) and dee.info(won).over
    b = Replay(done).branch(4)  # the app's "Continue from here" of the finished game
    conf, seed = b.config(), done.config()["seed"]

    def create(args) -> tuple[int, str | dict]:
        """(HTTP status, the new game's id, else the error answer)."""
        status, answer = k.call("dee", "create",
                                {"args": {"seats": ["human", "bot:greedy"], **args}})  # fmt: skip
        return status, answer.get("result", answer)

    # a flag of the kernel's own is no argument of the service: refused, nothing changed
    before = dump(k.db)
    for flag in ({"branch_of": None}, {"chance": "fresh"}, {"practice": False}):
        status, answer = create({"config": conf, "actions": b.actions, **flag})
        assert status == 400 and "takes no argument" in answer["message"], answer
    status, answer = k.call("dee", "set_status", {"args": {"game_id": won,
                                                          "status": {"chance": "fresh"}}})  # fmt: skip
    assert status == 400, answer
    assert dump(k.db) == before
    made = {}
    # the branch stored as a new game of the lab, its parent named nowhere
    status, made["lab"] = create({"config": conf, "actions": b.actions, "origin": "lab"})
    assert status == 200, made["lab"]
    # the players renamed and no moves: the seed alone
    renamed = {**conf, "players": ["Dee", "Robo"]}
    status, made["renamed"] = create({"config": renamed, "origin": "lab"})
    assert status == 200, made["renamed"]
    # another seed, the seen one moved into a reseed point at the start, or one to come
    opts = conf["options"]
    for name, points in (("reseed at 0", [[0, seed]]), ("reseed to come", [[3, seed]]),
                         ("reseed at the branch", [[4, seed]])):  # fmt: skip
        c = {**conf, "seed": seed + 1000, "options": {**opts, "reseed": points}}
        acts = b.actions if name == "reseed at the branch" else []
        if name == "reseed at the branch":
            c["seed"] = seed  # a branch that says its chance is fresh, from a seen seed
        status, made[name] = create({"config": c, "actions": acts})
        assert status == 200, (name, made[name])
    # the finished save imported again
    status, answer = k.call("dee", "import_json", {"args": {"text": done.to_json(),
                            "seats": ["human", "bot:greedy"]}})  # fmt: skip
    assert status == 200, answer
    made["import"] = answer["result"]
    for name, gid in made.items():
        i = dee.info(gid)
        assert i.practice and i.chance == "known" and i.chance_from == won, (name, i)
        assert i.class_id == kl.id
    assert dee.info(made["lab"]).branch_of == won and dee.info(made["lab"]).branch_at == 4
    assert dee.info(made["import"]).over and not dee.info(won).practice
    # a branch of an unfinished game draws fresh dice: a game like any other
    live = moneynb.new_game("money_moves", ["You", "Greedy bot 1"], seed=3)
    for _ in range(4):
        live.apply(bot.choose(live))
    assert not live.over
    unfinished = dee.import_json(live.to_json(), seats=["human", "bot:greedy"])
    fb = Replay(live).branch(2)
    fresh = dee.import_json(fb.to_json(), seats=["human", "bot:greedy"])
    i = dee.info(fresh)
    assert (i.branch_of, i.branch_at, i.chance, i.practice) == (unfinished, 2, "fresh", False)
    # the teacher's view of the class, through the service
    view = ClassroomView(teacher, owner="hub:mrs_lee", class_id=kl.id, watch=False)
    view.redraw()
    rows = {r["id"]: r for r in view.rows()}
    for gid in made.values():
        assert rows[gid]["practice"] and "practice: " in rows[gid]["state"]
    assert (
        "replayed from a finished game at step 4, dice already seen" in rows[made["lab"]]["state"]
    )
    assert not rows[won]["practice"] and not rows[fresh]["practice"]
    (dee_row,) = view.standings(view.rows(), teacher.roster(kl.id, "hub:mrs_lee"))
    assert (dee_row["finished"], dee_row["won"], dee_row["practice"]) == (1, 1, len(made))
    assert f"data-practice='{len(made)}'" in view.standings_html.value
    view.stop()


def test_a_hot_seat_self_win_and_house_rules_are_not_counted_through_the_service(klass):
    """F4 on a hub: Dee's kernel stores a finished hot-seat game (both seats people, both
    hers: a guaranteed win) and a finished Moolah game with ``max_turns=2``. The service
    stores the seats and the options the engine accepted, and the teacher's view, reading
    them through the service, marks both rows and counts neither as a finished game or a
    win; her ordinary game against a bot counts."""
    from moneynb.bots import make_bot
    from moneynb.ui.classroom import ClassroomView

    k = klass
    dee, teacher = k.stores["dee"], k.stores["mrs_lee"]
    kl = teacher.open_class("The hot seat", "hub:mrs_lee")
    dee.join_class(kl.code, "hub:dee", "Dee")
    bot = make_bot("greedy", seed=1)
    made = {}
    for name, game, players, seats, options in (
        ("hot", "money_moves", ["You", "Zed"], ["human", "human"], {}),
        ("capped", "moolah", ["You", "Greedy bot 1"], ["human", "bot:greedy"], {"max_turns": 2}),
        ("ordinary", "money_moves", ["You", "Greedy bot 1"], ["human", "bot:greedy"], {}),
    ):
        g = moneynb.new_game(game, players, seed=11 + len(made), **options)
        while not g.over:
            g.apply(bot.choose(g))
        status, answer = k.call("dee", "create", {"args": {"config": g.config(),
                                                           "seats": seats, "origin": "lab"}})  # fmt: skip
        assert status == 200, answer
        gid = answer["result"]
        assert dee.extend(gid, 0, g.actions) == len(g.actions) and dee.info(gid).over
        made[name] = gid
    view = ClassroomView(teacher, owner="hub:mrs_lee", class_id=kl.id, watch=False)
    view.redraw()
    rows = {r["id"]: r for r in view.rows()}
    assert "not counted: one player plays 2 person seats" in rows[made["hot"]]["state"]
    assert "house rules: max turns 2" in rows[made["capped"]]["state"]
    assert (
        rows[made["ordinary"]]["counted"] and "not counted" not in rows[made["ordinary"]]["state"]
    )
    (dee_row,) = view.standings(view.rows(), teacher.roster(kl.id, "hub:mrs_lee"))
    assert (dee_row["finished"], dee_row["practice"], dee_row["uncounted"]) == (1, 0, 2)
    assert dee_row["won"] == int(rows[made["ordinary"]]["winner"] == "You")
    assert "data-uncounted='2'" in view.standings_html.value
    view.stop()
