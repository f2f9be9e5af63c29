"""Shared fixtures for every test under tests/."""

import pytest

from moneynb.analysis.montecarlo import shutdown_workers


@pytest.fixture(autouse=True, scope="module")
def _stop_warm_simulate_workers():
    """Stop ``simulate``'s warm worker processes after each test module.

    They are forked, so they hold copies of every pipe the test process had open, among them
    the Playwright driver's stdin (the browser tests' session-wide ``sync_playwright``): kept
    alive to the end of the session, they stopped the driver from seeing end-of-file and the
    whole run hung at its last teardown.
    """
    yield
    shutdown_workers()
