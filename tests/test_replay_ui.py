"""The replay widget (moneynb.ui.replay): at every step shown, the board, money table, log and
decision panel are those of the engine's state at that step; the chart and buttons move the
scrubber; "Continue from here" makes a new live game and save. Issue 19."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from test_replay import fresh

import moneynb
from moneynb.ui.boards import board_for
from moneynb.ui.launcher import launcher
from moneynb.ui.replay import SPEEDS, ReplayView, saved_games

GAMES = [("easy_money", 3), ("moolah", 3), ("money_card", 3), ("money_moves", 3), ("money_run", 2)]


def bot_game(name: str, n: int, seed: int = 3, limit: int = 300):
    """A seeded greedy-bot game, as ``test_replay.bot_game``, on one random stream
    (``chance_streams`` 1): the games these tests' steps were written on (issue 39)."""
    g = moneynb.new_game(name, players=[f"P{i}" for i in range(n)], seed=seed, chance_streams=1)
    bots = [moneynb.make_bot("greedy", seed=seed + i) for i in range(n)]
    while not g.over and len(g.actions) < limit:
        g.apply(bots[g.decision.player].choose(g))
    return g


def dollars_shown(view) -> dict[str, int]:
    """``{account: dollars}`` read from the money table's HTML."""
    cells = re.findall(r"data-account='([^']+)' data-dollars='(-?\d+)'", view.money_html.value)
    return {a: int(v) for a, v in cells}


def traces(board) -> list:
    """The board's moving traces and titles, without plotly's random trace ids."""
    out = [{k: v for k, v in t.to_plotly_json().items() if k != "uid"} for t in board.figure.data]
    layout = board.figure.layout
    return [*out, layout.title.text, [a.text for a in layout.annotations or ()]]


