"""Class sessions (issue 36): the store's classes, roster, runs and typed results on SQLite and
PostgreSQL, the exports, pooled lessons (teach) and the teacher's class view, without a browser
(tests/browser/test_class_browser.py drives them in Voila and JupyterLab).

Cases of the issue: 1. students told apart by name; 2. results per class, one per student per
run, differing seeds, no teacher post, a run cleared; 3. the histogram on the boards' robust
figure path with the class mean and the expected value; 4. one class's games with paging, a
finished game's state, a live view; 5. a seat given to another student."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from waiting import wait_for

import moneynb
from moneynb import classes, teach
from moneynb.bots import make_bot
from moneynb.core.chance import D6
from moneynb.store import (
    ClassEnded,
    GameClosed,
    NoSuchClass,
    NotClassTeacher,
    NotInClass,
    SeatTaken,
    StoreError,
    open_store,
)
from moneynb.tables import TableSession, host_table, join_table

T = "hub:teacher"
ANN, BOB, CY = "hub:ann", "hub:bob", "hub:cy"


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "st" / "games.sqlite3")
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def sqlite_location(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture(autouse=True)
def _teacher(monkeypatch):
    monkeypatch.setenv("MONEYNB_TEACHERS", "teacher")
    monkeypatch.delenv("MONEYNB_TEACHER_PASSCODE", raising=False)


def opened(location, students=(("Ann", ANN), ("Bob", BOB), ("Cy", CY))):
    st = open_store(location)
    k = classes.open_class("Year 10 B, 3 Dec", owner=T, store=location)
    for name, owner in students:
        st.join_class(k.code.lower(), owner, name)
    return st, k


def solo(st, owner, name="moolah", seed=1, moves=0, players=("You", "Greedy bot 1")):
    g = moneynb.new_game(name, players=list(players), seed=seed)
    bot = make_bot("greedy", seed=1)
    for _ in range(moves):
        if g.over:
            break
        g.apply(bot.choose(g))
    return st.create(g.config(), seats=["human", "bot:greedy"], owner=owner, origin="lab",
                     actions=g.actions, status={"over": g.over})  # fmt: skip


# ----- the store -----------------------------------------------------------------------------
def test_a_class_owns_its_students_games_tables_and_results(location):
    st, k = opened(location)
    assert k.open and len(k.code) == 6 and st.get_class(code=k.code.lower()).id == k.id
    assert [e.name for e in st.roster(k.id, T)] == ["Ann", "Bob", "Cy"]
    # case 1: names, refused joins say why and change nothing
    with pytest.raises(StoreError, match="already in"):
        st.join_class(k.code, "hub:dee", "ann")
    with pytest.raises(StoreError, match="you teach"):
        st.join_class(k.code, T, "Sir")
    with pytest.raises(NoSuchClass):
        st.join_class("NOPE99", "hub:dee", "Dee")
    with pytest.raises(ValueError):
        st.join_class(k.code, "hub:dee", " ")
    assert len(st.roster(k.id, T)) == 3
    # a student's solo game, a table, and a stranger's game
    a = solo(st, ANN)
    h = host_table("moolah", ["Bob", "Cy"], owner=BOB, store=location, seed=2)
    join_table(h.code, "Cy", owner=CY, store=location)
    stranger = solo(st, "hub:zed")
    assert st.info(a).class_id == k.id and st.info(h.game_id).class_id == k.id
    assert st.info(stranger).class_id is None
    # tables first, then solo games; paging
    games = st.class_games(k.id, T)
    assert [g.id for g in games] == [h.game_id, a] and st.count_class_games(k.id, T) == 2
    assert [g.id for g in st.class_games(k.id, T, offset=1, limit=1)] == [a]
    assert [g.id for g in st.class_games(k.id, T, tables=False)] == [a]
    # teacher-only methods refuse a student
    for call in (lambda: st.roster(k.id, ANN), lambda: st.class_games(k.id, ANN),
                 lambda: st.end_class(k.id, ANN), lambda: st.class_results(k.id, ANN),
                 lambda: st.clear_run(k.id, "dice-10", ANN)):  # fmt: skip
        with pytest.raises(NotClassTeacher):
            call()
    assert [c.id for c in st.classes(T)] == [k.id] and st.classes(ANN) == []


def test_one_current_result_per_student_per_run_and_a_cleared_run(location):
    st, k = opened(location)
    p1 = st.post_class_result("dice-10", ANN, 3.1, seed=11)
    p2 = st.post_class_result("dice-10", ANN, 3.4, seed=12)  # a re-run replaces it
    assert (p1.replaced, p2.replaced, p2.id, p2.run) == (False, True, p1.id, 1)
    st.post_class_result("dice-10", BOB, 3.9, seed=13)
    st.post_class_result("other", BOB, 1.0)
    rows = st.class_results(k.id, T, lesson="dice-10")
    assert [(r["name"], r["value"], r["seed"]) for r in rows] == [
        ("Ann", 3.4, 12),
        ("Bob", 3.9, 13),
    ]
    with pytest.raises(NotInClass, match="teacher"):
        st.post_class_result("dice-10", T, 3.5)
    with pytest.raises(NotInClass, match="no open class"):
        st.post_class_result("dice-10", "hub:zed", 3.5)
    with pytest.raises(ValueError, match="finite"):
        st.post_class_result("dice-10", ANN, float("nan"))
    assert st.class_results(k.id, T, lesson="dice-10")[0]["value"] == 3.4  # nothing changed
    # the teacher clears the run: empty, and each student posts again in run 2
    assert st.clear_run(k.id, "dice-10", T) == 2 and st.current_run(k.id, "dice-10") == 2
    assert st.class_results(k.id, T, lesson="dice-10") == []
    p3 = st.post_class_result("dice-10", ANN, 3.6, seed=14)
    assert (p3.run, p3.replaced) == (2, False) and st.my_result("dice-10", ANN)["value"] == 3.6
    every = st.class_results(k.id, T, lesson="dice-10", all_runs=True)
    assert sorted((r["run"], r["value"]) for r in every) == [(1, 3.4), (1, 3.9), (2, 3.6)]
    assert st.lessons(k.id, T) == {"dice-10": 2, "other": 1}


def test_remove_give_a_seat_close_a_table_and_end_the_class(location):
    st, k = opened(location)
    h = host_table("moolah", ["Bob", "Cy"], owner=BOB, store=location, seed=2)
    # case 5: Cy's seat is held by Cy's earlier browser; the teacher gives it to Cy here
    join_table(h.code, "Cy", owner="browser:" + "c" * 32, store=location)
    with pytest.raises(SeatTaken):
        st.claim_seat(h.game_id, 1, CY)
    st.give_seat(h.game_id, 1, CY, T)
    assert st.info(h.game_id).seats[1].owner == CY
    with pytest.raises(NotInClass):
        st.give_seat(h.game_id, 1, "hub:zed", T)
    with pytest.raises(SeatTaken, match="already holds"):
        st.give_seat(h.game_id, 0, CY, T)
    # remove a student: off the roster, no more posts, cannot join again
    st.remove_student(k.id, ANN, T)
    assert [e.name for e in st.roster(k.id, T)] == ["Bob", "Cy"]
    with pytest.raises(NotInClass):
        st.post_class_result("dice-10", ANN, 3.0)
    with pytest.raises(StoreError, match="removed"):
        st.join_class(k.code, ANN, "Ann")
    # close a table: no more moves stored, still readable
    s = TableSession(h.game_id, BOB, location)
    s.act(make_bot("greedy", seed=0).choose(s.game))
    st.close_table(h.game_id, T)
    with pytest.raises(GameClosed):
        st.append(h.game_id, st.count(h.game_id), "roll")
    assert moneynb.load_game(st.read(h.game_id)).actions
    # end the class: nothing more can be added, everything stays readable
    a = solo(st, BOB)
    st.end_class(k.id, T)
    assert not st.get_class(class_id=k.id).open and st.class_of(BOB) is None
    with pytest.raises(ClassEnded):
        st.join_class(k.code, "hub:dee", "Dee")
    with pytest.raises(GameClosed):
        st.append(a, 0, "roll")
    with pytest.raises(NotInClass):
        st.post_class_result("dice-10", BOB, 3.0)
    with pytest.raises(ClassEnded):
        st.clear_run(k.id, "dice-10", T)
    assert st.info(solo(st, BOB)).class_id is None  # a game after the end is nobody's class
    assert len(st.class_games(k.id, T)) == 2 and st.roster(k.id, T)


def test_exports_csv_and_a_zip_of_saves(location):
    st, k = opened(location)
    a = solo(st, ANN, moves=6)
    h = host_table("money_run", ["Bob", "bot:greedy"], owner=BOB, store=location, seed=4)
    st.post_class_result("dice-10", ANN, 3.25, seed=5)
    st.post_class_result("dice-10", BOB, 3.75, seed=6)
    st.clear_run(k.id, "dice-10", T)
    st.post_class_result("dice-10", CY, 4.0, seed=7)
    import pandas as pd

    res = pd.read_csv(io.StringIO(classes.results_csv(k.id, T, location)))
    assert list(res.columns) == classes.RESULT_COLUMNS
    assert sorted(zip(res["name"], res["value"], res["run"], res["current"], strict=True)) == [
        ("Ann", 3.25, 1, False), ("Bob", 3.75, 1, False), ("Cy", 4.0, 2, True)]  # fmt: skip
    roster = pd.read_csv(io.StringIO(classes.roster_csv(k.id, T, location)))
    assert list(roster["name"]) == ["Ann", "Bob", "Cy"]
    assert list(roster["games"]) == [1, 0, 0] and list(roster["tables"]) == [0, 1, 0]
    z = zipfile.ZipFile(io.BytesIO(classes.games_zip(k.id, T, location)))
    index = json.loads(z.read("games.json"))
    assert index["code"] == k.code and {g["id"] for g in index["games"]} == {a, h.game_id}
    for g in index["games"]:
        text = z.read(g["file"]).decode()
        assert text == st.read(g["id"]) and moneynb.load_game(text).name == g["game"]
    assert any(g["student"] == "Ann" for g in index["games"])
    with pytest.raises(NotClassTeacher):
        classes.results_csv(k.id, ANN, location)


# ----- pooled lessons (teach) -----------------------------------------------------------------
def test_pooled_lesson_posts_one_result_per_student_and_the_teacher_sees_them(sqlite_location):
    loc = sqlite_location
    st, k = opened(loc)
    # the default seed differs per student (and per run); a lesson may fix one
    seeds = {teach.lesson_seed() for _ in range(20)}
    assert len(seeds) == 20 and teach.lesson_seed(7) == 7
    with pytest.raises(ValueError):
        teach.lesson_seed("x")
    n1 = teach.post_result("dice-10", 3.0, seed=1, store=loc, owner=ANN)
    n2 = teach.post_result("dice-10", 3.5, seed=2, store=loc, owner=ANN)
    assert not n1.posted.replaced and n2.posted.replaced and "Replaced" in n2.text
    teach.post_result("dice-10", 4.0, seed=3, store=loc, owner=BOB)
    assert teach.post_result("dice-10", 9.0, store=loc, owner=T).posted is None  # the teacher
    assert "no class" in teach.post_result("dice-10", 9.0, store=loc, owner="hub:zed").text
    exact = teach.mean_distribution(D6.distribution(), 10)
    view = teach.class_results("dice-10", exact, store=loc, owner=T)
    try:
        from moneynb.ui.boards.base import BoardFigure

        assert isinstance(view.figure, BoardFigure)  # case 3: the boards' robust path
        assert sorted(view.values) == [3.5, 4.0] and view.roster == 3
        names = [tr.name for tr in view.figure.data]
        assert names == ["the class (2 results)", "exact (engine)", "class mean 3.75",
                         "expected value 3.5"]  # fmt: skip
        assert list(view.figure.data[2].x) == [3.75, 3.75]
        assert "data-posted='2' data-roster='3'" in view.note.value
        assert sum(view.figure.data[1].y) == pytest.approx(1.0)
        teach.post_result("dice-10", 2.5, seed=4, store=loc, owner=CY)  # live
        assert wait_for(lambda: len(view.values) == 3, timeout=30)
        assert view.clear() == 2 and view.values == [] and "data-posted='0'" in view.note.value
        teach.post_result("dice-10", 3.0, seed=5, store=loc, owner=ANN)
        assert wait_for(lambda: view.values == [3.0], timeout=30)
    finally:
        view.stop()
    # a student's notebook: one line, no figure
    other = teach.class_results("dice-10", exact, store=loc, owner=ANN, watch=False)
    assert other.figure is None and "teacher's screen" in other.note.value
    with pytest.raises(ValueError, match="a result is a number"):
        teach.post_result("dice-10", "lots", store=loc, owner=ANN)
    with pytest.raises(ValueError, match="lesson code"):
        teach.post_result("", 1, store=loc, owner=ANN)


# ----- the class view ------------------------------------------------------------------------
def test_the_class_view_names_students_shows_state_and_follows_a_table_live(sqlite_location):
    from moneynb.ui.classroom import NotATeacher, classroom, join_class

    loc = sqlite_location
    with pytest.raises(NotATeacher):
        classroom(store=loc, owner=ANN)
    st = open_store(loc)
    view = classroom(store=loc, owner=T, watch=True)
    try:
        assert view.class_id is None and view.class_box.layout.display == "none"
        k = view.open_class("Year 10 B, 3 Dec")
        assert f"data-code='{k.code}'" in view.header.value
        for name, owner in (("Ann", ANN), ("Bob", BOB), ("Cy", CY)):
            j = join_class(k.code, name, store=loc, owner=owner)
            assert "Year 10 B, 3 Dec" in j.line.value
        with pytest.raises(StoreError):
            join_class(k.code, "Ann", store=loc, owner="hub:dee")
        a = solo(st, ANN, moves=4)
        done = solo(st, BOB, moves=4000, name="money_run")  # played to the end
        assert st.info(done).over
        h = host_table("moolah", ["Bob", "Cy"], owner=BOB, store=loc, seed=2)
        join_table(h.code, "Cy", owner=CY, store=loc)
        for i in range(12):  # paging: 15 games, 12 a page
            solo(st, CY, seed=10 + i)
        assert wait_for(lambda: "data-games='15'" in view.list_html.value, timeout=30)
        assert "data-students='3'" in view.roster_html.value
        rows = {r["id"]: r for r in view.rows()}
        assert rows[a]["student"] == "Ann" and rows[a]["players"][0] == "Ann"  # not "You"
        g = moneynb.load_game(st.read(done))
        assert (
            rows[done]["state"] == f"game over · {g.winner} won"
            and rows[done]["turn"] == "finished"
        )
        assert "to move" not in rows[done]["state"]
        # the leader is the engine's
        from moneynb.ui.classroom import leader_of

        assert rows[a]["leader"] == leader_of(moneynb.load_game(st.read(a)))
        assert "Moolah (table " in view.roster_html.value  # Bob and Cy at the table
        first = view.list_html.value.index("data-id='")  # tables first
        assert view.list_html.value[first + 9 :].startswith(h.game_id)
        assert "games 1–12 of 15" in view.page_label.value
        view.turn_page(1)
        assert "games 13–15 of 15" in view.page_label.value and view.next_button.disabled
        # a live, read-only view of the table follows its moves
        live = view.show_game(h.game_id)
        s = TableSession(h.game_id, BOB, loc)
        before = len(live.game.actions)
        s.act(make_bot("greedy", seed=0).choose(s.game))
        assert wait_for(lambda: f"data-actions='{before + 1}'" in live.status.value, timeout=30)
        assert len(live.game.actions) == before + 1
        # actions: give a seat, close the table, remove a student, exports, end
        view.give_seat(h.game_id, 1, ANN)
        assert st.info(h.game_id).seats[1].owner == ANN
        view.close_table(h.game_id)
        assert st.info(h.game_id).closed is not None
        view.remove(CY)
        assert "data-students='2'" in view.roster_html.value
        data = view.export("games")
        assert len(zipfile.ZipFile(io.BytesIO(data)).namelist()) == 16
        assert "moneynb-class-download-games" in view.downloads.value
        view.end_class()
        assert "data-state='ended'" in view.header.value and view.end_button.disabled
        with pytest.raises(ClassEnded):
            join_class(k.code, "Dee", store=loc, owner="hub:dee")
        # an earlier class opens again from the list
        k2 = view.open_class("Year 11 A")
        assert [v for _, v in view.earlier.options] == [k2.id, k.id]
        view.show_class(k.id)
        assert "data-state='ended'" in view.header.value
    finally:
        view.stop()


# ----- migrations ----------------------------------------------------------------------------
def test_a_version_2_store_migrates_keeping_games_and_results(location):
    import sqlalchemy as sa

    from moneynb.store.store import SCHEMA_VERSION, _migrate

    s = open_store(location, fresh=True)
    eng = s._engine
    with eng.begin() as c:
        for t in ("moneynb_roster", "moneynb_runs", "moneynb_classes", "moneynb_results",
                  "moneynb_actions", "moneynb_seats", "moneynb_games", "moneynb_schema"):  # fmt: skip
            c.execute(sa.text(f"DROP TABLE {t}"))
    _migrate(eng, s.dialect, upto=2)
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=3)
    with eng.begin() as c:
        c.execute(sa.text(
            "INSERT INTO moneynb_games (id, game, players, seed, options, owner, origin, "
            "created, updated, n_actions, over, turn, to_move, person_moved, extra) VALUES "
            "('g1', 'moolah', :p, 3, :o, 'hub:ann', 'lab', 1, 1, 0, false, '', '', false, '{}')"
        ), {"p": json.dumps(g.players), "o": json.dumps(g.config()["options"])})  # fmt: skip
        c.execute(sa.text("INSERT INTO moneynb_seats (game_id, seat, name, kind) VALUES "
                          "('g1', 0, 'Ann', 'human'), ('g1', 1, 'Bob', 'human')"))  # fmt: skip
        c.execute(sa.text("INSERT INTO moneynb_results (lesson, owner, at, data) VALUES "
                          "('dice-10', NULL, 1, '{\"value\": 3}')"))  # fmt: skip
    s.close()
    s2 = open_store(location, fresh=True)
    try:
        assert s2.schema_version() == SCHEMA_VERSION == 4
        assert s2.read("g1") == g.to_json() and s2.info("g1").class_id is None
        assert s2.results("dice-10")[0]["data"] == {"value": 3}
        k = s2.open_class("After the upgrade", T)
        s2.join_class(k.code, ANN, "Ann")
        assert s2.post_class_result("dice-10", ANN, 3.5).run == 1
    finally:
        s2.close()


def test_the_class_view_marks_practice_games_and_leaves_them_out_of_the_standings(location):
    """A student who replays their finished game and presses "Continue from here" gets a new
    stored game with the same dice (a "what if" lesson): its chance outcomes are known
    before they are played. The store marks it (and a copy of the finished game imported
    again), the teacher's view says so in plain words on its row, and the standings count
    only games played without foreknowledge. A branch of an unfinished game (fresh dice) is
    a game like any other, with a note. Before, such a game read like any other and a copy
    of a won game was a second win."""
    from moneynb.core.replay import Replay
    from moneynb.ui.classroom import classroom
    from moneynb.ui.replay import ReplayView

    st, k = opened(location, students=(("Ann", ANN), ("Bob", BOB)))
    won = solo(st, ANN, name="money_moves", seed=2, moves=4000)  # Ann ("You") wins
    g = moneynb.load_game(st.read(won))
    assert g.over and g.winner == "You"
    lost = solo(st, BOB, name="money_moves", seed=1, moves=4000)  # Bob's bot wins
    assert moneynb.load_game(st.read(lost)).winner == "Greedy bot 1"
    # Ann: "Continue from here" at step 4 of her finished game, through the replay view
    rv = ReplayView(st.read(won), coach=False, store=location, owner=ANN, game_id=won,
                    seats={1: "bot:greedy"})  # fmt: skip
    rv.branch(4)
    branch = rv.branched.game_id
    assert branch is not None and st.info(branch).class_id == k.id
    assert "So it is practice" in rv.branch_box.children[0].value  # the store marked it
    # ... and the finished game stored again (a won game with its dice known)
    copy = st.import_json(st.read(won), owner=ANN, seats=["human", "bot:greedy"])
    assert st.info(copy).over
    # Bob: a branch of his unfinished game draws fresh dice: not practice
    live = moneynb.new_game("money_moves", players=["You", "Greedy bot 1"], seed=3)
    bot = make_bot("greedy", seed=1)
    for _ in range(4):
        live.apply(bot.choose(live))
    assert not live.over
    unfinished = st.create(live.config(), seats=["human", "bot:greedy"], owner=BOB,
                           actions=live.actions)  # fmt: skip
    fb = Replay(live).branch(2)
    fresh = st.create(fb.config(), seats=["human", "bot:greedy"], owner=BOB, actions=fb.actions)

    view = classroom(store=location, owner=T, watch=False, class_id=k.id)
    view.redraw()
    rows = {r["id"]: r for r in view.rows()}
    assert set(rows) == {won, lost, branch, copy, unfinished, fresh}
    assert rows[branch]["practice"] and rows[copy]["practice"]
    assert (
        "practice: replayed from a finished game at step 4, dice already seen"
        in rows[branch]["state"]
    )
    assert rows[copy]["state"].startswith("game over · You won · practice: replayed from a "
                                          "finished game at step")  # fmt: skip
    for gid in (won, lost, unfinished, fresh):
        assert not rows[gid]["practice"] and "practice" not in rows[gid]["state"]
    assert "continued from another game at step 2, with fresh dice" in rows[fresh]["state"]
    html = view.list_html.value
    row = html[html.index(f"data-id='{branch}'") - 60 :]
    assert "moneynb-class-practice" in row[:80] and "data-practice='1'" in row[:400]
    assert "dice already seen" in html
    standings = {t["name"]: t for t in view.standings(view.rows(), st.roster(k.id, T))}
    assert standings["Ann"] == {"name": "Ann", "owner": ANN, "finished": 1, "won": 1,
                                "practice": 2, "uncounted": 0}  # fmt: skip
    assert standings["Bob"] == {"name": "Bob", "owner": BOB, "finished": 1, "won": 0,
                                "practice": 0, "uncounted": 0}  # fmt: skip
    s = view.standings_html.value
    assert "data-name='Ann' data-finished='1' data-won='1' data-practice='2'" in s
    assert "Practice (not counted)" in s
    index = json.loads(zipfile.ZipFile(io.BytesIO(view.export("games"))).read("games.json"))
    marked = {g["id"]: (g["practice"], g["branch_of"], g["branch_at"]) for g in index["games"]}
    assert marked[branch] == (True, won, 4) and marked[won] == (False, None, None)
    assert marked[fresh] == (False, unfinished, 2)
    view.stop()


def _played(name, players, seed, **options):
    """A game of greedy bots playing every seat to its end (the engine's winner)."""
    g = moneynb.new_game(name, players=list(players), seed=seed, **options)
    bot = make_bot("greedy", seed=1)
    while not g.over:
        g.apply(bot.choose(g))
    return g


def test_a_hot_seat_game_of_one_student_in_two_person_seats_is_not_a_win(sqlite_location):
    """F4: a student who seats a second person ("plays as person" in the form, or
    ``players=["You", "Zed"]`` from Python) and plays both on one screen holds the winner and
    a loser, so every such game was a win: "Ann: Finished 2, Won 1" from one game against a
    made-up person. The store's rule (:attr:`GameInfo.counted`, from who holds each stored
    seat) counts it apart and the teacher's row says why; one person and a bot on one screen
    is an ordinary game and still counts; the class export carries the mark."""
    from moneynb.ui.classroom import classroom

    location = sqlite_location
    st, k = opened(location, students=(("Ann", ANN), ("Bob", BOB)))
    both = _played("money_moves", ["You", "Zed"], seed=7)
    assert both.winner in ("You", "Zed")
    hot = st.create(both.config(), seats=["human", "human"], owner=ANN, origin="lab",
                    actions=both.actions, status={"over": True})  # fmt: skip
    ordinary = solo(st, ANN, name="money_moves", seed=2, moves=4000)  # "You" beats the bot
    assert moneynb.load_game(st.read(ordinary)).winner == "You"

    view = classroom(store=location, owner=T, watch=False, class_id=k.id)
    view.redraw()
    standings = {t["name"]: t for t in view.standings(view.rows(), st.roster(k.id, T))}
    assert standings["Ann"] == {"name": "Ann", "owner": ANN, "finished": 1, "won": 1,
                                "practice": 0, "uncounted": 1}  # fmt: skip
    rows = {r["id"]: r for r in view.rows()}
    assert not rows[hot]["counted"] and rows[hot]["shared_seats"]
    assert "not counted: one player plays 2 person seats (You and Zed)" in rows[hot]["state"]
    assert rows[ordinary]["counted"] and "not counted" not in rows[ordinary]["state"]
    html = view.list_html.value
    row = html[html.index(f"data-id='{hot}'") - 60 :]
    assert "moneynb-class-uncounted" in row[:80] and "data-counted='0'" in row[:400]
    s = view.standings_html.value
    assert "data-name='Ann' data-finished='1' data-won='1' data-practice='0' " \
        "data-uncounted='1'" in s  # fmt: skip
    assert "Hot seat or house rules (not counted)" in s
    index = json.loads(zipfile.ZipFile(io.BytesIO(view.export("games"))).read("games.json"))
    marked = {g["id"]: (g["counted"], g["shared_seats"]) for g in index["games"]}
    assert marked == {hot: (False, True), ordinary: (True, False)}
    note = {g["id"]: g["note"] for g in index["games"]}[hot]
    assert note.startswith("not counted: one player plays 2 person seats")
    view.stop()
    info = st.info(hot)  # the store's rule, asked by the view and the export
    assert info.over and not info.practice and not info.house_rules
    assert info.shared_seats == {ANN: ("You", "Zed")} and not info.counted
    assert st.info(ordinary).shared_seats == {} and st.info(ordinary).counted


def test_a_game_with_house_rules_is_marked_and_not_counted(sqlite_location, tmp_path):
    """F4: a Moolah game stored with ``board_file=`` a copy of the board whose goal is
    $255,000 ends in a few actions and read as an ordinary finished game, its win counted:
    the options were stored but neither shown nor asked. Every option that changes how a
    game is played or won and differs from its default (:meth:`Game.house_rules`: a data
    file, ``max_turns``...) marks the row "house rules: ..." and leaves the game out of the
    standings and out of the export's counted games; the base options (``chance_streams``)
    are no house rules."""
    import re

    from moneynb.core.game import Game
    from moneynb.games.moolah.rules import Moolah
    from moneynb.ui.classroom import classroom

    location = sqlite_location
    st, k = opened(location, students=(("Ann", ANN), ("Bob", BOB)))
    board = Path(moneynb.__file__).parent / "games" / "moolah" / "board.toml"
    text = board.read_text()
    easy, n = re.subn(r"(?m)^goal\s*=.*$", "goal = 255_000", text)
    assert n == 1, "the board file names its goal"
    (tmp_path / "goal.toml").write_text(easy)
    quick = _played("moolah", ["You", "Greedy bot 1"], seed=1,
                    board_file=str(tmp_path / "goal.toml"))  # fmt: skip
    assert quick.winner and len(quick.actions) < 100
    ruled = st.create(quick.config(), seats=["human", "bot:greedy"], owner=ANN,
                      actions=quick.actions, status={"over": True})  # fmt: skip
    short = _played("moolah", ["You", "Greedy bot 1"], seed=4, max_turns=2)
    capped = st.create(short.config(), seats=["human", "bot:greedy"], owner=BOB,
                       actions=short.actions, status={"over": True})  # fmt: skip
    streams = _played("moolah", ["You", "Greedy bot 1"], seed=5, chance_streams=2)
    plain = st.create(streams.config(), seats=["human", "bot:greedy"], owner=BOB,
                      actions=streams.actions, status={"over": True})  # fmt: skip

    view = classroom(store=location, owner=T, watch=False, class_id=k.id)
    view.redraw()
    rows = {r["id"]: r for r in view.rows()}
    assert "not counted: house rules: board file goal.toml" in rows[ruled]["state"]
    assert "house rules: max turns 2 (the game's own: 300)" in rows[capped]["state"]
    assert not rows[ruled]["counted"] and not rows[capped]["counted"] and rows[plain]["counted"]
    assert "house rules" not in rows[plain]["state"]
    standings = {t["name"]: t for t in view.standings(view.rows(), st.roster(k.id, T))}
    assert (standings["Ann"]["finished"], standings["Ann"]["won"]) == (0, 0)
    assert standings["Ann"]["uncounted"] == 1 and standings["Bob"]["uncounted"] == 1
    assert standings["Bob"]["finished"] == 1
    index = json.loads(zipfile.ZipFile(io.BytesIO(view.export("games"))).read("games.json"))
    marked = {g["id"]: (g["counted"], g["house_rules"]) for g in index["games"]}
    assert marked[capped] == (False, {"max_turns": 2}) and marked[plain] == (True, {})
    view.stop()
    assert Moolah.house_rules({"max_turns": 300, "chance_streams": 2}) == {}
    assert Moolah.house_rules({"max_turns": 2, "undo": "practice"}) == {"max_turns": 2}
    assert Game.house_rules({"max_turns": 2}) == {}
    assert st.info(ruled).house_rules == {"board_file": str(tmp_path / "goal.toml")}
    assert st.info(capped).house_rules == {"max_turns": 2} and st.info(plain).counted


def test_a_finished_table_with_a_person_seat_nobody_held_is_not_counted(sqlite_location):
    """The second tester of stop 49: on a local store a host can play every seat of a table
    nobody joined (or store one with a seat unclaimed) and finish it: a win against nobody,
    counted. A finished table with a person seat nobody held is counted apart and its row says
    why; a table still waiting for its players is not marked."""
    from moneynb.ui.classroom import classroom

    location = sqlite_location
    st, k = opened(location, students=(("Ann", ANN), ("Bob", BOB)))
    both = _played("money_moves", ["Ann", "Zed"], seed=7)
    seats = [{"kind": "human", "owner": ANN}, {"kind": "human"}]
    done = st.create(both.config(), seats=seats, owner=ANN, origin="lab", table="QQQQQQ",
                     actions=both.actions, status={"over": True})  # fmt: skip
    waiting = st.create({**both.config(), "seed": 8}, seats=seats, owner=ANN, origin="lab",
                        table="WWWWWW")  # fmt: skip
    assert st.info(done).unheld_seats == ("Zed",) and not st.info(done).counted
    assert st.info(waiting).counted  # not over: a table waiting for its players
    view = classroom(store=location, owner=T, watch=False, class_id=k.id)
    view.redraw()
    rows = {r["id"]: r for r in view.rows()}
    assert "not counted: a person seat nobody held (Zed)" in rows[done]["state"]
    assert "not counted" not in rows[waiting]["state"]
    standings = {t["name"]: t for t in view.standings(view.rows(), st.roster(k.id, T))}
    assert standings["Ann"]["won"] == 0 and standings["Ann"]["uncounted"] == 1
    view.stop()
