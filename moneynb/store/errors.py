"""Errors of the game store (:mod:`moneynb.store`). Each message says what happened in plain
words and what to do."""

from __future__ import annotations


class StoreError(Exception):
    """Base class: a store operation failed; nothing of it was stored."""


class ConflictError(StoreError):
    """An append or undo named an action count that is not the stored one: another kernel
    (window, browser) wrote this game first. Nothing was stored; re-read the game.

    Attributes:
        game_id: the game.
        expected: the action count the caller named.
        stored: the action count in the store.
    """

    def __init__(self, game_id: str, expected: int, stored: int):
        self.game_id, self.expected, self.stored = game_id, expected, stored
        super().__init__(
            f"this game was changed elsewhere (another window or kernel): the store holds "
            f"{stored} actions, this write followed action {expected}; nothing was saved"
        )


class NoSuchGame(StoreError, KeyError):
    """No game with that id (or none that this owner may open: the two read the same)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "no such game"


class SeatTaken(StoreError):
    """The seat asked for is held by another owner (or does not exist)."""


class StoreUnavailable(StoreError):
    """The store cannot be read or written: a read-only or full disk, a database that is down,
    a path that is not a store. The message names the store and the cause."""


class StoreVersionError(StoreError):
    """The store was written by a newer moneynb (a schema version this one does not know)."""


class LiveTable(StoreError):
    """The game is a shared table that is still being played: it cannot be replayed,
    continued from a step, resumed as a solo game or exported until it ends (that would show
    the other seats' hidden cards and the coming chance; issue 35, case 2)."""

    @classmethod
    def check(cls, info, doing: str = "replayed") -> None:
        """Raise :class:`LiveTable` when ``info`` (a :class:`~moneynb.store.GameInfo`) is a
        table (it has a join code) that is not over. ``doing``: what was asked, in the
        message ("replayed", "exported", "continued from a step")."""
        if getattr(info, "table", None) and not getattr(info, "over", True):
            raise cls(
                f"table {info.table} is still being played: it can be {doing} once it has "
                "ended (until then the replay would show the other seats' hidden cards and "
                f'the coming dice); to play on, join it: moneynb.join("{info.table}") or the '
                "app's Join a table"
            )


class TooManyTries(StoreError):
    """Too many tries in a short time (wrong join codes, wrong teacher passcodes, new games
    or tables): refused without looking, with how long to wait (:mod:`moneynb.store.limits`;
    issue 35, cases 6 and 7). Nothing was changed.

    Attributes:
        wait_s: whole seconds to wait before the next try is looked at.
    """

    def __init__(self, message: str, wait_s: int):
        self.wait_s = wait_s
        super().__init__(message)


class OneSeatEach(SeatTaken):
    """The owner (one person: a hub user or a browser) already holds another seat at this
    table: one seat per person per table (issue 35, case 5)."""


class NotAllowed(StoreError, PermissionError):
    """The store's owner (the moneynb service of a hub) refused the request: it is not this
    user's to make (another's game, seat or name; a teacher's list; a token the hub does not
    know). Nothing was stored."""


class GameClosed(StoreError):
    """A move for a game the teacher closed, or whose class ended: nothing was stored."""


class NoSuchClass(StoreError, KeyError):
    """No class session with that code or id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such class"


class ClassEnded(StoreError):
    """The class session has ended: it can be read and exported, nothing can be added."""


class NotInClass(StoreError):
    """The owner is in no open class (join one first), or was removed from it."""


class NotClassTeacher(StoreError, PermissionError):
    """Only the teacher who opened the class may do this."""
