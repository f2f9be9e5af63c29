"""Two browsers at one shared Moolah table through the Voila app (issue 25, part 2).

Two Chromium contexts (two browsers with their own ``localStorage``: two browser owners, as
two students' browsers are) open the app. The first hosts a table of two people (Ann, Bob) from the form ("Host a table"), the
second joins it with the join code shown on the first's board ("Join a table", name Bob).
Then each page clicks only when its own seat is to decide; after every click both boards show
the same stored action count, log and money table, and the page whose seat is not to decide
shows only a disabled "waiting for ..." control.
"""

from __future__ import annotations

import pytest
from conftest import CHROMIUM_ARGS, launcher_form, patience

pytestmark = pytest.mark.browser

VIEW = ".moneynb-launch-game-box .moneynb-view"
STATE_JS = """() => {
  const v = document.querySelector('VIEW');
  if (!v) return null;
  const saved = v.querySelector('.moneynb-saved');
  const log = v.querySelector('.moneynb-log-box');
  const money = v.querySelector('.moneynb-money');
  return {actions: saved ? Number(saved.dataset.actions) : -1,
          log: log ? Number(log.dataset.count) : -1,
          money: money ? money.innerText : '',
          mine: v.querySelectorAll('.moneynb-decision button:not([disabled])').length,
          waiting: (v.querySelector('.moneynb-waiting') || {}).innerText || ''};
}""".replace("VIEW", VIEW)

#: one screen has caught up: ``n`` actions and ``log`` log lines at least, and its decision
#: panel is there (its seat's buttons, or the line saying whom it waits for)
SETTLED_JS = (
    "([n, log]) => { const s = (" + STATE_JS + ")(); return !!s && s.actions >= n"
    " && s.log >= log && (s.mine > 0 || s.waiting.includes('waiting for')); }"
)


def _open_form(page, url):
    page.goto(url, timeout=patience(240_000))
    launcher_form(page)
    return page.locator(".moneynb-launcher")


def _state(page):
    return page.evaluate(STATE_JS)


def test_two_browsers_play_one_table_each_clicking_only_its_seat(voila_server, browser_context):
    base, _root = voila_server
    browser = browser_context.moneynb_playwright.chromium.launch(
        executable_path=browser_context.moneynb_chromium, headless=True, args=CHROMIUM_ARGS
    )
    ann = browser.new_context(viewport={"width": 1400, "height": 1400}).new_page()
    bob = browser.new_context(viewport={"width": 1400, "height": 1400}).new_page()
    try:
        form = _open_form(ann, f"{base}/voila/render/moolah.ipynb")
        form.locator(".moneynb-launch-count select").select_option("2")
        rows = form.locator(".moneynb-launch-row")
        rows.nth(1).locator(".moneynb-launch-kind select").select_option("person")
        rows.nth(0).locator("input").fill("Ann")
        rows.nth(1).locator("input").fill("Bob")
        form.locator("button.moneynb-launch-host").click()
        code_el = ann.locator(".moneynb-table-code")
        code_el.wait_for(state="visible", timeout=60_000)
        code = code_el.get_attribute("data-code")
        assert code and len(code) == 6

        form_b = _open_form(bob, f"{base}/voila/render/moolah.ipynb")
        form_b.locator(".moneynb-launch-join-code input").fill(code)
        form_b.locator(".moneynb-launch-join-name input").fill("Bob")
        form_b.locator("button.moneynb-launch-join").click()
        bob.locator(f"{VIEW} .moneynb-table-code").wait_for(state="visible", timeout=60_000)
        assert bob.locator(".moneynb-launch-error").inner_text().strip() == ""

        def settled(n_min):
            a, b = _state(ann), _state(bob)
            return a and b and a["actions"] == b["actions"] >= n_min and a["log"] == b["log"] \
                and (a["mine"] > 0) != (b["mine"] > 0)  # fmt: skip

        def settle(n_min):
            """Wait until both screens show at least ``n_min`` actions and a decision panel
            (buttons or "waiting for"), then until each has caught up with the other's log."""
            for p in (ann, bob):
                p.wait_for_function(SETTLED_JS, arg=[n_min, 0], timeout=patience(60_000))
            a, b = _state(ann), _state(bob)
            want = [max(a["actions"], b["actions"]), max(a["log"], b["log"])]
            for p in (ann, bob):
                p.wait_for_function(SETTLED_JS, arg=want, timeout=patience(60_000))

        last = 0
        for _click in range(6):
            settle(last)
            a, b = _state(ann), _state(bob)
            assert settled(last), (a, b)
            assert a["money"] == b["money"]  # the same board on both screens
            mover, waiter, who = (ann, b, "Ann") if a["mine"] else (bob, a, "Bob")
            assert waiter["mine"] == 0
            assert f"waiting for {who}" in waiter["waiting"]  # the other seat's name
            last = a["actions"] + 1
            mover.locator(f"{VIEW} .moneynb-decision button:not([disabled])").first.click()
        settle(last)
        a, b = _state(ann), _state(bob)
        assert settled(last) and a["money"] == b["money"], (a, b)
    finally:
        browser.close()
