"""Sizes of the long statistical tests: their full size, or the bounded share the README's test
command (and CI) runs.

The random-game tests play many seeded games per game (1,000 in the shared random-game test,
the size its issue asks for). The whole suite must stay well under 30 minutes on CI's 2-core
machine, so by default each such test plays the first ``share`` of its seeds, the same seeds
every run; ``MONEYNB_LONG_RUNS=1 bash scripts/test-all.sh`` (or ``pytest -m long`` with the
variable set) plays them all. Tests that use this are marked ``@pytest.mark.long``.
"""

from __future__ import annotations

import os

#: ``MONEYNB_LONG_RUNS=1``: every long statistical test at its full size
LONG_RUNS = os.environ.get("MONEYNB_LONG_RUNS", "") == "1"


def size(full: int, share: int) -> int:
    """``full`` seeds (games) under ``MONEYNB_LONG_RUNS=1``, else ``share`` (at most ``full``).

    Raises ``ValueError`` when ``share`` is not between 1 and ``full``."""
    if not 1 <= share <= full:
        raise ValueError(f"a share of {share} seeds out of {full}")
    return full if LONG_RUNS else share
