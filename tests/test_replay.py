"""Replay (moneynb/core/replay.py): a state at any step equals a fresh replay of the first actions;
branches are independent; bad steps and sources get clear errors. Issue 19."""

from __future__ import annotations

import json
import random

import pytest

import moneynb
from moneynb.core.errors import IllegalAction, SaveFileError
from moneynb.core.replay import Replay

# every game, with a player count its rulebook allows
GAMES = [
    ("easy_money", 3),
    ("moolah", 3),
    ("money_card", 3),
    ("money_moves", 3),
    ("money_run", 2),
]


def bot_game(name: str, n: int, seed: int, limit: int = 400):
    """A seeded game played by greedy bots (at most ``limit`` actions)."""
    g = moneynb.new_game(name, players=[f"P{i}" for i in range(n)], seed=seed)
    bots = [moneynb.make_bot("greedy", seed=seed + i) for i in range(n)]
    while not g.over and len(g.actions) < limit:
        g.apply(bots[g.decision.player].choose(g))
    return g


def fresh(game, i: int):
    """The game rebuilt from its config and first ``i`` actions, independently of Replay."""
    g = type(game)(list(game.players), game.seed, **game.options)
    for a in game.actions[:i]:
        g.apply(a)
    return g


@pytest.fixture(scope="module", params=GAMES, ids=[g for g, _ in GAMES])
def played(request):
    name, n = request.param
    return bot_game(name, n, seed=3)


