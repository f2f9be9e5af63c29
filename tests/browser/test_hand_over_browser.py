"""Hot seat: the next person's double-click just after the hand-over plays their move once
(issue 38, case 1; hotseat48), in Voila.

Before: Money Moves, Ann and Bob at one screen. After Ann's Roll the view says "Hand over the
screen: Bob ..." and draws Bob's Roll where Ann's was (40-80 ms after the line, measured
here). Bob's double-click on it 1 s after the line appeared played nothing in 5 of 6 tries
(load 6-10): the page held a hand-over's controls for 1 s from when it showed them, so both
clicks fell in the hold (the tester: "a double-click never played for the next person").

Now the page holds a hand-over's controls for 0.7 s from when it shows them, the kernel for
0.7 s from when it drew them (the person before's slower double-click). Checked over three hand-overs (Ann -> Bob ->
Ann -> Bob): each double-click 1 s after the hand-over line plays exactly one move, the
person's; its second click says nothing (no "already made", no "not used" line); the kernel
has handled both clicks before the count is read (a later click of the "Board as text"
toggle has come back: the kernel handles messages in order). Then the person before's slower double-click (0.55 s apart, its
second click on the next person's new Roll) plays nothing for the next person, when the
page drew that Roll early enough for the click to reach it (printed otherwise).

That the hand-over words are in sight after a move (the tester of stop 49 found them
scrolled out of sight in Lab and in the Voila app) is checked in Lab, where a move scrolls
the page, by test_play_plainly_browser.py.
"""

from __future__ import annotations

import pytest
from conftest import patience, screenshot, voila_shows, write_probe_notebook

pytestmark = pytest.mark.browser

PROBE = """import moneynb
hot = moneynb.play("money_moves", players=["Ann", "Bob"], seed=3, autosave=False)
hot.add_class("probe-hand-over")
display(hot)
"""

VIEW = ".moneynb-view.probe-hand-over"

