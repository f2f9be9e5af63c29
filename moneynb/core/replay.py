"""Replay a game step by step: the state before any action, what was decided there, and a
new live game branched from any step.

A moneynb game is config + seed + actions, and replay is exact (DESIGN.md: "load = replay"),
so a :class:`Replay` needs nothing but a save (or a game object)::

    r = Replay(path_or_json_or_game)
    r.n                      # how many actions the game holds
    g = r.state(12)          # the game as it was before action 12 (0..n; n = the end)
    s = r.step(12)           # who decided at step 12, the prompt, the options, the one taken
    # the Coach of step 12: moneynb.coach.coach_step(r, 12) (the engine knows no Coach)
    r.series()               # {player: [score at step 0..n]} for a "where it turned" chart
    g2 = r.branch(12)        # a NEW live game equal to state(12); the replay is untouched

Speed: the replay keeps a deep copy of the game every :data:`SNAPSHOT_EVERY` actions (made
in one pass when the replay is built), so any step costs one copy plus fewer than that many
``Game.apply`` calls; moving forward from the last step asked for applies only the actions
in between. ``benchmarks/bench_replay.py`` measures it.

Source: reconstruction (no rulebook has replay); issue 19.
"""

from __future__ import annotations

import copy
import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .game import Game

__all__ = ["Replay", "Step", "SNAPSHOT_EVERY", "MAX_SNAPSHOTS"]

#: actions between two kept snapshots: a step costs one snapshot copy (a few ms: a deep copy
#: of the game) plus fewer than this many applies (about 0.1 ms each)
SNAPSHOT_EVERY = 25
#: most snapshots a replay keeps: for a longer game the spacing grows with its length
#: (``ceil(n / MAX_SNAPSHOTS)``), so memory stays bounded (a 100,000-action save kept 4,001
#: snapshots, 3.2 GB, before); a step then applies at most that many actions
MAX_SNAPSHOTS = 400


@dataclass
class Step:
    """What happened at one step of a replay: the decision pending before action ``index``.

    Attributes:
        index: the step, ``0..n`` (``n`` = after the last action).
        seat: the deciding seat, or ``None`` when the game is over at this step.
        player: that seat's name, or ``None``.
        prompt: the engine's prompt for the decision ("" when over).
        kind, tag: the decision's kind (``"roll"``, ``"choose"``, ...) and game tag.
        options: ``[(action, label)]``: the decision's discrete options with the engine's
            display texts.
        low, high, step_size: an amount decision's range in dollars (else ``None``).
        taken: the action taken at this step (``None`` at step ``n``).
        taken_label: its display text (the option's label, or the amount as ``$1,234``).
        scores: ``{player: score}`` before the action (:meth:`Game.scores`: dollars, or
            progress in rows for Money Run).
        events: the log lines the action caused (``[]`` at step ``n``).
    """

    index: int
    seat: int | None
    player: str | None
    prompt: str
    kind: str
    tag: str
    options: list = field(default_factory=list)
    low: int | None = None
    high: int | None = None
    step_size: int | None = None
    taken: Any = None
    taken_label: str = ""
    scores: dict = field(default_factory=dict)
    events: list = field(default_factory=list)


def _bare_copy(game: Game) -> Game:
    """A deep copy of ``game`` without its action list and log (a snapshot: :meth:`Replay.
    _restore` puts them back), so a snapshot's size does not grow with its step."""
    # the lists are met again through the pending decision's origin: map them, not copy them
    return copy.deepcopy(game, {id(game.actions): [], id(game.log): []})


def _read_source(source: Any) -> tuple[Game, str | None]:
    """``(final game, save path or None)`` from a path, save JSON text or a game.

    Raises:
        SaveFileError: malformed or tampered save text (as :func:`moneynb.load_game`).
        FileNotFoundError: a path that names no file.
        TypeError: a row (dict or pandas) with no save (simulate without keep_games=True),
            or anything else.
    """
    from .errors import SaveFileError
    from .save import loads

    if isinstance(source, Game):
        return source, None
    if isinstance(getattr(source, "game", None), Game):  # a view, as moneynb.play returns
        return source.game, None
    if isinstance(source, dict) and "save" in source:  # a row of simulate(keep_games=True)
        return _read_source(source["save"])
    if hasattr(source, "get") and hasattr(source, "index") and source.get("save") is not None:
        return _read_source(source.get("save"))  # a pandas row (Series)
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "{" not in source and source.strip()
    ):
        path = Path(source)
        if not path.is_file():
            raise FileNotFoundError(f"no save file at {path}")
        try:
            return loads(path.read_bytes()), str(path)
        except SaveFileError as e:  # the message names the file read
            raise SaveFileError(f"{path}: {e}") from None
    if isinstance(source, (str, bytes)):
        return loads(source), None
    if isinstance(source, dict) or (hasattr(source, "get") and hasattr(source, "index")):
        raise TypeError(  # a row of simulate() run without keep_games=True
            "this row has no 'save' column: run simulate(..., keep_games=True) to keep each "
            "game for replay"
        )
    raise TypeError(
        "replay takes a save file's path, its JSON text, a moneynb game (or its view), or a row of "
        f"simulate(keep_games=True); got {type(source).__name__}"
    )


