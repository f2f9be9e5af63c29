"""A Voila class server keeps a table's secrets and its class's view (issue 35, cases 2-7).

- case 2: no view replays, continues, resumes or exports a table still being played;
- case 3: every game the app's form, ``play()`` and ``host()`` start has a fresh random seed;
- case 4: a seat's hidden cards (Money Card words, Moolah Advantage cards) reach only its
  own browser: every seat's view of a table is searched;
- case 5: one seat per person per table; the host frees a seat for a new person;
- case 6: wrong join codes and passcodes are rate-limited per browser and per server, with one
  message for every wrong code; the passcode is asked in a password box;
- case 7: a bound on new games and tables per person per minute.

Real SQLite files (and the real PostgreSQL server for the seat race); no mocks. The limits are
set small here (``set_limits``) so that a test needs few tries; waits are read from the
refusal, never slept through.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import moneynb
from moneynb.bots import make_bot
from moneynb.store import (
    LiveTable,
    NoSuchGame,
    OneSeatEach,
    SeatTaken,
    TooManyTries,
    open_store,
    teacher_passcode_ok,
)
from moneynb.store.limits import set_limits
from moneynb.tables import ALPHABET, free_seat, host_table, join_table

ANN, BOB, CY = "hub:ann", "hub:bob", "hub:cy"


@pytest.fixture
def loc(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture(autouse=True)
def _limits_back():
    yield
    set_limits()


def widget_states(w) -> str:
    """Every widget state of ``w``'s tree as the kernel sends it to the browser (JSON)."""
    out, seen = [], set()

    def walk(x):
        if id(x) in seen:
            return
        seen.add(id(x))
        out.append(json.dumps(x.get_state(), default=repr))
        for c in getattr(x, "children", ()) or ():
            walk(c)

    walk(w)
    return "\n".join(out)


def finish(store, gid) -> None:
    """Mark a stored game over (what the last move of a table stores)."""
    open_store(store).set_status(gid, {"over": True})


# ----- case 2: a live table is never replayed, continued, resumed or exported ------------------
def test_a_live_table_is_not_replayed_branched_resumed_or_exported_until_it_ends(loc):
    from moneynb.ui.replay import ReplayChooser, ReplayView, saved_games
    from moneynb.ui.saves import unfinished

    host = moneynb.host("moolah", ["Ann", "Bob", "bot:greedy"], owner=ANN, store=loc, seed=4,
                        watch=False, chance_streams=1)  # (seed 4's one-stream game)  # fmt: skip
    assert host.submit(make_bot("greedy", seed=0).choose(host.game))  # a person moved
    st, gid = open_store(loc), host.game_id
    # not listed to replay, nor offered to continue as a game of one screen
    assert gid not in [i for _, i in saved_games(st, ANN)]
    assert gid not in [g.id for g in unfinished(st, ANN)]
    chooser = ReplayChooser(st, owner=ANN)
    assert chooser.show(gid) is None and "still being played" in chooser.error.value
    with pytest.raises(LiveTable, match="still being played"):
        ReplayView(st.read(gid), store=st, game_id=gid)
    with pytest.raises(LiveTable, match="exported once it has ended"):
        st.export_json(gid)
    with pytest.raises(LiveTable, match="join it"):
        moneynb.play("moolah", resume=gid, store=st, owner=ANN)
    # once the table has ended: replayed, continued from a step, exported like any game
    finish(st, gid)
    assert gid in [i for _, i in saved_games(st, ANN)]
    view = chooser.show(gid)
    assert view is not None and json.loads(st.export_json(gid))["seed"] == host.game.seed
    # "Continue from here" checks the table again when pressed: a table not over is refused
    st.set_status(gid, {"over": False})
    assert view.branch(0) is None and "still being played" in view.branch_box.children[0].value
    finish(st, gid)
    branched = view.branch(0)
    assert branched is not None and branched.game_id != gid


# ----- case 3: a fresh random seed unless one is typed ---------------------------------------------
def test_games_from_the_form_play_and_host_get_fresh_random_seeds(loc):
    from moneynb.ui.launcher import launcher

    form = launcher("moolah", store=loc, restore=False)
    form._owner_known(ANN)
    assert form.seed.value == "" and form.seed.placeholder == "random"
    seeds = []
    for _ in range(2):
        assert form.launch() is not None
        seeds.append(form.view.game.seed)
    table = form.host()
    assert table is not None
    seeds.append(table.game.seed)
    table.stop()
    hosted = host_table("moolah", ["Ann", "Bob"], owner=CY, store=loc)
    seeds += [moneynb.play("moolah", store=loc, owner=BOB).game.seed,
              open_store(loc).info(hosted.game_id).seed]  # fmt: skip
    assert len(set(seeds)) == len(seeds) and 1 not in seeds
    form.seed.value = "42"  # a typed seed plays that game again
    assert form.launch().game.seed == 42
    form.seed.value = "forty"
    assert form.launch() is None and "whole number" in form.error.value


