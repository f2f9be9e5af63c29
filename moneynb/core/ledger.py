"""Double-entry money ledger: every dollar lives in an account and moves by transfer.

Source: DESIGN.md ("Money moves only between accounts"). Amounts are whole dollars (``int``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import LedgerError


@dataclass
class Transfer:
    """One movement of money: ``amount`` dollars from account ``src`` to account ``dst``."""

    src: str
    dst: str
    amount: int
    reason: str = ""


@dataclass
class Ledger:
    """Named accounts holding whole dollars, with a conserved total.

    ``balances`` maps account name -> dollars. Accounts listed in ``may_go_negative`` (a bank
    cashier with unlimited money, a bank account that can be overdrawn) may hold less than 0;
    every other account never does. The sum of all balances is fixed at creation
    (:attr:`total`) and :meth:`check` verifies it.

    Raises:
        LedgerError: on a negative or non-int amount, an unknown account, or an overdraft of an
            account that may not go negative.
    """

    balances: dict[str, int] = field(default_factory=dict)
    may_go_negative: set[str] = field(default_factory=set)
    total: int = 0

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
        """Move ``amount`` dollars from ``src`` to ``dst`` and return the :class:`Transfer`."""
        if type(amount) is not int or amount < 0:
            raise LedgerError(f"transfer amount must be a non-negative int, got {amount!r}")
        for name in (src, dst):
            if name not in self.balances:
                raise LedgerError(f"unknown account {name!r}")
        if self.balances[src] - amount < 0 and src not in self.may_go_negative:
            raise LedgerError(
                f"{src!r} holds ${self.balances[src]} and cannot pay ${amount} ({reason})"
            )
        self.balances[src] -= amount
        self.balances[dst] += amount
        return Transfer(src, dst, amount, reason)

    def check(self) -> None:
        """Raise :class:`LedgerError` unless money is conserved and no balance breaks the rules."""
        values = self.balances.values()
        s = sum(values)
        if type(s) is int and s == self.total and min(values, default=0) >= 0:
            return  # the common case, checked fast: ints, conserved, nothing below $0
        if s != self.total:
            raise LedgerError(f"money not conserved: accounts sum to ${s}, expected ${self.total}")
        for name, bal in self.balances.items():
            if type(bal) is not int:
                raise LedgerError(f"account {name!r} holds a non-int amount {bal!r}")
            if bal < 0 and name not in self.may_go_negative:
                raise LedgerError(f"account {name!r} is below $0: ${bal}")
