"""The Coach speaks as a teacher (issue 38, case 3), checked over its first line.

For each game, seeded games of two greedy bots are walked and the Coach asked at their
decisions (every decision it has something to say about, up to ``size(200, SHARE)`` per game:
all 200 with ``MONEYNB_LONG_RUNS=1``, a bounded share by default). For each, what a player
reads first (:meth:`Coaching.summary`: the first line and the lines why):

* no "Best" on a tie: when the Coach's ranking has its first two values equal, the first line
  does not start with "Best" (it says "A tie" or "No clear best");
* no credit choice without its cost: a first line naming credit (Charge It, a mortgage, a
  loan, borrowing) says what it costs (a bill, interest, paying back);
* no grid coordinates ("(4, 1)") in what is read first;
* no aside said twice in the first line ("Borrow $1 (paid back ...) ... than Borrow $3 (paid
  back ...)");
* Moolah's first withdrawal: the game's own recommendation is named in what is read first.

And the cases the issue names, each found in the walk: Money Card's Charge It says that in the
game a charge is never billed and that a real card's bill comes, with interest when not paid
in full; Easy Money's mortgage in a debt does not read "+$170 ... cash -$255".
"""

from __future__ import annotations

import re

import pytest
from long_runs import size

import moneynb
from moneynb.bots import make_bot
from moneynb.coach import coach
from moneynb.coach.wording import dollars

GAMES = ("moolah", "easy_money", "money_card", "money_moves", "money_run")
#: decisions per game by default (the issue's 200 with MONEYNB_LONG_RUNS=1); Money Run's
#: and Money Moves' Coach play games out (about 0.3 s a decision): fewer of theirs
SHARE = {"money_run": 8, "money_moves": 12}
DEFAULT_SHARE = 20
COORDS = re.compile(r"\(\d+, ?\d+\)")
#: most words in the Coach's first line (one line of plain words; the numbers behind Details)
FIRST_LINE_WORDS = 60
#: a best (or "did better") whose lead is under $1: "— $0.75 more", "did better: about $0.39"
SUB_DOLLAR_BEST = re.compile(r"(^Best: .*? — |did better: )(about )?\$0\.\d\d\b")
CREDIT = re.compile(r"Charge It|[Mm]ortgage [A-Z]|[Bb]orrow|\bloan\b|line of credit")
COST = re.compile(r"bill|interest|pay(s|ing)? (it )?back|paid back|to lift|costs")


def coached(name: str, n: int):
    """``(game, decision, coaching)`` for the first ``n`` decisions of seeded greedy games the
    Coach has something to say about (every second decision, so a walk reaches further)."""
    out, seed = [], 0
    while len(out) < n and seed < 200:
        g = moneynb.new_game(name, players=["Ann", "Bob"], seed=seed)
        bots = [make_bot("greedy", seed=seed + i) for i in range(2)]
        seed += 1
        k = 0
        while not g.over and k < 120 and len(out) < n:
            if k % 2 == 0 or g.decision.tag in ("charge", "first_withdrawal"):
                c = coach(g)
                if c is not None and c.summary():
                    out.append((g.copy(), g.decision, c))
            g.apply(bots[g.decision.player].choose(g))
            k += 1
    return out


