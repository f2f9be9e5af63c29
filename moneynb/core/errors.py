"""Errors raised by the moneynb engine.

Source: DESIGN.md ("An illegal action changes nothing").
"""


class IllegalAction(ValueError):
    """An action that the pending decision does not allow.

    Raised by :meth:`moneynb.core.game.Game.apply` before anything changes; the message says
    what was wrong and what is allowed. The game state is exactly as it was before the call.
    """


class SaveFileError(ValueError):
    """A saved game (JSON text) that is malformed, of an unknown version, or tampered with.

    Raised by :func:`moneynb.load_game`; the message names the field or the action at fault.
    """


class DataFileError(ValueError):
    """A game data file (a shipped or house-rule ``.toml``) that breaks its schema or the
    game's own consistency checks.

    Raised by :func:`moneynb.new_game` (a house-rule ``data_file=``) before any game object is
    built; :func:`moneynb.load_game` turns it into a :class:`SaveFileError`. The message names
    the file, the field (``card[3].count``) and what is allowed ("a whole number from 1 to
    300"). Attributes: ``file`` (path or ``package/name``), ``field`` (dotted path or ``""``).
    """

    def __init__(self, message: str, file: str = "", field: str = ""):
        super().__init__(message)
        self.file = file
        self.field = field


class LedgerError(RuntimeError):
    """A transfer that would break the ledger's rules (negative amount, overdrawn account).

    This is an engine bug, never a player's mistake: rules check funds before they move money.
    """
