"""The app on preheated kernels (issue 41: a reload brings the board back within seconds).

``voila.json`` gives each app notebook a preheated kernel: Voila starts it and runs the
notebook before any page asks for it, so a page load or a reload is served at once by a kernel
that already ran the notebook, and the pool starts the next one. Here Voila runs with the
repository's ``voila.json`` (its pool for ``start_here.ipynb`` only, so the test's server
starts one preheated kernel, not six), served on the folder as on Binder:

* the first page is served by the preheated kernel, and its "Choose a game" links open this
  server's app pages: the kernel ran the notebook before the page existed, so it waited for the
  page's address (Voila's ``wait_for_request``) before it wrote them;
* a game started from the form and moved once comes back after a reload ("Welcome back"),
  with the board drawn: the reload is served by the pool's next kernel.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from conftest import launcher_form, patience, press_start, screenshot, voila_shows, wait_saved
from servers import jupyter_server

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
GAME = ".moneynb-launch-game-box .moneynb-view"
GAMES = ["money_moves", "moolah", "easy_money", "money_card", "money_run"]
LINKS_JS = """() => [...document.querySelectorAll('a')]
    .filter(a => /^play .* as an app$/.test(a.textContent.trim()))
    .map(a => new URL(a.getAttribute('href'), location.href).href)"""


def _used(log: Path) -> int:
    return log.read_text(errors="replace").count("Using pre-heated kernel")


def test_the_app_on_preheated_kernels_links_this_server_and_brings_a_game_back(
    browser_context, tmp_path
):
    config = json.loads((REPO / "voila.json").read_text())
    assert config["VoilaConfiguration"]["preheat_kernel"] is True
    pools = config["VoilaKernelManager"]["kernel_pools_config"]
    config["VoilaKernelManager"]["kernel_pools_config"] = {
        "default": pools["default"], "start_here.ipynb": pools["start_here.ipynb"]
    }  # fmt: skip
    (tmp_path / "voila.json").write_text(json.dumps(config))
    extra = (f"--Voila.config_file_paths=['{tmp_path}']",)
    with jupyter_server("voila", timeout=120, extra_args=extra) as (base, root):
        log = root.parent / "server.log"
        # the pool's kernel is started (else Voila serves the page with a new kernel)
        deadline = time.monotonic() + patience(120_000) / 1000
        while "Kernel pool of start_here.ipynb is filled" not in log.read_text(errors="replace"):
            assert time.monotonic() < deadline, "Voila's pool never started its kernel"
            time.sleep(0.5)
        page = browser_context.new_page()
        page.set_default_timeout(patience(30_000))
        try:
            page.goto(f"{base}/voila/render/start_here.ipynb", timeout=patience(240_000))
            form = launcher_form(page)
            assert _used(log) >= 1, "the page was not served by the preheated kernel"
            want = [f"{base}/voila/render/{g}.ipynb" for g in GAMES]
            assert page.evaluate(LINKS_JS) == want
            seed = form.locator(".moneynb-launch-seed input")
            seed.fill("5")
            seed.press("Enter")
            view = press_start(page, form, GAME, board=False)
            act = (
                "(sel) => Number((document.querySelector(sel + ' .moneynb-header')"
                ".textContent.match(/action (\\d+)/) || [0, -1])[1])"
            )
            start = page.evaluate(act, GAME)
            view.locator(".moneynb-decision button:not([disabled])").first.click()
            page.wait_for_function(
                f"([sel, n]) => ({act})(sel) > n", arg=[GAME, start], timeout=patience(30_000)
            )
            wait_saved(page, GAME)
            played = re.search(r"action (\d+)", view.locator(".moneynb-header").inner_text())[1]
            page.reload(timeout=patience(240_000))
            voila_shows(page, GAME, name="voila-preheat-reload")
            page.wait_for_function(
                f"() => document.querySelector('{GAME} .js-plotly-plot .scatterlayer .trace')",
                timeout=patience(60_000),
            )
            assert "Welcome back" in page.locator(".moneynb-launch-restored").inner_text()
            back = re.search(r"action (\d+)", view.locator(".moneynb-header").inner_text())[1]
            # the move came back (bots may have moved on after it was saved)
            assert int(back) >= int(played) > start, (start, played, back)
            assert _used(log) >= 2, "the reload was not served by the pool's next kernel"
            assert page.evaluate(LINKS_JS) == want
        except BaseException:
            screenshot(page, "voila-preheat-failure")
            raise
        finally:
            page.close()