class Replay:
    """A finished (or unfinished) game, stepped through action by action.

    Args:
        source: a save file's path (``str`` or ``Path``), its JSON text (as
            :func:`moneynb.load_game` reads), a live or finished :class:`~moneynb.core.Game`
            (its config, seed and actions are copied: the game itself is never touched) or
            a view showing one (what :func:`moneynb.play` returns),
            or a row of ``simulate(..., keep_games=True)`` (its ``save`` column).
        every: actions between kept snapshots (default :data:`SNAPSHOT_EVERY`); raised to
            ``ceil(n / MAX_SNAPSHOTS)`` for a long game (:data:`MAX_SNAPSHOTS`), so a replay
            keeps at most about that many snapshots whatever the length. A snapshot holds
            neither the log nor the action list (both are the replay's, shared): its size
            does not grow along the game.

    Attributes:
        config: the game's config (``game``, ``players``, ``seed``, ``options``).
        actions: the action list (``n`` actions).
        path: the save file read, or ``None``.
        title, name, players: the game's title, registry name and players.

    Raises:
        SaveFileError: malformed or tampered save text (as :func:`moneynb.load_game`).
        FileNotFoundError: a path that names no file.
        TypeError: a source of another kind.
        ValueError: ``every`` not an int >= 1.
    """

    def __init__(self, source: Any, every: int = SNAPSHOT_EVERY):
        if type(every) is not int or every < 1:
            raise ValueError(f"every must be an int >= 1, got {every!r}")
        final, self.path = _read_source(source)
        self.config = final.config()
        self.actions = list(final.actions)
        self.every = every = max(every, -(-len(self.actions) // MAX_SNAPSHOTS))
        self.name, self.title = final.name, final.title
        self.players = list(final.players)
        self._cls = type(final)
        self._options = dict(final.options)
        g = self._fresh()
        #: ``_snaps[k]``: the game before action ``k * every``
        self._snaps: list[Game] = []
        #: ``log_len[i]``: log lines before action ``i`` (``i`` = 0..n)
        self.log_len: list[int] = []
        #: ``deciders[i]``: the seat deciding at step ``i`` (``None`` once over)
        self.deciders: list[int | None] = []
        self._scores: list[dict] = []
        for i in range(self.n + 1):
            if i % every == 0:
                self._snaps.append(_bare_copy(g))
            self.log_len.append(len(g.log))
            self.deciders.append(None if g.decision is None else g.decision.player)
            self._scores.append(g.scores())
            if i < self.n:
                g.apply(self.actions[i])
        #: the final state (the log of the whole game is read from it)
        self.final = g
        self.log = g.log
        self._cur: Game | None = None
        self._cur_i = -1

    # ----- basics ---------------------------------------------------------------------
    @property
    def n(self) -> int:
        """How many actions the game holds (steps are ``0..n``)."""
        return len(self.actions)

    def _fresh(self) -> Game:
        return self._cls(list(self.players), self.config["seed"], **self._options)

    def _index(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, numbers.Integral):
            raise TypeError(f"a step is a whole number 0..{self.n}, got {i!r}")
        if not 0 <= i <= self.n:
            raise IndexError(f"step {i} is out of range: this game has steps 0..{self.n}")
        return int(i)

    # ----- states ---------------------------------------------------------------------
    def state(self, i: int) -> Game:
        """The game as it was before action ``i`` (``i = n``: after the last action).

        The game returned is the replay's own working copy: read it, do not apply actions
        to it (it changes on the next call; :meth:`branch` gives a game to play on).

        Raises:
            IndexError: ``i`` outside ``0..n``. TypeError: ``i`` not a whole number.
        """
        i = self._index(i)
        cur = self._cur
        if cur is None or not self._cur_i <= i < self._cur_i + self.every:
            if i == self.n:
                return self.final
            cur = self._cur = self._restore(i // self.every)
            self._cur_i = (i // self.every) * self.every
        for k in range(self._cur_i, i):
            cur.apply(self.actions[k])
        self._cur_i = i
        return cur

    def branch(
        self, i: int, fresh_chance: bool | None = None, players: list[str] | None = None
    ) -> Game:
        """A new live game equal to :meth:`state` ``(i)`` (same config, seed and first ``i``
        actions): play on it and save it anywhere; the replay and its source are untouched.

        Args:
            i: the step to branch from (``0..n``).
            fresh_chance: True: the branch's chance after step ``i`` is its own (the
                ``reseed`` option, :meth:`Game._reseed_due`: a fresh 62-bit seed from
                ``secrets`` draws the generator and every face-down pile afresh, and the first
                ``i`` actions are final for a "safe" undo), so playing it shows nothing of the
                original's coming dice and cards. False: the same seed, so the same dice and
                cards come for the same moves (a "what if" of a finished game). None (the
                default): fresh exactly when the replayed game is not over (a game still
                being played must not be peeked at through a branch: the tester's F1).
            players: the names of the new game's players, one per seat in seat order
                (default: the replayed game's). A seat renamed keeps its place, its money and
                every move it made (actions name seats, never names); the new game is the
                same from its start with the new names, so its log, money table and save name
                the seat so throughout (a seat a person takes over from a bot: issue 38).

        Raises:
            IndexError: ``i`` outside ``0..n``. TypeError: ``i`` not a whole number.
            ValueError: ``players`` not one distinct name per seat (as the game's own check).
        """
        i = self._index(i)
        if fresh_chance is None:
            fresh_chance = not self.final.over
        names = list(self.players) if players is None else list(players)
        if len(names) != len(self.players):
            raise ValueError(
                f"players: one name per seat ({len(self.players)}), got {len(names)}: {names!r}"
            )
        if fresh_chance or names != self.players:
            options = dict(self._options)
            if fresh_chance:
                import secrets

                # a reseed of the replayed game at or after i belongs to moves the branch
                # replaces
                reseed = [p for p in options.get("reseed", []) if p[0] < i]
                reseed.append([i, secrets.randbits(62)])
                options["reseed"] = reseed
            g = self._cls(names, self.config["seed"], **options)
            for a in self.actions[:i]:
                g.apply(a)
            return g
        g = self._restore(i // self.every)
        for a in self.actions[(i // self.every) * self.every : i]:
            g.apply(a)
        return g

    def _restore(self, k: int) -> Game:
        """A working copy of snapshot ``k`` (the game before action ``k * every``), with its
        action list and log put back (copies of the replay's lists: the events are shared)."""
        g = self._snaps[k].copy()
        at = k * self.every
        g.actions = list(self.actions[:at])
        g.log = list(self.log[: self.log_len[at]])
        return g

    # ----- what happened --------------------------------------------------------------
    def events(self, i: int) -> list:
        """The log events (:class:`~moneynb.core.Event`) action ``i`` caused (``[]`` for
        ``i = n``); :attr:`log_len` ``[i]`` is where they start in :attr:`log`.

        Raises:
            IndexError, TypeError: as :meth:`state`.
        """
        i = self._index(i)
        return [] if i == self.n else self.log[self.log_len[i] : self.log_len[i + 1]]

    def step(self, i: int) -> Step:
        """Who decided at step ``i``, what was asked, the options and the one taken.

        Raises:
            IndexError, TypeError: as :meth:`state`.
        """
        i = self._index(i)
        g = self.state(i)
        d = g.decision
        taken = self.actions[i] if i < self.n else None
        if d is None:
            return Step(i, None, None, "", "", "", scores=dict(self._scores[i]))
        options = [(o, d.label(o)) for o in d.options]
        if taken is None:
            taken_label = ""
        elif d.allows(taken) and taken in d.labels:
            taken_label = d.label(taken)
        elif d.kind == "amount" and type(taken) is int:
            taken_label = f"${taken:,}"
        elif d.kind == "player" and type(taken) is int and 0 <= taken < len(g.players):
            taken_label = g.players[taken]
        else:
            taken_label = d.label(taken)
        return Step(
            index=i,
            seat=d.player,
            player=g.players[d.player],
            prompt=d.prompt,
            kind=d.kind,
            tag=d.tag,
            options=options,
            low=d.low,
            high=d.high,
            step_size=d.step if d.kind == "amount" else None,
            taken=taken,
            taken_label=taken_label,
            scores=dict(self._scores[i]),
            events=self.events(i),
        )

    def series(self) -> dict[str, list[int]]:
        """``{player: [score before step 0, 1, ..., after step n]}`` (:meth:`Game.scores`:
        dollars, or rows of progress for Money Run; see :attr:`unit`)."""
        return {p: [s[p] for s in self._scores] for p in self.players}

    @property
    def unit(self) -> str:
        """What :meth:`series` counts: ``"dollars"``, or ``"progress"`` for a game without
        wallets (Money Run, whose score is rows advanced toward the goal)."""
        money = self.final.money()
        return "dollars" if any(f"wallet:{p}" in money for p in self.players) else "progress"

    def to_json(self) -> str:
        """The save file of the whole game (as :meth:`Game.to_json`)."""
        return self.final.to_json()

    def __len__(self) -> int:
        return self.n + 1

    def __repr__(self) -> str:
        state = "over" if self.final.over else "unfinished"
        return f"Replay({self.title}: {', '.join(self.players)}; {self.n} actions, {state})"
