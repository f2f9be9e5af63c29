"""The Coach (moneynb.ui.coach): its numbers equal moneynb.analysis for seeded situations.

Each test drives a seeded game with seeded greedy bots until the decision appears, then checks
the coach's text against the analysis function's value, formatted the same way.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import moneynb
from moneynb.analysis import ev, tracks
from moneynb.analysis import moolah as am
from moneynb.ui.coach import cents, coach, dollars, money_run_reach, next_roll_landing, pct

_EMPTY = type("E", (), {"numbers": {}})()


def drive(name, tag, seed=0, players=3, limit=4000, when=lambda g: True):
    """A game of ``name`` played by greedy bots (seeded) until a decision tagged ``tag``
    (and ``when(game)``) is pending."""
    for s in range(seed, seed + 40):
        g = moneynb.new_game(name, players=[f"P{i}" for i in range(players)], seed=s)
        bots = [moneynb.make_bot("greedy", seed=100 * s + i) for i in range(players)]
        for _ in range(limit):
            if g.over:
                break
            if g.decision.tag == tag and when(g):
                return g
            g.apply(bots[g.decision.player].choose(g))
    pytest.fail(f"no {tag} decision in {name} games from seed {seed}")


def test_blackjack_stay_vs_double_matches_analysis():
    g = drive("moolah", "casino_raise")
    c = coach(g)
    card, bet, high = g.ctx["card"], g.ctx["bet"], g.decision.high
    pile = g._left_in(g.data.casino, g.casino)  # full pile minus the public discards
    row = next(r for r in am.blackjack_rows(pile) if r["card"] == card)
    assert c.numbers["p_win"] == row["p_win"]
    text = c.text()
    assert f"P(win) = {pct(row['p_win'])}" in text
    assert f"Stay at {dollars(bet)}: expected result {dollars(bet * row['stay'])}" in text
    assert f"Raise to {dollars(high)}: expected result {dollars(high * row['stay'])}" in text
    # a fresh pile gives the same P(win) as ev.blackjack_table (the analysis' own copy)
    if sum(pile.values()) == sum(g.data.casino.values()):
        fresh = next(r for r in ev.blackjack_table() if r["score"] == card)
        assert fresh["p_win"] == row["p_win"]


def test_blackjack_bet_value_matches_analysis():
    g = drive("moolah", "casino_bet")
    c = coach(g)
    pile = g._left_in(g.data.casino, g.casino)
    values = am.blackjack_values(pile)
    best = values["double when P(win) > 1/2"]
    assert c.numbers["value_best"] == best
    assert f"Per $1 bet: {float(best):+.3f}" in c.text()
    assert f"{float(values['always stay']):+.3f} if you always stay" in c.text()


def test_wall_street_matches_analysis_on_a_fresh_deck():
    g = drive(
        "moolah", "wall_street", when=lambda g: not any(d.discard_pile for d in g.stocks.values())
    )
    c = coach(g)
    for row in ev.wall_street_table():
        s = row["stock"]
        assert c.numbers[s]["mean"] == row["mean"]
        assert c.numbers[s]["p_loss"] == row["p_loss"]
        assert c.numbers[s]["sd"] == pytest.approx(row["sd"])
        assert (
            f"{s.capitalize()}: mean {float(row['mean']):+.1f}%, spread (sd) {row['sd']:.1f}%, "
            f"P(loss) {pct(row['p_loss'])}"
        ) in c.text()


def test_wall_street_amount_expected_dollars():
    g = drive("moolah", "wall_street_amount")
    c = coach(g)
    stock = g.ctx["stock"]
    mean = c.numbers[stock]["mean"]
    assert (
        f"Investing {dollars(g.decision.low)} returns {dollars(g.decision.low * mean / 100)}"
        in c.text()
    )


def test_loan_shark_price_before_it_happens():
    g = drive("moolah", "bank")
    c = coach(g)
    cash = g.cash(g.decision.player)
    shark = am.loan_shark_cost(cash + 50_000, cash)
    assert shark == 75_000  # rulebook: $50,000 short costs $75,000
    assert shark == next(r for r in ev.credit_comparison() if r["amount"] == 50_000)["loan_shark"]
    assert f"costs {dollars(shark)} via the Loan Shark" in c.text()


def test_moolah_next_roll_heat_map_is_the_markov_chain_row():
    g = drive("moolah", "turn", when=lambda g: g.pos[g.decision.player] == g.data.unique["bank"])
    c = coach(g)
    order = list(g.data.order)
    chain = tracks.moolah_track().compile()
    i = chain.states.index((order.index("bank"), 0, 0))
    # independent count over the chain's equally likely (dice, card) pairs
    want: dict = {}
    for s in chain.landed[i]:
        want[order[int(s)]] = want.get(order[int(s)], Fraction(0)) + Fraction(
            1, chain.landed.shape[1]
        )
    assert c.heatmap == want
    assert sum(c.heatmap.values()) == 1


def test_moolah_bill_in_reach_shows_the_loan_shark_price():
    g = drive(
        "moolah",
        "turn",
        when=lambda g: any(
            b["loan_shark"] for b in ((coach(g) or _EMPTY).numbers.get("bills") or {}).values()
        ),
    )
    c = coach(g)
    cash = g.cash(g.decision.player)
    for sid, b in c.numbers["bills"].items():
        amount = -g.data.spaces[sid]["amount"]
        assert b["loan_shark"] == am.loan_shark_cost(amount, cash)
        if b["loan_shark"]:
            assert f"the Loan Shark would take {dollars(b['loan_shark'])}" in c.text()


def test_easy_money_payback_matches_analysis():
    g = drive("easy_money", "buy")
    c = coach(g)
    i = g.pos[g.current]
    row = next(r for r in ev.easy_money_returns(opponents=len(g.players) - 1) if r["space"] == i)
    assert c.numbers["payback_rounds"] == pytest.approx(row["payback_rounds"][0])
    assert f"about {row['payback_rounds'][0]:.1f} rounds" in c.text()
    assert f"{cents(row['rent_per_round'][0])} per round" in c.text()
    if row["M"]:
        m = ev.mortgage_cost(row["M"])
        assert f"lifting costs {dollars(m['repay'])}" in c.text()


def test_easy_money_next_roll_heat_map():
    g = drive("easy_money", "turn", when=lambda g: "roll" in g.decision.options)
    c = coach(g)
    pos = g.pos[g.decision.player]
    assert c.heatmap == next_roll_landing("easy_money", ("", ""), pos)
    assert sum(c.heatmap.values()) == 1
    chain = tracks.easy_money_track().compile()
    i = chain.states.index((pos, 0, 0))
    assert c.heatmap.keys() == {int(s) for s in chain.landed[i] if s >= 0}


def test_monte_carlo_bet_and_streak_match_analysis():
    g = drive("money_card", "bet")
    c = coach(g)
    d = g.decision
    for color in ("red", "black"):
        b = ev.monte_carlo_bet(color, d.low)
        assert c.numbers[(color, d.low)]["ev"] == b["ev"]
        assert (
            f"${d.low} on {color}: P(win) {pct(b['p_win'])}, expected result {cents(b['ev'])}"
            in c.text()
        )
    best = max(("red", "black"), key=lambda col: ev.monte_carlo_bet(col, d.low)["ev"])
    streak = ev.bet_until_loss(best, d.low)
    assert c.numbers["streak"]["ev"] == streak["ev"]
    assert f"until the first loss: expected result {cents(streak['ev'])}" in c.text()


def test_money_moves_roll_matches_analysis():
    g = drive("money_moves", "roll", when=lambda g: g.ledger["Pot"] > 0)
    c = coach(g)
    t = ev.money_moves_turn(len(g.players), g.ledger["Pot"])
    assert c.numbers["roller"] == t["roller"]
    assert f"Your expected gain this turn: {cents(t['roller'])}" in c.text()
    assert f"Expected into the pot: {cents(t['pot_in'])}" in c.text()


def test_money_run_reach_and_heat_map():
    g = drive("money_run", "action", when=lambda g: g.pawn_paths(g.decision.player))
    c = coach(g)
    seat = g.decision.player
    one = {g.xy(s) for s in g.pawn_paths(seat)}
    assert one <= money_run_reach(g, seat, 1) | one and money_run_reach(g, seat, 1) == one
    assert set(c.heatmap) == money_run_reach(g, seat, g.actions_left)
    assert one <= set(c.heatmap)
    p = ev.coin_reach_probability("large", 2)
    assert f"= {pct(p)}" in c.text()


def test_coach_never_reads_deck_order():
    """Shuffling the hidden draw piles (same cards) does not change what the coach says."""
    import random

    g = drive("moolah", "casino_raise")
    before = coach(g).text()
    for deck in [g.casino, *g.stocks.values()]:
        random.Random(1).shuffle(deck.draw_pile)
    assert coach(g).text() == before


def test_no_coaching_when_game_over_or_unknown_decision():
    g = moneynb.new_game("money_moves", players=["A", "B", "C"], seed=0)
    assert coach(g) is not None or g.decision.tag != "roll"
    bots = [moneynb.make_bot("random", seed=i) for i in range(3)]
    moneynb.bots.play_out(g, bots)
    assert g.over and coach(g) is None


def test_view_coach_toggle_shows_the_panel_and_heat_map():
    from moneynb.ui import play

    v = play("easy_money", players=["You", "bot:greedy"], seed=4, autosave=False)
    toggle = v.find("moneynb-coach-toggle")[0]
    panel = v.find("moneynb-coach")[0]
    assert panel.layout.display == "none"
    while not (v.game.decision.tag == "turn" and "roll" in v.game.decision.options):
        v.submit(v.game.greedy_action(v.game.rng.__class__(0)))
    toggle.value = True
    c = coach(v.game)
    assert panel.layout.display is None and "Next roll" in panel.value
    assert c.lines[0].split(": ", 1)[1] in panel.value.replace("&#x27;", "'")
    heat = [s for s in v.board.figure.layout.shapes if s.name == "moneynb-heat"]
    assert len(heat) == len(c.heatmap)
    toggle.value = False
    assert panel.layout.display == "none"
    assert not [s for s in v.board.figure.layout.shapes if s.name == "moneynb-heat"]
