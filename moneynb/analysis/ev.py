"""Exact expected values and risks of the bets, loans and investments in the five games.

Every function reads the game's own data file (or a house-rule file passed as ``data_file``),
so a changed deck, spinner or amount changes the answer. Probabilities of card draws and
spins are exact :class:`fractions.Fraction` s; dollar amounts are ints or Fractions.

Contents (by game):

* Moolah: :func:`blackjack_table` (P(win) with each score for Stay and Double, the best
  choice, the house edge), :func:`wall_street_table` (mean, variance, chance of a loss of each
  stock deck: the cards' own percentages; what an investment pays after the Round-Off Clause
  is :func:`moneynb.analysis.moolah.wall_street_values`), :func:`credit_comparison` (Loan
  Shark vs Line of Credit, with the engine's Loan Shark price), :func:`moolah_space_values` (expected money per turn from the board).
* Money Card: :func:`monte_carlo_bet` (EV of one bet on a colour),
  :func:`bet_until_loss` (the distribution of winnings when betting until the first loss).
* Easy Money: :func:`easy_money_returns` (expected rent per opponent turn from the stationary
  distribution, payback of every house), :func:`mortgage_cost` (the 10% to lift a mortgage).
* Money Moves: :func:`money_moves_turn` (exact flows of one turn), :func:`pot_chain` (how the
  pot grows), :func:`broke_probability` (chance a player's wallet reaches $0).
* Money Run: :func:`coin_reach_probability` (hypergeometric chance a coin size reaches the
  table within N draws).
* Finance: :func:`years_to_target`, :func:`loan_total`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..core.data import load_toml

__all__ = [
    "blackjack_table",
    "blackjack_house_edge",
    "wall_street_table",
    "credit_comparison",
    "moolah_space_values",
    "monte_carlo_bet",
    "bet_until_loss",
    "easy_money_returns",
    "mortgage_cost",
    "money_moves_turn",
    "pot_chain",
    "broke_probability",
    "coin_reach_probability",
    "years_to_target",
    "loan_total",
]


def _frac_stats(values: list, weights: list | None = None) -> tuple[Fraction, Fraction]:
    weights = weights or [1] * len(values)
    total = sum(weights)
    mean = sum(Fraction(v) * w for v, w in zip(values, weights, strict=True)) / total
    var = sum((Fraction(v) - mean) ** 2 * w for v, w in zip(values, weights, strict=True)) / total
    return mean, var


# ===== Moolah ===================================================================================
def _moolah_cards(data_file: str | None) -> dict:
    return load_toml("moneynb.games.moolah", "cards.toml", data_file)


def blackjack_table(data_file: str | None = None) -> list[dict]:
    """Moolah's Las Vegas Casino Black Jack from a fresh pile, for each card the player can draw:
    the engine's own :func:`moneynb.games.moolah.rules.blackjack_table` (no rule restated here),
    under the names this module's notebooks use.

    Returns:
        one dict per score, ascending: ``score``, ``p_draw`` (P(the player draws it)),
        ``p_win`` (P(the House card is farther from 21)), ``ev_stay`` and ``ev_double``
        (expected net gain per $1 of ORIGINAL bet), ``best`` ("double" or "stay"). Fractions.
    """
    from ..games.moolah.rules import blackjack_table as engine_table

    casino = {int(k): int(v) for k, v in _moolah_cards(data_file)["casino"].items()}
    return [
        {
            "score": r["card"],
            "p_draw": r["chance"],
            "p_win": r["p_win"],
            "ev_stay": r["stay"],
            "ev_double": r["double"],
            "best": r["best"],
        }  # fmt: skip
        for r in engine_table(casino)
    ]


def blackjack_house_edge(data_file: str | None = None, policy: str = "best") -> Fraction:
    """The House's expected gain per $1 of original bet (positive = the House is ahead).

    Args:
        policy: ``"best"`` (double exactly when it pays), ``"stay"`` or ``"double"`` always.
    """
    rows = blackjack_table(data_file)
    ev = Fraction(0)
    for r in rows:
        if policy == "best":
            e = max(r["ev_stay"], r["ev_double"])
        elif policy in ("stay", "double"):
            e = r[f"ev_{policy}"]
        else:
            raise ValueError(f"policy must be best, stay or double, got {policy!r}")
        ev += r["p_draw"] * e
    return -ev


def wall_street_table(data_file: str | None = None) -> list[dict]:
    """Each Wall Street stock deck: ``stock``, ``cards`` (percent profit list), ``mean`` and
    ``variance`` of the percent return, ``sd`` (float), ``p_loss`` and ``p_gain`` (Fractions),
    ``worst`` and ``best`` (percent). The top card of a shuffled deck is equally likely to be
    any card."""
    stocks = _moolah_cards(data_file)["stocks"]
    rows = []
    for name, cards in stocks.items():
        mean, var = _frac_stats(cards)
        rows.append(
            {
                "stock": name,
                "cards": list(cards),
                "mean": mean,
                "variance": var,
                "sd": math.sqrt(var),
                "p_loss": Fraction(sum(c < 0 for c in cards), len(cards)),
                "p_gain": Fraction(sum(c > 0 for c in cards), len(cards)),
                "worst": min(cards),
                "best": max(cards),
            }
        )
    return rows


def credit_comparison(amounts=(10_000, 50_000, 100_000, 200_000), data_file=None) -> list[dict]:
    """Loan Shark vs Line of Credit for each borrowed amount: ``amount``, ``line_of_credit``
    (what it costs to repay: the amount plus the Line of Credit's rate as the engine charges it,
    :func:`moneynb.analysis.finance.game_credit_terms`; no interest in the rulebook), ``loan_shark``
    (amount + interest, at once: the engine's own rule,
    :func:`moneynb.analysis.moolah.loan_shark_cost`), ``extra`` (the difference) and ``rate``
    (extra / amount)."""
    from ..games.moolah.rules import load_data
    from .finance import game_credit_terms
    from .moolah import loan_shark_cost

    percent = load_data(data_file).rules["loan_shark_percent"] if data_file else None
    line_rate = game_credit_terms(data_file or "")["line_of_credit_rate"]
    rows = []
    for a in amounts:
        shark = loan_shark_cost(a, 0, percent)
        rows.append(
            {
                "amount": a,
                "line_of_credit": a + int(a * line_rate),
                "loan_shark": shark,
                "extra": shark - a,
                "rate": Fraction(shark - a, a),
            }
        )
    return rows


def moolah_space_values(data_file: str | None = None, policy: str = "outer") -> dict:
    """Expected money per turn that Moolah's money spaces pay a lone token, from the track's
    stationary distribution: ``{"per_turn": dollars (float), "turns_to_goal": float,
    "spaces": [(name, landings per turn, amount), ...]}``. Temptation cards, bets and mugging
    are left out (they depend on decisions); ``turns_to_goal`` is how many turns that rate
    needs to grow the starting account to the goal."""
    from .tracks import moolah_track

    model = moolah_track(data_file, policy=policy)
    chain = model.compile()
    land = chain.landing_per_turn()
    board = load_toml("moneynb.games.moolah", "board.toml", data_file)
    spaces = []
    total = 0.0
    for i, sp in enumerate(board["space"]):
        if sp["kind"] == "money":
            spaces.append((sp["name"], float(land[i]), int(sp["amount"])))
            total += land[i] * sp["amount"]
    rules = board["rules"]
    need = rules["goal"] - rules["start_account"]
    return {
        "per_turn": float(total),
        "turns_to_goal": need / total if total > 0 else math.inf,
        "spaces": spaces,
    }


# ===== Money Card ===============================================================================
def _spinner(data_file: str | None) -> list[dict]:
    data = load_toml("moneynb.games.money_card", "spinner.toml", data_file)
    return list(data["segment"])


def monte_carlo_bet(color: str, stake: int = 10, data_file: str | None = None) -> dict:
    """One Monte Carlo bet of ``stake`` on ``color`` ("red" or "black"), exactly.

    A win pays ``value`` to 1 (the stake is kept and ``value * stake`` is won); a loss costs
    the stake (rulebook, "Try Your Luck at Monte Carlo"; the spinner is ``spinner.toml``).

    Returns:
        ``{"p_win", "ev" (expected net dollars), "variance", "outcomes": {net: probability}}``.

    Raises:
        ValueError: a colour not on the spinner.
    """
    segs = _spinner(data_file)
    colors = {s["color"] for s in segs}
    if color not in colors:
        raise ValueError(f"color must be one of {sorted(colors)}, got {color!r}")
    n = len(segs)
    out: dict[int, Fraction] = {}
    for s in segs:
        net = s["value"] * stake if s["color"] == color else -stake
        out[net] = out.get(net, Fraction(0)) + Fraction(1, n)
    ev = sum(k * p for k, p in out.items())
    var = sum((k - ev) ** 2 * p for k, p in out.items())
    p_win = sum(p for k, p in out.items() if k > 0)
    return {"p_win": p_win, "ev": ev, "variance": var, "outcomes": dict(sorted(out.items()))}


def bet_until_loss(
    color: str, stake: int = 10, data_file: str | None = None, max_wins: int = 60
) -> dict:
    """Bet ``stake`` on ``color`` again and again until the first loss (the rulebook's limit).

    Total net winnings = (sum of the wins) - stake (the final loss). Exact distribution by
    convolving the win values; runs of more than ``max_wins`` wins (probability
    ``p_win ** (max_wins + 1)``) are left out and reported as ``tail``.

    Returns:
        ``{"ev": Fraction (exact, tail included), "distribution": {net dollars: Fraction},
        "tail": Fraction, "p_win": Fraction, "expected_spins": Fraction}``.
    """
    bet = monte_carlo_bet(color, stake, data_file)
    wins = {k: p for k, p in bet["outcomes"].items() if k > 0}
    p_win = bet["p_win"]
    p_loss = 1 - p_win
    mean_win = sum(k * p for k, p in wins.items()) / p_win
    # exact EV: E[number of wins] = p/(1-p), each worth mean_win on average, minus the stake
    ev = p_win / p_loss * mean_win - stake
    dist: dict[int, Fraction] = {}
    cur: dict[int, Fraction] = {0: Fraction(1)}  # sum of wins after k wins, times P(k wins)
    for _ in range(max_wins + 1):
        for s, p in cur.items():
            dist[s - stake] = dist.get(s - stake, Fraction(0)) + p * p_loss
        nxt: dict[int, Fraction] = {}
        for s, p in cur.items():
            for k, q in wins.items():
                nxt[s + k] = nxt.get(s + k, Fraction(0)) + p * q
        cur = nxt
    tail = 1 - sum(dist.values())
    return {
        "ev": ev,
        "distribution": dict(sorted(dist.items())),
        "tail": tail,
        "p_win": p_win,
        "expected_spins": 1 / p_loss,
    }


# ===== Easy Money ===============================================================================
def easy_money_returns(
    data_file: str | None = None, cards_file: str | None = None, opponents: int = 1
) -> list[dict]:
    """Rent an owner expects per opponent turn on every holding, from the exact long-run
    landing rate of one opponent's man (the Markov chain of :func:`tracks.easy_money_track`).

    Args:
        opponents: how many opponents move (rent per ROUND = per turn x opponents).

    Returns:
        one dict per property, utility and public building: ``space``, ``name``, ``kind``,
        ``landing`` (expected landings per opponent turn), ``B`` (building cost, 0 if none),
        ``M`` (mortgage value or 0), ``rents`` (1..4 houses and subdivision, or the one rent),
        ``rent_per_round`` (list, per level), ``payback_rounds`` (rounds for the rent of each
        level to repay the cost of getting there: B x houses; for utilities the rulebook has
        no price (they are auctioned), so None).
    """
    from ..games.easy_money.rules import load_board
    from .tracks import easy_money_track

    chain = easy_money_track(data_file, cards_file).compile()
    land = chain.landing_per_turn()
    rows = []
    for i, sp in enumerate(load_board(data_file)["space"]):
        if sp["kind"] not in ("property", "utility", "public"):
            continue
        rents = list(sp["rents"]) if sp["kind"] == "property" else [sp["rent"]]
        per_round = [float(land[i]) * r * opponents for r in rents]
        B = sp.get("B", 0)
        payback = None
        if B:
            payback = [B * (h + 1) / pr for h, pr in enumerate(per_round)]
        rows.append(
            {
                "space": i,
                "name": sp["name"],
                "kind": sp["kind"],
                "landing": float(land[i]),
                "B": B,
                "M": sp.get("M", 0),
                "rents": rents,
                "rent_per_round": per_round,
                "payback_rounds": payback,
            }
        )
    return rows


def mortgage_cost(m_value: int, data_file: str | None = None) -> dict:
    """Borrow ``m_value`` by mortgaging; lifting it costs ``m_value`` plus
    ``lift_interest_percent`` (rulebook: 10%), however long it ran.

    Returns ``{"borrowed", "repay", "interest"}`` in dollars: the engine's own
    :func:`moneynb.games.easy_money.rules.lift_cost` (interest rounded up to $1)."""
    from ..games.easy_money.rules import lift_cost, load_board

    interest = lift_cost(m_value, load_board(data_file)["lift_interest_percent"]) - m_value
    return {"borrowed": m_value, "repay": m_value + interest, "interest": interest}


# ===== Money Moves ==============================================================================
def _money_moves_data(data_file: str | None) -> dict:
    from ..games.money_moves.rules import load_cards

    return load_cards(data_file)


def _turn_terms(players: int, data: dict) -> list[tuple[Fraction, int, int, str]]:
    """One turn as ``[(probability, pot change, roller change, pot rule), ...]``; the pot rule
    ("potluck", "lucky7", "half_pot" or "") says how the pot itself adds to the changes."""
    faces = data["task_die"]
    cards = data["card"]
    n_cards = sum(c["count"] for c in cards)
    others = players - 1
    fixed = {
        "give_left": lambda m: (0, -m),
        "give_right": lambda m: (0, -m),
        "ching": lambda m: (0, others),
        "whomp": lambda m: (0, -others),
        "feed_pot": lambda m: (m, -m),
        "double_trouble": lambda m: (2 * m, -2 * m),
        "chip_in": lambda m: (players, -1),
        "take_richest": lambda m: (0, m),
        "share_poorest": lambda m: (0, -m),
        "pick_pocket": lambda m: (0, m),
    }
    terms = []
    p_face = Fraction(1, len(faces))
    for m in data["money_die"]:
        pm = Fraction(1, len(data["money_die"])) * p_face
        for f in faces:
            if f == "7":
                terms.append((pm, m, -m, ""))
            elif f in ("RE-L", "RE-R"):
                terms.append((pm, 0, m, ""))
            elif f == "SAFE":
                terms.append((pm, 0, 0, ""))
            else:
                for c in cards:
                    pc = pm * Fraction(c["count"], n_cards)
                    e = c["effect"]
                    if f == "11" and e == "potluck":
                        terms.append((pc, 0, 0, ""))  # kept for a later PL: no money now
                    elif e in ("potluck", "lucky7", "half_pot"):
                        terms.append((pc, 0, 0, e))
                    elif e in fixed:
                        dp, dr = fixed[e](m)
                        terms.append((pc, dp, dr, ""))
                    else:
                        terms.append((pc, 0, 0, ""))
    return terms


def _pot_take(rule: str, pot: int) -> int:
    return {"potluck": pot, "lucky7": min(7, pot), "half_pot": pot // 2}.get(rule, 0)


def money_moves_turn(players: int = 3, pot: int = 0, data_file: str | None = None) -> dict:
    """The exact money flows of ONE Money Moves turn, when everyone can pay in full.

    The money die ``m`` (1-6) and task die are rolled; 11 and PL draw a card (a fresh deck:
    each card kind with probability count / deck size). PotLuck drawn on PL wins the pot;
    drawn on 11 it is kept and another card is drawn (its value is left out here). A Wild
    Card is kept (no money moves). Pick a Pocket takes ``m`` from someone else.

    Args:
        players: players at the table; pot: dollars in the pot now.

    Returns:
        ``{"pot_in": E[dollars into the pot], "pot_out": E[dollars out of the pot],
        "roller": E[roller's net gain], "outcomes": {(pot change, roller change): P}}``
        (Fractions).
    """
    dist: dict[tuple[int, int], Fraction] = {}
    for p, dp, dr, rule in _turn_terms(players, _money_moves_data(data_file)):
        take = _pot_take(rule, pot)
        key = (dp - take, dr + take)
        dist[key] = dist.get(key, Fraction(0)) + p
    pot_in = sum(max(k[0], 0) * p for k, p in dist.items())
    pot_out = sum(max(-k[0], 0) * p for k, p in dist.items())
    roller = sum(k[1] * p for k, p in dist.items())
    return {"pot_in": pot_in, "pot_out": pot_out, "roller": roller, "outcomes": dist}


def pot_chain(
    turns: int, players: int = 3, data_file: str | None = None, cap: int = 400
) -> np.ndarray:
    """Distribution of the pot after 0..``turns`` turns, a Markov chain on the pot size.

    Each turn's pot change is :func:`money_moves_turn` at the current pot (everyone can pay,
    fresh-deck card odds, rounds never end). Pots above ``cap`` are held at ``cap``.

    Returns:
        float array ``(turns + 1, cap + 1)``: row t = P(pot = $k after t turns).
    """
    terms = [(float(p), dp, rule) for p, dp, _, rule in
             _turn_terms(players, _money_moves_data(data_file))]  # fmt: skip
    P = np.zeros((cap + 1, cap + 1))
    for pot in range(cap + 1):
        for p, dp, rule in terms:
            P[pot, min(max(pot + dp - _pot_take(rule, pot), 0), cap)] += p
    out = np.zeros((turns + 1, cap + 1))
    out[0, 0] = 1.0
    for t in range(turns):
        out[t + 1] = out[t] @ P
    return out


def broke_probability(
    turns: int,
    players: int = 3,
    start: int | None = None,
    pot: int = 10,
    data_file: str | None = None,
    cap: int = 200,
) -> np.ndarray:
    """P(a given player's wallet has reached $0 within t table turns), t = 0..``turns``.

    A Markov chain on ONE wallet (absorbing at $0): at each table turn the player is the
    roller with probability 1/players (flows of :func:`money_moves_turn` at a fixed ``pot``,
    payments capped by the wallet), else a bystander, who is the one an opponent's die points
    at with probability 1/(players - 1) (pays m on the roller's RE-L/RE-R, Tax the Rich or
    Pick a Pocket; receives m on Give Left/Right or Share the Wealth; $1 on Whomp Whomp,
    pays $1 on Ching Ching and Everybody Chips In). An approximation: the other players'
    wallets and the pot are not tracked; compare it with :func:`moneynb.simulate`.

    Returns:
        float array ``(turns + 1,)``.
    """
    data = _money_moves_data(data_file)
    start = data["starting_money"] if start is None else start
    cards = data["card"]
    n_cards = sum(c["count"] for c in cards)
    faces = data["task_die"]
    pm = Fraction(1, 6 * len(faces))
    roller = money_moves_turn(players, pot, data_file)["outcomes"]
    own: dict[int, Fraction] = {}
    for (_, dr), p in roller.items():
        own[dr] = own.get(dr, Fraction(0)) + p
    # bystander: money moving to / from THIS player when someone else rolls
    by: dict[int, Fraction] = {}

    def add(d, p):
        by[d] = by.get(d, Fraction(0)) + p

    q = Fraction(1, players - 1)
    for m in data["money_die"]:
        for f in faces:
            if f in ("RE-L", "RE-R"):
                add(-m, pm * q)
                add(0, pm * (1 - q))
            elif f in ("11", "PL"):
                for c in cards:
                    pc = pm * Fraction(c["count"], n_cards)
                    e = c["effect"]
                    if e in ("give_left", "give_right", "share_poorest"):
                        add(m, pc * q)
                        add(0, pc * (1 - q))
                    elif e in ("take_richest", "pick_pocket"):
                        add(-m, pc * q)
                        add(0, pc * (1 - q))
                    elif e == "whomp":
                        add(1, pc)
                    elif e in ("ching", "chip_in"):
                        add(-1, pc)
                    else:
                        add(0, pc)
            else:
                add(0, pm)
    P = np.zeros((cap + 1, cap + 1))
    P[0, 0] = 1.0
    r = 1.0 / players
    for w in range(1, cap + 1):
        for d, p in own.items():
            P[w, min(max(w + d, 0), cap)] += r * float(p)
        for d, p in by.items():
            P[w, min(max(w + d, 0), cap)] += (1 - r) * float(p)
    dist = np.zeros(cap + 1)
    dist[min(start, cap)] = 1.0
    out = np.empty(turns + 1)
    out[0] = dist[0]
    for t in range(turns):
        dist = dist @ P
        out[t + 1] = dist[0]
    return out


# ===== Money Run ================================================================================
def coin_reach_probability(size: str, draws: int, data_file: str | None = None) -> Fraction:
    """P(at least one coin of ``size`` is on the table after the first ``table_size`` coins and
    ``draws`` more draws from the bag), exactly (hypergeometric; coins are drawn without
    replacement and none has gone back into the bag).

    Raises:
        ValueError: unknown size, or more draws than coins.
    """
    data = load_toml("moneynb.games.money_run", "setup.toml", data_file)
    counts = {c["name"]: int(c["count"]) for c in data["coins"]}
    if size not in counts:
        raise ValueError(f"size must be one of {sorted(counts)}, got {size!r}")
    total = sum(counts.values())
    n = data["table_size"] + draws
    if not 0 <= n <= total:
        raise ValueError(f"{n} coins seen is more than the {total} in the bag")
    k = counts[size]
    return 1 - Fraction(math.comb(total - k, n), math.comb(total, n))


# ===== finance ==================================================================================
def years_to_target(start: float, target: float, rate: float, deposit: float = 0.0) -> float:
    """Periods until ``start`` grows to ``target`` at ``rate`` interest per period with
    ``deposit`` added at the end of each period (``inf`` if it never gets there).

    Example: $250,000 at 7% a year reaches $1,000,000 in about 20.5 years.
    """
    if start >= target:
        return 0.0
    if rate == 0:
        return (target - start) / deposit if deposit > 0 else math.inf
    # balance(n) = (start + deposit/rate) (1 + rate)^n - deposit/rate
    a = start + deposit / rate
    b = target + deposit / rate
    if a <= 0 or b / a <= 0 or rate < 0:
        return math.inf
    return math.log(b / a) / math.log1p(rate)


def loan_total(principal: int, rate: float, periods: int, compound: bool = True) -> float:
    """What a loan of ``principal`` costs to repay after ``periods`` periods at ``rate`` per
    period (compound or simple interest)."""
    if compound:
        return principal * (1 + rate) ** periods
    return principal * (1 + rate * periods)
