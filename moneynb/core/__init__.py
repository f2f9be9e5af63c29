"""moneynb's engine core: no Jupyter imports here (DESIGN.md)."""

from .chance import D6, Deck, Die, Spinner, seat_at, sum_distribution
from .decision import KINDS, Decision, Event
from .errors import DataFileError, IllegalAction, LedgerError, SaveFileError
from .game import Game
from .ledger import Ledger, Transfer

__all__ = [
    "D6",
    "Deck",
    "Die",
    "Spinner",
    "seat_at",
    "sum_distribution",
    "KINDS",
    "Decision",
    "Event",
    "DataFileError",
    "IllegalAction",
    "LedgerError",
    "SaveFileError",
    "Game",
    "Ledger",
    "Transfer",
]
