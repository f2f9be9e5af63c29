"""The engine's speed devices change nothing a player, a view or a bot can see.

Decision options and labels given as methods (computed when read, only while pending), lazy
event text, the runners' trusted path (``Game.advance``), the collector tuned while bots play,
and the whole-number Black Jack value are checked against the plain computation here; the
golden games (tests/test_golden.py) check whole games.
"""

from __future__ import annotations

import copy
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
    assert not g.pending.lazy  # read from the original when copied: the copy may share it
    assert c.decision == g.decision and c.decision.labels == g.decision.labels


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
    g = moneynb.new_game("money_run", ["A", "B"], seed=1, chance_streams=1)
    assert type(g.rng) is GameRandom  # (chance_streams 2: tests/test_chance_streams.py)


@pytest.mark.parametrize("game", ["easy_money", "moolah", "money_card", "money_moves", "money_run"])
def test_chance_seen_by_draw_count_equals_chance_seen_by_full_state(game):
    """``chance_seen`` (what a safe undo may take back) from GameRandom's draw count is the
    same, action by action, as from comparing the generator's whole state (a plain
    random.Random, the engine's other path)."""
    seats = 2 if game == "money_run" else 3
    # one stream (a plain random.Random holds no streams per kind; chance_streams 2 is
    # checked in tests/test_chance_streams.py)
    counted = moneynb.new_game(game, ["Ann", "Bob", "Cy"][:seats], seed=8, chance_streams=1)
    plain = moneynb.new_game(game, ["Ann", "Bob", "Cy"][:seats], seed=8, chance_streams=1)
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


def test_decision_allows_keeps_types_apart_among_equal_options():
    d = Decision(0, "choose", "Pick", [(True, 2), (1, 2), "a"])
    assert d.allows((1, 2)) and d.allows((True, 2))  # the second equal option counts too
    assert not d.allows((1.0, 2)) and not d.allows((2, 2))
    d = Decision(0, "choose", "Pick", [(True, 2)])
    assert not d.allows((1, 2))


def test_decision_options_and_labels_given_as_functions():
    calls = []

    def options(player):
        calls.append(player)
        return ["a", "b"]

    d = Decision(2, "choose", "Pick", options, labels=lambda opts: {o: o.upper() for o in opts})
    assert d.lazy and not calls
    assert d.allows("b") and calls == [2]  # computed once, for the deciding seat
    assert not d.allows("z")
    assert d.options == ("a", "b") and calls == [2]
    assert d.label("b") == "B" and not d.lazy
    with pytest.raises(AttributeError):
        d.player = 1
    with pytest.raises(ValueError, match="at least one option"):
        _ = Decision(0, "choose", "Pick", lambda p: []).options


def test_a_part_unread_while_pending_is_refused_once_answered():
    """Never computed from a later state: the game moved on, so it is refused, loudly."""
    from moneynb.core.decision import AnsweredError

    g, bots = _easy_money_at_turn()
    g.advance(bots[g.pending.player].choose(g))
    while g.pending.tag not in ("turn", "post"):
        g.advance(bots[g.pending.player].choose(g))
    d = g.pending  # the rules' own handle: its options not read yet
    assert d.lazy
    g.advance(bots[d.player].choose(g))
    with pytest.raises(AnsweredError, match="not read while it was pending"):
        _ = d.options
    seen = g.decision  # the public handle: complete, whatever happens next
    assert not seen.lazy
    g.apply(bots[seen.player].choose(g))
    assert seen.options and seen.labels


@pytest.mark.parametrize("game", ["money_run", "easy_money"])
def test_a_copy_lists_its_own_options(game):
    """A deep copy made while the options are unread computes them from the copy, later;
    ``Game.copy`` reads them from the original first (the same, as it stands)."""
    g = moneynb.new_game(game, players=["Ann", "Bob"], seed=4)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(2)]
    while g.pending.tag not in ("action", "turn") or len(g.actions) < 12:
        g.apply(bots[g.pending.player].choose(g))
    twin = moneynb.load_game(g.to_json())
    copies = [copy.deepcopy(g), g.copy()]
    assert copies[0].pending.lazy and not g.pending.lazy
    for _ in range(6):  # the original moves on
        g.advance(bots[g.pending.player].choose(g))
    for c in copies:
        assert c.decision == twin.decision and c.decision.labels == twin.decision.labels


LINEUPS = {"easy_money": 4, "moolah": 3, "money_card": 3, "money_moves": 3, "money_run": 2}


