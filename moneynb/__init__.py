"""moneynb: five money board games in Jupyter, and probability and finance taught with them.

The public API (DESIGN.md)::

    g = moneynb.new_game("money_moves", players=["Ann", "Bob", "Cy"], seed=7)
    g.decision, g.legal_actions(), g.apply(action), g.over, g.winner, g.scores(), g.money()
    g2 = moneynb.load_game(g.to_json())
    bot = moneynb.make_bot("greedy", seed=1); g.apply(bot.choose(g))
    moneynb.play("money_moves", players=["You", "bot:greedy"])   # in a notebook
    moneynb.replay(g.to_json())                                    # step through a game

Importing moneynb imports no Jupyter or plotting library; ``play`` and ``simulate`` import
theirs when called.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bots import make_bot
from .core import DataFileError, Decision, Event, Game, IllegalAction, SaveFileError
from .core.registry import GAMES, available_games, game_class
from .core.replay import Replay

__version__ = "0.1.0"


def new_game(name: str, players=None, seed: int | None = None, **options) -> Game:
    """Start game ``name`` (see :data:`GAMES`) for ``players`` (list of names, seat order).

    Args:
        name: "money_moves", "moolah", "easy_money", "money_card" or "money_run".
        players: distinct names; how many is the rulebook's range for that game.
        seed: int seed for all the game's chance (dice, shuffles); None picks one.
        **options: the game's house-rule options (``game_class(name).default_options``).

    Raises:
        ValueError: unknown game, no players, duplicate names, a name over 40 characters or
            one beginning "bot:" (how :func:`play` is asked for a bot), a player count the
            rulebook does not allow, or an unknown/ill-typed option.
        DataFileError: (a ValueError) a house-rule data file option names a file that is
            unreadable or breaks its schema (the message names the file, field and range).
    """
    cls = game_class(name)
    if players is None or (hasattr(players, "__len__") and len(players) == 0):
        raise ValueError(
            f"{cls.title} needs players: give a list of {cls.min_players} to "
            f"{cls.max_players} names"
        )
    return cls(players, seed, **options)


def load_game(text: str) -> Game:
    """Rebuild a saved game from :meth:`Game.to_json` text (replays its actions).

    Raises:
        SaveFileError: malformed, unknown-version or tampered save text, a house-rule data
            file it names that breaks its schema, or an engine failure met in replay. Nothing
            else is raised.
    """
    from .core.save import loads

    return loads(text)


#: what ``play``, ``replay`` and the other widget entry points import, and the extra that brings it
FRONT_END = ("ipywidgets", "plotly", "anywidget", "IPython")


def require_front_end(what: str) -> None:
    """Check that the notebook front end is installed before ``what`` builds a widget.

    Raises:
        ModuleNotFoundError: naming the missing module and the install command
            (``pip install -e ".[ui]"`` in a clone; ``[app]`` adds Voila).
    """
    import importlib

    missing = []
    for module in FRONT_END:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ModuleNotFoundError(
            f"moneynb.{what} shows a widget and needs the notebook front end, which is not "
            f"installed here (missing: {', '.join(missing)}). Install it with "
            '`pip install -e ".[ui]"` in a clone of moneynb; '
            '".[app]" adds the Voila app.',
            name=missing[0],
        )


def play(name: str, players=None, seed: int | None = None, **kwargs):
    """Show game ``name`` as a widget in a notebook; entries like ``"bot:greedy"`` are bots.

    Returns the :class:`moneynb.ui.GameView` (display it, or it displays itself as the cell's
    last value). Games are kept in the game store (:mod:`moneynb.store`); ``resume=`` takes a
    stored game's id or a JSON save file; ``store=`` chooses the store, ``autosave=False`` saves
    nothing.

    Raises:
        ModuleNotFoundError: the notebook front end is not installed (the message says which
            extra to install).
    """
    require_front_end("play")
    from .ui import play as _play

    return _play(name, players=players, seed=seed, **kwargs)


def replay(source, **kwargs):
    """Step through a finished (or unfinished) game in a notebook: the game's board, money
    table, log and Coach at every step, a slider, and "Continue from here".

    ``source``: a save file's path, its JSON text, a game (or the view ``play`` returned), or a row of
    ``simulate(..., keep_games=True)``. Returns a :class:`moneynb.ui.replay.ReplayView`.
    Without Jupyter, :class:`moneynb.Replay` (:mod:`moneynb.core.replay`) gives the same steps as plain Python.

    Raises:
        SaveFileError: malformed or tampered save text. FileNotFoundError: no file at the
            path. TypeError: a source of another kind. ModuleNotFoundError: the notebook front
            end is not installed (the message says which extra to install).
    """
    require_front_end("replay")
    from .ui.replay import ReplayView

    return ReplayView(source, **kwargs)


def host(name: str, seats, **kwargs):
    """Open a shared table of game ``name`` (``seats``: names and ``"bot:greedy"`` entries) in
    the game store and show it with its join code; see :func:`moneynb.ui.table.host`."""
    from .ui.table import host as _host

    return _host(name, seats, **kwargs)


def join(code: str, name: str | None = None, **kwargs):
    """Take the seat ``name`` at the shared table with join ``code`` (from any kernel on the
    same store) and show it; see :func:`moneynb.ui.table.join`."""
    from .ui.table import join as _join

    return _join(code, name, **kwargs)


def classroom(**kwargs):
    """The teacher's view of a class (open one, its roster, tables and games live, lessons,
    end and export); see :func:`moneynb.ui.classroom.classroom`.

    A teacher who is not a hub user named in ``MONEYNB_TEACHERS`` is asked for the passcode
    in a password box (``getpass``: what is typed is not shown, and is never in the notebook),
    so the passcode is never typed into a cell a class can see on a projector.

    Raises:
        moneynb.ui.classroom.NotATeacher: not a teacher, a wrong passcode, or no password box
            here (Voila: use the app's "Teacher passcode" box).
        moneynb.store.TooManyTries: too many wrong passcodes: wait the seconds it says.
    """
    import os

    from .ui.classroom import NotATeacher
    from .ui.classroom import classroom as _classroom

    if kwargs.get("passcode") is None and os.environ.get("MONEYNB_TEACHER_PASSCODE"):
        from .store import is_teacher
        from .ui.identity import current_owner

        if not is_teacher(kwargs.get("owner") or current_owner()):
            import getpass

            try:
                kwargs["passcode"] = getpass.getpass("Teacher passcode (not shown): ")
            except Exception as e:  # noqa: BLE001 - no stdin here (Voila, a script)
                raise NotATeacher(
                    "the teacher passcode cannot be asked for here (no password box: "
                    f"{type(e).__name__}): open the app's Teacher's view and type it into "
                    "its Teacher passcode box"
                ) from None
    return _classroom(**kwargs)


def join_class(code: str, name: str | None = None, **kwargs):
    """Join your class with the code on the board and your name (on a hub, the name is the hub
    user's by default): from then on your games and lesson results belong to the class; see
    :func:`moneynb.ui.classroom.join_class`."""
    require_front_end("join_class")
    from .ui.classroom import join_class as _join_class

    return _join_class(code, name, **kwargs)


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
    """Play ``n_games`` seeded games of ``game`` with bots and tabulate them (one row a game).

    ``moneynb.simulate("moolah", ["greedy", "random"], n_games=200, seed=1)``

    Args:
        game: a game name ("money_moves", "moolah", "easy_money", "money_card", "money_run").
        players: one bot name per seat ("random", "greedy", "search"); seat ``i`` is named
            ``<bot><i+1>`` ("greedy1", "random2").
        n_games: number of games (0 to 1,000,000).
        seed: master seed (int >= 0): game ``i`` and its bots are seeded from it, so the table
            is the same whatever ran it.
        workers: processes to play in (1: this one). They start whatever the machine's load;
            fewer play only when this process may use fewer cores (or there are no games):
            the progress bar and the table's ``attrs["workers"]`` say how many ran and why.
        per_turn: also return a table of every player's money at the start of each turn.
        progress: show a progress bar.
        client: a ``dask.distributed.Client``: play on its cluster instead.
        options: the game's house-rule options, for every game.
        chunk_size: games per task sent to a worker (default: chosen from the games left).
        keep_games: also keep each game's save text in a ``save`` column
            (``moneynb.replay(table.loc[i])`` steps through game ``i``).

    Returns:
        a pandas DataFrame indexed by ``game``: ``seed, winner, winners, actions, turns``,
        ``money_<seat name>`` (dollars in the wallet at the end) and ``score_<seat name>``
        (and ``save``); with ``per_turn=True`` a pair ``(games, turns)``.

    Raises:
        ValueError: unknown game or bot, a player that is not a bot name, ``n_games``,
            ``workers``, ``seed`` or ``chunk_size`` out of range, bad ``options``.

    The whole reference: :func:`moneynb.analysis.montecarlo.simulate` (issue 39 gave this one
    its real signature, so Shift-Tab in Jupyter shows it).
    """
    from .analysis.montecarlo import simulate as _simulate

    return _simulate(
        game,
        players=players,
        n_games=n_games,
        seed=seed,
        workers=workers,
        per_turn=per_turn,
        progress=progress,
        client=client,
        options=options,
        chunk_size=chunk_size,
        keep_games=keep_games,
    )


__all__ = [
    "new_game",
    "load_game",
    "make_bot",
    "play",
    "simulate",
    "replay",
    "host",
    "join",
    "classroom",
    "join_class",
    "Replay",
    "Game",
    "Decision",
    "Event",
    "IllegalAction",
    "SaveFileError",
    "DataFileError",
    "GAMES",
    "available_games",
    "game_class",
]
