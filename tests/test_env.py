"""moneynb.env: every game as a PettingZoo AEC environment (issue 17).

PettingZoo's own checks (api_test, seed_test, render_test) judge the wrapper; our own tests
check what they cannot: the same game as the engine for the same seed, money conserved over
many random masked games, the same winner when the engine replays the env's actions, every
legal amount reachable through the amount slots, hidden card order never in an observation.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from long_runs import size
from pettingzoo.test import api_test, render_test, seed_test  # the test extra installs rl

import moneynb
import moneynb.env as menv
from moneynb.core.decision import Decision
from moneynb.env.actions import ActionCodec, amount_count

GAMES = list(moneynb.GAMES)
#: the only warnings PettingZoo's api_test may give: it names its own classic games with Dict
#: observations (chess, Texas Hold'em ...) in a list that silences exactly these two
DICT_OBS_WARNINGS = {
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
}


def _players(name: str) -> int:
    return min(3, moneynb.game_class(name).max_players)


# ----- PettingZoo's own tests ---------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seats", ["three", "most"])
def test_pettingzoo_api_test(name, seats):
    n = _players(name) if seats == "three" else moneynb.game_class(name).max_players
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(menv.make(name, players=n), num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_OBS_WARNINGS


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test(name):
    seed_test(lambda: menv.make(name, players=_players(name)), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test(name, capsys):
    render_test(lambda render_mode=None: menv.make(name, players=2, render_mode=render_mode))
    assert "player_0" in capsys.readouterr().out  # "human" outside a notebook prints the log


# ----- the same game as the engine ----------------------------------------------------------------
def _random_play(env, rng: random.Random, check=None) -> int:
    """Play ``env`` (reset already) to the end with uniformly random masked actions; returns
    the env steps taken. ``check(env)`` runs after every step."""
    raw = env.unwrapped
    steps = 0
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last(observe=False)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(raw.action_mask(agent))
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if check is not None:
            check(env)
    return steps


@pytest.mark.parametrize("name", GAMES)
def test_reset_seed_gives_the_engine_game_of_that_seed(name):
    env = menv.make(name, players=_players(name))
    env.reset(seed=123)
    fresh = moneynb.new_game(name, players=list(env.possible_agents), seed=123)
    assert env.unwrapped.game.state() == fresh.state()
    _random_play(env, random.Random(5))
    replay = moneynb.new_game(name, players=list(env.possible_agents), seed=123)
    for a in env.unwrapped.game.actions:
        replay.apply(a)
    assert replay.state() == env.unwrapped.game.state()


#: random masked env games per game by default (200 under MONEYNB_LONG_RUNS=1). Moolah, Easy
#: Money and Money Run answer every (decision kind, tag, kind of action) of their first 50
#: games within the first 20 (measured 2026-12-03); Money Card (many named spaces) and Money
#: Moves (cheap) keep 50
ENV_GAMES = {
    "default": size(200, 50),
    "moolah": size(200, 20),
    "easy_money": size(200, 20),
    "money_run": size(200, 20),
}


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_random_masked_games_conserve_money_and_replay_to_the_same_winner(name):
    """200 games per game (2 to 4 seats; by default the first :data:`ENV_GAMES` of them, all
    under MONEYNB_LONG_RUNS=1: tests/long_runs.py) of uniformly random masked env actions: the
    money of every account sums to its start after every step (Money Run: its coins), and the
    engine replaying the env's actions from the same seed ends with the same winners and money."""
    cls = moneynb.game_class(name)
    seats = [n for n in (2, 3, 4) if cls.min_players <= n <= cls.max_players]
    envs = {n: menv.make(name, players=n) for n in seats}
    rng = random.Random(17)
    for i in range(ENV_GAMES.get(name, ENV_GAMES["default"])):
        env = envs[seats[i % len(seats)]]
        env.reset(seed=1000 + i)
        game = env.unwrapped.game
        total = sum(game.money().values())
        coins = getattr(game, "coin_count", lambda: 0)()  # Money Run has coins, not money

        def conserved(env, total=total, coins=coins):
            g = env.unwrapped.game
            assert sum(g.money().values()) == total
            assert getattr(g, "coin_count", lambda: 0)() == coins

        _random_play(env, rng, conserved)
        assert game.over
        replay = moneynb.new_game(name, players=list(env.possible_agents), seed=1000 + i)
        for a in game.actions:
            replay.apply(a)
        assert replay.over
        assert replay.winners == game.winners
        assert replay.money() == game.money()


