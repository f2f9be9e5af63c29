"""Every number the teaching notebooks state, checked against the engine or a named textbook value.

Notebooks: teach_dice, teach_expected_value, teach_markov, teach_tournaments, teach_agents
(issue 16). Textbook sources are named in each test.
"""

from __future__ import annotations

from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

import moneynb
from moneynb.analysis import ev, risk
from moneynb.analysis.money_card import monte_carlo_state, monte_carlo_values
from moneynb.analysis.moolah import decision_state
from moneynb.core.chance import D6, sum_distribution
from moneynb.core.outcomes import chance_outcomes, value_option


def _mean_var(dist):
    m = sum(s * p for s, p in dist.items())
    return m, sum((s - m) ** 2 * p for s, p in dist.items())


# ----- teach_dice ------------------------------------------------------------------------------


def _engine_two_dice():
    g = moneynb.new_game("easy_money", players=["A", "B"], seed=1)
    two: dict[int, Fraction] = {}
    for o in chance_outcomes(g, "roll"):
        (rolled,) = [e for e in o.events if e.kind == "rolled"]
        s = sum(rolled.data["dice"])
        two[s] = two.get(s, Fraction(0)) + o.probability
    return two


def test_two_dice_from_the_engine_match_the_textbook():
    """Textbook: 36 equally likely pairs; P(7) = 6/36; Var(2d6) = 2 x (6^2 - 1)/12 = 35/6."""
    two = _engine_two_dice()
    assert two == sum_distribution([D6, D6])
    assert max(two, key=two.get) == 7 and two[7] == Fraction(6, 36)
    mean, var = _mean_var(two)
    assert mean == 7
    assert var == Fraction(35, 6) == 2 * Fraction(6**2 - 1, 12)


def test_engine_doubles_are_one_in_six():
    g = moneynb.new_game("easy_money", players=["A", "B"], seed=1)
    outs = chance_outcomes(g, "roll")
    assert sum(o.probability for o in outs if len(set(o.draws)) == 1) == Fraction(1, 6)


def test_variance_of_n_dice_adds():
    """Textbook: variances of independent dice add: Var(sum of n) = n x 35/12."""
    for n in (1, 10):
        assert _mean_var(sum_distribution([D6] * n)) == (Fraction(7, 2) * n, Fraction(35, 12) * n)


def test_thirty_dice_tail_and_its_normal_approximation():
    """The notebook's prediction: P(sum of 30 dice >= 120) is about 0.061, and the central
    limit theorem's normal curve (continuity-corrected) gets it within 0.001."""
    thirty = sum_distribution([D6] * 30)
    exact = float(sum(p for s, p in thirty.items() if s >= 120))
    normal = 1 - NormalDist(105, (30 * 35 / 12) ** 0.5).cdf(119.5)
    assert 0.055 < exact < 0.065
    assert abs(exact - normal) < 0.001


def test_the_spinner_is_half_red():
    """The gambler's-fallacy section: P(red) = 1/2 from the engine's own spinner segments,
    equal to the analysis' bet."""
    segs = moneynb.new_game("money_card", players=["A", "B"], seed=0).board.segments
    share = Fraction(sum(s["color"] == "red" for s in segs), len(segs))
    assert share == Fraction(1, 2) == ev.monte_carlo_bet("red")["p_win"]


# ----- teach_expected_value --------------------------------------------------------------------


def test_moolah_black_jack_favours_the_player_by_one_thirteenth():
    """Issue 16: Black Jack +1/13 per $1 with best play, valued by the engine at a real game."""
    g = decision_state("casino_bet")
    stake = g.decision.low
    v = value_option(g, stake, follow_tags=("casino_raise",))
    assert v.mean / stake == Fraction(1, 13) == -ev.blackjack_house_edge()
    assert sum(v.distribution.values()) == 1


def test_monte_carlo_edges_from_the_engine():
    """Money Card's Monte Carlo at a real decision: red +7/6, black +5/4 per $1 (the engine's
    value, equal to the spinner formula of ev.monte_carlo_bet)."""
    mc = monte_carlo_values()
    g = monte_carlo_state()
    assert g.decision.tag == "color" and g.holder != g.decision.player
    for colour, edge in (("red", Fraction(7, 6)), ("black", Fraction(5, 4))):
        stake = mc[colour]["stake"]
        assert mc[colour]["per_dollar"] == edge
        assert mc[colour]["mean"] == ev.monte_carlo_bet(colour, stake)["ev"]
        assert mc[colour]["p_win"] == Fraction(1, 2)


