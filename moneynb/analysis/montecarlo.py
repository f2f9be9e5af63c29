"""Monte Carlo: many tokens moved at once with numpy, and many whole games played by bots.

Two tools:

* :func:`simulate_tokens` moves ``n_tokens`` tokens ``n_steps`` rolls on a compiled track
  (:class:`moneynb.analysis.markov.MarkovChain`). Each roll is ONE random integer (which of
  the equally likely dice-outcome/card pairs happened) and ONE table look-up in the same
  table the exact analysis uses, so it follows the game's movement rules exactly and runs at
  tens of millions of rolls per second on one core (``benchmarks/bench_rolls.py``).
* :func:`simulate` plays ``n_games`` full games with bots through the ordinary engine
  (``Game.apply``), seeded per game from ``numpy.random.SeedSequence(seed).spawn(n_games)``,
  locally in 1..n worker processes or on a Dask cluster, and returns a pandas DataFrame that
  is the same whatever ran it.
"""

from __future__ import annotations

import gc
import math
import numbers
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..bots import GC_THRESHOLD_WHILE_PLAYING as _GC_THRESHOLD
from ..bots import fewer_gc_passes as _fewer_gc_passes

__all__ = [
    "simulate_tokens",
    "landing_counts",
    "simulate",
    "game_seeds",
    "GameJobs",
    "MAX_GAMES",
    "play_one",
    "shutdown_workers",
]


# ----- tokens ------------------------------------------------------------------------------
def _draw_dtype(m: int):
    return np.uint8 if m <= 256 else np.uint16 if m <= 65536 else np.uint32