@pytest.mark.parametrize("name", GAMES)
def test_observations_stay_in_their_space_through_a_whole_game(name):
    env = menv.make(name, players=_players(name))
    env.reset(seed=9)
    raw = env.unwrapped
    space = env.observation_space(env.possible_agents[0])
    rng = random.Random(9)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert space.contains(obs)
        assert np.isfinite(obs["observation"]).all()
        # only the seat that decides has legal actions
        for other in env.agents:
            if other != agent:
                assert not raw.observe(other)["action_mask"].any()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("name", GAMES)
def test_rewards_add_up_to_the_score_change_plus_the_win_reward(name):
    env = menv.make(name, players=_players(name), win_reward=2.5)
    env.reset(seed=31)
    raw = env.unwrapped
    start = raw.game.scores()
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(31)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(raw.action_mask(agent))
        env.step(int(legal[rng.randrange(len(legal))]))
    end, scale = raw.game.scores(), raw.spec.scale
    for seat, agent in enumerate(env.possible_agents):
        expected = (end[agent] - start[agent]) / scale + (2.5 if seat in raw.game.winners else 0)
        assert total[agent] == pytest.approx(expected)


# ----- actions --------------------------------------------------------------------------------
def _reachable(codec: ActionCodec, d: Decision) -> list:
    """Every engine action some sequence of masked env actions reaches (depth-first)."""
    out = []

    def walk(prefix_entry):
        codec.entry = prefix_entry
        for a in np.flatnonzero(codec.mask(d)):
            codec.entry = None if prefix_entry is None else type(prefix_entry)(**vars(prefix_entry))
            ready, action = codec.decode(d, int(a))
            if ready:
                out.append(action)
            else:
                walk(type(codec.entry)(**vars(codec.entry)))

    walk(None)
    codec.entry = None
    return out


@settings(max_examples=60, deadline=None)
@given(
    low=st.integers(0, 50),
    count=st.integers(1, 700),
    step=st.sampled_from([1, 5, 10, 5000]),
    base=st.integers(2, 30),
    options=st.sampled_from([(), ("pass",), ("stay", "back")]),
)
def test_every_legal_amount_and_option_is_reachable_and_nothing_else(
    low, count, step, base, options
):
    d = Decision(0, "amount", "How much?", options, low=low * step, high=(low + count - 1) * step,
                 step=step)  # fmt: skip
    codec = ActionCodec(option_slots=4, amount_slots=base)
    got = _reachable(codec, d)
    legal = list(options) + [low * step + step * j for j in range(count)]
    assert sorted(got, key=str) == sorted(legal, key=str)  # each exactly once
    assert all(d.allows(a) for a in got)
    assert amount_count(d) == count


def test_an_amount_range_of_at_most_amount_slots_takes_one_step():
    d = Decision(0, "amount", "Bet", ("stop",), low=10, high=20, step=10)
    codec = ActionCodec(option_slots=3, amount_slots=100)
    assert np.flatnonzero(codec.mask(d)).tolist() == [0, 3, 4]
    assert codec.decode(d, 4) == (True, 20)


def test_a_wide_amount_is_entered_digit_by_digit_by_the_same_agent():
    """Easy Money bids are in $1 steps up to the wallet: $1,234 is digits 12 then 24 of the
    amount index (1,234 - 10) in base 100."""
    env = menv.make("easy_money", players=2)
    env.reset(seed=3)
    raw = env.unwrapped
    d = Decision(0, "amount", "Bid", ("pass",), low=10, high=3000, step=1, tag="bid")
    raw.game.pending = d  # a bid decision in place, to enter one amount by hand
    slots = raw.codec.option_slots
    assert raw.codec.describe(d, slots + 12) == "amount digit 12: $1,210 to $1,309, 1 more digit(s)"
    assert raw.codec.describe(d, 0) == "option 0: pass"
    assert raw.codec.decode(d, slots + 12) == (False, None)
    assert raw.codec.describe(d, slots + 24) == "amount $1,234"
    assert raw.codec.entry_range(d) == (1210, 1309)
    obs = raw.observe(f"player_{d.player}")
    names = raw.feature_names
    assert obs["observation"][names.index("entry:digits_left")] == 1
    assert raw.codec.decode(d, slots + 24) == (True, 1234)


