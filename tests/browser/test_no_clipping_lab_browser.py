"""No control's text cut and nothing of a view past the notebook's right edge in JupyterLab
at 1024x700 with the file browser open (Lab's default), all five games (issue 38, the
tester's F9).

One probe notebook shows each game (a person against greedy bots, seeded); each is taken on
(two greedy bots play, in the kernel, a copy of the game) to the person's next decision of a
kind not shown yet, a few times, and at each position (``CLIP_JS``):

* every drop-down's options each fit its box (the closed list shows the chosen one: Money
  Card's space list read "Frankfurt (4 move" / "Hamburg (5 mov");
* nothing of the view lies past the notebook's right edge (the part of the window the
  notebook shows: Money Card's right column was cut there);
* no line of the money table (its first column: "American Express (charges)" over 3 lines)
  or of its header takes more than two lines.
"""

from __future__ import annotations

import json

import pytest
from conftest import (
    NEXT_KINDS_CODE,
    open_and_run,
    painted,
    patience,
    screenshot,
    write_probe_notebook,
)

pytestmark = pytest.mark.browser

GAMES = ("moolah", "easy_money", "money_card", "money_moves", "money_run")
#: positions checked per game (the start, then the person's decisions of new kinds)
STEPS = 6

PROBE = (
    NEXT_KINDS_CODE
    + r"""
import moneynb
from IPython.display import display

VIEWS = {}
for name in GAMES_HERE:
    who = ["Ann", "bot:greedy"] + (["bot:greedy"] if name != "money_run" else [])
    v = moneynb.play(name, players=who, seed=7, autosave=False)
    v.add_class("probe-" + name)
    VIEWS[name] = v
    display(v)

display(next_kinds_button(VIEWS, "probe-next"))
""".replace("GAMES_HERE", repr(GAMES))
)

#: one view's cut text: ``(name) -> [problem, ...]``
CLIP_JS = r"""(name) => {
  const v = document.querySelector('.moneynb-view.probe-' + name);
  if (!v) return ['no view'];
  const out = [];
  // the notebook's right edge: the box it scrolls in, cut by the window
  const nb = v.closest('.jp-WindowedPanel-outer') || v.closest('.jp-Notebook');
  const edge = Math.min(innerWidth, nb.getBoundingClientRect().right);
  for (const el of v.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > edge + 1 && !el.ownerSVGElement && !el.closest('.moneynb-sr-only')
        && getComputedStyle(el).visibility !== 'hidden') {
      out.push(`${el.tagName}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 30)}" ends at ${Math.round(r.right)} past the notebook's edge ${Math.round(edge)}`);
      break;
    }
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const s of v.querySelectorAll('select')) {
    if (!s.offsetParent) continue;
    // the narrow column beside the board (180 px) cannot hold a long option (Money Run's
    // "Place the small coin from table slot 1 of 5"): there the chosen one is written in
    // full words under the list (panels.chosen_words), which must then show it whole
    const words = s.closest('.moneynb-side')?.querySelector('.moneynb-choice-words');
    const chosen = s.options[s.selectedIndex]?.text || '';
    if (s.closest('.moneynb-board-row[data-side="narrow"]') && words && words.offsetParent
        && words.textContent.replace(/\s/g, ' ').includes(chosen.replace(/\s/g, ' '))) {
      const wr = words.getBoundingClientRect();
      if (wr.right > edge + 1) out.push(`chosen words "${chosen}" past the notebook's edge`);
      continue;
    }
    const cs = getComputedStyle(s);
    canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    // the text's room: the box less its padding (the arrow is drawn in the right padding)
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    for (const o of s.options) {
      const w = canvas.measureText(o.text).width;
      if (w > room + 0.5) { out.push(`option "${o.text}" ${Math.round(w)} px in a ${Math.round(room)} px list (row ${s.closest('.moneynb-board-row')?.dataset.layout}/${s.closest('.moneynb-board-row')?.dataset.side}; words ${JSON.stringify(words?.textContent)} ${!!words?.offsetParent})`); break; }
    }
  }
  for (const row of v.querySelectorAll('.moneynb-money-table tr')) {
    for (const c of row.children) {
      if (!c.offsetParent || !c.textContent.trim()) continue;
      const lh = parseFloat(getComputedStyle(c).lineHeight) || parseFloat(getComputedStyle(c).fontSize) * 1.3;
      const lines = Math.round((c.clientHeight - parseFloat(getComputedStyle(c).paddingTop) - parseFloat(getComputedStyle(c).paddingBottom)) / lh);
      if (lines > 2) { out.push(`table cell "${c.textContent.trim().slice(0, 40)}" over ${lines} lines`); break; }
    }
  }
  return out;
}"""


def test_no_text_cut_in_lab_at_1024(lab_server, page):
    _base, root = lab_server
    nb = "notebooks/_no_clipping_probe.ipynb"
    write_probe_notebook(root / nb, PROBE)
    page.set_viewport_size({"width": 1024, "height": 700})
    problems: dict[str, list] = {}
    try:
        open_and_run(page, lab_server, nb, timeout_s=180)
        page.wait_for_function(
            "(names) => names.every(n => document.querySelector("
            "'.moneynb-view.probe-' + n + ' .moneynb-board svg.main-svg'))",
            arg=list(GAMES),
            timeout=patience(120_000),
        )
        assert not page.evaluate("() => window.jupyterapp.shell.leftCollapsed")
        shown = {n: "start" for n in GAMES}
        for step in range(STEPS):
            painted(page)
            for name, kind in shown.items():
                page.locator(f".moneynb-view.probe-{name}").scroll_into_view_if_needed()
                painted(page)
                if found := page.evaluate(CLIP_JS, name):
                    problems[f"{name} {kind}"] = found
            if step == STEPS - 1:
                break
            page.locator("button.probe-next").click()
            page.wait_for_function(
                "(n) => JSON.parse(document.querySelector('.probe-kinds').textContent).seq > n",
                arg=step,
                timeout=patience(120_000),
            )
            shown = json.loads(page.locator(".probe-kinds").inner_text())["shown"]
            # every view drawn its new position (its decision focused afresh)
            page.wait_for_function(
                "() => document.querySelector('.jp-Notebook-ExecutionIndicator')"
                "?.getAttribute('data-status') === 'idle'",
                timeout=patience(120_000),
            )
        assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
    except BaseException:
        screenshot(page, "no-clipping-lab-failure")
        raise
