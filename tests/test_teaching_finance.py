"""Every number the credit, property and inequality teaching notebooks add, checked against the
engine (the games' own rules and data files) or a named textbook value.

Textbook values used (each is an independently published worked example, not a value produced
by moneynb's code):

* CFPB, "What is a payday loan?": a two-week loan with a $15 fee per $100 has an APR of almost
  400% (15% x 26 = 390%).
* Wikipedia, "Mortgage calculator" (monthly payment formula example): $200,000 at a fixed 6.5%
  a year for 30 years is $1,264.14 a month.
* miguelmota/mortgage-calculate (npm) README: $100,000 at 4.7% APR for 30 years is
  $518.6378 a month.
* The rule of 72 (any introductory finance text): at 8% a year money doubles in about 9 years;
  the exact time is ln 2 / ln 1.08 = 9.006 years.
"""

from __future__ import annotations

import math
from fractions import Fraction
from importlib import resources

import numpy as np
import pytest

import moneynb
from moneynb.analysis import ev, finance


def _house_rule(tmp_path, package: str, old: str, new: str) -> str:
    text = resources.files(package).joinpath("board.toml").read_text()
    assert old in text
    path = tmp_path / "board.toml"
    path.write_text(text.replace(old, new))
    return str(path)


# ----- the games' credit terms come from the engine -------------------------------------------
def test_loan_shark_rate_is_the_engines_rulebook_example():
    # rulebook, Loan Shark: $50,000 short costs $75,000 off the bank account
    row = ev.credit_comparison([50_000])[0]
    assert row["loan_shark"] == 75_000
    assert finance.game_credit_terms()["loan_shark_rate"] == Fraction(75_000 - 50_000, 50_000)


def test_credit_terms_follow_a_house_rule_file(tmp_path):
    moolah = _house_rule(
        tmp_path, "moneynb.games.moolah", "loan_shark_percent = 50", "loan_shark_percent = 30"
    )
    (tmp_path / "em").mkdir()
    easy = _house_rule(
        tmp_path / "em",
        "moneynb.games.easy_money",
        "lift_interest_percent = 10",
        "lift_interest_percent = 12",
    )
    terms = finance.game_credit_terms(moolah, easy)
    assert terms["loan_shark_rate"] == Fraction(3, 10)
    assert terms["mortgage_rate"] == Fraction(12, 100)


def test_line_of_credit_and_mortgage_terms():
    terms = finance.game_credit_terms()
    # rulebook: a Line of Credit of $200,000, no interest; Easy Money: 10% to lift a mortgage
    assert terms["credit_line"] == 200_000
    assert terms["line_of_credit_rate"] == 0
    assert terms["mortgage_rate"] == Fraction(1, 10)
    # the rulebook's example mortgage M180 is lifted for $198
    assert ev.mortgage_cost(180)["repay"] == 198


def test_line_of_credit_never_charges_interest_while_owed():
    """teach_credit's 0% Line of Credit, over time: two players borrow the whole line at the
    first withdrawal and greedy bots play on; money leaves a bank account only into its owner's
    wallet (a withdrawal) or with a Loan Shark loan in the same step, never as interest."""
    owed_steps = 0
    for seed in range(4):
        g = moneynb.new_game("moolah", players=["A", "B"], seed=seed)
        r = g.data.rules
        while g.decision.tag == "first_withdrawal":
            g.apply(r["start_account"] + r["credit_line"])
        assert [g.balance(s) for s in range(2)] == [-r["credit_line"]] * 2
        bots = [moneynb.make_bot("greedy", seed=seed * 2 + i) for i in range(2)]
        while not g.over:
            owed_steps += any(g.balance(s) < 0 for s in range(2))
            events = g.apply(bots[g.decision.player].choose(g))
            shark = {g.players[e.data["seat"]] for e in events if e.kind == "loan_shark"}
            for e in events:
                src, dst = e.data.get("src", ""), e.data.get("dst", "")
                if e.kind == "paid" and src.startswith("account:"):
                    owner = src.split(":", 1)[1]
                    assert dst == f"wallet:{owner}" or owner in shark, e.text
    assert owed_steps > 50  # the games did run while money was owed on the line


# ----- APR and effective annual rate ----------------------------------------------------------
def test_payday_loan_apr_matches_cfpb():
    assert finance.apr(0.15, 26) == pytest.approx(3.90)  # CFPB: "almost 400%"