#: the Roll button's centre once it takes clicks (no hold running), scrolled into sight
ROLL_AT_JS = """(view) => {
  const b = document.querySelector(view + ' .moneynb-decision button.moneynb-roll:not([disabled])');
  if (!b || b.getAnimations().length) return null;
  b.scrollIntoView({block: 'center'});
  const r = b.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""

#: the centre of the view's first enabled decision button, where it is now
WHERE_JS = """(view) => {
  const b = document.querySelector(view + ' .moneynb-decision button:not([disabled])');
  const r = b.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""

#: from now on, note (performance.now()) when a new hand-over line shows, and when the first
#: control of a new panel shows and takes clicks
WATCH_JS = """(view) => {
  const v = document.querySelector(view), hdr = v.querySelector('.moneynb-header');
  const before = (hdr.querySelector('.moneynb-handoff') || {}).textContent || '';
  const first = v.querySelector('.moneynb-decision button');
  const w = window.__handOver = {line: null, text: '', panel: null, t0: performance.now()};
  new MutationObserver(() => {
    const h = hdr.querySelector('.moneynb-handoff');
    if (w.line === null && h && h.textContent !== before) {
      w.line = performance.now(); w.text = h.textContent; }
    const b = v.querySelector('.moneynb-decision button');
    if (w.panel === null && b && b !== first) w.panel = performance.now();
  }).observe(v, {subtree: true, childList: true, characterData: true});
  return true;
}"""

#: the hand-over line watched (WATCH_JS) has been shown for ``ms`` or more
LINE_AGO_JS = """(ms) => window.__handOver.line !== null
  && performance.now() - window.__handOver.line >= ms"""

COUNT_JS = """(view) => Number(/action (\\d+)/.exec(
  document.querySelector(view + ' .moneynb-header').textContent)[1])"""


def _round_trip(page) -> None:
    """Wait until the kernel has handled every click sent so far: it handles messages in
    order, so once a later click of the "Board as text" toggle shows its effect, it has."""
    toggle = page.locator(f"{VIEW} .moneynb-board-text-toggle")
    shown = page.evaluate(
        f"() => !document.querySelector('{VIEW} .moneynb-board-text').matches('.moneynb-sr-only')"
    )
    toggle.click()
    page.wait_for_function(
        """([view, shown]) => document.querySelector(view + ' .moneynb-board-text')
             .matches('.moneynb-sr-only') === shown""",
        arg=[VIEW, shown],
        timeout=patience(30_000),
    )


def _error(page) -> str:
    return page.locator(f"{VIEW} .moneynb-decision .moneynb-error").inner_text().strip()


def test_the_next_persons_double_click_after_the_hand_over_plays_once(voila_server, page):
    base, root = voila_server
    write_probe_notebook(root / "notebooks" / "probe_hand_over.ipynb", PROBE)
    page.set_viewport_size({"width": 1280, "height": 800})
    problems, seen = [], []
    try:
        page.goto(f"{base}/voila/render/probe_hand_over.ipynb", timeout=patience(240_000))
        voila_shows(page, f"{VIEW} .moneynb-board svg.main-svg", name="hand-over probe")
        # Ann's first Roll: a single click
        page.wait_for_function(ROLL_AT_JS, arg=VIEW, timeout=patience(60_000))
        x, y = page.evaluate(ROLL_AT_JS, VIEW)
        page.evaluate(WATCH_JS, VIEW)
        page.mouse.click(x, y)
        for turn in range(3):
            # the next person's double-click, 1 s after the hand-over line appeared
            page.wait_for_function(LINE_AGO_JS, arg=1000, timeout=patience(60_000))
            w = page.evaluate("() => window.__handOver")
            x, y = page.evaluate(WHERE_JS, VIEW)  # where the Roll is now
            n = page.evaluate(COUNT_JS, VIEW)
            page.evaluate(WATCH_JS, VIEW)
            page.mouse.dblclick(x, y)
            _round_trip(page)
            final, said = page.evaluate(COUNT_JS, VIEW), _error(page)
            seen.append({"handed": n, "final": final, "line": w["text"],
                         "panel_after_line_ms": w["panel"] and round(w["panel"] - w["line"]),
                         "said": said})  # fmt: skip
            if final != n + 1:
                problems.append(f"turn {turn}: the double-click played {final - n} moves")
                break
            if "already made" in said or "not used" in said:
                problems.append(f"turn {turn}: its second click said {said!r}")
        assert not problems, f"{problems}; seen: {seen}"
        # the person before's slower double-click (0.55 s apart) reaches the next person's
        # new Roll: it plays nothing for them
        page.wait_for_function(LINE_AGO_JS, arg=1000, timeout=patience(60_000))
        x, y = page.evaluate(WHERE_JS, VIEW)
        page.evaluate(WATCH_JS, VIEW)
        page.mouse.click(x, y)
        t_click = page.evaluate("() => window.__handOver.t0")
        page.wait_for_function("() => window.__handOver.line !== null",
                               timeout=patience(60_000))  # fmt: skip
        after = page.evaluate(COUNT_JS, VIEW)
        page.wait_for_function(f"() => performance.now() - {t_click} >= 550",
                               timeout=patience(30_000))  # fmt: skip
        late = page.evaluate(f"() => performance.now() - {t_click}")
        page.mouse.click(x, y)
        _round_trip(page)
        w = page.evaluate("() => window.__handOver")
        final = page.evaluate(COUNT_JS, VIEW)
        print(f"hand-overs seen: {seen}; slower double-click: the line "
              f"{round(w['line'] - t_click)} ms, the new Roll "
              f"{w['panel'] and round(w['panel'] - t_click)} ms after its first click, its "
              f"second click {round(late)} ms after it")  # fmt: skip
        if final != after:
            problems.append(f"the person before's second click played {final - after} moves")
        assert not problems, f"{problems}; seen: {seen}"
    except BaseException:
        screenshot(page, "hand-over-failure")
        raise
