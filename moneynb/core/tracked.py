"""A list that counts its changes, so a table derived from it is remembered cheaply.

Engine speed (docs/speed.md, "Remembered tables"): a rules file keeps, e.g., who owns each
space in a :class:`CountedList`; a table computed from it is kept with the ``changes`` count it
was computed at, and is still valid while the count is the same (one integer compared instead
of the whole list). It is an ordinary ``list`` in every other way (equality, JSON, copies).
"""

from __future__ import annotations


class CountedList(list):
    """A ``list`` whose ``changes`` grows by one at every item assignment (``xs[i] = v``,
    ``xs[i] += 1``). Only item assignment is counted: a rules file that uses one changes its
    items that way only (its length never changes)."""

    __slots__ = ("changes",)

    def __init__(self, items=()):
        super().__init__(items)
        self.changes = 0

    def __setitem__(self, index, value) -> None:
        self.changes += 1
        super().__setitem__(index, value)
