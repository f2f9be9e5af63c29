"""Shared fixtures for every test under tests/."""

import os
from pathlib import Path

import pytest

from moneynb.analysis.montecarlo import shutdown_workers

TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Tests marked ``network`` ask the package index (PyPI): they run where
    ``MONEYNB_NETWORK_TESTS=1`` (CI, ``.ci/run``, runs them once), and are deselected, with a
    count in the summary, elsewhere."""
    if os.environ.get("MONEYNB_NETWORK_TESTS", "") == "1":
        return
    away = [item for item in items if item.get_closest_marker("network")]
    if away:
        items[:] = [item for item in items if not item.get_closest_marker("network")]
        config.hook.pytest_deselected(items=away)


def pytest_itemcollected(item):
    """The worker groups of ``pytest -n 2 --dist loadgroup`` (``scripts/test-all.sh``, pytest-xdist).

    Every browser test (``tests/browser``) is in one group: one worker runs them all, in file
    order (the ``test_zz_*`` files last), sharing one JupyterLab, one Voila and one Chromium
    (the session fixtures), never two browser tests at once. Every other test is grouped with
    the rest of its file, so a module's fixture (a JupyterHub, the built lesson sheets) starts
    once, on the worker that runs that file. Without ``-n`` the marks change nothing."""
    parts = item.path.resolve().relative_to(TESTS).parts
    group = "browser" if parts[0] == "browser" else "tests/" + "/".join(parts)
    item.add_marker(pytest.mark.xdist_group(group))


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


@pytest.fixture(autouse=True, scope="session")
def _private_store(tmp_path_factory):
    """Every test's games go to a store of its own session (``MONEYNB_STORE``), never the
    user's (``~/.local/share/moneynb``)."""
    import os

    path = tmp_path_factory.mktemp("store") / "games.sqlite3"
    old = os.environ.get("MONEYNB_STORE")
    os.environ["MONEYNB_STORE"] = str(path)
    yield path
    if old is None:
        os.environ.pop("MONEYNB_STORE", None)
    else:
        os.environ["MONEYNB_STORE"] = old


@pytest.fixture(autouse=True, scope="session")
def _no_new_game_limit():
    """Tests start games far faster than a class does: the bound on new games per minute
    (``moneynb.store.limits``, issue 35 case 7) is off for the session (``MONEYNB_LIMITS``,
    which the Voila and Jupyter servers the tests start inherit). The tests of the limits set
    their own with ``set_limits``; the other limits keep their defaults."""
    import os

    old = os.environ.get("MONEYNB_LIMITS")
    os.environ["MONEYNB_LIMITS"] = "games_per_minute=0, server_games_per_minute=0"
    yield
    if old is None:
        os.environ.pop("MONEYNB_LIMITS", None)
    else:
        os.environ["MONEYNB_LIMITS"] = old


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL server for the session (:mod:`pgserver`): has ``new_database()``.
    Fails (never skips) when PostgreSQL is not installed."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pgserver import postgres_server

    try:
        cm = postgres_server()
        server = cm.__enter__()
    except RuntimeError as e:
        pytest.fail(str(e))
    try:
        yield server
    finally:
        cm.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _no_browser_owner_carried_over():
    """The kernel-level browser owner (moneynb.ui.identity) starts unknown in every test."""
    import sys

    mod = sys.modules.get("moneynb.ui.identity")
    if mod is not None:
        mod._state["owner"] = None
    yield
    if mod is not None or "moneynb.ui.identity" in sys.modules:
        sys.modules["moneynb.ui.identity"]._state["owner"] = None


@pytest.fixture(autouse=True)
def _forget_board_scales():
    """Each test's views start at their boards' own size: the scale a page last reported for a
    game (``moneynb.ui.view._LAST_SCALE``, which sizes a new board's text) is forgotten
    after every test, so no test's board depends on the tests before it."""
    yield
    try:
        from moneynb.ui import view
    except ImportError:  # no ipywidgets: no views
        return
    view._LAST_SCALE.clear()
