"""Bots: players that answer the pending :class:`~moneynb.core.Decision`.

``make_bot("random", seed=1)`` or ``make_bot("bot:greedy")``. A bot sees the decision and the
game's public methods; the greedy bot asks the game's own ``greedy_action`` heuristic, which
reads only what that seat may see. Games can register extra bots (e.g. Money Run's search bot)
in :data:`BOTS`.
"""

from __future__ import annotations

import gc
import numbers
import random
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.decision import Decision


def random_action(decision: Decision, rng: random.Random) -> Any:
    """A uniformly random legal answer to ``decision`` (an amount range counts each dollar
    step, plus the discrete options).

    Raises:
        ValueError: ``decision`` is None (the game is over).
    """
    if decision is None:
        raise ValueError("the game is over: there is no decision to answer")
    n_opts = len(decision.options)
    n_range = 0
    if decision.kind == "amount" and decision.low is not None and decision.high is not None:
        n_range = (decision.high - decision.low) // decision.step + 1
    # pick a discrete option half the time when both exist, so "pass" is not drowned out
    if n_opts and (not n_range or rng.random() < 0.5):
        return decision.options[rng.randrange(n_opts)]
    return decision.low + decision.step * rng.randrange(n_range)


def require_decision(game) -> None:
    """Bots call this first: a finished game has nothing to answer.

    Raises:
        ValueError: ``game`` is over (its decision is None).
    """
    if game.over:
        raise ValueError("the game is over: there is no decision to answer")


def _seed_now(rng: random.Random) -> None:
    """Seed a :class:`SeededWhenUsed` with its seed and make it a plain ``random.Random``."""
    pending = rng.__dict__.pop("_seed_when_used", _NO_SEED)
    if pending is not _NO_SEED:
        rng.__class__ = random.Random
        random.Random.seed(rng, pending)


_NO_SEED = object()


class SeededWhenUsed(random.Random):
    """``random.Random(seed)``, seeded the first time anything reads or draws from it (seeding
    costs about 4 us; a runner makes a bot per seat per game, and a greedy bot whose game's
    heuristic draws nothing never needs it). From then on it *is* a ``random.Random``
    (``type(rng) is random.Random``), in the state ``random.Random(seed)`` would be in: the
    same draws, ``getstate``, copies and pickles. Source: issue 40 (the runners' cost)."""

    def __init__(self, seed: int):  # (random.Random.__init__ seeds: not called)
        self._seed_when_used = seed
        self.gauss_next = None

    # every draw of random.Random goes through random() or getrandbits() (Python 3.11)
    def random(self) -> float:
        _seed_now(self)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _seed_now(self)
        return random.Random.getrandbits(self, k)

    def randbytes(self, n: int) -> bytes:
        _seed_now(self)
        return random.Random.randbytes(self, n)

    def getstate(self) -> tuple:
        _seed_now(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple) -> None:
        self.__dict__.pop("_seed_when_used", None)
        self.__class__ = random.Random
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self.__dict__.pop("_seed_when_used", None)
        self.__class__ = random.Random
        random.Random.seed(self, a, version)

    def __reduce__(self) -> tuple:
        _seed_now(self)
        return random.Random.__reduce__(self)


