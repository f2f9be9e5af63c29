"""Agents a researcher can train (issue 29): every episode ends for every policy, max_cycles,
fixed action meanings, Money Run's picked coin in the observation, the Gymnasium wrapper and
BotPolicy, versioned ids, sparse rewards, the rgb_array picture, Game.copy(resample_chance)
and the generated table of observation entries (docs/env_observations.md)."""

from __future__ import annotations

import importlib.util
import random
import types
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import max_cycles_test, parallel_api_test, parallel_seed_test
from pettingzoo.utils.conversions import parallel_to_aec

import moneynb
import moneynb.env as menv
from moneynb.bots import make_bot
from moneynb.bots.search import SearchBot
from moneynb.testing import rig

GAMES = list(moneynb.GAMES)
ROOT = Path(__file__).resolve().parent.parent
#: env steps within which a deterministic policy must finish a two-seat game (the longest
#: measured: Moolah, always the first legal action, about 1,250)
STEP_BOUND = 20_000


# ----- 1. every episode ends -------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("which", ["first", "last"])
def test_first_and_last_legal_action_policies_end_every_game(name, which):
    for seed in range(3):
        env = menv.raw_env(name, players=2)
        env.reset(seed=seed)
        steps = 0
        while not env.game.over and steps < STEP_BOUND:
            legal = np.flatnonzero(env.action_mask(env.agent_selection))
            env.step(int(legal[0] if which == "first" else legal[-1]))
            steps += 1
        assert env.game.over, f"{name} seed {seed}: always-{which} did not end in {steps} steps"


def _at_bank_amount(seed=1):
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=seed)
    while g.decision.tag == "first_withdrawal":
        g.apply(50_000)
    me = g.current
    g.pos[me] = g.data.prev[g.data.prev[g.data.prev["bank"][0]][0]][0]
    rig(g).dice(1, 2)
    g.apply("roll")
    while g.decision.tag == "fork":
        g.apply(g.decision.options[0])
    assert g.decision.tag == "bank"
    return g


def test_moolah_back_is_offered_at_most_max_backs_times_a_turn():
    from moneynb.games.moolah.rules import MAX_BACKS

    g = _at_bank_amount()
    for _ in range(MAX_BACKS):
        g.apply("deposit" if "deposit" in g.decision.options else "withdraw")
        assert "back" in g.decision.options
        g.apply("back")
    g.apply(g.decision.options[0])
    assert g.decision.tag == "bank_amount" and "back" not in g.decision.options
    with pytest.raises(moneynb.IllegalAction):
        g.apply("back")