@pytest.mark.parametrize("name", ["moolah", "easy_money"])
def test_random_games_do_enter_multi_digit_amounts(name):
    """The digit-by-digit path is exercised by real games, not only by hand."""
    env = menv.make(name, players=3)
    multi = 0
    rng = random.Random(2)
    for seed in range(6):
        env.reset(seed=seed)
        raw = env.unwrapped

        def count(env):
            nonlocal multi
            multi += env.unwrapped.codec.entry is not None

        _random_play(env, rng, count)
        assert raw.game.over
    assert multi > 0


def test_an_illegal_action_raises_and_changes_nothing():
    env = menv.make("moolah", players=2)
    env.reset(seed=4)
    raw = env.unwrapped
    agent = env.agent_selection
    mask = raw.action_mask(agent)
    before = raw.game.state()
    bad = int(np.flatnonzero(mask == 0)[0])
    for action in (bad, -1, raw.codec.n, 1.5, True, "roll"):
        with pytest.raises(ValueError):
            env.step(action)
    assert raw.game.state() == before
    assert env.agent_selection == agent
    assert (raw.action_mask(agent) == mask).all()


def test_too_many_options_for_the_slots_is_a_clear_error():
    env = menv.make("money_run", players=2, option_slots=3)
    with pytest.raises(menv.ActionSpaceTooSmall, match="option_slots"):
        env.reset(seed=1)
        env.last()


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(name="chess"),
        dict(name="moolah", players=1),
        dict(name="moolah", players="3"),
        dict(name="moolah", bogus_rule=1),
        dict(name="moolah", render_mode="rgb"),
        dict(name="moolah", max_cycles=0),
        dict(name="moolah", reward="dense"),
        dict(name="moolah", illegal_action="ignore"),
        dict(name="moneynb/moolah-v7"),
        dict(name="moolah", amount_slots=1),
    ],
)
def test_bad_make_arguments_are_clear_errors(kwargs):
    with pytest.raises(ValueError):
        menv.make(**kwargs)


def test_reset_without_a_seed_follows_the_last_seed():
    a, b = menv.make("money_moves", players=3), menv.make("money_moves", players=3)
    a.reset(seed=8)
    b.reset(seed=8)
    a.reset()
    b.reset()
    assert a.unwrapped.game.seed == b.unwrapped.game.seed != 8


# ----- observations -------------------------------------------------------------------------------
def _shuffle_hidden(game, rng: random.Random) -> None:
    """Reorder every face-down pile (decks' draw piles, Money Run's bag): hidden order only."""
    for value in list(vars(game).values()):
        piles = value.values() if isinstance(value, dict) else [value]
        for pile in piles:
            draw = getattr(pile, "draw_pile", None)
            if isinstance(draw, list):
                rng.shuffle(draw)
    if isinstance(getattr(game, "bag", None), list):
        rng.shuffle(game.bag)


@pytest.mark.parametrize("name", GAMES)
def test_observation_never_shows_the_order_of_a_face_down_pile(name):
    env = menv.make(name, players=3)
    env.reset(seed=12)
    raw = env.unwrapped
    rng = random.Random(12)
    for _ in range(60):  # into the game, so piles have been drawn from
        legal = np.flatnonzero(raw.action_mask(env.agent_selection))
        env.step(int(legal[rng.randrange(len(legal))]))
        if raw.game.over:
            break
    shuffled = raw.game.copy()
    _shuffle_hidden(shuffled, rng)
    assert shuffled.state() != raw.game.state() or name == "money_moves"
    for seat in range(3):
        assert (raw.observer.encode(raw.game, seat) == raw.observer.encode(shuffled, seat)).all()


def test_observations_are_seat_relative():
    """Entry ``[+0]`` is always the observer: each seat sees its own wallet there."""
    env = menv.make("money_card", players=3)
    env.reset(seed=2)
    raw = env.unwrapped
    i = raw.feature_names.index("money:wallet[+0]")
    wallets = [raw.game.cash(s) for s in range(3)]
    for seat, agent in enumerate(env.possible_agents):
        assert raw.observe(agent)["observation"][i] == pytest.approx(wallets[seat] / 100)