def problems(name, d, c) -> list[str]:
    first = c.summary()
    head = first[0]
    out = []
    r = c.ranking
    if r and len(r) > 1 and r[0][1] == r[1][1] and head.startswith("Best"):
        out.append(f"a tie called best: {head!r} (ranking {r[:2]})")
    if CREDIT.search(head) and not COST.search(head):
        out.append(f"credit without its cost: {head!r}")
    if SUB_DOLLAR_BEST.search(head):  # the tester of stop 49: "Best: ... — $0.45 more"
        out.append(f"a lead under $1 called best: {head!r}")
    asides = re.findall(r"\([^()]{8,}\)", head)
    if len(asides) != len(set(asides)):  # the tester of stop 48: a loan's cost said twice
        out.append(f"an aside said twice: {head!r}")
    if len(head.split()) > FIRST_LINE_WORDS:  # the tester's ~90-word "No clear best: ..."
        out.append(f"a first line of {len(head.split())} words: {head[:120]!r}")
    for line in first:
        if COORDS.search(line):
            out.append(f"grid coordinates: {line!r}")
    if d.tag == "first_withdrawal" and d.suggested is not None:
        said = f"${d.suggested:,}"
        if not any(said in line for line in first):
            out.append(f"the game's own {said} not named: {first}")
    if d.suggested is not None:
        # the Coach agrees with the game's own recommendation or says why not (issue 38): its
        # first line names it, and "Best" is never another choice said against it unnamed
        if f"${d.suggested:,}" not in head:
            out.append(f"first line without the game's own ${d.suggested:,}: {head!r}")
        if head.startswith("Best: ") and c.best != d.suggested:
            out.append(f"a best against the game's recommendation: {head!r}")
    return out


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_first_lines_plain(name):
    n = size(200, SHARE.get(name, DEFAULT_SHARE))
    seen = coached(name, n)
    assert len(seen) == n, f"{name}: only {len(seen)} coached decisions"
    bad = [f"{d.tag}: {p}" for _g, d, c in seen for p in problems(name, d, c)]
    assert not bad, "\n".join(bad[:20])


def _find(name, tag, pick=lambda g: True, seeds=40):
    for seed in range(seeds):
        g = moneynb.new_game(name, players=["Ann", "Bob"], seed=seed)
        bots = [make_bot("greedy", seed=seed + i) for i in range(2)]
        while not g.over and len(g.actions) < 400:
            if g.decision.tag == tag and pick(g):
                return g
            g.apply(bots[g.decision.player].choose(g))
    raise AssertionError(f"no {tag} decision found in {name}")


def test_charge_it_says_what_credit_costs():
    g = _find("money_card", "charge")
    c = coach(g)
    first = c.summary()
    assert "never billed" in first[0] and "bill" in first[0] and "interest" in first[0], first
    # the engine's best option and its margin come first, the credit's cost after (issue 38)
    assert first[0].startswith((f"Best: {g.decision.label(c.best)} — ", "A tie: ")), first
    assert first[0].index("—" if first[0].startswith("Best") else "tie") < first[0].index("bill")
    assert any("interest" in line and "paid in full" in line for line in first[1:]), first


@pytest.mark.parametrize("players", [["Ann", "Bob"], ["Ann", "Bob", "Cy"]])
def test_moolah_first_withdrawal_starts_from_the_rules_amount(players):
    """The tester's finding (replay of a three-player game): the step said "$50,000
    recommended" and the Coach under it "Best: Withdraw $0 — about $17,500 more ... (53
    simulated games; give or take $14,667)". With three players the play-outs were fewer (the
    action budget is shared by more seats: 53, not 77) and Withdraw $0 beat $50,000 by just
    over the give-or-take; with two players no amount did clearly better (since issue 38's
    steady verdicts both say Withdraw $0 did better: tests/test_coach_steady.py). Either way the
    first line starts from the game's own recommendation and says how the simulated games
    compare with it (issue 38)."""
    g = moneynb.new_game("moolah", players=players, seed=0)
    d = g.decision
    assert d.tag == "first_withdrawal" and d.suggested
    c = coach(g)
    assert not problems("moolah", d, c), problems("moolah", d, c)
    head = c.summary()[0]
    assert head.startswith(f"The rules suggest withdrawing ${d.suggested:,}"), head
    if c.best is not None and c.best != d.suggested:
        margin = c.numbers["against_suggested"]  # its margin is against the rules' amount
        assert margin > c.numbers["against_suggested_give_or_take"], c.numbers
        assert "did better" in head and f"Withdraw ${c.best:,}" in head, head
    else:
        assert "no choice did clearly better" in head, head


