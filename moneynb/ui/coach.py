"""The Coach: the numbers behind the pending decision, from what its player knows.

:func:`coach` takes a game and returns a :class:`Coaching` for its pending decision (or
``None`` when there is nothing to say). Every number comes from :mod:`moneynb.analysis` (or
the exact helpers of the game's own rules that it re-exports), computed from public
knowledge only: the full deck or pile minus the PUBLIC discard pile, the board, the dice.
The order of a deck is never read.

What it covers (issue 8):

* Moolah: Black Jack bet (value of a $1 bet with and without doubling) and Stay vs Double
  with the card in hand (P(win), expected result in dollars); Wall Street (mean, spread and
  chance of a loss of each stock, expected dollars of the investment); Loan Shark price of a
  payment bigger than the wallet before it happens (Temptation gambles, the Bank, bills within
  reach of the next roll); the next roll's landing chances (heat map).
* Easy Money: payback time of a property (rounds of rent to repay its price) and the 10%
  mortgage; the next roll's landing chances (heat map).
* Money Card: expected value of a Monte Carlo bet on each colour and of betting on until the
  first loss (continuing the streak).
* Money Moves: the roller's expected gain and the pot's expected flows this turn.
* Money Run: where each pawn can reach this turn (heat map of the squares, 1.0 = reachable)
  and the chance a large coin reaches the table within a few draws.

The heat map is ``{space id: probability}`` in the game's own space ids (Moolah: the string
ids of ``board.toml``; Easy Money: the space index; Money Run: ``(x, y)`` squares).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

__all__ = ["Coaching", "coach", "dollars", "cents", "pct", "next_roll_landing", "money_run_reach"]


@dataclass
class Coaching:
    """What the coach says about one decision.

    Attributes:
        title: one short heading ("Black Jack: stay or double?").
        lines: plain-text lines with the numbers (dollars as ``$1,234``, chances as ``45.5%``).
        heatmap: ``{space id: probability}`` to draw on the board, or ``None``.
        numbers: the exact values behind the lines (Fractions / ints / floats), by name, so
            tests and notebooks can compare them with :mod:`moneynb.analysis` directly.
    """

    title: str
    lines: list[str] = field(default_factory=list)
    heatmap: dict | None = None
    numbers: dict = field(default_factory=dict)

    def text(self) -> str:
        """Title and lines as one plain-text block."""
        return "\n".join([self.title, *self.lines])


def dollars(x) -> str:
    """Dollars rounded to $1: ``-1234.5`` -> ``"-$1,235"`` (half away from zero)."""
    v = Fraction(x)
    n = int(abs(v) + Fraction(1, 2))
    return f"-${n:,}" if v < 0 and n else f"${n:,}"


def cents(x) -> str:
    """Dollars with cents, for small expected values: ``Fraction(1, 3)`` -> ``"$0.33"``."""
    v = float(x)
    return f"-${-v:,.2f}" if v < 0 else f"${v:,.2f}"


def pct(p) -> str:
    """A probability as a percentage with one decimal: ``Fraction(1, 3)`` -> ``"33.3%"``."""
    return f"{float(p) * 100:.1f}%"


# ===== next-roll landing (track games) =========================================================
@lru_cache(maxsize=16)
def _chain(game_name: str, files: tuple):
    from ..analysis import tracks

    if game_name == "moolah":
        board_file, cards_file = files
        model = tracks.moolah_track(board_file or None, cards_file=cards_file or None)
    elif game_name == "easy_money":
        data_file, cards_file = files
        model = tracks.easy_money_track(data_file or None, cards_file or None)
    else:
        raise ValueError(f"no track model for {game_name!r}")
    chain = model.compile()
    index = {s: i for i, s in enumerate(chain.states)}
    return chain, index


def _files(game) -> tuple:
    o = game.options
    if game.name == "moolah":
        return (o.get("board_file", ""), o.get("cards_file", ""))
    return (o.get("data_file", ""), o.get("cards_file", ""))


def next_roll_landing(game_name: str, files: tuple, space: int) -> dict[int, Fraction]:
    """Exact chances of where a token on track index ``space`` (no doubles streak, not
    waiting) lands on its next roll: ``{space index: Fraction}``, from the compiled
    :class:`~moneynb.analysis.markov.MarkovChain` of :mod:`moneynb.analysis.tracks` (its
    ``landed`` table: each equally likely (dice, card) pair once). Moolah takes the outer path
    at Option Points (the model's default policy).

    Raises:
        KeyError: the state is not reachable in the model.
    """
    chain, index = _chain(game_name, tuple(files))
    i = index[(space, 0, 0)]
    row = chain.landed[i]
    m = len(row)
    out: dict[int, Fraction] = {}
    for s in row:
        s = int(s)
        if s >= 0:
            out[s] = out.get(s, Fraction(0)) + Fraction(1, m)
    return dict(sorted(out.items()))


def _top(heat: dict, names, k: int = 3) -> str:
    best = sorted(heat.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k]
    return ", ".join(f"{names(s)} {pct(p)}" for s, p in best)


# ===== Moolah ==================================================================================
def _moolah(game, d) -> Coaching | None:
    from ..analysis import ev
    from ..analysis import moolah as am
    from ..games.moolah.rules import blackjack_value, blackjack_win_probability

    seat, tag, data = d.player, d.tag, game.data
    cash = game.cash(seat)
    rules = data.rules
    if tag == "casino_raise":
        card, bet, high = game.ctx["card"], game.ctx["bet"], d.high
        left = game._left_in(data.casino, game.casino)  # public: pile minus the discards
        p = blackjack_win_probability(left, card)
        stay, double = bet * (2 * p - 1), high * (2 * p - 1)
        best = "raise" if double > stay else "stay"
        return Coaching(
            "Black Jack: stay or double?",
            [
                f"Your card {card}: P(win) = {pct(p)} (House card from the "
                f"{sum(left.values()) - 1} cards left).",
                f"Stay at {dollars(bet)}: expected result {dollars(stay)}.",
                f"Raise to {dollars(high)}: expected result {dollars(double)}.",
                f"Better: {best}.",
            ],
            numbers={"p_win": p, "ev_stay": stay, "ev_double": double, "card": card},
        )
    if tag == "casino_bet":
        left = game._left_in(data.casino, game.casino)
        best = blackjack_value(left)
        plain = blackjack_value(left, can_double=False)
        return Coaching(
            "Black Jack: bet or pass?",
            [
                f"Per $1 bet: {float(best):+.3f} if you double exactly when P(win) > 50%, "
                f"{float(plain):+.3f} if you always stay.",
                f"A {dollars(d.low)} bet is worth {dollars(d.low * best)} on average; "
                f"{dollars(d.high)} is worth {dollars(d.high * best)}.",
                "Bets come from the wallet only: no Loan Shark here.",
            ],
            numbers={"value_best": best, "value_stay": plain},
        )
    if tag in ("wall_street", "wall_street_amount"):
        lines, nums = [], {}
        stocks = [game.ctx["stock"]] if tag == "wall_street_amount" else list(data.stocks)
        for s in stocks:
            left = game._left_in(data.stocks[s], game.stocks[s])
            cards = [c for c, n in sorted(left.items()) for _ in range(n)]
            mean, var = ev._frac_stats(cards)
            sd = float(var) ** 0.5
            p_loss = Fraction(sum(c < 0 for c in cards), len(cards))
            nums[s] = {"mean": mean, "sd": sd, "p_loss": p_loss}
            lines.append(
                f"{s.capitalize()}: mean {float(mean):+.1f}%, spread (sd) {sd:.1f}%, "
                f"P(loss) {pct(p_loss)}, cards {min(cards):+d}% to {max(cards):+d}% "
                f"(the {len(cards)} cards not yet seen; the buttons show the full deck)."
            )
        if tag == "wall_street_amount":
            m = nums[stocks[0]]["mean"]
            lines.append(
                f"Investing {dollars(d.low)} returns {dollars(d.low * m / 100)} on average; "
                f"{dollars(d.high)} returns {dollars(d.high * m / 100)}."
            )
        return Coaching("Wall Street: which stock, how much?", lines, numbers=nums)
    if tag == "gamble":
        card = data.cards[game.ctx["card_id"]]
        p = Fraction(7 - card["target"], 6)
        val = p * card["payout"] - (1 - p) * card["amount"]
        shark = am.loan_shark_cost(card["amount"], cash)
        lines = [
            f"P(win) = {pct(p)}: expected result {dollars(val)} "
            f"(win {dollars(card['payout'])}, or lose the {dollars(card['amount'])} stake).",
        ]
        if shark:
            lines.append(
                f"Your wallet holds {dollars(cash)}: losing would cost {dollars(shark)} off your "
                f"account via the Loan Shark."
            )
        return Coaching("Temptation: take the chance?", lines,
                        numbers={"p_win": p, "ev": val, "loan_shark": shark})  # fmt: skip
    if tag in ("bank", "bank_amount", "first_withdrawal"):
        bill = 50_000
        shark = am.loan_shark_cost(cash + bill, cash)
        return Coaching(
            "Bank: how much cash to carry?",
            [
                f"Wallet {dollars(cash)}, account {dollars(game.balance(seat))}.",
                f"A bill {dollars(bill)} bigger than your wallet costs {dollars(shark)} via the "
                f"Loan Shark ({rules['loan_shark_percent']}% at once); borrowing on the Line of "
                "Credit at the Bank costs no interest.",
                "Cash in the wallet can be mugged.",
            ],
            numbers={"loan_shark": shark, "bill": bill},
        )
    if tag == "turn" and not game.missed[seat]:
        order = list(data.order)
        pos = order.index(game.pos[seat])
        try:
            land = next_roll_landing("moolah", _files(game), pos)
        except KeyError:
            return None
        heat = {order[i]: p for i, p in land.items()}
        lines = [
            "Where this roll can land (outer path at Option Points): "
            + _top(heat, lambda s: data.spaces[s]["name"])
            + "."
        ]
        worst = [
            (p, s)
            for s, p in heat.items()
            if data.spaces[s]["kind"] == "money" and data.spaces[s]["amount"] < 0
        ]
        nums: dict[str, Any] = {"landing": heat}
        for p, s in sorted(worst, key=lambda t: data.spaces[t[1]]["amount"]):
            amount = -data.spaces[s]["amount"]
            shark = am.loan_shark_cost(amount, cash)
            nums.setdefault("bills", {})[s] = {"p": p, "amount": amount, "loan_shark": shark}
            lines.append(
                f"{data.spaces[s]['name']} ({pct(p)}): pay {dollars(amount)}"
                + (
                    f"; the Loan Shark would take {dollars(shark)} off your account."
                    if shark
                    else " from your wallet."
                )  # fmt: skip
            )
        return Coaching("Next roll", lines, heatmap=heat, numbers=nums)
    return None


# ===== Easy Money ==============================================================================
@lru_cache(maxsize=16)
def _em_returns(data_file: str, cards_file: str, opponents: int) -> dict:
    from ..analysis import ev

    rows = ev.easy_money_returns(data_file or None, cards_file or None, opponents=opponents)
    return {r["space"]: r for r in rows}


def _easy_money(game, d) -> Coaching | None:
    from ..analysis import ev

    seat, tag = d.player, d.tag
    files = _files(game)
    opponents = len(game.players) - 1
    if tag in ("buy", "lone_bidder"):
        i = game.pos[game.current] if tag == "buy" else game.auction["space"]
        sp = game.board[i]
        row = _em_returns(files[0], files[1], opponents).get(i)
        if row is None or not row["payback_rounds"]:
            return None
        rounds = row["payback_rounds"][0]
        lines = [
            f"{sp['name']}: an opponent lands here {pct(row['landing'])} of turns "
            f"(long run, exact Markov chain).",
            f"Rent {dollars(row['rents'][0])} with {opponents} opponent(s): "
            f"{cents(row['rent_per_round'][0])} per round expected.",
            f"Payback of {dollars(row['B'])}: about {rounds:.1f} rounds.",
        ]
        if row["M"]:
            m = ev.mortgage_cost(row["M"], files[0] or None)
            lines.append(
                f"Mortgaging it later raises {dollars(m['borrowed'])}; lifting costs "
                f"{dollars(m['repay'])} (interest {dollars(m['interest'])})."
            )
        return Coaching(f"Buy {sp['name']}?", lines,
                        numbers={"payback_rounds": rounds, "row": row})  # fmt: skip
    if tag == "turn" and "roll" in d.options:
        try:
            land = next_roll_landing("easy_money", files, game.pos[seat])
        except KeyError:
            return None
        return Coaching(
            "Next roll",
            ["Where this roll can land: " + _top(land, lambda s: game.board[s]["name"]) + "."],
            heatmap=land,
            numbers={"landing": land},
        )
    return None


# ===== Money Card ==============================================================================
@lru_cache(maxsize=16)
def _bet_until_loss(color: str, stake: int, spinner: str | None) -> dict:
    from ..analysis import ev

    # the EV and expected spins are exact whatever max_wins is (it only trims the table)
    return ev.bet_until_loss(color, stake, spinner, max_wins=5)


def _money_card(game, d) -> Coaching | None:
    from ..analysis import ev

    spinner = game.options.get("spinner_file", "") or None
    if d.tag not in ("bet", "color"):
        return None
    stakes = [game.monte["bet"]] if d.tag == "color" else [d.low, d.high]
    lines, nums = [], {}
    for color in ("red", "black"):
        for stake in dict.fromkeys(stakes):
            b = ev.monte_carlo_bet(color, stake, spinner)
            nums[(color, stake)] = b
            lines.append(
                f"${stake} on {color}: P(win) {pct(b['p_win'])}, expected result {cents(b['ev'])}."
            )
    stake = stakes[0]
    best = max(("red", "black"), key=lambda c: nums[(c, stake)]["ev"])
    streak = _bet_until_loss(best, stake, spinner)
    nums["streak"] = streak
    wins = game.monte["wins"] if game.monte else 0
    lines.append(
        f"Betting ${stake} on {best} until the first loss: expected result "
        f"{cents(streak['ev'])} over {float(streak['expected_spins']):.2f} spins on average."
    )
    if wins:
        lines.append(
            f"You have won {wins} time(s) in a row; spins do not remember: the next one is "
            "worth the same as the first."
        )
    return Coaching("Monte Carlo", lines, numbers=nums)


# ===== Money Moves =============================================================================
def _money_moves(game, d) -> Coaching | None:
    from ..analysis import ev
    from ..games.money_moves.rules import POT

    if d.tag != "roll":
        return None
    pot = game.ledger[POT]
    t = ev.money_moves_turn(len(game.players), pot, game.options.get("data_file", "") or None)
    return Coaching(
        "This roll",
        [
            f"Pot {dollars(pot)}, {len(game.players)} players (everyone able to pay).",
            f"Your expected gain this turn: {cents(t['roller'])}.",
            f"Expected into the pot: {cents(t['pot_in'])}; out of it: {cents(t['pot_out'])}.",
        ],
        numbers=t,
    )


# ===== Money Run ===============================================================================
def money_run_reach(game, seat: int, moves: int) -> set[tuple[int, int]]:
    """Squares ``seat``'s pawn can reach with ``moves`` pawn actions on the board as it is now
    (coins not moved): repeated :meth:`MoneyRun.pawn_paths` from each square reached."""
    g = game.copy()
    start = g.pawns[seat]
    frontier, seen = {start}, set()
    for _ in range(moves):
        nxt = set()
        for sq in frontier:
            g.pawns[seat] = sq
            for dest in g.pawn_paths(seat):
                if dest not in seen and dest != start:
                    seen.add(dest)
                    nxt.add(dest)
        frontier = {s for s in nxt if not g.on_goal(seat, s)}
    return {g.xy(s) for s in seen}


def _money_run(game, d) -> Coaching | None:
    from ..analysis import ev

    if d.tag != "action":
        return None
    moves = game.actions_left
    heat: dict = {}
    lines, nums = [], {}
    for seat, name in enumerate(game.players):
        n_moves = moves if seat == d.player else 2
        reach = money_run_reach(game, seat, n_moves)
        nums[name] = reach
        best = min((game.distance(seat, game.sq(*xy)) for xy in reach), default=None)
        lines.append(
            f"{name}: {len(reach)} squares within {n_moves} pawn move(s)"
            + (f", best {best} from the goal (now {game.distance(seat)})." if reach else ".")
        )
        if seat == d.player:
            heat.update({xy: 1.0 for xy in reach})
    bag = game.options.get("data_file", "") or None
    try:
        p = ev.coin_reach_probability("large", 2, bag)
        lines.append(f"P(a large coin among the first table coins and 2 more draws) = {pct(p)}.")
        nums["large_coin_2"] = p
    except ValueError:
        pass
    return Coaching("Where the pawns can reach this turn", lines, heatmap=heat, numbers=nums)


_COACHES = {
    "moolah": _moolah,
    "easy_money": _easy_money,
    "money_card": _money_card,
    "money_moves": _money_moves,
    "money_run": _money_run,
}


def coach(game) -> Coaching | None:
    """The coaching for ``game``'s pending decision, or ``None`` (game over, or nothing risky
    or numeric to say about this decision). Never raises for a game it does not know."""
    d = game.decision
    if d is None:
        return None
    fn = _COACHES.get(game.name)
    return fn(game, d) if fn else None
