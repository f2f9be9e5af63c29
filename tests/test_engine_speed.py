"""The engine's speed devices change nothing a player, a view or a bot can see.

Lazy decision parts (``more=``, labels as a function), lazy event text, remembered tables and
the whole-number Black Jack value are checked against the plain computation here; the golden
games (tests/test_golden.py) check whole games.
"""

from __future__ import annotations

import random

import pytest

import moneynb
from moneynb.core import Decision, Event
from moneynb.games.moolah.rules import blackjack_table, blackjack_value


def _easy_money_at_turn(**options):
    g = moneynb.new_game("easy_money", players=["Ann", "Bob", "Cy"], seed=3, **options)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(3)]
    while g.decision.tag != "turn" or g.turns < 30:
        g.apply(bots[g.decision.player].choose(g))
    return g, bots


def test_a_lazy_decision_read_after_the_game_moved_on_is_what_it_was():
    g, bots = _easy_money_at_turn()
    d = g.decision
    twin = moneynb.load_game(g.to_json()).decision  # read while pending
    expected_options, expected_labels = twin.options, dict(twin.labels)
    for _ in range(5):  # move on without reading d's lazy parts
        g.apply(bots[g.decision.player].choose(g))
    assert d is not g.decision
    assert d.options == expected_options
    assert d.labels == expected_labels
    assert "roll" in d.options and d.label("roll") == "Throw the dice"


def test_a_lazy_decision_survives_undo():
    g, bots = _easy_money_at_turn(undo="practice")  # safe undo would refuse: a die was seen
    d = g.decision
    g.apply(bots[d.player].choose(g))
    g.undo()  # a new game object state: d is no longer pending
    assert d is not g.decision
    assert d.options == g.decision.options
    assert d.labels == g.decision.labels


def test_copy_reads_lazy_parts_from_the_original():
    g, _ = _easy_money_at_turn()
    c = g.copy()
    assert c.decision == g.decision and c.decision is not g.decision
    assert c.decision.labels == g.decision.labels


def test_decision_more_and_lazy_labels():
    calls = []

    def more():
        calls.append(1)
        return ["b", "c"]

    d = Decision(0, "choose", "Pick", ["a"], more=more, labels=lambda: {"b": "Bee"})
    assert d.first_option == "a" and not calls  # the given options need no call
    assert d.allows("a") and not calls
    assert d.allows("c") and calls == [1]
    assert not d.allows("z")
    assert d.options == ("a", "b", "c") and calls == [1]  # computed once
    assert d.label("b") == "Bee" and d.label("a") == "a"
    with pytest.raises(AttributeError):
        d.player = 1
    with pytest.raises(ValueError, match="at least one option"):
        _ = Decision(0, "choose", "Pick", [], more=lambda: []).options


def test_event_text_built_when_read():
    calls = []

    def text():
        calls.append(1)
        return "Ann paid $5"

    e = Event("paid", text, {"amount": 5})
    assert not calls
    assert e.text == "Ann paid $5" and e.text == "Ann paid $5" and calls == [1]
    assert e == Event("paid", "Ann paid $5")


@pytest.mark.parametrize("seed", range(5))
def test_blackjack_value_is_the_tables_sum(seed):
    r = random.Random(seed)
    for _ in range(200):
        counts = {c: r.randint(1, 4) for c in r.sample(range(10, 31), r.randint(1, 8))}
        if sum(counts.values()) < 2:
            continue
        rows = blackjack_table(counts)
        for dbl in (True, False):
            ref = sum(
                x["chance"] * (max(x["stay"], x["double"]) if dbl else x["stay"]) for x in rows
            )
            assert blackjack_value(counts, dbl) == ref


def test_blackjack_value_refuses_a_pile_too_small():
    with pytest.raises(ValueError):
        blackjack_value({21: 1})
    with pytest.raises(ValueError):
        blackjack_value({21: 2, 20: 0})


_DRAWS = [
    ("random", ()),
    ("randrange", (7,)),
    ("randint", (1, 6)),
    ("randint", (-3, 2**70)),
    ("randrange", (1,)),
    ("randrange", (3, 90, 4)),
    ("randrange", (-5, 5)),
    ("randrange", (2**80,)),
    ("choice", ([1, 2, 3],)),
    ("getrandbits", (64,)),
    ("sample", (range(50), 5)),
    ("gauss", (0, 1)),
    ("gauss", (0, 1)),  # the second gauss reads its cached value: still a change of state
    ("uniform", (0, 3)),
    ("choices", (range(9),)),
    ("shuffle", (None,)),
]


@pytest.mark.parametrize("seed", [0, 5, 2**40])
def test_game_random_draws_like_random_and_counts_every_change(seed):
    """The game's generator (GameRandom) gives random.Random's draws, and its ``draws``
    count moves exactly when its state does (the engine's cheap chance fingerprint)."""
    from moneynb.core.chance import GameRandom

    plain, counted = random.Random(seed), GameRandom(seed)
    for name, args in _DRAWS * 3:
        if name == "shuffle":
            xs, ys = list(range(30)), list(range(30))
            plain.shuffle(xs)
            before_state, before = counted.getstate(), counted.draws
            counted.shuffle(ys)
            assert xs == ys
        else:
            before_state, before = counted.getstate(), counted.draws
            assert getattr(plain, name)(*args) == getattr(counted, name)(*args), name
        assert (counted.draws != before) == (counted.getstate() != before_state), name
    same = counted.draws
    counted.getrandbits(0)  # draws nothing
    counted.setstate(counted.getstate())  # the same state
    assert counted.draws == same
    counted.setstate(plain.getstate())
    counted.seed(seed + 1)
    assert counted.draws == same + 1  # setstate to the state it had counts nothing; seed does
    assert type(moneynb.new_game("money_run", ["A", "B"], seed=1).rng) is GameRandom


