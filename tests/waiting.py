"""Waiting on a condition in tests that run several processes or threads (tables, faults)."""

from __future__ import annotations

import time


def wait_for(cond, timeout: float = 60.0) -> bool:
    """Poll ``cond()`` every 50 ms until it is true or ``timeout`` seconds have passed.

    Returns:
        the last value of ``cond()`` (truthy when it came true in time).
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()
