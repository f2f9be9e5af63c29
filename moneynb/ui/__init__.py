"""The Jupyter front end: :func:`play` shows a game as a widget (:class:`GameView`).

Importing this package imports ipywidgets and plotly; the engine (``moneynb.core``,
``moneynb.games``) never imports it.

Saving and resume: ``play`` keeps the game in the game store (:mod:`moneynb.store`; config,
seed, actions, and each seat's kind: person or "bot:greedy"), owned by the hub user or this
browser (:mod:`moneynb.ui.identity`). ``play(name, resume=game_id)`` continues a stored game;
``play(name, resume="x.json")`` imports a save file (and its old ``x.seats.json`` sidecar, if
any) into the store and continues it. Without a sidecar, players named like a bot ("Greedy bot
1", "Random bot 2", "Search bot 1") are bots and all others are people. Nothing here writes
files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..bots import bot_seed as _bot_seed
from ..bots import make_bot
from ..bots import name_seats as _name_players
from ..core.errors import SaveFileError
from ..core.save import loads
from . import _lazy  # noqa: F401 - first: saves seconds of this import (see _lazy.py)
from .view import GameView

SEATS_FORMAT = "moneynb-seats"

_BOT_NAME = re.compile(r"^(Random|Greedy|Search) bot \d+$")


def app_mode() -> bool:
    """True when this kernel runs a notebook as a Voila app (``voila notebooks/x.ipynb``, or
    ``/voila/render/...`` on a Jupyter server): Voila puts ``VOILA_KERNEL_ID`` /
    ``VOILA_REQUEST_URL`` in the kernel's environment. The play notebooks use it to show only
    the launcher form's game in the app, and a ready-made game as well in JupyterLab."""
    import os

    return bool(os.environ.get("VOILA_KERNEL_ID") or os.environ.get("VOILA_REQUEST_URL"))


def seats_path(save_path: str | Path) -> Path:
    """The old seats sidecar of a save file: ``x.json`` -> ``x.seats.json`` (read when such a
    file is resumed; nothing writes them any more)."""
    p = Path(save_path)
    return (
        p.with_name(p.name[:-5] + ".seats.json")
        if p.name.endswith(".json")
        else p.with_name(p.name + ".seats.json")
    )


def _read_seats(save: Path, players: list[str]) -> dict[int, str]:
    side = seats_path(save)
    if side.exists():
        try:
            doc = json.loads(side.read_text(encoding="utf-8"))
            seats = doc["seats"] if doc.get("format") == SEATS_FORMAT else None
        except (ValueError, KeyError, TypeError, AttributeError):
            seats = None
        if not isinstance(seats, dict):
            raise ValueError(f"{side} is not a moneynb seats file")
        return {
            i: seats[p]
            for i, p in enumerate(players)
            if isinstance(seats.get(p), str) and seats[p].startswith("bot:")
        }
    return {
        i: f"bot:{_BOT_NAME.match(p).group(1).lower()}"
        for i, p in enumerate(players)
        if _BOT_NAME.match(p)
    }