# ----- case 4: hidden cards reach only their holder's browser ---------------------------------------
def _table(game, names, loc, seed):
    owners = [ANN, BOB, CY][: len(names)]
    views = [moneynb.host(game, names, owner=owners[0], store=loc, seed=seed, watch=False,
                          chance_streams=1)]  # the one-stream games written on  # fmt: skip
    for name, owner in zip(names[1:], owners[1:], strict=True):
        views.append(moneynb.join(views[0].session.code, name, owner=owner, store=loc, watch=False))
    return views


def _play_until(views, hit, limit=300):
    """Each seat's view plays its own decisions (greedy) and the others follow, until
    ``hit(event)`` for an event of the last move; returns that event."""
    for step in range(limit):
        g = views[0].game
        v = next(v for v in views if g.decision.player in v.mine)
        before = len(v.game.log)
        assert v.submit(make_bot("greedy", seed=step).choose(v.game))
        for other in views:
            if other is not v:
                other.follow()
        for e in v.game.log[before:]:
            if hit(v.game, e):
                return e
    pytest.fail("the event never came")


def test_money_card_words_reach_only_the_drawers_browser_at_a_table(loc):
    views = _table("money_card", ["Ann", "Bob", "Cy"], loc, seed=2)
    e = _play_until(
        views, lambda g, e: e.kind == "drew" and "words" in g.board.cards[e.data["card"]]
    )
    card = views[0].game.board.cards[e.data["card"]]
    drawer = e.data["seat"]
    states = [widget_states(v) for v in views]
    assert card["text"] in states[drawer] and card["words"] in states[drawer]
    for seat, seen in enumerate(states):
        if seat != drawer:  # the effect is public, the words are the holder's
            assert card["text"] in seen and card["words"] not in seen and card["means"] not in seen
    # every card any seat holds: its words only in that seat's browser
    g = views[0].game
    for holder, hand in enumerate(g.hand):
        for c in hand:
            for seat, seen in enumerate(states):
                if seat != holder:
                    assert g.board.cards[c]["words"] not in seen


def test_moolah_advantage_cards_are_counted_not_named_in_other_browsers(loc):
    views = _table("moolah", ["Ann", "Bob"], loc, seed=3)
    e = _play_until(views, lambda g, e: e.kind == "drew" and e.data.get("deck") == "temptation"
                    and g.data.cards[e.data["card"]]["kind"] == "advantage")  # fmt: skip
    text = views[0].game.data.cards[e.data["card"]]["text"]
    holder = e.data["seat"]
    other = 1 - holder
    assert text in widget_states(views[holder])
    seen = widget_states(views[other])
    assert text not in seen and "drew an Advantage card" in seen
    # a hot-seat screen of two people names it to nobody; a replay (after the game) does
    hot = moneynb.play("moolah", resume=None, players=["Ann", "Bob"], seed=3, autosave=False)
    for a in views[0].game.actions:
        hot.submit(a)
    assert text not in widget_states(hot)


# ----- case 5: one seat per person; the host frees a seat for a new person --------------------------
def test_one_seat_per_person_and_the_host_frees_a_seat_for_a_new_person(loc):
    a = moneynb.host("moolah", ["Ann", "Bob", "Cy"], owner=ANN, store=loc, watch=False)
    code, gid, st = a.session.code, a.game_id, open_store(loc)
    assert join_table(code, "Bob", owner=BOB, store=loc).seat == 1
    with pytest.raises(OneSeatEach, match="you already sit at table .* as Bob: one seat per"):
        join_table(code, "Cy", owner=BOB, store=loc)
    with pytest.raises(OneSeatEach, match="one seat per person"):
        st.claim_seat(gid, 2, BOB)  # the store itself refuses, whoever calls it
    assert [s.owner for s in st.seats(gid)] == [ANN, BOB, None]
    # Bob's new browser: his seat is held by his old one; the host frees it, he joins again
    new_bob = "browser:" + "b" * 32
    with pytest.raises(SeatTaken, match="ask the table's host to free the seat"):
        join_table(code, "Bob", owner=new_bob, store=loc)
    with pytest.raises(PermissionError, match="only the table's host"):
        free_seat(gid, 1, owner=CY, store=loc)
    a.follow()
    a.seat_choice.value = 1
    a.free_button.click()
    assert "Bob's seat is free" in a.table_note.value and st.seats(gid)[1].owner is None
    assert join_table(code, "Bob", owner=new_bob, store=loc).seat == 1
    # a seat given to a bot is freed as a person's seat
    a.follow()
    a.seat_choice.value = 2
    a.bot_button.click()
    assert st.seats(gid)[2].kind == "bot:greedy"
    free_seat(gid, 2, owner=ANN, store=loc)
    assert st.seats(gid)[2].kind == "human" and join_table(code, owner=CY, store=loc).seat == 2


