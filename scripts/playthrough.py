"""Play each game for 40 moves in JupyterLab and in the Voila app, clicking in Chromium as a
new player would, and write down what made the player scroll, wait or misread (issue 38).

Usage (from the repository; needs JupyterLab, Voila, Python playwright and a Chromium, as the
browser tests do)::

    python scripts/playthrough.py [--out test-output/playthrough] [--only GAME] [--where lab|voila]
                                  [--moves 40] [--size 1024x700]

Not a test (it asserts nothing and takes minutes): its findings go into the issue's note.

For each game and place:

* **Lab**: a notebook holding the game page's first cells (its title, the start form and the
  cell that shows a game: "You" against the page's bots) is opened in JupyterLab with the file
  browser open (Lab's default), all cells run; the script does not scroll to the game (after
  the run or a reload): the view brings itself into sight (issue 38, F5), and a scroll the
  player still needs is counted;
* **Voila**: the game's page is opened as the app, the form's **Start** pressed.

Then, move by move: the player looks (is every button of the decision in sight, and the
whole board, without scrolling? the smallest text of the board on screen, px), scrolls the
board's row to the top if not (counted), and clicks a button of the decision (a seeded pick:
the main button, Roll / Submit / End the turn, half the time; found by its text); waits until
the game answered that click (the header's action number past the one looked at and the
decision now pending drawn and focused, or the game over, or the click refused with a
message). It looks only at a settled view (the focus served for the decision the header
names): a look before that saw the last decision's panel and clicked it (issue 38: the run
hung after "Play Wild Card"; tests/browser/test_playthrough_script_browser.py). Move 10
is a DOUBLE-click (one of the player's decisions must be answered, not two); before move 20 the page is saved (Lab) and reloaded (the game must come
back as it was). A game that ends is followed by a new one (Lab: the cells run again; Voila:
Start). Pictures at moves 1, 10, 20 (after the reload) and the last.

Writes ``<out>/findings.json`` (per game and place: each move's figures and what was seen)
and ``<out>/findings.md`` (the summary), and prints the summary.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

GAMES = ("moolah", "easy_money", "money_card", "money_moves", "money_run")
#: a decision's main buttons, first found first (as tests/browser/test_zz_boards_fit_browser)
MAIN = (".moneynb-roll", ".moneynb-spin", ".moneynb-mr-end", ".moneynb-submit", ".moneynb-em-end")
SKIP = re.compile(r"^\s*(Back|Cancel|Undo.*|Let the bots move)\s*$", re.I)

#: what the player sees of a view: ``(selector) -> dict``
LOOK_JS = r"""(sel) => {
  const v = document.querySelector(sel);
  if (!v) return null;
  const sight = (el) => {
    let top = 0, bottom = innerHeight;
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (p.scrollHeight > p.clientHeight && /auto|scroll/.test(getComputedStyle(p).overflowY)) {
        const q = p.getBoundingClientRect();
        top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom);
      }
    }
    return {top, bottom};
  };
  const inSight = (el) => { const r = el.getBoundingClientRect(), s = sight(el);
    return r.height > 0 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1; };
  const buttons = [...v.querySelectorAll('.moneynb-decision button')]
    .filter(b => b.offsetParent && !b.disabled);
  const board = v.querySelector('.moneynb-board');
  let px = Infinity, small = '';
  for (const svg of v.querySelectorAll('.moneynb-board svg.main-svg')) {
    const scale = svg.getBoundingClientRect().width / (Number(svg.getAttribute('width')) || 1);
    for (const t of svg.querySelectorAll('text')) {
      const s = t.textContent.trim();
      if (!s || t.closest('.hoverlayer') || !t.getClientRects().length) continue;
      const p = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (p < px) { px = p; small = s.slice(0, 24); }
    }
  }
  const head = v.querySelector('.moneynb-header');
  const text = (c) => (v.querySelector(c)?.innerText || '').trim();
  const m = (head?.textContent || '').match(/action (\d+)/);
  return {
    action: m ? Number(m[1]) : null,
    over: /Game over/.test(head?.textContent || ''),
    turn: text('.moneynb-turn'), last: text('.moneynb-last-move'),
    prompt: text('.moneynb-prompt'), error: text('.moneynb-error'),
    lost: text('.moneynb-lost-note') || text('.moneynb-offline-note'),
    buttons: buttons.map(b => b.textContent.trim()),
    buttonsInSight: buttons.length > 0 && buttons.every(inSight),
    boardInSight: !!board && inSight(board),
    // the "Last move" line (issue 38: out of sight after every move); true before any move
    lastInSight: !v.querySelector('.moneynb-header .moneynb-last-move')
      || inSight(v.querySelector('.moneynb-header .moneynb-last-move')),
    textPx: Math.round(px * 10) / 10, smallest: small,
    layout: v.querySelector('.moneynb-board-row')?.dataset.layout || '',
    fit: v.querySelector('.moneynb-board-row')?.dataset.fit || '',
    log: Number(v.querySelector('.moneynb-log-box')?.dataset.count || 0),
    focused: v.querySelector('.moneynb-a11y')?.dataset.focused || '',
  };
}"""


def _pick(view, rng, texts):
    """The button a new player clicks among the decision's enabled buttons, whose texts are
    ``texts`` (as looked at: never Undo, Back, Cancel, "Let the bots move"): the main one
    (Roll / Submit / End the turn) half the time, else any. Returns ``(text, locator)``; the
    locator finds the button by its text, not by its place in the list (a place in a list
    that changed under it found nothing: the script waited minutes, issue 38), or
    ``(None, None)`` when there is none."""
    texts = [t for t in texts if not SKIP.match(t)]
    if not texts:
        return None, None
    enabled = view.locator(".moneynb-decision button:not([disabled])")
    text = None
    if rng.random() < 0.5:
        for css in MAIN:
            b = view.locator(f".moneynb-decision button{css}:not([disabled])")
            if b.count():
                text = b.first.inner_text(timeout=10_000).strip()
                break
    if text is None or text not in texts:
        text = texts[rng.randrange(len(texts))]
    exact = re.compile(r"^\s*" + re.escape(text) + r"\s*$")
    return text, enabled.filter(has_text=exact).first


#: the view is settled: its pending decision's panel is drawn and focused (the focus request
#: names the number of actions played: A11yHelper.focus_panel), or the game is over, or lost
SETTLED_JS = r"""(sel) => { const v = document.querySelector(sel); if (!v) return false;
    if (v.querySelector('.moneynb-lost-note')) return true;
    const head = v.querySelector('.moneynb-header')?.textContent || '';
    if (/Game over/.test(head)) return true;
    const m = head.match(/action (\d+)/);
    const f = v.querySelector('.moneynb-a11y')?.dataset.focused || '';
    return !!m && f === m[1]; }"""


def _settle(page, sel, patience):
    """Wait until the view is :data:`SETTLED_JS` (a look before that saw the last decision's
    panel, still on screen for a moment after the header changed, and clicked it: issue 38)."""
    page.wait_for_function(SETTLED_JS, arg=sel, timeout=min(patience(60_000), 180_000))


def _wait_turn(page, sel, before, patience):
    """Wait until the game answered THIS click: the header's action number went past the
    one looked at and the decision now pending is drawn and focused (:data:`SETTLED_JS`), or
    the game is over, or the click was refused with a message, or the game was lost; returns
    the seconds waited. (It waited for any new focus before, and took the focus of a
    decision the page had not yet replaced, or of a new game, for the answer: the next look
    saw the last panel and clicked it; issue 38, the hang after "Play Wild Card".)"""
    t0 = time.monotonic()
    page.wait_for_function(
        """([sel, action, error]) => { const v = document.querySelector(sel); if (!v) return false;
            if (v.querySelector('.moneynb-lost-note')) return true;
            const head = v.querySelector('.moneynb-header')?.textContent || '';
            const m = head.match(/action (\\d+)/);
            const a = m ? Number(m[1]) : null;
            const f = v.querySelector('.moneynb-a11y')?.dataset.focused || '';
            const err = (v.querySelector('.moneynb-error')?.innerText || '').trim();
            if (err && err !== error && a === action) return true;
            return a !== null && a > action && (/Game over/.test(head) || f === String(a)); }""",
        arg=[sel, before["action"] if before["action"] is not None else -1, before["error"]],
        timeout=min(patience(60_000), 180_000),
    )
    return round(time.monotonic() - t0, 2)


#: the view settled where it brings itself (issue 38, F5: ``data-moneynb-kept`` "done" or
#: never set) with its decision served
KEPT_JS = """(sel) => { const v = document.querySelector(sel);
    return !!v && (v.dataset.moneynbKept || 'done') === 'done'
        && !!v.querySelector('.moneynb-a11y[data-focused]'); }"""


def play(page, sel, game, where, moves, out, reload_page, new_game, patience):
    """Play ``moves`` moves in the view ``sel``; returns the list of per-move records."""
    rng = random.Random(f"{game}-{where}")
    view = page.locator(sel)
    records = []
    for k in range(1, moves + 1):
        if k == 20:  # the reload
            t0 = time.monotonic()
            reload_page()
            view = page.locator(sel)
            page.wait_for_function(
                "(sel) => document.querySelector(sel + ' .js-plotly-plot .scatterlayer .trace')",
                arg=sel, timeout=patience(240_000),
            )  # fmt: skip
            records.append(
                {"move": k, "event": "reload", "seconds": round(time.monotonic() - t0, 1)}
            )
            page.wait_for_function(KEPT_JS, arg=sel, timeout=patience(120_000))
        _settle(page, sel, patience)
        look = page.evaluate(LOOK_JS, sel)
        if look is not None and look["over"]:  # a new game, as the player would start one
            records.append({"move": k, "event": "game over: new game", "turn": look["turn"]})
            new_game()
            page.wait_for_function(
                """(sel) => { const v = document.querySelector(sel);
                    const h = v && v.querySelector('.moneynb-header');
                    return h && !/Game over/.test(h.textContent)
                        && v.querySelector('.js-plotly-plot .scatterlayer .trace'); }""",
                arg=sel, timeout=patience(240_000),
            )  # fmt: skip
            page.wait_for_function(KEPT_JS, arg=sel, timeout=patience(120_000))
            view = page.locator(sel)
            _settle(page, sel, patience)
            look = page.evaluate(LOOK_JS, sel)
        if look is None or look["lost"]:
            records.append({"move": k, "event": "stopped", "look": look})
            break
        rec = {"move": k, "look": look, "scrolled": False}
        rec["misreads"] = misreads(look)
        if not (look["buttonsInSight"] and look["boardInSight"] and look["lastInSight"]):
            # the player scrolls: the last move's line (the board's row under it) to the top
            rec["scrolled"] = True
            view.evaluate("v => (v.querySelector('.moneynb-header .moneynb-last-move')"
                          " || v.querySelector('.moneynb-board-row') || v)"
                          ".scrollIntoView({block: 'start'})")  # fmt: skip
            page.evaluate(
                "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )
            after = page.evaluate(LOOK_JS, sel)
            rec["afterScroll"] = {
                x: after[x] for x in ("buttonsInSight", "boardInSight", "lastInSight")
            }
        text, button = _pick(view, rng, look["buttons"])
        if button is None:
            rec["event"] = "no button to press"
            records.append(rec)
            break
        rec["clicked"] = text
        if k in (1, 10, 20, moves):
            page.screenshot(path=str(out / f"{game}-{where}-move{k}.png"))
        try:
            if k == 10:
                rec["double"] = True
                button.dblclick(timeout=30_000)
            else:
                button.click(timeout=30_000)
            rec["waited"] = _wait_turn(page, sel, look, patience)
        except Exception as e:  # noqa: BLE001 - a finding, not a crash of the script
            rec["event"] = f"no answer: {type(e).__name__}: {str(e)[:160]}"
            records.append(rec)
            break
        now = page.evaluate(LOOK_JS, sel)
        rec["result"] = {x: now[x] for x in ("action", "last", "error", "turn")}
        if k == 10:
            time.sleep(1.5)  # the second click's message reaches the kernel
            now2 = page.evaluate(LOOK_JS, sel)
            rec["afterDouble"] = {x: now2[x] for x in ("action", "last", "error", "turn")}
        records.append(rec)
        print(
            f"  {game} {where} move {k}: {rec.get('clicked')!r} waited {rec.get('waited')} s"
            f"{' (scrolled)' if rec['scrolled'] else ''} {rec.get('event', '')}",
            flush=True,
        )
    page.screenshot(path=str(out / f"{game}-{where}-end.png"))
    return records


def _lab_notebook(game: str, path: Path) -> None:
    """The game page's cells up to the one that shows a game (what a new player runs first)."""
    nb = json.loads((REPO / "notebooks" / f"{game}.ipynb").read_text())
    cells, keep = nb["cells"], []
    for c in cells:
        keep.append(c)
        if c["cell_type"] == "code" and "moneynb.play(" in "".join(c["source"]):
            break
    nb["cells"] = keep
    path.write_text(json.dumps(nb))