@pytest.mark.parametrize("name,n", GAMES, ids=[g for g, _ in GAMES])
def test_every_step_shows_the_engines_state(name, n, tmp_path):
    g = bot_game(name, n)
    view = ReplayView(g.to_json(), coach=False, store=tmp_path / "s.sqlite3")
    r = view.replay
    for i in [r.n // 2, 1, r.n, 0, r.n // 2 + 1, r.n - 3]:
        view.slider.value = i  # as the page moves it
        assert view.index == i and view.game is r.state(i)
        want = fresh(g, i)
        if want.name != "money_run":
            wallets = {a: v for a, v in want.money().items()}
            assert dollars_shown(view) == wallets
        # the board equals one freshly drawn for that state, with the same last events
        board = board_for(want)
        events = list(want.log) if i == 0 else want.log[r.log_len[i - 1] :]
        board.update(want, events)
        board.highlight(want.decision)
        assert traces(view.board) == traces(board)
        assert view.board.describe(view.game) == board.describe(want)
        assert f"data-step='{i}'" in view.step_html.value
        # the log: the lines before, then (highlighted) the move that led to this step: the
        # same events the board above was drawn from (issue 30, case 7)
        current = re.findall(r"moneynb-log-current'[^>]*>([^<]*)<", view.log_html.value)
        # in the board's plain words (issue 38), a line the next one says left out
        said = [board.event_text(want, e) for e in events]
        assert [html_text(c) for c in current] == [_capital(view.plain(t)) for t in said if t]
        if i < r.n:
            d = want.decision
            assert html_text(view.decision_html.value).count("chosen") == 1
            assert d.prompt.split()[0] in html_text(view.decision_html.value)
        else:
            assert ("Game over" in view.decision_html.value) == want.over


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def html_text(value: str) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def test_buttons_chart_and_speed_move_the_scrubber(tmp_path):
    g = bot_game("moolah", 2, limit=80)
    view = ReplayView(g, coach=False, store=tmp_path / "s.sqlite3")
    n = view.replay.n
    assert view.index == 0 and view.slider.max == n and view.play.max == n
    view.forward_button.click()
    view.forward_button.click()
    assert view.index == 2 and view.slider.value == 2
    view.back_button.click()
    assert view.index == 1
    view.last_button.click()
    assert view.index == n
    view.forward_button.click()  # stays at the end
    assert view.index == n
    view.first_button.click()
    view.back_button.click()  # stays at the start
    assert view.index == 0
    # a click on the chart's point of step 37 jumps there
    view._chart_clicked(view.chart_figure.data[0], SimpleNamespace(xs=[37], point_inds=[37]))
    assert view.index == 37 and view.slider.value == 37
    assert view.chart_figure.layout.shapes[0].x0 == 37
    # the chart plots each player's score at every step
    series = view.replay.series()
    for t in view.chart_figure.data:
        assert list(t.y) == series[t.name] and list(t.x) == list(range(n + 1))
    assert list(t.y)[37] == fresh(g, 37).scores()[t.name]
    view.speed.value = SPEEDS["fast"]
    assert view.play.interval == SPEEDS["fast"]
    with pytest.raises(IndexError, match="out of range"):
        view.go(n + 1)
    assert view.index == 37


def test_coach_panel_is_the_coach_of_the_step(tmp_path):
    from moneynb.coach import coach

    g = bot_game("moolah", 2, seed=1, limit=80)
    view = ReplayView(g, store=tmp_path / "s.sqlite3")
    shown = 0
    for i in range(0, 60, 4):
        view.go(i)
        c = coach(fresh(g, i))
        if c is None:
            assert "nothing to weigh up" in view.coach_html.value or g.over
        else:
            shown += 1
            assert html_text(view.coach_html.value).count(c.title) == 1
    assert shown
    view.play.playing = True
    view.go(61)
    assert "paused while playing" in view.coach_html.value
    view.coach_toggle.value = False
    assert view.coach_html.layout.display == "none"


def test_the_board_takes_no_clicks():
    g = bot_game("money_run", 2, limit=30)
    view = ReplayView(g, step=4, coach=False)
    d = view.game.decision
    assert not view.board.click(d.options[0])
    assert view.replay.state(4).to_json() == fresh(g, 4).to_json()


def test_continue_from_here_makes_a_new_live_game(tmp_path):
    g = bot_game("money_moves", 3, limit=40)
    save = tmp_path / "orig.json"
    save.write_text(g.to_json())
    (tmp_path / "orig.seats.json").write_text(
        json.dumps(
            {
                "format": "moneynb-seats",
                "version": 1,
                "game": "money_moves",
                "seats": {"P0": "human", "P1": "bot:greedy", "P2": "bot:greedy"},
            }  # fmt: skip
        )
    )
    before = save.read_text()
    from moneynb.store import open_store

    store = open_store(tmp_path / "s.sqlite3")
    view = ReplayView(str(save), coach=False, store=store, owner="hub:ann")
    view.go(12)
    view.branch_button.click()
    b = view.branched
    assert b is not None and view.branch_box.children[1] is b
    assert b.game.actions[:12] == g.actions[:12]
    # bots of the sidecar moved on; it now waits for the person (or is over)
    assert b.game.over or b.is_human(b.game.decision.player)
    assert not b.is_human(1) and not b.is_human(2)
    assert store.read(b.game_id) == b.game.to_json()
    assert store.info(b.game_id).owner == "hub:ann"
    assert save.read_text() == before
    assert view.replay.state(view.replay.n).to_json() == g.to_json()
    # a second branch is another game
    again = view.branch(3)
    assert again.game_id != b.game_id and again.game.actions == g.actions[:3]
    # ... shown without an "Unfinished games" box offering the first branch (issue 30, case 7)
    assert again.offer.games == []


def test_launcher_lists_saves_and_replays_one(tmp_path, monkeypatch):
    from moneynb.store import open_store

    store = open_store(tmp_path / "s.sqlite3")
    g = bot_game("easy_money", 2, limit=1000)
    assert g.over
    gid = store.import_json(g.to_json(), owner="hub:ann")
    store.import_json(g.to_json(), owner="hub:bob")  # another's: never listed
    # a game still being played is not offered (the tester's F1): it is continued, not replayed
    live = store.import_json(bot_game("easy_money", 2, limit=50).to_json(), owner="hub:ann")
    games = saved_games(store, "hub:ann")
    assert [i for _, i in games] == [gid]
    assert "Easy Money" in games[0][0] and f"{len(g.actions)} actions" in games[0][0]
    assert [i for _, i in saved_games(store, "hub:ann", finished_only=False)] == [live, gid]
    assert saved_games(store, None) == []  # owner not known yet: nothing
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    form = launcher(store=store, restore=False)
    assert [v for _, v in form.replays.list.options] == [gid]
    assert form.replays.show(live) is None and "still being played" in form.replays.error.value
    view = form.replays.show()
    assert isinstance(view, ReplayView) and form.game_box.children == (view,)
    assert view.replay.to_json() == g.to_json()
    bob = store.list_games("hub:bob")[0].id
    assert form.replays.show(bob) is None  # another's id reads as no game
    assert "no stored game" in form.replays.error.value
    assert form.game_box.children == (view,)


def _ann_and_a_greedy_bot(tmp_path):
    """A replay of 30 actions of Money Moves: Ann (first options) against "Greedy bot 1"."""
    g = moneynb.new_game("money_moves", players=["Ann", "Greedy bot 1"], seed=5, chance_streams=1)
    bots = {1: moneynb.make_bot("greedy", seed=1)}
    while not g.over and len(g.actions) < 30:
        d = g.decision
        g.apply(bots[d.player].choose(g) if d.player in bots else d.first_option)
    view = ReplayView(g.to_json(), coach=False, store=tmp_path / "s.sqlite3")
    return view


def test_a_branch_the_store_cannot_trace_is_not_called_practice(tmp_path):
    """ "Continue from here" of a game the store does not hold (a simulated game, a file) keeps
    the replayed dice, but the store cannot tell (it has no game to compare with): the note
    says the dice come again and does not say the teacher sees it marked (the tester of stop
    48: it said so, and the stored game was not marked)."""
    from moneynb.store import open_store

    view = _ann_and_a_greedy_bot(tmp_path)
    b = view.branch(10)
    note = view.branch_box.children[0].value
    assert "same dice and cards come" in note and "practice" not in note
    assert not open_store(tmp_path / "s.sqlite3").info(b.game_id).practice


def test_bot_named_seats_stay_bots_without_a_sidecar(tmp_path):
    view = _ann_and_a_greedy_bot(tmp_path)
    assert view.bot_specs == {1: "bot:greedy"}
    b = view.branch(10)
    assert b.is_human(0) and not b.is_human(1)
    # a simulated game's seats ("greedy1", "random2") stay bots (issue 30, case 7: before,
    # Continue from here made every one a person, with no way to choose)
    sim = moneynb.simulate("money_moves", ["greedy", "random"], n_games=1, keep_games=True,
                           progress=False)  # fmt: skip
    view = ReplayView(sim.loc[0], coach=False, store=tmp_path / "s.sqlite3")
    assert view.bot_specs == {0: "bot:greedy", 1: "bot:random"}
    # every seat a bot (issue 38, case 4): the seat deciding at the step shown starts as a
    # person, so "Continue from here" does not go straight to the game's end
    assert [d.value for d in view.seat_choices] == ["human", "bot:random"]
    # ... and the seats' drop-downs choose: seat 1 becomes a person, seat 0 a search bot
    view.seat_choices[1].value = "human"
    view.seat_choices[0].value = "bot:search"
    b = view.branch(4)
    assert b.is_human(1) and not b.is_human(0) and b.bot_specs == {0: "bot:search"}


def test_continue_from_a_simulated_game_lets_a_person_take_any_seat(tmp_path):
    """Issue 38, case 4: the README's ``moneynb.replay(games.loc[3])`` (all seats bots):
    "Continue from here" gives a game a person plays, at the seat deciding at the step shown
    (followed as the replay moves, until a seat is chosen by hand), and any seat can be taken."""
    sim = moneynb.simulate("moolah", ["greedy", "greedy", "greedy"], n_games=1,
                           keep_games=True, progress=False)  # fmt: skip
    view = ReplayView(sim.loc[0], coach=False, store=tmp_path / "s.sqlite3")
    assert len(view.bot_specs) == 3
    for step in (5, 6, 7, 20):
        view.go(step)
        who = view.game.decision.player
        assert view.chosen_seats() == {s: "bot:greedy" for s in range(3) if s != who}, step
    b = view.branch()
    assert not b.game.over and b.human_turn
    assert b.game.decision.player == who
    # a finished game's branch keeps its dice (a "what if"; the tester's F1 is for games
    # still being played)
    assert "reseed" not in b.game.config()["options"] and b.game.seed == view.replay.config["seed"]
    # a seat chosen by hand stays as chosen when the replay moves on
    other = (who + 1) % 3
    view.seat_choices[other].value = "human"
    view.go(9)
    assert view.chosen_seats() == {s: "bot:greedy" for s in range(3) if s not in (who, other)}
    b = view.branch()
    assert b.is_human(other) and b.is_human(who) and not b.game.over


def test_a_game_with_no_actions_replays(tmp_path):
    g = moneynb.new_game("money_card", players=["Ann", "Bob"], seed=1)
    view = ReplayView(g, coach=False, store=tmp_path / "s.sqlite3")
    assert view.slider.max == 0 and "step 0 of 0" in view.header.value
    view.move(1)
    assert view.index == 0
    b = view.branch().game  # (not over: its chance is its own, the tester's F1)
    assert b.actions == [] and b.players == g.players and b.options["reseed"][0][0] == 0


def test_scrubbing_does_not_wait_for_the_coach_of_every_step_passed(tmp_path, monkeypatch):
    """In a kernel (an asyncio loop runs), a slider drag or a held arrow key passes many steps:
    the Coach (up to about 1 s for a Money Moves roll) is worked out only for the step the
    scrubber stops at, after it stops; each step passed is shown without it."""
    import asyncio
    import concurrent.futures

    import moneynb.ui.replay as replay_ui
    from moneynb.coach import coach

    monkeypatch.setattr(replay_ui, "COACH_DELAY", 0.05)
    monkeypatch.setattr(replay_ui, "_kernel_loop", asyncio.get_running_loop)  # as a kernel
    g = bot_game("moolah", 2, seed=1, limit=40)
    asked = []

    async def scrub():
        view = ReplayView(g, store=tmp_path / "s.sqlite3")
        real = view._coach_step
        view._coach_step = lambda i: asked.append(i) or real(i)
        for i in range(1, 9):  # the page sends these one after another
            view.slider.value = i
            assert view.index == i and "working" in view.coach_html.value
        for _ in range(200):  # the loop runs: the Coach of the step shown comes
            await asyncio.sleep(0.02)
            if asked:
                break
        await asyncio.sleep(0.1)
        return view

    # a thread of its own: a test process may have a loop running already (Playwright's)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        view = pool.submit(asyncio.run, scrub()).result()
    assert asked == [8]
    want = coach(fresh(g, 8))
    assert want is not None and html_text(view.coach_html.value).count(want.title) == 1


def test_continue_from_here_stops_play_and_is_off_at_game_over(tmp_path):
    g = bot_game("money_run", 2, limit=200)
    assert g.over
    view = ReplayView(g, coach=False, store=tmp_path / "s.sqlite3")
    view.go(5)
    view.play.playing = True  # Play runs, then a click on Continue from here
    view.branch_button.click()
    assert not view.play.playing  # the replay no longer moves under the new game
    assert view.branched.game.actions == g.actions[:5]
    assert not view.branch_button.disabled
    view.go(view.replay.n)  # the end of a finished game: nothing to continue
    assert view.branch_button.disabled
    view.go(3)
    assert not view.branch_button.disabled


def test_branches_made_in_one_second_are_separate_games(tmp_path):
    """Three clicks on Continue from here within a second: three games, none overwritten."""
    from moneynb.store import open_store

    store = open_store(tmp_path / "s.sqlite3")
    g = bot_game("easy_money", 2, limit=30)
    view = ReplayView(g, coach=False, store=store)
    ids = [view.branch(4).game_id for _ in range(3)]
    assert len(set(ids)) == 3
    for i in ids:
        assert moneynb.load_game(store.read(i)).actions == g.actions[:4]


def test_play_does_not_flood_screen_readers(tmp_path):
    """Each step moved to by hand is announced (the live region); while Play runs (up to 8
    steps a second) nothing is, or a screen reader would read stale steps for minutes after
    a pause; when Play stops, the step it stopped at is announced."""
    g = bot_game("moolah", 2, limit=60)
    view = ReplayView(g, coach=False, store=tmp_path / "s.sqlite3")
    view.forward_button.click()
    seq = view.a11y.seq
    assert view.a11y.message.startswith("Step 1 of")
    view.play.playing = True
    for i in range(2, 12):
        view.slider.value = i  # as Play moves it
    assert view.a11y.seq == seq
    view.play.playing = False
    assert view.a11y.seq == seq + 1 and view.a11y.message.startswith("Step 11 of")
    view.forward_button.click()
    assert view.a11y.seq == seq + 2 and view.a11y.message.startswith("Step 12 of")
    # in words that count one thing (the tester of stop 49: "Step 12 of 384: before action 13
    # of 384" read as off by one)
    assert f"Step 12</b> of {view.replay.n}: 12 actions played, {view.replay.n - 12} to come" in (
        view.step_html.value
    ), view.step_html.value


def test_continue_from_here_into_a_store_that_cannot_be_written(tmp_path):
    """A teacher's unwritable or mistyped store: Continue from here still gives a live
    game (not saved) and says why it is not saved, instead of an error in a callback."""
    g = bot_game("moolah", 2, limit=40)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    view = ReplayView(g, coach=False, store=blocked / "store" / "games.sqlite3")
    view.go(10)
    view.branch_button.click()
    b = view.branched
    assert b is not None and b.game_id is None and b.game.actions == g.actions[:10]
    note = view.branch_box.children[0].value
    assert "could not be saved" in note and "a-file" in note and "role='alert'" in note
    assert "not saved" in b.save_label.value and "a-file" in b.save_label.value
    assert blocked.read_text() == "not a folder"


def test_the_apps_list_shows_a_game_continued_from_a_replay_once_it_is_over(tmp_path, monkeypatch):
    """In the app, a game made with Continue from here is in "Replay a saved game" as soon as
    it is over (no Refresh list needed to replay it later); while it is being played it is
    not (the tester's F1: a game still being played is continued, not replayed)."""
    from moneynb.store import open_store

    store = open_store(tmp_path / "s.sqlite3")
    g = bot_game("money_moves", 2, limit=1000)
    gid = store.import_json(g.to_json(), owner="hub:ann")
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    form = launcher(store=store, restore=False)
    view = form.replays.show(gid)
    view.seat_choices[1].value = "bot:greedy"  # the person plays seat 0
    b = view.branch(2)
    assert not b.game.over and b.game_id not in [v for _, v in form.replays.list.options]
    me = moneynb.make_bot("greedy", seed=0)
    while not b.game.over:
        b.submit(me.choose(b.game))
    assert b.game_id in [v for _, v in form.replays.list.options]


def test_continue_from_a_game_still_being_played_deals_new_chance(tmp_path):
    """The tester's F1 (2026-12-06), in the view: "Continue from here" on a replay of a game
    that is not over (``moneynb.replay(view)`` in a notebook) makes a game whose first moves
    are the replayed ones and whose coming dice and cards are its own (a fresh seed after the
    branch point, kept in its save), so it shows nothing of the original's future; the
    original is unchanged. A finished game's branch keeps the same dice (a "what if")."""
    from moneynb.store import open_store

    store = open_store(tmp_path / "s.sqlite3")
    v = moneynb.play("moolah", players=["You", "bot:greedy"], seed=5, store=store,
                     owner="hub:ann", chance_streams=1)  # fmt: skip
    me = moneynb.make_bot("greedy", seed=0)
    for _ in range(8):
        v.submit(me.choose(v.game))
    before = store.read(v.game_id)
    rv = moneynb.replay(v, store=store, owner="hub:ann")
    i = rv.replay.n - 1
    b = rv.branch(i)
    assert b.game.actions[:i] == v.game.actions[:i] and b.game.seed == v.game.seed
    stored = json.loads(store.read(b.game_id))
    assert stored["options"]["reseed"][0][0] == i
    assert "its own" in rv.branch_box.children[0].value
    same = rv.replay.branch(i, fresh_chance=False)
    assert b.game.rng.getrandbits(64) != same.rng.getrandbits(64)
    assert store.read(v.game_id) == before
    # the original's replay, once over, branches with the same dice
    g = v.game.copy()
    while not g.over:
        g.apply(me.choose(g))
    over = ReplayView(g, store=store, owner="hub:ann", coach=False)
    b2 = over.branch(i)
    assert b2.game.actions[:i] == g.actions[:i] and "reseed" not in b2.game.config()["options"]
    assert "same dice" in over.branch_box.children[0].value


def test_a_running_loop_outside_a_kernel_does_not_delay_the_coach(tmp_path):
    """Only a Jupyter kernel delays the Coach: a process where some library runs an asyncio
    loop (Playwright's sync API in the browser tests, before these tests in CI) gets it at
    once, as plain Python does."""
    import asyncio
    import concurrent.futures

    g = bot_game("moolah", 2, seed=1, limit=40)

    async def show():
        view = ReplayView(g, store=tmp_path / "s.sqlite3")
        view.go(8)
        return view.coach_html.value

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        shown = pool.submit(asyncio.run, show()).result()
    assert "working" not in shown and "Coach" in shown


def test_the_list_of_saves_leaves_out_files_with_wrong_fields(tmp_path):  # (imported)
    """A save whose fields are wrong (a hand-edited file: actions not a list, no seed, a
    seats sidecar's format) is not offered for replay ("actions": "xx" was listed as 2
    actions); a good one is."""
    g = bot_game("moolah", 2, limit=20)
    doc = json.loads(g.to_json())
    (tmp_path / "good.json").write_text(g.to_json())
    (tmp_path / "actions.json").write_text(json.dumps({**doc, "actions": "xx"}))
    (tmp_path / "noseed.json").write_text(json.dumps({k: v for k, v in doc.items() if k != "seed"}))
    (tmp_path / "other.json").write_text(json.dumps({**doc, "format": "something-else"}))
    from moneynb.store import import_folder, open_store

    store = open_store(tmp_path / "s.sqlite3")
    assert len(import_folder(store, tmp_path, "hub:ann")) == 1  # an old folder, imported
    listed = saved_games(store, "hub:ann", finished_only=False)  # (an unfinished game)
    assert [store.info(i).source for _, i in listed] == [
        f"file:{(tmp_path / 'good.json').resolve()}"
    ]


def test_after_a_jump_card_board_and_log_describe_the_same_step(tmp_path):
    """Issue 30 case 7 (Moolah, about step 137): a jump to a step whose highlighted log line is
    a card drawn shows that card, for the player the line names; a card on show always has
    its line highlighted (before: the log highlighted the next step's events, so the card
    panel said "(no card yet)" beside a card being drawn)."""
    g = bot_game("moolah", 3, limit=300)
    view = ReplayView(g.to_json(), coach=False, store=tmp_path / "s.sqlite3")
    r = view.replay
    drawn = [i for i in range(1, r.n) if any(e.kind == "drew" for e in r.events(i - 1))]
    assert len(drawn) >= 3
    for i in [*drawn[-3:], *drawn[:3], 137]:
        view.go(i)
        current = [
            html_text(c)
            for c in re.findall(r"moneynb-log-current'[^>]*>([^<]*)<", view.log_html.value)
        ]
        cards = [e for e in r.events(i - 1) if e.kind in ("drew", "blackjack", "stock")]
        card = view.board.card
        if cards:  # the card shown is the last one the highlighted lines draw, for its player
            assert card.title, (i, current)
            assert _capital(view.plain(cards[-1].text)) in current
            assert card.owner == r.players[cards[-1].data["seat"]]
            assert card.owner in " ".join(current)
        else:
            assert not card.title, (i, card.title, current)


def _moolah_bot_holding_an_advantage_card():
    """Moolah, You and two greedy bots (seed 3), played until a bot holds an Advantage card
    (action 170: Greedy bot 1 holds advantage2), as the tester's F2 (2026-12-06)."""
    v = moneynb.play("moolah", players=["You", "bot:greedy", "bot:greedy"], seed=3,
                     autosave=False, chance_streams=1)  # fmt: skip
    me = moneynb.make_bot("greedy", seed=0)
    while not any(v.game.hand[s] for s in (1, 2)):
        v.submit(me.choose(v.game))
    return v


def test_a_replay_of_an_unfinished_game_keeps_hidden_cards_hidden():
    """The tester's F2: ``moneynb.replay(v)`` of a game still being played named a bot's
    Advantage card ("Greedy bot 1 drew: Advantage card: move 2 spaces in any direction")
    while the live view said "kept hidden until played". A replay of a game that is not over
    shows hidden information only as the live view does: the log and the card panel count
    the card without naming it, a bot's step shows the option it took but not its other
    options (they name its cards), and the Coach of a bot's step waits for the game's end.
    Once the game is over, everything is shown."""
    v = _moolah_bot_holding_an_advantage_card()
    seat = next(s for s in (1, 2) if v.game.hand[s])
    card = v.game.data.cards[v.game.hand[seat][0][0]]
    assert "kept hidden until played" in v.log_html.value
    rv = moneynb.replay(v)
    rv.go(rv.replay.n)
    assert card["text"] not in rv.log_html.value
    assert "drew an Advantage card (kept hidden until played)" in rv.log_html.value
    assert rv.secret and rv.screen_seats == {0}
    # the step at which the card was drawn: the card panel counts it, as the live board
    drew = next(
        i for i in range(rv.replay.n, 0, -1)
        if any(e.kind == "drew" and e.data.get("card") == v.game.hand[seat][0][0]
               and e.data.get("seat") == seat for e in rv.replay.events(i - 1))
    )  # fmt: skip
    rv.go(drew)
    assert card["text"] not in rv.board.card.text and "hidden" in rv.board.card.text
    assert card["text"] not in rv.log_html.value
    # a bot's step with Advantage cards to play: the option taken only, no Coach
    steps = [
        i for i in range(rv.replay.n)
        if rv.replay.deciders[i] in (1, 2)
        and any(str(o).startswith("advantage:") for o, _ in rv.replay.step(i).options)
    ]  # fmt: skip
    assert steps
    for i in steps:
        rv.go(i)
        assert len(rv.replay.step(i).options) > 1
        assert "moneynb-replay-option" not in rv.decision_html.value, i
        assert "moneynb-replay-taken" in rv.decision_html.value
        assert "once the game is over" in rv.coach_html.value
    # the person's own steps keep their options
    mine = next(
        i for i in range(rv.replay.n)
        if rv.replay.deciders[i] == 0 and len(rv.replay.step(i).options) > 1
    )  # fmt: skip
    rv.go(mine)
    assert "moneynb-replay-option" in rv.decision_html.value
    assert "once the game is over" not in rv.coach_html.value
    # the game over: its replay shows every card
    g = v.game
    bots = [None, moneynb.make_bot("greedy", seed=1), moneynb.make_bot("greedy", seed=2)]
    me = moneynb.make_bot("greedy", seed=0)
    done = g.copy()
    while not done.over:
        done.apply((bots[done.decision.player] or me).choose(done))
    over = ReplayView(done, coach=False, seats={1: "bot:greedy", 2: "bot:greedy"})
    assert not over.secret
    over.go(drew)
    assert card["text"] in over.board.card.text
    over.go(steps[0])
    assert all(lbl in over.decision_html.value for _, lbl in over.replay.step(steps[0]).options)


def _token_overlaps(board) -> list[str]:
    """Tokens (a board's "tokens", "planes" or "pawns" markers, in px) that overlap another
    token (their discs by more than half a pixel) or a name not written on them (the estimate
    of ``test_board_labels``)."""
    from test_board_labels import _boxes, _hit

    labels, markers = _boxes(board)
    tokens = [m for m in markers if m[2].split(" marker")[0] in ("tokens", "planes", "pawns")]

    def on(a, b) -> bool:  # two discs (boxes of their diameter) on one another
        d = (((a[0] + a[2]) - (b[0] + b[2])) ** 2 + ((a[1] + a[3]) - (b[1] + b[3])) ** 2) ** 0.5
        return d / 2 < (a[2] - a[0]) - 0.5

    out = []
    for k, (box, _order, what) in enumerate(tokens):
        out += [f"{what} overlaps {other}" for b, _o, other in tokens[k + 1 :] if on(box, b)]
        out += [f"{what} overlaps {text!r}" for b, text, _o, own, _s in labels
                if own != box and _hit(box, b)]  # fmt: skip
    return out


@pytest.mark.parametrize("name,n", GAMES, ids=[g for g, _ in GAMES])
def test_replay_tokens_stand_apart_at_the_start(name, n):
    """The tester's F10 (2026-12-06): in the replay of a Moolah game at step 0 the three
    pawns sat on one another at the Bank corner and over the "+$75k" label. The replay draws
    the live board's tokens (the same board, the same places): at step 0 of every game and
    at every step of Moolah's and Easy Money's, no token over another token or a name.
    Before, Moolah's tokens stood 0.42 units apart (16 px) with 18 px discs, Easy Money's 0.4
    (16.4 px): on one another on every board, the live one too (the names were moved clear of
    the tokens for the live board in 411fc7f, issue 38); and Easy Money's tokens on the two
    spaces beside a corner met at the inner corner (0.14 units apart, step 27)."""
    players = ["You", "Greedy bot 1", "Greedy bot 2"][:n]
    g = moneynb.new_game(name, players=players, seed=7, chance_streams=1)
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(n)]
    while not g.over and len(g.actions) < 120:
        g.apply(bots[g.decision.player].choose(g))
    rv = ReplayView(g, coach=False)
    steps = range(rv.replay.n + 1) if name in ("moolah", "easy_money") else [0]
    found = {}
    for i in steps:
        rv.go(i)
        if problems := _token_overlaps(rv.board):
            found[i] = problems
    assert not found, found