def test_max_backs_is_a_house_rule_of_the_board_file(tmp_path):
    text = (ROOT / "moneynb/games/moolah/board.toml").read_text()
    house = tmp_path / "board.toml"
    house.write_text(text.replace("[rules]\n", "[rules]\nmax_backs = 0\n", 1))
    g = moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1, board_file=str(house))
    assert g.data.rules["max_backs"] == 0
    house.write_text(text.replace("[rules]\n", "[rules]\nmax_backs = -1\n", 1))
    with pytest.raises(ValueError, match="max_backs"):
        moneynb.new_game("moolah", players=["Ann", "Bob"], seed=1, board_file=str(house))


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_max_cycles_test(name):
    mod = types.SimpleNamespace(
        parallel_env=lambda max_cycles: menv.parallel_env(name, max_cycles=max_cycles),
        env=lambda max_cycles: parallel_to_aec(menv.parallel_env(name, max_cycles=max_cycles)),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_api_and_seed_tests(name):
    parallel_api_test(menv.parallel_env(name, max_cycles=100), num_cycles=100)
    parallel_seed_test(lambda: menv.parallel_env(name, max_cycles=60), num_cycles=60)


def test_max_cycles_truncates_the_aec_env_after_that_many_steps_of_one_agent():
    env = menv.make("moneynb/moolah-v1", players=2, max_cycles=7)
    env.reset(seed=3)
    raw, steps = env.unwrapped, {a: 0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=500):
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        steps[agent] += 1
        env.step(int(np.flatnonzero(raw.action_mask(agent))[-1]))
    assert max(steps.values()) == 7 and not raw.game.over
    assert all(raw.truncations.values()) or not raw.agents


# ----- 2. fixed action meanings / 3. the picked coin is observed -----------------------------------
def _money_run_states(n_games=4, steps=40):
    for seed in range(n_games):
        env = menv.raw_env("money_run", players=2)
        env.reset(seed=seed)
        r = random.Random(seed)
        for _ in range(steps):
            if env.game.over:
                break
            yield env
            legal = np.flatnonzero(env.action_mask(env.agent_selection))
            env.step(int(legal[r.randrange(len(legal))]))


def test_money_run_slots_mean_the_same_square_in_every_state():
    for env in _money_run_states():
        g, size, t = env.game, env.game.size, menv.observe.MONEY_RUN_TABLE_SLOTS
        d = g.decision
        mask = env.action_mask(env.agent_selection)
        assert mask.sum() == len(d.options)
        for o in d.options:
            (a,) = env.env_actions(o)
            assert mask[a]
            if o == "end_turn":
                assert a == t + 2 * size * size
            elif type(o[0]) is int or o[0] == "coin":  # a square: (x, y) or ("coin", x, y)
                x, y = o[-2:]
                assert a == t + y * size + x
            elif o[0] == "pawn":
                assert a == t + size * size + o[2] * size + o[1]
            else:
                assert a == o[1]


@pytest.mark.parametrize("name", ["money_moves", "moolah", "easy_money", "money_card"])
def test_every_option_met_in_random_games_has_its_vocabulary_slot(name):
    """The token vocabularies cover every option of the shipped games (no overflow slot),
    and no two options of one decision share a slot."""
    for seed in range(4):
        env = menv.raw_env(name, players=3)
        env.reset(seed=seed)
        r = random.Random(seed)
        vocab = len(env._slot_fn.tokens)
        while not env.game.over:
            slots = env.slots()
            assert len(set(slots)) == len(slots) and max(slots, default=0) < vocab, (
                env.game.decision.options
            )
            legal = np.flatnonzero(env.action_mask(env.agent_selection))
            env.step(int(legal[r.randrange(len(legal))]))


def test_a_seat_option_is_relative_to_the_seat_asked():
    env = menv.raw_env("moolah", players=3)
    tokens = env._slot_fn
    d = moneynb.core.Decision(1, "player", "Take a pal", [2, 0, "nobody"])
    g = types.SimpleNamespace(players=["a", "b", "c"])
    assert tokens(g, d) == [tokens.index[t] for t in ("seat[+1]", "seat[+2]", "nobody")]


def test_money_run_observation_carries_the_picked_coin():
    differing = compared = 0
    for env in _money_run_states(n_games=6, steps=30):
        g, seat = env.game, env.game.decision.player
        if g.decision.tag != "action":
            continue
        picks = [o for o in g.decision.options if o != "end_turn" and o[0] in ("coin", "place")]
        seen = {}
        for o in picks:
            c = g.copy()
            c.apply(o)
            if c.decision is None or c.decision.tag == "action":
                continue
            seen[o] = env.observer.encode(c, seat).tobytes()
        for i, a in enumerate(list(seen)):
            for b in list(seen)[i + 1 :]:
                compared += 1
                differing += seen[a] != seen[b]
    assert compared > 50 and differing == compared


# ----- 4. the Gymnasium wrapper and BotPolicy --------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name):
    env = menv.gym_env(name, opponents="random")
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes_with_alternating_seats(name):
    """Issue 39, case 6: with ``seat="alternate"`` two ``reset(seed=s)`` gave different
    observations (the seat followed the episode count), so ``check_env`` failed for every
    game. A seeded reset now seats the learner at ``seed % players``."""
    env = menv.gym_env(name, seat="alternate", opponents="random")
    check_env(env, skip_render_check=True)
    first, _ = env.reset(seed=7)
    again, _ = env.reset(seed=7)
    assert env.seat == 7 % 2 and np.array_equal(first, again)


def test_noop_illegal_actions_count_towards_max_cycles_and_truncate():
    """Issue 39, case 6: ``illegal_action="noop", max_cycles=5`` never truncated (the wrapper
    swallowed the step). Each no-op is a step, as in the AEC env: the fifth truncates."""
    env = menv.gym_env("moolah", illegal_action="noop", max_cycles=5, opponents="greedy")
    obs, info = env.reset(seed=1)
    start = list(env.game.actions)  # (the opponents' moves before the learner's first turn)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    seen = []
    for _ in range(5):
        after, reward, terminated, truncated, info = env.step(illegal)
        seen.append((reward, terminated, truncated, info["illegal"]))
        assert np.array_equal(after, obs) and env.game.actions == start
    assert seen == [(-1.0, False, False, True)] * 4 + [(-1.0, False, True, True)]
    assert not info["action_mask"].any()


def test_an_illegal_action_loses_with_minus_one_and_ends_the_episode():
    env = gymnasium.make("moneynb/money_run-v1")
    obs, info = env.reset(seed=1)
    expert = menv.BotPolicy("greedy", seed=1)  # reads the game through Gymnasium's wrappers
    assert info["action_mask"][expert(env)]
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)


