"""An amount is what the player typed, or a clear message, in the page (issue 18, case 4).

Every game with an amount decision (Easy Money's auction bid, Money Card's bet, Money Moves'
borrowing, Moolah's first withdrawal; Money Run has no money) in ONE JupyterLab notebook: a
probe cell plays each game (people in every seat, always the first legal action) up to a
person's amount decision and shows its view. In the page, for each game with an amount box:
the box starts at the recommended amount (else the lowest); a non-number, an amount out of
range (above and below; "1e9" is refused for not being digits) and, where the step is more than $1, an amount
off the step are each typed and submitted: each is refused with a message naming the allowed
range (the engine's own sentence), and the game does not move (the header's action count and
the log stay). Then the recommended amount is submitted and the game moves on by exactly one
decision. Money Card's bet has no box to type in: one button per allowed amount, checked so.
"""

from __future__ import annotations

import json

import pytest
from conftest import open_and_run, patience, screenshot, write_probe_notebook

pytestmark = pytest.mark.browser

CELL = """\
import ipywidgets as W
import moneynb
from moneynb.ui.view import GameView

def at_amount(name):
    # the first seed whose game, always taking the first legal action (the lowest amount),
    # reaches a person's amount decision with a range of choices
    for seed in range(1, 40):
        g = moneynb.new_game(name, players=["You", "Ann"], seed=seed)
        for _ in range(400):
            d = g.decision
            if d is None:
                break
            if d.kind == "amount" and d.low is not None and d.high is not None and d.high > d.low:
                return g
            g.apply(d.low if d.kind == "amount" else g.legal_actions()[0])
    raise AssertionError(f"{name}: no amount decision found")

views = {}
for name in ["easy_money", "money_card", "money_moves", "moolah"]:
    views[name] = GameView(at_amount(name), autosave=None)
    views[name].add_class("probe-" + name)
facts = {name: dict(low=v.game.decision.low, high=v.game.decision.high,
                    step=v.game.decision.step, suggested=v.game.decision.suggested,
                    rule=v.game.decision.describe(), actions=len(v.game.actions))
         for name, v in views.items()}
print("FACTS" + __import__("json").dumps(facts))
W.VBox(list(views.values()))
"""

STATE_JS = """(sel) => {
    const v = document.querySelector(sel);
    const m = /action (\\d+)/.exec(v.querySelector('.moneynb-header').textContent);
    const box = v.querySelector('.moneynb-decision .moneynb-amount-text input');
    const msg = v.querySelector('.moneynb-decision .moneynb-amount-error');
    return {actions: m ? Number(m[1]) : -1, box: box ? box.value : null,
            message: msg ? msg.textContent.trim() : '',
            log: Number(v.querySelector('.moneynb-log-box').dataset.count)};
}"""


def _bad_inputs(f: dict) -> list[tuple[str, str]]:
    """(typed, what the message must say) for the decision described by ``f``."""
    out = [
        ("abc", "not a whole number"),
        (str(f["high"] + max(1, f["step"]) * 1000), "out of range"),
        ("1e9", "type whole dollars as digits"),  # a power of ten is refused, never read
        (str(-5000 if f["low"] >= 0 else f["low"] - 5000), "out of range"),
    ]
    if f["step"] > 1:  # a typed amount off the step is refused, not rounded
        out.append((str(f["low"] + f["step"] // 2 + 1), "not a multiple of the step"))
    return out


def _submit(page, sel: str, typed: str) -> None:
    box = page.locator(f"{sel} .moneynb-decision .moneynb-amount-text input")
    box.fill(typed)
    box.press("Enter")  # the box's value reaches the kernel (a Text widget syncs on change)
    # a new value clears the last message: wait for that, so the next message read is this
    # input's (two inputs in a row may be refused for the same reason)
    page.wait_for_function(
        "(sel) => { const m = document.querySelector(sel + "
        "' .moneynb-decision .moneynb-amount-error'); return !m || !m.textContent.trim(); }",
        arg=sel,
        timeout=patience(10_000),
    )
    page.locator(f"{sel} .moneynb-decision button.moneynb-submit").click()


def test_typed_amounts_are_refused_with_the_range_or_taken_as_typed(lab_server, page):
    _base, root = lab_server
    write_probe_notebook(root / "notebooks" / "_amounts_probe.ipynb", CELL)
    try:
        open_and_run(page, lab_server, "notebooks/_amounts_probe.ipynb", timeout_s=90)
        out = page.locator(".jp-OutputArea-output", has_text="FACTS").first.inner_text()
        facts = json.loads(out.split("FACTS", 1)[1].strip().splitlines()[0])
        for name, f in facts.items():
            sel = f".probe-{name}"
            if name == "money_card":  # the Monte Carlo bet: a button per allowed amount
                bets = page.locator(f"{sel} .moneynb-decision button[class*='moneynb-bet-']")
                bets.first.wait_for()
                shown = sorted(
                    t.strip() for t in bets.all_inner_texts() if t.strip().startswith("$")
                )
                allowed = range(f["low"], f["high"] + 1, f["step"])
                assert shown == sorted(f"${a}" for a in allowed), shown
                assert page.locator(f"{sel} .moneynb-amount-text").count() == 0
                continue
            page.locator(f"{sel} .moneynb-decision .moneynb-amount-text input").wait_for()
            start = page.evaluate(STATE_JS, sel)
            assert start["actions"] == f["actions"], (name, start, f)
            recommended = f["suggested"] if f["suggested"] is not None else f["low"]
            assert start["box"] == str(recommended), (name, start["box"], recommended)
            for typed, why in _bad_inputs(f):
                _submit(page, sel, typed)
                page.wait_for_function(
                    "([sel, why]) => { const m = document.querySelector(sel + "
                    "' .moneynb-decision .moneynb-amount-error'); "
                    "return m && m.textContent.includes(why); }",
                    arg=[sel, why],
                    timeout=patience(10_000),
                )
                now = page.evaluate(STATE_JS, sel)
                # the message names the allowed range in the engine's own words
                rule = f["rule"][:1].upper() + f["rule"][1:]
                assert rule in now["message"], (name, typed, now["message"], rule)
                assert (now["actions"], now["log"]) == (start["actions"], start["log"]), (
                    f"{name}: {typed!r} moved the game: {start} -> {now}"
                )
            _submit(page, sel, str(recommended))
            page.wait_for_function(
                "([sel, n]) => { const m = /action (\\d+)/.exec(document.querySelector(sel + "
                "' .moneynb-header').textContent); return m && Number(m[1]) > n; }",
                arg=[sel, start["actions"]],
                timeout=patience(15_000),
            )
            after = page.evaluate(STATE_JS, sel)
            assert after["actions"] == start["actions"] + 1, (name, after)
            assert "⚠" not in page.locator(f"{sel} .moneynb-error").inner_text()
    except BaseException:
        screenshot(page, "amounts-failure")
        raise
    finally:  # leave no probe tab for Lab to restore in a later test's page
        page.evaluate("window.jupyterapp.commands.execute('application:close-all')")