def test_two_claims_of_one_person_racing_for_two_seats_get_one(postgres):
    import threading

    url = postgres.new_database()
    gid = host_table("moolah", ["Ann", "Bob", "Cy", "Di"], owner=ANN, store=url).game_id
    # three connections of their own (as three kernels), released at once
    stores = [open_store(url, fresh=True) for _ in range(3)]
    for st in stores:
        st.count(gid)  # connected before the race starts
    barrier, got = threading.Barrier(3), []

    def claim(st, seat):
        barrier.wait(60)
        try:
            got.append(st.claim_seat(gid, seat, BOB).seat)
        except SeatTaken as e:
            got.append(type(e).__name__)

    threads = [
        threading.Thread(target=claim, args=(st, s))
        for st, s in zip(stores, (1, 2, 3), strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for st in stores:
        st.close()
    assert got.count("OneSeatEach") == 2 and len(got) == 3  # one seat, whichever won
    assert sum(s.owner == BOB for s in open_store(url).seats(gid)) == 1


# ----- case 6: guessing is slowed down, and every wrong code reads the same ----------------------
def test_wrong_join_codes_wait_longer_per_browser_and_per_server(loc):
    set_limits(code_free_tries=3, server_code_free_tries=6, first_delay_s=30, max_delay_s=60,
               server_max_delay_s=30)  # fmt: skip
    h = host_table("moolah", ["Ann", "Bob"], owner=ANN, store=loc)
    wrong = [c * 6 for c in ALPHABET if c * 6 != h.code]
    messages = set()
    for code in wrong[:3]:
        with pytest.raises(NoSuchGame) as e:
            join_table(code, "Dan", owner=CY, store=loc)
        messages.add(str(e.value).replace(code, "CODE"))
    with pytest.raises(NoSuchGame) as e:  # the right code with a wrong name: the same message
        join_table(h.code, "Dan", owner=BOB, store=loc)
    messages.add(str(e.value).replace(h.code, "CODE"))
    assert len(messages) == 1 and "Ann" not in messages.pop()
    # Cy's fourth try waits, even with the right code (it is not looked at)
    with pytest.raises(TooManyTries, match=r"too many wrong join codes: wait \d+ s") as e:
        join_table(h.code, "Bob", owner=CY, store=loc)
    assert 25 <= e.value.wait_s <= 30
    assert open_store(loc).seats(h.game_id)[1].owner is None
    # another browser is not slowed by Cy's tries, until the server has had too many
    assert join_table(h.code, "Bob", owner=BOB, store=loc).seat == 1
    for i, code in enumerate(wrong[3:5]):
        with pytest.raises(NoSuchGame):
            join_table(code, owner=f"browser:{i:032x}", store=loc)
    with pytest.raises(TooManyTries, match="on this server: wait"):
        join_table(h.code, owner="browser:" + "e" * 32, store=loc)


def test_the_passcode_is_rate_limited_and_asked_in_a_password_box(loc, monkeypatch):
    from moneynb.ui.classroom import NotATeacher
    from moneynb.ui.launcher import launcher

    monkeypatch.setenv("MONEYNB_TEACHER_PASSCODE", "owl-42")
    monkeypatch.delenv("MONEYNB_TEACHERS", raising=False)
    set_limits(passcode_free_tries=2, first_delay_s=20)
    assert not teacher_passcode_ok("owl", owner=CY, store=loc)
    assert not teacher_passcode_ok("owl-4", owner=CY, store=loc)
    with pytest.raises(TooManyTries, match="too many wrong teacher passcodes: wait"):
        teacher_passcode_ok("owl-42", owner=CY, store=loc)  # right, but too soon: not compared
    assert teacher_passcode_ok("owl-42", owner=ANN, store=loc)
    # the app's box is a password box, and a refusal is one message there
    form = launcher("moolah", store=loc, restore=False)
    form._owner_known(CY)
    assert type(form.teacher_code).__name__ == "Password"
    form.teacher_code.value = "owl-42"
    assert form.teacher() is None and "wait" in form.error.value
    assert form.teacher_code.value == ""  # never left in the box
    # moneynb.classroom() asks in getpass's password box, never in a cell
    import getpass

    asked = []
    monkeypatch.setattr(getpass, "getpass", lambda prompt: asked.append(prompt) or "owl-42")
    view = moneynb.classroom(store=loc, owner=BOB, watch=False)
    assert view is not None and asked == ["Teacher passcode (not shown): "]

    def no_stdin(prompt):
        raise RuntimeError("no stdin here")

    monkeypatch.setattr(getpass, "getpass", no_stdin)
    with pytest.raises(NotATeacher, match="Teacher passcode box"):
        moneynb.classroom(store=loc, owner=BOB, watch=False)


# ----- case 7: a bound on new games and tables per person per minute ---------------------------------
def test_one_person_cannot_flood_the_store_with_new_games(loc):
    from moneynb.ui.launcher import launcher

    set_limits(games_per_minute=3, server_games_per_minute=5)
    form = launcher("moolah", store=loc, restore=False)
    form._owner_known(CY)
    assert form.launch() is not None and form.launch() is not None
    assert form.host() is not None  # a table counts as a new game
    form.table_view.stop()
    assert form.launch() is None and "you started 3 new games and tables" in form.error.value
    with pytest.raises(TooManyTries, match=r"wait \d+ s"):
        host_table("moolah", ["Cy", "Di"], owner=CY, store=loc)
    with pytest.raises(TooManyTries):
        moneynb.play("moolah", store=loc, owner=CY)
    stored = open_store(loc).list_games(CY, limit=None)
    assert len(stored) == 3  # the refused ones are not stored
    # another person still plays, until the server's bound
    assert moneynb.play("moolah", store=loc, owner=BOB) is not None
    assert moneynb.play("moolah", store=loc, owner=ANN) is not None
    with pytest.raises(TooManyTries, match="this server's players started 5"):
        moneynb.play("moolah", store=loc, owner="hub:di")


def test_the_limits_are_data_an_operator_sets_with_one_clear_error_each(monkeypatch):
    from moneynb.store.limits import limits

    monkeypatch.setenv("MONEYNB_LIMITS", "games_per_minute=7; code_free_tries = 9")
    assert limits().games_per_minute == 7 and limits().code_free_tries == 9
    assert set_limits(max_delay_s=5).max_delay_s == 5.0 and limits().games_per_minute == 7
    monkeypatch.setenv("MONEYNB_LIMITS", "games_per_minute=lots")
    with pytest.raises(ValueError, match="games_per_minute takes a number, got 'lots'"):
        limits()
    monkeypatch.setenv("MONEYNB_LIMITS", "")
    with pytest.raises(ValueError, match="'guesses=3' is not 'name=number'"):
        set_limits(guesses=3)
    with pytest.raises(ValueError, match="cannot be negative"):
        set_limits(games_per_minute=-1)


def test_browsers_trying_at_the_same_instant_get_one_try_past_the_servers_delay(loc, monkeypatch):
    """Per-browser ids are forgeable (a new page is a new browser): the server's delay must
    hold when many pages try at once. Twelve browsers, each with a fresh id, pass the check
    together (a barrier), then each counts its wrong try: only one was looked at."""
    import threading
    import types

    from moneynb.store import limits as lim

    monkeypatch.setenv("MONEYNB_LIMITS_FILE", str(Path(loc).with_suffix(".limits")))
    set_limits(code_free_tries=100, server_code_free_tries=3, first_delay_s=5,
               server_max_delay_s=10)  # fmt: skip
    clock = [1000.0]
    monkeypatch.setattr(lim, "time", types.SimpleNamespace(time=lambda: clock[0]))
    for i in range(3):  # the server's free wrong tries, used up
        lim.check_try("code", f"browser:{i}", loc)
        lim.wrong_try("code", f"browser:{i}", loc)
    clock[0] += 60  # long after the server's delay
    n = 12
    gate, passed = threading.Barrier(n), []

    def page(i):
        who = f"browser:fresh{i}"
        try:
            lim.check_try("code", who, loc)
            ok = True
        except TooManyTries:
            ok = False
        gate.wait(60)  # every page has been checked before any counts its wrong try
        if ok:
            passed.append(who)
            lim.wrong_try("code", who, loc)

    threads = [threading.Thread(target=page, args=(i,)) for i in range(n)]
    [t.start() for t in threads]
    [t.join(120) for t in threads]
    assert len(passed) == 1, passed
