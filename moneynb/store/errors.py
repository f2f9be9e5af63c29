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