def test_moolah_first_withdrawal_names_the_rules_amount():
    g = _find("moolah", "first_withdrawal")
    c = coach(g)
    assert any("$50,000" in line for line in c.summary()), c.summary()
    assert g.decision.suggested in [o for o, _v in c.ranking], c.ranking  # weighed too


def test_easy_money_mortgage_in_a_debt_reads_plainly():
    """Seed 2, action 224 (greedy bots 2 and 3): Ann owes more than her cash and may mortgage;
    a mortgage's loan goes straight to the debt, so her cash falls although the Bank lends."""
    # pinned to one random stream (issue 39): it replays the recorded position (seed 2, action
    # 224) of the one-stream game
    g = moneynb.new_game("easy_money", players=["Ann", "Bob"], seed=2, chance_streams=1)
    bots = [make_bot("greedy", seed=2 + i) for i in range(2)]
    while len(g.actions) < 224:
        g.apply(bots[g.decision.player].choose(g))
    assert g.decision.tag == "debt", g.decision
    lines = [line for line in coach(g).text().splitlines() if line.startswith("Mortgage ")]
    falls = [line for line in lines if re.search(r"cash( changes by)? -\$", line)]
    assert falls, lines
    for line in falls:
        assert "the Bank lends you" in line and "you owe is paid" in line, line
    for line in coach(g).summary():
        if "Mortgage" in line:
            assert "to pay back" in line or "lends you" in line, line


def test_a_tie_of_many_long_moves_is_one_short_line_with_the_moves_behind_details():
    """The tester's Money Run Coach: "No clear best: Place the large coin from table slot 1 of
    5 to the square 1 above your pawn, Place the small coin ... come out the same in all 56
    simulated games" (about 90 words, five moves). The first line says how many came out
    alike; which ones is behind Details (issue 38: one line of plain words first)."""
    from moneynb.coach.rollouts import PlayOuts, rank
    from moneynb.coach.valuation import Coaching

    labels = {k: f"Place the large coin from table slot {k} of 5 to the square {k} above your pawn"
              for k in range(1, 6)}  # fmt: skip
    po = PlayOuts(moves={k: (k,) for k in labels}, samples={k: [1, 2, 3] for k in labels}, n=3,
                  seed=0, turns=2)  # fmt: skip
    c = rank(Coaching("Where does the coin go?", []), po, labels, fmt=str)
    assert c.best is None and c.headline.startswith("No clear best: 5 choices"), c.headline
    assert len(c.headline.split()) <= 20, c.headline
    assert all(label in c.text() for label in labels.values())  # behind Details


def test_a_loans_cost_is_said_once_in_the_first_line():
    """Money Moves' loan: every Borrow choice carries its cost ("paid back from what you win
    next"); a line comparing several says it once (the tester of stop 48: "Best: Borrow $1
    (paid back ...) — ... than Borrow $3 (paid back ...)"): with the best, or after the last
    name of a tie ("Borrow $1 and Borrow $3 (paid back ...)"). Since stop 49 a lead under $1
    is no best (wording.MIN_LEAD), and the loans' leads are under $1 on these seeds: the
    tie's lines are the ones met, the first and the "Come out alike" line behind it."""
    lines = []
    for seed in range(40):
        g = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=seed)
        bot = make_bot("greedy", seed=1)
        while not g.over and len(g.actions) < 200 and g.decision.tag != "borrow":
            g.apply(bot.choose(g))
        if not g.over and g.decision.tag == "borrow":
            c = coach(g)
            lines += [c.summary()[0], *(x for x in c.lines if x.startswith("Come out alike"))]
        if sum("Borrow" in x for x in lines) >= 3:
            break
    named = [x for x in lines if "Borrow" in x]
    assert named, f"no line naming two loans in 40 seeded games: {lines[:4]}"
    for line in named:
        assert line.count("paid back") == 1, line
        assert re.search(COST, line), line