@pytest.mark.parametrize("game", sorted(LINEUPS))
def test_advance_plays_the_game_apply_plays(game):
    """The runners' trusted path: the same actions, money, scores and save as ``apply``;
    no events kept, and every action counted as having shown chance (safe undo stops)."""
    names = [f"P{k}" for k in range(LINEUPS[game])]
    out = []
    for step in ("apply", "advance"):
        g = moneynb.new_game(game, players=names, seed=5)
        bots = [
            moneynb.make_bot("greedy" if k % 2 else "random", seed=k) for k in range(len(names))
        ]
        while not g.over:
            getattr(g, step)(bots[g.pending.player].choose(g))
        out.append(g)
    played, advanced = out
    assert advanced.actions == played.actions and advanced.to_json() == played.to_json()
    assert advanced.money() == played.money() and advanced.scores() == played.scores()
    assert len(advanced.log) < len(played.log)  # only the setup's events
    assert advanced.chance_seen == len(advanced.actions)
    assert not advanced.can_undo_to(len(advanced.actions) - 1)


def test_advance_leaves_the_state_as_it_was_when_the_rules_raise():
    g = moneynb.new_game("easy_money", players=["Ann", "Bob"], seed=1)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(2)]
    while g.pending.tag != "turn":
        g.advance(bots[g.pending.player].choose(g))
    before = g.state()
    with pytest.raises(Exception):  # noqa: B017 - unchecked: whatever the rules raise
        g.advance("build:not-a-space")
    after = g.state()
    assert after.pop("log") >= before.pop("log")  # rebuilt by replay: the log is complete
    assert after == before
    with pytest.raises(moneynb.core.IllegalAction, match="does not answer"):
        g.apply("build:not-a-space")  # the checked path names the problem


def test_play_out_checks_the_answers_of_a_bot_it_does_not_trust():
    from moneynb.bots import Bot, play_out

    class Wrong(Bot):
        kind = "wrong"

        def choose(self, game):
            return "not an option"

    g = moneynb.new_game("money_moves", players=["Ann", "Bob"], seed=1)
    with pytest.raises(moneynb.core.IllegalAction, match="not an option"):
        play_out(g, [Wrong(), Wrong()])
    assert g.actions == []


def test_the_collector_is_tuned_only_while_bots_play():
    import gc

    from moneynb.bots import GC_THRESHOLD_WHILE_PLAYING, fewer_gc_passes, play_out

    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    seen = []
    with fewer_gc_passes():
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))
        with fewer_gc_passes():  # nested: left to the outer one
            pass
        assert gc.get_threshold()[0] >= GC_THRESHOLD_WHILE_PLAYING
    assert seen[0][0] >= GC_THRESHOLD_WHILE_PLAYING and seen[0][1] > frozen
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    with pytest.raises(RuntimeError), fewer_gc_passes():
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    for record in (True, False):
        g = moneynb.new_game("money_run", players=["Ann", "Bob"], seed=3)
        play_out(g, [moneynb.make_bot("greedy", seed=k) for k in range(2)], record=record)
        assert g.over and gc.get_threshold() == before and gc.get_freeze_count() == frozen
        assert (len(g.log) > len(g.actions) // 2) is record  # kept, or not (the setup only)


def test_a_decision_is_read_only():
    """Its parts are read through properties without a setter (made by plain assignment)."""
    d = Decision(1, "amount", "Bet", ("pass",), low=10, high=50, step=5, tag="bet", suggested=20)
    assert (d.player, d.kind, d.prompt, d.low, d.high, d.step, d.tag, d.suggested) == (
        1, "amount", "Bet", 10, 50, 5, "bet", 20
    )  # fmt: skip
    for name in ("player", "kind", "prompt", "options", "low", "high", "step", "labels", "tag",
                 "suggested", "something_else"):  # fmt: skip
        with pytest.raises(AttributeError):
            setattr(d, name, 0)
    assert d.player == 1 and d.options == ("pass",)


def test_ledger_move_checks_like_transfer_and_changes_nothing_when_refused():
    from moneynb.core.errors import LedgerError
    from moneynb.core.ledger import Ledger

    led = Ledger()
    led.open("a", 10)
    led.open("b", 0)
    for args in (("a", "b", 11), ("a", "b", -1), ("a", "b", 1.0), ("a", "x", 1), ("x", "a", 1)):
        with pytest.raises(LedgerError):
            led.move(*args)
        assert led.balances == {"a": 10, "b": 0}
    led.move("a", "b", 4, "rent")
    assert led.transfer("a", "b", 6).amount == 6
    assert led.balances == {"a": 0, "b": 10}
    led.check()


@pytest.mark.parametrize("game", sorted(LINEUPS))
def test_game_copy_is_deepcopy_made_faster(game):
    """``Game.copy`` (the engine's copier) gives ``copy.deepcopy``'s state, shares nothing a
    rule changes, and plays on exactly as the original does."""
    names = [f"P{k}" for k in range(LINEUPS[game])]
    g = moneynb.new_game(game, players=names, seed=7)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(len(names))]
    for _ in range(40):
        if g.over:
            break
        g.apply(bots[g.pending.player].choose(g))
    c, deep = g.copy(), copy.deepcopy(g)
    assert c.state() == deep.state() == g.state()
    assert c.rng is not g.rng and c.ledger is not g.ledger and c.actions is not g.actions
    played = []
    for twin in (g, c):  # the same bots' answers, so the same game, on each
        bots = [moneynb.make_bot("greedy", seed=k) for k in range(len(names))]
        n = 0
        while not twin.over and n < 60:
            twin.apply(bots[twin.pending.player].choose(twin))
            n += 1
        played.append((twin.actions, twin.money(), twin.state()))
    assert played[0] == played[1]
    assert deep.state() != g.state() or g.over  # the deep copy stayed where it was