def test_render_ansi_is_the_text_log():
    env = menv.make("money_moves", players=2, render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == "\n".join(e.text for e in env.unwrapped.game.log)


def test_render_human_in_a_notebook_shows_the_board_once_and_then_updates_it(monkeypatch):
    """In a kernel, "human" displays the game's board figure (plotly, :mod:`moneynb.figures`:
    no widget) in an output of its own; later calls draw the board again in that output (with
    the new events), and a new game gets a new output."""
    pytest.importorskip("plotly")
    import IPython
    import IPython.display

    from moneynb.figures import drawing_class

    board = drawing_class("money_moves")
    shown, updates, redrawn = [], [], []

    class Handle:
        def update(self, fig):
            redrawn.append(fig)

    def display(fig, display_id=None):
        shown.append((fig, display_id))
        return Handle()

    monkeypatch.setattr(IPython, "get_ipython", lambda: type("Shell", (), {"kernel": object()})())
    monkeypatch.setattr(IPython.display, "display", display)
    real_update = board.update

    def spy(self, game, events):
        updates.append(len(events))
        return real_update(self, game, events)

    monkeypatch.setattr(board, "update", spy)
    env = menv.make("money_moves", players=2, render_mode="human")
    env.reset(seed=1)
    env.render()
    assert len(shown) == 1 and len(updates) == 1 and shown[0][1] is True
    assert type(shown[0][0]).__name__ == "Figure" and len(shown[0][0].data) >= 3
    assert updates[0] == len(env.unwrapped.game.log)
    before = len(env.unwrapped.game.log)
    env.step(int(np.flatnonzero(env.unwrapped.action_mask(env.agent_selection))[0]))  # renders
    assert len(shown) == 1 and updates[-1] == len(env.unwrapped.game.log) - before > 0
    assert len(redrawn) == 1 and redrawn[0] is not shown[0][0]
    env.reset(seed=2)
    env.render()
    assert len(shown) == 2


def test_without_pettingzoo_the_codec_works_and_make_says_what_to_install():
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None  # as if it were not installed\n"
        "import moneynb.env as menv\n"
        "from moneynb.core.decision import Decision\n"
        "d = Decision(0, 'amount', 'Bet', ('stay',), low=5, high=15, step=5)\n"
        "print(menv.ActionCodec(2, 10).decode(d, 4))\n"
        "try:\n"
        "    menv.make('moolah')\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "(True, 15)",
        "moneynb.env needs pettingzoo: pip install -e '.[rl]' in a clone of moneynb "
        "(pettingzoo, gymnasium)",
    ]