@pytest.mark.parametrize("name", GAMES)
def test_bot_policy_plays_whole_games_through_the_wrapper_in_one_line(name):
    env = menv.gym_env(name, seat="alternate", opponents="greedy", max_cycles=5_000)
    policy = menv.BotPolicy("greedy", seed=1)
    for episode in range(2):
        env.reset(seed=episode)
        assert env.seat == episode % 2
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(policy(env))
            done = terminated or truncated
        assert env.game.over


def test_reset_seats_the_learner_where_asked_and_refuses_a_bad_seat_without_change():
    env = menv.gym_env("moolah", seat=0, opponents="greedy")
    obs, info = env.reset(seed=5, options={"seat": 1})
    assert env.seat == 1 and info["seat"] == 1 and env.game.decision.player == 1
    env.reset(seed=5)  # without the option: the constructor's seat again
    assert env.seat == 0
    env.seat_choice = 1  # a seat set on the object after construction is honoured
    env.reset(seed=5)
    assert env.seat == 1
    before = (env.episodes, env.game.actions[:], obs.tobytes())
    for bad in ({"seat": 2}, {"seat": -1}, {"seat": True}, {"seat": "1"}, {"colour": "red"}):
        with pytest.raises(ValueError, match="seat|unknown reset options"):
            env.reset(seed=6, options=bad)
        assert (env.episodes, env.game.actions, env.seat) == (before[0], before[1], 1)
    alternate = menv.gym_env("moolah", seat="alternate", opponents="greedy")
    seats = [alternate.reset(seed=k)[1]["seat"] for k in range(3)]
    assert seats == [0, 1, 0]
    assert alternate.reset(seed=3, options={"seat": 0})[1]["seat"] == 0


def test_bot_policy_enters_wide_amounts_digit_by_digit():
    env = menv.raw_env("moolah", players=2)
    env.reset(seed=2)
    d = env.game.decision  # the first withdrawal: $0 to $450,000 in $5,000 bills (91 amounts)
    assert env.env_actions(d.high) == [env.codec.option_slots + 90]
    narrow = menv.raw_env("moolah", players=2, amount_slots=10)
    narrow.reset(seed=2)
    digits = narrow.env_actions(255_000)  # amount number 51: digits 5, 1
    assert digits == [narrow.codec.option_slots + 5, narrow.codec.option_slots + 1]
    for a in digits:
        narrow.step(a)
    assert narrow.game.actions == [255_000]


# ----- 5. standard form ----------------------------------------------------------------------------
def test_sparse_reward_gives_plus_and_minus_win_reward_at_the_end_only():
    env = menv.make("moneynb/money_run-v1", reward="win")
    env.reset(seed=4)
    raw, total, policy = env.unwrapped, dict.fromkeys(env.possible_agents, 0.0), None
    policy = menv.BotPolicy("greedy", seed=4)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last(observe=False)
        total[agent] += reward
        if not (term or trunc):
            assert reward == 0.0
            env.step(policy(env))
        else:
            env.step(None)
    assert sorted(total.values()) == [-1.0, 1.0]
    assert total[raw.game.winner] == 1.0