def test_roulette_edges_are_the_textbook_ones():
    """Textbook (e.g. Epstein, The Theory of Gambling and Statistical Logic): a single-number
    bet pays 35 to 1; the house edge is 1/37 (2.70%) on a European wheel and 2/38 (5.26%) on
    an American one; even-money red loses the same."""
    for pockets, edge in ((37, Fraction(1, 37)), (38, Fraction(2, 38))):
        single = Fraction(35, pockets) - Fraction(pockets - 1, pockets)
        red = Fraction(18, pockets) - Fraction(pockets - 18, pockets)
        assert -single == edge == -red
    assert f"{1 / 37:.2%}" == "2.70%" and f"{2 / 38:.2%}" == "5.26%"


def test_a_casino_with_moolahs_black_jack_expects_to_lose():
    """1,000 hands of $10 at +1/13 for the player: the casino expects -$769.23."""
    assert float(-1000 * 10 * Fraction(1, 13)) == pytest.approx(-769.23, abs=0.01)


def test_p_ahead_after_by_convolution_matches_brute_force_and_the_clt():
    bet = {1: Fraction(18, 38), -1: Fraction(20, 38)}
    got = risk.p_ahead_after(bet, [1, 3, 1000])
    assert got[1] == pytest.approx(20 / 38)
    # three bets: the house is ahead when at least two of three lose
    q = 20 / 38
    assert got[3] == pytest.approx(q**3 + 3 * q**2 * (1 - q))
    # normal approximation (central limit theorem) after 1,000 bets
    mean, var = _mean_var({k: float(p) for k, p in bet.items()})
    assert got[1000] == pytest.approx(
        NormalDist(1000 * mean, (1000 * var) ** 0.5).cdf(-1), abs=0.01
    )
    assert risk.p_ahead_after(bet, [1], side="player")[1] == pytest.approx(18 / 38)
    with pytest.raises(ValueError):
        risk.p_ahead_after({1: 0.5, -1: 0.4}, [1])


def test_gamblers_ruin_textbook_and_chain_agree():
    """Feller (vol. 1, XIV.2): q_z = ((q/p)^N - (q/p)^z) / ((q/p)^N - 1); a fair game gives
    1 - z/N. American red, $100 in $10 bets, target $200: 0.7415."""
    p = Fraction(18, 38)
    exact = risk.ruin_probability(p, 10, 20)
    assert float(exact) == pytest.approx(0.7415, abs=1e-4)
    assert risk.ruin_by_chain({1: p, -1: 1 - p}, 10, 20) == pytest.approx(float(exact))
    assert risk.ruin_probability(Fraction(1, 2), 3, 10) == Fraction(7, 10)
    with pytest.raises(ValueError):
        risk.ruin_probability(p, 0, 10)
    with pytest.raises(ValueError):
        risk.ruin_by_chain({Fraction(1, 2): Fraction(1, 2), -1: Fraction(1, 2)}, 1, 3)


def test_money_card_ruin_is_small_and_simulation_agrees():
    mc = monte_carlo_values()["red"]
    bet = {Fraction(k, mc["stake"]): p for k, p in mc["outcomes"].items()}
    exact = risk.ruin_by_chain(bet, 10, 20)
    assert 0 < exact < 0.01
    roulette = {1: Fraction(18, 38), -1: Fraction(20, 38)}
    sims = risk.simulate_ruin(roulette, 10, 20, 4000, seed=1)
    lo, hi = (
        0.7415 - 3 * (0.7415 * 0.2585 / 4000) ** 0.5,
        0.7415 + 3 * (0.7415 * 0.2585 / 4000) ** 0.5,
    )
    assert lo < sims / 4000 < hi


def test_bet_until_loss_ends_down_the_stake_half_the_time():
    res = ev.bet_until_loss("red", 10)
    assert res["distribution"][-10] == Fraction(1, 2)
    assert res["ev"] > 0 and res["expected_spins"] == 2
    assert np.isclose(float(sum(res["distribution"].values()) + res["tail"]), 1)