class Bot:
    """Base bot. ``choose(game)`` returns an action for ``game.decision`` (ValueError when the
    game is over)."""

    kind = "bot"
    #: True for a bot that answers only with a legal action, by construction (the built-in
    #: random and greedy bots): the runners carry out its answers with
    #: :meth:`Game.advance <moneynb.core.game.Game.advance>`, unchecked. Leave it False for
    #: any other bot (its answers then go through ``Game.apply`` and are checked).
    trusted = False
    #: every option the bot takes (besides ``seed``), as ``{name: (default, allowed types,
    #: lowest value or None)}``; checked by :meth:`check_options` like a game's options
    options: dict[str, tuple] = {}

    def __init__(self, seed: int | None = None):
        if seed is not None and (type(seed) is bool or not isinstance(seed, numbers.Integral)):
            raise ValueError(f"a bot's seed must be a whole number or None, got {seed!r}")
        # seeded when first drawn from (the same draws as ``random.Random(seed)``): a greedy
        # bot of a game that never asks it for chance costs no seeding (4 us a bot)
        self.rng = random.Random() if seed is None else SeededWhenUsed(int(seed))

    @classmethod
    def check_options(cls, **options: Any) -> dict:
        """``options`` checked against :attr:`options` (a name it lacks, a value of another
        type: ``time_budget="1"``, a bool for a number, a value below the lowest allowed);
        returns them with the defaults filled in, ints made floats where a float is asked.

        Raises:
            ValueError: the message names the option, what was given and what is allowed.
        """
        out = {}
        for key in options:
            if key not in cls.options:
                known = ", ".join(sorted(cls.options)) or "none besides seed"
                raise ValueError(
                    f"unknown option {key!r} for the {cls.kind} bot; its options: {known}"
                )
        for key, (default, types, low) in cls.options.items():
            value = options.get(key, default)
            ok = value is None and None in types
            if not ok and type(value) is not bool:
                ok = (float in types and isinstance(value, numbers.Real)) or (
                    int in types and isinstance(value, numbers.Integral)
                )
                if ok and float in types and isinstance(value, numbers.Real):
                    value = float(value)
                    ok = value == value and value not in (float("inf"), float("-inf"))
                elif ok:
                    value = int(value)
            elif not ok:
                ok = bool in types
            if ok and low is not None and value is not None and type(value) is not bool:
                ok = value >= low
            if not ok:
                allowed = " or ".join(
                    "None" if t is None else {float: "a number", int: "a whole number",
                                              bool: "True/False"}[t]
                    for t in types
                )  # fmt: skip
                at_least = f" (at least {low})" if low is not None else ""
                raise ValueError(
                    f"option {key!r} of the {cls.kind} bot must be {allowed}{at_least}, "
                    f"got {value!r}"
                )
            out[key] = value
        return out

    def choose(self, game) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    kind = "random"
    trusted = True

    def choose(self, game) -> Any:
        if game.pending is None:  # (require_decision, inline: a bot answers at every action)
            raise ValueError("the game is over: there is no decision to answer")
        return random_action(game.pending, self.rng)  # (its options only: no labels made)


class GreedyBot(Bot):
    """Uses the game's heuristic (``game.greedy_action``), which sees no hidden card order."""

    kind = "greedy"
    trusted = True

    def choose(self, game) -> Any:
        if game.pending is None:  # (require_decision, inline: a bot answers at every action)
            raise ValueError("the game is over: there is no decision to answer")
        return game.greedy_action(self.rng)


#: bot name -> class (or "module:Class" string, imported when asked for)
BOTS: dict[str, Any] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": "moneynb.bots.search:SearchBot",
}


def make_bot(name: str, seed: int | None = None, **kwargs: Any) -> Bot:
    """Make a bot by name: ``"random"``, ``"greedy"``, ``"search"`` (a ``"bot:"`` prefix is allowed).

    ``kwargs`` are the bot's options (:attr:`Bot.options`, e.g. the search bot's
    ``time_budget``), checked as a game's options are.

    Raises:
        ValueError: unknown bot name (the message lists the known ones), an unknown option,
            an option of the wrong type or out of range, a seed that is not a whole number.
    """
    key = name[4:] if isinstance(name, str) and name.startswith("bot:") else name
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}")
    cls = BOTS[key]
    if isinstance(cls, str):
        import importlib

        mod, attr = cls.split(":")
        try:
            cls = getattr(importlib.import_module(mod), attr)
        except (ModuleNotFoundError, AttributeError) as e:
            raise ValueError(f"bot {name!r} is not available: {e}") from None
    cls.check_options(**kwargs)  # before the bot is made: a clear error, not a TypeError
    return cls(seed=seed, **kwargs)


def is_bot_spec(player: str) -> bool:
    """True for a player entry such as ``"bot:greedy"``."""
    return isinstance(player, str) and player.startswith("bot:")


def person_name_problem(name: str, others: list[str], rows=()) -> str | None:
    """Why ``name``, typed for a person (a start form's or a replay's name box), would read
    wrongly beside the names ``others`` of the other seats, in one sentence; None when it
    reads well. Two names that differ only in capitals ("You", "you") read as one person in
    the log; a name of the form the game gives a bot ("Greedy bot 1", any case) reads as a
    bot; a name that is a row of the game's money table (``rows``: "Total", "Pot", any case)
    or holds an amount ("Pot $500") reads as money the game does not have. The engine
    accepts these (a saved game with such names still loads; it refuses only a house
    account's exact name): the boxes a person types in refuse them. Source: reconstruction
    (the testers of stops 48 and 49)."""
    n = name.strip()

    def key(text: str) -> str:  # full-width and other look-alike forms read as the plain ones
        return unicodedata.normalize("NFKC", text).strip().casefold()

    if key(n) in {key(r) for r in rows}:
        return f"{n!r} is a row of the money table: give this person another name"
    if "$" in key(n):
        return f"{n!r} has a dollar sign in it, like an amount: give this person another name"
    if key(n).startswith("bot:"):
        return f"{n!r} is how a bot is asked for: give this person another name"
    same = [o for o in others if key(o) == key(n)]
    if same:
        if same[0].strip() == n:
            return f"two people are called {n!r}"
        return f"{n!r} and {same[0].strip()!r} differ only in capitals: give them other names"
    words = key(n).split()
    if len(words) == 3 and words[0] in BOTS and words[1] == "bot" and words[2].isdigit():
        return f"{n!r} is what the game calls a bot: give this person another name"
    return None