def test_loan_shark_as_a_two_week_loan():
    rate = finance.game_credit_terms()["loan_shark_rate"]
    assert finance.apr(rate, 26) == 13  # 50% x 26 = 1300% (the figure)
    exact = Fraction(3, 2) ** 26 - 1  # 26 two-week periods, compounded, in exact arithmetic
    assert finance.effective_annual_rate(rate, 26) == pytest.approx(float(exact), rel=1e-12)
    assert 37_875 < finance.effective_annual_rate(rate, 26) < 37_876


def test_monthly_compounding_of_a_credit_card_rate():
    # 24% APR charged monthly: 2% a month, EAR = 1.02^12 - 1 = 26.82% (textbook EAR example)
    assert finance.effective_annual_rate(0.02, 12) == pytest.approx(0.268242, abs=1e-6)


def test_card_at_one_and_a_half_percent_a_month():
    # textbook exercise: 1.5% a month is an APR of 18% and an EAR of 19.56%
    assert finance.apr(0.015, 12) == pytest.approx(0.18)
    assert finance.effective_annual_rate(0.015, 12) == pytest.approx(0.1956, abs=5e-5)


@pytest.mark.parametrize("bad", [-1, -2.0, "5%", None, True])
def test_rates_reject_bad_input(bad):
    with pytest.raises(ValueError):
        finance.apr(bad, 12)
    with pytest.raises(ValueError):
        finance.effective_annual_rate(bad, 12)


def test_periods_per_year_must_be_positive():
    with pytest.raises(ValueError):
        finance.apr(0.1, 0)
    with pytest.raises(ValueError):
        finance.effective_annual_rate(0.1, -1)


# ----- doubling time and the rule of 72 ---------------------------------------------------------
def test_rule_of_72_textbook_example():
    assert finance.rule_of_72(0.08) == pytest.approx(9.0)
    assert finance.doubling_time(0.08) == pytest.approx(9.006, abs=1e-3)


@pytest.mark.parametrize("r", [0.01, 0.03, 0.07, 0.12, 0.5])
def test_doubling_time_doubles(r):
    assert (1 + r) ** finance.doubling_time(r) == pytest.approx(2.0)


def test_rule_of_72_accuracy_claimed_in_its_docstring():
    rates = np.linspace(0.01, 0.20, 40)
    rel = [abs(finance.rule_of_72(r) / finance.doubling_time(r) - 1) for r in rates]
    assert max(rel) < 0.06
    # and far off for a big rate: 100% per period doubles in exactly one period
    assert finance.doubling_time(1.0) == pytest.approx(1.0)
    assert finance.rule_of_72(1.0) == pytest.approx(0.72)
    # teach_credit's figures for the Loan Shark's 50% per period: 1.71 periods, the rule 1.44
    assert 1.5**1.71 == pytest.approx(2, abs=0.005)
    assert finance.doubling_time(0.5) == pytest.approx(1.71, abs=0.005)
    assert finance.rule_of_72(0.5) == pytest.approx(1.44)


@pytest.mark.parametrize("bad", [0, -0.05])
def test_doubling_needs_growth(bad):
    with pytest.raises(ValueError):
        finance.doubling_time(bad)
    with pytest.raises(ValueError):
        finance.rule_of_72(bad)


# ----- amortised loan -------------------------------------------------------------------------
def test_annuity_payment_textbook_examples():
    # Wikipedia, "Mortgage calculator": $200,000, 6.5% a year, 30 years, monthly
    assert finance.annuity_payment(200_000, 0.065 / 12, 360) == pytest.approx(1264.14, abs=0.005)
    # mortgage-calculate README: $100,000, 4.7%, 30 years
    assert finance.annuity_payment(100_000, 0.047 / 12, 360) == pytest.approx(518.6378, abs=1e-4)


def test_amortization_schedule_repays_the_loan():
    rows = finance.amortization_schedule(10_000, 0.01, 24)
    assert len(rows) == 24
    assert rows[-1]["balance"] == pytest.approx(0, abs=1e-6)
    assert sum(r["principal"] for r in rows) == pytest.approx(10_000)
    assert rows[0]["interest"] == pytest.approx(100)  # 1% of the whole loan the first month
    assert all(a["interest"] > b["interest"] for a, b in zip(rows, rows[1:], strict=False))