# ----- teach_markov ----------------------------------------------------------------------------


def test_return_time_to_the_bank_is_one_over_its_long_run_share():
    """Kac's formula (textbook, e.g. Norris, Markov Chains, thm 1.7.7): the mean return time to
    a set of states equals 1 / its stationary probability (7.61 rolls for Moolah's Bank)."""
    from moneynb.analysis.tracks import moolah_track

    m = moolah_track()
    chain = m.compile()
    bank = m.names.index("Bank")
    h = chain.hitting_times([bank])
    at_bank = chain.states.index((bank, 0, 0))
    back = 1 + chain.P[at_bank] @ h
    assert back == pytest.approx(1 / chain.stationary_spaces()[bank], rel=1e-9)


def test_a_real_moolah_game_outlasts_the_chains_memory():
    """The notebook's game-length claim: the chain is within 0.05 (total variation) of its long
    run after fewer rolls than a player gets turns in a real three-player game."""
    from moneynb.analysis.stats import mean_interval
    from moneynb.analysis.tracks import moolah_track

    chain = moolah_track().compile()
    tv = 0.5 * np.abs(chain.distribution_after(40) - chain.stationary()).sum(axis=1)
    mixing = int(np.argmax(tv < 0.05))
    games = moneynb.simulate("moolah", ["greedy"] * 3, n_games=12, seed=1, progress=False)
    _, low, _ = mean_interval(games["turns"] / 3)
    assert 0 < mixing < low


# ----- teach_tournaments -----------------------------------------------------------------------


def test_wilson_interval_coverage_is_about_95_percent():
    """Brown, Cai and DasGupta, Interval Estimation for a Binomial Proportion (Statistical
    Science 16, 2001): the Wilson interval's coverage stays close to the nominal 95%. Exact
    coverage by summing binomial probabilities, for the notebook's n = 30, p = 0.5."""
    from math import comb

    from moneynb.analysis.stats import wilson_interval

    for n, p in ((30, 0.5), (100, 0.3)):
        cover = sum(
            comb(n, k) * p**k * (1 - p) ** (n - k)
            for k in range(n + 1)
            if wilson_interval(k, n)[0] <= p <= wilson_interval(k, n)[1]
        )
        assert 0.93 < cover < 0.97


def test_interval_half_width_approaches_the_textbook_formula():
    """Half-width of a 95% interval ~ 1.96 sqrt(p(1-p)/n) for large n (normal approximation)."""
    from moneynb.analysis.stats import wilson_interval

    lo, hi = wilson_interval(3000, 10_000)
    assert (hi - lo) / 2 == pytest.approx(1.96 * (0.3 * 0.7 / 10_000) ** 0.5, rel=0.01)


def test_real_games_land_on_the_bank_as_the_model_says():
    """teach_markov's claim: in real three-player games (greedy bots) the share of rolls that
    end on the Bank agrees, within its 95% interval, with the one-token model's long run,
    although the whole distribution differs (the model leaves out choices and waits)."""
    from moneynb.analysis.stats import mean_interval
    from moneynb.analysis.tracks import moolah_track
    from moneynb.core.data import load_toml

    m = moolah_track()
    pi = m.compile().stationary_spaces()
    bank = m.names.index("Bank")
    ids = [sp["id"] for sp in load_toml("moneynb.games.moolah", "board.toml")["space"]]
    at = {sid: i for i, sid in enumerate(ids)}
    shares = []
    for seed in range(20):
        g = moneynb.new_game("moolah", players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=10 * seed + i) for i in range(3)]
        pos, last, counts = [bank] * 3, None, np.zeros(len(ids))
        while not g.over:
            for e in g.apply(bots[g.decision.player].choose(g)):
                if e.kind == "rolled":
                    if last is not None:
                        counts[pos[last]] += 1
                    last = e.data["seat"]
                elif e.kind == "moved":
                    pos[e.data["seat"]] = at[e.data["to"]]
        counts[pos[last]] += 1
        shares.append(counts / counts.sum())
    shares = np.array(shares)
    _, lo, hi = mean_interval(shares[:, bank])
    assert lo <= pi[bank] <= hi
    tv = 0.5 * np.abs(shares.mean(axis=0) - pi).sum()
    assert 0.1 < tv < 0.4  # the model is a model: a clear, bounded gap
