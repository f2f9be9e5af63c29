"""The Jupyter front end: :func:`play` shows a game as a widget (:class:`GameView`).

Importing this package imports ipywidgets and plotly; the engine (``moneynb.core``,
``moneynb.games``) never imports it.

Bot seats and resume: ``play`` writes the save file (config + seed + actions, the engine's
format) and beside it a small ``<save>.seats.json`` sidecar ``{"seats": {name: "human" |
"bot:greedy" ...}}``. ``play(name, resume=path)`` reads both; without a sidecar, players named
like a bot ("Greedy bot 1", "Random bot 2", "Search bot 1") are bots and all others are people.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from pathlib import Path

from ..bots import BOTS, make_bot
from ..core.errors import SaveFileError
from ..core.save import loads
from . import _lazy  # noqa: F401 - first: saves seconds of this import (see _lazy.py)
from .view import SEATS_FORMAT, GameView, seats_path

_BOT_NAME = re.compile(r"^(Random|Greedy|Search) bot \d+$")


def app_mode() -> bool:
    """True when this kernel runs a notebook as a Voila app (``voila notebooks/x.ipynb``, or
    ``/voila/render/...`` on a Jupyter server): Voila puts ``VOILA_KERNEL_ID`` /
    ``VOILA_REQUEST_URL`` in the kernel's environment. The play notebooks use it to show only
    the launcher form's game in the app, and a ready-made game as well in JupyterLab."""
    import os

    return bool(os.environ.get("VOILA_KERNEL_ID") or os.environ.get("VOILA_REQUEST_URL"))


def _bot_seed(game_seed: int, seat: int, n_actions: int = 0) -> int:
    return (game_seed * 1009 + seat * 7919 + n_actions) % (2**32)


def _name_players(players: list, seats: dict | None = None) -> tuple[list[str], dict]:
    """Turn entries like "bot:greedy" into unique display names ("Greedy bot 1");
    returns (names, {seat: bot spec})."""
    humans = {p for p in players if not (isinstance(p, str) and p.startswith("bot:"))}
    counts: dict[str, int] = {}
    names, specs = [], {}
    for i, p in enumerate(players):
        if isinstance(p, str) and p.startswith("bot:"):
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


def default_save_path(name: str) -> Path:
    """``moneynb-saves/<game>-<YYYYmmdd-HHMMSS>.json`` under the current folder (a new name
    if that file exists)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path("moneynb-saves") / f"{name}-{stamp}.json"
    n = 2
    path = base
    while path.exists():
        path = base.with_name(f"{name}-{stamp}-{n}.json")
        n += 1
    return path


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


def play(
    name: str,
    players=None,
    seed: int | None = None,
    resume=None,
    autosave=None,
    bot_delay: float = 0.0,
    max_bot_steps: int = 1000,
    title: str | None = None,
    origin: str | None = None,
    **options,
) -> GameView:
    """Start (or resume) game ``name`` as a :class:`GameView` widget.

    Args:
        name: a registered game ("money_moves", "moolah", ...).
        players: seat order; ``"bot:random"``, ``"bot:greedy"`` or ``"bot:search"`` entries
            become bots named "Greedy bot 1" etc.; other entries are people's names.
            Default: ``["You", "bot:greedy", "bot:greedy"]`` (fewer if the game allows fewer).
        seed: int seed of the game (None: a random one, kept in the save file).
        resume: path of a save file to continue (``players``/``seed``/options then come from
            the file; bot seats from its ``.seats.json`` sidecar).
        autosave: save path; ``None`` = ``moneynb-saves/<game>-<timestamp>.json`` (or the
            resumed file itself), ``False`` = no saving.
        bot_delay, max_bot_steps, title: see :class:`GameView`.
        origin: where the game is started, kept with its autosave (default ``"lab"``, or the
            resumed game's own): the Voila app continues only the games its page started.
        **options: the game's options (house rules), and ``undo``: "safe" (the default: no
            undo past a die, spin or card already seen) or "practice" (undo anything).

    The view offers the unfinished games autosaved beside its own (newest first, with
    game, players, turn and time: :mod:`moneynb.ui.saves`).

    Raises:
        ValueError: unknown game or bot, bad players or options, a resume file of another
            game, or a bad seats sidecar.
        moneynb.SaveFileError: a malformed, tampered or unreadable save file (the message
            starts with its path).
        FileNotFoundError: ``resume`` names no file.
    """
    from ..core.registry import game_class

    if resume is not None:
        if not isinstance(resume, (str, Path)):
            raise ValueError(f"resume must be the path of a save file, got {resume!r}")
        path = Path(resume)
        if not path.exists():
            raise FileNotFoundError(f"no save file at {path}")
        if not path.is_file():
            raise ValueError(f"resume must be a save file, but {path} is not a file")
        if players is not None or seed is not None or options:
            raise ValueError(
                "resume= continues a saved game with its own players, seed and options: "
                "pass none of them"
            )
        try:
            game = loads(path.read_bytes())
        except SaveFileError as e:  # the message names the file read
            raise SaveFileError(f"{path}: {e}") from None
        except OSError as e:
            raise SaveFileError(f"{path}: cannot be read ({e.strerror or e})") from None
        if game.name != name:
            raise ValueError(f"{path} holds a {game.title} game, not {name!r}")
        specs = _read_seats(path, game.players)
        if autosave is None:
            autosave = path
        if origin is None:
            origin = _read_origin(path)
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
        game = cls(names, seed, **options)
        if autosave is None:
            autosave = default_save_path(name)
    controllers = [None] * len(game.players)
    for seat, spec in specs.items():
        controllers[seat] = make_bot(spec, seed=_bot_seed(game.seed, seat, len(game.actions)))
    return GameView(
        game,
        controllers,
        autosave=autosave or None,
        title=title,
        bot_delay=bot_delay,
        max_bot_steps=max_bot_steps,
        bot_specs=specs,
        origin=origin or "lab",
    )


def unfinished_games(game: str | None = None, folder=None) -> list:
    """The unfinished autosaved games (newest first) under ``folder`` (default
    ``moneynb-saves``), of ``game`` or all: see :func:`moneynb.ui.saves.unfinished`. Each has
    ``path`` (for ``play(name, resume=path)``) and ``describe()``."""
    from .saves import SAVES, unfinished

    return unfinished(SAVES if folder is None else folder, game=game)


__all__ = ["play", "app_mode", "GameView", "default_save_path", "unfinished_games"]
