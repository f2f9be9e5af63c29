"""Undo's refusal is said beside the Undo button (issue 38, the tester's F6), in Voila.

Before: after a roll, Undo wrote "⚠ Cannot undo: cannot undo past a die, spin or card already
seen: the game was started with undo='safe' ..." into the decision panel, about 1,200 px above
the button in Lab at 1280x800 (the button at y=528, the message at y=-705), and the button
stayed enabled. Now the button is disabled with the engine's one plain sentence as its tooltip,
and a refusal (here asked from code, as the button no longer can) is written beside it: its
box on the button's row, starting within a few pixels of the button's right edge, and nothing
in the decision panel.

Whenever the button is off for a reason, that reason is also visible beside it as a small
muted line, and names the button's description (aria-describedby): a touch or keyboard user
never sees a tooltip (hotseat48).
"""

from __future__ import annotations

import pytest
from conftest import patience, screenshot, voila_shows, write_probe_notebook

pytestmark = pytest.mark.browser

PROBE = """import moneynb
view = moneynb.play("money_moves", players=["You", "bot:greedy"], seed=3, autosave=False)
view.submit("roll")  # a die seen: the safe undo policy keeps it
view.undo()  # refused: the view says why beside its button
display(view)
fresh = moneynb.play("money_moves", players=["You", "bot:greedy"], seed=3, autosave=False)
fresh.add_class("probe-fresh")  # nothing to take back yet: Undo is off and says why
display(fresh)
"""

#: the fresh view's Undo button, the line beside it and what the button is described by
WHY_JS = """() => {
  const v = document.querySelector('.moneynb-view.probe-fresh');
  const b = v && v.querySelector('button.moneynb-undo');
  const n = v && v.querySelector('.moneynb-undo-note .moneynb-undo-why');
  if (!b || !n || !n.getClientRects().length) return null;
  const rb = b.getBoundingClientRect(), rn = n.getBoundingClientRect();
  const by = b.getAttribute('aria-describedby');
  const row = b.parentElement.getBoundingClientRect();
  return {button: [rb.left, rb.top, rb.right, rb.bottom], note: [rn.left, rn.top, rn.right,
          rn.bottom], text: n.textContent.trim(), disabled: b.disabled,
          described: by ? (document.getElementById(by) || {}).textContent : null,
          size: parseFloat(getComputedStyle(n).fontSize),
          buttonSize: parseFloat(getComputedStyle(b).fontSize),
          rowHeight: row.height, buttonHeight: rb.height};
}"""

WHERE_JS = """() => {
  const v = document.querySelector('.moneynb-view');
  const b = v && v.querySelector('button.moneynb-undo');
  const n = v && v.querySelector('.moneynb-undo-note .moneynb-undo-refused');
  if (!b || !n) return null;
  const rb = b.getBoundingClientRect(), rn = n.getBoundingClientRect();
  const err = v.querySelector('.moneynb-decision .moneynb-error');
  return {button: [rb.left, rb.top, rb.right, rb.bottom], note: [rn.left, rn.top, rn.right,
          rn.bottom], text: n.textContent.trim(), disabled: b.disabled, title: b.title,
          panel: err ? err.textContent.trim() : ''};
}"""


def test_an_undo_refused_is_said_beside_the_undo_button(voila_server, page):
    base, root = voila_server
    write_probe_notebook(root / "notebooks" / "probe_undo_note.ipynb", PROBE)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        page.goto(f"{base}/voila/render/probe_undo_note.ipynb", timeout=patience(240_000))
        voila_shows(page, ".moneynb-view .moneynb-undo-note .moneynb-undo-refused",
                    name="the probe view's undo note")  # fmt: skip
        seen = page.evaluate(WHERE_JS)
        assert seen, "no Undo button or note in the page"
        bl, bt, br, bb = seen["button"]
        nl, nt, nr, nb = seen["note"]
        sentence = "A roll, spin or card already seen can't be taken back in this game."
        assert seen["text"] == sentence, seen
        assert seen["disabled"] and seen["title"] == sentence, seen
        assert seen["panel"] == "", seen  # not in the decision panel
        # on the button's row, just right of it
        assert abs((nt + nb) / 2 - (bt + bb) / 2) < 20, seen
        assert -2 <= nl - br < 40, seen
        # a game with nothing to take back yet: the button is off and says why in words
        # beside it, small, on its row (no taller), and is described by those words
        # (hotseat48: the reason was only in the tooltip)
        page.wait_for_function(f"() => !!({WHY_JS})()", timeout=patience(60_000))
        why = page.evaluate(WHY_JS)
        bl, bt, br, bb = why["button"]
        nl, nt, nr, nb = why["note"]
        assert why["disabled"] and why["text"] == "There is nothing to take back yet.", why
        assert why["described"] == why["text"], why
        assert abs((nt + nb) / 2 - (bt + bb) / 2) < 20 and -2 <= nl - br < 40, why
        assert 11 <= why["size"] < why["buttonSize"] + 0.5, why
        assert why["rowHeight"] <= why["buttonHeight"] + 8, why
    except BaseException:
        screenshot(page, "undo-note-failure")
        raise
