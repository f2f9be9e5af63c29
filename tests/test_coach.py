"""The Coach (moneynb.coach): its numbers are the engine's own outcomes (issue 12).

Each test drives a seeded game with seeded greedy bots until the decision appears, then checks
the coach's numbers against values enumerated from the engine (``chance_outcomes``) or
measured by playing the decision through ``apply``. The four failing inputs of issue 12 are
``test_issue12_input*``. ``tests/test_harness.py`` checks every number at many states.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

import moneynb
from moneynb.analysis import ev
from moneynb.analysis import moolah as am
from moneynb.coach import coach, dollars, money_run_reach
from moneynb.core.outcomes import chance_outcomes, shuffle_hidden, value_option, worth

_EMPTY = type("E", (), {"numbers": {}})()


def drive(name, tag, seed=0, players=3, limit=4000, when=lambda g: True):
    """A game of ``name`` played by greedy bots (seeded) until a decision tagged ``tag``
    (and ``when(game)``) is pending. Default games (a chance stream per kind, issue 39): the
    tests that use it check what holds at any such decision, not one recorded position."""
    for s in range(seed, seed + 40):
        g = moneynb.new_game(name, [f"P{i}" for i in range(players)], seed=s)
        bots = [moneynb.make_bot("greedy", seed=100 * s + i) for i in range(players)]
        for _ in range(limit):
            if g.over:
                break
            if g.decision.tag == tag and when(g):
                return g
            g.apply(bots[g.decision.player].choose(g))
    pytest.fail(f"no {tag} decision in {name} games from seed {seed}")


def _greedy_until(name, tag, seed=0, players=("A", "B", "C")):
    """The issue's setting: ``seed``, players A, B, C, greedy bots seeded 0, 1, 2. Pinned to
    one random stream (``chance_streams`` 1, issue 39): it replays the positions issue 12
    reported, which were recorded in one-stream games."""
    g = moneynb.new_game(name, players=list(players), seed=seed, chance_streams=1)
    bots = [moneynb.make_bot("greedy", seed=i) for i in range(len(players))]
    while not g.over and g.decision.tag != tag:
        g.apply(bots[g.decision.player].choose(g))
    assert not g.over, f"no {tag} decision"
    return g


def _engine_mean(g, action, follow=()):
    """Exact expected dollars gained, straight from the engine's enumerated outcomes (the
    follow-ups of the decider enumerated here by brute force over every option)."""
    seat = g.decision.player
    base = worth(g, seat)
    total = Fraction(0)
    for o in chance_outcomes(g, action):
        h, d = o.game, o.game.decision
        if d is not None and d.player == seat and d.tag in follow:
            opts = list(d.options) + ([] if d.low is None else
                                      list(range(d.low, d.high + 1, d.step)))  # fmt: skip
            best = max(_engine_mean(h, a, follow) for a in opts)
            total += o.probability * (worth(h, seat) - base + best)
        else:
            total += o.probability * (worth(h, seat) - base)
    return total


def test_issue12_input1_whole_wallet_blackjack_bet_has_no_raise():
    """Failing input 1: the whole-wallet bet is valued with the engine's raise cap."""
    g = _greedy_until("moolah", "casino_bet")
    d = g.decision
    c = coach(g)
    whole = c.numbers[d.high]
    assert whole == _engine_mean(g, d.high, ("casino_raise",))
    # the engine offers no raise after a whole-wallet bet: every outcome settles at once
    assert all(o.game.decision is None or o.game.decision.tag != "casino_raise"
               for o in chance_outcomes(g, d.high))  # fmt: skip
    assert whole < 0 and dollars(whole) in c.text()
    # every bet of the range is valued as the engine plays it (raise capped by the wallet)
    low = c.numbers[d.low]
    assert low == _engine_mean(g, d.low, ("casino_raise",))


def test_issue12_input2_wall_street_round_off():
    """Failing input 2: $10,000 in grain, exactly as the engine pays it (Round-Off Clause)."""
    g = am.decision_state("wall_street", 100_000)
    c = coach(g)
    grain = next(ch for ch in c.checks if ch.pre == ("grain",) and ch.action == 10_000)
    h = g.copy()
    h.apply("grain")
    outcomes = chance_outcomes(h, 10_000)
    seat = g.decision.player
    exact = sum((o.probability * (worth(o.game, seat) - worth(h, seat)) for o in outcomes),
                Fraction(0))  # fmt: skip
    assert grain.valuation.mean == exact
    no_loss = all(worth(o.game, seat) >= worth(h, seat) for o in outcomes)
    assert (grain.valuation.probability(lambda v: v < 0) == 0) == no_loss
    assert f"{dollars(exact)}, P(loss) 0.0%" in c.text() if no_loss else True
    rows = {r["amount"]: r for r in am.wall_street_values("grain", (10_000,))}
    assert rows[10_000]["mean"] == exact
    # 300 real investments through apply agree with the exact value (4 standard errors)
    import random

    xs = []
    for k in range(300):
        r = h.copy()
        r.rng = random.Random(k)
        shuffle_hidden(r, r.rng)  # the deck's order is hidden: any order alike
        r.apply(10_000)
        xs.append(worth(r, seat) - worth(h, seat))
    sd = float(grain.valuation.variance) ** 0.5
    assert abs(sum(xs) / len(xs) - float(exact)) < 4 * sd / len(xs) ** 0.5