def bot_seed(game_seed: int, seat: int, n_actions: int = 0) -> int:
    """The seed of the bot that answers seat ``seat`` after ``n_actions`` actions of a game
    seeded ``game_seed``: a function of the game alone, so every kernel that plays the seat
    (a view, a shared table's sessions) makes the same move. Source: reconstruction."""
    return (game_seed * 1009 + seat * 7919 + n_actions) % (2**32)


def name_seats(players: list) -> tuple[list[str], dict[int, str]]:
    """Display names for seat entries: ``"bot:greedy"`` becomes a unique "Greedy bot 1" (never
    a person's name at the table), any other entry stays as given.

    Returns:
        (names in seat order, {seat index: bot spec}).

    Raises:
        ValueError: an unknown bot kind (the message lists the bots).
    """
    humans = {p for p in players if not is_bot_spec(p)}
    counts: dict[str, int] = {}
    names, specs = [], {}
    for i, p in enumerate(players):
        if is_bot_spec(p):
            kind = p[4:]
            if kind not in BOTS:
                raise ValueError(
                    f"unknown bot {p!r}; bots are: " + ", ".join(f"bot:{k}" for k in BOTS)
                )
            counts[kind] = counts.get(kind, 0) + 1
            name = f"{kind.capitalize()} bot {counts[kind]}"
            while name in humans:
                counts[kind] += 1
                name = f"{kind.capitalize()} bot {counts[kind]}"
            names.append(name)
            specs[i] = p
        else:
            names.append(p)
    return names, specs


def play_out(game, bots, max_actions: int = 1_000_000, record: bool = True) -> int:
    """Let ``bots`` (a list of Bot, one per seat) play ``game`` to the end; returns actions taken.

    ``record=True`` (the default): every answer goes through ``game.apply`` (checked, its
    events logged, chance tracked for undo): the game is then the one a person would see.
    ``record=False``: when every bot is :attr:`Bot.trusted`, their answers are carried out by
    ``game.advance`` instead (unchecked, no events kept: see :meth:`Game.advance
    <moneynb.core.game.Game.advance>`), for a game only its result is read from. Either
    way the garbage collector runs less often meanwhile (:func:`fewer_gc_passes`).

    Raises:
        RuntimeError: the game did not end within ``max_actions`` actions.
        IllegalAction: a bot's answer was refused (``apply``).
    """
    fast = not record and all(b.trusted for b in bots)
    step = game.advance if fast else game.apply
    n = 0
    with fewer_gc_passes():
        while game.pending is not None:
            if n >= max_actions:
                raise RuntimeError(f"{game.title} did not end within {max_actions} actions")
            step(bots[game.pending.player].choose(game))
            n += 1
    return n


#: the garbage collector's first threshold while bots play (Python's default is 700): a game
#: makes many short-lived objects, few of them in cycles, and fewer collector passes over
#: them save about a tenth of the time (docs/speed.md)
GC_THRESHOLD_WHILE_PLAYING = 10_000


@contextmanager
def fewer_gc_passes() -> Iterator[None]:
    """For the block: the collector's first threshold raised to
    :data:`GC_THRESHOLD_WHILE_PLAYING` (never lowered), and what exists when it starts (the
    modules, the game's data) set aside (``gc.freeze``), so the passes there are look only at
    what the play makes. The thresholds are restored and what was set aside is given back
    (``gc.unfreeze``) after it; nested blocks leave it to the outermost."""
    global _gc_depth
    _gc_depth += 1
    if _gc_depth > 1:
        try:
            yield
        finally:
            _gc_depth -= 1
        return
    old = gc.get_threshold()
    was_frozen = gc.get_freeze_count() > 0  # frozen by someone else (a warm worker): theirs
    if not was_frozen:
        gc.freeze()
    gc.set_threshold(max(old[0], GC_THRESHOLD_WHILE_PLAYING), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        if not was_frozen:
            gc.unfreeze()
        _gc_depth -= 1


_gc_depth = 0
