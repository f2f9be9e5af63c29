"""Exact expected values (moneynb.analysis.ev) against simulation and hand-worked numbers."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import moneynb
from moneynb.analysis import ev
from moneynb.analysis.montecarlo import landing_counts
from moneynb.analysis.tracks import easy_money_track, moolah_track
from moneynb.core.chance import Deck, Spinner
from moneynb.core.data import load_toml


def test_blackjack_exact_vs_simulated_deck():
    casino = {
        int(k): v for k, v in load_toml("moneynb.games.moolah", "cards.toml")["casino"].items()
    }
    rows = {r["score"]: r for r in ev.blackjack_table()}
    rng = random.Random(7)
    wins = dict.fromkeys(casino, 0)
    seen = dict.fromkeys(casino, 0)
    n = 60_000
    for _ in range(n):
        deck = Deck.from_counts(casino, rng)
        me, house = deck.draw(rng), deck.draw(rng)
        seen[me] += 1
        wins[me] += abs(me - 21) < abs(house - 21)
    for s, r in rows.items():
        assert seen[s] / n == pytest.approx(float(r["p_draw"]), abs=0.01)
        if seen[s] > 500:
            se = math.sqrt(float(r["p_win"] * (1 - r["p_win"])) / seen[s]) + 1e-9
            assert abs(wins[s] / seen[s] - float(r["p_win"])) < 5 * se + 1e-9
    # double exactly when P(win) > 1/2; the house edge is the EV of that policy, negated
    for r in rows.values():
        assert (r["best"] == "double") == (r["p_win"] > Fraction(1, 2))
    edge = ev.blackjack_house_edge()
    assert edge == -sum(r["p_draw"] * max(r["ev_stay"], r["ev_double"]) for r in rows.values())
    assert ev.blackjack_house_edge(policy="stay") > edge


def test_blackjack_reads_a_house_rule_deck(tmp_path: Path):
    text = Path(moneynb.__file__).parent.joinpath("games/moolah/cards.toml").read_text()
    start = text.index("[casino]")
    house = text[:start] + "[casino]\n20 = 1\n21 = 1\n22 = 1\n"
    f = tmp_path / "cards.toml"
    f.write_text(house)
    rows = {r["score"]: r for r in ev.blackjack_table(str(f))}
    # with 21 in hand, the House holds 20 or 22, both farther: a sure win
    assert rows[21]["p_win"] == 1 and rows[21]["ev_double"] == 2
    # with 20 in hand, the House holds 21 (closer) or 22 (as close: the House wins)
    assert rows[20]["p_win"] == 0


def test_wall_street_stats():
    stocks = load_toml("moneynb.games.moolah", "cards.toml")["stocks"]
    for r in ev.wall_street_table():
        cards = stocks[r["stock"]]
        assert r["mean"] == Fraction(sum(cards), len(cards))
        assert float(r["variance"]) == pytest.approx(np.var(cards))
        assert r["p_loss"] == Fraction(sum(c < 0 for c in cards), len(cards))


def test_loan_shark_rulebook_examples():
    # rulebook: $0 in the wallet, $100,000 in the bank, pay $50,000 -> bank $25,000
    from moneynb.analysis.moolah import loan_shark_cost

    assert 100_000 - loan_shark_cost(50_000, 0) == 25_000
    # rulebook: $50,000 in the bank, pay $100,000 -> bank -$100,000
    assert 50_000 - loan_shark_cost(100_000, 0) == -100_000
    row = ev.credit_comparison([40_000])[0]
    assert row["loan_shark"] == 60_000 and row["line_of_credit"] == 40_000
    assert row["rate"] == Fraction(1, 2)
    # an amount that is not a whole bill: the interest is not rounded to the bill (issue 12)
    assert ev.credit_comparison([25_000])[0]["loan_shark"] == 37_500


def test_monte_carlo_bet_exact_vs_spins():
    segs = load_toml("moneynb.games.money_card", "spinner.toml")["segment"]
    spinner = Spinner(tuple((s["color"], s["value"]) for s in segs))
    rng = random.Random(3)
    for color in ("red", "black"):
        exact = ev.monte_carlo_bet(color, 10)
        nets = []
        for _ in range(40_000):
            c, v = spinner.roll(rng)
            nets.append(10 * v if c == color else -10)
        se = math.sqrt(float(exact["variance"]) / len(nets))
        assert abs(np.mean(nets) - float(exact["ev"])) < 4 * se


def test_bet_until_loss_exact_vs_simulated():
    segs = load_toml("moneynb.games.money_card", "spinner.toml")["segment"]
    res = ev.bet_until_loss("red", 10)
    dist = res["distribution"]
    assert res["tail"] < Fraction(1, 10**15)
    assert float(sum(k * p for k, p in dist.items())) == pytest.approx(float(res["ev"]), rel=1e-9)
    rng = random.Random(11)
    totals = []
    for _ in range(30_000):
        total = 0
        while True:
            s = segs[rng.randrange(len(segs))]
            if s["color"] != "red":
                total -= 10
                break
            total += 10 * s["value"]
        totals.append(total)
    var = sum((k - float(res["ev"])) ** 2 * float(p) for k, p in dist.items())
    assert abs(np.mean(totals) - float(res["ev"])) < 4 * math.sqrt(var / len(totals))
    assert np.mean(np.array(totals) == -10) == pytest.approx(float(dist[-10]), abs=0.01)


def test_coin_reach_exact_vs_shuffles():
    setup = load_toml("moneynb.games.money_run", "setup.toml")
    bag = [c["name"] for c in setup["coins"] for _ in range(c["count"])]
    rng = random.Random(5)
    draws = 6
    seen = setup["table_size"] + draws
    hits = 0
    n = 20_000
    for _ in range(n):
        rng.shuffle(bag)
        hits += "large" in bag[:seen]
    p = ev.coin_reach_probability("large", draws)
    assert abs(hits / n - float(p)) < 4 * math.sqrt(float(p * (1 - p)) / n)
    # nothing but the table's first 5 coins: 1 - C(37,5)/C(42,5)
    assert ev.coin_reach_probability("large", 0) == 1 - Fraction(math.comb(37, 5), math.comb(42, 5))
    with pytest.raises(ValueError):
        ev.coin_reach_probability("huge", 1)


def test_money_moves_first_turn_exact_vs_engine(tmp_path: Path):
    """Play the first turn of many real games with deep pockets (a house-rule file with $1,000
    each, so nobody is short): the mean money into the pot matches the exact value."""
    text = Path(moneynb.__file__).parent.joinpath("games/money_moves/cards.toml").read_text()
    f = tmp_path / "cards.toml"
    f.write_text(text.replace("starting_money = 7", "starting_money = 1000"))
    exact = ev.money_moves_turn(players=3, pot=0, data_file=str(f))
    bot = moneynb.make_bot("random", seed=1)
    deltas = []
    for i in range(2000):
        g = moneynb.new_game("money_moves", ["A", "B", "C"], seed=i, data_file=str(f))
        while g.decision.tag == "opening_roll":
            g.apply("roll")
        g.apply("roll")
        while g.decision is not None and g.decision.tag != "roll":
            g.apply(bot.choose(g))  # e.g. Pick a Pocket: who pays does not touch the pot
        deltas.append(g.money()["Pot"])
    mean = float(np.mean(deltas))
    se = float(np.std(deltas)) / math.sqrt(len(deltas))
    assert abs(mean - float(exact["pot_in"])) < 4 * se + 1e-9
    assert exact["pot_out"] == 0  # the pot is empty at the start


def test_pot_chain_and_broke_probability_are_distributions():
    pc = ev.pot_chain(20, players=3)
    np.testing.assert_allclose(pc.sum(axis=1), 1.0)
    mean = pc @ np.arange(pc.shape[1])
    assert mean[1] == pytest.approx(float(ev.money_moves_turn(3, 0)["pot_in"]))
    assert (np.diff(mean[:6]) > 0).all()  # the pot grows at first
    b = ev.broke_probability(50, players=3)
    assert b[0] == 0 and (np.diff(b) >= -1e-12).all() and b[-1] < 1


def test_easy_money_returns_use_the_stationary_distribution():
    chain = easy_money_track().compile()
    land = chain.landing_per_turn()
    rows = ev.easy_money_returns(opponents=3)
    for r in rows:
        assert r["landing"] == pytest.approx(land[r["space"]])
        assert r["rent_per_round"][0] == pytest.approx(3 * land[r["space"]] * r["rents"][0])
        if r["B"]:
            assert r["payback_rounds"][0] == pytest.approx(r["B"] / r["rent_per_round"][0])
    # exact landing rates match simulated tokens (2e7 rolls; tolerance 6e-4 ~ 10 SE)
    sim = landing_counts(chain, 100_000, 200, seed=4)
    np.testing.assert_allclose(sim, chain.landing_after(200).mean(axis=0), atol=4e-4)
    assert ev.mortgage_cost(180) == {"borrowed": 180, "repay": 198, "interest": 18}


def test_moolah_track_bank_stops_and_waits():
    model = moolah_track()
    chain = model.compile()
    pi = chain.stationary_spaces()
    bank = model.names.index("Bank")
    # the Bank cannot be passed, so it is the most visited space
    assert pi.argmax() == bank
    # exact mean landing rate over the first 200 rolls from the Bank (no stationarity needed)
    exact = chain.landing_after(200).mean(axis=0)
    sim = landing_counts(chain, 50_000, 200, seed=2)
    np.testing.assert_allclose(sim, exact, atol=5e-4)  # 1e7 rolls: about 8 SE
    v = ev.moolah_space_values()
    assert v["per_turn"] == pytest.approx(sum(p * a for _, p, a in v["spaces"]))


def test_years_to_target():
    assert ev.years_to_target(250_000, 1_000_000, 0.07) == pytest.approx(
        math.log(4) / math.log(1.07)
    )
    assert ev.years_to_target(0, 100, 0, deposit=10) == 10
    assert ev.loan_total(100, 0.1, 2) == pytest.approx(121)
    assert ev.loan_total(100, 0.1, 2, compound=False) == pytest.approx(120)


def test_blackjack_agrees_with_the_moolah_engine():
    from moneynb.games.moolah import rules

    casino = {
        int(k): v for k, v in load_toml("moneynb.games.moolah", "cards.toml")["casino"].items()
    }
    engine = {r["card"]: r for r in rules.blackjack_table(casino)}
    for r in ev.blackjack_table():
        assert r["p_win"] == engine[r["score"]]["p_win"]
        assert r["best"] == engine[r["score"]]["best"]
    assert ev.blackjack_house_edge() == -rules.blackjack_value(casino)


def test_monte_carlo_bet_formula_is_the_engines_value():
    """Issue 12: the spinner formula of ev.monte_carlo_bet must agree with the engine's own
    outcomes at a real Monte Carlo decision (a player who cannot Charge It the loss)."""
    import moneynb
    from moneynb.core.outcomes import value_option

    for seed in range(40):
        g = moneynb.new_game("money_card", players=["A", "B", "C"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=i) for i in range(3)]
        while not g.over:
            d = g.decision
            if d.tag == "color" and g.holder != d.player:
                stake = g.monte["bet"]
                for colour in ("red", "black"):
                    v = value_option(g, colour)
                    assert v.mean == ev.monte_carlo_bet(colour, stake)["ev"]
                    assert v.distribution == ev.monte_carlo_bet(colour, stake)["outcomes"]
                return
            g.apply(bots[d.player].choose(g))
    pytest.fail("no Monte Carlo colour decision by a player without the Money Card")


def test_blackjack_hand_played_by_the_engine_matches_its_exact_distribution():
    """The class experiment of teach_expected_value: one hand's distribution comes from the
    engine's chance outcomes (no payout restated), its mean is the engine table's value for the
    same way of playing, and hands the engine plays land within the exact 99.9% band."""
    from moneynb.analysis.moolah import (
        blackjack_hand_distribution,
        blackjack_values,
        play_blackjack_hands,
    )

    values = blackjack_values()
    for policy, name in (
        ("stay", "always stay"),
        ("double", "always double"),
        ("best", "double when P(win) > 1/2"),
    ):
        dist = blackjack_hand_distribution(policy)
        assert sum(dist.values()) == 1
        mean = sum(k * p for k, p in dist.items())
        assert mean == values[name], policy
        var = sum((k - mean) ** 2 * p for k, p in dist.items())
        n = 400
        got = play_blackjack_hands(n, seed=3, policy=policy)
        assert abs(got - float(mean)) < 3.3 * math.sqrt(float(var) / n), (policy, got, mean)
    assert set(blackjack_hand_distribution("stay")) == {-1, 1}
    assert set(blackjack_hand_distribution("double")) == {-2, 2}
    with pytest.raises(ValueError, match="policy"):
        blackjack_hand_distribution("split")
    with pytest.raises(ValueError, match="at least 1"):
        play_blackjack_hands(0)


def test_blackjack_simulation_is_the_engine_playing_each_hand_three_ways():
    """moolah.ipynb's check of the exact values: the hands are dealt and paid by the engine
    (no payout or House rule restated); each way's mean lies within 4 standard errors of the
    engine table's exact value, the per-card counts add up to the hands dealt, the same seed
    gives the same figures and a bad count is refused."""
    from moneynb.analysis.moolah import blackjack_values, simulate_blackjack

    n = 500
    sim = simulate_blackjack(n, seed=11)
    for name, exact in blackjack_values().items():
        se = sim["standard error"][name]
        assert se > 0, name
        assert abs(sim[name] - float(exact)) < 4 * se, (name, sim[name], exact)
    # doubling every hand doubles every result of staying on the same cards
    assert sim["always double"] == pytest.approx(2 * sim["always stay"])
    assert sum(hands for hands, _wins in sim["per_card"].values()) == n
    assert all(0 <= wins <= hands for hands, wins in sim["per_card"].values())
    assert simulate_blackjack(50, seed=4) == simulate_blackjack(50, seed=4)
    with pytest.raises(ValueError, match="at least 1"):
        simulate_blackjack(0)