def test_issue12_input3_one_loan_shark_rule():
    """Failing input 3: one Loan Shark function, the one the engine charges."""
    from moneynb.games.moolah import rules

    assert not hasattr(ev, "loan_shark_cost")
    g = _greedy_until("moolah", "turn")
    seat = g.decision.player
    g.ledger.transfer(g.wallet(seat), "bank", g.cash(seat), "test: empty the wallet")
    before = g.balance(seat)
    assert g._pay(seat, 25_000, "bank", "test bill")
    charged = before - g.balance(seat)
    percent = g.data.rules["loan_shark_percent"]
    assert charged == rules.loan_shark_cost(25_000, 0, percent) == am.loan_shark_cost(25_000, 0)
    row = next(r for r in ev.credit_comparison([25_000]))
    assert row["loan_shark"] == charged and row["rate"] == Fraction(percent, 100)


def test_issue12_input4_easy_money_heat_map_is_next_landing():
    """Failing input 4: the first roll counts Start as one; later rolls know the cards drawn."""
    g = drive("easy_money", "turn", when=lambda g: "roll" in g.decision.options)
    seat = g.decision.player
    assert not g.started[seat]  # a first move
    c = coach(g)
    assert c.heatmap == g.next_landing(seat)
    # the engine's own outcomes of the throw agree with next_landing
    exact: dict = {}
    for o in chance_outcomes(g, "roll", branch_draws=3):
        exact[o.game.pos[seat]] = exact.get(o.game.pos[seat], Fraction(0)) + o.probability
    assert exact == c.heatmap
    later = drive("easy_money", "turn", seed=3,
                  when=lambda g: "roll" in g.decision.options and g.started[g.decision.player]
                  and g.turn_count > 20 if hasattr(g, "turn_count") else
                  "roll" in g.decision.options and g.started[g.decision.player])  # fmt: skip
    assert coach(later).heatmap == later.next_landing(later.decision.player)


def test_coach_numbers_are_the_engines_valuation():
    """Every chance number the coach shows is a Check whose valuation is the engine's."""
    for name, tag in [("moolah", "casino_raise"), ("money_card", "color"),
                      ("money_moves", "roll"), ("moolah", "gamble"), ("moolah", "fork")]:  # fmt: skip
        g = drive(name, tag)
        c = coach(g)
        assert c.checks, name
        for ch in c.checks:
            if ch.pre or ch.measure is not None:
                continue
            assert ch.valuation.mean == value_option(g, ch.action, follow_tags=ch.follow_tags).mean


def test_moolah_option_point_names_where_each_path_ends():
    """Issue 18, section 7: the coach has something to say at an Option Point."""
    g = drive("moolah", "fork")
    c = coach(g)
    d = g.decision
    assert c is not None and len(c.checks) == len(d.options)
    for o in d.options:
        h = g.copy()
        moved = [e for e in h.apply(o) if e.kind == "moved" and not e.data.get("sent")]
        assert g.data.spaces[moved[0].data["to"]]["name"] in c.text()
        assert c.numbers[o] == value_option(g, o, follow_tags=("fork",)).mean


def test_money_card_destinations_and_easy_money_auction_are_coached():
    """Issue 18, section 7: Money Card destinations and Easy Money auctions."""
    g = drive("money_card", "move")
    c = coach(g)
    exact = [ch.action for ch in c.checks if ch.base is None and ch.model is None]
    assert exact[::2] == list(g.decision.options)
    for o in g.decision.options:
        assert c.numbers[o]["money"] == value_option(g, o).mean
    g = drive("easy_money", "bid")
    c = coach(g)
    i = g.auction["space"]
    assert c.title.startswith("Auction") and g.board[i]["name"] in c.title
    for o, p in c.numbers["next_throw"].items():
        assert p == g.next_landing(o).get(i, 0)


def test_moolah_next_roll_heat_map_sums_to_one_and_names_bills():
    g = drive("moolah", "turn", when=lambda g: not g.missed[g.decision.player])
    c = coach(g)
    assert sum(c.heatmap.values()) == 1
    seat = g.decision.player
    for b in c.numbers.get("bills", {}).values():
        assert b["loan_shark"] == am.loan_shark_cost(b["amount"], g.cash(seat))


def test_money_run_reach_and_heat_map():
    g = drive("money_run", "action", when=lambda g: g.pawn_paths(g.decision.player))
    c = coach(g)
    seat = g.decision.player
    one = {g.xy(s) for s in g.pawn_paths(seat)}
    assert one <= money_run_reach(g, seat, 1) | one and money_run_reach(g, seat, 1) == one
    assert set(c.heatmap) == money_run_reach(g, seat, g.actions_left)
    assert one <= set(c.heatmap)
    refill = c.numbers["refill"]
    bag = Counter(g.bag)
    assert refill == {r: Fraction(n, len(g.bag)) for r, n in sorted(bag.items())}


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
    from moneynb.ui.boards.easy_money import KIND_COLOR

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
    # the heat map tints the spaces it names (a disc over them hid their names: issue 30)
    own = [KIND_COLOR[sp["kind"]] for sp in v.game.board]
    tinted = lambda: [i for i, c in enumerate(v.board.figure.data[0].marker.color) if c != own[i]]  # noqa: E731
    assert tinted() == sorted(i for i, p in c.heatmap.items() if p > 0)
    assert not [s for s in v.board.figure.layout.shapes if s.name == "moneynb-heat"]
    toggle.value = False
    assert panel.layout.display == "none"
    assert not tinted()