def test_the_engine_imports_no_pettingzoo():
    code = (
        "import sys, moneynb, moneynb.bots, moneynb.analysis\n"
        "for name in moneynb.available_games(): moneynb.game_class(name)\n"
        "print(','.join(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# ----- issue 39, case 5: what a seat sees is in its observation ---------------------------------
def _seen(env, seat: int = 0) -> dict:
    """``{entry name: value}`` of what ``seat`` observes in ``env``'s game now."""
    raw = env.unwrapped
    vec = raw.observer.encode(raw.game, seat)
    return dict(zip(raw.feature_names, vec.tolist(), strict=True))


def test_money_card_observation_names_each_card_of_my_own_hand():
    """A phrase needs specific Language cards: v0 gave only the hand's size, so two hands of
    two different cards looked the same. v1 names each card (``hand:<card>``)."""
    env = menv.make("moneynb/money_card-v1", players=2)
    env.reset(seed=3)
    game = env.unwrapped.game
    game.hand[0] = ["fr01", "fr02"]
    first = _seen(env)
    game.hand[0] = ["fr03", "it01"]
    second = _seen(env)
    assert first["hand"] == second["hand"] == 2
    assert first["hand:fr01"] == first["hand:fr02"] == 1 and first["hand:fr03"] == 0
    assert second["hand:fr03"] == second["hand:it01"] == 1 and second["hand:fr01"] == 0
    game.hand[1] = ["es01"]  # another seat's cards stay hidden: only their count is seen
    assert _seen(env)["hand:es01"] == 0


def test_money_run_observation_sees_the_coins_under_a_stack_top():
    """The engine shows every stack whole; v0 kept only its height and top coin, so a puny
    coin on a large one looked like a puny coin on a small one."""
    env = menv.make("moneynb/money_run-v1", players=2)
    env.reset(seed=3)
    game = env.unwrapped.game
    sizes = list(game.observation(0)["bag"])  # smallest first
    sq = 4 * game.size + 4  # the middle square, (4, 4)
    game.stacks[sq] = (4, 1)
    first = _seen(env)
    game.stacks[sq] = (2, 1)
    second = _seen(env)
    cell = "cell4,4"
    assert first[f"{cell}:height"] == second[f"{cell}:height"]
    assert first[f"{cell}:top"] == second[f"{cell}:top"]
    assert first[f"{cell}:{sizes[3]}"] == 0.25 and first[f"{cell}:{sizes[1]}"] == 0
    assert second[f"{cell}:{sizes[1]}"] == 0.25 and second[f"{cell}:{sizes[0]}"] == 0.25


def _moolah_casino(game, dice, cards):
    """The player to move stands ``sum(dice)`` spaces before the Casino and throws ``dice``;
    ``cards`` are the next Black Jack cards."""
    from moneynb.testing import rig

    path = ["casino"]
    for _ in range(sum(dice)):
        path.insert(0, game.data.prev[path[0]][0])
    game.pos[game.current] = path[0]
    rig(game).dice(*dice).top(*cards)
    game.apply("roll")
    while game.decision.tag == "fork":
        game.apply(path[path.index(game.pos[game.current]) + 1])


def test_moolah_observation_black_jack_won_is_one_and_a_second_bet_is_a_new_hand():
    """v0: ``play:won`` was a bool divided by the $100,000 scale (1e-5), and at a second
    Black Jack bet in one turn ``play:*`` still showed the last hand's House card and result."""
    env = menv.make("moneynb/moolah-v1", players=2)
    env.reset(seed=1)
    game = env.unwrapped.game
    while game.decision.tag == "first_withdrawal":
        game.apply(100_000)
    me = game.current
    _moolah_casino(game, (2, 2), (20, 18))  # doubles: I throw again after this hand
    game.apply(10_000)  # bet; my card is 20
    game.apply("stay")  # the House draws 18: I win
    seen = _seen(env, me)
    assert seen["play:settled"] == 1 and seen["play:won"] == 1
    assert seen["play:house"] == pytest.approx(18 / 21)
    assert game.decision.player == me and game.decision.tag == "turn"
    _moolah_casino(game, (1, 2), (15,))  # the Casino again, the same turn
    game.apply(10_000)
    assert game.decision.tag == "casino_raise"
    seen = _seen(env, me)
    assert seen["play:card"] == pytest.approx(15 / 21) and seen["play:bet"] == pytest.approx(0.1)
    assert seen["play:settled"] == seen["play:won"] == seen["play:house"] == 0
    assert "house" not in game.observation(me)["play"]


def test_easy_money_observation_says_a_crossing_will_not_pay_the_bonus():
    """After a "Go back three spaces" card over Bonus, the next crossing pays nothing (issue
    39, case 3); the seat sees that in ``backed[+0]`` (v1)."""
    from moneynb.testing import rig

    env = menv.make("moneynb/easy_money-v1", players=2)
    env.reset(seed=1)
    game = env.unwrapped.game
    r = rig(game).dice(6, 5, 1, 2)
    game.apply("roll")
    game.apply("roll")  # the opening: seat 0 throws 11 and starts
    game.started = [True, True]
    game.pos[0] = game.names["Mill Street"]
    r.dice(2, 2).top("back_3")
    game.apply("roll")  # back over Bonus to Traffic Court
    assert _seen(env, 0)["backed[+0]"] == 1 and _seen(env, 1)["backed[+1]"] == 1
    assert game.observation(0)["backed"] == [1, 0]


def test_env_steps_make_no_labels_and_describe_still_reads_them():
    """The env reads the pending decision's options, never its labels, at every step (issue
    40: Money Run's squares in words were a third of a random agent's step); ``describe`` and
    ``env.decision`` still show them, and an action is the same as with them made."""
    env = menv.make("money_run", players=2)
    env.reset(seed=4)
    game = env.unwrapped.game
    made = []
    plain = type(game)._labels

    def counted(self, opts):
        made.append(len(opts))
        return plain(self, opts)

    type(game)._labels = counted
    try:
        rng = np.random.default_rng(0)
        for _ in range(40):
            obs = env.observe(env.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        assert made == []
        action = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        text = env.unwrapped.describe(action)
        assert len(made) == 1 and text.startswith(f"option {action}: ")
        assert env.unwrapped.decision.labels  # made while pending: a complete decision
    finally:
        type(game)._labels = plain