def test_state_at_any_step_equals_a_fresh_replay(played):
    r = Replay(played.to_json(), every=7)
    assert r.n == len(played.actions) > 10
    rng = random.Random(5)
    # jumps back and forth, forward runs inside a snapshot span, both ends
    steps = [0, r.n, 1, 2, 3, r.n // 2, r.n // 2 + 1, r.n - 1, 6, 7, 8, 13, 14]
    steps += [rng.randrange(r.n + 1) for _ in range(15)]
    for i in steps:
        got = r.state(i)
        want = fresh(played, i)
        assert got.to_json() == want.to_json(), i
        assert got.state() == want.state(), i
        assert [e.text for e in got.log] == [e.text for e in want.log]


def test_steps_series_and_events_follow_the_engine(played):
    r = Replay(played)
    series = r.series()
    assert set(series) == set(played.players)
    for i in (0, 1, r.n // 3, r.n - 1, r.n):
        want = fresh(played, i)
        s = r.step(i)
        assert s.scores == want.scores()
        assert {p: v[i] for p, v in series.items()} == want.scores()
        if i == r.n:
            assert s.taken is None and s.events == []
            continue
        d = want.decision
        assert (s.seat, s.player, s.prompt, s.kind) == (
            d.player,
            want.players[d.player],
            d.prompt,
            d.kind,
        )
        assert [o for o, _ in s.options] == list(d.options)
        assert s.taken == played.actions[i]
        assert s.taken_label
        events = want.apply(played.actions[i])
        assert [e.text for e in s.events] == [e.text for e in events]
    assert r.unit == ("progress" if played.name == "money_run" else "dollars")


def test_branch_is_a_new_independent_game(played, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(played.to_json())
    before = path.read_text()
    r = Replay(path)
    assert r.path == str(path)
    mid = r.n // 2
    b = r.branch(mid)
    assert b.to_json() == fresh(played, mid).to_json()
    assert b is not r.state(mid)
    # playing on the branch changes neither the replay nor the save file nor the game
    bot = moneynb.make_bot("greedy", seed=1)
    for _ in range(5):
        if b.over:
            break
        b.apply(bot.choose(b))
    assert r.state(mid).to_json() == fresh(played, mid).to_json()
    assert r.state(r.n).to_json() == played.to_json()
    assert path.read_text() == before
    assert len(played.actions) == r.n
    # two branches of one step are independent of each other
    b1, b2 = r.branch(mid), r.branch(mid)
    if not b1.over:
        b1.apply(bot.choose(b1))
        assert len(b2.actions) == mid


def test_replay_of_a_live_game_leaves_it_alone():
    g = bot_game("moolah", 2, seed=9, limit=60)
    text = g.to_json()
    r = Replay(g)
    r.state(10)
    b = r.branch(20)
    b.apply(moneynb.make_bot("greedy", seed=0).choose(b))
    assert g.to_json() == text
    assert r.state(r.n).to_json() == text
    assert r.final is not g


@pytest.mark.parametrize("bad", [-1, 10_000, 61])
def test_bad_step_is_a_clear_error(bad):
    g = bot_game("money_moves", 2, seed=2, limit=60)
    r = Replay(g)
    if bad == 61:
        bad = r.n + 1
    from moneynb.coach import coach_step

    for call in (r.state, r.step, r.branch, r.events, lambda i: coach_step(r, i)):
        with pytest.raises(IndexError, match=rf"step {bad} is out of range: .* steps 0\.\.{r.n}"):
            call(bad)
    assert r.state(r.n).to_json() == g.to_json()


@pytest.mark.parametrize("bad", [1.0, "3", True, None])
def test_a_step_must_be_a_whole_number(bad):
    r = Replay(bot_game("money_moves", 2, seed=2, limit=20))
    with pytest.raises(TypeError, match="a step is a whole number"):
        r.state(bad)


def test_numpy_steps_are_accepted():
    np = pytest.importorskip("numpy")
    g = bot_game("money_moves", 2, seed=2, limit=20)
    r = Replay(g)
    assert r.state(np.int64(5)).to_json() == fresh(g, 5).to_json()


def test_bad_sources_are_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no save file at"):
        Replay(str(tmp_path / "missing.json"))
    with pytest.raises(SaveFileError):
        Replay('{"format": "moneynb-game"')
    g = bot_game("money_moves", 2, seed=2, limit=20)
    doc = json.loads(g.to_json())
    doc["actions"].append("no such action")
    with pytest.raises(SaveFileError, match="cannot be replayed"):
        Replay(json.dumps(doc))
    with pytest.raises(TypeError, match="replay takes a save file"):
        Replay(42)
    with pytest.raises(ValueError, match="every must be an int >= 1"):
        Replay(g, every=0)


def test_unfinished_game_replays_to_its_pending_decision():
    g = bot_game("easy_money", 2, seed=4, limit=30)
    assert not g.over
    r = Replay(g.to_json())
    s = r.step(r.n)
    assert s.seat == g.decision.player and s.prompt == g.decision.prompt
    assert s.taken is None
    # the branch at the end continues the game: the next legal action is accepted
    b = r.branch(r.n)
    b.apply(moneynb.make_bot("greedy", seed=0).choose(b))
    with pytest.raises(IllegalAction):
        b.apply(("no", "such", "action"))


def test_coaching_is_the_coach_of_that_state():
    from moneynb.coach import coach, coach_step

    g = bot_game("moolah", 2, seed=1, limit=80)
    r = Replay(g)
    found = 0
    for i in range(0, r.n, 3):
        c = coach_step(r, i)
        want = coach(fresh(g, i))
        assert (c is None) == (want is None)
        if c is not None:
            found += 1
            assert c.title == want.title and c.lines == want.lines
    assert found > 0


def test_a_game_with_no_actions_has_one_step():
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1)
    r = Replay(g)
    assert r.n == 0 and len(r) == 1
    assert r.state(0).to_json() == g.to_json()
    assert r.step(0).taken is None and r.step(0).seat == g.decision.player
    assert r.series() == {p: [v] for p, v in g.scores().items()}
    with pytest.raises(IndexError, match=r"steps 0\.\.0"):
        r.state(1)


def test_a_simulate_row_without_games_kept_says_keep_games():
    """A teacher's likely slip: a row of simulate() run without keep_games=True."""
    table = moneynb.simulate("money_run", ["greedy", "greedy"], n_games=1, progress=False)
    for row in (table.loc[0], table.to_dict("records")[0]):
        with pytest.raises(TypeError, match=r"no 'save'.*keep_games=True"):
            Replay(row)
    kept = moneynb.simulate("money_run", ["greedy", "greedy"], n_games=1, keep_games=True,
                            progress=False)  # fmt: skip
    assert Replay(kept.loc[0]).to_json() == kept.loc[0, "save"]


def test_the_view_play_returns_replays_its_game():
    """moneynb.play(...) returns a view, and replaying that view is the natural next line."""
    view = moneynb.play("money_run", players=["Ann", "bot:greedy"], seed=2, autosave=False)
    view.game.apply(view.game.decision.first_option)
    r = Replay(view)
    assert r.to_json() == view.game.to_json() and r.final is not view.game


def _chance_lines(game, start: int) -> list[str]:
    """The log lines from ``start`` on that show chance (dice, spins, cards, coins)."""
    kinds = {"rolled", "spun", "drew", "drawn", "coin", "stock", "blackjack", "bag"}
    return [e.text for e in game.log[start:] if e.kind in kinds]


def _piles(game) -> list:
    """The order of every face-down pile the game holds (its decks' draw piles)."""
    from moneynb.core.chance import Deck

    out = []
    for value in vars(game).values():
        for d in value.values() if isinstance(value, dict) else [value]:
            if isinstance(d, Deck) and len(set(map(repr, d.draw_pile))) > 1:
                out.append(list(d.draw_pile))
    return out


@pytest.mark.parametrize("name,n", GAMES, ids=[g for g, _ in GAMES])
def test_a_branch_of_an_unfinished_game_deals_its_own_chance(name, n):
    """The tester's F1 (2026-12-06): "Continue from here" on a game still being played made a
    game with the same seed, so playing the branch showed the original's coming dice and
    cards (and got round undo="safe"). A branch of an unfinished game replays its first i
    actions exactly and then draws its chance afresh (the ``reseed`` option, kept in its
    save); a finished game's branch keeps the same dice (a "what if")."""
    g = bot_game(name, n, seed=3, limit=25)
    assert not g.over
    r = Replay(g.to_json())
    i = r.n - 5
    b = r.branch(i)
    assert b.actions == g.actions[:i]
    assert b.scores() == r.state(i).scores() and b.money() == r.state(i).money()
    reseed = b.config()["options"]["reseed"]
    assert len(reseed) == 1 and reseed[0][0] == i and b.seed == g.seed
    # the save replays exactly (the service and every kernel rebuild the same branch)
    again = moneynb.load_game(b.to_json())
    assert again.state() == b.state()
    # what the hub service does with it (it replays a stored game with load_game, then
    # Game.undo_to for a truncate): no undo to before the branch point there either
    assert not again.can_undo_to(i - 1)
    # the hidden piles are dealt afresh and the coming chance differs from the original's
    original = r.branch(i, fresh_chance=False)
    assert original.to_json() == fresh(g, i).to_json()
    piles = _piles(original)
    assert all(p != q for p, q in zip(piles, _piles(b), strict=True))
    assert original.rng.getrandbits(64) != b.rng.getrandbits(64)
    lines = {}
    for game in (original, b):
        bots = [moneynb.make_bot("greedy", seed=20 + s) for s in range(n)]
        while not game.over and len(game.actions) < i + 80:
            game.apply(bots[game.decision.player].choose(game))
        lines[id(game)] = _chance_lines(game, len(r.state(i).log))
    assert lines[id(original)] and lines[id(original)] != lines[id(b)]
    # under undo="safe" the branch point is final: an undo to before it, then play on, would
    # draw the original's chance again
    c = r.branch(i)
    assert not c.can_undo_to(i - 1) and c.chance_seen == i


def test_a_finished_games_branch_keeps_its_dice_and_a_branch_of_a_branch_its_own():
    g = bot_game("moolah", 2, seed=9, limit=400)
    assert g.over
    r = Replay(g)
    assert r.branch(30).to_json() == fresh(g, 30).to_json()  # the same seed, no reseed
    assert "reseed" not in r.branch(30).config()["options"]
    # a branch of a branch still being played: the earlier reseed stays, a later one goes
    b = Replay(g).branch(40, fresh_chance=True)
    bot = moneynb.make_bot("greedy", seed=2)
    while len(b.actions) < 60:
        b.apply(bot.choose(b))
    rb = Replay(b.to_json())
    c = rb.branch(50)
    pairs = c.config()["options"]["reseed"]
    assert [p[0] for p in pairs] == [40, 50] and pairs[0] == b.options["reseed"][0]
    assert moneynb.load_game(c.to_json()).state() == c.state()
    d = rb.branch(30)
    assert [p[0] for p in d.config()["options"]["reseed"]] == [30]
    assert d.actions == g.actions[:30]


@pytest.mark.parametrize(
    "bad",
    [[[5]], [[5, 1], [5, 2]], [[-1, 3]], [[2, 2**64]], [["3", 1]], "3:1", [[1, 2]] * 65],
)
def test_a_bad_reseed_option_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="reseed"):
        moneynb.new_game("moolah", players=["A", "B"], seed=1, reseed=bad)
    good = moneynb.new_game("moolah", players=["A", "B"], seed=1, reseed=[[0, 5]]).to_json()
    doc = json.loads(good)
    doc["options"]["reseed"] = bad
    with pytest.raises(SaveFileError):
        moneynb.load_game(json.dumps(doc))


@pytest.mark.parametrize("name,n", GAMES, ids=[g[0] for g in GAMES])
def test_a_branch_with_new_names_keeps_every_seats_moves_and_money(name, n):
    """``Replay.branch(i, players=...)`` (a seat a person takes over from a bot gets a
    person's name, issue 38): the same game seat by seat (money, scores, whose decision and
    its options at every step tried), every text naming the new players, none the old."""
    r = Replay(bot_game(name, n, 3).to_json())
    names = [f"Person {k + 1}" for k in range(n)]
    for i in sorted({0, 1, r.n // 3, r.n}):
        a = r.branch(i, fresh_chance=False)
        b = r.branch(i, fresh_chance=False, players=names)
        assert b.players == names and b.actions == a.actions
        assert list(b.money().values()) == list(a.money().values()), i
        assert list(b.scores().values()) == list(a.scores().values()), i
        if a.decision is not None:
            assert (b.decision.player, len(b.decision.options)) == (
                a.decision.player,
                len(a.decision.options),
            )
        assert not [e.text for e in b.log if any(p in (e.text or "") for p in r.players)]
    with pytest.raises(ValueError):
        r.branch(0, players=names[:-1])
    with pytest.raises(ValueError):
        r.branch(0, players=[names[0]] * n)
