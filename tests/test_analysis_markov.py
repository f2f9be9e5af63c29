"""Tests of moneynb.analysis.markov: exact chains against a published result and simulation."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from moneynb.analysis.markov import CHUTES_AND_LADDERS, TrackModel, chutes_and_ladders
from moneynb.analysis.montecarlo import landing_counts, simulate_tokens
from moneynb.core.chance import D6, Die


def test_chutes_and_ladders_published_expected_length():
    """Reference: S. C. Althoen, L. King and K. Schilling, "How long is a game of Snakes and
    Ladders?", The Mathematical Gazette 77 (1993) 71-76: Milton Bradley's Chutes and Ladders,
    one player, a spinner 1-6, exact count needed to finish (an overshoot does not move):
    the expected number of spins is 39.2 (to one decimal)."""
    chain = chutes_and_ladders().compile()
    expected = chain.expected_steps_to([100])
    assert round(expected, 1) == 39.2
    assert expected == pytest.approx(39.2251, abs=1e-3)


def _play_chutes(rng: random.Random) -> int:
    """An independent plain-Python game of Chutes and Ladders (no shared code)."""
    pos, spins = 0, 0
    while pos != 100:
        spins += 1
        r = rng.randint(1, 6)
        if pos + r <= 100:
            pos = CHUTES_AND_LADDERS.get(pos + r, pos + r)
    return spins


def test_chutes_and_ladders_exact_vs_plain_simulation():
    rng = random.Random(12345)
    n = 20_000
    lengths = [_play_chutes(rng) for _ in range(n)]
    mean = float(np.mean(lengths))
    se = float(np.std(lengths)) / n**0.5
    exact = chutes_and_ladders().compile().expected_steps_to([100])
    # tolerance: 4 standard errors (about 0.7 spins)
    assert abs(mean - exact) < 4 * se


def test_chutes_and_ladders_finish_distribution_vs_vectorised_simulation():
    chain = chutes_and_ladders().compile()
    n_steps = 60
    exact = chain.to_spaces(chain.distribution_after(n_steps)[-1])[100]
    final = simulate_tokens(chain, 200_000, n_steps, seed=3)
    simulated = np.mean(chain.space_of[final] == 100)
    se = (exact * (1 - exact) / 200_000) ** 0.5
    assert abs(simulated - exact) < 4 * se  # about 0.004


def monopoly_like():
    """A 40-space loop: go-to-jail on 30, three doubles to jail, a wait on 10."""
    return TrackModel(
        40,
        roll_again=True,
        max_doubles=3,
        doubles_target=10,
        go_to={30: 10},
        waits={10: (1, 11)},
        cards={7: [None] * 14 + [0, 24], 22: [None] * 8 + [5, 39]},
    )


def test_stationary_is_a_fixed_point_and_matches_iteration():
    chain = monopoly_like().compile()
    pi = chain.stationary()
    assert pi.sum() == pytest.approx(1.0)
    assert (pi >= 0).all()
    np.testing.assert_allclose(pi @ chain.P, pi, atol=1e-12)
    it = chain.distribution_after(3000)[-1]
    np.testing.assert_allclose(it, pi, atol=1e-9)


def test_rows_sum_to_one_and_exact_rows_are_fractions():
    chain = monopoly_like().compile()
    np.testing.assert_allclose(chain.P.sum(axis=1), 1.0)
    row = chain.exact_row(0)
    assert sum(row.values()) == Fraction(1)
    assert all(isinstance(v, Fraction) for v in row.values())


def test_steps_per_turn_with_three_doubles_limit():
    # a turn has 1 roll, a 2nd with probability 1/6, a 3rd with 1/36 (the 3rd double jails)
    chain = TrackModel(40, roll_again=True, max_doubles=3, doubles_target=10).compile()
    assert chain.steps_per_turn() == pytest.approx(1 + 1 / 6 + 1 / 36)


def test_uniform_loop_without_rules_is_uniform():
    chain = TrackModel(40).compile()
    np.testing.assert_allclose(chain.stationary_spaces(), np.full(40, 1 / 40), atol=1e-12)


def test_stationary_vs_vectorised_simulation():
    chain = monopoly_like().compile()
    exact = chain.landing_per_step()
    sim = landing_counts(chain, 100_000, 200, seed=9)
    # 2e7 rolls: the standard error of a share near 3% is about 4e-5; allow 5e-4
    np.testing.assert_allclose(sim, exact, atol=5e-4)
    assert sim[30] == 0  # the go-to space is never where a move ends


def test_forced_stop_cannot_be_passed():
    m = TrackModel(40, stops=[0])
    # from 38, a roll of 5 (2+3) would go to 3 but stops on the Bank at 0
    r = m.outcomes.index((2, 3))
    (state, landed) = m.step((38, 0, 0), r, 0)
    assert state == (0, 0, 0) and landed == 0
    # leaving the Bank is free
    (state, _) = m.step((0, 0, 0), r, 0)
    assert state[0] == 5


def test_doubles_card_moves_instead_of_roll():
    m = TrackModel(48, doubles_cards=[None, 20])
    r = m.outcomes.index((3, 3))
    assert m.step((0, 0, 0), r, 0)[0] == (6, 0, 0)  # card 0 does not move: the roll counts
    assert m.step((0, 0, 0), r, 1)[0] == (20, 0, 0)  # card 1 sends the token to 20


def test_wait_space_misses_turns_then_exits():
    m = TrackModel(20, dice=(Die((1,)),), waits={3: (2, 4)}, start=2)
    s, landed = m.step((2, 0, 0), 0, 0)
    assert s == (3, 0, 2) and landed == 3
    s, landed = m.step(s, 0, 0)
    assert s == (3, 0, 1) and landed == -1
    s, landed = m.step(s, 0, 0)
    assert s == (4, 0, 0) and landed == -1


def test_hitting_time_of_a_one_die_line():
    # on a 2-space line with a 1..6 die and "end" overshoot, every roll reaches the end
    chain = TrackModel(2, dice=(D6,), loop=False, overshoot="end", absorbing=[1]).compile()
    assert chain.expected_steps_to([1]) == pytest.approx(1.0)
    # on a 7-space line only a 6 reaches the end from 0 at once
    chain = TrackModel(7, dice=(D6,), loop=False, overshoot="end", absorbing=[6]).compile()
    assert chain.hitting_times([6])[0] > 2
    # with "stay" and a 2-space line a roll of 1 is needed: geometric with p = 1/6
    chain = TrackModel(2, dice=(D6,), loop=False, overshoot="stay", absorbing=[1]).compile()
    assert chain.expected_steps_to([1]) == pytest.approx(6.0)


def test_bad_model_raises():
    with pytest.raises(ValueError, match="out of range"):
        TrackModel(10, go_to={3: 12})
    with pytest.raises(ValueError, match="overshoot"):
        TrackModel(10, overshoot="wrap")


def test_doubles_cut_a_wait():
    m = TrackModel(20, waits={5: (2, 6)}, doubles_cut_wait=True, roll_again=True)
    r = m.outcomes.index((2, 2))
    s, landed = m.step((1, 0, 0), r, 0)
    assert landed == 5 and s == (5, 0, 1)  # one of the two missed turns is served already
    r = m.outcomes.index((1, 3))
    assert m.step((1, 0, 0), r, 0)[0] == (5, 0, 2)


def test_easy_money_labels_are_distinct_where_names_repeat():
    from moneynb.analysis.tracks import easy_money_track

    track = easy_money_track()
    assert len(set(track.names)) < track.n_spaces  # two spaces share a name on the board
    assert len(set(track.labels)) == track.n_spaces
    for space, (name, label) in enumerate(zip(track.names, track.labels, strict=True)):
        assert label == name or label == f"{name} ({space})"