@pytest.mark.parametrize("game", ["easy_money", "moolah", "money_card", "money_moves", "money_run"])
def test_chance_seen_by_draw_count_equals_chance_seen_by_full_state(game):
    """``chance_seen`` (what a safe undo may take back) from GameRandom's draw count is the
    same, action by action, as from comparing the generator's whole state (a plain
    random.Random, the engine's other path)."""
    seats = 2 if game == "money_run" else 3
    counted = moneynb.new_game(game, players=["Ann", "Bob", "Cy"][:seats], seed=8)
    plain = moneynb.new_game(game, players=["Ann", "Bob", "Cy"][:seats], seed=8)
    plain.rng = random.Random()
    plain.rng.setstate(counted.rng.getstate())
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(seats)]
    seen = []
    for _ in range(300):
        if counted.over:
            break
        action = bots[counted.decision.player].choose(counted)
        counted.apply(action)
        plain.apply(action)
        assert counted.chance_seen == plain.chance_seen, len(counted.actions)
        seen.append(counted.chance_seen)
    assert 0 < seen[-1] and len(set(seen)) > 3  # chance was seen, more than once
    assert any(a == b for a, b in zip(seen[:-1], seen[1:], strict=True))  # some drew nothing


def test_counted_list_counts_item_assignments_and_is_a_list():
    from moneynb.core.tracked import CountedList

    xs = CountedList([0, 0, 0])
    assert xs == [0, 0, 0] and xs.changes == 0
    xs[1] = 5
    xs[1] += 1
    assert xs == [0, 6, 0] and xs.changes == 2
    import copy

    ys = copy.deepcopy(xs)
    assert ys == xs and type(ys) is CountedList and ys.changes == 2


def test_easy_money_profiles_table_follows_owner_and_house_changes():
    """The remembered profiles table equals a fresh one after every action of a game (and
    after a test sets an owner or a house count by hand)."""
    g, bots = _easy_money_at_turn()
    for _ in range(200):
        if g.over:
            break
        assert g._all_profiles() == _fresh_profiles(g)
        g.apply(bots[g.decision.player].choose(g))
    spare = next(i for i in g.ownable if g.owner[i] is None and g.is_prop[i])
    g.owner[spare], g.houses[spare] = 0, 2
    assert g._all_profiles() == _fresh_profiles(g)


def _fresh_profiles(g):
    g.__dict__.pop("_cache_profiles", None)
    return g._all_profiles()


def test_easy_money_more_has_agrees_with_the_listed_turn_options():
    """``more_has`` (apply's one-action look-up) answers exactly ``action in options``, at
    every turn and post decision of seeded games, for every option a holding could give
    and for actions that are none of them."""
    checked = 0
    for seed in range(4):
        g = moneynb.new_game("easy_money", players=["Ann", "Bob", "Cy"], seed=seed)
        bots = [moneynb.make_bot("greedy", seed=10 * seed + k) for k in range(3)]
        while not g.over and g.turns < 60:
            d = g.decision
            if d.tag in ("turn", "post"):
                # ask before the options are listed (the look-up), then list them
                probes = [f"{v}:{i}" for v in ("build", "mortgage", "lift") for i in g.ownable]
                probes += ["offer", "build:999", "build:x", "lift:", 3, ("build", 3), None]
                answers = {repr(a): d.allows(a) for a in probes}
                assert d._more_has is not None  # still not listed
                listed = d.options
                for a in probes:
                    assert answers[repr(a)] == (a in listed and type(a) is str), (seed, a)
                checked += 1
            g.apply(bots[d.player].choose(g))
    assert checked > 100


def test_more_has_is_used_only_while_the_decision_is_pending():
    g, bots = _easy_money_at_turn(undo="practice")
    d = g.decision
    twin = moneynb.load_game(g.to_json()).decision
    g.apply(bots[d.player].choose(g))  # d is no longer pending
    for a in ("roll", "offer", *(f"mortgage:{i}" for i in g.ownable)):
        assert d.allows(a) == (a in twin.options)  # read on a replay up to d


def test_decision_allows_keeps_types_apart_among_equal_options():
    d = Decision(0, "choose", "Pick", [(True, 2), (1, 2), "a"])
    assert d.allows((1, 2)) and d.allows((True, 2))  # the second equal option counts too
    assert not d.allows((1.0, 2)) and not d.allows((2, 2))
    d = Decision(0, "choose", "Pick", [(True, 2)])
    assert not d.allows((1, 2))


def test_money_run_pawn_paths_remembered_only_for_the_same_position():
    g = moneynb.new_game("money_run", players=["Ann", "Bob"], seed=2)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(2)]
    moved = 0
    while not g.over:
        for seat in range(2):
            first = g.pawn_paths(seat)
            assert first == g._find_pawn_paths(seat)
            assert g.pawn_paths(seat) is first  # asked again at once: remembered
            if first and not moved:
                # the board changed behind its back (as the coach's reach and tests do)
                dest = next(iter(first))
                c = g.copy()
                c.pawn_paths(seat)
                c.stacks[dest] = ()  # no coins: no step there
                assert dest not in c.pawn_paths(seat)
                assert c.pawn_paths(seat) == c._find_pawn_paths(seat)
                c.pawns[seat] = dest  # the pawn put elsewhere
                assert c.pawn_paths(seat) == c._find_pawn_paths(seat)
                assert c.pawn_paths(seat) is not first
                assert g.pawn_paths(seat) == first  # the original is untouched
                moved += 1
        g.apply(bots[g.decision.player].choose(g))
    assert moved