def test_money_card_planes_on_neighbouring_spaces_stand_apart():
    """The replay tester's gap (2026-12-06): in Money Card a plane on a route stop stood on
    the plane at the city next to it ("Y" on the stop 3 units from Madrid over "G2" there,
    seed 7, steps 75-76), on the live board and the replay's. At every step of that game,
    no plane's disc lies on the disc of a plane on another space (planes on one space stand
    at the board's offsets, partly on one another, as before)."""
    from moneynb.figures.base import px_per_unit

    g = moneynb.new_game("money_card", players=["You", "Greedy bot 1", "Greedy bot 2"], seed=7,
                         chance_streams=1)  # fmt: skip
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(3)]
    while not g.over and len(g.actions) < 120:
        g.apply(bots[g.decision.player].choose(g))
    rv = ReplayView(g, coach=False)
    scale = px_per_unit(rv.board.build_layout_base())
    found = {}
    for i in range(rv.replay.n + 1):
        rv.go(i)
        state = rv.replay.state(i)
        xs, ys, *_ = rv.board._planes(state)
        spaces = [s for k, s in enumerate(state.pos) if s is not None and not state.out[k]]
        disc = rv.board.zoomed(19)
        for a in range(len(xs)):
            for b in range(a + 1, len(xs)):
                d = ((xs[a] - xs[b]) ** 2 + (ys[a] - ys[b]) ** 2) ** 0.5 * scale
                if spaces[a] != spaces[b] and d < disc - 0.5:
                    found.setdefault(i, []).append((spaces[a], spaces[b], round(d, 1)))
    assert not found, found


