"""Shared tables across browsers and the teacher's view (issue 25, part 2).

Each test runs on a real SQLite file and on the real PostgreSQL server of the ``postgres``
fixture (tests/pgserver.py). Two "browsers" are two views (or sessions) with different owners
in one process, or separate processes."""

from __future__ import annotations

import json
import multiprocessing as mp
import re
import time
from fractions import Fraction

import pytest
from waiting import wait_for

import moneynb
from moneynb.bots import make_bot
from moneynb.store import NoSuchGame, SeatTaken, StoreError, open_store
from moneynb.tables import (
    ALPHABET,
    TableSession,
    find_table,
    host_table,
    join_table,
    normal_code,
    table_bot,
)

ANN, BOB, CY = "hub:ann", "hub:bob", "hub:cy"


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("postgres").new_database()


def widget_states(w) -> str:
    """Every widget state of ``w``'s tree as the kernel would send it (JSON text)."""
    out, seen = [], set()

    def walk(x):
        if id(x) in seen:
            return
        seen.add(id(x))
        try:
            out.append(json.dumps(x.get_state(), default=str))
        except Exception:  # noqa: BLE001 - a widget whose state has bytes
            out.append(repr(x.get_state()))
        for c in getattr(x, "children", ()) or ():
            walk(c)

    walk(w)
    return "\n".join(out)


