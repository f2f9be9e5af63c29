"""Chance streams per kind (issue 39, case 7): each kind of chance (the dice, each deck, the
spinner, the bag) draws from its own stream with ``chance_streams`` 2 (a game option; 1, one
stream, stays the default so every seeded game, notebook and test plays as before), so the two games of a duplicate deal stay paired when play differs; games saved before
(no ``chance_streams`` in the save: version 1, one stream) replay exactly as they were played.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

import moneynb
from moneynb.core.chance import ChanceStreams, Deck, GameRandom, generator_state, stream_seed
from moneynb.core.errors import SaveFileError
from moneynb.core.outcomes import chance_outcomes, what_if_copy
from moneynb.testing import paired_events, record_chance, rig


def _new_game(*args, **kwargs):
    """``moneynb.new_game`` with ``chance_streams=2`` unless the test names a version."""
    kwargs.setdefault("chance_streams", 2)
    return moneynb.new_game(*args, **kwargs)


ROOT = Path(__file__).resolve().parent.parent
GAMES = ["moolah", "easy_money", "money_card", "money_moves", "money_run"]

#: every kind of chance each game asks for (docs/env.md lists them)
KINDS = {
    "moolah": {"dice", "gamble die", "temptation", "casino"}
    | {f"stock:{s}" for s in ("gold", "grain", "oil", "steel")},
    "easy_money": {"dice", "give or take"},
    "money_card": {"spinner", "blind pick"}
    | {
        f"deck:{d}"
        for d in ("France", "Germany-Austria", "Italy", "Spain", "Miscellaneous", "Mail From Home")
    },
    "money_moves": {"money die", "task die", "cards"},
    "money_run": {"bag"},
}


def decks(g) -> dict:
    """``{kind: Deck}`` of a game's decks, by the kind its rules draw them with."""
    if g.name == "moolah":
        return {
            "temptation": g.temptation,
            "casino": g.casino,
            **{f"stock:{s}": d for s, d in g.stocks.items()},
        }
    if g.name == "money_card":
        return {f"deck:{n}": d for n, d in g.decks.items()}
    if g.name in ("easy_money", "money_moves"):
        return {"give or take" if g.name == "easy_money" else "cards": g.deck}
    return {}


def play(game: str, seed: int, bots: tuple, version: int, limit: int = 600):
    """A game of greedy/random bots (seat order ``bots``), its chance events recorded."""
    g = _new_game(game, ["P1", "P2"], seed=seed, chance_streams=version)
    sizes = {k: len(d.draw_pile) for k, d in decks(g).items()}
    players = [moneynb.make_bot(b, seed=10 * seed + i) for i, b in enumerate(bots)]
    with record_chance(g) as events:
        while not g.over and len(g.actions) < limit:
            g.apply(players[g.decision.player].choose(g))
    return g, events, sizes


def by_kind(events: list) -> dict:
    out: dict = {}
    for kind, value in events:
        out.setdefault(kind, []).append(value)
    return out


# ----- a duplicate deal pairs per kind --------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_duplicate_deal_draws_the_same_kth_roll_and_kth_card_of_each_deck(game):
    """Two games on one seed, played differently (greedy against random, seats swapped): with
    ``chance_streams`` 2 the k-th event of every number kind (a die, the spinner, the bag) is
    the same in both, and so is the k-th card of each deck before it is reshuffled or turned
    over (its first ``len(deck)`` cards). Every kind met is one the game's docs name."""
    checked = differ = 0
    for seed in (1_000_000, 1_000_001, 1_000_002):
        ga, a, sizes = play(game, seed, ("greedy", "random"), 2)
        gb, b, _ = play(game, seed, ("random", "greedy"), 2)
        differ += ga.actions != gb.actions
        ka, kb = by_kind(a), by_kind(b)
        assert set(ka) | set(kb) <= KINDS[game]
        for kind in set(ka) & set(kb):
            xs, ys = ka[kind], kb[kind]
            m = min(len(xs), len(ys), sizes.get(kind, len(xs)))
            assert xs[:m] == ys[:m], f"{game} seed {seed}: {kind} differs"
            checked += m
    assert checked >= 20 and differ  # the play differs in some deal


