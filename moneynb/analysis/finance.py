"""Textbook finance for the teaching notebooks, and the games' credit terms read from the engine.

Two kinds of function live here, and they are kept apart on purpose:

* Finance formulas that belong to no game (they are the field's, found in any introductory
  finance text): :func:`apr` (a rate per period quoted per year), :func:`effective_annual_rate`
  (the same rate compounded), :func:`doubling_time` (exact) and :func:`rule_of_72` (the
  rule of thumb), :func:`annuity_payment` and :func:`amortization_schedule` (a loan repaid in
  equal payments), :func:`real_rate` (interest after inflation), :func:`minimum_payment_payoff`
  (a card balance paid at the minimum) and :func:`kelly_fraction` (bet sizing).
* :func:`game_credit_terms`: the games' own borrowing terms, each asked of the engine (the
  Loan Shark's price from :func:`moneynb.games.moolah.rules.loan_shark_cost`, the mortgage
  from :func:`moneynb.games.easy_money.rules.lift_cost`, the Line of Credit from the board
  data), never typed in here; and :func:`game_rounds`, how long real games last, measured by
  playing them with :func:`moneynb.simulate`.

Rates are fractions per period (0.05 = 5%); periods are whatever the caller counts (turns,
rounds, months, years).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = [
    "apr",
    "effective_annual_rate",
    "doubling_time",
    "rule_of_72",
    "annuity_payment",
    "amortization_schedule",
    "game_credit_terms",
    "game_rounds",
    "real_rate",
    "minimum_payment_payoff",
    "kelly_fraction",
]


def _rate(rate: float, name: str = "rate") -> float:
    if isinstance(rate, bool) or not isinstance(rate, int | float | Fraction):
        raise ValueError(f"{name} must be a number, got {rate!r}")
    if not rate > -1:
        raise ValueError(f"{name} must be above -1 (-100%), got {rate!r}")
    return rate


def apr(rate_per_period: float, periods_per_year: float) -> float:
    """Annual percentage rate (nominal): the rate per period times the periods in a year, as
    lenders quote it (US Truth in Lending convention; no compounding).

    Example: a fee of 15% for a two-week loan is 0.15 x 26 = 3.9, an APR of 390%.

    Raises:
        ValueError: a rate at or below -100%, or ``periods_per_year`` <= 0.
    """
    _rate(rate_per_period, "rate_per_period")
    if not periods_per_year > 0:
        raise ValueError(f"periods_per_year must be > 0, got {periods_per_year!r}")
    return rate_per_period * periods_per_year


def effective_annual_rate(rate_per_period: float, periods_per_year: float) -> float:
    """Effective annual rate (EAR, also "annual percentage yield"): what the rate per period
    grows to in a year when each period's interest earns interest, ``(1 + r) ** n - 1``.

    Example: 50% per two weeks compounds to ``1.5 ** 26 - 1``, about 37,876 (3,787,575%).

    Raises:
        ValueError: a rate at or below -100%, or ``periods_per_year`` <= 0.
    """
    _rate(rate_per_period, "rate_per_period")
    if not periods_per_year > 0:
        raise ValueError(f"periods_per_year must be > 0, got {periods_per_year!r}")
    return (1 + float(rate_per_period)) ** periods_per_year - 1


def doubling_time(rate: float) -> float:
    """Periods for money growing at ``rate`` per period (compounded) to double, exactly:
    ``ln 2 / ln(1 + rate)``.

    Raises:
        ValueError: ``rate`` <= 0 (money that does not grow never doubles).
    """
    _rate(rate)
    if rate <= 0:
        raise ValueError(f"only a positive rate doubles money, got {rate!r}")
    return math.log(2) / math.log1p(float(rate))


def rule_of_72(rate: float) -> float:
    """The rule of 72's estimate of :func:`doubling_time`: 72 / (rate in percent).

    Close for rates of a few percent (within 6% of the exact time from 1% to 20% a period, and
    exact near 7.85%); far off for big rates (at 100% per period the money doubles in 1 period, the
    rule says 0.72).

    Raises:
        ValueError: ``rate`` <= 0.
    """
    _rate(rate)
    if rate <= 0:
        raise ValueError(f"only a positive rate doubles money, got {rate!r}")
    return 72 / (100 * float(rate))


def annuity_payment(principal: float, rate: float, periods: int) -> float:
    """The equal payment, made at the end of each period, that repays ``principal`` with
    interest at ``rate`` per period in ``periods`` payments (an amortised loan; the standard
    annuity formula ``P r / (1 - (1 + r) ** -n)``, or ``P / n`` at a zero rate).

    Example: $200,000 at 6.5% a year paid monthly (r = 0.065 / 12) for 30 years (n = 360)
    costs $1,264.14 a month.

    Raises:
        ValueError: ``principal`` < 0, ``periods`` not a positive int, or a rate <= -100%.
    """
    _rate(rate)
    if isinstance(periods, bool) or not isinstance(periods, int) or periods < 1:
        raise ValueError(f"periods must be a positive int, got {periods!r}")
    if principal < 0:
        raise ValueError(f"principal must be >= 0, got {principal!r}")
    if rate == 0:
        return principal / periods
    r = float(rate)
    return principal * r / (1 - (1 + r) ** -periods)


def amortization_schedule(principal: float, rate: float, periods: int) -> list[dict]:
    """The loan of :func:`annuity_payment`, payment by payment: one dict per period with
    ``period`` (1..periods), ``payment``, ``interest`` (rate x the balance owed before the
    payment), ``principal`` (the rest of the payment, which pays the loan down) and
    ``balance`` (owed after the payment; 0 after the last, up to float rounding).

    Raises:
        ValueError: as :func:`annuity_payment`.
    """
    pay = annuity_payment(principal, rate, periods)
    balance = float(principal)
    rows = []
    for k in range(1, periods + 1):
        interest = balance * float(rate)
        balance = balance + interest - pay
        rows.append(
            {
                "period": k,
                "payment": pay,
                "interest": interest,
                "principal": pay - interest,
                "balance": balance,
            }
        )
    return rows


def real_rate(nominal: float, inflation: float) -> float:
    """Real interest rate: what a nominal rate buys after inflation, ``(1 + n) / (1 + i) - 1``
    (the Fisher equation; ``n - i`` is its approximation for small rates).

    Example: 5% interest with 3% inflation is a real rate of about 1.94%.

    Raises:
        ValueError: a rate at or below -100%.
    """
    _rate(nominal, "nominal")
    _rate(inflation, "inflation")
    return (1 + float(nominal)) / (1 + float(inflation)) - 1


def minimum_payment_payoff(
    balance: int, apr_rate: float, min_share: float = 0.02, min_dollars: int = 25
) -> dict:
    """A credit-card balance paid at the minimum each month until it is cleared.

    Each month interest ``apr_rate / 12`` is added, then the minimum is paid: ``min_share`` of
    the balance, but at least ``min_dollars`` (or the whole balance when it is less). These are
    the usual card terms (2% of the balance or 25 dollars; the card's own agreement sets them), no
    new purchases. Returns ``{"months": int, "interest": float (dollars), "paid": float
    (dollars)}``.

    Raises:
        ValueError: a negative balance or rate, ``min_share`` not in (0, 1], a minimum that
            never clears the balance (it does not cover the month's interest).
    """
    if balance < 0 or apr_rate < 0 or not 0 < min_share <= 1 or min_dollars < 0:
        raise ValueError("need balance >= 0, apr_rate >= 0, 0 < min_share <= 1, min_dollars >= 0")
    monthly = apr_rate / 12
    if min_share <= monthly and min_dollars <= balance * monthly:
        raise ValueError("the minimum payment does not cover the interest: never paid off")
    left, months, interest = float(balance), 0, 0.0
    while left > 0.005:
        charge = left * monthly
        interest += charge
        left += charge
        left -= min(left, max(min_share * left, min_dollars))
        months += 1
        if months > 12 * 200:
            raise ValueError("the balance is not cleared in 200 years at this minimum")
    return {"months": months, "interest": interest, "paid": balance + interest}


def kelly_fraction(outcomes: dict, stake: int) -> float:
    """The Kelly bet: the share of your money to stake on a repeated bet so that your money
    grows fastest in the long run (maximises the expected log of wealth; Kelly, 1956).

    ``outcomes``: ``{dollars won on a stake of `stake` (a loss negative): probability}``, e.g.
    :func:`moneynb.analysis.ev.monte_carlo_bet`'s ``"outcomes"``. Returns a share in [0, 1):
    0 for a bet whose expected value is not positive. For a simple win-b-or-lose-the-stake
    bet this is the textbook ``p - (1 - p) / b``.

    Raises:
        ValueError: probabilities that do not add up to 1, ``stake`` <= 0, or a bet that can
            lose more than the stake.
    """
    if stake <= 0:
        raise ValueError(f"stake must be > 0, got {stake!r}")
    returns = [(float(x) / stake, float(p)) for x, p in outcomes.items()]
    if abs(sum(p for _, p in returns) - 1) > 1e-9:
        raise ValueError("the probabilities of the outcomes must add up to 1")
    worst = min(r for r, _ in returns)
    if worst < -1:
        raise ValueError("a bet that can lose more than the stake has no Kelly fraction here")
    if sum(r * p for r, p in returns) <= 0:
        return 0.0

    def slope(f: float) -> float:  # derivative of E[log(1 + f r)], falling in f
        return sum(p * r / (1 + f * r) for r, p in returns)

    low, high = 0.0, (1 / -worst if worst < 0 else 1.0) * (1 - 1e-12)
    if worst >= 0 or slope(high) > 0:
        return high
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if slope(mid) > 0 else (low, mid)
    return (low + high) / 2


def game_credit_terms(moolah_file: str = "", easy_money_file: str | None = None) -> dict:
    """The games' borrowing terms, each taken from the engine or the game's data file.

    Args:
        moolah_file, easy_money_file: a house-rule board file of either game, or the shipped
            board.

    Returns:
        ``{"loan_shark_rate": Fraction}`` (interest / loan, charged at once: what
        :func:`moneynb.games.moolah.rules.loan_shark_cost` charges on a $100,000 shortfall),
        ``"credit_line"`` (dollars of Moolah's Line of Credit), ``"line_of_credit_rate"``
        (Fraction: a new Moolah game whose first player's first withdrawal borrows $100,000
        beyond the bank account on the Line of Credit; what the engine then has the account
        owe, less the $100,000, divided by it; 0 with the rulebook's interest-free line),
        ``"mortgage_rate"`` (Fraction: what
        :func:`moneynb.games.easy_money.rules.lift_cost` adds to a $100,000 mortgage, divided
        by it; charged when lifted, however long it ran).
    """
    from ..core.registry import game_class
    from ..games.easy_money.rules import lift_cost, load_board
    from ..games.moolah.rules import load_data, loan_shark_cost

    rules = load_data(moolah_file).rules
    base = 100_000
    shark = loan_shark_cost(base, 0, rules["loan_shark_percent"])
    lift = lift_cost(base, load_board(easy_money_file)["lift_interest_percent"])
    g = game_class("moolah")(["A", "B"], 0, board_file=moolah_file)
    if g.decision is None or g.decision.tag != "first_withdrawal":  # pragma: no cover
        raise RuntimeError("a new Moolah game should ask for the first withdrawal first")
    seat = g.decision.player
    g.apply(rules["start_account"] + base)  # the first withdrawal, $100,000 of it on credit
    owed = -g.balance(seat)
    return {
        "loan_shark_rate": Fraction(shark - base, base),
        "credit_line": rules["credit_line"],
        "line_of_credit_rate": Fraction(owed - base, base),
        "mortgage_rate": Fraction(lift - base, base),
    }


def game_rounds(
    game: str, players: int = 4, n_games: int = 20, seed: int = 0, bot: str = "greedy"
) -> np.ndarray:
    """How many rounds (every player has had a turn) real games last: ``n_games`` seeded games
    of ``game`` played by ``players`` copies of ``bot`` with :func:`moneynb.simulate`.

    Returns:
        float array ``(n_games,)``: player turns of each game / ``players``.

    Raises:
        ValueError: as :func:`moneynb.simulate` (unknown game or bot, bad counts).
    """
    from .montecarlo import simulate

    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError(f"players must be a positive int, got {players!r}")
    games = simulate(game, [bot] * players, n_games=n_games, seed=seed, progress=False)
    return games["turns"].to_numpy(dtype=float) / players
