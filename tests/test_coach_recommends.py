"""The Coach recommends, in a player's words (issue 30, section 5).

At every decision with options the Coach says first one line: the best option by the engine's
numbers and by how much; then at most three short lines why, with none of the words of
:data:`moneynb.coach.wording.JARGON`; the numbers themselves behind "Details". Seeded greedy-bot
games of each game stop at decisions with options: the recommended option is legal, it is the
best by the stated measure (dollars on average recomputed here from the engine's
``value_option``; other measures from the numbers the harness checks), and the margin the
headline states is the engine's.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import moneynb
from moneynb.coach import coach
from moneynb.coach.wording import JARGON, cents, chance, dollars, money
from moneynb.core.errors import IllegalAction
from moneynb.core.outcomes import value_option

GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]
#: the measure of a plain "dollars on average" ranking (the default of Coaching.recommend)
DOLLARS = "dollars for you on average"
#: decisions whose ranking the harness checks only through the valued check (a stock's
#: smallest stake after the stock; Take A Pal valued with the pal's draws limited)
NOT_RECOMPUTED = {"wall_street", "take_pal"}


def _has_options(d) -> bool:
    return len(d.options) + (d.low is not None) > 1


def coached(name: str, want: int, seeds=range(0, 12), limit: int = 600):
    """Yield ``(game, coaching)`` at up to ``want`` decisions with options of seeded greedy-bot
    games of ``name`` (3 players) where the Coach ranks the options, and every coaching met
    on the way (``best`` or not) to :func:`_plain` through ``seen``."""
    found = 0
    for s in seeds:  # default games (a chance stream per kind, issue 39)
        g = moneynb.new_game(name, players=["A", "B", "C"], seed=s)
        bots = [moneynb.make_bot("greedy", seed=100 * s + i) for i in range(3)]
        tags: dict = {}
        for _ in range(limit):
            if g.over:
                break
            d = g.decision
            if _has_options(d) and tags.get(d.tag, 0) < 2:
                c = coach(g)
                if c is not None:
                    tags[d.tag] = tags.get(d.tag, 0) + 1
                    yield g, c
                    found += c.best is not None
                    if found >= want:
                        return
            g.apply(bots[d.player].choose(g))


def _legal(g, action) -> bool:
    d = g.decision
    if action not in d.options and not (
        d.low is not None and isinstance(action, int) and d.low <= action <= d.high
    ):
        return False
    try:
        g.copy().apply(action)
    except IllegalAction:
        return False
    return True


def _label_named(g, c) -> bool:
    """The headline names the recommended option (its label, or its amount)."""
    d, best = g.decision, c.best
    names = {d.label(best), str(best), dollars(best) if isinstance(best, int) else None}
    if isinstance(best, tuple) and len(best) == 3:  # Money Run: a square, as (x, y)
        names.add(f"({best[1]}, {best[2]})")
    return any(
        f"Best: {n}" in c.headline or f"A tie: {n}" in c.headline or f"{n} " in c.headline
        for n in names
        if n
    )


@pytest.mark.parametrize("name", GAMES)
def test_first_line_is_the_engines_best_option_and_margin(name):
    ranked = recomputed = 0
    tags: set = set()
    for g, c in coached(name, want=6):
        before = g.to_json()
        d = g.decision
        assert c.headline and "\n" not in c.headline, (name, d.tag, c.title)
        if c.best is None:
            continue
        ranked += 1
        r = c.ranking
        if len(r) > 1 and r[0][1] == r[1][1]:  # a tie is called a tie (issue 38, case 3)
            assert c.headline.startswith("A tie: "), c.headline
        elif d.suggested is not None and c.best != d.suggested:
            # against the game's own recommendation: the first line starts from it (issue 38)
            assert c.headline.startswith("The rules suggest"), c.headline
        else:
            assert c.headline.startswith("Best: "), c.headline
        if d.tag == "charge":  # credit says what it costs, after the best option (issue 38)
            assert "bill" in c.headline and "interest" in c.headline, c.headline
        assert _legal(g, c.best), (name, d.tag, c.best)
        assert _label_named(g, c), (c.best, c.headline)
        values = dict(c.ranking)
        assert c.best == c.ranking[0][0] and all(values[c.best] >= v for v in values.values())
        if c.measure == DOLLARS and d.tag not in NOT_RECOMPUTED:
            follow = {ch.action: ch.follow_tags for ch in c.checks if not ch.pre}
            engine = {
                o: value_option(g, o, follow_tags=follow.get(o, ())).mean for o in values
            }  # the engine's own numbers, worked out again here
            assert engine == values, (name, d.tag)
            assert max(engine.values()) == engine[c.best]
            recomputed += 1
        elif "play_outs" in c.numbers:  # ranked by seeded play-outs: worked out again here
            from test_coach_play_outs import check_margin

            check_margin(g, c, name)
            recomputed += 1
        elif name == "easy_money" and "holdings" in c.numbers:  # build / mortgage / lift
            rows = c.numbers["holdings"]
            for o, v in values.items():
                if o in ("end", "roll"):
                    assert v == 0
                    continue
                r = rows[o]
                assert (
                    v
                    == r["by_end"]
                    == (r["cash"] + Fraction(r["rent_ahead_change"]) + r["score_change"])
                )
                assert r["cash"] == value_option(g, o).mean  # the engine's own move
            recomputed += 1
        elif name == "easy_money":  # a holding's worth to you by the end (estimate), or $0
            take = [o for o in values if o not in ("pass", "decline", "refuse")]
            assert values[take[0]] == c.numbers["value"] and sorted(values.values())[0] in (
                0,
                c.numbers["value"],
            )
            n = c.numbers
            assert n["value"] == n["rent_ahead"] + n["holding_value"] - n["price"]
            recomputed += 1
        elif name == "money_run":  # fewest squares to your goal, then the others kept away
            rows = c.numbers["squares"]
            for o, v in values.items():
                assert v == (-rows[o]["you"], min(rows[o]["opponents"].values(), default=0))
            h = g.copy()
            h.apply(c.best)
            assert rows[c.best]["you"] <= h.distance(d.player)  # the engine's own distance
            recomputed += 1
        tags.add(d.tag)
        if len(c.ranking) > 1 and c.measure == DOLLARS:
            diff = c.ranking[0][1] - c.ranking[1][1]
            m = re.search(r" — (-?\$[\d,.]+) more", c.headline)
            if diff:
                assert m and m.group(1) in (money(diff), cents(diff), dollars(diff)), c.headline
            else:  # a tie is called a tie, never "Best" (issue 38, case 3)
                assert c.headline.startswith("A tie: ") and "the same" in c.headline
        assert g.to_json() == before
    assert ranked >= 3, f"{name}: the Coach ranked only {ranked} decisions"
    assert recomputed >= 1, (name, tags)
    print(name, "ranked at", sorted(tags))


@pytest.mark.parametrize("name", GAMES)
def test_the_lines_before_details_are_plain_words(name):
    seen: set = set()
    for g, c in coached(name, want=30, seeds=range(4)):
        first = c.summary()
        seen.add(g.decision.tag)
        assert first and len(c.why) <= 3, (name, g.decision.tag, first)
        bad = [(j, line) for line in first for j in JARGON if j in line]
        assert not bad, f"{name} {g.decision.tag}: {bad}"
    print(name, "plain at", sorted(seen))
    assert len(seen) >= 2


#: seeded greedy-bot games (players A, B, C; bot seeds 100 x seed + seat) that meet, within
#: ``steps`` actions, a decision the Coach once left unranked: Moolah's turn with an Advantage
#: card in hand (play it or roll), Easy Money's purchase with too little cash (no "buy"
#: option: mortgage, offer a holding for sale, or decline)
UNRANKED_ONCE = {
    "moolah": (1, 40, lambda d: d.tag == "turn" and len(d.options) > 1),
    "easy_money": (1, 135, lambda d: d.tag == "buy" and "buy" not in d.options),
}


@pytest.mark.parametrize("name", list(UNRANKED_ONCE))
def test_every_choice_on_the_way_gets_a_first_line_that_ranks(name):
    """Every decision with options in a stretch of a seeded game gets a ranking and a first
    line that says "Best: ...", "A tie: ..." or "No clear best: ...", the decisions the Coach once left
    unranked among them."""
    seed, steps, special = UNRANKED_ONCE[name]
    # pinned to one random stream (issue 39): it replays the stretch of the one-stream game
    # where the Coach once left these decisions unranked, as found
    g = moneynb.new_game(name, players=["A", "B", "C"], seed=seed, chance_streams=1)
    bots = [moneynb.make_bot("greedy", seed=100 * seed + i) for i in range(3)]
    met, unranked = 0, []
    for _ in range(steps):
        if g.over:
            break
        d = g.decision
        if _has_options(d):
            c = coach(g)
            if (
                c is None
                or not c.ranking
                or not c.headline.startswith(("Best: ", "No clear", "A tie: ", "The rules suggest"))
            ):
                unranked.append((d.tag, None if c is None else c.headline))
            elif special(d):
                met += 1
                assert {o for o, _ in c.ranking} <= set(d.options), c.ranking
        g.apply(bots[d.player].choose(g))
    assert not unranked, unranked
    assert met, f"{name}: the stretch met no decision of the kind once left unranked"


def test_chance_words_never_say_zero_for_a_chance():
    assert chance(0) == "no chance" and chance(1) == "certain"
    assert chance(Fraction(1, 1000)) == "under 1%" and chance(Fraction(999, 1000)) == "over 99%"
    assert chance(Fraction(1, 3)) == "33%"


def test_money_card_destination_says_which_and_why_in_few_lines():
    """The issue's case: a destination choice listed six bullets with "keys 1.00" and "0.0%"
    for the city that gives a key; now one line says which, then at most three why."""
    from test_coach import drive

    g = drive(
        "money_card",
        "move",
        when=lambda g: any(
            o in g.keys_wanted(g.decision.player) for o in g.decision.options
        ),  # a Key City whose key is missing is in reach
    )
    c = coach(g)
    assert c.best in g.decision.options and len(c.summary()) <= 4
    key_city = next(o for o in g.decision.options if o in g.keys_wanted(g.decision.player))
    assert c.numbers[key_city]["keys"] >= 1 and c.numbers[c.best]["keys"] >= 1
    assert "gives you a key" in c.headline
    values = dict(c.ranking)
    tied = [o for o in values if values[o] == values[c.best]]
    if len(tied) > 1:  # a real tie (equal values) is called a tie, naming every tied place
        assert c.headline.startswith("A tie: "), c.headline
        assert all(g.decision.label(o) in c.headline for o in tied), (tied, c.headline)
    else:  # otherwise no tie: the best place is named first
        assert c.headline.startswith(f"Best: {g.decision.label(c.best)} — "), c.headline
    assert not re.search(r"keys \d\.\d\d", c.text())  # no "keys 1.00", details included


def test_black_jack_raise_recommends_with_the_margin():
    from test_coach import drive

    g = drive("moolah", "casino_raise")
    c = coach(g)
    ev = {"stay": c.numbers["ev_stay"], g.decision.high: c.numbers["ev_raise"]}
    best = max(ev, key=lambda o: ev[o])
    assert c.best == best and c.headline.startswith(
        "Best: Stay" if best == "stay" else "Best: Raise"
    )
    other = next(o for o in ev if o != best)
    if ev[best] != ev[other]:
        assert money(ev[best] - ev[other]) in c.headline
    assert any("beats the House card" in w for w in c.why)


def test_view_shows_the_recommendation_first_and_numbers_behind_details():
    from moneynb.ui import play
    from moneynb.ui.view import coaching_html

    v = play("moolah", players=["You", "bot:greedy"], seed=1, autosave=False)
    me = moneynb.make_bot("greedy", seed=1)
    for _ in range(300):
        if v.game.over or (v.game.decision.tag == "fork" and v.human_turn):
            break
        if v.human_turn:
            v.submit(me.choose(v.game))
    assert v.game.decision.tag == "fork"
    v.find("moneynb-coach-toggle")[0].value = True
    html_text = v.find("moneynb-coach")[0].value
    c = coach(v.game)
    assert html_text == coaching_html(c)
    best_at = html_text.index("moneynb-coach-best")
    details_at = html_text.index("<details class='moneynb-coach-details'>")
    assert best_at < details_at and "<summary" in html_text and ">Details</summary>" in html_text
    assert html_text.index(c.headline.replace("'", "&#x27;")) < details_at
    for line in c.lines:  # every number is still there, behind the toggle
        assert html_text.index(line.replace("'", "&#x27;")[:30]) > details_at


def test_moolahs_first_withdrawal_says_how_its_best_compares_with_the_rules_suggestion():
    """A newcomer's finding: the prompt says "$50,000 recommended" (the rules' suggestion)
    while the Coach's first line names another amount, with nothing to join the two. The first
    reason says how the simulated games' best compares with the suggestion (from the game's
    own data)."""
    g = moneynb.new_game("moolah", players=["A", "B", "C"], seed=0)
    assert g.decision.tag == "first_withdrawal"
    c = coach(g)
    suggested = g.decision.suggested
    assert c.best is not None and c.headline.startswith(
        f"The rules suggest withdrawing {dollars(suggested)}"
    ), c.headline
    word = "Less" if c.best < suggested else "More" if c.best > suggested else None
    assert word is None or c.why[0].startswith(word), (c.best, c.why[0])
    assert len(c.why) <= 3