def test_zero_rate_loan_is_equal_slices():
    assert finance.annuity_payment(1200, 0, 12) == 100


@pytest.mark.parametrize(
    "args", [(1000, 0.01, 0), (1000, 0.01, 2.5), (-5, 0.01, 12), (1000, -1, 12), (1000, 0.01, True)]
)
def test_annuity_rejects_bad_input(args):
    with pytest.raises(ValueError):
        finance.annuity_payment(*args)


# ----- years to a million (Moolah) -------------------------------------------------------------
def test_years_to_target_is_the_exact_compound_time():
    # $250,000 -> $1,000,000 is two doublings: at any rate it takes 2 exact doubling times
    for r in (0.02, 0.05, 0.1):
        assert ev.years_to_target(250_000, 1_000_000, r) == pytest.approx(
            2 * finance.doubling_time(r)
        )


# ----- game length against payback (measured with moneynb.simulate) ------------------------------
def test_game_rounds_are_turns_over_players():
    games = moneynb.simulate("easy_money", ["greedy"] * 4, n_games=3, seed=5, progress=False)
    rounds = finance.game_rounds("easy_money", 4, n_games=3, seed=5)
    assert list(rounds) == list(games["turns"] / 4)
    with pytest.raises(ValueError):
        finance.game_rounds("easy_money", 0)


def test_first_house_never_pays_back_within_a_real_game():
    """teach_property's claim: a lone first house needs longer to pay back than a four-player
    game lasts, a subdivision pays back well within one."""
    rounds = finance.game_rounds("easy_money", 4, n_games=8, seed=0)
    rows = [r for r in ev.easy_money_returns(opponents=3) if r["kind"] == "property"]
    first = [r["payback_rounds"][0] for r in rows]
    full = [r["payback_rounds"][-1] for r in rows]
    assert min(first) > rounds.max()
    assert max(full) < rounds.min()


def test_moolah_goal_model_against_real_games():
    """teach_credit's claim: the money spaces alone would need longer than a real game lasts
    (bets, cards and muggings decide real games)."""
    board = ev.moolah_space_values()
    rounds = finance.game_rounds("moolah", 3, n_games=12, seed=0)
    assert math.isfinite(board["turns_to_goal"])
    assert board["turns_to_goal"] > np.median(rounds)


def test_real_rate_is_fishers():
    from moneynb.analysis.finance import real_rate

    assert real_rate(0.05, 0.03) == pytest.approx(1.05 / 1.03 - 1)
    assert real_rate(0.02, 0.03) < 0  # savings that lose to inflation
    with pytest.raises(ValueError):
        real_rate(0.05, -1.5)


def test_minimum_payment_payoff_by_hand_and_the_trap():
    from moneynb.analysis.finance import minimum_payment_payoff

    # no interest, half the balance or 30 dollars: 100 -> 50 -> 20 -> 0
    assert minimum_payment_payoff(100, 0.0, min_share=0.5, min_dollars=30) == {
        "months": 3,
        "interest": 0.0,
        "paid": 100.0,
    }
    trap = minimum_payment_payoff(5_000, 0.22)  # 2% or 25 dollars at 22% APR
    assert trap["months"] > 12 * 30 and trap["interest"] > 5_000
    faster = minimum_payment_payoff(5_000, 0.22, min_share=0.05)
    assert faster["months"] < trap["months"] / 5
    with pytest.raises(ValueError, match="never paid off"):
        minimum_payment_payoff(5_000, 0.36, min_share=0.02, min_dollars=10)


def test_kelly_fraction_textbook_and_the_money_card_bet():
    import math

    from moneynb.analysis import ev
    from moneynb.analysis.finance import kelly_fraction

    assert kelly_fraction({10: 0.6, -10: 0.4}, 10) == pytest.approx(0.6 - 0.4 / 1)
    assert kelly_fraction({20: 0.4, -10: 0.6}, 10) == pytest.approx(0.4 - 0.6 / 2)
    assert kelly_fraction({10: 0.4, -10: 0.6}, 10) == 0.0  # no edge, no bet
    bet = ev.monte_carlo_bet("black", stake=10)
    f = kelly_fraction(bet["outcomes"], 10)

    def growth(share):
        return sum(float(p) * math.log(1 + share * x / 10) for x, p in bet["outcomes"].items())

    assert 0 < f < 1 and growth(f) > max(growth(f - 0.02), growth(f + 0.02))