def test_rule_data_made_at_load_equals_the_plain_computation():
    """What a rules file derives once from its data (Money Card's place names, Money Run's
    board geometry) is what the plain functions give."""
    from moneynb.games.money_card.rules import load_board
    from moneynb.games.money_run.rules import load_setup, neighbours, squares_ahead, squares_xy

    b = load_board()
    assert b.names == {s: b.spaces[s]["name"] or b._stretch_name(s, b.spaces[s]) for s in b.order}
    assert all(b.name(s) for s in b.order)
    data = load_setup()
    n = data["board_size"]
    assert (data["orth"], data["all8"]) == neighbours(n) and data["xy"] == squares_xy(n)
    for seat in data["seats"]:
        assert seat["ahead"] == squares_ahead(n, seat["goal_axis"], seat["goal_line"])


def _draws(rng: random.Random, how: str) -> list:
    """What ``rng`` gives when used first by ``how``, then its state and a few more draws."""
    import pickle

    if how == "copy":
        rng = copy.deepcopy(rng)
    elif how == "pickle":
        rng = pickle.loads(pickle.dumps(rng))
    elif how == "seed":
        rng.seed(99)
    elif how == "setstate":
        rng.setstate(random.Random(5).getstate())
    first = {
        "random": lambda: rng.random(),
        "randrange": lambda: [rng.randrange(6) for _ in range(4)],
        "randint": lambda: rng.randint(1, 6),
        "choice": lambda: rng.choice("abcdef"),
        "shuffle": lambda: rng.shuffle(deck := list(range(20))) or deck,
        "sample": lambda: rng.sample(range(50), 5),
        "gauss": lambda: [rng.gauss(0, 1) for _ in range(3)],
        "getrandbits": lambda: rng.getrandbits(70),
        "randbytes": lambda: rng.randbytes(5),
        "getstate": lambda: rng.getstate(),
    }.get(how, lambda: None)()
    return [first, type(rng), rng.getstate(), rng.random(), rng.randrange(1000)]


@pytest.mark.parametrize(
    "how",
    ["random", "randrange", "randint", "choice", "shuffle", "sample", "gauss", "getrandbits",
     "randbytes", "getstate", "copy", "pickle", "seed", "setstate"],
)  # fmt: skip
def test_a_bot_generator_seeded_when_used_draws_as_random_seeded_at_once(how):
    """A bot's generator, seeded only when first used, gives what ``random.Random(seed)``
    gives, whatever reads it first, and is then a plain ``random.Random``."""
    from moneynb.bots import SeededWhenUsed

    bot = moneynb.make_bot("greedy", seed=1234)
    assert type(bot.rng) is SeededWhenUsed
    assert _draws(bot.rng, how) == _draws(random.Random(1234), how)
    assert type(bot.rng) is random.Random


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 52, 300])
def test_game_random_shuffle_is_random_shuffle_with_one_draw_a_card(n):
    """GameRandom's own shuffle (its integer draw inlined) orders a pile as
    ``random.Random.shuffle`` does from the same state, leaves the same state, and counts
    ``n - 1`` draws, as a shuffle through ``_randbelow`` counts them."""
    from moneynb.core.chance import GameRandom

    for seed in (0, 1, 99):
        plain, counted = random.Random(seed), GameRandom(seed)
        xs, ys = list(range(n)), list(range(n))
        plain.shuffle(xs)
        before = counted.draws
        counted.shuffle(ys)
        assert xs == ys
        assert counted.getstate() == plain.getstate()
        assert counted.draws - before == max(n - 1, 0)
