"""Turn-order helpers shared by the games.

Source: the opening-roll rule common to Money Moves (section 5), Easy Money and Moolah:
everyone rolls, the highest starts, and the players tied for the highest roll again among
themselves until one is highest.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class OpeningRoll:
    """The opening roll in progress: ``rollers`` (seats, in order) roll one by one.

    ``record(value)`` stores the roll of :attr:`next_roller` and says what follows, as
    ``(outcome, seats, best)``: ``("roll", [], None)`` another player rolls;
    ``("tie", seats, best)`` the seats tied on the highest roll ``best`` roll again (this object
    now holds only them); ``("start", [seat], best)`` ``seat`` starts.
    Values are whatever the game compares (a die's face, a two-dice total).
    """

    rollers: list[int]
    index: int = 0
    rolls: dict[int, int] = field(default_factory=dict)

    @property
    def next_roller(self) -> int:
        """The seat that rolls next."""
        return self.rollers[self.index]

    def record(self, value: int) -> tuple[str, list[int], int | None]:
        """Record the next roller's ``value``; see the class docstring for the result."""
        self.rolls[self.next_roller] = value
        self.index += 1
        if self.index < len(self.rollers):
            return "roll", [], None
        best = max(self.rolls.values())
        top = [s for s in self.rollers if self.rolls[s] == best]
        if len(top) > 1:
            self.rollers, self.index, self.rolls = top, 0, {}
            return "tie", top, best
        return "start", top, best
