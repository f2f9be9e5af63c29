"""Double-entry money ledger: every dollar lives in an account and moves by transfer.

Source: DESIGN.md ("Money moves only between accounts"). Amounts are whole dollars (``int``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .errors import LedgerError


@dataclass(slots=True)
class Transfer:
    """One movement of money: ``amount`` dollars from account ``src`` to account ``dst``."""

    src: str
    dst: str
    amount: int
    reason: str = ""


_dict_set = dict.__setitem__


class Balances(dict):
    """The ledger's ``{account: dollars}``: a dict that notes (``changed``) every change
    made to it by anything but the ledger's own :meth:`Ledger.move` (item assignment,
    ``del``, ``update``, ``pop``, ``setdefault``, ``clear``...), so :meth:`Ledger.check` can
    tell in one look that only transfers moved money since the last full check (engine
    speed; a transfer checks its own amount and overdraft). A copy or a pickle counts as
    changed."""

    changed = True

    def __reduce__(self):  # a copy or a pickle starts as changed (checked in full)
        return (Balances, (dict(self),))

    def __deepcopy__(self, memo: dict) -> Balances:
        """A copy, as changed (checked in full); int balances need no copying of their own."""
        if all(type(v) is int for v in self.values()):
            new = Balances(self)
        else:
            new = Balances(copy.deepcopy(dict(self), memo))
        memo[id(self)] = new
        return new

    def __setitem__(self, key, value):
        self.changed = True
        dict.__setitem__(self, key, value)

    def __delitem__(self, key):
        self.changed = True
        dict.__delitem__(self, key)

    def __ior__(self, other):
        self.changed = True
        return dict.__ior__(self, other)

    def update(self, *args, **kwargs):
        self.changed = True
        dict.update(self, *args, **kwargs)

    def setdefault(self, key, default=None):
        self.changed = True
        return dict.setdefault(self, key, default)

    def pop(self, *args):
        self.changed = True
        return dict.pop(self, *args)

    def popitem(self):
        self.changed = True
        return dict.popitem(self)

    def clear(self):
        self.changed = True
        dict.clear(self)


@dataclass
class Ledger:
    """Named accounts holding whole dollars, with a conserved total.

    ``balances`` maps account name -> dollars. Accounts listed in ``may_go_negative`` (a bank
    cashier with unlimited money, a bank account that can be overdrawn) may hold less than 0;
    every other account never does. The sum of all balances is fixed at creation
    (:attr:`total`) and :meth:`check` verifies it. ``balances`` is kept as a
    :class:`Balances` (a plain dict given is copied into one).

    Raises:
        LedgerError: on a negative or non-int amount, an unknown account, or an overdraft of an
            account that may not go negative.
    """

    balances: dict[str, int] = field(default_factory=Balances)
    may_go_negative: set[str] = field(default_factory=set)
    total: int = 0

    def __post_init__(self) -> None:
        if type(self.balances) is not Balances:
            self.balances = Balances(self.balances)
        #: (total, accounts that may go negative) at the last check that found all well
        self._checked: tuple | None = None

    def open(self, name: str, balance: int = 0, *, may_go_negative: bool = False) -> None:
        """Open account ``name`` holding ``balance`` dollars (adds to the conserved total)."""
        if name in self.balances:
            raise LedgerError(f"account {name!r} already exists")
        if type(balance) is not int:
            raise LedgerError(f"balance must be int dollars, got {balance!r}")
        if balance < 0 and not may_go_negative:
            raise LedgerError(f"account {name!r} may not start below $0")
        self.balances[name] = balance
        if may_go_negative:
            self.may_go_negative.add(name)
        self.total += balance

    def __getitem__(self, name: str) -> int:
        return self.balances[name]

    def __contains__(self, name: str) -> bool:
        return name in self.balances

    def transfer(self, src: str, dst: str, amount: int, reason: str = "") -> Transfer:
        """Move ``amount`` dollars from ``src`` to ``dst`` and return the :class:`Transfer`
        (see :meth:`move`)."""
        self.move(src, dst, amount, reason)
        return Transfer(src, dst, amount, reason)

    def move(self, src: str, dst: str, amount: int, reason: str = "") -> None:
        """Move ``amount`` dollars from ``src`` to ``dst`` (``reason`` names it in an error).

        Raises:
            LedgerError: a negative or non-int amount, an unknown account, or an overdraft of
                an account that may not go negative. Nothing has moved when this is raised.
        """
        if type(amount) is not int or amount < 0:
            raise LedgerError(f"transfer amount must be a non-negative int, got {amount!r}")
        b = self.balances
        if src not in b or dst not in b:
            raise LedgerError(f"unknown account {src if src not in b else dst!r}")
        left = b[src] - amount
        if left < 0 and src not in self.may_go_negative:
            raise LedgerError(f"{src!r} holds ${b[src]} and cannot pay ${amount} ({reason})")
        _dict_set(b, src, left)  # the ledger's own moves: checked above
        _dict_set(b, dst, b[dst] + amount)

    def check(self) -> None:
        """Raise :class:`LedgerError` unless money is conserved and no balance breaks the rules.

        When only :meth:`transfer` moved money since the last check that found all well (and
        the total and the accounts that may go negative are as they were then), all is still
        well: each transfer moved a non-negative int between two accounts and refused an
        overdraft. Anything else (a balance set, an account added or removed) is checked in
        full."""
        b = self.balances
        checked = self._checked
        if (
            checked is not None
            and type(b) is Balances  # (a plain dict put in its place is checked in full)
            and not b.changed
            and checked[0] == self.total
            and checked[1] == self.may_go_negative
        ):
            return
        values = b.values()
        s = sum(values)
        if type(s) is int and s == self.total and min(values, default=0) >= 0:
            self._remember_checked()
            return  # the common case, checked fast: ints, conserved, nothing below $0
        if s != self.total:
            raise LedgerError(f"money not conserved: accounts sum to ${s}, expected ${self.total}")
        for name, bal in b.items():
            if type(bal) is not int:
                raise LedgerError(f"account {name!r} holds a non-int amount {bal!r}")
            if bal < 0 and name not in self.may_go_negative:
                raise LedgerError(f"account {name!r} is below $0: ${bal}")
        self._remember_checked()

    def _remember_checked(self) -> None:
        """Note that all was found well now (see :meth:`check`)."""
        b = self.balances
        if type(b) is Balances:
            b.changed = False
            self._checked = (self.total, frozenset(self.may_go_negative))