def test_one_stream_loses_the_pairing_once_play_differs():
    """Moolah's deals with ``chance_streams`` 1: some kind's k-th event differs between the
    two games (a number one game drew and the other did not, such as the die of a Temptation
    gamble taken in one game only, shifts every later roll), which version 2 removes. (With
    one stream, decks are shuffled once at the start whatever the play, so their cards pair
    until a reshuffle; the numbers pair until play changes which numbers are drawn: a blind
    pick in Money Card, a reshuffle, a gamble. See docs/env.md for the measured figures.)"""
    game = "moolah"
    broken = 0
    for seed in range(1_000_000, 1_000_010):
        _, a, sizes = play(game, seed, ("greedy", "random"), 1)
        _, b, _ = play(game, seed, ("random", "greedy"), 1)
        ka, kb = by_kind(a), by_kind(b)
        for kind in set(ka) & set(kb):
            xs, ys = ka[kind], kb[kind]
            m = min(len(xs), len(ys), sizes.get(kind, len(xs)))
            broken += xs[:m] != ys[:m]
        common, per_kind = paired_events(a, b)
        assert common <= per_kind <= min(len(a), len(b))
    assert broken > 0


def test_the_kth_dice_roll_does_not_depend_on_the_cards_drawn_before_it():
    """The issue's example: one game draws more cards than the other (here: more Temptation
    cards drawn by hand between the rolls), and the 7th roll of the dice is the same."""
    rolls = []
    for extra_cards in (0, 5):
        g = _new_game("moolah", ["Ann", "Bob"], seed=42)
        seen = []
        with record_chance(g) as events:
            for i in range(12):
                d1 = g.chance("dice")
                seen.append((d1.randint(1, 6), d1.randint(1, 6)))
                if i == 3:
                    for _ in range(extra_cards):
                        g.temptation.draw(g.chance("temptation"))
        assert len([e for e in events if e[0] == "temptation"]) == extra_cards
        rolls.append(seen)
    assert rolls[0] == rolls[1]
    assert rolls[0][6] == rolls[1][6]


# ----- versions in the config -----------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_is_version_2_and_its_save_says_so(game):
    assert moneynb.new_game(game, ["Ann", "Bob"], seed=3).options["chance_streams"] == 1
    g = _new_game(game, ["Ann", "Bob"], seed=3)
    assert g.options["chance_streams"] == 2 and type(g.rng) is ChanceStreams
    doc = json.loads(g.to_json())
    assert doc["options"]["chance_streams"] == 2
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(2)]
    for _ in range(60):
        if g.over:
            break
        g.apply(bots[g.decision.player].choose(g))
    again = moneynb.load_game(g.to_json())
    assert again.state() == g.state()
    assert again.to_json() == g.to_json()
    one = _new_game(game, ["Ann", "Bob"], seed=3, chance_streams=1)
    assert "chance_streams" not in json.loads(one.to_json())["options"]  # as saves were
    assert type(one.rng) is GameRandom


@pytest.mark.parametrize("game", GAMES)
def test_an_old_save_without_the_field_loads_as_version_1_and_replays_exactly(game):
    """Every golden game's final save (recorded before streams per kind; no
    ``chance_streams`` in it) loads, replays to the same money, and writes the same text; read
    as version 2 the same actions no longer replay the game (so the version is what counts)."""
    records = json.loads((ROOT / "tests" / "golden" / f"{game}.json").read_text())
    differs = 0
    for rec in records[:4]:
        assert "chance_streams" not in json.loads(rec["save"])["options"]
        g = moneynb.load_game(rec["save"])
        assert g.options["chance_streams"] == 1
        assert g.to_json() == rec["save"]
        assert g.money() == rec["money"] and g.winner_names == rec["winners"]
        doc = json.loads(rec["save"])
        doc["options"]["chance_streams"] = 2
        try:
            other = moneynb.load_game(json.dumps(doc))
            differs += other.money() != rec["money"] or other.log != g.log
        except SaveFileError:  # an action the other chance makes illegal
            differs += 1
    assert differs > 0


def test_a_golden_record_never_names_the_version_it_was_played_with():
    """The golden files are byte-identical to the ones recorded before (tests/test_golden.py
    replays them): no record carries the option, so the recorder plays them as version 1."""
    for game in GAMES:
        text = (ROOT / "tests" / "golden" / f"{game}.json").read_text()
        assert "chance_streams" not in text


@pytest.mark.parametrize("bad", [0, 3, -1, 99])
def test_an_unknown_version_is_one_clear_error(bad):
    with pytest.raises(ValueError, match=r"option 'chance_streams' must be one of \[1, 2\]"):
        _new_game("moolah", ["Ann", "Bob"], seed=1, chance_streams=bad)
    for wrong_type in ("2", True, None, 2.0):  # the same message: the allowed versions
        with pytest.raises(ValueError, match=r"option 'chance_streams' must be one of \[1, 2\]"):
            _new_game("moolah", ["Ann", "Bob"], seed=1, chance_streams=wrong_type)
    with pytest.raises(ValueError, match="option 'undo' must be 'safe' or 'practice'"):
        _new_game("moolah", ["Ann", "Bob"], seed=1, undo=1)
    doc = json.loads(_new_game("moolah", ["Ann", "Bob"], seed=1).to_json())
    doc["options"]["chance_streams"] = bad
    with pytest.raises(SaveFileError, match=r"config is not valid: option 'chance_streams'"):
        moneynb.load_game(json.dumps(doc))


