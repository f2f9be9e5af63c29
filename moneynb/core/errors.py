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


class LedgerError(RuntimeError):
    """A transfer that would break the ledger's rules (negative amount, overdrawn account).

    This is an engine bug, never a player's mistake: rules check funds before they move money.
    """