def _texts(view) -> str:
    """What a player reads of a live view: its header, money table, log and board as text."""
    return " ".join(
        re.sub(r"<[^>]+>", " ", w)
        for w in (view.header.value, view.money_html.value, view.log_html.value,
                  view.board_text.value)
    )  # fmt: skip


def test_a_seat_a_person_takes_from_a_bot_carries_a_persons_name(tmp_path):
    """Issue 38 (a fresh tester): after "Continue from here", a seat a person now plays kept
    its bot's name ("Greedy bot 3 must decide"). The one person's seat is "You"; with more
    people a bot's seat is "Player 3" or the name typed beside its drop-down; the header,
    money table, log and board as text say that name, never the bot's; the bots keep theirs,
    and the note under the replay says which seat was renamed."""
    sim = moneynb.simulate("moolah", ["greedy", "greedy", "greedy"], n_games=1,
                           keep_games=True, progress=False)  # fmt: skip
    view = ReplayView(sim.loc[0], coach=False, store=tmp_path / "s.sqlite3")
    view.go(20)
    who = view.game.decision.player
    old = view.replay.players[who]
    b = view.branch()
    assert b.game.players[who] == "You" and b.human_turn
    assert [p for i, p in enumerate(b.game.players) if i != who] == [
        p for i, p in enumerate(view.replay.players) if i != who
    ]
    said = _texts(b)
    assert old not in said, said[:300]
    assert re.search(r"\bYou\b", re.sub(r"<[^>]+>", " ", b.header.value))
    assert f"the seat that was {old}'s" in view.branch_box.children[0].value
    # the same seats, moves and money as the replayed game at that step
    same = view.replay.branch(20)
    assert list(b.game.money().values()) == list(same.money().values())

    # two people: a bot's seat is "Player 2" unless a name is typed beside its drop-down
    view = _ann_and_a_greedy_bot(tmp_path)
    view.seat_choices[1].value = "human"
    assert [t.value for t in view.seat_names] == ["Ann", "Player 2"]
    assert view.branch(10).game.players == ["Ann", "Player 2"]
    view.seat_names[1].value = "Bea"
    b = view.branch(11)
    assert b.game.players == ["Ann", "Bea"]
    if b.game.decision.player == 1:
        assert "Bea" in b.header.value
    assert "Greedy bot 1" not in _texts(b)
    # a name typed twice: refused in one note, no game
    view.seat_names[1].value = "Ann"
    assert view.branch(11) is None
    assert "distinct" in view.branch_box.children[0].value
    # the same name in other capitals, or a bot's name for a person: refused too (the tester
    # of stop 48: "You" and "you" seated as two people; a person called "Greedy bot 1")
    for typed, said in (("ANN", "differ only in capitals"), ("greedy bot 4", "calls a bot"),
                        ("pot", "a row of the money table"), ("Bea $9", "dollar sign")):  # fmt: skip
        view.seat_names[1].value = typed
        assert view.branch(11) is None
        assert said in view.branch_box.children[0].value, view.branch_box.children[0].value