def test_unknown_ids_are_clear_errors():
    with pytest.raises(ValueError, match="moneynb/moolah-v1"):
        menv.make("moneynb/moolah-v9")
    with pytest.raises(ValueError, match="retired, use moneynb/money_card-v1"):
        menv.make("moneynb/money_card-v0")


@pytest.mark.parametrize("name", GAMES)
def test_rgb_array_render_is_the_board_figure_and_follows_the_game(name):
    """``rgb_array`` is the player's board (the plotly figure of moneynb.figures, drawn by
    kaleido in Chromium): its size is the figure's, it is not blank, and it changes as the
    game is played."""
    from moneynb.env.render import board_figure

    env = menv.make(name, render_mode="rgb_array")
    env.reset(seed=5)
    first = env.render()
    layout = board_figure(env.unwrapped.game).layout
    assert first.dtype == np.uint8 and first.shape == (layout.height, layout.width, 3)
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 50  # a drawn board, not a blank
    policy = menv.BotPolicy("greedy", seed=5)
    for _agent in env.agent_iter():
        _, _, term, trunc, _ = env.last(observe=False)
        env.step(None if term or trunc else policy(env))
    last = env.render()
    assert last.shape == first.shape and not np.array_equal(last, first)


def test_the_fast_raster_follows_the_game():
    from moneynb.env.render import raster

    g = moneynb.new_game("money_run", players=["A", "B"], seed=5)
    first = raster(g)
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[1:] == (256, 3)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while not g.over:
        g.apply(bots[g.decision.player].choose(g))
    assert not np.array_equal(raster(g), first)


def test_rgb_array_without_the_render_extra_names_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "kaleido" else real(n, *a)
    )
    with pytest.raises(ModuleNotFoundError, match=r"moneynb\[render\].*kaleido|kaleido.*render"):
        menv.make("moolah", render_mode="rgb_array")


def test_the_table_of_observation_entries_is_the_code_s():
    path = ROOT / "scripts/env_observation_table.py"
    spec = importlib.util.spec_from_file_location("env_observation_table", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "docs/env_observations.md").read_text() == mod.table(), (
        "run python scripts/env_observation_table.py to regenerate docs/env_observations.md"
    )


# ----- 6. a copy that does not know the future draws ------------------------------------------
def _next_money_run_draw(g):
    g.apply(("place", 0))
    g.apply(g.decision.options[0])
    return list(g.table)


def test_a_resampled_copy_does_not_know_the_next_draw():
    changed = 0
    for seed in range(8):
        g = moneynb.new_game("money_run", players=["A", "B"], seed=seed)
        truth = _next_money_run_draw(g.copy())
        assert _next_money_run_draw(g.copy()) == truth  # an exact copy knows it
        guesses = {tuple(_next_money_run_draw(g.copy(resample_chance=k))) for k in range(6)}
        changed += guesses != {tuple(truth)}
    assert changed == 8


def test_a_resampled_copy_reshuffles_every_face_down_deck():
    g = moneynb.new_game("moolah", players=["A", "B"], seed=3)
    c = g.copy(resample_chance=11)
    assert sorted(c.temptation.draw_pile) == sorted(g.temptation.draw_pile)
    assert c.temptation.draw_pile != g.temptation.draw_pile
    assert c.casino.draw_pile != g.casino.draw_pile
    assert c.money() == g.money() and c.decision.options == g.decision.options
    with pytest.raises(ValueError):
        g.copy(resample_chance="yes")


def test_the_money_run_search_bot_searches_a_resampled_copy():
    g = moneynb.new_game("money_run", players=["A", "B"], seed=2)
    sim = SearchBot(seed=1)._determinize(g)
    assert sim.rng.getstate() != g.rng.getstate()
    assert sim.stacks == g.stacks and sim.table == g.table and sim.bag == g.bag