# ----- host and join ----------------------------------------------------------------------
def test_host_gives_a_code_and_join_takes_seats_with_clear_refusals(location):
    h = host_table("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=location, seed=3)
    assert re.fullmatch(f"[{ALPHABET}]{{6}}", h.code) and h.seat == 0
    messy = f"{h.code[:3].lower()}-{h.code[3:].lower()} "
    assert join_table(messy, "bob", owner=BOB, store=location).seat == 1
    # a reloaded or restarted browser (the same owner) gets its own seat back
    assert join_table(h.code, "Bob", owner=BOB, store=location).seat == 1
    assert join_table(h.code, owner=BOB, store=location).seat == 1
    with pytest.raises(SeatTaken, match="already taken"):
        join_table(h.code, "Bob", owner=CY, store=location)
    with pytest.raises(SeatTaken, match="bot"):
        join_table(h.code, "Greedy bot 1", owner=CY, store=location)
    with pytest.raises(SeatTaken, match="every person's seat"):
        join_table(h.code, owner=CY, store=location)
    with pytest.raises(ValueError, match="at most 40 characters"):
        join_table(h.code, "B" * 41, owner=CY, store=location)
    # a right code with a wrong name reads exactly as a wrong code: no seat's name in it
    with pytest.raises(NoSuchGame, match="no table with join code") as right_code:
        join_table(h.code, "Dan", owner=CY, store=location)
    assert "Ann" not in str(right_code.value) and "Bob" not in str(right_code.value)
    unused = next(c * 6 for c in ALPHABET if c * 6 != h.code)
    with pytest.raises(NoSuchGame, match="no table with join code") as wrong_code:
        join_table(unused, "Dan", owner=CY, store=location)
    assert str(wrong_code.value).replace(unused, h.code) == str(right_code.value)
    with pytest.raises(ValueError, match="not a join code"):
        normal_code("12")
    # six letters, one of them never in a code: the message names it (not "is 6 letters")
    with pytest.raises(ValueError, match="never use 'Z'") as e:
        normal_code("ZZZZZZ")
    assert "is 6 letters" not in str(e.value)
    assert normal_code("kqm-rta") == "KQMRTA"
    seats = open_store(location).seats(h.game_id)
    assert [(s.name, s.owner) for s in seats] == [
        ("Ann", ANN),
        ("Bob", BOB),
        ("Greedy bot 1", None),
    ]
    assert [t.id for t in open_store(location).list_seated(BOB, over=False)] == [h.game_id]
    assert open_store(location).list_seated(CY) == []


def _claim(location, gid, owner, barrier, q):
    from moneynb.store import SeatTaken, open_store

    st = open_store(location)
    st.count(gid)  # connected before the race starts
    barrier.wait(120)
    try:
        st.claim_seat(gid, 1, owner)
        q.put(owner)
    except SeatTaken:
        q.put(None)


def test_a_seat_claim_race_has_one_winner(location):
    h = host_table("moolah", ["Ann", "Bob"], owner=ANN, store=location, seed=1)
    ctx = mp.get_context("spawn")
    q, barrier = ctx.Queue(), ctx.Barrier(3)
    procs = [ctx.Process(target=_claim, args=(location, h.game_id, f"hub:s{i}", barrier, q))
             for i in range(3)]  # fmt: skip
    for p in procs:
        p.start()
    got = [q.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(60)
    winners = [g for g in got if g]
    assert len(winners) == 1
    assert open_store(location).seats(h.game_id)[1].owner == winners[0]


# ----- bots and convergence -----------------------------------------------------------------
def test_bot_moves_are_stored_once_whichever_kernel_plays_them(location):
    """Three sessions race to play an all-bot table; the stored game is exactly the game one
    kernel plays alone (no move lost, none twice)."""
    import threading

    h = host_table("money_moves", ["bot:greedy", "bot:greedy", "bot:random"], owner=ANN,
                   store=location, seed=11, seat=-1)  # fmt: skip
    sessions = [TableSession(h.game_id, o, location) for o in (ANN, BOB, CY)]
    threads = [threading.Thread(target=s.play_bots, kwargs={"limit": 5000}) for s in sessions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    st = open_store(location)
    stored = st.actions(h.game_id)
    alone = moneynb.new_game("money_moves", players=list(sessions[0].game.players), seed=11)
    while not alone.over:
        s = alone.decision.player
        alone.apply(table_bot(sessions[0].kind(s), alone, s).choose(alone))
    assert alone.over and stored == alone.actions
    for s in sessions:
        s.sync()
        assert s.game.actions == stored


def _student(location, gid, owner, q):
    """A separate process at a table: plays its seat with a seeded bot until the game ends."""
    from moneynb.bots import make_bot
    from moneynb.tables import TableSession

    s = TableSession(gid, owner, location)
    w = s.store.watch()
    end = time.time() + 240
    while not s.game.over and time.time() < end:
        s.sync()
        s.play_bots()
        if s.to_move in s.mine:
            s.act(make_bot("greedy", seed=len(s.game.actions)).choose(s.game))
        elif not s.game.over:
            w.wait(0.5)
    s.sync()
    q.put(len(s.game.actions))


def test_two_processes_at_one_table_converge_on_the_same_action_count(location):
    h = host_table("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=location, seed=5)
    join_table(h.code, "Bob", owner=BOB, store=location)
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_student, args=(location, h.game_id, o, q)) for o in (ANN, BOB)]
    for p in procs:
        p.start()
    counts = [q.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(60)
    st = open_store(location)
    stored = moneynb.load_game(st.read(h.game_id))
    assert stored.over and counts == [len(stored.actions)] * 2
    # a finished table is replayable like any game
    r = moneynb.Replay(st.read(h.game_id))
    assert len(r) == len(stored.actions) + 1


# ----- the views ------------------------------------------------------------------------------
def test_two_views_follow_each_other_and_act_only_for_their_seats(location):
    a = moneynb.host("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=location, seed=4,
                     chance_streams=1)  # seed 4's one-stream game: Ann opens (issue 39)  # fmt: skip
    b = moneynb.join(a.session.code, "Bob", owner=BOB, store=location)
    try:
        assert a.mine == {0} and b.mine == {1}
        # Ann's decision first: Bob's board says whom it waits for, with a disabled control
        assert a.human_turn and not b.human_turn
        (wait,) = b.panel_box.children
        assert wait.disabled and "waiting for Ann" in wait.description
        assert "moneynb-waiting" in wait._dom_classes
        assert (
            not b.submit(make_bot("greedy", seed=0).choose(a.game))
            and "waiting for Ann" in b.error.value
        )
        moves = 0
        while not a.game.over and moves < 16:
            v = a if a.human_turn else b if b.human_turn else None
            if v is None:
                assert wait_for(lambda: a.human_turn or b.human_turn or a.game.over)
                continue
            n = len(v.game.actions)
            assert v.submit(make_bot("greedy", seed=moves).choose(v.game))
            moves += 1
            # every board follows every move: the other view reaches the stored count
            assert wait_for(lambda n=n: len(a.game.actions) == len(b.game.actions)
                            == a.store.count(a.game_id) > n)  # fmt: skip
            assert a.game.actions == b.game.actions
            assert a.game.money() == b.game.money()
        assert moves == 16 or a.game.over
        assert "waiting for" not in a.error.value + b.error.value
    finally:
        a.stop()
        b.stop()


def test_a_seat_holds_no_other_seats_hidden_hand_in_its_widget_state(location):
    a = moneynb.host("money_card", ["Ann", "Bob"], owner=ANN, store=location, seed=2, watch=False)
    b = moneynb.join(a.session.code, "Bob", owner=BOB, store=location, watch=False)
    g = a.game
    for step in range(400):
        d = g.decision
        if d.tag == "turn" and d.player == 1 and g.hand[1]:
            break
        v = a if d.player == 0 else b
        assert v.submit(make_bot("greedy", seed=step).choose(v.game))
        (b if v is a else a).follow()
        g = a.game
    else:
        pytest.fail("Bob never held a card at his turn")
    assert a.game.actions == b.game.actions
    bobs = [f"data-card='{c}'" for c in b.game.hand[1]]
    seen_by_bob, seen_by_ann = widget_states(b), widget_states(a)
    assert all(c in seen_by_bob for c in bobs)  # his own hand is drawn for him
    assert not any(c in seen_by_ann for c in bobs)  # and never sent to Ann's browser
    # neither the hand panel (its class in _dom_classes) nor a hand card reaches Ann's browser
    assert '"moneynb-hand"' not in seen_by_ann and "moneynb-hand-card" not in seen_by_ann


def test_the_host_gives_an_absent_seat_to_a_bot_and_back(location):
    a = moneynb.host("moolah", ["Ann", "Bob"], owner=ANN, store=location, seed=8, watch=False)
    join_table(a.session.code, "Bob", owner=BOB, store=location)  # Bob sits down, then leaves
    for step in range(60):
        if a.game.decision.player == 1:
            break
        assert a.submit(make_bot("greedy", seed=step).choose(a.game))
    assert a.game.decision.player == 1 and not a.human_turn
    n = len(a.game.actions)
    a.seat_choice.value = 1
    a.bot_button.click()  # "Give to a bot": Bob's seat plays on by itself
    assert open_store(location).seats(a.game_id)[1].kind == "bot:greedy"
    assert len(a.game.actions) > n and (a.game.over or a.game.decision.player == 0)
    assert a.bot_button.description == "Give back to a person"
    a.bot_button.click()
    seat = open_store(location).seats(a.game_id)[1]
    assert (seat.kind, seat.owner) == ("human", BOB)  # his seat again when he comes back
    b = moneynb.join(a.session.code, "Bob", owner=BOB, store=location, watch=False)
    assert b.mine == {1} and b.game.actions == a.game.actions


def test_the_hosts_seat_choice_is_never_empty_so_one_click_acts(location):
    """A newcomer's finding: the host's Seat dropdown showed nothing chosen and "Give to a
    bot" did nothing, click after click. A seat is chosen from the start (and again when the
    seats change), the button names what it will do to it, and one click does it."""
    a = moneynb.host("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=location,
                     seed=8, watch=False)  # fmt: skip
    assert a.seat_choice.value == 1 and a.bot_button.description == "Give to a bot"
    a.bot_button.click()
    assert open_store(location).seats(a.game_id)[1].kind == "bot:greedy"
    assert a.seat_choice.value == 1 and a.bot_button.description == "Give back to a person"
    a.seat_choice.value = 2  # the seat that was a bot from the start
    assert a.bot_button.description == "Give back to a person"


def test_a_database_that_is_down_leaves_the_table_intact(postgres):
    url = postgres.new_database()
    a = moneynb.host("moolah", ["Ann", "bot:greedy"], owner=ANN, store=url, seed=6, watch=False)
    a.follow()
    assert a.mine == {0} and a.human_turn
    before = list(a.game.actions)
    postgres.stop()
    try:
        assert not a.submit(make_bot("greedy", seed=1).choose(a.game))
        assert a.game.actions == before  # the move is taken back, with one message
        assert "could not be saved" in a.error.value
        from moneynb.ui.launcher import launcher

        form = launcher("moolah", store=url, restore=False)
        form._owner_known(BOB)
        form.join_code.value = a.session.code
        form.join_name.value = "Bob"
        assert form.join() is None and "the game store" in form.error.value
    finally:
        postgres.start()
    assert a.submit(make_bot("greedy", seed=1).choose(a.game))
    assert open_store(url).count(a.game_id) == len(a.game.actions) > len(before)


def test_the_app_form_hosts_and_joins_with_one_message_per_refusal(tmp_path):
    from moneynb.ui.launcher import launcher

    loc = str(tmp_path / "g.sqlite3")
    host_form = launcher("moolah", store=loc, restore=False)
    host_form._owner_known(ANN)
    host_form.rows[0][0].value = "Ann"
    host_form.rows[1][1].value = "person"
    host_form.rows[1][0].value = "Bob"
    view = host_form.host()
    assert view is not None and view.mine == {0}
    code = view.session.code
    form = launcher("moolah", store=loc, restore=False)
    form._owner_known(BOB)
    cases = [("ACDEFG" if code != "ACDEFG" else "ACDEFH", "Bob", "no table with join code"),
             (code, "B" * 50, "at most 40 characters"),
             (code, "Ann", "already taken"),
             ("zz", "Bob", "not a join code")]  # fmt: skip
    for c, n, message in cases:
        form.join_code.value, form.join_name.value = c, n
        assert form.join() is None
        assert message in form.error.value.replace("&#x27;", "'")
        assert form.error.value.count("⚠") == 1
    form.join_code.value, form.join_name.value = code.lower(), "bob"
    joined = form.join()
    assert form.error.value == ""
    assert joined is not None and joined.mine == {1} and form.error.value == ""
    joined.stop()
    # Bob's page reloads (a new kernel, the same browser): the form brings his seat back
    again = launcher("moolah", store=loc, restore=True)
    again._owner_known(BOB)
    back = again.table_view
    assert back is not None and back.mine == {1} and back.session.code == code
    assert "Welcome back to table" in again.restored.value
    # a browser holding no seat gets no table
    other = launcher("moolah", store=loc, restore=True)
    other._owner_known(CY)
    assert other.table_view is None
    view.stop()
    back.stop()


# ----- the teacher's view -------------------------------------------------------------------
def test_the_teachers_view_lists_every_game_live_for_teachers_only(location, monkeypatch):
    from moneynb.ui.classroom import NotATeacher, classroom

    monkeypatch.setenv("MONEYNB_TEACHER_PASSCODE", "owl-42")
    monkeypatch.delenv("MONEYNB_TEACHERS", raising=False)
    with pytest.raises(NotATeacher):
        classroom(passcode="guess", store=location, owner=ANN)
    with pytest.raises(NotATeacher):
        classroom(store=location, owner="hub:teacher")
    monkeypatch.setenv("MONEYNB_TEACHERS", "teacher")
    st = open_store(location)
    # issue 36: the view is one class's; the class's students' games are listed
    k = st.open_class("Year 10 B", "hub:teacher")
    st.join_class(k.code, ANN, "Ann")
    st.join_class(k.code, CY, "Cy")
    h = host_table("moolah", ["Ann", "Bob"], owner=ANN, store=location, seed=2)
    solo = moneynb.new_game("money_run", players=["Cy", "Dee"], seed=1)
    sid = st.create(solo.config(), owner=CY, origin="lab")
    st.create(solo.config(), owner="hub:zed", origin="lab")  # no class: not listed
    view = classroom(store=location, owner="hub:teacher")
    try:
        rows = {r["id"]: r for r in view.rows()}
        assert set(rows) == {h.game_id, sid}
        assert rows[h.game_id]["code"] == h.code and rows[sid]["code"] == ""
        assert rows[h.game_id]["state"] == "Ann to move"
        # live: a move stored anywhere shows in the list within the watcher's wake-up
        s = TableSession(h.game_id, ANN, location)
        s.act(make_bot("greedy", seed=0).choose(s.game))
        assert wait_for(lambda: f"data-actions='{len(s.game.actions)}'" in view.list_html.value)
        live = view.show_game(h.game_id)  # read-only, live
        assert live is not None and view.shown.children == (live,)
    finally:
        view.stop()
    assert classroom(passcode="owl-42", store=location, owner=None, watch=False) is not None


# ----- pooled class experiments -------------------------------------------------------------
def test_class_results_pool_posts_under_a_lesson_with_the_exact_distribution(location):
    from moneynb import teach
    from moneynb.core.chance import D6, sum_distribution

    exact = teach.mean_distribution(D6.distribution(), 3)
    # the engine's own sum distribution, scaled: the convolution adds no rule of its own
    assert exact == {Fraction(s, 3): p for s, p in sum_distribution([D6] * 3).items()}
    st = open_store(location)
    k = st.open_class("Year 10 B", "hub:teacher")
    for i in range(5):
        st.join_class(k.code, f"hub:s{i}", f"S{i}")
    for i, v in enumerate([3.0, 3.0, 4.0, 2.0 + 1 / 3]):
        teach.post_result("dice-3", v, store=location, owner=f"hub:s{i}")
    teach.post_result("other", 6.0, store=location, owner="hub:s0")
    view = teach.class_results("dice-3", exact, store=location, owner="hub:teacher")
    try:
        assert sorted(view.values) == sorted([3.0, 3.0, 4.0, 2.0 + 1 / 3])
        shares = {
            round(x, 6): y
            for x, y in zip(view.figure.data[0].x, view.figure.data[0].y, strict=True)
        }
        assert shares[3.0] == 0.5 and "4 results" in view.figure.data[0].name
        assert sum(view.figure.data[1].y) == pytest.approx(1.0)
        teach.post_result("dice-3", 1.0, store=location, owner="hub:s4")
        assert wait_for(lambda: len(view.values) == 5)
    finally:
        view.stop()
    with pytest.raises(ValueError, match="a result is a number"):
        teach.post_result("dice-3", "lots", store=location)
    with pytest.raises(ValueError, match="lesson code"):
        teach.post_result("", 1, store=location)


def test_join_before_the_browser_said_who_it_is_claims_when_it_does(tmp_path):
    loc = str(tmp_path / "g.sqlite3")
    h = host_table("moolah", ["Ann", "Bob"], owner=ANN, store=loc, seed=1)
    v = moneynb.join(h.code, "Bob", store=loc, owner=None, watch=False)
    if v.session.owner is None:  # no hub user in the test's environment
        assert v.mine == set()
        v._owner_known(BOB)
    assert v.mine == {1} and open_store(loc).seats(h.game_id)[1].owner == v.session.owner


def test_an_unreachable_store_is_one_message(tmp_path):
    bad = tmp_path / "file"
    bad.write_text("x")
    with pytest.raises(StoreError):
        find_table("ACDEFG", str(bad / "g.sqlite3"))


# ----- what each screen says about turns and moves (issue 30, cases 3 and 8 at a table) -----
def _last_move(view) -> str:
    """The view's "Last move" line (its HTML), "" when it shows none."""
    m = re.search(r"<div class='moneynb-last-move'.*?</div>", view.header.value)
    return m.group(0) if m else ""


def _log_marked(view) -> list[str]:
    """The log lines marked as the last move's."""
    return re.findall(r"moneynb-log-last'[^>]*>([^<]*)</div>", view.log_html.value)


def test_a_table_screen_never_asks_to_hand_the_screen_over(location):
    """Each student at their own screen: Bob's screen, at Ann's turn after Bob moved, says it
    waits for Ann, never "Hand over the screen: Ann, ..." (that is for hot seat)."""
    a = moneynb.host("moolah", ["Ann", "Bob"], owner=ANN, store=location, seed=4, watch=False)
    b = moneynb.join(a.session.code, "Bob", owner=BOB, store=location, watch=False)
    turned = 0
    for step in range(120):
        if a.game.over or turned >= 3:
            break
        v, other = (a, b) if a.game.decision.player == 0 else (b, a)
        assert v.submit(make_bot("greedy", seed=step).choose(v.game))
        other.follow()
        d = v.game.decision
        if d is not None and d.player not in v.mine:  # the turn went to the other screen
            turned += 1
            for w in (a, b):
                assert "moneynb-handoff" not in w.header.value, w.header.value
                assert "Hand over" not in w.header.value
            who = v.game.players[d.player]
            assert f"waiting for {who}" in v.panel_box.children[0].description
    assert turned >= 3


def test_both_screens_name_the_same_last_move_whoever_made_it(location):
    """Moves made at the other screen (the watcher's follow) and by a bot (run_bots) update
    the "Last move" line, the log's mark and the dice of both screens alike."""
    from moneynb.core.replay import Replay

    a = moneynb.host("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=location,
                     seed=4, watch=False)  # fmt: skip
    b = moneynb.join(a.session.code, "Bob", owner=BOB, store=location, watch=False)
    sources = set()
    for step in range(40):
        if a.game.over:
            break
        v, other = (a, b) if a.game.decision.player == 0 else (b, a)
        assert v.submit(make_bot("greedy", seed=step).choose(v.game))
        other.follow()
        assert a.game.actions == b.game.actions
        r = Replay(a.game)
        seat = r.deciders[r.n - 1]  # who took the last action, and what it did
        sources.add("bot" if seat == 2 else "mover")
        line = _last_move(a)
        assert line and line == _last_move(b), (line, _last_move(b))
        assert f"data-seat='{seat}'" in line and a.game.players[seat] in line
        assert _log_marked(a) == _log_marked(b)
        assert len(_log_marked(a)) == len(r.events(r.n - 1))
        assert (a.board.dice.faces, a.board.dice.caption, a.board.dice.owner) == (
            b.board.dice.faces, b.board.dice.caption, b.board.dice.owner)  # fmt: skip
    assert sources == {"bot", "mover"}