# ----- the engine's other users of chance keep the streams ------------------------------------
def test_every_draw_of_a_rules_file_names_its_kind():
    """A rules file asks ``self.chance(kind)`` for every draw, never the game's generator
    itself (which serves every kind alike)."""
    for path in sorted((ROOT / "moneynb" / "games").glob("*/rules.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"self\.rng\b", line) and "copy_generator(self.rng)" not in line:
                raise AssertionError(f"{path.name}:{n} draws from self.rng: {line.strip()}")


@pytest.mark.parametrize("game", GAMES)
def test_copies_saves_and_what_if_copies_keep_every_stream(game):
    g = _new_game(game, ["Ann", "Bob"], seed=11)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(2)]
    for _ in range(30):
        if g.over:
            break
        g.apply(bots[g.decision.player].choose(g))
    assert g.rng.streams  # some stream was used
    for c in (g.copy(), copy.deepcopy(g), what_if_copy(g), moneynb.load_game(g.to_json())):
        assert generator_state(c.rng) == generator_state(g.rng)
        assert type(c.rng) is ChanceStreams
    twin = g.copy()
    for _ in range(40):
        if g.over:
            break
        a = bots[g.decision.player].choose(g)
        assert [e.text for e in twin.apply(a)] == [e.text for e in g.apply(a)]
    resampled = g.copy(resample_chance=5)
    assert type(resampled.rng) is ChanceStreams
    assert generator_state(resampled.rng) != generator_state(g.rng)


def test_a_kinds_stream_is_seeded_from_the_seed_and_the_kinds_name():
    g = _new_game("easy_money", ["Ann", "Bob"], seed=7)
    d = GameRandom(stream_seed(7, "dice"))
    g.apply("roll")  # the opening throw: two dice of the "dice" stream
    thrown = next(e for e in g.log if e.kind == "rolled").data["dice"]
    assert tuple(thrown) == (d.randrange(6) + 1, d.randrange(6) + 1)
    assert stream_seed(7, "dice") != stream_seed(7, "give or take") != stream_seed(8, "dice")


@pytest.mark.parametrize("game", GAMES)
def test_chance_seen_under_streams_is_what_the_whole_states_say(game):
    """``chance_seen`` (the safe undo's limit), from the streams' draw counts, moves exactly
    when some stream's state or a deck's draw count does."""
    g = _new_game(game, ["Ann", "Bob"], seed=8)
    bots = [moneynb.make_bot("greedy", seed=k) for k in range(2)]
    moved = 0
    for _ in range(200):
        if g.over:
            break
        before = (generator_state(g.rng), Deck.draws)
        seen = g.chance_seen
        g.apply(bots[g.decision.player].choose(g))
        changed = (generator_state(g.rng), Deck.draws) != before
        assert (g.chance_seen != seen) == changed, len(g.actions)
        moved += changed
    assert moved > 3


def test_the_rig_scripts_every_kind_in_order_and_leaves_the_rest_to_each_stream():
    """Under version 2 the rig's script answers the draws of any kind in the order the game
    makes them, and an unscripted draw is the one the unrigged game makes."""
    plain = _new_game("easy_money", ["Ann", "Bob"], seed=4)
    rigged = _new_game("easy_money", ["Ann", "Bob"], seed=4)
    rig(rigged)
    for _ in range(30):
        if plain.over:
            break
        a = moneynb.make_bot("greedy", seed=1).choose(plain)
        assert [e.text for e in rigged.apply(a)] == [e.text for e in plain.apply(a)]
    g = _new_game("easy_money", ["Ann", "Bob"], seed=4)
    r = rig(g).dice(3, 3, 5, 6)
    g.apply("roll")
    g.apply("roll")
    throws = [tuple(e.data["dice"]) for e in g.log if e.kind == "rolled"]
    assert throws == [(3, 3), (5, 6)]
    r.check_used()


def test_chance_outcomes_under_streams_are_exact_and_contain_what_happens():
    g = _new_game("moolah", ["Ann", "Bob"], seed=2)
    while g.decision.tag != "turn":
        g.apply(g.decision.options[0] if g.decision.options else g.decision.low)
    outs = chance_outcomes(g, "roll", branch_draws=2)
    assert sum(o.probability for o in outs) == 1
    assert len({o.draws for o in outs}) == 36
    real = g.copy()
    real.apply("roll")
    assert any(o.game.dice == real.dice for o in outs)
    assert all(type(o.game.rng).__name__ == "ScriptedRandom" and o.game.rng.streams
               for o in outs)  # fmt: skip