def test_a_persons_seat_handed_to_a_bot_takes_a_bots_name(tmp_path):
    """The tester of stop 48: after "Continue from here" with the person's seat ("Ann") given
    to a bot and the bot's seat taken by the person, the bot kept "Ann" and the person was
    "Player 2": the money table said "Ann's" for the bot's money. A person's seat handed to a
    bot takes a bot name no seat of the replayed game had; the person gets "You"."""
    view = _ann_and_a_greedy_bot(tmp_path)
    view.seat_choices[0].value = "bot:greedy"
    view.seat_choices[1].value = "human"
    assert view.chosen_names() == ["Greedy bot 2", "You"]
    b = view.branch(10)
    assert b.game.players == ["Greedy bot 2", "You"]
    assert not b.is_human(0) and b.is_human(1)
    note = view.branch_box.children[0].value
    assert "You now play the seat that was Greedy bot 1's" in note
    assert "Greedy bot 2 now plays the seat that was Ann's" in note


def test_a_double_click_on_continue_from_here_makes_one_game(tmp_path):
    """The tester of stop 49: a fast double-click on "Continue from here" stored two games
    (the second a branch of the first, hidden, both marked practice). Its second click, for
    the same step and seats, is ignored; a click for another step, or one later, makes another
    game."""
    from moneynb.store import open_store

    store = open_store(tmp_path / "s.sqlite3")
    view = _ann_and_a_greedy_bot(tmp_path)
    view.store = store
    view.owner = "hub:ann"
    view.go(10)
    view.branch_button.click()
    view.branch_button.click()  # the second click of a double-click
    assert len(store.list_games("hub:ann")) == 1
    first = view.branched
    done, asked = view._branched_at
    view._branched_at = (done - 1.0, asked)  # a second click, a second later
    view.branch_button.click()
    assert len(store.list_games("hub:ann")) == 2 and view.branched is not first
    view.go(12)
    view.branch_button.click()  # another step at once: another game
    assert len(store.list_games("hub:ann")) == 3