def test_a_slow_payback_says_all_the_property_brings_by_the_end():
    """The tester of stop 48: "Best: Bid $122 ... more than the 9 rounds left: its worth is the
    $90 it scores at the end" read as a contradiction (why bid $122 for $90?): the rent the
    model counts for the rounds left was not said. The first line now gives both parts of what
    the property brings by the end, the numbers the estimate adds up."""
    seen = 0
    for seed in range(60):
        g = moneynb.new_game("easy_money", players=["Ann", "Bob"], seed=seed)
        bots = [make_bot("greedy", seed=seed + i) for i in range(2)]
        while not g.over and len(g.actions) < 400 and seen < 3:
            if g.decision.tag in ("buy", "bid"):
                c = coach(g)
                head = c.summary()[0]
                if "rounds left" in head:
                    n = c.numbers
                    assert f"about {dollars(n['rent_ahead'])} in rent" in head, head
                    if n["holding_value"]:
                        assert f"{dollars(n['holding_value'])} it scores" in head, head
                    assert "its worth is" not in head, head
                    seen += 1
            g.apply(bots[g.decision.player].choose(g))
        if seen >= 3:
            break
    assert seen, "no buy or bid with a payback longer than the game was found"


#: positions where the Coach called a lead under $1 best (the tester of stop 49): game, seed,
#: actions (greedy bots seeded ``seed`` and ``seed + 1`` for "You" and "Greedy bot 1")
SUB_DOLLAR_POSITIONS = [("easy_money", 101, 238), ("easy_money", 102, 158),
                        ("money_moves", 125, 12), ("money_moves", 126, 10)]  # fmt: skip


@pytest.mark.parametrize(("name", "seed", "at"), SUB_DOLLAR_POSITIONS)
def test_a_lead_under_a_dollar_is_no_best(name, seed, at):
    """The tester of stop 49: "Best: Buy for $60 — $0.75 more for you by the end of the game
    (a guess from the dice)", "Best: Borrow $1 ... about $0.40 more ... (give or take
    $0.31)". The games count whole dollars: a lead under $1 (wording.MIN_LEAD) reads "A tie:
    ... within $1" or "No clear best", never "Best"; the ranking stays behind Details."""
    g = moneynb.new_game(name, players=["You", "Greedy bot 1"], seed=seed)
    bots = [make_bot("greedy", seed=seed), make_bot("greedy", seed=seed + 1)]
    while len(g.actions) < at:
        g.apply(bots[g.decision.player].choose(g))
    c = coach(g)
    head = c.summary()[0]
    assert not SUB_DOLLAR_BEST.search(head), head
    assert head.startswith(("A tie: ", "No clear best: ")) and c.best is None, head
    assert "within $1" in head or "No clear best" in head, head
    assert len(c.ranking) > 1


@pytest.mark.parametrize(("seed", "at"), [(15, 66), (48, 219), (47, 150), (2, 63)])
def test_money_cards_places_compare_in_whole_dollars_and_by_other_names(seed, at):
    """The tester of stop 49 (second): Money Card's "on arrival" lines skipped the $1 rule
    ("Best: France, between Paris and Lyon (4 moves) — $0.05 more on arrival than Geneva"),
    and named the best place against itself ("Best: Italy, between Rome and Milan — the same
    on arrival as Italy, between Rome and Milan": two squares of one stretch share a label).
    One greedy bot plays both seats (the tester's set-up)."""
    g = moneynb.new_game("money_card", players=["You", "Greedy bot 1"], seed=seed)
    bot = make_bot("greedy", seed=seed)
    while len(g.actions) < at:
        g.apply(bot.choose(g))
    c = coach(g)
    head = c.summary()[0]
    assert not SUB_DOLLAR_BEST.search(head), head
    m = re.match(r"Best: (.*?) — .*? (?:as|than) (.*?)(?:, and|\.$)", head)
    assert not (m and m.group(1) == m.group(2)), head
    if head.startswith("A tie: "):
        assert c.best is None, head