def _read_origin(save: Path) -> str | None:
    """The ``origin`` in the status of ``save``'s seats sidecar, if any."""
    try:
        return str(json.loads(seats_path(save).read_text(encoding="utf-8"))["status"]["origin"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _is_file(resume) -> bool:
    """``resume`` names a save file (a path, or text ending in .json or naming a file)."""
    if isinstance(resume, Path):
        return True
    return isinstance(resume, str) and (
        resume.endswith(".json") or "/" in resume or "\\" in resume or Path(resume).is_file()
    )


def play(
    name: str,
    players=None,
    seed: int | None = None,
    resume=None,
    autosave=True,
    bot_delay: float = 0.0,
    max_bot_steps: int = 1000,
    title: str | None = None,
    origin: str | None = None,
    store=None,
    owner: str | None = None,
    **options,
) -> GameView:
    """Start (or resume) game ``name`` as a :class:`GameView` widget.

    Args:
        name: a registered game ("money_moves", "moolah", ...).
        players: seat order; ``"bot:random"``, ``"bot:greedy"`` or ``"bot:search"`` entries
            become bots named "Greedy bot 1" etc.; other entries are people's names.
            Default: ``["You", "bot:greedy", "bot:greedy"]`` (fewer if the game allows fewer).
        seed: int seed of the game (None: a fresh random one from ``secrets``,
            :func:`moneynb.tables.new_seed`, kept with the game).
        resume: a stored game's id (from the "Unfinished game" list or
            ``moneynb.store.open_store().list_games(owner)``), or the path of a save file
            (JSON: imported into the store, bot seats from its old ``.seats.json`` sidecar if
            there is one). ``players``/``seed``/options then come from the game.
        autosave: True (default): keep the game in the store after every move; False: no
            saving.
        bot_delay, max_bot_steps, title: see :class:`GameView`.
        origin: where the game is started, kept with it (default ``"lab"``, or the resumed
            game's own): the Voila app continues only the games its page started.
        store: the store (a :class:`moneynb.store.Store`, a path or a ``postgresql://`` URL;
            None: ``MONEYNB_STORE`` or the user's default, :func:`moneynb.store.default_location`).
        owner: the game's owner (None: the hub user, or this browser once it has reported).
        **options: the game's options (house rules), and ``undo``: "safe" (the default: no
            undo past a die, spin or card already seen) or "practice" (undo anything).

    The view offers its owner's other unfinished games (newest first, with game, players,
    turn and time: :mod:`moneynb.ui.saves`).

    Raises:
        ValueError: unknown game or bot, bad players or options, a resumed game of another
            game, or a bad seats sidecar.
        moneynb.SaveFileError: a malformed, tampered or unreadable save file (the message
            starts with its path), or a malformed stored game.
        FileNotFoundError: ``resume`` names no file.
        moneynb.store.NoSuchGame: ``resume`` is an id of no game this owner may open.
        moneynb.store.LiveTable: ``resume`` is a shared table still being played (join it).
        moneynb.store.TooManyTries: ``owner`` (or the server) started too many games in the
            last minute (:mod:`moneynb.store.limits`; the message says how long to wait).
        moneynb.store.StoreError: the store cannot be read to resume a game.
    """
    from ..core.registry import game_class
    from ..store import ANY, LiveTable, open_store
    from ..tables import new_seed
    from .identity import current_owner

    owner = owner or current_owner()
    game_id = None
    if resume is not None:
        if not isinstance(resume, (str, Path)):
            raise ValueError(
                f"resume must be a stored game's id or the path of a save file, got {resume!r}"
            )
        if players is not None or seed is not None or options:
            raise ValueError(
                "resume= continues a saved game with its own players, seed and options: "
                "pass none of them"
            )
        if _is_file(resume):
            path = Path(resume)
            if not path.exists():
                raise FileNotFoundError(f"no save file at {path}")
            if not path.is_file():
                raise ValueError(f"resume must be a save file, but {path} is not a file")
            try:
                game = loads(path.read_bytes())
            except SaveFileError as e:  # the message names the file read
                raise SaveFileError(f"{path}: {e}") from None
            except OSError as e:
                raise SaveFileError(f"{path}: cannot be read ({e.strerror or e})") from None
            if game.name != name:
                raise ValueError(f"{path} holds a {game.title} game, not {name!r}")
            specs = _read_seats(path, game.players)
            if origin is None:
                origin = _read_origin(path)
        else:
            st = open_store(store)
            # the owner's own games only (an id of another's reads as no game); a kernel that
            # does not know its owner yet (JupyterLab before the page reported) can open any
            # id it was given: the ids are unguessable, and its Python reads the store anyway
            text = st.read(resume, owner=owner if owner else ANY)
            game = loads(text)
            if game.name != name:
                raise ValueError(f"stored game {resume} is a {game.title} game, not {name!r}")
            info = st.info(resume)
            # a table still being played is played at the table (join), never as a game of
            # one screen that would show every seat's hidden cards (issue 35, case 2)
            LiveTable.check(info, "continued as a game of one screen")
            specs = {s.seat: s.kind for s in info.seats if s.bot}
            game_id = resume
            if origin is None:
                origin = info.origin
            if store is None:
                store = st
    else:
        cls = game_class(name)
        if players is None:
            players = ["You"] + ["bot:greedy"] * max(
                cls.min_players - 1, min(2, cls.max_players - 1)
            )
        if isinstance(players, str) or not isinstance(players, (list, tuple)):
            raise ValueError(
                f"players must be a list of names or 'bot:...' entries, got {players!r}"
            )
        names, specs = _name_players(list(players))
        game = cls(names, new_seed() if seed is None else seed, **options)
    if game_id is None and autosave is not False:
        _count_new_game(store, owner)
    controllers = [None] * len(game.players)
    for seat, spec in specs.items():
        controllers[seat] = make_bot(spec, seed=_bot_seed(game.seed, seat, len(game.actions)))
    return GameView(
        game,
        controllers,
        autosave=autosave,
        title=title,
        bot_delay=bot_delay,
        max_bot_steps=max_bot_steps,
        bot_specs=specs,
        origin=origin or "lab",
        store=store,
        game_id=game_id,
        owner=owner,
    )


def _count_new_game(store, owner) -> None:
    """Count a new stored game of ``owner`` (:func:`moneynb.store.limits.new_game`); a store
    that cannot be opened counts nothing (the view says why it cannot save)."""
    from ..store import StoreError, TooManyTries, open_store
    from ..store.limits import new_game

    try:
        st = open_store(store)
    except StoreError:
        return
    import sqlite3

    try:
        new_game(owner, st, "game")
    except TooManyTries:
        raise
    except (StoreError, OSError, sqlite3.Error):  # the ledger cannot be written: no count
        return


def unfinished_games(game: str | None = None, owner: str | None = None, store=None) -> list:
    """The unfinished games of ``owner`` (default: the hub user or this browser) in the store
    (newest first), of ``game`` or all: see :func:`moneynb.ui.saves.unfinished`. Each has
    ``id`` (for ``play(name, resume=id)``) and ``describe()``."""
    from ..store import open_store
    from .identity import current_owner
    from .saves import unfinished

    return unfinished(open_store(store), owner or current_owner(), game=game)


__all__ = ["play", "app_mode", "GameView", "unfinished_games", "current_owner"]


def current_owner() -> str | None:
    """The owner of the games this kernel starts (see :mod:`moneynb.ui.identity`)."""
    from .identity import current_owner as owner

    return owner()