#: what a player misreads in the words on screen (issue 38): grid coordinates or a raw value,
#: a die's face code, a purchase said twice ("(buys X)" then "buys X")
MISREAD = re.compile(r"\(\s*'|\(\d+, ?\d+\)|\b(?:RE-[LR]|PL|SAFE)\b|\(buys [^)]+\)")


def misreads(look: dict) -> list[str]:
    """The misreads in one look at the view (its header lines, prompt, buttons)."""
    texts = [look.get(k) or "" for k in ("turn", "last", "prompt", "error")]
    texts += look.get("buttons") or []
    return [t[:120] for t in texts if MISREAD.search(t)]


def summarize(results: dict) -> str:
    lines = ["| game | place | moves | scrolls needed | misreads | text px (min) | mean wait s | double-click | reload | errors |",
             "|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for (game, where), recs in results.items():
        moves = [r for r in recs if "look" in r and "clicked" in r]
        scroll = sum(r["scrolled"] for r in moves)
        px = min((r["look"]["textPx"] for r in moves), default=None)
        waits = [r["waited"] for r in moves if "waited" in r]
        dbl = next((r for r in moves if r.get("double")), None)
        dtext = "-"
        if dbl and "result" in dbl and "afterDouble" in dbl:
            dtext = (
                "one move"
                if dbl["afterDouble"]["action"] == dbl["result"]["action"]
                else (f"action {dbl['result']['action']} -> {dbl['afterDouble']['action']}")
            )
        rl = next((r for r in recs if r.get("event") == "reload"), None)
        errs = sorted(
            {r["look"]["error"] for r in moves if r["look"]["error"]}
            | {r["event"] for r in recs if r.get("event") not in (None, "reload")}
        )
        misread = sorted({m for r in moves for m in r.get("misreads", [])})
        lines.append(
            f"| {game} | {where} | {len(moves)} | {scroll} | {len(misread)}"
            f"{': ' + '; '.join(misread)[:160] if misread else ''} | {px} | "
            f"{sum(waits) / len(waits) if waits else 0:.1f} | {dtext} | "
            f"{rl['seconds'] if rl else '-'} s | {'; '.join(errs)[:200] or '-'} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    import signal

    # stopped (kill): the servers and the browser are still stopped (the finally blocks run)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO / "test-output" / "playthrough"))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--where", action="append", default=[], choices=("lab", "voila"))
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--size", default="1024x700")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    w, h = (int(x) for x in args.size.split("x"))

    from conftest import CHROMIUM_ARGS, find_chromium, open_and_run
    from playwright.sync_api import sync_playwright
    from servers import jupyter_server, patience

    games = [g for g in GAMES if not args.only or g in args.only]
    places = args.where or ["lab", "voila"]
    results: dict = {}
    exe = find_chromium()
    with sync_playwright() as p:
        for where in places:
            with jupyter_server(where, timeout=120) as server:
                base, root = server
                profile = tempfile.mkdtemp(prefix="moneynb-play-")
                ctx = p.chromium.launch_persistent_context(
                    profile, executable_path=exe, headless=True, args=CHROMIUM_ARGS,
                    viewport={"width": w, "height": h},
                )  # fmt: skip
                try:
                    for game in games:
                        page = ctx.new_page()
                        page.set_default_timeout(patience(60_000))
                        # "leave the page?" (Lab with unsaved changes): the player says yes
                        page.on("dialog", lambda d: d.accept())
                        t0 = time.monotonic()
                        try:
                            if where == "lab":
                                nbp = f"notebooks/_play_{game}.ipynb"
                                _lab_notebook(game, root / nbp)
                                open_and_run(page, server, nbp, timeout_s=180)
                                sel = ".jp-Notebook .moneynb-view"

                                def reload_page(page=page):
                                    page.keyboard.press("Control+s")
                                    # saved: the tab no longer marked dirty (Lab asks before
                                    # leaving a page with unsaved changes)
                                    page.wait_for_function(
                                        "() => !document.querySelector('.jp-mod-dirty')",
                                        timeout=patience(30_000),
                                    )
                                    page.reload()
                                    # Lab opens the notebook at its top: the game's view
                                    # brings itself into sight (issue 38, F5); no scroll of
                                    # the script's own (a scroll the player still needs is
                                    # counted at the next move)
                                    page.wait_for_selector(".jp-Notebook .jp-CodeCell")

                                def new_game(page=page):  # the cells run again
                                    page.evaluate("window.jupyterapp.commands.execute("
                                                  "'notebook:run-all-cells')")  # fmt: skip
                            else:
                                page.goto(f"{base}/voila/render/{game}.ipynb",
                                          timeout=patience(240_000))  # fmt: skip
                                from conftest import launcher_form

                                form = launcher_form(page)
                                form.locator("button.moneynb-launch-start").click()
                                sel = ".moneynb-launch-game-box .moneynb-view"

                                def reload_page(page=page):
                                    page.reload()

                                def new_game(page=page):  # the form's Start again
                                    page.locator("button.moneynb-launch-start").click()

                            page.wait_for_function(
                                "(sel) => document.querySelector(sel + ' .js-plotly-plot .scatterlayer .trace')",
                                arg=sel, timeout=patience(240_000),
                            )  # fmt: skip
                            start_s = round(time.monotonic() - t0, 1)
                            page.wait_for_function(KEPT_JS, arg=sel,
                                                   timeout=patience(120_000))  # fmt: skip
                            if where == "voila":  # (Lab: the view brings itself, F5)
                                page.locator(sel).first.evaluate(
                                    "v => v.querySelector('.moneynb-header')"
                                    ".scrollIntoView({block: 'start'})"
                                )
                            recs = [{"event": "start", "seconds": start_s}]
                            recs += play(
                                page,
                                sel,
                                game,
                                where,
                                args.moves,
                                out,
                                reload_page,
                                new_game,
                                patience,
                            )
                        except Exception as e:  # noqa: BLE001 - write it down, go on
                            recs = [{"event": f"failed: {type(e).__name__}: {str(e)[:300]}"}]
                            page.screenshot(path=str(out / f"{game}-{where}-failed.png"))
                        results[(game, where)] = recs
                        print(game, where, "done", flush=True)
                        page.close()
                finally:
                    ctx.close()
                    shutil.rmtree(profile, ignore_errors=True)
    (out / "findings.json").write_text(
        json.dumps({f"{g} {w}": r for (g, w), r in results.items()}, indent=1)
    )
    summary = summarize(results)
    (out / "findings.md").write_text(summary + "\n")
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
