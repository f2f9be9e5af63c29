"""A closed Voila page leaves no kernel behind, a double-clicked Start makes one game, and the
"Choose a game" links stay on this server (a newcomer's report on the class app, voila 0.5.13).

Voila's own shutdown call on page close is refused by the server (``403 POST
/voila/api/shutdown/<id>: '_xsrf' argument missing from POST``, voila-dashboards/voila#1458):
36 reloads left 36 kernels of 150-180 MB. The page's own code (``shutdownOnLeave`` in
``moneynb/ui/a11y.py``) now asks for the shutdown with the ``_xsrf`` cookie as
``X-XSRFToken``, as a keepalive request. One page load of ``start_here.ipynb`` (Voila served
on the folder): its game links resolve to this server's app pages; note the page's kernel
(from its kernel websocket), double-click Start and count the games in the server's store (one
more, not two), close the page, and wait until the server no longer has that kernel.
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest
from conftest import launcher_form, patience

pytestmark = pytest.mark.browser


def _games(root) -> int:
    from moneynb.store import open_store

    path = root.parent / "store" / "games.sqlite3"  # MONEYNB_STORE of the server
    return len(open_store(path).list_all(limit=None)) if path.exists() else 0


def _kernel_exists(base: str, kernel: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel}", timeout=10) as r:
            return r.status == 200
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return False
        raise


def test_a_closed_voila_page_shuts_its_kernel_and_a_double_click_starts_one_game(
    voila_server, browser_context
):
    base, root = voila_server
    page = browser_context.new_page()
    page.set_default_timeout(patience(30_000))
    kernels = []  # the page's kernel ids, from its websockets
    page.on("websocket", lambda ws: kernels.extend(re.findall(r"/api/kernels/([\w-]+)", ws.url)))
    try:
        page.goto(f"{base}/voila/render/start_here.ipynb", timeout=patience(240_000))
        form = launcher_form(page)
        plays = page.evaluate(
            """() => [...document.querySelectorAll('a')]
                .filter(a => /^play .* as an app$/.test(a.textContent.trim()))
                .map(a => new URL(a.getAttribute('href'), location.href).href)"""
        )
        games = ["money_moves", "moolah", "easy_money", "money_card", "money_run"]
        assert plays == [f"{base}/voila/render/{g}.ipynb" for g in games]
        assert kernels, "the page opened no kernel websocket"
        kernel = kernels[-1]
        assert _kernel_exists(base, kernel)
        before = _games(root)
        form.locator("button.moneynb-launch-start").dblclick()
        page.locator(
            ".moneynb-launch-game-box .moneynb-view .moneynb-decision button"
        ).first.wait_for(timeout=patience(60_000))
        # the second click reaches the kernel after the first: wait until both are handled
        page.wait_for_function(
            "() => !document.querySelector('button.moneynb-launch-start').disabled",
            timeout=patience(30_000),
        )
        assert _games(root) == before + 1
    finally:
        page.close()
    deadline = time.monotonic() + patience(30_000) / 1000
    while _kernel_exists(base, kernel):
        assert time.monotonic() < deadline, f"kernel {kernel} still runs after its page closed"
        time.sleep(0.5)