def simulate_tokens(
    chain,
    n_tokens: int,
    n_steps: int,
    seed: int | None = None,
    record: str = "final",
):
    """Move ``n_tokens`` independent tokens ``n_steps`` steps (rolls) on ``chain``.

    Args:
        chain: a compiled :class:`~moneynb.analysis.markov.MarkovChain`.
        n_tokens: how many tokens move side by side (numpy vectors of this length).
        n_steps: rolls per token.
        seed: seed of a ``numpy.random.Generator`` (PCG64).
        record: ``"final"`` returns the final state index of every token ``(n_tokens,)``;
            ``"spaces"`` returns visits ``(n_spaces,)`` = how many steps ENDED on each space
            (summed over tokens and steps); ``"landings"`` returns how many steps LANDED on
            each space (missed turns are not landings); ``"path"`` returns the space of every
            token after every step, ``(n_steps + 1, n_tokens)`` (mind the memory).

    Returns:
        a numpy array as described for ``record``.

    Raises:
        ValueError: unknown ``record``.
    """
    if record not in ("final", "spaces", "landings", "path"):
        raise ValueError(f"record must be final, spaces, landings or path, got {record!r}")
    rng = np.random.default_rng(seed)
    m = chain.table.shape[1]
    idx_t = np.int32 if chain.table.size < 2**31 else np.int64
    flat = (chain.table.astype(idx_t) * m).ravel()  # next state, pre-multiplied by row width
    state = np.zeros(n_tokens, dtype=idx_t)  # row offsets (state index * m); start is state 0
    dt = _draw_dtype(m)
    n_spaces = chain.model.n_spaces
    space_of_row = chain.space_of
    if record == "landings":
        land_flat = chain.landed.ravel()
        counts = np.zeros(n_spaces + 1, dtype=np.int64)
    elif record == "spaces":
        state_counts = np.zeros(chain.n_states, dtype=np.int64)
    elif record == "path":
        path = np.empty((n_steps + 1, n_tokens), dtype=np.int16 if n_spaces < 32768 else np.int32)
        path[0] = space_of_row[0]
    buf = np.empty(n_tokens, dtype=idx_t)
    for t in range(n_steps):
        r = rng.integers(0, m, size=n_tokens, dtype=dt)
        np.add(state, r, out=buf)
        if record == "landings":
            counts += np.bincount(land_flat[buf] + 1, minlength=n_spaces + 1)
        state = flat[buf]
        if record == "spaces":
            state_counts += np.bincount(state // m, minlength=chain.n_states)
        elif record == "path":
            path[t + 1] = space_of_row[state // m]
    if record == "final":
        return state // m
    if record == "spaces":
        return np.bincount(space_of_row, weights=state_counts, minlength=n_spaces)
    if record == "landings":
        return counts[1:]
    return path


def landing_counts(chain, n_tokens: int, n_steps: int, seed: int | None = None) -> np.ndarray:
    """Share of simulated steps that landed on each space, ``(n_spaces,)`` (compare with
    :meth:`MarkovChain.landing_per_step`)."""
    c = simulate_tokens(chain, n_tokens, n_steps, seed=seed, record="landings")
    return c / (n_tokens * n_steps)


# ----- whole games ---------------------------------------------------------------------------
def game_seeds(seed: int, n_games: int, n_players: int) -> list[tuple[int, list[int]]]:
    """Per-game seeds: ``[(game seed, [bot seed per seat]), ...]`` from
    ``SeedSequence(seed).spawn(n_games)``; independent of how games are split over workers.
    (:class:`GameJobs` gives the same seeds one game at a time.)"""
    return [GameJobs(seed, n_games, n_players).seeds(i) for i in range(n_games)]


class GameJobs:
    """The games of one :func:`simulate` call, made when taken: ``(index, game seed, bot
    seeds)`` for index ``lo..hi-1``, taken from the front (:meth:`popleft`, the calling
    process) or the back (:meth:`pop`, worker chunks). Nothing proportional to the number
    of games is built before the first game: game ``i``'s seeds are
    ``SeedSequence(seed, spawn_key=(i,))``, the ``i``-th child of ``SeedSequence(seed)``,
    exactly what ``spawn(n_games)[i]`` gives."""

    def __init__(self, seed: int, n_games: int, n_players: int):
        self.seed, self.n_players = seed, n_players
        self.lo, self.hi = 0, n_games

    def seeds(self, i: int) -> tuple[int, list[int]]:
        words = np.random.SeedSequence(self.seed, spawn_key=(i,)).generate_state(
            1 + self.n_players, dtype=np.uint32
        )
        return int(words[0]), [int(w) for w in words[1:]]

    def job(self, i: int) -> tuple[int, int, list[int]]:
        return (i, *self.seeds(i))

    def __len__(self) -> int:
        return self.hi - self.lo

    def popleft(self) -> tuple[int, int, list[int]]:
        if self.lo >= self.hi:
            raise IndexError("no games left")
        self.lo += 1
        return self.job(self.lo - 1)

    def pop(self) -> tuple[int, int, list[int]]:
        if self.lo >= self.hi:
            raise IndexError("no games left")
        self.hi -= 1
        return self.job(self.hi)

    def __getitem__(self, k: slice) -> list:
        start, stop, step = k.indices(len(self))
        return [self.job(self.lo + i) for i in range(start, stop, step)]


def _player_names(players: Sequence[str]) -> list[str]:
    names = []
    for i, p in enumerate(players):
        key = p[4:] if p.startswith("bot:") else p
        names.append(f"{key}{i + 1}")
    return names


def _turn_of(game) -> int | None:
    """The game's own turn counter, if it keeps one (``turns``, ``turn_no``, ...)."""
    for attr in ("turns", "turn_no", "turn", "turn_number"):
        v = getattr(game, attr, None)
        if isinstance(v, int) and not isinstance(v, bool):
            return v
    return None


def play_one(
    game: str,
    players: Sequence[str],
    game_seed: int,
    bot_seeds: Sequence[int],
    options: dict | None = None,
    per_turn: bool = False,
    max_actions: int = 200_000,
    keep_game: bool = False,
) -> dict:
    """Play one seeded game with bots; returns a row dict (and per-turn rows if asked).
    ``keep_game=True`` adds the game's save text (config + seed + actions, as
    :meth:`Game.to_json`) to the row as ``save``.

    Turns are counted as the number of times the deciding player changes, plus one (a roll
    again on doubles stays in the same turn). The answers of the built-in bots are carried
    out by :meth:`Game.advance <moneynb.core.game.Game.advance>` (``Bot.trusted``), others'
    by ``Game.apply``.

    Raises:
        RuntimeError: the game did not end within ``max_actions`` actions.
    """
    from ..bots import make_bot
    from ..core.registry import game_class

    names = _player_names(players)
    g = game_class(game)(names, game_seed, **(options or {}))
    bots = [make_bot(p, seed=s) for p, s in zip(players, bot_seeds, strict=True)]
    step = g.advance if all(b.trusted for b in bots) else g.apply  # (see Bot.trusted)
    n_actions = 0
    turns = 1
    last = g.to_move
    rows = []
    while g.pending is not None:
        if n_actions >= max_actions:
            raise RuntimeError(f"{g.title} did not end within {max_actions} actions")
        seat = g.pending.player
        if seat != last:
            if per_turn:
                rows.append(_money_row(g, names, turns))
            turns += 1
            last = seat
        step(bots[seat].choose(g))
        n_actions += 1
    if per_turn:
        rows.append(_money_row(g, names, turns))
    money = g.money()
    scores = g.scores()
    row = {
        "seed": game_seed,
        "winner": g.winner,
        "winners": ",".join(g.winner_names),
        "actions": n_actions,
        "turns": turns,
    }
    for n in names:
        row[f"money_{n}"] = int(money.get(f"wallet:{n}", 0))
    for n in names:
        row[f"score_{n}"] = scores.get(n)
    if keep_game:
        row["save"] = g.to_json()
    return {"row": row, "turns": rows}


def _money_row(g, names, turn) -> dict:
    money = g.money()
    row = {"turn": turn, "game_turn": _turn_of(g)}
    for n in names:
        row[f"money_{n}"] = int(money.get(f"wallet:{n}", 0))
    scores = g.scores()
    for n in names:
        row[f"score_{n}"] = scores.get(n)
    wallets = {f"wallet:{n}" for n in names}
    for acct, v in sorted(money.items()):
        if acct not in wallets:
            row[f"account_{acct}"] = int(v)
    return row


#: warm worker pools kept between calls: workers -> (registries seen, pool)
_POOLS: dict[int, tuple] = {}


def _warm_worker() -> None:
    """Worker start. A forked worker has what this process imported (``simulate`` imports
    the game and the bots before it starts workers); another game is imported by its first
    chunk, once per worker. What is there now stays: the collector need not look at it."""
    import moneynb.bots  # noqa: F401  (a worker started by "spawn" has nothing yet)

    gc.freeze()


def _registries() -> tuple:
    """What the workers must agree on with this process: every registered bot and game (a bot
    class defined or redefined in a notebook after the pool started needs a new pool)."""
    from moneynb.bots import BOTS
    from moneynb.core.registry import GAMES

    return tuple((k, id(v)) for k, v in BOTS.items()), tuple(GAMES.items())


def _pool(workers: int, start: bool = True) -> ProcessPoolExecutor | None:
    """The warm pool for ``simulate(workers=workers)``: ``workers - 1`` processes (this
    process plays too), made once and reused by later calls (remade when the bot or game
    registry changed, or the pool broke). ``start=False``: None if there is no warm pool to
    reuse."""
    seen = _registries()
    old = _POOLS.get(workers)
    if old is not None and old[0] == seen and not getattr(old[1], "_broken", False):
        return old[1]
    if not start:
        return None
    if old is not None:
        old[1].shutdown(wait=False, cancel_futures=True)
    ex = ProcessPoolExecutor(max_workers=workers - 1, initializer=_warm_worker)
    _POOLS[workers] = (seen, ex)
    return ex


def shutdown_workers() -> None:
    """Stop the warm worker processes of :func:`simulate` (they also stop when Python exits).

    The workers are forked, so until they stop they hold copies of the files and pipes this
    process had open when they started; call this before waiting for a pipe's other end to
    close (a subprocess's stdin, for example)."""
    while _POOLS:
        _, (_, ex) = _POOLS.popitem()
        ex.shutdown(wait=True, cancel_futures=True)


def _cpus() -> int:
    """Cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


#: the garbage collector's first threshold while simulate plays (see
#: :func:`moneynb.bots.fewer_gc_passes`, used around each chunk)
GC_THRESHOLD_WHILE_PLAYING = _GC_THRESHOLD


def _play_chunk(game, players, options, jobs, per_turn, keep_games=False):
    """Worker: play ``jobs`` = [(game index, game seed, bot seeds)]; picklable top-level."""
    out = []
    with _fewer_gc_passes():
        for i, gs, bs in jobs:
            res = play_one(game, players, gs, bs, options, per_turn, keep_game=keep_games)
            out.append((i, res))
    return out


def _int_arg(arg: str, value, least: int) -> int:
    """``value`` as an int >= ``least`` (numpy ints welcome; bools, floats, strings refused).

    Raises:
        ValueError: anything else, naming ``arg``.
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= least:
        return int(value)
    raise ValueError(f"{arg} must be an int >= {least}, got {value!r}")


#: most games one :func:`simulate` call plays (a table of a million rows is about 100 MB;
#: at a few ms a game, hours of play): more is refused at once, not run for ever
MAX_GAMES = 1_000_000


def simulate(
    game: str,
    players: Sequence[str] = ("greedy", "greedy"),
    n_games: int = 100,
    seed: int = 0,
    workers: int = 1,
    per_turn: bool = False,
    progress: bool = True,
    client=None,
    options: dict | None = None,
    chunk_size: int | None = None,
    keep_games: bool = False,
):
    """Play ``n_games`` seeded games of ``game`` with bots and tabulate them.

    Args:
        game: a registered game name ("money_moves", "moolah", ...).
        players: one bot name per seat ("random", "greedy", "search"; a "bot:" prefix is
            allowed). Seat ``i`` is named ``<bot><i+1>`` (e.g. "greedy1", "random2").
        n_games: number of games.
        seed: master seed; game ``i`` uses ``SeedSequence(seed).spawn(n_games)[i]`` for the
            game's and every bot's seed, so results do not depend on ``workers``.
        workers: processes playing (1 = this process alone; at most the number of cores
            used): this one and ``workers - 1`` worker processes. The workers start on the
            first call that needs them and are kept for later calls (warm: the games are
            imported once); registering another bot or game starts new ones;
            :func:`shutdown_workers` stops them. They start whatever the machine's load; the
            progress bar and the table's ``attrs["workers"]`` say how many processes played.
        per_turn: also return one row per (game, turn) with every player's wallet.
        progress: show a tqdm progress bar.
        client: a ``dask.distributed.Client``: run the chunks on its cluster instead.
        options: the game's house-rule options for every game.
        chunk_size: games per task sent to a worker (default: local workers take a quarter
            of the games left divided by ``workers``, a few tasks at a time; Dask: 4 tasks per
            Dask worker).
        keep_games: also keep every game, as its save text (config + seed + actions: a few
            kB), in a ``save`` column: ``moneynb.replay(table.loc[i])`` (or
            ``moneynb.replay(table.save[i])``) steps through game ``i``, and
            ``moneynb.load_game(table.save[i])`` rebuilds it.

    Returns:
        a pandas DataFrame (``attrs["workers"]``: the processes that played, this one
        included; Dask: its workers), one row per game, index ``game`` (0..n_games-1), columns
        ``seed, winner, winners, actions, turns, money_<name>..., score_<name>...``
        (and ``save`` with ``keep_games=True``) (winner is None for a shared win; money is the wallet at the end). With
        ``per_turn=True``: ``(games, turns)`` where ``turns`` has columns
        ``game, turn, game_turn, money_<name>..., score_<name>..., account_<name>...``
        (``game_turn`` = the game's own turn counter if it has one, else None) (wallets, the
        game's ``scores()`` (Money Moves: net worth, the wallet minus House Bank loans) and
        every other account, e.g. ``account_Pot``, at the start of each turn and at the end).

    Raises:
        ValueError: unknown game or bot, a player that is not a bot name, ``n_games``,
            ``workers``, ``chunk_size`` or ``seed`` not an int in range (``0 <= n_games <=``
            :data:`MAX_GAMES`,
            ``workers >= 1``, ``chunk_size >= 1``, ``seed >= 0``), bad ``options``, or
            ``keep_games`` not a bool.
    """
    import pandas as pd
    from tqdm.auto import tqdm

    from ..bots import make_bot
    from ..core.registry import game_class

    n_games = _int_arg("n_games", n_games, 0)
    if n_games > MAX_GAMES:
        raise ValueError(
            f"simulate plays at most {MAX_GAMES:,} games per call (one table row each), got "
            f"{n_games:,}: make several calls with different seeds and combine the tables"
        )
    workers = _int_arg("workers", workers, 1)
    seed = _int_arg("seed", seed, 0)
    if chunk_size is not None:
        chunk_size = _int_arg("chunk_size", chunk_size, 1)
    if not isinstance(keep_games, bool):
        raise ValueError(f"keep_games must be True or False, got {keep_games!r}")
    if options is not None and not isinstance(options, dict):
        raise ValueError(f"options must be a dict of the game's options, got {options!r}")
    if isinstance(players, str) or not all(isinstance(p, str) for p in players):
        raise ValueError(f"players must be a list of bot names such as 'greedy', got {players!r}")
    players = list(players)
    game_class(game)  # fail early on an unknown game
    for p in players:
        make_bot(p)  # ... or bot
    asked = workers
    workers = min(workers, _cpus())  # more processes than cores only add overhead
    jobs = GameJobs(seed, n_games, len(players))  # made one game at a time, as played
    results: list = []
    # how many processes played, and why fewer than asked (issue 39): {"asked", "used", "why"}
    if client is None:  # the processes that play (this one included)
        used = workers if n_games else 1
        ran = {"asked": asked, "used": used, "why": None}
        if used < asked:
            ran["why"] = (
                "no games to play" if not n_games
                else f"this machine has {_cpus()} core{'s' * (_cpus() > 1)}"
            )  # fmt: skip
        desc = f"{game} games, {used} process{'es' if used > 1 else ''}"
    else:
        used = _n_dask_workers(client)
        ran = {"asked": asked, "used": used, "why": None}
        desc = f"{game} games"
    bar = tqdm(total=n_games, disable=not progress, desc=desc)
    if ran["why"]:
        bar.set_postfix_str(f"{ran['used']} of {asked} workers: {ran['why']}")
    try:
        if client is not None:
            _run_on_dask(client, game, players, options, jobs, per_turn, keep_games,
                         chunk_size, results, bar)  # fmt: skip
        else:
            _run_here(workers, game, players, options, jobs, per_turn, keep_games,
                      chunk_size, results, bar)  # fmt: skip
    finally:
        bar.close()
    results.sort(key=lambda x: x[0])
    table = pd.DataFrame([r["row"] for _, r in results], index=pd.RangeIndex(n_games, name="game"))
    table.attrs["workers"] = dict(ran)
    if not per_turn:
        return table
    turn_rows = [dict(game=i, **t) for i, r in results for t in r["turns"]]
    turns = pd.DataFrame(turn_rows)
    turns.attrs["workers"] = dict(ran)
    return table, turns


def _run_on_dask(
    client, game, players, options, jobs, per_turn, keep_games, chunk_size, results, bar
) -> None:
    """Play ``jobs`` on a Dask cluster (about 4 tasks per Dask worker: each costs more to
    send than a local one); append ``(index, result)`` pairs to ``results``."""
    from dask.distributed import as_completed

    size = chunk_size or max(1, math.ceil(len(jobs) / (4 * _n_dask_workers(client))))
    chunks = [jobs[k : k + size] for k in range(0, len(jobs), size)]
    n = len(chunks)
    futs = client.map(_play_chunk, [game] * n, [players] * n, [options] * n, chunks,
                      [per_turn] * n, [keep_games] * n, pure=False)  # fmt: skip
    for fut in as_completed(futs):
        part = fut.result()
        results.extend(part)
        bar.update(len(part))


def _run_here(
    workers, game, players, options, jobs, per_turn, keep_games, chunk_size, results, bar
) -> None:
    """Play ``jobs`` in this process and, when ``workers > 1``, in ``workers - 1`` worker
    processes beside it (started whatever the machine's load); append ``(index, result)`` to
    ``results``. With workers, this process keeps playing games one at a time from the front of the list (no core idles while the
    workers start) and the workers take chunks from the back, a few at a time, smaller as
    fewer games are left (so the last chunk ends soon after this process's last game)."""
    todo = jobs  # a GameJobs: games are made as they are taken

    def play_here() -> None:
        part = _play_chunk(game, players, options, [todo.popleft()], per_turn, keep_games)
        results.extend(part)
        bar.update(len(part))

    ex = _pool(workers) if workers > 1 and todo else None
    if ex is None:
        while todo:
            play_here()
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    helpers = workers - 1
    running: set = set()

    def collect(done) -> None:
        for fut in done:
            running.discard(fut)
            part = fut.result()
            results.extend(part)
            bar.update(len(part))

    try:
        while todo:
            collect([f for f in running if f.done()])
            while todo and len(running) < 2 * helpers:  # one running, one waiting, each
                size = chunk_size or max(1, len(todo) // (4 * workers))
                chunk = [todo.pop() for _ in range(min(size, len(todo)))][::-1]
                running.add(ex.submit(_play_chunk, game, players, options, chunk, per_turn,
                                      keep_games))  # fmt: skip
            if todo:
                play_here()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            collect(done)
    except BaseException:
        for f in running:
            f.cancel()
        raise


def _n_dask_workers(client) -> int:
    try:
        return len(client.scheduler_info().get("workers", {})) or 1
    except Exception:  # pragma: no cover - an unusual client
        return 1
